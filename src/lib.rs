//! evident: HTTP retries decided by evidence, identically on every engine.
//!
//! A call touches four things, all at the top of this crate: a client
//! ([`Client`], or [`blocking::Client`]), a request ([`http::Request`] with a
//! [`Body`]), its [`CallOptions`], and on failure an [`Error`] carrying every
//! attempt's record. One line picks an engine, one feature each:
//!
//! | feature | one line | engine |
//! |---|---|---|
//! | `hyper` | `evident::hyper::client()?` | hyper 1 + h2 (async, HTTP/1.1 and HTTP/2) |
//! | `ureq` | `evident::ureq::client()?` | ureq 3 (blocking, HTTP/1.1) |
//! | `reqwest` | `evident::reqwest::client()?` | reqwest 0.13 (async, HTTP/1.1 and HTTP/2) |
//! | `isahc` | `evident::isahc::client()?` | isahc 2 / libcurl (async, HTTP/1.1, a connection reused only where a repeat is harmless) |
//!
//! Every engine module has the same shape: the engine and its builder, a
//! `Client` alias and a one-line `client()`. For anything beyond the
//! defaults, build the engine (`HyperEngine::builder()`,
//! `UreqEngine::builder()`, …: each takes [`tls`] options, root
//! certificates and [`HostOverrides`]) and the client ([`ClientBuilder`])
//! yourself. To pick the engine from configuration at run time, wrap it in
//! an [`AnyEngine`] (or [`AnyBlockingEngine`]): `Client<AnyEngine>` is one
//! type whichever engine it drives.
//!
//! Other features: `webpki-roots` (default: HTTPS trusts Mozilla's root
//! program, compiled in), `native-roots` (also the system store),
//! `testing` (the [`testing`] module: a scripted engine for your tests),
//! `tower` (the async [`Client`] is a `tower::Service<http::Request<Body>>`;
//! see `examples/tower_layer.rs`), `metrics` (an [`Observer`] publishing
//! OpenTelemetry-named metrics through the `metrics` facade), `redis` (the
//! `redis` module: a fleet of clients sharing one rate limit and one retry
//! budget through Redis; see `examples/fleet_over_hyper.rs`).
//!
//! The module [`engine`] is for people writing an engine adapter: progress,
//! signals, proofs and the shared classifier helpers. A user never needs it.
//!
//! ```
//! use evident::{Body, CallOptions, ClientBuilder, RetryPolicy};
//! # #[cfg(feature = "testing")] {
//! use evident::testing::{Reached, ScriptedEngine, Step};
//! use evident::engine::EngineSignal;
//!
//! # #[tokio::main(flavor = "current_thread")] async fn main() {
//! # tokio::time::pause();
//! // A scripted engine stands in for a real one here.
//! let engine = ScriptedEngine::new([
//!     Step::fail(EngineSignal::ConnectionRefused, Reached::Connect),
//!     Step::respond(201, "created"),
//! ]);
//! let client = ClientBuilder::new()
//!     .policy(RetryPolicy::builder().max_attempts(3).build().unwrap())
//!     .build(engine)
//!     .unwrap();
//! let request = evident::http::Request::post("http://127.0.0.1:8080/orders")
//!     .body(Body::from("{}"))
//!     .unwrap();
//! // A refused connection proves "not sent": even a POST is retried.
//! let response = client.execute(request, CallOptions::new()).await.unwrap();
//! assert_eq!(response.status(), 201);
//! assert_eq!(evident::attempts_of(&response).len(), 2);
//! # }
//! # main() }
//! ```
#![warn(missing_docs, unreachable_pub, rust_2018_idioms)]
#![forbid(unsafe_code)]

/// Byte buffers (the `bytes` crate), as bodies hold them.
pub use ::bytes;
/// The request and response types every engine shares (the `http` crate).
pub use ::http;

pub use evident_core::client::{
    Body, CallOptions, CallReport, Client, ClientBuilder, Error, StreamingBody, attempts_of,
};
pub use evident_core::{
    AttemptRecord, AttemptStage, BudgetConfig, CallInfo, ConfigError, Decision, DelaySource,
    ExecutionEvidence, FailureCategory, HostOverride, HostOverrides, Idempotency, Observer,
    RejectionKind, RetryBudget, RetryPolicy, RetryPolicyBuilder, RetryReason, RetryTable,
    StopReason, TransportFailure,
};

mod any;
pub use any::{AnyBlockingEngine, AnyEngine, EngineChoiceError};

/// The client module as the core defines it (constants, clocks, both
/// clients).
pub use evident_core::client;
/// The retry rules, `Retry-After`, backoff, the retry budget and the
/// printable retry table.
pub use evident_core::decide;
/// Observation: attempt records, the [`Observer`] hook, `tracing` names.
pub use evident_core::observe;
/// Circuit breaker, rate limiter and bulkhead, per origin.
pub use evident_core::resilience;
/// What HTTPS trusts and which client certificate it presents.
#[cfg(feature = "rustls")]
pub use evident_core::tls;

/// The blocking client, mirroring the async one: the same options, errors,
/// records and decisions, driven on the caller's thread.
pub mod blocking {
    pub use evident_core::client::blocking::{Body, Client};
    pub use evident_core::client::{
        BlockingStreamingBody as StreamingBody, CallOptions, ClientBuilder, Error, attempts_of,
    };
}

/// For engine authors: the seam an engine implements, the progress it
/// feeds, the signals its classifier reports, the proofs behind "not sent"
/// and the helpers every classifier shares. Users of a ready engine never
/// need this module.
pub mod engine {
    pub use evident_core::classify::{EngineSignal, GoAwayScope, classify};
    pub use evident_core::classify_helpers;
    pub use evident_core::engine::*;
    pub use evident_core::failure::{BoxError, NotProcessedProof, NotSentProof, PreWriteStage};
    pub use evident_core::progress::{Progress, ProgressSnapshot};
}

/// Metrics through the `metrics` facade (feature `metrics`).
#[cfg(feature = "metrics")]
pub use evident_core::metrics;

/// A scripted engine for tests (feature `testing`).
#[cfg(feature = "testing")]
pub use evident_core::testing;

/// The hyper engine (feature `hyper`): async, HTTP/1.1 and HTTP/2.
#[cfg(feature = "hyper")]
pub mod hyper {
    pub use evident_hyper::*;

    /// The async client over the hyper engine.
    pub type Client = crate::Client<HyperEngine>;

    /// A client over a hyper engine with the default configuration: HTTPS
    /// trusts the default roots (see [`crate::tls`]), HTTP/2 by ALPN.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    /// # let url = format!("http://{}/", listener.local_addr()?);
    /// # std::thread::spawn(move || {
    /// #     use std::io::{Read, Write};
    /// #     let (mut conn, _) = listener.accept().unwrap();
    /// #     let mut head = Vec::new();
    /// #     let mut byte = [0u8; 1];
    /// #     while !head.ends_with(b"\r\n\r\n") && conn.read(&mut byte).is_ok_and(|n| n == 1) {
    /// #         head.push(byte[0]);
    /// #     }
    /// #     conn.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello").unwrap();
    /// # });
    /// use evident::{Body, CallOptions};
    ///
    /// let client = evident::hyper::client()?;
    /// let request = evident::http::Request::get(url).body(Body::Empty)?;
    /// let response = client.execute(request, CallOptions::new()).await?;
    /// assert_eq!(response.body(), "hello");
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// Only when a trust source cannot be loaded (`native_roots` with an
    /// empty system store).
    pub fn client() -> Result<Client, crate::ConfigError> {
        Ok(crate::Client::new(HyperEngine::builder().build()?))
    }
}

/// The ureq engine (feature `ureq`): blocking, HTTP/1.1.
#[cfg(feature = "ureq")]
pub mod ureq {
    pub use evident_ureq::*;

    /// The blocking client over the ureq engine.
    pub type Client = crate::blocking::Client<UreqEngine>;

    /// A blocking client over a ureq engine with the default configuration:
    /// HTTPS trusts the default roots (see [`crate::tls`]).
    ///
    /// ```
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    /// # let url = format!("http://{}/", listener.local_addr()?);
    /// # std::thread::spawn(move || {
    /// #     use std::io::{Read, Write};
    /// #     let (mut conn, _) = listener.accept().unwrap();
    /// #     let mut head = Vec::new();
    /// #     let mut byte = [0u8; 1];
    /// #     while !head.ends_with(b"\r\n\r\n") && conn.read(&mut byte).is_ok_and(|n| n == 1) {
    /// #         head.push(byte[0]);
    /// #     }
    /// #     conn.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello").unwrap();
    /// # });
    /// use evident::blocking::{Body, CallOptions};
    ///
    /// let client = evident::ureq::client()?;
    /// let request = evident::http::Request::get(url).body(Body::Empty)?;
    /// let response = client.execute(request, CallOptions::new())?;
    /// assert_eq!(response.body(), "hello");
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// Only when a trust source cannot be loaded (`native_roots` with an
    /// empty system store).
    pub fn client() -> Result<Client, crate::ConfigError> {
        Ok(crate::blocking::Client::new(UreqEngine::builder().build()?))
    }
}

/// The reqwest engine (feature `reqwest`): async, HTTP/1.1 and HTTP/2.
#[cfg(feature = "reqwest")]
pub mod reqwest {
    pub use evident_reqwest::*;

    /// The async client over the reqwest engine.
    pub type Client = crate::Client<ReqwestEngine>;

    /// A client over a reqwest engine with the default configuration:
    /// HTTPS trusts the default roots (see [`crate::tls`]), HTTP/2 by ALPN.
    ///
    /// ```
    /// let client = evident::reqwest::client().unwrap();
    /// # let _ = client;
    /// ```
    ///
    /// # Errors
    ///
    /// Only when a trust source cannot be loaded (`native_roots` with an
    /// empty system store).
    pub fn client() -> Result<Client, crate::ConfigError> {
        Ok(crate::Client::new(ReqwestEngine::builder().build()?))
    }
}

/// The isahc (libcurl) engine (feature `isahc`): async, HTTP/1.1, a
/// connection reused only for an operation whose repeat is harmless, and
/// libcurl's own re-send refused there.
#[cfg(feature = "isahc")]
pub mod isahc {
    pub use evident_isahc::*;

    /// The async client over the isahc engine.
    pub type Client = crate::Client<IsahcEngine>;

    /// A client over an isahc engine with the default configuration:
    /// HTTPS trusts the default roots (see [`crate::tls`]).
    ///
    /// ```
    /// let client = evident::isahc::client().unwrap();
    /// # let _ = client;
    /// ```
    ///
    /// # Errors
    ///
    /// When a trust source cannot be loaded, or libcurl cannot be
    /// initialised.
    pub fn client() -> Result<Client, crate::ConfigError> {
        Ok(crate::Client::new(IsahcEngine::builder().build()?))
    }
}

/// A fleet of clients sharing one rate limit per origin and one retry
/// budget through Redis, falling back to local limits when Redis is in
/// trouble (feature `redis`).
#[cfg(feature = "redis")]
pub use evident_redis as redis;

/// The README, compiled as doc tests so its "Using it" section cannot rot.
#[cfg(all(doctest, feature = "hyper", feature = "ureq"))]
#[doc = include_str!("../README.md")]
mod readme {}
