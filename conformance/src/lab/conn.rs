//! One accepted connection, plain or TLS, with the two ways to end it.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use rustls::ServerConfig;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::TcpStream;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::server::TlsStream;

/// Scratch size for reading and discarding what a peer sends.
const DRAIN_CHUNK: usize = 16 * 1024;

/// An accepted connection after its TLS handshake, if any.
#[derive(Debug)]
pub(crate) enum Conn {
    Plain(TcpStream),
    Tls(Box<TlsStream<TcpStream>>),
}

impl Conn {
    /// Completes the TLS handshake when `tls` is set.
    pub(crate) async fn accept(
        stream: TcpStream,
        tls: Option<&Arc<ServerConfig>>,
    ) -> io::Result<Self> {
        // Small writes (a partial head, a GOAWAY) must leave at once.
        stream.set_nodelay(true)?;
        match tls {
            None => Ok(Self::Plain(stream)),
            Some(config) => {
                let tls = TlsAcceptor::from(Arc::clone(config)).accept(stream).await?;
                Ok(Self::Tls(Box::new(tls)))
            }
        }
    }

    fn tcp(&self) -> &TcpStream {
        match self {
            Self::Plain(stream) => stream,
            Self::Tls(tls) => tls.get_ref().0,
        }
    }

    /// Ends the connection cleanly: TLS close_notify (if TLS), then FIN.
    pub(crate) async fn close(mut self) {
        let _ = self.shutdown().await;
    }

    /// Ends the connection with a TCP RST (SO_LINGER 0, then close); no TLS
    /// alert is sent.
    pub(crate) fn reset(self) {
        let _ = self.tcp().set_zero_linger();
        drop(self);
    }

    /// Reads and discards until the peer closes or an error occurs; for
    /// holding a connection without answering while still noticing when the
    /// client goes away.
    pub(crate) async fn drain_until_eof(&mut self) {
        let mut scratch = vec![0; DRAIN_CHUNK];
        while let Ok(n) = self.read(&mut scratch).await {
            if n == 0 {
                return;
            }
        }
    }
}

impl AsyncRead for Conn {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Self::Plain(s) => Pin::new(s).poll_read(cx, buf),
            Self::Tls(s) => Pin::new(s.as_mut()).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for Conn {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Self::Plain(s) => Pin::new(s).poll_write(cx, buf),
            Self::Tls(s) => Pin::new(s.as_mut()).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Self::Plain(s) => Pin::new(s).poll_flush(cx),
            Self::Tls(s) => Pin::new(s.as_mut()).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Self::Plain(s) => Pin::new(s).poll_shutdown(cx),
            Self::Tls(s) => Pin::new(s.as_mut()).poll_shutdown(cx),
        }
    }
}
