//! Configuring an [`IsahcEngine`]: a builder that validates and returns a
//! typed [`ConfigError`].

use evident_core::ConfigError;
use evident_core::engine::{EngineOption, EngineOptions};
use evident_core::tls::ALPN_HTTP1;
use isahc::config::{Configurable, ExpectContinue, RedirectPolicy, VersionNegotiation};
use isahc::tls::{TlsConfig, TrustStore};

use crate::engine::IsahcEngine;
use crate::identity::IdentityFiles;

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
    /// What every engine's builder takes (its setters: [`engine_options!`](evident_core::engine_options)).
    options: EngineOptions,
}

evident_core::engine_options!(IsahcEngineBuilder);

/// The trust anchor the engine hands curl when `https://` must trust
/// nothing: a self-signed CA certificate (P-256, valid until 2126) whose
/// private key was destroyed as soon as it was made, so no certificate can
/// chain to it. It exists because curl cannot be told "no roots": an empty
/// trust store fails every request, `http://` included (curl error 43),
/// and no trust store means libcurl's default trust.
pub const SIGNS_NOTHING: &[u8] = include_bytes!("anchor/signs_nothing.der");

impl IsahcEngineBuilder {
    /// Validates the configuration and builds the engine.
    ///
    /// # Errors
    ///
    /// * every shared option as [`EngineOptions::validate`];
    /// * `max_idle_per_origin`, `idle_timeout`: set at all (no connection
    ///   is ever reused);
    /// * `native_roots`: the system store is enabled but yields nothing;
    /// * `identity`: a client certificate was set and cannot be handed to
    ///   curl: outside Linux (curl's rustls backend reads it only from
    ///   files, and the engine keeps the key off disk in anonymous memory
    ///   files), or where `/proc/self/fd` cannot be read back; the engine
    ///   refuses rather than connect without it. The chain and key
    ///   themselves are checked as on every engine (`identity_*` fields);
    /// * `isahc`: libcurl could not be initialised.
    pub fn build(self) -> Result<IsahcEngine, ConfigError> {
        let why = "isahc reuses no connection: every attempt gets a fresh one";
        self.options.refuse(EngineOption::MaxIdlePerOrigin, why)?;
        self.options.refuse(EngineOption::IdleTimeout, why)?;
        let valid = self.options.validate()?;
        let connect_timing = valid.connect_timing;
        let options = valid.tls;
        // The same validation, and the same errors, as every rustls-based
        // engine (a key that does not match its certificate included); the
        // rustls configuration itself is not used (curl builds its own
        // through rustls-ffi).
        options.client_config(&[ALPN_HTTP1])?;
        let roots = options.root_certificates()?;
        let identity = options
            .client_identity()
            .map(IdentityFiles::new)
            .transpose()?;

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
        let anchors: Vec<&[u8]> = if roots.is_empty() {
            vec![SIGNS_NOTHING]
        } else {
            roots.iter().map(|root| root.as_ref()).collect()
        };
        let mut tls = TlsConfig::builder().trust_store(
            anchors
                .into_iter()
                .fold(TrustStore::builder(), |store, der| {
                    store.certificate_from_der(der)
                })
                .build(),
        );
        if let Some(files) = &identity {
            // By path, never as a blob: curl's rustls backend ignores
            // blobs and would connect without a certificate.
            tls = tls.identity(files.isahc_identity());
        }
        builder = builder.tls_config(tls.build());
        let client = builder.build().map_err(|e| {
            ConfigError::new("isahc", e.to_string(), "libcurl failed to initialise")
        })?;
        Ok(IsahcEngine::new(
            client,
            valid.host_overrides,
            connect_timing,
            identity,
        ))
    }
}
