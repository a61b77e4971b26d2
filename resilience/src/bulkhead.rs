//! The bulkhead: a cap on concurrent attempts per origin, for async and
//! blocking callers alike.
//!
//! A slow upstream holds its attempts open; without a cap, every caller
//! piles onto it and the process runs out of connections, memory or threads
//! that healthy upstreams need. The bulkhead admits at most `max_concurrent`
//! attempts; others wait up to `max_wait` (zero: fail fast) and are then
//! rejected with [`LocalRejection::BulkheadFull`].
//!
//! One mutex-protected count serves both worlds: async waiters park their
//! `Waker`, blocking waiters sleep on a condvar, and a release wakes them all
//! to race for the slot (simple, and no wake-up can be lost when a woken
//! waiter is cancelled). Async waits time out on tokio's timer, so tests
//! pause time. Blocking waits time out on the condvar, in real time: a
//! parked thread can only be woken by a real timer or another thread, so an
//! injected clock could not end its wait.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use crate::event::{Component, EventHook, EventKind, emit};
use crate::{ConfigError, LocalRejection, Origin};

/// Default cap on concurrent attempts per origin: 100, the lower bound RFC
/// 9113 (HTTP/2) recommends for `SETTINGS_MAX_CONCURRENT_STREAMS`. One HTTP/2
/// connection usually carries that many streams, so beyond it requests queue
/// inside the engine anyway; below it we would reject what the upstream
/// would happily take. (Resilience4j's 25 is sized for a thread pool.)
pub const DEFAULT_MAX_CONCURRENT_ATTEMPTS: u32 = 100;
/// Default wait for a slot: none (fail fast), Resilience4j's default. The
/// retry loop above has its own backoff and deadline.
pub const DEFAULT_BULKHEAD_MAX_WAIT: Duration = Duration::ZERO;

/// A validated bulkhead configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BulkheadConfig {
    max_concurrent: u32,
    max_wait: Duration,
}

impl Default for BulkheadConfig {
    fn default() -> Self {
        Self {
            max_concurrent: DEFAULT_MAX_CONCURRENT_ATTEMPTS,
            max_wait: DEFAULT_BULKHEAD_MAX_WAIT,
        }
    }
}

impl BulkheadConfig {
    /// A builder starting from the defaults.
    ///
    /// ```
    /// use std::time::Duration;
    /// use evident_resilience::BulkheadConfig;
    ///
    /// let config = BulkheadConfig::builder()
    ///     .max_concurrent(8)
    ///     .max_wait(Duration::from_millis(100))
    ///     .build()?;
    /// assert_eq!(config.max_concurrent(), 8);
    /// assert_eq!(BulkheadConfig::builder().max_concurrent(0).build().unwrap_err().field(), "max_concurrent");
    /// # Ok::<(), evident_resilience::ConfigError>(())
    /// ```
    pub fn builder() -> BulkheadConfigBuilder {
        BulkheadConfigBuilder {
            max_concurrent: DEFAULT_MAX_CONCURRENT_ATTEMPTS,
            max_wait: DEFAULT_BULKHEAD_MAX_WAIT,
        }
    }

    /// Maximum concurrent attempts.
    pub fn max_concurrent(&self) -> u32 {
        self.max_concurrent
    }
    /// Longest wait for a slot (zero: fail fast).
    pub fn max_wait(&self) -> Duration {
        self.max_wait
    }
}

/// Builder for [`BulkheadConfig`].
#[derive(Debug, Clone)]
pub struct BulkheadConfigBuilder {
    max_concurrent: u32,
    max_wait: Duration,
}

impl BulkheadConfigBuilder {
    /// Maximum concurrent attempts, at least 1.
    pub fn max_concurrent(mut self, max: u32) -> Self {
        self.max_concurrent = max;
        self
    }
    /// Longest wait for a slot (zero: fail fast).
    pub fn max_wait(mut self, max_wait: Duration) -> Self {
        self.max_wait = max_wait;
        self
    }
    /// Validates and builds.
    pub fn build(self) -> Result<BulkheadConfig, ConfigError> {
        if self.max_concurrent == 0 {
            return Err(ConfigError::new(
                "max_concurrent",
                0,
                "at least 1 concurrent attempt",
            ));
        }
        Ok(BulkheadConfig {
            max_concurrent: self.max_concurrent,
            max_wait: self.max_wait,
        })
    }
}

/// A snapshot of a bulkhead's accounting. `acquired == released + in_use`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct BulkheadMetrics {
    /// Slots held now.
    pub in_use: u32,
    /// Callers waiting for a slot now (async and blocking).
    pub waiting: u32,
    /// Slots handed out.
    pub acquired: u64,
    /// Requests rejected.
    pub rejected: u64,
    /// Slots given back.
    pub released: u64,
}

/// A bulkhead for one origin. Cheap to clone (shared state).
///
/// ```
/// use evident_resilience::*;
///
/// let config = BulkheadConfig::builder().max_concurrent(1).build()?;
/// let bulkhead = Bulkhead::new(Origin::new(Scheme::Http, "localhost", 8080), config);
/// let slot = bulkhead.try_acquire()?;
/// assert!(matches!(bulkhead.try_acquire(), Err(LocalRejection::BulkheadFull { .. })));
/// drop(slot);
/// assert!(bulkhead.try_acquire().is_ok());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Bulkhead {
    inner: Arc<BulkheadInner>,
}

impl std::fmt::Debug for Bulkhead {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bulkhead")
            .field("origin", &self.inner.origin)
            .field("metrics", &self.metrics())
            .finish_non_exhaustive()
    }
}

struct BulkheadInner {
    origin: Origin,
    config: BulkheadConfig,
    hook: Option<EventHook>,
    core: Mutex<BulkCore>,
    released: Condvar,
}

struct BulkCore {
    in_use: u32,
    /// Parked async waiters, by id.
    wakers: Vec<(u64, Waker)>,
    next_waiter: u64,
    async_waiting: u32,
    blocking_waiting: u32,
    acquired: u64,
    rejected: u64,
    released: u64,
}

impl BulkCore {
    fn try_take(&mut self, max: u32) -> bool {
        if self.in_use < max {
            self.in_use += 1;
            self.acquired += 1;
            true
        } else {
            false
        }
    }
}

impl Bulkhead {
    /// An empty bulkhead for `origin`.
    pub fn new(origin: Origin, config: BulkheadConfig) -> Self {
        Self::with_hook(origin, config, None)
    }

    pub(crate) fn with_hook(
        origin: Origin,
        config: BulkheadConfig,
        hook: Option<EventHook>,
    ) -> Self {
        Self {
            inner: Arc::new(BulkheadInner {
                origin,
                config,
                hook,
                core: Mutex::new(BulkCore {
                    in_use: 0,
                    wakers: Vec::new(),
                    next_waiter: 0,
                    async_waiting: 0,
                    blocking_waiting: 0,
                    acquired: 0,
                    rejected: 0,
                    released: 0,
                }),
                released: Condvar::new(),
            }),
        }
    }

    /// The origin this bulkhead guards.
    pub fn origin(&self) -> &Origin {
        &self.inner.origin
    }

    /// The configuration.
    pub fn config(&self) -> &BulkheadConfig {
        &self.inner.config
    }

    fn lock(&self) -> MutexGuard<'_, BulkCore> {
        self.inner
            .core
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    fn emit(&self, kind: EventKind) {
        emit(
            &self.inner.hook,
            &self.inner.origin,
            Component::Bulkhead,
            kind,
        );
    }

    fn granted(&self) -> BulkheadPermit {
        self.emit(EventKind::Acquired);
        BulkheadPermit {
            bulkhead: self.clone(),
        }
    }

    fn rejection(&self) -> LocalRejection {
        self.lock().rejected += 1;
        self.emit(EventKind::Rejected);
        LocalRejection::BulkheadFull {
            origin: self.inner.origin.clone(),
            max_concurrent: self.inner.config.max_concurrent,
            max_wait: self.inner.config.max_wait,
        }
    }

    /// A slot now, or a rejection; never waits.
    pub fn try_acquire(&self) -> Result<BulkheadPermit, LocalRejection> {
        let taken = self.lock().try_take(self.inner.config.max_concurrent);
        if taken {
            Ok(self.granted())
        } else {
            Err(self.rejection())
        }
    }

    /// A slot, waiting on a condvar up to the configured `max_wait` (real
    /// time) for one to be released.
    pub fn acquire_blocking(&self) -> Result<BulkheadPermit, LocalRejection> {
        let max = self.inner.config.max_concurrent;
        let mut core = self.lock();
        if core.try_take(max) {
            drop(core);
            return Ok(self.granted());
        }
        let max_wait = self.inner.config.max_wait;
        if max_wait.is_zero() {
            drop(core);
            return Err(self.rejection());
        }
        let deadline = Instant::now().checked_add(max_wait);
        core.blocking_waiting += 1;
        let taken = loop {
            let remaining = match deadline {
                Some(deadline) => deadline.saturating_duration_since(Instant::now()),
                None => Duration::MAX,
            };
            if remaining.is_zero() {
                break false;
            }
            core = self
                .inner
                .released
                .wait_timeout(core, remaining)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
            if core.try_take(max) {
                break true;
            }
        };
        core.blocking_waiting -= 1;
        drop(core);
        if taken {
            Ok(self.granted())
        } else {
            Err(self.rejection())
        }
    }

    /// A slot, waiting up to the configured `max_wait` on tokio's timer.
    /// Dropping the future while it waits leaves no trace.
    ///
    /// # Panics
    ///
    /// If it has to wait outside a tokio runtime with the time driver.
    pub async fn acquire(&self) -> Result<BulkheadPermit, LocalRejection> {
        let max_wait = self.inner.config.max_wait;
        if max_wait.is_zero() {
            return self.try_acquire();
        }
        let wait = SlotWait {
            bulkhead: self,
            id: None,
        };
        match tokio::time::timeout(max_wait, wait).await {
            Ok(()) => Ok(self.granted()),
            Err(_elapsed) => Err(self.rejection()),
        }
    }

    fn release(&self) {
        let mut core = self.lock();
        core.in_use -= 1;
        core.released += 1;
        for (_, waker) in core.wakers.drain(..) {
            waker.wake();
        }
        let notify = core.blocking_waiting > 0;
        drop(core);
        if notify {
            self.inner.released.notify_all();
        }
        self.emit(EventKind::Released);
    }

    /// A snapshot of the accounting.
    pub fn metrics(&self) -> BulkheadMetrics {
        let core = self.lock();
        BulkheadMetrics {
            in_use: core.in_use,
            waiting: core.async_waiting + core.blocking_waiting,
            acquired: core.acquired,
            rejected: core.rejected,
            released: core.released,
        }
    }
}

/// Resolves when it has taken a slot (counted in `in_use`; the caller wraps
/// it in a permit).
struct SlotWait<'a> {
    bulkhead: &'a Bulkhead,
    /// Set while registered as waiting.
    id: Option<u64>,
}

impl Future for SlotWait<'_> {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let bulkhead = self.bulkhead;
        let mut core = bulkhead.lock();
        if core.try_take(bulkhead.inner.config.max_concurrent) {
            if let Some(id) = self.id.take() {
                core.async_waiting -= 1;
                core.wakers.retain(|(w, _)| *w != id);
            }
            return Poll::Ready(());
        }
        let id = match self.id {
            Some(id) => id,
            None => {
                let id = core.next_waiter;
                core.next_waiter += 1;
                core.async_waiting += 1;
                self.id = Some(id);
                id
            }
        };
        match core.wakers.iter_mut().find(|(w, _)| *w == id) {
            Some((_, waker)) => waker.clone_from(cx.waker()),
            None => core.wakers.push((id, cx.waker().clone())),
        }
        Poll::Pending
    }
}

impl Drop for SlotWait<'_> {
    fn drop(&mut self) {
        if let Some(id) = self.id {
            let mut core = self.bulkhead.lock();
            core.async_waiting -= 1;
            core.wakers.retain(|(w, _)| *w != id);
        }
    }
}

/// A bulkhead slot, given back when dropped.
#[must_use = "dropping a bulkhead slot gives it back at once"]
pub struct BulkheadPermit {
    bulkhead: Bulkhead,
}

impl std::fmt::Debug for BulkheadPermit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BulkheadPermit")
            .field("origin", self.bulkhead.origin())
            .finish()
    }
}

impl Drop for BulkheadPermit {
    fn drop(&mut self) {
        self.bulkhead.release();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Scheme;

    fn bulkhead(max: u32, max_wait: Duration) -> Bulkhead {
        let config = BulkheadConfig::builder()
            .max_concurrent(max)
            .max_wait(max_wait)
            .build()
            .unwrap();
        Bulkhead::new(Origin::new(Scheme::Https, "upstream.test", 443), config)
    }

    fn wait_until_waiting(b: &Bulkhead, n: u32) {
        // Synchronisation, not a sleep: the waiter registers under the lock
        // before it parks, so this observes a fact rather than a guess.
        while b.metrics().waiting < n {
            std::thread::yield_now();
        }
    }

    #[test]
    fn fail_fast_bulkhead_rejects_at_capacity_and_admits_after_a_release() {
        let b = bulkhead(2, Duration::ZERO);
        let s1 = b.try_acquire().unwrap();
        let _s2 = b.acquire_blocking().unwrap();
        assert!(matches!(
            b.acquire_blocking(),
            Err(LocalRejection::BulkheadFull {
                max_concurrent: 2,
                ..
            })
        ));
        drop(s1);
        assert!(b.try_acquire().is_ok());
        let m = b.metrics();
        assert_eq!((m.acquired, m.released, m.rejected, m.in_use), (3, 2, 1, 1));
    }

    #[test]
    fn blocking_waiter_gets_the_slot_released_by_another_thread() {
        let b = bulkhead(1, Duration::from_secs(3600));
        let held = b.try_acquire().unwrap();
        std::thread::scope(|s| {
            let waiter = s.spawn(|| b.acquire_blocking().map(drop));
            wait_until_waiting(&b, 1);
            drop(held);
            waiter.join().unwrap().unwrap();
        });
        assert_eq!(b.metrics().in_use, 0);
    }

    #[test]
    fn blocking_waiter_is_rejected_when_its_wait_runs_out() {
        let max_wait = Duration::from_millis(5);
        let b = bulkhead(1, max_wait);
        let _held = b.try_acquire().unwrap();
        let started = Instant::now();
        assert!(matches!(
            b.acquire_blocking(),
            Err(LocalRejection::BulkheadFull { .. })
        ));
        assert!(started.elapsed() >= max_wait);
        assert_eq!(b.metrics().waiting, 0);
    }

    #[tokio::test(start_paused = true)]
    async fn async_waiter_gets_a_slot_released_within_its_wait() {
        let b = bulkhead(1, Duration::from_secs(10));
        let held = b.try_acquire().unwrap();
        let b2 = b.clone();
        let waiter = tokio::spawn(async move { b2.acquire().await.map(drop) });
        while b.metrics().waiting == 0 {
            tokio::task::yield_now().await;
        }
        tokio::time::advance(Duration::from_secs(9)).await;
        drop(held);
        waiter.await.unwrap().unwrap();
        let m = b.metrics();
        assert_eq!(
            (m.acquired, m.released, m.rejected, m.waiting),
            (2, 2, 0, 0)
        );
    }

    #[tokio::test(start_paused = true)]
    async fn async_waiter_times_out_exactly_at_max_wait() {
        let b = bulkhead(1, Duration::from_secs(10));
        let _held = b.try_acquire().unwrap();
        let t0 = tokio::time::Instant::now();
        assert!(matches!(
            b.acquire().await,
            Err(LocalRejection::BulkheadFull { .. })
        ));
        assert_eq!(tokio::time::Instant::now() - t0, Duration::from_secs(10));
        assert_eq!(b.metrics().waiting, 0);
    }

    #[tokio::test(start_paused = true)]
    async fn a_cancelled_async_waiter_leaves_no_registration_behind() {
        let b = bulkhead(1, Duration::from_secs(10));
        let held = b.try_acquire().unwrap();
        let b2 = b.clone();
        let waiter = tokio::spawn(async move { b2.acquire().await.map(drop) });
        while b.metrics().waiting == 0 {
            tokio::task::yield_now().await;
        }
        waiter.abort();
        assert!(waiter.await.unwrap_err().is_cancelled());
        assert_eq!(b.metrics().waiting, 0);
        drop(held);
        assert_eq!(b.metrics().in_use, 0);
    }
}
