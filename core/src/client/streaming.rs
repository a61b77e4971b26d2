//! Response bodies handed over at the head (streaming mode), for both
//! clients.
//!
//! Handing the head over does not end the call: the body is still part of
//! it. A failure while the caller reads the body reaches the caller as the
//! client's own [`Error`], classified from the attempt's progress, judged
//! (the delivered response blocks any retry) and recorded in place of the
//! delivered attempt's record (one attempt, one record); the observer hears
//! it inside the call (`on_attempt_revised`), and `on_call_end` only once
//! the body ended (read to its end, failed, or dropped). The call's
//! deadline bounds the body as it bounds the attempts.

use std::future::Future;
use std::io::Read;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Instant;

use bytes::{Buf, Bytes};
use evident_resilience::Clock;
use http_body::{Frame, SizeHint};

use super::Error;
use super::config::Shared;
use super::machine::Delivered;
use crate::classify::EngineSignal;
use crate::engine::{BlockingResponseBody, EngineFailure, ResponseBody};
use crate::observe::attempt_span;
use crate::progress::Progress;

/// What both streaming bodies share: the call after hand-over and how to
/// judge a failure.
pub(super) struct Trail {
    pub(super) delivered: Delivered,
    pub(super) progress: Progress,
    pub(super) shared: Arc<Shared>,
    pub(super) clock: Arc<dyn Clock>,
    /// The call's span, re-entered to record a body failure.
    pub(super) span: tracing::Span,
}

impl Trail {
    /// Records `failure` inside the call's and the attempt's spans and ends
    /// the call.
    fn fail(&mut self, failure: EngineFailure) -> Error {
        let _call = self.span.enter();
        let _attempt = attempt_span(self.delivered.attempt_index()).entered();
        // Given up on: sealed, as any attempt the core gives up on.
        let snapshot = self.progress.seal();
        let now = self.clock.now();
        self.delivered
            .body_failed(&self.shared, failure, &snapshot, now)
    }

    fn end(&mut self) {
        self.delivered.end(&self.shared);
    }

    fn past_deadline(&self) -> bool {
        self.delivered
            .deadline()
            .is_some_and(|d| self.clock.now() >= d)
    }
}

impl Drop for Trail {
    fn drop(&mut self) {
        // A body dropped before its end still ends the call, once.
        self.end();
    }
}

/// The response body of [`Client::execute_streaming`](super::Client::execute_streaming).
///
/// An [`http_body::Body`] whose error is the client's [`Error`], carrying
/// every attempt's record, the body failure in place of the delivered
/// attempt's. Bounded by the call's
/// deadline: past it, the body fails with a timeout.
pub struct StreamingBody {
    inner: Option<ResponseBody>,
    timer: Option<Pin<Box<tokio::time::Sleep>>>,
    // Boxed: the call's state is large and the body is moved around.
    trail: Box<Trail>,
}

impl std::fmt::Debug for StreamingBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamingBody")
            .field("ended", &self.inner.is_none())
            .finish_non_exhaustive()
    }
}

impl StreamingBody {
    pub(super) fn new(inner: ResponseBody, trail: Trail, now: Instant) -> Self {
        // The deadline as a tokio timer: the remaining time from now.
        let timer = trail
            .delivered
            .deadline()
            .map(|d| Box::pin(tokio::time::sleep(d.saturating_duration_since(now))));
        StreamingBody {
            inner: Some(inner),
            timer,
            trail: Box::new(trail),
        }
    }

    fn fail(&mut self, failure: EngineFailure) -> Error {
        // Nothing more is read from a failed body.
        self.inner = None;
        self.timer = None;
        self.trail.fail(failure)
    }
}

impl http_body::Body for StreamingBody {
    type Data = Bytes;
    type Error = Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Error>>> {
        let this = self.get_mut();
        let Some(inner) = this.inner.as_mut() else {
            return Poll::Ready(None);
        };
        // The deadline first, so a body that never pauses still ends on time.
        if let Some(timer) = this.timer.as_mut()
            && timer.as_mut().poll(cx).is_ready()
        {
            let failure = EngineFailure::signal_only(EngineSignal::TimedOut);
            return Poll::Ready(Some(Err(this.fail(failure))));
        }
        match Pin::new(inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => Poll::Ready(Some(Ok(frame))),
            Poll::Ready(Some(Err(failure))) => Poll::Ready(Some(Err(this.fail(failure)))),
            Poll::Ready(None) => {
                this.inner = None;
                this.timer = None;
                this.trail.end();
                Poll::Ready(None)
            }
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.as_ref().is_none_or(|b| b.is_end_stream())
    }

    fn size_hint(&self) -> SizeHint {
        self.inner
            .as_ref()
            .map_or_else(|| SizeHint::with_exact(0), |b| b.size_hint())
    }
}

/// The response body of
/// [`blocking::Client::execute_streaming`](super::blocking::Client::execute_streaming):
/// read it with [`next_chunk`](Self::next_chunk) or as an [`std::io::Read`].
///
/// A failure is the client's [`Error`] (as an `io::Error` through `Read`,
/// whose `get_ref()` is the [`Error`]), with every attempt's record, the body
/// failure's last. The engine bounds each read by the attempt's deadline;
/// the call's deadline is checked before each read.
pub struct BlockingStreamingBody {
    inner: Option<Box<dyn BlockingResponseBody>>,
    /// The unread rest of the last chunk, for `Read`.
    pending: Bytes,
    // Boxed: the call's state is large and the body is moved around.
    trail: Box<Trail>,
}

impl std::fmt::Debug for BlockingStreamingBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BlockingStreamingBody")
            .field("ended", &self.inner.is_none())
            .finish_non_exhaustive()
    }
}

impl BlockingStreamingBody {
    pub(super) fn new(inner: Box<dyn BlockingResponseBody>, trail: Trail) -> Self {
        BlockingStreamingBody {
            inner: Some(inner),
            pending: Bytes::new(),
            trail: Box::new(trail),
        }
    }

    /// The next chunk of the body; `Ok(None)` at its end.
    pub fn next_chunk(&mut self) -> Result<Option<Bytes>, Error> {
        if !self.pending.is_empty() {
            return Ok(Some(std::mem::take(&mut self.pending)));
        }
        let Some(inner) = self.inner.as_mut() else {
            return Ok(None);
        };
        let next = if self.trail.past_deadline() {
            Err(EngineFailure::signal_only(EngineSignal::TimedOut))
        } else {
            inner.next_chunk()
        };
        match next {
            Ok(Some(chunk)) => Ok(Some(chunk)),
            Ok(None) => {
                self.inner = None;
                self.trail.end();
                Ok(None)
            }
            Err(failure) => {
                self.inner = None;
                Err(self.trail.fail(failure))
            }
        }
    }
}

impl Read for BlockingStreamingBody {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        while self.pending.is_empty() {
            match self.next_chunk() {
                Ok(Some(chunk)) => self.pending = chunk,
                Ok(None) => return Ok(0),
                Err(err) => return Err(std::io::Error::other(err)),
            }
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.advance(n);
        Ok(n)
    }
}
