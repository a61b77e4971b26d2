//! The seam between the core and an HTTP engine, and the contract an
//! engine honours at it.
//!
//! An engine executes **one attempt** of a request. It updates the attempt's
//! [`Progress`] from whatever hooks it has, and reports a failure as an
//! [`EngineFailure`]: its own error plus the normalized [`EngineSignal`] its
//! classifier derived. It never retries on its own, never decides, and never
//! classifies evidence: the core does that, once, for every engine, with
//! [`classify()`](crate::classify()).
//!
//! Two flavours: [`Engine`] (async: hyper, reqwest, isahc) and
//! [`BlockingEngine`] (ureq). Both see the same [`AttemptContext`]. The
//! [`guide`] builds a whole engine against this contract, blocking
//! and async; the rules themselves are here.
//!
//! # The progress table
//!
//! Every call an engine makes on the attempt's [`Progress`], written once
//! (the [`guide`] links here). Two rules decide when each comes.
//!
//! **Enter a stage before the step that can fail in it**, with
//! [`Progress::enter`]. A failure is classified at the furthest stage
//! entered, and the three set-up stages (`Resolve`, `Connect`, `Tls`) prove
//! by themselves that nothing was sent, so a stage entered late could turn
//! a failure while writing into a false "not sent". Stages only move
//! forward; an earlier stage reported late is ignored. A TLS handshake must
//! be complete before `WriteHead`, and early data (TLS 0-RTT) must be off
//! (`tls::client_config` with feature `rustls` does both), or request bytes
//! could leave during a "pre-write" stage.
//!
//! **Early and late facts.** Every fact either **weakens** the record (it
//! takes a claim away: "not sent" is over) or **strengthens** it (it makes
//! a claim possible: "the key was sent", "the server answered", "nothing
//! was written"). A fact that only weakens may come early, and must not
//! come late; a fact that strengthens must come late, never early — only
//! once the thing it states has happened and been seen by a hook, never
//! when the engine is about to do it (the step can still fail). When no
//! hook sees it, the fact is not reported, and the record says less.
//!
//! | call | direction | when | so that |
//! | --- | --- | --- | --- |
//! | [`enter`](Progress::enter)`(Resolve)` | neither: where a failure happened | before asking a resolver (or when the attempt starts, if the engine resolves inside its connect) | "no such name" is a pre-write failure |
//! | `enter(Connect)` | neither | before each TCP connect ([`connect`] and [`connect_blocking`] do it) | a refusal or connect timeout is pre-write |
//! | `enter(Tls)` | neither | before the first handshake byte | a rejected certificate is pre-write |
//! | [`connection_reused`](Progress::connection_reused)`(bool)` | neither: an observation | when the connection is chosen | the record says whether the attempt ran on a pooled connection |
//! | [`counts_writes_exactly`](Progress::counts_writes_exactly)`()` | strengthens | at the start, and only if every request byte passes a counting hook | a failure where no write started proves "not sent", even at a write stage |
//! | `enter(WriteHead)` | weakens | early: before the first request byte is handed to the socket or the TLS layer | from here on, a failure may be ambiguous |
//! | [`start_write`](Progress::start_write)`()` | weakens | early: before **every** hand-over of bytes; refused once the core sealed the attempt | "nothing written" is over, even while the write is still blocked |
//! | [`wrote`](Progress::wrote)`(n)` | weakens | after the connection accepted `n` bytes (`start_write` covers the gap before) | exact counting |
//! | [`seal_may_not_hold`](Progress::seal_may_not_hold)`()` | weakens | early: before the request can leave | an abandoned attempt keeps no stage proof (the engine can write after the core gave up) |
//! | [`head_written`](Progress::head_written)`()`, enters `WriteBody` | strengthens | late: once the connection took the whole head | the `Idempotency-Key` counts as sent |
//! | [`body_written`](Progress::body_written)`()`, enters `AwaitHead` | strengthens (implies the head written) | late: once the connection took the whole body | a failure is "sent, no response" |
//! | [`head_received`](Progress::head_received)`()`, enters `ReadBody` | strengthens | late: when the response head arrived | the server answered |
//! | [`read`](Progress::read)`(n)` | neither: an observation | as response body bytes are read ([`CountedBody`] and [`CountedReader`] do it) | the snapshot counts the bytes read |
//! | [`stream_id`](Progress::stream_id)`(id)` | strengthens | late: once the HTTP/2 stream that carries this request is open, and only its id | feeds the GOAWAY last-stream-id proof |
//!
//! "Taken by the connection" means handed to the engine's own writer (a
//! write buffer it will flush, h2's send queue, the socket), after any step
//! of the engine that can still refuse it: asking a body whether it has
//! ended, right before encoding a head, is not it. Every built-in engine
//! keeps this rule; where one cannot see a strengthening fact (reqwest and
//! isahc for a request without a body), it does not report it, and the
//! conformance matrix names the gap.
//!
//! # "A write has started" and exact counting
//!
//! Once any request byte may have reached the peer, only a protocol proof
//! (HTTP/2 `REFUSED_STREAM`, a stream above a GOAWAY's last id) can make the
//! attempt "not processed"; "not sent" is over. An adapter that sees its
//! writes calls [`Progress::start_write`] **before** it hands bytes to the
//! socket or the TLS layer, not after the write returns: the connection may
//! live in another task or thread, and the core may take its snapshot while
//! that write is still blocked. Entering `WriteHead` first is the least any
//! adapter does.
//!
//! [`Progress::counts_writes_exactly`] is a stronger claim: **every**
//! request byte of this attempt passes through a hook of the adapter that
//! marks the write started before handing the bytes over, and reports with
//! [`Progress::wrote`] what the connection accepted. With it, a failure
//! where no write ever started proves "not sent" even at a write stage (a
//! pooled connection found closed before anything was written on it). Over
//! TLS, count the plaintext handed to the TLS layer. An adapter whose engine
//! writes through a path it cannot see (a sealed connection type, a buffer
//! flushed by another thread it cannot observe) must not declare exact
//! counting; it then reports less, and the core falls back to "may have
//! been sent".
//!
//! # When "handed back unsent" may be used
//!
//! [`EngineSignal::CancelledUnsent`] says: the engine itself proves that it
//! never handed a byte of this request to the connection, and gave the
//! request back (hyper does so, with the request in the error, only when it
//! never started to write it). Use it only for such an engine-level proof,
//! never for a generic "cancelled" or "connection closed" error. The core
//! still checks the progress: with bytes counted or the head written, the
//! failure stays ambiguous.
//!
//! # Hidden behaviour that must be off
//!
//! Every physical send must be an attempt the core sees, to the place the
//! caller named, with the bytes the server sent. So an engine must not:
//!
//! * **retry or re-send** on its own (hyper-util's
//!   `retry_canceled_requests`, reqwest's retry policy, libcurl's re-send on
//!   a reused connection): a hidden re-send is an unobserved execution, and
//!   for a request that is not safely idempotent, a possible duplicate. If a
//!   re-send cannot be switched off, it must be provably limited to requests
//!   never written, or made visible as an attempt;
//! * **follow redirects**: a 3xx is an answer, judged by the rules;
//! * **take proxies from the environment** (`HTTP_PROXY` and friends): the
//!   stages would describe a connection to somewhere else;
//! * **decompress in a way that rewrites headers** (dropping
//!   `Content-Encoding` or `Content-Length`): the response must be what the
//!   server sent, or framing, byte counts and records stop agreeing.
//!
//! # How timeouts and cancellation reach the engine
//!
//! The core owns the attempt timeout and the call deadline; an engine sets
//! no timer of its own that fires first. When time is up, the core
//! classifies a [`EngineSignal::TimedOut`] failure from the progress **at
//! that moment**, whatever stage the engine's own error would have named.
//!
//! * An async [`Engine`]'s `send` future (and the response body) is simply
//!   dropped at the deadline, as it is when the caller cancels the call.
//! * A [`BlockingEngine`] cannot be interrupted: it bounds every blocking
//!   operation (connect, handshake, each read and write, response body
//!   reads included) by [`AttemptContext::deadline`] and reports
//!   `TimedOut` when it runs out.
//!
//! An abandoned attempt is over for the core: it **seals** the progress and
//! classifies from the snapshot taken at the seal. From then on
//! [`Progress::start_write`] refuses; the adapter fails that write with
//! [`AttemptSealed::into_io_error`](crate::progress::AttemptSealed::into_io_error),
//! so the connection writes nothing more for the attempt, and discards the
//! connection instead of returning it to a pool. The next attempt gets a
//! fresh record, which a late hook of the old one can no longer change.
//!
//! # What the core guarantees in return
//!
//! * Each `send` is one attempt with its own fresh [`Progress`]; a retry is
//!   a new `send` with a higher [`AttemptContext::attempt_index`]. When
//!   [`AttemptContext::requires_fresh_connection`] is set (the retry after
//!   a 421 Misdirected Request), the attempt must not run on a pooled
//!   connection, and a connection that answered 421 must not be reused.
//! * The request is complete: absolute URI, the caller's headers and the
//!   `Idempotency-Key` when one is used. A one-shot body is handed over once
//!   and never again; a replayable body is a cheap clone per attempt.
//! * The attempt already passed the circuit breaker, rate limiter and
//!   bulkhead; the engine never sees a rejected attempt.
//! * Classification, decision, observation and the retry loop are the
//!   core's: two engines reporting the same signal at the same progress get
//!   the same record, which is what the conformance suite checks.
//! * Engine-independent helpers are shared, the engine-author kit:
//!   [`Origin`] (where a request goes), [`HostOverrides`] and [`resolve`] /
//!   [`resolve_blocking`] (name resolution every adapter honours),
//!   [`connect`] / [`connect_blocking`] (one Happy Eyeballs connect over
//!   every resolved address, timed by [`ConnectTiming`]),
//!   [`ConnectFailures`] (which failure of a multi-address connect
//!   surfaces), [`ErrorSite`] (where an error was raised), the
//!   [`pool`] defaults, and [`crate::classify_helpers`] (the error chain walk and the
//!   I/O kind mapping every classifier uses).
//!
//! # Connecting: Happy Eyeballs
//!
//! ## Why one routine
//!
//! A name's first address may be silent: a black-holed route, a host that
//! drops SYNs. A connect loop that waits on it address by address spends a
//! whole per-address timeout there on every attempt (and, when that
//! timeout is as long as the attempt's, every attempt dies on the same
//! silent address). Happy Eyeballs starts the next address after a short
//! delay while the earlier ones are still trying, and takes the first that
//! connects. Doing it once, here, gives every engine the same behaviour
//! and the same records.
//!
//! ## The algorithm
//!
//! * The addresses are ordered by [`interleave`]: the resolver's order,
//!   families alternating, starting with the first address's family
//!   (RFC 8305 §4, a First Address Family Count of 1).
//! * The first address is tried at once; each next one when the previous
//!   failed, or [`ConnectTiming::attempt_delay`] after the previous one was
//!   started, whichever comes first (the Connection Attempt Delay, §5;
//!   [`DEFAULT_CONNECTION_ATTEMPT_DELAY`] is the RFC's 250 ms).
//! * An address's attempt is the TCP connect and then the engine's own
//!   set-up on that connection (TLS, a protocol preface), passed in as
//!   `establish`: an address whose certificate is rejected fails like one
//!   that refuses, and the next is tried.
//! * The first address whose attempt succeeds wins; the others are
//!   abandoned and their connections closed (dropped), whenever they finish.
//! * Every address's TCP connect is bounded by the per-address timeout
//!   ([`ConnectTiming::per_address_timeout`]) while another address remains
//!   to be started, capped by what is left of the attempt. The last
//!   address's connect is bounded by the attempt alone: by the deadline in
//!   [`connect_blocking`] (a blocking call cannot be interrupted), by the
//!   core dropping the attempt's future in [`connect`]. No connect outlives
//!   the attempt.
//! * When every address fails, every failure is kept ([`ConnectFailures`],
//!   in address order, not in the order they happened to end), and the one
//!   surfaced is [`ConnectFailures`]' rule. So the record of an attempt never
//!   depends on which address won or how the races ended.
//!
//! Stages: [`connect`] and [`connect_blocking`] enter
//! [`AttemptStage::Connect`](crate::AttemptStage::Connect) before each TCP connect; `establish` enters
//! whatever it needs (`Tls` before a handshake). Several addresses may be
//! in flight at once; stages only move forward, so the record reads the
//! furthest step any of them reached.
//!
//! # Module layout
//!
//! This module holds the contract (the traits, [`AttemptContext`], the
//! rules above); `body` the bodies that cross the seam; `resolve` and
//! `connect` the kit; [`guide`] the walkthrough for engine authors
//! (`core/docs/adding-an-engine.md`, compiled here so that its snippets are
//! doctests and its links are checked). Everything is re-exported here, so
//! `evident_core::engine::X` names every item.

use std::fmt;
use std::time::Instant;

use crate::classify::EngineSignal;
use crate::failure::BoxError;
use crate::progress::Progress;

mod body;
mod connect;
mod counted;
#[doc = include_str!("../../docs/adding-an-engine.md")]
pub mod guide {}
#[cfg(feature = "h2")]
pub mod h2;
#[cfg(feature = "http1")]
pub mod http1;
#[cfg(feature = "rustls")]
mod options;
pub mod pool;
mod resolve;
mod site;

pub use body::{AttemptBody, BlockingAttemptBody, BlockingResponseBody, BodyStream, ResponseBody};
pub use connect::{
    ConnectFailures, ConnectTiming, DEFAULT_CONNECT_TIMEOUT_PER_ADDRESS,
    DEFAULT_CONNECTION_ATTEMPT_DELAY, InvalidUri, MAX_CONNECTION_ATTEMPT_DELAY,
    MIN_CONNECTION_ATTEMPT_DELAY, Origin, Scheme, connect, connect_blocking, interleave,
};
pub use counted::{CountedBody, CountedReader, READ_CHUNK_BYTES};
#[cfg(feature = "rustls")]
pub use options::{EngineOption, EngineOptions, ValidOptions};
pub use resolve::{HostOverride, HostOverrides, resolve, resolve_blocking};
pub use site::ErrorSite;

/// The most an adapter reads of a server's answer after a write failed
/// because the peer went away ([`peer_went_away`]): far more than any
/// answer's head, and bounded.
///
/// A server may answer before it read the whole request and then close or
/// reset (RFC 9112 §9.6). The answer reaches the socket before the reset,
/// but an engine that writes again before it reads meets the write's error
/// first. An adapter that owns the socket reads, when such a write fails
/// after the request's whole head was accepted, what the server sent
/// (without writing: over TLS, `evident_core::tls::read_plaintext`, feature
/// `rustls`); if it sent
/// anything, that is the answer, the write side is over, and no later byte
/// counts as written. The answer then ends with the peer's reset, which the
/// failed write took (the socket reads a plain end after it): an end met
/// while reading that answer, head or body, is a `ConnectionReset`, never a
/// clean close ([`early_answer_ended`]).
pub const EARLY_ANSWER_LIMIT: usize = 64 * 1024;

/// What a read of an early answer met (see [`EARLY_ANSWER_LIMIT`]), as the
/// attempt reports it: the connection's end, plain (`None`, a read of 0
/// bytes) or without TLS close_notify (`UnexpectedEof`), is the peer's
/// reset, which the failed write took; any other error stands.
///
/// ```
/// use std::io;
/// use evident_core::engine::early_answer_ended;
///
/// assert_eq!(early_answer_ended(None).kind(), io::ErrorKind::ConnectionReset);
/// let eof = io::Error::from(io::ErrorKind::UnexpectedEof);
/// assert_eq!(early_answer_ended(Some(eof)).kind(), io::ErrorKind::ConnectionReset);
/// let timeout = io::Error::from(io::ErrorKind::TimedOut);
/// assert_eq!(early_answer_ended(Some(timeout)).kind(), io::ErrorKind::TimedOut);
/// ```
pub fn early_answer_ended(met: Option<std::io::Error>) -> std::io::Error {
    use std::io::{Error, ErrorKind};
    match met {
        None => Error::new(
            ErrorKind::ConnectionReset,
            "the connection ended after an early answer",
        ),
        Some(e) if e.kind() == ErrorKind::UnexpectedEof => {
            Error::new(ErrorKind::ConnectionReset, e)
        }
        Some(e) => e,
    }
}

/// Whether a write that failed with `kind` means the peer closed or reset
/// the connection: the kinds the shared classification reads as a reset
/// ([`crate::classify_helpers::io_signal`]), so every adapter decides the same way.
pub fn peer_went_away(kind: std::io::ErrorKind) -> bool {
    crate::classify_helpers::io_signal(kind, false) == EngineSignal::ConnectionReset
}

/// Whether a failed write of an engine that drives its own socket may have
/// an early answer behind it: the request's head was written whole
/// (`progress`), and the write failed with an I/O error (the failure's
/// source) saying the peer went away ([`peer_went_away`]). If so, read the
/// answer without writing; if none is there, the write's failure stands.
///
/// ```
/// use std::io;
/// use evident_core::engine::{EngineFailure, answer_may_wait};
/// use evident_core::{EngineSignal, Progress};
///
/// let progress = Progress::new();
/// let reset = || EngineFailure::new(EngineSignal::ConnectionReset, io::Error::from(io::ErrorKind::BrokenPipe));
/// assert!(!answer_may_wait(&reset(), &progress), "the head never left");
/// progress.head_written();
/// assert!(answer_may_wait(&reset(), &progress));
/// let timeout = EngineFailure::new(EngineSignal::TimedOut, io::Error::from(io::ErrorKind::TimedOut));
/// assert!(!answer_may_wait(&timeout, &progress));
/// ```
pub fn answer_may_wait(failure: &EngineFailure, progress: &crate::Progress) -> bool {
    progress.snapshot().head_written()
        && std::error::Error::source(failure)
            .and_then(|e| e.downcast_ref::<std::io::Error>())
            .is_some_and(|e| peer_went_away(e.kind()))
}

/// What an engine knows about the attempt it runs.
///
/// Only the core builds it (the client, once per attempt; tests use
/// [`crate::testing::attempt_context`]); engines read it through its
/// accessors, so fields can be added without breaking any engine.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct AttemptContext {
    progress: Progress,
    deadline: Option<Instant>,
    attempt_index: u32,
    fresh_connection: bool,
    repeat_is_harmless: bool,
    origin: Option<Origin>,
}

impl AttemptContext {
    pub(crate) fn new(
        progress: Progress,
        deadline: Option<Instant>,
        attempt_index: u32,
        fresh_connection: bool,
    ) -> Self {
        AttemptContext {
            progress,
            deadline,
            attempt_index,
            fresh_connection,
            repeat_is_harmless: false,
            origin: None,
        }
    }

    /// The context of an attempt whose request may be sent twice without
    /// harm (see [`Self::repeat_is_harmless`]).
    pub(crate) fn with_repeat_is_harmless(mut self, harmless: bool) -> Self {
        self.repeat_is_harmless = harmless;
        self
    }

    /// The context of an attempt of a call to `origin`.
    pub(crate) fn with_origin(mut self, origin: Origin) -> Self {
        self.origin = Some(origin);
        self
    }

    /// Where the request goes, as the client parsed it from the request's
    /// URI once per call (the key of its pipeline): an engine needs no
    /// parse of its own. `None` only for a context a test made without a
    /// call ([`crate::testing::attempt_context`]); an engine then parses
    /// the URI with [`Origin::from_uri`].
    pub fn origin(&self) -> Option<&Origin> {
        self.origin.as_ref()
    }

    /// [`Self::origin`], or `uri`'s when the context has none.
    ///
    /// # Errors
    ///
    /// When the context has no origin and `uri` names none (see
    /// [`Origin::from_uri`]): an [`EngineSignal::Other`] failure.
    pub fn origin_of(&self, uri: &http::Uri) -> Result<Origin, EngineFailure> {
        match &self.origin {
            Some(origin) => Ok(origin.clone()),
            None => Origin::from_uri(uri).map_err(EngineFailure::from),
        }
    }

    /// The attempt's progress record, to be fed from the engine's hooks.
    /// Once the core gives up on the attempt it seals the record, and
    /// [`Progress::start_write`] refuses: the engine must then write
    /// nothing more for it and discard its connection.
    pub fn progress(&self) -> &Progress {
        &self.progress
    }

    /// When the core will give up on this attempt. Async engines may ignore
    /// it (the core drops the attempt's future); blocking engines must bound
    /// their I/O by it, since a blocking call cannot be interrupted.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// The attempt's index within its call (0 for the first attempt; the
    /// OpenTelemetry attribute `http.request.resend_count`).
    pub fn attempt_index(&self) -> u32 {
        self.attempt_index
    }

    /// The attempt's index: the old name of [`Self::attempt_index`].
    #[deprecated(note = "renamed `attempt_index`: it is the attempt's index within its call")]
    pub fn resend_count(&self) -> u32 {
        self.attempt_index
    }

    /// Whether the attempt must run on a new connection: no pooled
    /// connection may carry it. The core asks for this after a 421
    /// Misdirected Request, which RFC 9110 §15.5.20 lets the client retry
    /// only on another connection.
    pub fn requires_fresh_connection(&self) -> bool {
        self.fresh_connection
    }

    /// Whether the server receiving this attempt's request twice would do
    /// no harm: the caller declared the operation idempotent, or the
    /// request's head carries the call's idempotency key. It says nothing
    /// about what the core will retry (that is the evidence's and the
    /// policy's to decide); an engine whose library may send a request a
    /// second time on its own uses it to choose where that risk may be
    /// taken at all (evident-isahc reuses connections only for these).
    pub fn repeat_is_harmless(&self) -> bool {
        self.repeat_is_harmless
    }
}

/// A failed attempt, as an engine reports it: the normalized signal and the
/// engine's own error.
#[derive(Debug)]
pub struct EngineFailure {
    signal: EngineSignal,
    source: Option<BoxError>,
}

impl EngineFailure {
    /// A failure with the engine's error kept as its source.
    pub fn new(signal: EngineSignal, source: impl Into<BoxError>) -> Self {
        EngineFailure {
            signal,
            source: Some(source.into()),
        }
    }

    /// A failure without an underlying error value.
    pub fn signal_only(signal: EngineSignal) -> Self {
        EngineFailure {
            signal,
            source: None,
        }
    }

    /// The normalized signal.
    pub fn signal(&self) -> EngineSignal {
        self.signal
    }

    /// Splits into the signal and the engine's error.
    pub fn into_parts(self) -> (EngineSignal, Option<BoxError>) {
        (self.signal, self.source)
    }
}

impl fmt::Display for EngineFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.source {
            Some(e) => write!(f, "{:?}: {e}", self.signal),
            None => write!(f, "{:?}", self.signal),
        }
    }
}

impl std::error::Error for EngineFailure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_deref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

/// An async HTTP engine: executes one attempt.
///
/// `send` enters the stages and feeds the progress as the
/// [module docs](self) say, returns the response at its head, and reports a
/// failure as the signal its classifier translated. It never retries,
/// follows redirects or sets its own timers: the core drops the future when
/// the attempt's time is up, and classifies from the progress at that
/// moment.
///
/// ```
/// use evident_core::engine::*;
/// use evident_core::{AttemptStage, EngineSignal};
///
/// /// An engine whose every connection is refused.
/// struct Refusing;
///
/// #[async_trait::async_trait]
/// impl Engine for Refusing {
///     fn name(&self) -> &'static str {
///         "refusing"
///     }
///     async fn send(
///         &self,
///         _request: http::Request<AttemptBody>,
///         attempt: &AttemptContext,
///     ) -> Result<http::Response<ResponseBody>, EngineFailure> {
///         attempt.progress().enter(AttemptStage::Connect);
///         Err(EngineFailure::signal_only(EngineSignal::ConnectionRefused))
///     }
/// }
/// ```
#[async_trait::async_trait]
pub trait Engine: Send + Sync + 'static {
    /// The engine's name, as the conformance matrix shows it.
    fn name(&self) -> &'static str;

    /// Sends one attempt and returns the response at its head. The body is
    /// read by the core, which feeds the progress as bytes arrive.
    async fn send(
        &self,
        request: http::Request<AttemptBody>,
        attempt: &AttemptContext,
    ) -> Result<http::Response<ResponseBody>, EngineFailure>;
}

/// A blocking HTTP engine: executes one attempt on the calling thread.
///
/// The contract is the async one (see the [module docs](self)), with one
/// difference: a blocking call cannot be interrupted, so the engine bounds
/// every connect, handshake, read and write (response body reads included)
/// by [`AttemptContext::deadline`] and reports [`EngineSignal::TimedOut`]
/// when it runs out.
///
/// ```
/// use evident_core::client::blocking::{Body, Client};
/// use evident_core::client::CallOptions;
/// use evident_core::engine::*;
/// use evident_core::{AttemptStage, EngineSignal, ExecutionEvidence};
///
/// /// An engine whose every connection is refused.
/// struct Refusing;
///
/// impl BlockingEngine for Refusing {
///     fn name(&self) -> &'static str {
///         "refusing"
///     }
///     fn send(
///         &self,
///         _request: http::Request<BlockingAttemptBody>,
///         attempt: &AttemptContext,
///     ) -> Result<http::Response<Box<dyn BlockingResponseBody>>, EngineFailure> {
///         // Entered before the step that fails: the refusal is pre-write.
///         attempt.progress().enter(AttemptStage::Connect);
///         Err(EngineFailure::signal_only(EngineSignal::ConnectionRefused))
///     }
/// }
///
/// let client = Client::new(Refusing);
/// let request = http::Request::post("http://127.0.0.1:9/orders").body(Body::Empty).unwrap();
/// let error = client.execute(request, CallOptions::new()).unwrap_err();
/// // Proven not sent, so even a POST was retried until attempts ran out.
/// assert!(error.attempts().len() > 1);
/// assert!(error.attempts().iter().all(|a| a.evidence == Some(ExecutionEvidence::NotSent)));
/// ```
pub trait BlockingEngine: Send + Sync + 'static {
    /// The engine's name, as the conformance matrix shows it.
    fn name(&self) -> &'static str;

    /// Sends one attempt and returns the response at its head. The engine
    /// must bound every blocking operation by [`AttemptContext::deadline()`].
    fn send(
        &self,
        request: http::Request<BlockingAttemptBody>,
        attempt: &AttemptContext,
    ) -> Result<http::Response<Box<dyn BlockingResponseBody>>, EngineFailure>;
}

#[async_trait::async_trait]
impl<E: Engine + ?Sized> Engine for std::sync::Arc<E> {
    fn name(&self) -> &'static str {
        (**self).name()
    }

    async fn send(
        &self,
        request: http::Request<AttemptBody>,
        attempt: &AttemptContext,
    ) -> Result<http::Response<ResponseBody>, EngineFailure> {
        (**self).send(request, attempt).await
    }
}

impl<E: BlockingEngine + ?Sized> BlockingEngine for std::sync::Arc<E> {
    fn name(&self) -> &'static str {
        (**self).name()
    }

    fn send(
        &self,
        request: http::Request<BlockingAttemptBody>,
        attempt: &AttemptContext,
    ) -> Result<http::Response<Box<dyn BlockingResponseBody>>, EngineFailure> {
        (**self).send(request, attempt)
    }
}
