//! Configuring an [`IsahcEngine`]: a builder that validates and returns a
//! typed [`ConfigError`].

use evident_core::tls::{self, ALPN_HTTP1};
use evident_core::{ConfigError, HostOverrides};
use isahc::config::{Configurable, ExpectContinue, RedirectPolicy, VersionNegotiation};
use isahc::tls::{TlsConfig, TrustStore};

use crate::engine::IsahcEngine;

/// Builds an [`IsahcEngine`].
///
/// ```
/// use evident_core::HostOverrides;
/// use evident_isahc::IsahcEngine;
///
/// let engine = IsahcEngine::builder()
///     .host_overrides(HostOverrides::new().not_found("gone.invalid"))
///     .build()
///     .unwrap();
/// # let _ = engine;
///
/// // Bad input is rejected with a typed error.
/// let err = IsahcEngine::builder()
///     .root_certificates(vec![b"not a certificate".to_vec()])
///     .build()
///     .unwrap_err();
/// assert_eq!(err.field(), "root_certificates");
/// ```
#[derive(Debug, Clone, Default)]
pub struct IsahcEngineBuilder {
    root_certificates: Vec<Vec<u8>>,
    host_overrides: HostOverrides,
}

impl IsahcEngineBuilder {
    /// The trust anchors for `https://`, as DER certificates. When given,
    /// they are the only roots curl trusts. When none are given, libcurl's
    /// own default trust applies. (An *empty* trust store is never handed
    /// to curl: its rustls backend then fails every request, `http://`
    /// included, with curl error 43.)
    pub fn root_certificates(mut self, ders: Vec<Vec<u8>>) -> Self {
        self.root_certificates = ders;
        self
    }

    /// Name-resolution overrides, honoured before the system resolver.
    pub fn host_overrides(mut self, overrides: HostOverrides) -> Self {
        self.host_overrides = overrides;
        self
    }

    /// Validates the configuration and builds the engine.
    ///
    /// # Errors
    ///
    /// * `root_certificates`: a certificate is not valid DER X.509 (the
    ///   value is its index);
    /// * `isahc`: libcurl could not be initialised.
    pub fn build(self) -> Result<IsahcEngine, ConfigError> {
        // The same validation, and the same error, as every rustls-based
        // engine; the rustls configuration itself is not used (curl builds
        // its own through rustls-ffi).
        tls::client_config(self.root_certificates.clone(), &[ALPN_HTTP1])?;

        let mut builder = isahc::HttpClient::builder()
            // No connection is ever reused. libcurl re-sends, for any method
            // and without telling its caller, a request whose reused
            // connection died before the first response byte
            // (`Curl_retry_request`). A fresh connection per transfer is the
            // only client-wide switch that makes that impossible
            // (FORBID_REUSE).
            .connection_cache_size(0)
            // HTTP/1.1 only: over HTTP/2 curl re-sends on REFUSED_STREAM,
            // and nothing in isahc turns that off.
            .version_negotiation(VersionNegotiation::http11())
            // A redirect is an answer for the caller, never a second request.
            .redirect_policy(RedirectPolicy::None)
            // No proxy from the environment: the adapter dials the origin.
            .proxy(None)
            // The body is delivered as sent.
            .automatic_decompression(false)
            // curl re-sends the request after a 417 to `Expect:
            // 100-continue`; without the header there is no such re-send.
            .expect_continue(ExpectContinue::disabled());
        if !self.root_certificates.is_empty() {
            let store = self
                .root_certificates
                .iter()
                .fold(TrustStore::builder(), |store, der| {
                    store.certificate_from_der(der)
                })
                .build();
            builder = builder.tls_config(TlsConfig::builder().trust_store(store).build());
        }
        let client = builder.build().map_err(|e| {
            ConfigError::new("isahc", e.to_string(), "libcurl failed to initialise")
        })?;
        Ok(IsahcEngine::new(client, self.host_overrides))
    }
}
