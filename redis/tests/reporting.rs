//! The fleet says what happens to it through `tracing`: falling back,
//! coming back, starting locally, and never with the password.

mod support;

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use evident_redis::{Fleet, FleetConfig, FleetStatus};
use evident_resilience::{
    Origin, Pipeline, PipelineConfig, RateLimiterConfig, Scheme, SystemClock,
};
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

#[test]
fn falling_back_and_coming_back_are_logged_without_the_password() {
    let captured = Captured::default();
    let writer = captured.clone();
    // The only test of this binary: the global subscriber is its own.
    tracing_subscriber::fmt()
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .init();

    let mut server = RedisServer::start_with(&["--requirepass", "p4ssw0rd"]);
    let url = format!("redis://:p4ssw0rd@127.0.0.1:{}", server.port());
    let fleet = Fleet::connect(
        FleetConfig::builder(url, "evident-reporting")
            .reconnect_interval(Duration::from_millis(20))
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
}
