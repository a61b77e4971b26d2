//! The TCP socket of a connection, shared without duplicating its file
//! descriptor.
//!
//! The pool looks at an idle HTTP/1.1 connection's socket at checkout (see
//! `IdleProbe`), while hyper's connection task owns the stream. A `dup`ed
//! descriptor would do, but every idle socket would then hold two
//! descriptors, and the socket would stay open as long as the pool's copy
//! lives even after hyper closed its own. Instead the stream lives in an
//! `Arc`: the connection task holds the only strong handle, the probe a
//! weak one. One descriptor per socket, closed as soon as the connection
//! task ends.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};

use tokio::io::{AsyncRead, AsyncWrite, Interest, ReadBuf};
use tokio::net::TcpStream;

/// The most one read asks of the socket: far above an ordinary response
/// read, and the most the read scratch (see [`SharedTcp`]) grows to.
const MAX_READ_BYTES: usize = 64 * 1024;

/// A TCP stream behind an `Arc`, read and written through tokio's
/// `&TcpStream` readiness API.
///
/// A read goes through a scratch buffer of the connection's own, zeroed
/// once as it grows, and only the bytes read are copied into the caller's
/// buffer. hyper hands its read buffer over uninitialised, and this crate
/// has no `unsafe` to read into it as it is: initialising it on every read
/// would zero 8 KiB or more per response, where the copy touches only what
/// arrived.
#[derive(Debug)]
pub(crate) struct SharedTcp {
    tcp: Arc<TcpStream>,
    scratch: Vec<u8>,
}

impl SharedTcp {
    pub(crate) fn new(tcp: TcpStream) -> Self {
        SharedTcp {
            tcp: Arc::new(tcp),
            scratch: Vec::new(),
        }
    }

    /// The socket.
    pub(crate) fn stream(&self) -> &TcpStream {
        &self.tcp
    }

    /// A handle that does not keep the socket open.
    pub(crate) fn downgrade(&self) -> std::sync::Weak<TcpStream> {
        Arc::downgrade(&self.tcp)
    }
}

impl AsyncRead for SharedTcp {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let want = buf.remaining().min(MAX_READ_BYTES);
        if this.scratch.len() < want {
            this.scratch.resize(want, 0);
        }
        // Bounded: a `WouldBlock` clears the readiness, so the next
        // `poll_read_ready` returns `Pending` (and registers the waker).
        loop {
            ready!(this.tcp.poll_read_ready(cx))?;
            let dst = &mut this.scratch[..want];
            match drained_if_short(&this.tcp, Interest::READABLE, want, || {
                this.tcp.try_read(dst)
            }) {
                Ok(n) => {
                    buf.put_slice(&this.scratch[..n]);
                    return Poll::Ready(Ok(()));
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(e) => return Poll::Ready(Err(e)),
            }
        }
    }
}

/// Whether a short read or write proves the socket drained or full: true
/// with the edge-triggered selectors mio uses on these systems (epoll,
/// kqueue), false with level-triggered ones (tokio#5866). The same
/// condition as tokio's own `PollEvented`.
const SHORT_TRANSFER_DRAINS: bool = cfg!(all(
    not(mio_unsupported_force_poll_poll),
    any(
        target_os = "android",
        target_os = "illumos",
        target_os = "linux",
        target_os = "redox",
        target_os = "dragonfly",
        target_os = "freebsd",
        target_os = "ios",
        target_os = "macos",
        target_os = "netbsd",
        target_os = "openbsd",
        target_os = "tvos",
        target_os = "visionos",
        target_os = "watchos",
    )
));

/// Runs `io` (a read or write of `len` bytes) and, like tokio's own
/// `TcpStream`, takes a short transfer as proof that the socket is drained
/// (read) or full (write): its readiness is cleared, so the next poll waits
/// for the reactor instead of making a system call that can only fail with
/// `WouldBlock`. On the benchmark's keep-alive GETs that failing `recvfrom`
/// came once per request.
///
/// The readiness is cleared as of *before* the transfer (`try_io` takes its
/// snapshot first and clears only if no event arrived since), exactly as
/// tokio does, so data or room that arrives meanwhile is never missed. Like
/// tokio, only where mio's selector is edge-triggered (see
/// [`SHORT_TRANSFER_DRAINS`]).
fn drained_if_short(
    tcp: &TcpStream,
    interest: Interest,
    len: usize,
    io: impl FnOnce() -> io::Result<usize>,
) -> io::Result<usize> {
    if !SHORT_TRANSFER_DRAINS {
        return io();
    }
    let mut short = None;
    let result = tcp.try_io(interest, || match io()? {
        n if 0 < n && n < len => {
            short = Some(n);
            // Makes `try_io` clear the readiness it saw before the transfer.
            Err(io::ErrorKind::WouldBlock.into())
        }
        n => Ok(n),
    });
    match (result, short) {
        (_, Some(n)) => Ok(n),
        (result, None) => result,
    }
}

impl AsyncWrite for SharedTcp {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        loop {
            ready!(self.tcp.poll_write_ready(cx))?;
            match drained_if_short(&self.tcp, Interest::WRITABLE, buf.len(), || {
                self.tcp.try_write(buf)
            }) {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                result => return Poll::Ready(result),
            }
        }
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        loop {
            ready!(self.tcp.poll_write_ready(cx))?;
            let len = bufs.iter().map(|b| b.len()).sum();
            match drained_if_short(&self.tcp, Interest::WRITABLE, len, || {
                self.tcp.try_write_vectored(bufs)
            }) {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                result => return Poll::Ready(result),
            }
        }
    }

    fn is_write_vectored(&self) -> bool {
        true
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        // TCP keeps no user-space buffer: an accepted write is with the
        // kernel.
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        // What tokio's own `TcpStream::poll_shutdown` does.
        Poll::Ready(socket2::SockRef::from(&*self.tcp).shutdown(std::net::Shutdown::Write))
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpListener;

    use super::*;

    /// Reads larger than the scratch's limit, and buffers of every size
    /// around it, get every byte in order.
    #[tokio::test]
    async fn reads_through_the_scratch_lose_and_reorder_nothing() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let client = tokio::spawn(async move { TcpStream::connect(addr).await.unwrap() });
        let (mut server, _) = listener.accept().await.unwrap();
        let mut shared = SharedTcp::new(client.await.unwrap());
        let sent: Vec<u8> = (0..300 * 1024u32).map(|i| (i % 251) as u8).collect();
        let writer = {
            let sent = sent.clone();
            tokio::spawn(async move {
                server.write_all(&sent).await.unwrap();
                server.shutdown().await.unwrap();
            })
        };
        let mut got = Vec::new();
        for size in [
            1,
            100,
            MAX_READ_BYTES - 1,
            MAX_READ_BYTES,
            MAX_READ_BYTES + 1,
            200_000,
        ]
        .into_iter()
        .cycle()
        {
            let mut buf = vec![0u8; size];
            let n = shared.read(&mut buf).await.unwrap();
            if n == 0 {
                break;
            }
            assert!(n <= size.min(MAX_READ_BYTES));
            got.extend_from_slice(&buf[..n]);
        }
        writer.await.unwrap();
        assert_eq!(got, sent);
    }

    /// After a short read has cleared the readiness, data that arrives later
    /// still wakes the reader: the clearing never loses an edge.
    #[tokio::test]
    async fn data_arriving_after_a_short_read_still_wakes_the_reader() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let client = tokio::spawn(async move { TcpStream::connect(addr).await.unwrap() });
        let (mut server, _) = listener.accept().await.unwrap();
        let mut shared = SharedTcp::new(client.await.unwrap());

        let mut buf = [0u8; 64];
        for round in 0..50u8 {
            server.write_all(&[round; 5]).await.unwrap();
            // Short: 5 of 64 bytes. The next read must wait for the reactor
            // and still be woken by the next round's bytes.
            let n = shared.read(&mut buf).await.unwrap();
            assert_eq!(&buf[..n], &[round; 5][..n]);
            if n < 5 {
                let m = shared.read(&mut buf[n..]).await.unwrap();
                assert_eq!(n + m, 5);
            }
        }
        // A short write (a full send buffer) likewise waits and resumes.
        let big = vec![7u8; 8 << 20];
        let writer = tokio::spawn(async move {
            shared.write_all(&big).await.unwrap();
            shared
        });
        let mut received = 0;
        let mut sink = vec![0u8; 64 << 10];
        while received < 8 << 20 {
            received += server.read(&mut sink).await.unwrap();
        }
        writer.await.unwrap();
    }
}
