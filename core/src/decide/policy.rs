//! The retry policy: validated tunables plus the injected random source and
//! the shared retry budget.

use std::sync::Arc;
use std::time::Duration;

use super::backoff::{Backoff, RandomSource, XorShiftRandom};
use super::budget::{
    DEFAULT_BUDGET_MIN_PER_SEC, DEFAULT_BUDGET_RATIO, DEFAULT_BUDGET_TTL, RetryBudget,
};
use crate::config::ConfigError;

/// Default total attempts per call, the first included: 3, as gRPC's and
/// smithy-rs's standard strategies; enough to ride out one transient fault
/// without tripling a degraded upstream's load for long.
pub const DEFAULT_MAX_ATTEMPTS: u32 = 3;
/// Upper bound on `max_attempts`: beyond this, a configuration is a mistake,
/// not a policy.
pub const MAX_ATTEMPTS_LIMIT: u32 = 100;
/// Default first backoff: 100 ms, long enough for a refused connection or a
/// restarting pod to change state, short for an interactive call.
pub const DEFAULT_BASE_BACKOFF: Duration = Duration::from_millis(100);
/// Default cap on one backoff: 10 s, so exponential growth stays bounded.
pub const DEFAULT_MAX_BACKOFF: Duration = Duration::from_secs(10);
/// Default jitter: a delay is shortened by up to half of itself ("equal
/// jitter"), which spreads clients apart while still backing off.
pub const DEFAULT_JITTER: f64 = 0.5;
/// Default minimum time an attempt needs: 50 ms. Starting an attempt with
/// less than this before the deadline only produces a timeout.
pub const DEFAULT_MIN_ATTEMPT_TIME: Duration = Duration::from_millis(50);
/// Default ceiling for a `Retry-After` honoured without a deadline: 60 s.
/// A server asking for longer is better answered by stopping than by a call
/// that hangs for minutes.
pub const DEFAULT_RETRY_AFTER_CEILING: Duration = Duration::from_secs(60);
/// Upper bound on any configured duration (one day): larger values are
/// mistakes, and they would overflow instant arithmetic.
pub const MAX_CONFIG_DURATION: Duration = Duration::from_secs(24 * 60 * 60);

/// The retry policy used by [`RetryPolicy::decide`](super::RetryPolicy::decide).
///
/// ```
/// use std::time::Duration;
/// use evident_core::RetryPolicy;
///
/// let policy = RetryPolicy::builder()
///     .max_attempts(4)
///     .base_backoff(Duration::from_millis(50))
///     .max_backoff(Duration::from_secs(2))
///     .build()?;
/// assert_eq!(policy.max_attempts(), 4);
/// # Ok::<(), evident_core::ConfigError>(())
/// ```
#[derive(Debug, Clone)]
pub struct RetryPolicy {
    pub(crate) max_attempts: u32,
    pub(crate) backoff: Backoff,
    pub(crate) min_attempt_time: Duration,
    pub(crate) retry_after_ceiling: Duration,
    pub(crate) budget: Option<Arc<RetryBudget>>,
    pub(crate) random: Arc<dyn RandomSource>,
}

impl RetryPolicy {
    /// A builder starting from the defaults.
    pub fn builder() -> RetryPolicyBuilder {
        RetryPolicyBuilder::default()
    }

    /// Total attempts allowed per call, the first included.
    pub fn max_attempts(&self) -> u32 {
        self.max_attempts
    }

    /// The minimum time an attempt needs before the deadline.
    pub fn min_attempt_time(&self) -> Duration {
        self.min_attempt_time
    }

    /// The retry budget, when one is used.
    pub fn budget(&self) -> Option<&Arc<RetryBudget>> {
        self.budget.as_ref()
    }
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicyBuilder::default()
            .build()
            .expect("the defaults are valid")
    }
}

/// Budget parameters for [`RetryPolicyBuilder::budget`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BudgetConfig {
    /// Share of recent requests that retries may add, in `0..=1`.
    pub ratio: f64,
    /// Retries per second always allowed.
    pub min_per_sec: u32,
    /// The window over which requests count.
    pub ttl: Duration,
}

impl Default for BudgetConfig {
    fn default() -> Self {
        BudgetConfig {
            ratio: DEFAULT_BUDGET_RATIO,
            min_per_sec: DEFAULT_BUDGET_MIN_PER_SEC,
            ttl: DEFAULT_BUDGET_TTL,
        }
    }
}

/// Builds a validated [`RetryPolicy`].
#[derive(Debug, Clone)]
pub struct RetryPolicyBuilder {
    max_attempts: u32,
    base_backoff: Duration,
    max_backoff: Duration,
    jitter: f64,
    min_attempt_time: Duration,
    retry_after_ceiling: Duration,
    budget: Option<BudgetConfig>,
    shared_budget: Option<Arc<RetryBudget>>,
    random: Option<Arc<dyn RandomSource>>,
}

impl Default for RetryPolicyBuilder {
    fn default() -> Self {
        RetryPolicyBuilder {
            max_attempts: DEFAULT_MAX_ATTEMPTS,
            base_backoff: DEFAULT_BASE_BACKOFF,
            max_backoff: DEFAULT_MAX_BACKOFF,
            jitter: DEFAULT_JITTER,
            min_attempt_time: DEFAULT_MIN_ATTEMPT_TIME,
            retry_after_ceiling: DEFAULT_RETRY_AFTER_CEILING,
            budget: Some(BudgetConfig::default()),
            shared_budget: None,
            random: None,
        }
    }
}

impl RetryPolicyBuilder {
    /// Total attempts per call, the first included (`1..=100`).
    pub fn max_attempts(mut self, n: u32) -> Self {
        self.max_attempts = n;
        self
    }

    /// The first backoff delay (non-zero, at most `max_backoff`).
    pub fn base_backoff(mut self, d: Duration) -> Self {
        self.base_backoff = d;
        self
    }

    /// The cap on one backoff delay. A `Retry-After` is never clipped by it.
    pub fn max_backoff(mut self, d: Duration) -> Self {
        self.max_backoff = d;
        self
    }

    /// The share of a delay that jitter may remove, in `0..=1`.
    pub fn jitter(mut self, fraction: f64) -> Self {
        self.jitter = fraction;
        self
    }

    /// The minimum time an attempt needs (non-zero).
    pub fn min_attempt_time(mut self, d: Duration) -> Self {
        self.min_attempt_time = d;
        self
    }

    /// Without a deadline, a `Retry-After` beyond this stops the call.
    pub fn retry_after_ceiling(mut self, d: Duration) -> Self {
        self.retry_after_ceiling = d;
        self
    }

    /// Use a retry budget with these parameters (the default).
    pub fn budget(mut self, budget: BudgetConfig) -> Self {
        self.budget = Some(budget);
        self.shared_budget = None;
        self
    }

    /// Share an existing budget (e.g. one per process).
    pub fn shared_budget(mut self, budget: Arc<RetryBudget>) -> Self {
        self.shared_budget = Some(budget);
        self.budget = None;
        self
    }

    /// No retry budget: only `max_attempts` bounds retries.
    pub fn no_budget(mut self) -> Self {
        self.budget = None;
        self.shared_budget = None;
        self
    }

    /// The random source for jitter (default: a xorshift seeded at build).
    pub fn random(mut self, random: Arc<dyn RandomSource>) -> Self {
        self.random = Some(random);
        self
    }

    /// Validates and builds the policy.
    pub fn build(self) -> Result<RetryPolicy, ConfigError> {
        if self.max_attempts == 0 {
            return Err(ConfigError::new(
                "max_attempts",
                self.max_attempts,
                "at least one attempt is needed",
            ));
        }
        if self.max_attempts > MAX_ATTEMPTS_LIMIT {
            return Err(ConfigError::new(
                "max_attempts",
                self.max_attempts,
                "more than 100 attempts is not a retry policy",
            ));
        }
        check_duration("base_backoff", self.base_backoff)?;
        check_duration("max_backoff", self.max_backoff)?;
        if self.base_backoff > self.max_backoff {
            return Err(ConfigError::new(
                "base_backoff",
                self.base_backoff,
                "must not exceed max_backoff",
            ));
        }
        if !(0.0..=1.0).contains(&self.jitter) {
            return Err(ConfigError::new(
                "jitter",
                self.jitter,
                "must be a fraction in 0..=1",
            ));
        }
        check_duration("min_attempt_time", self.min_attempt_time)?;
        check_duration("retry_after_ceiling", self.retry_after_ceiling)?;
        let budget = match (self.shared_budget, self.budget) {
            (Some(shared), _) => Some(shared),
            (None, Some(cfg)) => {
                if !(0.0..=1.0).contains(&cfg.ratio) {
                    return Err(ConfigError::new(
                        "budget.ratio",
                        cfg.ratio,
                        "must be a fraction in 0..=1",
                    ));
                }
                check_duration("budget.ttl", cfg.ttl)?;
                if cfg.ttl < Duration::from_secs(1) {
                    return Err(ConfigError::new(
                        "budget.ttl",
                        cfg.ttl,
                        "must be at least one second",
                    ));
                }
                Some(Arc::new(RetryBudget::new(
                    cfg.ratio,
                    cfg.min_per_sec,
                    cfg.ttl,
                )))
            }
            (None, None) => None,
        };
        Ok(RetryPolicy {
            max_attempts: self.max_attempts,
            backoff: Backoff {
                base: self.base_backoff,
                max: self.max_backoff,
                jitter: self.jitter,
            },
            min_attempt_time: self.min_attempt_time,
            retry_after_ceiling: self.retry_after_ceiling,
            budget,
            random: self
                .random
                .unwrap_or_else(|| Arc::new(XorShiftRandom::from_entropy())),
        })
    }
}

/// A duration that must be non-zero and not absurd.
pub(crate) fn check_duration(field: &'static str, d: Duration) -> Result<(), ConfigError> {
    if d.is_zero() {
        return Err(ConfigError::new(field, d, "must be greater than zero"));
    }
    if d > MAX_CONFIG_DURATION {
        return Err(ConfigError::new(field, d, "must not exceed one day"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(b: RetryPolicyBuilder) -> (String, String) {
        let e = b.build().unwrap_err();
        (e.field().to_owned(), e.value().to_owned())
    }

    #[test]
    fn defaults_build() {
        let p = RetryPolicy::default();
        assert_eq!(p.max_attempts(), DEFAULT_MAX_ATTEMPTS);
        assert!(p.budget().is_some());
    }

    #[test]
    fn impossible_configurations_name_the_field_and_value() {
        let b = RetryPolicy::builder;
        assert_eq!(
            err(b().max_attempts(0)),
            ("max_attempts".into(), "0".into())
        );
        assert_eq!(err(b().max_attempts(101)).0, "max_attempts");
        assert_eq!(
            err(b()
                .base_backoff(Duration::from_secs(5))
                .max_backoff(Duration::from_secs(1))),
            ("base_backoff".into(), "5s".into())
        );
        assert_eq!(err(b().base_backoff(Duration::ZERO)).0, "base_backoff");
        assert_eq!(
            err(b().min_attempt_time(Duration::ZERO)).0,
            "min_attempt_time"
        );
        assert_eq!(err(b().jitter(1.5)).0, "jitter");
        assert_eq!(err(b().jitter(f64::NAN)).0, "jitter");
        assert_eq!(
            err(b().budget(BudgetConfig {
                ratio: 1.2,
                ..BudgetConfig::default()
            })),
            ("budget.ratio".into(), "1.2".into())
        );
        assert_eq!(
            err(b().budget(BudgetConfig {
                ratio: -0.1,
                ..BudgetConfig::default()
            }))
            .0,
            "budget.ratio"
        );
        assert_eq!(
            err(b().retry_after_ceiling(Duration::from_secs(10 * 24 * 3600))).0,
            "retry_after_ceiling"
        );
    }
}
