//! Opening a connection: resolve, then the core's Happy Eyeballs connect
//! ([`evident_core::engine::connect`]) over every address, each address's
//! attempt being TCP, TLS (for `https://`, ALPN choosing the protocol) and
//! the protocol handshake.
//!
//! A silent address (a black-holed route, a host that drops SYNs) costs the
//! Connection Attempt Delay, not the attempt: the next address starts 250 ms
//! later (by default) while the silent one keeps trying, and the first to
//! connect wins. Which failure surfaces when all fail is
//! [`evident_core::ConnectFailures`]' rule, shared by every adapter (a
//! rejected certificate is never hidden by a refusal).

use std::net::SocketAddr;

use evident_core::engine::Origin;
use evident_core::tls::server_name;
use evident_core::{AttemptContext, AttemptStage, BoxError, EngineFailure, EngineSignal};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;

use crate::builder::{Config, is_h2};
use crate::classify::{ErrorSite, classify};
use crate::h1::H1Conn;
use crate::h2::H2Conn;
use crate::io::Transport;
use crate::pool::Conn;
use crate::socket::SharedTcp;

/// A new connection to `origin`. Enters `Resolve` (already entered by the
/// caller), `Connect` and, for `https://`, `Tls`.
pub(crate) async fn connect(
    origin: &Origin,
    config: &Config,
    attempt: &AttemptContext,
) -> Result<Conn, EngineFailure> {
    let progress = attempt.progress();
    let addrs = config
        .host_overrides
        .resolve(origin.host(), origin.port())
        .await?;
    evident_core::engine::connect(
        addrs,
        &config.connect_timing,
        progress,
        attempt.deadline(),
        |_addr: SocketAddr, tcp| establish(tcp, origin, config, attempt),
    )
    .await
}

/// Everything on top of one address's TCP connection: TLS, then the
/// protocol handshake.
async fn establish(
    tcp: TcpStream,
    origin: &Origin,
    config: &Config,
    attempt: &AttemptContext,
) -> Result<Conn, (EngineSignal, BoxError)> {
    // Requests are written whole by hyper/h2; Nagle would only delay them.
    let _ = tcp.set_nodelay(true);
    let tcp = SharedTcp::new(tcp);
    let name = server_name(origin).map_err(|e| (e.signal(), BoxError::from(e)))?;
    let (transport, http2) = match name {
        Some(name) => {
            attempt.progress().enter(AttemptStage::Tls);
            let tls = TlsConnector::from(config.tls.clone())
                .connect(name, tcp)
                .await
                .map_err(|e| (classify(&e, ErrorSite::TlsHandshake), e.into()))?;
            let http2 = is_h2(tls.get_ref().1.alpn_protocol());
            (Transport::Tls(Box::new(tls)), http2)
        }
        None => (Transport::Tcp(tcp), config.http2_prior_knowledge),
    };
    if http2 {
        H2Conn::handshake(transport, &config.http2)
            .await
            .map(Conn::H2)
            .map_err(|e| (classify(&e, ErrorSite::HTTP2_EXCHANGE), e.into()))
    } else {
        H1Conn::handshake(transport)
            .await
            .map(Conn::H1)
            .map_err(|e| (classify(&e, ErrorSite::EXCHANGE), e.into()))
    }
}
