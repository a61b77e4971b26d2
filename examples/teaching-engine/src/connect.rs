//! Opening the connection of one attempt: resolve, connect, TLS.
//!
//! Each step enters its stage *before* it can fail, so a failure there is
//! classified at a pre-write stage, which by itself proves that nothing was
//! sent. The TLS handshake is completed here, before any request byte is
//! written: a rejected certificate must fail at the `Tls` stage, never while
//! writing the head.

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::sync::Arc;
use std::time::{Duration, Instant};

use evident_core::errors::is_name_not_found;
use evident_core::{
    AttemptContext, AttemptStage, BoxError, ConnectFailures, EngineFailure, EngineSignal,
    HostOverride, HostOverrides,
};
use rustls::{ClientConfig, ClientConnection, StreamOwned};
use rustls_pki_types::ServerName;

use crate::classify::{Step, signal};

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
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Conn::Tcp(s) => s.read(buf),
            Conn::Tls(s) => s.read(buf),
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

/// Opens the connection for `uri`: resolves it (overrides first), tries
/// each address in order and, for `https://`, completes the handshake.
/// Which failure surfaces when every address fails is
/// [`ConnectFailures`]' rule, the one every adapter shares.
pub fn open(
    uri: &http::Uri,
    overrides: &HostOverrides,
    tls: &Arc<ClientConfig>,
    attempt: &AttemptContext,
) -> Result<Conn, EngineFailure> {
    let progress = attempt.progress();
    let https = match uri.scheme_str() {
        Some("http") => false,
        Some("https") => true,
        _ => {
            return Err(EngineFailure::new(
                EngineSignal::Other,
                "not an http(s) URI",
            ));
        }
    };
    let host = uri.host().unwrap_or_default();
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let port = uri.port_u16().unwrap_or(if https { 443 } else { 80 });
    let addrs = resolve(host, port, overrides)?;
    let server_name = match https {
        false => None,
        true => match ServerName::try_from(host.to_owned()) {
            Ok(name) => Some(name),
            Err(e) => return Err(EngineFailure::new(EngineSignal::Other, e)),
        },
    };

    // A connection of this engine is never reused.
    progress.connection_reused(false);
    let mut failures: ConnectFailures<BoxError> = ConnectFailures::new();
    for addr in addrs {
        progress.enter(AttemptStage::Connect);
        let tcp = match connect_tcp(addr, attempt.deadline()) {
            Ok(tcp) => tcp,
            Err(e) => {
                failures.push(signal(&e, Step::Connect), e.into());
                continue;
            }
        };
        let Some(name) = &server_name else {
            return Ok(Conn::Tcp(tcp));
        };
        progress.enter(AttemptStage::Tls);
        match handshake(tcp, name.clone(), tls) {
            Ok(stream) => return Ok(Conn::Tls(Box::new(stream))),
            Err(e) => failures.push(signal(&e, Step::Handshake), e.into()),
        }
    }
    Err(match failures.into_surfaced() {
        Some((signal, error)) => EngineFailure::new(signal, error),
        None => EngineFailure::new(EngineSignal::NameNotFound, "no address to connect to"),
    })
}

/// The addresses of `host`: the overrides first, then the system resolver.
fn resolve(
    host: &str,
    port: u16,
    overrides: &HostOverrides,
) -> Result<Vec<SocketAddr>, EngineFailure> {
    match overrides.lookup(host) {
        Some(HostOverride::Addrs(ips)) => {
            Ok(ips.iter().map(|ip| SocketAddr::new(*ip, port)).collect())
        }
        Some(HostOverride::NotFound) => Err(EngineFailure::new(
            EngineSignal::NameNotFound,
            format!("{host} does not exist (host override)"),
        )),
        None => match (host, port).to_socket_addrs() {
            Ok(addrs) => Ok(addrs.collect()),
            // Only "no such name" is permanent; a temporary resolver
            // failure stays an I/O error.
            Err(e) if is_name_not_found(&e) => {
                Err(EngineFailure::new(EngineSignal::NameNotFound, e))
            }
            Err(e) => Err(EngineFailure::new(EngineSignal::Io(e.kind()), e)),
        },
    }
}

/// TCP connect, bounded by the deadline.
fn connect_tcp(addr: SocketAddr, deadline: Option<Instant>) -> io::Result<Socket> {
    let tcp = match deadline {
        None => TcpStream::connect(addr)?,
        Some(d) => {
            let left = d.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(io::ErrorKind::TimedOut.into());
            }
            TcpStream::connect_timeout(&addr, left)?
        }
    };
    // Head and body are written separately; Nagle would only delay them.
    tcp.set_nodelay(true)?;
    Ok(Socket { tcp, deadline })
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
