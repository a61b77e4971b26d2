//! Opening a connection: the core's Happy Eyeballs connect
//! ([`evident_core::engine::connect_blocking`]) over every resolved
//! address, each address's attempt being TCP and, for `https://`, the whole
//! TLS handshake.
//!
//! ureq's own rustls connector leaves part of the handshake to the first
//! write, which would make a rejected certificate look like a failure while
//! writing the request head. This connector finishes the handshake before it
//! hands the connection to ureq, so every TLS failure happens at the `Tls`
//! stage, and it leaves the addresses to the core's connect, so it knows
//! which step of which address failed. A silent first address costs the
//! Connection Attempt Delay (250 ms by default), not the attempt; which
//! failure surfaces when all fail is [`evident_core::ConnectFailures`]'
//! rule, shared by every adapter (a rejected certificate is never hidden by
//! a refusal).

use std::io;
use std::net::TcpStream;
use std::sync::Arc;
use std::time::{Duration, Instant};

use evident_core::engine::{ConnectTiming, Origin};
use evident_core::{AttemptStage, BoxError, EngineSignal, ErrorSite, Progress};
use rustls::{ClientConfig, ClientConnection, StreamOwned};
use rustls_pki_types::ServerName;
use ureq::unversioned::transport::{ConnectionDetails, Connector, LazyBuffers, NextTimeout};

use crate::attempt::{self, Attempt};
use crate::classify::{Classified, classify_at};
use crate::resolve::into_ureq;
use crate::transport::{CountingSocket, CountingTransport, Stream};

/// ureq's connector for this engine: TCP, then TLS completed in place.
#[derive(Debug)]
pub(crate) struct EvidentConnector {
    tls: Arc<ClientConfig>,
    timing: ConnectTiming,
}

impl EvidentConnector {
    pub(crate) fn new(tls: Arc<ClientConfig>, timing: ConnectTiming) -> Self {
        EvidentConnector { tls, timing }
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
        // Outside an attempt (never, through the engine), a record nobody
        // reads.
        let progress = attempt.map_or_else(Progress::new, |a| a.progress.clone());
        progress.connection_reused(false);
        let deadline = deadline(details.timeout, attempt);
        let tls_name = if details.needs_tls() {
            let origin = Origin::from_uri(details.uri)
                .map_err(|e| Classified::new(EngineSignal::Other, e).into_ureq())?;
            evident_core::tls::server_name(&origin).map_err(|e| {
                let signal = e.signal();
                Classified::new(signal, e).into_ureq()
            })?
        } else {
            None
        };
        let tls = self.tls.clone();
        let on_thread = progress.clone();
        let stream = evident_core::engine::connect_blocking(
            details.addrs.to_vec(),
            &self.timing,
            &progress,
            deadline,
            move |_addr, tcp| establish(tcp, tls_name.as_ref(), &tls, deadline, &on_thread),
        )
        .map_err(into_ureq)?;
        let config = details.config;
        let buffers = LazyBuffers::new(config.input_buffer_size(), config.output_buffer_size());
        Ok(Some(CountingTransport::new(stream, buffers)))
    }
}

/// When connection set-up must be done: ureq's timeout for the step or the
/// attempt deadline, whichever comes first.
pub(crate) fn deadline(timeout: NextTimeout, attempt: Option<&Attempt>) -> Option<Instant> {
    let ureqs = (!timeout.after.is_not_happening())
        .then(|| Instant::now().checked_add(*timeout.after))
        .flatten();
    match (ureqs, attempt.and_then(|a| a.deadline)) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Time left until `deadline`, or `TimedOut` when none is.
fn left(deadline: Option<Instant>) -> io::Result<Option<Duration>> {
    match deadline {
        None => Ok(None),
        Some(d) => {
            let left = d.saturating_duration_since(Instant::now());
            if left.is_zero() {
                Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "connect deadline passed",
                ))
            } else {
                Ok(Some(left))
            }
        }
    }
}

/// One address's set-up on its connected `tcp`: the whole TLS handshake
/// when a name is given.
fn establish(
    tcp: TcpStream,
    tls_name: Option<&ServerName<'static>>,
    tls: &Arc<ClientConfig>,
    deadline: Option<Instant>,
    progress: &Progress,
) -> Result<Stream, (EngineSignal, BoxError)> {
    // ureq hands whole buffers to the transport; Nagle would only delay them.
    let _ = tcp.set_nodelay(true);
    let Some(name) = tls_name else {
        return Ok(Stream::Tcp(tcp));
    };
    progress.enter(AttemptStage::Tls);
    handshake(tcp, name.clone(), tls.clone(), deadline)
        .map(|tls| Stream::Tls(Box::new(tls)))
        .map_err(|e| (classify_at(&e, ErrorSite::TlsHandshake), e.into()))
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
        let left = left(deadline)?;
        sock.tcp().set_read_timeout(left)?;
        sock.tcp().set_write_timeout(left)?;
        // Reports the peer's EOF during the handshake as `UnexpectedEof`, and
        // a rustls error (a rejected certificate, an alert) as `InvalidData`
        // wrapping it.
        conn.complete_io(&mut sock)?;
    }
    Ok(StreamOwned::new(conn, sock))
}
