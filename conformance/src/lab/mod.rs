//! The fault lab: real-socket loopback servers that misbehave on purpose.
//!
//! Every HTTP engine under test is pointed at the same servers, so a fault
//! is the same bytes on the wire whichever engine meets it, and the server's
//! [`Ledger`] measures what was executed — the number that "no duplicate
//! execution" is about.
//!
//! * [`Http1Server`] — HTTP/1.1 (plain or TLS) driven by a script of
//!   [`Http1Behaviour`]s: answer, close, reset, never answer, partial or
//!   malformed heads, short or stalled bodies, a reset mid-upload, a
//!   keep-alive connection closed while idle, a server that stops reading
//!   mid-upload.
//! * [`Http2Server`] — HTTP/2 (h2c or TLS) with [`Http2Behaviour`]s:
//!   `REFUSED_STREAM` (before or after the response head, or after the
//!   request body), GOAWAY above or covering the stream (with or without an
//!   error code), bare resets.
//! * [`TlsFaultServer`] — an untrusted certificate, a handshake closed
//!   after the ClientHello.
//! * [`NeverReadsServer`] — accepts and never reads: a large head never
//!   fully leaves the client.
//! * [`ConnectTimeoutServer`] — connects that hang in SYN-SENT
//!   ([`SilentListener`] is the same fault without a runtime);
//!   [`refused_addr`] — connects that are refused.
//! * [`TestPki`] — the CA a client trusts, generated once per process.
//!
//! # Safety rules
//!
//! Every server listens on loopback only (binding anything else is an
//! error) and nothing in the lab connects anywhere but to its own loopback
//! listeners. Every server stops when its [`LabServer`] handle is dropped
//! or shut down, and by itself after its lifetime ([`DEFAULT_LIFETIME`]);
//! every task it runs is bounded by that.
//!
//! Servers start on the current tokio runtime; a blocking engine's test
//! enters a runtime (`runtime.enter()`) and starts them there.
//!
//! # Executions and idempotency keys
//!
//! A request is *received* once its head is read and *executed* when the
//! server's behaviour acts on it (each behaviour says whether it does,
//! before failing). Both are counted per request id ([`REQUEST_ID_HEADER`],
//! [`NO_REQUEST_ID`] when absent) and per idempotency key
//! ([`IDEMPOTENCY_KEY_HEADER`]). Servers honour keys: a request whose key was
//! already executed is a *replay*, received but not executed again, and is
//! answered with the stored status plus [`REPLAY_HEADER`]. The stored status
//! is the executing reply's status, or 200 when the execution ended in a
//! fault. A replay takes its request's place in the script (the behaviour
//! for that index is not run).

mod addr;
pub(crate) mod conn;
mod http1;
mod http2;
mod ledger;
mod pki;
mod reply;
mod script;
mod server;
mod tcp;
mod tls;

pub use addr::{RefusedPort, loopback_v4, refused_addr, refused_addr_on, shared_free_port};
pub use http1::{AfterEarlyAnswer, Http1Behaviour, Http1Server};
pub use http2::{Http2Behaviour, Http2Server};
pub use ledger::{
    Disposition, IDEMPOTENCY_KEY_HEADER, Ledger, LedgerSnapshot, NO_REQUEST_ID, REPLAY_HEADER,
    REQUEST_ID_HEADER, Receipt,
};
pub use pki::{ALPN_H2, ALPN_HTTP1, SERVER_NAMES, ServerIdentity, TestPki};
pub use reply::Reply;
pub use server::{DEFAULT_LIFETIME, LabServer};
pub use tcp::{ConnectTimeoutServer, NeverReadsServer, SilentListener};
pub use tls::{TlsFault, TlsFaultServer};
