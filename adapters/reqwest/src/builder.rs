//! Configuring a [`ReqwestEngine`]: a builder that validates and returns a
//! typed [`ConfigError`], and the one place where reqwest's hidden
//! behaviours are switched off.

use std::sync::Arc;

use evident_core::ConfigError;
use evident_core::engine::{EngineOption, EngineOptions};
use evident_core::tls::{ALPN_H2, ALPN_HTTP1};
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
    /// What every engine's builder takes (its setters: [`engine_options!`](evident_core::engine_options)).
    options: EngineOptions,
    http2_prior_knowledge: bool,
    http1_only: bool,
    proxies: Vec<reqwest::Proxy>,
}

evident_core::engine_options!(ReqwestEngineBuilder);

impl ReqwestEngineBuilder {
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
    /// * every shared option as [`EngineOptions::validate`];
    /// * `connection_attempt_delay`, `connect_timeout_per_address`: set at
    ///   all (reqwest's connector takes no per-address timing);
    /// * `http2_prior_knowledge`: combined with `http1_only`;
    /// * `reqwest`: reqwest refused the configuration (its message is the
    ///   value).
    pub fn build(self) -> Result<ReqwestEngine, ConfigError> {
        if self.http2_prior_knowledge && self.http1_only {
            return Err(ConfigError::new(
                "http2_prior_knowledge",
                true,
                "contradicts http1_only",
            ));
        }
        // reqwest builds hyper-util's connector and takes no connector of
        // ours: it tries a host's addresses one after another, with no
        // Connection Attempt Delay (the conformance matrix names the gap).
        let why = "reqwest's connector (hyper-util's) takes no per-address connect timing";
        self.options
            .refuse(EngineOption::ConnectionAttemptDelay, why)?;
        self.options
            .refuse(EngineOption::ConnectTimeoutPerAddress, why)?;
        let options = self.options.validate()?;
        let max_idle = options.max_idle_per_origin;
        let alpn: &[&[u8]] = if self.http1_only {
            &[ALPN_HTTP1]
        } else {
            &[ALPN_H2, ALPN_HTTP1]
        };
        let mut tls = options.tls.client_config(alpn)?;
        tls.resumption = Resumption::store(Arc::new(HandshakeWatch::new()));
        let resolver = Resolver::new(options.host_overrides);
        let build = |max_idle: usize, prior_knowledge: bool| {
            let mut builder = client(tls.clone(), resolver.clone(), max_idle, &self.proxies)
                .pool_idle_timeout(options.idle_timeout);
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
    use crate::ReqwestEngine;

    #[test]
    fn a_certificate_that_is_not_der_is_rejected_by_index() {
        let err = ReqwestEngine::builder()
            .root_certificates(vec![b"not a certificate".to_vec()])
            .build()
            .unwrap_err();
        assert_eq!((err.field(), err.value()), ("root_certificates", "0"));
    }

    #[test]
    fn per_address_connect_timing_is_refused_not_ignored() {
        let err = ReqwestEngine::builder()
            .connection_attempt_delay(std::time::Duration::from_millis(100))
            .build()
            .unwrap_err();
        assert_eq!(err.field(), "connection_attempt_delay");
        let err = ReqwestEngine::builder()
            .connect_timeout_per_address(std::time::Duration::from_secs(1))
            .build()
            .unwrap_err();
        assert_eq!(err.field(), "connect_timeout_per_address");
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
