//! The guide's async walkthrough, as a crate: an async HTTP/1.1 engine over
//! [`tokio::net::TcpStream`] (plus tokio-rustls for `https://`), with the
//! kit's HTTP/1.1 framing ([`evident_core::engine::http1`]), written only from
//! the engine guide (`evident_core::engine::guide`, the file
//! `core/docs/adding-an-engine.md`) and evident's public API.
//!
//! It is documentation in code, not a fifth product engine: no connection
//! pool, no HTTP/2, no proxy, no `Expect: 100-continue`. Every attempt opens
//! its own connection and closes it with the response body, so
//! [`Progress::connection_reused`](evident_core::Progress::connection_reused)
//! is always `false` and an attempt that
//! [requires a fresh connection](evident_core::AttemptContext::requires_fresh_connection)
//! (the retry after a 421) gets one by construction.
//!
//! | the guide's step | where |
//! | --- | --- |
//! | the kit: origin, resolution, Happy Eyeballs, TLS options | [`open`] |
//! | enter each stage before the step that can fail in it | [`open`], [`wire::write_request`] |
//! | mark a write started, count what the connection accepted | `wire::write_counted` |
//! | report the head and body boundaries, late | [`wire::write_request`] |
//! | an early answer (RFC 9112 §9.6) | [`AsyncTeachingEngine`]'s `send` |
//! | a response body that counts and classifies | [`wire::read_response`] |
//! | HTTP/1.1 framing: the head, chunked bodies, the response read back | the kit's [`http1`](evident_core::engine::http1), in [`wire`] |
//! | a classifier that only translates | the kit's [`socket_signal`], in `open` and `wire` |
//! | timeouts | none here: the core drops the future (or the body) |
//!
//! ```no_run
//! use evident_core::client::{Body, CallOptions, ClientBuilder};
//! use evident_core::tls::TlsOptions;
//! use evident_core::HostOverrides;
//! use evident_teaching_engine_async::AsyncTeachingEngine;
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let engine = AsyncTeachingEngine::new(&TlsOptions::new(), HostOverrides::new())?;
//! let client = ClientBuilder::new().build(engine)?;
//! let request = http::Request::get("http://127.0.0.1:8080/").body(Body::Empty)?;
//! let response = client.execute(request, CallOptions::new().idempotent()).await?;
//! println!("{}", response.status());
//! # Ok(())
//! # }
//! ```
#![warn(missing_docs, unreachable_pub, rust_2018_idioms)]
#![forbid(unsafe_code)]

pub mod wire;

use std::io;
use std::sync::Arc;

use evident_core::classify_helpers::socket_signal;
use evident_core::engine::{ConnectTiming, ErrorSite, Origin, answer_may_wait};
use evident_core::tls::{ALPN_HTTP1, TlsOptions, server_name};
use evident_core::{
    AttemptBody, AttemptContext, AttemptStage, BoxError, ConfigError, Engine, EngineFailure,
    EngineSignal, HostOverrides, ResponseBody,
};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;

/// What a connection is: plain TCP or TLS, read and written alike.
pub trait Io: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Io for T {}

/// An open connection, the TLS handshake (if any) complete.
pub type Conn = Box<dyn Io>;

/// The async teaching engine: one connection per attempt, HTTP/1.1 only.
#[derive(Clone)]
pub struct AsyncTeachingEngine {
    tls: TlsConnector,
    overrides: HostOverrides,
}

impl std::fmt::Debug for AsyncTeachingEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AsyncTeachingEngine")
            .finish_non_exhaustive()
    }
}

impl AsyncTeachingEngine {
    /// An engine trusting what `tls` says (roots, a client certificate) for
    /// `https://`, resolving names through `overrides` first, then the
    /// system.
    ///
    /// # Errors
    ///
    /// A [`ConfigError`] when `tls` cannot make a rustls configuration.
    pub fn new(tls: &TlsOptions, overrides: HostOverrides) -> Result<Self, ConfigError> {
        // The core's shared TLS policy: no early data, so a TLS failure
        // proves that no request byte left.
        let config = tls.client_config(&[ALPN_HTTP1])?;
        Ok(AsyncTeachingEngine {
            tls: TlsConnector::from(Arc::new(config)),
            overrides,
        })
    }
}

#[async_trait::async_trait]
impl Engine for AsyncTeachingEngine {
    fn name(&self) -> &'static str {
        "teaching-async"
    }

    async fn send(
        &self,
        request: http::Request<AttemptBody>,
        attempt: &AttemptContext,
    ) -> Result<http::Response<ResponseBody>, EngineFailure> {
        let progress = attempt.progress();
        // Every request byte goes through `wire::write_counted`.
        progress.counts_writes_exactly();
        progress.enter(AttemptStage::Resolve);

        let (parts, body) = request.into_parts();
        let mut conn = open(&parts.uri, &self.overrides, &self.tls, attempt).await?;
        let is_head = parts.method == http::Method::HEAD;
        if let Err(failure) = wire::write_request(&mut conn, &parts, body, progress).await {
            // A server may answer before it read the whole request, then
            // close or reset (RFC 9112 §9.6): the answer is on the socket,
            // behind the failed write. Read it (reading writes nothing);
            // without one, the write's failure stands.
            if !answer_may_wait(&failure, progress) {
                return Err(failure);
            }
            return wire::read_response(conn, is_head, progress, true)
                .await
                .map_err(|_| failure);
        }
        wire::read_response(conn, is_head, progress, false).await
    }
}

/// Opens the connection of one attempt with the core's kit: [`Origin`],
/// [`HostOverrides::resolve`] and [`connect`](evident_core::engine::connect)
/// (Happy Eyeballs: a silent address costs 250 ms, not the attempt). The
/// TLS handshake completes here, on each address's own connection, with
/// `Tls` entered first, so a rejected certificate is pre-write.
pub async fn open(
    uri: &http::Uri,
    overrides: &HostOverrides,
    tls: &TlsConnector,
    attempt: &AttemptContext,
) -> Result<Conn, EngineFailure> {
    let progress = attempt.progress();
    let origin = Origin::from_uri(uri).map_err(EngineFailure::from)?;
    let addrs = overrides.resolve(origin.host(), origin.port()).await?;
    let server_name = server_name(&origin)?;
    // A connection of this engine is never reused.
    progress.connection_reused(false);
    let establish = |_addr, tcp: TcpStream| {
        let (tls, name) = (tls.clone(), server_name.clone());
        async move {
            // Head and body are written separately; Nagle would delay them.
            tcp.set_nodelay(true)
                .map_err(|e| failed(e, ErrorSite::Connect))?;
            let Some(name) = name else {
                return Ok(Box::new(tcp) as Conn);
            };
            progress.enter(AttemptStage::Tls);
            match tls.connect(name, tcp).await {
                Ok(stream) => Ok(Box::new(stream) as Conn),
                Err(e) => Err(failed(e, ErrorSite::TlsHandshake)),
            }
        }
    };
    let timing = ConnectTiming::default();
    evident_core::engine::connect(addrs, &timing, progress, attempt.deadline(), establish).await
}

/// One address's failure at `site`.
fn failed(e: io::Error, site: ErrorSite) -> (EngineSignal, BoxError) {
    (socket_signal(&e, site), e.into())
}
