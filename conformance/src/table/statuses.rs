//! Answered statuses: which are retried for whom, `Retry-After` (seconds,
//! HTTP-date, malformed, beyond the deadline), redirects, and the statuses
//! whose RFCs prove non-processing.

use std::time::Duration;

use evident_core::decide::{RetryReason as R, StopReason as X};

use super::{
    CONFORMANCE_BASE_BACKOFF, backoff, h1, lab_wall_clock, ok, retry, status, stop, succeeded,
};
use crate::lab::Http1Behaviour as H1;
use crate::scenario::{ClientSpec, DEFAULT_CLIENT, DelayCheck, Expect, Scenario, ScenarioCall};

/// The status scenarios, in table order.
pub(super) fn scenarios() -> Vec<Scenario> {
    let http_date_a_second_later =
        httpdate::fmt_http_date(lab_wall_clock() + Duration::from_secs(1));
    vec![
        Scenario::one_call(
            "retry_after_seconds",
            "503 with Retry-After: 1 is waited exactly, for an idempotent call",
            h1(vec![
                H1::Respond(status(503).header("retry-after", "1")),
                H1::Respond(ok()),
            ]),
            ScenarioCall::idempotent_get(),
            vec![
                Expect::answered(503, retry(R::RetryableStatus))
                    .delay(DelayCheck::Exactly(Duration::from_secs(1))),
                succeeded(),
            ],
            1,
        ),
        Scenario::one_call(
            "retry_after_not_idempotent",
            "the same 503 is final for a call that declared nothing",
            h1(vec![
                H1::Respond(status(503).header("retry-after", "1")),
                H1::Respond(ok()),
            ]),
            ScenarioCall::post(),
            vec![Expect::answered(503, stop(X::StatusNotIdempotent))],
            0,
        ),
        // The client's wall clock is injected and stands still, so the
        // HTTP-date resolves to exactly one second on every engine and
        // machine (rule 5: a `Retry-After` is honoured exactly).
        Scenario::one_call(
            "retry_after_http_date",
            "429 with Retry-After as an HTTP-date is honoured exactly, by the client's wall clock",
            h1(vec![
                H1::Respond(status(429).header("retry-after", &http_date_a_second_later)),
                H1::Respond(ok()),
            ]),
            ScenarioCall::idempotent_get(),
            vec![
                Expect::answered(429, retry(R::RetryableStatus))
                    .delay(DelayCheck::Exactly(Duration::from_secs(1))),
                succeeded(),
            ],
            1,
        )
        .client(ClientSpec {
            wall_clock: Some(lab_wall_clock()),
            ..DEFAULT_CLIENT
        }),
        Scenario::one_call(
            "retry_after_beyond_deadline",
            "a Retry-After beyond the deadline stops rather than being shortened",
            h1(vec![
                H1::Respond(status(503).header("retry-after", "120")),
                H1::Respond(ok()),
            ]),
            ScenarioCall::idempotent_get().deadline(Duration::from_secs(10)),
            vec![Expect::answered(503, stop(X::RetryAfterBeyondDeadline))],
            0,
        ),
        Scenario::one_call(
            "status_500_not_idempotent",
            "an answered 500 never proves non-processing: a POST is not retried",
            h1(vec![
                H1::Respond(status(500).executes(true)),
                H1::Respond(ok()),
            ]),
            ScenarioCall::post(),
            vec![Expect::answered(500, stop(X::StatusNotIdempotent))],
            1,
        ),
        Scenario::one_call(
            "redirect_is_an_answer",
            "a redirect is never followed by the engine: it is an answer, not retried",
            h1(vec![
                H1::Respond(status(302).header("location", "/elsewhere")),
                H1::Respond(ok()),
            ]),
            ScenarioCall::idempotent_get(),
            vec![Expect::answered(302, stop(X::StatusNotRetryable))],
            0,
        )
        .requests(1),
        Scenario::one_call(
            "retry_after_malformed_uses_backoff",
            "an unparseable Retry-After is ignored: the retry waits the ordinary backoff",
            h1(vec![
                H1::Respond(status(503).header("retry-after", "soon")),
                H1::Respond(ok()),
            ]),
            ScenarioCall::idempotent_get(),
            vec![
                Expect::answered(503, retry(R::RetryableStatus))
                    .delay(DelayCheck::Exactly(CONFORMANCE_BASE_BACKOFF)),
                succeeded(),
            ],
            1,
        ),
        Scenario::one_call(
            "status_500_idempotent",
            "an answered 500 is retried for a declared-idempotent call",
            h1(vec![
                H1::Respond(status(500).executes(true)),
                H1::Respond(ok()),
            ]),
            ScenarioCall::idempotent_get(),
            vec![
                Expect::answered(500, retry(R::RetryableStatus)),
                succeeded(),
            ],
            2,
        ),
        // Statuses that prove non-processing by their RFCs pass rule 4
        // whatever the idempotency, each with its own reason, after the
        // ordinary backoff (no Retry-After). None counts as an execution.
        //
        // 408 (RFC 9110 §15.5.9): the server did not receive a complete
        // request; it closes the connection, as the RFC says it should.
        Scenario::one_call(
            "status_408_not_idempotent",
            "408 Request Timeout proves non-processing: a POST is retried",
            h1(vec![H1::Respond(status(408).close()), H1::Respond(ok())]),
            ScenarioCall::post(),
            vec![
                backoff(Expect::answered(408, retry(R::RequestTimeout))),
                succeeded(),
            ],
            1,
        ),
        // 421 (RFC 9110 §15.5.20): retry "whether or not the original
        // request had an idempotent method", on another connection. The
        // lab keeps the connection open, so only a client that asks for a
        // new one makes the server count two connections.
        Scenario::one_call(
            "status_421_not_idempotent",
            "421 Misdirected Request is retried for a POST, on a new connection",
            h1(vec![H1::Respond(status(421)), H1::Respond(ok())]),
            ScenarioCall::post(),
            vec![
                backoff(Expect::answered(421, retry(R::MisdirectedRequest))),
                succeeded(),
            ],
            1,
        )
        .connections(2),
        // 425 (RFC 8470 §5.2).
        Scenario::one_call(
            "status_425_not_idempotent",
            "425 Too Early proves non-processing: a POST is retried",
            h1(vec![H1::Respond(status(425)), H1::Respond(ok())]),
            ScenarioCall::post(),
            vec![
                backoff(Expect::answered(425, retry(R::TooEarly))),
                succeeded(),
            ],
            1,
        ),
    ]
}
