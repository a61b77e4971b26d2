//! The response body every engine returns in one shape: its library's body,
//! each byte read counted into the attempt's progress, each error turned
//! into an [`EngineFailure`] by the engine's classifier.
//!
//! Counting is what puts `bytes_read` in the attempt's evidence facts, and
//! classifying is what lets the core tell a body cut by a reset from one
//! cut by a timeout. Both are the same few lines on every engine, so they
//! are written once here: [`CountedBody`] for an async body
//! ([`http_body::Body`]), [`CountedReader`] for a blocking one
//! ([`std::io::Read`]).

use std::fmt;
use std::io::{self, Read};
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use bytes::Bytes;
use http_body::{Body, Frame, SizeHint};

use super::{BlockingResponseBody, EngineFailure};
use crate::EngineSignal;
use crate::failure::BoxError;
use crate::progress::Progress;

/// The size of the pieces a [`CountedReader`] reads a body in.
pub const READ_CHUNK_BYTES: usize = 16 * 1024;

/// An async response body over an engine's own: counts the bytes of every
/// data frame ([`Progress::read`]), classifies an error with `classify`,
/// and runs an end hook once when the body ends cleanly.
///
/// The hook is where a pooling engine takes its connection back: it runs
/// when the last frame has been read (or the body was empty), and never
/// after an error, when the connection is not fit to reuse. A body dropped
/// before its end drops the hook unrun.
///
/// ```
/// use bytes::Bytes;
/// use evident_core::engine::CountedBody;
/// use evident_core::{EngineSignal, Progress};
/// use http_body_util::{BodyExt, Full};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let progress = Progress::new();
/// let (ended_tx, ended_rx) = std::sync::mpsc::channel();
/// let body = CountedBody::new(
///     Full::new(Bytes::from_static(b"hello")),
///     progress.clone(),
///     |_: &std::convert::Infallible| EngineSignal::Other,
/// )
/// .on_end(move || ended_tx.send(()).unwrap());
/// let bytes = body.collect().await.unwrap().to_bytes();
/// assert_eq!(bytes, "hello");
/// assert_eq!(progress.snapshot().bytes_read(), 5);
/// assert!(ended_rx.try_recv().is_ok());
/// # }
/// ```
pub struct CountedBody<B, C, E = fn()> {
    inner: B,
    progress: Progress,
    classify: C,
    on_end: Option<E>,
}

impl<B, C> CountedBody<B, C>
where
    B: Body,
    C: Fn(&B::Error) -> EngineSignal,
{
    /// Counts `inner`'s bytes into `progress` and classifies its errors
    /// with `classify` (the engine's classifier at its exchange site).
    pub fn new(inner: B, progress: Progress, classify: C) -> Self {
        CountedBody {
            inner,
            progress,
            classify,
            on_end: None,
        }
    }

    /// Runs `hook` once when the body ends cleanly, at once if it is
    /// already at its end.
    pub fn on_end<E: FnOnce()>(self, hook: E) -> CountedBody<B, C, E> {
        let mut body = CountedBody {
            inner: self.inner,
            progress: self.progress,
            classify: self.classify,
            on_end: Some(hook),
        };
        if body.inner.is_end_stream() {
            body.end();
        }
        body
    }
}

impl<B, C, E: FnOnce()> CountedBody<B, C, E> {
    fn end(&mut self) {
        if let Some(hook) = self.on_end.take() {
            hook();
        }
    }
}

impl<B, C, E> Body for CountedBody<B, C, E>
where
    B: Body<Data = Bytes> + Unpin,
    B::Error: Into<BoxError>,
    C: Fn(&B::Error) -> EngineSignal + Unpin,
    E: FnOnce() + Unpin,
{
    type Data = Bytes;
    type Error = EngineFailure;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, EngineFailure>>> {
        let this = self.get_mut();
        match ready!(Pin::new(&mut this.inner).poll_frame(cx)) {
            Some(Ok(frame)) => {
                if let Some(data) = frame.data_ref() {
                    this.progress.read(data.len());
                }
                if this.inner.is_end_stream() {
                    this.end();
                }
                Poll::Ready(Some(Ok(frame)))
            }
            Some(Err(e)) => {
                this.on_end = None;
                let signal = (this.classify)(&e);
                Poll::Ready(Some(Err(EngineFailure::new(signal, e))))
            }
            None => {
                this.end();
                Poll::Ready(None)
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

impl<B, C, E> fmt::Debug for CountedBody<B, C, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CountedBody")
            .field("ends_with_hook", &self.on_end.is_some())
            .finish_non_exhaustive()
    }
}

/// A blocking response body over any reader: read in pieces of at most
/// [`READ_CHUNK_BYTES`] (or the body's announced length, when smaller), each
/// counted into the attempt's progress, an I/O error classified with
/// `classify`.
///
/// The reader's end (`Ok(0)`) is the body's end: a reader that knows the
/// body's framing (a length or chunked decoder) reports a body cut short
/// as an error, not as an end.
///
/// ```
/// use evident_core::engine::CountedReader;
/// use evident_core::{BlockingResponseBody, EngineSignal, Progress};
///
/// let progress = Progress::new();
/// let mut body = CountedReader::new(&b"hello"[..], progress.clone(), |_| EngineSignal::Other);
/// assert_eq!(body.next_chunk().unwrap().unwrap(), "hello");
/// assert_eq!(body.next_chunk().unwrap(), None);
/// assert_eq!(progress.snapshot().bytes_read(), 5);
/// ```
pub struct CountedReader<R, C> {
    reader: R,
    progress: Progress,
    classify: C,
    /// Read buffer, zeroed once per body (on the first read) and reused.
    buf: Vec<u8>,
    buf_len: usize,
}

impl<R, C> CountedReader<R, C>
where
    R: Read + Send,
    C: Fn(&io::Error) -> EngineSignal + Send,
{
    /// Reads `reader` in pieces of [`READ_CHUNK_BYTES`].
    pub fn new(reader: R, progress: Progress, classify: C) -> Self {
        CountedReader {
            reader,
            progress,
            classify,
            buf: Vec::new(),
            buf_len: READ_CHUNK_BYTES,
        }
    }

    /// Reads in pieces no larger than `length` (the body's announced
    /// length), so a small body costs a small buffer.
    pub fn announced_length(mut self, length: Option<u64>) -> Self {
        if let Some(length) = length {
            let length = usize::try_from(length).unwrap_or(usize::MAX);
            self.buf_len = length.clamp(1, READ_CHUNK_BYTES);
        }
        self
    }
}

impl<R, C> BlockingResponseBody for CountedReader<R, C>
where
    R: Read + Send,
    C: Fn(&io::Error) -> EngineSignal + Send,
{
    fn next_chunk(&mut self) -> Result<Option<Bytes>, EngineFailure> {
        if self.buf.is_empty() {
            self.buf = vec![0; self.buf_len];
        }
        loop {
            match self.reader.read(&mut self.buf) {
                Ok(0) => return Ok(None),
                Ok(n) => {
                    self.progress.read(n);
                    return Ok(Some(Bytes::copy_from_slice(&self.buf[..n])));
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    let signal = (self.classify)(&e);
                    return Err(EngineFailure::new(signal, e));
                }
            }
        }
    }
}

impl<R, C> fmt::Debug for CountedReader<R, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CountedReader")
            .field("buf_len", &self.buf_len)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use std::collections::VecDeque;

    use http_body_util::BodyExt;

    /// A body handing out `frames` in order.
    struct Frames(VecDeque<Result<Frame<Bytes>, io::Error>>);

    impl Body for Frames {
        type Data = Bytes;
        type Error = io::Error;

        fn poll_frame(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, io::Error>>> {
            Poll::Ready(self.0.pop_front())
        }

        fn is_end_stream(&self) -> bool {
            self.0.is_empty()
        }
    }

    fn stream(frames: Vec<Result<Frame<Bytes>, io::Error>>) -> Frames {
        Frames(frames.into())
    }

    fn counter() -> (Arc<AtomicUsize>, impl FnOnce() + Unpin) {
        let ended = Arc::new(AtomicUsize::new(0));
        let hook = {
            let ended = ended.clone();
            move || {
                ended.fetch_add(1, Ordering::SeqCst);
            }
        };
        (ended, hook)
    }

    #[tokio::test]
    async fn every_data_byte_is_counted_and_the_hook_runs_once_at_the_end() {
        let progress = Progress::new();
        let (ended, hook) = counter();
        let frames = vec![
            Ok(Frame::data(Bytes::from_static(b"abc"))),
            Ok(Frame::data(Bytes::from_static(b"de"))),
        ];
        let body = CountedBody::new(stream(frames), progress.clone(), |_: &io::Error| {
            EngineSignal::Other
        })
        .on_end(hook);
        assert_eq!(body.collect().await.unwrap().to_bytes(), "abcde");
        assert_eq!(progress.snapshot().bytes_read(), 5);
        assert_eq!(ended.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn an_error_is_classified_and_the_hook_never_runs() {
        let progress = Progress::new();
        let (ended, hook) = counter();
        let frames = vec![
            Ok(Frame::data(Bytes::from_static(b"ab"))),
            Err(io::ErrorKind::ConnectionReset.into()),
        ];
        let mut body = CountedBody::new(stream(frames), progress.clone(), |e: &io::Error| {
            assert_eq!(e.kind(), io::ErrorKind::ConnectionReset);
            EngineSignal::ConnectionReset
        })
        .on_end(hook);
        assert!(body.frame().await.unwrap().is_ok());
        let failure = body.frame().await.unwrap().unwrap_err();
        assert_eq!(failure.signal(), EngineSignal::ConnectionReset);
        assert_eq!(progress.snapshot().bytes_read(), 2);
        drop(body);
        assert_eq!(ended.load(Ordering::SeqCst), 0);
    }

    #[tokio::test]
    async fn an_empty_body_ends_at_once_and_a_dropped_one_never() {
        let (ended, hook) = counter();
        let body = CountedBody::new(
            http_body_util::Empty::<Bytes>::new(),
            Progress::new(),
            |_: &std::convert::Infallible| EngineSignal::Other,
        )
        .on_end(hook);
        assert_eq!(ended.load(Ordering::SeqCst), 1);
        drop(body);
        assert_eq!(ended.load(Ordering::SeqCst), 1);

        let (ended, hook) = counter();
        let frames = vec![Ok(Frame::data(Bytes::from_static(b"ab")))];
        let body = CountedBody::new(stream(frames), Progress::new(), |_: &io::Error| {
            EngineSignal::Other
        })
        .on_end(hook);
        drop(body);
        assert_eq!(ended.load(Ordering::SeqCst), 0);
    }

    /// A reader failing with `kind` after `data`.
    struct Failing {
        data: &'static [u8],
        kind: io::ErrorKind,
    }

    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.data.is_empty() {
                return Err(self.kind.into());
            }
            self.data.read(buf)
        }
    }

    #[test]
    fn a_reader_is_read_in_pieces_of_the_announced_length_and_its_error_classified() {
        let progress = Progress::new();
        let reader = Failing {
            data: b"abcdef",
            kind: io::ErrorKind::TimedOut,
        };
        let mut body = CountedReader::new(reader, progress.clone(), |e| {
            assert_eq!(e.kind(), io::ErrorKind::TimedOut);
            EngineSignal::TimedOut
        })
        .announced_length(Some(4));
        assert_eq!(body.next_chunk().unwrap().unwrap(), "abcd");
        assert_eq!(body.next_chunk().unwrap().unwrap(), "ef");
        let failure = body.next_chunk().unwrap_err();
        assert_eq!(failure.signal(), EngineSignal::TimedOut);
        assert_eq!(progress.snapshot().bytes_read(), 6);
    }

    #[test]
    fn an_interrupted_read_is_retried_and_a_zero_length_still_reads() {
        struct Interrupting(bool, &'static [u8]);
        impl Read for Interrupting {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if std::mem::take(&mut self.0) {
                    return Err(io::ErrorKind::Interrupted.into());
                }
                self.1.read(buf)
            }
        }
        let mut body = CountedReader::new(Interrupting(true, b"x"), Progress::new(), |_| {
            EngineSignal::Other
        })
        .announced_length(Some(0));
        assert_eq!(body.next_chunk().unwrap().unwrap(), "x");
        assert_eq!(body.next_chunk().unwrap(), None);
    }
}
