//! evident-hyper: the hyper 1 engine for evident.
//!
//! [`HyperEngine`] implements [`evident_core::Engine`]: it runs exactly
//! **one attempt per `send`** — it never re-sends anything by itself — and
//! feeds the attempt's [`evident_core::Progress`] exactly enough that the
//! core's shared classification can prove "not sent" where that is true.
//!
//! # Connections under our control
//!
//! The engine keeps its own small pool instead of hyper-util's legacy
//! client (which re-sends requests it got back unsent, and hides which
//! connection a request got):
//!
//! * HTTP/1.1 over `hyper::client::conn::http1`, one request at a time per
//!   connection, idle connections pooled per origin (scheme, host, port) up
//!   to [`DEFAULT_MAX_IDLE_PER_ORIGIN`] and health-checked at checkout;
//! * HTTP/2 over the `h2` crate directly, one shared connection per origin,
//!   chosen by ALPN (`h2` offered first) or by prior knowledge for
//!   `http://` ([`HyperEngineBuilder::http2_prior_knowledge`]).
//!
//! Names resolve through [`evident_core::HostOverrides`] first, then the
//! system resolver; the addresses are raced per RFC 8305 (Happy Eyeballs:
//! families interleaved, the next address started
//! [`DEFAULT_CONNECTION_ATTEMPT_DELAY`] after the previous one, the first to
//! connect wins) by the core's [`evident_core::engine::connect`], and which
//! failure surfaces is [`evident_core::ConnectFailures`]'s rule.
//!
//! # Progress, and how each fact is obtained
//!
//! | fact | HTTP/1.1 | HTTP/2 |
//! | --- | --- | --- |
//! | `Resolve`, `Connect`, `Tls` | entered before each step | same |
//! | `connection_reused` | pool checkout vs. new connection | same (shared connection) |
//! | `counts_writes_exactly` | yes | **no** |
//! | `wrote(n)` | plaintext bytes accepted by TLS (or TCP), exact | DATA bytes accepted by h2 (queued; headers not counted) |
//! | `WriteHead` | request handed to hyper | stream about to be opened |
//! | `head_written` | exact, possibly late (see below) | h2 accepted the HEADERS frame |
//! | `body_written` | exact, possibly late (see below) | h2 accepted the END_STREAM frame |
//! | `head_received` | hyper returned the response head | h2 returned the response head |
//! | `stream_id` | — | `ResponseFuture::stream_id()` |
//! | `read(n)` | response body bytes | response body bytes |
//!
//! **The HTTP/1.1 head/body boundary.** The connection's stream is wrapped
//! in a counting layer above TLS that attributes every accepted byte to the
//! request occupying the connection. The request body is wrapped too.
//! hyper's dispatcher asks the body `is_end_stream()` immediately before it
//! encodes the request head into its write buffer, and it only flushes the
//! stream once that buffer is empty — that is, once every byte encoded so
//! far was accepted. So:
//!
//! * the body was asked something, a flush completed and at least one byte
//!   was written ⇒ the whole head was accepted;
//! * the body yielded its last frame (with the length hyper framed it
//!   with) and a flush completed ⇒ the whole body was accepted.
//!
//! Both facts are reported at the next completed flush: possibly late,
//! never early. On a vectored stream (TCP, TLS) the head is proven sooner
//! and exactly: hyper then hands the body's buffers to the stream as they
//! are, behind the encoded head, so a write that accepted every byte in
//! front of the body's first byte wrote the whole head — and head and body
//! leave in one write, as with hyper alone. Otherwise the body holds its
//! first frame back until the head alone was flushed.
//!
//! **Nothing written.** A pooled HTTP/1.1 connection that turns out closed
//! either fails its checkout (and a new connection is opened, nothing of
//! the request having been written), or fails the attempt with zero bytes
//! counted exactly, or hyper hands the request back unsent, which the engine
//! reports as [`evident_core::EngineSignal::CancelledUnsent`]. In each case
//! the core proves `NotSent`.
//!
//! **A write started; sealing.** hyper writes from its connection task, so
//! the counting layer records that a write started before it hands bytes
//! to the stream: a snapshot the core takes while that write is blocked
//! never shows "nothing written". Once the core has sealed an attempt (its
//! timer fired, the call was dropped), the layer refuses every further
//! write and flush for it with an I/O error; hyper then closes the
//! connection, which is never pooled.
//!
//! **A new connection after 421.** When the core asks for one
//! ([`evident_core::AttemptContext::requires_fresh_connection`]) the pool is
//! not consulted; an HTTP/1.1 connection that answered 421 is not pooled.
//!
//! # Errors
//!
//! Failures are [`evident_core::EngineFailure`]s whose signal comes from
//! [`classify::classify`], which walks the error chain (through
//! `io::Error::get_ref` and `h2::Error::get_io`, which `source()` does not
//! follow). Response body errors are classified the same way. The engine
//! sets no timers: the core owns timeouts and drops the attempt's future.
//!
//! ```no_run
//! use evident_core::testing::attempt_context;
//! use evident_core::{AttemptBody, Engine, Progress};
//! use evident_hyper::HyperEngine;
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let engine = HyperEngine::builder().build()?;
//! let attempt = attempt_context(Progress::new(), None);
//! let request = http::Request::get("http://127.0.0.1:8080/").body(AttemptBody::Empty)?;
//! let response = engine.send(request, &attempt).await?;
//! assert!(attempt.progress().snapshot().head_received());
//! # let _ = response;
//! # Ok(())
//! # }
//! ```
#![warn(missing_docs, unreachable_pub, rust_2018_idioms)]
#![forbid(unsafe_code)]

mod builder;
pub mod classify;
mod connect;
mod engine;
mod h1;
mod h2;
mod io;
mod pool;
mod socket;

pub use builder::HyperEngineBuilder;
// The kit's defaults, re-exported where this engine's users found them.
pub use engine::HyperEngine;
pub use evident_core::engine::pool::{
    DEFAULT_IDLE_TIMEOUT, DEFAULT_MAX_IDLE_PER_ORIGIN, MAX_IDLE_PER_ORIGIN_LIMIT,
};
pub use evident_core::engine::{
    DEFAULT_CONNECT_TIMEOUT_PER_ADDRESS, DEFAULT_CONNECTION_ATTEMPT_DELAY,
};
pub use h2::{
    DEFAULT_HTTP2_CONNECTION_WINDOW, DEFAULT_HTTP2_KEEP_ALIVE_INTERVAL,
    DEFAULT_HTTP2_KEEP_ALIVE_TIMEOUT, DEFAULT_HTTP2_STREAM_WINDOW,
};
