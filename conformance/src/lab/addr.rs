//! Loopback addresses where nothing listens, and ports free on several
//! loopback IPs at once.

use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener};

use super::server::ensure_loopback;

/// Attempts at finding one port free on every requested IP before giving up
/// (each attempt fails only if another process holds that port on one of
/// the IPs).
const SHARED_PORT_ATTEMPTS: usize = 64;

/// `127.0.0.n`: Linux routes the whole 127.0.0.0/8 to loopback, so these
/// are distinct local addresses without any setup.
pub fn loopback_v4(n: u8) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 0, 0, n))
}

/// A loopback address and port where nothing listens: a connect to it is
/// refused.
///
/// The port is found by binding an ephemeral port and releasing it. Between
/// the release and the test's connect another process could bind it — a
/// tiny race that only a busy machine could lose, and which then shows as
/// an unexpected success, never as a silent pass.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> std::io::Result<()> {
/// let addr = evident_conformance::lab::refused_addr()?;
/// let error = tokio::net::TcpStream::connect(addr).await.unwrap_err();
/// assert_eq!(error.kind(), std::io::ErrorKind::ConnectionRefused);
/// # Ok(())
/// # }
/// ```
///
/// # Errors
///
/// If no ephemeral port can be bound on 127.0.0.1.
pub fn refused_addr() -> io::Result<SocketAddr> {
    refused_addr_on(loopback_v4(1))
}

/// Like [`refused_addr`], on the loopback IP `ip`.
///
/// # Errors
///
/// If `ip` is not loopback or nothing can be bound on it.
pub fn refused_addr_on(ip: IpAddr) -> io::Result<SocketAddr> {
    let addr = SocketAddr::new(ip, 0);
    ensure_loopback(addr)?;
    let listener = TcpListener::bind(addr)?;
    listener.local_addr()
}

/// A loopback port held bound but never listening: a connect to it is
/// refused, and no other socket, in this process or another, can take the
/// port while this value lives. Unlike [`refused_addr`], whose port is
/// released and may be handed to the next listener that binds port 0 (a
/// concurrent test's server, which would then answer a connect meant to
/// be refused).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> std::io::Result<()> {
/// use evident_conformance::lab::{RefusedPort, loopback_v4};
///
/// let refused = RefusedPort::bind(loopback_v4(1))?;
/// let error = tokio::net::TcpStream::connect(refused.addr()).await.unwrap_err();
/// assert_eq!(error.kind(), std::io::ErrorKind::ConnectionRefused);
/// // The port stays taken: nothing else can listen on it meanwhile.
/// assert!(std::net::TcpListener::bind(refused.addr()).is_err());
/// # Ok(())
/// # }
/// ```
#[derive(Debug)]
pub struct RefusedPort {
    // Bound, never listening: the kernel answers a SYN with a reset.
    _socket: socket2::Socket,
    addr: SocketAddr,
}

impl RefusedPort {
    /// Binds an ephemeral port on the loopback IP `ip` and holds it.
    ///
    /// # Errors
    ///
    /// If `ip` is not loopback or nothing can be bound on it.
    pub fn bind(ip: IpAddr) -> io::Result<RefusedPort> {
        let addr = SocketAddr::new(ip, 0);
        ensure_loopback(addr)?;
        let socket = socket2::Socket::new(
            socket2::Domain::for_address(addr),
            socket2::Type::STREAM,
            Some(socket2::Protocol::TCP),
        )?;
        socket.bind(&addr.into())?;
        let addr = socket.local_addr()?.as_socket().ok_or_else(|| {
            io::Error::new(io::ErrorKind::AddrNotAvailable, "no socket address bound")
        })?;
        Ok(RefusedPort {
            _socket: socket,
            addr,
        })
    }

    /// The address whose connects are refused.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }
}

/// A port that is currently free on every loopback IP in `ips`, so one
/// host name resolving to several of them can be served (or refused) on the
/// same port — e.g. 127.0.0.2:P refuses while 127.0.0.3:P presents the
/// untrusted certificate. Same release race as [`refused_addr`].
///
/// # Errors
///
/// If an IP is not loopback, or no common free port turns up.
pub fn shared_free_port(ips: &[IpAddr]) -> io::Result<u16> {
    let Some((&first, rest)) = ips.split_first() else {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "at least one IP is needed",
        ));
    };
    for ip in ips {
        ensure_loopback(SocketAddr::new(*ip, 0))?;
    }
    for _ in 0..SHARED_PORT_ATTEMPTS {
        let anchor = TcpListener::bind(SocketAddr::new(first, 0))?;
        let port = anchor.local_addr()?.port();
        let others: io::Result<Vec<TcpListener>> = rest
            .iter()
            .map(|ip| TcpListener::bind(SocketAddr::new(*ip, port)))
            .collect();
        if others.is_ok() {
            return Ok(port);
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AddrInUse,
        "no port free on every requested loopback IP",
    ))
}
