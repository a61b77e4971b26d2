//! `https://` in the audit: a TLS terminator in front of each lane's
//! HTTP/1.1 recording server.
//!
//! The terminator completes the handshake with the lab's certificate,
//! opens a connection to the recording server, and forwards plaintext both
//! ways as soon as it has it, so the recording server, and with it the
//! book, sees every request byte the client's TLS records carried, and
//! applies its faults at the same edges as over plain TCP. What the
//! recording server does to its connection, the terminator does to the
//! client's: a close becomes `close_notify` and a close, a reset a reset,
//! a stall a stall.
//!
//! The claims this attacks are the ones only TLS has: a failure during or
//! right after the handshake said to be `not_sent` (an engine that dials
//! its own connection under a library's TLS, as the isahc engine does, has
//! to prove that no application-data record left). A handshake that never
//! completes is a target of its own ([`super::shape::Target::TlsStall`]).
//! HTTP/2 stays h2c by prior knowledge: TLS is drawn for HTTP/1.1 calls.

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinSet;

use super::server::LaneServer;
use super::state::AuditState;
use crate::lab::conn::Conn;
use crate::lab::{ALPN_HTTP1, ServerIdentity, TestPki};

/// The size of the terminator's buffer in each direction.
const FORWARD_BUFFER: usize = 16 * 1024;

/// Starts a terminator for the recording server at `upstream`.
pub(crate) fn start(state: Arc<AuditState>, upstream: SocketAddr) -> io::Result<LaneServer> {
    let listener = std::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0)))?;
    listener.set_nonblocking(true)?;
    let listener = TcpListener::from_std(listener)?;
    let addr = listener.local_addr()?;
    let config = TestPki::get().server_config(ServerIdentity::Trusted, &[ALPN_HTTP1]);
    let task = tokio::spawn(accept_loop(listener, config, upstream, state));
    Ok(LaneServer { addr, task })
}

async fn accept_loop(
    listener: TcpListener,
    config: Arc<rustls::ServerConfig>,
    upstream: SocketAddr,
    state: Arc<AuditState>,
) {
    let mut shutdown = state.shutdown.subscribe();
    let mut conns = JoinSet::new();
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let Ok((client, _)) = accepted else { continue };
                conns.spawn(terminate(client, config.clone(), upstream, state.clone()));
            }
            _ = shutdown.wait_for(|stop| *stop) => break,
        }
    }
    // The recording servers end their connections at the shutdown, and
    // with them every terminated one.
    while conns.join_next().await.is_some() {}
}

/// How the recording server ended its side, and so the client's.
enum End {
    /// A clean close: `close_notify`, then FIN.
    Close,
    /// A reset: RST, no alert.
    Reset,
    /// The client is gone already.
    Gone,
}

/// One client connection: the handshake, then plaintext both ways until
/// either side ends.
async fn terminate(
    client: TcpStream,
    config: Arc<rustls::ServerConfig>,
    upstream: SocketAddr,
    state: Arc<AuditState>,
) {
    let mut shutdown = state.shutdown.subscribe();
    let conn = tokio::select! {
        accepted = Conn::accept(client, Some(&config)) => match accepted {
            Ok(conn) => conn,
            Err(_) => return,
        },
        _ = shutdown.wait_for(|stop| *stop) => return,
    };
    let Ok(server) = TcpStream::connect(upstream).await else {
        return;
    };
    let _ = server.set_nodelay(true);
    let (mut client_read, mut client_write) = tokio::io::split(conn);
    let (mut server_read, mut server_write) = server.into_split();

    let towards_server = async {
        let mut buf = vec![0; FORWARD_BUFFER];
        loop {
            match client_read.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if server_write.write_all(&buf[..n]).await.is_err() {
                        return;
                    }
                }
            }
        }
        // The client is done writing: so is the connection to the server.
        let _ = server_write.shutdown().await;
    };
    let towards_client = async {
        let mut buf = vec![0; FORWARD_BUFFER];
        loop {
            match server_read.read(&mut buf).await {
                Ok(0) => return End::Close,
                Ok(n) => {
                    if client_write.write_all(&buf[..n]).await.is_err()
                        || client_write.flush().await.is_err()
                    {
                        return End::Gone;
                    }
                }
                Err(_) => return End::Reset,
            }
        }
    };
    // The server's side decides when the connection ends; the client
    // finishing its request only half-closes it.
    let end = tokio::select! {
        end = towards_client => end,
        () = async {
            towards_server.await;
            std::future::pending::<()>().await;
        } => End::Gone,
    };
    let conn = client_read.unsplit(client_write);
    match end {
        End::Close => conn.close().await,
        End::Reset => conn.reset(),
        End::Gone => {}
    }
}
