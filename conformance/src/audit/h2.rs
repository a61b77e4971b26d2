//! The recording HTTP/2 server: the h2 crate's server over an I/O layer
//! that records every byte received and can stop at an exact byte of the
//! connection, plus raw frames where h2 cannot produce the fault.
//!
//! h2 cannot announce a GOAWAY last-stream-id below a stream it has
//! decoded (every GOAWAY it writes carries its last processed id), so for
//! both GOAWAY faults the server stops driving h2 and writes the frame
//! itself, which it does only between frames: the I/O layer follows the
//! frames h2 writes, and a GOAWAY that would land inside one becomes a
//! close. The same scan tells when an answer's HEADERS frame has really
//! been handed to the socket, which is when the book records the answer.

use std::collections::HashMap;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker, ready};
use std::time::Duration;

use bytes::Bytes;
use h2::{Reason, RecvStream};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::{Notify, mpsc};

use super::book::{AttemptTag, ConnLog, record_event, record_received};
use super::server::{DrainEnd, drain_now, read_to_end, until_released};
use super::shape::{Action, Edge, Fault, H2Fault, Protocol};
use super::state::AuditState;

/// Body of an ordinary answer.
const ANSWER_BODY: &[u8] = b"audited";

/// Body bytes a mid-response cut (or a head-then-refused answer) sends.
const PARTIAL_BODY: usize = 512;

/// How long a stream waits for its answer's HEADERS to reach the socket
/// before the connection acts anyway (h2 writes it on its next poll, so
/// this is reached only when the client stopped reading).
const HEAD_WRITTEN_LIMIT: Duration = Duration::from_secs(1);

/// How long a raw GOAWAY may take to write.
const RAW_WRITE_LIMIT: Duration = Duration::from_secs(1);

/// What the connection does when a stream asks it to.
enum Cmd {
    /// Close, reset or stall the whole connection.
    Act {
        action: Action,
        tag: AttemptTag,
        at: String,
        /// The stream's response handle, dropped only after the action so
        /// h2 cannot reset the stream first.
        _keep: Option<h2::server::SendResponse<Bytes>>,
    },
    /// Write a GOAWAY with this last-stream-id and reason, then close.
    GoAway {
        last: u32,
        reason: Reason,
        tag: AttemptTag,
        _keep: Option<h2::server::SendResponse<Bytes>>,
    },
    /// End the connection gracefully after the answers in flight.
    Graceful,
}

/// Follows the frames h2 writes.
#[derive(Debug, Default)]
struct OutScan {
    head: Vec<u8>,
    remaining: usize,
    kind: u8,
    stream: u32,
}

impl OutScan {
    /// Feeds written bytes; returns the streams whose HEADERS frame was
    /// completed.
    fn feed(&mut self, mut data: &[u8]) -> Vec<u32> {
        let mut done = Vec::new();
        while !data.is_empty() {
            if self.remaining == 0 && self.head.len() < 9 {
                let take = (9 - self.head.len()).min(data.len());
                self.head.extend_from_slice(&data[..take]);
                data = &data[take..];
                if self.head.len() == 9 {
                    let h = &self.head;
                    self.remaining =
                        (usize::from(h[0]) << 16) | (usize::from(h[1]) << 8) | usize::from(h[2]);
                    self.kind = h[3];
                    self.stream = u32::from_be_bytes([h[5], h[6], h[7], h[8]]) & 0x7fff_ffff;
                    if self.remaining == 0 {
                        self.frame_done(&mut done);
                    }
                }
                continue;
            }
            let take = self.remaining.min(data.len());
            self.remaining -= take;
            data = &data[take..];
            if self.remaining == 0 {
                self.frame_done(&mut done);
            }
        }
        done
    }

    fn frame_done(&mut self, done: &mut Vec<u32>) {
        if self.kind == 1 {
            done.push(self.stream);
        }
        self.head.clear();
    }

    /// Whether the last frame written is complete.
    fn between_frames(&self) -> bool {
        self.head.is_empty() && self.remaining == 0
    }
}

/// What the connection task, its I/O and its streams share.
struct Shared {
    log: Arc<Mutex<ConnLog>>,
    state: Arc<AuditState>,
    lane: usize,
    scan: Mutex<OutScan>,
    /// Answers waiting for their HEADERS frame to be written, by stream.
    pending: Mutex<HashMap<u32, (AttemptTag, u16)>>,
    written: Notify,
    /// Stop reading at this many bytes of the connection (`usize::MAX`:
    /// never).
    cut_at: AtomicUsize,
    /// Reading is paused (a stall); the reader's waker, to resume it.
    paused: AtomicBool,
    reader: Mutex<Option<Waker>>,
    /// The connection stalled: every stream from now on is held unanswered.
    held: AtomicBool,
    /// Ask the driver to end the connection gracefully.
    graceful: Notify,
}

impl Shared {
    fn event(&self, text: String) {
        record_event(&self.log, text);
    }

    fn record(&self, data: &[u8]) {
        record_received(&self.log, &self.state, self.lane, data);
    }

    fn wrote(&self, data: &[u8]) {
        let done = self
            .scan
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .feed(data);
        if done.is_empty() {
            return;
        }
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        for stream in done {
            if let Some((tag, status)) = pending.remove(&stream) {
                self.state.book().answered(tag, status);
                self.event(format!(
                    "answer head {status} written for {tag} (stream {stream})"
                ));
            }
        }
        self.written.notify_waiters();
    }

    /// Stops reading (and holds every later stream): a stall.
    fn pause(&self) {
        self.held.store(true, Ordering::Release);
        self.paused.store(true, Ordering::Release);
    }

    /// Reads again, every byte: after a stall the server keeps decoding,
    /// so each stream opened on the stalled connection is known by its tag.
    fn resume(&self) {
        self.cut_at.store(usize::MAX, Ordering::Release);
        self.paused.store(false, Ordering::Release);
        if let Some(waker) = self.reader.lock().unwrap_or_else(|e| e.into_inner()).take() {
            waker.wake();
        }
    }

    fn awaiting_head(&self, stream: u32) -> bool {
        self.pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains_key(&stream)
    }
}

/// The I/O under h2: records what it reads, scans what it writes, and
/// stops reading at `cut_at` bytes of the connection.
struct RecIo {
    stream: Arc<TcpStream>,
    shared: Arc<Shared>,
    read_total: usize,
    reached: Arc<Notify>,
}

impl AsyncRead for RecIo {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        loop {
            let cut = this.shared.cut_at.load(Ordering::Acquire);
            if this.shared.paused.load(Ordering::Acquire) || this.read_total >= cut {
                // Woken by `Shared::resume`, or never (the connection task
                // acts instead).
                *this.shared.reader.lock().unwrap_or_else(|e| e.into_inner()) =
                    Some(cx.waker().clone());
                let cut = this.shared.cut_at.load(Ordering::Acquire);
                if this.shared.paused.load(Ordering::Acquire) || this.read_total >= cut {
                    return Poll::Pending;
                }
                continue;
            }
            let limit = buf.remaining().min(cut - this.read_total);
            ready!(this.stream.poll_read_ready(cx))?;
            let dst = buf.initialize_unfilled_to(limit);
            match this.stream.try_read(dst) {
                Ok(n) => {
                    this.shared.record(&dst[..n]);
                    this.read_total += n;
                    buf.advance(n);
                    if this.read_total >= cut {
                        this.reached.notify_one();
                    }
                    return Poll::Ready(Ok(()));
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => continue,
                Err(e) => return Poll::Ready(Err(e)),
            }
        }
    }
}

impl AsyncWrite for RecIo {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        loop {
            ready!(this.stream.poll_write_ready(cx))?;
            match this.stream.try_write(data) {
                Ok(n) => {
                    this.shared.wrote(&data[..n]);
                    return Poll::Ready(Ok(n));
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => continue,
                Err(e) => return Poll::Ready(Err(e)),
            }
        }
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let _ = socket2::SockRef::from(&*self.stream).shutdown(std::net::Shutdown::Write);
        Poll::Ready(Ok(()))
    }
}

/// Serves one accepted HTTP/2 connection, then decodes every stream it
/// received (see [`decode_streams`]).
pub(crate) async fn serve(stream: TcpStream, state: Arc<AuditState>, lane: usize, number: u64) {
    let log = state
        .book()
        .open(ConnLog::new(lane, Protocol::Http2, number));
    serve_live(stream, state, lane, log.clone()).await;
    let bytes = log.lock().unwrap_or_else(|e| e.into_inner()).bytes.clone();
    let decoded = decode_streams(bytes).await;
    let mut log = log.lock().unwrap_or_else(|e| e.into_inner());
    for (id, tag) in decoded {
        log.streams.entry(id).or_insert(tag);
    }
    log.seal();
}

/// How long decoding one connection's bytes may take (it is all in
/// memory, so only a bug reaches this).
const DECODE_LIMIT: Duration = Duration::from_secs(5);

/// Every stream's tag in a connection's received bytes, decoded by h2
/// itself replaying them: the live server stops decoding when it cuts or
/// sends a GOAWAY, and a HEADERS frame can only be read with the
/// connection's whole HPACK state, so the tag of a stream that arrived
/// after that point is found here. The replaying server grants the largest
/// flow-control windows, so no DATA the live server accepted can exceed
/// them; it reads everything in one go and stops when no stream is left.
async fn decode_streams(bytes: Vec<u8>) -> Vec<(u32, AttemptTag)> {
    let io = Replay {
        data: Bytes::from(bytes),
    };
    let mut found = Vec::new();
    let mut builder = h2::server::Builder::new();
    builder
        .initial_window_size(MAX_WINDOW)
        .initial_connection_window_size(MAX_WINDOW)
        .max_concurrent_streams(u32::MAX);
    let decoded = tokio::time::timeout(DECODE_LIMIT, async {
        let Ok(mut conn) = builder.handshake::<_, Bytes>(io).await else {
            return;
        };
        let mut held = Vec::new();
        loop {
            tokio::select! {
                biased;
                accepted = conn.accept() => match accepted {
                    Some(Ok((request, respond))) => {
                        let id = respond.stream_id().as_u32();
                        if let Some(tag) = AttemptTag::find_in(request.uri().path().as_bytes()) {
                            found.push((id, tag));
                        }
                        held.push((request, respond));
                    }
                    _ => return,
                },
                // Every byte was read and no stream is left to accept.
                () = std::future::ready(()) => return,
            }
        }
    })
    .await;
    let _ = decoded;
    found
}

/// The largest stream id, which a graceful shutdown's first GOAWAY
/// carries (RFC 9113 §6.8).
const MAX_STREAM_ID: u32 = (1 << 31) - 1;

/// The largest HTTP/2 flow-control window (RFC 9113 §6.9.1).
const MAX_WINDOW: u32 = (1 << 31) - 1;

/// Recorded bytes played back as a connection: read once, then pending
/// forever (never an end of stream, which would make h2 fail the
/// connection before handing out the streams it decoded); whatever h2
/// writes is dropped.
struct Replay {
    data: Bytes,
}

impl AsyncRead for Replay {
    fn poll_read(
        mut self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if self.data.is_empty() {
            return Poll::Pending;
        }
        let n = self.data.len().min(buf.remaining());
        let chunk = self.data.split_to(n);
        buf.put_slice(&chunk);
        Poll::Ready(Ok(()))
    }
}

impl AsyncWrite for Replay {
    fn poll_write(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        Poll::Ready(Ok(data.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

async fn serve_live(
    stream: TcpStream,
    state: Arc<AuditState>,
    lane: usize,
    log: Arc<Mutex<ConnLog>>,
) {
    let stream = Arc::new(stream);
    let shared = Arc::new(Shared {
        log,
        state: state.clone(),
        lane,
        scan: Mutex::new(OutScan::default()),
        pending: Mutex::new(HashMap::new()),
        written: Notify::new(),
        cut_at: AtomicUsize::new(usize::MAX),
        paused: AtomicBool::new(false),
        reader: Mutex::new(None),
        held: AtomicBool::new(false),
        graceful: Notify::new(),
    });
    let in_flight = state.lanes[lane].current();
    shared.event(format!(
        "accepted (attempt in flight: {})",
        in_flight.map_or("none".to_owned(), |t| t.to_string())
    ));
    let mut cut = None;
    if let Some(tag) = in_flight {
        match state.fault(tag) {
            // A stall keeps h2 alive (see below): it is a cut at byte 0.
            Fault::Cut(Edge::HandOver, Action::Stall) => cut = Some((0, Action::Stall, tag)),
            Fault::Cut(Edge::HandOver, action) => {
                act(&stream, &shared, action, Some(tag), "at accept").await;
                return;
            }
            Fault::Cut(Edge::RequestBytes(n), action) => cut = Some((n, action, tag)),
            _ => {}
        }
    }
    let reached = Arc::new(Notify::new());
    if let Some((n, _, _)) = cut {
        shared.cut_at.store(n, Ordering::Release);
        if n == 0 {
            reached.notify_one();
        }
    }
    let io = RecIo {
        stream: stream.clone(),
        shared: shared.clone(),
        read_total: 0,
        reached: reached.clone(),
    };
    let mut orders = state.lanes[lane].idle.subscribe();
    orders.borrow_and_update();
    let mut shutdown = state.shutdown.subscribe();
    let (tx, mut rx) = mpsc::unbounded_channel();
    let mut stalled: Option<AttemptTag> = None;
    let ended = {
        let drive = drive(io, shared.clone(), tx);
        tokio::pin!(drive);
        loop {
            let cmd = tokio::select! {
                () = &mut drive => break None,
                cmd = rx.recv() => match cmd {
                    Some(cmd) => cmd,
                    None => break None,
                },
                () = reached.notified() => match cut {
                    Some((n, action, tag)) => Cmd::Act {
                        action,
                        tag,
                        at: format!("at connection byte {n}"),
                        _keep: None,
                    },
                    None => continue,
                },
                changed = orders.changed() => match (changed, state.lanes[lane].current()) {
                    (Ok(()), Some(tag)) => Cmd::Act {
                        action: orders.borrow().1,
                        tag,
                        at: "on the hand-over order".to_owned(),
                        _keep: None,
                    },
                    _ => continue,
                },
                () = until_released(&state, lane, stalled), if stalled.is_some() => {
                    shared.event(format!(
                        "stall of {} over: reading again, every later stream held",
                        stalled.map_or("?".to_owned(), |t| t.to_string())
                    ));
                    stalled = None;
                    shared.resume();
                    continue;
                }
                _ = shutdown.wait_for(|stop| *stop) => {
                    drain_now(&stream, |d| shared.record(d));
                    shared.event("run over".to_owned());
                    break None;
                }
            };
            match cmd {
                Cmd::Act {
                    action: Action::Stall,
                    tag,
                    at,
                    _keep,
                } => {
                    // A stall keeps h2 alive (so later streams are still
                    // decoded and known by their tags) but reads nothing
                    // until the call is over, and answers nothing again.
                    shared.pause();
                    shared.event(format!("Stall {at} for {tag}"));
                    stalled = Some(tag);
                    if let Some(keep) = _keep {
                        tokio::spawn(hold(keep, state.clone()));
                    }
                }
                Cmd::Graceful => shared.graceful.notify_one(),
                other => break Some(other),
            }
        }
        // Leaving the block drops h2: nothing more is read or written by it.
    };
    match ended {
        Some(Cmd::Act {
            action,
            tag,
            at,
            _keep,
        }) => act(&stream, &shared, action, Some(tag), &at).await,
        Some(Cmd::GoAway {
            last,
            reason,
            tag,
            _keep,
        }) => go_away(&stream, &shared, last, reason, tag).await,
        Some(Cmd::Graceful) | None => {
            drain_now(&stream, |d| shared.record(d));
        }
    }
}

/// Keeps a stream's response handle, unanswered, until the run is over.
async fn hold(keep: h2::server::SendResponse<Bytes>, state: Arc<AuditState>) {
    let mut shutdown = state.shutdown.subscribe();
    let _ = shutdown.wait_for(|stop| *stop).await;
    drop(keep);
}

/// Drives h2: accepts streams and hands each to its own task, until the
/// connection ends (the connection task drops it to act).
async fn drive(io: RecIo, shared: Arc<Shared>, tx: mpsc::UnboundedSender<Cmd>) {
    let mut h2 = match h2::server::handshake(io).await {
        Ok(h2) => h2,
        Err(e) => {
            shared.event(format!("handshake failed: {e}"));
            return;
        }
    };
    let mut last_accepted = 0u32;
    loop {
        tokio::select! {
            accepted = h2.accept() => match accepted {
                Some(Ok((request, respond))) => {
                    let id = respond.stream_id().as_u32();
                    let below = last_accepted;
                    last_accepted = id;
                    tokio::spawn(stream_task(request, respond, id, below, shared.clone(), tx.clone()));
                }
                Some(Err(e)) => {
                    shared.event(format!("connection error: {e}"));
                    return;
                }
                None => {
                    shared.event("connection closed".to_owned());
                    return;
                }
            },
            () = shared.graceful.notified() => h2.graceful_shutdown(),
        }
    }
}

async fn drain_body(body: &mut RecvStream) -> Result<(), h2::Error> {
    while let Some(chunk) = body.data().await {
        let chunk = chunk?;
        let _ = body.flow_control().release_capacity(chunk.len());
    }
    Ok(())
}

/// Sends an answer head (and `body`, ending the stream when `end`), and
/// registers it so the book records it once its HEADERS frame is written.
/// An answer head to send on one stream.
#[derive(Debug, Clone, Copy)]
struct Head {
    id: u32,
    tag: AttemptTag,
    status: u16,
    replay: bool,
}

fn answer(
    shared: &Shared,
    respond: &mut h2::server::SendResponse<Bytes>,
    head: Head,
    body: &[u8],
    end: bool,
) -> Result<Option<h2::SendStream<Bytes>>, h2::Error> {
    let Head {
        id,
        tag,
        status,
        replay,
    } = head;
    let mut builder = http::Response::builder().status(status);
    if replay {
        builder = builder.header("idempotent-replayed", "true");
    }
    let response = builder.body(()).expect("a valid answer head");
    shared
        .pending
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(id, (tag, status));
    let mut send = respond.send_response(response, false)?;
    send.send_data(Bytes::copy_from_slice(body), end)?;
    // A stream left open is handed back: the caller keeps it (with the
    // response handle) until the connection acts, so h2 cannot cancel it
    // first.
    Ok((!end).then_some(send))
}

/// Waits until the answer head of stream `id` was written.
async fn head_written(shared: &Shared, id: u32) {
    let _ = tokio::time::timeout(HEAD_WRITTEN_LIMIT, async {
        loop {
            let written = shared.written.notified();
            if !shared.awaiting_head(id) {
                return;
            }
            written.await;
        }
    })
    .await;
}

async fn stream_task(
    request: http::Request<RecvStream>,
    mut respond: h2::server::SendResponse<Bytes>,
    id: u32,
    below: u32,
    shared: Arc<Shared>,
    tx: mpsc::UnboundedSender<Cmd>,
) {
    let Some(tag) = AttemptTag::find_in(request.uri().path().as_bytes()) else {
        shared.event(format!("stream {id} without a tag: answered 400"));
        let head = http::Response::builder()
            .status(400)
            .body(())
            .expect("valid");
        let _ = respond.send_response(head, true);
        return;
    };
    shared
        .log
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .streams
        .insert(id, tag);
    let state = shared.state.clone();
    if shared.held.load(Ordering::Acquire) {
        shared.event(format!(
            "stream {id} is {tag}: held (the connection stalled)"
        ));
        hold(respond, state).await;
        return;
    }
    let fault = state.fault(tag);
    shared.event(format!("stream {id} is {tag}: {fault}"));
    let key = request
        .headers()
        .get("idempotency-key")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let replay = state.book().replay_of(key.as_deref());
    let execute = || {
        if replay.is_none() {
            state.book().execute(tag, key.as_deref(), 200);
        }
    };
    let then_close = state.plan(tag.call).is_some_and(|p| p.then_close);
    let mut body = request.into_body();
    let act = |action, at: &str, keep| {
        let _ = tx.send(Cmd::Act {
            action,
            tag,
            at: at.to_owned(),
            _keep: keep,
        });
    };
    match fault {
        Fault::Answer(status) => {
            if drain_body(&mut body).await.is_err() {
                return;
            }
            let status = replay.unwrap_or(status);
            if replay.is_none() && (200..300).contains(&status) {
                execute();
            }
            let _ = answer(
                &shared,
                &mut respond,
                Head {
                    id,
                    tag,
                    status,
                    replay: replay.is_some(),
                },
                ANSWER_BODY,
                true,
            );
            if then_close {
                let _ = tx.send(Cmd::Graceful);
            }
        }
        Fault::Cut(Edge::AwaitingHead(executes), action) => {
            if drain_body(&mut body).await.is_err() {
                return;
            }
            if executes {
                execute();
            }
            act(action, "awaiting the head", Some(respond));
        }
        Fault::Cut(edge @ (Edge::ResponseHead | Edge::MidResponse), action) => {
            if drain_body(&mut body).await.is_err() {
                return;
            }
            execute();
            let partial = if edge == Edge::MidResponse {
                vec![b'x'; PARTIAL_BODY]
            } else {
                Vec::new()
            };
            let status = replay.unwrap_or(200);
            let Ok(_open) = answer(
                &shared,
                &mut respond,
                Head {
                    id,
                    tag,
                    status,
                    replay: replay.is_some(),
                },
                &partial,
                false,
            ) else {
                return;
            };
            head_written(&shared, id).await;
            act(action, &format!("at {edge:?}"), Some(respond));
        }
        Fault::Cut(edge, action) => act(
            action,
            &format!("at the stream's arrival ({edge:?})"),
            Some(respond),
        ),
        Fault::H2(H2Fault::RefusedStream) => {
            respond.send_reset(Reason::REFUSED_STREAM);
            shared.event(format!("REFUSED_STREAM for {tag}"));
        }
        Fault::H2(H2Fault::RefusedStreamAfterBody) => {
            if drain_body(&mut body).await.is_ok() {
                respond.send_reset(Reason::REFUSED_STREAM);
                shared.event(format!("REFUSED_STREAM after the body for {tag}"));
            }
        }
        Fault::H2(H2Fault::ResetStream(executes)) => {
            if drain_body(&mut body).await.is_ok() {
                if executes {
                    execute();
                }
                respond.send_reset(Reason::INTERNAL_ERROR);
                shared.event(format!("RST_STREAM(INTERNAL_ERROR) for {tag}"));
            }
        }
        Fault::H2(H2Fault::GoAwayBelow(error)) => {
            let reason = if error {
                Reason::INTERNAL_ERROR
            } else {
                Reason::NO_ERROR
            };
            let _ = tx.send(Cmd::GoAway {
                last: below,
                reason,
                tag,
                _keep: Some(respond),
            });
        }
        Fault::H2(fault @ (H2Fault::GoAwayCovering(executes) | H2Fault::GoAwayAbove(executes))) => {
            if executes {
                execute();
            }
            let last = if matches!(fault, H2Fault::GoAwayAbove(_)) {
                MAX_STREAM_ID
            } else {
                id
            };
            let _ = tx.send(Cmd::GoAway {
                last,
                reason: Reason::NO_ERROR,
                tag,
                _keep: Some(respond),
            });
        }
        Fault::H2(H2Fault::HeadThenRefused) => {
            if drain_body(&mut body).await.is_err() {
                return;
            }
            execute();
            let status = replay.unwrap_or(200);
            let Ok(_open) = answer(
                &shared,
                &mut respond,
                Head {
                    id,
                    tag,
                    status,
                    replay: replay.is_some(),
                },
                &[b'x'; 16],
                false,
            ) else {
                return;
            };
            head_written(&shared, id).await;
            respond.send_reset(Reason::REFUSED_STREAM);
            shared.event(format!("REFUSED_STREAM after the head for {tag}"));
        }
    }
}

/// Closes, resets or stalls the connection; everything buffered is
/// recorded first.
async fn act(
    stream: &TcpStream,
    shared: &Shared,
    action: Action,
    tag: Option<AttemptTag>,
    at: &str,
) {
    let end = drain_now(stream, |d| shared.record(d));
    let who = tag.map_or("?".to_owned(), |t| t.to_string());
    shared.event(format!("{action:?} {at} for {who}"));
    match action {
        Action::Close => {
            let _ = socket2::SockRef::from(stream).shutdown(std::net::Shutdown::Write);
        }
        Action::Reset => {
            let _ = stream.set_zero_linger();
        }
        // A stall is carried out by the connection task with h2 alive
        // (see `serve`); here only for completeness.
        Action::Stall => {
            if end == DrainEnd::Pending {
                read_to_end(stream, &shared.state, |d| shared.record(d)).await;
            }
        }
    }
}

/// Writes a GOAWAY (between frames only), half-closes, and records until
/// the client closes.
async fn go_away(stream: &TcpStream, shared: &Shared, last: u32, reason: Reason, tag: AttemptTag) {
    drain_now(stream, |d| shared.record(d));
    let between = shared
        .scan
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .between_frames();
    if between {
        let mut frame = vec![0, 0, 8, 7, 0, 0, 0, 0, 0];
        frame.extend_from_slice(&(last & 0x7fff_ffff).to_be_bytes());
        frame.extend_from_slice(&u32::from(reason).to_be_bytes());
        let written = tokio::time::timeout(RAW_WRITE_LIMIT, write_raw(stream, &frame)).await;
        shared.event(format!(
            "GOAWAY(last={last}, {reason:?}) for {tag}: {}",
            if matches!(written, Ok(Ok(()))) {
                "written"
            } else {
                "not written"
            }
        ));
    } else {
        shared.event(format!(
            "GOAWAY for {tag} not written (h2 was mid-frame): closed instead"
        ));
    }
    let _ = socket2::SockRef::from(stream).shutdown(std::net::Shutdown::Write);
    read_to_end(stream, &shared.state, |d| shared.record(d)).await;
}

async fn write_raw(stream: &TcpStream, mut data: &[u8]) -> io::Result<()> {
    while !data.is_empty() {
        stream.writable().await?;
        match stream.try_write(data) {
            Ok(n) => data = &data[n..],
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scan_sees_a_headers_frame_complete_across_writes() {
        let mut scan = OutScan::default();
        // SETTINGS (empty), then HEADERS of stream 1 with 3 bytes, split.
        let mut bytes = vec![0, 0, 0, 4, 0, 0, 0, 0, 0];
        bytes.extend_from_slice(&[0, 0, 3, 1, 4, 0, 0, 0, 1, 0x88, 0, 0]);
        assert!(scan.feed(&bytes[..12]).is_empty());
        assert!(!scan.between_frames());
        assert_eq!(scan.feed(&bytes[12..]), vec![1]);
        assert!(scan.between_frames());
    }
}
