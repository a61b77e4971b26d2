//! Opening the connection of one attempt: resolve, connect, TLS, with the
//! core's engine-author kit (`evident_core::engine`: [`Origin`],
//! [`HostOverrides::resolve_blocking`], [`connect_blocking`]).
//!
//! Each step enters its stage *before* it can fail, so a failure there is
//! classified at a pre-write stage, which by itself proves that nothing was
//! sent. The TLS handshake is completed here, before any request byte is
//! written: a rejected certificate must fail at the `Tls` stage, never while
//! writing the head.

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::time::{Duration, Instant};

use evident_core::classify_helpers::socket_signal;
use evident_core::engine::{ConnectTiming, ErrorSite, Origin, connect_blocking};
use evident_core::tls::{read_plaintext, server_name};
use evident_core::{
    AttemptContext, AttemptStage, BoxError, EngineFailure, EngineSignal, HostOverrides,
};
use rustls::{ClientConfig, ClientConnection, StreamOwned};
use rustls_pki_types::ServerName;

/// The shortest socket timeout set: `set_read_timeout(Some(ZERO))` is an
/// error, and a budget this small is as good as spent.
const MIN_SOCKET_TIMEOUT: Duration = Duration::from_millis(1);

/// A TCP stream whose every read and write is bounded by the attempt's
/// deadline. A blocking call cannot be interrupted, so this is how the
/// core's attempt timeout reaches a blocking engine.
#[derive(Debug)]
pub struct Socket {
    tcp: TcpStream,
    deadline: Option<Instant>,
}

impl Socket {
    /// Sets the socket's timeouts to the time left, or fails with
    /// `TimedOut` when none is left.
    fn arm(&self) -> io::Result<()> {
        let Some(deadline) = self.deadline else {
            return Ok(());
        };
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::ErrorKind::TimedOut.into());
        }
        let left = left.max(MIN_SOCKET_TIMEOUT);
        self.tcp.set_read_timeout(Some(left))?;
        self.tcp.set_write_timeout(Some(left))
    }
}

impl Read for Socket {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.arm()?;
        self.tcp.read(buf)
    }
}

impl Write for Socket {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.arm()?;
        self.tcp.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.tcp.flush()
    }
}

/// An open connection: plain TCP, or TLS with the handshake complete.
#[derive(Debug)]
pub enum Conn {
    /// `http://`.
    Tcp(Socket),
    /// `https://`.
    Tls(Box<StreamOwned<ClientConnection, Socket>>),
}

impl Read for Conn {
    /// Reading writes nothing, over TLS too ([`read_plaintext`]): after a
    /// write failed because the server answered early and went away, the
    /// answer is read without retrying the records the write left. (This
    /// engine writes nothing after the request, so no record waits then.)
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Conn::Tcp(s) => s.read(buf),
            Conn::Tls(s) => read_plaintext(&mut s.conn, &mut s.sock, buf),
        }
    }
}

impl Write for Conn {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Conn::Tcp(s) => s.write(buf),
            Conn::Tls(s) => s.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Conn::Tcp(s) => s.flush(),
            Conn::Tls(s) => s.flush(),
        }
    }
}

/// Opens the connection for `uri`: resolves it (overrides first, bounded
/// by the deadline), connects with the core's Happy Eyeballs
/// ([`connect_blocking`]: the addresses raced, a silent one costing 250 ms,
/// not the attempt) and, for `https://`, completes the handshake on the
/// address's own connection. Which failure surfaces when every address
/// fails is [`ConnectFailures`](evident_core::ConnectFailures)' rule, the
/// one every adapter shares.
pub fn open(
    uri: &http::Uri,
    overrides: &HostOverrides,
    tls: &Arc<ClientConfig>,
    attempt: &AttemptContext,
) -> Result<Conn, EngineFailure> {
    let progress = attempt.progress();
    let deadline = attempt.deadline();
    let origin = Origin::from_uri(uri).map_err(EngineFailure::from)?;
    let addrs = overrides.resolve_blocking(origin.host(), origin.port(), deadline)?;
    let server_name = server_name(&origin)?;

    // A connection of this engine is never reused.
    progress.connection_reused(false);
    let (tls, on_thread) = (tls.clone(), progress.clone());
    // Each address's attempt, on a thread of its own: the rest of the
    // set-up on top of its TCP connection.
    let establish = move |_addr, tcp: TcpStream| {
        let socket = Socket::new(tcp, deadline).map_err(|e| failed(e, ErrorSite::Connect))?;
        let Some(name) = &server_name else {
            return Ok(Conn::Tcp(socket));
        };
        on_thread.enter(AttemptStage::Tls);
        handshake(socket, name.clone(), &tls)
            .map(|stream| Conn::Tls(Box::new(stream)))
            .map_err(|e| failed(e, ErrorSite::TlsHandshake))
    };
    connect_blocking(
        addrs,
        &ConnectTiming::default(),
        progress,
        deadline,
        establish,
    )
}

/// One address's failure at `site`.
fn failed(e: io::Error, site: ErrorSite) -> (EngineSignal, BoxError) {
    (socket_signal(&e, site), e.into())
}

impl Socket {
    /// A connected TCP stream, its reads and writes to be bounded by
    /// `deadline`.
    fn new(tcp: TcpStream, deadline: Option<Instant>) -> io::Result<Socket> {
        // Head and body are written separately; Nagle would only delay them.
        tcp.set_nodelay(true)?;
        Ok(Socket { tcp, deadline })
    }
}

/// Runs the whole TLS handshake; every socket call is bounded by the
/// deadline through [`Socket`].
fn handshake(
    mut socket: Socket,
    name: ServerName<'static>,
    config: &Arc<ClientConfig>,
) -> io::Result<StreamOwned<ClientConnection, Socket>> {
    let mut conn = ClientConnection::new(config.clone(), name).map_err(io::Error::other)?;
    while conn.is_handshaking() {
        // A rustls error (a rejected certificate, an alert) comes back as
        // `InvalidData` wrapping it; the peer's EOF as `UnexpectedEof`.
        conn.complete_io(&mut socket)?;
    }
    Ok(StreamOwned::new(conn, socket))
}
