//! HTTP/2, by prior knowledge and negotiated by ALPN: the protocol's proofs
//! of non-processing (REFUSED_STREAM, GOAWAY's last-stream-id), what they
//! do not prove (a stream covered by GOAWAY, a bare RST_STREAM, a refusal
//! after the head), and requests with bodies.

use evident_core::AttemptStage as S;
use evident_core::ExecutionEvidence as E;
use evident_core::FailureCategory as C;
use evident_core::decide::{RetryReason as R, StopReason as X};
use h2::Reason;

use super::{after_write, empty_post, h2_tls, h2c, ok, retry, stop, succeeded};
use crate::lab::Http2Behaviour as H2;
use crate::scenario::{BodySpec, Expect, Scenario, ScenarioCall};

/// The HTTP/2 scenarios, in table order.
pub(super) fn scenarios() -> Vec<Scenario> {
    let refused_after_body =
        |then| Expect::failed(S::AwaitHead, C::StreamRefused, E::NotProcessed, then);
    vec![
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
        // HTTP/2 with request bodies. The server reads the whole body and
        // answers: one attempt, one execution, whatever the body's kind.
        Scenario::one_call(
            "h2_post_in_memory_body",
            "HTTP/2 POST with an in-memory body",
            h2c(vec![H2::Respond(ok())]),
            ScenarioCall::post(),
            vec![succeeded()],
            1,
        ),
        Scenario::one_call(
            "h2_post_one_shot_body",
            "HTTP/2 POST with a one-shot (streamed) body",
            h2c(vec![H2::Respond(ok())]),
            ScenarioCall::post().body(BodySpec::SmallOneShot),
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
            ScenarioCall::post(),
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
            ScenarioCall::post().body(BodySpec::SmallOneShot),
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
    ]
}
