//! Configuring an [`IsahcEngine`]: a builder that validates and returns a
//! typed [`ConfigError`].

use std::time::Duration;

use evident_core::engine::{
    ConnectTiming, DEFAULT_CONNECT_TIMEOUT_PER_ADDRESS, DEFAULT_CONNECTION_ATTEMPT_DELAY,
};
use evident_core::tls::{ALPN_HTTP1, TlsOptions};
use evident_core::{ConfigError, HostOverrides};
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
    tls: TlsOptions,
    root_certificates: Option<Vec<Vec<u8>>>,
    host_overrides: HostOverrides,
    connection_attempt_delay: Option<Duration>,
}

/// The trust anchor the engine hands curl when `https://` must trust
/// nothing: a self-signed CA certificate (P-256, valid until 2126) whose
/// private key was destroyed as soon as it was made, so no certificate can
/// chain to it. It exists because curl cannot be told "no roots": an empty
/// trust store fails every request, `http://` included (curl error 43),
/// and no trust store means libcurl's default trust.
pub const SIGNS_NOTHING: &[u8] = include_bytes!("anchor/signs_nothing.der");

impl IsahcEngineBuilder {
    /// What `https://` trusts (default [`TlsOptions::new`]: the public web
    /// roots with the default feature `webpki-roots`, the system store with
    /// `native-roots`), the same options as every other engine. Every root
    /// the options hold is handed to curl as its trust store, and only
    /// those. When they hold none (`root_certificates(vec![])`, or default
    /// features off and no root added), `https://` trusts nothing, as on
    /// every engine: every certificate is rejected (`tls_certificate`),
    /// and `http://` works. (curl's rustls backend fails every request,
    /// `http://` included, when handed an empty trust store, and falls
    /// back to its own default trust when handed none; so the engine
    /// hands it [`SIGNS_NOTHING`], a root whose key was destroyed when it
    /// was made, which no certificate can chain to.) A client certificate
    /// ([`TlsOptions::identity`]) is presented to a server that asks for
    /// one, as on every engine (on Linux; see [`Self::build`]).
    pub fn tls(mut self, options: TlsOptions) -> Self {
        self.tls = options;
        self
    }

    /// The trust anchors for `https://`, as DER certificates: the only
    /// roots curl trusts, as on every engine. None at all means `https://`
    /// trusts nothing (see [`Self::tls`]).
    pub fn root_certificates(mut self, ders: Vec<Vec<u8>>) -> Self {
        self.root_certificates = Some(ders);
        self
    }

    /// Name-resolution overrides, honoured before the system resolver.
    pub fn host_overrides(mut self, overrides: HostOverrides) -> Self {
        self.host_overrides = overrides;
        self
    }

    /// RFC 8305's Connection Attempt Delay (default
    /// [`DEFAULT_CONNECTION_ATTEMPT_DELAY`], 250 ms). curl connects to one
    /// address per transfer and cannot race two, so for a host with several
    /// addresses each but the last gets this long to connect (TCP and TLS)
    /// before the next is tried; the other engines start the next address
    /// after it while the first keeps trying. The last address has what is
    /// left of the attempt.
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
    /// * `native_roots`: the system store is enabled but yields nothing;
    /// * `identity`: a client certificate was set and cannot be handed to
    ///   curl: outside Linux (curl's rustls backend reads it only from
    ///   files, and the engine keeps the key off disk in anonymous memory
    ///   files), or where `/proc/self/fd` cannot be read back; the engine
    ///   refuses rather than connect without it. The chain and key
    ///   themselves are checked as on every engine (`identity_*` fields);
    /// * `connection_attempt_delay`: outside RFC 8305's bounds (as
    ///   [`ConnectTiming::new`]);
    /// * `isahc`: libcurl could not be initialised.
    pub fn build(self) -> Result<IsahcEngine, ConfigError> {
        let connect_timing = ConnectTiming::new(
            self.connection_attempt_delay
                .unwrap_or(DEFAULT_CONNECTION_ATTEMPT_DELAY),
            DEFAULT_CONNECT_TIMEOUT_PER_ADDRESS,
        )?;
        let options = match self.root_certificates {
            Some(ders) => self.tls.with_only_roots(ders)?,
            None => self.tls,
        };
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
            self.host_overrides,
            connect_timing,
            identity,
        ))
    }
}
