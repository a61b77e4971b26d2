//! The fleet says what happens to it through `tracing` and the core's
//! metrics observer: falling back, coming back, and never with the
//! password. The only test of this binary: the global `tracing`
//! subscriber and `metrics` recorder are its own.

mod support;

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use evident_core::metrics::MetricsObserver;
use evident_redis::{Fleet, FleetConfig, FleetStatus};
use evident_resilience::{
    Origin, Pipeline, PipelineConfig, RateLimiterConfig, Scheme, SystemClock,
};
use metrics_util::debugging::{DebugValue, DebuggingRecorder};
use support::RedisServer;

/// Everything logged, by every thread (the fleet's included).
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

impl Captured {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

/// One metric as the recorder saw it: name, labels, value.
type Seen = (String, Vec<(String, String)>, DebugValue);

/// The value of metric `name` whose labels include `label`.
fn metric<'a>(snapshot: &'a [Seen], name: &str, label: (&str, &str)) -> Option<&'a DebugValue> {
    snapshot
        .iter()
        .find(|(n, labels, _)| {
            n == name
                && labels
                    .iter()
                    .any(|(k, v)| (k.as_str(), v.as_str()) == label)
        })
        .map(|(_, _, value)| value)
}

#[test]
fn falling_back_and_coming_back_are_logged_and_published_without_the_password() {
    let captured = Captured::default();
    let writer = captured.clone();
    // The only test of this binary: the global subscriber is its own.
    tracing_subscriber::fmt()
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .init();
    // The fleet reports from its own thread: a global recorder sees it.
    let recorder = DebuggingRecorder::new();
    let snapshotter = recorder.snapshotter();
    recorder
        .install()
        .expect("the only recorder of this binary");

    let mut server = RedisServer::start_with(&["--requirepass", "p4ssw0rd"]);
    let url = format!("redis://:p4ssw0rd@127.0.0.1:{}", server.port());
    let fleet = Fleet::connect(
        FleetConfig::builder(url, "evident-reporting")
            .reconnect_interval(Duration::from_millis(20))
            .observer(Arc::new(MetricsObserver::new()))
            .build()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(fleet.status(), FleetStatus::Shared);
    let pipeline = Pipeline::new(
        PipelineConfig::disabled().rate_limit_provider(Arc::new(
            fleet.rate_limits(
                RateLimiterConfig::builder(100, Duration::from_secs(1))
                    .build()
                    .unwrap(),
            ),
        )),
        Arc::new(SystemClock),
    );
    let origin = Origin::new(Scheme::Https, "api.test", 443);

    server.kill();
    // Bounded: each admission waits at most the deadline.
    for _ in 0..1000 {
        let _ = pipeline.acquire_blocking(&origin);
        if matches!(fleet.status(), FleetStatus::Local(_)) {
            break;
        }
    }
    server.restart();
    assert!(
        fleet.wait_until_shared(Duration::from_secs(10)),
        "{:?}",
        fleet.status()
    );

    let logs = captured.text();
    assert!(logs.contains("falls back to local limits"), "{logs}");
    assert!(
        logs.contains("shares its limits through Redis again"),
        "{logs}"
    );
    assert!(logs.contains("redis://:***@127.0.0.1"), "{logs}");
    assert!(!logs.contains("p4ssw0rd"), "{logs}");

    // The observer runs on the fleet's thread after the switch: poll
    // (bounded) until the recovery is published.
    let fleet_label = ("evident.fleet", "evident-reporting");
    let mut snapshot: Vec<Seen> = Vec::new();
    for _ in 0..1000 {
        snapshot = snapshotter
            .snapshot()
            .into_vec()
            .into_iter()
            .map(|(key, _, _, value)| {
                let labels = key
                    .key()
                    .labels()
                    .map(|l| (l.key().to_owned(), l.value().to_owned()))
                    .collect();
                (key.key().name().to_owned(), labels, value)
            })
            .collect();
        if metric(&snapshot, "evident.client.fleet.recoveries", fleet_label).is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(
        metric(
            &snapshot,
            "evident.client.fleet.fallbacks",
            ("evident.fleet.fallback.reason", "error")
        ),
        Some(&DebugValue::Counter(1)),
        "{snapshot:?}"
    );
    assert_eq!(
        metric(&snapshot, "evident.client.fleet.recoveries", fleet_label),
        Some(&DebugValue::Counter(1)),
        "{snapshot:?}"
    );
    match metric(&snapshot, "evident.client.fleet.shared", fleet_label) {
        Some(DebugValue::Gauge(shared)) => assert_eq!(shared.into_inner(), 1.0, "shared again"),
        other => panic!("no shared gauge: {other:?} in {snapshot:?}"),
    }
    assert!(!format!("{snapshot:?}").contains("p4ssw0rd"));
}
