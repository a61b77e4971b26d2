//! The adapter's own dialer for a new connection: it connects TCP itself
//! and hands curl a Unix socket relayed to that connection, so that an
//! attempt knows what curl cannot tell it.
//!
//! curl reports a transfer's connected address only once TCP *and* TLS are
//! up, and nothing at all about a transfer that timed out in between. With
//! the relay the adapter knows:
//!
//! * that TCP is up: it connected the socket itself, so a handshake that
//!   stalls is recorded at `tls`, as on every engine;
//! * whether any byte of the request can have left. In plaintext every
//!   byte curl writes is the request's. Over TLS curl's records pass
//!   through here, and only an application-data record (content type 23)
//!   carries request bytes. TLS 1.2 sends none before the handshake is
//!   over; TLS 1.3 sends its Finished as one, so its first is counted as
//!   possibly the request (conservative: it weakens the record early);
//! * that the server reset the connection, which curl, reading a Unix
//!   socket the relay closes, would see as a close ([`ResetSeen`]).
//!
//! And it keeps an early answer for curl. A server may answer before it
//! has read the whole request and then close or reset (RFC 9112 §9.6).
//! When a write of the request to the server fails, the relay forwards
//! what the server sent and then its end, and reads and drops the rest of
//! curl's request ([`swallow`]) instead of closing curl's socket under it.
//! curl's writes go on succeeding, so it reads the answer instead of
//! failing a write first (curl error 55, the answer lost).
//!
//! The relay forwards bytes unchanged: curl still does TLS (its own trust,
//! its own client certificate), and the server sees one TCP connection.
//! The socket lives in a directory only this user can open, and the relay
//! serves only a peer in this process (`SO_PEERCRED`).

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use evident_core::engine::peer_went_away;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::unix::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpStream, UnixListener, UnixStream};
use tokio::sync::oneshot;

use crate::body::ResetSeen;

/// The size of the relay's buffer in each direction.
pub(crate) const RELAY_BUFFER_BYTES: usize = 16 * 1024;

/// The longest socket path the kernel takes (`sun_path` is 108 bytes,
/// NUL included).
const MAX_SOCKET_PATH: usize = 107;

/// TLS record content types (RFC 8446 §5.1; 24 is heartbeat, RFC 6520).
const CHANGE_CIPHER_SPEC: u8 = 20;
const ALERT: u8 = 21;
const HANDSHAKE: u8 = 22;
const APPLICATION_DATA: u8 = 23;
const HEARTBEAT: u8 = 24;

/// Where a request stands on a relay: no byte of it has left, it may have
/// left on one connection (its *carrier*), or the adapter sealed it first.
/// One atomic: the carrier is known the instant the request leaves.
#[derive(Debug, Default)]
pub(crate) struct RequestGate(AtomicU64);

/// [`RequestGate`]'s value before anything left; after, the carrier's id
/// (connection ids start at 1), or [`SEALED`].
const OPEN: u64 = 0;
const SEALED: u64 = u64::MAX;

impl RequestGate {
    /// Called before bytes that may carry the request are forwarded on
    /// connection `conn`: whether they may be. The first connection to
    /// carry the request is the only one that may; none may once sealed.
    pub(crate) fn leaving(&self, conn: u64) -> bool {
        debug_assert!(conn != OPEN && conn != SEALED);
        match self
            .0
            .compare_exchange(OPEN, conn, Ordering::AcqRel, Ordering::Acquire)
        {
            Ok(_) => true,
            Err(carrier) => carrier == conn,
        }
    }

    /// Whether the request may have left.
    pub(crate) fn left(&self) -> bool {
        !matches!(self.0.load(Ordering::Acquire), OPEN | SEALED)
    }

    pub(crate) fn sealed(&self) -> bool {
        self.0.load(Ordering::Acquire) == SEALED
    }

    /// Whether the request may have left on connection `conn`.
    pub(crate) fn carried_by(&self, conn: u64) -> bool {
        self.0.load(Ordering::Acquire) == conn
    }

    /// Stops the forwarding for good, and says whether a byte of the
    /// request may have left before: `false` proves that none did, and
    /// none will (curl's bytes still buffered in the socket stay there).
    pub(crate) fn seal(&self) -> bool {
        match self
            .0
            .compare_exchange(OPEN, SEALED, Ordering::AcqRel, Ordering::Acquire)
        {
            Ok(_) => false,
            Err(carrier) => carrier != SEALED,
        }
    }
}

/// The one connection a relay carries, as its [`RequestGate`] knows it.
const THE_CONNECTION: u64 = 1;

/// What the relay saw of one connection.
#[derive(Debug, Default)]
pub(crate) struct Facts {
    request: RequestGate,
    server_reset: Arc<ResetSeen>,
}

impl Facts {
    /// See [`RequestGate::seal`].
    pub(crate) fn seal(&self) -> bool {
        self.request.seal()
    }

    /// Whether the server reset the connection.
    pub(crate) fn server_reset(&self) -> &Arc<ResetSeen> {
        &self.server_reset
    }
}

/// One relayed connection, as the transfer uses it: curl dials
/// [`Relay::path`]. Dropping it before curl connected stops the relay and
/// closes the TCP connection; once curl is connected the relay runs until
/// either side closes.
#[derive(Debug)]
pub(crate) struct Relay {
    path: PathBuf,
    facts: Arc<Facts>,
    _stop_waiting: oneshot::Sender<()>,
}

/// A relay's socket, bound and not yet serving: the fallible local step,
/// taken before the TCP connection is opened, so that a relay that cannot
/// start opens no connection.
#[derive(Debug)]
pub(crate) struct Listening {
    path: PathBuf,
    /// `None` once handed to the relay's task.
    listener: Option<UnixListener>,
}

impl Listening {
    /// Binds a fresh Unix socket in this process's private directory.
    pub(crate) fn bind() -> io::Result<Listening> {
        let path = socket_path()?;
        let listener = UnixListener::bind(&path)?;
        Ok(Listening {
            path,
            listener: Some(listener),
        })
    }

    /// Relays the socket's first connection from this process to `tcp`.
    pub(crate) fn relay_to(mut self, tcp: TcpStream) -> Relay {
        let facts = Arc::new(Facts::default());
        let (stop_waiting, stopped) = oneshot::channel();
        let listener = self.listener.take().expect("bound until relayed");
        let path = self.path.clone();
        tokio::spawn(serve(listener, path.clone(), tcp, facts.clone(), stopped));
        Relay {
            path,
            facts,
            _stop_waiting: stop_waiting,
        }
    }
}

impl Drop for Listening {
    /// A socket never relayed (its TCP connection failed) takes its path
    /// with it; a relayed one's path is removed by the relay.
    fn drop(&mut self) {
        if self.listener.take().is_some() {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

impl Relay {
    /// Listens on a fresh Unix socket and relays its first connection from
    /// this process to `tcp`.
    #[cfg(test)]
    fn start(tcp: TcpStream) -> io::Result<Relay> {
        Ok(Listening::bind()?.relay_to(tcp))
    }

    /// The socket curl dials.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// What the relay saw so far.
    pub(crate) fn facts(&self) -> &Arc<Facts> {
        &self.facts
    }
}

/// Accepts curl's connection (or stops when the transfer ended without
/// one), removes the socket's path, and relays until both sides are done.
async fn serve(
    listener: UnixListener,
    path: PathBuf,
    tcp: TcpStream,
    facts: Arc<Facts>,
    mut stopped: oneshot::Receiver<()>,
) {
    let curl = loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) if from_this_process(&stream) => break Some(stream),
                // Another process found the path: it gets nothing.
                Ok(_) => continue,
                Err(_) => break None,
            },
            _ = &mut stopped => break None,
        }
    };
    drop(listener);
    let _ = std::fs::remove_file(&path);
    let Some(curl) = curl else {
        return;
    };
    let (curl_read, curl_write) = curl.into_split();
    let (tcp_read, tcp_write) = tcp.into_split();
    tokio::join!(
        towards_server(curl_read, tcp_write, &facts),
        towards_curl(tcp_read, curl_write, &facts),
    );
}

/// Whether the peer of `stream` is this process.
pub(crate) fn from_this_process(stream: &UnixStream) -> bool {
    stream
        .peer_cred()
        .ok()
        .and_then(|cred| cred.pid())
        .is_some_and(|pid| u32::try_from(pid).ok() == Some(std::process::id()))
}

/// curl's bytes, forwarded to the server, each record looked at first.
async fn towards_server(
    mut curl: OwnedReadHalf,
    mut server: tokio::net::tcp::OwnedWriteHalf,
    facts: &Facts,
) {
    let mut records = Records::default();
    let mut buf = vec![0; RELAY_BUFFER_BYTES];
    loop {
        let n = match curl.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        // Marked before the bytes are handed over: the mark may come
        // early, never late. Once sealed, nothing more is forwarded.
        if facts.request.sealed()
            || (records.carry_request(&buf[..n]) && !facts.request.leaving(THE_CONNECTION))
        {
            break;
        }
        if let Err(e) = server.write_all(&buf[..n]).await {
            if facts.request.left() {
                if peer_went_away(e.kind()) {
                    facts.server_reset.set();
                }
                // The server stopped taking the request part-way: it may
                // have answered first (RFC 9112 §9.6), and curl must get
                // to read that answer rather than fail its next write.
                let _ = server.shutdown().await;
                swallow(&mut curl, &mut buf).await;
                return;
            }
            break;
        }
    }
    // curl is done writing (or gone): so is the connection.
    let _ = server.shutdown().await;
}

/// Reads and drops curl's bytes until curl closes its side: the rest of a
/// request the server stopped taking. None of it reaches anyone, so none
/// of it counts as sent; curl's writes succeed meanwhile, and curl reads
/// what the server sent before it ended (an early answer, or the close or
/// reset curl then reports) instead of failing a write first. curl reads
/// before it writes whenever both are ready, so it pulls at most about one
/// more upload buffer before it sees the connection's end.
pub(crate) async fn swallow(curl: &mut OwnedReadHalf, buf: &mut [u8]) {
    while let Ok(1..) = curl.read(buf).await {}
}

/// The server's bytes, forwarded to curl.
async fn towards_curl(
    mut server: tokio::net::tcp::OwnedReadHalf,
    mut curl: OwnedWriteHalf,
    facts: &Facts,
) {
    let mut buf = vec![0; RELAY_BUFFER_BYTES];
    loop {
        match server.read(&mut buf).await {
            Ok(0) => break,
            Ok(n) => {
                if curl.write_all(&buf[..n]).await.is_err() {
                    return;
                }
            }
            Err(e) => {
                if e.kind() == io::ErrorKind::ConnectionReset {
                    facts.server_reset.set();
                }
                break;
            }
        }
    }
    let _ = curl.shutdown().await;
}

/// Where a stream of TLS records is: reading a header, or skipping a
/// record's body.
#[derive(Debug, Default)]
pub(crate) struct Records {
    header: [u8; 5],
    header_len: usize,
    body_left: usize,
    /// Bytes that are not TLS records: nothing more is read from them.
    opaque: bool,
    /// Application-data records no longer than a TLS 1.3 alert are taken
    /// for one (see [`Records::telling_alerts_apart`]).
    alerts_apart: bool,
}

/// The longest TLS 1.3 record that carries an alert: two bytes of alert,
/// the inner content type and a 16-byte AEAD tag (every TLS 1.3 suite
/// rustls offers), unpadded (rustls pads nothing). It is sent as
/// application data (RFC 8446 §5.2), so only its length tells it apart.
const TLS13_ALERT_RECORD_LEN: usize = 2 + 1 + 16;

impl Records {
    /// Records read on a connection curl may close during another
    /// transfer's turn: curl closes a pooled connection it finds unhealthy
    /// with a `close_notify`, which TLS 1.3 sends as an application-data
    /// record of [`TLS13_ALERT_RECORD_LEN`] bytes. Such a record is not
    /// counted as the request. Nothing of a request fits in one: curl's
    /// first write of a request is its whole head (at least
    /// `GET / HTTP/1.1` and a `Host` line), whose record is at least twice
    /// as long.
    pub(crate) fn telling_alerts_apart() -> Self {
        Records {
            alerts_apart: true,
            ..Records::default()
        }
    }

    /// Reads the record boundaries in `bytes`: whether a record that may
    /// carry request bytes starts in them (or the bytes are not TLS).
    pub(crate) fn carry_request(&mut self, mut bytes: &[u8]) -> bool {
        let mut carries = false;
        while !bytes.is_empty() && !self.opaque {
            if self.body_left > 0 {
                let skip = self.body_left.min(bytes.len());
                self.body_left -= skip;
                bytes = &bytes[skip..];
                continue;
            }
            let take = (5 - self.header_len).min(bytes.len());
            self.header[self.header_len..self.header_len + take].copy_from_slice(&bytes[..take]);
            self.header_len += take;
            bytes = &bytes[take..];
            if self.header_len < 5 {
                break;
            }
            self.header_len = 0;
            let len = usize::from(u16::from_be_bytes([self.header[3], self.header[4]]));
            match self.header[0] {
                APPLICATION_DATA if self.alerts_apart && len <= TLS13_ALERT_RECORD_LEN => {}
                APPLICATION_DATA => carries = true,
                CHANGE_CIPHER_SPEC | ALERT | HANDSHAKE | HEARTBEAT => {}
                _ => self.opaque = true,
            }
            self.body_left = len;
        }
        carries || self.opaque
    }
}

/// A fresh socket path in this process's private directory.
pub(crate) fn socket_path() -> io::Result<PathBuf> {
    static DIR: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let dir = DIR
        .get_or_init(|| private_dir().map_err(|e| e.to_string()))
        .as_ref()
        .map_err(|e| io::Error::other(format!("no directory for the relay's sockets: {e}")))?;
    let path = dir.join(format!("{}.sock", NEXT.fetch_add(1, Ordering::Relaxed)));
    if path.as_os_str().len() > MAX_SOCKET_PATH {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("the relay's socket path is too long: {}", path.display()),
        ));
    }
    Ok(path)
}

/// A directory only this user can open, for this process's sockets: under
/// `$TMPDIR`, or `/tmp` when that is too long for socket paths.
fn private_dir() -> io::Result<PathBuf> {
    use std::os::unix::fs::DirBuilderExt;
    let mut base = std::env::temp_dir();
    // Room for "/evident-isahc-<pid>-<nanos>/<n>.sock".
    if base.as_os_str().len() > MAX_SOCKET_PATH - 64 {
        base = PathBuf::from("/tmp");
    }
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let dir = base.join(format!("evident-isahc-{}-{nanos}", std::process::id()));
    std::fs::DirBuilder::new().mode(0o700).create(&dir)?;
    Ok(dir)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn record(kind: u8, len: u16) -> Vec<u8> {
        let mut r = vec![kind, 3, 3];
        r.extend_from_slice(&len.to_be_bytes());
        r.extend(std::iter::repeat_n(0xAB, usize::from(len)));
        r
    }

    #[test]
    fn handshake_records_carry_no_request_in_any_split() {
        let mut wire = record(HANDSHAKE, 300);
        wire.extend(record(CHANGE_CIPHER_SPEC, 1));
        wire.extend(record(HANDSHAKE, 40));
        for step in 1..wire.len() {
            let mut records = Records::default();
            assert!(
                !wire.chunks(step).any(|piece| records.carry_request(piece)),
                "step {step}"
            );
        }
    }

    #[test]
    fn the_first_application_data_record_is_seen_in_any_split() {
        let mut wire = record(HANDSHAKE, 300);
        let start = wire.len();
        wire.extend(record(APPLICATION_DATA, 50));
        for step in 1..wire.len() {
            let mut records = Records::default();
            let first = wire
                .chunks(step)
                .enumerate()
                .find(|(_, piece)| records.carry_request(piece))
                .map(|(i, _)| i);
            // The piece holding the record's fifth header byte.
            assert_eq!(first, Some((start + 4) / step), "step {step}");
        }
    }

    #[test]
    fn a_tls13_alert_counts_as_no_request_only_where_alerts_are_told_apart() {
        let close_notify = record(APPLICATION_DATA, 19);
        let head = record(APPLICATION_DATA, 35);
        for step in 1..close_notify.len() {
            let mut records = Records::telling_alerts_apart();
            assert!(
                !close_notify
                    .chunks(step)
                    .any(|piece| records.carry_request(piece))
            );
            assert!(head.chunks(step).any(|piece| records.carry_request(piece)));
        }
        assert!(Records::default().carry_request(&close_notify));
    }

    #[test]
    fn bytes_that_are_not_tls_count_as_the_request() {
        let mut records = Records::default();
        assert!(records.carry_request(b"GET / HTTP/1.1\r\n"));
        assert!(records.carry_request(&record(HANDSHAKE, 1)));
    }

    /// A relay to a loopback server: the relay and the server's side.
    async fn relayed() -> (Relay, TcpStream) {
        let server = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = server.local_addr().unwrap();
        let relay = Relay::start(TcpStream::connect(addr).await.unwrap()).unwrap();
        let (upstream, _) = server.accept().await.unwrap();
        (relay, upstream)
    }

    /// A relay curl dialed, a handshake record already through it.
    async fn handshake_relayed() -> (Relay, TcpStream, UnixStream) {
        let (relay, mut upstream) = relayed().await;
        let mut curl = UnixStream::connect(relay.path()).await.unwrap();
        curl.write_all(&record(HANDSHAKE, 3)).await.unwrap();
        let mut got = [0; 8];
        upstream.read_exact(&mut got).await.unwrap();
        (relay, upstream, curl)
    }

    #[tokio::test]
    async fn the_relay_forwards_both_ways_and_tells_a_reset() {
        let (relay, mut upstream, mut curl) = handshake_relayed().await;
        upstream.write_all(b"hello").await.unwrap();
        let mut back = [0; 5];
        curl.read_exact(&mut back).await.unwrap();
        assert_eq!(&back, b"hello");

        curl.write_all(&record(APPLICATION_DATA, 2)).await.unwrap();
        let mut data = [0; 7];
        upstream.read_exact(&mut data).await.unwrap();
        assert!(relay.facts().seal(), "a request record left");
        assert!(
            !relay.path().exists(),
            "the path is gone once curl connected"
        );

        // An RST from the server: curl's side closes, and the relay says why.
        upstream.set_zero_linger().unwrap();
        drop(upstream);
        let mut rest = Vec::new();
        let _ = curl.read_to_end(&mut rest).await;
        assert!(relay.facts().server_reset().get());
    }

    /// Four MiB of request body, in 64 KiB writes: far more than the
    /// sockets buffer.
    pub(crate) async fn write_a_large_body(
        mut curl: tokio::net::unix::OwnedWriteHalf,
    ) -> io::Result<()> {
        let chunk = vec![b'x'; 64 * 1024];
        for _ in 0..64 {
            curl.write_all(&chunk).await?;
        }
        Ok(())
    }

    /// A server that reads part of the request, answers, and resets.
    pub(crate) async fn answer_early_then_reset(mut upstream: TcpStream) {
        upstream.set_nodelay(true).unwrap();
        let mut part = vec![0; 64 * 1024];
        upstream.read_exact(&mut part).await.unwrap();
        upstream.write_all(b"the answer").await.unwrap();
        upstream.set_zero_linger().unwrap();
    }

    #[tokio::test]
    async fn a_server_that_answers_and_resets_mid_request_leaves_curl_its_answer() {
        for round in 0..10 {
            let (relay, upstream) = relayed().await;
            let (mut from_relay, to_relay) = UnixStream::connect(relay.path())
                .await
                .unwrap()
                .into_split();
            let writer = tokio::spawn(write_a_large_body(to_relay));
            answer_early_then_reset(upstream).await;
            let mut answer = Vec::new();
            from_relay.read_to_end(&mut answer).await.unwrap();
            assert_eq!(answer, b"the answer", "round {round}");
            // curl's writes never fail before it reads the answer: the
            // rest of the request goes nowhere.
            writer.await.unwrap().unwrap();
            assert!(relay.facts().server_reset().get(), "round {round}");
        }
    }

    #[tokio::test]
    async fn a_sealed_relay_forwards_no_request_record() {
        let (relay, mut upstream, mut curl) = handshake_relayed().await;
        // curl's request is written, but the relay has it only in the
        // socket's buffer when the adapter seals.
        assert!(!relay.facts().seal(), "nothing of the request left");
        curl.write_all(&record(APPLICATION_DATA, 2)).await.unwrap();
        drop(curl);
        let mut rest = Vec::new();
        upstream.read_to_end(&mut rest).await.unwrap();
        assert!(rest.is_empty(), "the request never reached the server");
        assert!(!relay.facts().seal());
    }

    #[tokio::test]
    async fn a_socket_never_relayed_leaves_no_path() {
        let listening = Listening::bind().unwrap();
        let path = listening.path.clone();
        assert!(path.exists());
        drop(listening);
        assert!(!path.exists());
    }

    #[tokio::test]
    async fn a_relay_curl_never_dialed_stops_and_closes_its_connection() {
        let (relay, mut upstream) = relayed().await;
        let path = relay.path().to_owned();
        drop(relay);
        let mut buf = [0; 1];
        assert_eq!(
            upstream.read(&mut buf).await.unwrap(),
            0,
            "the relay closed"
        );
        assert!(!path.exists());
    }
}
