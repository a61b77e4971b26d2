//! The scenario table. Every expectation is derived from the rules of
//! `docs/design.md` (§2–§6, as the crate docs restate them), before any
//! engine ran it:
//!
//! * the **stage** is how far the attempt provably got;
//! * the **evidence** is the strongest proof, in the order *head received >
//!   HTTP/2 protocol proof > pre-write signal at a pre-write stage >
//!   ambiguous*: `not_sent` only when a pre-write stage or exact progress
//!   proves it, `not_processed` only for HTTP/2 protocol proofs,
//!   `sent_no_response` for anything ambiguous, `responded` after a head;
//! * the **decision** follows the ordered rules (blockers, permanent
//!   categories, evidence × idempotency, status × idempotency, delay,
//!   budget);
//! * the **executions** are what the fault server does by construction.
//!
//! Where a derivation is not obvious, a comment above the scenario gives
//! it. Where declaring idempotency changes the answer, both variants are in
//! the table (the `_idempotent` twins).
//!
//! The conformance client makes at most three attempts with a one-second
//! attempt timeout, no jitter and no retry budget (unless a scenario says
//! otherwise).
//!
//! The scenarios are declared by topic, one file each: `connect` (before
//! any byte), `tls`, `http1`, `early_answers`, `http2`, `statuses`,
//! `idempotency_keys` and `pipeline` (the retry loop and the per-attempt
//! pipeline). [`scenarios`] puts them in table order, the order of the
//! matrix's rows.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use evident_core::AttemptStage as S;
use evident_core::ExecutionEvidence as E;
use evident_core::FailureCategory as C;
use evident_core::decide::{RetryReason as R, StopReason as X};
use http::StatusCode;

mod connect;
mod early_answers;
mod http1;
mod http2;
mod idempotency_keys;
mod pipeline;
mod statuses;
mod tls;

use crate::lab::{Http1Behaviour as H1, Http2Behaviour as H2, Reply};
use crate::scenario::{
    BodySpec, ClientSpec, DEFAULT_CLIENT, DelayCheck, Expect, Fault, Scenario, ScenarioCall, Then,
};

fn h1(script: Vec<H1>) -> Fault {
    Fault::Http1 {
        script,
        tls: false,
        ipv6: false,
        receive_buffer: None,
    }
}

fn h1_tls(script: Vec<H1>) -> Fault {
    Fault::Http1 {
        script,
        tls: true,
        ipv6: false,
        receive_buffer: None,
    }
}

fn h2c(script: Vec<H2>) -> Fault {
    Fault::Http2 { script, tls: false }
}

fn h2_tls(script: Vec<H2>) -> Fault {
    Fault::Http2 { script, tls: true }
}

fn ok() -> Reply {
    Reply::ok().body("ok")
}

fn status(code: u16) -> Reply {
    Reply::new(StatusCode::from_u16(code).expect("valid status"))
}

fn retry(r: R) -> Then {
    Then::Retry(r)
}

fn stop(x: X) -> Then {
    Then::Stop(x)
}

fn succeeded() -> Expect {
    Expect::answered(200, stop(X::Succeeded))
}

/// A POST with an empty body, for HTTP/2 scenarios: the request is complete
/// with its HEADERS frame, so the stage at the fault is always `await_head`.
fn empty_post() -> ScenarioCall {
    ScenarioCall::post().body(BodySpec::Empty)
}

/// An attempt that failed after its request left and before any head: the
/// server may have acted, so `sent_no_response` at `await_head`.
fn after_write(category: C, then: Then) -> Expect {
    Expect::failed(S::AwaitHead, category, E::SentNoResponse, then)
}

/// `then`, after the ordinary backoff (no `Retry-After`).
fn backoff(then: Expect) -> Expect {
    then.delay(DelayCheck::Exactly(CONFORMANCE_BASE_BACKOFF))
}

/// The conformance client's first backoff (no jitter), which a retry
/// without a usable `Retry-After` waits exactly.
pub const CONFORMANCE_BASE_BACKOFF: Duration = Duration::from_millis(20);

/// The client of the scenarios that upload [`crate::scenario::LARGE_BODY_BYTES`]:
/// the default one with a five-second attempt timeout. An 8 MiB upload to a
/// debug-built lab server takes a fraction of a second alone, but several
/// at once on a loaded two-core machine took more than the default second,
/// which turned an answered retry into a timeout.
pub const LARGE_UPLOAD_CLIENT: ClientSpec = ClientSpec {
    attempt_timeout: Duration::from_secs(5),
    ..DEFAULT_CLIENT
};

/// Seconds since the Unix epoch at which the conformance client's wall
/// clock stands still in the HTTP-date scenario: a whole second
/// (2023-11-14T22:13:20Z), so an HTTP-date one second later is exactly one
/// second away.
pub const LAB_WALL_CLOCK_SECS: u64 = 1_700_000_000;

/// The wall-clock time of [`LAB_WALL_CLOCK_SECS`].
pub fn lab_wall_clock() -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(LAB_WALL_CLOCK_SECS)
}

/// The matrix's rows: every scenario's name, in table order. The topics
/// interleave here because this is the order the table had before it was
/// split by topic, kept so that matrices from before and after compare row
/// by row (the `--json` keys, the Markdown rows). A new scenario is named
/// here too, where its row should appear.
const TABLE_ORDER: [&str; 90] = [
    "ok_200",
    "ok_200_tls",
    "name_not_found",
    "connection_refused",
    "connect_timeout",
    "tls_untrusted_certificate",
    "tls_closed_during_handshake",
    "tls_handshake_stalls",
    "two_addresses_silent_then_answers",
    "two_addresses_refused_then_untrusted",
    "two_addresses_untrusted_then_refused",
    "closed_after_request",
    "closed_after_request_idempotent",
    "reset_after_request",
    "never_answers",
    "never_answers_idempotent",
    "partial_head_then_close",
    "malformed_response",
    "truncated_body",
    "truncated_body_idempotent",
    "body_stalls",
    "closed_during_request_body",
    "early_413_then_reset",
    "early_200_then_close",
    "early_413_then_reset_tls",
    "early_200_then_close_tls",
    "h2_early_413_then_no_error_reset",
    "h2_early_200_then_no_error_reset",
    "h2_early_413_then_no_error_reset_tls",
    "early_answer_cut_by_a_reset",
    "early_answer_cut_by_a_reset_tls",
    "closed_during_request_body_idempotent",
    "closed_during_one_shot_body",
    "stale_keep_alive",
    "reused_connection_closed_after_request",
    "reused_connection_closed_after_request_idempotent",
    "retry_after_seconds",
    "retry_after_not_idempotent",
    "retry_after_http_date",
    "retry_after_beyond_deadline",
    "status_500_not_idempotent",
    "h2_ok",
    "h2_ok_tls",
    "h2_refused_stream",
    "h2_goaway_above_stream",
    "h2_goaway_covering_stream",
    "h2_graceful_shutdown_covering_stream",
    "h2_graceful_shutdown_excluding_stream",
    "h2_stream_reset_internal_error",
    "idempotency_key_after_ambiguous_failure",
    "idempotency_key_in_progress",
    "idempotency_key_reused",
    "conflict_without_a_key",
    "circuit_opens_on_503s",
    "early_413s_leave_the_circuit_closed",
    "early_503s_open_the_circuit",
    "ok_200_ipv6",
    "closed_after_request_tls",
    "connection_close_then_next_call",
    "redirect_is_an_answer",
    "retry_after_malformed_uses_backoff",
    "h2_refused_stream_tls",
    "h2_goaway_above_stream_tls",
    "h2_never_answers",
    "reset_after_request_idempotent",
    "partial_head_then_close_idempotent",
    "body_stalls_idempotent",
    "status_500_idempotent",
    "h2_goaway_covering_stream_idempotent",
    "h2_stream_reset_internal_error_idempotent",
    "truncated_chunked_body",
    "reset_during_body",
    "deadline_leaves_no_time",
    "h2_post_in_memory_body",
    "h2_post_one_shot_body",
    "h2_refused_stream_after_in_memory_body",
    "h2_refused_stream_after_one_shot_body",
    "h2_refused_stream_after_head",
    "h2_refused_stream_after_head_idempotent",
    "h2_goaway_with_error_above_stream",
    "write_times_out_server_stops_reading",
    "write_times_out_server_stops_reading_idempotent",
    "idempotency_key_head_never_left",
    "drain_during_retry_after",
    "retry_budget_exhausted",
    "rate_limited",
    "bulkhead_full",
    "status_408_not_idempotent",
    "status_421_not_idempotent",
    "status_425_not_idempotent",
];

/// Every scenario, in table order.
///
/// # Panics
///
/// If the table's order and the topics' scenarios do not name the same
/// scenarios, each once (a table that is being edited; every test of this
/// crate catches it).
pub fn scenarios() -> Vec<Scenario> {
    let mut declared: Vec<Scenario> = [
        connect::scenarios(),
        tls::scenarios(),
        http1::scenarios(),
        early_answers::scenarios(),
        http2::scenarios(),
        statuses::scenarios(),
        idempotency_keys::scenarios(),
        pipeline::scenarios(),
    ]
    .into_iter()
    .flatten()
    .collect();
    let table: Vec<Scenario> = TABLE_ORDER
        .iter()
        .map(|name| {
            let at = declared
                .iter()
                .position(|s| s.name == *name)
                .unwrap_or_else(|| panic!("TABLE_ORDER names {name}, which no topic declares"));
            declared.remove(at)
        })
        .collect();
    let unplaced: Vec<&str> = declared.iter().map(|s| s.name).collect();
    assert!(
        unplaced.is_empty(),
        "scenarios declared twice or missing from TABLE_ORDER: {unplaced:?}"
    );
    table
}

/// Every scenario's name, in table order.
pub fn scenario_names() -> Vec<&'static str> {
    scenarios().iter().map(|s| s.name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scenario_has_one_place_in_the_table() {
        // `scenarios()` panics on a scenario missing from the order, or an
        // order entry without a scenario; a name declared twice would
        // leave one copy unplaced.
        let names = scenario_names();
        assert_eq!(names, TABLE_ORDER);
    }
}
