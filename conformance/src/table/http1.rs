//! HTTP/1.1 over TCP: a server that fails after reading the request, a
//! response cut short or stalled, a request body interrupted or never
//! read, and connection reuse.

use evident_core::AttemptStage as S;
use evident_core::ExecutionEvidence as E;
use evident_core::FailureCategory as C;
use evident_core::decide::{RetryReason as R, StopReason as X};

use super::{LARGE_UPLOAD_CLIENT, after_write, h1, ok, retry, stop, succeeded};
use crate::lab::Http1Behaviour as H1;
use crate::scenario::{
    Before, BodySpec, DEFAULT_CLIENT, Expect, Fault, LARGE_BODY_BYTES, Scenario, ScenarioCall,
    ServerExpect,
};

/// Receive buffer of the server that stops reading mid-upload: small, so
/// the kernel absorbs almost nothing once the server stops reading and the
/// client's 8 MiB write (far beyond Linux's largest default send buffer,
/// `tcp_wmem`'s 4 MiB) must block.
const STOPPED_READER_RECEIVE_BUFFER: usize = 16 * 1024;

/// Body bytes the server reads before it stops: enough that the body has
/// provably started to flow.
const READ_BEFORE_STOPPING: usize = 64 * 1024;

/// The HTTP/1.1 scenarios, in table order.
pub(super) fn scenarios() -> Vec<Scenario> {
    vec![
        Scenario::one_call(
            "ok_200",
            "baseline: one attempt, one execution",
            h1(vec![H1::Respond(ok())]),
            ScenarioCall::post(),
            vec![succeeded()],
            1,
        ),
        Scenario::one_call(
            "closed_after_request",
            "the server read the request and closed: ambiguous, a POST is not retried",
            h1(vec![
                H1::CloseAfterRequest { execute: true },
                H1::Respond(ok()),
            ]),
            ScenarioCall::post(),
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
            ScenarioCall::idempotent_get(),
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
            ScenarioCall::post(),
            vec![after_write(C::ConnectionReset, stop(X::NotIdempotent))],
            1,
        ),
        Scenario::one_call(
            "never_answers",
            "the core's attempt timer fires after the request left: ambiguous",
            h1(vec![H1::NeverAnswer { execute: true }, H1::Respond(ok())]),
            ScenarioCall::post(),
            vec![after_write(C::Timeout, stop(X::NotIdempotent))],
            1,
        ),
        Scenario::one_call(
            "never_answers_idempotent",
            "the same timeout for a declared-idempotent call is retried",
            h1(vec![H1::NeverAnswer { execute: true }, H1::Respond(ok())]),
            ScenarioCall::idempotent_get(),
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
            ScenarioCall::post(),
            vec![after_write(C::ConnectionClosed, stop(X::NotIdempotent))],
            1,
        ),
        Scenario::one_call(
            "malformed_response",
            "a malformed response is a permanent protocol failure",
            h1(vec![H1::Malformed { execute: true }, H1::Respond(ok())]),
            ScenarioCall::idempotent_get(),
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
            ScenarioCall::post(),
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
            ScenarioCall::idempotent_get(),
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
            ScenarioCall::post(),
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
            ScenarioCall::post().body(BodySpec::Large),
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
            "closed_during_request_body_idempotent",
            "the same fault with a replayable body declared idempotent is retried",
            h1(vec![
                H1::CloseDuringRequestBody {
                    after_bytes: 64 * 1024,
                },
                H1::Respond(ok()),
            ]),
            ScenarioCall::post().body(BodySpec::Large).idempotent(),
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
            ScenarioCall::post().body(BodySpec::LargeOneShot).idempotent(),
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
                ScenarioCall::idempotent_get(),
                ScenarioCall::post().before(Before::IdleConnectionClosed),
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
        // A request on a reused connection that the server closes after
        // reading it, without an answer: what libcurl re-sends by itself
        // (`Curl_retry_request`, any method) and what any pool's "retry a
        // request on a stale connection" would repeat. The records say one
        // attempt per send, and the server's count must agree: a send the
        // engine made on its own shows as a request with no record.
        Scenario {
            name: "reused_connection_closed_after_request",
            summary: "a reused connection closed after the request was read: the POST is sent once and not retried, by evident or by its engine",
            fault: h1(vec![
                H1::Respond(ok()),
                H1::CloseAfterRequest { execute: true },
                H1::Respond(ok()),
            ]),
            client: DEFAULT_CLIENT,
            calls: vec![ScenarioCall::post(), ScenarioCall::post()],
            expected: vec![
                vec![succeeded()],
                vec![after_write(C::ConnectionClosed, stop(X::NotIdempotent))],
            ],
            server: ServerExpect {
                executions: 2,
                requests: Some(2),
                key_receipts: None,
                connections: None,
            },
            ends_within: None,
        },
        Scenario {
            name: "reused_connection_closed_after_request_idempotent",
            summary: "the same fault for a declared-idempotent call: retried once, as its own recorded attempt",
            fault: h1(vec![
                H1::Respond(ok()),
                H1::CloseAfterRequest { execute: true },
                H1::Respond(ok()),
            ]),
            client: DEFAULT_CLIENT,
            calls: vec![
                ScenarioCall::idempotent_get(),
                ScenarioCall::idempotent_get(),
            ],
            expected: vec![
                vec![succeeded()],
                vec![
                    after_write(C::ConnectionClosed, retry(R::SafelyIdempotent)),
                    succeeded(),
                ],
            ],
            // Connections are not counted: an engine that pools nothing
            // (the teaching engines) meets the fault on a new connection,
            // with the same records. That the pooling engines meet it on a
            // reused one is shown where they pool (isahc: tests/resend.rs).
            server: ServerExpect {
                executions: 3,
                requests: Some(3),
                key_receipts: None,
                connections: None,
            },
            ends_within: None,
        },
        Scenario {
            name: "connection_close_then_next_call",
            summary: "a response with Connection: close is final for its connection; the next call opens a new one without a failed attempt",
            fault: h1(vec![H1::Respond(ok().close()), H1::Respond(ok())]),
            client: DEFAULT_CLIENT,
            calls: vec![ScenarioCall::post(), ScenarioCall::post()],
            expected: vec![vec![succeeded()], vec![succeeded()]],
            server: ServerExpect {
                executions: 2,
                requests: Some(2),
                key_receipts: None,
                connections: None,
            },
            ends_within: None,
        },
        // The idempotent twins: where declaring idempotency changes the
        // answer, both variants are in the table.
        Scenario::one_call(
            "reset_after_request_idempotent",
            "a reset after the request was read is retried for a declared-idempotent call",
            h1(vec![
                H1::ResetAfterRequest { execute: true },
                H1::Respond(ok()),
            ]),
            ScenarioCall::idempotent_get(),
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
            ScenarioCall::idempotent_get(),
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
            ScenarioCall::idempotent_get(),
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
            "truncated_chunked_body",
            "a chunked body cut off before its last chunk fails after the response",
            h1(vec![
                H1::TruncatedChunkedBody { execute: true },
                H1::Respond(ok()),
            ]),
            ScenarioCall::post(),
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
            ScenarioCall::post(),
            vec![Expect::failed(
                S::ReadBody,
                C::ConnectionReset,
                E::Responded,
                stop(X::NotIdempotent),
            )],
            1,
        ),
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
            ScenarioCall::post().body(BodySpec::Large),
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
            ScenarioCall::post().body(BodySpec::Large).idempotent(),
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
    ]
}

// The stopped-reader scenarios need the large body to exceed Linux's
// largest default send buffer (4 MiB), or the whole upload could sit in the
// kernel and the write would never block.
const _: () = assert!(LARGE_BODY_BYTES > 4 * 1024 * 1024);
