//! evident's isahc engine: libcurl, without its hidden re-sends.
//!
//! [`IsahcEngine`] implements [`evident_core::Engine`]: one attempt per
//! `send`, as one libcurl transfer per address tried, driven by the async
//! client. isahc is pinned to 2.0.2, built with rustls and a static libcurl
//! (only a C compiler is needed: no system libcurl, OpenSSL or pkg-config).
//!
//! # No hidden re-send, ever
//!
//! libcurl re-sends a request, for any method and up to five times, when a
//! *reused* connection dies before the first response byte
//! (`Curl_retry_request`); over HTTP/2 it re-sends on `REFUSED_STREAM`;
//! after a 417 to `Expect: 100-continue` it sends the request again. isahc
//! has no per-request switch for any of it. This crate closes every path:
//!
//! * **a connection is reused only where a repeat is harmless, and curl's
//!   re-send is refused even there.** An attempt whose
//!   [`repeat_is_harmless`](evident_core::AttemptContext::repeat_is_harmless)
//!   (declared idempotent, or carrying its idempotency key) runs through a
//!   *slot*: a Unix socket of the adapter's, one per connection kept, whose
//!   relay dials TCP for curl and ties every byte to the transfer it
//!   belongs to. When curl opens a second connection for a request that
//!   already left on the first (its re-send), the relay never dials it: the
//!   server sees the request once, and the attempt reports what the first
//!   connection showed (sent, closed, no answer), as on every engine; the
//!   core retries it, or not, as an attempt of its own. Every other attempt
//!   gets a new connection (`connection_cache_size(0)`, curl's
//!   FORBID_REUSE), so a request whose repeat could do harm never meets a
//!   stale keep-alive at all. Without Unix sockets nothing is reused;
//!   `max_idle_per_origin(0)` turns reuse off everywhere;
//! * **HTTP/1.1 only**: the `REFUSED_STREAM` re-send is not controllable, so
//!   HTTP/2 is a declared capability gap;
//! * **every request body is a non-rewindable reader**: should curl ever try
//!   to send a body again, it fails with error 65 instead;
//! * **no `Expect: 100-continue`**, neither curl's nor the caller's (see
//!   below), no redirects, no proxy from the environment, no decompression.
//!
//! # Resolving and dialing
//!
//! The adapter resolves names itself ([`evident_core::HostOverrides`], IP
//! literals, the system resolver) and tries one address per transfer. On
//! Unix the adapter dials TCP itself and hands curl a Unix socket relayed,
//! byte for byte, to that connection (`Dialer::unix_socket`): a slot's for
//! a reused connection, a relay of its own for a new one. curl still does
//! TLS, with its own trust and client certificate, and the adapter learns
//! what curl does not report: that TCP is up, whether a byte of the request
//! (over TLS, a record that can carry it) left, and that the server reset.
//! Where no relay can listen (no Unix sockets, or no private directory for
//! one), curl dials the address itself (`Dialer::ip_socket`). A transfer
//! that fails to connect (refused, TLS handshake, certificate) moves on to
//! the next address; which failure surfaces is
//! [`evident_core::ConnectFailures`]' rule, as on every engine.
//!
//! # Early answers
//!
//! A server may answer before it has read the whole request, then close or
//! reset (RFC 9112 §9.6); the answer is the attempt's outcome, as on every
//! engine. curl lost it two ways, and both are closed:
//!
//! * its next write of the body failed before it read the answer (curl
//!   error 55). When the server stops taking the request, the relay passes
//!   on the server's bytes and end, and reads and drops the rest of curl's
//!   request instead of closing curl's socket under it: curl reads before
//!   it writes, so it meets the answer, and a 413 or a complete answer on a
//!   closing connection ends its upload;
//! * its rustls backend dropped an answer it had already decrypted when the
//!   connection's end came in the same read (curl error 56). The vendored
//!   libcurl hands the plaintext over first and reports the end on the next
//!   read (`vendor/curl-sys/EVIDENT.md`).
//!
//! What curl writes after the server stopped reading reaches no one, and
//! the relay's "the request left" is unchanged by it.
//!
//! # Progress, and how each fact is obtained
//!
//! libcurl gives no hook on the socket, so progress is coarser than on
//! hyper or ureq, and always errs on the side of "may have been sent":
//!
//! | fact | how | exact? |
//! | --- | --- | --- |
//! | `Resolve`, `Connect` | entered by the adapter before resolving and before the first transfer | exact |
//! | `Tls` | entered once the adapter's own TCP connect for `https://` succeeded (a slot's or a relay's), so a handshake that stalls times out at `Tls`, as on every engine. Handshake and certificate failures also take the `Tls` stage from their signal, and so does a send or receive failure before any request record left (it broke the handshake: a server rejecting a client certificate). Without Unix sockets curl dials, and a stalled handshake is reported at `Connect` (same category and evidence): curl reports nothing that shows TCP was up | exact on Unix; pre-write either way |
//! | `connection_reused` | `false` on a new connection; on a slot, `true` once the request leaves on a connection open before the attempt | exact |
//! | nothing written | on a slot: its relay, sealed when the transfer fails (or the adapter's guard ends it), forwarded no byte of the request (over TLS: no application-data record longer than an alert) and will forward nothing more, whatever curl wrote into the socket; otherwise the new connection's relay, sealed the same way, forwarded no byte of the request (over TLS: no application-data record; TLS 1.2 sends none before the handshake ends; TLS 1.3's first is its Finished, counted conservatively) and will forward nothing more; where curl dialed (no relay could listen): the failed transfer reports no connected address (curl fills it once TCP is up; each transfer has a fresh easy handle). Either way curl never pulled the body | exact |
//! | `head_written` (`WriteBody`) | on a plaintext slot: the relay wrote the head's blank line to the server; otherwise curl's first pull of request body bytes: curl puts the head in its send buffer before it pulls the body | exact on a plaintext slot; otherwise late (taken by curl's writer, possibly not yet on the wire) |
//! | `body_written` (`AwaitHead`) | curl pulled the last body byte; on a plaintext slot also a bodyless request's head written | late, as above; exact for a bodyless request on a plaintext slot |
//! | a write started (`WriteHead`) | curl connected (or did not report before the deadline) but never pulled a body, and no relay saw the head's end: a bodyless request over TLS or on a new connection, or a head curl never finished. Nothing shows the head was taken, so it is not claimed written (a strengthening fact comes late or not at all): a named gap for such bodyless requests | exact as far as it goes |
//! | seal may not hold | declared before the first transfer: curl's thread writes with no hook to refuse it, so an attempt the core abandons keeps no stage proof | exact |
//! | `head_received` | the first response body byte, or a transfer that ended with a head proven complete (see below) | exact, possibly late |
//! | `read(n)` | response body bytes delivered | exact |
//!
//! Writes are not counted ([`evident_core::Progress::counts_writes_exactly`]
//! is never declared), so "not sent" comes only from pre-write stages.
//!
//! # Answers whose head was cut short
//!
//! curl takes a response head that was cut short for a response. A body
//! byte proves the head ended; an answer without one is refused as
//! [`IncompleteHead`] (a `ConnectionClosed` signal) when nothing proves its
//! head complete: a close-delimited answer with an empty body, or a
//! declared `Content-Length` without a byte of it. Answers that have no
//! body by definition (`HEAD`, 1xx, 204, 304) or declare `Content-Length: 0`
//! or chunked framing are accepted, since a head cut right after such a line
//! cannot be told apart from a whole one: a named gap. Closing it needs
//! curl's header size (`CURLINFO_HEADER_SIZE`) or the end-of-head line of
//! curl's header callback, neither of which isahc 2.0.2 exposes.
//!
//! # Timeouts
//!
//! The core owns the deadline. The adapter bounds curl's own transfer a
//! little inside it ([`CURL_DEADLINE_LEAD_MAX`] at most), so that an
//! abandoned transfer cannot keep running, and so that curl's timeout, with
//! or without a connected address, is what reports the failure. A guard of
//! its own ends the attempt just before the core's timer; if curl has not
//! reported by then, the attempt is taken as possibly written. A timeout
//! curl reports ahead of the deadline is held until the deadline, so an
//! attempt lasts as long as on any other engine.
//!
//! curl's bound covers the whole transfer, body included: with the core's
//! streaming mode, a response body handed to the caller must also arrive
//! before the attempt deadline, or it fails as `Timeout` after the response.
//!
//! # Mutual TLS
//!
//! A client certificate set with [`evident_core::tls::TlsOptions::identity`]
//! is presented as on every engine, and checked the same way when the
//! engine is built. curl's rustls backend reads it only from files (it
//! ignores the in-memory blobs isahc can set, and would connect without
//! it), so on Linux the engine writes the chain and key as PEM into
//! anonymous memory files (`memfd_create`) that live as long as the engine
//! and never touch a disk; elsewhere the builder refuses the identity with
//! a typed error. A server that rejects the certificate over TLS 1.2 ends
//! the handshake: `Tls`, `NotSent`. Over TLS 1.3 the client's handshake is
//! over first and curl may write the request before the rejection arrives:
//! conservative (`SentNoResponse`), as on every engine that cannot count.
//!
//! # What reuse costs
//!
//! A reused connection passes through the adapter's relay: one more hop
//! per exchange (8–16 µs of CPU per call on the benchmark's machine) and
//! three more descriptors per connection kept (the slot's socket, curl's
//! end of it and the relay's). An idle slot is kept at most the idle
//! timeout ([`evident_core::engine::EngineOptions::idle_timeout`]), and
//! at most `max_idle_per_origin` of them per origin and address.
//!
//! # What else libcurl does here
//!
//! * libcurl waits on its sockets with `poll()`, so transfers work in a
//!   process holding thousands of descriptors (`tests/descriptors.rs` runs
//!   them with 5,000 open). curl-sys 0.4.91 on its own builds libcurl with
//!   `select()` (it defines `HAVE_POLL_FINE`, which libcurl stopped reading
//!   in 8.11), where every transfer fails once a socket is numbered 1024 or
//!   above; this workspace patches it (`vendor/curl-sys/EVIDENT.md`). A
//!   crate depending on this one from crates.io must do the same, or build
//!   libcurl with `-DHAVE_POLL` (see the README).
//! * A caller's own `Expect` header is **not sent**: after a 417 curl sends
//!   the request again by itself, and since it never read the body yet, no
//!   rewind is needed and nothing would stop that second send. The body
//!   goes with the head instead.
//! * A server that ends TLS without `close_notify` right after a complete
//!   answer makes curl's rustls backend fail the transfer with error 56
//!   (`ConnectionReset`, so `sent_no_response`), where hyper returns the
//!   answer: measured on loopback with a `Connection: close` answer and its
//!   whole `Content-Length` body, in 5 runs out of 5. The evidence stays
//!   conservative (never "not sent"), but the answer is lost: a parity gap
//!   that only libcurl can close.
//!
//! ```no_run
//! use evident_core::client::{Body, CallOptions, ClientBuilder};
//! use evident_isahc::IsahcEngine;
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let client = ClientBuilder::new().build(IsahcEngine::builder().build()?)?;
//! let request = http::Request::post("http://127.0.0.1:8080/pay").body(Body::Full("{}".into()))?;
//! let response = client.execute(request, CallOptions::new()).await?;
//! println!("{}", response.status());
//! # Ok(())
//! # }
//! ```
#![warn(missing_docs, unreachable_pub, rust_2018_idioms)]
#![forbid(unsafe_code)]

mod body;
mod builder;
pub mod classify;
mod engine;
mod identity;
#[cfg(unix)]
mod relay;
/// Without Unix sockets there is no relay: curl dials (see `relay.rs`).
#[cfg(not(unix))]
mod relay {
    use std::path::Path;
    use std::sync::Arc;

    pub(crate) enum Listening {}
    pub(crate) enum Relay {}
    pub(crate) enum Facts {}

    impl Listening {
        pub(crate) fn bind() -> std::io::Result<Listening> {
            Err(std::io::ErrorKind::Unsupported.into())
        }
        pub(crate) fn relay_to(self, _: tokio::net::TcpStream) -> Relay {
            match self {}
        }
    }

    impl Relay {
        pub(crate) fn path(&self) -> &Path {
            match *self {}
        }
        pub(crate) fn facts(&self) -> &Arc<Facts> {
            match *self {}
        }
    }

    impl Facts {
        pub(crate) fn seal(&self) -> bool {
            match *self {}
        }
        pub(crate) fn server_reset(&self) -> &Arc<crate::body::ResetSeen> {
            match *self {}
        }
    }
}

#[cfg(unix)]
mod slot;
/// Without Unix sockets there are no slots: no connection is reused.
#[cfg(not(unix))]
mod slot {
    use std::io;
    use std::net::SocketAddr;
    use std::path::Path;
    use std::sync::Arc;
    use std::time::Duration;

    use evident_core::{Origin, Progress};

    #[derive(Debug, Clone)]
    pub(crate) enum Slots {}
    #[derive(Debug)]
    pub(crate) enum Lease {}
    pub(crate) enum Slot {}
    #[derive(Debug)]
    pub(crate) enum TurnFacts {}

    impl Slots {
        pub(crate) fn checkout(&self, _: &Origin, _: SocketAddr) -> io::Result<Lease> {
            match *self {}
        }
    }

    impl Lease {
        pub(crate) fn slot(&self) -> &Slot {
            match *self {}
        }
        pub(crate) fn check_in(self) {
            match self {}
        }
    }

    impl Slot {
        pub(crate) fn path(&self) -> &Path {
            match *self {}
        }
        pub(crate) fn begin(&self, _: &Progress, _: Option<Duration>, _: bool) -> Arc<TurnFacts> {
            match *self {}
        }
    }

    impl TurnFacts {
        pub(crate) fn seal(&self) -> bool {
            match *self {}
        }
        pub(crate) fn server_reset(&self) -> &Arc<crate::body::ResetSeen> {
            match *self {}
        }
        pub(crate) fn resend_refused(&self) -> bool {
            match *self {}
        }
        pub(crate) fn take_connect_error(&self) -> Option<io::Error> {
            match *self {}
        }
    }
}

pub use builder::{
    CURL_CACHE_TTL_MARGIN, CURL_CONNECTION_CACHE, IsahcEngineBuilder, SIGNS_NOTHING,
};
pub use engine::{CURL_DEADLINE_LEAD_MAX, IncompleteHead, IsahcEngine};
pub use isahc;
