//! The circuit breaker, with Resilience4j's semantics and a permission that
//! cannot leak.
//!
//! # States
//!
//! * **CLOSED**: calls are admitted; outcomes go into a count-based sliding
//!   window of the last `sliding_window_size` calls. Once at least
//!   `minimum_number_of_calls` outcomes are in the window (capped at the
//!   window size, as Resilience4j does) and the failure rate is at or above
//!   `failure_rate_threshold`, the circuit opens.
//! * **OPEN**: every call is rejected with
//!   [`LocalRejection::CircuitOpen`] until `wait_duration_in_open_state` has
//!   passed; the next call then moves it to HALF_OPEN (lazily, like
//!   Resilience4j's default without the automatic-transition thread).
//! * **HALF_OPEN**: exactly `permitted_calls_in_half_open_state` trial calls
//!   are admitted. When all of them have reported success or failure, the
//!   circuit closes if their failure rate is below the threshold and opens
//!   again otherwise. With `max_wait_in_half_open_state` set, the circuit
//!   reopens when it has been HALF_OPEN that long (measured from entering
//!   HALF_OPEN, as Resilience4j's timer does); by default it waits without
//!   limit, as in Resilience4j.
//!
//! # Why the permission is a value
//!
//! In Resilience4j a trial slot is handed out by `tryAcquirePermission()`
//! and must be handed back by `onSuccess`, `onError` or
//! `releasePermission()`. A caller that acquired a permission and then was
//! rejected locally (rate limiter, bulkhead) and forgot `releasePermission()`
//! consumed a trial slot for good; after enough of those, a HALF_OPEN circuit
//! with the default unlimited wait never admits another trial and stays
//! HALF_OPEN forever against a recovered upstream. Here
//! [`CircuitBreaker::try_acquire`] returns a [`CircuitPermission`] that is
//! either consumed by recording a [`Verdict`] or, when dropped, gives its
//! slot back. Forgetting is not expressible without `std::mem::forget`.
//!
//! Each state change starts a new *generation*. A permission remembers the
//! generation it was issued in; an outcome or release from an earlier
//! generation is counted in the metrics but does not touch the current
//! state's window or trial slots (a CLOSED-era call finishing during
//! HALF_OPEN must not free a trial slot it never held, nor judge the trial).

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use crate::event::{Component, EventHook, EventKind, emit};
use crate::{AdmitsAgain, Clock, ConfigError, LocalRejection, Origin};

/// Failure rate (percent) at or above which the circuit opens.
/// Resilience4j's default: half the calls failing is clearly not noise.
pub const DEFAULT_FAILURE_RATE_THRESHOLD: f32 = 50.0;
/// Number of most recent calls the CLOSED state judges. Resilience4j's
/// default: large enough that a few failures among normal traffic do not
/// swing the rate.
pub const DEFAULT_SLIDING_WINDOW_SIZE: u32 = 100;
/// Outcomes needed before the failure rate counts. Resilience4j's default
/// (equal to the window): a fresh breaker does not open on its first
/// failure.
pub const DEFAULT_MINIMUM_NUMBER_OF_CALLS: u32 = 100;
/// How long an open circuit rejects before trying again. Resilience4j's
/// default: long enough for an overloaded upstream to shed its backlog.
pub const DEFAULT_WAIT_DURATION_IN_OPEN_STATE: Duration = Duration::from_secs(60);
/// Trial calls admitted in HALF_OPEN. Resilience4j's default: enough calls
/// for the failure rate to mean something, few enough to spare a still-sick
/// upstream.
pub const DEFAULT_PERMITTED_CALLS_IN_HALF_OPEN_STATE: u32 = 10;
/// Longest stay in HALF_OPEN before reopening. `None` (unlimited) is
/// Resilience4j's default; it is safe here only because trial slots cannot
/// leak (see the module docs).
pub const DEFAULT_MAX_WAIT_IN_HALF_OPEN_STATE: Option<Duration> = None;
/// Answered statuses that count as circuit failures. 500, 502, 503 and 504
/// say the upstream (or its gateway) is failing or overloaded; every other
/// status, 4xx included, is the upstream working as designed.
pub const DEFAULT_FAILURE_STATUSES: [u16; 4] = [500, 502, 503, 504];

/// How an attempt ended, as far as the circuit breaker is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Verdict {
    /// The upstream handled the call: counts toward closing.
    Success,
    /// The upstream failed the call: counts toward opening.
    Failure,
    /// Says nothing about the upstream (caller cancellation, a refusal the
    /// protocol proves unprocessed): the permission is given back uncounted.
    Ignored,
}

/// The state of a circuit breaker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CircuitState {
    /// Admitting calls and judging them.
    Closed,
    /// Rejecting calls until its wait has passed.
    Open,
    /// Admitting a fixed number of trial calls.
    HalfOpen,
}

/// A set of HTTP status codes (100–999), used as the failure-status policy.
///
/// ```
/// use evident_resilience::StatusSet;
///
/// let set = StatusSet::default();
/// assert!(set.contains(503));
/// assert!(!set.contains(429));
/// assert!(StatusSet::new([429, 503]).unwrap().contains(429));
/// assert_eq!(StatusSet::new([42]).unwrap_err().value(), "42");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct StatusSet {
    bits: [u64; 16],
}

impl StatusSet {
    /// The empty set: no status is a failure.
    pub const EMPTY: StatusSet = StatusSet { bits: [0; 16] };

    /// A set of the given statuses; each must be in 100..=999.
    pub fn new(statuses: impl IntoIterator<Item = u16>) -> Result<Self, ConfigError> {
        let mut set = Self::EMPTY;
        for status in statuses {
            if !(100..=999).contains(&status) {
                return Err(ConfigError::new(
                    "failure_statuses",
                    status,
                    "HTTP status codes in 100..=999",
                ));
            }
            set.bits[usize::from(status / 64)] |= 1 << (status % 64);
        }
        Ok(set)
    }

    /// Whether `status` is in the set.
    pub fn contains(&self, status: u16) -> bool {
        status < 1024 && self.bits[usize::from(status / 64)] & (1 << (status % 64)) != 0
    }

    /// The statuses in the set, ascending.
    pub fn iter(&self) -> impl Iterator<Item = u16> + '_ {
        (100..=999).filter(|s| self.contains(*s))
    }
}

impl Default for StatusSet {
    /// [`DEFAULT_FAILURE_STATUSES`].
    fn default() -> Self {
        Self::new(DEFAULT_FAILURE_STATUSES).expect("default statuses are valid")
    }
}

impl std::fmt::Debug for StatusSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// A validated circuit-breaker configuration. Build with
/// [`CircuitBreakerConfig::builder`]; [`Default`] is Resilience4j's defaults.
#[derive(Debug, Clone, PartialEq)]
pub struct CircuitBreakerConfig {
    failure_rate_threshold: f32,
    sliding_window_size: u32,
    minimum_number_of_calls: u32,
    wait_duration_in_open_state: Duration,
    permitted_calls_in_half_open_state: u32,
    max_wait_in_half_open_state: Option<Duration>,
    failure_statuses: StatusSet,
}

impl Default for CircuitBreakerConfig {
    fn default() -> Self {
        CircuitBreakerConfigBuilder::default()
            .build()
            .expect("defaults are valid")
    }
}

impl CircuitBreakerConfig {
    /// A builder starting from the defaults.
    ///
    /// ```
    /// use std::time::Duration;
    /// use evident_resilience::CircuitBreakerConfig;
    ///
    /// let config = CircuitBreakerConfig::builder()
    ///     .sliding_window_size(20)
    ///     .minimum_number_of_calls(10)
    ///     .failure_rate_threshold(25.0)
    ///     .wait_duration_in_open_state(Duration::from_secs(5))
    ///     .permitted_calls_in_half_open_state(3)
    ///     .max_wait_in_half_open_state(Some(Duration::from_secs(30)))
    ///     .failure_statuses([500, 503])
    ///     .build()?;
    /// assert_eq!(config.sliding_window_size(), 20);
    /// # Ok::<(), evident_resilience::ConfigError>(())
    /// ```
    pub fn builder() -> CircuitBreakerConfigBuilder {
        CircuitBreakerConfigBuilder::default()
    }

    /// Failure rate (percent, in (0, 100]) at or above which it opens.
    pub fn failure_rate_threshold(&self) -> f32 {
        self.failure_rate_threshold
    }
    /// Size of the CLOSED state's count-based window.
    pub fn sliding_window_size(&self) -> u32 {
        self.sliding_window_size
    }
    /// Outcomes needed before the failure rate is judged (as configured;
    /// the breaker uses at most the window size).
    pub fn minimum_number_of_calls(&self) -> u32 {
        self.minimum_number_of_calls
    }
    /// How long OPEN lasts.
    pub fn wait_duration_in_open_state(&self) -> Duration {
        self.wait_duration_in_open_state
    }
    /// Trial calls admitted in HALF_OPEN.
    pub fn permitted_calls_in_half_open_state(&self) -> u32 {
        self.permitted_calls_in_half_open_state
    }
    /// Longest stay in HALF_OPEN (`None`: unlimited).
    pub fn max_wait_in_half_open_state(&self) -> Option<Duration> {
        self.max_wait_in_half_open_state
    }
    /// Statuses that count as failures in `record_status`.
    pub fn failure_statuses(&self) -> &StatusSet {
        &self.failure_statuses
    }

    /// The verdict for an answered status under this policy.
    pub fn verdict_for_status(&self, status: u16) -> Verdict {
        if self.failure_statuses.contains(status) {
            Verdict::Failure
        } else {
            Verdict::Success
        }
    }

    fn effective_minimum_calls(&self) -> u32 {
        self.minimum_number_of_calls.min(self.sliding_window_size)
    }
}

/// Builder for [`CircuitBreakerConfig`]; [`build`](Self::build) validates.
#[derive(Debug, Clone)]
pub struct CircuitBreakerConfigBuilder {
    failure_rate_threshold: f32,
    sliding_window_size: u32,
    minimum_number_of_calls: u32,
    wait_duration_in_open_state: Duration,
    permitted_calls_in_half_open_state: u32,
    max_wait_in_half_open_state: Option<Duration>,
    failure_statuses: Vec<u16>,
}

impl Default for CircuitBreakerConfigBuilder {
    fn default() -> Self {
        Self {
            failure_rate_threshold: DEFAULT_FAILURE_RATE_THRESHOLD,
            sliding_window_size: DEFAULT_SLIDING_WINDOW_SIZE,
            minimum_number_of_calls: DEFAULT_MINIMUM_NUMBER_OF_CALLS,
            wait_duration_in_open_state: DEFAULT_WAIT_DURATION_IN_OPEN_STATE,
            permitted_calls_in_half_open_state: DEFAULT_PERMITTED_CALLS_IN_HALF_OPEN_STATE,
            max_wait_in_half_open_state: DEFAULT_MAX_WAIT_IN_HALF_OPEN_STATE,
            failure_statuses: DEFAULT_FAILURE_STATUSES.to_vec(),
        }
    }
}

/// Upper bound on the sliding window, so a typo cannot allocate gigabytes
/// per origin; far above any window Resilience4j users run.
const MAX_SLIDING_WINDOW_SIZE: u32 = 1_000_000;

impl CircuitBreakerConfigBuilder {
    /// Failure rate in percent, 0 < x <= 100.
    pub fn failure_rate_threshold(mut self, percent: f32) -> Self {
        self.failure_rate_threshold = percent;
        self
    }
    /// Calls in the CLOSED window, 1..=1_000_000.
    pub fn sliding_window_size(mut self, calls: u32) -> Self {
        self.sliding_window_size = calls;
        self
    }
    /// Outcomes needed before judging, at least 1 (capped at the window).
    pub fn minimum_number_of_calls(mut self, calls: u32) -> Self {
        self.minimum_number_of_calls = calls;
        self
    }
    /// How long OPEN lasts; must be non-zero.
    pub fn wait_duration_in_open_state(mut self, wait: Duration) -> Self {
        self.wait_duration_in_open_state = wait;
        self
    }
    /// Trial calls in HALF_OPEN, at least 1.
    pub fn permitted_calls_in_half_open_state(mut self, calls: u32) -> Self {
        self.permitted_calls_in_half_open_state = calls;
        self
    }
    /// Longest stay in HALF_OPEN; `None` for unlimited, `Some` must be
    /// non-zero.
    pub fn max_wait_in_half_open_state(mut self, wait: Option<Duration>) -> Self {
        self.max_wait_in_half_open_state = wait;
        self
    }
    /// Statuses that `record_status` counts as failures (replaces the
    /// default set); each in 100..=999.
    pub fn failure_statuses(mut self, statuses: impl IntoIterator<Item = u16>) -> Self {
        self.failure_statuses = statuses.into_iter().collect();
        self
    }

    /// Validates and builds.
    pub fn build(self) -> Result<CircuitBreakerConfig, ConfigError> {
        let t = self.failure_rate_threshold;
        if !(t > 0.0 && t <= 100.0) {
            return Err(ConfigError::new(
                "failure_rate_threshold",
                t,
                "a percentage greater than 0 and at most 100",
            ));
        }
        if !(1..=MAX_SLIDING_WINDOW_SIZE).contains(&self.sliding_window_size) {
            return Err(ConfigError::new(
                "sliding_window_size",
                self.sliding_window_size,
                "1..=1000000 calls",
            ));
        }
        if self.minimum_number_of_calls == 0 {
            return Err(ConfigError::new(
                "minimum_number_of_calls",
                0,
                "at least 1 call",
            ));
        }
        if self.wait_duration_in_open_state.is_zero() {
            return Err(ConfigError::new(
                "wait_duration_in_open_state",
                "0s",
                "a non-zero duration",
            ));
        }
        if self.permitted_calls_in_half_open_state == 0 {
            return Err(ConfigError::new(
                "permitted_calls_in_half_open_state",
                0,
                "at least 1 call",
            ));
        }
        if self.max_wait_in_half_open_state == Some(Duration::ZERO) {
            return Err(ConfigError::new(
                "max_wait_in_half_open_state",
                "Some(0s)",
                "None (unlimited) or a non-zero duration",
            ));
        }
        let failure_statuses = StatusSet::new(self.failure_statuses)?;
        Ok(CircuitBreakerConfig {
            failure_rate_threshold: t,
            sliding_window_size: self.sliding_window_size,
            minimum_number_of_calls: self.minimum_number_of_calls,
            wait_duration_in_open_state: self.wait_duration_in_open_state,
            permitted_calls_in_half_open_state: self.permitted_calls_in_half_open_state,
            max_wait_in_half_open_state: self.max_wait_in_half_open_state,
            failure_statuses,
        })
    }
}

/// A snapshot of a breaker's state and permission accounting.
///
/// Every permission handed out ends exactly once, as recorded or returned:
/// `acquired == recorded + returned + in_flight`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct CircuitMetrics {
    /// The state (after any transition due by now).
    pub state: CircuitState,
    /// Permissions handed out.
    pub acquired: u64,
    /// Calls rejected (OPEN, or HALF_OPEN with no trial slot left).
    pub rejected: u64,
    /// Permissions consumed by a success or failure.
    pub recorded: u64,
    /// Permissions given back unused (dropped or [`Verdict::Ignored`]).
    pub returned: u64,
    /// Permissions handed out and not yet ended.
    pub in_flight: u64,
    /// In HALF_OPEN: trial slots handed out whose result is not in yet
    /// (0 in other states).
    pub trials_in_flight: u32,
    /// In HALF_OPEN: trial slots not handed out yet (0 in other states).
    pub trials_available: u32,
}

/// A circuit breaker for one origin. Cheap to clone (shared state).
///
/// ```
/// use std::sync::Arc;
/// use std::time::Duration;
/// use evident_resilience::*;
///
/// let clock = ManualClock::new();
/// let config = CircuitBreakerConfig::builder()
///     .sliding_window_size(2)
///     .minimum_number_of_calls(2)
///     .wait_duration_in_open_state(Duration::from_secs(10))
///     .permitted_calls_in_half_open_state(1)
///     .build()?;
/// let origin = Origin::new(Scheme::Https, "example.com", 443);
/// let breaker = CircuitBreaker::new(origin, config, Arc::new(clock.clone()));
///
/// breaker.try_acquire()?.record_failure();
/// breaker.try_acquire()?.record_status(503);
/// assert_eq!(breaker.state(), CircuitState::Open);
/// assert!(matches!(breaker.try_acquire(), Err(LocalRejection::CircuitOpen { .. })));
///
/// clock.advance(Duration::from_secs(10));
/// let trial = breaker.try_acquire()?;          // HALF_OPEN trial
/// assert_eq!(breaker.state(), CircuitState::HalfOpen);
/// trial.record_success();
/// assert_eq!(breaker.state(), CircuitState::Closed);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct CircuitBreaker {
    inner: Arc<BreakerInner>,
}

impl std::fmt::Debug for CircuitBreaker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CircuitBreaker")
            .field("origin", &self.inner.origin)
            .field("metrics", &self.metrics())
            .finish_non_exhaustive()
    }
}

struct BreakerInner {
    origin: Origin,
    config: CircuitBreakerConfig,
    clock: Arc<dyn Clock>,
    hook: Option<EventHook>,
    core: Mutex<Core>,
}

struct Core {
    phase: Phase,
    /// Incremented on every state change.
    generation: u64,
    window: Window,
    acquired: u64,
    rejected: u64,
    recorded: u64,
    returned: u64,
}

#[derive(Clone, Copy)]
enum Phase {
    Closed,
    Open {
        until: Instant,
    },
    HalfOpen {
        since: Instant,
        available: u32,
        successes: u32,
        failures: u32,
    },
}

/// Count-based ring of the last N outcomes (true = failure).
struct Window {
    outcomes: Box<[bool]>,
    next: usize,
    len: u32,
    failures: u32,
}

impl Window {
    fn new(size: u32) -> Self {
        Self {
            outcomes: vec![false; size as usize].into_boxed_slice(),
            next: 0,
            len: 0,
            failures: 0,
        }
    }

    fn clear(&mut self) {
        self.next = 0;
        self.len = 0;
        self.failures = 0;
    }

    fn push(&mut self, failure: bool) {
        let size = self.outcomes.len();
        if self.len as usize == size {
            if self.outcomes[self.next] {
                self.failures -= 1;
            }
        } else {
            self.len += 1;
        }
        self.outcomes[self.next] = failure;
        if failure {
            self.failures += 1;
        }
        self.next = (self.next + 1) % size;
    }
}

fn rate_reaches(failures: u32, calls: u32, threshold_percent: f32) -> bool {
    f64::from(failures) * 100.0 >= f64::from(threshold_percent) * f64::from(calls)
}

impl Core {
    /// Applies the transitions that time alone causes.
    fn advance(&mut self, config: &CircuitBreakerConfig, now: Instant) {
        loop {
            match self.phase {
                Phase::Open { until } if now >= until => self.enter_half_open(config, now),
                Phase::HalfOpen { since, .. } => match config.max_wait_in_half_open_state {
                    Some(max) if now >= since + max => {
                        self.enter_open(config, since + max);
                    }
                    _ => return,
                },
                _ => return,
            }
        }
    }

    fn enter_open(&mut self, config: &CircuitBreakerConfig, at: Instant) {
        self.generation += 1;
        self.phase = Phase::Open {
            until: at + config.wait_duration_in_open_state,
        };
    }

    fn enter_half_open(&mut self, config: &CircuitBreakerConfig, at: Instant) {
        self.generation += 1;
        self.phase = Phase::HalfOpen {
            since: at,
            available: config.permitted_calls_in_half_open_state,
            successes: 0,
            failures: 0,
        };
    }

    fn enter_closed(&mut self) {
        self.generation += 1;
        self.window.clear();
        self.phase = Phase::Closed;
    }

    fn state(&self) -> CircuitState {
        match self.phase {
            Phase::Closed => CircuitState::Closed,
            Phase::Open { .. } => CircuitState::Open,
            Phase::HalfOpen { .. } => CircuitState::HalfOpen,
        }
    }
}

impl CircuitBreaker {
    /// A CLOSED breaker for `origin`.
    pub fn new(origin: Origin, config: CircuitBreakerConfig, clock: Arc<dyn Clock>) -> Self {
        Self::with_hook(origin, config, clock, None)
    }

    pub(crate) fn with_hook(
        origin: Origin,
        config: CircuitBreakerConfig,
        clock: Arc<dyn Clock>,
        hook: Option<EventHook>,
    ) -> Self {
        let window = Window::new(config.sliding_window_size);
        Self {
            inner: Arc::new(BreakerInner {
                origin,
                config,
                clock,
                hook,
                core: Mutex::new(Core {
                    phase: Phase::Closed,
                    generation: 0,
                    window,
                    acquired: 0,
                    rejected: 0,
                    recorded: 0,
                    returned: 0,
                }),
            }),
        }
    }

    /// The origin this breaker guards.
    pub fn origin(&self) -> &Origin {
        &self.inner.origin
    }

    /// The configuration.
    pub fn config(&self) -> &CircuitBreakerConfig {
        &self.inner.config
    }

    fn lock(&self) -> MutexGuard<'_, Core> {
        // No code panics while holding this lock; if a panic ever did, the
        // counters are still consistent, so keep going rather than cascade.
        self.inner
            .core
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Asks to start a call now.
    pub fn try_acquire(&self) -> Result<CircuitPermission, LocalRejection> {
        self.try_acquire_at(self.inner.clock.now())
    }

    /// Whether nothing outside the registry holds this breaker (no
    /// permission in flight).
    pub(crate) fn is_unshared(&self) -> bool {
        Arc::strong_count(&self.inner) == 1
    }

    pub(crate) fn try_acquire_at(&self, now: Instant) -> Result<CircuitPermission, LocalRejection> {
        let config = &self.inner.config;
        let mut core = self.lock();
        core.advance(config, now);
        let admitted = match &mut core.phase {
            Phase::Closed => Ok(()),
            Phase::Open { until } => Err(AdmitsAgain::At(*until)),
            Phase::HalfOpen { available, .. } if *available > 0 => {
                *available -= 1;
                Ok(())
            }
            Phase::HalfOpen { .. } => Err(AdmitsAgain::AfterTrialCalls),
        };
        match admitted {
            Ok(()) => {
                core.acquired += 1;
                let generation = core.generation;
                drop(core);
                self.emit(EventKind::Acquired);
                Ok(CircuitPermission {
                    breaker: self.clone(),
                    generation,
                    ended: false,
                })
            }
            Err(admits_again) => {
                core.rejected += 1;
                drop(core);
                self.emit(EventKind::Rejected);
                Err(LocalRejection::CircuitOpen {
                    origin: self.inner.origin.clone(),
                    admits_again,
                })
            }
        }
    }

    /// The current state (applying any transition that time has made due).
    pub fn state(&self) -> CircuitState {
        let now = self.inner.clock.now();
        let mut core = self.lock();
        core.advance(&self.inner.config, now);
        core.state()
    }

    /// A snapshot of state and counters.
    pub fn metrics(&self) -> CircuitMetrics {
        let now = self.inner.clock.now();
        let mut core = self.lock();
        core.advance(&self.inner.config, now);
        let (trials_in_flight, trials_available) = match core.phase {
            Phase::HalfOpen {
                available,
                successes,
                failures,
                ..
            } => (
                self.inner.config.permitted_calls_in_half_open_state
                    - available
                    - successes
                    - failures,
                available,
            ),
            _ => (0, 0),
        };
        CircuitMetrics {
            state: core.state(),
            acquired: core.acquired,
            rejected: core.rejected,
            recorded: core.recorded,
            returned: core.returned,
            in_flight: core.acquired - core.recorded - core.returned,
            trials_in_flight,
            trials_available,
        }
    }

    fn emit(&self, kind: EventKind) {
        emit(
            &self.inner.hook,
            &self.inner.origin,
            Component::CircuitBreaker,
            kind,
        );
    }

    /// Ends a permission of `generation` with `verdict`.
    fn end(&self, generation: u64, verdict: Verdict) {
        let config = &self.inner.config;
        let mut core = self.lock();
        let failure = match verdict {
            Verdict::Success => false,
            Verdict::Failure => true,
            Verdict::Ignored => {
                core.returned += 1;
                if core.generation == generation
                    && let Phase::HalfOpen { available, .. } = &mut core.phase
                {
                    *available += 1;
                }
                drop(core);
                self.emit(EventKind::Released);
                return;
            }
        };
        core.recorded += 1;
        if matches!(core.phase, Phase::HalfOpen { .. })
            && config.max_wait_in_half_open_state.is_some()
        {
            // The trial may have outlived the HALF_OPEN stay it belonged to.
            core.advance(config, self.inner.clock.now());
        }
        if core.generation == generation {
            match &mut core.phase {
                Phase::Closed => {
                    core.window.push(failure);
                    let window = &core.window;
                    if window.len >= config.effective_minimum_calls()
                        && rate_reaches(window.failures, window.len, config.failure_rate_threshold)
                    {
                        core.enter_open(config, self.inner.clock.now());
                    }
                }
                Phase::HalfOpen {
                    successes,
                    failures,
                    ..
                } => {
                    if failure {
                        *failures += 1;
                    } else {
                        *successes += 1;
                    }
                    let (s, f) = (*successes, *failures);
                    if s + f == config.permitted_calls_in_half_open_state {
                        if rate_reaches(f, s + f, config.failure_rate_threshold) {
                            core.enter_open(config, self.inner.clock.now());
                        } else {
                            core.enter_closed();
                        }
                    }
                }
                // Permissions are issued only in CLOSED and HALF_OPEN, and
                // every transition starts a new generation.
                Phase::Open { .. } => {}
            }
        }
        drop(core);
        self.emit(EventKind::Recorded(verdict));
    }
}

/// Permission to make one call through a [`CircuitBreaker`].
///
/// Consumed by recording a verdict. Dropped without one, it gives itself back
/// (in HALF_OPEN, the trial slot becomes available again), exactly like
/// [`record_ignored`](Self::record_ignored).
#[must_use = "dropping a permission gives it back at once; record the call's verdict instead"]
pub struct CircuitPermission {
    breaker: CircuitBreaker,
    generation: u64,
    ended: bool,
}

impl std::fmt::Debug for CircuitPermission {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CircuitPermission")
            .field("origin", self.breaker.origin())
            .field("generation", &self.generation)
            .finish()
    }
}

impl CircuitPermission {
    /// Ends the call with `verdict`.
    pub fn record(mut self, verdict: Verdict) {
        self.ended = true;
        self.breaker.end(self.generation, verdict);
    }
    /// The upstream handled the call.
    pub fn record_success(self) {
        self.record(Verdict::Success);
    }
    /// The upstream failed the call.
    pub fn record_failure(self) {
        self.record(Verdict::Failure);
    }
    /// The call says nothing about the upstream; gives the permission back.
    pub fn record_ignored(self) {
        self.record(Verdict::Ignored);
    }
    /// The upstream answered `status`; records the verdict the breaker's
    /// failure-status set gives it, and returns that verdict.
    pub fn record_status(self, status: u16) -> Verdict {
        let verdict = self.verdict_for_status(status);
        self.record(verdict);
        verdict
    }
    /// The verdict `status` would get, without recording it.
    pub fn verdict_for_status(&self, status: u16) -> Verdict {
        self.breaker.inner.config.verdict_for_status(status)
    }
}

impl Drop for CircuitPermission {
    fn drop(&mut self) {
        if !self.ended {
            self.breaker.end(self.generation, Verdict::Ignored);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ManualClock, Scheme};

    const WAIT: Duration = Duration::from_secs(10);

    fn breaker(builder: CircuitBreakerConfigBuilder) -> (CircuitBreaker, ManualClock) {
        let clock = ManualClock::new();
        let origin = Origin::new(Scheme::Https, "upstream.test", 443);
        let config = builder.build().unwrap();
        (
            CircuitBreaker::new(origin, config, Arc::new(clock.clone())),
            clock,
        )
    }

    fn small() -> CircuitBreakerConfigBuilder {
        CircuitBreakerConfig::builder()
            .sliding_window_size(4)
            .minimum_number_of_calls(4)
            .failure_rate_threshold(50.0)
            .wait_duration_in_open_state(WAIT)
            .permitted_calls_in_half_open_state(2)
    }

    fn record(b: &CircuitBreaker, verdicts: &[Verdict]) {
        for v in verdicts {
            b.try_acquire().unwrap().record(*v);
        }
    }

    fn open(b: &CircuitBreaker) {
        record(b, &[Verdict::Failure; 4]);
        assert_eq!(b.state(), CircuitState::Open);
    }

    use Verdict::{Failure as F, Ignored as I, Success as S};

    #[test]
    fn defaults_are_resilience4j_defaults() {
        let c = CircuitBreakerConfig::default();
        assert_eq!(c.failure_rate_threshold(), 50.0);
        assert_eq!(c.sliding_window_size(), 100);
        assert_eq!(c.minimum_number_of_calls(), 100);
        assert_eq!(c.wait_duration_in_open_state(), Duration::from_secs(60));
        assert_eq!(c.permitted_calls_in_half_open_state(), 10);
        assert_eq!(c.max_wait_in_half_open_state(), None);
        assert_eq!(
            c.failure_statuses().iter().collect::<Vec<_>>(),
            [500, 502, 503, 504]
        );
    }

    #[test]
    fn closed_circuit_does_not_open_before_the_minimum_number_of_calls() {
        let (b, _) = breaker(small());
        record(&b, &[F, F, F]);
        assert_eq!(b.state(), CircuitState::Closed);
        record(&b, &[F]);
        assert_eq!(b.state(), CircuitState::Open);
    }

    #[test]
    fn closed_circuit_opens_exactly_at_the_failure_rate_threshold() {
        let (b, _) = breaker(small());
        record(&b, &[S, S, S, F]); // 25 %
        assert_eq!(b.state(), CircuitState::Closed);
        record(&b, &[F]); // window S S F F = 50 %
        assert_eq!(b.state(), CircuitState::Open);
    }

    #[test]
    fn sliding_window_forgets_the_oldest_outcome() {
        let (b, _) = breaker(small().failure_rate_threshold(75.0));
        record(&b, &[F, F, S, S]); // 50 %
        record(&b, &[S]); // F S S S = 25 %
        record(&b, &[F]); // S S S F = 25 %
        assert_eq!(b.state(), CircuitState::Closed);
        record(&b, &[F, F]); // S F F F = 75 %
        assert_eq!(b.state(), CircuitState::Open);
    }

    #[test]
    fn minimum_calls_above_the_window_size_is_capped_at_the_window_size() {
        let (b, _) = breaker(small().minimum_number_of_calls(1000));
        open(&b);
    }

    #[test]
    fn ignored_calls_do_not_count_toward_the_window() {
        let (b, _) = breaker(small());
        record(&b, &[F, F, F, I, I, I]);
        assert_eq!(b.state(), CircuitState::Closed);
    }

    #[test]
    fn open_circuit_rejects_until_its_wait_has_passed_then_half_opens() {
        let (b, clock) = breaker(small());
        let opened_at = clock.now();
        open(&b);
        match b.try_acquire() {
            Err(LocalRejection::CircuitOpen { admits_again, .. }) => {
                assert_eq!(admits_again, AdmitsAgain::At(opened_at + WAIT));
            }
            other => panic!("expected CircuitOpen, got {other:?}"),
        }
        clock.advance(WAIT - Duration::from_nanos(1));
        assert_eq!(b.state(), CircuitState::Open);
        clock.advance(Duration::from_nanos(1));
        assert_eq!(b.state(), CircuitState::HalfOpen);
    }

    #[test]
    fn half_open_admits_only_its_trial_calls_and_says_no_definite_time() {
        let (b, clock) = breaker(small());
        open(&b);
        clock.advance(WAIT);
        let _t1 = b.try_acquire().unwrap();
        let _t2 = b.try_acquire().unwrap();
        match b.try_acquire() {
            Err(LocalRejection::CircuitOpen { admits_again, .. }) => {
                assert_eq!(admits_again, AdmitsAgain::AfterTrialCalls);
            }
            other => panic!("expected CircuitOpen, got {other:?}"),
        }
    }

    #[test]
    fn half_open_closes_when_trial_failures_stay_below_the_threshold() {
        let (b, clock) = breaker(small().failure_rate_threshold(60.0));
        open(&b);
        clock.advance(WAIT);
        record(&b, &[F]);
        assert_eq!(b.state(), CircuitState::HalfOpen);
        record(&b, &[S]); // 50 % < 60 %
        assert_eq!(b.state(), CircuitState::Closed);
        // The CLOSED window starts empty again.
        record(&b, &[F, F, F]);
        assert_eq!(b.state(), CircuitState::Closed);
    }

    #[test]
    fn half_open_reopens_when_trial_failures_reach_the_threshold() {
        let (b, clock) = breaker(small());
        open(&b);
        clock.advance(WAIT);
        record(&b, &[S, F]); // 50 %
        assert_eq!(b.state(), CircuitState::Open);
        clock.advance(WAIT);
        assert_eq!(b.state(), CircuitState::HalfOpen);
    }

    #[test]
    fn dropped_and_ignored_trials_give_their_slot_back() {
        let (b, clock) = breaker(small());
        open(&b);
        clock.advance(WAIT);
        for _ in 0..10 {
            drop(b.try_acquire().unwrap());
            b.try_acquire().unwrap().record_ignored();
        }
        assert_eq!(b.metrics().trials_available, 2);
        record(&b, &[S, S]);
        assert_eq!(b.state(), CircuitState::Closed);
    }

    #[test]
    fn half_open_waits_without_limit_by_default() {
        let (b, clock) = breaker(small());
        open(&b);
        clock.advance(WAIT);
        let _t = b.try_acquire().unwrap();
        clock.advance(Duration::from_secs(365 * 24 * 3600));
        assert_eq!(b.state(), CircuitState::HalfOpen);
    }

    #[test]
    fn half_open_reopens_after_its_maximum_wait() {
        let max = Duration::from_secs(30);
        let (b, clock) = breaker(small().max_wait_in_half_open_state(Some(max)));
        open(&b);
        clock.advance(WAIT);
        let trial = b.try_acquire().unwrap();
        let half_open_at = clock.now();
        clock.advance(max - Duration::from_nanos(1));
        assert_eq!(b.state(), CircuitState::HalfOpen);
        clock.advance(Duration::from_nanos(1));
        assert_eq!(b.state(), CircuitState::Open);
        // A late trial result belongs to the expired HALF_OPEN: it changes nothing.
        trial.record_success();
        match b.try_acquire() {
            Err(LocalRejection::CircuitOpen { admits_again, .. }) => {
                assert_eq!(admits_again, AdmitsAgain::At(half_open_at + max + WAIT));
            }
            other => panic!("expected CircuitOpen, got {other:?}"),
        }
    }

    #[test]
    fn a_permission_from_before_the_circuit_opened_frees_no_trial_slot() {
        let (b, clock) = breaker(small());
        let stale = b.try_acquire().unwrap();
        open(&b);
        clock.advance(WAIT);
        let _t1 = b.try_acquire().unwrap();
        let _t2 = b.try_acquire().unwrap();
        drop(stale);
        assert!(
            b.try_acquire().is_err(),
            "a CLOSED-era permission freed a trial slot"
        );
        let m = b.metrics();
        assert_eq!((m.trials_in_flight, m.trials_available), (2, 0));
    }

    #[test]
    fn a_stale_failure_does_not_judge_the_half_open_trials() {
        let (b, clock) = breaker(small());
        let stale = b.try_acquire().unwrap();
        open(&b);
        clock.advance(WAIT);
        stale.record_failure();
        record(&b, &[S, S]);
        assert_eq!(b.state(), CircuitState::Closed);
    }

    #[test]
    fn record_status_maps_through_the_failure_status_set() {
        let (b, _) = breaker(small().failure_statuses([429]));
        assert_eq!(
            b.try_acquire().unwrap().record_status(503),
            Verdict::Success
        );
        assert_eq!(
            b.try_acquire().unwrap().record_status(429),
            Verdict::Failure
        );
    }

    #[test]
    fn counters_account_for_every_permission() {
        let (b, clock) = breaker(small());
        record(&b, &[S, I, F, F]);
        drop(b.try_acquire().unwrap());
        record(&b, &[F]);
        assert!(b.try_acquire().is_err());
        clock.advance(WAIT);
        let _held = b.try_acquire().unwrap();
        let m = b.metrics();
        assert_eq!(
            (m.acquired, m.rejected, m.recorded, m.returned, m.in_flight),
            (7, 1, 4, 2, 1)
        );
        assert_eq!(m.trials_in_flight, 1);
    }

    #[test]
    fn builder_rejects_out_of_range_values_naming_field_and_value() {
        let cases: [(CircuitBreakerConfigBuilder, &str, &str); 9] = [
            (
                small().failure_rate_threshold(0.0),
                "failure_rate_threshold",
                "0",
            ),
            (
                small().failure_rate_threshold(100.5),
                "failure_rate_threshold",
                "100.5",
            ),
            (
                small().failure_rate_threshold(f32::NAN),
                "failure_rate_threshold",
                "NaN",
            ),
            (small().sliding_window_size(0), "sliding_window_size", "0"),
            (
                small().minimum_number_of_calls(0),
                "minimum_number_of_calls",
                "0",
            ),
            (
                small().wait_duration_in_open_state(Duration::ZERO),
                "wait_duration_in_open_state",
                "0s",
            ),
            (
                small().permitted_calls_in_half_open_state(0),
                "permitted_calls_in_half_open_state",
                "0",
            ),
            (
                small().max_wait_in_half_open_state(Some(Duration::ZERO)),
                "max_wait_in_half_open_state",
                "Some(0s)",
            ),
            (
                small().failure_statuses([503, 1000]),
                "failure_statuses",
                "1000",
            ),
        ];
        for (builder, field, value) in cases {
            let err = builder.build().unwrap_err();
            assert_eq!((err.field(), err.value()), (field, value), "{err}");
        }
        assert!(small().failure_rate_threshold(100.0).build().is_ok());
    }
}
