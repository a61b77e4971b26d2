//! The recording HTTP/1.1 server: raw bytes, every one logged, and the
//! attempt's fault carried out at exactly the planned byte.
//!
//! The server *peeks* at what has arrived, works out where the planned
//! edge is (the head's end, the body's middle), and then consumes exactly
//! up to it, so it acts at the edge and not a read later. Before acting it
//! records everything else already buffered: a byte that reached the
//! server before the cut counts as received, whether or not a server
//! would have read it.

use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::book::{AttemptTag, ConnLog, Segment, record_event, record_received};
use super::server::{drain_now, read_to_end, until_released};
use super::shape::{Action, BodyKind, Edge, Fault, LARGE_BODY, Protocol};
use super::state::AuditState;

/// Body of an ordinary answer.
const ANSWER_BODY: &[u8] = b"audited";

/// Body length a cut answer announces; it sends at most
/// [`PARTIAL_BODY`] of it.
const ANNOUNCED_BODY: usize = 4096;

/// Body bytes a mid-response cut sends before acting.
const PARTIAL_BODY: usize = 512;

/// Largest request head the server accepts (the padded heads are 6 KiB).
const MAX_HEAD: usize = 64 * 1024;

/// The header carrying the key.
const IDEMPOTENCY_KEY: &str = "idempotency-key";

/// Set on an answer replaying an executed key.
const REPLAY_HEADER: &str = "idempotent-replayed";

struct Conn {
    stream: TcpStream,
    log: Arc<Mutex<ConnLog>>,
    state: Arc<AuditState>,
    lane: usize,
}

enum Next {
    /// The request ended here; serve the next one.
    Again(usize),
    /// The connection is over.
    Done,
}

/// How the request body is delimited.
#[derive(Debug, Clone, Copy)]
enum Framing {
    Length(usize),
    Chunked,
}

/// What the bytes of one request show so far.
#[derive(Debug, Default)]
struct Parsed {
    tag: Option<AttemptTag>,
    head_end: Option<usize>,
    framing: Option<Framing>,
    body_end: Option<usize>,
    key: Option<String>,
    expects_continue: bool,
    wants_close: bool,
}

fn parse(view: &[u8]) -> Parsed {
    let mut parsed = Parsed {
        tag: {
            let line_end = view
                .windows(2)
                .position(|w| w == b"\r\n")
                .unwrap_or(view.len());
            AttemptTag::find_in(&view[..line_end])
        },
        ..Parsed::default()
    };
    let mut headers = [httparse::EMPTY_HEADER; 64];
    let mut request = httparse::Request::new(&mut headers);
    let Ok(httparse::Status::Complete(head_len)) = request.parse(view) else {
        return parsed;
    };
    parsed.head_end = Some(head_len);
    let mut framing = Framing::Length(0);
    for h in request.headers.iter() {
        let value = String::from_utf8_lossy(h.value);
        if h.name.eq_ignore_ascii_case("content-length") {
            framing = Framing::Length(value.trim().parse().unwrap_or(0));
        } else if h.name.eq_ignore_ascii_case("transfer-encoding")
            && value.to_ascii_lowercase().contains("chunked")
        {
            framing = Framing::Chunked;
        } else if h.name.eq_ignore_ascii_case(IDEMPOTENCY_KEY) {
            parsed.key = Some(value.into_owned());
        } else if h.name.eq_ignore_ascii_case("expect") {
            parsed.expects_continue = value.eq_ignore_ascii_case("100-continue");
        } else if h.name.eq_ignore_ascii_case("connection") {
            parsed.wants_close = value.eq_ignore_ascii_case("close");
        }
    }
    parsed.framing = Some(framing);
    parsed.body_end = match framing {
        Framing::Length(n) => Some(head_len + n),
        Framing::Chunked => chunked_end(&view[head_len..]).map(|n| head_len + n),
    };
    parsed
}

/// Where a chunked body ends (after its last chunk and trailers), if it
/// is all in `body`.
fn chunked_end(body: &[u8]) -> Option<usize> {
    let mut at = 0;
    loop {
        let line = body[at..].windows(2).position(|w| w == b"\r\n")?;
        let size_text = std::str::from_utf8(&body[at..at + line]).ok()?;
        let size_text = size_text.split(';').next()?.trim();
        let size = usize::from_str_radix(size_text, 16).ok()?;
        at += line + 2;
        if size == 0 {
            // Trailers, then an empty line.
            loop {
                let line = body[at..].windows(2).position(|w| w == b"\r\n")?;
                at += line + 2;
                if line == 0 {
                    return Some(at);
                }
            }
        }
        at += size + 2;
        if at > body.len() {
            return None;
        }
    }
}

/// Body bytes the plan's body kind has (a hint for a chunked body).
fn body_hint(kind: BodyKind) -> usize {
    match kind {
        BodyKind::Empty => 0,
        BodyKind::InMemory | BodyKind::OneShot => 14,
        BodyKind::InMemoryLarge | BodyKind::Streamed => LARGE_BODY,
    }
}

/// Where, counted from the request's first byte, the fault cuts the
/// request, when that is known yet.
fn cut_at(fault: Fault, parsed: &Parsed, hint: usize) -> Option<usize> {
    let Fault::Cut(edge, _) = fault else {
        return None;
    };
    let head = parsed.head_end;
    let body_len = match parsed.framing {
        Some(Framing::Length(n)) => Some(n),
        Some(Framing::Chunked) => Some(hint),
        None => None,
    };
    match edge {
        Edge::HandOver => Some(0),
        Edge::RequestBytes(n) => Some(n),
        Edge::MidHead => head.map(|h| h / 2),
        Edge::HeadEndMinusOne => head.map(|h| h - 1),
        Edge::AfterHead => head,
        Edge::MidBody => Some(head? + body_len? / 2),
        Edge::BodyEndMinusOne => {
            let end = parsed.body_end?;
            Some(if end > head? { end - 1 } else { end })
        }
        Edge::AwaitingHead(_) | Edge::ResponseHead | Edge::MidResponse => None,
    }
}

/// Serves one accepted HTTP/1.1 connection, then attributes its bytes.
pub(crate) async fn serve(stream: TcpStream, state: Arc<AuditState>, lane: usize, number: u64) {
    let log = state
        .book()
        .open(ConnLog::new(lane, Protocol::Http1, number));
    serve_conn(stream, state, lane, log.clone()).await;
    log.lock().unwrap_or_else(|e| e.into_inner()).seal();
}

async fn serve_conn(
    stream: TcpStream,
    state: Arc<AuditState>,
    lane: usize,
    log: Arc<Mutex<ConnLog>>,
) {
    let mut conn = Conn {
        stream,
        log,
        state: state.clone(),
        lane,
    };
    let in_flight = state.lanes[lane].current();
    conn.event(format!(
        "accepted (attempt in flight: {})",
        in_flight.map_or("none".to_owned(), |t| t.to_string())
    ));
    if let Some(tag) = in_flight
        && let Fault::Cut(Edge::HandOver, action) = state.fault(tag)
    {
        conn.act(action, Some(tag), "at accept").await;
        return;
    }
    let mut start = 0;
    loop {
        match conn.idle().await {
            Idle::Readable => {}
            Idle::Order(action) => {
                let tag = state.lanes[lane].current();
                conn.act(action, tag, "idle, on the hand-over order").await;
                return;
            }
            Idle::Over => return,
        }
        match conn.request(start).await {
            Next::Again(end) => start = end,
            Next::Done => return,
        }
    }
}

enum Idle {
    Readable,
    Order(Action),
    Over,
}

impl Conn {
    fn event(&self, text: String) {
        record_event(&self.log, text);
    }

    fn record(&self, data: &[u8]) {
        record_received(&self.log, &self.state, self.lane, data);
    }

    fn len(&self) -> usize {
        self.log
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .bytes
            .len()
    }

    /// Records what is buffered; `true` when the client closed.
    fn drain(&self) -> bool {
        let end = drain_now(&self.stream, |d| self.record(d));
        end != super::server::DrainEnd::Pending
    }

    /// Waits, between requests, for the next byte, a hand-over order, or
    /// the end of the run.
    async fn idle(&mut self) -> Idle {
        let mut orders = self.state.lanes[self.lane].idle.subscribe();
        orders.borrow_and_update();
        let mut shutdown = self.state.shutdown.subscribe();
        tokio::select! {
            biased;
            ready = self.stream.readable() => {
                if ready.is_err() { return Idle::Over; }
                Idle::Readable
            }
            changed = orders.changed() => {
                if changed.is_err() { return Idle::Over; }
                let action = orders.borrow().1;
                Idle::Order(action)
            }
            _ = shutdown.wait_for(|stop| *stop) => {
                self.drain();
                self.event("run over".to_owned());
                Idle::Over
            }
        }
    }

    /// Carries out `action` for `tag`: everything buffered is recorded
    /// first.
    async fn act(&mut self, action: Action, tag: Option<AttemptTag>, at: &str) {
        let closed = self.drain();
        let who = tag.map_or("?".to_owned(), |t| t.to_string());
        self.event(format!(
            "{action:?} {at} for {who} (after {} bytes)",
            self.len()
        ));
        match action {
            Action::Close => {
                let _ = self.stream.shutdown().await;
            }
            Action::Reset => {
                let _ = self.stream.set_zero_linger();
            }
            Action::Stall => {
                if !closed {
                    until_released(&self.state, self.lane, tag).await;
                    read_to_end(&self.stream, &self.state, |d| self.record(d)).await;
                    self.event("stall over: the client closed or the run ended".to_owned());
                }
            }
        }
    }

    /// Reads one request starting at byte `start` of the connection and
    /// carries out its attempt's fault.
    async fn request(&mut self, start: usize) -> Next {
        let provisional = self.state.lanes[self.lane].current();
        let mut buf = vec![0u8; 64 * 1024];
        let mut continued = false;
        let mut shutdown = self.state.shutdown.subscribe();
        loop {
            let peeked = tokio::select! {
                peeked = self.stream.peek(&mut buf) => peeked,
                _ = shutdown.wait_for(|stop| *stop) => {
                    self.drain();
                    self.event("run over mid-request".to_owned());
                    return Next::Done;
                }
            };
            let n = match peeked {
                Ok(0) => {
                    self.event("client closed (EOF)".to_owned());
                    return Next::Done;
                }
                Ok(n) => n,
                Err(e) => {
                    self.event(format!("read failed: {e}"));
                    return Next::Done;
                }
            };
            let (view, consumed) = {
                let log = self.log.lock().unwrap_or_else(|e| e.into_inner());
                let mut view = log.bytes[start..].to_vec();
                view.extend_from_slice(&buf[..n]);
                (view, log.bytes.len() - start)
            };
            let parsed = parse(&view);
            let tag = parsed.tag.or(provisional);
            let (fault, hint) = match tag.and_then(|t| self.state.plan(t.call).map(|p| (t, p))) {
                Some((t, plan)) => (plan.shape.fault(t.attempt), body_hint(plan.shape.body)),
                None => (Fault::Answer(200), 0),
            };
            let cut = cut_at(fault, &parsed, hint);
            let stop = [cut, parsed.body_end].into_iter().flatten().min();
            let take = stop.map_or(n, |s| s.saturating_sub(consumed).min(n));
            if take > 0 {
                if self.stream.read_exact(&mut buf[..take]).await.is_err() {
                    self.event("read failed".to_owned());
                    return Next::Done;
                }
                self.record(&buf[..take]);
            }
            let now = consumed + take;
            if let (Some(at), Fault::Cut(edge, action)) = (cut, fault)
                && now >= at
            {
                // The connection ends with this request: every later byte
                // on it is still this request's.
                self.close_segment(start, usize::MAX, parsed.tag);
                self.act(action, tag, &format!("at {edge:?} (request byte {now})"))
                    .await;
                return Next::Done;
            }
            if let Some(end) = parsed.body_end
                && now >= end
            {
                // Offsets in `parsed` count from the request's first byte.
                self.close_segment(start, start + end, parsed.tag);
                return self.complete(tag, fault, &parsed, start + end).await;
            }
            if parsed.head_end.is_none() && view.len() > MAX_HEAD {
                self.event("head too large".to_owned());
                return Next::Done;
            }
            if parsed.expects_continue && parsed.head_end.is_some() && !continued {
                continued = true;
                let _ = self
                    .stream
                    .write_all(b"HTTP/1.1 100 Continue\r\n\r\n")
                    .await;
            }
        }
    }

    /// The request's connection ends with it: its segment runs to the
    /// connection's end.
    fn reopen_segment(&self) {
        if let Some(last) = self
            .log
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .segments
            .last_mut()
        {
            last.end = usize::MAX;
        }
    }

    fn close_segment(&self, start: usize, end: usize, tag: Option<AttemptTag>) {
        self.log
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .segments
            .push(Segment { start, end, tag });
    }

    /// The whole request was read: answer, or carry out a fault after it.
    async fn complete(
        &mut self,
        tag: Option<AttemptTag>,
        fault: Fault,
        parsed: &Parsed,
        end: usize,
    ) -> Next {
        let Some(tag) = tag else {
            self.event("a request without a tag: answered 400".to_owned());
            let _ = self
                .stream
                .write_all(
                    b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
                )
                .await;
            return Next::Done;
        };
        let key = parsed.key.as_deref();
        let replay = self.state.book().replay_of(key);
        let execute = |state: &AuditState, status: u16| {
            if replay.is_none() {
                state.book().execute(tag, key, status);
            }
        };
        let then_close =
            self.state.plan(tag.call).is_some_and(|p| p.then_close) || parsed.wants_close;
        match fault {
            Fault::Cut(Edge::AwaitingHead(executes), action) => {
                self.reopen_segment();
                if executes {
                    execute(&self.state, 200);
                }
                self.act(action, Some(tag), "awaiting the head").await;
                Next::Done
            }
            Fault::Cut(edge @ (Edge::ResponseHead | Edge::MidResponse), action) => {
                self.reopen_segment();
                execute(&self.state, 200);
                let status = replay.unwrap_or(200);
                let mut bytes = head_bytes(status, ANNOUNCED_BODY, replay.is_some(), false);
                if edge == Edge::MidResponse {
                    bytes.extend_from_slice(&[b'x'; PARTIAL_BODY]);
                }
                // Booked before the write: a write that fails cannot have
                // given the client a head, and one that fails half-way may
                // have (so booking after it could flag a true claim).
                self.state.book().answered(tag, status);
                let sent = self.stream.write_all(&bytes).await.is_ok();
                self.event(format!("head {status} for {tag}: written {sent}"));
                self.act(action, Some(tag), &format!("at {edge:?}")).await;
                Next::Done
            }
            // Every other cut acted before the end of the request.
            Fault::Answer(_) | Fault::H2(_) | Fault::Cut(..) => {
                let status = match (replay, fault) {
                    (Some(stored), _) => stored,
                    (None, Fault::Answer(status)) => status,
                    (None, _) => 200,
                };
                if replay.is_none() && (200..300).contains(&status) {
                    execute(&self.state, status);
                }
                let mut bytes = head_bytes(status, ANSWER_BODY.len(), replay.is_some(), then_close);
                bytes.extend_from_slice(ANSWER_BODY);
                self.state.book().answered(tag, status);
                if self.stream.write_all(&bytes).await.is_err() {
                    self.event(format!("answer {status} for {tag} failed to write"));
                    return Next::Done;
                }
                self.event(format!("answered {status} for {tag}"));
                if then_close {
                    self.drain();
                    let _ = self.stream.shutdown().await;
                    // Read until the client closes too, so every byte it
                    // sends on this connection is still seen.
                    read_to_end(&self.stream, &self.state, |d| self.record(d)).await;
                    return Next::Done;
                }
                Next::Again(end)
            }
        }
    }
}

fn head_bytes(status: u16, len: usize, replay: bool, close: bool) -> Vec<u8> {
    let reason = http::StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or("Status");
    let mut head = format!("HTTP/1.1 {status} {reason}\r\ncontent-length: {len}\r\n");
    if replay {
        head.push_str(&format!("{REPLAY_HEADER}: true\r\n"));
    }
    if close {
        head.push_str("connection: close\r\n");
    }
    head.push_str("\r\n");
    head.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chunked_body_ends_after_its_last_chunk_and_trailers() {
        assert_eq!(chunked_end(b"3\r\nabc\r\n0\r\n\r\n"), Some(13));
        assert_eq!(chunked_end(b"3\r\nabc\r\n0\r\nx: y\r\n\r\n"), Some(19));
        assert_eq!(chunked_end(b"3\r\nabc\r\n0\r\n"), None);
        assert_eq!(chunked_end(b"3\r\nab"), None);
    }

    #[test]
    fn a_request_shows_its_tag_before_its_head_is_complete() {
        let parsed = parse(b"POST /c7a1/ HTTP/1.1\r\nhost: x\r\n");
        assert_eq!(
            parsed.tag,
            Some(AttemptTag {
                call: 7,
                attempt: 1
            })
        );
        assert_eq!(parsed.head_end, None);
        let parsed =
            parse(b"POST /c7a1/ HTTP/1.1\r\ncontent-length: 3\r\nidempotency-key: k\r\n\r\nab");
        assert_eq!(parsed.head_end, Some(63));
        assert_eq!(parsed.body_end, Some(66));
        assert_eq!(parsed.key.as_deref(), Some("k"));
    }
}
