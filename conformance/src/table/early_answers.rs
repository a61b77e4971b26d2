//! Early answers: the server answers while the request body is still being
//! sent, then ends the connection (HTTP/1.1) or the stream (HTTP/2). The
//! answer is the call's outcome (RFC 9112 §9.6, RFC 9113 §8.1), whatever
//! happens to the rest of the upload.
//!
//! Every scenario here has the same shape, built by [`early_answer`]: a
//! POST uploading the large in-memory body, answered after the first
//! [`ANSWER_AFTER_BYTES`] either with a 413 the server did not act on
//! ([`Answer::TooLarge`]) or with a 200 it executed ([`Answer::Executed`]).

use evident_core::AttemptStage as S;
use evident_core::ExecutionEvidence as E;
use evident_core::FailureCategory as C;
use evident_core::decide::StopReason as X;
use evident_core::observe::RejectionKind;

use super::{LARGE_UPLOAD_CLIENT, h1, h1_tls, h2_tls, h2c, ok, status, stop, succeeded};
use crate::lab::{AfterEarlyAnswer, Http1Behaviour as H1, Http2Behaviour as H2};
use crate::scenario::{BodySpec, ClientSpec, Expect, Scenario, ScenarioCall, ServerExpect};

/// Body bytes the server reads before it answers: enough that the body has
/// provably started to flow.
const ANSWER_AFTER_BYTES: usize = 64 * 1024;

/// What carries the call.
#[derive(Debug, Clone, Copy)]
enum Over {
    Http1,
    Http1Tls,
    Http2,
    Http2Tls,
}

/// What the server answers part-way through the body.
#[derive(Debug, Clone, Copy)]
enum Answer {
    /// 413 Content Too Large, not acted on: the call ends with it, nothing
    /// executed. Over HTTP/1.1 the server then resets the connection.
    TooLarge,
    /// 200, acted on: the call's success, one execution. Over HTTP/1.1 the
    /// server then closes the connection (after close_notify, over TLS).
    Executed,
}

/// The early-answer scenario `name` for `answer` over `over`. Over HTTP/2
/// the server always ends the stream with RST_STREAM(NO_ERROR).
fn early_answer(name: &'static str, summary: &'static str, over: Over, answer: Answer) -> Scenario {
    let (reply, then, expected, executions) = match answer {
        Answer::TooLarge => (
            status(413),
            AfterEarlyAnswer::Reset,
            Expect::answered(413, stop(X::StatusNotRetryable)),
            0,
        ),
        Answer::Executed => (ok(), AfterEarlyAnswer::Close, succeeded(), 1),
    };
    let h1_script = |reply| {
        vec![
            H1::AnswerMidBody {
                after_bytes: ANSWER_AFTER_BYTES,
                reply,
                then,
            },
            H1::Respond(ok()),
        ]
    };
    let h2_script = |reply| {
        vec![
            H2::AnswerMidBody {
                after_bytes: ANSWER_AFTER_BYTES,
                reply,
            },
            H2::Respond(ok()),
        ]
    };
    let fault = match over {
        Over::Http1 => h1(h1_script(reply)),
        Over::Http1Tls => h1_tls(h1_script(reply)),
        Over::Http2 => h2c(h2_script(reply)),
        Over::Http2Tls => h2_tls(h2_script(reply)),
    };
    Scenario::one_call(
        name,
        summary,
        fault,
        ScenarioCall::post().body(BodySpec::Large),
        vec![expected],
        executions,
    )
    .client(LARGE_UPLOAD_CLIENT)
}

/// An early answer whose body the server cuts with a reset (over TLS when
/// `tls`, with no close_notify): the answer arrived (responded), its body
/// failed (read_body, connection_reset); a POST that declared nothing
/// stops. The server executed it once. The reset also fails the client's
/// write: that must not hide the answer, nor turn the reset into a clean
/// close.
fn early_answer_cut_by_a_reset(name: &'static str, summary: &'static str, tls: bool) -> Scenario {
    let script = vec![
        H1::AnswerMidBody {
            after_bytes: ANSWER_AFTER_BYTES,
            reply: ok().body("0123456789"),
            then: AfterEarlyAnswer::ResetMidBody { declared: 100 },
        },
        H1::Respond(ok()),
    ];
    Scenario::one_call(
        name,
        summary,
        if tls { h1_tls(script) } else { h1(script) },
        ScenarioCall::post().body(BodySpec::Large),
        vec![Expect::failed(
            S::ReadBody,
            C::ConnectionReset,
            E::Responded,
            stop(X::NotIdempotent),
        )],
        1,
    )
    .client(LARGE_UPLOAD_CLIENT)
}

/// The early-answer scenario `name` that runs `calls` large POSTs through
/// a circuit breaker judging every two calls: each is answered by `script`
/// part-way through its body, the server reading on to the body's end
/// ([`AfterEarlyAnswer::ReadOn`]), so that no write fails and nothing races
/// the answer. The breaker counts an early answer as its status.
fn early_answers_and_the_circuit(
    name: &'static str,
    summary: &'static str,
    script: Vec<H1>,
    expected: Vec<Vec<Expect>>,
    executions: u64,
    requests: u64,
) -> Scenario {
    Scenario {
        name,
        summary,
        fault: h1(script),
        client: ClientSpec {
            breaker_window: Some(2),
            ..LARGE_UPLOAD_CLIENT
        },
        calls: vec![ScenarioCall::post().body(BodySpec::Large); expected.len()],
        expected,
        server: ServerExpect {
            executions,
            requests: Some(requests),
            key_receipts: None,
            connections: None,
        },
        ends_within: None,
    }
}

/// `reply`, answered early, the server reading on.
fn early_reading_on(reply: crate::lab::Reply) -> H1 {
    H1::AnswerMidBody {
        after_bytes: ANSWER_AFTER_BYTES,
        reply,
        then: AfterEarlyAnswer::ReadOn,
    }
}

/// The early-answer scenarios, in table order.
pub(super) fn scenarios() -> Vec<Scenario> {
    vec![
        early_answer(
            "early_413_then_reset",
            "a 413 sent while the body is still being written, then a reset, is the answer (RFC 9112 §9.6)",
            Over::Http1,
            Answer::TooLarge,
        ),
        early_answer(
            "early_200_then_close",
            "a 200 sent after executing part-way through the body, then a close, is the call's success",
            Over::Http1,
            Answer::Executed,
        ),
        early_answer(
            "early_413_then_reset_tls",
            "over TLS, a 413 sent while the body is still being written, then a reset, is the answer",
            Over::Http1Tls,
            Answer::TooLarge,
        ),
        early_answer(
            "early_200_then_close_tls",
            "over TLS, a 200 sent after executing part-way through the body, then close_notify and a close, is the success",
            Over::Http1Tls,
            Answer::Executed,
        ),
        early_answer(
            "h2_early_413_then_no_error_reset",
            "over HTTP/2, a 413 sent while the body is still being sent, then RST_STREAM(NO_ERROR), is the answer (RFC 9113 §8.1)",
            Over::Http2,
            Answer::TooLarge,
        ),
        early_answer(
            "h2_early_200_then_no_error_reset",
            "over HTTP/2, a 200 sent after executing part-way through the body, then RST_STREAM(NO_ERROR), is the success",
            Over::Http2,
            Answer::Executed,
        ),
        early_answer(
            "h2_early_413_then_no_error_reset_tls",
            "over HTTP/2 and TLS, a 413 sent while the body is still being sent, then RST_STREAM(NO_ERROR), is the answer",
            Over::Http2Tls,
            Answer::TooLarge,
        ),
        early_answer_cut_by_a_reset(
            "early_answer_cut_by_a_reset",
            "an early 200 whose body is cut by a reset is an answer whose body failed, never a failed upload",
            false,
        ),
        early_answer_cut_by_a_reset(
            "early_answer_cut_by_a_reset_tls",
            "over TLS, an early 200 whose body is cut by a reset (no close_notify) is an answer whose body failed",
            true,
        ),
        // An early 413 is the caller's problem, not the upstream's: two of
        // them leave a breaker that opens on two failures in two calls
        // closed, and the third call gets through.
        early_answers_and_the_circuit(
            "early_413s_leave_the_circuit_closed",
            "early 413s are answers about the request, not upstream failures: the circuit stays closed",
            vec![
                early_reading_on(status(413)),
                early_reading_on(status(413)),
                H1::Respond(ok()),
            ],
            vec![
                vec![Expect::answered(413, stop(X::StatusNotRetryable))],
                vec![Expect::answered(413, stop(X::StatusNotRetryable))],
                vec![succeeded()],
            ],
            1,
            3,
        ),
        // An early 503 is counted as any 503: two open the circuit, and
        // the next calls are rejected locally, never sent.
        early_answers_and_the_circuit(
            "early_503s_open_the_circuit",
            "early 503s count as any 503: two open the circuit, and later calls are rejected locally",
            vec![early_reading_on(status(503))],
            vec![
                vec![Expect::answered(503, stop(X::StatusNotIdempotent))],
                vec![Expect::answered(503, stop(X::StatusNotIdempotent))],
                vec![Expect::rejected(RejectionKind::CircuitOpen)],
                vec![Expect::rejected(RejectionKind::CircuitOpen)],
            ],
            0,
            2,
        ),
    ]
}
