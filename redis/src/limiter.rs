//! A rate limit per origin shared by the whole fleet: GCRA in one Lua
//! script on Redis' clock, with optional leasing, falling back to a local
//! limiter when Redis is in trouble.
//!
//! # The algorithm
//!
//! GCRA keeps one value per origin, the *theoretical arrival time* (TAT).
//! With `limit_for_period` tokens per `refresh_period`, each token moves
//! the TAT one emission interval `T = refresh_period / limit_for_period`
//! ahead, and a token is granted while the TAT stays within one refresh
//! period of now (so a quiet fleet may burst the whole period's quota, as
//! the local limiter's fresh cycle does). The script reads the TAT,
//! compares it with Redis' `TIME` and writes it back, atomically: there is
//! no read-modify-write race between processes, and their clocks never
//! enter the computation.
//!
//! A token given back (the bulkhead behind the limiter rejected, the
//! attempt was cancelled) moves the TAT back one interval, never below now
//! — the same refund the local limiter makes.
//!
//! # Leasing: accuracy against round trips
//!
//! Without leasing, every admission is one round trip, and waits for it:
//! on loopback that is a redis-rs round trip (p50 about 60 µs on a small
//! VM) plus a hop to the fleet's thread and back (about 40 µs more).
//! **Callers that care about latency should lease**: with a lease, an
//! admission is local (well under 5 µs at p99 in evident-bench's `fleet`
//! run).
//!
//! With a lease of `k` ([`SharedRateLimits::lease`]) a process takes up to
//! `k` tokens in one call and spends them locally, fetching the next lease in the background
//! before this one runs low: a timer on the fleet's thread, set from the
//! pace the lease is spent at, asks when `k` tokens are left, and a call
//! that finds only `k/2` left (the pace rose) asks itself. That is about
//! `1/k` round trips per call, no call waits for Redis while the lease
//! lasts, and at a steady pace no call even wakes the fleet's thread.
//! The price is accuracy: tokens a process holds are counted as spent for
//! the fleet, so another process may be refused while they wait, and they
//! may be spent up to [`DEFAULT_LEASE_LIFETIME`] after the fleet granted
//! them. Over any window the fleet stays within the limit plus what the
//! leases hold (at most 2 × `k` tokens per process: the next lease arrives
//! while up to `k` of the last are left); tokens left when a lease expires are
//! given back at the process's next admission (a process that stops
//! calling keeps them until their TAT passes, which only lowers the
//! fleet's rate). Keep `k` a small fraction of each process's share of
//! the limit.
//!
//! # When Redis is in trouble
//!
//! While the fleet is local ([`FleetStatus::Local`](crate::FleetStatus)),
//! or when Redis misses the deadline, each process enforces the limit
//! divided by the expected fleet size with a local
//! [`RateLimiter`]. Admission never waits
//! longer than the deadline for Redis and never fails because of it.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};
use std::time::{Duration, Instant};

use evident_resilience::{
    Clock, Component, Event, EventHook, EventKind, Grant, LocalRejection, Origin, RateLimit,
    RateLimitProvider, RateLimiter, RateLimiterConfig, RateLimiterMetrics, Reservation,
};

use crate::link::{LinkHandle, Trouble};
use crate::{FleetConfigError, Link};

/// Longest a leased token may wait in a process before it is given back:
/// 100 ms. Long enough to spend a lease at any useful rate, short enough
/// that the fleet's rate over a second is off by little.
pub const DEFAULT_LEASE_LIFETIME: Duration = Duration::from_millis(100);

/// tokio's timer fires up to this late (it keeps time in whole
/// milliseconds): a refill timer is set this much early, or at a high pace
/// the lease would reach its refill mark first and a call would have to
/// wake the fleet's thread itself.
const TIMER_RESOLUTION: Duration = Duration::from_millis(1);

/// The lease size that means "no leasing": one token per round trip.
pub const NO_LEASE: u32 = 1;

pub(crate) static TAKE: std::sync::LazyLock<redis::Script> =
    std::sync::LazyLock::new(|| redis::Script::new(include_str!("lua/gcra_take.lua")));
pub(crate) static REFUND: std::sync::LazyLock<redis::Script> =
    std::sync::LazyLock::new(|| redis::Script::new(include_str!("lua/gcra_refund.lua")));

/// Ticket kinds, in a ticket's low two bits; the rest is the payload.
const TICKET_SHARED: u64 = 0;
const TICKET_LEASED: u64 = 1;
const TICKET_LOCAL: u64 = 2;

fn ticket(kind: u64, payload: u64) -> u64 {
    (payload << 2) | kind
}

/// Provides each origin's fleet-wide rate limiter to a pipeline
/// ([`PipelineConfig::rate_limit_provider`](evident_resilience::PipelineConfig::rate_limit_provider)).
/// Made by [`Fleet::rate_limits`](crate::Fleet::rate_limits).
#[derive(Debug, Clone)]
pub struct SharedRateLimits {
    link: Arc<LinkHandle>,
    config: RateLimiterConfig,
    local: RateLimiterConfig,
    lease: u32,
    lease_lifetime: Duration,
}

impl SharedRateLimits {
    pub(crate) fn new(link: Arc<LinkHandle>, config: RateLimiterConfig) -> Self {
        let fleet = link.link.config.expected_fleet_size;
        // The local fallback: the fleet's limit divided among the expected
        // processes, at least one token a period so a lone survivor is
        // never blocked outright.
        let local = RateLimiterConfig::builder(
            (config.limit_for_period() / fleet).max(1),
            config.refresh_period(),
        )
        .max_wait(config.max_wait())
        .build()
        .expect("a limit of at least 1 over a validated period is valid");
        SharedRateLimits {
            link,
            config,
            local,
            lease: NO_LEASE,
            lease_lifetime: DEFAULT_LEASE_LIFETIME,
        }
    }

    /// Takes up to `tokens` tokens per round trip and spends them locally
    /// (see the [module docs](self) for the trade-off). `1` (the default,
    /// [`NO_LEASE`]) asks Redis for every token, so every admission waits
    /// for a round trip: lease when latency matters.
    ///
    /// # Errors
    ///
    /// `tokens` is zero or more than the limit per period.
    pub fn lease(mut self, tokens: u32) -> Result<Self, FleetConfigError> {
        if tokens == 0 || tokens > self.config.limit_for_period() {
            return Err(FleetConfigError::OutOfRange {
                field: "lease",
                value: tokens.to_string(),
                expected: "1..=limit_for_period tokens",
            });
        }
        self.lease = tokens;
        Ok(self)
    }

    /// The fleet-wide configuration.
    pub fn config(&self) -> &RateLimiterConfig {
        &self.config
    }

    /// The configuration each process falls back to.
    pub fn local_config(&self) -> &RateLimiterConfig {
        &self.local
    }
}

impl RateLimitProvider for SharedRateLimits {
    fn rate_limit(
        &self,
        origin: &Origin,
        clock: Arc<dyn Clock>,
        hook: Option<EventHook>,
    ) -> Arc<dyn RateLimit> {
        let link = &self.link.link;
        let period = self.config.refresh_period();
        let interval_us = period.as_secs_f64() * 1e6 / f64::from(self.config.limit_for_period());
        let fallback = RateLimiter::with_event_hook(
            origin.clone(),
            self.local.clone(),
            clock.clone(),
            hook.clone(),
        )
        .into_rate_limit();
        Arc::new_cyclic(|me| SharedRateLimiter {
            me: me.clone(),
            origin: origin.clone(),
            key: format!("{}:rate:{}", link.config.key_prefix, origin),
            interval_us,
            tolerance_us: period.as_micros() as f64,
            grace_ms: link.config.key_expiry.as_millis() as u64,
            max_wait: self.config.max_wait(),
            lease: self.lease,
            lease_lifetime: self.lease_lifetime,
            handle: self.link.clone(),
            clock,
            hook,
            fallback,
            state: Mutex::new(LeaseState::default()),
            refunds: AtomicU64::new(0),
            refunding: AtomicBool::new(false),
            acquired: AtomicU64::new(0),
            rejected: AtomicU64::new(0),
            consumed: AtomicU64::new(0),
            returned: AtomicU64::new(0),
        })
    }
}

#[derive(Debug, Default)]
struct LeaseState {
    /// Leased tokens not yet handed out.
    tokens: u64,
    /// Bumped when a lease ends, so a token of an older lease coming back
    /// is refunded to Redis rather than added to the new lease.
    generation: u64,
    /// When the current lease's tokens must be given back.
    expires: Option<Instant>,
    /// A background lease request is in flight.
    refilling: bool,
    /// Tokens handed out from leases, ever.
    taken: u64,
    /// When the last lease arrived, and `taken` then: the pace at which
    /// the lease is spent.
    paced_from: Option<(Instant, u64)>,
    /// Redis said no token comes before this instant: refuse locally
    /// until then rather than asking again.
    next_token_at: Option<Instant>,
}

/// A refill timer as it was set: when, and how many tokens had been
/// taken from leases then (the pace since is measured from it).
#[derive(Debug, Clone, Copy)]
struct TimerSet {
    at: Instant,
    taken: u64,
}

/// What a refill timer does when it fires.
#[derive(Debug, Clone, Copy, PartialEq)]
enum TimerFired {
    /// The lease is down to `lease` tokens: fetch the next one now (the
    /// refill is marked in flight).
    Refill,
    /// The timer came early (the pace slowed, or it was set early on
    /// purpose): wait this much more, the time the lease needs at the pace
    /// since the timer was set to get down to `lease` tokens.
    WaitAgain(Duration),
    /// Nothing to do: a refill is already in flight, nothing was spent
    /// since the timer was set, or the lease would expire first. The call
    /// that reaches the refill mark asks.
    Stop,
}

impl LeaseState {
    /// Hands one leased token to a call (there must be one), and says
    /// whether that call must start the next lease itself: the lease is
    /// down to the refill mark, `lease / 2` tokens, and no refill (the
    /// timer's, normally) is in flight.
    fn take(&mut self, lease: u32) -> bool {
        self.tokens -= 1;
        self.taken += 1;
        let refill = lease > NO_LEASE && !self.refilling && self.tokens <= u64::from(lease / 2);
        self.refilling |= refill;
        refill
    }

    /// When the fleet's thread should fetch the next lease by itself, as a
    /// lease arrives at `now`: when the lease, spent at the pace it was
    /// spent since the last one arrived, is down to `lease` tokens (half
    /// way to the refill mark a call acts on), less the timer's resolution
    /// so that a late timer still comes first. Waking the fleet's thread
    /// from a call costs that call a system call and often a context
    /// switch (tens of microseconds on a busy machine); a timer on the
    /// fleet's own thread costs no call anything, so at a steady pace no
    /// call wakes it. `None` when the pace is unknown or the lease would
    /// expire first.
    fn next_refill(&mut self, now: Instant, lease: u32, lifetime: Duration) -> Option<Duration> {
        let previous = self.paced_from.replace((now, self.taken));
        let (at, taken) = previous?;
        let delay = self
            .time_to_refill(now.saturating_duration_since(at), taken, lease)?
            .saturating_sub(TIMER_RESOLUTION);
        (delay < lifetime).then_some(delay)
    }

    /// A refill timer set as `set` fired at `now`. One that fired early
    /// (the pace slowed) waits again for as long as the lease, spent at the
    /// pace since it was set, needs to get down to `lease` tokens: a timer
    /// that gave up instead would leave the next refill to a call.
    fn refill_timer_fired(
        &mut self,
        now: Instant,
        set: TimerSet,
        lease: u32,
        lifetime: Duration,
    ) -> TimerFired {
        if self.refilling {
            return TimerFired::Stop;
        }
        if self.tokens <= u64::from(lease) {
            self.refilling = true;
            return TimerFired::Refill;
        }
        match self.time_to_refill(now.saturating_duration_since(set.at), set.taken, lease) {
            Some(again) if again < lifetime => TimerFired::WaitAgain(again),
            _ => TimerFired::Stop,
        }
    }

    /// How long until the lease is down to `lease` tokens, at the pace of
    /// the `elapsed` since `taken` tokens had been taken; `None` when
    /// nothing was spent or no time passed.
    fn time_to_refill(&self, elapsed: Duration, taken: u64, lease: u32) -> Option<Duration> {
        let spent = self.taken.saturating_sub(taken);
        if spent == 0 || elapsed.is_zero() {
            return None;
        }
        let above_due = self.tokens.saturating_sub(u64::from(lease)) as f64;
        Some(Duration::from_secs_f64(
            above_due * elapsed.as_secs_f64() / spent as f64,
        ))
    }
}

/// The script's answer: tokens granted, wait before the first (µs), and
/// when none was granted, time until one would be (µs).
type TakeReply = (u64, u64, u64);

struct SharedRateLimiter {
    me: Weak<SharedRateLimiter>,
    origin: Origin,
    key: String,
    interval_us: f64,
    tolerance_us: f64,
    grace_ms: u64,
    max_wait: Duration,
    lease: u32,
    lease_lifetime: Duration,
    handle: Arc<LinkHandle>,
    clock: Arc<dyn Clock>,
    hook: Option<EventHook>,
    fallback: Arc<dyn RateLimit>,
    state: Mutex<LeaseState>,
    refunds: AtomicU64,
    refunding: AtomicBool,
    acquired: AtomicU64,
    rejected: AtomicU64,
    consumed: AtomicU64,
    returned: AtomicU64,
}

/// What the local state alone decides.
enum Local {
    Decided(Result<Grant, LocalRejection>),
    AskRedis,
}

impl SharedRateLimiter {
    fn link(&self) -> &Arc<Link> {
        &self.handle.link
    }

    fn lock(&self) -> MutexGuard<'_, LeaseState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn emit(&self, kind: EventKind) {
        if let Some(hook) = &self.hook {
            hook(&Event::new(&self.origin, Component::RateLimiter, kind));
        }
    }

    /// The local fallback's answer, its ticket wrapped.
    fn fall_back(&self, now: Instant, max_wait: Duration) -> Result<Grant, LocalRejection> {
        self.fallback
            .reserve_blocking(now, max_wait)
            .map(|grant| Grant::new(ticket(TICKET_LOCAL, grant.ticket()), grant.wait()))
    }

    /// Serves from the lease or a remembered refusal, if either applies.
    fn decide_locally(&self, now: Instant, max_wait: Duration) -> Local {
        if !self.link().is_shared() {
            return Local::Decided(self.fall_back(now, max_wait));
        }
        let mut state = self.lock();
        if state.expires.is_some_and(|at| now >= at) {
            self.end_lease(&mut state);
        }
        if state.tokens > 0 {
            let refill = state.take(self.lease);
            let generation = state.generation;
            drop(state);
            if refill {
                self.refill_in_background();
            }
            self.acquired.fetch_add(1, Ordering::Relaxed);
            self.emit(EventKind::Acquired);
            return Local::Decided(Ok(Grant::new(
                ticket(TICKET_LEASED, generation),
                Duration::ZERO,
            )));
        }
        if let Some(at) = state.next_token_at {
            let next = at.saturating_duration_since(now);
            if next > max_wait {
                drop(state);
                return Local::Decided(Err(self.reject(next, max_wait)));
            }
            state.next_token_at = None;
        }
        Local::AskRedis
    }

    fn reject(&self, next_permit_in: Duration, max_wait: Duration) -> LocalRejection {
        self.rejected.fetch_add(1, Ordering::Relaxed);
        self.emit(EventKind::Rejected);
        LocalRejection::rate_limited(self.origin.clone(), next_permit_in, max_wait)
    }

    /// Ends the current lease: its unspent tokens go back to the fleet.
    fn end_lease(&self, state: &mut LeaseState) {
        let left = std::mem::take(&mut state.tokens);
        state.generation += 1;
        state.expires = None;
        if left > 0 {
            self.refund(left);
        }
    }

    /// Asks Redis for tokens on the fleet's runtime; `reply` receives the
    /// answer, and tokens nobody took are given back.
    fn ask<R>(&self, max_wait: Duration, reply: R)
    where
        R: FnOnce(Result<TakeReply, Trouble>) -> Result<(), Result<TakeReply, Trouble>>
            + Send
            + 'static,
    {
        let key = self.key.clone();
        let args = (
            self.interval_us,
            self.tolerance_us,
            u64::from(self.lease),
            max_wait.as_micros() as u64,
            self.grace_ms,
        );
        let me = self.me.clone();
        self.link().submit(
            move |mut connection| async move {
                TAKE.key(key)
                    .arg(args.0)
                    .arg(args.1)
                    .arg(args.2)
                    .arg(args.3)
                    .arg(args.4)
                    .invoke_async::<TakeReply>(&mut connection)
                    .await
            },
            reply,
            move |(granted, _, _)| {
                if let Some(me) = me.upgrade() {
                    me.refund(granted);
                }
            },
        );
    }

    /// Turns Redis' answer into this call's grant, keeping any extra tokens
    /// as the lease; falls back locally on trouble.
    fn settle(
        &self,
        outcome: Result<TakeReply, Trouble>,
        asked_at: Instant,
        max_wait: Duration,
    ) -> Result<Grant, LocalRejection> {
        match outcome {
            Ok((granted, wait_us, _)) if granted >= 1 => {
                if granted > 1 {
                    let mut state = self.lock();
                    self.add_to_lease(&mut state, granted - 1);
                }
                self.acquired.fetch_add(1, Ordering::Relaxed);
                self.emit(EventKind::Acquired);
                Ok(Grant::new(
                    ticket(TICKET_SHARED, 0),
                    Duration::from_micros(wait_us),
                ))
            }
            Ok((_, _, next_us)) => {
                let next = Duration::from_micros(next_us);
                self.lock().next_token_at = Some(asked_at + next);
                Err(self.reject(next, max_wait))
            }
            // The trouble is reported; this call goes on locally.
            Err(_) => self.fall_back(self.clock.now(), max_wait),
        }
    }

    fn add_to_lease(&self, state: &mut LeaseState, tokens: u64) {
        let now = self.clock.now();
        if state.expires.is_none_or(|at| now >= at) {
            self.end_lease(state);
            state.expires = Some(now + self.lease_lifetime);
        }
        state.tokens += tokens;
        state.next_token_at = None;
    }

    /// Starts the next lease before this one runs out.
    fn refill_in_background(&self) {
        let me = self.me.clone();
        let asked_at = self.clock.now();
        self.ask(Duration::ZERO, move |outcome| {
            let Some(me) = me.upgrade() else {
                return Err(outcome);
            };
            let mut state = me.lock();
            state.refilling = false;
            match outcome {
                Ok((granted, _, _)) if granted >= 1 => {
                    me.add_to_lease(&mut state, granted);
                    let next = state.next_refill(me.clock.now(), me.lease, me.lease_lifetime);
                    drop(state);
                    if let Some(delay) = next {
                        me.schedule_refill(delay);
                    }
                }
                Ok((_, _, next_us)) => {
                    state.next_token_at = Some(asked_at + Duration::from_micros(next_us));
                }
                Err(_) => {}
            }
            Ok(())
        });
    }

    /// Fetches the next lease after `delay`, from the fleet's thread, once
    /// the lease is down to `lease` tokens (see
    /// [`LeaseState::refill_timer_fired`]).
    fn schedule_refill(&self, delay: Duration) {
        let me = self.me.clone();
        let set = TimerSet {
            at: self.clock.now(),
            taken: self.lock().taken,
        };
        self.link().spawn(async move {
            tokio::time::sleep(delay).await;
            let Some(me) = me.upgrade() else { return };
            if !me.link().is_shared() {
                return;
            }
            let fired =
                me.lock()
                    .refill_timer_fired(me.clock.now(), set, me.lease, me.lease_lifetime);
            match fired {
                TimerFired::Refill => me.refill_in_background(),
                TimerFired::WaitAgain(again) => me.schedule_refill(again),
                TimerFired::Stop => {}
            }
        });
    }

    /// Gives `tokens` back to the fleet, batched: one refund in flight at a
    /// time carries everything returned meanwhile.
    fn refund(&self, tokens: u64) {
        self.refunds.fetch_add(tokens, Ordering::AcqRel);
        if self.refunding.swap(true, Ordering::AcqRel) {
            return;
        }
        let me = self.me.clone();
        self.link().spawn(async move {
            loop {
                let Some(limiter) = me.upgrade() else { return };
                let tokens = limiter.refunds.swap(0, Ordering::AcqRel);
                if tokens > 0 && limiter.link().is_shared() {
                    let key = limiter.key.clone();
                    let (interval, grace) = (limiter.interval_us, limiter.grace_ms);
                    // A refund that fails is lost: the fleet then admits
                    // slightly fewer, never more.
                    let _ = limiter
                        .link()
                        .run(|mut connection| async move {
                            REFUND
                                .key(key)
                                .arg(tokens)
                                .arg(interval)
                                .arg(grace)
                                .invoke_async::<u64>(&mut connection)
                                .await
                        })
                        .await;
                }
                limiter.refunding.store(false, Ordering::Release);
                if limiter.refunds.load(Ordering::Acquire) == 0
                    || limiter.refunding.swap(true, Ordering::AcqRel)
                {
                    return;
                }
            }
        });
    }
}

impl RateLimit for SharedRateLimiter {
    fn origin(&self) -> &Origin {
        &self.origin
    }

    fn reserve(&self, now: Instant, max_wait: Duration) -> Reservation {
        let max_wait = max_wait.min(self.max_wait);
        if let Local::Decided(result) = self.decide_locally(now, max_wait) {
            return Reservation::Ready(result);
        }
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.ask(max_wait, move |outcome| tx.send(outcome));
        let Some(me) = self.me.upgrade() else {
            return Reservation::Ready(self.fall_back(now, max_wait));
        };
        Reservation::Pending(Box::pin(async move {
            // A closed channel means the fleet's runtime stopped.
            let outcome = rx.await.unwrap_or(Err(Trouble::Stopped));
            me.settle(outcome, now, max_wait)
        }))
    }

    fn reserve_blocking(&self, now: Instant, max_wait: Duration) -> Result<Grant, LocalRejection> {
        let max_wait = max_wait.min(self.max_wait);
        if let Local::Decided(result) = self.decide_locally(now, max_wait) {
            return result;
        }
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        self.ask(max_wait, move |outcome| {
            tx.try_send(outcome).map_err(|e| match e {
                std::sync::mpsc::TrySendError::Full(o)
                | std::sync::mpsc::TrySendError::Disconnected(o) => o,
            })
        });
        let outcome = self.link().wait_blocking(&rx);
        self.settle(outcome, now, max_wait)
    }

    fn end(&self, ticket: u64, consumed: bool) {
        let (kind, payload) = (ticket & 3, ticket >> 2);
        if kind == TICKET_LOCAL {
            // The fallback counts and reports its own tokens.
            self.fallback.end(payload, consumed);
            return;
        }
        if consumed {
            self.consumed.fetch_add(1, Ordering::Relaxed);
            self.emit(EventKind::Consumed);
            return;
        }
        self.returned.fetch_add(1, Ordering::Relaxed);
        if kind == TICKET_LEASED {
            let mut state = self.lock();
            let current = state.generation == payload
                && state.expires.is_some_and(|at| self.clock.now() < at);
            if current {
                state.tokens += 1;
                drop(state);
                self.emit(EventKind::Released);
                return;
            }
        }
        self.refund(1);
        self.emit(EventKind::Released);
    }

    fn metrics(&self) -> RateLimiterMetrics {
        let mut metrics = self.fallback.metrics();
        let acquired = self.acquired.load(Ordering::Relaxed);
        let consumed = self.consumed.load(Ordering::Relaxed);
        let returned = self.returned.load(Ordering::Relaxed);
        if self.link().is_shared() {
            metrics.available = i64::try_from(self.lock().tokens).unwrap_or(i64::MAX);
        }
        metrics.acquired += acquired;
        metrics.rejected += self.rejected.load(Ordering::Relaxed);
        metrics.consumed += consumed;
        metrics.returned += returned;
        metrics.in_flight += acquired.saturating_sub(consumed + returned);
        metrics
    }
}

#[cfg(test)]
mod tests {
    //! The refill timing, driven by a simulated clock: a lease spent at a
    //! steady pace, refill timers that fire late as tokio's do, and Redis
    //! answering after a fixed round trip. Nothing sleeps; every instant is
    //! computed.

    use super::*;

    const LEASE: u32 = 20;
    const LIFETIME: Duration = DEFAULT_LEASE_LIFETIME;

    fn ms(ms: f64) -> Duration {
        Duration::from_secs_f64(ms / 1e3)
    }

    /// Close enough for durations computed in floating point.
    fn assert_near(actual: Duration, expected: Duration) {
        let error = actual.abs_diff(expected);
        assert!(
            error < Duration::from_nanos(10),
            "{actual:?}, expected {expected:?}"
        );
    }

    #[test]
    fn the_first_refill_timer_is_set_a_timer_resolution_before_the_lease_is_down_to_k() {
        let start = Instant::now();
        // The last lease arrived 2.5 ms ago; 20 tokens spent since: 8 a
        // millisecond. 40 left, so 20 more (2.5 ms) bring it down to k.
        let mut state = LeaseState {
            tokens: 40,
            taken: 20,
            paced_from: Some((start, 0)),
            ..LeaseState::default()
        };
        let now = start + ms(2.5);
        let delay = state
            .next_refill(now, LEASE, LIFETIME)
            .expect("a known pace");
        assert_near(delay, ms(2.5) - TIMER_RESOLUTION);
        assert_eq!(state.paced_from, Some((now, 20)), "the pace restarts here");
    }

    #[test]
    fn no_refill_timer_is_set_while_the_pace_is_unknown_or_the_lease_would_expire_first() {
        let start = Instant::now();
        let mut first = LeaseState {
            tokens: 40,
            ..LeaseState::default()
        };
        assert_eq!(first.next_refill(start, LEASE, LIFETIME), None);
        // One token in 100 ms: 20 more would take two seconds.
        let mut slow = LeaseState {
            tokens: 40,
            taken: 1,
            paced_from: Some((start, 0)),
            ..LeaseState::default()
        };
        assert_eq!(slow.next_refill(start + ms(100.0), LEASE, LIFETIME), None);
    }

    #[test]
    fn a_refill_timer_that_fires_early_sets_itself_again_for_the_rest_of_the_way() {
        let set_at = Instant::now();
        let set = TimerSet {
            at: set_at,
            taken: 100,
        };
        // 12 tokens in the 1.5 ms since it was set (8 a millisecond), 28
        // left: 8 more, 1 ms, to go down to k.
        let mut state = LeaseState {
            tokens: 28,
            taken: 112,
            ..LeaseState::default()
        };
        match state.refill_timer_fired(set_at + ms(1.5), set, LEASE, LIFETIME) {
            TimerFired::WaitAgain(again) => assert_near(again, ms(1.0)),
            other => panic!("an early timer must set itself again, not {other:?}"),
        }
        assert!(!state.refilling, "no refill before the lease is down to k");
    }

    #[test]
    fn a_refill_timer_refills_once_the_lease_is_down_to_k_and_only_if_none_is_in_flight() {
        let set_at = Instant::now();
        let set = TimerSet {
            at: set_at,
            taken: 100,
        };
        let mut state = LeaseState {
            tokens: u64::from(LEASE),
            taken: 120,
            ..LeaseState::default()
        };
        let at = set_at + ms(2.5);
        assert_eq!(
            state.refill_timer_fired(at, set, LEASE, LIFETIME),
            TimerFired::Refill
        );
        assert!(state.refilling);
        assert_eq!(
            state.refill_timer_fired(at, set, LEASE, LIFETIME),
            TimerFired::Stop,
            "a refill is in flight"
        );
        let mut idle = LeaseState {
            tokens: 30,
            taken: 100,
            ..LeaseState::default()
        };
        assert_eq!(
            idle.refill_timer_fired(at, set, LEASE, LIFETIME),
            TimerFired::Stop,
            "nothing spent since the timer was set: the pace is unknown"
        );
    }

    /// When a timer due at `due` (ns since the simulation began) fires.
    #[derive(Debug, Clone, Copy)]
    enum Timer {
        /// Always this late.
        Late(Duration),
        /// At the next whole millisecond, as tokio's timer wheel does.
        NextMillisecond,
    }

    impl Timer {
        fn fires(self, due: Duration) -> Duration {
            match self {
                Timer::Late(late) => due + late,
                Timer::NextMillisecond => {
                    Duration::from_millis(due.as_nanos().div_ceil(1_000_000) as u64)
                }
            }
        }
    }

    /// Who started the refills of a simulated run.
    #[derive(Debug, Default)]
    struct Refills {
        by_timer: u32,
        by_call: u32,
        /// Calls that found the lease empty (they would wait for Redis).
        found_empty: u32,
    }

    /// `calls` calls one `every` apart spend leases of [`LEASE`] tokens,
    /// with `timer` for the fleet's timers and `round_trip` for Redis'
    /// answer, driving the lease state as the limiter does (a call's
    /// `take`, `next_refill` as a lease arrives, `refill_timer_fired` as a
    /// timer fires). Counts who started each refill once `warm_up` leases
    /// have arrived (the pace is unknown until one has been spent). The
    /// first lease holds `LEASE` tokens, as the first synchronous ask
    /// leaves; lease expiry, which ends a lease rather than refilling it,
    /// is not simulated (the run is shorter than a lifetime per lease).
    fn simulate(calls: u32, every: Duration, timer: Timer, round_trip: Duration) -> Refills {
        let start = Instant::now();
        let warm_up = 3;
        let mut state = LeaseState {
            tokens: u64::from(LEASE),
            ..LeaseState::default()
        };
        let mut refills = Refills::default();
        let mut arrivals = 0;
        let mut arrival: Option<Duration> = None;
        let mut armed: Option<(Duration, TimerSet)> = None;
        let mut call = 0;
        // At equal instants a call goes first: the timer must win by
        // being early, not by a tie.
        while call < calls {
            let next_call = every * call + every / 2;
            let next_timer = armed.map_or(Duration::MAX, |(at, _)| at);
            let next_arrival = arrival.unwrap_or(Duration::MAX);
            let counting = arrivals >= warm_up;
            if next_call <= next_timer && next_call <= next_arrival {
                call += 1;
                if state.tokens == 0 {
                    refills.found_empty += u32::from(counting);
                    continue;
                }
                if state.take(LEASE) {
                    refills.by_call += u32::from(counting);
                    arrival = Some(next_call + round_trip);
                }
            } else if next_arrival <= next_timer {
                arrival = None;
                arrivals += 1;
                state.refilling = false;
                state.tokens += u64::from(LEASE);
                let now = start + next_arrival;
                armed = state.next_refill(now, LEASE, LIFETIME).map(|delay| {
                    let set = TimerSet {
                        at: now,
                        taken: state.taken,
                    };
                    (timer.fires(next_arrival + delay), set)
                });
            } else {
                let (_, set) = armed.take().expect("a timer is armed");
                match state.refill_timer_fired(start + next_timer, set, LEASE, LIFETIME) {
                    TimerFired::Refill => {
                        refills.by_timer += u32::from(counting);
                        arrival = Some(next_timer + round_trip);
                    }
                    TimerFired::WaitAgain(again) => {
                        let set = TimerSet {
                            at: start + next_timer,
                            taken: state.taken,
                        };
                        armed = Some((timer.fires(next_timer + again), set));
                    }
                    TimerFired::Stop => {}
                }
            }
        }
        refills
    }

    /// The fix of 722f9a0: the timer fired after the refill mark (tokio's
    /// timer is up to 1 ms late), and a timer that fired early set no new
    /// one, so calls started refills and waited on the fleet's thread.
    /// At 8 calls a millisecond half a lease (10 tokens, 1.25 ms) lasts
    /// longer than a timer can be late plus a round trip, so the timer
    /// must start every refill, however late it fires within its
    /// resolution.
    #[test]
    fn at_a_steady_pace_the_timer_starts_every_refill_however_late_within_its_resolution() {
        let every = Duration::from_micros(125);
        let round_trip = Duration::from_micros(100);
        let calls = 2_000;
        let timers = [
            Timer::Late(Duration::ZERO),
            Timer::Late(Duration::from_micros(250)),
            Timer::Late(Duration::from_micros(500)),
            Timer::Late(Duration::from_micros(750)),
            Timer::Late(TIMER_RESOLUTION),
            Timer::NextMillisecond,
        ];
        for timer in timers {
            let refills = simulate(calls, every, timer, round_trip);
            // 2,000 calls spend about 100 leases of 20.
            assert!(refills.by_timer >= 90, "{timer:?}: {refills:?}");
            assert_eq!(refills.by_call, 0, "{timer:?}: {refills:?}");
            assert_eq!(refills.found_empty, 0, "{timer:?}: {refills:?}");
        }
    }
}
