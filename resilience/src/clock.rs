//! Injected time.
//!
//! Every decision that depends on time (how long a circuit stays open, which
//! refresh period a rate-limiter token belongs to) reads the time from a
//! [`Clock`] handed in at construction, never from `Instant::now()` directly.
//! That is what lets tests be exact: they move a [`ManualClock`] (or tokio's
//! paused clock through [`TokioClock`]) to the instant that matters instead of
//! sleeping and hoping the machine was fast enough.
//!
//! A clock also knows how to *sleep a thread* ([`Clock::sleep`]), because the
//! blocking rate-limiter wait is "sleep until the next refresh": on the
//! manual clock that sleep simply advances the clock, so a blocking test does
//! not wait in real time either.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// A source of the current time, shared by everything a
/// [`Pipeline`](crate::Pipeline) creates.
///
/// # Example
///
/// ```
/// use std::time::Duration;
/// use evident_resilience::{Clock, ManualClock};
///
/// let clock = ManualClock::new();
/// let start = clock.now();
/// clock.advance(Duration::from_secs(60));
/// assert_eq!(clock.now() - start, Duration::from_secs(60));
/// ```
pub trait Clock: Send + Sync + 'static {
    /// The current instant.
    fn now(&self) -> Instant;

    /// Blocks the current thread for `duration` as measured by this clock.
    ///
    /// Used only by blocking waits for a rate-limiter token. The default
    /// sleeps the thread; [`ManualClock`] advances itself instead, so tests of
    /// blocking waits finish at once and exactly.
    fn sleep(&self, duration: Duration) {
        std::thread::sleep(duration);
    }

    /// Blocks the current thread for `duration` as measured by this clock,
    /// unless `interrupt` is raised first (or already was). Returns `true`
    /// when the whole duration passed, `false` when interrupted.
    ///
    /// Used by the blocking client's waits between attempts, which
    /// [`Interrupt::raise`] must end at once (a client being drained). The
    /// default checks the interrupt and then calls [`sleep`](Self::sleep),
    /// so a clock that only overrides `sleep` keeps its own notion of time
    /// but is not woken mid-sleep. [`SystemClock`] and [`TokioClock`] wait on
    /// the interrupt's condvar in real time, so raising it wakes them at
    /// once; [`ManualClock`] advances itself unless the interrupt is already
    /// raised.
    fn sleep_unless(&self, duration: Duration, interrupt: &Interrupt) -> bool {
        if interrupt.is_raised() {
            return false;
        }
        self.sleep(duration);
        true
    }
}

/// A one-way signal that ends blocking waits at once: raised once, it stays
/// raised. Waiters block on a condvar, or park their thread after
/// registering it, so raising wakes them immediately, without polling.
///
/// ```
/// use std::time::Duration;
/// use evident_resilience::{Clock, Interrupt, SystemClock};
///
/// let interrupt = Interrupt::new();
/// std::thread::scope(|s| {
///     let waiter = s.spawn(|| SystemClock.sleep_unless(Duration::from_secs(3600), &interrupt));
///     interrupt.raise();
///     assert!(!waiter.join().unwrap(), "woken, not timed out");
/// });
/// ```
#[derive(Debug, Default)]
pub struct Interrupt {
    /// Set once, with `sleepers` locked and before any registry shard is
    /// emptied, so that a waiter that checks it under either lock and then
    /// waits or registers cannot miss the raise; read without a lock by
    /// [`Interrupt::is_raised`], which every queued bulkhead waiter asks
    /// on each wake-up.
    raised: AtomicBool,
    /// The lock of the condvar that [`Interrupt::wait_timeout`] sleeps on.
    sleepers: Mutex<()>,
    condvar: Condvar,
    /// Threads parked elsewhere (a bulkhead queue) that raising unparks,
    /// spread over shards by thread: every queued blocking call registers
    /// and unregisters once, and with one lock for all of them a client's
    /// waiters queued on each other here as well (measured: about 2 µs of
    /// CPU per wait at 128 threads, `examples/bulkhead_parking`).
    parked: [Mutex<Vec<(u64, std::thread::Thread)>>; REGISTRY_SHARDS],
    next: AtomicU64,
}

/// Shards of the registry of parked threads.
const REGISTRY_SHARDS: usize = 16;

/// A thread's registration with an [`Interrupt`], to unregister with.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Registration {
    shard: usize,
    id: u64,
}

thread_local! {
    /// This thread's shard of every interrupt's registry.
    static SHARD: usize = {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        NEXT.fetch_add(1, Ordering::Relaxed) % REGISTRY_SHARDS
    };
}

impl Interrupt {
    /// A signal not yet raised.
    pub fn new() -> Self {
        Self::default()
    }

    /// Raises the signal and wakes every waiter.
    pub fn raise(&self) {
        {
            let _sleepers = lock(&self.sleepers);
            self.raised.store(true, Ordering::Release);
        }
        self.condvar.notify_all();
        // After the flag: a registration that took a shard's lock before
        // it is emptied here is unparked, and one after sees the flag.
        for shard in &self.parked {
            let parked = std::mem::take(&mut *lock(shard));
            for (_, thread) in parked {
                thread.unpark();
            }
        }
    }

    /// Whether the signal was raised.
    pub fn is_raised(&self) -> bool {
        self.raised.load(Ordering::Acquire)
    }

    /// Waits in real time up to `duration` for the signal; `true` when the
    /// whole duration passed without it.
    pub fn wait_timeout(&self, duration: Duration) -> bool {
        let deadline = Instant::now().checked_add(duration);
        let mut sleepers = lock(&self.sleepers);
        loop {
            if self.is_raised() {
                return false;
            }
            let remaining = match deadline {
                Some(deadline) => deadline.saturating_duration_since(Instant::now()),
                None => Duration::MAX,
            };
            if remaining.is_zero() {
                return true;
            }
            sleepers = self
                .condvar
                .wait_timeout(sleepers, remaining)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    /// Registers the current thread to be unparked when the signal is
    /// raised; `None` if it already is. Unregister with
    /// [`unregister`](Self::unregister).
    pub(crate) fn register_current_thread(&self) -> Option<Registration> {
        let shard = SHARD.try_with(|shard| *shard).unwrap_or(0);
        let mut parked = lock(&self.parked[shard]);
        if self.is_raised() {
            return None;
        }
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        parked.push((id, std::thread::current()));
        Some(Registration { shard, id })
    }

    pub(crate) fn unregister(&self, registration: Registration) {
        lock(&self.parked[registration.shard]).retain(|(id, _)| *id != registration.id);
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The operating system's monotonic clock (`Instant::now()`).
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Instant {
        Instant::now()
    }

    fn sleep_unless(&self, duration: Duration, interrupt: &Interrupt) -> bool {
        interrupt.wait_timeout(duration)
    }
}

/// tokio's clock: `tokio::time::Instant::now()` as a std `Instant`.
///
/// Under `tokio::time::pause()` this clock stands still and moves only when
/// the test (or tokio's auto-advance) moves it, so a circuit breaker driven by
/// it follows paused time exactly like the rate-limiter and bulkhead waits,
/// which sleep on tokio's timer. Outside a paused runtime it is the system
/// clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct TokioClock;

impl Clock for TokioClock {
    fn now(&self) -> Instant {
        tokio::time::Instant::now().into_std()
    }

    fn sleep_unless(&self, duration: Duration, interrupt: &Interrupt) -> bool {
        interrupt.wait_timeout(duration)
    }
}

/// A clock that moves only when told to, for tests.
///
/// Clones share the same time, so a test can keep one handle and give
/// another to the pipeline. Reading and advancing are lock-free.
///
/// ```
/// use std::sync::Arc;
/// use std::time::Duration;
/// use evident_resilience::{Clock, ManualClock};
///
/// let clock = ManualClock::new();
/// let shared: Arc<dyn Clock> = Arc::new(clock.clone());
/// let before = shared.now();
/// clock.advance(Duration::from_millis(250));
/// assert_eq!(shared.now() - before, Duration::from_millis(250));
/// // A blocking sleep on the manual clock advances it instead of waiting.
/// shared.sleep(Duration::from_secs(1));
/// assert_eq!(shared.now() - before, Duration::from_millis(1250));
/// ```
#[derive(Debug, Clone)]
pub struct ManualClock {
    inner: Arc<ManualInner>,
}

#[derive(Debug)]
struct ManualInner {
    base: Instant,
    elapsed_nanos: AtomicU64,
}

impl ManualClock {
    /// A clock starting at the current system instant; it does not move by
    /// itself afterwards.
    pub fn new() -> Self {
        Self::starting_at(Instant::now())
    }

    /// A clock starting at `start`.
    pub fn starting_at(start: Instant) -> Self {
        Self {
            inner: Arc::new(ManualInner {
                base: start,
                elapsed_nanos: AtomicU64::new(0),
            }),
        }
    }

    /// Moves the clock forward by `by` (shared by all clones).
    ///
    /// # Panics
    ///
    /// If the total advance exceeds `u64::MAX` nanoseconds (about 584 years).
    pub fn advance(&self, by: Duration) {
        let nanos = u64::try_from(by.as_nanos()).expect("advance fits in u64 nanoseconds");
        let before = self.inner.elapsed_nanos.fetch_add(nanos, Ordering::SeqCst);
        assert!(
            before.checked_add(nanos).is_some(),
            "ManualClock advanced past u64::MAX nanoseconds"
        );
    }

    /// How far the clock has been advanced since it was created.
    pub fn elapsed(&self) -> Duration {
        Duration::from_nanos(self.inner.elapsed_nanos.load(Ordering::SeqCst))
    }
}

impl Default for ManualClock {
    fn default() -> Self {
        Self::new()
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Instant {
        self.inner.base + self.elapsed()
    }

    fn sleep(&self, duration: Duration) {
        self.advance(duration);
    }

    fn sleep_unless(&self, duration: Duration, interrupt: &Interrupt) -> bool {
        if interrupt.is_raised() {
            return false;
        }
        self.advance(duration);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manual_clock_clones_share_one_time() {
        let a = ManualClock::new();
        let b = a.clone();
        let t0 = b.now();
        a.advance(Duration::from_secs(3));
        assert_eq!(b.now() - t0, Duration::from_secs(3));
    }

    #[test]
    fn manual_clock_sleep_advances_instead_of_blocking() {
        let clock = ManualClock::new();
        clock.sleep(Duration::from_secs(3600));
        assert_eq!(clock.elapsed(), Duration::from_secs(3600));
    }

    #[tokio::test(start_paused = true)]
    async fn tokio_clock_follows_paused_time() {
        let t0 = TokioClock.now();
        tokio::time::advance(Duration::from_secs(5)).await;
        assert_eq!(TokioClock.now() - t0, Duration::from_secs(5));
    }

    #[test]
    fn a_raised_interrupt_wakes_a_system_clock_sleeper_at_once() {
        let interrupt = Interrupt::new();
        let started = Instant::now();
        std::thread::scope(|s| {
            let sleeper =
                s.spawn(|| SystemClock.sleep_unless(Duration::from_secs(3600), &interrupt));
            interrupt.raise();
            assert!(!sleeper.join().unwrap());
        });
        assert!(started.elapsed() < Duration::from_secs(60));
        // Once raised, it stays raised: a later sleep does not start.
        assert!(!SystemClock.sleep_unless(Duration::from_secs(3600), &interrupt));
    }

    #[test]
    fn a_manual_clock_sleeps_by_advancing_unless_interrupted() {
        let clock = ManualClock::new();
        let interrupt = Interrupt::new();
        assert!(clock.sleep_unless(Duration::from_secs(5), &interrupt));
        interrupt.raise();
        assert!(!clock.sleep_unless(Duration::from_secs(5), &interrupt));
        assert_eq!(clock.elapsed(), Duration::from_secs(5));
    }

    #[test]
    fn an_unraised_interrupt_lets_a_short_real_sleep_run_out() {
        assert!(SystemClock.sleep_unless(Duration::from_millis(1), &Interrupt::new()));
    }
}
