//! Before any byte: name resolution, TCP connect and hosts with several
//! addresses. Every failure here is at a pre-write stage, so it proves the
//! request was not sent.

use std::time::Duration;

use evident_core::AttemptStage as S;
use evident_core::ExecutionEvidence as E;
use evident_core::FailureCategory as C;
use evident_core::decide::{RetryReason as R, StopReason as X};

use super::{ok, retry, stop, succeeded};
use crate::lab::Http1Behaviour as H1;
use crate::scenario::{
    AddressFault, ClientSpec, DEFAULT_CLIENT, Expect, Fault, Scenario, ScenarioCall,
};

/// The connect scenarios, in table order.
pub(super) fn scenarios() -> Vec<Scenario> {
    vec![
        Scenario::one_call(
            "name_not_found",
            "a name that does not exist is permanent and proves not sent",
            Fault::NameNotFound,
            ScenarioCall::post(),
            vec![Expect::failed(
                S::Resolve,
                C::NameNotFound,
                E::NotSent,
                stop(X::PermanentFailure),
            )],
            0,
        ),
        Scenario::one_call(
            "connection_refused",
            "a refused connection is retried even for a POST, until attempts run out",
            Fault::Refused,
            ScenarioCall::post(),
            vec![
                Expect::failed(
                    S::Connect,
                    C::ConnectionRefused,
                    E::NotSent,
                    retry(R::NotSent),
                ),
                Expect::failed(
                    S::Connect,
                    C::ConnectionRefused,
                    E::NotSent,
                    retry(R::NotSent),
                ),
                Expect::failed(
                    S::Connect,
                    C::ConnectionRefused,
                    E::NotSent,
                    stop(X::AttemptsExhausted),
                ),
            ],
            0,
        ),
        Scenario::one_call(
            "connect_timeout",
            "a connect that hangs is a connect timeout, not sent, retried for a POST",
            Fault::ConnectTimeout,
            ScenarioCall::post(),
            vec![
                Expect::failed(S::Connect, C::ConnectTimeout, E::NotSent, retry(R::NotSent)),
                Expect::failed(
                    S::Connect,
                    C::ConnectTimeout,
                    E::NotSent,
                    stop(X::AttemptsExhausted),
                ),
            ],
            0,
        )
        .client(ClientSpec {
            max_attempts: 2,
            attempt_timeout: Duration::from_millis(500),
            ..DEFAULT_CLIENT
        }),
        Scenario::one_call(
            "two_addresses_silent_then_answers",
            "a silent first address costs the Connection Attempt Delay, not the attempt: the second answers the first attempt",
            Fault::TwoAddresses(AddressFault::Silent, AddressFault::Answers),
            ScenarioCall::post(),
            vec![succeeded()],
            1,
        )
        .client(ClientSpec {
            max_attempts: 2,
            attempt_timeout: Duration::from_secs(1),
            ..DEFAULT_CLIENT
        }),
        Scenario::one_call(
            "two_addresses_refused_then_untrusted",
            "the permanent TLS failure of the second address surfaces, not the refusal",
            Fault::TwoAddresses(AddressFault::Refused, AddressFault::UntrustedCertificate),
            ScenarioCall::post(),
            vec![Expect::failed(
                S::Tls,
                C::TlsCertificate,
                E::NotSent,
                stop(X::PermanentFailure),
            )],
            0,
        ),
        Scenario::one_call(
            "two_addresses_untrusted_then_refused",
            "a later, milder refusal never hides an earlier permanent TLS failure",
            Fault::TwoAddresses(AddressFault::UntrustedCertificate, AddressFault::Refused),
            ScenarioCall::post(),
            vec![Expect::failed(
                S::Tls,
                C::TlsCertificate,
                E::NotSent,
                stop(X::PermanentFailure),
            )],
            0,
        ),
        Scenario::one_call(
            "ok_200_ipv6",
            "baseline on the IPv6 loopback",
            Fault::Http1 {
                script: vec![H1::Respond(ok())],
                tls: false,
                ipv6: true,
                receive_buffer: None,
            },
            ScenarioCall::post(),
            vec![succeeded()],
            1,
        ),
    ]
}
