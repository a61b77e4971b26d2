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
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::task::{Context, Poll, Waker};

use evident_core::engine::{EARLY_ANSWER_LIMIT, early_answer_ended, peer_went_away};
use evident_core::tls::read_plaintext;
use evident_core::{AttemptSealed, Progress};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio_rustls::client::TlsStream;

use crate::socket::SharedTcp;

/// A connected stream: plain TCP or TLS over TCP.
#[derive(Debug)]
pub(crate) enum Transport {
    Tcp(SharedTcp),
    Tls(Box<TlsStream<SharedTcp>>),
}

impl Transport {
    /// The TCP stream under any TLS.
    pub(crate) fn tcp(&self) -> &SharedTcp {
        match self {
            Transport::Tcp(s) => s,
            Transport::Tls(s) => s.get_ref().0,
        }
    }
}

/// A weak handle on an idle connection's socket, to look at it without
/// reading: an idle HTTP/1.1 connection must have nothing to read. Waiting
/// for hyper's connection task to notice the peer's close is a race the
/// request can lose (it would then be written into a dead connection and
/// end ambiguous); looking at the socket itself at checkout is not. The
/// handle is weak and no descriptor is duplicated (see [`SharedTcp`]).
#[derive(Debug)]
pub(crate) struct IdleProbe {
    socket: Weak<TcpStream>,
}

impl IdleProbe {
    /// A probe on `tcp`.
    pub(crate) fn new(tcp: &SharedTcp) -> Self {
        IdleProbe {
            socket: tcp.downgrade(),
        }
    }

    /// Whether the idle connection can no longer serve a request: the peer
    /// closed it, sent something no request asked for (a close_notify,
    /// stray bytes), or hyper's connection task already dropped the socket.
    pub(crate) fn peer_went_away(&self) -> bool {
        let Some(socket) = self.socket.upgrade() else {
            return true;
        };
        let mut byte = [std::mem::MaybeUninit::<u8>::uninit(); 1];
        match socket2::SockRef::from(&*socket).peek(&mut byte) {
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
    /// The connection read bytes after the whole head was accepted: the
    /// answer had begun to arrive.
    answer_arrived: AtomicBool,
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
            answer_arrived: AtomicBool::new(false),
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

    /// Whether the request in the slot had its whole head accepted: only
    /// then can bytes the server sent be its answer.
    fn head_accepted(&self) -> bool {
        self.current
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
            .is_some_and(|t| t.head_flushed())
    }

    /// The connection read bytes: once the slot's request had its head
    /// accepted, they are its answer.
    fn read_some(&self) {
        if let Some(t) = &*self.current.lock().unwrap_or_else(PoisonError::into_inner)
            && t.head_flushed()
        {
            t.answer_arrived.store(true, Ordering::Release);
        }
    }

    /// Whether the answer of the request in the slot had begun to arrive.
    fn answer_arrived(&self) -> bool {
        self.current
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
            .is_some_and(|t| t.answer_arrived.load(Ordering::Acquire))
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
///
/// # Answers that arrive while the request is still being written
///
/// A server may answer before it read the whole request and then close or
/// reset (RFC 9112 §9.6: a 413, or a 200 after acting on a prefix). The
/// answer reaches the socket before the reset does, but hyper's dispatcher
/// writes again before it learns the socket is readable, and the write's
/// error wins: the caller would be told the upload failed, and a request
/// the server executed would look unanswered. So when a write (or flush)
/// fails because the peer closed or reset, after the request's whole head
/// was accepted (only then can an answer be this request's), the layer
/// reads what the server sent first. If it sent anything, the write side
/// is over: the bytes read are served to hyper's next reads, and every
/// later write is swallowed (reported accepted, never counted, no progress
/// fact), so hyper goes on to read the answer. If the server sent nothing,
/// the write error stands. The connection is never reused (its request was
/// not fully written).
#[derive(Debug)]
pub(crate) struct CountingIo<T> {
    inner: T,
    slot: Arc<Slot>,
    /// Read ahead after the write side broke: served before the stream.
    early: Vec<u8>,
    /// The write side broke after the server had answered: the peer went
    /// away (a reset, which only the failed write saw; the socket reads
    /// its end as a plain EOF after it), so the end of what it sent is
    /// that reset.
    write_side_over: bool,
}

/// Reading what the peer already sent, at once.
///
/// Through the runtime, a read is tried only once the runtime has learnt
/// that the socket is readable; right after a failed write it may not have
/// yet (the answer and the reset arrive together), and the answer would be
/// missed. A stream that can read its socket directly does so.
pub(crate) trait ReadNow {
    /// Appends to `out`, up to `limit` bytes, what can be read now; stops at
    /// the end of the stream, at an error, or when nothing more is there.
    fn read_now(&mut self, cx: &mut Context<'_>, out: &mut Vec<u8>, limit: usize);
}

/// [`ReadNow`] through `poll_read`, for streams without a socket of their
/// own (test streams).
#[cfg(test)]
pub(crate) fn read_now_polling<T: AsyncRead + Unpin>(
    stream: &mut T,
    cx: &mut Context<'_>,
    out: &mut Vec<u8>,
    limit: usize,
) {
    let mut scratch = [0u8; 8 * 1024];
    while out.len() < limit {
        let mut buf = ReadBuf::new(&mut scratch);
        match Pin::new(&mut *stream).poll_read(cx, &mut buf) {
            Poll::Ready(Ok(())) if !buf.filled().is_empty() => {
                out.extend_from_slice(buf.filled());
            }
            _ => break,
        }
    }
}

/// A socket read directly (non-blocking: tokio's sockets are), bypassing
/// the runtime's readiness.
struct DirectRead<'a>(&'a TcpStream);

impl io::Read for DirectRead<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let socket = socket2::SockRef::from(self.0);
        io::Read::read(&mut &*socket, buf)
    }
}

impl ReadNow for Transport {
    fn read_now(&mut self, _cx: &mut Context<'_>, out: &mut Vec<u8>, limit: usize) {
        let mut scratch = [0u8; 8 * 1024];
        match self {
            Transport::Tcp(tcp) => {
                let mut socket = DirectRead(tcp.stream());
                while out.len() < limit {
                    match io::Read::read(&mut socket, &mut scratch) {
                        Ok(n) if n > 0 => out.extend_from_slice(&scratch[..n]),
                        _ => break,
                    }
                }
            }
            Transport::Tls(tls) => {
                let (tcp, conn) = tls.get_mut();
                let mut socket = DirectRead(tcp.stream());
                while out.len() < limit {
                    match read_plaintext(conn, &mut socket, &mut scratch) {
                        Ok(n) if n > 0 => out.extend_from_slice(&scratch[..n]),
                        // A clean or an abrupt end, or nothing more yet.
                        _ => break,
                    }
                }
            }
        }
    }
}

impl<T: AsyncRead + ReadNow + Unpin> CountingIo<T> {
    /// After a write failed with `error`: reads what the server sent before
    /// it went away. `true` when it sent something (the write side is then
    /// over and the error is swallowed).
    fn read_early_answer(&mut self, cx: &mut Context<'_>, error: &io::Error) -> bool {
        if !peer_went_away(error.kind()) || !self.slot.head_accepted() {
            return false;
        }
        self.inner.read_now(cx, &mut self.early, EARLY_ANSWER_LIMIT);
        // What the server sent is the answer: read now, or already read
        // (hyper may have the head, and part of the body, before the write
        // that meets the reset).
        if self.early.is_empty() && !self.slot.answer_arrived() {
            return false;
        }
        self.write_side_over = true;
        // hyper may not poll its read side again in this turn: make sure
        // it does, to find the answer.
        cx.waker().wake_by_ref();
        true
    }
}

impl<T: AsyncWrite> CountingIo<T> {
    /// Counts for the request in `slot`. hyper queues body buffers apart
    /// from the head exactly when the stream writes vectored, so that is
    /// when the head boundary can be found in writes.
    pub(crate) fn new(inner: T, slot: Arc<Slot>) -> Self {
        slot.vectored
            .store(inner.is_write_vectored(), Ordering::Release);
        CountingIo {
            inner,
            slot,
            early: Vec::new(),
            write_side_over: false,
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for CountingIo<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if !this.early.is_empty() {
            let n = this.early.len().min(buf.remaining());
            buf.put_slice(&this.early[..n]);
            this.early.drain(..n);
            return Poll::Ready(Ok(()));
        }
        let before = buf.filled().len();
        match Pin::new(&mut this.inner).poll_read(cx, buf) {
            Poll::Ready(Ok(())) if buf.filled().len() > before => {
                this.slot.read_some();
                Poll::Ready(Ok(()))
            }
            // After an early answer the connection's end is the reset the
            // failed write met, not a clean close.
            Poll::Ready(Ok(())) if this.write_side_over && buf.remaining() > 0 => {
                Poll::Ready(Err(early_answer_ended(None)))
            }
            Poll::Ready(Err(e)) if this.write_side_over => {
                Poll::Ready(Err(early_answer_ended(Some(e))))
            }
            polled => polled,
        }
    }
}

impl<T: AsyncRead + AsyncWrite + ReadNow + Unpin> AsyncWrite for CountingIo<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.write_side_over {
            return Poll::Ready(Ok(buf.len()));
        }
        if let Err(e) = this.slot.start_write() {
            return Poll::Ready(Err(e));
        }
        let polled = Pin::new(&mut this.inner).poll_write(cx, buf);
        match polled {
            Poll::Ready(Ok(n)) => this.slot.with(|t| t.wrote(n)),
            Poll::Ready(Err(ref e)) if this.read_early_answer(cx, e) => {
                return Poll::Ready(Ok(buf.len()));
            }
            _ => {}
        }
        polled
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.write_side_over {
            return Poll::Ready(Ok(bufs.iter().map(|b| b.len()).sum()));
        }
        if let Err(e) = this.slot.start_write() {
            return Poll::Ready(Err(e));
        }
        let head_end = this.slot.head_bytes_before_body(bufs);
        let polled = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        match polled {
            Poll::Ready(Ok(n)) => this.slot.with(|t| {
                t.wrote(n);
                if head_end.is_some_and(|head_end| n >= head_end) {
                    t.head_accepted();
                }
            }),
            Poll::Ready(Err(ref e)) if this.read_early_answer(cx, e) => {
                return Poll::Ready(Ok(bufs.iter().map(|b| b.len()).sum()));
            }
            _ => {}
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
        if this.write_side_over {
            // Nothing is moved, and no fact follows from it.
            return Poll::Ready(Ok(()));
        }
        if let Err(e) = this.slot.refuse_if_sealed() {
            return Poll::Ready(Err(e));
        }
        let polled = Pin::new(&mut this.inner).poll_flush(cx);
        match polled {
            Poll::Ready(Ok(())) => this.slot.with(Tracker::flushed),
            Poll::Ready(Err(ref e)) if this.read_early_answer(cx, e) => {
                return Poll::Ready(Ok(()));
            }
            _ => {}
        }
        polled
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use evident_core::AttemptStage;
    use tokio::io::AsyncWriteExt;

    /// A stream that takes every write and has nothing to read.
    #[derive(Default)]
    pub(crate) struct WriteOnly(pub(crate) Vec<u8>);

    impl AsyncRead for WriteOnly {
        fn poll_read(
            self: Pin<&mut Self>,
            _cx: &mut Context<'_>,
            _buf: &mut ReadBuf<'_>,
        ) -> Poll<io::Result<()>> {
            Poll::Ready(Ok(()))
        }
    }

    impl ReadNow for WriteOnly {
        fn read_now(&mut self, cx: &mut Context<'_>, out: &mut Vec<u8>, limit: usize) {
            read_now_polling(self, cx, out, limit);
        }
    }

    impl AsyncWrite for WriteOnly {
        fn poll_write(
            self: Pin<&mut Self>,
            cx: &mut Context<'_>,
            buf: &[u8],
        ) -> Poll<io::Result<usize>> {
            Pin::new(&mut self.get_mut().0).poll_write(cx, buf)
        }

        fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
            Poll::Ready(Ok(()))
        }

        fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
            Poll::Ready(Ok(()))
        }
    }

    fn counting() -> (CountingIo<WriteOnly>, Arc<Tracker>, Progress) {
        let progress = Progress::new();
        let tracker = Arc::new(Tracker::new(progress.clone()));
        let slot = Arc::new(Slot::default());
        slot.set(Some(tracker.clone()));
        (
            CountingIo::new(WriteOnly::default(), slot),
            tracker,
            progress,
        )
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

    impl AsyncRead for Trickle {
        fn poll_read(
            self: Pin<&mut Self>,
            _cx: &mut Context<'_>,
            _buf: &mut ReadBuf<'_>,
        ) -> Poll<io::Result<()>> {
            Poll::Ready(Ok(()))
        }
    }

    impl ReadNow for Trickle {
        fn read_now(&mut self, cx: &mut Context<'_>, out: &mut Vec<u8>, limit: usize) {
            read_now_polling(self, cx, out, limit);
        }
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

    /// A peer that takes `limit` bytes, then resets. What it sent before
    /// the reset (`answer`) becomes readable only once a write failed: as
    /// when the runtime learns of the answer and the reset together, after
    /// hyper already decided to write again.
    pub(crate) struct AnswersThenResets {
        pub(crate) limit: usize,
        pub(crate) taken: usize,
        pub(crate) answer: Vec<u8>,
        pub(crate) reset_seen: bool,
    }

    impl AnswersThenResets {
        pub(crate) fn new(limit: usize, answer: &[u8]) -> Self {
            AnswersThenResets {
                limit,
                taken: 0,
                answer: answer.to_vec(),
                reset_seen: false,
            }
        }
    }

    fn reset() -> io::Error {
        io::Error::from(io::ErrorKind::ConnectionReset)
    }

    impl AsyncRead for AnswersThenResets {
        fn poll_read(
            self: Pin<&mut Self>,
            _cx: &mut Context<'_>,
            buf: &mut ReadBuf<'_>,
        ) -> Poll<io::Result<()>> {
            let this = self.get_mut();
            if !this.reset_seen {
                // Not yet known readable; a failing write will reveal it.
                return Poll::Pending;
            }
            if this.answer.is_empty() {
                return Poll::Ready(Err(reset()));
            }
            let n = this.answer.len().min(buf.remaining());
            buf.put_slice(&this.answer[..n]);
            this.answer.drain(..n);
            Poll::Ready(Ok(()))
        }
    }

    impl ReadNow for AnswersThenResets {
        fn read_now(&mut self, cx: &mut Context<'_>, out: &mut Vec<u8>, limit: usize) {
            read_now_polling(self, cx, out, limit);
        }
    }

    impl AsyncWrite for AnswersThenResets {
        fn poll_write(
            self: Pin<&mut Self>,
            _cx: &mut Context<'_>,
            buf: &[u8],
        ) -> Poll<io::Result<usize>> {
            let this = self.get_mut();
            if this.taken >= this.limit {
                this.reset_seen = true;
                return Poll::Ready(Err(reset()));
            }
            let n = buf.len().min(this.limit - this.taken);
            this.taken += n;
            Poll::Ready(Ok(n))
        }

        fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
            if self.reset_seen {
                Poll::Ready(Err(reset()))
            } else {
                Poll::Ready(Ok(()))
            }
        }

        fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
            Poll::Ready(Ok(()))
        }
    }

    const EARLY_413: &[u8] =
        b"HTTP/1.1 413 Payload Too Large\r\ncontent-length: 0\r\nconnection: close\r\n\r\n";

    fn on_resetting_peer(answer: &[u8]) -> (CountingIo<AnswersThenResets>, Arc<Tracker>, Progress) {
        let progress = Progress::new();
        let tracker = Arc::new(Tracker::new(progress.clone()));
        let slot = Arc::new(Slot::default());
        slot.set(Some(tracker.clone()));
        let io = CountingIo::new(AnswersThenResets::new(40, answer), slot);
        tracker.head_encoded();
        (io, tracker, progress)
    }

    #[tokio::test]
    async fn an_answer_sent_before_the_reset_wins_over_the_failed_write() {
        use tokio::io::AsyncReadExt;
        let (mut io, _tracker, progress) = on_resetting_peer(EARLY_413);
        io.write_all(b"POST / HTTP/1.1\r\ncontent-length: 99\r\n\r\n")
            .await
            .unwrap();
        io.flush().await.unwrap();
        assert!(progress.snapshot().head_written());
        let counted = progress.snapshot().bytes_written();
        // The peer reset: the write is swallowed, the answer is read first.
        io.write_all(&[0u8; 99]).await.unwrap();
        io.flush().await.unwrap();
        let mut answer = vec![0u8; EARLY_413.len()];
        io.read_exact(&mut answer).await.unwrap();
        assert_eq!(answer, EARLY_413);
        // Nothing after the break counts as written.
        let seen = progress.snapshot();
        assert!(!seen.body_written(), "the body never left whole");
        assert_eq!(seen.bytes_written(), counted.max(40));
    }

    #[tokio::test]
    async fn a_reset_with_nothing_sent_before_it_stays_a_failed_write() {
        let (mut io, _tracker, progress) = on_resetting_peer(b"");
        io.write_all(b"POST / HTTP/1.1\r\ncontent-length: 99\r\n\r\n")
            .await
            .unwrap();
        io.flush().await.unwrap();
        let failed = io.write_all(&[0u8; 99]).await.unwrap_err();
        assert_eq!(failed.kind(), io::ErrorKind::ConnectionReset);
        assert!(!progress.snapshot().body_written());
    }

    #[tokio::test]
    async fn bytes_before_this_requests_head_was_accepted_are_no_answer_to_it() {
        // The head itself meets the reset: whatever the peer sent was not
        // an answer to this request (it never read it whole).
        let progress = Progress::new();
        let tracker = Arc::new(Tracker::new(progress.clone()));
        let slot = Arc::new(Slot::default());
        slot.set(Some(tracker.clone()));
        let mut io = CountingIo::new(AnswersThenResets::new(10, EARLY_413), slot);
        tracker.head_encoded();
        let failed = io
            .write_all(b"POST / HTTP/1.1\r\ncontent-length: 99\r\n\r\n")
            .await
            .unwrap_err();
        assert_eq!(failed.kind(), io::ErrorKind::ConnectionReset);
        assert!(!progress.snapshot().head_written());
    }
}
