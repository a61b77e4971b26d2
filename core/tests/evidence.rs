//! What the client does with the evidence an engine cannot contradict:
//! sealing an attempt it gave up on, and asking for a new connection after
//! a 421. Async client on paused tokio time, blocking client on a manual
//! clock; nothing sleeps.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use evident_core::client::{self, CallOptions, ClientBuilder, blocking};
use evident_core::decide::{Decision, RetryReason, StopReason};
use evident_core::resilience::{ManualClock, PipelineConfig};
use evident_core::testing::{ScriptedEngine, Step};
use evident_core::{
    AttemptBody, AttemptContext, AttemptStage, BlockingAttemptBody, BlockingEngine,
    BlockingResponseBody, Engine, EngineFailure, EngineSignal, ExecutionEvidence as E, Progress,
    ResponseBody, RetryPolicy,
};

const URL: &str = "http://127.0.0.1:8080/pay";

fn builder() -> ClientBuilder {
    ClientBuilder::new()
        .policy(
            RetryPolicy::builder()
                .max_attempts(4)
                .jitter(0.0)
                .no_budget()
                .build()
                .unwrap(),
        )
        .attempt_timeout(Duration::from_secs(2))
        .pipeline(PipelineConfig::disabled())
}

/// An engine whose connection task started writing the request (with exact
/// counting, no byte accepted yet) and then never progresses, as a write
/// blocked on a full socket in another task. It keeps the attempt's
/// progress, as a connection task would.
#[derive(Default)]
struct StuckInFirstWrite {
    kept: Mutex<Vec<Progress>>,
    entered: tokio::sync::Notify,
}

#[async_trait::async_trait]
impl Engine for StuckInFirstWrite {
    fn name(&self) -> &'static str {
        "stuck-in-first-write"
    }

    async fn send(
        &self,
        _request: http::Request<AttemptBody>,
        attempt: &AttemptContext,
    ) -> Result<http::Response<ResponseBody>, EngineFailure> {
        let progress = attempt.progress();
        progress.counts_writes_exactly();
        progress.connection_reused(true);
        progress.enter(AttemptStage::WriteHead);
        progress
            .start_write()
            .expect("a fresh attempt is not sealed");
        self.kept.lock().unwrap().push(progress.clone());
        self.entered.notify_one();
        std::future::pending().await
    }
}

#[tokio::test(start_paused = true)]
async fn a_timeout_during_a_started_write_is_sent_no_response_and_seals_the_attempt() {
    let engine = Arc::new(StuckInFirstWrite::default());
    let client = builder().build(engine.clone()).unwrap();
    let request = http::Request::post(URL)
        .body(client::Body::from("{}"))
        .unwrap();
    let err = client
        .execute(request, CallOptions::new())
        .await
        .unwrap_err();
    let records = err.attempts();
    assert_eq!(records.len(), 1, "{records:?}");
    assert_eq!(records[0].evidence, Some(E::SentNoResponse));
    assert_eq!(records[0].stage, Some(AttemptStage::WriteHead));
    assert_eq!(
        records[0].decision,
        Decision::Stop(StopReason::NotIdempotent)
    );
    let kept = engine.kept.lock().unwrap();
    assert!(kept[0].is_sealed());
    assert!(
        kept[0].start_write().is_err(),
        "a write after the seal is refused"
    );
}

impl BlockingEngine for StuckInFirstWrite {
    fn name(&self) -> &'static str {
        "stuck-in-first-write"
    }

    /// A blocking engine bounds the stuck write by the attempt deadline and
    /// reports its timer: nothing was accepted, but the write had started.
    fn send(
        &self,
        _request: http::Request<BlockingAttemptBody>,
        attempt: &AttemptContext,
    ) -> Result<http::Response<Box<dyn BlockingResponseBody>>, EngineFailure> {
        let progress = attempt.progress();
        progress.counts_writes_exactly();
        progress.enter(AttemptStage::WriteHead);
        progress
            .start_write()
            .expect("a fresh attempt is not sealed");
        self.kept.lock().unwrap().push(progress.clone());
        Err(EngineFailure::signal_only(EngineSignal::TimedOut))
    }
}

#[test]
fn a_blocking_write_that_timed_out_after_it_started_is_sent_no_response_and_sealed() {
    let engine = Arc::new(StuckInFirstWrite::default());
    let client = builder()
        .clock(Arc::new(ManualClock::new()))
        .build_blocking(engine.clone())
        .unwrap();
    let request = http::Request::post(URL)
        .body(blocking::Body::from("{}"))
        .unwrap();
    let err = client.execute(request, CallOptions::new()).unwrap_err();
    let records = err.attempts();
    assert_eq!(records.len(), 1, "{records:?}");
    assert_eq!(records[0].evidence, Some(E::SentNoResponse));
    assert_eq!(
        records[0].decision,
        Decision::Stop(StopReason::NotIdempotent)
    );
    let kept = engine.kept.lock().unwrap();
    assert!(kept[0].is_sealed());
    assert!(kept[0].start_write().is_err());
}

#[tokio::test(start_paused = true)]
async fn a_call_dropped_by_its_caller_mid_attempt_seals_the_attempt() {
    let engine = Arc::new(StuckInFirstWrite::default());
    let client = builder().build(engine.clone()).unwrap();
    let request = http::Request::post(URL)
        .body(client::Body::from("{}"))
        .unwrap();
    let call = tokio::spawn(async move { client.execute(request, CallOptions::new()).await });
    engine.entered.notified().await;
    call.abort();
    assert!(call.await.unwrap_err().is_cancelled());
    let kept = engine.kept.lock().unwrap();
    assert!(kept[0].is_sealed());
    assert!(kept[0].start_write().is_err());
}

#[tokio::test(start_paused = true)]
async fn only_the_retry_after_a_421_asks_for_a_new_connection_async() {
    let engine = Arc::new(ScriptedEngine::new([
        Step::respond(421, ""),
        Step::respond(425, ""),
        Step::respond(421, ""),
        Step::respond(200, "ok"),
    ]));
    let client = builder().build(engine.clone()).unwrap();
    let request = http::Request::post(URL)
        .body(client::Body::from("{}"))
        .unwrap();
    // Nothing declared: 421 and 425 prove non-processing on their own.
    let response = client.execute(request, CallOptions::new()).await.unwrap();
    let reasons: Vec<_> = client::attempts_of(&response)
        .iter()
        .map(|r| r.decision.reason_str())
        .collect();
    assert_eq!(
        reasons,
        [
            "misdirected_request",
            "too_early",
            "misdirected_request",
            "succeeded"
        ]
    );
    let fresh: Vec<_> = engine.seen().iter().map(|s| s.fresh_connection).collect();
    assert_eq!(fresh, [false, true, false, true]);
}

#[test]
fn only_the_retry_after_a_421_asks_for_a_new_connection_blocking() {
    let clock = ManualClock::new();
    let engine = Arc::new(
        ScriptedEngine::new([
            Step::respond(421, ""),
            Step::respond(408, ""),
            Step::respond(200, "ok"),
        ])
        .with_clock(clock.clone()),
    );
    let client = builder()
        .clock(Arc::new(clock))
        .build_blocking(engine.clone())
        .unwrap();
    let request = http::Request::post(URL)
        .body(blocking::Body::from("{}"))
        .unwrap();
    let response = client.execute(request, CallOptions::new()).unwrap();
    let decisions: Vec<_> = client::attempts_of(&response)
        .iter()
        .map(|r| r.decision)
        .collect();
    assert!(matches!(
        decisions[..],
        [
            Decision::Retry {
                reason: RetryReason::MisdirectedRequest,
                ..
            },
            Decision::Retry {
                reason: RetryReason::RequestTimeout,
                ..
            },
            Decision::Stop(StopReason::Succeeded)
        ]
    ));
    let fresh: Vec<_> = engine.seen().iter().map(|s| s.fresh_connection).collect();
    assert_eq!(fresh, [false, true, false]);
}
