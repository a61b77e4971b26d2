//! The seam between the core and an HTTP engine.
//!
//! An engine executes **one attempt** of a request. It updates the attempt's
//! [`Progress`] from whatever hooks it has, and reports a failure as an
//! [`EngineFailure`]: its own error plus the normalized [`EngineSignal`] its
//! classifier derived. It never retries on its own, never decides, and never
//! classifies evidence: the core does that, once, for every engine.
//!
//! Two flavours: [`Engine`] (async: hyper, reqwest, isahc) and
//! [`BlockingEngine`] (ureq). Both see the same [`AttemptContext`].

use std::fmt;
use std::io::Read;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Instant;

use bytes::Bytes;
use http_body::{Frame, SizeHint};

use crate::classify::EngineSignal;
use crate::failure::BoxError;
use crate::progress::Progress;

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
    resend_count: u32,
    fresh_connection: bool,
}

impl AttemptContext {
    pub(crate) fn new(
        progress: Progress,
        deadline: Option<Instant>,
        resend_count: u32,
        fresh_connection: bool,
    ) -> Self {
        AttemptContext {
            progress,
            deadline,
            resend_count,
            fresh_connection,
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

    /// The attempt's index within its call (0 for the first attempt).
    pub fn resend_count(&self) -> u32 {
        self.resend_count
    }

    /// Whether the attempt must run on a new connection: no pooled
    /// connection may carry it. The core asks for this after a 421
    /// Misdirected Request, which RFC 9110 §15.5.20 lets the client retry
    /// only on another connection.
    pub fn requires_fresh_connection(&self) -> bool {
        self.fresh_connection
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

/// A boxed async body stream, the one-shot request body of the async client.
pub type BodyStream = http_body_util::combinators::UnsyncBoxBody<Bytes, BoxError>;

/// The response body an async engine returns: frames or an [`EngineFailure`].
pub type ResponseBody = http_body_util::combinators::UnsyncBoxBody<Bytes, EngineFailure>;

/// The request body of one attempt, for async engines. Implements
/// [`http_body::Body`], so hyper can send it directly; other engines can ask
/// for the bytes of an in-memory body.
pub enum AttemptBody {
    /// No body.
    Empty,
    /// An in-memory body (replayable: each attempt gets a cheap clone).
    Full(Option<Bytes>),
    /// A streamed, one-shot body.
    Stream(BodyStream),
}

impl AttemptBody {
    /// The whole body, when it is in memory (`Some(empty)` for no body).
    pub fn as_bytes(&self) -> Option<Bytes> {
        match self {
            AttemptBody::Empty => Some(Bytes::new()),
            AttemptBody::Full(b) => Some(b.clone().unwrap_or_default()),
            AttemptBody::Stream(_) => None,
        }
    }
}

impl fmt::Debug for AttemptBody {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AttemptBody::Empty => f.write_str("AttemptBody::Empty"),
            AttemptBody::Full(b) => write!(
                f,
                "AttemptBody::Full({} bytes)",
                b.as_ref().map_or(0, Bytes::len)
            ),
            AttemptBody::Stream(_) => f.write_str("AttemptBody::Stream"),
        }
    }
}

impl http_body::Body for AttemptBody {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        match self.get_mut() {
            AttemptBody::Empty => Poll::Ready(None),
            AttemptBody::Full(b) => Poll::Ready(b.take().map(|b| Ok(Frame::data(b)))),
            AttemptBody::Stream(s) => Pin::new(s).poll_frame(cx),
        }
    }

    fn is_end_stream(&self) -> bool {
        match self {
            AttemptBody::Empty => true,
            AttemptBody::Full(b) => b.is_none(),
            AttemptBody::Stream(s) => s.is_end_stream(),
        }
    }

    fn size_hint(&self) -> SizeHint {
        match self {
            AttemptBody::Empty => SizeHint::with_exact(0),
            AttemptBody::Full(b) => SizeHint::with_exact(b.as_ref().map_or(0, |b| b.len() as u64)),
            AttemptBody::Stream(s) => s.size_hint(),
        }
    }
}

/// An async HTTP engine: executes one attempt.
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

/// The request body of one attempt, for blocking engines.
pub enum BlockingAttemptBody {
    /// No body.
    Empty,
    /// An in-memory body.
    Full(Bytes),
    /// A streamed, one-shot body.
    Reader(Box<dyn Read + Send>),
}

impl BlockingAttemptBody {
    /// The whole body, when it is in memory.
    pub fn as_bytes(&self) -> Option<Bytes> {
        match self {
            BlockingAttemptBody::Empty => Some(Bytes::new()),
            BlockingAttemptBody::Full(b) => Some(b.clone()),
            BlockingAttemptBody::Reader(_) => None,
        }
    }
}

impl fmt::Debug for BlockingAttemptBody {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BlockingAttemptBody::Empty => f.write_str("BlockingAttemptBody::Empty"),
            BlockingAttemptBody::Full(b) => {
                write!(f, "BlockingAttemptBody::Full({} bytes)", b.len())
            }
            BlockingAttemptBody::Reader(_) => f.write_str("BlockingAttemptBody::Reader"),
        }
    }
}

/// The response body a blocking engine returns.
pub trait BlockingResponseBody: Send {
    /// The next chunk, `None` at the end.
    fn next_chunk(&mut self) -> Result<Option<Bytes>, EngineFailure>;
}

impl fmt::Debug for dyn BlockingResponseBody {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("BlockingResponseBody")
    }
}

/// A blocking HTTP engine: executes one attempt on the calling thread.
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

/// Static name-resolution overrides that every adapter's resolver honours,
/// so the conformance suite can point one host name at several loopback
/// addresses, or make a name not exist, on every engine alike.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HostOverrides {
    entries: Vec<(String, HostOverride)>,
}

/// What a host name resolves to under [`HostOverrides`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostOverride {
    /// These addresses, in this order.
    Addrs(Vec<std::net::IpAddr>),
    /// The name does not exist.
    NotFound,
}

impl HostOverrides {
    /// No overrides.
    pub fn new() -> Self {
        Self::default()
    }

    /// Maps `host` to `addrs`, tried in order.
    pub fn map(mut self, host: impl Into<String>, addrs: Vec<std::net::IpAddr>) -> Self {
        self.entries
            .push((host.into().to_ascii_lowercase(), HostOverride::Addrs(addrs)));
        self
    }

    /// Makes `host` not exist.
    pub fn not_found(mut self, host: impl Into<String>) -> Self {
        self.entries
            .push((host.into().to_ascii_lowercase(), HostOverride::NotFound));
        self
    }

    /// The override for `host`, if any (case-insensitive; the last entry for
    /// a host wins).
    pub fn lookup(&self, host: &str) -> Option<&HostOverride> {
        self.entries
            .iter()
            .rev()
            .find(|(h, _)| h.eq_ignore_ascii_case(host))
            .map(|(_, o)| o)
    }

    /// Whether there are no overrides.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// Chooses which failure of a connect loop over several addresses surfaces.
///
/// A host with several addresses is tried in order; each address may fail
/// differently. The rule, shared by every adapter so that every engine
/// reports the same thing: a **permanent** failure (a rejected certificate,
/// say) is never hidden by a later, milder one (a refused connection); among
/// failures of the same weight, the first one is kept.
///
/// ```
/// use evident_core::EngineSignal;
/// use evident_core::engine::ConnectFailures;
///
/// let mut failures = ConnectFailures::new();
/// failures.push(EngineSignal::TlsCertificate, "untrusted certificate at 127.0.0.3");
/// failures.push(EngineSignal::ConnectionRefused, "refused at 127.0.0.2");
/// assert_eq!(failures.into_surfaced().unwrap().0, EngineSignal::TlsCertificate);
/// ```
#[derive(Debug)]
pub struct ConnectFailures<E> {
    surfaced: Option<(EngineSignal, E)>,
    count: usize,
}

impl<E> Default for ConnectFailures<E> {
    fn default() -> Self {
        ConnectFailures {
            surfaced: None,
            count: 0,
        }
    }
}

impl<E> ConnectFailures<E> {
    /// No failures yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records the failure of one address.
    pub fn push(&mut self, signal: EngineSignal, error: E) {
        self.count += 1;
        let weight = |s: EngineSignal| u8::from(signal_is_permanent(s));
        match &self.surfaced {
            Some((kept, _)) if weight(*kept) >= weight(signal) => {}
            _ => self.surfaced = Some((signal, error)),
        }
    }

    /// How many addresses failed.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether no address failed yet.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The failure that must be reported, if any address failed.
    pub fn into_surfaced(self) -> Option<(EngineSignal, E)> {
        self.surfaced
    }
}

/// Whether a signal always means a permanent category (independent of the
/// stage it is seen at).
fn signal_is_permanent(signal: EngineSignal) -> bool {
    matches!(
        signal,
        EngineSignal::NameNotFound
            | EngineSignal::TlsCertificate
            | EngineSignal::Protocol
            | EngineSignal::Cancelled
    )
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
