//! A rate limiter plugged in through `RateLimit` (as a fleet-wide one is)
//! keeps the pipeline's order and release rules: asked only after the
//! breaker admits, its token given back when the bulkhead rejects or the
//! attempt is ignored, spent when the attempt completes.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use evident_resilience::*;

/// A limiter that "asks elsewhere": every async reservation is pending,
/// and it hands out `tokens` in all.
#[derive(Debug)]
struct Remote {
    origin: Origin,
    tokens: Mutex<u64>,
    asked: AtomicU64,
    consumed: AtomicU64,
    returned: AtomicU64,
}

impl Remote {
    fn take(&self) -> Result<Grant, LocalRejection> {
        self.asked.fetch_add(1, Ordering::Relaxed);
        let mut tokens = self.tokens.lock().unwrap();
        if *tokens == 0 {
            return Err(LocalRejection::rate_limited(
                self.origin.clone(),
                Duration::from_secs(1),
                Duration::ZERO,
            ));
        }
        *tokens -= 1;
        Ok(Grant::new(7, Duration::ZERO))
    }
}

impl RateLimit for Remote {
    fn origin(&self) -> &Origin {
        &self.origin
    }
    fn reserve(&self, _now: Instant, _max_wait: Duration) -> Reservation {
        let answer = self.take();
        Reservation::Pending(Box::pin(async move { answer }))
    }
    fn reserve_blocking(
        &self,
        _now: Instant,
        _max_wait: Duration,
    ) -> Result<Grant, LocalRejection> {
        self.take()
    }
    fn end(&self, ticket: u64, consumed: bool) {
        assert_eq!(
            ticket, 7,
            "the pipeline hands back the limiter's own ticket"
        );
        if consumed {
            self.consumed.fetch_add(1, Ordering::Relaxed);
        } else {
            *self.tokens.lock().unwrap() += 1;
            self.returned.fetch_add(1, Ordering::Relaxed);
        }
    }
    fn metrics(&self) -> RateLimiterMetrics {
        RateLimiter::new(
            self.origin.clone(),
            RateLimiterConfig::builder(1, Duration::from_secs(1))
                .build()
                .unwrap(),
            Arc::new(ManualClock::new()),
        )
        .metrics()
    }
}

#[derive(Debug)]
struct Provider(Arc<Remote>);

impl RateLimitProvider for Provider {
    fn rate_limit(
        &self,
        _origin: &Origin,
        _clock: Arc<dyn Clock>,
        _hook: Option<EventHook>,
    ) -> Arc<dyn RateLimit> {
        self.0.clone()
    }
}

fn setup(tokens: u64, config: PipelineConfig) -> (Pipeline, Arc<Remote>, Origin) {
    let origin = Origin::new(Scheme::Https, "remote.test", 443);
    let remote = Arc::new(Remote {
        origin: origin.clone(),
        tokens: Mutex::new(tokens),
        asked: AtomicU64::new(0),
        consumed: AtomicU64::new(0),
        returned: AtomicU64::new(0),
    });
    let config = config.rate_limit_provider(Arc::new(Provider(remote.clone())));
    (
        Pipeline::new(config, Arc::new(ManualClock::new())),
        remote,
        origin,
    )
}

fn one_slot() -> Option<BulkheadConfig> {
    Some(
        BulkheadConfig::builder()
            .max_concurrent(1)
            .max_wait(Duration::ZERO)
            .build()
            .unwrap(),
    )
}

#[tokio::test]
async fn a_pending_limiter_is_awaited_and_a_bulkhead_rejection_gives_its_token_back() {
    let (pipeline, remote, origin) = setup(5, PipelineConfig::disabled().bulkhead(one_slot()));
    let first = match pipeline.admit(&origin, Duration::ZERO) {
        Admission::Wait(wait) => wait.await.unwrap(),
        Admission::Ready(r) => panic!("a pending limiter cannot decide at once: {r:?}"),
    };
    let second = pipeline.acquire(&origin).await;
    assert!(matches!(second, Err(LocalRejection::BulkheadFull { .. })));
    assert_eq!(remote.returned.load(Ordering::Relaxed), 1);
    first.record_success();
    assert_eq!(remote.consumed.load(Ordering::Relaxed), 1);
    // Ignored attempts give their token back too.
    pipeline.acquire(&origin).await.unwrap().record_ignored();
    assert_eq!(remote.returned.load(Ordering::Relaxed), 2);
    assert_eq!(*remote.tokens.lock().unwrap(), 4);
}

#[test]
fn a_blocking_caller_gets_the_same_rules_through_reserve_blocking() {
    let (pipeline, remote, origin) = setup(1, PipelineConfig::disabled().bulkhead(one_slot()));
    let held = pipeline.acquire_blocking(&origin).unwrap();
    assert!(matches!(
        pipeline.acquire_blocking(&origin),
        Err(LocalRejection::RateLimited { .. })
    ));
    held.record_failure();
    assert_eq!(remote.consumed.load(Ordering::Relaxed), 1);
    assert_eq!(remote.returned.load(Ordering::Relaxed), 0);
}

#[test]
fn an_open_circuit_rejects_before_the_limiter_is_asked() {
    let breaker = CircuitBreakerConfig::builder()
        .sliding_window_size(2)
        .minimum_number_of_calls(2)
        .build()
        .unwrap();
    let (pipeline, remote, origin) = setup(
        10,
        PipelineConfig::disabled().circuit_breaker(Some(breaker)),
    );
    for _ in 0..2 {
        pipeline
            .acquire_blocking(&origin)
            .unwrap()
            .record_status(503);
    }
    let asked = remote.asked.load(Ordering::Relaxed);
    assert!(matches!(
        pipeline.acquire_blocking(&origin),
        Err(LocalRejection::CircuitOpen { .. })
    ));
    assert_eq!(
        remote.asked.load(Ordering::Relaxed),
        asked,
        "no token was spent"
    );
}
