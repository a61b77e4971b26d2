//! The connection's byte stream, and the counting layer that attributes
//! written bytes to the request currently on an HTTP/1.1 connection.
//!
//! The counter sits *above* TLS: it counts plaintext bytes accepted by the
//! TLS layer (or by TCP for `http://`), which is what "bytes of this request
//! accepted by the connection" means. An HTTP/1.1 connection carries one
//! request at a time, so every byte hyper writes while a request's
//! [`Tracker`] is in the connection's [`Slot`] belongs to that request.
//!
//! hyper writes from its connection task, not from the attempt's future, so
//! the core may snapshot the progress while a write is under way. Before
//! every write or flush the layer therefore records that a write started
//! ([`Progress::start_write`]), and once the core has sealed the attempt it
//! refuses the write with an I/O error: hyper then closes the connection,
//! which is never pooled again.

use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, Waker};

use evident_core::{AttemptSealed, Progress};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio_rustls::client::TlsStream;

/// A connected stream: plain TCP or TLS over TCP.
#[derive(Debug)]
pub(crate) enum Transport {
    Tcp(TcpStream),
    Tls(Box<TlsStream<TcpStream>>),
}

impl Transport {
    /// The TCP stream under any TLS.
    pub(crate) fn tcp(&self) -> &TcpStream {
        match self {
            Transport::Tcp(s) => s,
            Transport::Tls(s) => s.get_ref().0,
        }
    }
}

/// A second handle on an idle connection's socket, to look at it without
/// reading: an idle HTTP/1.1 connection must have nothing to read. Waiting
/// for hyper's connection task to notice the peer's close is a race the
/// request can lose (it would then be written into a dead connection and
/// end ambiguous); looking at the socket itself at checkout is not.
#[derive(Debug)]
pub(crate) struct IdleProbe {
    socket: Option<socket2::Socket>,
}

impl IdleProbe {
    /// A probe on `tcp` (a duplicate of its descriptor, non-blocking like it).
    pub(crate) fn new(tcp: &TcpStream) -> Self {
        IdleProbe {
            socket: socket2::SockRef::from(tcp).try_clone().ok(),
        }
    }

    /// Whether the idle connection can no longer serve a request: the peer
    /// closed it, or sent something no request asked for (a close_notify,
    /// stray bytes). Without a probe, nothing is known to be wrong.
    pub(crate) fn peer_went_away(&self) -> bool {
        let Some(socket) = &self.socket else {
            return false;
        };
        let mut byte = [std::mem::MaybeUninit::<u8>::uninit(); 1];
        match socket.peek(&mut byte) {
            Err(e) => e.kind() != io::ErrorKind::WouldBlock,
            // EOF, or unsolicited bytes on an idle connection.
            Ok(_) => true,
        }
    }
}

macro_rules! delegate {
    ($self:ident, $s:ident => $e:expr) => {
        match $self.get_mut() {
            Transport::Tcp($s) => {
                let $s = Pin::new($s);
                $e
            }
            Transport::Tls($s) => {
                let $s = Pin::new(&mut **$s);
                $e
            }
        }
    };
}

impl AsyncRead for Transport {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        delegate!(self, s => s.poll_read(cx, buf))
    }
}

impl AsyncWrite for Transport {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        delegate!(self, s => s.poll_write(cx, buf))
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        delegate!(self, s => s.poll_write_vectored(cx, bufs))
    }

    fn is_write_vectored(&self) -> bool {
        match self {
            Transport::Tcp(s) => s.is_write_vectored(),
            Transport::Tls(s) => s.is_write_vectored(),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        delegate!(self, s => s.poll_flush(cx))
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        delegate!(self, s => s.poll_shutdown(cx))
    }
}

/// What the counting layer and the request body wrapper learn about one
/// HTTP/1.1 request, turned into [`Progress`] facts at the right moment.
///
/// The head/body boundary: hyper's dispatcher asks the body
/// `is_end_stream()` immediately before it encodes the request head into its
/// write buffer, and encodes body frames as it polls them. It only calls the
/// stream's `poll_flush` once its write buffer is empty, i.e. once
/// everything encoded so far was accepted by [`CountingIo::poll_write`]. So:
///
/// * head encoded (the body was asked anything) + a completed flush + at
///   least one byte written ⇒ the whole head was accepted;
/// * body finished (the body said it ended, with the length hyper framed it
///   with) + a completed flush ⇒ the whole body was accepted.
///
/// Both can only be reported late (at the next flush), never early. To make
/// the head boundary exact rather than late, the body holds its first data
/// frame back until the head alone was flushed ([`TrackedBody`] waits on
/// [`Tracker::wake_when_head_flushed`]); hyper flushes its buffer whenever
/// the body is not ready. This costs one extra write per request with a
/// body, and buys an exact `head_written` (and so an exact "was the
/// idempotency key sent", and the `write_body` stage for a failure while the
/// body is on its way).
#[derive(Debug)]
pub(crate) struct Tracker {
    progress: Progress,
    written: AtomicU64,
    head_encoded: AtomicBool,
    body_finished: AtomicBool,
    head_flushed: AtomicBool,
    body_flushed: AtomicBool,
    /// The request body waiting for the head to be flushed on its own.
    head_waiter: Mutex<Option<Waker>>,
}

impl Tracker {
    pub(crate) fn new(progress: Progress) -> Self {
        Tracker {
            progress,
            written: AtomicU64::new(0),
            head_encoded: AtomicBool::new(false),
            body_finished: AtomicBool::new(false),
            head_flushed: AtomicBool::new(false),
            body_flushed: AtomicBool::new(false),
            head_waiter: Mutex::new(None),
        }
    }

    /// A write or flush for this request is about to hand bytes to the
    /// stream; refused once the core sealed the attempt.
    fn start_write(&self) -> io::Result<()> {
        self.progress
            .start_write()
            .map_err(|sealed| sealed.into_io_error())
    }

    /// Whether the core gave up on the attempt.
    pub(crate) fn sealed(&self) -> bool {
        self.progress.is_sealed()
    }

    fn wrote(&self, n: usize) {
        if n > 0 {
            self.written.fetch_add(n as u64, Ordering::AcqRel);
            self.progress.wrote(n);
        }
    }

    /// hyper is encoding (or has encoded) the request head.
    pub(crate) fn head_encoded(&self) {
        self.head_encoded.store(true, Ordering::Release);
    }

    /// The body handed hyper its last frame.
    pub(crate) fn body_finished(&self) {
        self.body_finished.store(true, Ordering::Release);
    }

    /// Whether the head is known to have been accepted by the connection.
    pub(crate) fn head_flushed(&self) -> bool {
        self.head_flushed.load(Ordering::Acquire)
    }

    /// Wakes `waker` once the head is flushed (at once if it already is).
    /// Returns whether it already is.
    pub(crate) fn wake_when_head_flushed(&self, waker: &Waker) -> bool {
        let mut waiter = self
            .head_waiter
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if self.head_flushed() {
            return true;
        }
        *waiter = Some(waker.clone());
        false
    }

    /// Whether the whole request (head and body) was accepted by the
    /// connection: only then may the connection serve another request
    /// without bytes of this one being counted for the next.
    pub(crate) fn fully_written(&self) -> bool {
        self.body_flushed.load(Ordering::Acquire)
    }

    /// hyper's write buffer is empty and the stream flushed.
    fn flushed(&self) {
        if !self.head_encoded.load(Ordering::Acquire) || self.written.load(Ordering::Acquire) == 0 {
            return;
        }
        if !self.head_flushed.swap(true, Ordering::AcqRel) {
            self.progress.head_written();
            let waiter = self
                .head_waiter
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take();
            if let Some(waker) = waiter {
                waker.wake();
            }
        }
        if self.body_finished.load(Ordering::Acquire)
            && !self.body_flushed.swap(true, Ordering::AcqRel)
        {
            self.progress.body_written();
        }
    }
}

/// The request currently using an HTTP/1.1 connection, shared between the
/// engine (which fills it at checkout) and the connection's [`CountingIo`].
#[derive(Debug, Default)]
pub(crate) struct Slot {
    current: Mutex<Option<Arc<Tracker>>>,
}

impl Slot {
    pub(crate) fn set(&self, tracker: Option<Arc<Tracker>>) {
        *self.current.lock().unwrap_or_else(PoisonError::into_inner) = tracker;
    }

    fn with(&self, f: impl FnOnce(&Tracker)) {
        if let Some(t) = &*self.current.lock().unwrap_or_else(PoisonError::into_inner) {
            f(t);
        }
    }

    /// Records a write starting for the request in the slot, if any; fails
    /// when its attempt was sealed.
    fn start_write(&self) -> io::Result<()> {
        match &*self.current.lock().unwrap_or_else(PoisonError::into_inner) {
            Some(t) => t.start_write(),
            None => Ok(()),
        }
    }

    /// Fails when the request in the slot belongs to a sealed attempt.
    fn refuse_if_sealed(&self) -> io::Result<()> {
        match &*self.current.lock().unwrap_or_else(PoisonError::into_inner) {
            Some(t) if t.sealed() => Err(AttemptSealed.into_io_error()),
            _ => Ok(()),
        }
    }
}

/// A stream that counts the bytes it accepts for the request in its slot.
#[derive(Debug)]
pub(crate) struct CountingIo<T> {
    inner: T,
    slot: Arc<Slot>,
}

impl<T> CountingIo<T> {
    pub(crate) fn new(inner: T, slot: Arc<Slot>) -> Self {
        CountingIo { inner, slot }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for CountingIo<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for CountingIo<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if let Err(e) = this.slot.start_write() {
            return Poll::Ready(Err(e));
        }
        let polled = Pin::new(&mut this.inner).poll_write(cx, buf);
        if let Poll::Ready(Ok(n)) = polled {
            this.slot.with(|t| t.wrote(n));
        }
        polled
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if let Err(e) = this.slot.start_write() {
            return Poll::Ready(Err(e));
        }
        let polled = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        if let Poll::Ready(Ok(n)) = polled {
            this.slot.with(|t| t.wrote(n));
        }
        polled
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        // A flush moves buffered bytes (TLS records) to the wire, so a
        // sealed attempt's connection flushes nothing. It starts no write of
        // its own (hyper flushes an empty buffer too): whatever it moves was
        // accepted by `poll_write`, which recorded the start.
        if let Err(e) = this.slot.refuse_if_sealed() {
            return Poll::Ready(Err(e));
        }
        let polled = Pin::new(&mut this.inner).poll_flush(cx);
        if let Poll::Ready(Ok(())) = polled {
            this.slot.with(Tracker::flushed);
        }
        polled
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use evident_core::AttemptStage;
    use tokio::io::AsyncWriteExt;

    fn counting() -> (CountingIo<Vec<u8>>, Arc<Tracker>, Progress) {
        let progress = Progress::new();
        let tracker = Arc::new(Tracker::new(progress.clone()));
        let slot = Arc::new(Slot::default());
        slot.set(Some(tracker.clone()));
        (CountingIo::new(Vec::new(), slot), tracker, progress)
    }

    #[tokio::test]
    async fn bytes_are_counted_for_the_request_in_the_slot_only() {
        let (mut io, _tracker, progress) = counting();
        io.write_all(b"GET / HTTP/1.1\r\n").await.unwrap();
        assert_eq!(progress.snapshot().bytes_written(), 16);
        io.slot.set(None);
        io.write_all(b"stray").await.unwrap();
        assert_eq!(progress.snapshot().bytes_written(), 16);
    }

    #[tokio::test]
    async fn the_head_is_written_only_after_it_was_encoded_written_and_flushed() {
        let (mut io, tracker, progress) = counting();
        // A flush before hyper encoded anything claims nothing.
        io.flush().await.unwrap();
        assert!(!progress.snapshot().head_written());
        // Encoded but not yet written: still nothing.
        tracker.head_encoded();
        io.flush().await.unwrap();
        assert!(!progress.snapshot().head_written());
        io.write_all(b"GET / HTTP/1.1\r\n\r\n").await.unwrap();
        assert!(
            !progress.snapshot().head_written(),
            "written is not flushed"
        );
        io.flush().await.unwrap();
        let seen = progress.snapshot();
        assert!(seen.head_written());
        assert!(!seen.body_written());
        assert_eq!(seen.stage(), Some(AttemptStage::WriteBody));
        tracker.body_finished();
        io.flush().await.unwrap();
        assert!(progress.snapshot().body_written());
        assert!(tracker.fully_written());
    }
}
