//! TLS: handshake failures (pre-write, so not sent) and HTTP/1.1 over TLS
//! behaving as over TCP.

use std::time::Duration;

use evident_core::AttemptStage as S;
use evident_core::ExecutionEvidence as E;
use evident_core::FailureCategory as C;
use evident_core::decide::{RetryReason as R, StopReason as X};

use super::{after_write, h1_tls, ok, retry, stop, succeeded};
use crate::lab::{Http1Behaviour as H1, TlsFault};
use crate::scenario::{ClientSpec, DEFAULT_CLIENT, Expect, Fault, Scenario, ScenarioCall};

/// The TLS scenarios, in table order.
pub(super) fn scenarios() -> Vec<Scenario> {
    vec![
        Scenario::one_call(
            "ok_200_tls",
            "baseline over TLS",
            h1_tls(vec![H1::Respond(ok())]),
            ScenarioCall::post(),
            vec![succeeded()],
            1,
        ),
        Scenario::one_call(
            "tls_untrusted_certificate",
            "a certificate from an untrusted CA is permanent and proves not sent",
            Fault::Tls(TlsFault::UntrustedCertificate),
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
            "tls_closed_during_handshake",
            "a handshake the server abandons proves not sent and is retried",
            Fault::Tls(TlsFault::ClosedDuringHandshake),
            ScenarioCall::post(),
            vec![
                Expect::failed(S::Tls, C::TlsHandshake, E::NotSent, retry(R::NotSent)),
                Expect::failed(S::Tls, C::TlsHandshake, E::NotSent, retry(R::NotSent)),
                Expect::failed(
                    S::Tls,
                    C::TlsHandshake,
                    E::NotSent,
                    stop(X::AttemptsExhausted),
                ),
            ],
            0,
        ),
        Scenario::one_call(
            "tls_handshake_stalls",
            "a handshake that never completes times out at tls, not sent, retried for a POST",
            Fault::Tls(TlsFault::StalledHandshake),
            ScenarioCall::post(),
            vec![
                Expect::failed(S::Tls, C::ConnectTimeout, E::NotSent, retry(R::NotSent)),
                Expect::failed(
                    S::Tls,
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
            "closed_after_request_tls",
            "a close after the request over TLS is as ambiguous as over TCP",
            h1_tls(vec![
                H1::CloseAfterRequest { execute: true },
                H1::Respond(ok()),
            ]),
            ScenarioCall::post(),
            vec![after_write(C::ConnectionClosed, stop(X::NotIdempotent))],
            1,
        ),
    ]
}
