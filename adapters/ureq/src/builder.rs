//! Configuring a [`UreqEngine`]: a builder that validates and returns a
//! typed [`ConfigError`].

use std::sync::Arc;

use evident_core::ConfigError;
use evident_core::engine::EngineOptions;
use evident_core::tls::ALPN_HTTP1;

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
    /// What every engine's builder takes (its setters: [`engine_options!`](evident_core::engine_options)).
    options: EngineOptions,
}

evident_core::engine_options!(UreqEngineBuilder);

impl UreqEngineBuilder {
    /// Validates the configuration and builds the engine.
    ///
    /// # Errors
    ///
    /// * every shared option as [`EngineOptions::validate`] (the idle
    ///   timeout is ureq's `max_idle_age`);
    /// * `native_roots`, `identity`: as
    ///   [`TlsOptions::client_config`](evident_core::tls::TlsOptions::client_config).
    pub fn build(self) -> Result<UreqEngine, ConfigError> {
        let options = self.options.validate()?;
        let max_idle_per_origin = options.max_idle_per_origin;
        // HTTP/1.1 only: ureq speaks nothing else.
        let tls = options.tls.client_config(&[ALPN_HTTP1])?;

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
            .max_idle_age(options.idle_timeout)
            .build();
        let agent = ureq::Agent::with_parts(
            config,
            EvidentConnector::new(Arc::new(tls), options.connect_timing),
            OverrideResolver::new(options.host_overrides),
        );
        Ok(UreqEngine::from_agent(agent))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use evident_core::engine::pool::MAX_IDLE_PER_ORIGIN_LIMIT;
    use std::time::Duration;

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
