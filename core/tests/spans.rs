//! Where the async client's work runs, span-wise: the engine is polled, and
//! dropped, inside the attempt span (itself inside the call span); a record
//! is made inside the attempt span; the call ends inside the call span. In
//! its own test binary: `tracing` caches callsite interest process-wide, and
//! a scoped subscriber in a binary whose other tests run without one can
//! miss spans.

use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use evident_core::RetryPolicy;
use evident_core::client::{Body, CallOptions, ClientBuilder};
use evident_core::engine::{AttemptBody, AttemptContext, Engine, EngineFailure, ResponseBody};
use evident_core::observe::{AttemptRecord, CallInfo, Observer};
use evident_core::resilience::PipelineConfig;
use http_body_util::BodyExt;

/// What ran where: each entry names a moment and the span current then.
#[derive(Clone, Default)]
struct Log(Arc<Mutex<Vec<String>>>);

impl Log {
    fn note(&self, moment: &str) {
        let span = tracing::Span::current();
        let name = span.metadata().map_or("none", |m| m.name());
        self.0.lock().unwrap().push(format!("{moment} in {name}"));
    }
    /// The moments in order, a moment repeated at once counted once (how
    /// often a future is polled is the executor's business).
    fn entries(&self) -> Vec<String> {
        let mut entries = self.0.lock().unwrap().clone();
        entries.dedup();
        entries
    }
}

impl Observer for Log {
    fn on_attempt(&self, _: &CallInfo, _: &AttemptRecord) {
        self.note("record");
    }
    fn on_call_end(&self, _: &CallInfo, _: &[AttemptRecord]) {
        self.note("call end");
    }
}

/// Notes where it is polled and dropped.
struct Probe<T> {
    log: Log,
    what: &'static str,
    inner: T,
}

impl<T> Drop for Probe<T> {
    fn drop(&mut self) {
        self.log.note(&format!("{} dropped", self.what));
    }
}

/// A body of one frame.
impl http_body::Body for Probe<Option<Bytes>> {
    type Data = Bytes;
    type Error = EngineFailure;
    fn poll_frame(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, EngineFailure>>> {
        self.log.note("body polled");
        Poll::Ready(
            self.inner
                .take()
                .map(|data| Ok(http_body::Frame::data(data))),
        )
    }
}

/// A future that never ends.
impl std::future::Future for Probe<()> {
    type Output = ();
    fn poll(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<()> {
        self.log.note("send polled");
        Poll::Pending
    }
}

/// Answers at once with a probed body, or (`hang`) never answers.
struct SpanEngine {
    log: Log,
    hang: bool,
}

#[async_trait::async_trait]
impl Engine for SpanEngine {
    fn name(&self) -> &'static str {
        "spans"
    }

    async fn send(
        &self,
        _: http::Request<AttemptBody>,
        _: &AttemptContext,
    ) -> Result<http::Response<ResponseBody>, EngineFailure> {
        self.log.note("send");
        if self.hang {
            Probe {
                log: self.log.clone(),
                what: "send",
                inner: (),
            }
            .await;
        }
        let body = Probe {
            log: self.log.clone(),
            what: "body",
            inner: Some(Bytes::from_static(b"ok")),
        };
        Ok(http::Response::new(body.boxed_unsync()))
    }
}

/// One idempotent GET through the async client over a `SpanEngine`, under
/// a subscriber that keeps every span (a registry alone, printing nothing),
/// on a paused clock: an attempt that never answers meets its timeout as
/// soon as the runtime is idle.
fn call(hang: bool, log: &Log) -> Result<http::Response<Bytes>, evident_core::client::Error> {
    tracing::subscriber::with_default(tracing_subscriber::registry(), || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .start_paused(true)
            .build()
            .unwrap();
        let engine = SpanEngine {
            log: log.clone(),
            hang,
        };
        let client = ClientBuilder::new()
            .policy(RetryPolicy::builder().max_attempts(1).build().unwrap())
            .pipeline(PipelineConfig::disabled())
            .attempt_timeout(Duration::from_secs(5))
            .observer(Arc::new(log.clone()))
            .build(engine)
            .unwrap();
        let request = http::Request::get("http://127.0.0.1:8080/")
            .body(Body::Empty)
            .unwrap();
        runtime.block_on(client.execute(request, CallOptions::new().idempotent()))
    })
}

#[test]
fn an_answered_call_runs_in_its_spans() {
    let log = Log::default();
    let response = call(false, &log).unwrap();
    assert_eq!(response.body(), "ok");
    assert_eq!(
        log.entries(),
        [
            "send in evident.attempt",
            "body polled in evident.attempt",
            "body dropped in evident.attempt",
            "record in evident.attempt",
            "call end in evident.call",
        ]
    );
}

#[test]
fn an_attempt_given_up_on_is_dropped_in_its_spans() {
    let log = Log::default();
    // The attempt's timer fires: the attempt is dropped, then recorded.
    let err = call(true, &log).unwrap_err();
    assert_eq!(err.attempts().len(), 1);
    let entries = log.entries();
    assert_eq!(
        entries[..4],
        [
            "send in evident.attempt",
            "send polled in evident.attempt",
            "send dropped in evident.attempt",
            "record in evident.attempt",
        ]
    );
    // The call ends with the failure (where, span-wise, is not pinned here:
    // a failure that ends the call ends it inside the attempt's span).
    assert_eq!(entries.len(), 5, "{entries:?}");
    assert!(entries[4].starts_with("call end"), "{entries:?}");
}
