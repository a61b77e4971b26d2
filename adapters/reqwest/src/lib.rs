//! evident-reqwest: the reqwest 0.13 engine for evident.
//!
//! [`ReqwestEngine`] implements [`evident_core::Engine`] on reqwest's async
//! `Client`: it runs exactly **one attempt per `send`**, switches off every
//! re-send reqwest would make behind the caller's back, and feeds the
//! attempt's [`evident_core::Progress`] from the hooks reqwest offers.
//!
//! # Choosing it
//!
//! Choose reqwest when your application already uses it (one HTTP stack,
//! one set of dependencies). Choose the hyper engine when you want the
//! most evidence: it counts every request byte, sees a GOAWAY that covered
//! a stream, and tells a pooled connection from a fresh one. Both give the
//! same retry decisions wherever both can see the same facts; the
//! conformance matrix lists each cell where they cannot.
//!
//! # Hidden re-sends, and what became of each
//!
//! | behaviour | default in reqwest 0.13.5 | here |
//! | --- | --- | --- |
//! | retry layer re-sending `REFUSED_STREAM` and graceful GOAWAY | on | `retry::never()` |
//! | redirects (up to 10, re-sending 307/308 bodies) | on | `redirect::Policy::none()`: a redirect is an answer |
//! | proxies from the environment | on | `no_proxy()`; the caller may name one ([`ReqwestEngineBuilder::proxy`]) |
//! | `Referer` on redirects | on | off |
//! | decompression (rewrites `Accept-Encoding` and the body) | feature-gated | features not enabled |
//! | timeouts | none | none: the core owns attempt timeouts and the deadline |
//! | hyper-util re-sending a request hyper handed back unsent on a reused connection | on, no setter | **kept, and harmless** (below) |
//!
//! **Why hyper-util's re-send cannot change the evidence.** hyper-util's
//! legacy client sets `retry_canceled_requests` and reqwest offers no way
//! to clear it. It re-sends only a request that hyper *handed back*, and
//! hyper hands a request back only when its connection closed before the
//! request was taken off the queue to be written (`hyper
//! proto/h1/dispatch.rs`, `client/dispatch.rs`: every `Canceled` error in
//! hyper 1.12's client carries the untouched request). Such a request was
//! never encoded, so the server never saw it: the re-send is its first
//! execution. The body wrapper proves it too: hyper had not asked it
//! anything, so the attempt's progress never left connection set-up.
//! reqwest's retry layer and a 307/308 redirect re-send only a body reqwest
//! can clone; the engine hands reqwest only wrapped (streaming) bodies,
//! which it cannot clone, so those are off twice over. A 301/302/303
//! becomes a body-less GET that needs no clone: `Policy::none()` is what
//! stops that one.
//! `tests/no_hidden_resend.rs` counts executions on a ledger for a POST
//! over a stale pooled connection, an HTTP/2 `REFUSED_STREAM` and a
//! redirect reply.
//!
//! # Progress, and how each fact is obtained
//!
//! | fact | hook |
//! | --- | --- |
//! | `Resolve` | entered when `send` starts (`Connect` for an IP literal, which reqwest never resolves) |
//! | `Connect` | our resolver (`dns_resolver`) returned addresses |
//! | `Tls` | rustls asked our session store for a ticket while building the ClientHello |
//! | `WriteHead`, write started | hyper asked the body `is_end_stream()`, just before it encodes the head or opens the stream |
//! | `head_written` | hyper pulled the first body frame (or the body is empty) |
//! | `wrote(n)` | body bytes hyper pulled (handed to hyper, not counted on the socket) |
//! | `body_written` | the body ended |
//! | `head_received` | reqwest returned the response |
//! | `read(n)` | response body bytes |
//! | `counts_writes_exactly` | **never** |
//! | `connection_reused`, `stream_id` | **not known** |
//!
//! **A sealed attempt writes nothing more.** When the core gives up on an
//! attempt it seals the progress; the body then refuses to start a write
//! (`Progress::start_write`) and fails its next frame, so hyper tears the
//! connection down instead of sending more of the request (on HTTP/1.1
//! before anything of it was flushed; on HTTP/2 the stream is reset).
//!
//! **A fresh connection on request.** After a 421 the core asks for an
//! attempt on a new connection (`AttemptContext::requires_fresh_connection`);
//! reqwest has no per-request switch, so such attempts go through a second
//! set of clients without a pool.
//!
//! The resolver and the TLS session store are shared by every request of a
//! client; they find the attempt through a task-local set around the
//! attempt's future, which hyper-util polls the connect future inside.
//!
//! **reqwest cannot count bytes written.** Its connector layers must return
//! reqwest's sealed connection type, so the socket cannot be wrapped. This
//! engine therefore never claims "nothing written" from a count: the core
//! proves `NotSent` only from a stage before any write (resolve, connect,
//! TLS — hyper had not touched the body) or from hyper handing the request
//! back, and treats everything after hyper asked the body as possibly sent.
//!
//! # TLS and HTTP/2
//!
//! TLS is the core's rustls policy ([`evident_core::tls::client_config`]:
//! ring provider, caller-given roots only, no early data), handed to
//! reqwest as-is through `tls_backend_preconfigured`, ALPN included:
//! HTTP/2 by ALPN for `https://`. HTTP/2 by prior knowledge for `http://`
//! ([`ReqwestEngineBuilder::http2_prior_knowledge`]) uses a second reqwest
//! client, because reqwest applies prior knowledge to every origin.
//!
//! # Errors
//!
//! Failures are [`evident_core::EngineFailure`]s whose signal comes from
//! [`classify::classify`].
//!
//! # What this engine sees less of than the hyper engine
//!
//! Each item reports less, never something wrong; the core falls back to
//! the conservative answer.
//!
//! * **A GOAWAY that covered the stream** is seen as a closed connection:
//!   hyper drops the `h2::Error` (`hyper::Error::new_h2`). Same evidence and
//!   decision, another category; a named gap in the conformance matrix.
//! * **Bytes on the socket** are not counted, so "nothing written" is never
//!   proven by a count (see above).
//! * **The HTTP/2 stream id and whether the connection was reused** are not
//!   reported: reqwest and hyper-util expose neither.
//! * **A seal racing hyper's first question to the body** on HTTP/2: hyper
//!   checks that the request was not cancelled, then asks the body, then
//!   opens the stream, in one step of its connection task. A seal landing
//!   inside that step lets the HEADERS frame (without END_STREAM) leave,
//!   followed by `RST_STREAM(CANCEL)` when the body refuses its first frame.
//! * **Host overrides for IP literals** are ignored: reqwest never resolves
//!   an IP literal.
//! * **Which address's failure surfaces** when a name has several: reqwest's
//!   connector (hyper-util's `HttpConnector`) walks the addresses itself
//!   and reports the last TCP error, where the other adapters keep the
//!   first ([`evident_core::engine::ConnectFailures`]). The rule's point
//!   still holds: TLS runs only on the address that connected, so a
//!   rejected certificate is never hidden by another address's refusal.
//!
//! ```no_run
//! use evident_core::client::{Body, CallOptions, Client};
//! use evident_reqwest::ReqwestEngine;
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let client = Client::new(ReqwestEngine::builder().build()?);
//! let request = http::Request::post("http://127.0.0.1:8080/orders").body(Body::from("{}"))?;
//! let response = client
//!     .execute(request, CallOptions::new().generate_idempotency_key())
//!     .await?;
//! # let _ = response;
//! # Ok(())
//! # }
//! ```
#![warn(missing_docs, unreachable_pub, rust_2018_idioms)]
#![forbid(unsafe_code)]

mod body;
mod builder;
pub mod classify;
mod engine;
mod hooks;

pub use body::MAX_FRAME_BYTES;
pub use builder::{DEFAULT_MAX_IDLE_PER_ORIGIN, MAX_IDLE_PER_ORIGIN_LIMIT, ReqwestEngineBuilder};
pub use engine::ReqwestEngine;
