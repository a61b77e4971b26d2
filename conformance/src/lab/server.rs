//! The handle every lab server returns, and the stop signal its tasks obey.

use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::time::Instant;

use super::ledger::Ledger;

/// How long a lab server lives if nobody stops it: far longer than any
/// scenario, short enough that a forgotten server cannot outlive a test run.
pub const DEFAULT_LIFETIME: Duration = Duration::from_secs(60);

/// Accept errors in a row after which an accept loop gives up (a persistent
/// error such as running out of file descriptors would otherwise spin).
const MAX_ACCEPT_ERRORS_IN_A_ROW: u32 = 64;

/// Backlog for lab listeners that do accept: plenty for any scenario.
const LISTEN_BACKLOG: i32 = 128;

/// A running lab server. Dropping it stops the server and every connection
/// it holds; it also stops by itself after its lifetime
/// ([`DEFAULT_LIFETIME`] unless set).
#[derive(Debug)]
pub struct LabServer {
    addr: SocketAddr,
    ledger: Ledger,
    tls: bool,
    stop: watch::Sender<bool>,
}

impl LabServer {
    pub(crate) fn new(
        addr: SocketAddr,
        ledger: Ledger,
        tls: bool,
        stop: watch::Sender<bool>,
    ) -> Self {
        Self {
            addr,
            ledger,
            tls,
            stop,
        }
    }

    /// The loopback address the server listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// What the server saw (a clone shares the same counts).
    pub fn ledger(&self) -> &Ledger {
        &self.ledger
    }

    /// Whether clients must speak TLS to it.
    pub fn is_tls(&self) -> bool {
        self.tls
    }

    /// `http` or `https`.
    pub fn scheme(&self) -> &'static str {
        if self.tls { "https" } else { "http" }
    }

    /// A URL for `path` (which should start with `/`) addressed by IP, e.g.
    /// `https://127.0.0.1:41234/pay` or `http://[::1]:41234/`. The test
    /// certificates cover every loopback IP the lab uses, so TLS works by
    /// IP too.
    pub fn url(&self, path: &str) -> String {
        let host = match self.addr.ip() {
            IpAddr::V4(ip) => ip.to_string(),
            IpAddr::V6(ip) => format!("[{ip}]"),
        };
        self.url_with_host(&host, path)
    }

    /// A URL for `path` with `host` in place of the IP, e.g. `localhost`
    /// or a name the engine's resolver maps to this server.
    pub fn url_with_host(&self, host: &str, path: &str) -> String {
        format!("{}://{host}:{}{path}", self.scheme(), self.addr.port())
    }

    /// Resolves once the server has closed at least one idle keep-alive
    /// connection (after a `RespondThenCloseIdle` answer), so the next
    /// request can be sent onto a pooled connection known to be closed.
    /// Bound it with `tokio::time::timeout`.
    pub async fn idle_closed(&self) {
        self.ledger.wait_until(|s| s.idle_closes >= 1).await;
    }

    /// Stops accepting and closes every connection the server holds.
    /// Dropping the handle does the same.
    pub fn shutdown(&self) {
        self.stop.send_replace(true);
    }
}

impl Drop for LabServer {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// Where and for how long a lab server listens; shared by every builder.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Listen {
    pub(crate) addr: SocketAddr,
    pub(crate) lifetime: Duration,
    /// `SO_RCVBUF` for accepted connections (set on the listener, which
    /// they inherit); `None` keeps the kernel's autotuning.
    pub(crate) receive_buffer: Option<usize>,
}

impl Default for Listen {
    fn default() -> Self {
        Self {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            lifetime: DEFAULT_LIFETIME,
            receive_buffer: None,
        }
    }
}

impl Listen {
    /// Creates the stop channel for a server with this lifetime.
    pub(crate) fn stop_channel(&self) -> (watch::Sender<bool>, Stop) {
        let (tx, rx) = watch::channel(false);
        let stop = Stop {
            rx,
            deadline: Instant::now() + self.lifetime,
        };
        (tx, stop)
    }
}

/// The signal every lab task obeys: the handle said stop (or was dropped),
/// or the server's lifetime ran out.
#[derive(Debug, Clone)]
pub(crate) struct Stop {
    rx: watch::Receiver<bool>,
    deadline: Instant,
}

impl Stop {
    /// Resolves when the server must stop.
    pub(crate) async fn wait(&self) {
        let mut rx = self.rx.clone();
        tokio::select! {
            // An error means the handle is gone: stop as well.
            _ = rx.wait_for(|stopped| *stopped) => {}
            () = tokio::time::sleep_until(self.deadline) => {}
        }
    }

    /// Runs `work` until it ends or the server must stop.
    pub(crate) async fn run<F: Future>(&self, work: F) -> Option<F::Output> {
        tokio::select! {
            output = work => Some(output),
            () = self.wait() => None,
        }
    }
}

/// Refuses anything but a loopback address: the lab never listens where
/// another machine could reach it.
pub(crate) fn ensure_loopback(addr: SocketAddr) -> io::Result<()> {
    if addr.ip().is_loopback() {
        Ok(())
    } else {
        Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("lab servers listen on loopback only, not {addr}"),
        ))
    }
}

/// Fails clearly, instead of panicking inside tokio, when no runtime is
/// entered.
pub(crate) fn runtime() -> io::Result<tokio::runtime::Handle> {
    tokio::runtime::Handle::try_current()
        .map_err(|_| io::Error::other("lab servers start inside a tokio runtime (enter one first)"))
}

/// Creates a socket bound to the loopback `addr` (not yet listening).
pub(crate) fn loopback_socket(addr: SocketAddr) -> io::Result<socket2::Socket> {
    ensure_loopback(addr)?;
    let socket = socket2::Socket::new(
        socket2::Domain::for_address(addr),
        socket2::Type::STREAM,
        Some(socket2::Protocol::TCP),
    )?;
    if addr.is_ipv6() {
        socket.set_only_v6(true)?;
    }
    socket.set_reuse_address(true)?;
    socket.bind(&addr.into())?;
    Ok(socket)
}

/// Binds a tokio listener as `listen` says.
pub(crate) fn bind(listen: &Listen) -> io::Result<TcpListener> {
    let _ = runtime()?;
    let socket = loopback_socket(listen.addr)?;
    if let Some(bytes) = listen.receive_buffer {
        // Set before `listen`, so accepted sockets inherit it and their
        // window never grows past it (a fixed SO_RCVBUF turns autotuning
        // off).
        socket.set_recv_buffer_size(bytes)?;
    }
    socket.listen(LISTEN_BACKLOG)?;
    socket.set_nonblocking(true)?;
    TcpListener::from_std(socket.into())
}

/// Accepts connections until stopped, running `handle(stream, connection
/// number)` for each on its own task, itself bounded by `stop`.
pub(crate) async fn accept_loop<H, Fut>(
    listener: TcpListener,
    ledger: Ledger,
    stop: Stop,
    handle: Arc<H>,
) where
    H: Fn(TcpStream, u64) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    let mut errors_in_a_row = 0;
    while let Some(accepted) = stop.run(listener.accept()).await {
        let Ok((stream, _peer)) = accepted else {
            errors_in_a_row += 1;
            if errors_in_a_row >= MAX_ACCEPT_ERRORS_IN_A_ROW {
                return;
            }
            continue;
        };
        errors_in_a_row = 0;
        let connection = ledger.connection_accepted();
        let work = handle(stream, connection);
        let stop = stop.clone();
        tokio::spawn(async move {
            stop.run(work).await;
        });
    }
}
