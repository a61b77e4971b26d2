//! The HTTP/1.1 fault server: raw tokio TCP (optionally TLS with ALPN
//! `http/1.1`) driven by a script of per-request behaviours.
//!
//! Raw sockets rather than a server library, because the faults are exactly
//! what a well-behaved server library refuses to do: stop halfway through a
//! head, lie about a body length, reset a connection mid-upload.

mod behaviour;
mod wire;

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use rustls::ServerConfig;
use tokio::net::TcpStream;

pub use behaviour::{AfterEarlyAnswer, Http1Behaviour};
use wire::{Framing, Head, Persistence, Wire, encode_head, encode_reply, encode_reply_declaring};

use super::conn::Conn;
use super::ledger::{Admission, Arrival, Ledger, REPLAY_HEADER};
use super::pki::{ALPN_HTTP1, ServerIdentity, TestPki};
use super::reply::Reply;
use super::script::Script;
use super::server::{LabServer, Listen, Stop, accept_loop, bind, runtime};

/// Bytes a `StallBody` answer announces beyond those it sends, so the
/// client keeps waiting for them.
const STALL_UNSENT_BYTES: usize = 1024;

/// The byte a lab answer's body is made of.
const BODY_FILL: u8 = b'x';

/// What a `PartialHeadThenClose` answer sends.
const PARTIAL_HEAD: &[u8] = b"HTTP/1.1 200 OK\r\nContent-Ty";

/// What a `Malformed` answer sends: a status line without a status code.
const MALFORMED: &[u8] = b"HTTP/1.1 abc nonsense\r\n\r\n";

/// Status stored for an idempotency key whose execution ended without an
/// answer: what the operation would have answered had it not failed.
const EXECUTED_STATUS: u16 = 200;

/// Builder for an HTTP/1.1 lab server.
///
/// ```
/// use evident_conformance::lab::{Http1Behaviour, Http1Server};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> std::io::Result<()> {
/// // The first request is executed and then the connection is reset; every
/// // later request gets 200.
/// let server = Http1Server::new([
///     Http1Behaviour::ResetAfterRequest { execute: true },
///     Http1Behaviour::respond(200),
/// ])
/// .start()?;
/// assert!(server.url("/pay").starts_with("http://127.0.0.1:"));
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct Http1Server {
    script: Vec<Http1Behaviour>,
    tls: Option<ServerIdentity>,
    listen: Listen,
}

impl Http1Server {
    /// A server where request N gets `script[N]`, the last entry repeating.
    /// An empty script answers every request with 200.
    pub fn new(script: impl IntoIterator<Item = Http1Behaviour>) -> Self {
        Self {
            script: script.into_iter().collect(),
            tls: None,
            listen: Listen::default(),
        }
    }

    /// Speak TLS with the trusted test certificate (ALPN `http/1.1`).
    pub fn tls(self) -> Self {
        self.tls_identity(ServerIdentity::Trusted)
    }

    /// Speak TLS presenting `identity`'s certificate.
    pub fn tls_identity(mut self, identity: ServerIdentity) -> Self {
        self.tls = Some(identity);
        self
    }

    /// Listen on this loopback address (port 0 picks a free port). Default
    /// `127.0.0.1:0`.
    pub fn bind(mut self, addr: SocketAddr) -> Self {
        self.listen.addr = addr;
        self
    }

    /// Stop by itself after `lifetime` (default
    /// [`crate::lab::DEFAULT_LIFETIME`]).
    pub fn lifetime(mut self, lifetime: Duration) -> Self {
        self.listen.lifetime = lifetime;
        self
    }

    /// Fix the receive buffer (`SO_RCVBUF`) of every accepted connection
    /// to `bytes`, turning the kernel's autotuning off. On loopback the
    /// autotuned window can grow to tens of megabytes, so a server that
    /// stops reading would otherwise swallow a whole upload.
    pub fn receive_buffer(mut self, bytes: usize) -> Self {
        self.listen.receive_buffer = Some(bytes);
        self
    }

    /// Binds and starts serving on the current tokio runtime.
    ///
    /// # Errors
    ///
    /// If the address is not loopback, cannot be bound, or no runtime is
    /// entered.
    pub fn start(self) -> io::Result<LabServer> {
        let handle = runtime()?;
        let listener = bind(&self.listen)?;
        let addr = listener.local_addr()?;
        let ledger = Ledger::new();
        let (stop_tx, stop) = self.listen.stop_channel();
        let tls = self
            .tls
            .map(|identity| TestPki::get().server_config(identity, &[ALPN_HTTP1]));
        let context = Arc::new(Context {
            script: Script::new(self.script, Http1Behaviour::respond(200)),
            ledger: ledger.clone(),
            tls,
            stop: stop.clone(),
        });
        let handler = Arc::new(move |stream: TcpStream, connection: u64| {
            let context = Arc::clone(&context);
            async move { serve_connection(stream, connection, &context).await }
        });
        handle.spawn(accept_loop(listener, ledger.clone(), stop, handler));
        Ok(LabServer::new(addr, ledger, self.tls.is_some(), stop_tx))
    }
}

#[derive(Debug)]
struct Context {
    script: Script<Http1Behaviour>,
    ledger: Ledger,
    tls: Option<Arc<ServerConfig>>,
    stop: Stop,
}

/// What to do with the connection after one exchange.
enum Next {
    KeepServing(Wire),
    Done,
}

async fn serve_connection(stream: TcpStream, connection: u64, context: &Context) {
    let Ok(conn) = Conn::accept(stream, context.tls.as_ref()).await else {
        return;
    };
    let mut wire = Wire::new(conn);
    loop {
        let Ok(Some(head)) = wire.read_head().await else {
            return;
        };
        let admission = context.ledger.receive(Arrival {
            connection,
            stream_id: None,
            method: head.method.clone(),
            target: head.target.clone(),
            request_id: head.request_id.clone(),
            idempotency_key: head.idempotency_key.clone(),
        });
        let next = match admission {
            Admission::Replay { status, .. } => replay(wire, &head, status).await,
            Admission::Fresh { index } => {
                let behaviour = context.script.get(index);
                act(wire, &head, index, behaviour, context).await
            }
        };
        match next {
            Ok(Next::KeepServing(same)) => wire = same,
            Ok(Next::Done) | Err(_) => return,
        }
    }
}

async fn replay(mut wire: Wire, head: &Head, status: u16) -> io::Result<Next> {
    wire.read_body(head).await?;
    let status = http::StatusCode::from_u16(status).unwrap_or(http::StatusCode::OK);
    let reply = Reply::new(status).header(REPLAY_HEADER, "true");
    respond(wire, head, &reply, Persistence::Default).await
}

async fn respond(
    mut wire: Wire,
    head: &Head,
    reply: &Reply,
    persistence: Persistence,
) -> io::Result<Next> {
    let close = reply.closes_connection() || head.wants_close;
    let persistence = if close {
        Persistence::Close
    } else {
        persistence
    };
    let bytes = encode_reply(reply, persistence, head.method == "HEAD");
    wire.send(&bytes).await?;
    if close {
        wire.conn.close().await;
        return Ok(Next::Done);
    }
    Ok(Next::KeepServing(wire))
}

async fn act(
    mut wire: Wire,
    head: &Head,
    index: usize,
    behaviour: &Http1Behaviour,
    context: &Context,
) -> io::Result<Next> {
    let ledger = &context.ledger;
    let execute_if = |execute: bool| {
        if execute {
            ledger.execute(index, EXECUTED_STATUS);
        }
    };
    if let Http1Behaviour::CloseDuringRequestBody { after_bytes }
    | Http1Behaviour::StopReadingMidBody { after_bytes } = behaviour
    {
        if head.expects_continue {
            wire.send(b"HTTP/1.1 100 Continue\r\n\r\n").await?;
        }
        // Never wait for more body than the client announced, or a short
        // body would leave both sides waiting instead of meeting the fault.
        let limit = match head.framing {
            Framing::Empty => 0,
            Framing::Length(n) => n.min(*after_bytes as u64),
            Framing::Chunked => *after_bytes as u64,
        };
        wire.discard_raw(limit).await?;
        if matches!(behaviour, Http1Behaviour::StopReadingMidBody { .. }) {
            // Read nothing more: held until the server stops.
            let _held = wire;
            context.stop.wait().await;
            return Ok(Next::Done);
        }
        // Unread body bytes would turn a close into a RST anyway; saying so
        // explicitly makes the client's view the same on every kernel.
        wire.conn.reset();
        return Ok(Next::Done);
    }
    if let Http1Behaviour::AnswerMidBody {
        after_bytes,
        reply,
        then,
    } = behaviour
    {
        let limit = match head.framing {
            Framing::Empty => 0,
            Framing::Length(n) => n.min(*after_bytes as u64),
            Framing::Chunked => *after_bytes as u64,
        };
        wire.discard_raw(limit).await?;
        if reply.counts_as_execution() {
            ledger.execute(index, reply.status().as_u16());
        }
        // The answer says it closes: the client must not expect more.
        let bytes = match then {
            AfterEarlyAnswer::ResetMidBody { declared } => {
                encode_reply_declaring(reply, *declared, Persistence::Close, false)
            }
            _ => encode_reply(reply, Persistence::Close, head.method == "HEAD"),
        };
        wire.send(&bytes).await?;
        match then {
            AfterEarlyAnswer::ResetMidBody { .. } => wire.conn.reset(),
            AfterEarlyAnswer::Close => wire.conn.close().await,
            AfterEarlyAnswer::Reset => wire.conn.reset(),
            AfterEarlyAnswer::ReadOn => {
                let rest = match head.framing {
                    Framing::Length(n) => n - limit,
                    Framing::Empty => 0,
                    Framing::Chunked => u64::MAX,
                };
                // Until the declared end, or the client's end of sending.
                let _ = wire.discard_raw(rest).await;
                wire.conn.close().await;
            }
        }
        return Ok(Next::Done);
    }
    wire.read_body(head).await?;
    match behaviour {
        Http1Behaviour::Respond(reply) => {
            if reply.counts_as_execution() {
                ledger.execute(index, reply.status().as_u16());
            }
            respond(wire, head, reply, Persistence::Default).await
        }
        Http1Behaviour::RespondThenCloseIdle(reply) => {
            if reply.counts_as_execution() {
                ledger.execute(index, reply.status().as_u16());
            }
            match respond(wire, head, reply, Persistence::KeepAlive).await? {
                Next::KeepServing(wire) => {
                    wire.conn.close().await;
                    ledger.idle_closed();
                }
                Next::Done => {}
            }
            Ok(Next::Done)
        }
        Http1Behaviour::CloseAfterRequest { execute } => {
            execute_if(*execute);
            wire.conn.close().await;
            Ok(Next::Done)
        }
        Http1Behaviour::ResetAfterRequest { execute } => {
            execute_if(*execute);
            wire.conn.reset();
            Ok(Next::Done)
        }
        Http1Behaviour::NeverAnswer { execute } => {
            execute_if(*execute);
            hold(wire, &context.stop).await;
            Ok(Next::Done)
        }
        Http1Behaviour::PartialHeadThenClose { execute } => {
            execute_if(*execute);
            wire.send(PARTIAL_HEAD).await?;
            wire.conn.close().await;
            Ok(Next::Done)
        }
        Http1Behaviour::Malformed { execute } => {
            execute_if(*execute);
            wire.send(MALFORMED).await?;
            wire.conn.close().await;
            Ok(Next::Done)
        }
        Http1Behaviour::TruncatedBody {
            declared,
            sent,
            execute,
        } => {
            execute_if(*execute);
            let mut bytes = encode_head(
                200,
                "OK",
                std::iter::empty(),
                *declared,
                Persistence::Default,
            );
            bytes.resize(bytes.len() + (*sent).min(*declared), BODY_FILL);
            wire.send(&bytes).await?;
            wire.conn.close().await;
            Ok(Next::Done)
        }
        Http1Behaviour::TruncatedChunkedBody { execute } => {
            execute_if(*execute);
            wire.send(b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n")
                .await?;
            wire.conn.close().await;
            Ok(Next::Done)
        }
        Http1Behaviour::ResetDuringBody {
            declared,
            sent,
            execute,
        } => {
            execute_if(*execute);
            let mut bytes = encode_head(
                200,
                "OK",
                std::iter::empty(),
                *declared,
                Persistence::Default,
            );
            bytes.resize(bytes.len() + (*sent).min(*declared), BODY_FILL);
            wire.send(&bytes).await?;
            wire.conn.reset();
            Ok(Next::Done)
        }
        Http1Behaviour::StallBody { sent, execute } => {
            execute_if(*execute);
            let declared = sent + STALL_UNSENT_BYTES;
            let mut bytes = encode_head(
                200,
                "OK",
                std::iter::empty(),
                declared,
                Persistence::Default,
            );
            bytes.resize(bytes.len() + sent, BODY_FILL);
            wire.send(&bytes).await?;
            hold(wire, &context.stop).await;
            Ok(Next::Done)
        }
        Http1Behaviour::CloseDuringRequestBody { .. }
        | Http1Behaviour::StopReadingMidBody { .. }
        | Http1Behaviour::AnswerMidBody { .. } => Ok(Next::Done),
    }
}

/// Keeps the connection open without answering until the client closes it
/// or the server stops.
async fn hold(mut wire: Wire, stop: &Stop) {
    stop.run(wire.conn.drain_until_eof()).await;
}
