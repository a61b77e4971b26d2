//! The risky cases: faults where evidence is easiest to get wrong, and the
//! pipeline and loop behaviours that only show end to end.
//!
//! Each scenario's comment derives its expectation from the rules (DESIGN
//! §2–§6, as the crate docs restate them) before any engine ran it:
//! stage = how far the attempt provably got; evidence = the strongest proof
//! in the order *head received > HTTP/2 protocol proof > pre-write signal
//! at a pre-write stage > ambiguous*; decision = the ordered rules
//! (blockers, permanent categories, evidence × idempotency, status ×
//! idempotency, delay, budget).

use std::time::Duration;

use evident_core::AttemptStage as S;
use evident_core::ExecutionEvidence as E;
use evident_core::FailureCategory as C;
use evident_core::decide::{RetryReason as R, StopReason as X};
use evident_core::observe::RejectionKind;
use h2::Reason;

use super::{
    CONFORMANCE_BASE_BACKOFF, LARGE_UPLOAD_CLIENT, empty_post, h1, h2c, ok, retry, status, stop,
    succeeded,
};
use crate::lab::{Http1Behaviour as H1, Http2Behaviour as H2};
use crate::scenario::{
    Before, BodySpec, BudgetSpec, CallSpec, ClientSpec, DEFAULT_CLIENT, DelayCheck, Expect, Fault,
    LARGE_BODY_BYTES, RateSpec, Scenario, ServerExpect,
};

/// Receive buffer of the server that stops reading mid-upload: small, so
/// the kernel absorbs almost nothing once the server stops reading and the
/// client's 8 MiB write (far beyond Linux's largest default send buffer,
/// `tcp_wmem`'s 4 MiB) must block.
const STOPPED_READER_RECEIVE_BUFFER: usize = 16 * 1024;

/// Body bytes the server reads before it stops: enough that the body has
/// provably started to flow.
const READ_BEFORE_STOPPING: usize = 64 * 1024;

/// Padding of the request head that never fully leaves: twice Linux's
/// largest default send buffer (4 MiB), against a server that never reads
/// and fixes its receive buffer at a few KiB.
const HEAD_PADDING: usize = 2 * 4 * 1024 * 1024;

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

fn backoff(then: Expect) -> Expect {
    then.delay(DelayCheck::Exactly(CONFORMANCE_BASE_BACKOFF))
}

/// The risky cases, in table order.
pub(super) fn scenarios() -> Vec<Scenario> {
    let refused_after_body =
        |then| Expect::failed(S::AwaitHead, C::StreamRefused, E::NotProcessed, then);
    vec![
        // HTTP/2 with request bodies. The server reads the whole body and
        // answers: one attempt, one execution, whatever the body's kind.
        Scenario::one_call(
            "h2_post_in_memory_body",
            "HTTP/2 POST with an in-memory body",
            h2c(vec![H2::Respond(ok())]),
            CallSpec::post(),
            vec![succeeded()],
            1,
        ),
        Scenario::one_call(
            "h2_post_one_shot_body",
            "HTTP/2 POST with a one-shot (streamed) body",
            h2c(vec![H2::Respond(ok())]),
            CallSpec::post().body(BodySpec::SmallOneShot),
            vec![succeeded()],
            1,
        ),
        // REFUSED_STREAM after the whole body was read: the request fully
        // left (stage await_head, bytes written), but the protocol proof
        // beats bytes written → not_processed, which passes rule 3 whatever
        // the idempotency; no blocker applies to an in-memory body → retry.
        Scenario::one_call(
            "h2_refused_stream_after_in_memory_body",
            "REFUSED_STREAM after the body was sent: not processed, a POST with an in-memory body is retried",
            h2c(vec![H2::RefusedStreamAfterBody, H2::Respond(ok())]),
            CallSpec::post(),
            vec![refused_after_body(retry(R::NotProcessed)), succeeded()],
            1,
        )
        .requests(2),
        // The same with a one-shot body: rule 1 (a one-shot body is never
        // re-sent) stops before the evidence is even looked at.
        Scenario::one_call(
            "h2_refused_stream_after_one_shot_body",
            "REFUSED_STREAM after a one-shot body: not processed, but the body cannot be sent again",
            h2c(vec![H2::RefusedStreamAfterBody, H2::Respond(ok())]),
            CallSpec::post().body(BodySpec::SmallOneShot),
            vec![refused_after_body(stop(X::BodyNotReplayable))],
            0,
        )
        .requests(1),
        // REFUSED_STREAM after the response head: a head received beats a
        // protocol signal (the server acted) → responded, failing while the
        // body is read (stage read_body, category stream_refused). Rule 3:
        // after `responded` only a safely idempotent call passes.
        Scenario::one_call(
            "h2_refused_stream_after_head",
            "REFUSED_STREAM after the response head is a failure after the response, not a proof of non-processing",
            h2c(vec![
                H2::RespondHeadThenRefusedStream { execute: true },
                H2::Respond(ok()),
            ]),
            empty_post(),
            vec![Expect::failed(
                S::ReadBody,
                C::StreamRefused,
                E::Responded,
                stop(X::NotIdempotent),
            )],
            1,
        ),
        Scenario::one_call(
            "h2_refused_stream_after_head_idempotent",
            "REFUSED_STREAM after the head is retried only for a declared-idempotent call",
            h2c(vec![
                H2::RespondHeadThenRefusedStream { execute: true },
                H2::Respond(ok()),
            ]),
            empty_post().idempotent(),
            vec![
                Expect::failed(
                    S::ReadBody,
                    C::StreamRefused,
                    E::Responded,
                    retry(R::SafelyIdempotent),
                ),
                succeeded(),
            ],
            2,
        ),
        // GOAWAY with an error code and a last-stream-id below the stream:
        // RFC 9113 §6.8 says streams above the last id were not processed,
        // whatever the code → not_processed, retried on a new connection.
        Scenario::one_call(
            "h2_goaway_with_error_above_stream",
            "GOAWAY(INTERNAL_ERROR) below the stream still proves it unprocessed: a POST is retried",
            h2c(vec![
                H2::GoAwayWithErrorAboveLastStreamId {
                    reason: Reason::INTERNAL_ERROR,
                },
                H2::Respond(ok()),
            ]),
            empty_post(),
            vec![
                Expect::failed(
                    S::AwaitHead,
                    C::GoAway,
                    E::NotProcessed,
                    retry(R::NotProcessed),
                ),
                succeeded(),
            ],
            1,
        )
        .connections(2),
        // A write that times out: the server read the head and part of the
        // body, then stopped reading. The core's attempt timer fires while
        // the body is being written (stage write_body, category timeout);
        // bytes were written and no head came → sent_no_response. Rule 3:
        // a POST that declared nothing stops; the server executed nothing.
        Scenario::one_call(
            "write_times_out_server_stops_reading",
            "a server that stops reading mid-body: the write times out, ambiguous, a POST is not retried",
            Fault::Http1 {
                script: vec![
                    H1::StopReadingMidBody {
                        after_bytes: READ_BEFORE_STOPPING,
                    },
                    H1::Respond(ok()),
                ],
                tls: false,
                ipv6: false,
                receive_buffer: Some(STOPPED_READER_RECEIVE_BUFFER),
            },
            CallSpec::post().body(BodySpec::Large),
            vec![Expect::failed(
                S::WriteBody,
                C::Timeout,
                E::SentNoResponse,
                stop(X::NotIdempotent),
            )],
            0,
        )
        .client(LARGE_UPLOAD_CLIENT)
        .requests(1),
        // The same declared idempotent, with a replayable body: rule 3
        // passes → retry; the second attempt is answered and executed once.
        Scenario::one_call(
            "write_times_out_server_stops_reading_idempotent",
            "the same write timeout is retried for a declared-idempotent call with a replayable body",
            Fault::Http1 {
                script: vec![
                    H1::StopReadingMidBody {
                        after_bytes: READ_BEFORE_STOPPING,
                    },
                    H1::Respond(ok()),
                ],
                tls: false,
                ipv6: false,
                receive_buffer: Some(STOPPED_READER_RECEIVE_BUFFER),
            },
            CallSpec::post().body(BodySpec::Large).idempotent(),
            vec![
                Expect::failed(
                    S::WriteBody,
                    C::Timeout,
                    E::SentNoResponse,
                    retry(R::SafelyIdempotent),
                ),
                succeeded(),
            ],
            1,
        )
        .client(LARGE_UPLOAD_CLIENT)
        .requests(2),
        // A declared idempotency key whose head never fully left: the
        // server never reads and the head is larger than every buffer, so
        // the timer fires in write_head with bytes written →
        // sent_no_response. The key was registered but never sent, which
        // is not `safely_idempotent()` → rule 3 stops. The server never
        // received a request, let alone the key.
        Scenario::one_call(
            "idempotency_key_head_never_left",
            "a key in a head that never fully left does not make the call safely idempotent",
            Fault::NeverReads,
            CallSpec::post().with_key().pad_head(HEAD_PADDING),
            vec![Expect::failed(
                S::WriteHead,
                C::Timeout,
                E::SentNoResponse,
                stop(X::NotIdempotent),
            )],
            0,
        )
        .requests(0),
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
                H1::Respond(
                    status(503).header("retry-after", &DRAIN_RETRY_AFTER_SECS.to_string()),
                ),
                H1::Respond(ok()),
            ]),
            client: ClientSpec {
                drain_on_retry: true,
                ..DEFAULT_CLIENT
            },
            calls: vec![CallSpec::idempotent_get()],
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
            CallSpec::idempotent_get(),
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
            calls: vec![CallSpec::post(), CallSpec::post()],
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
                CallSpec::post(),
                CallSpec::post().before(Before::PreviousInFlight),
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
            CallSpec::post(),
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
            CallSpec::post(),
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
            CallSpec::post(),
            vec![
                backoff(Expect::answered(425, retry(R::TooEarly))),
                succeeded(),
            ],
            1,
        ),
    ]
}

// The stopped-reader scenarios need the large body to exceed Linux's
// largest default send buffer (4 MiB), or the whole upload could sit in the
// kernel and the write would never block.
const _: () = assert!(LARGE_BODY_BYTES > 4 * 1024 * 1024);
