//! The request body as curl pulls it, and the response body as the core
//! reads it.
//!
//! **Request.** Every request body is handed to isahc as a *reader*, never
//! as a buffer: isahc can rewind a buffer, so libcurl could re-send it on a
//! new connection behind the core's back; a reader cannot be rewound, so a
//! re-send curl attempts fails with curl error 65 instead of executing the
//! request twice. The reader is also the adapter's only window on the
//! upload:
//!
//! * curl asks for body bytes only after it has built the request head and
//!   the connection (TCP and TLS) is up, so the **first read** marks the head
//!   as written (a conservative claim: the head may still sit in curl's
//!   send buffer, and claiming more progress never proves "not sent");
//! * the read that hands over the **last byte** marks the body as written
//!   (curl may still hold it; again the conservative side).
//!
//! A streamed (one-shot) body sits in a shared slot, so that when a
//! connection to one address fails before curl read anything, the same
//! untouched stream can go to the next address.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use bytes::{Buf, Bytes, BytesMut};
use evident_core::classify_helpers::{self, RequestBodyError, no_unwrap};
use evident_core::engine::BodyStream;
use evident_core::{AttemptBody, EngineFailure, EngineSignal, Progress};
use futures_io::AsyncRead;
use http_body::{Body, Frame, SizeHint};

use crate::classify::classify;
use crate::engine::HoldUntil;
use crate::slot::Lease;

/// The size of the buffer each response body read fills: large enough that
/// a body of a few hundred kilobytes takes a handful of reads, small enough
/// not to matter per attempt.
pub(crate) const RESPONSE_CHUNK_SIZE: usize = 16 * 1024;

/// What curl did with the request body of one attempt, shared by every
/// reader made for it (one per address tried).
#[derive(Debug, Default)]
pub(crate) struct UploadState {
    /// curl asked for body bytes at least once.
    touched: AtomicBool,
    /// curl was handed the last byte.
    finished: AtomicBool,
    /// The caller's stream ended before the length it declared: a failure
    /// of the caller's body, which curl reports as `READ_ERROR` (26).
    ended_short: AtomicBool,
}

impl UploadState {
    pub(crate) fn touched(&self) -> bool {
        self.touched.load(Ordering::Acquire)
    }

    pub(crate) fn finished(&self) -> bool {
        self.finished.load(Ordering::Acquire)
    }

    fn ended_short(&self) -> bool {
        self.ended_short.load(Ordering::Acquire)
    }

    /// Whether `error` is curl abandoning the upload because isahc took the
    /// request body away, not a failure of the caller's body.
    ///
    /// isahc 2.0.2 moves the request body into the response's extensions
    /// when it completes the response future, at the first byte of the
    /// answer's body (`RequestHandler::build_response`). If the server
    /// answered before reading the whole request (RFC 9112 §9.6, nginx
    /// with `return 200` does), curl's next pull of the upload reads the
    /// empty body left in its place and fails the transfer with
    /// `READ_ERROR` (26, "client read function EOF fail"). The caller's
    /// body did not fail: the adapter's reader never ended short and never
    /// returned an error (its errors carry [`RequestBodyError`]).
    pub(crate) fn cut_by_isahc(&self, error: &(dyn std::error::Error + 'static)) -> bool {
        !self.ended_short()
            && classify_helpers::find::<RequestBodyError>(error, no_unwrap).is_none()
            && classify_helpers::find::<curl::Error>(error, no_unwrap)
                .is_some_and(curl::Error::is_read_error)
    }
}

/// That the server reset the connection that carried a request, which
/// curl, reading a Unix socket the relay closes, sees only as a close. Set
/// before the relay closes curl's side, so it is set by the time curl
/// reports the close, during the request or during the answer's body.
#[derive(Debug, Default)]
pub(crate) struct ResetSeen(AtomicBool);

impl ResetSeen {
    pub(crate) fn set(&self) {
        self.0.store(true, Ordering::Release);
    }

    pub(crate) fn get(&self) -> bool {
        self.0.load(Ordering::Acquire)
    }

    /// `signal` as the relay's witness corrects it: a close curl saw where
    /// the server reset is that reset.
    pub(crate) fn correct(&self, signal: EngineSignal) -> EngineSignal {
        if signal == EngineSignal::ConnectionClosed && self.get() {
            EngineSignal::ConnectionReset
        } else {
            signal
        }
    }
}

/// A streamed body and the rest of a frame curl had no room for.
pub(crate) struct StreamSlot {
    stream: BodyStream,
    leftover: Bytes,
    done: bool,
}

/// The request body of one attempt, from which a fresh reader is made for
/// each address tried.
pub(crate) enum RequestBody {
    /// No body: isahc sends none, and curl never calls the reader.
    Empty,
    /// An in-memory body: every address gets a reader over a cheap clone.
    Bytes(Bytes),
    /// A one-shot stream, with its length when the stream knows it exactly.
    Stream {
        slot: Arc<Mutex<StreamSlot>>,
        length: Option<u64>,
    },
}

impl RequestBody {
    pub(crate) fn new(body: AttemptBody) -> Self {
        match body {
            AttemptBody::Empty => RequestBody::Empty,
            AttemptBody::Full(None) => RequestBody::Empty,
            AttemptBody::Full(Some(bytes)) if bytes.is_empty() => RequestBody::Empty,
            AttemptBody::Full(Some(bytes)) => RequestBody::Bytes(bytes),
            AttemptBody::Stream(stream) => {
                let length = stream.size_hint().exact();
                RequestBody::Stream {
                    slot: Arc::new(Mutex::new(StreamSlot {
                        stream,
                        leftover: Bytes::new(),
                        done: false,
                    })),
                    length,
                }
            }
        }
    }

    /// The body for one transfer: never rewindable.
    pub(crate) fn for_transfer(
        &self,
        progress: &Progress,
        state: &Arc<UploadState>,
    ) -> isahc::AsyncBody {
        let reader = |source, length: Option<u64>| {
            let reader = Reader {
                source,
                progress: progress.clone(),
                state: state.clone(),
                handed: 0,
                length,
            };
            match length {
                Some(n) => isahc::AsyncBody::from_reader_sized(reader, n),
                None => isahc::AsyncBody::from_reader(reader),
            }
        };
        match self {
            RequestBody::Empty => isahc::AsyncBody::empty(),
            RequestBody::Bytes(bytes) => {
                reader(Source::Bytes(bytes.clone()), Some(bytes.len() as u64))
            }
            RequestBody::Stream { slot, length } => reader(Source::Stream(slot.clone()), *length),
        }
    }
}

enum Source {
    Bytes(Bytes),
    Stream(Arc<Mutex<StreamSlot>>),
}

/// The reader curl pulls the request body from (on isahc's agent thread).
struct Reader {
    source: Source,
    progress: Progress,
    state: Arc<UploadState>,
    handed: u64,
    length: Option<u64>,
}

impl Reader {
    /// Records that curl is about to send body bytes, unless the core has
    /// sealed the attempt: then the read fails, and curl aborts the transfer
    /// instead of writing more for an attempt the core gave up on.
    fn mark_touched(&self) -> io::Result<()> {
        self.progress
            .start_write()
            .map_err(|sealed| sealed.into_io_error())?;
        if !self.state.touched.swap(true, Ordering::AcqRel) {
            self.progress.head_written();
        }
        Ok(())
    }

    fn mark_finished(&self) {
        if !self.state.finished.swap(true, Ordering::AcqRel) {
            self.progress.body_written();
        }
    }

    fn handed(&mut self, n: usize) {
        self.handed += n as u64;
        if self.length.is_some_and(|len| self.handed >= len) {
            self.mark_finished();
        }
    }
}

impl AsyncRead for Reader {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut [u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        this.mark_touched()?;
        if buf.is_empty() {
            return Poll::Ready(Ok(0));
        }
        let result = match &mut this.source {
            Source::Bytes(bytes) => {
                let n = bytes.len().min(buf.len());
                bytes.copy_to_slice(&mut buf[..n]);
                Poll::Ready(Ok(n))
            }
            Source::Stream(slot) => {
                let mut slot = slot.lock().map_err(|_| {
                    io::Error::other(RequestBodyError::new("request body poisoned"))
                })?;
                poll_stream(&mut slot, cx, buf)
            }
        };
        match result {
            Poll::Ready(Ok(0)) => {
                if this.length.is_some_and(|len| this.handed < len) {
                    this.state.ended_short.store(true, Ordering::Release);
                }
                this.mark_finished();
                Poll::Ready(Ok(0))
            }
            Poll::Ready(Ok(n)) => {
                this.handed(n);
                Poll::Ready(Ok(n))
            }
            other => other,
        }
    }
}

fn poll_stream(
    slot: &mut StreamSlot,
    cx: &mut Context<'_>,
    buf: &mut [u8],
) -> Poll<io::Result<usize>> {
    loop {
        if !slot.leftover.is_empty() {
            let n = slot.leftover.len().min(buf.len());
            slot.leftover.copy_to_slice(&mut buf[..n]);
            return Poll::Ready(Ok(n));
        }
        if slot.done {
            return Poll::Ready(Ok(0));
        }
        match Pin::new(&mut slot.stream).poll_frame(cx) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(None) => slot.done = true,
            Poll::Ready(Some(Err(e))) => {
                return Poll::Ready(Err(io::Error::other(RequestBodyError::new(e))));
            }
            Poll::Ready(Some(Ok(frame))) => {
                if let Ok(data) = frame.into_data() {
                    slot.leftover = data;
                }
            }
        }
    }
}

/// A response body read from isahc, with the first chunk possibly read
/// ahead (the engine reads it to learn whether the head was complete).
///
/// A timeout curl reports (its timer runs a little ahead of the attempt
/// deadline) is held until the attempt deadline, so that the attempt ends
/// when the core's deadline says, as on every engine.
pub(crate) struct ResponseBody {
    body: isahc::AsyncBody,
    first: Option<Bytes>,
    progress: Progress,
    answer: AnswerSoFar,
    done: bool,
    hold_until: HoldUntil,
    held: Option<(EngineFailure, Pin<Box<tokio::time::Sleep>>)>,
    /// The slot the transfer ran on: checked in at the answer's end, for
    /// the next transfer to reuse; dropped (and closed) otherwise.
    lease: Option<Lease>,
}

impl ResponseBody {
    pub(crate) fn new(
        body: isahc::AsyncBody,
        first: Option<Bytes>,
        progress: Progress,
        answer: AnswerSoFar,
        hold_until: HoldUntil,
        lease: Option<Lease>,
    ) -> Self {
        ResponseBody {
            body,
            first,
            progress,
            answer,
            done: false,
            hold_until,
            held: None,
            lease,
        }
    }
}

/// How much of an answer's body has arrived, against the length its head
/// declared, and what curl did with the upload: enough to tell a complete
/// answer from a cut one when curl fails the transfer after the answer.
pub(crate) struct AnswerSoFar {
    declared: Option<u64>,
    received: u64,
    upload: Arc<UploadState>,
    /// The relay's witness of a server reset, where a relay carried the
    /// transfer.
    reset: Option<Arc<ResetSeen>>,
    /// Room for the next read; each chunk is split off its front, so a
    /// short answer and the read that finds its end share one buffer.
    buf: BytesMut,
}

impl AnswerSoFar {
    pub(crate) fn new(
        headers: &http::HeaderMap,
        upload: Arc<UploadState>,
        reset: Option<Arc<ResetSeen>>,
    ) -> Self {
        let declared = headers
            .get(http::header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse().ok());
        AnswerSoFar {
            declared,
            received: 0,
            upload,
            reset,
            buf: BytesMut::new(),
        }
    }

    fn received(&mut self, n: usize) {
        self.received += n as u64;
    }

    /// Room for the next read: what the declared length still owes and one
    /// byte to find the end, up to [`RESPONSE_CHUNK_SIZE`].
    fn room(&mut self) -> &mut BytesMut {
        if self.buf.is_empty() {
            let owed = self.declared.map_or(RESPONSE_CHUNK_SIZE as u64, |d| {
                d.saturating_sub(self.received) + 1
            });
            let size =
                usize::try_from(owed).map_or(RESPONSE_CHUNK_SIZE, |o| o.min(RESPONSE_CHUNK_SIZE));
            self.buf = BytesMut::zeroed(size);
        }
        &mut self.buf
    }

    /// The chunk's outcome once curl failed the transfer with `error`.
    ///
    /// isahc ends an answer's body only when curl ends the whole transfer,
    /// upload included. An answer whose every declared byte arrived is
    /// complete, and what fails after it (the upload, cut by a reset or by
    /// isahc itself) cannot change it: it ends here, as on every engine
    /// that reads the answer by its length. Otherwise, when isahc cut the
    /// upload (see [`UploadState::cut_by_isahc`]), the rest of the answer
    /// was lost when curl closed the connection: a connection closed
    /// mid-body, never a failure of the caller's request body. Either way,
    /// where the relay saw the server reset the connection, the body's
    /// failure is that reset ([`ResetSeen::correct`]).
    fn after_failure(
        &self,
        error: io::Error,
        signal: EngineSignal,
    ) -> Result<Option<Bytes>, EngineFailure> {
        let signal = if self.upload.cut_by_isahc(&error) {
            EngineSignal::ConnectionClosed
        } else {
            signal
        };
        if self.declared == Some(self.received) {
            Ok(None)
        } else {
            // A close curl saw (or made, once isahc cut the upload) where
            // the relay saw the server reset is that reset.
            let signal = match &self.reset {
                Some(reset) => reset.correct(signal),
                None => signal,
            };
            Err(EngineFailure::new(signal, error))
        }
    }
}

/// Reads the next chunk of `body`: `Ok(None)` at its end.
pub(crate) fn poll_chunk(
    body: &mut isahc::AsyncBody,
    answer: &mut AnswerSoFar,
    cx: &mut Context<'_>,
) -> Poll<Result<Option<Bytes>, EngineFailure>> {
    loop {
        match Pin::new(&mut *body).poll_read(cx, answer.room()) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(Ok(0)) => return Poll::Ready(Ok(None)),
            Poll::Ready(Ok(n)) => {
                let chunk = answer.buf.split_to(n).freeze();
                answer.received(n);
                return Poll::Ready(Ok(Some(chunk)));
            }
            Poll::Ready(Err(e)) if e.kind() == io::ErrorKind::Interrupted => {}
            Poll::Ready(Err(e)) => {
                let signal = match classify(&e) {
                    // isahc's "the transfer did not finish" has no curl
                    // code: the connection went away mid-body.
                    EngineSignal::Io(io::ErrorKind::ConnectionAborted) => {
                        EngineSignal::ConnectionReset
                    }
                    signal => signal,
                };
                return Poll::Ready(answer.after_failure(e, signal));
            }
        }
    }
}

impl Body for ResponseBody {
    type Data = Bytes;
    type Error = EngineFailure;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, EngineFailure>>> {
        let this = self.get_mut();
        if let Some((_, sleep)) = &mut this.held {
            if sleep.as_mut().poll(cx).is_pending() {
                return Poll::Pending;
            }
            let (failure, _) = this.held.take().expect("held above");
            return Poll::Ready(Some(Err(failure)));
        }
        if let Some(first) = this.first.take() {
            return Poll::Ready(Some(Ok(Frame::data(first))));
        }
        if this.done {
            return Poll::Ready(None);
        }
        match poll_chunk(&mut this.body, &mut this.answer, cx) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(Ok(Some(chunk))) => {
                this.progress.read(chunk.len());
                Poll::Ready(Some(Ok(Frame::data(chunk))))
            }
            Poll::Ready(Ok(None)) => {
                this.done = true;
                // isahc ends the body only once curl ended the transfer:
                // the connection is back in curl's cache, or closed.
                if let Some(lease) = this.lease.take() {
                    lease.check_in();
                }
                Poll::Ready(None)
            }
            Poll::Ready(Err(failure)) => {
                this.done = true;
                this.lease = None;
                match this.hold_until {
                    Some(until) if failure.signal() == EngineSignal::TimedOut => {
                        this.held = Some((failure, Box::pin(tokio::time::sleep_until(until))));
                        // Poll the sleep once, so that its waker is set.
                        Pin::new(this).poll_frame(cx)
                    }
                    _ => Poll::Ready(Some(Err(failure))),
                }
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.done && self.first.is_none() && self.held.is_none()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use evident_core::AttemptStage;
    use futures_io::AsyncRead;
    use std::task::Waker;

    fn read_all(body: &mut isahc::AsyncBody, step: usize) -> Vec<Vec<u8>> {
        let mut cx = Context::from_waker(Waker::noop());
        let mut reads = Vec::new();
        loop {
            let mut buf = vec![0; step];
            match Pin::new(&mut *body).poll_read(&mut cx, &mut buf) {
                Poll::Ready(Ok(0)) => return reads,
                Poll::Ready(Ok(n)) => reads.push(buf[..n].to_vec()),
                other => panic!("unexpected {other:?}"),
            }
        }
    }

    #[test]
    fn an_in_memory_body_is_never_rewindable() {
        let body = RequestBody::new(AttemptBody::Full(Some(Bytes::from_static(b"hello"))));
        let mut isahc_body = body.for_transfer(&Progress::new(), &Arc::new(UploadState::default()));
        assert_eq!(isahc_body.len(), Some(5));
        assert!(!isahc_body.reset(), "a rewindable body lets curl re-send");
    }

    #[test]
    fn the_first_read_marks_the_head_and_the_last_byte_the_body() {
        let progress = Progress::new();
        let state = Arc::new(UploadState::default());
        let body = RequestBody::new(AttemptBody::Full(Some(Bytes::from_static(b"hello"))));
        let mut isahc_body = body.for_transfer(&progress, &state);
        let mut cx = Context::from_waker(Waker::noop());
        let mut buf = [0u8; 3];
        assert!(!progress.snapshot().head_written());

        let _ = Pin::new(&mut isahc_body).poll_read(&mut cx, &mut buf);
        let snapshot = progress.snapshot();
        assert!(snapshot.head_written());
        assert!(!snapshot.body_written());
        assert_eq!(snapshot.stage(), Some(AttemptStage::WriteBody));

        let _ = Pin::new(&mut isahc_body).poll_read(&mut cx, &mut buf);
        assert!(
            progress.snapshot().body_written(),
            "curl may never ask past a known length: the last byte ends the body"
        );
        assert!(state.touched() && state.finished());
    }

    #[test]
    fn a_sealed_attempt_hands_curl_no_more_body() {
        let progress = Progress::new();
        let state = Arc::new(UploadState::default());
        let body = RequestBody::new(AttemptBody::Full(Some(Bytes::from_static(b"hello"))));
        let mut isahc_body = body.for_transfer(&progress, &state);
        let mut cx = Context::from_waker(Waker::noop());
        let mut buf = [0u8; 2];
        assert!(matches!(
            Pin::new(&mut isahc_body).poll_read(&mut cx, &mut buf),
            Poll::Ready(Ok(2))
        ));
        progress.seal();
        assert!(matches!(
            Pin::new(&mut isahc_body).poll_read(&mut cx, &mut buf),
            Poll::Ready(Err(_))
        ));
        assert!(!state.finished());
    }

    #[test]
    fn an_untouched_stream_can_go_to_the_next_address_whole() {
        use http_body_util::BodyExt;
        let chunks = Chunks(
            vec![
                Ok(Bytes::from_static(b"ab")),
                Ok(Bytes::from_static(b"cde")),
            ]
            .into(),
        );
        let body = RequestBody::new(AttemptBody::Stream(chunks.boxed_unsync()));
        let state = Arc::new(UploadState::default());
        let progress = Progress::new();
        // The first address failed before curl read anything: its reader is
        // dropped unread.
        drop(body.for_transfer(&progress, &state));
        assert!(!state.touched());
        let mut second = body.for_transfer(&progress, &state);
        assert_eq!(read_all(&mut second, 2).concat(), b"abcde");
        assert!(state.finished());
    }

    #[test]
    fn a_failing_stream_is_a_request_body_error() {
        use http_body_util::BodyExt;
        let failing = Chunks(vec![Err("the producer failed".into())].into());
        let body = RequestBody::new(AttemptBody::Stream(failing.boxed_unsync()));
        let mut isahc_body = body.for_transfer(&Progress::new(), &Arc::new(UploadState::default()));
        let mut cx = Context::from_waker(Waker::noop());
        let mut buf = [0u8; 4];
        match Pin::new(&mut isahc_body).poll_read(&mut cx, &mut buf) {
            Poll::Ready(Err(e)) => assert_eq!(classify(&e), EngineSignal::RequestBody),
            other => panic!("expected an error, got {other:?}"),
        }
    }

    /// curl's error once isahc took the request body away after the answer
    /// came: `READ_ERROR`, inside the `io::Error` of isahc's response body.
    fn read_error() -> io::Error {
        io::Error::other(curl::Error::new(26))
    }

    fn answer_of(length: Option<&str>, upload: &Arc<UploadState>) -> AnswerSoFar {
        let mut headers = http::HeaderMap::new();
        if let Some(length) = length {
            headers.insert(http::header::CONTENT_LENGTH, length.parse().unwrap());
        }
        AnswerSoFar::new(&headers, upload.clone(), None)
    }

    #[test]
    fn an_answer_complete_before_the_upload_failed_ends_normally() {
        let upload = Arc::new(UploadState::default());
        let mut answer = answer_of(Some("2"), &upload);
        answer.received(2);
        let outcome = answer.after_failure(read_error(), EngineSignal::RequestBody);
        assert!(matches!(outcome, Ok(None)), "{outcome:?}");
        // A reset while curl still sent, after the whole answer: the same.
        let reset = io::Error::other(curl::Error::new(55));
        let outcome = answer.after_failure(reset, EngineSignal::ConnectionReset);
        assert!(matches!(outcome, Ok(None)), "{outcome:?}");
    }

    #[test]
    fn an_answer_short_of_its_length_keeps_its_failure() {
        let upload = Arc::new(UploadState::default());
        let mut answer = answer_of(Some("10"), &upload);
        answer.received(2);
        let reset = io::Error::other(curl::Error::new(56));
        match answer.after_failure(reset, EngineSignal::ConnectionReset) {
            Err(failure) => assert_eq!(failure.signal(), EngineSignal::ConnectionReset),
            Ok(chunk) => panic!("expected a failure, got {chunk:?}"),
        }
    }

    #[test]
    fn an_answer_cut_with_the_upload_is_a_closed_connection_not_the_callers_body() {
        let upload = Arc::new(UploadState::default());
        for (length, received) in [(Some("10"), 2), (None, 2)] {
            let mut answer = answer_of(length, &upload);
            answer.received(received);
            let outcome = answer.after_failure(read_error(), EngineSignal::RequestBody);
            match outcome {
                Err(failure) => assert_eq!(failure.signal(), EngineSignal::ConnectionClosed),
                Ok(chunk) => panic!("expected a failure, got {chunk:?}"),
            }
        }
    }

    #[test]
    fn a_stream_shorter_than_it_declared_is_still_the_callers_body() {
        use http_body_util::BodyExt;
        let short = Declared(Some(Bytes::from_static(b"abcd")), 10);
        let body = RequestBody::new(AttemptBody::Stream(short.boxed_unsync()));
        let upload = Arc::new(UploadState::default());
        let mut isahc_body = body.for_transfer(&Progress::new(), &upload);
        assert_eq!(read_all(&mut isahc_body, 16), vec![b"abcd".to_vec()]);
        // curl then fails the transfer with READ_ERROR: the caller's fault.
        assert!(!upload.cut_by_isahc(&read_error()));
        let mut answer = answer_of(Some("10"), &upload);
        answer.received(2);
        match answer.after_failure(read_error(), EngineSignal::RequestBody) {
            Err(failure) => assert_eq!(failure.signal(), EngineSignal::RequestBody),
            Ok(chunk) => panic!("expected a failure, got {chunk:?}"),
        }
    }

    #[test]
    fn a_failure_of_the_callers_stream_is_never_taken_for_isahcs_cut() {
        let upload = Arc::new(UploadState::default());
        let marked = io::Error::other(RequestBodyError::new("the producer failed"));
        assert!(!upload.cut_by_isahc(&marked));
        assert!(upload.cut_by_isahc(&read_error()));
        let reset = io::Error::other(curl::Error::new(56));
        assert!(!upload.cut_by_isahc(&reset));
    }

    /// A streamed body that declares an exact length and yields `.0`.
    struct Declared(Option<Bytes>, u64);

    impl Body for Declared {
        type Data = Bytes;
        type Error = evident_core::BoxError;

        fn poll_frame(
            self: Pin<&mut Self>,
            _: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
            Poll::Ready(self.get_mut().0.take().map(|b| Ok(Frame::data(b))))
        }

        fn size_hint(&self) -> SizeHint {
            SizeHint::with_exact(self.1)
        }
    }

    /// A streamed body of unknown length made of these frames.
    struct Chunks(std::collections::VecDeque<Result<Bytes, evident_core::BoxError>>);

    impl Body for Chunks {
        type Data = Bytes;
        type Error = evident_core::BoxError;

        fn poll_frame(
            self: Pin<&mut Self>,
            _: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
            Poll::Ready(self.get_mut().0.pop_front().map(|r| r.map(Frame::data)))
        }
    }
}
