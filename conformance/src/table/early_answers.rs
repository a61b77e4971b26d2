//! Early answers: the server answers while the request body is still being
//! sent, then ends the connection (HTTP/1.1) or the stream (HTTP/2). The
//! answer is the call's outcome (RFC 9112 §9.6, RFC 9113 §8.1), whatever
//! happens to the rest of the upload.

use evident_core::decide::StopReason as X;

use super::{LARGE_UPLOAD_CLIENT, h1, h1_tls, h2_tls, h2c, ok, status, stop, succeeded};
use crate::lab::{AfterEarlyAnswer, Http1Behaviour as H1, Http2Behaviour as H2};
use crate::scenario::{BodySpec, CallSpec, Expect, Scenario};

/// The early-answer scenarios, in table order.
pub(super) fn scenarios() -> Vec<Scenario> {
    vec![
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
    ]
}
