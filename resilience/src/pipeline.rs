//! The per-attempt pipeline: circuit breaker → rate limiter → bulkhead →
//! call, per origin.
//!
//! # Why this order
//!
//! * The **circuit breaker first**: an open circuit must reject before a
//!   rate token or a bulkhead slot is spent, or a dead upstream keeps
//!   consuming the quota and concurrency that healthy calls need.
//! * The **rate limiter before the bulkhead**: a caller waiting for a token
//!   should not sit on a concurrency slot meanwhile.
//! * Release runs in **reverse order**: the bulkhead slot is freed first (the
//!   attempt is over), then the token is spent or returned, and the circuit
//!   hears the verdict last. [`AttemptPermit`] declares its fields in that
//!   order, so even an implicit drop releases in reverse.
//!
//! # Local rejections are not circuit errors
//!
//! When the rate limiter or the bulkhead rejects, the upstream never saw the
//! request. Counting our own back-pressure as upstream failure would open the
//! breaker on a healthy dependency, so a local rejection is never recorded:
//! the circuit permission already taken is simply dropped, which gives it
//! back. This is the defect Resilience4j users hit when they forgot
//! `releasePermission()` on that path: each forgotten permission consumed a
//! HALF_OPEN trial slot for good, and with the default unlimited wait in
//! HALF_OPEN the circuit could stay HALF_OPEN forever against a recovered
//! upstream. Here permissions are values that give themselves back, so the
//! omission cannot be written.
//!
//! # Verdicts
//!
//! The caller ends each attempt through its [`AttemptPermit`]:
//! [`record_success`](AttemptPermit::record_success),
//! [`record_failure`](AttemptPermit::record_failure),
//! [`record_ignored`](AttemptPermit::record_ignored) (caller cancellation,
//! a refusal the protocol proves unprocessed) or
//! [`record_status`](AttemptPermit::record_status), which maps an answered
//! status through the breaker's failure-status set, so an upstream answering
//! nothing but 503 opens its circuit. A success or failure spends the rate
//! token; ignored and dropped attempts give it back.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, PoisonError, RwLock};
use std::time::{Duration, Instant};

use crate::event::EventHook;
use crate::limit::{RateLimit, RateLimitProvider, Reservation};
use crate::{
    Bulkhead, BulkheadConfig, BulkheadMetrics, BulkheadPermit, CircuitBreaker,
    CircuitBreakerConfig, CircuitMetrics, CircuitPermission, CircuitState, Clock, Interrupt,
    LocalRejection, Origin, RateLimiterConfig, RateLimiterMetrics, RatePermit, StatusSet, Verdict,
};

/// Which components a [`Pipeline`] runs, and their configuration. The order
/// is fixed; each component may be disabled.
///
/// [`Default`]: circuit breaker with Resilience4j's defaults, no rate
/// limiter (a sensible rate depends on the upstream), bulkhead with
/// [`DEFAULT_MAX_CONCURRENT_ATTEMPTS`](crate::DEFAULT_MAX_CONCURRENT_ATTEMPTS)
/// and a queue for a free slot (see [`crate::bulkhead`]).
///
/// ```
/// use std::time::Duration;
/// use evident_resilience::*;
///
/// let config = PipelineConfig::default()
///     .rate_limiter(Some(RateLimiterConfig::builder(50, Duration::from_secs(1)).build()?))
///     .bulkhead(None);
/// assert!(config.circuit_breaker_config().is_some());
/// assert!(config.bulkhead_config().is_none());
/// # Ok::<(), ConfigError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct PipelineConfig {
    circuit_breaker: Option<CircuitBreakerConfig>,
    rate_limiter: Option<RateSource>,
    bulkhead: Option<BulkheadConfig>,
    idle_ttl: Duration,
}

/// Where each origin's rate limiter comes from.
#[derive(Debug, Clone)]
enum RateSource {
    /// A local limiter per origin, from its configuration.
    Local(RateLimiterConfig),
    /// Any other provider (a fleet-wide limiter, for one).
    Provider(Arc<dyn RateLimitProvider>),
}

impl RateSource {
    fn provider(&self) -> &dyn RateLimitProvider {
        match self {
            RateSource::Local(config) => config,
            RateSource::Provider(provider) => &**provider,
        }
    }
}

/// Two providers are equal only when they are the same one.
impl PartialEq for RateSource {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (RateSource::Local(a), RateSource::Local(b)) => a == b,
            (RateSource::Provider(a), RateSource::Provider(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

/// Default time an origin's state is kept after its last use: 10 minutes.
/// Long beyond any breaker's default open wait (60 s) and a rate limiter's
/// usual period, so an origin in regular use never loses its history, while
/// a client that talks to 100,000 origins over a day keeps only those of the
/// last few minutes.
pub const DEFAULT_ORIGIN_IDLE_TTL: Duration = Duration::from_secs(10 * 60);

impl Default for PipelineConfig {
    fn default() -> Self {
        Self {
            circuit_breaker: Some(CircuitBreakerConfig::default()),
            rate_limiter: None,
            bulkhead: Some(BulkheadConfig::default()),
            idle_ttl: DEFAULT_ORIGIN_IDLE_TTL,
        }
    }
}

impl PipelineConfig {
    /// No component at all: every attempt is admitted.
    pub fn disabled() -> Self {
        Self {
            circuit_breaker: None,
            rate_limiter: None,
            bulkhead: None,
            idle_ttl: DEFAULT_ORIGIN_IDLE_TTL,
        }
    }
    /// How long an origin's state is kept after its last use (default
    /// [`DEFAULT_ORIGIN_IDLE_TTL`]). Never shorter in effect than the
    /// breaker's open wait, so evicting cannot cut an open circuit short.
    pub fn idle_ttl(mut self, ttl: Duration) -> Self {
        self.idle_ttl = ttl;
        self
    }
    /// How long an unused origin's state is kept, as configured.
    pub fn idle_ttl_config(&self) -> Duration {
        self.idle_ttl
    }
    /// Sets (or, with `None`, disables) the circuit breaker.
    pub fn circuit_breaker(mut self, config: Option<CircuitBreakerConfig>) -> Self {
        self.circuit_breaker = config;
        self
    }
    /// Sets (or, with `None`, disables) the rate limiter.
    pub fn rate_limiter(mut self, config: Option<RateLimiterConfig>) -> Self {
        self.rate_limiter = config.map(RateSource::Local);
        self
    }
    /// Takes each origin's rate limiter from `provider` instead of a local
    /// configuration (a limiter shared by a fleet, for instance). It sits
    /// at the same place in the pipeline and follows the same release
    /// rules as a local one.
    pub fn rate_limit_provider(mut self, provider: Arc<dyn RateLimitProvider>) -> Self {
        self.rate_limiter = Some(RateSource::Provider(provider));
        self
    }
    /// Sets (or, with `None`, disables) the bulkhead.
    pub fn bulkhead(mut self, config: Option<BulkheadConfig>) -> Self {
        self.bulkhead = config;
        self
    }
    /// The circuit-breaker configuration, if enabled.
    pub fn circuit_breaker_config(&self) -> Option<&CircuitBreakerConfig> {
        self.circuit_breaker.as_ref()
    }
    /// The local rate-limiter configuration, if a local limiter is
    /// enabled (`None` too when a [`rate_limit_provider`](Self::rate_limit_provider)
    /// is set).
    pub fn rate_limiter_config(&self) -> Option<&RateLimiterConfig> {
        match &self.rate_limiter {
            Some(RateSource::Local(config)) => Some(config),
            _ => None,
        }
    }
    /// The bulkhead configuration, if enabled.
    pub fn bulkhead_config(&self) -> Option<&BulkheadConfig> {
        self.bulkhead.as_ref()
    }
}

/// One origin's components (cheap handles onto shared state).
#[derive(Clone)]
struct OriginState {
    breaker: Option<CircuitBreaker>,
    limiter: Option<Arc<dyn RateLimit>>,
    bulkhead: Option<Bulkhead>,
}

impl OriginState {
    /// Nothing outside the registry holds any component: no permit, no
    /// waiter, no acquisition in progress.
    fn is_unshared(&self) -> bool {
        self.breaker
            .as_ref()
            .is_none_or(CircuitBreaker::is_unshared)
            && self
                .limiter
                .as_ref()
                .is_none_or(|limiter| Arc::strong_count(limiter) == 1)
            && self.bulkhead.as_ref().is_none_or(Bulkhead::is_unshared)
    }
}

/// A registry entry: the state and when it was last handed out.
struct Entry {
    state: OriginState,
    /// Nanoseconds since the pipeline's `base` instant.
    last_used: AtomicU64,
}

/// How stale an entry's last-use time may be: 1 s. Marking every use would
/// make all threads calling one origin write one cache line; marking at
/// most once a second costs a read on the hot path, and eviction (minutes)
/// does not need more precision.
const LAST_USED_GRANULARITY: u64 = 1_000_000_000;

impl Entry {
    fn touch(&self, now: u64) {
        let last = self.last_used.load(Ordering::Relaxed);
        if now >= last.saturating_add(LAST_USED_GRANULARITY) {
            self.last_used.fetch_max(now, Ordering::Relaxed);
        }
    }
}

/// The registry behind the lock.
struct Registry {
    origins: HashMap<Origin, Entry, crate::origin::BuildOriginHasher>,
    /// When idle entries were last swept (nanoseconds since `base`).
    last_sweep: u64,
}

/// A snapshot of one origin's components.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct OriginMetrics {
    /// The circuit breaker's, if enabled.
    pub circuit_breaker: Option<CircuitMetrics>,
    /// The rate limiter's, if enabled.
    pub rate_limiter: Option<RateLimiterMetrics>,
    /// The bulkhead's, if enabled.
    pub bulkhead: Option<BulkheadMetrics>,
}

/// The per-origin registry of circuit breakers, rate limiters and
/// bulkheads, and the entry point for each attempt.
///
/// Per-origin state is created lazily from one [`PipelineConfig`] on the
/// first attempt to that origin. After that, acquiring takes a read lock on
/// the registry and allocates nothing.
///
/// State that nobody holds (no permit, waiter or acquisition in progress)
/// and that was not used for the idle TTL
/// ([`PipelineConfig::idle_ttl`]) is evicted: a sweep runs, under the write
/// lock that adding a new origin takes anyway, at most once per half TTL.
/// So a client talking to an unbounded stream of origins keeps the state of
/// those used in about the last TTL and a half, not of every origin it ever
/// saw. An evicted origin starts afresh (closed circuit, full quota) when
/// used again.
///
/// # Example
///
/// ```
/// use std::sync::Arc;
/// use evident_resilience::*;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), LocalRejection> {
/// let pipeline = Pipeline::new(PipelineConfig::default(), Arc::new(SystemClock));
/// let origin = Origin::new(Scheme::Https, "api.example.com", 443);
///
/// // Async: one permit per physical attempt.
/// let permit = pipeline.acquire(&origin).await?;
/// // ... make the attempt; the upstream answered 503:
/// assert_eq!(permit.record_status(503), Verdict::Failure);
///
/// // Blocking code gets the same pipeline.
/// let permit = pipeline.acquire_blocking(&origin)?;
/// permit.record_success();
///
/// // A permit dropped without a verdict (a cancelled attempt) gives back
/// // everything it held.
/// drop(pipeline.acquire_blocking(&origin)?);
///
/// assert_eq!(pipeline.state(&origin), Some(CircuitState::Closed));
/// # Ok(())
/// # }
/// ```
pub struct Pipeline {
    config: PipelineConfig,
    clock: Arc<dyn Clock>,
    hook: Option<EventHook>,
    /// The instant `Entry::last_used` counts from.
    base: Instant,
    /// The effective idle TTL in nanoseconds.
    idle_ttl: u64,
    registry: RwLock<Registry>,
}

impl std::fmt::Debug for Pipeline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pipeline")
            .field("config", &self.config)
            .field("origins", &self.origin_count())
            .finish_non_exhaustive()
    }
}

impl Pipeline {
    /// The clock the pipeline's components read time from.
    pub fn clock(&self) -> &Arc<dyn Clock> {
        &self.clock
    }

    /// A pipeline whose components read time from `clock`.
    pub fn new(config: PipelineConfig, clock: Arc<dyn Clock>) -> Self {
        let open_wait = config.circuit_breaker.as_ref().map_or(
            Duration::ZERO,
            CircuitBreakerConfig::wait_duration_in_open_state,
        );
        let idle_ttl = nanos(config.idle_ttl.max(open_wait));
        Self {
            config,
            base: clock.now(),
            clock,
            hook: None,
            idle_ttl,
            registry: RwLock::new(Registry {
                origins: HashMap::default(),
                last_sweep: 0,
            }),
        }
    }

    /// Like [`new`](Self::new), with `hook` receiving every component's
    /// acquire, reject and release [`Event`](crate::Event), in order.
    pub fn with_event_hook(config: PipelineConfig, clock: Arc<dyn Clock>, hook: EventHook) -> Self {
        Self {
            hook: Some(hook),
            ..Self::new(config, clock)
        }
    }

    /// The configuration every origin's components are built from.
    pub fn config(&self) -> &PipelineConfig {
        &self.config
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, Registry> {
        // Nothing panics while the registry is locked; carry on if it did.
        self.registry.read().unwrap_or_else(PoisonError::into_inner)
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, Registry> {
        self.registry
            .write()
            .unwrap_or_else(PoisonError::into_inner)
    }

    fn since_base(&self, now: Instant) -> u64 {
        nanos(now.saturating_duration_since(self.base))
    }

    fn origin_state(&self, origin: &Origin, now: Instant) -> OriginState {
        let now = self.since_base(now);
        if let Some(entry) = self.read().origins.get(origin) {
            entry.touch(now);
            return entry.state.clone();
        }
        let mut registry = self.write();
        if now.saturating_sub(registry.last_sweep) >= self.idle_ttl / 2 {
            registry.last_sweep = now;
            self.sweep(&mut registry, now);
        }
        let entry = registry
            .origins
            .entry(origin.clone())
            .or_insert_with(|| Entry {
                state: OriginState {
                    breaker: self.config.circuit_breaker.clone().map(|c| {
                        CircuitBreaker::with_hook(
                            origin.clone(),
                            c,
                            self.clock.clone(),
                            self.hook.clone(),
                        )
                    }),
                    limiter: self.config.rate_limiter.as_ref().map(|source| {
                        source
                            .provider()
                            .rate_limit(origin, self.clock.clone(), self.hook.clone())
                    }),
                    bulkhead: self
                        .config
                        .bulkhead
                        .clone()
                        .map(|c| Bulkhead::with_hook(origin.clone(), c, self.hook.clone())),
                },
                last_used: AtomicU64::new(now),
            });
        entry.touch(now);
        entry.state.clone()
    }

    /// Drops every entry unused for the idle TTL that nobody holds. Runs
    /// under the write lock, so no handle can be taken meanwhile.
    fn sweep(&self, registry: &mut Registry, now: u64) -> usize {
        let before = registry.origins.len();
        registry.origins.retain(|_, entry| {
            let idle = now.saturating_sub(entry.last_used.load(Ordering::Relaxed));
            idle < self.idle_ttl || !entry.state.is_unshared()
        });
        before - registry.origins.len()
    }

    /// Evicts now every origin unused for the idle TTL whose state nobody
    /// holds, and returns how many were evicted. (This also happens by
    /// itself when new origins are added.)
    pub fn evict_idle(&self) -> usize {
        let now = self.since_base(self.clock.now());
        let mut registry = self.write();
        registry.last_sweep = now;
        self.sweep(&mut registry, now)
    }

    /// How many origins have state kept now.
    pub fn origin_count(&self) -> usize {
        self.read().origins.len()
    }

    /// Admits one attempt to `origin`, waiting (on tokio's timer) for a rate
    /// token or a bulkhead slot as configured.
    ///
    /// Dropping the returned future at any point gives back whatever it had
    /// taken. Needs a tokio runtime with the time driver only if a wait is
    /// configured.
    pub async fn acquire(&self, origin: &Origin) -> Result<AttemptPermit, LocalRejection> {
        self.acquire_within(origin, Duration::MAX).await
    }

    /// Like [`acquire`](Self::acquire), but the rate-limiter and bulkhead
    /// waits together last at most `max_wait` (each also within its own
    /// configured wait): a caller with a deadline passes what remains of it,
    /// so admission never waits past the deadline.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use std::time::Duration;
    /// use evident_resilience::*;
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let config = PipelineConfig::disabled().rate_limiter(Some(
    ///     RateLimiterConfig::builder(1, Duration::from_secs(1))
    ///         .max_wait(Duration::from_secs(5))
    ///         .build()
    ///         .unwrap(),
    /// ));
    /// let pipeline = Pipeline::new(config, Arc::new(SystemClock));
    /// let origin = Origin::new(Scheme::Https, "api.example.com", 443);
    /// pipeline.acquire(&origin).await.unwrap().record_success();
    /// // The next token is about a second away: more than 10 ms allows.
    /// let rejected = pipeline
    ///     .acquire_within(&origin, Duration::from_millis(10))
    ///     .await
    ///     .unwrap_err();
    /// assert!(matches!(rejected, LocalRejection::RateLimited { .. }));
    /// # }
    /// ```
    pub async fn acquire_within(
        &self,
        origin: &Origin,
        max_wait: Duration,
    ) -> Result<AttemptPermit, LocalRejection> {
        match self.admit(origin, max_wait) {
            Admission::Ready(result) => result,
            Admission::Wait(wait) => wait.await,
        }
    }

    /// Admits one attempt to `origin` like
    /// [`acquire_within`](Self::acquire_within), deciding at once whenever
    /// no wait is needed: [`Admission::Ready`] when the attempt is admitted
    /// or rejected now, [`Admission::Wait`] (a boxed future that holds what
    /// was taken so far) only when a rate token or a bulkhead slot must be
    /// waited for. The hot path of a healthy upstream thus costs no future,
    /// no timer and no allocation; the events and their order are the same
    /// either way.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use std::time::Duration;
    /// use evident_resilience::*;
    ///
    /// let pipeline = Pipeline::new(PipelineConfig::default(), Arc::new(SystemClock));
    /// let origin = Origin::new(Scheme::Https, "api.example.com", 443);
    /// match pipeline.admit(&origin, Duration::from_secs(1)) {
    ///     Admission::Ready(Ok(permit)) => permit.record_success(),
    ///     Admission::Ready(Err(rejection)) => panic!("rejected: {rejection}"),
    ///     Admission::Wait(_) => unreachable!("an idle origin admits at once"),
    /// }
    /// ```
    pub fn admit(&self, origin: &Origin, max_wait: Duration) -> Admission {
        self.admit_at(origin, max_wait, self.clock.now())
    }

    /// [`admit`](Self::admit) at `now`, an instant the caller has just read
    /// from this pipeline's [`clock`](Self::clock): a caller that reads the
    /// time anyway spares the pipeline reading it again.
    pub fn admit_at(&self, origin: &Origin, max_wait: Duration, now: Instant) -> Admission {
        let state = self.origin_state(origin, now);
        // On an early return, the permissions taken so far drop in reverse
        // order.
        let circuit = match &state.breaker {
            Some(breaker) => match breaker.try_acquire_at(now) {
                Ok(permission) => Some(permission),
                Err(rejection) => return Admission::Ready(Err(rejection)),
            },
            None => None,
        };
        let (rate, waited) = match &state.limiter {
            Some(limiter) => match limiter.reserve(now, max_wait) {
                Reservation::Ready(Ok(grant)) => {
                    (Some(RatePermit::new(limiter.clone(), grant)), grant.wait())
                }
                Reservation::Ready(Err(rejection)) => return Admission::Ready(Err(rejection)),
                Reservation::Pending(pending) => {
                    return self.wait_for_token(state, circuit, pending, max_wait);
                }
            },
            None => (None, Duration::ZERO),
        };
        if waited.is_zero() {
            let bulkhead = match &state.bulkhead {
                // May not wait: a slot now, or rejected now.
                Some(bulkhead) if max_wait.min(bulkhead.config().max_wait()).is_zero() => {
                    match bulkhead.try_acquire() {
                        Ok(permit) => Some(permit),
                        Err(rejection) => return Admission::Ready(Err(rejection)),
                    }
                }
                // May wait: a free slot now, or the queue (which counts and
                // reports its own outcome).
                Some(bulkhead) => match bulkhead.try_take_quietly() {
                    Some(permit) => Some(permit),
                    None => {
                        return self.wait_for_slot(state, circuit, rate, waited, max_wait);
                    }
                },
                None => None,
            };
            return Admission::Ready(Ok(AttemptPermit {
                bulkhead,
                rate,
                circuit,
            }));
        }
        self.wait_for_slot(state, circuit, rate, waited, max_wait)
    }

    /// An admission whose rate limiter must ask elsewhere: the answer, then
    /// the rest as in [`wait_for_slot`](Self::wait_for_slot). The time the
    /// answer took counts against `max_wait`.
    fn wait_for_token(
        &self,
        state: OriginState,
        circuit: Option<CircuitPermission>,
        pending: crate::limit::PendingGrant,
        max_wait: Duration,
    ) -> Admission {
        let clock = self.clock.clone();
        let started = clock.now();
        Admission::Wait(Box::pin(async move {
            let grant = pending.await?;
            let limiter = state
                .limiter
                .clone()
                .expect("a pending token has a limiter");
            let rate = Some(RatePermit::new(limiter, grant));
            let asked = clock.now().saturating_duration_since(started);
            let rest = max_wait.saturating_sub(asked);
            match Self::wait_for_slot_with(state, circuit, rate, grant.wait(), rest) {
                Admission::Ready(result) => result,
                Admission::Wait(wait) => wait.await,
            }
        }))
    }

    /// The rest of an admission that must wait: the rate token's wait (if
    /// any), then the bulkhead's queue, holding what was taken meanwhile.
    fn wait_for_slot(
        &self,
        state: OriginState,
        circuit: Option<CircuitPermission>,
        rate: Option<RatePermit>,
        waited: Duration,
        max_wait: Duration,
    ) -> Admission {
        Self::wait_for_slot_with(state, circuit, rate, waited, max_wait)
    }

    fn wait_for_slot_with(
        state: OriginState,
        circuit: Option<CircuitPermission>,
        rate: Option<RatePermit>,
        waited: Duration,
        max_wait: Duration,
    ) -> Admission {
        Admission::Wait(Box::pin(async move {
            if !waited.is_zero() {
                tokio::time::sleep(waited).await;
            }
            let bulkhead = match &state.bulkhead {
                Some(bulkhead) => Some(
                    bulkhead
                        .acquire_within(max_wait.saturating_sub(waited))
                        .await?,
                ),
                None => None,
            };
            Ok(AttemptPermit {
                bulkhead,
                rate,
                circuit,
            })
        }))
    }

    /// Admits one attempt to `origin` from blocking code: a rate-limiter
    /// wait sleeps through the clock, a bulkhead wait parks the thread.
    pub fn acquire_blocking(&self, origin: &Origin) -> Result<AttemptPermit, LocalRejection> {
        self.acquire_blocking_within(origin, Duration::MAX)
    }

    /// Like [`acquire_blocking`](Self::acquire_blocking), with the waits
    /// bounded together by `max_wait` as in
    /// [`acquire_within`](Self::acquire_within).
    pub fn acquire_blocking_within(
        &self,
        origin: &Origin,
        max_wait: Duration,
    ) -> Result<AttemptPermit, LocalRejection> {
        self.acquire_blocking_inner(origin, max_wait, None)
    }

    /// Like [`acquire_blocking_within`](Self::acquire_blocking_within), and
    /// raising `interrupt` ends a rate-limiter or bulkhead wait at once with
    /// [`LocalRejection::Interrupted`], giving back what was taken.
    pub fn acquire_blocking_interruptible(
        &self,
        origin: &Origin,
        max_wait: Duration,
        interrupt: &Interrupt,
    ) -> Result<AttemptPermit, LocalRejection> {
        self.acquire_blocking_inner(origin, max_wait, Some(interrupt))
    }

    fn acquire_blocking_inner(
        &self,
        origin: &Origin,
        max_wait: Duration,
        interrupt: Option<&Interrupt>,
    ) -> Result<AttemptPermit, LocalRejection> {
        let now = self.clock.now();
        let state = self.origin_state(origin, now);
        let circuit = match &state.breaker {
            Some(breaker) => Some(breaker.try_acquire_at(now)?),
            None => None,
        };
        let (rate, waited) = match &state.limiter {
            Some(limiter) => {
                let grant = limiter.reserve_blocking(now, max_wait)?;
                // Held from here on: a rejection below or an interrupted
                // wait gives it back.
                let permit = RatePermit::new(limiter.clone(), grant);
                let wait = grant.wait();
                if !wait.is_zero() {
                    match interrupt {
                        Some(interrupt) => {
                            if !self.clock.sleep_unless(wait, interrupt) {
                                drop(permit);
                                return Err(LocalRejection::Interrupted {
                                    origin: origin.clone(),
                                });
                            }
                        }
                        None => self.clock.sleep(wait),
                    }
                }
                (Some(permit), wait)
            }
            None => (None, Duration::ZERO),
        };
        let rest = max_wait.saturating_sub(waited);
        let bulkhead = match (&state.bulkhead, interrupt) {
            (Some(bulkhead), Some(interrupt)) => {
                Some(bulkhead.acquire_blocking_interruptible(rest, interrupt)?)
            }
            (Some(bulkhead), None) => Some(bulkhead.acquire_blocking_within(rest)?),
            (None, _) => None,
        };
        Ok(AttemptPermit {
            bulkhead,
            rate,
            circuit,
        })
    }

    /// The circuit state for `origin`: `None` if the breaker is disabled or
    /// no attempt to `origin` was made yet.
    pub fn state(&self, origin: &Origin) -> Option<CircuitState> {
        let breaker = self.read().origins.get(origin)?.state.breaker.clone()?;
        Some(breaker.state())
    }

    /// A snapshot of `origin`'s components, if any attempt to it was made.
    pub fn metrics(&self, origin: &Origin) -> Option<OriginMetrics> {
        let state = self.read().origins.get(origin)?.state.clone();
        Some(OriginMetrics {
            circuit_breaker: state.breaker.as_ref().map(CircuitBreaker::metrics),
            rate_limiter: state.limiter.as_ref().map(|limiter| limiter.metrics()),
            bulkhead: state.bulkhead.as_ref().map(Bulkhead::metrics),
        })
    }
}

/// What [`Pipeline::admit`] decided.
#[must_use = "an admission holds permissions until it is used or dropped"]
pub enum Admission {
    /// Admitted or rejected at once.
    Ready(Result<AttemptPermit, LocalRejection>),
    /// Admission needs a wait (a rate token of a later cycle, or a queued
    /// bulkhead slot): await it, on a tokio runtime with the time driver.
    /// Dropping it gives back whatever it holds.
    Wait(Pin<Box<dyn Future<Output = Result<AttemptPermit, LocalRejection>> + Send>>),
}

impl std::fmt::Debug for Admission {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Admission::Ready(result) => f.debug_tuple("Ready").field(result).finish(),
            Admission::Wait(_) => f.write_str("Wait(..)"),
        }
    }
}

/// A duration in nanoseconds, saturating (584 years).
fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

/// Permission for one physical attempt, holding whatever the enabled
/// components granted.
///
/// End it with a verdict; dropping it without one (a cancelled attempt) gives
/// everything back, like [`record_ignored`](Self::record_ignored).
#[must_use = "dropping the permit gives it back at once; make the attempt and record its verdict"]
#[derive(Debug)]
pub struct AttemptPermit {
    // Declaration order is drop order, and drop order is release order:
    // the reverse of acquisition. Do not reorder.
    bulkhead: Option<BulkheadPermit>,
    rate: Option<RatePermit>,
    circuit: Option<CircuitPermission>,
}

impl AttemptPermit {
    /// Ends the attempt with `verdict`, releasing in reverse order: the
    /// bulkhead slot, then the rate token (spent on success or failure,
    /// returned if ignored), then the circuit permission (recording the
    /// verdict).
    pub fn record(self, verdict: Verdict) {
        let AttemptPermit {
            bulkhead,
            rate,
            circuit,
        } = self;
        drop(bulkhead);
        if let Some(rate) = rate {
            match verdict {
                Verdict::Success | Verdict::Failure => rate.consume(),
                Verdict::Ignored => drop(rate),
            }
        }
        if let Some(circuit) = circuit {
            circuit.record(verdict);
        }
    }

    /// The upstream handled the attempt.
    pub fn record_success(self) {
        self.record(Verdict::Success);
    }

    /// The upstream failed the attempt.
    pub fn record_failure(self) {
        self.record(Verdict::Failure);
    }

    /// The attempt says nothing about the upstream (caller cancellation, a
    /// refusal proven unprocessed): gives everything back uncounted.
    pub fn record_ignored(self) {
        self.record(Verdict::Ignored);
    }

    /// The upstream answered `status`: records the verdict of the breaker's
    /// failure-status set (the default set when the breaker is disabled) and
    /// returns it.
    pub fn record_status(self, status: u16) -> Verdict {
        let verdict = self.verdict_for_status(status);
        self.record(verdict);
        verdict
    }

    /// The verdict `status` would get, without recording it.
    pub fn verdict_for_status(&self, status: u16) -> Verdict {
        match &self.circuit {
            Some(circuit) => circuit.verdict_for_status(status),
            None if StatusSet::default().contains(status) => Verdict::Failure,
            None => Verdict::Success,
        }
    }
}
