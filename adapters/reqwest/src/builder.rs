//! Configuring a [`ReqwestEngine`]: a builder that validates and returns a
//! typed [`ConfigError`], and the one place where reqwest's hidden
//! behaviours are switched off.

use std::sync::Arc;

use evident_core::tls::{ALPN_H2, ALPN_HTTP1, TlsOptions};
use evident_core::{ConfigError, HostOverrides};
use rustls::client::Resumption;

use crate::engine::{Mode, ReqwestEngine};
use crate::hooks::{HandshakeWatch, Resolver};

// The pool defaults every pooling engine shares (reqwest's own default
// is an unbounded idle pool).
pub use evident_core::engine::pool::{DEFAULT_MAX_IDLE_PER_ORIGIN, MAX_IDLE_PER_ORIGIN_LIMIT};

/// Builds a [`ReqwestEngine`].
///
/// ```
/// use evident_core::HostOverrides;
/// use evident_reqwest::ReqwestEngine;
///
/// let engine = ReqwestEngine::builder()
///     .host_overrides(HostOverrides::new().not_found("gone.invalid"))
///     .max_idle_per_origin(2)
///     .build()
///     .unwrap();
/// # let _ = engine;
///
/// // Contradictions are rejected with a typed error.
/// let err = ReqwestEngine::builder().http1_only().http2_prior_knowledge().build().unwrap_err();
/// assert_eq!(err.field(), "http2_prior_knowledge");
/// ```
#[derive(Debug, Clone, Default)]
pub struct ReqwestEngineBuilder {
    tls: TlsOptions,
    root_certificates: Option<Vec<Vec<u8>>>,
    host_overrides: HostOverrides,
    http2_prior_knowledge: bool,
    http1_only: bool,
    max_idle_per_origin: Option<usize>,
    proxies: Vec<reqwest::Proxy>,
}

impl ReqwestEngineBuilder {
    /// What `https://` trusts and which client certificate it presents
    /// (default [`TlsOptions::new`]: the public web roots with the default
    /// feature `webpki-roots`, the system store with `native-roots`), the
    /// same options as every other rustls-based engine.
    pub fn tls(mut self, options: TlsOptions) -> Self {
        self.tls = options;
        self
    }

    /// The trust anchors for `https://`, as DER certificates. These are the
    /// only roots: no compiled-in or system roots are added. Keeps the
    /// client identity set by [`Self::tls`].
    pub fn root_certificates(mut self, ders: Vec<Vec<u8>>) -> Self {
        self.root_certificates = Some(ders);
        self
    }

    /// Name-resolution overrides, honoured before the system resolver.
    /// reqwest never resolves an IP literal, so an override for one has no
    /// effect.
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

    /// How many idle connections to keep per origin (default
    /// [`DEFAULT_MAX_IDLE_PER_ORIGIN`]; `0` disables reuse).
    pub fn max_idle_per_origin(mut self, max: usize) -> Self {
        self.max_idle_per_origin = Some(max);
        self
    }

    /// Sends matching requests through `proxy`. Without this, no proxy is
    /// used: reqwest's proxies from the environment (`HTTP_PROXY`, ...)
    /// are always off, so an attempt goes where its URL says unless the
    /// caller chose otherwise. A failure before the proxy's tunnel is up
    /// is connection set-up: nothing of the request was sent.
    pub fn proxy(mut self, proxy: reqwest::Proxy) -> Self {
        self.proxies.push(proxy);
        self
    }

    /// Validates the configuration and builds the engine.
    ///
    /// # Errors
    ///
    /// * `root_certificates`: a certificate is not valid DER X.509 (the
    ///   value is its index);
    /// * `http2_prior_knowledge`: combined with `http1_only`;
    /// * `max_idle_per_origin`: above [`MAX_IDLE_PER_ORIGIN_LIMIT`];
    /// * `reqwest`: reqwest refused the configuration (its message is the
    ///   value).
    pub fn build(mut self) -> Result<ReqwestEngine, ConfigError> {
        if self.http2_prior_knowledge && self.http1_only {
            return Err(ConfigError::new(
                "http2_prior_knowledge",
                true,
                "contradicts http1_only",
            ));
        }
        let max_idle = self
            .max_idle_per_origin
            .unwrap_or(DEFAULT_MAX_IDLE_PER_ORIGIN);
        if max_idle > MAX_IDLE_PER_ORIGIN_LIMIT {
            return Err(ConfigError::new(
                "max_idle_per_origin",
                max_idle,
                "exceeds MAX_IDLE_PER_ORIGIN_LIMIT",
            ));
        }
        let alpn: &[&[u8]] = if self.http1_only {
            &[ALPN_HTTP1]
        } else {
            &[ALPN_H2, ALPN_HTTP1]
        };
        let options = match self.root_certificates.take() {
            Some(ders) => self.tls.clone().with_only_roots(ders)?,
            None => self.tls.clone(),
        };
        let mut tls = options.client_config(alpn)?;
        tls.resumption = Resumption::store(Arc::new(HandshakeWatch::new()));
        let resolver = Resolver::new(self.host_overrides);
        let build = |max_idle: usize, prior_knowledge: bool| {
            let mut builder = client(tls.clone(), resolver.clone(), max_idle, &self.proxies);
            if self.http1_only {
                builder = builder.http1_only();
            }
            if prior_knowledge {
                builder = builder.http2_prior_knowledge();
            }
            builder.build().map_err(reqwest_error)
        };
        // reqwest's prior knowledge applies to every origin of a client,
        // https included: a second client serves `http://` in that mode.
        // An attempt that must not reuse a connection (after a 421) goes
        // through a client without a pool: reqwest has no per-request
        // "fresh connection" switch.
        let pooled = Mode {
            by_alpn: build(max_idle, false)?,
            alpn_http2: !self.http1_only,
            prior_knowledge: match self.http2_prior_knowledge {
                true => Some(build(max_idle, true)?),
                false => None,
            },
        };
        let fresh = Mode {
            by_alpn: build(0, false)?,
            alpn_http2: !self.http1_only,
            prior_knowledge: match self.http2_prior_knowledge {
                true => Some(build(0, true)?),
                false => None,
            },
        };
        Ok(ReqwestEngine::from_clients(pooled, fresh))
    }
}

/// A reqwest client builder with every hidden behaviour off.
fn client(
    tls: rustls::ClientConfig,
    resolver: Resolver,
    max_idle: usize,
    proxies: &[reqwest::Proxy],
) -> reqwest::ClientBuilder {
    let builder = reqwest::Client::builder()
        // reqwest's retry layer re-sends on REFUSED_STREAM and on a
        // graceful GOAWAY by default: the core decides, once, instead.
        .retry(reqwest::retry::never())
        // A redirect is an answer to the caller, not a new request.
        .redirect(reqwest::redirect::Policy::none())
        .referer(false)
        // No proxy from the environment: an attempt goes where it says,
        // or through the proxies the caller named.
        .no_proxy()
        // The core owns attempt timeouts and the deadline; none here.
        // (No `timeout`, `connect_timeout` or `read_timeout` is set.)
        .tls_backend_preconfigured(tls)
        .dns_resolver(resolver)
        .pool_max_idle_per_host(max_idle);
    proxies
        .iter()
        .fold(builder, |builder, proxy| builder.proxy(proxy.clone()))
}

fn reqwest_error(e: reqwest::Error) -> ConfigError {
    ConfigError::new("reqwest", e, "reqwest rejected the configuration")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_certificate_that_is_not_der_is_rejected_by_index() {
        let err = ReqwestEngine::builder()
            .root_certificates(vec![b"not a certificate".to_vec()])
            .build()
            .unwrap_err();
        assert_eq!((err.field(), err.value()), ("root_certificates", "0"));
    }

    #[test]
    fn an_oversized_pool_is_rejected() {
        let err = ReqwestEngine::builder()
            .max_idle_per_origin(MAX_IDLE_PER_ORIGIN_LIMIT + 1)
            .build()
            .unwrap_err();
        assert_eq!(err.field(), "max_idle_per_origin");
    }
}
