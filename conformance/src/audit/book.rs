//! The server's book: every byte each connection received, which attempt
//! each byte belongs to, what was executed and which answers were sent.
//!
//! This is the audit's oracle. It is written only by the recording servers
//! and read only after every connection has ended, so a claim is checked
//! against what reached the server, never against an engine's account.
//!
//! # Attributing bytes to attempts
//!
//! Every attempt carries its tag (`/c<call>a<attempt>/`) at the start of
//! its request target, so on HTTP/1.1 a request's bytes are known by the
//! tag in its request line, and on HTTP/2 by the stream whose HEADERS
//! carried it. Bytes that arrived without a readable tag (a request line
//! cut before the tag, a HEADERS frame cut mid-way) are attributed to the
//! attempt in flight on that lane when the server read them: a lane runs
//! one attempt at a time, and the tagging engine publishes the attempt
//! before handing it to the engine, so such bytes belong to that attempt
//! unless an earlier attempt of the lane wrote them after it had ended
//! (which the engine contract forbids: a sealed attempt writes nothing
//! more). Each finding says which way its bytes were attributed.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::{Arc, Mutex};

use super::shape::Protocol;

/// One attempt: its call and its index within the call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AttemptTag {
    /// The call's id (unique within a run).
    pub call: u64,
    /// 0 for the first attempt.
    pub attempt: u32,
}

impl fmt::Display for AttemptTag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "c{}a{}", self.call, self.attempt)
    }
}

impl AttemptTag {
    /// Packs the tag into one word for an atomic (0 means none).
    pub(crate) fn pack(self) -> u64 {
        ((self.call << 8) | u64::from(self.attempt & 0xff)) + 1
    }

    /// The inverse of [`AttemptTag::pack`].
    pub(crate) fn unpack(word: u64) -> Option<AttemptTag> {
        let word = word.checked_sub(1)?;
        Some(AttemptTag {
            call: word >> 8,
            attempt: (word & 0xff) as u32,
        })
    }

    /// Finds `/c<call>a<attempt>/` in a request target or line.
    pub fn find_in(bytes: &[u8]) -> Option<AttemptTag> {
        let mut i = 0;
        while i + 1 < bytes.len() {
            if bytes[i] == b'/' && bytes[i + 1] == b'c' {
                let rest = &bytes[i + 2..];
                if let Some(tag) = parse_tag(rest) {
                    return Some(tag);
                }
            }
            i += 1;
        }
        None
    }
}

fn digits(bytes: &[u8]) -> Option<(u64, usize)> {
    let n = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    if n == 0 || n > 18 {
        return None;
    }
    let text = std::str::from_utf8(&bytes[..n]).ok()?;
    Some((text.parse().ok()?, n))
}

fn parse_tag(rest: &[u8]) -> Option<AttemptTag> {
    let (call, n) = digits(rest)?;
    let rest = rest[n..].strip_prefix(b"a")?;
    let (attempt, m) = digits(rest)?;
    (rest.get(m) == Some(&b'/')).then_some(AttemptTag {
        call,
        attempt: u32::try_from(attempt).ok()?,
    })
}

/// Bytes of each connection kept for the excerpts once it ended.
const KEPT_BYTES: usize = 1024;

/// How a range of received bytes was tied to an attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attribution {
    /// By the tag the bytes themselves carry (request line or stream).
    Tag,
    /// By the attempt in flight on the lane when the server read them.
    InFlight,
}

/// A range of a connection's bytes that belongs to one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Segment {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) tag: Option<AttemptTag>,
}

/// Everything one connection received, in order.
#[derive(Debug, Clone)]
pub struct ConnLog {
    /// The lane whose server accepted it.
    pub lane: usize,
    /// Its protocol.
    pub protocol: Protocol,
    /// Its number, in accept order over the whole run.
    pub number: u64,
    /// Every byte received.
    pub bytes: Vec<u8>,
    /// Where each read began, and the attempt in flight on the lane then.
    pub(crate) chunks: Vec<(usize, Option<AttemptTag>)>,
    /// HTTP/1.1: the requests, as the server delimited them.
    pub(crate) segments: Vec<Segment>,
    /// HTTP/2: the tag each accepted stream carried.
    pub(crate) streams: BTreeMap<u32, AttemptTag>,
    /// What the server did, in order, for the log excerpt of a finding.
    pub events: Vec<String>,
    /// Bytes received in all (`bytes` keeps only the first ones once the
    /// connection ended and its bytes were attributed).
    pub total: usize,
    /// The attribution, computed when the connection ended.
    attributed: Option<Vec<(Option<AttemptTag>, usize, Attribution)>>,
}

impl ConnLog {
    pub(crate) fn new(lane: usize, protocol: Protocol, number: u64) -> Self {
        ConnLog {
            lane,
            protocol,
            number,
            bytes: Vec::new(),
            chunks: Vec::new(),
            segments: Vec::new(),
            streams: BTreeMap::new(),
            events: Vec::new(),
            total: 0,
            attributed: None,
        }
    }

    /// The connection ended: attributes its bytes now and keeps only the
    /// first [`KEPT_BYTES`] of them, so a long audit's memory does not grow
    /// with every byte every connection received.
    pub(crate) fn seal(&mut self) {
        if self.attributed.is_some() {
            return;
        }
        self.attributed = Some(self.attribute_now());
        self.bytes.truncate(KEPT_BYTES);
        self.bytes.shrink_to_fit();
        self.chunks = Vec::new();
        self.segments = Vec::new();
    }

    /// Appends received bytes, stamped with the attempt in flight.
    pub(crate) fn received(&mut self, data: &[u8], in_flight: Option<AttemptTag>) {
        if data.is_empty() {
            return;
        }
        self.chunks.push((self.bytes.len(), in_flight));
        self.bytes.extend_from_slice(data);
        self.total += data.len();
    }

    pub(crate) fn event(&mut self, event: impl Into<String>) {
        self.events.push(event.into());
    }

    /// The attempt in flight when the byte at `offset` was read.
    fn stamp_at(&self, offset: usize) -> Option<AttemptTag> {
        let i = self.chunks.partition_point(|(start, _)| *start <= offset);
        i.checked_sub(1).and_then(|i| self.chunks[i].1)
    }

    /// Every request byte of this connection, as (attempt, bytes, how
    /// attributed); bytes tied to no attempt (an HTTP/2 preface or
    /// connection frame, or a read stamped with no attempt) are
    /// returned under `None`.
    pub(crate) fn attribute(&self) -> Vec<(Option<AttemptTag>, usize, Attribution)> {
        match &self.attributed {
            Some(done) => done.clone(),
            None => self.attribute_now(),
        }
    }

    fn attribute_now(&self) -> Vec<(Option<AttemptTag>, usize, Attribution)> {
        match self.protocol {
            Protocol::Http1 => self.attribute_h1(),
            Protocol::Http2 => self.attribute_h2(),
        }
    }

    fn attribute_h1(&self) -> Vec<(Option<AttemptTag>, usize, Attribution)> {
        let mut out = Vec::new();
        let mut covered = 0;
        let mut add = |start: usize, end: usize, tag: Option<AttemptTag>| {
            if end <= start {
                return;
            }
            match tag.or_else(|| AttemptTag::find_in(&self.bytes[start..end])) {
                Some(tag) => out.push((Some(tag), end - start, Attribution::Tag)),
                None => out.push((self.stamp_at(start), end - start, Attribution::InFlight)),
            }
        };
        for seg in &self.segments {
            let end = seg.end.min(self.bytes.len());
            add(seg.start.max(covered), end, seg.tag);
            covered = covered.max(end);
        }
        add(covered, self.bytes.len(), None);
        out
    }

    fn attribute_h2(&self) -> Vec<(Option<AttemptTag>, usize, Attribution)> {
        const PREFACE: usize = 24;
        const FRAME_HEAD: usize = 9;
        let mut out = Vec::new();
        let mut owners: HashMap<u32, (Option<AttemptTag>, Attribution)> = HashMap::new();
        let mut at = PREFACE.min(self.bytes.len());
        while at < self.bytes.len() {
            let rest = &self.bytes[at..];
            if rest.len() < FRAME_HEAD {
                // A cut frame header: its type and stream are unknown, so
                // it is nobody's request byte (and reported as such).
                out.push((None, rest.len(), Attribution::InFlight));
                break;
            }
            let len =
                (usize::from(rest[0]) << 16) | (usize::from(rest[1]) << 8) | usize::from(rest[2]);
            let kind = rest[3];
            let stream = u32::from_be_bytes([rest[5], rest[6], rest[7], rest[8]]) & 0x7fff_ffff;
            let total = (FRAME_HEAD + len).min(rest.len());
            // DATA, HEADERS and CONTINUATION carry the request; every
            // other frame is the connection's or a stream's control.
            if stream != 0 && matches!(kind, 0 | 1 | 9) {
                // A stream h2 never decoded (its HEADERS cut, or arriving
                // after the server stopped processing) belongs to the
                // attempt in flight when its first frame arrived.
                let owner =
                    *owners
                        .entry(stream)
                        .or_insert_with(|| match self.streams.get(&stream) {
                            Some(tag) => (Some(*tag), Attribution::Tag),
                            None => (self.stamp_at(at), Attribution::InFlight),
                        });
                out.push((owner.0, total, owner.1));
            }
            at += total;
        }
        out
    }

    /// A printable excerpt of the bytes: the first `limit` bytes, with
    /// non-printable bytes escaped.
    pub fn excerpt(&self, limit: usize) -> String {
        let shown = &self.bytes[..self.bytes.len().min(limit)];
        let mut text: String = shown.escape_ascii().to_string();
        if self.total > shown.len() {
            text.push_str(&format!("… ({} bytes in all)", self.total));
        }
        text
    }
}

/// What the server did with one attempt.
#[derive(Debug, Clone, Default)]
pub struct AttemptLog {
    /// The server executed it (at most once: a replay is not an execution).
    pub executed: bool,
    /// Statuses of the answer heads the server sent for it.
    pub answered: Vec<u16>,
}

/// The whole book, shared by the lanes' servers.
#[derive(Debug, Default)]
pub(crate) struct Book {
    conns: Vec<Arc<Mutex<ConnLog>>>,
    attempts: HashMap<AttemptTag, AttemptLog>,
    executions_by_call: HashMap<u64, u32>,
    /// Status stored for each executed idempotency key, replayed on repeats.
    keys: HashMap<String, u16>,
}

impl Book {
    /// Registers a new connection's log.
    pub(crate) fn open(&mut self, log: ConnLog) -> Arc<Mutex<ConnLog>> {
        let log = Arc::new(Mutex::new(log));
        self.conns.push(log.clone());
        log
    }

    /// The status stored for `key`, when a request with it was executed.
    pub(crate) fn replay_of(&self, key: Option<&str>) -> Option<u16> {
        key.and_then(|k| self.keys.get(k).copied())
    }

    /// Records that the server executed `tag` (answered `status`, or
    /// would have).
    pub(crate) fn execute(&mut self, tag: AttemptTag, key: Option<&str>, status: u16) {
        let entry = self.attempts.entry(tag).or_default();
        if entry.executed {
            return;
        }
        entry.executed = true;
        *self.executions_by_call.entry(tag.call).or_default() += 1;
        if let Some(key) = key {
            self.keys.entry(key.to_owned()).or_insert(status);
        }
    }

    /// Records that an answer head with `status` was handed to the
    /// connection for `tag`.
    pub(crate) fn answered(&mut self, tag: AttemptTag, status: u16) {
        self.attempts.entry(tag).or_default().answered.push(status);
    }

    /// A frozen copy for the audit, taken once every connection ended.
    pub(crate) fn freeze(&self) -> FrozenBook {
        let conns: Vec<ConnLog> = self
            .conns
            .iter()
            .map(|c| c.lock().unwrap_or_else(|e| e.into_inner()).clone())
            .collect();
        let mut bytes: HashMap<AttemptTag, Vec<(usize, usize, Attribution)>> = HashMap::new();
        let mut unattributed = 0;
        for (i, conn) in conns.iter().enumerate() {
            for (tag, n, how) in conn.attribute() {
                match tag {
                    Some(tag) => bytes.entry(tag).or_default().push((i, n, how)),
                    None => unattributed += n,
                }
            }
        }
        FrozenBook {
            conns,
            attempts: self.attempts.clone(),
            executions_by_call: self.executions_by_call.clone(),
            bytes,
            unattributed,
        }
    }
}

/// The book after the run, with every byte attributed.
#[derive(Debug, Clone)]
pub(crate) struct FrozenBook {
    pub(crate) conns: Vec<ConnLog>,
    pub(crate) attempts: HashMap<AttemptTag, AttemptLog>,
    pub(crate) executions_by_call: HashMap<u64, u32>,
    /// Per attempt: (connection index, bytes, how attributed).
    pub(crate) bytes: HashMap<AttemptTag, Vec<(usize, usize, Attribution)>>,
    /// Request bytes tied to no attempt.
    pub(crate) unattributed: usize,
}

/// Appends `data` to a connection's `log`, stamped with the attempt in
/// flight on its `lane`: what both servers do with every byte they read.
pub(crate) fn record_received(
    log: &std::sync::Mutex<ConnLog>,
    state: &super::state::AuditState,
    lane: usize,
    data: &[u8],
) {
    let in_flight = state.lanes[lane].current();
    log.lock()
        .unwrap_or_else(|e| e.into_inner())
        .received(data, in_flight);
}

/// Appends an event to a connection's `log`.
pub(crate) fn record_event(log: &std::sync::Mutex<ConnLog>, text: String) {
    log.lock().unwrap_or_else(|e| e.into_inner()).event(text);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tag_is_found_in_a_request_line_and_only_when_complete() {
        let tag = AttemptTag::find_in(b"POST /c1234a2/x HTTP/1.1\r\n");
        assert_eq!(
            tag,
            Some(AttemptTag {
                call: 1234,
                attempt: 2
            })
        );
        assert_eq!(AttemptTag::find_in(b"POST /c1234a2"), None);
        assert_eq!(AttemptTag::find_in(b"POST /c12"), None);
    }

    #[test]
    fn packing_round_trips() {
        let tag = AttemptTag {
            call: 987_654,
            attempt: 2,
        };
        assert_eq!(AttemptTag::unpack(tag.pack()), Some(tag));
        assert_eq!(AttemptTag::unpack(0), None);
    }

    #[test]
    fn untagged_bytes_go_to_the_attempt_in_flight_and_tagged_ones_to_their_tag() {
        let first = AttemptTag {
            call: 1,
            attempt: 0,
        };
        let second = AttemptTag {
            call: 1,
            attempt: 1,
        };
        let mut log = ConnLog::new(0, Protocol::Http1, 0);
        let request = b"GET /c1a0/ HTTP/1.1\r\n\r\n";
        log.received(request, Some(first));
        log.segments.push(Segment {
            start: 0,
            end: request.len(),
            tag: Some(first),
        });
        log.received(b"GE", Some(second));
        let attributed = log.attribute();
        assert_eq!(
            attributed,
            vec![
                (Some(first), request.len(), Attribution::Tag),
                (Some(second), 2, Attribution::InFlight)
            ]
        );
    }
}
