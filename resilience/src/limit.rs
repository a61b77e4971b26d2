//! The seam between the pipeline and a rate limiter.
//!
//! # Why a trait
//!
//! The pipeline's second stage asks "may this attempt go now, or after
//! how long?", takes a token, and later spends it or gives it back. The
//! local [`crate::RateLimiter`] answers from memory; a limiter
//! shared by a fleet (through Redis, say) may have to ask over the network.
//! Both are a [`RateLimit`], so the pipeline treats them alike: the same
//! order (breaker → rate limiter → bulkhead), the same release rules (a
//! later stage's rejection or a cancelled attempt gives the token back),
//! and the same [`RatePermit`](crate::RatePermit) that cannot leak.
//!
//! A limiter that must ask elsewhere answers [`Reservation::Pending`] on
//! the async path; the pipeline then awaits it like any other admission
//! wait. On the blocking path it answers through
//! [`RateLimit::reserve_blocking`], bounded by its own deadline.
//!
//! A pipeline builds one limiter per origin from a [`RateLimitProvider`]:
//! a [`RateLimiterConfig`] is the provider of local limiters.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::event::EventHook;
use crate::{Clock, LocalRejection, Origin, RateLimiter, RateLimiterConfig, RateLimiterMetrics};

/// A token granted by a [`RateLimit`]: which one (an opaque `ticket` the
/// limiter reads back in [`RateLimit::end`]) and how long the attempt must
/// still wait before using it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grant {
    ticket: u64,
    wait: Duration,
}

impl Grant {
    /// A token named `ticket`, usable after `wait`.
    pub fn new(ticket: u64, wait: Duration) -> Self {
        Self { ticket, wait }
    }
    /// The limiter's name for this token.
    pub fn ticket(&self) -> u64 {
        self.ticket
    }
    /// How long to wait before using it (zero: now).
    pub fn wait(&self) -> Duration {
        self.wait
    }
}

/// A future resolving to a [`Grant`] or a rejection.
pub type PendingGrant = Pin<Box<dyn Future<Output = Result<Grant, LocalRejection>> + Send>>;

/// What [`RateLimit::reserve`] answered.
#[must_use = "a reservation may hold a token; turn it into a permit or drop it"]
pub enum Reservation {
    /// Decided at once, from what the limiter knows locally.
    Ready(Result<Grant, LocalRejection>),
    /// The limiter must ask elsewhere first; the future is bounded by the
    /// limiter's own deadline. Dropping it before it resolves must give
    /// back whatever it obtained.
    Pending(PendingGrant),
}

impl fmt::Debug for Reservation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reservation::Ready(result) => f.debug_tuple("Ready").field(result).finish(),
            Reservation::Pending(_) => f.write_str("Pending(..)"),
        }
    }
}

/// A rate limiter for one origin, as the pipeline uses it.
///
/// Implementations count their own events (if they were given a hook) and
/// apply their own configured `max_wait`: the `max_wait` passed in is what
/// the caller can afford, and the limiter waits at most the shorter of the
/// two.
pub trait RateLimit: Send + Sync + 'static {
    /// The origin this limiter guards.
    fn origin(&self) -> &Origin;

    /// Takes a token now, or reserves one at most `max_wait` away; never
    /// sleeps. [`Reservation::Pending`] only when the answer needs I/O.
    fn reserve(&self, now: Instant, max_wait: Duration) -> Reservation;

    /// Like [`reserve`](Self::reserve), for a caller that may block its
    /// thread (no async runtime needed), never for longer than the
    /// limiter's own deadline. Never sleeps for the returned wait.
    fn reserve_blocking(&self, now: Instant, max_wait: Duration) -> Result<Grant, LocalRejection>;

    /// Ends the token `ticket`: spent by an attempt that was made
    /// (`consumed`), or given back. Called exactly once per grant, by the
    /// [`RatePermit`](crate::RatePermit) holding it.
    fn end(&self, ticket: u64, consumed: bool);

    /// A snapshot of the accounting.
    fn metrics(&self) -> RateLimiterMetrics;
}

/// Builds the [`RateLimit`] of each origin a pipeline meets.
pub trait RateLimitProvider: Send + Sync + fmt::Debug {
    /// The limiter for `origin`, reading time from `clock` and reporting
    /// to `hook` if there is one.
    fn rate_limit(
        &self,
        origin: &Origin,
        clock: Arc<dyn Clock>,
        hook: Option<EventHook>,
    ) -> Arc<dyn RateLimit>;
}

/// A configuration provides local limiters.
impl RateLimitProvider for RateLimiterConfig {
    fn rate_limit(
        &self,
        origin: &Origin,
        clock: Arc<dyn Clock>,
        hook: Option<EventHook>,
    ) -> Arc<dyn RateLimit> {
        RateLimiter::with_hook(origin.clone(), self.clone(), clock, hook).into_rate_limit()
    }
}
