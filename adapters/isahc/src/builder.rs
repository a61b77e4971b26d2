//! Configuring an [`IsahcEngine`]: a builder that validates and returns a
//! typed [`ConfigError`].

use std::time::Duration;

use evident_core::ConfigError;
use evident_core::engine::{EngineOption, EngineOptions};
use evident_core::tls::ALPN_HTTP1;
use isahc::config::{Configurable, ExpectContinue, RedirectPolicy, VersionNegotiation};
use isahc::tls::{TlsConfig, TrustStore};

use crate::engine::{IsahcEngine, Reuse};
use crate::identity::IdentityFiles;

/// How many idle connections curl's cache holds, for the client that
/// reuses them (`CURLMOPT_MAXCONNECTS`). Beyond it curl closes the oldest
/// idle one, which a slot about to be used may hold: harmless (curl then
/// opens a new one), but a reuse lost. Room for more than any
/// configuration keeps idle per origin ([`MAX_IDLE_PER_ORIGIN_LIMIT`]),
/// and for connections already closed that curl has not pruned yet.
///
/// [`MAX_IDLE_PER_ORIGIN_LIMIT`]: evident_core::engine::pool::MAX_IDLE_PER_ORIGIN_LIMIT
pub const CURL_CONNECTION_CACHE: usize = 4096;

/// How much longer curl keeps an idle connection than the engine keeps the
/// slot it serves (`CURLOPT_MAXAGE_CONN` over the idle timeout): curl never
/// retires a connection a slot may still hand out. curl closes a retired
/// connection while it looks for one to reuse, during the next transfer,
/// and the relay would see its goodbye in that transfer's turn.
pub const CURL_CACHE_TTL_MARGIN: Duration = Duration::from_secs(30);

/// The connection cache of a client that reuses connections.
#[cfg_attr(not(unix), allow(dead_code))]
struct CurlCache {
    size: usize,
    ttl: Duration,
}

/// A libcurl client as the engine uses it: `cache` for one that reuses
/// connections, `None` for one that never does.
fn curl_client(
    roots: &[impl AsRef<[u8]>],
    identity: Option<&IdentityFiles>,
    cache: Option<CurlCache>,
) -> Result<isahc::HttpClient, ConfigError> {
    let builder = isahc::HttpClient::builder();
    let builder = match cache {
        Some(cache) => builder
            .connection_cache_size(cache.size)
            .connection_cache_ttl(cache.ttl),
        // No connection is ever reused. libcurl re-sends, for any method
        // and without telling its caller, a request whose reused
        // connection died before the first response byte
        // (`Curl_retry_request`). A new connection per transfer is the
        // only client-wide switch that makes that impossible
        // (FORBID_REUSE).
        None => builder.connection_cache_size(0),
    };
    let builder = builder
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
    if let Some(files) = identity {
        // By path, never as a blob: curl's rustls backend ignores
        // blobs and would connect without a certificate.
        tls = tls.identity(files.isahc_identity());
    }
    builder
        .tls_config(tls.build())
        .build()
        .map_err(|e| ConfigError::new("isahc", e.to_string(), "libcurl failed to initialise"))
}

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
    /// * `max_idle_per_origin`, `idle_timeout`: set at all without Unix
    ///   sockets (nothing is reused there); elsewhere validated as on every
    ///   engine. Only attempts whose repeat is harmless reuse a connection;
    /// * `native_roots`: the system store is enabled but yields nothing;
    /// * `identity`: a client certificate was set and cannot be handed to
    ///   curl: outside Linux (curl's rustls backend reads it only from
    ///   files, and the engine keeps the key off disk in anonymous memory
    ///   files), or where `/proc/self/fd` cannot be read back; the engine
    ///   refuses rather than connect without it. The chain and key
    ///   themselves are checked as on every engine (`identity_*` fields);
    /// * `isahc`: libcurl could not be initialised.
    pub fn build(self) -> Result<IsahcEngine, ConfigError> {
        if !cfg!(unix) {
            let why =
                "without Unix sockets isahc reuses no connection: every attempt gets a new one";
            self.options.refuse(EngineOption::MaxIdlePerOrigin, why)?;
            self.options.refuse(EngineOption::IdleTimeout, why)?;
        }
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

        // The client for every transfer whose repeat could do harm: it
        // never reuses a connection.
        let client = curl_client(&roots, identity.as_ref(), None)?;
        // The client for the others, on Unix: it reuses connections, only
        // ever through slots (slot.rs), where curl's own re-send is refused.
        // curl's cache outlasts the slots it serves (see
        // `CURL_CACHE_TTL_MARGIN`), and has room for every idle slot and
        // for connections already dead that curl has not pruned yet.
        #[cfg(unix)]
        let reuse = if valid.max_idle_per_origin > 0 {
            let cache = CurlCache {
                size: CURL_CONNECTION_CACHE,
                ttl: valid.idle_timeout + CURL_CACHE_TTL_MARGIN,
            };
            Some(Reuse {
                client: curl_client(&roots, identity.as_ref(), Some(cache))?,
                slots: crate::slot::Slots::new(valid.max_idle_per_origin, valid.idle_timeout),
            })
        } else {
            None
        };
        #[cfg(not(unix))]
        let reuse: Option<Reuse> = None;
        Ok(IsahcEngine::new(
            client,
            reuse,
            valid.host_overrides,
            connect_timing,
            identity,
        ))
    }
}
