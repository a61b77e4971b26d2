//! Per-attempt resilience for evident: a circuit breaker, a rate limiter and
//! a bulkhead per origin, applied in a fixed order, with permissions that
//! cannot leak.
//!
//! Every physical attempt asks a [`Pipeline`] for an [`AttemptPermit`]:
//! **circuit breaker → rate limiter → bulkhead**, then the call, then release
//! in reverse order (see [`pipeline`] for why the order matters). A permit is
//! a value: record the attempt's [`Verdict`] through it, or drop it and
//! everything it held is given back. A local refusal is a typed
//! [`LocalRejection`] naming the origin and, for an open circuit, when it
//! admits again.
//!
//! This crate knows nothing of HTTP failures; the core maps its evidence onto
//! [`Verdict`]s. The only HTTP notions here are the per-origin key
//! ([`Origin`]) and the answered-status policy
//! ([`AttemptPermit::record_status`]).
//!
//! Time is injected through [`Clock`] ([`SystemClock`], [`TokioClock`],
//! [`ManualClock`]), so tests are exact.
//!
//! # Example
//!
//! ```
//! use std::sync::Arc;
//! use std::time::Duration;
//! use evident_resilience::*;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let clock = ManualClock::new();
//! let config = PipelineConfig::default().circuit_breaker(Some(
//!     CircuitBreakerConfig::builder()
//!         .sliding_window_size(10)
//!         .minimum_number_of_calls(5)
//!         .wait_duration_in_open_state(Duration::from_secs(30))
//!         .build()?,
//! ));
//! let pipeline = Pipeline::new(config, Arc::new(clock.clone()));
//! let origin = Origin::new(Scheme::Https, "api.example.com", 443);
//!
//! // An upstream answering only 503 opens its circuit.
//! for _ in 0..5 {
//!     let permit = pipeline.acquire_blocking(&origin)?;
//!     permit.record_status(503);
//! }
//! assert_eq!(pipeline.state(&origin), Some(CircuitState::Open));
//!
//! // The rejection says which origin and when it admits again.
//! let rejection = pipeline.acquire_blocking(&origin).unwrap_err();
//! assert_eq!(rejection.origin(), &origin);
//! assert_eq!(rejection.retry_after(clock.now()), Some(Duration::from_secs(30)));
//! # Ok(())
//! # }
//! ```
#![warn(missing_docs, unreachable_pub, rust_2018_idioms)]
#![forbid(unsafe_code)]

pub mod breaker;
pub mod bulkhead;
pub mod clock;
pub mod error;
pub mod event;
pub mod limit;
pub mod origin;
pub mod pipeline;
pub mod rate;

pub use breaker::{
    CircuitBreaker, CircuitBreakerConfig, CircuitBreakerConfigBuilder, CircuitMetrics,
    CircuitPermission, CircuitState, DEFAULT_FAILURE_RATE_THRESHOLD, DEFAULT_FAILURE_STATUSES,
    DEFAULT_MAX_WAIT_IN_HALF_OPEN_STATE, DEFAULT_MINIMUM_NUMBER_OF_CALLS,
    DEFAULT_PERMITTED_CALLS_IN_HALF_OPEN_STATE, DEFAULT_SLIDING_WINDOW_SIZE,
    DEFAULT_WAIT_DURATION_IN_OPEN_STATE, StatusSet, Verdict,
};
pub use bulkhead::{
    Bulkhead, BulkheadConfig, BulkheadConfigBuilder, BulkheadMetrics, BulkheadPermit,
    DEFAULT_BULKHEAD_MAX_WAIT, DEFAULT_MAX_CONCURRENT_ATTEMPTS,
};
pub use clock::{Clock, Interrupt, ManualClock, SystemClock, TokioClock};
pub use error::{AdmitsAgain, ConfigError, LocalRejection};
pub use event::{Component, Event, EventHook, EventKind};
pub use limit::{Grant, PendingGrant, RateLimit, RateLimitProvider, Reservation};
pub use origin::{InvalidUri, Origin, Scheme};
pub use pipeline::{
    Admission, AttemptPermit, DEFAULT_ORIGIN_IDLE_TTL, OriginMetrics, Pipeline, PipelineConfig,
};
pub use rate::{
    DEFAULT_RATE_LIMITER_MAX_WAIT, RateLimiter, RateLimiterConfig, RateLimiterConfigBuilder,
    RateLimiterMetrics, RatePermit,
};
