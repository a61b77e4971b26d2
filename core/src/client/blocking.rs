//! The blocking client: the same state machine, driven on the caller's
//! thread over a [`BlockingEngine`].

use std::io::Read;
use std::sync::Arc;

use bytes::Bytes;
use evident_resilience::{LocalRejection, Pipeline, SystemClock};

use super::config::{CallOptions, ClientBuilder, Handles};
use super::machine::{Call, Delivered, Ended, attempt_request, take_extensions};
use super::streaming::Trail;
use super::{
    BlockingStreamingBody, CallReport, Collected, Error, Mode, Streamed, Whole, spare_progress,
};
use crate::classify::EngineSignal;
use crate::config::ConfigError;
use crate::decide::BodyReplay;
use crate::engine::{
    AttemptContext, BlockingAttemptBody, BlockingEngine, BlockingResponseBody, EngineFailure,
};
use crate::observe::attempt_span;
use crate::progress::Progress;

/// The request body of the blocking client.
pub enum Body {
    /// No body.
    Empty,
    /// An in-memory body: replayable.
    Full(Bytes),
    /// A reader: sent once, never replayed.
    Reader(Box<dyn Read + Send>),
}

impl Body {
    /// A one-shot body read from `reader`.
    pub fn reader(reader: impl Read + Send + 'static) -> Body {
        Body::Reader(Box::new(reader))
    }

    fn replay(&self) -> BodyReplay {
        match self {
            Body::Empty | Body::Full(_) => BodyReplay::Replayable,
            Body::Reader(_) => BodyReplay::OneShot,
        }
    }
}

impl std::fmt::Debug for Body {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Body::Empty => f.write_str("Body::Empty"),
            Body::Full(b) => write!(f, "Body::Full({} bytes)", b.len()),
            Body::Reader(_) => f.write_str("Body::Reader"),
        }
    }
}

super::body_from_memory!(Body);

enum BodySource {
    Empty,
    Full(Bytes),
    Reader(Option<Box<dyn Read + Send>>),
}

impl BodySource {
    fn for_attempt(&mut self) -> BlockingAttemptBody {
        match self {
            BodySource::Empty => BlockingAttemptBody::Empty,
            BodySource::Full(b) => BlockingAttemptBody::Full(b.clone()),
            BodySource::Reader(r) => r
                .take()
                .map_or(BlockingAttemptBody::Empty, BlockingAttemptBody::Reader),
        }
    }
}

/// The blocking client. Cheap to clone.
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
        f.debug_struct("blocking::Client")
            .field("draining", &self.h.is_draining())
            .finish_non_exhaustive()
    }
}

impl ClientBuilder {
    /// Builds a blocking client over `engine`. Waits between attempts use
    /// the clock's `sleep` (a [`evident_resilience::ManualClock`] advances
    /// instead of sleeping, so tests are exact).
    pub fn build_blocking<E: BlockingEngine>(self, engine: E) -> Result<Client<E>, ConfigError> {
        Ok(Client {
            h: Handles::new(self, engine, Arc::new(SystemClock), false)?,
        })
    }
}

impl<E: BlockingEngine> Client<E> {
    /// A client with the default configuration.
    pub fn new(engine: E) -> Self {
        ClientBuilder::new()
            .build_blocking(engine)
            .expect("the default configuration is valid")
    }

    /// Sends `request`, retrying as the evidence allows, and returns the
    /// response with its body read whole (up to the configured limit).
    pub fn execute(
        &self,
        request: http::Request<Body>,
        options: CallOptions,
    ) -> Result<http::Response<Bytes>, Error> {
        self.run::<Whole>(request, options)
    }

    /// Like [`Self::execute`], but returns at the response head and hands the
    /// body over as a [`BlockingStreamingBody`], as the async client's
    /// [`execute_streaming`](crate::client::Client::execute_streaming) does:
    /// a body failure is the client's [`Error`] with every record, and the
    /// call's deadline bounds the reading.
    ///
    /// ```
    /// use std::io::Read;
    /// use evident_core::client::{blocking, CallOptions};
    /// use evident_core::testing::{ScriptedEngine, Step};
    ///
    /// let client = blocking::Client::new(ScriptedEngine::new([Step::respond(200, "hello")]));
    /// let request = http::Request::get("http://127.0.0.1:8080/").body(blocking::Body::Empty).unwrap();
    /// let mut body = client.execute_streaming(request, CallOptions::new()).unwrap().into_body();
    /// let mut text = String::new();
    /// body.read_to_string(&mut text).unwrap();
    /// assert_eq!(text, "hello");
    /// ```
    pub fn execute_streaming(
        &self,
        request: http::Request<Body>,
        options: CallOptions,
    ) -> Result<http::Response<BlockingStreamingBody>, Error> {
        self.run::<Streamed>(request, options)
    }

    // Inlined into `execute` and `execute_streaming`: the answer is then
    // not moved from one function's result into the next.
    #[inline(always)]
    fn run<M: Mode<BlockingStreamingBody>>(
        &self,
        request: http::Request<Body>,
        options: CallOptions,
    ) -> Result<M::Output, Error> {
        let streaming = M::STREAMING;
        if self.is_draining() {
            return Err(Error::draining());
        }
        let shared = &*self.h.shared;
        let (mut parts, body) = request.into_parts();
        let (mut call, call_span) = Call::start(
            shared,
            self.h.engine.name(),
            &parts,
            &options,
            body.replay(),
            self.h.clock.now(),
        )?;
        // Kept until the call ends, as they always were.
        let _extensions = take_extensions(&mut parts);
        let mut body = match body {
            Body::Empty => BodySource::Empty,
            Body::Full(b) => BodySource::Full(b),
            Body::Reader(r) => BodySource::Reader(Some(r)),
        };
        let call_span = call_span.entered();
        let mut progress = spare_progress();
        // Set after a 421 Misdirected Request: the retry must not reuse the
        // connection that answered it (RFC 9110 §15.5.20).
        let mut fresh_connection = false;
        loop {
            // Admission first, its waits bounded by the deadline; the
            // attempt's own timeout then counts from admission.
            // A drain ends an admission wait too (and, as in the async
            // client, prevents one from starting).
            if self.is_draining() {
                return Err(call.drained(shared, self.h.clock.now()));
            }
            let bound = call.admission_bound_with(shared, || self.h.clock.now());
            let interrupt = self.h.drain_interrupt();
            let admission =
                self.h
                    .pipeline
                    .acquire_blocking_interruptible(&call.origin, bound, interrupt);
            let permit = match admission {
                Ok(permit) => permit,
                Err(LocalRejection::Interrupted { .. }) => {
                    return Err(call.drained(shared, self.h.clock.now()));
                }
                Err(rejection) => {
                    call.rejected(shared, &rejection, self.h.clock.now());
                    return Err(Error::rejected(rejection, call.finish(shared)));
                }
            };
            let plan = call.plan(shared, self.h.clock.now());
            progress.renew();
            let context = call.attempt_context(&plan, &progress, fresh_connection);
            let request = attempt_request(&mut parts, call.key.as_ref(), body.for_attempt());
            // The attempt span covers the attempt and its record.
            let attempt_span = attempt_span(plan.attempt_index).entered();
            let result = run_attempt(
                &*self.h.engine,
                request,
                &context,
                streaming,
                call.max_response_bytes,
            );
            drop(context);
            // Given up on (failed, timed out): sealed, so its connection
            // writes nothing more and a write already started shows.
            let snapshot = match &result {
                Ok(_) => progress.snapshot(),
                Err(_) => progress.seal(),
            };
            let now = self.h.clock.now();
            let ended = Ended {
                progress: &snapshot,
                draining: self.is_draining(),
                now,
            };
            let delay = match result {
                Ok(answer) => {
                    let (status, headers) = (answer.status(), answer.headers());
                    match call.answered(shared, status, headers, ended, Some(permit)) {
                        Some(delay) => {
                            fresh_connection = status == http::StatusCode::MISDIRECTED_REQUEST;
                            delay
                        }
                        None => {
                            drop(attempt_span);
                            return Ok(match answer {
                                // The call's records go on the response.
                                Answer::Full(mut r) => {
                                    call.finish_full(shared, &mut r, progress);
                                    M::full(r)
                                }
                                Answer::Streaming(r) => M::streaming(
                                    self.deliver_streaming(call, r, progress, now, &call_span),
                                ),
                            });
                        }
                    }
                }
                Err(engine_failure) => {
                    fresh_connection = false;
                    call.failed(shared, engine_failure, ended, Some(permit))?
                }
            };
            drop(attempt_span);
            // `drain()` wakes this wait at once, and the call ends.
            if !self.h.wait_blocking_unless_drained(delay) {
                return Err(call.drained(shared, self.h.clock.now()));
            }
        }
    }

    /// Hands a response head to the caller, with the call's records so far;
    /// the body stays part of the call.
    fn deliver_streaming(
        &self,
        call: Call,
        response: http::Response<Box<dyn BlockingResponseBody>>,
        progress: Progress,
        now: std::time::Instant,
        span: &tracing::Span,
    ) -> http::Response<BlockingStreamingBody> {
        let shared = &self.h.shared;
        let (attempts, delivered) = Delivered::hand_over(call, shared, now);
        let (mut parts, body) = response.into_parts();
        parts.extensions.insert(CallReport { attempts });
        let trail = Trail {
            delivered,
            progress,
            shared: shared.clone(),
            clock: self.h.clock.clone(),
            span: span.clone(),
        };
        let body = BlockingStreamingBody::new(body, trail);
        http::Response::from_parts(parts, body)
    }

    /// Stops new retries, as [`crate::client::Client::drain`]: a call
    /// blocked waiting to retry is woken and ends at once.
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
}

/// What an attempt hands back when it got an answer.
enum Answer {
    Full(http::Response<Bytes>),
    Streaming(http::Response<Box<dyn BlockingResponseBody>>),
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

/// One attempt on the calling thread. The engine bounds its I/O by the
/// attempt's deadline; a timeout it reports is classified by the core from
/// the progress, whatever stage the engine's error named.
#[inline(always)]
fn run_attempt<E: BlockingEngine + ?Sized>(
    engine: &E,
    request: http::Request<BlockingAttemptBody>,
    context: &AttemptContext,
    streaming: bool,
    max_bytes: usize,
) -> Result<Answer, EngineFailure> {
    let response = engine.send(request, context)?;
    context.progress().head_received();
    if streaming {
        return Ok(Answer::Streaming(response));
    }
    let (parts, mut body) = response.into_parts();
    // A body in one chunk is kept as it came, as the async client does.
    let mut collected = Collected::default();
    while let Some(chunk) = body.next_chunk()? {
        if collected.len() + chunk.len() > max_bytes {
            let seen = collected.len() + chunk.len();
            return Err(EngineFailure::new(
                EngineSignal::ResponseTooLarge,
                super::ResponseTooLarge::new(max_bytes, seen),
            ));
        }
        collected.push(chunk);
    }
    Ok(Answer::Full(http::Response::from_parts(
        parts,
        collected.into_bytes(),
    )))
}
