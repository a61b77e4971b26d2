//! Configuring a [`HyperEngine`]: a builder that validates and returns a
//! typed [`ConfigError`].

use std::sync::Arc;
use std::time::Duration;

use evident_core::engine::pool::{
    DEFAULT_IDLE_TIMEOUT, DEFAULT_MAX_IDLE_PER_ORIGIN, MAX_IDLE_PER_ORIGIN_LIMIT,
};
use evident_core::engine::{
    ConnectTiming, DEFAULT_CONNECT_TIMEOUT_PER_ADDRESS, DEFAULT_CONNECTION_ATTEMPT_DELAY,
};
use evident_core::tls::{ALPN_H2, ALPN_HTTP1, TlsOptions};
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
    tls: TlsOptions,
    root_certificates: Option<Vec<Vec<u8>>>,
    host_overrides: HostOverrides,
    http2_prior_knowledge: bool,
    http1_only: bool,
    max_idle_per_origin: Option<usize>,
    idle_timeout: Option<Duration>,
    connect_timeout_per_address: Option<Duration>,
    connection_attempt_delay: Option<Duration>,
    /// `Some(None)`: keep-alive turned off.
    http2_keep_alive: Option<Option<(Duration, Duration)>>,
}

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

    /// How many idle HTTP/1.1 connections to keep per origin (default
    /// [`DEFAULT_MAX_IDLE_PER_ORIGIN`]; `0` disables reuse).
    pub fn max_idle_per_origin(mut self, max: usize) -> Self {
        self.max_idle_per_origin = Some(max);
        self
    }

    /// How long an idle pooled connection is kept (default
    /// [`DEFAULT_IDLE_TIMEOUT`]). Idle connections the peer closed are
    /// evicted within a second either way.
    pub fn idle_timeout(mut self, timeout: Duration) -> Self {
        self.idle_timeout = Some(timeout);
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
    /// * `root_certificates`: a certificate is not valid DER X.509 (the
    ///   value is its index);
    /// * `native_roots`, `identity`: as [`TlsOptions::client_config`];
    /// * `http2_prior_knowledge`: combined with `http1_only`;
    /// * `max_idle_per_origin`: above [`MAX_IDLE_PER_ORIGIN_LIMIT`];
    /// * `idle_timeout`, `connect_timeout_per_address`, `http2_keep_alive`:
    ///   a zero duration (turn reuse off with `max_idle_per_origin(0)`,
    ///   pings with [`Self::http2_keep_alive_off`]);
    /// * `connection_attempt_delay`: outside RFC 8305's bounds (as
    ///   [`ConnectTiming::new`]).
    pub fn build(self) -> Result<HyperEngine, ConfigError> {
        if self.http2_prior_knowledge && self.http1_only {
            return Err(ConfigError::new(
                "http2_prior_knowledge",
                true,
                "contradicts http1_only",
            ));
        }
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
        let idle_timeout = positive(
            "idle_timeout",
            self.idle_timeout.unwrap_or(DEFAULT_IDLE_TIMEOUT),
        )?;
        let connect_timing = ConnectTiming::new(
            self.connection_attempt_delay
                .unwrap_or(DEFAULT_CONNECTION_ATTEMPT_DELAY),
            self.connect_timeout_per_address
                .unwrap_or(DEFAULT_CONNECT_TIMEOUT_PER_ADDRESS),
        )?;
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
        let tls = match self.root_certificates {
            Some(ders) => self.tls.with_only_roots(ders)?,
            None => self.tls,
        }
        .client_config(alpn)?;
        Ok(HyperEngine::from_config(Config {
            tls: Arc::new(tls),
            host_overrides: self.host_overrides,
            http2_prior_knowledge: self.http2_prior_knowledge,
            max_idle_per_origin,
            idle_timeout,
            connect_timing,
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
