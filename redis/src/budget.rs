//! A retry budget shared by the whole fleet: windowed counters of deposits
//! and withdrawals on Redis, with batched deposits and a small local
//! allowance so that no retry ever waits for Redis.
//!
//! # The model
//!
//! The same budget as the core's [`RetryBudget`]: retries may add at most
//! `ratio` of the requests of the last `ttl`, plus `min_per_sec` retries a
//! second — for the fleet as a whole. Redis keeps two windows of ten
//! slots, deposits and withdrawals (`INCRBY` with an expiry), on Redis'
//! clock.
//!
//! # Why no call waits
//!
//! * **Deposits are batched.** A call adds one to a local counter; the
//!   counter goes to Redis every flush interval
//!   ([`FleetConfigBuilder::flush_interval`](crate::FleetConfigBuilder::flush_interval)),
//!   or as soon as [`DEFAULT_FLUSH_BATCH`] deposits wait.
//! * **Retries spend a local allowance.** Each flush also asks for up to
//!   [`DEFAULT_ALLOWANCE`] retries, which Redis grants from the fleet's
//!   room (ratio × deposits + floor − withdrawals) and counts as withdrawn
//!   at once. A retry spends one locally; with none left the retry is
//!   refused and the next flush (within the flush interval) asks for
//!   more. The fleet can therefore
//!   never overspend; it underspends by at most the allowances processes
//!   hold unspent.
//! * **Trouble falls back.** While the fleet is local, or a flush misses
//!   its deadline, retries draw on a local [`RetryBudget`] with the same
//!   ratio and the floor divided by the expected fleet size, which has seen
//!   every deposit all along.
//!
//! The flush runs on the fleet's runtime; a call only touches atomics.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use evident_core::BudgetConfig;
use evident_core::decide::{RetryBudget, RetryBudgetBackend};

use crate::link::LinkHandle;
use crate::{FleetConfigError, Link};

/// Retries a process holds at most, granted by the fleet ahead of need:
/// 4. Enough for a burst of retries between two flushes (50 ms by
/// default); small, because what processes hold unspent is withheld from
/// the rest of the fleet.
pub const DEFAULT_ALLOWANCE: u64 = 4;

/// Deposits that make a flush start before its interval: 256. At 0.05
/// round trips per call this bounds the budget's traffic at high rates;
/// at low rates the interval bounds it.
pub const DEFAULT_FLUSH_BATCH: u64 = 256;

/// Slots per window, as in the core's budget.
const SLOTS: u64 = 10;

pub(crate) static FLUSH: std::sync::LazyLock<redis::Script> =
    std::sync::LazyLock::new(|| redis::Script::new(include_str!("lua/budget_flush.lua")));

/// The flush script's answer: retries granted, deposits and withdrawals in
/// the window.
type FlushReply = (u64, u64, u64);

/// Builds the fleet's retry budget; see [`Fleet::retry_budget`](crate::Fleet::retry_budget).
pub(crate) fn shared_budget(
    handle: Arc<LinkHandle>,
    config: BudgetConfig,
) -> Result<Arc<RetryBudget>, FleetConfigError> {
    if !(0.0..=1.0).contains(&config.ratio) {
        return Err(FleetConfigError::OutOfRange {
            field: "budget.ratio",
            value: config.ratio.to_string(),
            expected: "a fraction in 0..=1",
        });
    }
    if config.ttl < Duration::from_secs(1) || config.ttl > Duration::from_secs(86_400) {
        return Err(FleetConfigError::OutOfRange {
            field: "budget.ttl",
            value: format!("{:?}", config.ttl),
            expected: "between one second and one day",
        });
    }
    let link = &handle.link;
    let fleet = link.config.expected_fleet_size;
    let slot_ms = (config.ttl.as_millis() as u64 / SLOTS).max(1);
    let prefix = &link.config.key_prefix;
    let budget = Arc::new_cyclic(|me: &Weak<SharedRetryBudget>| SharedRetryBudget {
        me: me.clone(),
        deposits_key: format!("{prefix}:budget:d:"),
        withdrawals_key: format!("{prefix}:budget:w:"),
        slot_ms,
        ratio: config.ratio,
        floor: f64::from(config.min_per_sec) * config.ttl.as_secs_f64(),
        grace_ms: link.config.key_expiry.as_millis() as u64,
        allowance_target: DEFAULT_ALLOWANCE,
        flush_batch: DEFAULT_FLUSH_BATCH,
        local: RetryBudget::new(config.ratio, config.min_per_sec.div_ceil(fleet), config.ttl),
        pending: AtomicU64::new(0),
        allowance: AtomicU64::new(0),
        wanted: AtomicBool::new(true),
        flushing: AtomicBool::new(false),
        handle: handle.clone(),
    });
    let ticker = Arc::downgrade(&budget);
    let interval = link.config.flush_interval;
    link.spawn(async move {
        loop {
            tokio::time::sleep(interval).await;
            let Some(budget) = ticker.upgrade() else {
                return;
            };
            if budget.link().is_shared()
                && (budget.pending.load(Ordering::Acquire) > 0
                    || budget.wanted.load(Ordering::Acquire))
                && !budget.flushing.swap(true, Ordering::AcqRel)
            {
                budget.flush().await;
            }
        }
    });
    Ok(Arc::new(RetryBudget::with_backend(budget)))
}

/// The fleet-wide budget behind a [`RetryBudget`].
#[derive(Debug)]
struct SharedRetryBudget {
    me: Weak<SharedRetryBudget>,
    handle: Arc<LinkHandle>,
    deposits_key: String,
    withdrawals_key: String,
    slot_ms: u64,
    ratio: f64,
    floor: f64,
    grace_ms: u64,
    allowance_target: u64,
    flush_batch: u64,
    /// The local fallback; it sees every deposit.
    local: RetryBudget,
    /// Deposits not yet sent.
    pending: AtomicU64,
    /// Retries the fleet granted this process, not yet spent.
    allowance: AtomicU64,
    /// A retry found the allowance short: top it up at the next flush.
    wanted: AtomicBool,
    /// A flush is in flight.
    flushing: AtomicBool,
}

impl SharedRetryBudget {
    fn link(&self) -> &Arc<Link> {
        &self.handle.link
    }

    /// Starts a flush on the fleet's runtime now, unless one is in flight.
    fn flush_soon(&self) {
        if self.flushing.swap(true, Ordering::AcqRel) {
            return;
        }
        let me = self.me.clone();
        self.link().spawn(async move {
            if let Some(budget) = me.upgrade() {
                budget.flush().await;
            }
        });
    }

    /// Sends the pending deposits and tops the allowance up. Called with
    /// `flushing` set; clears it.
    async fn flush(&self) {
        let deposits = self.pending.swap(0, Ordering::AcqRel);
        let want = self
            .allowance_target
            .saturating_sub(self.allowance.load(Ordering::Acquire));
        self.wanted.store(false, Ordering::Release);
        let keys = (self.deposits_key.clone(), self.withdrawals_key.clone());
        let args = (
            self.slot_ms,
            SLOTS,
            deposits,
            want,
            self.ratio,
            self.floor,
            self.grace_ms,
        );
        let outcome = self
            .link()
            .run(|mut connection| async move {
                FLUSH
                    .key(keys.0)
                    .key(keys.1)
                    .arg(args.0)
                    .arg(args.1)
                    .arg(args.2)
                    .arg(args.3)
                    .arg(args.4)
                    .arg(args.5)
                    .arg(args.6)
                    .invoke_async::<FlushReply>(&mut connection)
                    .await
            })
            .await;
        // On trouble the deposits are dropped: the fleet's window then
        // undercounts this process, which only lowers the allowance.
        if let Ok((granted, _, _)) = outcome {
            self.allowance.fetch_add(granted, Ordering::AcqRel);
        }
        self.flushing.store(false, Ordering::Release);
    }
}

impl RetryBudgetBackend for SharedRetryBudget {
    fn deposit(&self, now: Instant) {
        self.local.deposit(now);
        if self.link().is_shared()
            && self.pending.fetch_add(1, Ordering::AcqRel) + 1 >= self.flush_batch
        {
            self.flush_soon();
        }
    }

    fn try_withdraw(&self, now: Instant) -> bool {
        if !self.link().is_shared() {
            return self.local.try_withdraw(now);
        }
        let spent = self
            .allowance
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |left| {
                left.checked_sub(1)
            })
            .is_ok();
        // Either way the allowance is below target now: the next flush
        // tops it up. Not sooner: waking the fleet's thread from here
        // would put a system call on the retry's path.
        self.wanted.store(true, Ordering::Release);
        spent
    }

    fn remaining(&self, now: Instant) -> u64 {
        if self.link().is_shared() {
            self.allowance.load(Ordering::Acquire)
        } else {
            self.local.remaining(now)
        }
    }
}
