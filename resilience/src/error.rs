//! Typed errors: local rejections and configuration errors.
//!
//! A [`LocalRejection`] means *we* refused to send the attempt; the upstream
//! never saw it. The core must not treat it as upstream evidence, and the
//! pipeline never records it as a circuit error (see the
//! [`pipeline`](crate::pipeline) module for why).

use std::time::{Duration, Instant};

use crate::Origin;

/// Why the pipeline refused to start an attempt, for which origin, and when
/// it may be worth asking again.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LocalRejection {
    /// The origin's circuit breaker is OPEN, or HALF_OPEN with every trial
    /// call already handed out.
    #[error("circuit breaker for {origin} is open ({admits_again})")]
    #[non_exhaustive]
    CircuitOpen {
        /// The origin whose circuit rejected.
        origin: Origin,
        /// When the circuit may admit calls again.
        admits_again: AdmitsAgain,
    },
    /// The origin's rate limiter had no permit within the allowed wait.
    #[error(
        "rate limit for {origin} exhausted: next permit in {next_permit_in:?}, allowed wait {max_wait:?}"
    )]
    #[non_exhaustive]
    RateLimited {
        /// The origin whose rate limiter rejected.
        origin: Origin,
        /// How long until a permit would have been available (more than
        /// `max_wait`).
        next_permit_in: Duration,
        /// The configured wait limit (zero: fail fast).
        max_wait: Duration,
    },
    /// The origin's bulkhead had no free slot within the allowed wait.
    #[error("bulkhead for {origin} full: {max_concurrent} attempts in flight, waited {max_wait:?}")]
    #[non_exhaustive]
    BulkheadFull {
        /// The origin whose bulkhead rejected.
        origin: Origin,
        /// The configured maximum of concurrent attempts.
        max_concurrent: u32,
        /// The configured wait limit (zero: fail fast).
        max_wait: Duration,
    },
    /// The caller's [`Interrupt`](crate::Interrupt) was raised while the
    /// attempt waited for admission (a client being drained).
    #[error("admission to {origin} interrupted while waiting")]
    #[non_exhaustive]
    Interrupted {
        /// The origin the attempt waited for.
        origin: Origin,
    },
}

impl LocalRejection {
    /// A [`RateLimited`](Self::RateLimited) rejection, for a
    /// [`RateLimit`](crate::RateLimit) implemented outside this crate.
    pub fn rate_limited(origin: Origin, next_permit_in: Duration, max_wait: Duration) -> Self {
        LocalRejection::RateLimited {
            origin,
            next_permit_in,
            max_wait,
        }
    }

    /// The origin that rejected.
    pub fn origin(&self) -> &Origin {
        match self {
            LocalRejection::CircuitOpen { origin, .. }
            | LocalRejection::RateLimited { origin, .. }
            | LocalRejection::BulkheadFull { origin, .. }
            | LocalRejection::Interrupted { origin } => origin,
        }
    }

    /// How long from `now` until asking again can succeed, when that is
    /// known: the rest of an open circuit's wait, or the time to the next
    /// rate-limiter permit. `None` for a full HALF_OPEN circuit (it depends on
    /// when trial calls finish) and for a full bulkhead (it depends on when
    /// attempts in flight finish).
    pub fn retry_after(&self, now: Instant) -> Option<Duration> {
        match self {
            LocalRejection::CircuitOpen { admits_again, .. } => admits_again.retry_after(now),
            LocalRejection::RateLimited { next_permit_in, .. } => Some(*next_permit_in),
            LocalRejection::BulkheadFull { .. } | LocalRejection::Interrupted { .. } => None,
        }
    }
}

/// When a rejecting circuit may admit calls again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum AdmitsAgain {
    /// The circuit is OPEN and moves to HALF_OPEN at this instant (of the
    /// pipeline's [`Clock`](crate::Clock)).
    At(Instant),
    /// The circuit is HALF_OPEN and all trial calls are in flight. There is
    /// no definite time: it admits again only after the trials finish and
    /// close it (or, if a maximum wait in HALF_OPEN is configured, after it
    /// reopens and that open wait elapses).
    AfterTrialCalls,
}

impl AdmitsAgain {
    /// Time from `now` until the circuit admits again, if definite (zero if
    /// the instant has passed).
    pub fn retry_after(self, now: Instant) -> Option<Duration> {
        match self {
            AdmitsAgain::At(at) => Some(at.saturating_duration_since(now)),
            AdmitsAgain::AfterTrialCalls => None,
        }
    }
}

impl std::fmt::Display for AdmitsAgain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AdmitsAgain::At(_) => f.write_str("admits again after its open wait"),
            AdmitsAgain::AfterTrialCalls => {
                f.write_str("half-open, all trial calls in flight; no definite time")
            }
        }
    }
}

/// A configuration value was out of range. Names the field, the bad value
/// and what was expected.
///
/// ```
/// use evident_resilience::CircuitBreakerConfig;
///
/// let err = CircuitBreakerConfig::builder()
///     .failure_rate_threshold(150.0)
///     .build()
///     .unwrap_err();
/// assert_eq!(err.field(), "failure_rate_threshold");
/// assert_eq!(err.value(), "150");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid {field} = {value}: expected {expected}")]
pub struct ConfigError {
    field: &'static str,
    value: String,
    expected: &'static str,
}

impl ConfigError {
    pub(crate) fn new(field: &'static str, value: impl ToString, expected: &'static str) -> Self {
        Self {
            field,
            value: value.to_string(),
            expected,
        }
    }

    /// The name of the offending builder field.
    pub fn field(&self) -> &'static str {
        self.field
    }

    /// The rejected value, formatted.
    pub fn value(&self) -> &str {
        &self.value
    }

    /// What the field accepts.
    pub fn expected(&self) -> &'static str {
        self.expected
    }
}
