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

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

/// A TCP stream behind an `Arc`, read and written through tokio's
/// `&TcpStream` readiness API.
#[derive(Debug)]
pub(crate) struct SharedTcp(Arc<TcpStream>);

impl SharedTcp {
    pub(crate) fn new(tcp: TcpStream) -> Self {
        SharedTcp(Arc::new(tcp))
    }

    /// A handle that does not keep the socket open.
    pub(crate) fn downgrade(&self) -> std::sync::Weak<TcpStream> {
        Arc::downgrade(&self.0)
    }
}

impl AsyncRead for SharedTcp {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        // Bounded: a `WouldBlock` clears the readiness, so the next
        // `poll_read_ready` returns `Pending` (and registers the waker).
        loop {
            ready!(self.0.poll_read_ready(cx))?;
            match self.0.try_read(buf.initialize_unfilled()) {
                Ok(n) => {
                    buf.advance(n);
                    return Poll::Ready(Ok(()));
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(e) => return Poll::Ready(Err(e)),
            }
        }
    }
}

impl AsyncWrite for SharedTcp {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        loop {
            ready!(self.0.poll_write_ready(cx))?;
            match self.0.try_write(buf) {
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
            ready!(self.0.poll_write_ready(cx))?;
            match self.0.try_write_vectored(bufs) {
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
        Poll::Ready(socket2::SockRef::from(&*self.0).shutdown(std::net::Shutdown::Write))
    }
}
