//! What an HTTP/1.1 lab server does with one request.

use super::super::reply::Reply;

/// The behaviour for one request on an HTTP/1.1 lab server.
///
/// Every behaviour first reads the whole request head (that makes it a
/// *received* request in the ledger). Unless it says otherwise it then reads
/// the whole body, and `execute: true` counts the request as *executed*
/// before the fault happens. A request carrying an idempotency key that
/// was already executed is answered as a replay whatever the behaviour.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Http1Behaviour {
    /// Answer normally; keep-alive unless [`Reply::close`]. Counts as an
    /// execution as [`Reply::counts_as_execution`] says.
    Respond(Reply),
    /// Answer with explicit keep-alive headers, then close the connection
    /// (FIN; TLS close_notify first) while it sits idle in the client's
    /// pool. [`crate::lab::LabServer::idle_closed`] resolves once it is
    /// closed, so the next request can deterministically meet a stale
    /// pooled connection.
    RespondThenCloseIdle(Reply),
    /// Read the request, then close cleanly (FIN) without answering.
    CloseAfterRequest {
        /// Count an execution before closing.
        execute: bool,
    },
    /// Read the request, then close with a TCP RST (SO_LINGER 0) without
    /// answering.
    ResetAfterRequest {
        /// Count an execution before resetting.
        execute: bool,
    },
    /// Read the request and never answer; the connection stays open until
    /// the client closes it or the server stops.
    NeverAnswer {
        /// Count an execution.
        execute: bool,
    },
    /// Send `HTTP/1.1 200 OK\r\nContent-Ty` and close cleanly.
    PartialHeadThenClose {
        /// Count an execution before answering.
        execute: bool,
    },
    /// Send `HTTP/1.1 abc nonsense\r\n\r\n` (a status line with no status
    /// code, which every HTTP/1.1 parser rejects) and close.
    Malformed {
        /// Count an execution before answering.
        execute: bool,
    },
    /// Answer 200 with `Content-Length: declared` but send only `sent` body
    /// bytes, then close cleanly.
    TruncatedBody {
        /// The announced body length.
        declared: usize,
        /// Body bytes actually sent (less than `declared`).
        sent: usize,
        /// Count an execution before answering.
        execute: bool,
    },
    /// Answer 200 with a chunked body, send one chunk and close without the
    /// terminating chunk.
    TruncatedChunkedBody {
        /// Count an execution before answering.
        execute: bool,
    },
    /// Answer 200 announcing `declared` body bytes, send `sent` of them and
    /// reset the connection (RST).
    ResetDuringBody {
        /// The announced `Content-Length`.
        declared: usize,
        /// Body bytes sent before the reset.
        sent: usize,
        /// Count an execution before answering.
        execute: bool,
    },
    /// Answer 200 announcing more body than is sent, send `sent` bytes and
    /// then hold the connection without sending more.
    StallBody {
        /// Body bytes sent before stalling.
        sent: usize,
        /// Count an execution before answering.
        execute: bool,
    },
    /// Read the head and `after_bytes` raw body bytes (answering `Expect:
    /// 100-continue` first if asked), then reset the connection (RST) while
    /// the client is still sending. Never executed. Give the client a body
    /// of several megabytes so it is still writing when the RST arrives.
    CloseDuringRequestBody {
        /// Body bytes read before the reset.
        after_bytes: usize,
    },
    /// Read the head and `after_bytes` raw body bytes (answering `Expect:
    /// 100-continue` first if asked), then stop reading and hold the
    /// connection open, so the client's write blocks once the socket
    /// buffers are full. Never executed. Pair it with
    /// [`Http1Server::receive_buffer`](super::Http1Server::receive_buffer)
    /// and a body larger than the client's send buffer.
    StopReadingMidBody {
        /// Body bytes read before the server stops reading.
        after_bytes: usize,
    },
    /// Read the head and `after_bytes` raw body bytes, answer with `reply`
    /// while the client is still sending (RFC 9112 §9.6 lets a server
    /// answer before it read the whole request and close), then end the
    /// connection as `then` says. Counts as an execution as
    /// [`Reply::counts_as_execution`] says (a 413 does not, a 200 does).
    /// Give the client a body of several megabytes.
    AnswerMidBody {
        /// Body bytes read before answering.
        after_bytes: usize,
        /// The early answer.
        reply: Reply,
        /// How the connection ends after it.
        then: AfterEarlyAnswer,
    },
}

/// How a server that answered early ends the connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum AfterEarlyAnswer {
    /// Close: TLS close_notify (if TLS) and FIN, then the socket is closed
    /// with the client's unread body in it, which the kernel turns into a
    /// RST, as a server that does not linger does.
    Close,
    /// Reset at once (RST, SO_LINGER 0).
    Reset,
    /// Read the rest of the request (its declared length, or until the
    /// client stops sending), then close: the answer leaves the upload to
    /// finish or to be abandoned by the client, and no write of the
    /// client's fails. Nothing races the answer.
    ReadOn,
    /// The answer's head announces `declared` body bytes, fewer are sent
    /// (the reply's body), then a reset (RST): an early answer cut short.
    ResetMidBody {
        /// The announced `Content-Length`, above the reply's body length.
        declared: usize,
    },
}

impl Http1Behaviour {
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
