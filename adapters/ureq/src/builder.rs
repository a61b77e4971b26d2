//! Configuring a [`UreqEngine`]: a builder that validates and returns a
//! typed [`ConfigError`].

use std::sync::Arc;
use std::time::Duration;

use evident_core::engine::pool::{DEFAULT_MAX_IDLE_PER_ORIGIN, MAX_IDLE_PER_ORIGIN_LIMIT};
use evident_core::engine::{
    ConnectTiming, DEFAULT_CONNECT_TIMEOUT_PER_ADDRESS, DEFAULT_CONNECTION_ATTEMPT_DELAY,
};
use evident_core::tls::{ALPN_HTTP1, TlsOptions};
use evident_core::{ConfigError, HostOverrides};

use crate::connect::EvidentConnector;
use crate::engine::UreqEngine;
use crate::resolve::OverrideResolver;

/// How many idle connections the pool keeps over all origins, at least:
/// enough for a handful of upstreams at the default per-origin size.
const MIN_MAX_IDLE_TOTAL: usize = 64;

/// Builds a [`UreqEngine`].
///
/// ```
/// use evident_core::HostOverrides;
/// use evident_ureq::UreqEngine;
///
/// let engine = UreqEngine::builder()
///     .host_overrides(HostOverrides::new().not_found("gone.invalid"))
///     .max_idle_per_origin(2)
///     .build()
///     .unwrap();
/// # let _ = engine;
///
/// // Bad input is rejected with a typed error.
/// let err = UreqEngine::builder()
///     .root_certificates(vec![b"not a certificate".to_vec()])
///     .build()
///     .unwrap_err();
/// assert_eq!(err.field(), "root_certificates");
/// ```
#[derive(Debug, Clone, Default)]
pub struct UreqEngineBuilder {
    tls: TlsOptions,
    root_certificates: Option<Vec<Vec<u8>>>,
    host_overrides: HostOverrides,
    max_idle_per_origin: Option<usize>,
    connect_timeout_per_address: Option<Duration>,
    connection_attempt_delay: Option<Duration>,
}

impl UreqEngineBuilder {
    /// What `https://` trusts and which client certificate it presents
    /// (default [`TlsOptions::new`]: the public web roots with the default
    /// feature `webpki-roots`, the system store with `native-roots`).
    pub fn tls(mut self, options: TlsOptions) -> Self {
        self.tls = options;
        self
    }

    /// Trust exactly these DER certificates for `https://`: no compiled-in
    /// or system roots. Keeps the client identity set by [`Self::tls`].
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
    /// [`DEFAULT_MAX_IDLE_PER_ORIGIN`]; `0` disables reuse).
    pub fn max_idle_per_origin(mut self, max: usize) -> Self {
        self.max_idle_per_origin = Some(max);
        self
    }

    /// How long one address's TCP connect may take while another address
    /// remains to be started (default
    /// [`DEFAULT_CONNECT_TIMEOUT_PER_ADDRESS`]). It never holds the next
    /// address back (see [`Self::connection_attempt_delay`]), and no
    /// connect outlives the attempt.
    pub fn connect_timeout_per_address(mut self, timeout: Duration) -> Self {
        self.connect_timeout_per_address = Some(timeout);
        self
    }

    /// How long after starting one address's connect the next address is
    /// started while the first has neither connected nor failed: RFC 8305's
    /// Connection Attempt Delay (default
    /// [`DEFAULT_CONNECTION_ATTEMPT_DELAY`], 250 ms).
    pub fn connection_attempt_delay(mut self, delay: Duration) -> Self {
        self.connection_attempt_delay = Some(delay);
        self
    }

    /// Validates the configuration and builds the engine.
    ///
    /// # Errors
    ///
    /// * `root_certificates`: a certificate is not valid DER X.509 (the
    ///   value is its index);
    /// * `native_roots`, `identity`: as [`TlsOptions::client_config`];
    /// * `max_idle_per_origin`: above [`MAX_IDLE_PER_ORIGIN_LIMIT`];
    /// * `connect_timeout_per_address`: zero;
    /// * `connection_attempt_delay`: outside RFC 8305's bounds (as
    ///   [`ConnectTiming::new`]).
    pub fn build(self) -> Result<UreqEngine, ConfigError> {
        let timing = ConnectTiming::new(
            self.connection_attempt_delay
                .unwrap_or(DEFAULT_CONNECTION_ATTEMPT_DELAY),
            self.connect_timeout_per_address
                .unwrap_or(DEFAULT_CONNECT_TIMEOUT_PER_ADDRESS),
        )?;
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
        // HTTP/1.1 only: ureq speaks nothing else.
        let tls = match self.root_certificates {
            Some(ders) => self.tls.with_only_roots(ders)?,
            None => self.tls,
        }
        .client_config(&[ALPN_HTTP1])?;

        let config = ureq::config::Config::builder()
            // The core decides retries from statuses; ureq must not turn
            // them into errors.
            .http_status_as_error(false)
            // A redirect is an answer for the caller to see, never a second
            // request sent behind the core's back.
            .max_redirects(0)
            .max_redirects_will_error(false)
            // No proxy from the environment: the connector dials the origin
            // and nothing else.
            .proxy(None)
            // No decompressor is compiled in; do not advertise one.
            .accept_encoding(ureq::config::AutoHeaderValue::None)
            .max_idle_connections_per_host(max_idle_per_origin)
            .max_idle_connections(max_idle_per_origin.max(MIN_MAX_IDLE_TOTAL))
            .build();
        let agent = ureq::Agent::with_parts(
            config,
            EvidentConnector::new(Arc::new(tls), timing),
            OverrideResolver::new(self.host_overrides),
        );
        Ok(UreqEngine::from_agent(agent))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zero_per_address_connect_timeout_is_rejected() {
        let err = UreqEngine::builder()
            .connect_timeout_per_address(Duration::ZERO)
            .build()
            .unwrap_err();
        assert_eq!(err.field(), "connect_timeout_per_address");
    }

    #[test]
    fn an_oversized_idle_pool_is_rejected() {
        let err = UreqEngine::builder()
            .max_idle_per_origin(MAX_IDLE_PER_ORIGIN_LIMIT + 1)
            .build()
            .unwrap_err();
        assert_eq!(err.field(), "max_idle_per_origin");
    }

    #[test]
    fn the_agent_never_redirects_never_errors_on_status_and_uses_no_proxy() {
        let engine = UreqEngine::builder().build().unwrap();
        let config = engine.agent().config();
        assert_eq!(config.max_redirects(), 0);
        assert!(!config.max_redirects_will_error());
        assert!(!config.http_status_as_error());
        assert!(config.proxy().is_none());
    }
}
