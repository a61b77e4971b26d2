//! The scenario table. Every expectation is derived from DESIGN.md's rules:
//!
//! * the **stage** is how far the attempt provably got;
//! * the **evidence** is `not_sent` only when a pre-write stage or exact
//!   progress proves it, `not_processed` only for HTTP/2 protocol proofs,
//!   `sent_no_response` for anything ambiguous, `responded` after a head;
//! * the **decision** follows the ordered rules (blockers, permanent
//!   categories, evidence × idempotency, status × idempotency, delay);
//! * the **executions** are what the fault server does by construction.
//!
//! The conformance client makes at most three attempts with a one-second
//! attempt timeout, no jitter and no retry budget (unless a scenario says
//! otherwise). The risky cases (request bodies over HTTP/2, refusals after
//! the head, writes that time out, drain, budget, local rejections, the
//! statuses that prove non-processing) are in their own file, each with
//! its derivation.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use evident_core::AttemptStage as S;
use evident_core::ExecutionEvidence as E;
use evident_core::FailureCategory as C;
use evident_core::decide::{RetryReason as R, StopReason as X};
use evident_core::observe::RejectionKind;
use h2::Reason;
use http::StatusCode;

mod risky;

use crate::lab::{AfterEarlyAnswer, Http1Behaviour as H1, Http2Behaviour as H2, Reply, TlsFault};
use crate::scenario::{
    AddressFault, Before, BodySpec, CallSpec, ClientSpec, DEFAULT_CLIENT, DelayCheck, Expect,
    Fault, Scenario, ServerExpect, Then,
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
fn empty_post() -> CallSpec {
    CallSpec::post().body(BodySpec::Empty)
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

/// Every scenario, in table order.
pub fn scenarios() -> Vec<Scenario> {
    let after_write =
        |category, then| Expect::failed(S::AwaitHead, category, E::SentNoResponse, then);
    let http_date_a_second_later =
        httpdate::fmt_http_date(lab_wall_clock() + Duration::from_secs(1));
    let mut table = vec![
        Scenario::one_call(
            "ok_200",
            "baseline: one attempt, one execution",
            h1(vec![H1::Respond(ok())]),
            CallSpec::post(),
            vec![succeeded()],
            1,
        ),
        Scenario::one_call(
            "ok_200_tls",
            "baseline over TLS",
            h1_tls(vec![H1::Respond(ok())]),
            CallSpec::post(),
            vec![succeeded()],
            1,
        ),
        Scenario::one_call(
            "name_not_found",
            "a name that does not exist is permanent and proves not sent",
            Fault::NameNotFound,
            CallSpec::post(),
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
            CallSpec::post(),
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
            CallSpec::post(),
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
            "tls_untrusted_certificate",
            "a certificate from an untrusted CA is permanent and proves not sent",
            Fault::Tls(TlsFault::UntrustedCertificate),
            CallSpec::post(),
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
            CallSpec::post(),
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
            "two_addresses_refused_then_untrusted",
            "the permanent TLS failure of the second address surfaces, not the refusal",
            Fault::TwoAddresses(AddressFault::Refused, AddressFault::UntrustedCertificate),
            CallSpec::post(),
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
            CallSpec::post(),
            vec![Expect::failed(
                S::Tls,
                C::TlsCertificate,
                E::NotSent,
                stop(X::PermanentFailure),
            )],
            0,
        ),
        Scenario::one_call(
            "closed_after_request",
            "the server read the request and closed: ambiguous, a POST is not retried",
            h1(vec![
                H1::CloseAfterRequest { execute: true },
                H1::Respond(ok()),
            ]),
            CallSpec::post(),
            vec![after_write(C::ConnectionClosed, stop(X::NotIdempotent))],
            1,
        ),
        Scenario::one_call(
            "closed_after_request_idempotent",
            "the same fault for a declared-idempotent call is retried (and executes twice)",
            h1(vec![
                H1::CloseAfterRequest { execute: true },
                H1::Respond(ok()),
            ]),
            CallSpec::idempotent_get(),
            vec![
                after_write(C::ConnectionClosed, retry(R::SafelyIdempotent)),
                succeeded(),
            ],
            2,
        ),
        Scenario::one_call(
            "reset_after_request",
            "a reset after the request was read is ambiguous",
            h1(vec![
                H1::ResetAfterRequest { execute: true },
                H1::Respond(ok()),
            ]),
            CallSpec::post(),
            vec![after_write(C::ConnectionReset, stop(X::NotIdempotent))],
            1,
        ),
        Scenario::one_call(
            "never_answers",
            "the core's attempt timer fires after the request left: ambiguous",
            h1(vec![H1::NeverAnswer { execute: true }, H1::Respond(ok())]),
            CallSpec::post(),
            vec![after_write(C::Timeout, stop(X::NotIdempotent))],
            1,
        ),
        Scenario::one_call(
            "never_answers_idempotent",
            "the same timeout for a declared-idempotent call is retried",
            h1(vec![H1::NeverAnswer { execute: true }, H1::Respond(ok())]),
            CallSpec::idempotent_get(),
            vec![
                after_write(C::Timeout, retry(R::SafelyIdempotent)),
                succeeded(),
            ],
            2,
        ),
        Scenario::one_call(
            "partial_head_then_close",
            "a response head cut short is a closed connection before any head",
            h1(vec![
                H1::PartialHeadThenClose { execute: true },
                H1::Respond(ok()),
            ]),
            CallSpec::post(),
            vec![after_write(C::ConnectionClosed, stop(X::NotIdempotent))],
            1,
        ),
        Scenario::one_call(
            "malformed_response",
            "a malformed response is a permanent protocol failure",
            h1(vec![H1::Malformed { execute: true }, H1::Respond(ok())]),
            CallSpec::idempotent_get(),
            vec![after_write(C::Protocol, stop(X::PermanentFailure))],
            1,
        ),
        Scenario::one_call(
            "truncated_body",
            "a body shorter than its Content-Length fails after the response",
            h1(vec![
                H1::TruncatedBody {
                    declared: 100,
                    sent: 10,
                    execute: true,
                },
                H1::Respond(ok()),
            ]),
            CallSpec::post(),
            vec![Expect::failed(
                S::ReadBody,
                C::ConnectionClosed,
                E::Responded,
                stop(X::NotIdempotent),
            )],
            1,
        ),
        Scenario::one_call(
            "truncated_body_idempotent",
            "a truncated body is retried for a declared-idempotent call",
            h1(vec![
                H1::TruncatedBody {
                    declared: 100,
                    sent: 10,
                    execute: true,
                },
                H1::Respond(ok()),
            ]),
            CallSpec::idempotent_get(),
            vec![
                Expect::failed(
                    S::ReadBody,
                    C::ConnectionClosed,
                    E::Responded,
                    retry(R::SafelyIdempotent),
                ),
                succeeded(),
            ],
            2,
        ),
        Scenario::one_call(
            "body_stalls",
            "a body that stalls past the attempt timeout fails after the response",
            h1(vec![
                H1::StallBody {
                    sent: 10,
                    execute: true,
                },
                H1::Respond(ok()),
            ]),
            CallSpec::post(),
            vec![Expect::failed(
                S::ReadBody,
                C::Timeout,
                E::Responded,
                stop(X::NotIdempotent),
            )],
            1,
        ),
        Scenario::one_call(
            "closed_during_request_body",
            "the server resets while a replayable body is being sent: ambiguous for a POST",
            h1(vec![
                H1::CloseDuringRequestBody {
                    after_bytes: 64 * 1024,
                },
                H1::Respond(ok()),
            ]),
            CallSpec::post().body(BodySpec::Large),
            vec![Expect::failed(
                S::WriteBody,
                C::ConnectionReset,
                E::SentNoResponse,
                stop(X::NotIdempotent),
            )],
            0,
        )
        .client(LARGE_UPLOAD_CLIENT),
        Scenario::one_call(
            "early_413_then_reset",
            "a 413 sent while the body is still being written, then a reset, is the answer (RFC 9112 §9.6)",
            h1(vec![
                H1::AnswerMidBody {
                    after_bytes: 64 * 1024,
                    reply: status(413),
                    then: AfterEarlyAnswer::Reset,
                },
                H1::Respond(ok()),
            ]),
            CallSpec::post().body(BodySpec::Large),
            vec![Expect::answered(413, stop(X::StatusNotRetryable))],
            0,
        )
        .client(LARGE_UPLOAD_CLIENT),
        Scenario::one_call(
            "early_200_then_close",
            "a 200 sent after executing part-way through the body, then a close, is the call's success",
            h1(vec![
                H1::AnswerMidBody {
                    after_bytes: 64 * 1024,
                    reply: ok(),
                    then: AfterEarlyAnswer::Close,
                },
                H1::Respond(ok()),
            ]),
            CallSpec::post().body(BodySpec::Large),
            vec![succeeded()],
            1,
        )
        .client(LARGE_UPLOAD_CLIENT),
        Scenario::one_call(
            "early_413_then_reset_tls",
            "over TLS, a 413 sent while the body is still being written, then a reset, is the answer",
            h1_tls(vec![
                H1::AnswerMidBody {
                    after_bytes: 64 * 1024,
                    reply: status(413),
                    then: AfterEarlyAnswer::Reset,
                },
                H1::Respond(ok()),
            ]),
            CallSpec::post().body(BodySpec::Large),
            vec![Expect::answered(413, stop(X::StatusNotRetryable))],
            0,
        )
        .client(LARGE_UPLOAD_CLIENT),
        Scenario::one_call(
            "early_200_then_close_tls",
            "over TLS, a 200 sent after executing part-way through the body, then close_notify and a close, is the success",
            h1_tls(vec![
                H1::AnswerMidBody {
                    after_bytes: 64 * 1024,
                    reply: ok(),
                    then: AfterEarlyAnswer::Close,
                },
                H1::Respond(ok()),
            ]),
            CallSpec::post().body(BodySpec::Large),
            vec![succeeded()],
            1,
        )
        .client(LARGE_UPLOAD_CLIENT),
        Scenario::one_call(
            "h2_early_413_then_no_error_reset",
            "over HTTP/2, a 413 sent while the body is still being sent, then RST_STREAM(NO_ERROR), is the answer (RFC 9113 §8.1)",
            h2c(vec![
                H2::AnswerMidBody {
                    after_bytes: 64 * 1024,
                    reply: status(413),
                },
                H2::Respond(ok()),
            ]),
            CallSpec::post().body(BodySpec::Large),
            vec![Expect::answered(413, stop(X::StatusNotRetryable))],
            0,
        )
        .client(LARGE_UPLOAD_CLIENT),
        Scenario::one_call(
            "h2_early_200_then_no_error_reset",
            "over HTTP/2, a 200 sent after executing part-way through the body, then RST_STREAM(NO_ERROR), is the success",
            h2c(vec![
                H2::AnswerMidBody {
                    after_bytes: 64 * 1024,
                    reply: ok(),
                },
                H2::Respond(ok()),
            ]),
            CallSpec::post().body(BodySpec::Large),
            vec![succeeded()],
            1,
        )
        .client(LARGE_UPLOAD_CLIENT),
        Scenario::one_call(
            "h2_early_413_then_no_error_reset_tls",
            "over HTTP/2 and TLS, a 413 sent while the body is still being sent, then RST_STREAM(NO_ERROR), is the answer",
            h2_tls(vec![
                H2::AnswerMidBody {
                    after_bytes: 64 * 1024,
                    reply: status(413),
                },
                H2::Respond(ok()),
            ]),
            CallSpec::post().body(BodySpec::Large),
            vec![Expect::answered(413, stop(X::StatusNotRetryable))],
            0,
        )
        .client(LARGE_UPLOAD_CLIENT),
        Scenario::one_call(
            "closed_during_request_body_idempotent",
            "the same fault with a replayable body declared idempotent is retried",
            h1(vec![
                H1::CloseDuringRequestBody {
                    after_bytes: 64 * 1024,
                },
                H1::Respond(ok()),
            ]),
            CallSpec::post().body(BodySpec::Large).idempotent(),
            vec![
                Expect::failed(
                    S::WriteBody,
                    C::ConnectionReset,
                    E::SentNoResponse,
                    retry(R::SafelyIdempotent),
                ),
                succeeded(),
            ],
            1,
        )
        .client(LARGE_UPLOAD_CLIENT),
        Scenario::one_call(
            "closed_during_one_shot_body",
            "a one-shot body is never re-sent, even for a declared-idempotent call",
            h1(vec![
                H1::CloseDuringRequestBody {
                    after_bytes: 64 * 1024,
                },
                H1::Respond(ok()),
            ]),
            CallSpec::post().body(BodySpec::LargeOneShot).idempotent(),
            vec![Expect::failed(
                S::WriteBody,
                C::ConnectionReset,
                E::SentNoResponse,
                stop(X::BodyNotReplayable),
            )],
            0,
        )
        .client(LARGE_UPLOAD_CLIENT),
        Scenario {
            name: "stale_keep_alive",
            summary: "a pooled connection the server closed while idle is not used: the POST is sent once, on a fresh connection",
            fault: h1(vec![H1::RespondThenCloseIdle(ok()), H1::Respond(ok())]),
            client: DEFAULT_CLIENT,
            calls: vec![
                CallSpec::idempotent_get(),
                CallSpec::post().before(Before::IdleConnectionClosed),
            ],
            expected: vec![vec![succeeded()], vec![succeeded()]],
            server: ServerExpect {
                executions: 2,
                requests: Some(2),
                key_receipts: None,
                connections: None,
            },
            ends_within: None,
        },
        Scenario::one_call(
            "retry_after_seconds",
            "503 with Retry-After: 1 is waited exactly, for an idempotent call",
            h1(vec![
                H1::Respond(status(503).header("retry-after", "1")),
                H1::Respond(ok()),
            ]),
            CallSpec::idempotent_get(),
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
            CallSpec::post(),
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
            CallSpec::idempotent_get(),
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
            CallSpec::idempotent_get().deadline(Duration::from_secs(10)),
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
            CallSpec::post(),
            vec![Expect::answered(500, stop(X::StatusNotIdempotent))],
            1,
        ),
        Scenario::one_call(
            "h2_ok",
            "HTTP/2 baseline by prior knowledge",
            h2c(vec![H2::Respond(ok())]),
            empty_post(),
            vec![succeeded()],
            1,
        ),
        Scenario::one_call(
            "h2_ok_tls",
            "HTTP/2 baseline negotiated by ALPN",
            h2_tls(vec![H2::Respond(ok())]),
            empty_post(),
            vec![succeeded()],
            1,
        ),
        Scenario::one_call(
            "h2_refused_stream",
            "REFUSED_STREAM proves not processed: a POST is retried and executes once",
            h2c(vec![H2::RefusedStream, H2::Respond(ok())]),
            empty_post(),
            vec![
                Expect::failed(
                    S::AwaitHead,
                    C::StreamRefused,
                    E::NotProcessed,
                    retry(R::NotProcessed),
                ),
                succeeded(),
            ],
            1,
        ),
        Scenario::one_call(
            "h2_goaway_above_stream",
            "a stream above GOAWAY's last-stream-id was not processed: retried, executes once",
            h2c(vec![H2::GoAwayAboveLastStreamId, H2::Respond(ok())]),
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
        ),
        Scenario::one_call(
            "h2_goaway_covering_stream",
            "a stream covered by GOAWAY whose connection then closed is ambiguous",
            h2c(vec![
                H2::GoAwayCoveringStreamThenClose { execute: true },
                H2::Respond(ok()),
            ]),
            empty_post(),
            vec![after_write(C::GoAway, stop(X::NotIdempotent))],
            1,
        ),
        // A graceful shutdown in two steps: GOAWAY(2^31-1) while the
        // stream is in flight, then GOAWAY naming it, then the close. The
        // stream is covered by both (RFC 9113 §6.8): the server may have
        // acted → sent_no_response; rule 3: a POST that declared nothing
        // stops. The server executed it once.
        Scenario::one_call(
            "h2_graceful_shutdown_covering_stream",
            "a stream covered by a two-step graceful shutdown whose connection then closed is ambiguous",
            h2c(vec![
                H2::GracefulShutdownCoveringStreamThenClose { execute: true },
                H2::Respond(ok()),
            ]),
            empty_post(),
            vec![after_write(C::GoAway, stop(X::NotIdempotent))],
            1,
        ),
        // The same shutdown whose second GOAWAY names the stream before
        // this one: above the final last-stream-id, the stream was not
        // processed (RFC 9113 §6.8) → not_processed, retried whatever the
        // idempotency on a new connection; the server executed only the
        // retry.
        Scenario::one_call(
            "h2_graceful_shutdown_excluding_stream",
            "a stream above the second GOAWAY of a two-step shutdown was not processed: retried, executes once",
            h2c(vec![H2::GracefulShutdownExcludingStream, H2::Respond(ok())]),
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
        Scenario::one_call(
            "h2_stream_reset_internal_error",
            "a bare RST_STREAM proves nothing",
            h2c(vec![
                H2::ResetStream {
                    reason: Reason::INTERNAL_ERROR,
                    execute: true,
                },
                H2::Respond(ok()),
            ]),
            empty_post(),
            vec![after_write(C::StreamReset, stop(X::NotIdempotent))],
            1,
        ),
        Scenario::one_call(
            "idempotency_key_after_ambiguous_failure",
            "a POST whose key was sent is retried; the server sees the key twice and acts once",
            h1(vec![
                H1::CloseAfterRequest { execute: true },
                H1::Respond(ok()),
            ]),
            CallSpec::post().with_key(),
            vec![
                after_write(C::ConnectionClosed, retry(R::SafelyIdempotent)),
                succeeded(),
            ],
            1,
        )
        .key_receipts(2),
        Scenario::one_call(
            "idempotency_key_in_progress",
            "409 to a call whose key was sent: that key is still being processed; retried after its Retry-After",
            h1(vec![
                H1::Respond(status(409).header("retry-after", "1")),
                H1::Respond(ok()),
            ]),
            CallSpec::post().with_key(),
            vec![
                Expect::answered(409, retry(R::KeyInProgress))
                    .delay(DelayCheck::Exactly(Duration::from_secs(1))),
                succeeded(),
            ],
            1,
        )
        .key_receipts(2),
        Scenario::one_call(
            "idempotency_key_reused",
            "422 to a call whose key was sent: the key was reused with another payload; never retried",
            h1(vec![H1::Respond(status(422)), H1::Respond(ok())]),
            CallSpec::post().with_key(),
            vec![Expect::answered(422, stop(X::KeyReused))],
            0,
        )
        .key_receipts(1),
        Scenario::one_call(
            "conflict_without_a_key",
            "without a sent key, 409 is an ordinary answer, even for a declared-idempotent call",
            h1(vec![
                H1::Respond(status(409).header("retry-after", "1")),
                H1::Respond(ok()),
            ]),
            CallSpec::post().idempotent(),
            vec![Expect::answered(409, stop(X::StatusNotRetryable))],
            0,
        ),
        Scenario {
            name: "circuit_opens_on_503s",
            summary: "an upstream answering only 503 opens its circuit; later calls are rejected locally",
            fault: h1(vec![H1::Respond(status(503))]),
            client: ClientSpec {
                breaker_window: Some(2),
                ..DEFAULT_CLIENT
            },
            calls: vec![
                CallSpec::post(),
                CallSpec::post(),
                CallSpec::post(),
                CallSpec::post(),
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
            "ok_200_ipv6",
            "baseline on the IPv6 loopback",
            Fault::Http1 {
                script: vec![H1::Respond(ok())],
                tls: false,
                ipv6: true,
                receive_buffer: None,
            },
            CallSpec::post(),
            vec![succeeded()],
            1,
        ),
        Scenario::one_call(
            "closed_after_request_tls",
            "a close after the request over TLS is as ambiguous as over TCP",
            h1_tls(vec![
                H1::CloseAfterRequest { execute: true },
                H1::Respond(ok()),
            ]),
            CallSpec::post(),
            vec![after_write(C::ConnectionClosed, stop(X::NotIdempotent))],
            1,
        ),
        Scenario {
            name: "connection_close_then_next_call",
            summary: "a response with Connection: close is final for its connection; the next call opens a new one without a failed attempt",
            fault: h1(vec![H1::Respond(ok().close()), H1::Respond(ok())]),
            client: DEFAULT_CLIENT,
            calls: vec![CallSpec::post(), CallSpec::post()],
            expected: vec![vec![succeeded()], vec![succeeded()]],
            server: ServerExpect {
                executions: 2,
                requests: Some(2),
                key_receipts: None,
                connections: None,
            },
            ends_within: None,
        },
        Scenario::one_call(
            "redirect_is_an_answer",
            "a redirect is never followed by the engine: it is an answer, not retried",
            h1(vec![
                H1::Respond(status(302).header("location", "/elsewhere")),
                H1::Respond(ok()),
            ]),
            CallSpec::idempotent_get(),
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
            CallSpec::idempotent_get(),
            vec![
                Expect::answered(503, retry(R::RetryableStatus))
                    .delay(DelayCheck::Exactly(CONFORMANCE_BASE_BACKOFF)),
                succeeded(),
            ],
            1,
        ),
        Scenario::one_call(
            "h2_refused_stream_tls",
            "REFUSED_STREAM on a connection negotiated by ALPN",
            h2_tls(vec![H2::RefusedStream, H2::Respond(ok())]),
            empty_post(),
            vec![
                Expect::failed(
                    S::AwaitHead,
                    C::StreamRefused,
                    E::NotProcessed,
                    retry(R::NotProcessed),
                ),
                succeeded(),
            ],
            1,
        ),
        Scenario::one_call(
            "h2_goaway_above_stream_tls",
            "GOAWAY below the stream on a connection negotiated by ALPN",
            h2_tls(vec![H2::GoAwayAboveLastStreamId, H2::Respond(ok())]),
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
        ),
        Scenario::one_call(
            "h2_never_answers",
            "an HTTP/2 stream that is never answered times out ambiguous",
            h2c(vec![H2::NeverAnswer { execute: true }, H2::Respond(ok())]),
            empty_post(),
            vec![after_write(C::Timeout, stop(X::NotIdempotent))],
            1,
        ),
        // The idempotent twins: where declaring idempotency changes the
        // answer, both variants are in the table.
        Scenario::one_call(
            "reset_after_request_idempotent",
            "a reset after the request was read is retried for a declared-idempotent call",
            h1(vec![
                H1::ResetAfterRequest { execute: true },
                H1::Respond(ok()),
            ]),
            CallSpec::idempotent_get(),
            vec![
                after_write(C::ConnectionReset, retry(R::SafelyIdempotent)),
                succeeded(),
            ],
            2,
        ),
        Scenario::one_call(
            "partial_head_then_close_idempotent",
            "a response head cut short is retried for a declared-idempotent call",
            h1(vec![
                H1::PartialHeadThenClose { execute: true },
                H1::Respond(ok()),
            ]),
            CallSpec::idempotent_get(),
            vec![
                after_write(C::ConnectionClosed, retry(R::SafelyIdempotent)),
                succeeded(),
            ],
            2,
        ),
        Scenario::one_call(
            "body_stalls_idempotent",
            "a stalled body is retried for a declared-idempotent call",
            h1(vec![
                H1::StallBody {
                    sent: 10,
                    execute: true,
                },
                H1::Respond(ok()),
            ]),
            CallSpec::idempotent_get(),
            vec![
                Expect::failed(
                    S::ReadBody,
                    C::Timeout,
                    E::Responded,
                    retry(R::SafelyIdempotent),
                ),
                succeeded(),
            ],
            2,
        ),
        Scenario::one_call(
            "status_500_idempotent",
            "an answered 500 is retried for a declared-idempotent call",
            h1(vec![
                H1::Respond(status(500).executes(true)),
                H1::Respond(ok()),
            ]),
            CallSpec::idempotent_get(),
            vec![
                Expect::answered(500, retry(R::RetryableStatus)),
                succeeded(),
            ],
            2,
        ),
        Scenario::one_call(
            "h2_goaway_covering_stream_idempotent",
            "a covered stream whose connection closed is retried on a new connection when idempotent",
            h2c(vec![
                H2::GoAwayCoveringStreamThenClose { execute: true },
                H2::Respond(ok()),
            ]),
            empty_post().idempotent(),
            vec![
                after_write(C::GoAway, retry(R::SafelyIdempotent)),
                succeeded(),
            ],
            2,
        ),
        Scenario::one_call(
            "h2_stream_reset_internal_error_idempotent",
            "a bare RST_STREAM is retried for a declared-idempotent call",
            h2c(vec![
                H2::ResetStream {
                    reason: Reason::INTERNAL_ERROR,
                    execute: true,
                },
                H2::Respond(ok()),
            ]),
            empty_post().idempotent(),
            vec![
                after_write(C::StreamReset, retry(R::SafelyIdempotent)),
                succeeded(),
            ],
            2,
        ),
        Scenario::one_call(
            "truncated_chunked_body",
            "a chunked body cut off before its last chunk fails after the response",
            h1(vec![
                H1::TruncatedChunkedBody { execute: true },
                H1::Respond(ok()),
            ]),
            CallSpec::post(),
            vec![Expect::failed(
                S::ReadBody,
                C::ConnectionClosed,
                E::Responded,
                stop(X::NotIdempotent),
            )],
            1,
        ),
        Scenario::one_call(
            "reset_during_body",
            "a reset while the response body arrives is a reset after the response",
            h1(vec![
                H1::ResetDuringBody {
                    declared: 100,
                    sent: 10,
                    execute: true,
                },
                H1::Respond(ok()),
            ]),
            CallSpec::post(),
            vec![Expect::failed(
                S::ReadBody,
                C::ConnectionReset,
                E::Responded,
                stop(X::NotIdempotent),
            )],
            1,
        ),
        Scenario::one_call(
            "deadline_leaves_no_time",
            "the deadline ends the attempt and leaves too little time for another",
            h1(vec![H1::NeverAnswer { execute: true }, H1::Respond(ok())]),
            CallSpec::idempotent_get().deadline(Duration::from_millis(600)),
            vec![after_write(C::Timeout, stop(X::DeadlineTooShort))],
            1,
        )
        .client(ClientSpec {
            attempt_timeout: Duration::from_secs(5),
            ..DEFAULT_CLIENT
        }),
    ];
    table.extend(risky::scenarios());
    table
}

/// Every scenario's name, in table order.
pub fn scenario_names() -> Vec<&'static str> {
    scenarios().iter().map(|s| s.name).collect()
}
