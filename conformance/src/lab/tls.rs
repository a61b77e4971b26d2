//! TLS-level faults: a certificate the client must reject, and a handshake
//! the server abandons.

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;

use super::http1::{Http1Behaviour, Http1Server};
use super::ledger::Ledger;
use super::pki::ServerIdentity;
use super::server::{LabServer, Listen, accept_loop, bind, runtime};

/// Length of a TLS record header: type, version, 16-bit length.
const TLS_RECORD_HEADER_LEN: usize = 5;

/// A TLS fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TlsFault {
    /// Complete TCP and present a certificate for the right names signed by
    /// the untrusted CA. Behind the handshake an HTTP/1.1 server answers
    /// 200 — so if a client wrongly accepted the certificate, the ledger
    /// shows the request it then sent.
    UntrustedCertificate,
    /// Accept TCP, read the client's first TLS record (the ClientHello) in
    /// full, then close cleanly (FIN) without answering.
    ClosedDuringHandshake,
    /// Accept TCP, read the ClientHello in full, then never answer: the
    /// handshake stalls until the client gives up and closes. TCP was up,
    /// so a timeout here belongs to the `tls` stage.
    StalledHandshake,
}

/// Builder for a TLS fault server.
///
/// ```
/// use evident_conformance::lab::{TlsFault, TlsFaultServer};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> std::io::Result<()> {
/// let server = TlsFaultServer::new(TlsFault::ClosedDuringHandshake).start()?;
/// assert!(server.is_tls());
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct TlsFaultServer {
    fault: TlsFault,
    listen: Listen,
}

impl TlsFaultServer {
    /// A server producing `fault` on every connection.
    pub fn new(fault: TlsFault) -> Self {
        Self {
            fault,
            listen: Listen::default(),
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

    /// Binds and starts serving on the current tokio runtime.
    ///
    /// # Errors
    ///
    /// If the address is not loopback, cannot be bound, or no runtime is
    /// entered.
    pub fn start(self) -> io::Result<LabServer> {
        match self.fault {
            TlsFault::UntrustedCertificate => Http1Server::new([Http1Behaviour::respond(200)])
                .tls_identity(ServerIdentity::Untrusted)
                .bind(self.listen.addr)
                .lifetime(self.listen.lifetime)
                .start(),
            TlsFault::ClosedDuringHandshake => self.start_raw(close_after_client_hello),
            TlsFault::StalledHandshake => self.start_raw(stall_after_client_hello),
        }
    }

    /// A raw TCP server that handles every connection with `handle`.
    fn start_raw<F, Fut>(self, handle: F) -> io::Result<LabServer>
    where
        F: Fn(TcpStream) -> Fut + Send + Sync + 'static,
        Fut: std::future::Future<Output = ()> + Send + 'static,
    {
        let runtime = runtime()?;
        let listener = bind(&self.listen)?;
        let addr = listener.local_addr()?;
        let ledger = Ledger::new();
        let (stop_tx, stop) = self.listen.stop_channel();
        let handler = Arc::new(move |stream: TcpStream, _connection: u64| handle(stream));
        runtime.spawn(accept_loop(listener, ledger.clone(), stop, handler));
        Ok(LabServer::new(addr, ledger, true, stop_tx))
    }
}

/// Reads one whole TLS record, then closes. Reading it all first matters:
/// closing with unread bytes would make the kernel send a RST instead of
/// the FIN this fault promises.
async fn close_after_client_hello(mut stream: TcpStream) {
    if read_record(&mut stream).await {
        drop(stream);
    }
}

/// Reads one whole TLS record, then answers nothing and keeps the
/// connection until the client closes it (whatever else it sends is read
/// and dropped, so the client's close is a FIN, never a reset).
async fn stall_after_client_hello(mut stream: TcpStream) {
    if read_record(&mut stream).await {
        let mut rest = Vec::new();
        let _ = stream.read_to_end(&mut rest).await;
    }
}

/// Reads one whole TLS record: whether it arrived.
async fn read_record(stream: &mut TcpStream) -> bool {
    let mut header = [0u8; TLS_RECORD_HEADER_LEN];
    if stream.read_exact(&mut header).await.is_err() {
        return false;
    }
    let len = usize::from(u16::from_be_bytes([header[3], header[4]]));
    let mut record = vec![0u8; len];
    stream.read_exact(&mut record).await.is_ok()
}
