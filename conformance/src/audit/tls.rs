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
use tokio_rustls::TlsAcceptor;

use super::server::LaneServer;
use super::state::AuditState;
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
    let acceptor = TlsAcceptor::from(config);
    let task = tokio::spawn(accept_loop(listener, acceptor, upstream, state));
    Ok(LaneServer { addr, task })
}

async fn accept_loop(
    listener: TcpListener,
    acceptor: TlsAcceptor,
    upstream: SocketAddr,
    state: Arc<AuditState>,
) {
    let mut shutdown = state.shutdown.subscribe();
    let mut conns = JoinSet::new();
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let Ok((client, _)) = accepted else { continue };
                conns.spawn(terminate(client, acceptor.clone(), upstream, state.clone()));
            }
            _ = shutdown.wait_for(|stop| *stop) => break,
        }
    }
    // The recording servers end their connections at the shutdown, and
    // with them every terminated one.
    while conns.join_next().await.is_some() {}
}

/// One client connection: the handshake, then plaintext both ways until
/// either side ends.
async fn terminate(
    client: TcpStream,
    acceptor: TlsAcceptor,
    upstream: SocketAddr,
    state: Arc<AuditState>,
) {
    let _ = client.set_nodelay(true);
    // A second handle on the client's socket: a reset from the recording
    // server is passed on by closing with SO_LINGER 0.
    let Ok(raw) = socket2::SockRef::from(&client).try_clone() else {
        return;
    };
    let mut shutdown = state.shutdown.subscribe();
    let tls = tokio::select! {
        accepted = acceptor.accept(client) => match accepted {
            Ok(tls) => tls,
            Err(_) => return,
        },
        _ = shutdown.wait_for(|stop| *stop) => return,
    };
    let Ok(server) = TcpStream::connect(upstream).await else {
        return;
    };
    let _ = server.set_nodelay(true);
    let (mut client_read, mut client_write) = tokio::io::split(tls);
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
                Ok(0) => {
                    // close_notify, then FIN.
                    let _ = client_write.shutdown().await;
                    return;
                }
                Ok(n) => {
                    if client_write.write_all(&buf[..n]).await.is_err()
                        || client_write.flush().await.is_err()
                    {
                        return;
                    }
                }
                Err(_) => {
                    // The recording server reset: so does the client's
                    // connection, once every handle on it is closed.
                    let _ = raw.set_linger(Some(std::time::Duration::ZERO));
                    return;
                }
            }
        }
    };
    // The server's side decides when the connection ends; the client
    // finishing its request only half-closes it.
    tokio::select! {
        () = towards_client => {}
        () = async {
            towards_server.await;
            std::future::pending::<()>().await;
        } => {}
    }
}
