//! What one audited call looks like, drawn from the seed: the protocol,
//! the connection, the body, the method and what is declared, where the
//! call goes, its attempt timeout, and the fault each attempt meets.
//!
//! The faults are aimed at the edges between stages rather than at random
//! moments: a fault fires when the server has seen exactly so many bytes of
//! the attempt's request (none, part of the request line, half the head,
//! the whole head, part of the body, all of it) or has sent exactly so much
//! of the answer (the head, part of the body). The attempt timeouts are
//! drawn either tight (log-uniform over the first milliseconds, where
//! connect, hand-over and the first write happen on loopback) or just long
//! enough to fire while the server stalls at its edge.

use std::fmt;
use std::time::Duration;

use super::rng::SplitMix64;

/// HTTP/1.1 or HTTP/2 (h2c by prior knowledge).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// HTTP/1.1.
    Http1,
    /// HTTP/2 by prior knowledge.
    Http2,
}

/// Whether the call should find a connection in the pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Connection {
    /// The server ended the previous call's connection after its answer.
    Fresh,
    /// The previous call's connection was left open for reuse.
    Pooled,
}

/// The request body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyKind {
    /// No body.
    Empty,
    /// A small in-memory body (replayable).
    InMemory,
    /// A large in-memory body (replayable), larger than the server's
    /// receive buffer.
    InMemoryLarge,
    /// A large streamed body: one-shot, sent chunked.
    Streamed,
    /// A small one-shot body (an async stream or a blocking reader).
    OneShot,
}

/// Size of the large bodies: several times the lab's receive buffer, so a
/// server that stops reading blocks the client's writes mid-body.
pub const LARGE_BODY: usize = 256 * 1024;

/// What the caller declares: the matrix's own declarations.
pub use crate::scenario::Declared;

/// Where the call goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The lane's recording server.
    Lane,
    /// A loopback port where nothing listens: refused before connect
    /// completes.
    Refused,
    /// A listener whose accept queue is full: the connect hangs until the
    /// attempt timeout fires.
    ConnectStall,
    /// A TLS server that reads the ClientHello and never answers: the
    /// handshake hangs until the attempt timeout fires (`https://` only).
    TlsStall,
}

/// What the server does when it reaches the edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Close cleanly (FIN; unread bytes make the kernel send RST).
    Close,
    /// Reset (SO_LINGER 0, then close).
    Reset,
    /// Stop reading and writing, so the attempt timeout fires; the
    /// connection is held until the call is over.
    Stall,
}

/// Where, in the exchange of one attempt, the server acts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Edge {
    /// Before the first byte of the request: at accept on a fresh
    /// connection; on a pooled one, the server closes its idle
    /// connections the moment the attempt is handed to the engine.
    HandOver,
    /// After this many bytes of the request (1 to 24: inside the request
    /// line, around the attempt tag).
    RequestBytes(usize),
    /// After half the request head.
    MidHead,
    /// One byte before the end of the head.
    HeadEndMinusOne,
    /// Right after the head, before any body byte.
    AfterHead,
    /// After half the body (after the head, for an empty body).
    MidBody,
    /// One byte before the end of the request (the end, for an empty body).
    BodyEndMinusOne,
    /// The whole request was read, while the client awaits the answer;
    /// executed first when `true`.
    AwaitingHead(bool),
    /// Executed, the answer's head sent, then the action.
    ResponseHead,
    /// Executed, the answer's head and part of its body sent, then the
    /// action.
    MidResponse,
}

/// An HTTP/2 stream-level fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum H2Fault {
    /// `RST_STREAM(REFUSED_STREAM)` at once: not processed.
    RefusedStream,
    /// The whole request read, then `RST_STREAM(REFUSED_STREAM)`.
    RefusedStreamAfterBody,
    /// A bare `RST_STREAM(INTERNAL_ERROR)` after the request, executed
    /// first when `true`.
    ResetStream(bool),
    /// GOAWAY with a last-stream-id below this stream (not processed),
    /// with `NO_ERROR` or, when `true`, `INTERNAL_ERROR`; then close.
    GoAwayBelow(bool),
    /// GOAWAY whose last-stream-id is this stream (executed first when
    /// `true`), then close: ambiguous.
    GoAwayCovering(bool),
    /// GOAWAY whose last-stream-id is above this stream (2^31-1, as a
    /// graceful shutdown starts; executed first when `true`), then close:
    /// ambiguous.
    GoAwayAbove(bool),
    /// The answer's head and a few body bytes, then
    /// `RST_STREAM(REFUSED_STREAM)`: responded.
    HeadThenRefused,
}

/// The fault one attempt meets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fault {
    /// No fault: answer with this status (2xx executes, 503 does not).
    Answer(u16),
    /// `action` at `edge`.
    Cut(Edge, Action),
    /// An HTTP/2 stream or connection fault.
    H2(H2Fault),
}

impl Fault {
    /// Whether the server keeps the connection for a next request after
    /// this attempt (an answer does; every fault ends the connection or
    /// the stream).
    pub fn is_answer(self) -> bool {
        matches!(self, Fault::Answer(_))
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Answer(status) => write!(f, "answer {status}"),
            Fault::Cut(edge, action) => write!(f, "{action:?} at {edge:?}"),
            Fault::H2(h2) => write!(f, "h2 {h2:?}"),
        }
    }
}

/// Attempts per call (the client's policy): one attempt and two retries.
pub const MAX_ATTEMPTS: u32 = 3;

/// One call, fully drawn.
#[derive(Debug, Clone)]
pub struct CallShape {
    /// HTTP/1.1 or HTTP/2.
    pub protocol: Protocol,
    /// `https://`, through a TLS terminator in front of the recording
    /// server (HTTP/1.1 only).
    pub tls: bool,
    /// Fresh or pooled.
    pub connection: Connection,
    /// The body.
    pub body: BodyKind,
    /// `true` for POST, `false` for GET (a GET never has a body).
    pub post: bool,
    /// What is declared.
    pub declared: Declared,
    /// Where the call goes.
    pub target: Target,
    /// The attempt timeout.
    pub attempt_timeout: Duration,
    /// Bytes of padding in one extra request header (0 or a few KiB), to
    /// move the head's end across socket-buffer sizes.
    pub head_padding: usize,
    /// The fault of each attempt, by attempt index.
    pub faults: [Fault; MAX_ATTEMPTS as usize],
}

/// Padding sizes drawn for the request head.
const HEAD_PADDINGS: [usize; 3] = [0, 0, 6 * 1024];

/// Tight attempt timeouts, in microseconds: from before a loopback connect
/// completes to a few round trips of a small exchange.
const TIGHT_TIMEOUT_US: (u64, u64) = (30, 8_000);

/// Attempt timeouts long enough for a normal loopback exchange on a loaded
/// two-core machine, so they fire while the server stalls at its edge.
const STALL_TIMEOUT_MS: (u64, u64) = (40, 80);

const EDGES: [Edge; 14] = [
    Edge::HandOver,
    Edge::RequestBytes(1),
    Edge::RequestBytes(5),
    Edge::RequestBytes(12),
    Edge::RequestBytes(24),
    Edge::MidHead,
    Edge::HeadEndMinusOne,
    Edge::AfterHead,
    Edge::MidBody,
    Edge::BodyEndMinusOne,
    Edge::AwaitingHead(false),
    Edge::AwaitingHead(true),
    Edge::ResponseHead,
    Edge::MidResponse,
];

const H2_EDGES: [Edge; 8] = [
    Edge::HandOver,
    Edge::RequestBytes(1),
    Edge::RequestBytes(24),
    Edge::RequestBytes(40),
    Edge::AwaitingHead(false),
    Edge::AwaitingHead(true),
    Edge::ResponseHead,
    Edge::MidResponse,
];

const H2_FAULTS: [H2Fault; 11] = [
    H2Fault::GoAwayAbove(false),
    H2Fault::GoAwayAbove(true),
    H2Fault::RefusedStream,
    H2Fault::RefusedStreamAfterBody,
    H2Fault::ResetStream(false),
    H2Fault::ResetStream(true),
    H2Fault::GoAwayBelow(false),
    H2Fault::GoAwayBelow(true),
    H2Fault::GoAwayCovering(false),
    H2Fault::GoAwayCovering(true),
    H2Fault::HeadThenRefused,
];

const ACTIONS: [Action; 3] = [Action::Close, Action::Reset, Action::Stall];

fn draw_fault(rng: &mut SplitMix64, protocol: Protocol) -> Fault {
    match rng.below(20) {
        0..=4 => Fault::Answer(200),
        5 => Fault::Answer(503),
        6..=10 if protocol == Protocol::Http2 => Fault::H2(rng.pick(&H2_FAULTS)),
        _ => {
            let edge = match protocol {
                Protocol::Http1 => rng.pick(&EDGES),
                Protocol::Http2 => rng.pick(&H2_EDGES),
            };
            Fault::Cut(edge, rng.pick(&ACTIONS))
        }
    }
}

impl CallShape {
    /// Draws a call. `http2` says whether the engine speaks HTTP/2; the
    /// draws are the same either way (an HTTP/2 draw becomes HTTP/1.1), so
    /// one seed gives every engine the same sequence of everything else.
    pub fn draw(rng: &mut SplitMix64, http2: bool) -> CallShape {
        let protocol = if rng.chance(1, 3) && http2 {
            Protocol::Http2
        } else {
            Protocol::Http1
        };
        // Drawn for every call, so the sequence of the other draws is the
        // same whatever the protocol.
        let tls = rng.chance(1, 3) && protocol == Protocol::Http1;
        let connection = if rng.chance(1, 2) {
            Connection::Pooled
        } else {
            Connection::Fresh
        };
        let post = rng.chance(2, 3);
        let body = if post {
            rng.pick(&[
                BodyKind::Empty,
                BodyKind::InMemory,
                BodyKind::InMemoryLarge,
                BodyKind::Streamed,
                BodyKind::OneShot,
            ])
        } else {
            BodyKind::Empty
        };
        let declared = rng.pick(&[Declared::Nothing, Declared::Idempotent, Declared::Key]);
        let target = match rng.below(40) {
            0 | 1 => Target::Refused,
            2 => Target::ConnectStall,
            3 if tls => Target::TlsStall,
            _ => Target::Lane,
        };
        let attempt_timeout = if rng.chance(2, 5) {
            Duration::from_micros(rng.log_uniform(TIGHT_TIMEOUT_US.0, TIGHT_TIMEOUT_US.1))
        } else {
            Duration::from_millis(rng.log_uniform(STALL_TIMEOUT_MS.0, STALL_TIMEOUT_MS.1))
        };
        let head_padding = rng.pick(&HEAD_PADDINGS);
        let first = draw_fault(rng, protocol);
        let mut faults = [first; MAX_ATTEMPTS as usize];
        for fault in faults.iter_mut().skip(1) {
            *fault = if rng.chance(1, 2) {
                Fault::Answer(200)
            } else {
                draw_fault(rng, protocol)
            };
        }
        CallShape {
            protocol,
            tls,
            connection,
            body,
            post,
            declared,
            target,
            attempt_timeout,
            head_padding,
            faults,
        }
    }

    /// The fault of attempt `attempt` (an attempt past the plan answers).
    pub fn fault(&self, attempt: u32) -> Fault {
        self.faults
            .get(attempt as usize)
            .copied()
            .unwrap_or(Fault::Answer(200))
    }

    /// Whether the call is declared idempotent, so that the server may
    /// execute it more than once.
    pub fn may_repeat(&self) -> bool {
        self.declared == Declared::Idempotent
    }
}

impl fmt::Display for CallShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?}{} {:?} {} body={:?} declared={:?} target={:?} timeout={}us padding={} faults=[{}, {}, {}]",
            self.protocol,
            if self.tls { " over TLS" } else { "" },
            self.connection,
            if self.post { "POST" } else { "GET" },
            self.body,
            self.declared,
            self.target,
            self.attempt_timeout.as_micros(),
            self.head_padding,
            self.faults[0],
            self.faults[1],
            self.faults[2],
        )
    }
}
