//! The retry loop and the per-attempt pipeline, which only show end to end:
//! the circuit breaker, the call deadline, drain, the retry budget, the
//! rate limiter and the bulkhead.

use std::time::Duration;

use evident_core::AttemptStage as S;
use evident_core::ExecutionEvidence as E;
use evident_core::FailureCategory as C;
use evident_core::decide::{RetryReason as R, StopReason as X};
use evident_core::observe::RejectionKind;

use super::{after_write, backoff, h1, ok, retry, status, stop, succeeded};
use crate::lab::Http1Behaviour as H1;
use crate::scenario::{
    Before, BudgetSpec, ClientSpec, DEFAULT_CLIENT, DelayCheck, Expect, RateSpec, Scenario,
    ScenarioCall, ServerExpect,
};

/// The `Retry-After` the drain interrupts: long enough that a client that
/// sleeps through it is caught by [`DRAIN_PROMPTLY`].
const DRAIN_RETRY_AFTER_SECS: u64 = 10;

/// How soon a drained call must end: a fraction of the `Retry-After` it
/// interrupts, and far above the few milliseconds a prompt drain takes.
const DRAIN_PROMPTLY: Duration = Duration::from_secs(3);

/// A rate-limit period no scenario outlives: the second permit never comes.
const RATE_PERIOD: Duration = Duration::from_secs(3600);

/// The retry budget of the budget scenario: retries may add one per call
/// (ratio 1) and there is no floor, over a window no scenario outlives.
const ONE_RETRY_PER_CALL: BudgetSpec = BudgetSpec {
    ratio: 1.0,
    min_per_sec: 0,
    ttl: Duration::from_secs(60),
};

/// The pipeline scenarios, in table order.
pub(super) fn scenarios() -> Vec<Scenario> {
    vec![
        Scenario {
            name: "circuit_opens_on_503s",
            summary: "an upstream answering only 503 opens its circuit; later calls are rejected locally",
            fault: h1(vec![H1::Respond(status(503))]),
            client: ClientSpec {
                breaker_window: Some(2),
                ..DEFAULT_CLIENT
            },
            calls: vec![
                ScenarioCall::post(),
                ScenarioCall::post(),
                ScenarioCall::post(),
                ScenarioCall::post(),
            ],
            expected: vec![
                vec![Expect::answered(503, stop(X::StatusNotIdempotent))],
                vec![Expect::answered(503, stop(X::StatusNotIdempotent))],
                vec![Expect::rejected(RejectionKind::CircuitOpen)],
                vec![Expect::rejected(RejectionKind::CircuitOpen)],
            ],
            server: ServerExpect {
                executions: 0,
                requests: Some(2),
                key_receipts: None,
                connections: None,
            },
            ends_within: None,
        },
        Scenario::one_call(
            "deadline_leaves_no_time",
            "the deadline ends the attempt and leaves too little time for another",
            h1(vec![H1::NeverAnswer { execute: true }, H1::Respond(ok())]),
            ScenarioCall::idempotent_get().deadline(Duration::from_millis(600)),
            vec![after_write(C::Timeout, stop(X::DeadlineTooShort))],
            1,
        )
        .client(ClientSpec {
            attempt_timeout: Duration::from_secs(5),
            ..DEFAULT_CLIENT
        }),
        // Drain during a Retry-After wait: the 503 of an idempotent call
        // is decided "retry after 10 s" (rules 4 and 5) and observed so;
        // records are never rewritten. The client is drained during that
        // wait, so rule 1 (the client is draining) forbids the retry: the
        // attempt that would have come next is recorded as refused before
        // sending, `rejected:draining → stop(draining)`, and the call ends
        // at once instead of after the 10 s.
        Scenario {
            name: "drain_during_retry_after",
            summary: "drain() during a Retry-After wait ends the call promptly with stop(draining)",
            fault: h1(vec![
                H1::Respond(status(503).header("retry-after", &DRAIN_RETRY_AFTER_SECS.to_string())),
                H1::Respond(ok()),
            ]),
            client: ClientSpec {
                drain_on_retry: true,
                ..DEFAULT_CLIENT
            },
            calls: vec![ScenarioCall::idempotent_get()],
            expected: vec![vec![
                Expect::answered(503, retry(R::RetryableStatus)).delay(DelayCheck::Exactly(
                    Duration::from_secs(DRAIN_RETRY_AFTER_SECS),
                )),
                Expect::refused_by_drain(),
            ]],
            server: ServerExpect {
                executions: 0,
                requests: Some(1),
                key_receipts: None,
                connections: None,
            },
            ends_within: Some(DRAIN_PROMPTLY),
        },
        // Retry-budget exhaustion: the budget allows one retry per call.
        // The first 503 is retried (rules 4, 5, then the budget has a
        // token); the second would be too, but rule 6 finds the budget
        // spent → stop(budget_exhausted) although attempts remain.
        Scenario::one_call(
            "retry_budget_exhausted",
            "the retry budget stops retries before the attempts run out",
            h1(vec![H1::Respond(status(503))]),
            ScenarioCall::idempotent_get(),
            vec![
                backoff(Expect::answered(503, retry(R::RetryableStatus))),
                Expect::answered(503, stop(X::BudgetExhausted)),
            ],
            0,
        )
        .client(ClientSpec {
            budget: Some(ONE_RETRY_PER_CALL),
            ..DEFAULT_CLIENT
        })
        .requests(2),
        // A rate limiter of one permit per hour that never waits: the first
        // call is sent, the second is refused locally before any byte (the
        // upstream never sees it; a local rejection is final).
        Scenario {
            name: "rate_limited",
            summary: "a rate limiter refuses the second call locally; the server sees one request",
            fault: h1(vec![H1::Respond(ok())]),
            client: ClientSpec {
                rate_limit: Some(RateSpec {
                    limit: 1,
                    period: RATE_PERIOD,
                }),
                ..DEFAULT_CLIENT
            },
            calls: vec![ScenarioCall::post(), ScenarioCall::post()],
            expected: vec![
                vec![succeeded()],
                vec![Expect::rejected(RejectionKind::RateLimited)],
            ],
            server: ServerExpect {
                executions: 1,
                requests: Some(1),
                key_receipts: None,
                connections: None,
            },
            ends_within: None,
        },
        // A bulkhead of one attempt that never waits: the second call starts
        // while the first is held by a server that never answers, and is
        // refused locally. The first then times out after its request left
        // → sent_no_response, and a POST stops (rule 3).
        Scenario {
            name: "bulkhead_full",
            summary: "a full bulkhead refuses a concurrent call locally; the server sees one request",
            fault: h1(vec![H1::NeverAnswer { execute: true }, H1::Respond(ok())]),
            client: ClientSpec {
                bulkhead: Some(1),
                ..DEFAULT_CLIENT
            },
            calls: vec![
                ScenarioCall::post(),
                ScenarioCall::post().before(Before::PreviousInFlight),
            ],
            expected: vec![
                vec![Expect::failed(
                    S::AwaitHead,
                    C::Timeout,
                    E::SentNoResponse,
                    stop(X::NotIdempotent),
                )],
                vec![Expect::rejected(RejectionKind::BulkheadFull)],
            ],
            server: ServerExpect {
                executions: 1,
                requests: Some(1),
                key_receipts: None,
                connections: None,
            },
            ends_within: None,
        },
    ]
}
