//! A listener whose connects never complete: the connect-timeout fault.
//!
//! Linux drops an incoming SYN while the listener's accept queue is full
//! (`tcp_conn_request`, counted as `ListenOverflows`), and the client stays
//! in SYN-SENT, retransmitting, until its own timeout. So the lab listens
//! with a backlog of 0, never accepts, and fills the queue with its own
//! connections until one of them does not complete — which proves, on this
//! very machine, that the next connect hangs.

use std::io;
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::Duration;

use super::ledger::Ledger;
use super::server::{LabServer, Listen, accept_loop, bind, loopback_socket, runtime};

/// Accept-queue length requested: the smallest possible (Linux then still
/// queues one connection).
const BACKLOG: i32 = 0;

/// Filler connections tried before concluding the queue never fills.
const MAX_FILLERS: usize = 16;

/// How long a filling connect may take before the queue counts as full. A
/// loopback handshake the kernel completes takes microseconds, so this is
/// only an upper bound, never something waited for in the normal case
/// except once, for the connect that proves the queue is full.
const FILL_PROBE: Duration = Duration::from_millis(200);

/// Builder for a connect-timeout server: a loopback port where TCP connects
/// hang in SYN-SENT.
///
/// ```
/// use evident_conformance::lab::ConnectTimeoutServer;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> std::io::Result<()> {
/// let server = ConnectTimeoutServer::new().start()?;
/// let connect = tokio::net::TcpStream::connect(server.addr());
/// let outcome = tokio::time::timeout(std::time::Duration::from_millis(300), connect).await;
/// assert!(outcome.is_err(), "the connect is still pending");
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, Default)]
pub struct ConnectTimeoutServer {
    listen: Listen,
}

impl ConnectTimeoutServer {
    /// A server on `127.0.0.1` with a free port.
    pub fn new() -> Self {
        Self::default()
    }

    /// Listen on this loopback address (port 0 picks a free port).
    pub fn bind(mut self, addr: SocketAddr) -> Self {
        self.listen.addr = addr;
        self
    }

    /// Stop by itself after `lifetime`.
    pub fn lifetime(mut self, lifetime: Duration) -> Self {
        self.listen.lifetime = lifetime;
        self
    }

    /// Listens, fills the accept queue and checks that one more connect
    /// does not complete within 200 ms (so this blocks the calling
    /// thread for about that long).
    ///
    /// # Errors
    ///
    /// If the address is not loopback or cannot be bound, no runtime is
    /// entered, or the kernel keeps completing connects (the fault cannot
    /// be produced here: `ErrorKind::Unsupported`).
    pub fn start(self) -> io::Result<LabServer> {
        let handle = runtime()?;
        let silent = SilentListener::bind(self.listen.addr)?;
        let addr = silent.addr();
        let (stop_tx, stop) = self.listen.stop_channel();
        handle.spawn(async move {
            stop.wait().await;
            drop(silent);
        });
        Ok(LabServer::new(addr, Ledger::new(), false, stop_tx))
    }
}

/// A listening loopback port that completes no TCP handshake, with no
/// runtime and no ledger: the connect-timeout fault by itself, for a
/// blocking test or one that builds its own lab around it (a name whose
/// first address is silent). Dropping it closes the listener and its
/// fillers. [`ConnectTimeoutServer`] is this, run as a lab server.
///
/// ```
/// use std::time::Duration;
/// use evident_conformance::lab::SilentListener;
///
/// let silent = SilentListener::bind("127.0.0.1:0".parse().unwrap())?;
/// let connect = std::net::TcpStream::connect_timeout(&silent.addr(), Duration::from_millis(100));
/// assert_eq!(connect.unwrap_err().kind(), std::io::ErrorKind::TimedOut);
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct SilentListener {
    addr: SocketAddr,
    _listener: socket2::Socket,
    _fillers: Vec<TcpStream>,
}

impl SilentListener {
    /// Listens on `addr` (loopback; port 0 picks a free port), fills the
    /// accept queue and checks that one more connect does not complete
    /// within 200 ms (so this blocks the calling thread for about that
    /// long).
    ///
    /// # Errors
    ///
    /// If the address is not loopback or cannot be bound, or the kernel
    /// keeps completing connects (the fault cannot be produced here:
    /// `ErrorKind::Unsupported`).
    pub fn bind(addr: SocketAddr) -> io::Result<SilentListener> {
        let socket = loopback_socket(addr)?;
        socket.listen(BACKLOG)?;
        let addr = socket
            .local_addr()?
            .as_socket()
            .ok_or_else(|| io::Error::other("listener has no IP address"))?;
        let mut fillers = Vec::new();
        for _ in 0..MAX_FILLERS {
            match TcpStream::connect_timeout(&addr, FILL_PROBE) {
                Ok(filler) => fillers.push(filler),
                Err(e) if e.kind() == io::ErrorKind::TimedOut => {
                    return Ok(SilentListener {
                        addr,
                        _listener: socket,
                        _fillers: fillers,
                    });
                }
                Err(e) => return Err(e),
            }
        }
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            format!(
                "{MAX_FILLERS} connects to {addr} completed: the accept queue does not fill here"
            ),
        ))
    }

    /// The address whose connects hang.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }
}

/// Receive buffer of a [`NeverReadsServer`]'s connections: the kernel's
/// smallest useful window, so almost nothing a client writes is absorbed.
const NEVER_READS_RECEIVE_BUFFER: usize = 4 * 1024;

/// Builder for a server that accepts connections and never reads from
/// them (its receive buffer fixed small): a client's write blocks as soon
/// as its own send buffer is full, so a large enough request head never
/// fully leaves the client. The ledger counts connections, never a request.
///
/// ```
/// use evident_conformance::lab::NeverReadsServer;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> std::io::Result<()> {
/// let server = NeverReadsServer::new().start()?;
/// let _stream = tokio::net::TcpStream::connect(server.addr()).await?;
/// assert_eq!(server.ledger().requests(), 0);
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct NeverReadsServer {
    listen: Listen,
}

impl Default for NeverReadsServer {
    fn default() -> Self {
        Self::new()
    }
}

impl NeverReadsServer {
    /// A server on `127.0.0.1` with a free port.
    pub fn new() -> Self {
        Self {
            listen: Listen {
                receive_buffer: Some(NEVER_READS_RECEIVE_BUFFER),
                ..Listen::default()
            },
        }
    }

    /// Listen on this loopback address (port 0 picks a free port).
    pub fn bind(mut self, addr: SocketAddr) -> Self {
        self.listen.addr = addr;
        self
    }

    /// Stop by itself after `lifetime`.
    pub fn lifetime(mut self, lifetime: Duration) -> Self {
        self.listen.lifetime = lifetime;
        self
    }

    /// Binds and starts accepting on the current tokio runtime.
    ///
    /// # Errors
    ///
    /// If the address is not loopback, cannot be bound, or no runtime is
    /// entered.
    pub fn start(self) -> io::Result<LabServer> {
        let handle = runtime()?;
        let listener = bind(&self.listen)?;
        let addr = listener.local_addr()?;
        let ledger = Ledger::new();
        let (stop_tx, stop) = self.listen.stop_channel();
        let handler = Arc::new(
            |stream: tokio::net::TcpStream, _connection: u64| async move {
                // Held, never read, until the server stops (accept_loop bounds
                // this task by the stop signal).
                let _held = stream;
                std::future::pending::<()>().await;
            },
        );
        handle.spawn(accept_loop(listener, ledger.clone(), stop, handler));
        Ok(LabServer::new(addr, ledger, false, stop_tx))
    }
}
