//! Connections reused across transfers, for the operations whose repeat is
//! harmless, with libcurl's own re-send refused before it leaves.
//!
//! A *slot* is a Unix socket the adapter listens on, for one address of one
//! origin, lent to one transfer at a time (that transfer's *turn*). curl
//! keys its connection cache by the socket's path, so a transfer handed a
//! slot reuses the connection the slot's last transfer left in curl's cache
//! (when curl still finds it healthy), and no other transfer can. Every
//! connection curl opens on the slot is dialed by the relay (TCP) and
//! forwarded byte for byte, as the `https://` relay does (relay.rs), and
//! every byte is tied to the turn it belongs to. A turn learns:
//!
//! * whether its request may have left, and on which connection: one open
//!   before the turn began is a reused one;
//! * that curl opened another connection after the request left on one:
//!   that is `Curl_retry_request`, libcurl re-sending a request whose
//!   reused connection died before the first response byte. The relay
//!   refuses that connection: it never dials it, so the server never sees
//!   the second send; curl's transfer fails, and the attempt reports what
//!   the first connection showed (the request sent, the connection closed
//!   or reset, no answer), as every other engine reports it. The core then
//!   retries or not, by the rules, as an attempt of its own;
//! * that the server closed or reset the connection that carried it, and a
//!   TCP connect that failed (the relay dials);
//! * in plaintext, when the request's head was written: the bytes up to its
//!   blank line went to the server (and, for a bodyless request, all of it).
//!
//! Over TLS only records are seen: an application-data record counts as the
//! request, except one no longer than a TLS 1.3 alert (curl's
//! `close_notify` to a connection it found unhealthy, which it may send
//! during the next transfer's turn; see `Records::telling_alerts_apart`).
//!
//! Three rules keep those facts exact:
//!
//! * a connection that gets bytes while no turn runs on its slot, from curl
//!   or from the server, is closed and forwards nothing: a status a server
//!   sends on an idle connection before closing it (a 408) never becomes
//!   the next request's answer;
//! * once the server's side of a connection ends, the relay forwards
//!   nothing more: a request curl writes onto a connection the server
//!   closed never leaves the process. It closes curl's side, except when
//!   the turn's request was under way on that connection: then it reads
//!   and drops the rest of it (`relay::swallow`), so that curl reads what
//!   the server sent, an early answer (RFC 9112 §9.6) or the end, before
//!   a write of its fails;
//! * once a turn's request left on one connection, no other connection
//!   forwards a byte of it (curl's re-send is refused at its accept
//!   already; this rule stops, on its own, any byte that got past that).
//!
//! A slot idle for a whole idle timeout ends its relay and connections by
//! itself; the pool ([`Slots`]) keeps at most `max_idle_per_origin` idle
//! slots per origin and address, and hands out none older than the idle
//! timeout.

use std::collections::HashMap;
use std::io;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use evident_core::engine::peer_went_away;
use evident_core::{AttemptStage, Origin, Progress};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{UnixListener, UnixStream};
use tokio::sync::watch;

use crate::body::ResetSeen;
use crate::engine::dial;
use crate::relay::{
    RELAY_BUFFER_BYTES, Records, RequestGate, from_this_process, socket_path, swallow,
};

/// What one turn saw.
#[derive(Debug, Default)]
pub(crate) struct TurnFacts {
    request: RequestGate,
    /// The server reset the carrier.
    server_reset: Arc<ResetSeen>,
    /// curl opened another connection once the request had left: its own
    /// re-send, refused.
    resend_refused: AtomicBool,
    /// The relay's TCP connect for this turn failed.
    connect_error: Mutex<Option<io::Error>>,
    /// How much of the blank line that ends a plaintext request head the
    /// carrier forwarded: [`HEAD_END`]'s bytes matched so far, its length
    /// once the head is whole.
    head_scan: AtomicU8,
}

/// The bytes that end a request head (RFC 9112 §2.1).
const HEAD_END: &[u8; 4] = b"\r\n\r\n";

impl TurnFacts {
    /// Reads `bytes`, the next the carrier forwards of a plaintext request:
    /// whether the head ends in them (once per turn).
    fn head_ends_in(&self, bytes: &[u8]) -> bool {
        let mut matched = usize::from(self.head_scan.load(Ordering::Acquire));
        if matched == HEAD_END.len() {
            return false;
        }
        for &b in bytes {
            matched = if b == HEAD_END[matched] {
                matched + 1
            } else if b == HEAD_END[0] {
                1
            } else {
                0
            };
            if matched == HEAD_END.len() {
                break;
            }
        }
        self.head_scan.store(matched as u8, Ordering::Release);
        matched == HEAD_END.len()
    }

    /// See [`RequestGate::seal`].
    pub(crate) fn seal(&self) -> bool {
        self.request.seal()
    }

    /// Whether the server reset the connection that carried the request.
    pub(crate) fn server_reset(&self) -> &Arc<ResetSeen> {
        &self.server_reset
    }

    /// Whether curl tried to send the request again on another connection
    /// (refused: it never left).
    pub(crate) fn resend_refused(&self) -> bool {
        self.resend_refused.load(Ordering::Acquire)
    }

    /// The relay's failed TCP connect, taken once.
    pub(crate) fn take_connect_error(&self) -> Option<io::Error> {
        self.connect_error.lock().expect("not poisoned").take()
    }
}

/// One turn: the transfer a slot serves now.
#[derive(Debug)]
struct Turn {
    facts: Arc<TurnFacts>,
    progress: Progress,
    /// How long the relay may take to connect TCP for this turn (`None`:
    /// unbounded).
    connect_limit: Option<Duration>,
    /// The request has no body: its head is all of it.
    bodyless: bool,
    /// Connections numbered below this were open before the turn began.
    first_conn: u64,
}

/// What the relay's tasks and the slot's holder share.
#[derive(Debug)]
struct Shared {
    addr: SocketAddr,
    tls: bool,
    turn: Mutex<Option<Arc<Turn>>>,
    next_conn: AtomicU64,
    /// Connections relayed and still open.
    open: AtomicUsize,
    /// The accept loop ended: nothing more will be relayed.
    closed: AtomicBool,
    /// Turns begun so far.
    turns: AtomicU64,
    /// How long the slot may sit idle before its relay ends by itself.
    idle_timeout: Duration,
}

impl Shared {
    fn turn(&self) -> Option<Arc<Turn>> {
        self.turn.lock().expect("not poisoned").clone()
    }
}

/// A slot: its socket, and the relay behind it. Dropping it stops the
/// relay, closes its connections and removes the socket's path.
#[derive(Debug)]
pub(crate) struct Slot {
    path: PathBuf,
    shared: Arc<Shared>,
    _stop: watch::Sender<()>,
}

impl Slot {
    /// Binds a fresh socket for `addr` and starts its relay.
    fn bind(addr: SocketAddr, tls: bool, idle_timeout: Duration) -> io::Result<Slot> {
        let path = socket_path()?;
        let listener = UnixListener::bind(&path)?;
        let shared = Arc::new(Shared {
            addr,
            tls,
            turn: Mutex::new(None),
            next_conn: AtomicU64::new(1),
            open: AtomicUsize::new(0),
            closed: AtomicBool::new(false),
            turns: AtomicU64::new(0),
            idle_timeout,
        });
        let (stop, stopped) = watch::channel(());
        tokio::spawn(serve(listener, path.clone(), shared.clone(), stopped));
        Ok(Slot {
            path,
            shared,
            _stop: stop,
        })
    }

    /// The socket curl dials.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Starts a turn: the relay ties what it forwards to it from now on.
    pub(crate) fn begin(
        &self,
        progress: &Progress,
        connect_limit: Option<Duration>,
        bodyless: bool,
    ) -> Arc<TurnFacts> {
        let facts = Arc::new(TurnFacts::default());
        let turn = Turn {
            facts: facts.clone(),
            progress: progress.clone(),
            connect_limit,
            bodyless,
            first_conn: self.shared.next_conn.load(Ordering::Acquire),
        };
        let _ = self.shared.turns.fetch_add(1, Ordering::AcqRel);
        *self.shared.turn.lock().expect("not poisoned") = Some(Arc::new(turn));
        facts
    }

    /// Ends the turn: the slot is idle.
    fn end(&self) {
        *self.shared.turn.lock().expect("not poisoned") = None;
    }

    /// Whether a connection curl may reuse is open on the slot.
    fn holds_a_connection(&self) -> bool {
        !self.shared.closed.load(Ordering::Acquire) && self.shared.open.load(Ordering::Acquire) > 0
    }
}

/// The key of a slot: an origin (what curl checks before reusing) and the
/// address its connections go to.
type SlotKey = (Origin, SocketAddr);

/// Idle slots, each with the instant it became idle, most recent last,
/// and when they were last swept.
#[derive(Debug)]
struct IdleSlots {
    by_key: HashMap<SlotKey, Vec<(Instant, Slot)>>,
    swept: Instant,
}

impl Default for IdleSlots {
    fn default() -> Self {
        IdleSlots {
            by_key: HashMap::new(),
            swept: Instant::now(),
        }
    }
}

/// How often a check-in drops every idle slot that expired or lost its
/// connection, whatever its origin.
const SWEEP_INTERVAL: Duration = Duration::from_secs(1);

/// The idle slots, per origin and address.
#[derive(Debug, Clone)]
pub(crate) struct Slots {
    idle: Arc<Mutex<IdleSlots>>,
    max_idle_per_origin: usize,
    idle_timeout: Duration,
}

impl Slots {
    pub(crate) fn new(max_idle_per_origin: usize, idle_timeout: Duration) -> Self {
        Slots {
            idle: Arc::default(),
            max_idle_per_origin,
            idle_timeout,
        }
    }

    /// A slot for a transfer to `addr`: the most recently used idle one
    /// that still holds a connection, or a new one.
    pub(crate) fn checkout(&self, origin: &Origin, addr: SocketAddr) -> io::Result<Lease> {
        let key = (origin.clone(), addr);
        let reused = {
            let mut idle = self.idle.lock().expect("not poisoned");
            let idle = &mut idle.by_key;
            let mut found = None;
            if let Some(slots) = idle.get_mut(&key) {
                while let Some((since, slot)) = slots.pop() {
                    if since.elapsed() < self.idle_timeout && slot.holds_a_connection() {
                        found = Some(slot);
                        break;
                    }
                }
                if slots.is_empty() {
                    idle.remove(&key);
                }
            }
            found
        };
        let slot = match reused {
            Some(slot) => slot,
            None => Slot::bind(addr, origin.is_https(), self.idle_timeout)?,
        };
        Ok(Lease {
            held: Some((key, slot)),
            slots: self.clone(),
        })
    }

    fn check_in(&self, key: SlotKey, slot: Slot) {
        if !slot.holds_a_connection() {
            return;
        }
        let usable = |(since, slot): &(Instant, Slot)| {
            since.elapsed() < self.idle_timeout && slot.holds_a_connection()
        };
        let mut idle = self.idle.lock().expect("not poisoned");
        if idle.swept.elapsed() >= SWEEP_INTERVAL {
            idle.by_key.retain(|_, slots| {
                slots.retain(usable);
                !slots.is_empty()
            });
            idle.swept = Instant::now();
        }
        let slots = idle.by_key.entry(key).or_default();
        slots.retain(usable);
        if slots.len() < self.max_idle_per_origin {
            slots.push((Instant::now(), slot));
        }
    }
}

/// A slot lent to one transfer. [`Lease::check_in`] gives it back once the
/// transfer is over; dropped otherwise, it seals its turn and closes the
/// slot with its connections (a transfer cut short leaves nothing to
/// reuse).
#[derive(Debug)]
pub(crate) struct Lease {
    /// `None` once checked in.
    held: Option<(SlotKey, Slot)>,
    slots: Slots,
}

impl Lease {
    pub(crate) fn slot(&self) -> &Slot {
        &self.held.as_ref().expect("held until checked in").1
    }

    /// The transfer is over, its answer whole: the slot is idle again.
    pub(crate) fn check_in(mut self) {
        if let Some((key, slot)) = self.held.take() {
            slot.end();
            self.slots.check_in(key, slot);
        }
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        if let Some((_, slot)) = self.held.take()
            && let Some(turn) = slot.shared.turn()
        {
            let _ = turn.facts.seal();
        }
    }
}

/// Marks the slot closed when its accept loop ends, however it ends.
struct ClosedOnDrop(Arc<Shared>);

impl Drop for ClosedOnDrop {
    fn drop(&mut self) {
        self.0.closed.store(true, Ordering::Release);
    }
}

/// Counts a relayed connection open while it lives.
struct OpenWhileAlive(Arc<Shared>);

impl OpenWhileAlive {
    fn new(shared: &Arc<Shared>) -> Self {
        let _ = shared.open.fetch_add(1, Ordering::AcqRel);
        OpenWhileAlive(shared.clone())
    }
}

impl Drop for OpenWhileAlive {
    fn drop(&mut self) {
        let _ = self.0.open.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Accepts curl's connections until the slot is dropped, or has had no
/// turn for a whole idle timeout (so between one and two idle timeouts
/// after its last), relaying each. Its connections end with it.
async fn serve(
    listener: UnixListener,
    path: PathBuf,
    shared: Arc<Shared>,
    mut stopped: watch::Receiver<()>,
) {
    let _closed = ClosedOnDrop(shared.clone());
    let (_end_connections, ended) = watch::channel(());
    let period = shared.idle_timeout;
    let mut idle_check = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
    let mut turns_seen = shared.turns.load(Ordering::Acquire);
    loop {
        let curl = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) if from_this_process(&stream) => stream,
                // Another process found the path: it gets nothing.
                Ok(_) => continue,
                Err(_) => break,
            },
            _ = stopped.changed() => break,
            _ = idle_check.tick() => {
                let turns = shared.turns.load(Ordering::Acquire);
                if turns == turns_seen && shared.turn().is_none() {
                    break;
                }
                turns_seen = turns;
                continue;
            }
        };
        let conn = shared.next_conn.fetch_add(1, Ordering::AcqRel);
        tokio::spawn(relay_connection(curl, conn, shared.clone(), ended.clone()));
    }
    drop(listener);
    let _ = std::fs::remove_file(&path);
}

/// One connection curl opened on the slot: dialed for the turn that opened
/// it, then relayed until either side ends or the slot's relay does.
async fn relay_connection(
    curl: UnixStream,
    conn: u64,
    shared: Arc<Shared>,
    mut stopped: watch::Receiver<()>,
) {
    // curl connects only for a transfer: no turn, nothing to dial for.
    let Some(turn) = shared.turn() else { return };
    if turn.facts.request.left() {
        // The request left on another connection already: this is curl
        // sending it again. Closed unanswered, it never reaches the server.
        turn.facts.resend_refused.store(true, Ordering::Release);
        return;
    }
    let connected = tokio::select! {
        connected = dial(shared.addr, turn.connect_limit) => connected,
        _ = stopped.changed() => return,
    };
    let tcp = match connected {
        Ok(tcp) => tcp,
        Err(e) => {
            *turn.facts.connect_error.lock().expect("not poisoned") = Some(e);
            return;
        }
    };
    if turn.facts.request.sealed() {
        return;
    }
    if shared.tls {
        // TCP is up: a handshake that stalls now stalls at `tls`.
        turn.progress.enter(AttemptStage::Tls);
    }
    drop(turn);
    let open = OpenWhileAlive::new(&shared);
    let (mut curl_read, curl_write) = curl.into_split();
    let (tcp_read, tcp_write) = tcp.into_split();
    // The server's side ending ends the connection: nothing of curl's is
    // forwarded after it. curl's side ending (or a write to the server
    // failing) leaves the server's to be read to its end: an answer or a
    // reset may still come. A rule broken ends it at once.
    let to_curl = towards_curl(tcp_read, curl_write, conn, &shared);
    tokio::pin!(to_curl);
    let mut buf = vec![0; RELAY_BUFFER_BYTES];
    let to_server = tokio::select! {
        end = towards_server(&mut curl_read, tcp_write, conn, &shared, &mut buf) => end,
        () = &mut to_curl => {
            // The server ended its side while curl was still writing. If
            // that was the turn's request, the server may have answered it
            // early (RFC 9112 §9.6): curl gets to read the answer, and the
            // rest of the request goes nowhere.
            drop(open);
            if carrying_the_turn(&shared, conn) {
                tokio::select! {
                    () = swallow(&mut curl_read, &mut buf) => {}
                    _ = stopped.changed() => {}
                }
            }
            return;
        }
        _ = stopped.changed() => return,
    };
    // Once curl's side is over, curl cannot reuse the connection.
    drop(open);
    match to_server {
        ToServer::Ended => tokio::select! {
            () = to_curl => {}
            _ = stopped.changed() => {}
        },
        // As above: the server's side is read to its end (the answer),
        // while the rest of the request goes nowhere.
        ToServer::Cut => tokio::select! {
            _ = async { tokio::join!(to_curl, swallow(&mut curl_read, &mut buf)) } => {}
            _ = stopped.changed() => {}
        },
        ToServer::Refused => {}
    }
}

/// Whether a turn runs whose request connection `conn` carried.
fn carrying_the_turn(shared: &Shared, conn: u64) -> bool {
    shared
        .turn()
        .is_some_and(|turn| turn.facts.request.carried_by(conn))
}

/// How forwarding curl's bytes ended.
#[derive(Debug, PartialEq, Eq)]
enum ToServer {
    /// curl closed, or a write to the server failed before the turn's
    /// request was on this connection.
    Ended,
    /// A write of the turn's request to the server failed: the server
    /// stopped taking it, and may have answered first.
    Cut,
    /// Bytes that may not be forwarded: the connection ends.
    Refused,
}

/// curl's bytes, forwarded to the server when they belong to the turn.
async fn towards_server(
    curl: &mut tokio::net::unix::OwnedReadHalf,
    mut server: tokio::net::tcp::OwnedWriteHalf,
    conn: u64,
    shared: &Shared,
    buf: &mut [u8],
) -> ToServer {
    let mut records = Records::telling_alerts_apart();
    loop {
        let n = match curl.read(buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        // Between turns curl writes nothing but a close.
        let Some(turn) = shared.turn() else {
            return ToServer::Refused;
        };
        let carries = !shared.tls || records.carry_request(&buf[..n]);
        // Marked before the bytes are handed over: the mark may come
        // early, never late.
        if turn.facts.request.sealed() || (carries && !turn.facts.request.leaving(conn)) {
            return ToServer::Refused;
        }
        if carries {
            turn.progress.connection_reused(conn < turn.first_conn);
        }
        // In plaintext the relay sees where the head ends: once those bytes
        // are written, so is the head (and, without a body, the request).
        let head_ends = !shared.tls && turn.facts.head_ends_in(&buf[..n]);
        if let Err(e) = server.write_all(&buf[..n]).await {
            let _ = server.shutdown().await;
            if !turn.facts.request.carried_by(conn) {
                return ToServer::Ended;
            }
            if peer_went_away(e.kind()) {
                turn.facts.server_reset.set();
            }
            return ToServer::Cut;
        }
        if head_ends {
            if turn.bodyless {
                turn.progress.body_written();
            } else {
                turn.progress.head_written();
            }
        }
    }
    let _ = server.shutdown().await;
    ToServer::Ended
}

/// The server's bytes, forwarded to curl while a turn runs.
async fn towards_curl(
    mut server: tokio::net::tcp::OwnedReadHalf,
    mut curl: tokio::net::unix::OwnedWriteHalf,
    conn: u64,
    shared: &Shared,
) {
    let mut buf = vec![0; RELAY_BUFFER_BYTES];
    loop {
        match server.read(&mut buf).await {
            Ok(0) => break,
            Ok(n) => {
                if shared.turn().is_none() || curl.write_all(&buf[..n]).await.is_err() {
                    break;
                }
            }
            Err(e) => {
                if e.kind() == io::ErrorKind::ConnectionReset
                    && let Some(turn) = shared.turn()
                    && turn.facts.request.carried_by(conn)
                {
                    turn.facts.server_reset.set();
                }
                break;
            }
        }
    }
    let _ = curl.shutdown().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    const IDLE: Duration = Duration::from_secs(90);

    #[test]
    fn one_connection_carries_a_turns_request_and_no_other() {
        let gate = RequestGate::default();
        assert!(!gate.left());
        assert!(gate.leaving(3));
        assert!(gate.leaving(3), "the carrier goes on");
        assert!(!gate.leaving(4), "no second carrier");
        assert!(gate.carried_by(3) && !gate.carried_by(4));
        assert!(gate.seal(), "it left");
        assert!(
            gate.leaving(3),
            "sealing after it left stops nothing it carried"
        );
        let unsent = RequestGate::default();
        assert!(!unsent.seal(), "nothing left");
        assert!(unsent.sealed() && !unsent.left());
        assert!(!unsent.leaving(1), "and nothing will");
        assert!(!unsent.seal(), "sealed twice, still nothing");
    }

    /// A slot to a loopback server; the server's listener.
    async fn slot() -> (Slot, tokio::net::TcpListener) {
        let server = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let slot = Slot::bind(server.local_addr().unwrap(), false, IDLE).unwrap();
        (slot, server)
    }

    #[test]
    fn the_head_ends_at_its_blank_line_in_any_split() {
        let request = b"GET / HTTP/1.1\r\nhost: a\r\n\r\r\n\r\nbody";
        let end = request.windows(4).position(|w| w == HEAD_END).unwrap() + 4;
        for step in 1..request.len() {
            let facts = TurnFacts::default();
            let ends: Vec<_> = request
                .chunks(step)
                .enumerate()
                .filter(|(_, piece)| facts.head_ends_in(piece))
                .map(|(i, _)| i)
                .collect();
            assert_eq!(ends, [(end - 1) / step], "step {step}");
        }
        let facts = TurnFacts::default();
        assert!(!facts.head_ends_in(b"GET / HTTP/1.1\r\nhost: a\r\n\r"));
    }

    #[tokio::test]
    async fn a_plaintext_head_is_written_once_its_blank_line_is() {
        for (bodyless, stage) in [
            (true, AttemptStage::AwaitHead),
            (false, AttemptStage::WriteBody),
        ] {
            let (slot, server) = slot().await;
            let progress = Progress::new();
            let _turn = slot.begin(&progress, None, bodyless);
            let mut curl = UnixStream::connect(slot.path()).await.unwrap();
            curl.write_all(b"GET / HTTP/1.1\r\nhost: a\r\n")
                .await
                .unwrap();
            let (mut upstream, _) = server.accept().await.unwrap();
            let mut got = [0; 25];
            upstream.read_exact(&mut got).await.unwrap();
            assert!(
                !progress.snapshot().head_written(),
                "the head is not whole yet"
            );
            curl.write_all(b"\r\n").await.unwrap();
            upstream.read_exact(&mut got[..2]).await.unwrap();
            tokio::time::timeout(Duration::from_secs(5), async {
                while progress.snapshot().stage() != Some(stage) {
                    tokio::task::yield_now().await;
                }
            })
            .await
            .expect("the head is written");
            assert!(progress.snapshot().head_written());
        }
    }

    #[tokio::test]
    async fn a_second_connection_after_the_request_left_is_refused_undialed() {
        let (slot, server) = slot().await;
        let turn = slot.begin(&Progress::new(), None, false);
        let mut first = UnixStream::connect(slot.path()).await.unwrap();
        first.write_all(b"GET / HTTP/1.1\r\n\r\n").await.unwrap();
        let (mut upstream, _) = server.accept().await.unwrap();
        let mut got = [0; 18];
        upstream.read_exact(&mut got).await.unwrap();
        // The server closes without an answer; curl would now send the
        // request again, on a new connection.
        drop(upstream);
        let mut rest = Vec::new();
        let _ = first.read_to_end(&mut rest).await;
        let mut second = UnixStream::connect(slot.path()).await.unwrap();
        let _ = second.write_all(b"GET / HTTP/1.1\r\n\r\n").await;
        let mut answer = Vec::new();
        let _ = second.read_to_end(&mut answer).await;
        assert!(answer.is_empty());
        assert!(turn.resend_refused());
        assert!(turn.seal(), "the request left, once");
        let dialed = tokio::time::timeout(Duration::from_millis(50), server.accept()).await;
        assert!(dialed.is_err(), "the second connection was never dialed");
    }

    #[tokio::test]
    async fn bytes_on_an_idle_connection_close_it_unforwarded() {
        let (slot, server) = slot().await;
        let (mut curl, mut upstream) = one_exchange(&slot, &server).await;
        // Idle, the server sends a status and would close: curl never
        // sees it, and the connection is gone.
        upstream
            .write_all(b"HTTP/1.1 408 Request Timeout\r\n\r\n")
            .await
            .unwrap();
        let mut rest = Vec::new();
        let _ = curl.read_to_end(&mut rest).await;
        assert!(rest.is_empty(), "nothing forwarded between turns");
        let mut closed = Vec::new();
        let _ = upstream.read_to_end(&mut closed).await;
        assert!(closed.is_empty());
        tokio::time::timeout(Duration::from_secs(5), async {
            while slot.holds_a_connection() {
                tokio::task::yield_now().await;
            }
        })
        .await
        .expect("the slot no longer offers the connection");
    }

    const OK: &[u8] = b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n";

    /// One turn on `slot`: a request and its answer on a new connection,
    /// then the slot idle with the connection open. curl's side and the
    /// server's.
    async fn one_exchange(
        slot: &Slot,
        server: &tokio::net::TcpListener,
    ) -> (UnixStream, tokio::net::TcpStream) {
        let turn = slot.begin(&Progress::new(), None, true);
        let mut curl = UnixStream::connect(slot.path()).await.unwrap();
        curl.write_all(b"GET / HTTP/1.1\r\n\r\n").await.unwrap();
        let (mut upstream, _) = server.accept().await.unwrap();
        let mut got = [0; 18];
        upstream.read_exact(&mut got).await.unwrap();
        upstream.write_all(OK).await.unwrap();
        let mut answer = vec![0; OK.len()];
        curl.read_exact(&mut answer).await.unwrap();
        assert!(turn.seal());
        slot.end();
        assert!(slot.holds_a_connection());
        (curl, upstream)
    }

    #[tokio::test]
    async fn a_server_reset_while_the_body_is_forwarded_is_the_turns() {
        for _ in 0..20 {
            let (slot, server) = slot().await;
            let turn = slot.begin(&Progress::new(), None, false);
            let mut curl = UnixStream::connect(slot.path()).await.unwrap();
            let writer = tokio::spawn(async move {
                let _ = curl.write_all(b"POST / HTTP/1.1\r\n\r\n").await;
                let chunk = vec![b'x'; 64 * 1024];
                for _ in 0..64 {
                    if curl.write_all(&chunk).await.is_err() {
                        break;
                    }
                }
                curl
            });
            let (mut upstream, _) = server.accept().await.unwrap();
            let mut part = vec![0; 1024];
            upstream.read_exact(&mut part).await.unwrap();
            // Closed with unread bytes: the kernel resets.
            drop(upstream);
            let mut curl = writer.await.unwrap();
            let mut rest = Vec::new();
            let _ = curl.read_to_end(&mut rest).await;
            assert!(
                turn.server_reset().get(),
                "the reset is seen, whichever side meets it"
            );
            assert!(turn.seal());
        }
    }

    #[tokio::test]
    async fn a_server_that_answers_and_resets_mid_request_leaves_curl_its_answer() {
        use crate::relay::tests::{answer_early_then_reset, write_a_large_body};
        for round in 0..10 {
            let (slot, server) = slot().await;
            let turn = slot.begin(&Progress::new(), None, false);
            let (mut from_relay, to_relay) =
                UnixStream::connect(slot.path()).await.unwrap().into_split();
            let writer = tokio::spawn(write_a_large_body(to_relay));
            let (upstream, _) = server.accept().await.unwrap();
            answer_early_then_reset(upstream).await;
            let mut answer = Vec::new();
            from_relay.read_to_end(&mut answer).await.unwrap();
            assert_eq!(answer, b"the answer", "round {round}");
            writer.await.unwrap().unwrap();
            assert!(turn.server_reset().get(), "round {round}");
            assert!(turn.seal(), "the request left");
        }
    }

    #[tokio::test]
    async fn a_request_written_after_the_server_closed_never_leaves() {
        let (slot, server) = slot().await;
        let turn = slot.begin(&Progress::new(), None, false);
        let mut curl = UnixStream::connect(slot.path()).await.unwrap();
        let (upstream, _) = server.accept().await.unwrap();
        drop(upstream);
        // The relay closes curl's side once the server's ended.
        let mut rest = Vec::new();
        let _ = curl.read_to_end(&mut rest).await;
        let _ = curl.write_all(b"GET / HTTP/1.1\r\n\r\n").await;
        assert!(!turn.seal(), "nothing of the request left");
    }

    #[tokio::test]
    async fn a_failed_connect_is_the_turns_and_sends_nothing() {
        let server = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = server.local_addr().unwrap();
        drop(server);
        let slot = Slot::bind(addr, false, IDLE).unwrap();
        let turn = slot.begin(&Progress::new(), None, false);
        let mut curl = UnixStream::connect(slot.path()).await.unwrap();
        let _ = curl.write_all(b"GET / HTTP/1.1\r\n\r\n").await;
        let mut rest = Vec::new();
        let _ = curl.read_to_end(&mut rest).await;
        assert!(!turn.seal());
        let error = turn.take_connect_error().expect("the connect failed");
        assert_eq!(error.kind(), io::ErrorKind::ConnectionRefused);
    }

    #[tokio::test]
    async fn a_slot_idle_for_a_whole_idle_timeout_ends_with_its_connections() {
        let server = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let idle = Duration::from_millis(100);
        let started = std::time::Instant::now();
        let slot = Slot::bind(server.local_addr().unwrap(), false, idle).unwrap();
        let (_curl, mut upstream) = one_exchange(&slot, &server).await;
        let mut rest = Vec::new();
        let _ = tokio::time::timeout(Duration::from_secs(5), upstream.read_to_end(&mut rest))
            .await
            .expect("the idle connection is closed");
        assert!(started.elapsed() >= idle, "not before a whole idle timeout");
        assert!(!slot.holds_a_connection());
        assert!(!slot.path().exists(), "the socket is gone");
    }

    #[tokio::test]
    async fn a_dropped_slot_removes_its_path_and_closes_its_connections() {
        let (slot, server) = slot().await;
        let _turn = slot.begin(&Progress::new(), None, false);
        let _curl = UnixStream::connect(slot.path()).await.unwrap();
        let (mut upstream, _) = server.accept().await.unwrap();
        let path = slot.path().to_owned();
        drop(slot);
        let mut rest = Vec::new();
        let _ = upstream.read_to_end(&mut rest).await;
        assert!(rest.is_empty());
        tokio::time::timeout(Duration::from_secs(5), async {
            while path.exists() {
                tokio::task::yield_now().await;
            }
        })
        .await
        .expect("the path is removed");
    }
}
