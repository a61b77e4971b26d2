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
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
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
/// Both can only be reported late (at the next flush), never early. The
/// head boundary is made exact rather than late (an exact "was the
/// idempotency key sent", and the `write_body` stage for a failure while the
/// body is on its way) in one of two ways:
///
/// * **Vectored transports** (TCP, and TLS over it): hyper then queues the
///   body's frames as buffers of their own behind the encoded head and
///   writes them with one `writev`, never copying them. The body tells the
///   tracker where its first byte lives ([`Tracker::body_starts_at`]);
///   [`CountingIo::poll_write_vectored`] finds that buffer among the ones
///   it is given, and everything before it is the head (plus, for chunked
///   framing, a chunk-size line, which only makes the claim later). A write
///   that accepted at least that many bytes wrote the whole head. Head and
///   body leave in one write, as with hyper alone.
/// * **Other transports** (hyper copies everything into one buffer): the
///   body holds its first data frame back until the head alone was flushed
///   ([`TrackedBody`] waits on [`Tracker::wake_when_head_flushed`]); hyper
///   flushes its buffer whenever the body is not ready. This costs one
///   extra write per request with a body.
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
    /// Whether the connection's writes are vectored, so the head boundary
    /// can be found in them (set by the [`Slot`] the tracker enters).
    vectored: AtomicBool,
    /// Address of the body's first byte, once the body yielded it (0: not
    /// yet). Only compared with the addresses of the buffers hyper writes.
    body_start: AtomicUsize,
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
            vectored: AtomicBool::new(false),
            body_start: AtomicUsize::new(0),
        }
    }

    /// Whether the head boundary is found in vectored writes, so the body
    /// need not wait for the head to be flushed alone.
    pub(crate) fn finds_head_boundary_in_writes(&self) -> bool {
        self.vectored.load(Ordering::Acquire)
    }

    /// The body yielded its first data, starting at `first_byte`.
    pub(crate) fn body_starts_at(&self, first_byte: *const u8) {
        let _ = self.body_start.compare_exchange(
            0,
            first_byte as usize,
            Ordering::AcqRel,
            Ordering::Acquire,
        );
    }

    /// How many bytes of `bufs` come before the body's first byte, when that
    /// byte is in `bufs` and the head is not yet known written.
    fn head_bytes_before_body(&self, bufs: &[io::IoSlice<'_>]) -> Option<usize> {
        let start = self.body_start.load(Ordering::Acquire);
        if start == 0 || self.head_flushed() {
            return None;
        }
        let mut before = 0;
        for buf in bufs {
            if !buf.is_empty() && buf.as_ptr() as usize == start {
                return Some(before);
            }
            before += buf.len();
        }
        None
    }

    /// The connection accepted the whole head.
    fn head_accepted(&self) {
        if !self.head_flushed.swap(true, Ordering::AcqRel) {
            self.progress.head_written();
            self.wake_head_waiter();
        }
    }

    fn wake_head_waiter(&self) {
        let waiter = self
            .head_waiter
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(waker) = waiter {
            waker.wake();
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
        self.head_accepted();
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
    /// Whether the connection's stream writes vectored (set once by
    /// [`CountingIo::new`]).
    vectored: AtomicBool,
}

impl Slot {
    pub(crate) fn set(&self, tracker: Option<Arc<Tracker>>) {
        if let Some(t) = &tracker {
            t.vectored
                .store(self.vectored.load(Ordering::Acquire), Ordering::Release);
        }
        *self.current.lock().unwrap_or_else(PoisonError::into_inner) = tracker;
    }

    fn head_bytes_before_body(&self, bufs: &[io::IoSlice<'_>]) -> Option<usize> {
        self.current
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
            .and_then(|t| t.head_bytes_before_body(bufs))
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

impl<T: AsyncWrite> CountingIo<T> {
    /// Counts for the request in `slot`. hyper queues body buffers apart
    /// from the head exactly when the stream writes vectored, so that is
    /// when the head boundary can be found in writes.
    pub(crate) fn new(inner: T, slot: Arc<Slot>) -> Self {
        slot.vectored
            .store(inner.is_write_vectored(), Ordering::Release);
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
        let head_end = this.slot.head_bytes_before_body(bufs);
        let polled = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        if let Poll::Ready(Ok(n)) = polled {
            this.slot.with(|t| {
                t.wrote(n);
                if head_end.is_some_and(|head_end| n >= head_end) {
                    t.head_accepted();
                }
            });
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

    /// A stream that accepts at most `budget` bytes per write, as a socket
    /// with little room in its send buffer does.
    struct Trickle {
        budget: usize,
        accepted: Vec<u8>,
    }

    impl AsyncWrite for Trickle {
        fn poll_write(
            self: Pin<&mut Self>,
            _cx: &mut Context<'_>,
            buf: &[u8],
        ) -> Poll<io::Result<usize>> {
            let this = self.get_mut();
            let n = buf.len().min(this.budget);
            this.accepted.extend_from_slice(&buf[..n]);
            Poll::Ready(Ok(n))
        }

        fn poll_write_vectored(
            self: Pin<&mut Self>,
            _cx: &mut Context<'_>,
            bufs: &[io::IoSlice<'_>],
        ) -> Poll<io::Result<usize>> {
            let this = self.get_mut();
            let mut n = 0;
            for buf in bufs {
                let take = buf.len().min(this.budget - n);
                this.accepted.extend_from_slice(&buf[..take]);
                n += take;
            }
            Poll::Ready(Ok(n))
        }

        fn is_write_vectored(&self) -> bool {
            true
        }

        fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
            Poll::Ready(Ok(()))
        }

        fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
            Poll::Ready(Ok(()))
        }
    }

    /// The tracker of a request on a vectored `Trickle`, with its body's
    /// first byte known.
    fn on_trickle(budget: usize, body: &[u8]) -> (CountingIo<Trickle>, Arc<Tracker>, Progress) {
        let progress = Progress::new();
        let tracker = Arc::new(Tracker::new(progress.clone()));
        let slot = Arc::new(Slot::default());
        let io = CountingIo::new(
            Trickle {
                budget,
                accepted: Vec::new(),
            },
            slot.clone(),
        );
        slot.set(Some(tracker.clone()));
        assert!(tracker.finds_head_boundary_in_writes());
        tracker.head_encoded();
        tracker.body_starts_at(body.as_ptr());
        (io, tracker, progress)
    }

    #[tokio::test]
    async fn a_vectored_write_reaching_the_body_proves_the_head_written_without_a_flush() {
        let head = b"POST / HTTP/1.1\r\ncontent-length: 4\r\n\r\n".to_vec();
        let body = b"ping".to_vec();
        let (mut io, _tracker, progress) = on_trickle(usize::MAX, &body);
        let n = io
            .write_vectored(&[io::IoSlice::new(&head), io::IoSlice::new(&body)])
            .await
            .unwrap();
        assert_eq!(n, head.len() + body.len());
        let seen = progress.snapshot();
        assert!(seen.head_written(), "the head left with the body");
        assert!(
            !seen.body_written(),
            "the body is not claimed before a flush"
        );
        assert_eq!(seen.stage(), Some(AttemptStage::WriteBody));
    }

    #[tokio::test]
    async fn a_write_that_stops_inside_the_head_does_not_claim_it() {
        let head = b"POST / HTTP/1.1\r\ncontent-length: 4\r\n\r\n".to_vec();
        let body = b"ping".to_vec();
        let (mut io, _tracker, progress) = on_trickle(head.len() - 1, &body);
        let n = io
            .write_vectored(&[io::IoSlice::new(&head), io::IoSlice::new(&body)])
            .await
            .unwrap();
        assert_eq!(n, head.len() - 1);
        assert!(
            !progress.snapshot().head_written(),
            "one head byte is missing"
        );
        // The rest of the head, then the body: the next write reaches it.
        io.inner.budget = 2;
        let m = io
            .write_vectored(&[io::IoSlice::new(&head[n..]), io::IoSlice::new(&body)])
            .await
            .unwrap();
        assert_eq!(m, 2, "the last head byte and the first body byte");
        let seen = progress.snapshot();
        assert!(seen.head_written());
        assert_eq!(seen.bytes_written(), head.len() as u64 + 1);
    }

    #[tokio::test]
    async fn buffers_that_do_not_hold_the_body_prove_nothing_about_the_head() {
        let head = b"POST / HTTP/1.1\r\ncontent-length: 4\r\n\r\n".to_vec();
        let body = b"ping".to_vec();
        // A copy of the body at another address is not the body hyper holds.
        let copy = body.clone();
        let (mut io, _tracker, progress) = on_trickle(usize::MAX, &body);
        let n = io
            .write_vectored(&[io::IoSlice::new(&head), io::IoSlice::new(&copy)])
            .await
            .unwrap();
        assert_eq!(n, head.len() + copy.len());
        assert!(!progress.snapshot().head_written());
    }
}
