//! The client: one retry loop over any engine.
//!
//! [`Client`] drives an async [`Engine`], [`blocking::Client`] a
//! [`BlockingEngine`](crate::engine::BlockingEngine); both run the same state
//! machine (`machine.rs`), so for the same engine behaviour they produce the
//! same decisions and the same observation. Per physical attempt:
//!
//! 1. the pipeline admits it (circuit breaker → rate limiter → bulkhead),
//!    waiting at most what remains of the call's deadline (less the minimum
//!    attempt time);
//! 2. the attempt is planned from the moment of admission, and the engine
//!    runs it under the core's timer, feeding the progress;
//! 3. the response body is read whole inside the attempt (up to a limit) or,
//!    in streaming mode, handed over at the head: the body stays part of the
//!    call (see [`StreamingBody`]);
//! 4. the outcome is classified, judged by the decision rules, recorded and
//!    observed; the permit is released with the verdict (the caller's own
//!    failures, a failing request body or a cancellation, as ignored);
//! 5. the loop waits and goes again, or finishes. [`Client::drain`] ends the
//!    wait at once.
//!
//! ```
//! use evident_core::client::{Body, CallOptions, Client};
//! use evident_core::testing::{Reached, ScriptedEngine, Step};
//! use evident_core::EngineSignal;
//!
//! # #[tokio::main(flavor = "current_thread")] async fn main() {
//! # tokio::time::pause();
//! // The first connection is refused, the second attempt is answered.
//! let engine = ScriptedEngine::new([
//!     Step::fail(EngineSignal::ConnectionRefused, Reached::Connect),
//!     Step::respond(200, "hello"),
//! ]);
//! let client = Client::new(engine);
//! let request = http::Request::post("http://127.0.0.1:8080/pay").body(Body::from("{}")).unwrap();
//! // A POST with nothing declared: the refusal proves "not sent", so it retries.
//! let response = client.execute(request, CallOptions::new()).await.unwrap();
//! assert_eq!(response.body(), "hello");
//! assert_eq!(evident_core::client::attempts_of(&response).len(), 2);
//! # }
//! ```

pub mod blocking;
mod config;
mod error;
mod machine;
#[cfg(feature = "tower")]
mod service;
mod streaming;
mod too_large;

use std::sync::Arc;

use bytes::{Bytes, BytesMut};
use evident_resilience::{Admission, Pipeline, TokioClock};
use http_body_util::BodyExt;
use tracing::Instrument;

pub use config::{
    CallOptions, ClientBuilder, DEFAULT_ATTEMPT_TIMEOUT, DEFAULT_MAX_RESPONSE_BYTES,
    IDEMPOTENCY_KEY_HEADER, MAX_RESPONSE_BYTES_LIMIT, SystemWallClock, WallClock,
};
pub use error::Error;
#[cfg(feature = "tower")]
pub use service::ResponseFuture;
pub use streaming::{BlockingStreamingBody, StreamingBody};
pub use too_large::ResponseTooLarge;

use crate::classify::EngineSignal;
use crate::config::ConfigError;
use crate::decide::BodyReplay;
use crate::engine::{AttemptBody, AttemptContext, BodyStream, Engine, EngineFailure, ResponseBody};
use crate::failure::BoxError;
use crate::observe::{AttemptRecord, attempt_span};
use crate::progress::{Progress, SealOnDrop};
use config::Handles;
use machine::{Call, Delivered, Ended, attempt_request, take_extensions};
use streaming::Trail;

/// The request body of the async client.
pub enum Body {
    /// No body.
    Empty,
    /// An in-memory body: replayable.
    Full(Bytes),
    /// A streamed body: sent once, never replayed.
    Stream(BodyStream),
}

impl Body {
    /// A one-shot body from any `http_body::Body`.
    pub fn stream<B>(body: B) -> Body
    where
        B: http_body::Body<Data = Bytes> + Send + 'static,
        B::Error: Into<BoxError>,
    {
        Body::Stream(body.map_err(Into::into).boxed_unsync())
    }

    pub(crate) fn replay(&self) -> BodyReplay {
        match self {
            Body::Empty | Body::Full(_) => BodyReplay::Replayable,
            Body::Stream(_) => BodyReplay::OneShot,
        }
    }
}

impl std::fmt::Debug for Body {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Body::Empty => f.write_str("Body::Empty"),
            Body::Full(b) => write!(f, "Body::Full({} bytes)", b.len()),
            Body::Stream(_) => f.write_str("Body::Stream"),
        }
    }
}

/// The in-memory conversions both clients' bodies share.
macro_rules! body_from_memory {
    ($body:ty) => {
        impl From<bytes::Bytes> for $body {
            fn from(b: bytes::Bytes) -> Self {
                <$body>::Full(b)
            }
        }
        impl From<&'static str> for $body {
            fn from(s: &'static str) -> Self {
                <$body>::Full(bytes::Bytes::from_static(s.as_bytes()))
            }
        }
        impl From<String> for $body {
            fn from(s: String) -> Self {
                <$body>::Full(bytes::Bytes::from(s))
            }
        }
        impl From<Vec<u8>> for $body {
            fn from(v: Vec<u8>) -> Self {
                <$body>::Full(bytes::Bytes::from(v))
            }
        }
        impl From<()> for $body {
            fn from(_: ()) -> Self {
                <$body>::Empty
            }
        }
    };
}
pub(crate) use body_from_memory;

body_from_memory!(Body);

/// The records of every attempt of a call, attached to its response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallReport {
    attempts: machine::Records,
}

impl CallReport {
    /// Every attempt's record, in order.
    pub fn attempts(&self) -> &[AttemptRecord] {
        &self.attempts
    }
}

/// The attempt records attached to a response by the client.
pub fn attempts_of<B>(response: &http::Response<B>) -> &[AttemptRecord] {
    response
        .extensions()
        .get::<CallReport>()
        .map_or(&[], CallReport::attempts)
}

/// Where a body comes from across attempts.
enum BodySource {
    Empty,
    Full(Bytes),
    Stream(Option<BodyStream>),
}

impl BodySource {
    fn new(body: Body) -> Self {
        match body {
            Body::Empty => BodySource::Empty,
            Body::Full(b) => BodySource::Full(b),
            Body::Stream(s) => BodySource::Stream(Some(s)),
        }
    }

    fn for_attempt(&mut self) -> AttemptBody {
        match self {
            BodySource::Empty => AttemptBody::Empty,
            BodySource::Full(b) => AttemptBody::Full(Some(b.clone())),
            // The rules never retry a one-shot body; an empty stream is the
            // safe answer should that ever change.
            BodySource::Stream(s) => s.take().map_or(AttemptBody::Empty, AttemptBody::Stream),
        }
    }
}

/// What an attempt hands back when it got an answer.
enum Answer {
    Full(http::Response<Bytes>),
    Streaming(http::Response<ResponseBody>),
}

/// How a call hands its answer over: read whole, or streamed from the head
/// as an `S` (each client has its streaming body).
trait Mode<S> {
    const STREAMING: bool;
    type Output;
    /// A whole answer as this mode's output.
    fn full(response: http::Response<Bytes>) -> Self::Output;
    /// A streamed answer as this mode's output.
    fn streaming(response: http::Response<S>) -> Self::Output;
}

/// `execute`: the body read whole.
struct Whole;

impl<S> Mode<S> for Whole {
    const STREAMING: bool = false;
    type Output = http::Response<Bytes>;
    #[inline(always)]
    fn full(response: http::Response<Bytes>) -> Self::Output {
        response
    }
    fn streaming(_: http::Response<S>) -> Self::Output {
        unreachable!("full mode never streams")
    }
}

/// `execute_streaming`: the body handed over at the head.
struct Streamed;

impl<S> Mode<S> for Streamed {
    const STREAMING: bool = true;
    type Output = http::Response<S>;
    fn full(_: http::Response<Bytes>) -> Self::Output {
        unreachable!("streaming mode never reads whole")
    }
    #[inline(always)]
    fn streaming(response: http::Response<S>) -> Self::Output {
        response
    }
}

impl Answer {
    fn status(&self) -> http::StatusCode {
        match self {
            Answer::Full(r) => r.status(),
            Answer::Streaming(r) => r.status(),
        }
    }
    fn headers(&self) -> &http::HeaderMap {
        match self {
            Answer::Full(r) => r.headers(),
            Answer::Streaming(r) => r.headers(),
        }
    }
}

/// The async client. Cheap to clone; clones share the engine, the pipeline
/// and the draining flag.
pub struct Client<E> {
    h: Handles<E>,
}

impl<E> Clone for Client<E> {
    fn clone(&self) -> Self {
        Client { h: self.h.clone() }
    }
}

impl<E> std::fmt::Debug for Client<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("draining", &self.h.is_draining())
            .finish_non_exhaustive()
    }
}

impl ClientBuilder {
    /// Builds an async client over `engine`.
    pub fn build<E: Engine>(self, engine: E) -> Result<Client<E>, ConfigError> {
        Ok(Client {
            h: Handles::new(self, engine, Arc::new(TokioClock), true)?,
        })
    }
}

impl<E: Engine> Client<E> {
    /// A client with the default configuration.
    pub fn new(engine: E) -> Self {
        ClientBuilder::new()
            .build(engine)
            .expect("the default configuration is valid")
    }

    /// Sends `request`, retrying as the evidence allows, and returns the
    /// response with its body read whole (up to the configured limit). The
    /// attempt records are attached (see [`attempts_of`]).
    // Not an `async fn`: the call's future is `run`'s own, with no wrapper
    // holding a second copy of the request and options.
    pub fn execute(
        &self,
        request: http::Request<Body>,
        options: CallOptions,
    ) -> impl Future<Output = Result<http::Response<Bytes>, Error>> + Send + '_ {
        self.run::<Whole>(request, options)
    }

    /// Like [`Self::execute`], but returns at the response head and hands the
    /// body over as a [`StreamingBody`]. Once handed over, the response is
    /// delivered and nothing is retried any more, but the body is still part
    /// of the call: a failure while reading it is the client's [`Error`],
    /// with every attempt's record, the delivered attempt's now the body
    /// failure (one attempt, one record; an [`Observer`](crate::observe::Observer)
    /// hears it through `on_attempt_revised`), and the call's deadline
    /// bounds it.
    ///
    /// ```
    /// use evident_core::client::{Body, CallOptions, Client};
    /// use evident_core::testing::{ScriptedEngine, Step};
    /// use evident_core::{EngineSignal, ExecutionEvidence};
    /// use http_body_util::BodyExt;
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() {
    /// // The answer arrives, then the connection resets mid-body.
    /// let engine = ScriptedEngine::new([Step::body_fails(200, "par", EngineSignal::ConnectionReset)]);
    /// let client = Client::new(engine);
    /// let request = http::Request::get("http://127.0.0.1:8080/feed").body(Body::Empty).unwrap();
    /// let response = client.execute_streaming(request, CallOptions::new()).await.unwrap();
    /// let err = response.into_body().collect().await.unwrap_err();
    /// let records = err.attempts();
    /// assert_eq!(records.len(), 1, "one attempt: its body failed");
    /// assert_eq!(records[0].evidence, Some(ExecutionEvidence::Responded));
    /// assert_eq!(records[0].status, None);
    /// # }
    /// ```
    pub fn execute_streaming(
        &self,
        request: http::Request<Body>,
        options: CallOptions,
    ) -> impl Future<Output = Result<http::Response<StreamingBody>, Error>> + Send + '_ {
        self.run::<Streamed>(request, options)
    }

    /// Stops new retries: attempts in flight end (and are not retried),
    /// a call waiting to retry (backoff or `Retry-After`) ends at once, and
    /// new calls fail fast; all with [`Error::is_draining`] or, for an
    /// attempt that ended after the drain, its own outcome judged
    /// `stop(draining)`.
    pub fn drain(&self) {
        self.h.drain();
    }

    /// Whether [`Self::drain`] was called.
    pub fn is_draining(&self) -> bool {
        self.h.is_draining()
    }

    /// The per-origin resilience pipeline (an `Arc`, to share with other
    /// clients through [`ClientBuilder::shared_pipeline`]).
    pub fn pipeline(&self) -> &Arc<Pipeline> {
        &self.h.pipeline
    }

    /// The engine.
    pub fn engine(&self) -> &E {
        &self.h.engine
    }

    /// Hands a response head to the caller, with the call's records so far;
    /// the body stays part of the call.
    fn deliver_streaming(
        &self,
        call: Call,
        response: http::Response<ResponseBody>,
        progress: Progress,
        now: std::time::Instant,
        span: tracing::Span,
    ) -> http::Response<StreamingBody> {
        let shared = &self.h.shared;
        let (attempts, delivered) = Delivered::hand_over(call, shared, now);
        let (mut parts, body) = response.into_parts();
        parts.extensions.insert(CallReport { attempts });
        let trail = Trail {
            delivered,
            progress,
            shared: shared.clone(),
            clock: self.h.clock.clone(),
            span,
        };
        let body = StreamingBody::new(body, trail, now);
        http::Response::from_parts(parts, body)
    }

    /// A call, from its start to its end. One `async fn` holding the call's
    /// state as its own locals: a call is not moved from one future into
    /// another (each move copied hundreds of bytes per call).
    ///
    /// The call's own work (admission, planning, the decision, the record)
    /// runs inside the call span, entered between awaits only; an attempt
    /// is polled, and dropped, inside the call span and its own.
    // Not an `async fn`: its arguments would be moved once more into the
    // future's locals when it first runs. The async block uses the head,
    // body and options where they were captured.
    fn run<M: Mode<StreamingBody>>(
        &self,
        request: http::Request<Body>,
        options: CallOptions,
    ) -> impl Future<Output = Result<M::Output, Error>> + Send + '_ {
        let (mut parts, body) = request.into_parts();
        async move {
            if self.is_draining() {
                return Err(Error::draining());
            }
            let streaming = M::STREAMING;
            let shared = &*self.h.shared;
            let mut now = self.h.clock.now();
            let (mut call, call_span) = Call::start(
                shared,
                self.h.engine.name(),
                &parts,
                &options,
                body.replay(),
                now,
            )?;
            // The caller's request extensions, out of the head the attempts
            // clone; dropped when the call ends, as they always were.
            let _extensions = take_extensions(&mut parts);
            let mut body = BodySource::new(body);
            let mut progress = spare_progress();
            // Set after a 421 Misdirected Request: the retry must not reuse the
            // connection that answered it (RFC 9110 §15.5.20).
            let mut fresh_connection = false;
            loop {
                // Admission first, its waits bounded by the deadline; the
                // attempt's own timeout then counts from admission.
                // A drain ends an admission wait too, and a client already
                // drained admits nothing.
                let admission = {
                    let _in_call = call_span.enter();
                    if self.is_draining() {
                        return Err(call.drained(shared, now));
                    }
                    let bound = call.admission_bound(shared, now);
                    // A healthy upstream admits at once, with no future and no
                    // timer; only a wait is boxed, and raced against a drain.
                    match self.h.pipeline_on_clock {
                        // `now` was read from the pipeline's clock, just now:
                        // at the call's start, or after its last wait.
                        true => self.h.pipeline.admit_at(&call.origin, bound, now),
                        false => self.h.pipeline.admit(&call.origin, bound),
                    }
                };
                let admitted = match admission {
                    Admission::Ready(admitted) => admitted,
                    Admission::Wait(wait) => {
                        let admitted = self
                            .h
                            .unless_drained(wait)
                            .instrument(call_span.clone())
                            .await;
                        now = self.h.clock.now();
                        match admitted {
                            Some(admitted) => admitted,
                            None => return Err(call_span.in_scope(|| call.drained(shared, now))),
                        }
                    }
                };
                let (permit, plan, context, attempt_span) = {
                    let _in_call = call_span.enter();
                    let permit = match admitted {
                        Ok(permit) => permit,
                        Err(rejection) => {
                            call.rejected(shared, &rejection, now);
                            return Err(Error::rejected(rejection, call.finish(shared)));
                        }
                    };
                    let plan = call.plan(shared, now);
                    progress.renew();
                    let context = call.attempt_context(&plan, &progress, fresh_connection);
                    (permit, plan, context, attempt_span(plan.attempt_index))
                };
                let spans = Spans {
                    call: &call_span,
                    attempt: &attempt_span,
                };
                // Seals the attempt if this future is dropped mid-attempt.
                let seal = SealOnDrop::new(&progress);
                // The timer ends the attempt at its planned deadline (the one
                // the engine is told); on tokio's clock that instant is known
                // already, on another clock it counts from now.
                let timer_deadline = match self.h.tokio_clock {
                    true => Some(tokio::time::Instant::from_std(plan.deadline)),
                    false => None,
                };
                let (result, abandoned) = {
                    let attempt = std::pin::pin!(run_attempt(
                        &*self.h.engine,
                        (&mut parts, call.key.as_ref(), body.for_attempt()),
                        &context,
                        spans,
                        streaming,
                        call.max_response_bytes,
                    ));
                    let timer = std::pin::pin!(None);
                    match bounded(attempt, timer, plan.timeout, timer_deadline).await {
                        Some(result) => (result, false),
                        None => (
                            Err(EngineFailure::signal_only(EngineSignal::TimedOut)),
                            true,
                        ),
                    }
                };
                drop(context);
                // Given up on (failed, timed out): sealed, so its connection
                // writes nothing more and a write already started shows.
                let snapshot = match &result {
                    Ok(_) => seal.answered(),
                    Err(_) if abandoned => seal.abandon(),
                    Err(_) => seal.seal(),
                };
                now = self.h.clock.now();
                let ended = Ended {
                    progress: &snapshot,
                    draining: self.is_draining(),
                    now,
                };
                // The record is made inside the attempt span.
                let delay = {
                    let in_call = call_span.enter();
                    let in_attempt = attempt_span.enter();
                    match result {
                        Ok(answer) => {
                            let (status, headers) = (answer.status(), answer.headers());
                            match call.answered(shared, status, headers, ended, Some(permit)) {
                                Some(delay) => {
                                    fresh_connection =
                                        status == http::StatusCode::MISDIRECTED_REQUEST;
                                    delay
                                }
                                None => {
                                    // Handed over inside the call span.
                                    drop(in_attempt);
                                    let output = match answer {
                                        // The call's records go on the response.
                                        Answer::Full(mut r) => {
                                            call.finish_full(shared, &mut r, progress);
                                            M::full(r)
                                        }
                                        Answer::Streaming(r) => {
                                            M::streaming(self.deliver_streaming(
                                                call,
                                                r,
                                                progress,
                                                now,
                                                call_span.clone(),
                                            ))
                                        }
                                    };
                                    drop(in_call);
                                    return Ok(output);
                                }
                            }
                        }
                        Err(engine_failure) => {
                            fresh_connection = false;
                            call.failed(shared, engine_failure, ended, Some(permit))?
                        }
                    }
                };
                // A drain ends the wait at once, and the call with it. (Boxed:
                // retries are rare, and the wait's state would otherwise
                // enlarge every call's future.)
                let waited = Box::pin(
                    self.h
                        .wait_unless_drained(delay)
                        .instrument(call_span.clone()),
                )
                .await;
                now = self.h.clock.now();
                if !waited {
                    return Err(call_span.in_scope(|| call.drained(shared, now)));
                }
            }
        }
    }
}

/// The spans an attempt runs in: the call's, and its own inside it.
#[derive(Clone, Copy)]
struct Spans<'a> {
    call: &'a tracing::Span,
    attempt: &'a tracing::Span,
}

/// A future or body polled, and dropped, inside an attempt's [`Spans`]:
/// what `tracing::Instrumented` does for a future, for the two things an
/// attempt awaits (the engine's boxed future and the response body, both
/// `Unpin`), so the attempt itself is never moved into a wrapper.
struct InSpans<'a, T> {
    spans: Spans<'a>,
    /// `None` once dropped inside the spans.
    inner: Option<T>,
}

impl<'a, T: Unpin> InSpans<'a, T> {
    fn new(spans: Spans<'a>, inner: T) -> Self {
        InSpans {
            spans,
            inner: Some(inner),
        }
    }

    /// Runs `f` on the inner value inside the spans.
    fn entered<R>(&mut self, f: impl FnOnce(std::pin::Pin<&mut T>) -> R) -> R {
        let _call = self.spans.call.enter();
        let _attempt = self.spans.attempt.enter();
        let inner = self.inner.as_mut().expect("taken only on drop");
        f(std::pin::Pin::new(inner))
    }
}

impl<T: Future + Unpin> Future for InSpans<'_, T> {
    type Output = T::Output;
    fn poll(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<T::Output> {
        self.entered(|inner| inner.poll(cx))
    }
}

impl<T> Drop for InSpans<'_, T> {
    fn drop(&mut self) {
        if let Some(inner) = self.inner.take() {
            let _call = self.spans.call.enter();
            let _attempt = self.spans.attempt.enter();
            drop(inner);
        }
    }
}

thread_local! {
    /// A progress record a finished call left behind, for this thread's
    /// next call (one allocation fewer per call).
    static SPARE_PROGRESS: std::cell::Cell<Option<Progress>> = const { std::cell::Cell::new(None) };
}

/// A fresh progress record: the thread's spare one if it has one (renewed,
/// so nothing an earlier call's engine still holds can touch it), or a new
/// one.
pub(crate) fn spare_progress() -> Progress {
    match SPARE_PROGRESS.try_with(std::cell::Cell::take) {
        Ok(Some(mut progress)) => {
            progress.renew();
            progress
        }
        _ => Progress::new(),
    }
}

/// Keeps a finished call's progress record for the thread's next call.
pub(crate) fn keep_spare_progress(progress: Progress) {
    // During thread teardown it is simply dropped.
    let _ = SPARE_PROGRESS.try_with(|spare| spare.set(Some(progress)));
}

/// An attempt bounded by its timer: what `tokio::time::timeout` does,
/// except that the timer is set only if the attempt does not finish at its
/// first poll, so an attempt answered at once registers no timer at all.
/// The timer fires at `deadline` if given, else `timeout` after the first
/// wait. `None` when the timer fired first.
fn bounded<'a, F: Future>(
    mut attempt: std::pin::Pin<&'a mut F>,
    mut timer: std::pin::Pin<&'a mut Option<tokio::time::Sleep>>,
    timeout: std::time::Duration,
    deadline: Option<tokio::time::Instant>,
) -> impl Future<Output = Option<F::Output>> + 'a {
    std::future::poll_fn(move |cx| {
        use std::task::Poll;
        if let Poll::Ready(output) = attempt.as_mut().poll(cx) {
            return Poll::Ready(Some(output));
        }
        if timer.is_none() {
            let deadline = deadline.unwrap_or_else(|| {
                let now = tokio::time::Instant::now();
                // As `tokio::time::timeout` does for a duration past what
                // the clock can add: practically never.
                now.checked_add(timeout)
                    .unwrap_or_else(|| now + std::time::Duration::from_secs(86_400 * 365 * 30))
            });
            timer.set(Some(tokio::time::sleep_until(deadline)));
        }
        match timer.as_mut().as_pin_mut().map(|timer| timer.poll(cx)) {
            Some(Poll::Pending) => Poll::Pending,
            _ => Poll::Ready(None),
        }
    })
}

/// One attempt: the engine call, then (in full mode) the whole body, each
/// polled inside the attempt's spans.
async fn run_attempt<E: Engine + ?Sized>(
    engine: &E,
    (parts, key, body): (
        &mut http::request::Parts,
        Option<&machine::Key>,
        AttemptBody,
    ),
    context: &AttemptContext,
    spans: Spans<'_>,
    streaming: bool,
    max_bytes: usize,
) -> Result<Answer, EngineFailure> {
    // Made here, where it is handed over at once: the request is not kept
    // in this future's state.
    let request = attempt_request(parts, key, body);
    let response = InSpans::new(spans, engine.send(request, context)).await?;
    context.progress().head_received();
    if streaming {
        return Ok(Answer::Streaming(response));
    }
    let (parts, body) = response.into_parts();
    let mut body = InSpans::new(spans, body);
    let mut collected = Collected::default();
    while let Some(frame) =
        std::future::poll_fn(|cx| body.entered(|b| http_body::Body::poll_frame(b, cx))).await
    {
        if let Ok(data) = frame?.into_data() {
            let seen = collected.len() + data.len();
            if seen > max_bytes {
                return Err(EngineFailure::new(
                    EngineSignal::ResponseTooLarge,
                    ResponseTooLarge::new(max_bytes, seen),
                ));
            }
            collected.push(data);
        }
    }
    Ok(Answer::Full(http::Response::from_parts(
        parts,
        collected.into_bytes(),
    )))
}

/// A response body read whole. A body that arrives in one frame (most small
/// answers) is kept as it came, without a copy; more frames are joined.
#[derive(Default)]
pub(crate) enum Collected {
    #[default]
    Nothing,
    One(Bytes),
    Many(BytesMut),
}

impl Collected {
    fn len(&self) -> usize {
        match self {
            Collected::Nothing => 0,
            Collected::One(b) => b.len(),
            Collected::Many(b) => b.len(),
        }
    }

    fn push(&mut self, data: Bytes) {
        if data.is_empty() {
            return;
        }
        *self = match std::mem::take(self) {
            Collected::Nothing => Collected::One(data),
            Collected::One(first) => {
                let mut joined = BytesMut::with_capacity(first.len() + data.len());
                joined.extend_from_slice(&first);
                joined.extend_from_slice(&data);
                Collected::Many(joined)
            }
            Collected::Many(mut joined) => {
                joined.extend_from_slice(&data);
                Collected::Many(joined)
            }
        };
    }

    fn into_bytes(self) -> Bytes {
        match self {
            Collected::Nothing => Bytes::new(),
            Collected::One(b) => b,
            Collected::Many(b) => b.freeze(),
        }
    }
}
