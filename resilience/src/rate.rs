//! The rate limiter: N permits per refresh period, with tokens that can be
//! given back.
//!
//! # Model
//!
//! Time is cut into refresh periods (cycles) starting when the limiter is
//! created, as in Resilience4j's `AtomicRateLimiter`: each cycle starts with
//! `limit_for_period` permits; unused ones do not carry over. A caller
//! allowed to wait may *reserve* a permit of a later cycle (the count goes
//! negative) and sleeps until that cycle starts; if the wait would exceed
//! `max_wait` (zero: fail fast) it is rejected with
//! [`LocalRejection::RateLimited`] and nothing is reserved.
//!
//! # Why not `governor`
//!
//! The pipeline must give a token back when the bulkhead behind the limiter
//! rejects, or when the attempt is cancelled before it is sent: otherwise our
//! own back-pressure (or a caller's timeout) silently spends the origin's
//! quota. `governor` (GCRA) has no way to return a cell once it has been
//! admitted, and neither has any other maintained crate we found, so this is
//! a small cycle-counting limiter written for that. A [`RatePermit`] is
//! consumed by an attempt that completed; dropped, it is returned — to the
//! cycle it was taken from, and only while that cycle is current (a token
//! from a past cycle is worthless: the refresh already restored the quota).

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use crate::event::{Component, EventHook, EventKind, emit};
use crate::limit::{Grant, RateLimit, Reservation};
use crate::{Clock, ConfigError, Interrupt, LocalRejection, Origin};

/// Default longest wait for a permit: none (fail fast). The retry loop above
/// the pipeline has its own backoff and overall deadline; a hidden wait here
/// would spend the caller's deadline where no one sees it.
pub const DEFAULT_RATE_LIMITER_MAX_WAIT: Duration = Duration::ZERO;

/// A validated rate-limiter configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RateLimiterConfig {
    limit_for_period: u32,
    refresh_period: Duration,
    max_wait: Duration,
}

impl RateLimiterConfig {
    /// A builder for `limit_for_period` permits every `refresh_period`.
    /// There is no default rate: a sensible one depends on the upstream.
    ///
    /// ```
    /// use std::time::Duration;
    /// use evident_resilience::RateLimiterConfig;
    ///
    /// let config = RateLimiterConfig::builder(100, Duration::from_secs(1))
    ///     .max_wait(Duration::from_millis(50))
    ///     .build()?;
    /// assert_eq!(config.limit_for_period(), 100);
    /// let err = RateLimiterConfig::builder(0, Duration::from_secs(1)).build().unwrap_err();
    /// assert_eq!(err.field(), "limit_for_period");
    /// # Ok::<(), evident_resilience::ConfigError>(())
    /// ```
    pub fn builder(limit_for_period: u32, refresh_period: Duration) -> RateLimiterConfigBuilder {
        RateLimiterConfigBuilder {
            limit_for_period,
            refresh_period,
            max_wait: DEFAULT_RATE_LIMITER_MAX_WAIT,
        }
    }

    /// Permits per refresh period.
    pub fn limit_for_period(&self) -> u32 {
        self.limit_for_period
    }
    /// Length of a refresh period.
    pub fn refresh_period(&self) -> Duration {
        self.refresh_period
    }
    /// Longest wait for a permit (zero: fail fast).
    pub fn max_wait(&self) -> Duration {
        self.max_wait
    }
}

/// Builder for [`RateLimiterConfig`].
#[derive(Debug, Clone)]
pub struct RateLimiterConfigBuilder {
    limit_for_period: u32,
    refresh_period: Duration,
    max_wait: Duration,
}

/// Longest refresh period accepted: a day. Longer "rates" are quotas, which
/// this limiter (which forgets on restart) does not pretend to enforce.
const MAX_REFRESH_PERIOD: Duration = Duration::from_secs(24 * 3600);

impl RateLimiterConfigBuilder {
    /// Longest wait for a permit (zero: fail fast).
    pub fn max_wait(mut self, max_wait: Duration) -> Self {
        self.max_wait = max_wait;
        self
    }

    /// Validates and builds.
    pub fn build(self) -> Result<RateLimiterConfig, ConfigError> {
        if self.limit_for_period == 0 {
            return Err(ConfigError::new(
                "limit_for_period",
                0,
                "at least 1 permit per period",
            ));
        }
        if self.refresh_period.is_zero() || self.refresh_period > MAX_REFRESH_PERIOD {
            return Err(ConfigError::new(
                "refresh_period",
                format!("{:?}", self.refresh_period),
                "a non-zero duration of at most one day",
            ));
        }
        Ok(RateLimiterConfig {
            limit_for_period: self.limit_for_period,
            refresh_period: self.refresh_period,
            max_wait: self.max_wait,
        })
    }
}

/// A snapshot of a limiter's accounting.
///
/// `acquired == consumed + returned + in_flight`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct RateLimiterMetrics {
    /// Permits left in the current cycle (negative: reserved by waiters).
    pub available: i64,
    /// Permits handed out (including reservations).
    pub acquired: u64,
    /// Requests rejected.
    pub rejected: u64,
    /// Permits spent by completed attempts.
    pub consumed: u64,
    /// Permits given back (whether or not their cycle was still current).
    pub returned: u64,
    /// Permits handed out and not yet ended.
    pub in_flight: u64,
}

/// A rate limiter for one origin. Cheap to clone (shared state).
///
/// ```
/// use std::sync::Arc;
/// use std::time::Duration;
/// use evident_resilience::*;
///
/// let clock = ManualClock::new();
/// let config = RateLimiterConfig::builder(1, Duration::from_secs(1)).build()?;
/// let origin = Origin::new(Scheme::Https, "example.com", 443);
/// let limiter = RateLimiter::new(origin, config, Arc::new(clock.clone()));
///
/// let token = limiter.try_acquire()?;
/// assert!(limiter.try_acquire().is_err());   // quota spent
/// drop(token);                               // attempt never made: give it back
/// limiter.try_acquire()?.consume();          // attempt completed: spent
/// assert!(limiter.try_acquire().is_err());
/// clock.advance(Duration::from_secs(1));     // next cycle
/// assert!(limiter.try_acquire().is_ok());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct RateLimiter {
    inner: Arc<RateInner>,
}

impl std::fmt::Debug for RateLimiter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RateLimiter")
            .field("origin", &self.inner.origin)
            .field("metrics", &self.metrics())
            .finish_non_exhaustive()
    }
}

struct RateInner {
    origin: Origin,
    config: RateLimiterConfig,
    clock: Arc<dyn Clock>,
    hook: Option<EventHook>,
    start: Instant,
    core: Mutex<RateCore>,
}

struct RateCore {
    cycle: u64,
    available: i64,
    acquired: u64,
    rejected: u64,
    consumed: u64,
    returned: u64,
}

impl RateInner {
    fn cycle_at(&self, now: Instant) -> u64 {
        let elapsed = now.saturating_duration_since(self.start).as_nanos();
        // Periods are at least 1 ns and at most a day, so this fits in u64
        // for any realistic uptime.
        u64::try_from(elapsed / self.config.refresh_period.as_nanos()).unwrap_or(u64::MAX)
    }

    fn cycle_start(&self, cycle: u64) -> Instant {
        let nanos = self.config.refresh_period.as_nanos() * u128::from(cycle);
        self.start + Duration::from_nanos(u64::try_from(nanos).unwrap_or(u64::MAX))
    }
}

impl RateCore {
    fn refresh(&mut self, cycle: u64, limit: u32) {
        if cycle > self.cycle {
            let limit = i64::from(limit);
            let gained = i64::try_from(cycle - self.cycle)
                .unwrap_or(i64::MAX)
                .saturating_mul(limit);
            self.available = self.available.saturating_add(gained).min(limit);
            self.cycle = cycle;
        }
    }
}

impl RateLimiter {
    /// A limiter for `origin` whose first cycle starts now.
    pub fn new(origin: Origin, config: RateLimiterConfig, clock: Arc<dyn Clock>) -> Self {
        Self::with_hook(origin, config, clock, None)
    }

    /// Like [`new`](Self::new), reporting to `hook` like a pipeline's own
    /// limiters do: for a [`RateLimit`] built outside this crate that
    /// keeps a local limiter (a fallback, say).
    pub fn with_event_hook(
        origin: Origin,
        config: RateLimiterConfig,
        clock: Arc<dyn Clock>,
        hook: Option<EventHook>,
    ) -> Self {
        Self::with_hook(origin, config, clock, hook)
    }

    pub(crate) fn with_hook(
        origin: Origin,
        config: RateLimiterConfig,
        clock: Arc<dyn Clock>,
        hook: Option<EventHook>,
    ) -> Self {
        let start = clock.now();
        let available = i64::from(config.limit_for_period);
        Self {
            inner: Arc::new(RateInner {
                origin,
                config,
                clock,
                hook,
                start,
                core: Mutex::new(RateCore {
                    cycle: 0,
                    available,
                    acquired: 0,
                    rejected: 0,
                    consumed: 0,
                    returned: 0,
                }),
            }),
        }
    }

    /// The origin this limiter guards.
    pub fn origin(&self) -> &Origin {
        &self.inner.origin
    }

    /// The configuration.
    pub fn config(&self) -> &RateLimiterConfig {
        &self.inner.config
    }

    /// This limiter as the pipeline's [`RateLimit`] (the same shared state,
    /// no copy).
    pub fn into_rate_limit(self) -> Arc<dyn RateLimit> {
        self.inner
    }

    /// A permit of the current cycle, or a rejection; never waits.
    pub fn try_acquire(&self) -> Result<RatePermit, LocalRejection> {
        self.reserve(self.inner.clock.now(), Duration::ZERO)
            .map(|(permit, _)| permit)
    }

    /// A permit, waiting up to the configured `max_wait` by sleeping the
    /// thread through the clock ([`Clock::sleep`]).
    pub fn acquire_blocking(&self) -> Result<RatePermit, LocalRejection> {
        self.acquire_blocking_at(self.inner.clock.now(), Duration::MAX, None)
            .map(|(permit, _)| permit)
    }

    /// Like [`acquire_blocking`](Self::acquire_blocking), waiting at most
    /// `max_wait` (or the configured `max_wait`, if shorter).
    pub fn acquire_blocking_within(
        &self,
        max_wait: Duration,
    ) -> Result<RatePermit, LocalRejection> {
        self.acquire_blocking_at(self.inner.clock.now(), max_wait, None)
            .map(|(permit, _)| permit)
    }

    /// Returns the permit and how long it waited. A raised `interrupt`
    /// ends the wait, giving the reserved permit back.
    pub(crate) fn acquire_blocking_at(
        &self,
        now: Instant,
        max_wait: Duration,
        interrupt: Option<&Interrupt>,
    ) -> Result<(RatePermit, Duration), LocalRejection> {
        let (permit, wait) = self.reserve(now, max_wait.min(self.inner.config.max_wait))?;
        if !wait.is_zero() {
            match interrupt {
                Some(interrupt) => {
                    if !self.inner.clock.sleep_unless(wait, interrupt) {
                        drop(permit);
                        return Err(LocalRejection::Interrupted {
                            origin: self.inner.origin.clone(),
                        });
                    }
                }
                None => self.inner.clock.sleep(wait),
            }
        }
        Ok((permit, wait))
    }

    /// A permit, waiting up to the configured `max_wait` on tokio's timer.
    /// Cancelling (dropping) the future while it waits gives the reserved
    /// permit back.
    ///
    /// # Panics
    ///
    /// If it has to wait outside a tokio runtime with the time driver.
    pub async fn acquire(&self) -> Result<RatePermit, LocalRejection> {
        self.acquire_at(self.inner.clock.now(), Duration::MAX)
            .await
            .map(|(permit, _)| permit)
    }

    /// Like [`acquire`](Self::acquire), waiting at most `max_wait` (or the
    /// configured `max_wait`, if shorter).
    pub async fn acquire_within(&self, max_wait: Duration) -> Result<RatePermit, LocalRejection> {
        self.acquire_at(self.inner.clock.now(), max_wait)
            .await
            .map(|(permit, _)| permit)
    }

    /// Returns the permit and how long it waited.
    pub(crate) async fn acquire_at(
        &self,
        now: Instant,
        max_wait: Duration,
    ) -> Result<(RatePermit, Duration), LocalRejection> {
        let (permit, wait) = self.reserve_within(now, max_wait)?;
        if !wait.is_zero() {
            tokio::time::sleep(wait).await;
        }
        Ok((permit, wait))
    }

    /// Takes a permit of the current cycle, or reserves one of a later cycle
    /// if that is at most `max_wait` (or the configured `max_wait`, if
    /// shorter) away; returns it with the wait still to be waited, without
    /// waiting.
    fn reserve_within(
        &self,
        now: Instant,
        max_wait: Duration,
    ) -> Result<(RatePermit, Duration), LocalRejection> {
        self.reserve(now, max_wait.min(self.inner.config.max_wait))
    }

    /// Takes a permit of the current cycle, or reserves one of a later cycle
    /// if that is at most `max_wait` away; returns it with the wait.
    fn reserve(
        &self,
        now: Instant,
        max_wait: Duration,
    ) -> Result<(RatePermit, Duration), LocalRejection> {
        let (cycle, wait) = self.inner.reserve_cycle(now, max_wait)?;
        Ok((
            RatePermit {
                limiter: self.inner.clone(),
                ticket: cycle,
                ended: false,
            },
            wait,
        ))
    }

    /// A snapshot of the accounting, refreshed to now.
    pub fn metrics(&self) -> RateLimiterMetrics {
        self.inner.metrics()
    }
}

impl RateInner {
    fn lock(&self) -> MutexGuard<'_, RateCore> {
        self.core.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn emit(&self, kind: EventKind) {
        emit(&self.hook, &self.origin, Component::RateLimiter, kind);
    }

    /// Takes a permit of the current cycle, or reserves one of a later cycle
    /// if that is at most `max_wait` away; returns its cycle and the wait.
    fn reserve_cycle(
        &self,
        now: Instant,
        max_wait: Duration,
    ) -> Result<(u64, Duration), LocalRejection> {
        let inner = self;
        let limit = inner.config.limit_for_period;
        let current = inner.cycle_at(now);
        let mut core = self.lock();
        core.refresh(current, limit);
        let (cycle, wait) = if core.available > 0 {
            (current, Duration::ZERO)
        } else {
            // Permits of later cycles already reserved, plus this one.
            let needed = core.available.unsigned_abs() + 1;
            let cycle = current + needed.div_ceil(u64::from(limit));
            (
                cycle,
                inner.cycle_start(cycle).saturating_duration_since(now),
            )
        };
        if cycle != current && wait > max_wait {
            core.rejected += 1;
            drop(core);
            self.emit(EventKind::Rejected);
            return Err(LocalRejection::RateLimited {
                origin: inner.origin.clone(),
                next_permit_in: wait,
                max_wait,
            });
        }
        core.available -= 1;
        core.acquired += 1;
        drop(core);
        self.emit(EventKind::Acquired);
        Ok((cycle, wait))
    }

    fn end_cycle(&self, cycle: u64, consumed: bool) {
        let mut core = self.lock();
        if consumed {
            core.consumed += 1;
        } else {
            core.returned += 1;
            let limit = self.config.limit_for_period;
            core.refresh(self.cycle_at(self.clock.now()), limit);
            if cycle >= core.cycle {
                core.available = (core.available + 1).min(i64::from(limit));
            }
        }
        drop(core);
        self.emit(if consumed {
            EventKind::Consumed
        } else {
            EventKind::Released
        });
    }

    /// A snapshot of the accounting, refreshed to now.
    fn metrics(&self) -> RateLimiterMetrics {
        let current = self.cycle_at(self.clock.now());
        let mut core = self.lock();
        core.refresh(current, self.config.limit_for_period);
        RateLimiterMetrics {
            available: core.available,
            acquired: core.acquired,
            rejected: core.rejected,
            consumed: core.consumed,
            returned: core.returned,
            in_flight: core.acquired - core.consumed - core.returned,
        }
    }
}

impl RateLimit for RateInner {
    fn origin(&self) -> &Origin {
        &self.origin
    }

    fn reserve(&self, now: Instant, max_wait: Duration) -> Reservation {
        Reservation::Ready(self.reserve_blocking(now, max_wait))
    }

    fn reserve_blocking(&self, now: Instant, max_wait: Duration) -> Result<Grant, LocalRejection> {
        self.reserve_cycle(now, max_wait.min(self.config.max_wait))
            .map(|(cycle, wait)| Grant::new(cycle, wait))
    }

    fn end(&self, ticket: u64, consumed: bool) {
        self.end_cycle(ticket, consumed);
    }

    fn metrics(&self) -> RateLimiterMetrics {
        RateInner::metrics(self)
    }
}

/// A rate-limiter permit. [`consume`](Self::consume) it when the attempt
/// completed; dropping it gives it back.
#[must_use = "dropping a rate permit gives it back at once"]
pub struct RatePermit {
    limiter: Arc<dyn RateLimit>,
    ticket: u64,
    ended: bool,
}

impl std::fmt::Debug for RatePermit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RatePermit")
            .field("origin", self.limiter.origin())
            .field("ticket", &self.ticket)
            .finish()
    }
}

impl RatePermit {
    /// The permit for `grant`, which `limiter` handed out: it ends the
    /// token through [`RateLimit::end`] exactly once.
    pub fn new(limiter: Arc<dyn RateLimit>, grant: Grant) -> Self {
        Self {
            limiter,
            ticket: grant.ticket(),
            ended: false,
        }
    }

    /// Spends the permit: the attempt it admitted was made.
    pub fn consume(mut self) {
        self.ended = true;
        self.limiter.end(self.ticket, true);
    }
}

impl Drop for RatePermit {
    fn drop(&mut self) {
        if !self.ended {
            self.limiter.end(self.ticket, false);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ManualClock, Scheme};

    const PERIOD: Duration = Duration::from_secs(1);

    fn limiter(limit: u32, max_wait: Duration) -> (RateLimiter, ManualClock) {
        let clock = ManualClock::new();
        let config = RateLimiterConfig::builder(limit, PERIOD)
            .max_wait(max_wait)
            .build()
            .unwrap();
        let origin = Origin::new(Scheme::Https, "upstream.test", 443);
        (
            RateLimiter::new(origin, config, Arc::new(clock.clone())),
            clock,
        )
    }

    #[test]
    fn each_refresh_period_grants_the_limit_and_unused_permits_do_not_carry_over() {
        let (l, clock) = limiter(3, Duration::ZERO);
        for _ in 0..3 {
            l.try_acquire().unwrap().consume();
        }
        assert!(l.try_acquire().is_err());
        clock.advance(PERIOD * 5);
        assert_eq!(l.metrics().available, 3);
        for _ in 0..3 {
            l.try_acquire().unwrap().consume();
        }
        assert!(l.try_acquire().is_err());
    }

    #[test]
    fn a_fail_fast_rejection_says_when_the_next_permit_comes() {
        let (l, clock) = limiter(1, Duration::ZERO);
        l.try_acquire().unwrap().consume();
        clock.advance(Duration::from_millis(300));
        match l.try_acquire() {
            Err(LocalRejection::RateLimited {
                next_permit_in,
                max_wait,
                ..
            }) => {
                assert_eq!(next_permit_in, Duration::from_millis(700));
                assert_eq!(max_wait, Duration::ZERO);
            }
            other => panic!("expected RateLimited, got {other:?}"),
        }
    }

    #[test]
    fn a_returned_permit_is_available_again_in_its_cycle() {
        let (l, _) = limiter(1, Duration::ZERO);
        drop(l.try_acquire().unwrap());
        l.try_acquire().unwrap().consume();
        assert!(l.try_acquire().is_err());
    }

    #[test]
    fn a_permit_returned_after_its_cycle_does_not_raise_the_next_cycle_above_its_limit() {
        let (l, clock) = limiter(2, Duration::ZERO);
        let old = l.try_acquire().unwrap();
        clock.advance(PERIOD);
        drop(old);
        assert_eq!(l.metrics().available, 2);
    }

    #[test]
    fn a_returned_past_permit_does_not_free_a_permit_reserved_for_the_current_cycle() {
        let (l, clock) = limiter(1, PERIOD);
        let old = l.try_acquire().unwrap(); // cycle 0
        let (reserved, wait) = l.reserve(clock.now(), PERIOD).unwrap(); // cycle 1
        assert_eq!(wait, PERIOD);
        clock.advance(PERIOD);
        drop(old);
        assert_eq!(l.metrics().available, 0);
        drop(reserved);
        assert_eq!(l.metrics().available, 1);
    }

    #[test]
    fn blocking_acquire_waits_for_the_next_cycle_within_max_wait() {
        let (l, clock) = limiter(1, Duration::from_secs(1));
        l.try_acquire().unwrap().consume();
        clock.advance(Duration::from_millis(400));
        let permit = l.acquire_blocking().unwrap();
        assert_eq!(
            clock.elapsed(),
            PERIOD,
            "slept exactly until the next cycle"
        );
        permit.consume();
        assert!(l.try_acquire().is_err());
    }

    #[test]
    fn blocking_acquire_rejects_without_waiting_when_the_wait_exceeds_max_wait() {
        let (l, clock) = limiter(1, Duration::from_millis(500));
        l.try_acquire().unwrap().consume();
        assert!(matches!(
            l.acquire_blocking(),
            Err(LocalRejection::RateLimited { .. })
        ));
        assert_eq!(clock.elapsed(), Duration::ZERO);
        assert_eq!(l.metrics().available, 0, "nothing was reserved");
    }

    #[test]
    fn waiters_queue_into_later_cycles() {
        let (l, _) = limiter(2, Duration::from_secs(2));
        let now = l.inner.clock.now();
        let waits: Vec<Duration> = (0..6)
            .map(|_| {
                l.reserve(now, Duration::from_secs(2)).map(|(p, w)| {
                    p.consume();
                    w
                })
            })
            .map(Result::unwrap)
            .collect();
        let s = Duration::from_secs;
        assert_eq!(waits, [s(0), s(0), s(1), s(1), s(2), s(2)]);
        assert!(l.reserve(now, s(2)).is_err());
    }

    #[tokio::test(start_paused = true)]
    async fn async_acquire_waits_on_tokio_time_and_a_cancelled_wait_returns_its_reservation() {
        let clock = crate::TokioClock;
        let config = RateLimiterConfig::builder(1, PERIOD)
            .max_wait(PERIOD)
            .build()
            .unwrap();
        let origin = Origin::new(Scheme::Https, "upstream.test", 443);
        let l = RateLimiter::new(origin, config, Arc::new(clock));
        let t0 = tokio::time::Instant::now();
        l.acquire().await.unwrap().consume();
        // Cancel a waiting acquisition: its reservation is given back.
        let cancelled = tokio::time::timeout(Duration::from_millis(10), l.acquire()).await;
        assert!(cancelled.is_err());
        assert_eq!(l.metrics().available, 0);
        let permit = l.acquire().await.unwrap();
        assert_eq!(tokio::time::Instant::now() - t0, PERIOD);
        permit.consume();
        let m = l.metrics();
        assert_eq!((m.acquired, m.consumed, m.returned), (3, 2, 1));
    }

    #[test]
    fn builder_rejects_out_of_range_values_naming_field_and_value() {
        let err = RateLimiterConfig::builder(0, PERIOD).build().unwrap_err();
        assert_eq!((err.field(), err.value()), ("limit_for_period", "0"));
        let err = RateLimiterConfig::builder(1, Duration::ZERO)
            .build()
            .unwrap_err();
        assert_eq!((err.field(), err.value()), ("refresh_period", "0ns"));
    }

    #[test]
    fn an_interrupted_blocking_wait_gives_its_reservation_back_without_waiting() {
        let (l, clock) = limiter(1, Duration::from_secs(1));
        l.try_acquire().unwrap().consume();
        let interrupt = Interrupt::new();
        interrupt.raise();
        let r = l.acquire_blocking_at(clock.now(), Duration::MAX, Some(&interrupt));
        assert!(matches!(r, Err(LocalRejection::Interrupted { .. })));
        assert_eq!(clock.elapsed(), Duration::ZERO);
        let m = l.metrics();
        assert_eq!(
            (m.available, m.in_flight),
            (0, 0),
            "the reservation was returned"
        );
    }
}
