//! HTTP/2 over the `h2` crate directly: one shared connection per origin,
//! the stream id of every request, and h2's precise errors.
//!
//! Progress on HTTP/2 is reported from h2's API, not from the socket: frames
//! of concurrent streams share one connection and h2 buffers them, so bytes
//! cannot be attributed to a stream exactly. This engine therefore never
//! claims exact write counting on HTTP/2 (the core then never infers "not
//! sent" from a zero count), and reports:
//!
//! * `head_written` when h2 accepted the HEADERS frame for the stream
//!   (`send_request` returned): queued, possibly not yet on the wire. It
//!   also marks the write as started. Nothing is queued before it: a
//!   stream h2 refuses to open was not written at all, which the engine
//!   reports as handed back unsent;
//! * `wrote(n)` for DATA payload bytes h2 accepted (headers not counted);
//! * `body_written` when h2 accepted the frame carrying END_STREAM;
//! * `stream_id` from `ResponseFuture::stream_id()`.

use std::future::{Future, poll_fn};
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll, Waker, ready};
use std::time::Duration;

use bytes::Bytes;
use evident_core::{
    AttemptBody, AttemptStage, BoxError, EngineFailure, EngineSignal, Progress, ResponseBody,
};
use h2::client::SendRequest;
use h2::{RecvStream, SendStream};
use http::header::{CONNECTION, TE, TRANSFER_ENCODING, UPGRADE};
use http::{HeaderMap, HeaderName, Request, Response};
use http_body::{Body, Frame, SizeHint};
use http_body_util::BodyExt;

use crate::classify::{ErrorSite, RequestBodyError, classify};
use crate::io::Transport;

/// The stream flow-control window offered to the peer: 2 MiB, hyper's
/// default. The protocol's 64 KiB default caps a download at 64 KiB per
/// round trip, far below what a modern link carries.
pub const DEFAULT_HTTP2_STREAM_WINDOW: u32 = 2 * 1024 * 1024;

/// The connection flow-control window: 5 MiB (hyper's default), room for a
/// few streams at full speed without one starving the others.
pub const DEFAULT_HTTP2_CONNECTION_WINDOW: u32 = 5 * 1024 * 1024;

/// How often an HTTP/2 connection pings its peer: every 30 s, well inside
/// the idle limits of common load balancers (60 s and more), so a silent
/// middlebox drop is found before a request meets it.
pub const DEFAULT_HTTP2_KEEP_ALIVE_INTERVAL: Duration = Duration::from_secs(30);

/// How long a ping may go unanswered before the connection is declared
/// dead: 20 s, hyper's default keep-alive timeout.
pub const DEFAULT_HTTP2_KEEP_ALIVE_TIMEOUT: Duration = Duration::from_secs(20);

/// HTTP/2 connection settings.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Http2Settings {
    pub(crate) stream_window: u32,
    pub(crate) connection_window: u32,
    pub(crate) keep_alive: Option<KeepAlive>,
}

/// Keep-alive pings: one every `interval`, each answered within `timeout`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct KeepAlive {
    pub(crate) interval: Duration,
    pub(crate) timeout: Duration,
}

impl KeepAlive {
    /// Pings forever; returns when a ping went unanswered for `timeout`.
    /// A ping that fails because the connection ended waits forever: the
    /// connection's own end decides then.
    async fn until_unanswered(self, mut pings: h2::PingPong) {
        loop {
            tokio::time::sleep(self.interval).await;
            match tokio::time::timeout(self.timeout, pings.ping(h2::Ping::opaque())).await {
                Ok(Ok(_pong)) => {}
                Ok(Err(_)) => std::future::pending::<()>().await,
                Err(_elapsed) => return,
            }
        }
    }
}

/// A shared HTTP/2 connection (cheap to clone: every clone is a handle).
#[derive(Debug, Clone)]
pub(crate) struct H2Conn {
    send: SendRequest<Bytes>,
    closed: Arc<AtomicBool>,
}

impl H2Conn {
    /// Sends the connection preface and starts h2's connection task, with
    /// the flow-control windows and keep-alive of `settings`.
    pub(crate) async fn handshake(
        io: Transport,
        settings: &Http2Settings,
    ) -> Result<H2Conn, h2::Error> {
        let (send, mut connection) = h2::client::Builder::new()
            .enable_push(false)
            .initial_window_size(settings.stream_window)
            .initial_connection_window_size(settings.connection_window)
            .handshake::<_, Bytes>(io)
            .await?;
        let closed = Arc::new(AtomicBool::new(false));
        let flag = closed.clone();
        let pings = connection.ping_pong().zip(settings.keep_alive);
        tokio::spawn(async move {
            // Streams learn the connection's fate from h2 itself. A peer
            // that stops answering pings is dead: dropping the connection
            // closes the socket, and every stream on it fails (ambiguous:
            // nothing proves what the peer did with them).
            match pings {
                Some((pings, keep_alive)) => tokio::select! {
                    _ = &mut connection => {}
                    () = keep_alive.until_unanswered(pings) => {}
                },
                None => {
                    let _ = connection.await;
                }
            }
            flag.store(true, Ordering::Release);
        });
        Ok(H2Conn { send, closed })
    }

    /// Whether both handles lead to the same connection.
    pub(crate) fn same_connection(&self, other: &H2Conn) -> bool {
        Arc::ptr_eq(&self.closed, &other.closed)
    }

    pub(crate) fn is_closed(&self) -> bool {
        self.closed.load(Ordering::Acquire)
    }

    /// A handle ready to open a stream. `Err` when the connection can open
    /// no more streams (closed, failed, or a GOAWAY was received).
    pub(crate) async fn ready(&self) -> Result<H2Conn, h2::Error> {
        let send = self.send.clone().ready().await?;
        Ok(H2Conn {
            send,
            closed: self.closed.clone(),
        })
    }

    /// Whether the connection has received a GOAWAY: h2 then fails every
    /// attempt to open a stream with that GOAWAY error (h2 keeps the first
    /// connection error; a later I/O error can replace it, in which case
    /// this says `false` and the stream's I/O error is reported as such).
    pub(crate) fn goaway_received(&self) -> bool {
        let mut probe = self.send.clone();
        let mut cx = Context::from_waker(Waker::noop());
        matches!(probe.poll_ready(&mut cx), Poll::Ready(Err(e)) if e.is_go_away() && e.is_remote())
    }

    fn site(&self) -> ErrorSite {
        ErrorSite::Exchange {
            http2: true,
            goaway_received: self.goaway_received(),
        }
    }
}

/// The signal for a stream h2 refused to open: nothing was queued for it.
pub(crate) fn unopened_signal(e: &h2::Error) -> EngineSignal {
    if e.is_io() || (e.is_go_away() && !e.is_remote()) {
        EngineSignal::CancelledUnsent
    } else {
        // A remote GOAWAY: the same as a stream above its last-stream-id.
        // A user error (malformed request): whatever the classifier says.
        classify(e, ErrorSite::HTTP2_EXCHANGE)
    }
}

/// Sends one request as a stream on `conn`, which must be [`H2Conn::ready`].
pub(crate) async fn send(
    mut conn: H2Conn,
    request: Request<AttemptBody>,
    progress: &Progress,
) -> Result<Response<ResponseBody>, EngineFailure> {
    let (mut parts, body) = request.into_parts();
    strip_connection_headers(&mut parts.headers);
    let end_of_stream = body.is_end_stream();
    progress.enter(AttemptStage::WriteHead);
    let (response, stream) = conn
        .send
        .send_request(Request::from_parts(parts, ()), end_of_stream)
        .map_err(|e| EngineFailure::new(unopened_signal(&e), e))?;
    progress.stream_id(response.stream_id().as_u32());
    progress.head_written();
    let mut pipe = if end_of_stream {
        progress.body_written();
        None
    } else {
        Some(Box::pin(pipe_body(body, stream, progress.clone())))
    };

    let mut response = response;
    let outcome = poll_fn(|cx| {
        if let Some(p) = pipe.as_mut()
            && let Poll::Ready(piped) = p.as_mut().poll(cx)
        {
            pipe = None;
            if let Err(PipeError::Body(e)) = piped {
                return Poll::Ready(Err(e));
            }
            // A stream or connection failure also fails the response
            // future, with h2's precise error: wait for that.
        }
        Pin::new(&mut response).poll(cx).map(Ok)
    })
    .await;

    match outcome {
        Err(body_error) => Err(EngineFailure::new(
            EngineSignal::RequestBody,
            RequestBodyError::new(body_error),
        )),
        Ok(Ok(response)) => {
            progress.head_received();
            if let Some(pipe) = pipe {
                // The server answered before the body was complete; keep
                // sending it, as hyper's own HTTP/2 client does.
                tokio::spawn(pipe);
            }
            let (parts, recv) = response.into_parts();
            let body = TrackedResponse {
                recv,
                progress: progress.clone(),
                conn,
                data_done: false,
            };
            Ok(Response::from_parts(parts, body.boxed_unsync()))
        }
        Ok(Err(e)) => Err(EngineFailure::new(classify(&e, conn.site()), e)),
    }
}

/// Headers that are meaningful only for one HTTP/1.1 connection and that
/// HTTP/2 forbids (RFC 9113 §8.2.2); h2 rejects a request carrying them.
fn strip_connection_headers(headers: &mut HeaderMap) {
    const KEEP_ALIVE: HeaderName = HeaderName::from_static("keep-alive");
    const PROXY_CONNECTION: HeaderName = HeaderName::from_static("proxy-connection");
    for name in [
        CONNECTION,
        TRANSFER_ENCODING,
        UPGRADE,
        KEEP_ALIVE,
        PROXY_CONNECTION,
    ] {
        headers.remove(name);
    }
    if headers.get(TE).is_some_and(|v| v != "trailers") {
        headers.remove(TE);
    }
}

enum PipeError {
    /// The request body failed; the stream was reset with CANCEL.
    Body(BoxError),
    /// The stream or the connection failed; the response future says how.
    Stream,
}

/// Streams the request body into the h2 stream, honouring flow control.
async fn pipe_body(
    mut body: AttemptBody,
    mut stream: SendStream<Bytes>,
    progress: Progress,
) -> Result<(), PipeError> {
    loop {
        match body.frame().await {
            None => {
                stream
                    .send_data(Bytes::new(), true)
                    .map_err(|_| PipeError::Stream)?;
                progress.body_written();
                return Ok(());
            }
            Some(Err(e)) => {
                stream.send_reset(h2::Reason::CANCEL);
                return Err(PipeError::Body(e));
            }
            Some(Ok(frame)) => match frame.into_data() {
                Ok(data) => {
                    let end = body.is_end_stream();
                    send_data(&mut stream, data, end, &progress).await?;
                    if end {
                        progress.body_written();
                        return Ok(());
                    }
                }
                Err(frame) => {
                    if let Ok(trailers) = frame.into_trailers() {
                        stream
                            .send_trailers(trailers)
                            .map_err(|_| PipeError::Stream)?;
                        progress.body_written();
                        return Ok(());
                    }
                }
            },
        }
    }
}

async fn send_data(
    stream: &mut SendStream<Bytes>,
    mut data: Bytes,
    end: bool,
    progress: &Progress,
) -> Result<(), PipeError> {
    if data.is_empty() {
        if end {
            stream
                .send_data(data, true)
                .map_err(|_| PipeError::Stream)?;
        }
        return Ok(());
    }
    while !data.is_empty() {
        stream.reserve_capacity(data.len());
        let granted = match poll_fn(|cx| stream.poll_capacity(cx)).await {
            Some(Ok(n)) => n,
            Some(Err(_)) | None => return Err(PipeError::Stream),
        };
        if granted == 0 {
            continue;
        }
        let chunk = data.split_to(granted.min(data.len()));
        let len = chunk.len();
        stream
            .send_data(chunk, end && data.is_empty())
            .map_err(|_| PipeError::Stream)?;
        progress.wrote(len);
    }
    Ok(())
}

/// The response body: releases flow-control capacity, counts bytes read,
/// classifies errors (with the connection's GOAWAY state).
struct TrackedResponse {
    recv: RecvStream,
    progress: Progress,
    conn: H2Conn,
    data_done: bool,
}

impl Body for TrackedResponse {
    type Data = Bytes;
    type Error = EngineFailure;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, EngineFailure>>> {
        let this = self.get_mut();
        if !this.data_done {
            match ready!(this.recv.poll_data(cx)) {
                Some(Ok(data)) => {
                    let len = data.len();
                    // Only fails when the stream is already gone, which the
                    // next poll reports.
                    let _ = this.recv.flow_control().release_capacity(len);
                    this.progress.read(len);
                    return Poll::Ready(Some(Ok(Frame::data(data))));
                }
                Some(Err(e)) => return Poll::Ready(Some(Err(this.fail(e)))),
                None => this.data_done = true,
            }
        }
        match ready!(this.recv.poll_trailers(cx)) {
            Ok(Some(trailers)) => Poll::Ready(Some(Ok(Frame::trailers(trailers)))),
            Ok(None) => Poll::Ready(None),
            Err(e) => Poll::Ready(Some(Err(this.fail(e)))),
        }
    }

    fn is_end_stream(&self) -> bool {
        self.recv.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::default()
    }
}

impl TrackedResponse {
    fn fail(&self, e: h2::Error) -> EngineFailure {
        EngineFailure::new(classify(&e, self.conn.site()), e)
    }
}
