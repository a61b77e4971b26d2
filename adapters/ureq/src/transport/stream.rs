//! The streams a transport runs on: plain TCP, or TLS over a TCP socket
//! that counts what the kernel accepted.

use std::io::{self, Read, Write};
use std::net::TcpStream;

use rustls::{ClientConnection, StreamOwned};

/// A TCP stream that counts the bytes the kernel accepted, so a failed TLS
/// write can tell whether any record left.
#[derive(Debug)]
pub(crate) struct CountingSocket {
    tcp: TcpStream,
    /// Bytes the kernel accepted.
    pub(super) written: u64,
}

impl CountingSocket {
    pub(crate) fn new(tcp: TcpStream) -> Self {
        CountingSocket { tcp, written: 0 }
    }

    pub(crate) fn tcp(&self) -> &TcpStream {
        &self.tcp
    }
}

impl Read for CountingSocket {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.tcp.read(buf)
    }
}

impl Write for CountingSocket {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.tcp.write(buf)?;
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.tcp.flush()
    }
}

/// A TLS session over a counting socket, handshake complete.
pub(crate) type TlsStream = StreamOwned<ClientConnection, CountingSocket>;

/// The stream under a transport.
pub(crate) enum Stream {
    /// Plain TCP (`http://`).
    Tcp(TcpStream),
    /// TLS (`https://`), handshake complete.
    Tls(Box<TlsStream>),
    /// Plain TCP whose writes block until a test releases them.
    #[cfg(test)]
    Gated(super::tests::GatedTcp),
}

impl Stream {
    pub(super) fn tcp(&self) -> &TcpStream {
        match self {
            Stream::Tcp(tcp) => tcp,
            Stream::Tls(tls) => tls.sock.tcp(),
            #[cfg(test)]
            Stream::Gated(gated) => &gated.tcp,
        }
    }
}
