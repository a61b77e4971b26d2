//! The engines built into the runner, chosen by the crate's features
//! (all on by default; pick one with `--no-default-features --features
//! <engine>`).

use crate::harness::EngineUnderTest;
use crate::harness::KnownGap;
#[cfg(any(feature = "ureq", feature = "isahc"))]
use crate::scenario::Capability;

/// What an early-answer race gap says.
const EARLY_ANSWER_LOST: &str = "an answer sent while the body was still being written is \
    sometimes lost to the failed write: the attempt is then a reset while writing the body, \
    `sent_no_response`, and a POST that declared nothing stops";

/// The early answers cut by a reset, plain and over TLS.
pub const EARLY_ANSWERS_CUT: [&str; 2] = [
    "early_answer_cut_by_a_reset",
    "early_answer_cut_by_a_reset_tls",
];

/// The early-answer scenarios, with what the server executed in each: the
/// 413s are not executed, the 200s are.
pub const EARLY_ANSWERS: [(&str, u64); 4] = [
    ("early_413_then_reset", 0),
    ("early_200_then_close", 1),
    ("early_413_then_reset_tls", 0),
    ("early_200_then_close_tls", 1),
];

/// The race gap of `scenario`: the answer, or (written from the rules) a
/// reset while the body is written, ambiguous, and a POST that declared
/// nothing stops; the server executed `executions` times either way.
fn early_answer_race(scenario: &'static str, executions: u64, reason: &'static str) -> KnownGap {
    use crate::scenario::{Expect, Then};
    use evident_core::decide::StopReason;
    use evident_core::{AttemptStage as S, ExecutionEvidence as E, FailureCategory as C};
    KnownGap::race(
        scenario,
        EARLY_ANSWER_LOST,
        vec![vec![Expect::failed(
            S::WriteBody,
            C::ConnectionReset,
            E::SentNoResponse,
            Then::Stop(StopReason::NotIdempotent),
        )]],
        executions,
        reason,
    )
}

/// Adds the early-answer race gap to `driver` for each scenario of
/// [`EARLY_ANSWERS`] named in `which`, with `reason`: for an engine that
/// cannot read an answer the server sent while the request body was still
/// being written (RFC 9112 §9.6) in every run. Either outcome then passes
/// as a named gap (see [`KnownGap::race`]).
pub fn with_early_answer_races(
    mut driver: EngineUnderTest,
    which: &[&str],
    reason: &'static str,
) -> EngineUnderTest {
    for (scenario, executions) in EARLY_ANSWERS {
        if which.contains(&scenario) {
            driver = driver.known_gap(early_answer_race(scenario, executions, reason));
        }
    }
    driver
}

/// Why reqwest sometimes loses an early answer.
#[cfg(feature = "reqwest")]
const REQWEST_EARLY_ANSWER: &str = "hyper's HTTP/1.1 dispatcher writes again before it learns \
    that the socket is readable, and the write's error then wins over an answer already \
    received (1 to 4 losses in 20 runs per row). The hyper engine reads the answer at that \
    moment in its counting layer; reqwest's sealed connection type has no place for one. \
    Closed by hyper reading before it fails a write, or by reqwest letting a connector layer \
    wrap the I/O";

/// What the head-then-refused race gap says.
#[cfg(feature = "reqwest")]
const REQWEST_HEAD_LOST: &str = "a response head followed at once by RST_STREAM and GOAWAY is \
    sometimes lost to the GOAWAY's error: the attempt is then `sent_no_response` at \
    `write_head` (a bodyless request), never `responded`";

/// Why reqwest sometimes loses a head that arrived just before a GOAWAY.
#[cfg(feature = "reqwest")]
const REQWEST_HEAD_BEFORE_GOAWAY: &str = "hyper's HTTP/2 client task fails a request it has \
    just opened with the connection's GOAWAY error when the GOAWAY is processed between \
    send_request and its next poll_ready (ClientTask::poll), before the head that already \
    arrived is handed over: the window of the reqwest GOAWAY gap above. Seen under load only \
    (once in a CI run; 0 in 20 runs alone). The weaker evidence leads to the same decision \
    for a declared-idempotent call, and to a stop for the other. Closed with that window";

/// The hyper 1 engine (HTTP/1.1 and HTTP/2).
#[cfg(feature = "hyper")]
pub fn hyper() -> EngineUnderTest {
    use std::sync::Arc;
    EngineUnderTest::asynchronous("hyper", |env| {
        let mut builder = evident_hyper::HyperEngine::builder()
            .root_certificates(env.roots.clone())
            .host_overrides(env.overrides.clone());
        if env.http2_prior_knowledge {
            builder = builder.http2_prior_knowledge();
        }
        Arc::new(
            builder
                .build()
                .expect("the lab's hyper configuration is valid"),
        )
    })
}

/// The ureq 3 engine (blocking, HTTP/1.1 only).
#[cfg(feature = "ureq")]
pub fn ureq() -> EngineUnderTest {
    use std::sync::Arc;
    EngineUnderTest::blocking("ureq", |env| {
        Arc::new(
            evident_ureq::UreqEngine::builder()
                .root_certificates(env.roots.clone())
                .host_overrides(env.overrides.clone())
                .build()
                .expect("the lab's ureq configuration is valid"),
        )
    })
    .lacks(Capability::Http2, "ureq 3 speaks HTTP/1.1 only")
    .known_gap(ureq_large_head())
}

/// ureq refuses a head larger than its output buffer before writing it: a
/// permanent failure at once, where the other engines time out writing it.
#[cfg(feature = "ureq")]
fn ureq_large_head() -> crate::harness::KnownGap {
    use crate::scenario::{Expect, Then};
    use evident_core::decide::StopReason;
    use evident_core::{AttemptStage as S, ExecutionEvidence as E, FailureCategory as C};
    // Rule 2: a protocol failure is permanent; nothing was executed.
    crate::harness::KnownGap::records(
        "idempotency_key_head_never_left",
        "the engine refuses the head before writing it, a permanent `protocol` failure, \
         instead of timing out while writing it",
        vec![vec![Expect::failed(
            S::WriteHead,
            C::Protocol,
            E::SentNoResponse,
            Then::Stop(StopReason::PermanentFailure),
        )]],
        0,
        None,
        "ureq encodes the head into its output buffer (128 KiB by default) and refuses a larger \
         one with an error it gives no kind but a protocol one. The key never left either way, \
         and the call stops without a retry",
    )
}

/// Why the reqwest engine cannot see a GOAWAY that covered its stream.
#[cfg(feature = "reqwest")]
const REQWEST_COVERED_GOAWAY: &str = "a stream at or below the GOAWAY's last-stream-id fails \
    later with an I/O error, and hyper turns an h2::Error carrying I/O into a plain I/O error \
    (hyper::Error::new_h2), dropping the GOAWAY; reqwest's sealed connection type leaves no \
    place to watch frames. The evidence (sent_no_response) and the decision are the same. \
    Closed by hyper keeping the h2::Error as the I/O error's source, or by reqwest letting a \
    connector layer wrap the I/O";

/// When reqwest sees a covering GOAWAY after all.
#[cfg(feature = "reqwest")]
const REQWEST_GOAWAY_TO_OPENED_STREAM: &str = "when the GOAWAY arrives between h2's \
    send_request and hyper's next poll_ready, hyper's client task fails the stream it has just \
    opened with the GOAWAY's error itself (seen under load)";

/// Why the reqwest engine takes no GOAWAY error as proof.
#[cfg(feature = "reqwest")]
const REQWEST_GOAWAY_NO_PROOF: &str = "hyper's HTTP/2 client task hands a remote GOAWAY's error \
    to the stream it has just opened when the GOAWAY arrives between h2's send_request and its \
    next poll_ready (ClientTask::poll), although that stream's HEADERS leave and the GOAWAY may \
    cover it; the same error reaches streams above the last-stream-id, and reqwest shows \
    neither stream ids nor frames. Taken as proof, it ran POSTs twice under graceful reloads. \
    The engine proves it only for a request whose body hyper pulled (its stream's body pipe \
    ran, so the client task had let it go); a request without a body never is. Closed by \
    hyper not failing an opened stream with the connection's error, or by reqwest exposing \
    the stream id";

/// The reqwest 0.13 engine (HTTP/1.1 and HTTP/2, async).
#[cfg(feature = "reqwest")]
pub fn reqwest() -> EngineUnderTest {
    use crate::scenario::{Expect, Then};
    use evident_core::decide::StopReason;
    use evident_core::{AttemptStage as S, ExecutionEvidence as E, FailureCategory as C};
    use std::sync::Arc;
    let covered = |scenario| {
        KnownGap::category(
            scenario,
            C::GoAway,
            C::ConnectionClosed,
            REQWEST_COVERED_GOAWAY,
        )
        .or_the_scenarios_own(REQWEST_GOAWAY_TO_OPENED_STREAM)
    };
    // A stream above the last-stream-id, seen without the proof: the
    // attempt may have been processed (rule 3), and a POST that declared
    // nothing stops there. The server executed nothing, on one connection.
    let unseen = |scenario| {
        KnownGap::unseen_proof(
            scenario,
            vec![vec![Expect::failed(
                S::AwaitHead,
                C::GoAway,
                E::SentNoResponse,
                Then::Stop(StopReason::NotIdempotent),
            )]],
            0,
            Some(1),
            REQWEST_GOAWAY_NO_PROOF,
        )
    };
    let driver = EngineUnderTest::asynchronous("reqwest", |env| {
        let mut builder = evident_reqwest::ReqwestEngine::builder()
            .root_certificates(env.roots.clone())
            .host_overrides(env.overrides.clone());
        if env.http2_prior_knowledge {
            builder = builder.http2_prior_knowledge();
        }
        Arc::new(
            builder
                .build()
                .expect("the lab's reqwest configuration is valid"),
        )
    })
    .known_gap(covered("h2_goaway_covering_stream"))
    .known_gap(covered("h2_goaway_covering_stream_idempotent"))
    .known_gap(covered("h2_graceful_shutdown_covering_stream"))
    .known_gap(unseen("h2_goaway_above_stream"))
    .known_gap(unseen("h2_goaway_above_stream_tls"))
    .known_gap(unseen("h2_goaway_with_error_above_stream"))
    .known_gap(unseen("h2_graceful_shutdown_excluding_stream"))
    .standing_gap(crate::harness::StandingGap::bodyless_head_unproven(
        "reqwest seals the connection's I/O, so only the body shows what hyper took: its \
         first frame pull comes after hyper queued the head. A bodyless request has no frame \
         to pull; hyper asks `is_end_stream` before it encodes the head or opens the stream, \
         which can still fail. Closed by reqwest letting a connector layer count the I/O",
    ));
    let lost_head = |scenario, then, executions, more: Vec<Expect>| {
        let mut call = vec![Expect::failed(
            S::WriteHead,
            C::GoAway,
            E::SentNoResponse,
            then,
        )];
        call.extend(more);
        KnownGap::race(
            scenario,
            REQWEST_HEAD_LOST,
            vec![call],
            executions,
            REQWEST_HEAD_BEFORE_GOAWAY,
        )
    };
    let driver = driver
        .known_gap(lost_head(
            "h2_refused_stream_after_head",
            Then::Stop(StopReason::NotIdempotent),
            1,
            Vec::new(),
        ))
        .known_gap(lost_head(
            "h2_refused_stream_after_head_idempotent",
            Then::Retry(evident_core::decide::RetryReason::SafelyIdempotent),
            2,
            vec![Expect::answered(200, Then::Stop(StopReason::Succeeded))],
        ));
    // The silent address takes each attempt; both are proven unsent.
    let driver = driver.known_gap(KnownGap::records(
        "two_addresses_silent_then_answers",
        "the silent first address takes every attempt: not sent, retried, exhausted",
        vec![vec![
            Expect::failed(
                S::Connect,
                C::ConnectTimeout,
                E::NotSent,
                Then::Retry(evident_core::decide::RetryReason::NotSent),
            ),
            Expect::failed(
                S::Connect,
                C::ConnectTimeout,
                E::NotSent,
                Then::Stop(StopReason::AttemptsExhausted),
            ),
        ]],
        0,
        None,
        REQWEST_SILENT_ADDRESS,
    ));
    // Rule 4: an abandoned attempt whose seal may not hold proves nothing
    // from its stage; a POST that declared nothing then stops.
    let driver = driver.known_gap(KnownGap::records(
        "tls_handshake_stalls",
        "the handshake timeout is `sent_no_response`, not `not_sent`: a POST stops",
        vec![vec![Expect::failed(
            S::Tls,
            C::ConnectTimeout,
            E::SentNoResponse,
            Then::Stop(StopReason::NotIdempotent),
        )]],
        0,
        None,
        REQWEST_ABANDONED_AT_TLS,
    ));
    // An early answer cut by a reset: lost as the other early answers are,
    // or received with a body failure hyper gives no cause for.
    let mut driver = driver;
    for scenario in EARLY_ANSWERS_CUT {
        driver = driver
            .known_gap(early_answer_race(scenario, 1, REQWEST_EARLY_ANSWER))
            .known_gap(KnownGap::category(
                scenario,
                C::ConnectionReset,
                C::Other,
                REQWEST_BODY_CONNECTION_ERROR,
            ));
    }
    let all: Vec<&str> = EARLY_ANSWERS.iter().map(|(s, _)| *s).collect();
    with_early_answer_races(driver, &all, REQWEST_EARLY_ANSWER)
}

/// Why a reqwest answer's body cut by a reset that the request's write met
/// is `other`.
#[cfg(feature = "reqwest")]
const REQWEST_BODY_CONNECTION_ERROR: &str = "when hyper's HTTP/1.1 connection fails outside     the body read (here the write of the rest of the request meets the server's reset),     hyper hands the response body a bare `connection error` with no cause, and the socket     then reads a plain end: nothing left says reset. The hyper engine marks the reset in its     counting layer when that write fails; reqwest's sealed connection type has no place for     one. Stage, evidence, decision and executions are the same";

/// Why a silent address takes a reqwest attempt with it.
#[cfg(feature = "reqwest")]
const REQWEST_SILENT_ADDRESS: &str = "reqwest builds hyper-util's HttpConnector and lets no caller \
    replace it: it tries the addresses of one family one after another, each within an equal \
    share of one connect timeout (none is set, since the core owns attempt timeouts; one would \
    also cap a lone slow address), and starts the other family only after 300 ms. Neither a \
    Connection Attempt Delay nor a connector of the adapter's own can be given. Closed by \
    reqwest accepting a connector, or hyper-util a per-address attempt delay";

/// Why a reqwest attempt abandoned during its own TLS handshake proves
/// nothing.
#[cfg(feature = "reqwest")]
const REQWEST_ABANDONED_AT_TLS: &str = "over https with HTTP/2 offered, hyper-util races the \
    attempt's own connect against a pooled connection becoming free, and hands the request to \
    the winner; an HTTP/2 client task then sends HEADERS with no hook of the adapter in between, \
    and the handshake reported at `tls` may be the loser's. So the stage of an attempt the \
    core's timer abandons proves nothing (its seal may not hold) and a POST stops. Closed by \
    reqwest letting a connector layer wrap the I/O, or reporting which connection took the \
    request";

/// The isahc engine (libcurl; async, HTTP/1.1 only; a connection reused
/// only for an attempt whose repeat is harmless, through a relay that
/// refuses libcurl's own re-send).
#[cfg(feature = "isahc")]
pub fn isahc() -> EngineUnderTest {
    use std::sync::Arc;
    EngineUnderTest::asynchronous("isahc", |env| {
        Arc::new(
            evident_isahc::IsahcEngine::builder()
                .root_certificates(env.roots.clone())
                .host_overrides(env.overrides.clone())
                .build()
                .expect("the lab's isahc configuration is valid"),
        )
    })
    .lacks(
        Capability::Http2,
        "libcurl re-sends a request refused with REFUSED_STREAM (and one above a \
         GOAWAY's last stream id) on its own, and isahc offers no switch: the \
         engine speaks HTTP/1.1 only. Closing this needs a libcurl option to \
         turn that re-send off, or isahc exposing one",
    )
    .known_gap(crate::harness::KnownGap::category(
        "idempotency_key_head_never_left",
        evident_core::FailureCategory::Timeout,
        evident_core::FailureCategory::Other,
        "libcurl builds the request head in a buffer limited to 1 MiB (DYN_HTTP_REQUEST) and \
         refuses a larger one after connecting, before sending it, with an error isahc reports \
         without a kind (other); the others time out writing it. Stage, evidence, decision and \
         executions are the same",
    ))
    .standing_gap(crate::harness::StandingGap::bodyless_head_unproven(
        "curl writes on its own thread through no hook of the adapter. Where the adapter \
         relays plaintext (a slot: an attempt whose repeat is harmless) it sees the head's \
         blank line leave, and the gap is closed; over TLS, or on a new connection, only \
         curl's pulls of the request body show that it built the head, and a \
         connected address shows TCP and TLS were up, not that the head left. Closed there \
         by isahc exposing curl's debug or socket callbacks per transfer",
    ))
    .known_gap(isahc_cut_before_the_reset(EARLY_ANSWERS_CUT[0]))
    .known_gap(isahc_cut_before_the_reset(EARLY_ANSWERS_CUT[1]))
}

/// isahc's gap on the early answer cut by a reset, `scenario`.
#[cfg(feature = "isahc")]
fn isahc_cut_before_the_reset(scenario: &'static str) -> KnownGap {
    KnownGap::category(
        scenario,
        evident_core::FailureCategory::ConnectionReset,
        evident_core::FailureCategory::ConnectionClosed,
        ISAHC_CUT_BEFORE_THE_RESET,
    )
    .or_the_scenarios_own(
        "when the server's reset reaches the adapter's relay before curl ends the \
         transfer, the relay's witness makes it `connection_reset`",
    )
}

/// Why isahc sometimes ends an early answer cut by a reset as a close.
#[cfg(feature = "isahc")]
const ISAHC_CUT_BEFORE_THE_RESET: &str = "isahc 2.0.2 takes the request body away from curl at \
    the first byte of the answer's body, and curl then ends the transfer itself (error 26). \
    When that comes before the server's reset reaches the adapter's relay, the body ended at \
    curl's own close, and nothing yet says the server reset: the end is `connection_closed` \
    (seen in CI, debug build, 1 run in 10; 0 in 30 release runs). Stage, evidence, decision and \
    executions are the same. Closed by isahc leaving the upload to curl, or by the body waiting \
    for the relay to see the connection's end, which has no bound when the server keeps it open";

/// Every engine this build includes, in matrix column order.
pub fn built_in() -> Vec<EngineUnderTest> {
    vec![
        #[cfg(feature = "hyper")]
        hyper(),
        #[cfg(feature = "ureq")]
        ureq(),
        #[cfg(feature = "reqwest")]
        reqwest(),
        #[cfg(feature = "isahc")]
        isahc(),
    ]
}
