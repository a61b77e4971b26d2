//! What an HTTP/2 lab server does with one request (one stream).

use h2::Reason;

use super::super::reply::Reply;

/// The behaviour for one request on an HTTP/2 lab server.
///
/// The request's HEADERS make it *received*; `execute` (or the reply)
/// says whether it counts as executed. A request carrying an idempotency
/// key that was already executed is answered as a replay whatever the
/// behaviour.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Http2Behaviour {
    /// Read the request body and answer.
    Respond(Reply),
    /// Reset the stream with `REFUSED_STREAM` at once, without executing
    /// (RFC 9113 §8.7: the request was not processed). The connection stays
    /// usable.
    RefusedStream,
    /// Read the whole request body first, then reset the stream with
    /// `REFUSED_STREAM`, without executing. The request has fully left the
    /// client, so only the protocol can prove it was not processed.
    RefusedStreamAfterBody,
    /// Send the response head (`200`, body still to come) and a few body
    /// bytes, then reset the stream with `REFUSED_STREAM`; then GOAWAY
    /// covering the stream, and close. The head proves the server acted,
    /// so the later refusal proves nothing about processing. Meant for
    /// bodyless requests: the request body is not read first.
    RespondHeadThenRefusedStream {
        /// Count an execution before answering.
        execute: bool,
    },
    /// Send GOAWAY (`NO_ERROR`) whose last-stream-id is the highest stream
    /// received on this connection *before* this one (0 if none), so this
    /// stream is provably unprocessed; then close the connection. Never
    /// executed. The server keeps accepting new connections.
    GoAwayAboveLastStreamId,
    /// Like [`Http2Behaviour::GoAwayAboveLastStreamId`], but the GOAWAY
    /// carries the error code `reason` (a connection error, RFC 9113
    /// §5.4.1): the stream above the last-stream-id is still provably
    /// unprocessed (§6.8).
    GoAwayWithErrorAboveLastStreamId {
        /// The GOAWAY's error code, e.g. `Reason::INTERNAL_ERROR`.
        reason: Reason,
    },
    /// Send GOAWAY (`NO_ERROR`) whose last-stream-id is this stream, then
    /// close the connection without answering: the outcome is ambiguous.
    GoAwayCoveringStreamThenClose {
        /// Count an execution (on receipt of the head) before the GOAWAY.
        execute: bool,
    },
    /// A graceful shutdown in two steps (RFC 9113 §6.8), as h2, Go and
    /// other servers do on a reload: GOAWAY(`NO_ERROR`) with a last-stream-id
    /// of 2^31-1 (every stream sent so far may still be processed), then
    /// GOAWAY naming this stream, then close without answering. The stream
    /// is covered by both: the outcome is ambiguous.
    GracefulShutdownCoveringStreamThenClose {
        /// Count an execution (on receipt of the head) before the GOAWAYs.
        execute: bool,
    },
    /// A graceful shutdown in two steps whose second GOAWAY excludes this
    /// stream: GOAWAY(`NO_ERROR`, 2^31-1), then GOAWAY naming the stream
    /// before it (RFC 9113 §6.8 lets the second lower the id), then close.
    /// The stream is not executed: above the final last-stream-id, it was
    /// not processed.
    GracefulShutdownExcludingStream,
    /// Read the request body, then reset the stream with `reason` (a bare
    /// RST_STREAM). The connection stays usable.
    ResetStream {
        /// The RST_STREAM error code, e.g. `Reason::INTERNAL_ERROR`.
        reason: Reason,
        /// Count an execution before the reset.
        execute: bool,
    },
    /// Never answer the stream; it stays open until the server stops.
    NeverAnswer {
        /// Count an execution (on receipt of the head).
        execute: bool,
    },
    /// Read `after_bytes` of the request body, send `reply` whole, then
    /// stop reading: h2 resets the stream with `NO_ERROR`, as RFC 9113
    /// §8.1 asks of a server that answered before the request was
    /// complete. Counts as an execution as [`Reply::counts_as_execution`]
    /// says. Give the client a body of several megabytes.
    AnswerMidBody {
        /// Body bytes read before answering.
        after_bytes: usize,
        /// The early answer.
        reply: Reply,
    },
}

impl Http2Behaviour {
    /// `Respond` with an empty-bodied answer of `status` (2xx counts as an
    /// execution).
    ///
    /// # Panics
    ///
    /// If `status` is not a valid status code (100–999).
    pub fn respond(status: u16) -> Self {
        let status = http::StatusCode::from_u16(status).expect("a valid status code");
        Self::Respond(Reply::new(status))
    }
}
