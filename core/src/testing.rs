//! A scripted engine for tests: replays a given sequence of outcomes and
//! progress, as an async [`Engine`] and as a [`BlockingEngine`] alike, so the
//! same script can prove that both clients decide identically.
//!
//! ```
//! use evident_core::testing::{Reached, ScriptedEngine, Step};
//! use evident_core::EngineSignal;
//!
//! let engine = ScriptedEngine::new([
//!     // Reset after the request was written: ambiguous.
//!     Step::fail(EngineSignal::ConnectionReset, Reached::BodyWritten),
//!     Step::respond(503, "").header("retry-after", "1"),
//!     Step::respond(200, "ok"),
//! ]);
//! assert_eq!(engine.sends(), 0);
//! ```

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};

use bytes::Bytes;
use evident_resilience::{Clock, ManualClock};
use http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, Uri};
use http_body::Frame;
use http_body_util::BodyExt;

use crate::classify::EngineSignal;
use crate::engine::{
    AttemptBody, AttemptContext, BlockingAttemptBody, BlockingEngine, BlockingResponseBody, Engine,
    EngineFailure, ResponseBody,
};
use crate::failure::AttemptStage;
use crate::progress::Progress;

/// How far a scripted attempt gets before its outcome, recorded with exact
/// write counting on a fresh connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reached {
    /// Nothing at all was recorded (an engine without hooks).
    Unknown,
    /// Resolving the name.
    Resolve,
    /// Connecting.
    Connect,
    /// In the TLS handshake.
    Tls,
    /// Part of the head was written.
    HeadPartly,
    /// The head was written; the body was not finished.
    HeadWritten,
    /// The whole request was written.
    BodyWritten,
}

/// Bytes a scripted head is said to take.
const SCRIPTED_HEAD_BYTES: usize = 64;

impl Reached {
    /// Feeds `progress` as a counting adapter would.
    pub fn apply(self, progress: &Progress) {
        if self == Reached::Unknown {
            return;
        }
        progress.counts_writes_exactly();
        progress.connection_reused(false);
        progress.enter(AttemptStage::Resolve);
        if self >= Reached::Connect {
            progress.enter(AttemptStage::Connect);
        }
        if self >= Reached::Tls {
            progress.enter(AttemptStage::Tls);
        }
        if self >= Reached::HeadPartly {
            progress.enter(AttemptStage::WriteHead);
            progress.wrote(SCRIPTED_HEAD_BYTES / 2);
        }
        if self >= Reached::HeadWritten {
            progress.wrote(SCRIPTED_HEAD_BYTES / 2);
            progress.head_written();
        }
        if self >= Reached::BodyWritten {
            progress.body_written();
        }
    }
}

/// What a scripted body does after its chunks.
#[derive(Debug, Clone, Copy)]
enum Then {
    End,
    Fail(EngineSignal),
    Stall,
}

#[derive(Debug, Clone)]
enum Outcome {
    Respond {
        status: StatusCode,
        headers: HeaderMap,
        chunks: Vec<Bytes>,
        then: Then,
    },
    Fail(EngineSignal),
    Hang,
}

/// One scripted attempt.
#[derive(Debug, Clone)]
pub struct Step {
    outcome: Outcome,
    reached: Reached,
}

impl Step {
    /// Answers `status` with `body` after writing the whole request.
    pub fn respond(status: u16, body: impl Into<Bytes>) -> Step {
        Step {
            outcome: Outcome::Respond {
                status: StatusCode::from_u16(status).expect("a valid status"),
                headers: HeaderMap::new(),
                chunks: vec![body.into()],
                then: Then::End,
            },
            reached: Reached::BodyWritten,
        }
    }

    /// Answers `status` with `body` while the request body is still being
    /// written: an early answer (RFC 9112 §9.6), the head written and the
    /// body not finished.
    pub fn respond_early(status: u16, body: impl Into<Bytes>) -> Step {
        Step {
            reached: Reached::HeadWritten,
            ..Step::respond(status, body)
        }
    }

    /// Answers `status`, sends `body`, then fails with `signal` while the
    /// body is read.
    pub fn body_fails(status: u16, body: impl Into<Bytes>, signal: EngineSignal) -> Step {
        Step {
            outcome: Outcome::Respond {
                status: StatusCode::from_u16(status).expect("a valid status"),
                headers: HeaderMap::new(),
                chunks: vec![body.into()],
                then: Then::Fail(signal),
            },
            reached: Reached::BodyWritten,
        }
    }

    /// Answers `status`, sends `body`, then stalls until the core's timer
    /// fires (a blocking engine reports a timeout at the attempt deadline).
    pub fn body_stalls(status: u16, body: impl Into<Bytes>) -> Step {
        Step {
            outcome: Outcome::Respond {
                status: StatusCode::from_u16(status).expect("a valid status"),
                headers: HeaderMap::new(),
                chunks: vec![body.into()],
                then: Then::Stall,
            },
            reached: Reached::BodyWritten,
        }
    }

    /// Fails with `signal` after reaching `reached`.
    pub fn fail(signal: EngineSignal, reached: Reached) -> Step {
        Step {
            outcome: Outcome::Fail(signal),
            reached,
        }
    }

    /// Reaches `reached` and then never completes (until the core's timer
    /// fires; a blocking engine reports a timeout at the attempt deadline).
    pub fn hang(reached: Reached) -> Step {
        Step {
            outcome: Outcome::Hang,
            reached,
        }
    }

    /// Adds a response header (for `respond` steps).
    pub fn header(mut self, name: &'static str, value: &'static str) -> Step {
        if let Outcome::Respond { headers, .. } = &mut self.outcome {
            headers.append(
                HeaderName::from_static(name),
                HeaderValue::from_static(value),
            );
        }
        self
    }
}

/// What the scripted engine saw of one request.
#[derive(Debug, Clone)]
pub struct SeenRequest {
    /// The method.
    pub method: Method,
    /// The URI.
    pub uri: Uri,
    /// The headers, as sent.
    pub headers: HeaderMap,
    /// Whether the core required a new connection for this attempt
    /// ([`AttemptContext::requires_fresh_connection`]).
    pub fresh_connection: bool,
}

/// An engine replaying a script: attempt N gets step N, the last one repeats.
#[derive(Debug)]
pub struct ScriptedEngine {
    steps: Vec<Step>,
    next: AtomicUsize,
    seen: Mutex<Vec<SeenRequest>>,
    /// Whether requests are kept for [`ScriptedEngine::seen`].
    keeps_requests: bool,
    clock: Option<ManualClock>,
}

impl ScriptedEngine {
    /// An engine playing `steps` (at least one).
    pub fn new(steps: impl IntoIterator<Item = Step>) -> Self {
        let steps: Vec<Step> = steps.into_iter().collect();
        assert!(!steps.is_empty(), "a script needs at least one step");
        ScriptedEngine {
            steps,
            next: AtomicUsize::new(0),
            seen: Mutex::new(Vec::new()),
            keeps_requests: true,
            clock: None,
        }
    }

    /// Keeps no copy of the requests it is sent ([`ScriptedEngine::seen`]
    /// stays empty): for measuring what a caller of the engine costs, where
    /// copying every request's headers into a log would be counted too.
    pub fn keeping_no_requests(mut self) -> Self {
        self.keeps_requests = false;
        self
    }

    /// Uses `clock` for blocking hangs: the engine advances it to the
    /// attempt's deadline instead of sleeping.
    pub fn with_clock(mut self, clock: ManualClock) -> Self {
        self.clock = Some(clock);
        self
    }

    /// How many attempts were sent to this engine.
    pub fn sends(&self) -> usize {
        self.next.load(Ordering::SeqCst)
    }

    /// The requests the engine saw, in order.
    pub fn seen(&self) -> Vec<SeenRequest> {
        self.seen.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn step<B>(&self, request: &http::Request<B>, attempt: &AttemptContext) -> Step {
        let i = self.next.fetch_add(1, Ordering::SeqCst);
        if self.keeps_requests {
            self.seen
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(SeenRequest {
                    method: request.method().clone(),
                    uri: request.uri().clone(),
                    headers: request.headers().clone(),
                    fresh_connection: attempt.requires_fresh_connection(),
                });
        }
        let step = self.steps[i.min(self.steps.len() - 1)].clone();
        step.reached.apply(attempt.progress());
        step
    }
}

/// The body of a scripted response: chunks, then maybe a failure.
#[derive(Debug)]
struct ScriptedBody {
    chunks: VecDeque<Bytes>,
    then: Then,
    progress: Progress,
    clock: Option<ManualClock>,
    deadline: Option<std::time::Instant>,
}

impl ScriptedBody {
    /// The next chunk; `Poll::Pending` for a stall.
    fn next(&mut self) -> Poll<Option<Result<Bytes, EngineFailure>>> {
        if let Some(chunk) = self.chunks.pop_front() {
            self.progress.read(chunk.len());
            return Poll::Ready(Some(Ok(chunk)));
        }
        match std::mem::replace(&mut self.then, Then::End) {
            Then::End => Poll::Ready(None),
            Then::Fail(signal) => Poll::Ready(Some(Err(EngineFailure::signal_only(signal)))),
            Then::Stall => {
                self.then = Then::Stall;
                Poll::Pending
            }
        }
    }
}

impl http_body::Body for ScriptedBody {
    type Data = Bytes;
    type Error = EngineFailure;

    fn poll_frame(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, EngineFailure>>> {
        // A stall never wakes: the core's timer ends the attempt.
        self.get_mut().next().map(|o| o.map(|r| r.map(Frame::data)))
    }
}

impl BlockingResponseBody for ScriptedBody {
    fn next_chunk(&mut self) -> Result<Option<Bytes>, EngineFailure> {
        match self.next() {
            Poll::Ready(r) => r.transpose(),
            Poll::Pending => {
                wait_for_deadline(self.clock.as_ref(), self.deadline);
                Err(EngineFailure::signal_only(EngineSignal::TimedOut))
            }
        }
    }
}

fn response<B>(status: StatusCode, headers: HeaderMap, body: B) -> http::Response<B> {
    let mut r = http::Response::new(body);
    *r.status_mut() = status;
    *r.headers_mut() = headers;
    r
}

#[async_trait::async_trait]
impl Engine for ScriptedEngine {
    fn name(&self) -> &'static str {
        "scripted"
    }

    async fn send(
        &self,
        request: http::Request<AttemptBody>,
        attempt: &AttemptContext,
    ) -> Result<http::Response<ResponseBody>, EngineFailure> {
        let step = self.step(&request, attempt);
        // Consume the body as a real engine would.
        let _ = request.into_body().collect().await;
        match step.outcome {
            Outcome::Respond {
                status,
                headers,
                chunks,
                then,
            } => {
                let body = ScriptedBody {
                    chunks: chunks.into(),
                    then,
                    progress: attempt.progress().clone(),
                    clock: None,
                    deadline: None,
                };
                Ok(response(status, headers, body.boxed_unsync()))
            }
            Outcome::Fail(signal) => Err(EngineFailure::signal_only(signal)),
            Outcome::Hang => std::future::pending().await,
        }
    }
}

impl BlockingEngine for ScriptedEngine {
    fn name(&self) -> &'static str {
        "scripted"
    }

    fn send(
        &self,
        request: http::Request<BlockingAttemptBody>,
        attempt: &AttemptContext,
    ) -> Result<http::Response<Box<dyn BlockingResponseBody>>, EngineFailure> {
        let step = self.step(&request, attempt);
        if let BlockingAttemptBody::Reader(mut r) = request.into_body() {
            let _ = std::io::copy(&mut r, &mut std::io::sink());
        }
        match step.outcome {
            Outcome::Respond {
                status,
                headers,
                chunks,
                then,
            } => {
                let body: Box<dyn BlockingResponseBody> = Box::new(ScriptedBody {
                    chunks: chunks.into(),
                    then,
                    progress: attempt.progress().clone(),
                    clock: self.clock.clone(),
                    deadline: attempt.deadline(),
                });
                Ok(response(status, headers, body))
            }
            Outcome::Fail(signal) => Err(EngineFailure::signal_only(signal)),
            Outcome::Hang => {
                wait_for_deadline(self.clock.as_ref(), attempt.deadline());
                Err(EngineFailure::signal_only(EngineSignal::TimedOut))
            }
        }
    }
}

/// The context the client gives an engine for one attempt, for tests that
/// drive an engine directly (engines cannot build one themselves).
///
/// ```
/// use evident_core::Progress;
/// use evident_core::testing::attempt_context;
///
/// let attempt = attempt_context(Progress::new(), None);
/// assert_eq!(attempt.attempt_index(), 0);
/// assert!(!attempt.requires_fresh_connection());
/// ```
pub fn attempt_context(progress: Progress, deadline: Option<std::time::Instant>) -> AttemptContext {
    AttemptContext::new(progress, deadline, 0, false)
}

/// Like [`attempt_context`], for an operation the caller declared
/// idempotent: [`AttemptContext::repeat_is_harmless`] holds.
///
/// ```
/// use evident_core::Progress;
/// use evident_core::testing::{attempt_context, repeatable_attempt_context};
///
/// assert!(repeatable_attempt_context(Progress::new(), None).repeat_is_harmless());
/// assert!(!attempt_context(Progress::new(), None).repeat_is_harmless());
/// ```
pub fn repeatable_attempt_context(
    progress: Progress,
    deadline: Option<std::time::Instant>,
) -> AttemptContext {
    AttemptContext::new(progress, deadline, 0, false).with_repeat_is_harmless(true)
}

/// Like [`attempt_context`], for the retry (resend count 1) that must not
/// use a pooled connection, as the client asks after a 421 Misdirected
/// Request.
pub fn fresh_connection_attempt_context(
    progress: Progress,
    deadline: Option<std::time::Instant>,
) -> AttemptContext {
    AttemptContext::new(progress, deadline, 1, true)
}

/// A blocking engine bounds its I/O by the attempt deadline and then reports
/// its own timer firing: with a manual clock, by advancing it.
fn wait_for_deadline(clock: Option<&ManualClock>, deadline: Option<std::time::Instant>) {
    let Some(deadline) = deadline else { return };
    match clock {
        Some(clock) => {
            let now = clock.now();
            clock.advance(deadline.saturating_duration_since(now));
        }
        None => std::thread::sleep(deadline.saturating_duration_since(std::time::Instant::now())),
    }
}
