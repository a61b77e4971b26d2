//! Opening a connection: resolve, then for each address TCP connect, TLS
//! (for `https://`, ALPN choosing the protocol) and the protocol handshake.
//!
//! One address failing does not stop the loop; which failure surfaces when
//! all fail is decided by [`ConnectFailures`], the rule every adapter
//! shares (a rejected certificate is never hidden by a later refusal).
//!
//! A silent address (a black-holed route, a host that drops SYNs) must not
//! eat the whole attempt: every address but the last gets at most the
//! per-address connect timeout for its TCP handshake, then the next one is
//! tried. The last address is bounded only by the core's attempt timeout.

use std::net::SocketAddr;
use std::time::Duration;

use evident_core::{
    AttemptStage, BoxError, ConnectFailures, EngineFailure, EngineSignal, Progress,
};
use rustls_pki_types::ServerName;
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;

use crate::builder::{Config, is_h2};
use crate::classify::{ErrorSite, classify};
use crate::h1::H1Conn;
use crate::h2::H2Conn;
use crate::io::Transport;
use crate::origin::{Origin, Scheme};
use crate::pool::Conn;
use crate::resolve::resolve;
use crate::socket::SharedTcp;

/// A new connection to `origin`. Enters `Resolve` (already entered by the
/// caller), `Connect` and, for `https://`, `Tls`.
pub(crate) async fn connect(
    origin: &Origin,
    config: &Config,
    progress: &Progress,
) -> Result<Conn, EngineFailure> {
    let addrs = resolve(&origin.host, origin.port, &config.host_overrides).await?;
    progress.enter(AttemptStage::Connect);
    let mut failures = ConnectFailures::new();
    let last = addrs.len().saturating_sub(1);
    for (index, addr) in addrs.into_iter().enumerate() {
        let limit = (index < last).then_some(config.connect_timeout_per_address);
        match connect_one(addr, origin, config, progress, limit).await {
            Ok(conn) => return Ok(conn),
            Err((signal, error)) => failures.push(signal, error),
        }
    }
    Err(match failures.into_surfaced() {
        Some((signal, error)) => EngineFailure::new(signal, error),
        None => EngineFailure::signal_only(EngineSignal::NameNotFound),
    })
}

async fn connect_one(
    addr: SocketAddr,
    origin: &Origin,
    config: &Config,
    progress: &Progress,
    limit: Option<Duration>,
) -> Result<Conn, (EngineSignal, BoxError)> {
    let tcp = match limit {
        None => TcpStream::connect(addr).await,
        Some(limit) => tokio::time::timeout(limit, TcpStream::connect(addr))
            .await
            .unwrap_or_else(|_elapsed| {
                Err(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    format!(
                        "TCP connect to {addr} took longer than {limit:?}; trying the next address"
                    ),
                ))
            }),
    }
    .map_err(|e| (classify(&e, ErrorSite::Connect), e.into()))?;
    // Requests are written whole by hyper/h2; Nagle would only delay them.
    let _ = tcp.set_nodelay(true);
    let tcp = SharedTcp::new(tcp);
    let (transport, http2) = match origin.scheme {
        Scheme::Http => (Transport::Tcp(tcp), config.http2_prior_knowledge),
        Scheme::Https => {
            progress.enter(AttemptStage::Tls);
            let name = ServerName::try_from(origin.host.clone())
                .map_err(|e| (EngineSignal::Other, BoxError::from(e)))?;
            let tls = TlsConnector::from(config.tls.clone())
                .connect(name, tcp)
                .await
                .map_err(|e| (classify(&e, ErrorSite::TlsHandshake), e.into()))?;
            let http2 = is_h2(tls.get_ref().1.alpn_protocol());
            (Transport::Tls(Box::new(tls)), http2)
        }
    };
    if http2 {
        H2Conn::handshake(transport, &config.http2)
            .await
            .map(Conn::H2)
            .map_err(|e| (classify(&e, ErrorSite::EXCHANGE), e.into()))
    } else {
        H1Conn::handshake(transport)
            .await
            .map(Conn::H1)
            .map_err(|e| (classify(&e, ErrorSite::EXCHANGE), e.into()))
    }
}
