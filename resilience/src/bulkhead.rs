//! The bulkhead: a cap on concurrent attempts per origin, for async and
//! blocking callers alike.
//!
//! A slow upstream holds its attempts open; without a cap, every caller
//! piles onto it and the process runs out of connections, memory or threads
//! that healthy upstreams need. The bulkhead admits at most `max_concurrent`
//! attempts; others wait up to `max_wait` (zero: fail fast) and are then
//! rejected with [`LocalRejection::BulkheadFull`].
//!
//! Waiting is a FIFO queue, first come first served: a release hands its
//! slot directly to the waiter at the front and wakes that one waiter only
//! (never all of them to race, which burns CPU on every release and lets a
//! newcomer overtake someone who waited longer). A newcomer never takes a
//! free slot while anyone is queued. A waiter that gives up (timed out,
//! cancelled) after a slot was handed to it passes the slot on. Async
//! waiters park their `Waker`, blocking waiters park their thread; one mutex
//! serves both. Async waits time out on tokio's timer, so tests pause time.
//! Blocking waits time out in real time: a parked thread can only be woken
//! by a real timer or another thread, so an injected clock could not end its
//! wait.
//!
//! By default a full bulkhead queues (up to [`DEFAULT_BULKHEAD_MAX_WAIT`],
//! and never past the caller's own bound, see
//! [`Bulkhead::acquire_within`]) instead of rejecting: a healthy burst just
//! above the cap should wait a few milliseconds for a slot, not fail.

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use crate::event::{Component, EventHook, EventKind, emit};
use crate::{ConfigError, Interrupt, LocalRejection, Origin};

/// Default cap on concurrent attempts per origin: 100, the lower bound RFC
/// 9113 (HTTP/2) recommends for `SETTINGS_MAX_CONCURRENT_STREAMS`. One HTTP/2
/// connection usually carries that many streams, so beyond it requests queue
/// inside the engine anyway; below it we would reject what the upstream
/// would happily take. (Resilience4j's 25 is sized for a thread pool.)
pub const DEFAULT_MAX_CONCURRENT_ATTEMPTS: u32 = 100;
/// Default longest wait in the queue for a slot: 30 s, the client's default
/// attempt timeout, since every attempt ahead in the queue ends within one
/// attempt timeout of starting. A healthy burst above the cap then waits for
/// a slot instead of failing (with fail-fast, 128 calls in flight against the
/// cap of 100 saw 20–25% rejections from a healthy server). The client bounds
/// the wait further by the call's remaining deadline.
pub const DEFAULT_BULKHEAD_MAX_WAIT: Duration = Duration::from_secs(30);

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
}

/// How a queued waiter is woken when a slot is handed to it.
enum Wake {
    /// An async waiter's task.
    Task(Waker),
    /// A blocking waiter's thread (parked).
    Thread(std::thread::Thread),
}

impl Wake {
    fn wake(self) {
        match self {
            Wake::Task(waker) => waker.wake(),
            Wake::Thread(thread) => thread.unpark(),
        }
    }
}

struct BulkCore {
    /// Slots held, including slots handed to a waiter that has not yet
    /// picked it up.
    in_use: u32,
    /// Waiters in arrival order. A release hands its slot to the front one.
    queue: VecDeque<(u64, Wake)>,
    /// Waiters a slot was handed to, not yet picked up (at most a few).
    granted: Vec<u64>,
    next_waiter: u64,
    acquired: u64,
    rejected: u64,
    released: u64,
}

impl BulkCore {
    /// Takes a free slot, unless others are queued for one: a newcomer never
    /// overtakes a waiter. (A slot handed to a waiter is already counted in
    /// `in_use`; while anyone is queued, every slot is in use.)
    fn try_take(&mut self, max: u32) -> bool {
        if self.in_use < max && self.queue.is_empty() {
            self.in_use += 1;
            self.acquired += 1;
            true
        } else {
            false
        }
    }

    fn enqueue(&mut self, wake: Wake) -> u64 {
        let id = self.next_waiter;
        self.next_waiter += 1;
        self.queue.push_back((id, wake));
        id
    }

    /// Picks up a slot handed to waiter `id`, if one was.
    fn pick_up(&mut self, id: u64) -> bool {
        match self.granted.iter().position(|g| *g == id) {
            Some(i) => {
                self.granted.swap_remove(i);
                self.acquired += 1;
                true
            }
            None => false,
        }
    }

    /// Gives one slot back: to the first waiter in line if there is one
    /// (returned for waking, outside the lock), else to the pool.
    #[must_use]
    fn give_back(&mut self) -> Option<Wake> {
        match self.queue.pop_front() {
            Some((id, wake)) => {
                self.granted.push(id);
                Some(wake)
            }
            None => {
                self.in_use -= 1;
                None
            }
        }
    }

    /// Waiter `id` stops waiting (timed out or cancelled). If a slot had
    /// been handed to it meanwhile, it is passed on to the next in line.
    #[must_use]
    fn leave(&mut self, id: u64) -> Option<Wake> {
        if let Some(i) = self.granted.iter().position(|g| *g == id) {
            self.granted.swap_remove(i);
            return self.give_back();
        }
        self.queue.retain(|(w, _)| *w != id);
        None
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
                    queue: VecDeque::new(),
                    granted: Vec::new(),
                    next_waiter: 0,
                    acquired: 0,
                    rejected: 0,
                    released: 0,
                }),
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

    /// Whether nothing outside the registry holds this bulkhead (no permit,
    /// no waiter, no acquisition in progress).
    pub(crate) fn is_unshared(&self) -> bool {
        Arc::strong_count(&self.inner) == 1
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

    fn rejection(&self, waited: Duration) -> LocalRejection {
        self.lock().rejected += 1;
        self.emit(EventKind::Rejected);
        LocalRejection::BulkheadFull {
            origin: self.inner.origin.clone(),
            max_concurrent: self.inner.config.max_concurrent,
            max_wait: waited,
        }
    }

    /// A slot now, if one is free and nobody is queued; `None` otherwise,
    /// counting and reporting nothing (the caller goes on to wait, or to
    /// reject through the ordinary path).
    pub(crate) fn try_take_quietly(&self) -> Option<BulkheadPermit> {
        let taken = self.lock().try_take(self.inner.config.max_concurrent);
        taken.then(|| self.granted())
    }

    /// A slot now, or a rejection; never waits (and never overtakes a
    /// queued waiter).
    pub fn try_acquire(&self) -> Result<BulkheadPermit, LocalRejection> {
        let taken = self.lock().try_take(self.inner.config.max_concurrent);
        if taken {
            Ok(self.granted())
        } else {
            Err(self.rejection(Duration::ZERO))
        }
    }

    /// A slot, queueing (first come, first served) up to the configured
    /// `max_wait`, in real time, for one to be released.
    pub fn acquire_blocking(&self) -> Result<BulkheadPermit, LocalRejection> {
        self.acquire_blocking_within(Duration::MAX)
    }

    /// Like [`acquire_blocking`](Self::acquire_blocking), waiting at most
    /// `max_wait` (or the configured `max_wait`, if shorter): a caller with
    /// a deadline never queues past it.
    pub fn acquire_blocking_within(
        &self,
        max_wait: Duration,
    ) -> Result<BulkheadPermit, LocalRejection> {
        self.acquire_blocking_inner(max_wait, None)
    }

    /// Like [`acquire_blocking_within`](Self::acquire_blocking_within), and
    /// raising `interrupt` ends the wait at once with
    /// [`LocalRejection::Interrupted`].
    pub fn acquire_blocking_interruptible(
        &self,
        max_wait: Duration,
        interrupt: &Interrupt,
    ) -> Result<BulkheadPermit, LocalRejection> {
        self.acquire_blocking_inner(max_wait, Some(interrupt))
    }

    fn acquire_blocking_inner(
        &self,
        max_wait: Duration,
        interrupt: Option<&Interrupt>,
    ) -> Result<BulkheadPermit, LocalRejection> {
        let max_wait = max_wait.min(self.inner.config.max_wait);
        let mut core = self.lock();
        if core.try_take(self.inner.config.max_concurrent) {
            drop(core);
            return Ok(self.granted());
        }
        if max_wait.is_zero() {
            drop(core);
            return Err(self.rejection(max_wait));
        }
        // Registered before queueing, so a raise from now on unparks us.
        let registration = match interrupt {
            Some(interrupt) => match interrupt.register_current_thread() {
                Some(id) => Some((interrupt, id)),
                None => return Err(self.interrupted()),
            },
            None => None,
        };
        let deadline = Instant::now().checked_add(max_wait);
        let id = core.enqueue(Wake::Thread(std::thread::current()));
        let outcome = loop {
            if core.pick_up(id) {
                drop(core);
                break Ok(());
            }
            let remaining = match deadline {
                Some(deadline) => deadline.saturating_duration_since(Instant::now()),
                None => Duration::MAX,
            };
            let interrupted = interrupt.is_some_and(Interrupt::is_raised);
            if remaining.is_zero() || interrupted {
                let next = core.leave(id);
                drop(core);
                if let Some(next) = next {
                    next.wake();
                }
                break Err(interrupted);
            }
            drop(core);
            // Spurious wake-ups are fine: the loop re-checks under the lock.
            std::thread::park_timeout(remaining);
            core = self.lock();
        };
        if let Some((interrupt, id)) = registration {
            interrupt.unregister(id);
        }
        match outcome {
            Ok(()) => Ok(self.granted()),
            Err(true) => Err(self.interrupted()),
            Err(false) => Err(self.rejection(max_wait)),
        }
    }

    fn interrupted(&self) -> LocalRejection {
        LocalRejection::Interrupted {
            origin: self.inner.origin.clone(),
        }
    }

    /// A slot, queueing (first come, first served) up to the configured
    /// `max_wait` on tokio's timer. Dropping the future while it waits
    /// leaves no trace; a slot handed to it meanwhile goes to the next in
    /// line.
    ///
    /// # Panics
    ///
    /// If it has to wait outside a tokio runtime with the time driver.
    pub async fn acquire(&self) -> Result<BulkheadPermit, LocalRejection> {
        self.acquire_within(Duration::MAX).await
    }

    /// Like [`acquire`](Self::acquire), waiting at most `max_wait` (or the
    /// configured `max_wait`, if shorter): a caller with a deadline never
    /// queues past it.
    pub async fn acquire_within(
        &self,
        max_wait: Duration,
    ) -> Result<BulkheadPermit, LocalRejection> {
        let max_wait = max_wait.min(self.inner.config.max_wait);
        if max_wait.is_zero() {
            let taken = self.lock().try_take(self.inner.config.max_concurrent);
            return if taken {
                Ok(self.granted())
            } else {
                Err(self.rejection(max_wait))
            };
        }
        let wait = SlotWait {
            bulkhead: self,
            id: None,
            done: false,
        };
        match tokio::time::timeout(max_wait, wait).await {
            Ok(()) => Ok(self.granted()),
            Err(_elapsed) => Err(self.rejection(max_wait)),
        }
    }

    fn release(&self) {
        let mut core = self.lock();
        core.released += 1;
        let next = core.give_back();
        drop(core);
        // One release wakes at most one waiter: the slot is already its.
        if let Some(next) = next {
            next.wake();
        }
        self.emit(EventKind::Released);
    }

    /// A snapshot of the accounting.
    pub fn metrics(&self) -> BulkheadMetrics {
        let core = self.lock();
        BulkheadMetrics {
            in_use: core.in_use,
            waiting: u32::try_from(core.queue.len()).unwrap_or(u32::MAX),
            acquired: core.acquired,
            rejected: core.rejected,
            released: core.released,
        }
    }
}

/// Resolves when it holds a slot (counted in `in_use`; the caller wraps it
/// in a permit).
struct SlotWait<'a> {
    bulkhead: &'a Bulkhead,
    /// Set while queued.
    id: Option<u64>,
    /// Set once the slot was taken (so drop gives nothing back).
    done: bool,
}

impl Future for SlotWait<'_> {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let bulkhead = self.bulkhead;
        let mut core = bulkhead.lock();
        match self.id {
            None => {
                if core.try_take(bulkhead.inner.config.max_concurrent) {
                    self.done = true;
                    return Poll::Ready(());
                }
                let id = core.enqueue(Wake::Task(cx.waker().clone()));
                self.id = Some(id);
                Poll::Pending
            }
            Some(id) => {
                if core.pick_up(id) {
                    self.done = true;
                    return Poll::Ready(());
                }
                if let Some((_, Wake::Task(waker))) = core.queue.iter_mut().find(|(w, _)| *w == id)
                {
                    waker.clone_from(cx.waker());
                }
                Poll::Pending
            }
        }
    }
}

impl Drop for SlotWait<'_> {
    fn drop(&mut self) {
        if let (Some(id), false) = (self.id, self.done) {
            let next = self.bulkhead.lock().leave(id);
            if let Some(next) = next {
                next.wake();
            }
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

    /// A waker that counts its wake-ups.
    #[derive(Default)]
    struct CountingWaker(std::sync::atomic::AtomicUsize);

    impl std::task::Wake for CountingWaker {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
    }

    impl CountingWaker {
        fn count(&self) -> usize {
            self.0.load(std::sync::atomic::Ordering::SeqCst)
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_release_hands_its_slot_to_the_longest_waiter_and_wakes_only_that_one() {
        let b = bulkhead(1, Duration::from_secs(10));
        let held = b.try_acquire().unwrap();
        let wakers: Vec<Arc<CountingWaker>> = (0..3).map(|_| Arc::default()).collect();
        let mut waits: Vec<_> = (0..3).map(|_| Box::pin(b.acquire())).collect();
        for (wait, waker) in waits.iter_mut().zip(&wakers) {
            let waker = std::task::Waker::from(waker.clone());
            let mut cx = Context::from_waker(&waker);
            assert!(wait.as_mut().poll(&mut cx).is_pending());
        }
        assert_eq!(b.metrics().waiting, 3);
        // A newcomer does not overtake the queue, even for a free slot.
        drop(held);
        assert!(b.try_acquire().is_err(), "the slot is the first waiter's");
        let counts = || wakers.iter().map(|w| w.count()).collect::<Vec<_>>();
        assert_eq!(counts(), [1, 0, 0], "one release wakes one waiter");
        let waker = std::task::Waker::from(wakers[0].clone());
        let mut cx = Context::from_waker(&waker);
        let first = match waits[0].as_mut().poll(&mut cx) {
            Poll::Ready(permit) => permit.unwrap(),
            Poll::Pending => panic!("the first waiter holds the released slot"),
        };
        // The second in line is next, and only it is woken.
        drop(first);
        assert_eq!(counts(), [1, 1, 0]);
        // A woken waiter that gives up passes its slot on to the next.
        drop(waits.remove(1));
        assert_eq!(counts(), [1, 1, 1]);
        let waker = std::task::Waker::from(wakers[2].clone());
        let mut cx = Context::from_waker(&waker);
        let last = waits.pop().unwrap().as_mut().poll(&mut cx);
        assert!(matches!(last, Poll::Ready(Ok(_))));
        drop(last);
        drop(waits);
        let m = b.metrics();
        assert_eq!((m.in_use, m.waiting, m.rejected), (0, 0, 1));
    }

    #[test]
    fn blocking_waiters_are_served_in_arrival_order() {
        let b = bulkhead(1, Duration::from_secs(3600));
        let held = b.try_acquire().unwrap();
        let order = Mutex::new(Vec::new());
        std::thread::scope(|s| {
            let mut threads = Vec::new();
            for i in 0..3u32 {
                let (b, order) = (&b, &order);
                threads.push(s.spawn(move || {
                    let permit = b.acquire_blocking().unwrap();
                    order.lock().unwrap().push(i);
                    drop(permit);
                }));
                // Queue them one after the other.
                wait_until_waiting(b, i + 1);
            }
            drop(held);
            for t in threads {
                t.join().unwrap();
            }
        });
        assert_eq!(*order.lock().unwrap(), [0, 1, 2]);
    }

    #[test]
    fn many_blocking_waiters_are_served_in_arrival_order() {
        // Each release hands its slot to the longest waiter, whose own
        // release then hands it to the next: the order is the queue's.
        let b = bulkhead(1, Duration::from_secs(3600));
        let held = b.try_acquire().unwrap();
        let order = Mutex::new(Vec::new());
        std::thread::scope(|s| {
            for i in 0..16u32 {
                let (b, order) = (&b, &order);
                s.spawn(move || {
                    let permit = b.acquire_blocking().unwrap();
                    order.lock().unwrap().push(i);
                    drop(permit);
                });
                wait_until_waiting(b, i + 1);
            }
            drop(held);
        });
        assert_eq!(order.into_inner().unwrap(), (0..16).collect::<Vec<_>>());
        let m = b.metrics();
        assert_eq!(
            (m.in_use, m.waiting, m.acquired, m.released),
            (0, 0, 17, 17)
        );
    }

    #[test]
    fn one_raise_wakes_every_queued_blocking_waiter_on_every_thread() {
        // More waiters than the interrupt has registry shards, each on its
        // own thread: a raise must reach every shard. A waiter it missed
        // would sleep until its wait ran out (a minute; it then sees the
        // raise and also ends Interrupted): the joins must come long before.
        const WAITERS: u32 = 40;
        const MAX_WAIT: Duration = Duration::from_secs(60);
        let b = bulkhead(1, MAX_WAIT);
        let held = b.try_acquire().unwrap();
        let interrupt = Interrupt::new();
        std::thread::scope(|s| {
            let waiters: Vec<_> = (0..WAITERS)
                .map(|_| s.spawn(|| b.acquire_blocking_interruptible(Duration::MAX, &interrupt)))
                .collect();
            wait_until_waiting(&b, WAITERS);
            let raised = Instant::now();
            interrupt.raise();
            for waiter in waiters {
                let outcome = waiter.join().unwrap();
                assert!(
                    matches!(outcome, Err(LocalRejection::Interrupted { .. })),
                    "{outcome:?}"
                );
            }
            assert!(
                raised.elapsed() < MAX_WAIT / 2,
                "a waiter slept through the raise"
            );
        });
        let m = b.metrics();
        assert_eq!((m.in_use, m.waiting), (1, 0), "only the held slot");
        // A wait that starts after the raise is refused at once.
        let late = b.acquire_blocking_interruptible(Duration::MAX, &interrupt);
        assert!(
            matches!(late, Err(LocalRejection::Interrupted { .. })),
            "{late:?}"
        );
        drop(held);
    }

    #[test]
    fn a_blocking_waiter_handed_a_slot_as_it_is_interrupted_keeps_the_slot() {
        let b = bulkhead(1, Duration::from_secs(3600));
        let held = b.try_acquire().unwrap();
        let interrupt = Interrupt::new();
        std::thread::scope(|s| {
            let waiter = s.spawn(|| b.acquire_blocking_interruptible(Duration::MAX, &interrupt));
            wait_until_waiting(&b, 1);
            // The slot is handed over before the raise: whichever the
            // waiter sees first, it leaves with the slot.
            drop(held);
            interrupt.raise();
            let permit = waiter.join().unwrap().expect("the slot was its own");
            assert_eq!(b.metrics().in_use, 1);
            drop(permit);
        });
        let m = b.metrics();
        assert_eq!((m.in_use, m.waiting, m.acquired, m.released), (0, 0, 2, 2));
    }

    #[test]
    fn blocking_waiters_that_time_out_never_leak_a_slot() {
        // Waits so short that many end while a release hands them a slot:
        // each such slot is either taken or passed on, never lost.
        let b = bulkhead(2, Duration::from_micros(200));
        let (granted, rejected) = (
            std::sync::atomic::AtomicU64::new(0),
            std::sync::atomic::AtomicU64::new(0),
        );
        std::thread::scope(|s| {
            for _ in 0..8 {
                s.spawn(|| {
                    for _ in 0..300 {
                        match b.acquire_blocking() {
                            Ok(permit) => {
                                granted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                                std::thread::yield_now();
                                drop(permit);
                            }
                            Err(LocalRejection::BulkheadFull { .. }) => {
                                rejected.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            }
                            Err(other) => panic!("{other:?}"),
                        }
                    }
                });
            }
        });
        let m = b.metrics();
        assert_eq!(
            (m.in_use, m.waiting),
            (0, 0),
            "no slot kept, no waiter left"
        );
        assert_eq!(m.acquired, granted.into_inner());
        assert_eq!(m.released, m.acquired);
        assert_eq!(m.rejected, rejected.into_inner());
        assert_eq!(m.acquired + m.rejected, 8 * 300);
        // Every slot is free again: both can be taken at once.
        let _both = (b.try_acquire().unwrap(), b.try_acquire().unwrap());
    }

    #[tokio::test(start_paused = true)]
    async fn the_default_bulkhead_queues_a_burst_above_its_cap_instead_of_rejecting() {
        let b = Bulkhead::new(
            Origin::new(Scheme::Https, "upstream.test", 443),
            BulkheadConfig::default(),
        );
        let burst = DEFAULT_MAX_CONCURRENT_ATTEMPTS as usize + 28;
        let tasks: Vec<_> = (0..burst)
            .map(|_| {
                let b = b.clone();
                tokio::spawn(async move {
                    let permit = b.acquire().await?;
                    // A healthy upstream answers in 10 ms.
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    drop(permit);
                    Ok::<(), LocalRejection>(())
                })
            })
            .collect();
        for task in tasks {
            task.await.unwrap().unwrap();
        }
        let m = b.metrics();
        assert_eq!((m.acquired, m.rejected, m.in_use), (burst as u64, 0, 0));
    }

    #[test]
    fn raising_the_interrupt_ends_a_blocking_queue_wait_at_once() {
        let b = bulkhead(1, Duration::from_secs(3600));
        let held = b.try_acquire().unwrap();
        let interrupt = Interrupt::new();
        std::thread::scope(|s| {
            let waiter = s.spawn(|| b.acquire_blocking_interruptible(Duration::MAX, &interrupt));
            wait_until_waiting(&b, 1);
            interrupt.raise();
            assert!(matches!(
                waiter.join().unwrap(),
                Err(LocalRejection::Interrupted { .. })
            ));
        });
        assert_eq!(b.metrics().waiting, 0);
        // Raised already: no wait starts at all.
        assert!(matches!(
            b.acquire_blocking_interruptible(Duration::MAX, &interrupt),
            Err(LocalRejection::Interrupted { .. })
        ));
        drop(held);
        assert_eq!(b.metrics().in_use, 0);
    }

    #[tokio::test(start_paused = true)]
    async fn a_free_slot_is_taken_even_while_a_handed_over_slot_awaits_pick_up() {
        let b = bulkhead(2, Duration::from_secs(10));
        let (s1, s2) = (b.try_acquire().unwrap(), b.try_acquire().unwrap());
        let waker = Arc::new(CountingWaker::default());
        let waker = std::task::Waker::from(waker);
        let mut cx = Context::from_waker(&waker);
        let mut queued = Box::pin(b.acquire());
        assert!(queued.as_mut().poll(&mut cx).is_pending());
        drop(s1); // handed to the queued waiter, not yet picked up
        drop(s2); // nobody queued: free
        assert!(b.try_acquire().is_ok(), "the free slot is not held back");
        assert!(matches!(queued.as_mut().poll(&mut cx), Poll::Ready(Ok(_))));
    }
}
