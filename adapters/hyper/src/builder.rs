//! Configuring a [`HyperEngine`]: a builder that validates and returns a
//! typed [`ConfigError`].

use std::sync::Arc;
use std::time::Duration;

use evident_core::engine::{ConnectTiming, EngineOptions};
use evident_core::tls::{ALPN_H2, ALPN_HTTP1};
use evident_core::{ConfigError, HostOverrides};

use crate::engine::HyperEngine;
use crate::h2::{
    DEFAULT_HTTP2_CONNECTION_WINDOW, DEFAULT_HTTP2_KEEP_ALIVE_INTERVAL,
    DEFAULT_HTTP2_KEEP_ALIVE_TIMEOUT, DEFAULT_HTTP2_STREAM_WINDOW, Http2Settings, KeepAlive,
};

/// Builds a [`HyperEngine`].
///
/// ```
/// use evident_core::HostOverrides;
/// use evident_hyper::HyperEngine;
///
/// let engine = HyperEngine::builder()
///     .host_overrides(HostOverrides::new().not_found("gone.invalid"))
///     .max_idle_per_origin(2)
///     .build()
///     .unwrap();
/// # let _ = engine;
///
/// // Contradictions are rejected with a typed error.
/// let err = HyperEngine::builder().http1_only().http2_prior_knowledge().build().unwrap_err();
/// assert_eq!(err.field(), "http2_prior_knowledge");
/// ```
#[derive(Debug, Clone, Default)]
pub struct HyperEngineBuilder {
    /// What every engine's builder takes (its setters: [`engine_options!`](evident_core::engine_options)).
    options: EngineOptions,
    http2_prior_knowledge: bool,
    http1_only: bool,
    /// `Some(None)`: keep-alive turned off.
    http2_keep_alive: Option<Option<(Duration, Duration)>>,
}

evident_core::engine_options!(HyperEngineBuilder);

/// The validated configuration an engine runs with.
#[derive(Debug)]
pub(crate) struct Config {
    pub(crate) tls: Arc<rustls::ClientConfig>,
    pub(crate) host_overrides: HostOverrides,
    pub(crate) http2_prior_knowledge: bool,
    pub(crate) max_idle_per_origin: usize,
    pub(crate) idle_timeout: Duration,
    pub(crate) connect_timing: ConnectTiming,
    pub(crate) http2: Http2Settings,
}

impl HyperEngineBuilder {
    /// Speak HTTP/2 over plain TCP to `http://` origins, without upgrade
    /// (RFC 9113 §3.3). `https://` origins negotiate by ALPN regardless.
    pub fn http2_prior_knowledge(mut self) -> Self {
        self.http2_prior_knowledge = true;
        self
    }

    /// Offer only HTTP/1.1 in ALPN.
    pub fn http1_only(mut self) -> Self {
        self.http1_only = true;
        self
    }

    /// Pings every HTTP/2 connection each `interval` and drops it when a
    /// ping is not answered within `timeout` (default
    /// [`DEFAULT_HTTP2_KEEP_ALIVE_INTERVAL`],
    /// [`DEFAULT_HTTP2_KEEP_ALIVE_TIMEOUT`]).
    pub fn http2_keep_alive(mut self, interval: Duration, timeout: Duration) -> Self {
        self.http2_keep_alive = Some(Some((interval, timeout)));
        self
    }

    /// Sends no HTTP/2 keep-alive pings.
    pub fn http2_keep_alive_off(mut self) -> Self {
        self.http2_keep_alive = Some(None);
        self
    }

    /// Validates the configuration and builds the engine.
    ///
    /// # Errors
    ///
    /// * every shared option as [`EngineOptions::validate`];
    /// * `native_roots`, `identity`: as [`TlsOptions::client_config`](evident_core::tls::TlsOptions::client_config);
    /// * `http2_prior_knowledge`: combined with `http1_only`;
    /// * `http2_keep_alive`: a zero duration (turn pings off with
    ///   [`Self::http2_keep_alive_off`]).
    pub fn build(self) -> Result<HyperEngine, ConfigError> {
        if self.http2_prior_knowledge && self.http1_only {
            return Err(ConfigError::new(
                "http2_prior_knowledge",
                true,
                "contradicts http1_only",
            ));
        }
        let options = self.options.validate()?;
        let keep_alive = match self.http2_keep_alive.unwrap_or(Some((
            DEFAULT_HTTP2_KEEP_ALIVE_INTERVAL,
            DEFAULT_HTTP2_KEEP_ALIVE_TIMEOUT,
        ))) {
            None => None,
            Some((interval, timeout)) => Some(KeepAlive {
                interval: positive("http2_keep_alive", interval)?,
                timeout: positive("http2_keep_alive", timeout)?,
            }),
        };
        let alpn: &[&[u8]] = if self.http1_only {
            &[ALPN_HTTP1]
        } else {
            &[ALPN_H2, ALPN_HTTP1]
        };
        let tls = options.tls.client_config(alpn)?;
        Ok(HyperEngine::from_config(Config {
            tls: Arc::new(tls),
            host_overrides: options.host_overrides,
            http2_prior_knowledge: self.http2_prior_knowledge,
            max_idle_per_origin: options.max_idle_per_origin,
            idle_timeout: options.idle_timeout,
            connect_timing: options.connect_timing,
            http2: Http2Settings {
                stream_window: DEFAULT_HTTP2_STREAM_WINDOW,
                connection_window: DEFAULT_HTTP2_CONNECTION_WINDOW,
                keep_alive,
            },
        }))
    }
}

/// `value` when it is not zero.
fn positive(field: &'static str, value: Duration) -> Result<Duration, ConfigError> {
    if value.is_zero() {
        return Err(ConfigError::new(field, value, "must be positive"));
    }
    Ok(value)
}

/// Whether ALPN chose HTTP/2.
pub(crate) fn is_h2(alpn: Option<&[u8]>) -> bool {
    alpn == Some(ALPN_H2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use evident_core::engine::pool::MAX_IDLE_PER_ORIGIN_LIMIT;

    #[test]
    fn a_certificate_that_is_not_der_is_rejected_by_index() {
        let err = HyperEngine::builder()
            .root_certificates(vec![b"not a certificate".to_vec()])
            .build()
            .unwrap_err();
        assert_eq!((err.field(), err.value()), ("root_certificates", "0"));
    }

    #[test]
    fn zero_durations_are_rejected_naming_the_field() {
        let zero = Duration::ZERO;
        let cases = [
            (HyperEngine::builder().idle_timeout(zero), "idle_timeout"),
            (
                HyperEngine::builder().connect_timeout_per_address(zero),
                "connect_timeout_per_address",
            ),
            (
                HyperEngine::builder().connection_attempt_delay(zero),
                "connection_attempt_delay",
            ),
            (
                HyperEngine::builder().http2_keep_alive(zero, Duration::from_secs(1)),
                "http2_keep_alive",
            ),
            (
                HyperEngine::builder().http2_keep_alive(Duration::from_secs(1), zero),
                "http2_keep_alive",
            ),
        ];
        for (builder, field) in cases {
            assert_eq!(builder.build().unwrap_err().field(), field);
        }
        assert!(
            HyperEngine::builder()
                .http2_keep_alive_off()
                .build()
                .is_ok()
        );
    }

    #[test]
    fn an_oversized_pool_is_rejected() {
        let err = HyperEngine::builder()
            .max_idle_per_origin(MAX_IDLE_PER_ORIGIN_LIMIT + 1)
            .build()
            .unwrap_err();
        assert_eq!(err.field(), "max_idle_per_origin");
    }
}
