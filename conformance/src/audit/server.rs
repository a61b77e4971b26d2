//! The recording servers' listener: loopback only, a small receive buffer
//! (so a server that stops reading blocks the client's writes), and an
//! accept loop that ends every connection when the run shuts down.

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinSet;

use super::book::AttemptTag;
use super::shape::Protocol;
use super::state::AuditState;

/// Receive buffer of every recording connection: small enough that a large
/// body (or a padded head) does not fit, so a stall blocks the client
/// mid-write; large enough that an ordinary request arrives at once.
const RECEIVE_BUFFER: usize = 16 * 1024;

/// How long the accept loop waits, after the shutdown, for its connections
/// to record their last bytes and close. Each of them only has to read what
/// is already buffered, so this bound is reached only when something hangs.
const CONNECTIONS_END_LIMIT: Duration = Duration::from_secs(10);

/// A running recording server of one lane.
#[derive(Debug)]
pub(crate) struct LaneServer {
    pub(crate) addr: SocketAddr,
    pub(crate) task: tokio::task::JoinHandle<()>,
}

/// Binds `127.0.0.1:0` with the small receive buffer.
fn bind() -> io::Result<TcpListener> {
    let addr = SocketAddr::from(([127, 0, 0, 1], 0));
    let socket = socket2::Socket::new(
        socket2::Domain::IPV4,
        socket2::Type::STREAM,
        Some(socket2::Protocol::TCP),
    )?;
    socket.set_reuse_address(true)?;
    // Inherited by accepted sockets; fixing it turns autotuning off.
    socket.set_recv_buffer_size(RECEIVE_BUFFER)?;
    socket.bind(&addr.into())?;
    socket.listen(1024)?;
    socket.set_nonblocking(true)?;
    TcpListener::from_std(socket.into())
}

/// Starts lane `lane`'s server for `protocol` on the current runtime.
pub(crate) fn start(
    state: Arc<AuditState>,
    lane: usize,
    protocol: Protocol,
) -> io::Result<LaneServer> {
    let listener = bind()?;
    let addr = listener.local_addr()?;
    let task = tokio::spawn(accept_loop(listener, state, lane, protocol));
    Ok(LaneServer { addr, task })
}

async fn accept_loop(
    listener: TcpListener,
    state: Arc<AuditState>,
    lane: usize,
    protocol: Protocol,
) {
    let mut shutdown = state.shutdown.subscribe();
    let mut conns = JoinSet::new();
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let Ok((stream, _)) = accepted else { continue };
                let number = state.next_connection();
                let state = state.clone();
                conns.spawn(serve(stream, state, lane, protocol, number));
            }
            _ = shutdown.wait_for(|stop| *stop) => break,
        }
    }
    drop(listener);
    let _ = tokio::time::timeout(CONNECTIONS_END_LIMIT, async {
        while conns.join_next().await.is_some() {}
    })
    .await;
    conns.abort_all();
}

async fn serve(
    stream: TcpStream,
    state: Arc<AuditState>,
    lane: usize,
    protocol: Protocol,
    number: u64,
) {
    let _ = stream.set_nodelay(true);
    match protocol {
        Protocol::Http1 => super::h1::serve(stream, state, lane, number).await,
        Protocol::Http2 => super::h2::serve(stream, state, lane, number).await,
    }
}

/// Reads whatever is already buffered on `stream` without waiting, into
/// `sink`: what reached the server before it acts counts as received.
pub(crate) fn drain_now(stream: &TcpStream, mut sink: impl FnMut(&[u8])) -> DrainEnd {
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match stream.try_read(&mut buf) {
            Ok(0) => return DrainEnd::Eof,
            Ok(n) => sink(&buf[..n]),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => return DrainEnd::Pending,
            Err(_) => return DrainEnd::Error,
        }
    }
}

/// How [`drain_now`] stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DrainEnd {
    /// Nothing more buffered.
    Pending,
    /// The client closed.
    Eof,
    /// The connection failed (reset).
    Error,
}

/// Reads and records until the client closes, the connection fails, or
/// the run shuts down: what a stalled connection does once its call is
/// over, so a late byte is still seen.
pub(crate) async fn read_to_end(
    stream: &TcpStream,
    state: &AuditState,
    mut sink: impl FnMut(&[u8]),
) {
    let mut shutdown = state.shutdown.subscribe();
    loop {
        match drain_now(stream, &mut sink) {
            DrainEnd::Pending => {}
            DrainEnd::Eof | DrainEnd::Error => return,
        }
        tokio::select! {
            ready = stream.readable() => if ready.is_err() { return },
            _ = shutdown.wait_for(|stop| *stop) => {
                drain_now(stream, &mut sink);
                return;
            }
        }
    }
}

/// Waits until call `call` of `lane` is over or the run shuts down.
pub(crate) async fn until_released(state: &AuditState, lane: usize, tag: Option<AttemptTag>) {
    let mut released = state.lanes[lane].released.subscribe();
    let mut shutdown = state.shutdown.subscribe();
    let call = tag.map_or(u64::MAX, |t| t.call);
    tokio::select! {
        _ = released.wait_for(|r| *r >= call) => {}
        _ = shutdown.wait_for(|stop| *stop) => {}
    }
}
