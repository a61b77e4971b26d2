//! evident's ureq 3 engine: blocking, HTTP/1.1, with exact progress and no
//! request ever re-sent behind the core's back.
//!
//! [`UreqEngine`] implements [`evident_core::BlockingEngine`]: one attempt
//! per `send`, on the calling thread. The ureq agent underneath runs with
//! this crate's own resolver, connector and transport
//! (`Agent::with_parts`), so the engine sees every step the core's
//! classification needs:
//!
//! * the **resolver** honours [`evident_core::HostOverrides`], then asks the
//!   system; "no such name" is [`evident_core::EngineSignal::NameNotFound`];
//! * the **connector** races the resolved addresses per RFC 8305 (the
//!   core's [`evident_core::engine::connect_blocking`]: the next address
//!   starts 250 ms after the previous one, the first to connect wins) and completes
//!   the TLS handshake (rustls, ring, the builder's roots only, no early
//!   data) before ureq writes anything, so a rejected certificate fails at
//!   the `Tls` stage, never while writing the head; which failure surfaces
//!   is [`evident_core::ConnectFailures`]' rule;
//! * the **transport** counts request bytes above TLS and reports the head
//!   and body boundaries (see below).
//!
//! ureq is configured so that it sends exactly one request per attempt: no
//! redirects followed, statuses are answers rather than errors, no proxy
//! from the environment. ureq 3.5 has no retry of its own (its ureq 2
//! predecessor re-sent idempotent requests on a dead pooled connection); a
//! pooled connection that fails its liveness probe is dropped *before*
//! anything is written on it, and a fresh one is opened within the attempt.
//!
//! # Progress, and how each fact is obtained
//!
//! | fact | how | exact? |
//! | --- | --- | --- |
//! | `counts_writes_exactly` | declared at the start of every attempt | — |
//! | `Resolve` | entered when the attempt starts (ureq resolves first, even for a pooled connection) | exact |
//! | `Connect`, `Tls` | entered by the connector before each step | exact |
//! | `connection_reused` | `false` when the connector opens the connection; on the first write, whether the connection already carried a request | exact |
//! | `WriteHead` | the first write for the attempt | exact |
//! | `start_write` | before every write hands bytes to TCP or rustls (a write that times out with nothing accepted has still started) | conservative |
//! | `wrote(n)` | plaintext bytes accepted: each TCP `write`, or each flushed TLS `transmit_output` | exact over TCP; over TLS a failed write counts whole once any byte left |
//! | `head_written` | the write carrying the head's `\r\n\r\n` succeeded | exact (ureq writes head and body in separate calls) |
//! | `body_written` | with the head for a request without body; otherwise ureq's first read after the request (after the `100 Continue` wait with `Expect`) | exact, possibly late, never early |
//! | `head_received` | `Agent::run` returned a response | exact |
//! | `read(n)` | response body bytes delivered | exact |
//!
//! # Sealed attempts and new connections
//!
//! Once the core has sealed an attempt (it gave up on it), the transport
//! refuses every further write for it and never returns its connection to
//! ureq's pool. A connection that answered 421 Misdirected Request is not
//! pooled either. When the core asks for a new connection (the retry after a
//! 421, [`evident_core::AttemptContext::requires_fresh_connection`]), the
//! request's `max_idle_age` is zero, so ureq's pool hands out none of its
//! connections and the connector opens a new one.
//!
//! # What ureq 3.5 does that this crate works around
//!
//! * Its `TcpConnector` reports only the last address's failure and gives
//!   up on errors it does not deem address-specific; its `RustlsConnector`
//!   raises handshake failures as plain I/O errors, indistinguishable from a
//!   failure on an established connection. Hence the own connector.
//! * Its body reader takes `ConnectionReset`/`ConnectionAborted` for the end
//!   of a body, which silently truncates a close-delimited body; the
//!   transport hides the kind from ureq (see [`classify`]).
//! * Its 100-continue wait expects a timeout as `ureq::Error::Timeout`, so
//!   the transport reports socket timeouts that way.
//!
//! # Timeouts
//!
//! The core owns the deadline. Each `send` gives ureq a global timeout of
//! the time left, and the transport bounds every socket read and write by
//! the deadline as well. Whatever stage ureq names in its timeout error, the
//! signal is [`evident_core::EngineSignal::TimedOut`] and the core
//! classifies it from the progress.
//!
//! # Errors
//!
//! Failures are [`evident_core::EngineFailure`]s whose signal comes from
//! [`classify::classify`], which walks the error chain (through
//! `io::Error::get_ref`, which `source()` does not follow). Response body
//! errors are classified the same way.
//!
//! ```no_run
//! use evident_core::client::ClientBuilder;
//! use evident_core::client::blocking::Body;
//! use evident_core::client::CallOptions;
//! use evident_ureq::UreqEngine;
//!
//! # fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let client = ClientBuilder::new().build_blocking(UreqEngine::builder().build()?)?;
//! let request = http::Request::get("http://127.0.0.1:8080/").body(Body::Empty)?;
//! let response = client.execute(request, CallOptions::new().idempotent())?;
//! assert!(response.status().is_success());
//! # Ok(())
//! # }
//! ```
#![warn(missing_docs, unreachable_pub, rust_2018_idioms)]
#![forbid(unsafe_code)]

mod attempt;
mod builder;
pub mod classify;
mod connect;
mod engine;
mod resolve;
mod transport;

pub use builder::UreqEngineBuilder;
// The kit's defaults, re-exported where this engine's users found them.
pub use engine::UreqEngine;
pub use evident_core::engine::pool::{DEFAULT_MAX_IDLE_PER_ORIGIN, MAX_IDLE_PER_ORIGIN_LIMIT};
pub use evident_core::engine::{
    DEFAULT_CONNECT_TIMEOUT_PER_ADDRESS, DEFAULT_CONNECTION_ATTEMPT_DELAY,
};
