//! An I/O handle shared between the h2 server and the lab's raw frame
//! writer.
//!
//! h2 owns its I/O and has no `into_inner`, yet some faults (a GOAWAY whose
//! last-stream-id is *below* a stream h2 already received) are frames h2
//! never writes. The lab lets h2 read and decode the request, stops driving
//! it, and writes the remaining frames itself through a second handle to
//! the same connection. Only one side is ever polled at a time.

use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// A clonable handle to one connection.
#[derive(Debug)]
pub(crate) struct SharedIo<T> {
    inner: Arc<Mutex<T>>,
}

impl<T> SharedIo<T> {
    pub(crate) fn new(io: T) -> Self {
        Self {
            inner: Arc::new(Mutex::new(io)),
        }
    }

    pub(crate) fn handle(&self) -> Self {
        Self {
            inner: Arc::clone(&self.inner),
        }
    }

    fn lock(&self) -> MutexGuard<'_, T> {
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for SharedIo<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut *self.lock()).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for SharedIo<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut *self.lock()).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut *self.lock()).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut *self.lock()).poll_shutdown(cx)
    }
}
