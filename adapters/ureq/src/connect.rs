//! Opening a connection: for each resolved address, TCP connect and, for
//! `https://`, the whole TLS handshake.
//!
//! ureq's own rustls connector leaves part of the handshake to the first
//! write, which would make a rejected certificate look like a failure while
//! writing the request head. This connector finishes the handshake before it
//! hands the connection to ureq, so every TLS failure happens at the `Tls`
//! stage, and it tries the addresses itself, so it knows which step of which
//! address failed. One address failing does not stop the loop; which failure
//! surfaces when all fail is [`ConnectFailures`]' rule, shared by every
//! adapter (a rejected certificate is never hidden by a later refusal).

use std::io;
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::{Duration, Instant};

use evident_core::{AttemptStage, BoxError, ConnectFailures, EngineSignal};
use rustls::{ClientConfig, ClientConnection, StreamOwned};
use rustls_pki_types::ServerName;
use ureq::unversioned::transport::{ConnectionDetails, Connector, LazyBuffers, NextTimeout};

use crate::attempt::{self, Attempt};
use crate::classify::{Classified, ErrorSite, classify_at};
use crate::transport::{CountingSocket, CountingTransport, Stream};

/// ureq's connector for this engine: TCP, then TLS completed in place.
#[derive(Debug)]
pub(crate) struct EvidentConnector {
    tls: Arc<ClientConfig>,
    connect_timeout_per_address: Duration,
}

impl EvidentConnector {
    pub(crate) fn new(tls: Arc<ClientConfig>, connect_timeout_per_address: Duration) -> Self {
        EvidentConnector {
            tls,
            connect_timeout_per_address,
        }
    }
}

impl Connector for EvidentConnector {
    type Out = CountingTransport;

    fn connect(
        &self,
        details: &ConnectionDetails<'_>,
        _chained: Option<()>,
    ) -> Result<Option<CountingTransport>, ureq::Error> {
        let current = attempt::current();
        let attempt = current.as_deref();
        if let Some(a) = attempt {
            a.progress.connection_reused(false);
            a.progress.enter(AttemptStage::Connect);
        }
        let deadline = deadline(details.timeout, attempt);
        let tls_name = if details.needs_tls() {
            let host = details.uri.host().unwrap_or_default();
            let host = host.trim_start_matches('[').trim_end_matches(']');
            match ServerName::try_from(host.to_owned()) {
                Ok(name) => Some(name),
                Err(e) => return Err(Classified::new(EngineSignal::Other, e).into_ureq()),
            }
        } else {
            None
        };

        let mut failures: ConnectFailures<BoxError> = ConnectFailures::new();
        let last = details.addrs.len().saturating_sub(1);
        for (index, addr) in details.addrs.iter().enumerate() {
            // A silent address must not eat the attempt: all but the last
            // get a bounded TCP handshake.
            let tcp_limit = (index < last).then_some(self.connect_timeout_per_address);
            let stream = match connect_one(
                *addr,
                tls_name.as_ref(),
                &self.tls,
                deadline,
                tcp_limit,
                attempt,
            ) {
                Ok(stream) => stream,
                Err((signal, error)) => {
                    failures.push(signal, error);
                    if deadline.is_some_and(|d| Instant::now() >= d) {
                        // No time left for another address.
                        break;
                    }
                    continue;
                }
            };
            let config = details.config;
            let buffers = LazyBuffers::new(config.input_buffer_size(), config.output_buffer_size());
            return Ok(Some(CountingTransport::new(stream, buffers)));
        }
        Err(match failures.into_surfaced() {
            Some((signal, error)) => Classified::new(signal, error),
            None => Classified::new(
                EngineSignal::NameNotFound,
                io::Error::new(io::ErrorKind::NotFound, "no address to connect to"),
            ),
        }
        .into_ureq())
    }
}

/// When connection set-up must be done: ureq's connect timeout or the
/// attempt deadline, whichever comes first.
fn deadline(timeout: NextTimeout, attempt: Option<&Attempt>) -> Option<Instant> {
    let ureqs = (!timeout.after.is_not_happening())
        .then(|| Instant::now().checked_add(*timeout.after))
        .flatten();
    match (ureqs, attempt.and_then(|a| a.deadline)) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Time left until `deadline`, or a timeout failure when none is.
fn left(deadline: Option<Instant>) -> Result<Option<Duration>, (EngineSignal, BoxError)> {
    match deadline {
        None => Ok(None),
        Some(d) => {
            let left = d.saturating_duration_since(Instant::now());
            if left.is_zero() {
                Err((
                    EngineSignal::TimedOut,
                    io::Error::new(io::ErrorKind::TimedOut, "connect deadline passed").into(),
                ))
            } else {
                Ok(Some(left))
            }
        }
    }
}

/// Connects to one address, and completes TLS when a name is given.
fn connect_one(
    addr: SocketAddr,
    tls_name: Option<&ServerName<'static>>,
    tls: &Arc<ClientConfig>,
    deadline: Option<Instant>,
    tcp_limit: Option<Duration>,
    attempt: Option<&Attempt>,
) -> Result<Stream, (EngineSignal, BoxError)> {
    let failed = |site| move |e: io::Error| (classify_at(&e, site), BoxError::from(e));
    let limit = match (left(deadline)?, tcp_limit) {
        (Some(left), Some(limit)) => Some(left.min(limit)),
        (left, limit) => left.or(limit),
    };
    let tcp = match limit {
        Some(limit) => TcpStream::connect_timeout(&addr, limit),
        None => TcpStream::connect(addr),
    }
    .map_err(failed(ErrorSite::Connect))?;
    // ureq hands whole buffers to the transport; Nagle would only delay them.
    let _ = tcp.set_nodelay(true);
    let Some(name) = tls_name else {
        return Ok(Stream::Tcp(tcp));
    };
    if let Some(a) = attempt {
        a.progress.enter(AttemptStage::Tls);
    }
    handshake(tcp, name.clone(), tls.clone(), deadline)
        .map(|tls| Stream::Tls(Box::new(tls)))
        .map_err(failed(ErrorSite::TlsHandshake))
}

/// Runs the whole TLS handshake on `tcp`, bounded by `deadline`.
fn handshake(
    tcp: TcpStream,
    name: ServerName<'static>,
    config: Arc<ClientConfig>,
    deadline: Option<Instant>,
) -> io::Result<StreamOwned<ClientConnection, CountingSocket>> {
    let mut conn = ClientConnection::new(config, name).map_err(io::Error::other)?;
    let mut sock = CountingSocket::new(tcp);
    while conn.is_handshaking() {
        let left = left(deadline).map_err(|_| io::Error::from(io::ErrorKind::TimedOut))?;
        sock.tcp().set_read_timeout(left)?;
        sock.tcp().set_write_timeout(left)?;
        // Reports the peer's EOF during the handshake as `UnexpectedEof`, and
        // a rustls error (a rejected certificate, an alert) as `InvalidData`
        // wrapping it.
        conn.complete_io(&mut sock)?;
    }
    Ok(StreamOwned::new(conn, sock))
}
