//! The request body as hyper sees it, and the response body as the core
//! sees it.
//!
//! reqwest hands the connection's I/O to hyper inside its own sealed type,
//! so no byte of the request can be counted. What remains visible is the
//! body: hyper asks it [`Body::is_end_stream`] immediately before it
//! encodes the request head (HTTP/1.1, `proto/h1/dispatch.rs`) or opens the
//! stream (HTTP/2, `proto/h2/client.rs`), and pulls its frames afterwards.
//! So:
//!
//! | what hyper does to the body | what it proves | progress |
//! | --- | --- | --- |
//! | nothing yet | nothing of this request was encoded | stays at a pre-write stage |
//! | first `is_end_stream()` | the head is about to be queued (encoding, or opening the stream, can still fail) | enters `WriteHead`: a write started |
//! | first frame pulled | the head was queued before it | `head_written` |
//! | a frame pulled | hyper holds these bytes (not: they were flushed) | `wrote(n)` |
//! | end of body after a frame (`is_end_stream()` true, or no more frames) | hyper holds the whole request | `body_written` |
//! | a bodyless request | nothing after the first question | stays at `WriteHead` until the answer |
//!
//! A written head or body strengthens the record (it counts an
//! idempotency key as sent), so it is reported only once a pull shows
//! it, never when hyper is about to do it (the engine contract's rule for
//! strengthening facts): a bodyless request is proven written only by its
//! answer, a named gap in the matrix.
//!
//! An attempt the core has sealed (given up on) must write nothing, even
//! when hyper takes it from a pooled connection's queue only afterwards:
//! its body then answers "not ended" with a size of one byte to come, so
//! that hyper, on HTTP/1.1, encodes the head and pulls a frame, which fails
//! before the head is flushed. On HTTP/2 hyper sends the HEADERS before it
//! pulls a frame; there, only hyper's own check that the caller is still
//! waiting (the core drops the attempt before it seals it) keeps a sealed
//! request from leaving.
//!
//! "Written" here means handed to hyper, as the hyper engine's HTTP/2 path
//! reports "accepted by h2": possibly late on the wire, never before the
//! bytes existed for the connection. Since nothing is counted at the
//! socket, the engine never declares exact counting, and the core never
//! reads "nothing written" from a zero.
//!
//! hyper pulls a frame whole, however large; an in-memory body is
//! therefore re-sliced into frames of at most [`MAX_FRAME_BYTES`], so that
//! a connection that fails mid-upload is seen while the body is still
//! being pulled (`WriteBody`), not after it was all handed over.

use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, ready};

use bytes::Bytes;
use evident_core::classify_helpers::RequestBodyError;
use evident_core::engine::BodyStream;
use evident_core::{AttemptBody, AttemptStage, BoxError, Progress};
use http_body::{Body, Frame, SizeHint};

/// The largest frame an in-memory request body is cut into: small enough
/// that hyper (which buffers a few hundred KiB before it waits for the
/// socket) keeps pulling frames while a large upload is in flight, large
/// enough that a megabyte is a handful of frames.
pub const MAX_FRAME_BYTES: usize = 64 * 1024;

enum Source {
    Empty,
    Full(Bytes),
    /// A one-shot stream. reqwest wants a `Sync` body; the stream is only
    /// `Send`, and the lock is uncontended (hyper polls from one task).
    Stream(Mutex<BodyStream>),
}

/// The attempt's request body, wrapped for reqwest (`reqwest::Body::wrap`).
pub(crate) struct TrackedBody {
    source: Source,
    progress: Progress,
    pulled: Option<Arc<AtomicBool>>,
    /// hyper asked for a frame: it had taken the head before.
    head_taken: AtomicBool,
}

impl TrackedBody {
    pub(crate) fn new(body: AttemptBody, progress: Progress) -> Self {
        let source = match body {
            AttemptBody::Empty => Source::Empty,
            AttemptBody::Full(None) => Source::Empty,
            AttemptBody::Full(Some(bytes)) if bytes.is_empty() => Source::Empty,
            AttemptBody::Full(Some(bytes)) => Source::Full(bytes),
            AttemptBody::Stream(stream) => Source::Stream(Mutex::new(stream)),
        };
        TrackedBody {
            source,
            progress,
            pulled: None,
            head_taken: AtomicBool::new(false),
        }
    }

    /// Sets `pulled` once hyper asks for a frame of this body, which it
    /// does only from the stream's own body pipe (see
    /// [`crate::classify::goaway_signal`]).
    pub(crate) fn reporting_pulls(mut self, pulled: Arc<AtomicBool>) -> Self {
        self.pulled = Some(pulled);
        self
    }

    fn source_ended(&self) -> bool {
        match &self.source {
            Source::Empty => true,
            Source::Full(bytes) => bytes.is_empty(),
            Source::Stream(stream) => stream.lock().is_ok_and(|stream| stream.is_end_stream()),
        }
    }
}

impl Body for TrackedBody {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = self.get_mut();
        if let Some(pulled) = &this.pulled {
            pulled.store(true, Ordering::Release);
        }
        if let Err(sealed) = this.progress.start_write() {
            // The core gave up on this attempt: fail the body, so hyper
            // tears the connection down instead of writing more for it.
            return Poll::Ready(Some(Err(Box::new(sealed.into_io_error()))));
        }
        // hyper pulls frames only after it queued the head.
        this.head_taken.store(true, Ordering::Release);
        this.progress.head_written();
        let frame = match &mut this.source {
            Source::Empty => None,
            Source::Full(bytes) => {
                if bytes.is_empty() {
                    None
                } else {
                    let n = bytes.len().min(MAX_FRAME_BYTES);
                    Some(Ok(Frame::data(bytes.split_to(n))))
                }
            }
            Source::Stream(stream) => {
                let stream = stream.get_mut().unwrap_or_else(|e| e.into_inner());
                ready!(Pin::new(stream).poll_frame(cx))
                    .map(|r| r.map_err(|e| Box::new(RequestBodyError::new(e)) as BoxError))
            }
        };
        match &frame {
            None => this.progress.body_written(),
            Some(Ok(frame)) => {
                if let Some(data) = frame.data_ref() {
                    this.progress.wrote(data.len());
                }
                if frame.is_trailers() {
                    this.progress.body_written();
                }
            }
            Some(Err(_)) => {}
        }
        Poll::Ready(frame)
    }

    fn is_end_stream(&self) -> bool {
        // hyper asks this right before it encodes the head, and again after
        // each frame: the write starts here.
        if self.progress.start_write().is_err() {
            // Sealed by the core: "more to come", so that hyper asks for a
            // frame, which fails (see `poll_frame`) before anything is
            // flushed on HTTP/1.1.
            return false;
        }
        self.progress.enter(AttemptStage::WriteHead);
        let end = self.source_ended();
        // After the last frame, hyper holds the whole request: written, as
        // late as a frame pull can show it. Before any frame, hyper is
        // about to encode the head, which may still fail (an h2 stream it
        // cannot open): "written" would come early, and a strengthening
        // fact never does (it would count an idempotency key as sent).
        // A bodyless request is proven written only by its answer.
        if end && self.head_taken.load(Ordering::Acquire) {
            self.progress.body_written();
        }
        end
    }

    fn size_hint(&self) -> SizeHint {
        if self.progress.is_sealed() {
            // Sealed by the core: claim one byte to come, so that hyper
            // must pull a frame, which fails (`poll_frame`) before the head
            // it has encoded is flushed. With an exact 0 hyper writes the
            // whole request without asking for a frame, and so it does for
            // an unknown size on a GET or HEAD (hyper's `set_length`
            // assumes those have no body). The claimed byte is never sent.
            return SizeHint::with_exact(1);
        }
        match &self.source {
            Source::Empty => SizeHint::with_exact(0),
            Source::Full(bytes) => SizeHint::with_exact(bytes.len() as u64),
            Source::Stream(stream) => stream
                .lock()
                .map_or_else(|_| SizeHint::default(), |s| s.size_hint()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use evident_core::ProgressSnapshot;
    use http_body_util::BodyExt;

    fn snapshot(p: &Progress) -> ProgressSnapshot {
        p.snapshot()
    }

    #[tokio::test]
    async fn nothing_is_claimed_until_hyper_asks_the_body() {
        let progress = Progress::new();
        progress.enter(AttemptStage::Connect);
        let body = TrackedBody::new(
            AttemptBody::Full(Some(Bytes::from("abc"))),
            progress.clone(),
        );
        assert_eq!(body.size_hint().exact(), Some(3));
        let seen = snapshot(&progress);
        assert_eq!(seen.stage(), Some(AttemptStage::Connect));
        assert!(seen.still_before_write());
        assert!(!seen.writes_counted_exactly());
    }

    #[tokio::test]
    async fn the_first_question_queues_the_head_and_frames_carry_the_body() {
        let progress = Progress::new();
        let mut body = TrackedBody::new(
            AttemptBody::Full(Some(Bytes::from(vec![7u8; 3 * MAX_FRAME_BYTES + 5]))),
            progress.clone(),
        );
        assert!(!body.is_end_stream());
        let seen = snapshot(&progress);
        assert_eq!(seen.stage(), Some(AttemptStage::WriteHead));
        assert!(!seen.head_written());

        let mut sizes = Vec::new();
        while let Some(frame) = body.frame().await {
            let data = frame.unwrap().into_data().unwrap();
            sizes.push(data.len());
            if sizes.len() == 1 {
                let seen = snapshot(&progress);
                assert_eq!(seen.stage(), Some(AttemptStage::WriteBody));
                assert!(seen.head_written() && !seen.body_written());
            }
        }
        assert_eq!(
            sizes,
            [MAX_FRAME_BYTES, MAX_FRAME_BYTES, MAX_FRAME_BYTES, 5],
            "re-sliced into frames of at most MAX_FRAME_BYTES"
        );
        let seen = snapshot(&progress);
        assert_eq!(seen.stage(), Some(AttemptStage::AwaitHead));
        assert!(seen.body_written());
        assert_eq!(seen.bytes_written(), (3 * MAX_FRAME_BYTES + 5) as u64);
    }

    #[tokio::test]
    async fn a_sealed_attempt_starts_no_write_and_fails_its_body() {
        let progress = Progress::new();
        progress.enter(AttemptStage::Connect);
        let mut body = TrackedBody::new(AttemptBody::Empty, progress.clone());
        let sealed = progress.seal();
        assert!(sealed.still_before_write());
        assert!(!body.is_end_stream(), "hyper must ask for a frame");
        let err = body.frame().await.unwrap().unwrap_err();
        assert!(err.to_string().contains("abandoned"), "{err}");
        let seen = progress.snapshot();
        assert!(!seen.write_started() && !seen.head_written());
        assert_eq!(seen.stage(), Some(AttemptStage::Connect));
    }

    #[test]
    fn the_first_question_starts_the_write() {
        let progress = Progress::new();
        progress.enter(AttemptStage::Tls);
        let body = TrackedBody::new(AttemptBody::Full(Some(Bytes::from("x"))), progress.clone());
        assert!(progress.snapshot().still_before_write());
        assert!(!body.is_end_stream());
        let seen = progress.snapshot();
        assert!(seen.write_started() && !seen.still_before_write());
    }

    #[test]
    fn an_empty_body_starts_the_write_but_never_claims_it_written() {
        // hyper asks before it encodes the head (or opens the stream),
        // which may still fail: "written" would come early.
        let progress = Progress::new();
        let body = TrackedBody::new(AttemptBody::Empty, progress.clone());
        assert!(body.is_end_stream());
        let seen = snapshot(&progress);
        assert_eq!(seen.stage(), Some(AttemptStage::WriteHead));
        assert!(seen.write_started());
        assert!(!seen.head_written() && !seen.body_written());
    }

    #[tokio::test]
    async fn the_end_after_a_pulled_frame_is_the_whole_request_written() {
        let progress = Progress::new();
        let mut body =
            TrackedBody::new(AttemptBody::Full(Some(Bytes::from("x"))), progress.clone());
        assert!(!body.is_end_stream());
        assert!(!snapshot(&progress).head_written());
        body.frame().await.unwrap().unwrap();
        assert!(snapshot(&progress).head_written());
        // hyper asks again after the frame it pulled: the body has ended.
        assert!(body.is_end_stream());
        assert!(snapshot(&progress).body_written());
    }

    #[tokio::test]
    async fn a_failing_stream_is_marked_as_the_request_bodys_fault() {
        use http_body_util::StreamBody;
        let stream = futures_stream();
        let progress = Progress::new();
        let mut body = TrackedBody::new(
            AttemptBody::Stream(StreamBody::new(stream).boxed_unsync()),
            progress.clone(),
        );
        assert!(!body.is_end_stream());
        let first = body.frame().await.unwrap().unwrap();
        assert_eq!(first.into_data().unwrap(), "one");
        let err = body.frame().await.unwrap().unwrap_err();
        assert!(err.is::<RequestBodyError>());
        assert!(!snapshot(&progress).body_written());
    }

    fn futures_stream()
    -> impl futures_util::Stream<Item = Result<Frame<Bytes>, BoxError>> + Send + 'static {
        futures_util::stream::iter(vec![
            Ok(Frame::data(Bytes::from("one"))),
            Err(BoxError::from("disk gone")),
        ])
    }
}
