//! Behaviour of the whole pipeline: order, local rejections, verdicts,
//! cancellation. Time is a `ManualClock` (blocking) or tokio's paused clock
//! (async); no test sleeps.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use evident_resilience::*;

use Component::{Bulkhead as BH, CircuitBreaker as CB, RateLimiter as RL};
use EventKind::{Acquired, Consumed, Recorded, Rejected, Released};

const OPEN_WAIT: Duration = Duration::from_secs(10);
const RATE_PERIOD: Duration = Duration::from_secs(3600);

/// Collects `(component, kind)` of every event, in order.
#[derive(Clone, Default)]
struct Recorder(Arc<Mutex<Vec<(Component, EventKind)>>>);

impl Recorder {
    fn hook(&self) -> EventHook {
        let events = self.0.clone();
        Arc::new(move |event: &Event<'_>| {
            events.lock().unwrap().push((event.component, event.kind));
        })
    }

    fn take(&self) -> Vec<(Component, EventKind)> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
}

fn origin() -> Origin {
    Origin::new(Scheme::Https, "upstream.test", 443)
}

/// Window of 2 calls, opens at 50 %, 2 trial calls.
fn breaker_config() -> CircuitBreakerConfig {
    CircuitBreakerConfig::builder()
        .sliding_window_size(2)
        .minimum_number_of_calls(2)
        .failure_rate_threshold(50.0)
        .wait_duration_in_open_state(OPEN_WAIT)
        .permitted_calls_in_half_open_state(2)
        .build()
        .unwrap()
}

fn rate_config(limit: u32) -> RateLimiterConfig {
    RateLimiterConfig::builder(limit, RATE_PERIOD)
        .build()
        .unwrap()
}

/// A fail-fast bulkhead: these tests look at rejections, not queueing.
fn bulkhead_config(max: u32) -> BulkheadConfig {
    BulkheadConfig::builder()
        .max_concurrent(max)
        .max_wait(Duration::ZERO)
        .build()
        .unwrap()
}

fn all_three(rate_limit: u32, bulkhead_max: u32) -> PipelineConfig {
    PipelineConfig::default()
        .circuit_breaker(Some(breaker_config()))
        .rate_limiter(Some(rate_config(rate_limit)))
        .bulkhead(Some(bulkhead_config(bulkhead_max)))
}

struct Fixture {
    pipeline: Pipeline,
    clock: ManualClock,
    events: Recorder,
}

fn fixture(config: PipelineConfig) -> Fixture {
    let clock = ManualClock::new();
    let events = Recorder::default();
    let pipeline = Pipeline::with_event_hook(config, Arc::new(clock.clone()), events.hook());
    Fixture {
        pipeline,
        clock,
        events,
    }
}

impl Fixture {
    fn metrics(&self) -> OriginMetrics {
        self.pipeline.metrics(&origin()).unwrap()
    }
    fn circuit(&self) -> CircuitMetrics {
        self.metrics().circuit_breaker.unwrap()
    }
    fn rate(&self) -> RateLimiterMetrics {
        self.metrics().rate_limiter.unwrap()
    }
    fn bulkhead(&self) -> BulkheadMetrics {
        self.metrics().bulkhead.unwrap()
    }
    fn open_circuit(&self) {
        for _ in 0..2 {
            self.pipeline
                .acquire_blocking(&origin())
                .unwrap()
                .record_failure();
        }
        assert_eq!(self.pipeline.state(&origin()), Some(CircuitState::Open));
        self.events.take();
    }
}

#[test]
fn applies_circuit_then_rate_limiter_then_bulkhead_per_attempt() {
    let f = fixture(all_three(100, 10).circuit_breaker(Some(CircuitBreakerConfig::default())));

    f.pipeline
        .acquire_blocking(&origin())
        .unwrap()
        .record_success();
    assert_eq!(
        f.events.take(),
        [
            (CB, Acquired),
            (RL, Acquired),
            (BH, Acquired),
            (BH, Released),
            (RL, Consumed),
            (CB, Recorded(Verdict::Success)),
        ]
    );

    assert_eq!(
        f.pipeline
            .acquire_blocking(&origin())
            .unwrap()
            .record_status(503),
        Verdict::Failure
    );
    assert_eq!(
        f.events.take(),
        [
            (CB, Acquired),
            (RL, Acquired),
            (BH, Acquired),
            (BH, Released),
            (RL, Consumed),
            (CB, Recorded(Verdict::Failure)),
        ]
    );

    // Ignored and dropped attempts give everything back, still in reverse.
    let given_back = [
        (CB, Acquired),
        (RL, Acquired),
        (BH, Acquired),
        (BH, Released),
        (RL, Released),
        (CB, Released),
    ];
    f.pipeline
        .acquire_blocking(&origin())
        .unwrap()
        .record_ignored();
    assert_eq!(f.events.take(), given_back);
    drop(f.pipeline.acquire_blocking(&origin()).unwrap());
    assert_eq!(f.events.take(), given_back);
}

#[tokio::test(start_paused = true)]
async fn async_acquire_applies_the_same_order() {
    let events = Recorder::default();
    let pipeline =
        Pipeline::with_event_hook(all_three(100, 10), Arc::new(TokioClock), events.hook());
    let permit = pipeline.acquire(&origin()).await.unwrap();
    assert_eq!(
        events.take(),
        [(CB, Acquired), (RL, Acquired), (BH, Acquired)]
    );
    drop(permit);
    assert_eq!(
        events.take(),
        [(BH, Released), (RL, Released), (CB, Released)]
    );
}

#[test]
fn open_circuit_does_not_consume_rate_or_bulkhead_permit() {
    let f = fixture(all_three(100, 10));
    f.open_circuit();
    let (rate_before, bulkhead_before) = (f.rate(), f.bulkhead());

    for _ in 0..5 {
        match f.pipeline.acquire_blocking(&origin()) {
            Err(LocalRejection::CircuitOpen { origin: o, .. }) => assert_eq!(o, origin()),
            other => panic!("expected CircuitOpen, got {other:?}"),
        }
        assert_eq!(f.events.take(), [(CB, Rejected)]);
    }
    assert_eq!(f.rate(), rate_before);
    assert_eq!(f.bulkhead(), bulkhead_before);
    assert_eq!(f.rate().available, 98);
}

#[test]
fn bulkhead_rejection_releases_the_rate_limiter_and_is_not_a_circuit_error() {
    // A single local failure recorded would open this circuit (window 2 at
    // 50 %) once one success is in: the rejections below must record nothing.
    let f = fixture(all_three(100, 1));
    f.pipeline
        .acquire_blocking(&origin())
        .unwrap()
        .record_success();
    let held = f.pipeline.acquire_blocking(&origin()).unwrap();
    f.events.take();

    for _ in 0..10 {
        match f.pipeline.acquire_blocking(&origin()) {
            Err(LocalRejection::BulkheadFull {
                origin: o,
                max_concurrent: 1,
                ..
            }) => assert_eq!(o, origin()),
            other => panic!("expected BulkheadFull, got {other:?}"),
        }
        assert_eq!(
            f.events.take(),
            [
                (CB, Acquired),
                (RL, Acquired),
                (BH, Rejected),
                (RL, Released),
                (CB, Released),
            ]
        );
    }
    assert_eq!(f.pipeline.state(&origin()), Some(CircuitState::Closed));
    let circuit = f.circuit();
    assert_eq!((circuit.recorded, circuit.returned), (1, 10));
    assert_eq!(f.rate().available, 98, "one spent, one held, none lost");
    held.record_success();
}

#[test]
fn rate_limiter_rejection_releases_circuit_permission_and_is_not_a_circuit_error() {
    let f = fixture(all_three(1, 10));
    f.pipeline
        .acquire_blocking(&origin())
        .unwrap()
        .record_success();
    f.events.take();

    for _ in 0..10 {
        match f.pipeline.acquire_blocking(&origin()) {
            Err(LocalRejection::RateLimited {
                origin: o,
                next_permit_in,
                ..
            }) => {
                assert_eq!(o, origin());
                assert_eq!(next_permit_in, RATE_PERIOD);
            }
            other => panic!("expected RateLimited, got {other:?}"),
        }
        assert_eq!(
            f.events.take(),
            [(CB, Acquired), (RL, Rejected), (CB, Released)]
        );
    }
    assert_eq!(f.pipeline.state(&origin()), Some(CircuitState::Closed));
    let circuit = f.circuit();
    assert_eq!(
        (circuit.recorded, circuit.returned, circuit.in_flight),
        (1, 10, 0)
    );
    assert_eq!(f.bulkhead().acquired, 1, "the bulkhead was never asked");
}

/// One way to run attempts: the real pipeline, or a re-creation of the
/// Resilience4j defect.
trait Gate {
    fn attempt(&self) -> Result<Box<dyn FnOnce(Verdict)>, LocalRejection>;
    fn state(&self) -> CircuitState;
}

impl Gate for Pipeline {
    fn attempt(&self) -> Result<Box<dyn FnOnce(Verdict)>, LocalRejection> {
        let permit = self.acquire_blocking(&origin())?;
        Ok(Box::new(move |v| permit.record(v)))
    }
    fn state(&self) -> CircuitState {
        Pipeline::state(self, &origin()).unwrap()
    }
}

/// The same components in the same order, except that on a local rejection
/// the circuit permission is forgotten instead of given back — what a caller
/// of Resilience4j does when it omits `releasePermission()`.
struct ForgetfulPipeline {
    breaker: CircuitBreaker,
    limiter: RateLimiter,
    bulkhead: Bulkhead,
}

impl ForgetfulPipeline {
    fn new(config: &PipelineConfig, clock: &ManualClock) -> Self {
        let clock: Arc<dyn Clock> = Arc::new(clock.clone());
        Self {
            breaker: CircuitBreaker::new(
                origin(),
                config.circuit_breaker_config().unwrap().clone(),
                clock.clone(),
            ),
            limiter: RateLimiter::new(
                origin(),
                config.rate_limiter_config().unwrap().clone(),
                clock,
            ),
            bulkhead: Bulkhead::new(origin(), config.bulkhead_config().unwrap().clone()),
        }
    }
}

impl Gate for ForgetfulPipeline {
    fn attempt(&self) -> Result<Box<dyn FnOnce(Verdict)>, LocalRejection> {
        let circuit = self.breaker.try_acquire()?;
        let rate = match self.limiter.try_acquire() {
            Ok(rate) => rate,
            Err(rejection) => {
                std::mem::forget(circuit);
                return Err(rejection);
            }
        };
        let slot = match self.bulkhead.try_acquire() {
            Ok(slot) => slot,
            Err(rejection) => {
                drop(rate);
                std::mem::forget(circuit);
                return Err(rejection);
            }
        };
        Ok(Box::new(move |v| {
            drop(slot);
            rate.consume();
            circuit.record(v);
        }))
    }
    fn state(&self) -> CircuitState {
        self.breaker.state()
    }
}

#[derive(Debug, Clone, Copy)]
enum LocalRejecter {
    RateLimiter,
    Bulkhead,
}

impl LocalRejecter {
    /// Breaker with 2 trial calls. The rejecter is tight (rate: 3 per hour,
    /// of which opening the circuit spends 2; bulkhead: 1 slot), the other
    /// component generous.
    fn config(self) -> PipelineConfig {
        match self {
            LocalRejecter::RateLimiter => all_three(3, 100),
            LocalRejecter::Bulkhead => all_three(1000, 1),
        }
    }
}

/// Opens the circuit, lets it go HALF_OPEN, holds one trial attempt while the
/// rejecter turns away more attempts than there are trial slots, then lets
/// the upstream recover (and the rejecter relax) and keeps calling. Returns
/// the circuit's state at the end.
fn recover_after_local_rejections(
    gate: &dyn Gate,
    clock: &ManualClock,
    rejecter: LocalRejecter,
) -> CircuitState {
    for _ in 0..2 {
        gate.attempt().unwrap()(Verdict::Failure);
    }
    assert_eq!(gate.state(), CircuitState::Open);
    clock.advance(OPEN_WAIT);

    let first_trial = gate.attempt().unwrap();
    assert_eq!(gate.state(), CircuitState::HalfOpen);
    let mut local_rejections = 0;
    for _ in 0..5 {
        match gate.attempt() {
            Err(LocalRejection::RateLimited { .. } | LocalRejection::BulkheadFull { .. }) => {
                local_rejections += 1;
            }
            Err(LocalRejection::CircuitOpen { .. }) => {}
            Err(other) => panic!("unexpected rejection {other}"),
            Ok(_) => panic!("{rejecter:?} should have rejected"),
        }
    }
    assert!(local_rejections >= 1, "{rejecter:?} never rejected");

    // The upstream has recovered; the rejecter relaxes (a new rate period;
    // the held attempt frees the bulkhead).
    clock.advance(RATE_PERIOD);
    first_trial(Verdict::Success);
    for _ in 0..5 {
        if let Ok(attempt) = gate.attempt() {
            attempt(Verdict::Success);
        }
    }
    // The default unlimited wait in HALF_OPEN: time alone changes nothing.
    clock.advance(Duration::from_secs(24 * 3600));
    gate.state()
}

#[test]
fn half_open_trial_slots_survive_local_rejections() {
    for rejecter in [LocalRejecter::RateLimiter, LocalRejecter::Bulkhead] {
        let f = fixture(rejecter.config());
        let state = recover_after_local_rejections(&f.pipeline, &f.clock, rejecter);
        assert_eq!(state, CircuitState::Closed, "rejected by {rejecter:?}");
    }
}

/// Shows that the scenario above catches the defect: a pipeline that forgets
/// the circuit permission on a local rejection leaks both trial slots and
/// stays HALF_OPEN against a recovered upstream.
#[test]
fn a_breaker_that_forgets_permissions_on_local_rejection_stays_half_open_forever() {
    for rejecter in [LocalRejecter::RateLimiter, LocalRejecter::Bulkhead] {
        let clock = ManualClock::new();
        let forgetful = ForgetfulPipeline::new(&rejecter.config(), &clock);
        let state = recover_after_local_rejections(&forgetful, &clock, rejecter);
        assert_eq!(state, CircuitState::HalfOpen, "rejected by {rejecter:?}");
        match forgetful.attempt() {
            Err(LocalRejection::CircuitOpen { admits_again, .. }) => {
                assert_eq!(admits_again, AdmitsAgain::AfterTrialCalls);
            }
            Err(other) => panic!("expected CircuitOpen, got {other}"),
            Ok(_) => panic!("expected CircuitOpen, got a permit"),
        }
    }
}

#[test]
fn an_upstream_answering_only_503_opens_its_circuit() {
    let config = PipelineConfig::default().circuit_breaker(Some(
        CircuitBreakerConfig::builder()
            .sliding_window_size(10)
            .minimum_number_of_calls(10)
            .build()
            .unwrap(),
    ));
    let f = fixture(config);
    let healthy = Origin::new(Scheme::Https, "healthy.test", 443);
    for _ in 0..10 {
        assert_eq!(
            f.pipeline
                .acquire_blocking(&origin())
                .unwrap()
                .record_status(503),
            Verdict::Failure
        );
        // 404 is the upstream working as designed.
        assert_eq!(
            f.pipeline
                .acquire_blocking(&healthy)
                .unwrap()
                .record_status(404),
            Verdict::Success
        );
    }
    assert_eq!(f.pipeline.state(&origin()), Some(CircuitState::Open));
    assert_eq!(f.pipeline.state(&healthy), Some(CircuitState::Closed));
    let rejection = f.pipeline.acquire_blocking(&origin()).unwrap_err();
    assert_eq!(
        rejection.retry_after(f.clock.now()),
        Some(DEFAULT_WAIT_DURATION_IN_OPEN_STATE)
    );
    assert!(f.pipeline.acquire_blocking(&healthy).is_ok());
}

#[test]
fn the_failure_status_set_is_configurable() {
    let config = PipelineConfig::default().circuit_breaker(Some(
        CircuitBreakerConfig::builder()
            .sliding_window_size(2)
            .minimum_number_of_calls(2)
            .failure_rate_threshold(100.0)
            .failure_statuses([429])
            .build()
            .unwrap(),
    ));
    let f = fixture(config);
    for status in [503, 503] {
        f.pipeline
            .acquire_blocking(&origin())
            .unwrap()
            .record_status(status);
    }
    assert_eq!(f.pipeline.state(&origin()), Some(CircuitState::Closed));
    for status in [429, 429] {
        f.pipeline
            .acquire_blocking(&origin())
            .unwrap()
            .record_status(status);
    }
    assert_eq!(f.pipeline.state(&origin()), Some(CircuitState::Open));
}

/// Puts the circuit in HALF_OPEN with 2 trial slots, rate 3 per hour (2
/// spent opening it), bulkhead 1 slot.
fn half_open_with_tight_limits() -> Fixture {
    let f = fixture(all_three(3, 1));
    f.open_circuit();
    f.clock.advance(OPEN_WAIT);
    assert_eq!(f.pipeline.state(&origin()), Some(CircuitState::HalfOpen));
    f
}

#[tokio::test]
async fn a_dropped_permission_is_returned() {
    let f = Arc::new(half_open_with_tight_limits());
    let (acquired_tx, acquired_rx) = tokio::sync::oneshot::channel();
    let task = tokio::spawn({
        let f = f.clone();
        async move {
            let _permit = f.pipeline.acquire(&origin()).await.unwrap();
            acquired_tx.send(()).unwrap();
            // The attempt is in flight when the caller gives up.
            std::future::pending::<()>().await;
        }
    });
    acquired_rx.await.unwrap();
    assert_eq!(f.bulkhead().in_use, 1);
    assert_eq!(f.rate().available, 0);
    assert_eq!(f.circuit().trials_in_flight, 1);
    f.events.take();

    task.abort();
    assert!(task.await.unwrap_err().is_cancelled());

    assert_eq!(
        f.events.take(),
        [(BH, Released), (RL, Released), (CB, Released)]
    );
    assert_eq!(f.bulkhead().in_use, 0);
    assert_eq!(f.rate().available, 1);
    let circuit = f.circuit();
    assert_eq!((circuit.trials_in_flight, circuit.trials_available), (0, 2));
    assert_eq!(circuit.in_flight, 0);
}

#[tokio::test(start_paused = true)]
async fn an_acquisition_cancelled_while_waiting_returns_what_it_took() {
    let events = Recorder::default();
    let config = PipelineConfig::default()
        .circuit_breaker(Some(breaker_config()))
        .rate_limiter(Some(rate_config(100)))
        .bulkhead(Some(
            BulkheadConfig::builder()
                .max_concurrent(1)
                .max_wait(Duration::from_secs(60))
                .build()
                .unwrap(),
        ));
    let pipeline = Pipeline::with_event_hook(config, Arc::new(TokioClock), events.hook());
    let held = pipeline.acquire(&origin()).await.unwrap();
    events.take();

    let waited = tokio::time::timeout(Duration::from_secs(1), pipeline.acquire(&origin())).await;
    assert!(waited.is_err(), "the bulkhead wait was cut short");
    assert_eq!(
        events.take(),
        [
            (CB, Acquired),
            (RL, Acquired),
            (RL, Released),
            (CB, Released)
        ]
    );
    let m = pipeline.metrics(&origin()).unwrap();
    assert_eq!(m.rate_limiter.unwrap().available, 99);
    assert_eq!(m.bulkhead.unwrap().waiting, 0);
    held.record_success();
}

#[tokio::test(start_paused = true)]
async fn async_waits_follow_paused_tokio_time() {
    let config = PipelineConfig::default()
        .circuit_breaker(None)
        .rate_limiter(Some(
            RateLimiterConfig::builder(1, Duration::from_secs(1))
                .max_wait(Duration::from_secs(1))
                .build()
                .unwrap(),
        ))
        .bulkhead(Some(
            BulkheadConfig::builder()
                .max_concurrent(1)
                .max_wait(Duration::from_secs(5))
                .build()
                .unwrap(),
        ));
    let pipeline = Pipeline::new(config, Arc::new(TokioClock));
    let t0 = tokio::time::Instant::now();
    let first = pipeline.acquire(&origin()).await.unwrap();
    // Waits one refresh period for a token, then the full bulkhead wait.
    let second = pipeline.acquire(&origin()).await;
    assert!(matches!(second, Err(LocalRejection::BulkheadFull { .. })));
    assert_eq!(tokio::time::Instant::now() - t0, Duration::from_secs(6));
    first.record_success();
    // Six periods have passed: a token is available at once (the rejected
    // attempt's token, of a past period, was given back and discarded).
    pipeline.acquire(&origin()).await.unwrap().record_success();
    assert_eq!(tokio::time::Instant::now() - t0, Duration::from_secs(6));
}

#[test]
fn components_are_kept_per_origin() {
    let f = fixture(all_three(100, 1));
    let other = Origin::new(Scheme::Http, "upstream.test", 443);
    let _held = f.pipeline.acquire_blocking(&origin()).unwrap();
    assert!(matches!(
        f.pipeline.acquire_blocking(&origin()),
        Err(LocalRejection::BulkheadFull { .. })
    ));
    let _other_held = f.pipeline.acquire_blocking(&other).unwrap();
    assert_eq!(f.pipeline.state(&other), Some(CircuitState::Closed));
    assert!(
        f.pipeline
            .state(&Origin::new(Scheme::Https, "unseen.test", 443))
            .is_none()
    );
}

#[test]
fn a_pipeline_with_every_component_disabled_admits_everything() {
    let f = fixture(PipelineConfig::disabled());
    let permits: Vec<_> = (0..1000)
        .map(|_| f.pipeline.acquire_blocking(&origin()).unwrap())
        .collect();
    assert_eq!(f.pipeline.state(&origin()), None);
    assert!(f.events.take().is_empty());
    for permit in permits {
        assert_eq!(permit.record_status(502), Verdict::Failure);
    }
}

#[test]
fn the_default_pipeline_has_a_breaker_and_a_bulkhead_and_no_rate_limiter() {
    let config = PipelineConfig::default();
    assert_eq!(
        config.circuit_breaker_config(),
        Some(&CircuitBreakerConfig::default())
    );
    assert_eq!(config.rate_limiter_config(), None);
    assert_eq!(config.bulkhead_config(), Some(&BulkheadConfig::default()));
    assert_eq!(
        BulkheadConfig::default().max_concurrent(),
        DEFAULT_MAX_CONCURRENT_ATTEMPTS
    );
}

#[test]
fn idle_origins_are_evicted_so_100_000_origins_over_a_day_stay_bounded() {
    let clock = ManualClock::new();
    let pipeline = Pipeline::new(PipelineConfig::default(), Arc::new(clock.clone()));
    let origins = 100_000u32;
    let day = Duration::from_secs(24 * 3600);
    let step = day / origins;
    let mut most = 0;
    for i in 0..origins {
        let origin = Origin::new(Scheme::Https, format!("host-{i}.test"), 443);
        pipeline.acquire_blocking(&origin).unwrap().record_success();
        most = most.max(pipeline.origin_count());
        clock.advance(step);
    }
    // Kept: the origins of the last TTL, plus up to half a TTL between
    // sweeps.
    let ttl = DEFAULT_ORIGIN_IDLE_TTL;
    let bound = (ttl.as_nanos() * 3 / 2 / step.as_nanos()) as usize + 1;
    assert!(most <= bound, "{most} origins kept, bound {bound}");
    assert!(most < origins as usize / 50);
    // Once everything is idle past the TTL, nothing is kept.
    clock.advance(ttl);
    pipeline.evict_idle();
    assert_eq!(pipeline.origin_count(), 0);
}

#[test]
fn an_origin_is_never_evicted_while_an_attempt_holds_its_state_or_it_was_used_recently() {
    let f = fixture(all_three(100, 1).idle_ttl(Duration::from_secs(60)));
    let held = f.pipeline.acquire_blocking(&origin()).unwrap();
    f.clock.advance(Duration::from_secs(3600));
    assert_eq!(f.pipeline.evict_idle(), 0, "a permit is in flight");
    // The bulkhead kept counting the held slot: nothing was split.
    assert!(matches!(
        f.pipeline.acquire_blocking(&origin()),
        Err(LocalRejection::BulkheadFull { .. })
    ));
    held.record_failure();
    // Used a moment ago (the rejected acquisition): kept.
    f.clock.advance(Duration::from_secs(59));
    assert_eq!(f.pipeline.evict_idle(), 0);
    assert_eq!(f.circuit().recorded, 1, "history survives");
    f.clock.advance(Duration::from_secs(1));
    assert_eq!(f.pipeline.evict_idle(), 1);
    assert!(f.pipeline.metrics(&origin()).is_none());
}

#[test]
fn an_open_circuit_is_kept_at_least_for_its_open_wait() {
    let breaker = CircuitBreakerConfig::builder()
        .sliding_window_size(1)
        .minimum_number_of_calls(1)
        .wait_duration_in_open_state(Duration::from_secs(600))
        .build()
        .unwrap();
    let f = fixture(
        PipelineConfig::disabled()
            .circuit_breaker(Some(breaker))
            .idle_ttl(Duration::from_secs(1)),
    );
    f.pipeline
        .acquire_blocking(&origin())
        .unwrap()
        .record_failure();
    assert_eq!(f.pipeline.state(&origin()), Some(CircuitState::Open));
    f.clock.advance(Duration::from_secs(599));
    assert_eq!(f.pipeline.evict_idle(), 0);
    assert!(f.pipeline.acquire_blocking(&origin()).is_err());
}

#[tokio::test(start_paused = true)]
async fn admission_waits_are_bounded_by_the_callers_max_wait() {
    let config = PipelineConfig::disabled()
        .rate_limiter(Some(
            RateLimiterConfig::builder(1, Duration::from_secs(1))
                .max_wait(Duration::from_secs(10))
                .build()
                .unwrap(),
        ))
        .bulkhead(Some(
            BulkheadConfig::builder()
                .max_concurrent(1)
                .max_wait(Duration::from_secs(10))
                .build()
                .unwrap(),
        ));
    let pipeline = Pipeline::new(config, Arc::new(TokioClock));
    let t0 = tokio::time::Instant::now();
    let held = pipeline.acquire(&origin()).await.unwrap();
    // A token is 1 s away: more than 500 ms allows, so no wait at all.
    let r = pipeline
        .acquire_within(&origin(), Duration::from_millis(500))
        .await;
    assert!(matches!(r, Err(LocalRejection::RateLimited { .. })));
    assert_eq!(t0.elapsed(), Duration::ZERO);
    // 1 s for the token, then the bulkhead gets only the 500 ms left.
    let r = pipeline
        .acquire_within(&origin(), Duration::from_millis(1500))
        .await;
    match r {
        Err(LocalRejection::BulkheadFull { max_wait, .. }) => {
            assert_eq!(max_wait, Duration::from_millis(500))
        }
        other => panic!("expected BulkheadFull, got {other:?}"),
    }
    assert_eq!(t0.elapsed(), Duration::from_millis(1500));
    held.record_success();
}

/// `admit` decides at once whenever no wait is needed, and hands back a
/// future only for a wait, which holds what was taken so far and emits the
/// same events, in the same order, as `acquire`.
#[tokio::test(start_paused = true)]
async fn admit_decides_at_once_and_defers_only_a_wait() {
    let events = Recorder::default();
    let config = PipelineConfig::default()
        .circuit_breaker(Some(breaker_config()))
        .rate_limiter(Some(
            RateLimiterConfig::builder(2, Duration::from_secs(1))
                .max_wait(Duration::from_secs(5))
                .build()
                .unwrap(),
        ))
        .bulkhead(Some(
            BulkheadConfig::builder()
                .max_concurrent(1)
                .max_wait(Duration::from_secs(60))
                .build()
                .unwrap(),
        ));
    let pipeline = Pipeline::with_event_hook(config, Arc::new(TokioClock), events.hook());
    let admit = |max_wait| pipeline.admit(&origin(), max_wait);

    // A free slot and a token of this period: admitted at once.
    let Admission::Ready(Ok(held)) = admit(Duration::from_secs(10)) else {
        panic!("an idle origin admits at once");
    };
    assert_eq!(
        events.take(),
        [(CB, Acquired), (RL, Acquired), (BH, Acquired)]
    );

    // The slot is held: a caller that may not wait is rejected at once, and
    // gives back what it took, in reverse order.
    assert!(matches!(
        admit(Duration::ZERO),
        Admission::Ready(Err(LocalRejection::BulkheadFull { .. }))
    ));
    assert_eq!(
        events.take(),
        [
            (CB, Acquired),
            (RL, Acquired),
            (BH, Rejected),
            (RL, Released),
            (CB, Released)
        ]
    );

    // A caller that may wait gets a future holding its circuit permission
    // and its token; the slot is its once released.
    let Admission::Wait(wait) = admit(Duration::from_secs(10)) else {
        panic!("a held slot must be waited for");
    };
    assert_eq!(events.take(), [(CB, Acquired), (RL, Acquired)]);
    let waiter = tokio::spawn(wait);
    tokio::task::yield_now().await;
    assert_eq!(
        pipeline
            .metrics(&origin())
            .unwrap()
            .bulkhead
            .unwrap()
            .waiting,
        1
    );
    held.record_success();
    let second = waiter
        .await
        .unwrap()
        .expect("the released slot is handed over");
    assert_eq!(
        events.take(),
        [
            (BH, Released),
            (RL, Consumed),
            (CB, Recorded(Verdict::Success)),
            (BH, Acquired)
        ]
    );

    // The period's tokens are spent: the next token is a wait, deferred too,
    // and taken on tokio's (paused) timer.
    second.record_success();
    events.take();
    let t0 = tokio::time::Instant::now();
    let Admission::Wait(wait) = admit(Duration::from_secs(10)) else {
        panic!("a token of a later period must be waited for");
    };
    wait.await.unwrap().record_success();
    assert!(tokio::time::Instant::now() > t0, "the token was waited for");
}

#[test]
fn admit_at_decides_at_the_instant_it_is_given() {
    let f = fixture(PipelineConfig::default().circuit_breaker(Some(breaker_config())));
    f.open_circuit();
    let now = evident_resilience::Clock::now(&f.clock);
    // At the clock's instant the circuit is still open...
    match f.pipeline.admit_at(&origin(), Duration::ZERO, now) {
        Admission::Ready(Err(LocalRejection::CircuitOpen { .. })) => {}
        other => panic!("expected CircuitOpen, got {other:?}"),
    }
    // ...and at the instant its open wait ends, a trial call is admitted,
    // although the clock itself has not moved.
    match f
        .pipeline
        .admit_at(&origin(), Duration::ZERO, now + OPEN_WAIT)
    {
        Admission::Ready(Ok(permit)) => permit.record_success(),
        other => panic!("expected a trial call, got {other:?}"),
    }
    assert_eq!(f.pipeline.state(&origin()), Some(CircuitState::HalfOpen));
}
