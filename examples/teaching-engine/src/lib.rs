//! A small engine that proves the guide: a blocking HTTP/1.1 engine over a
//! plain [`std::net::TcpStream`] (plus rustls for `https://`), with the
//! kit's HTTP/1.1 framing ([`evident_core::engine::http1`]), written only
//! from the engine guide
//! (`evident_core::engine::guide`, the file `core/docs/adding-an-engine.md`)
//! and evident's public API.
//!
//! It is documentation in code, not a fifth product engine: it has no
//! connection pool, no HTTP/2, no proxy support and no `Expect:
//! 100-continue`. What it does have is everything the contract asks of an
//! engine, each in one visible place:
//!
//! | the guide's step | where |
//! | --- | --- |
//! | enter each stage before the step that can fail in it | [`connect`] (resolve, connect, TLS), [`wire::send`] (write head, write body) |
//! | mark a write started, count request bytes, so "nothing written" is a proof | [`wire::send`]: `start_write` before every write, `wrote` for what the connection accepted |
//! | report the head and body boundaries | [`wire::send`] |
//! | an early answer (RFC 9112 §9.6): when a write fails because the server went away, read its answer | [`TeachingEngine`]'s `send`, and [`connect::Conn`]'s read, which writes nothing |
//! | HTTP/1.1 framing: the head, chunked bodies, the response read back | the kit's [`http1`](evident_core::engine::http1), in [`wire`] |
//! | bound every blocking call by the attempt's deadline | [`connect::Socket`] |
//! | a classifier that only translates | the kit's [`socket_signal`](evident_core::classify_helpers::socket_signal): an engine over its own sockets and rustls has nothing else to translate |
//! | no hidden behaviour: no retry, no redirect, no proxy, no decompression | nothing here does any of it; a 3xx is returned as an answer |
//!
//! Every attempt opens its own connection and closes it when the response
//! body is done, so there is no pooled connection to find stale,
//! [`Progress::connection_reused`](evident_core::Progress::connection_reused)
//! is always `false`, and an attempt that
//! [requires a fresh connection](evident_core::AttemptContext::requires_fresh_connection)
//! (the retry after a 421) gets one by construction.
//!
//! ```no_run
//! use evident_core::client::blocking::Body;
//! use evident_core::client::{CallOptions, ClientBuilder};
//! use evident_core::HostOverrides;
//! use evident_teaching_engine::TeachingEngine;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let engine = TeachingEngine::new(Vec::new(), HostOverrides::new())?;
//! let client = ClientBuilder::new().build_blocking(engine)?;
//! let request = http::Request::get("http://127.0.0.1:8080/").body(Body::Empty)?;
//! let response = client.execute(request, CallOptions::new().idempotent())?;
//! println!("{}", response.status());
//! # Ok(())
//! # }
//! ```
#![warn(missing_docs, unreachable_pub, rust_2018_idioms)]
#![forbid(unsafe_code)]

pub mod connect;
pub mod wire;

use std::sync::Arc;
use std::time::Instant;

use evident_core::engine::answer_may_wait;
use evident_core::{
    AttemptContext, AttemptStage, BlockingAttemptBody, BlockingEngine, BlockingResponseBody,
    ConfigError, EngineFailure, EngineSignal, HostOverrides,
};

/// The teaching engine: one connection per attempt, HTTP/1.1 only.
#[derive(Debug, Clone)]
pub struct TeachingEngine {
    tls: Arc<rustls::ClientConfig>,
    overrides: HostOverrides,
}

impl TeachingEngine {
    /// An engine trusting exactly `roots` (DER certificates) for `https://`
    /// and resolving names through `overrides` first, then the system.
    ///
    /// A root that is not a DER certificate is a [`ConfigError`].
    pub fn new(roots: Vec<Vec<u8>>, overrides: HostOverrides) -> Result<Self, ConfigError> {
        // The core's shared TLS policy: no early data, so a TLS failure
        // proves that no request byte left.
        let tls = evident_core::tls::client_config(roots, &[evident_core::tls::ALPN_HTTP1])?;
        Ok(TeachingEngine {
            tls: Arc::new(tls),
            overrides,
        })
    }
}

impl BlockingEngine for TeachingEngine {
    fn name(&self) -> &'static str {
        "teaching"
    }

    fn send(
        &self,
        request: http::Request<BlockingAttemptBody>,
        attempt: &AttemptContext,
    ) -> Result<http::Response<Box<dyn BlockingResponseBody>>, EngineFailure> {
        let progress = attempt.progress();
        // Every request byte goes through `wire::send`, which marks the
        // write started before handing bytes over and counts what the
        // connection accepted: "nothing written" is then a proof.
        progress.counts_writes_exactly();
        progress.enter(AttemptStage::Resolve);
        if attempt.deadline().is_some_and(|d| d <= Instant::now()) {
            return Err(EngineFailure::signal_only(EngineSignal::TimedOut));
        }

        let (parts, body) = request.into_parts();
        let mut conn = connect::open(&parts.uri, &self.overrides, &self.tls, attempt)?;
        let is_head = parts.method == http::Method::HEAD;
        if let Err(failure) = wire::send(&mut conn, &parts, body, progress) {
            // A server may answer before it read the whole request, then
            // close or reset (RFC 9112 §9.6): the answer is on the socket,
            // behind the failed write. Read it (reading writes nothing);
            // without one, the write's failure stands.
            if !answer_may_wait(&failure, progress) {
                return Err(failure);
            }
            return wire::receive(conn, is_head, progress, true).map_err(|_| failure);
        }
        wire::receive(conn, is_head, progress, false)
    }
}
