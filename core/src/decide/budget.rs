//! The retry budget: a fleet-friendly cap on the extra load retries add.
//!
//! Why budgets and not only max attempts? A per-call attempt limit bounds
//! one call, not the fleet: when an upstream degrades, every client retries
//! every call and multiplies the load exactly when the upstream can least
//! take it. A budget lets retries add at most a fraction (`ratio`) of recent
//! requests, plus a small floor per second so that low-traffic clients can
//! still retry (Finagle's `RetryBudget`, gRPC's retry throttling).
//!
//! Why not tower's `TpsBudget`? It reads tokio's clock internally, so the
//! blocking client (which runs without a tokio runtime) could not drive it,
//! and tests could not inject time for it. This one takes `now` as an
//! argument and is otherwise the same idea: a sliding window of slots.
//!
//! The decision consults the budget **last**, and withdraws only when the
//! answer is "retry": a stopped decision never spends budget.
//!
//! # No lock on the hot path
//!
//! Every call deposits and every retry withdraws, from every task of a
//! client at once, so the budget is lock-free:
//!
//! * The window is a ring of [`SLOTS`] slots, each slot one tenth of the
//!   window. A slot is one `AtomicU64` packing *which period* it counts
//!   (periods are slot lengths since the first `now` seen) with its count.
//!   A slot holding an older period is simply out of the window: nothing
//!   needs clearing, and a deposit into a reused slot swaps the period and
//!   restarts the count in one compare-and-swap.
//! * Withdrawals must not overshoot what the window allows when many tasks
//!   retry at once, so the newest period's withdrawals live in **one** word
//!   (`head`): every withdrawal is a compare-and-swap on it, made after
//!   checking the window against the value it swaps from. Two concurrent
//!   withdrawals cannot both pass on the same room. When the head moves to
//!   a newer period, its count is first archived in the withdrawal ring, so
//!   a reader that sees the new head also sees the archived count.
//! * As with the mutex this replaces, a `now` older than the newest period
//!   seen counts in the newest period: the window never moves back.
//!
//! Counts saturate at [`COUNT_MAX`] per slot. A saturated deposit count
//! undercounts requests, which only lowers the allowance; a saturated
//! withdrawal count refuses the retry. Either way the budget errs towards
//! fewer retries.
//!
//! # Counting elsewhere
//!
//! A budget may keep its counts somewhere else, shared by a fleet of
//! processes for instance: [`RetryBudget::with_backend`] wraps any
//! [`RetryBudgetBackend`]. The client and the decision still see one
//! `RetryBudget`, and a budget built with [`RetryBudget::new`] pays one
//! branch for the seam.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// Number of slots the window is split into. Ten gives the window a
/// resolution of a tenth of its length, as tower's budget does.
const SLOTS: usize = 10;

/// Bits of a packed slot word that hold the count; the rest hold the
/// period. 24 bits count up to 16.7 million requests per slot (per second
/// with the default window), far above what one client sends; 40 bits of
/// period last 34 years at the shortest slot length (1 ms).
const COUNT_BITS: u32 = 24;
/// The largest count a slot holds; see the module docs for why saturating
/// there is safe.
const COUNT_MAX: u64 = (1 << COUNT_BITS) - 1;
/// The largest period a slot word can name.
const PERIOD_MAX: u64 = u64::MAX >> COUNT_BITS;

/// Default share of recent requests that retries may add: 20 %, Finagle's
/// and tower's default.
pub const DEFAULT_BUDGET_RATIO: f64 = 0.2;
/// Default retries per second always allowed, so a quiet client can still
/// retry: 10, Finagle's default floor.
pub const DEFAULT_BUDGET_MIN_PER_SEC: u32 = 10;
/// Default window over which deposits count: 10 s, Finagle's default TTL.
pub const DEFAULT_BUDGET_TTL: Duration = Duration::from_secs(10);

/// A period and its count, packed in one word. Period 0 means "never used"
/// (real periods start at 1), so a zeroed slot counts nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Packed {
    period: u64,
    count: u64,
}

impl Packed {
    fn load(word: &AtomicU64) -> (u64, Packed) {
        let raw = word.load(Ordering::Acquire);
        (raw, Packed::from_raw(raw))
    }

    fn from_raw(raw: u64) -> Packed {
        Packed {
            period: raw >> COUNT_BITS,
            count: raw & COUNT_MAX,
        }
    }

    fn raw(self) -> u64 {
        (self.period << COUNT_BITS) | self.count
    }

    /// Whether this slot's period lies in the window that ends at `head`.
    fn in_window(self, head: u64) -> bool {
        self.period != 0 && self.period <= head && head - self.period < SLOTS as u64
    }
}

/// Where a [`RetryBudget`] keeps its counts, when not in this process's
/// memory (see [`RetryBudget::with_backend`]).
///
/// The client calls [`deposit`](Self::deposit) once per call and
/// [`try_withdraw`](Self::try_withdraw) only when the decision is "retry",
/// both on the call's path: neither may block on I/O.
///
/// ```
/// use std::sync::Arc;
/// use std::time::{Duration, Instant};
/// use evident_core::decide::{RetryBudget, RetryBudgetBackend};
///
/// /// Delegates to a local budget, and counts the retries it let through.
/// #[derive(Debug)]
/// struct Counting(RetryBudget, std::sync::atomic::AtomicU64);
///
/// impl RetryBudgetBackend for Counting {
///     fn deposit(&self, now: Instant) { self.0.deposit(now) }
///     fn try_withdraw(&self, now: Instant) -> bool {
///         let granted = self.0.try_withdraw(now);
///         if granted { self.1.fetch_add(1, std::sync::atomic::Ordering::Relaxed); }
///         granted
///     }
///     fn remaining(&self, now: Instant) -> u64 { self.0.remaining(now) }
/// }
///
/// let inner = RetryBudget::new(0.0, 1, Duration::from_secs(1));
/// let budget = RetryBudget::with_backend(Arc::new(Counting(inner, Default::default())));
/// let now = Instant::now();
/// assert!(budget.try_withdraw(now));
/// assert!(!budget.try_withdraw(now));
/// ```
pub trait RetryBudgetBackend: Send + Sync + fmt::Debug {
    /// Records one logical request.
    fn deposit(&self, now: Instant);
    /// Spends one retry if allowed; `false` (nothing spent) otherwise.
    fn try_withdraw(&self, now: Instant) -> bool;
    /// Retries still available now, as far as this process knows.
    fn remaining(&self, now: Instant) -> u64;
}

/// A retry budget. Share one per client (or per fleet-wide policy).
#[derive(Debug)]
pub struct RetryBudget {
    /// Counts kept elsewhere: when set, every operation goes there and the
    /// fields below stay unused.
    backend: Option<Arc<dyn RetryBudgetBackend>>,
    ratio: f64,
    min_per_sec: u32,
    ttl: Duration,
    slot_len: Duration,
    /// The instant period 1 starts: the first `now` the budget saw.
    epoch: OnceLock<Instant>,
    /// The newest period seen by any operation; the window ends there.
    newest: AtomicU64,
    /// Deposits per slot, packed with the period they count.
    deposits: [AtomicU64; SLOTS],
    /// Withdrawals of periods older than `head`'s, packed likewise.
    archived: [AtomicU64; SLOTS],
    /// Withdrawals of the newest period that withdrew: the one word every
    /// withdrawal swaps, so that concurrent ones cannot overshoot.
    head: AtomicU64,
}

impl RetryBudget {
    /// A budget letting retries add `ratio` of the requests deposited within
    /// `ttl`, plus `min_per_sec` retries per second. Validation happens in the
    /// policy builder; this constructor clamps nonsense instead of failing.
    pub fn new(ratio: f64, min_per_sec: u32, ttl: Duration) -> Self {
        let ttl = ttl.max(Duration::from_millis(SLOTS as u64));
        RetryBudget {
            backend: None,
            ratio: ratio.clamp(0.0, 1.0),
            min_per_sec,
            ttl,
            slot_len: ttl / SLOTS as u32,
            epoch: OnceLock::new(),
            newest: AtomicU64::new(0),
            deposits: std::array::from_fn(|_| AtomicU64::new(0)),
            archived: std::array::from_fn(|_| AtomicU64::new(0)),
            head: AtomicU64::new(0),
        }
    }

    /// A budget whose counts `backend` keeps.
    pub fn with_backend(backend: Arc<dyn RetryBudgetBackend>) -> Self {
        RetryBudget {
            backend: Some(backend),
            ..RetryBudget::default()
        }
    }

    /// Records one logical request (call this once per call, not per attempt).
    pub fn deposit(&self, now: Instant) {
        if let Some(backend) = &self.backend {
            backend.deposit(now);
            return;
        }
        let period = self.period(now);
        let slot = &self.deposits[slot_of(period)];
        let mut raw = slot.load(Ordering::Acquire);
        loop {
            let seen = Packed::from_raw(raw);
            let next = match seen.period.cmp(&period) {
                std::cmp::Ordering::Equal => Packed {
                    period,
                    count: (seen.count + 1).min(COUNT_MAX),
                },
                std::cmp::Ordering::Less => Packed { period, count: 1 },
                // The slot already counts a period a whole window newer: a
                // deposit this old is outside every window from now on.
                std::cmp::Ordering::Greater => return,
            };
            match slot.compare_exchange_weak(raw, next.raw(), Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => return,
                Err(actual) => raw = actual,
            }
        }
    }

    /// Spends one retry if the budget allows it; `false` otherwise (nothing is
    /// spent then).
    pub fn try_withdraw(&self, now: Instant) -> bool {
        if let Some(backend) = &self.backend {
            return backend.try_withdraw(now);
        }
        let period = self.period(now);
        loop {
            // The head first: an archive made before the head moved is then
            // visible to the sums below.
            let (raw, head) = Packed::load(&self.head);
            let window_end = period.max(head.period);
            let spent = self.withdrawn(window_end, head);
            if spent + 1.0 > self.allowed(window_end) {
                return false;
            }
            let next = if head.period == window_end {
                if head.count == COUNT_MAX {
                    return false;
                }
                Packed {
                    period: window_end,
                    count: head.count + 1,
                }
            } else {
                // The head moves to a newer period: archive its count first.
                // `fetch_max` keeps the largest count of a period (and a
                // newer period over an older one) whatever the order in
                // which racing archivers land.
                if head.period != 0 {
                    self.archived[slot_of(head.period)].fetch_max(raw, Ordering::AcqRel);
                }
                Packed {
                    period: window_end,
                    count: 1,
                }
            };
            if self
                .head
                .compare_exchange(raw, next.raw(), Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
            {
                return true;
            }
        }
    }

    /// Retries still available now (for observation and tests).
    pub fn remaining(&self, now: Instant) -> u64 {
        if let Some(backend) = &self.backend {
            return backend.remaining(now);
        }
        let period = self.period(now);
        let (_, head) = Packed::load(&self.head);
        let window_end = period.max(head.period);
        let allowed = self.allowed(window_end).floor();
        (allowed - self.withdrawn(window_end, head)).max(0.0) as u64
    }

    /// Retries the window ending at `window_end` allows in total.
    fn allowed(&self, window_end: u64) -> f64 {
        let deposits: u64 = self
            .deposits
            .iter()
            .map(|slot| Packed::load(slot).1)
            .filter(|p| p.in_window(window_end))
            .map(|p| p.count)
            .sum();
        let floor = f64::from(self.min_per_sec) * self.ttl.as_secs_f64();
        floor + self.ratio * deposits as f64
    }

    /// Retries spent in the window ending at `window_end`, given the head
    /// word as loaded (its period's count is read from it, never from a
    /// possibly stale archive of the same period).
    fn withdrawn(&self, window_end: u64, head: Packed) -> f64 {
        let archived: u64 = self
            .archived
            .iter()
            .map(|slot| Packed::load(slot).1)
            .filter(|p| p.period != head.period && p.in_window(window_end))
            .map(|p| p.count)
            .sum();
        let current = if head.in_window(window_end) {
            head.count
        } else {
            0
        };
        (archived + current) as f64
    }

    /// The period `now` falls in (never older than the newest seen), and
    /// records it as the newest.
    fn period(&self, now: Instant) -> u64 {
        let epoch = *self.epoch.get_or_init(|| now);
        let elapsed = now.saturating_duration_since(epoch);
        let index = elapsed.as_nanos() / self.slot_len.as_nanos().max(1);
        let period = u64::try_from(index)
            .unwrap_or(u64::MAX)
            .saturating_add(1)
            .min(PERIOD_MAX);
        // Read first: the newest period changes once per slot, so most
        // calls need no read-modify-write on this shared word.
        let newest = self.newest.load(Ordering::Acquire);
        if period <= newest {
            return newest;
        }
        self.newest.fetch_max(period, Ordering::AcqRel).max(period)
    }
}

fn slot_of(period: u64) -> usize {
    (period % SLOTS as u64) as usize
}

impl Default for RetryBudget {
    fn default() -> Self {
        RetryBudget::new(
            DEFAULT_BUDGET_RATIO,
            DEFAULT_BUDGET_MIN_PER_SEC,
            DEFAULT_BUDGET_TTL,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn the_floor_allows_min_per_sec_times_ttl_retries() {
        let b = RetryBudget::new(0.0, 2, Duration::from_secs(1));
        let now = Instant::now();
        assert!(b.try_withdraw(now));
        assert!(b.try_withdraw(now));
        assert!(!b.try_withdraw(now));
    }

    #[test]
    fn deposits_add_ratio_of_a_retry_each() {
        let b = RetryBudget::new(0.5, 0, Duration::from_secs(1));
        let now = Instant::now();
        assert!(!b.try_withdraw(now));
        b.deposit(now);
        assert!(!b.try_withdraw(now));
        b.deposit(now);
        assert!(b.try_withdraw(now));
        assert!(!b.try_withdraw(now));
        assert_eq!(b.remaining(now), 0);
    }

    #[test]
    fn deposits_and_withdrawals_expire_after_the_ttl() {
        let b = RetryBudget::new(1.0, 0, Duration::from_secs(1));
        let t0 = Instant::now();
        b.deposit(t0);
        assert_eq!(b.remaining(t0), 1);
        assert_eq!(b.remaining(t0 + Duration::from_millis(950)), 1);
        assert_eq!(b.remaining(t0 + Duration::from_millis(1100)), 0);
        b.deposit(t0 + Duration::from_secs(5));
        assert!(b.try_withdraw(t0 + Duration::from_secs(5)));
        assert!(!b.try_withdraw(t0 + Duration::from_secs(5)));
        b.deposit(t0 + Duration::from_secs(7));
        assert!(b.try_withdraw(t0 + Duration::from_secs(7)));
    }

    #[test]
    fn withdrawals_in_earlier_slots_still_count_until_they_leave_the_window() {
        let b = RetryBudget::new(1.0, 0, Duration::from_secs(1));
        let t0 = Instant::now();
        for _ in 0..3 {
            b.deposit(t0);
        }
        assert!(b.try_withdraw(t0));
        // A later slot: the first withdrawal is archived and still counts.
        let t1 = t0 + Duration::from_millis(300);
        assert!(b.try_withdraw(t1));
        assert!(b.try_withdraw(t1 + Duration::from_millis(300)));
        assert!(!b.try_withdraw(t1 + Duration::from_millis(300)));
        assert_eq!(b.remaining(t1 + Duration::from_millis(300)), 0);
        // Past the window, deposits and withdrawals are gone alike.
        assert_eq!(b.remaining(t0 + Duration::from_secs(3)), 0);
        b.deposit(t0 + Duration::from_secs(3));
        assert_eq!(b.remaining(t0 + Duration::from_secs(3)), 1);
    }

    #[test]
    fn a_late_clock_reading_counts_in_the_newest_slot() {
        let b = RetryBudget::new(1.0, 0, Duration::from_secs(1));
        let t0 = Instant::now();
        b.deposit(t0 + Duration::from_millis(500));
        // Another thread read its clock earlier and reports late: its
        // deposit lands in the newest slot, not in one about to expire.
        b.deposit(t0);
        assert_eq!(b.remaining(t0 + Duration::from_millis(1450)), 2);
        assert_eq!(b.remaining(t0 + Duration::from_millis(1600)), 0);
    }

    #[test]
    fn concurrent_withdrawals_never_spend_more_than_the_window_allows() {
        const THREADS: usize = 8;
        const TRIES_PER_THREAD: usize = 500;
        const DEPOSITS_PER_THREAD: usize = 250;
        let b = Arc::new(RetryBudget::new(0.2, 3, Duration::from_secs(10)));
        let now = Instant::now();
        let granted = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..THREADS)
            .map(|_| {
                let (b, granted) = (b.clone(), granted.clone());
                std::thread::spawn(move || {
                    for i in 0..TRIES_PER_THREAD {
                        if i < DEPOSITS_PER_THREAD {
                            b.deposit(now);
                        }
                        if b.try_withdraw(now) {
                            granted.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        // Every deposit counted and every grant recorded: the allowance is
        // the floor (3/s over 10 s) plus 20 % of 2000 deposits = 430, and
        // with 4000 tries it is exhausted exactly, never exceeded.
        let allowed = 30 + (THREADS * DEPOSITS_PER_THREAD) / 5;
        assert_eq!(granted.load(Ordering::Relaxed), allowed);
        assert_eq!(b.remaining(now), 0);
        assert!(!b.try_withdraw(now));
    }

    #[test]
    fn concurrent_withdrawals_across_slot_boundaries_stay_within_the_window() {
        const THREADS: u64 = 4;
        const STEPS: u64 = 400;
        // Floor 0 and ratio 1: each deposit allows exactly one retry.
        let b = Arc::new(RetryBudget::new(1.0, 0, Duration::from_secs(1)));
        let t0 = Instant::now();
        for _ in 0..100 {
            b.deposit(t0);
        }
        let granted = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..THREADS)
            .map(|k| {
                let (b, granted) = (b.clone(), granted.clone());
                std::thread::spawn(move || {
                    for step in 0..STEPS {
                        // Clock readings spread over 0.8 s (eight slots),
                        // threads interleaving their slot changes.
                        let at = t0 + Duration::from_millis((step * 2 + k) % 800);
                        if b.try_withdraw(at) {
                            granted.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        // Everything stayed inside one window: exactly the 100 deposits.
        assert_eq!(granted.load(Ordering::Relaxed), 100);
        assert_eq!(b.remaining(t0 + Duration::from_millis(899)), 0);
    }

    #[test]
    fn packed_words_order_by_period_then_count() {
        let a = Packed {
            period: 3,
            count: COUNT_MAX,
        };
        let b = Packed {
            period: 4,
            count: 0,
        };
        assert!(a.raw() < b.raw());
        assert_eq!(Packed::from_raw(a.raw()), a);
    }
}
