//! The HTTP/2 fault server: the h2 crate's server, over TCP with prior
//! knowledge (h2c) or over TLS with ALPN `h2`, plus raw frames where h2
//! cannot produce the fault.
//!
//! What h2 (0.4.20) can and cannot do, from its source: `send_reset` gives
//! any RST_STREAM, so `REFUSED_STREAM` and bare resets come from h2. Every
//! GOAWAY h2 writes carries its *last processed* stream id, and a stream
//! counts as processed as soon as its HEADERS arrive
//! (`proto/streams/recv.rs`); `graceful_shutdown` first sends 2^31-1 and
//! then that id. So h2 can never announce a last-stream-id *below* a
//! request it has decoded. For both GOAWAY behaviours the lab therefore
//! lets h2 decode the request (ids, key), stops driving h2, and writes the
//! GOAWAY itself through a second handle on the same connection (see
//! `shared_io`), then half-closes and drains until the client closes.

mod behaviour;
mod frames;
mod shared_io;

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use h2::server::SendResponse;
use h2::{Reason, RecvStream};
use http::{Request, Response};
use rustls::ServerConfig;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

pub use behaviour::Http2Behaviour;
use shared_io::SharedIo;

use super::conn::Conn;
use super::ledger::{
    Admission, Arrival, IDEMPOTENCY_KEY_HEADER, Ledger, REPLAY_HEADER, REQUEST_ID_HEADER,
};
use super::pki::{ALPN_H2, ServerIdentity, TestPki};
use super::reply::Reply;
use super::script::Script;
use super::server::{LabServer, Listen, Stop, accept_loop, bind, runtime};

/// Status stored for an idempotency key whose execution ended without an
/// answer: what the operation would have answered had it not failed.
const EXECUTED_STATUS: u16 = 200;

/// How long the server waits, after its GOAWAY and FIN, for the client to
/// close, so the connection ends with the client's FIN rather than a RST
/// caused by unread bytes. Only an upper bound: a client that closes at
/// once ends it at once.
const DRAIN_AFTER_GOAWAY: Duration = Duration::from_secs(5);

/// Builder for an HTTP/2 lab server.
///
/// ```
/// use evident_conformance::lab::{Http2Behaviour, Http2Server};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> std::io::Result<()> {
/// // Refuse the first stream, serve the rest.
/// let server = Http2Server::new([Http2Behaviour::RefusedStream, Http2Behaviour::respond(200)])
///     .start()?;
/// assert_eq!(server.scheme(), "http");
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct Http2Server {
    script: Vec<Http2Behaviour>,
    tls: Option<ServerIdentity>,
    listen: Listen,
}

impl Http2Server {
    /// A server where request N (counted over all connections) gets
    /// `script[N]`, the last entry repeating. An empty script answers every
    /// request with 200.
    pub fn new(script: impl IntoIterator<Item = Http2Behaviour>) -> Self {
        Self {
            script: script.into_iter().collect(),
            tls: None,
            listen: Listen::default(),
        }
    }

    /// Speak TLS with the trusted test certificate (ALPN `h2`) instead of
    /// prior-knowledge h2c.
    pub fn tls(self) -> Self {
        self.tls_identity(ServerIdentity::Trusted)
    }

    /// Speak TLS presenting `identity`'s certificate.
    pub fn tls_identity(mut self, identity: ServerIdentity) -> Self {
        self.tls = Some(identity);
        self
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
        let handle = runtime()?;
        let listener = bind(&self.listen)?;
        let addr = listener.local_addr()?;
        let ledger = Ledger::new();
        let (stop_tx, stop) = self.listen.stop_channel();
        let tls = self
            .tls
            .map(|identity| TestPki::get().server_config(identity, &[ALPN_H2]));
        let context = Arc::new(Context {
            script: Script::new(self.script, Http2Behaviour::respond(200)),
            ledger: ledger.clone(),
            tls,
            stop: stop.clone(),
        });
        let handler = Arc::new(move |stream: TcpStream, connection: u64| {
            let context = Arc::clone(&context);
            async move { serve_connection(stream, connection, context).await }
        });
        handle.spawn(accept_loop(listener, ledger.clone(), stop, handler));
        Ok(LabServer::new(addr, ledger, self.tls.is_some(), stop_tx))
    }
}

#[derive(Debug)]
struct Context {
    script: Script<Http2Behaviour>,
    ledger: Ledger,
    tls: Option<Arc<ServerConfig>>,
    stop: Stop,
}

/// A GOAWAY the lab writes itself, after the raw frames in `before`.
/// The last-stream-id of the first GOAWAY of a graceful shutdown: the
/// largest stream id, so that no stream is excluded yet (RFC 9113 §6.8).
const GRACEFUL_LAST_STREAM_ID: u32 = (1 << 31) - 1;

struct GoAway {
    last_stream_id: u32,
    reason: Reason,
    before: Vec<u8>,
}

async fn serve_connection(stream: TcpStream, connection: u64, context: Arc<Context>) {
    let Ok(conn) = Conn::accept(stream, context.tls.as_ref()).await else {
        return;
    };
    let io = SharedIo::new(conn);
    let raw = io.handle();
    let Ok(mut h2) = h2::server::handshake(io).await else {
        return;
    };
    let mut last_received = 0;
    let go_away = loop {
        let Some(Ok((request, mut respond))) = h2.accept().await else {
            return;
        };
        let stream_id = respond.stream_id().as_u32();
        let admission = context
            .ledger
            .receive(arrival(&request, connection, stream_id));
        let index = match admission {
            Admission::Replay { status, .. } => {
                spawn_bounded(&context.stop, replay(request, respond, status));
                last_received = stream_id;
                continue;
            }
            Admission::Fresh { index } => index,
        };
        match context.script.get(index) {
            Http2Behaviour::Respond(reply) => {
                let (reply, ledger) = (reply.clone(), context.ledger.clone());
                spawn_bounded(
                    &context.stop,
                    answer(request, respond, reply, index, ledger),
                );
            }
            Http2Behaviour::AnswerMidBody { after_bytes, reply } => {
                let (after, reply, ledger) = (*after_bytes, reply.clone(), context.ledger.clone());
                spawn_bounded(&context.stop, async move {
                    let mut body = request.into_body();
                    let mut read = 0;
                    while read < after {
                        match body.data().await {
                            Some(Ok(chunk)) => {
                                read += chunk.len();
                                let _ = body.flow_control().release_capacity(chunk.len());
                            }
                            _ => return,
                        }
                    }
                    if reply.counts_as_execution() {
                        ledger.execute(index, reply.status().as_u16());
                    }
                    let _ = send_reply(respond, &reply);
                    // Dropping the unread body after a complete answer makes
                    // h2 send RST_STREAM(NO_ERROR) behind it.
                    drop(body);
                });
            }
            Http2Behaviour::RefusedStream => respond.send_reset(Reason::REFUSED_STREAM),
            Http2Behaviour::RefusedStreamAfterBody => {
                spawn_bounded(&context.stop, async move {
                    if drain_body(request.into_body()).await.is_ok() {
                        respond.send_reset(Reason::REFUSED_STREAM);
                    }
                });
            }
            Http2Behaviour::ResetStream { reason, execute } => {
                let (reason, execute, ledger) = (*reason, *execute, context.ledger.clone());
                spawn_bounded(&context.stop, async move {
                    if drain_body(request.into_body()).await.is_ok() {
                        if execute {
                            ledger.execute(index, EXECUTED_STATUS);
                        }
                        respond.send_reset(reason);
                    }
                });
            }
            Http2Behaviour::NeverAnswer { execute } => {
                if *execute {
                    context.ledger.execute(index, EXECUTED_STATUS);
                }
                // Held until the server stops (spawn_bounded ends it then).
                spawn_bounded(&context.stop, async move {
                    let _held = (request, respond);
                    std::future::pending::<()>().await;
                });
            }
            Http2Behaviour::GoAwayAboveLastStreamId => {
                break GoAway {
                    last_stream_id: last_received,
                    reason: Reason::NO_ERROR,
                    before: Vec::new(),
                };
            }
            Http2Behaviour::GoAwayWithErrorAboveLastStreamId { reason } => {
                break GoAway {
                    last_stream_id: last_received,
                    reason: *reason,
                    before: Vec::new(),
                };
            }
            Http2Behaviour::RespondHeadThenRefusedStream { execute } => {
                if *execute {
                    context.ledger.execute(index, EXECUTED_STATUS);
                }
                // h2's `send_reset` drops whatever the stream still has
                // queued, the head included, so the lab writes these frames
                // itself, in order, and then ends the connection like the
                // GOAWAY behaviours (the stream was answered: it is covered).
                break GoAway {
                    last_stream_id: stream_id,
                    reason: Reason::NO_ERROR,
                    before: frames::head_then_refused_stream(stream_id),
                };
            }
            Http2Behaviour::GoAwayCoveringStreamThenClose { execute } => {
                if *execute {
                    context.ledger.execute(index, EXECUTED_STATUS);
                }
                break GoAway {
                    last_stream_id: stream_id,
                    reason: Reason::NO_ERROR,
                    before: Vec::new(),
                };
            }
            Http2Behaviour::GracefulShutdownExcludingStream => {
                break GoAway {
                    last_stream_id: last_received,
                    reason: Reason::NO_ERROR,
                    before: frames::go_away(GRACEFUL_LAST_STREAM_ID, Reason::NO_ERROR.into())
                        .to_vec(),
                };
            }
            Http2Behaviour::GracefulShutdownCoveringStreamThenClose { execute } => {
                if *execute {
                    context.ledger.execute(index, EXECUTED_STATUS);
                }
                break GoAway {
                    last_stream_id: stream_id,
                    reason: Reason::NO_ERROR,
                    before: frames::go_away(GRACEFUL_LAST_STREAM_ID, Reason::NO_ERROR.into())
                        .to_vec(),
                };
            }
        }
        last_received = stream_id;
    };
    // h2 is no longer polled from here on: dropping it writes nothing, and
    // its already flushed frames (SETTINGS, acks) are all on the wire.
    drop(h2);
    write_go_away_and_close(raw, go_away, &context.stop).await;
}

/// Runs a per-stream task that ends when the server stops, at the latest.
fn spawn_bounded(stop: &Stop, work: impl Future<Output = ()> + Send + 'static) {
    let stop = stop.clone();
    tokio::spawn(async move {
        stop.run(work).await;
    });
}

fn arrival(request: &Request<RecvStream>, connection: u64, stream_id: u32) -> Arrival {
    let header = |name: &str| {
        request
            .headers()
            .get(name)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).trim().to_owned())
    };
    Arrival {
        connection,
        stream_id: Some(stream_id),
        method: request.method().to_string(),
        target: request
            .uri()
            .path_and_query()
            .map_or_else(|| "/".to_owned(), |p| p.to_string()),
        request_id: header(REQUEST_ID_HEADER),
        idempotency_key: header(IDEMPOTENCY_KEY_HEADER),
    }
}

async fn write_go_away_and_close(mut raw: SharedIo<Conn>, go_away: GoAway, stop: &Stop) {
    let mut frame = go_away.before;
    frame.extend_from_slice(&frames::go_away(
        go_away.last_stream_id,
        go_away.reason.into(),
    ));
    if raw.write_all(&frame).await.is_err() || raw.flush().await.is_err() {
        return;
    }
    let _ = raw.shutdown().await;
    let drained = async {
        let mut scratch = [0u8; 16 * 1024];
        loop {
            match tokio::io::AsyncReadExt::read(&mut raw, &mut scratch).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    };
    stop.run(tokio::time::timeout(DRAIN_AFTER_GOAWAY, drained))
        .await;
}

/// Reads the whole request body, giving flow-control credit back as it goes.
async fn drain_body(mut body: RecvStream) -> Result<(), h2::Error> {
    while let Some(chunk) = body.data().await {
        let chunk = chunk?;
        let _ = body.flow_control().release_capacity(chunk.len());
    }
    Ok(())
}

async fn answer(
    request: Request<RecvStream>,
    respond: SendResponse<Bytes>,
    reply: Reply,
    index: usize,
    ledger: Ledger,
) {
    if drain_body(request.into_body()).await.is_err() {
        return;
    }
    if reply.counts_as_execution() {
        ledger.execute(index, reply.status().as_u16());
    }
    let _ = send_reply(respond, &reply);
}

async fn replay(request: Request<RecvStream>, respond: SendResponse<Bytes>, status: u16) {
    if drain_body(request.into_body()).await.is_err() {
        return;
    }
    let status = http::StatusCode::from_u16(status).unwrap_or(http::StatusCode::OK);
    let _ = send_reply(respond, &Reply::new(status).header(REPLAY_HEADER, "true"));
}

fn send_reply(mut respond: SendResponse<Bytes>, reply: &Reply) -> Result<(), h2::Error> {
    let mut response = Response::new(());
    *response.status_mut() = reply.status();
    for (name, value) in reply.headers() {
        response.headers_mut().append(name.clone(), value.clone());
    }
    let body = reply.body_bytes().clone();
    let mut stream = respond.send_response(response, body.is_empty())?;
    if !body.is_empty() {
        stream.send_data(body, true)?;
    }
    Ok(())
}
