//! Observation never carries secrets. In its own test binary: `tracing`
//! caches callsite interest process-wide, and a scoped subscriber in a binary
//! whose other tests run in parallel without one can miss events.

use std::io::Write;
use std::sync::{Arc, Mutex};

use evident_core::client::{CallOptions, ClientBuilder, blocking};
use evident_core::observe::{AttemptRecord, CallInfo, Observer};
use evident_core::resilience::{ManualClock, PipelineConfig};
use evident_core::testing::{Reached, ScriptedEngine, Step};
use evident_core::{EngineSignal, RetryPolicy};

#[derive(Default)]
struct Collect(Mutex<Vec<AttemptRecord>>, Mutex<Vec<String>>);

impl Observer for Collect {
    fn on_attempt(&self, call: &CallInfo, record: &AttemptRecord) {
        self.0.lock().unwrap().push(*record);
        self.1.lock().unwrap().push(format!("{call:?}"));
    }
}

impl Collect {
    fn records(&self) -> Vec<AttemptRecord> {
        self.0.lock().unwrap().clone()
    }
}

fn builder() -> ClientBuilder {
    ClientBuilder::new()
        .policy(
            RetryPolicy::builder()
                .jitter(0.0)
                .no_budget()
                .build()
                .unwrap(),
        )
        .pipeline(PipelineConfig::disabled())
}

#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn secrets_never_reach_the_observation() {
    let captured = Captured::default();
    let writer = captured.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || writer.clone())
        .with_max_level(tracing::Level::TRACE)
        .with_ansi(false)
        .finish();
    let observer = Arc::new(Collect::default());
    tracing::subscriber::with_default(subscriber, || {
        let clock = ManualClock::new();
        let engine = ScriptedEngine::new([
            Step::fail(EngineSignal::ConnectionRefused, Reached::Connect),
            Step::respond(503, "body-secret-3"),
        ])
        .with_clock(clock.clone());
        let client = builder()
            .clock(Arc::new(clock))
            .observer(observer.clone())
            .build_blocking(engine)
            .unwrap();
        let request = http::Request::post("https://127.0.0.1:8443/pay?token=query-secret-1")
            .header("authorization", "Bearer header-secret-2")
            .body(blocking::Body::from("body-secret-4"))
            .unwrap();
        let response = client.execute(request, CallOptions::new()).unwrap();
        assert_eq!(response.status(), 503);
    });
    let logs = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
    // Something was observed, with the OpenTelemetry names...
    for field in [
        "http.request.method",
        "server.address",
        "server.port",
        "url.scheme",
        "http.request.resend_count",
        "http.response.status_code",
        "error.type",
        "evident.stage",
        "evident.evidence",
        "evident.decision",
    ] {
        assert!(logs.contains(field), "{field} missing from:\n{logs}");
    }
    assert_eq!(observer.records().len(), 2);
    let observed = format!(
        "{logs}{:?}{:?}",
        observer.records(),
        observer.1.lock().unwrap()
    );
    // ...and no secret.
    for secret in [
        "query-secret-1",
        "header-secret-2",
        "body-secret-3",
        "body-secret-4",
        "token=",
        "Bearer",
    ] {
        assert!(
            !observed.contains(secret),
            "{secret} leaked into:\n{observed}"
        );
    }
}
