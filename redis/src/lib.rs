//! A fleet of evident clients sharing one rate limit per origin and one
//! retry budget through Redis.
//!
//! Without this crate every limit is per process: forty replicas calling an
//! API with a quota of 500 requests a second must each be set to 12 by
//! hand, and each keeps its own retry budget. A [`Fleet`] shares them:
//!
//! * [`Fleet::rate_limits`] gives a pipeline
//!   ([`PipelineConfig::rate_limit_provider`](evident_resilience::PipelineConfig::rate_limit_provider))
//!   one GCRA limiter per origin kept on Redis, on Redis' clock, with
//!   refunds and optional leasing (see [`limiter`]). Without a lease each
//!   admission waits for a Redis round trip; lease
//!   ([`SharedRateLimits::lease`]) when latency matters.
//! * [`Fleet::retry_budget`] gives a retry policy
//!   ([`RetryPolicyBuilder::shared_budget`](evident_core::RetryPolicyBuilder::shared_budget))
//!   a budget whose counters are the fleet's (see [`budget`]).
//!
//! # Redis trouble never hurts a call
//!
//! Every Redis operation a call may wait for has a deadline
//! ([`DEFAULT_DEADLINE`], 5 ms). When Redis misses it, errs, or is down,
//! the call goes on under local limits — the shared ones divided by the
//! expected fleet size — and the fleet switches to local until a
//! background reconnect succeeds, then shares again by itself. No call
//! fails because Redis failed, and none waits longer than the deadline.
//! Each switch is reported three ways: to the observers given to
//! [`FleetConfigBuilder::observer`] as an
//! [`Observer::on_shared_state`](evident_core::Observer::on_shared_state)
//! call ([`SharedStateEvent`](evident_core::observe::SharedStateEvent):
//! joined, fell back with its
//! [`FallbackReason`](evident_core::observe::FallbackReason), shared
//! again), exactly once per switch, in order, from the fleet's thread; as
//! metrics when one of them is the core's `MetricsObserver` (feature
//! `metrics`: `evident.client.fleet.shared`, `.fallbacks` by reason,
//! `.recoveries`); and through `tracing` (target `evident::redis`). The
//! current state is in [`Fleet::status`] and the counts in
//! [`Fleet::metrics`]. None of them shows the password. An unreachable
//! Redis at start-up is not an error either: [`Fleet::connect`] returns a
//! fleet running locally, and says so.
//!
//! One limit remains: an async caller's wait for Redis is bounded by a
//! timer on the fleet's own thread (the caller's runtime may have no
//! timer), so a machine that starves that thread for longer than the
//! deadline can hold an async admission that much longer; a blocking
//! caller bounds its own wait.
//!
//! # Example
//!
//! ```no_run
//! use std::time::Duration;
//! use evident_core::client::ClientBuilder;
//! use evident_core::{BudgetConfig, RetryPolicy};
//! use evident_redis::{Fleet, FleetConfig};
//! use evident_resilience::{PipelineConfig, RateLimiterConfig};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let fleet = Fleet::connect(
//!     FleetConfig::builder("redis://127.0.0.1:6379", "payments-api")
//!         .expected_fleet_size(40)
//!         .build()?,
//! )?;
//! // 500 requests a second to each origin, for all 40 processes together.
//! let limits = fleet
//!     .rate_limits(RateLimiterConfig::builder(500, Duration::from_secs(1)).build()?)
//!     .lease(5)?;
//! let budget = fleet.retry_budget(BudgetConfig::default())?;
//! let builder = ClientBuilder::new()
//!     .pipeline(PipelineConfig::default().rate_limit_provider(std::sync::Arc::new(limits)))
//!     .policy(RetryPolicy::builder().shared_budget(budget).build()?);
//! // builder.build(engine) with any engine, as usual.
//! # let _ = builder;
//! # Ok(()) }
//! ```
#![warn(missing_docs, unreachable_pub, rust_2018_idioms)]
#![forbid(unsafe_code)]

pub mod budget;
mod config;
pub mod limiter;
mod link;

use std::sync::Arc;
use std::time::{Duration, Instant};

use evident_core::BudgetConfig;
use evident_core::decide::RetryBudget;
use evident_resilience::RateLimiterConfig;

pub use budget::{DEFAULT_ALLOWANCE, DEFAULT_FLUSH_BATCH};
pub use config::{
    DEFAULT_CONNECT_TIMEOUT, DEFAULT_DEADLINE, DEFAULT_EXPECTED_FLEET_SIZE, DEFAULT_FLUSH_INTERVAL,
    DEFAULT_KEY_EXPIRY, DEFAULT_RECONNECT_INTERVAL, FleetConfig, FleetConfigBuilder,
    FleetConfigError, RedisUrl,
};
pub use limiter::{DEFAULT_LEASE_LIFETIME, NO_LEASE, SharedRateLimits};
pub use link::{FleetMetrics, FleetStatus, Trouble};

use link::{Link, LinkHandle};

/// Starting a fleet failed for a reason of this process, not of Redis.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FleetError {
    /// The fleet's runtime thread could not be started.
    #[error("could not start the fleet's runtime thread: {0}")]
    Runtime(#[from] std::io::Error),
}

/// A process's membership in a fleet: the link to Redis, shared by every
/// limiter and budget made from it. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Fleet {
    handle: Arc<LinkHandle>,
}

impl Fleet {
    /// Joins the fleet: starts the fleet's runtime thread and waits up to
    /// the connect timeout for Redis. If Redis cannot be reached (or
    /// rejects the credentials), the fleet still starts, runs on local
    /// limits, logs why, and keeps reconnecting in the background.
    ///
    /// It blocks the calling thread for at most twice the connect timeout
    /// (400 ms by default): call it at start-up, not on a call's path.
    ///
    /// # Errors
    ///
    /// Only if the runtime thread cannot be started.
    pub fn connect(config: FleetConfig) -> Result<Fleet, FleetError> {
        Ok(Fleet {
            handle: Arc::new(Link::start(config)?),
        })
    }

    /// Shared or local, and why.
    pub fn status(&self) -> FleetStatus {
        self.handle.link.status()
    }

    /// Counters of Redis traffic and of fallbacks.
    pub fn metrics(&self) -> FleetMetrics {
        self.handle.link.metrics()
    }

    /// The configuration.
    pub fn config(&self) -> &FleetConfig {
        &self.handle.link.config
    }

    /// Waits (polling, at most `timeout`) until the fleet shares through
    /// Redis; returns whether it does.
    pub fn wait_until_shared(&self, timeout: Duration) -> bool {
        /// Polling step: short against a reconnect interval.
        const POLL: Duration = Duration::from_millis(5);
        let start = Instant::now();
        loop {
            if self.handle.link.is_shared() {
                return true;
            }
            if start.elapsed() >= timeout {
                return false;
            }
            std::thread::sleep(POLL.min(timeout.saturating_sub(start.elapsed())));
        }
    }

    /// Fleet-wide rate limits, `config` per origin for the whole fleet
    /// (GCRA on Redis); plug them into a pipeline with
    /// [`PipelineConfig::rate_limit_provider`](evident_resilience::PipelineConfig::rate_limit_provider).
    pub fn rate_limits(&self, config: RateLimiterConfig) -> SharedRateLimits {
        SharedRateLimits::new(self.handle.clone(), config)
    }

    /// A fleet-wide retry budget with `config`'s ratio, floor and window;
    /// give it to a policy with
    /// [`RetryPolicyBuilder::shared_budget`](evident_core::RetryPolicyBuilder::shared_budget).
    ///
    /// # Errors
    ///
    /// A ratio outside `0..=1` or a window outside one second to one day.
    pub fn retry_budget(&self, config: BudgetConfig) -> Result<Arc<RetryBudget>, FleetConfigError> {
        budget::shared_budget(self.handle.clone(), config)
    }
}
