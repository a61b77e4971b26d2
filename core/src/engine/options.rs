//! The options every engine builder takes, written once: what `https://`
//! trusts, name-resolution overrides, the connection pool and how a host's
//! addresses are connected. Each engine's builder embeds one
//! [`EngineOptions`] and gets its setters from [`engine_options!`]
//! (crate::engine_options), so the same option means the same thing, with
//! the same default and the same validation, on every engine. An option an
//! engine cannot honour is a [`ConfigError`] at `build()`, never silently
//! ignored.

use std::time::Duration;

use crate::config::ConfigError;
use crate::engine::pool::{
    DEFAULT_IDLE_TIMEOUT, DEFAULT_MAX_IDLE_PER_ORIGIN, MAX_IDLE_PER_ORIGIN_LIMIT,
};
use crate::engine::{
    ConnectTiming, DEFAULT_CONNECT_TIMEOUT_PER_ADDRESS, DEFAULT_CONNECTION_ATTEMPT_DELAY,
    HostOverrides,
};
use crate::tls::TlsOptions;

/// The options every engine builder takes.
///
/// ```
/// use std::time::Duration;
/// use evident_core::engine::EngineOptions;
///
/// let options = EngineOptions::new()
///     .max_idle_per_origin(4)
///     .connection_attempt_delay(Duration::from_millis(100));
/// let valid = options.validate().unwrap();
/// assert_eq!(valid.max_idle_per_origin, 4);
/// assert_eq!(valid.connect_timing.attempt_delay(), Duration::from_millis(100));
///
/// // Impossible values are typed errors naming the option.
/// let err = EngineOptions::new().idle_timeout(Duration::ZERO).validate().unwrap_err();
/// assert_eq!(err.field(), "idle_timeout");
/// ```
#[derive(Debug, Clone, Default)]
pub struct EngineOptions {
    tls: TlsOptions,
    root_certificates: Option<Vec<Vec<u8>>>,
    host_overrides: HostOverrides,
    max_idle_per_origin: Option<usize>,
    idle_timeout: Option<Duration>,
    connection_attempt_delay: Option<Duration>,
    connect_timeout_per_address: Option<Duration>,
}

/// [`EngineOptions`] validated, with every default filled in.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ValidOptions {
    /// What `https://` trusts and presents, the root certificates applied.
    pub tls: TlsOptions,
    /// Name-resolution overrides.
    pub host_overrides: HostOverrides,
    /// Idle connections kept per origin (`0`: no reuse).
    pub max_idle_per_origin: usize,
    /// How long an idle pooled connection is kept.
    pub idle_timeout: Duration,
    /// How a host's addresses are connected (RFC 8305).
    pub connect_timing: ConnectTiming,
}

/// The options an engine may be unable to honour, for
/// [`EngineOptions::refuse`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum EngineOption {
    /// `max_idle_per_origin`.
    MaxIdlePerOrigin,
    /// `idle_timeout`.
    IdleTimeout,
    /// `connection_attempt_delay`.
    ConnectionAttemptDelay,
    /// `connect_timeout_per_address`.
    ConnectTimeoutPerAddress,
}

impl EngineOption {
    /// The builder method's name, as a [`ConfigError`] names the field.
    pub const fn name(self) -> &'static str {
        match self {
            EngineOption::MaxIdlePerOrigin => "max_idle_per_origin",
            EngineOption::IdleTimeout => "idle_timeout",
            EngineOption::ConnectionAttemptDelay => "connection_attempt_delay",
            EngineOption::ConnectTimeoutPerAddress => "connect_timeout_per_address",
        }
    }
}

impl EngineOptions {
    /// Every option at its default.
    pub fn new() -> Self {
        Self::default()
    }

    /// What `https://` trusts and which client certificate it presents
    /// (default [`TlsOptions::new`]: the public web roots with the feature
    /// `webpki-roots`, the system store with `native-roots`).
    pub fn tls(mut self, options: TlsOptions) -> Self {
        self.tls = options;
        self
    }

    /// Trust exactly these DER certificates for `https://`: no compiled-in
    /// or system roots, and none at all for an empty list (every
    /// certificate is then rejected; `http://` still works). Keeps the
    /// client identity set by [`Self::tls`].
    pub fn root_certificates(mut self, ders: Vec<Vec<u8>>) -> Self {
        self.root_certificates = Some(ders);
        self
    }

    /// Name-resolution overrides, honoured before the system resolver.
    pub fn host_overrides(mut self, overrides: HostOverrides) -> Self {
        self.host_overrides = overrides;
        self
    }

    /// How many idle connections to keep per origin (default
    /// [`DEFAULT_MAX_IDLE_PER_ORIGIN`]; `0` disables reuse; at most
    /// [`MAX_IDLE_PER_ORIGIN_LIMIT`]).
    pub fn max_idle_per_origin(mut self, max: usize) -> Self {
        self.max_idle_per_origin = Some(max);
        self
    }

    /// How long an idle pooled connection is kept (default
    /// [`DEFAULT_IDLE_TIMEOUT`]; must be positive: turn reuse off with
    /// `max_idle_per_origin(0)`).
    pub fn idle_timeout(mut self, timeout: Duration) -> Self {
        self.idle_timeout = Some(timeout);
        self
    }

    /// How long after starting one address's connect the next address of
    /// the host is started while the first has neither connected nor
    /// failed: RFC 8305's Connection Attempt Delay (default
    /// [`DEFAULT_CONNECTION_ATTEMPT_DELAY`], 250 ms; within RFC 8305's
    /// bounds, see [`ConnectTiming::new`]).
    pub fn connection_attempt_delay(mut self, delay: Duration) -> Self {
        self.connection_attempt_delay = Some(delay);
        self
    }

    /// How long one address's connect may take while another address
    /// remains to be started (default
    /// [`DEFAULT_CONNECT_TIMEOUT_PER_ADDRESS`]; must be positive). It never
    /// holds the next address back (see [`Self::connection_attempt_delay`]),
    /// and no connect outlives the attempt.
    pub fn connect_timeout_per_address(mut self, timeout: Duration) -> Self {
        self.connect_timeout_per_address = Some(timeout);
        self
    }

    /// Validates every option and fills in the defaults.
    ///
    /// # Errors
    ///
    /// * `root_certificates`: a certificate is not valid DER X.509 (the
    ///   value is its index);
    /// * `max_idle_per_origin`: above [`MAX_IDLE_PER_ORIGIN_LIMIT`];
    /// * `idle_timeout`, `connect_timeout_per_address`: zero;
    /// * `connection_attempt_delay`: outside RFC 8305's bounds.
    pub fn validate(&self) -> Result<ValidOptions, ConfigError> {
        let max_idle_per_origin = self
            .max_idle_per_origin
            .unwrap_or(DEFAULT_MAX_IDLE_PER_ORIGIN);
        if max_idle_per_origin > MAX_IDLE_PER_ORIGIN_LIMIT {
            return Err(ConfigError::new(
                "max_idle_per_origin",
                max_idle_per_origin,
                "exceeds MAX_IDLE_PER_ORIGIN_LIMIT",
            ));
        }
        let idle_timeout = self.idle_timeout.unwrap_or(DEFAULT_IDLE_TIMEOUT);
        if idle_timeout.is_zero() {
            return Err(ConfigError::new(
                "idle_timeout",
                idle_timeout,
                "must be positive (turn reuse off with max_idle_per_origin(0))",
            ));
        }
        let connect_timing = ConnectTiming::new(
            self.connection_attempt_delay
                .unwrap_or(DEFAULT_CONNECTION_ATTEMPT_DELAY),
            self.connect_timeout_per_address
                .unwrap_or(DEFAULT_CONNECT_TIMEOUT_PER_ADDRESS),
        )?;
        let tls = match &self.root_certificates {
            Some(ders) => self.tls.clone().with_only_roots(ders.clone())?,
            None => self.tls.clone(),
        };
        Ok(ValidOptions {
            tls,
            host_overrides: self.host_overrides.clone(),
            max_idle_per_origin,
            idle_timeout,
            connect_timing,
        })
    }

    /// A [`ConfigError`] when `option` was set: for an engine that cannot
    /// honour it, saying `why`.
    ///
    /// ```
    /// use evident_core::engine::{EngineOption, EngineOptions};
    ///
    /// let options = EngineOptions::new().max_idle_per_origin(4);
    /// let refused = options.refuse(EngineOption::MaxIdlePerOrigin, "this engine pools nothing");
    /// assert_eq!(refused.unwrap_err().field(), "max_idle_per_origin");
    /// assert!(EngineOptions::new().refuse(EngineOption::MaxIdlePerOrigin, "").is_ok());
    /// ```
    ///
    /// # Errors
    ///
    /// When `option` was set.
    pub fn refuse(&self, option: EngineOption, why: &'static str) -> Result<(), ConfigError> {
        let set = match option {
            EngineOption::MaxIdlePerOrigin => self.max_idle_per_origin.map(|v| v.to_string()),
            EngineOption::IdleTimeout => self.idle_timeout.map(|v| format!("{v:?}")),
            EngineOption::ConnectionAttemptDelay => {
                self.connection_attempt_delay.map(|v| format!("{v:?}"))
            }
            EngineOption::ConnectTimeoutPerAddress => {
                self.connect_timeout_per_address.map(|v| format!("{v:?}"))
            }
        };
        match set {
            Some(value) => Err(ConfigError::new(option.name(), value, why)),
            None => Ok(()),
        }
    }
}

/// The setters of [`EngineOptions`] on an engine builder that holds one in
/// a field named `options`, with their documentation written once: every
/// engine's builder takes the same options under the same names.
///
/// ```
/// use evident_core::engine::EngineOptions;
///
/// #[derive(Debug, Default)]
/// pub struct MyEngineBuilder {
///     options: EngineOptions,
/// }
/// evident_core::engine_options!(MyEngineBuilder);
///
/// let builder = MyEngineBuilder::default().max_idle_per_origin(2);
/// assert_eq!(builder.options.validate().unwrap().max_idle_per_origin, 2);
/// ```
#[macro_export]
macro_rules! engine_options {
    ($builder:ty) => {
        impl $builder {
            /// What `https://` trusts and which client certificate it
            /// presents: see [`EngineOptions::tls`](evident_core::engine::EngineOptions::tls).
            pub fn tls(mut self, options: $crate::tls::TlsOptions) -> Self {
                self.options = self.options.tls(options);
                self
            }

            /// Trust exactly these DER certificates for `https://` (none
            /// at all for an empty list): see
            /// [`EngineOptions::root_certificates`](evident_core::engine::EngineOptions::root_certificates).
            pub fn root_certificates(mut self, ders: ::std::vec::Vec<::std::vec::Vec<u8>>) -> Self {
                self.options = self.options.root_certificates(ders);
                self
            }

            /// Name-resolution overrides: see
            /// [`EngineOptions::host_overrides`](evident_core::engine::EngineOptions::host_overrides).
            pub fn host_overrides(mut self, overrides: $crate::engine::HostOverrides) -> Self {
                self.options = self.options.host_overrides(overrides);
                self
            }

            /// Idle connections kept per origin: see
            /// [`EngineOptions::max_idle_per_origin`](evident_core::engine::EngineOptions::max_idle_per_origin).
            pub fn max_idle_per_origin(mut self, max: usize) -> Self {
                self.options = self.options.max_idle_per_origin(max);
                self
            }

            /// How long an idle pooled connection is kept: see
            /// [`EngineOptions::idle_timeout`](evident_core::engine::EngineOptions::idle_timeout).
            pub fn idle_timeout(mut self, timeout: ::std::time::Duration) -> Self {
                self.options = self.options.idle_timeout(timeout);
                self
            }

            /// RFC 8305's Connection Attempt Delay: see
            /// [`EngineOptions::connection_attempt_delay`](evident_core::engine::EngineOptions::connection_attempt_delay).
            pub fn connection_attempt_delay(mut self, delay: ::std::time::Duration) -> Self {
                self.options = self.options.connection_attempt_delay(delay);
                self
            }

            /// How long one address's connect may take while another
            /// remains: see
            /// [`EngineOptions::connect_timeout_per_address`](evident_core::engine::EngineOptions::connect_timeout_per_address).
            pub fn connect_timeout_per_address(mut self, timeout: ::std::time::Duration) -> Self {
                self.options = self.options.connect_timeout_per_address(timeout);
                self
            }

            /// Every shared option at once, replacing those set before:
            /// see [`EngineOptions`](evident_core::engine::EngineOptions).
            pub fn options(mut self, options: $crate::engine::EngineOptions) -> Self {
                self.options = options;
                self
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_named_constants() {
        let valid = EngineOptions::new().validate().unwrap();
        assert_eq!(valid.max_idle_per_origin, DEFAULT_MAX_IDLE_PER_ORIGIN);
        assert_eq!(valid.idle_timeout, DEFAULT_IDLE_TIMEOUT);
        assert_eq!(
            valid.connect_timing.attempt_delay(),
            DEFAULT_CONNECTION_ATTEMPT_DELAY
        );
        assert_eq!(
            valid.connect_timing.per_address_timeout(),
            DEFAULT_CONNECT_TIMEOUT_PER_ADDRESS
        );
    }

    #[test]
    fn impossible_values_name_their_option() {
        let cases = [
            (
                EngineOptions::new().max_idle_per_origin(MAX_IDLE_PER_ORIGIN_LIMIT + 1),
                "max_idle_per_origin",
            ),
            (
                EngineOptions::new().idle_timeout(Duration::ZERO),
                "idle_timeout",
            ),
            (
                EngineOptions::new().connect_timeout_per_address(Duration::ZERO),
                "connect_timeout_per_address",
            ),
            (
                EngineOptions::new().connection_attempt_delay(Duration::from_secs(60)),
                "connection_attempt_delay",
            ),
            (
                EngineOptions::new().root_certificates(vec![b"junk".to_vec()]),
                "root_certificates",
            ),
        ];
        for (options, field) in cases {
            assert_eq!(options.validate().unwrap_err().field(), field);
        }
    }

    #[test]
    fn an_option_an_engine_cannot_honour_is_refused_only_when_set() {
        let options = EngineOptions::new().idle_timeout(Duration::from_secs(1));
        assert!(
            options
                .refuse(EngineOption::IdleTimeout, "no pool")
                .is_err()
        );
        assert!(
            options
                .refuse(EngineOption::MaxIdlePerOrigin, "no pool")
                .is_ok()
        );
    }
}
