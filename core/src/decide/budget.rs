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

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Number of slots the window is split into. Ten gives the window a
/// resolution of a tenth of its length, as tower's budget does.
const SLOTS: usize = 10;

/// Default share of recent requests that retries may add: 20 %, Finagle's
/// and tower's default.
pub const DEFAULT_BUDGET_RATIO: f64 = 0.2;
/// Default retries per second always allowed, so a quiet client can still
/// retry: 10, Finagle's default floor.
pub const DEFAULT_BUDGET_MIN_PER_SEC: u32 = 10;
/// Default window over which deposits count: 10 s, Finagle's default TTL.
pub const DEFAULT_BUDGET_TTL: Duration = Duration::from_secs(10);

#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    deposits: u64,
    withdrawals: u64,
}

#[derive(Debug)]
struct Window {
    /// Start of slot 0's current period.
    epoch: Option<Instant>,
    /// Index (in slot lengths since `epoch`) of the newest slot in use.
    head: u64,
    slots: [Slot; SLOTS],
}

/// A retry budget. Share one per client (or per fleet-wide policy).
#[derive(Debug)]
pub struct RetryBudget {
    ratio: f64,
    min_per_sec: u32,
    ttl: Duration,
    slot_len: Duration,
    window: Mutex<Window>,
}

impl RetryBudget {
    /// A budget letting retries add `ratio` of the requests deposited within
    /// `ttl`, plus `min_per_sec` retries per second. Validation happens in the
    /// policy builder; this constructor clamps nonsense instead of failing.
    pub fn new(ratio: f64, min_per_sec: u32, ttl: Duration) -> Self {
        let ttl = ttl.max(Duration::from_millis(SLOTS as u64));
        RetryBudget {
            ratio: ratio.clamp(0.0, 1.0),
            min_per_sec,
            ttl,
            slot_len: ttl / SLOTS as u32,
            window: Mutex::new(Window {
                epoch: None,
                head: 0,
                slots: [Slot::default(); SLOTS],
            }),
        }
    }

    /// Records one logical request (call this once per call, not per attempt).
    pub fn deposit(&self, now: Instant) {
        let mut w = self.lock();
        let slot = self.rotate(&mut w, now);
        w.slots[slot].deposits += 1;
    }

    /// Spends one retry if the budget allows it; `false` otherwise (nothing is
    /// spent then).
    pub fn try_withdraw(&self, now: Instant) -> bool {
        let mut w = self.lock();
        let slot = self.rotate(&mut w, now);
        let (deposits, withdrawals) = w.slots.iter().fold((0u64, 0u64), |(d, r), s| {
            (d + s.deposits, r + s.withdrawals)
        });
        let floor = f64::from(self.min_per_sec) * self.ttl.as_secs_f64();
        let allowed = floor + self.ratio * deposits as f64;
        if (withdrawals as f64) + 1.0 <= allowed {
            w.slots[slot].withdrawals += 1;
            true
        } else {
            false
        }
    }

    /// Retries still available now (for observation and tests).
    pub fn remaining(&self, now: Instant) -> u64 {
        let mut w = self.lock();
        self.rotate(&mut w, now);
        let (deposits, withdrawals) = w.slots.iter().fold((0u64, 0u64), |(d, r), s| {
            (d + s.deposits, r + s.withdrawals)
        });
        let floor = f64::from(self.min_per_sec) * self.ttl.as_secs_f64();
        let allowed = (floor + self.ratio * deposits as f64).floor() as u64;
        allowed.saturating_sub(withdrawals)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Window> {
        // A poisoned budget is still a valid set of counters.
        self.window.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Clears the slots that fell out of the window and returns the index of
    /// the slot for `now`.
    fn rotate(&self, w: &mut Window, now: Instant) -> usize {
        let epoch = *w.epoch.get_or_insert(now);
        let elapsed = now.saturating_duration_since(epoch);
        let index = (elapsed.as_nanos() / self.slot_len.as_nanos().max(1)) as u64;
        if index > w.head {
            let stale = (index - w.head).min(SLOTS as u64);
            for i in 1..=stale {
                w.slots[((w.head + i) % SLOTS as u64) as usize] = Slot::default();
            }
            w.head = index;
        }
        (w.head % SLOTS as u64) as usize
    }
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
}
