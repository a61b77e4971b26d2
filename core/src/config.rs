//! Typed configuration errors, shared by every builder in the core.

use std::fmt;

/// A configuration value was rejected. Names the field, the bad value and
/// what is wrong with it.
///
/// ```
/// use evident_core::RetryPolicy;
///
/// let err = RetryPolicy::builder().max_attempts(0).build().unwrap_err();
/// assert_eq!(err.field(), "max_attempts");
/// assert_eq!(err.value(), "0");
/// assert!(err.to_string().contains("max_attempts"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid configuration: {field} = {value}: {problem}")]
pub struct ConfigError {
    field: &'static str,
    value: String,
    problem: &'static str,
}

impl ConfigError {
    /// A rejected `value` for `field`, with the `problem` in a few words.
    pub fn new(field: &'static str, value: impl fmt::Debug, problem: &'static str) -> Self {
        ConfigError {
            field,
            value: format!("{value:?}"),
            problem,
        }
    }

    /// The field's name, as the builder method spells it.
    pub fn field(&self) -> &'static str {
        self.field
    }

    /// The rejected value, formatted.
    pub fn value(&self) -> &str {
        &self.value
    }

    /// What is wrong with it.
    pub fn problem(&self) -> &'static str {
        self.problem
    }
}
