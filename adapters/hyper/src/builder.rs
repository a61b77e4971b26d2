//! Configuring a [`HyperEngine`]: a builder that validates and returns a
//! typed [`ConfigError`].

use std::sync::Arc;

use evident_core::tls::{ALPN_H2, ALPN_HTTP1, TlsOptions};
use evident_core::{ConfigError, HostOverrides};

use crate::engine::HyperEngine;

/// How many idle HTTP/1.1 connections the pool keeps per origin. Eight
/// covers the parallelism of a typical client call pattern against one
/// upstream without keeping a crowd of sockets open; beyond it, a finished
/// connection is closed rather than pooled.
pub const DEFAULT_MAX_IDLE_PER_ORIGIN: usize = 8;

/// The largest per-origin idle pool the builder accepts: a guard against a
/// configuration that would let one upstream hold thousands of sockets.
pub const MAX_IDLE_PER_ORIGIN_LIMIT: usize = 1024;

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
}

/// The validated configuration an engine runs with.
#[derive(Debug)]
pub(crate) struct Config {
    pub(crate) tls: Arc<rustls::ClientConfig>,
    pub(crate) host_overrides: HostOverrides,
    pub(crate) http2_prior_knowledge: bool,
    pub(crate) max_idle_per_origin: usize,
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

    /// Validates the configuration and builds the engine.
    ///
    /// # Errors
    ///
    /// * `root_certificates`: a certificate is not valid DER X.509 (the
    ///   value is its index);
    /// * `native_roots`, `identity`: as [`TlsOptions::client_config`];
    /// * `http2_prior_knowledge`: combined with `http1_only`;
    /// * `max_idle_per_origin`: above [`MAX_IDLE_PER_ORIGIN_LIMIT`].
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
        let alpn: &[&[u8]] = if self.http1_only {
            &[ALPN_HTTP1]
        } else {
            &[ALPN_H2, ALPN_HTTP1]
        };
        let tls = tls_options(self.tls, self.root_certificates)?.client_config(alpn)?;
        Ok(HyperEngine::from_config(Config {
            tls: Arc::new(tls),
            host_overrides: self.host_overrides,
            http2_prior_knowledge: self.http2_prior_knowledge,
            max_idle_per_origin,
        }))
    }
}

/// Whether ALPN chose HTTP/2.
pub(crate) fn is_h2(alpn: Option<&[u8]>) -> bool {
    alpn == Some(ALPN_H2)
}

/// The options with [`HyperEngineBuilder::root_certificates`] applied.
fn tls_options(
    options: TlsOptions,
    exact_roots: Option<Vec<Vec<u8>>>,
) -> Result<TlsOptions, ConfigError> {
    match exact_roots {
        None => Ok(options),
        Some(ders) => {
            let identity = options.client_identity().cloned();
            let mut exact = ders
                .into_iter()
                .try_fold(TlsOptions::new().without_default_roots(), |o, der| {
                    o.add_root_der(der)
                })?;
            if let Some(identity) = identity {
                exact = exact.identity(identity);
            }
            Ok(exact)
        }
    }
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
    fn an_oversized_pool_is_rejected() {
        let err = HyperEngine::builder()
            .max_idle_per_origin(MAX_IDLE_PER_ORIGIN_LIMIT + 1)
            .build()
            .unwrap_err();
        assert_eq!(err.field(), "max_idle_per_origin");
    }
}
