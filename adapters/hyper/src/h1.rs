//! HTTP/1.1 over `hyper::client::conn::http1`: one request at a time per
//! connection, every request byte counted.

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};

use bytes::Bytes;
use evident_core::{
    AttemptBody, AttemptStage, BoxError, EngineFailure, EngineSignal, Progress, ResponseBody,
};
use http::header::{CONTENT_LENGTH, HOST};
use http::{HeaderValue, Request, Response, StatusCode, Uri, Version};
use http_body::{Body, Frame, SizeHint};
use http_body_util::BodyExt;
use hyper::client::conn::http1;
use hyper_util::rt::TokioIo;

use crate::classify::{ErrorSite, RequestBodyError, classify};
use crate::io::{CountingIo, IdleProbe, ReadNow, Slot, Tracker, Transport};
use crate::pool::Pool;
use evident_core::engine::{CountedBody, Origin};

/// An HTTP/1.1 connection: hyper's sender, and the slot its counting stream
/// attributes bytes through.
#[derive(Debug)]
pub(crate) struct H1Conn {
    sender: http1::SendRequest<TrackedBody>,
    slot: Arc<Slot>,
    probe: IdleProbe,
}

impl H1Conn {
    /// Wraps `io` in a counting stream and starts hyper's connection task.
    /// No I/O happens here: HTTP/1.1 has no preface.
    pub(crate) async fn handshake(io: Transport) -> Result<H1Conn, hyper::Error> {
        let probe = IdleProbe::new(io.tcp());
        Self::handshake_over(io, probe).await
    }

    /// [`Self::handshake`] over any stream, with the probe of its socket.
    async fn handshake_over<T>(io: T, probe: IdleProbe) -> Result<H1Conn, hyper::Error>
    where
        T: tokio::io::AsyncRead + tokio::io::AsyncWrite + ReadNow + Unpin + Send + 'static,
    {
        let slot = Arc::new(Slot::default());
        let io = TokioIo::new(CountingIo::new(io, slot.clone()));
        let (sender, connection) = http1::Builder::new().handshake(io).await?;
        // The connection's own error reaches the request in flight, which is
        // where it is classified; the task's result adds nothing.
        tokio::spawn(async move {
            let _ = connection.await;
        });
        Ok(H1Conn {
            sender,
            slot,
            probe,
        })
    }

    /// Whether the connection can no longer serve a request: hyper's
    /// dispatcher closed, or (for an idle connection) the peer closed it or
    /// sent something unasked.
    pub(crate) fn is_closed(&self) -> bool {
        self.sender.is_closed() || self.probe.peer_went_away()
    }

    /// Whether hyper's dispatcher closed (no syscall: the socket is not
    /// looked at).
    pub(crate) fn dispatcher_closed(&self) -> bool {
        self.sender.is_closed()
    }

    /// Waits until hyper's dispatcher takes a new request: `Err` when the
    /// connection has closed. A live idle connection answers at once (its
    /// dispatcher already asked for the next request when the previous
    /// response ended).
    pub(crate) async fn ready(&mut self) -> Result<(), hyper::Error> {
        self.sender.ready().await
    }
}

/// Sends one request on `conn`. The connection goes back to `pool` when the
/// response body ends, provided the whole request was written.
pub(crate) async fn send(
    mut conn: H1Conn,
    request: Request<AttemptBody>,
    progress: &Progress,
    origin: Origin,
    pool: Arc<Pool>,
) -> Result<Response<ResponseBody>, EngineFailure> {
    let tracker = Arc::new(Tracker::new(progress.clone()));
    progress.counts_writes_exactly();
    conn.slot.set(Some(tracker.clone()));
    let request = prepare(request, tracker.clone())?;
    progress.enter(AttemptStage::WriteHead);
    match conn.sender.try_send_request(request).await {
        Ok(response) => {
            progress.head_received();
            // A connection that answered 421 is not configured for this
            // origin (RFC 9110 §15.5.20): no later request may reuse it.
            let reusable = response.status() != StatusCode::MISDIRECTED_REQUEST;
            let (parts, incoming) = response.into_parts();
            let release = Release {
                pool,
                origin,
                conn,
                tracker,
                reusable,
            };
            // The connection goes back to the pool when the body has ended
            // cleanly, never after an error.
            let body = CountedBody::new(incoming, progress.clone(), |e: &hyper::Error| {
                classify(e, ErrorSite::EXCHANGE)
            })
            .on_end(move || release.finish());
            Ok(Response::from_parts(parts, body.boxed_unsync()))
        }
        Err(mut e) => {
            // hyper hands the request back only when it never started to
            // write it (the connection closed first).
            let returned = e.take_message().is_some();
            let error = e.into_error();
            let signal = if returned {
                EngineSignal::CancelledUnsent
            } else {
                classify(&error, ErrorSite::EXCHANGE)
            };
            Err(EngineFailure::new(signal, error))
        }
    }
}

/// Origin-form target and a `Host` header, as HTTP/1.1 wants them
/// (`conn::http1` serializes the URI as given and adds no `Host`).
fn prepare(
    request: Request<AttemptBody>,
    tracker: Arc<Tracker>,
) -> Result<Request<TrackedBody>, EngineFailure> {
    let (mut parts, body) = request.into_parts();
    // The connection speaks HTTP/1.1 whatever version the caller's request
    // carries (hyper refuses to encode an HTTP/2 request on it).
    parts.version = Version::HTTP_11;
    if !parts.headers.contains_key(HOST)
        && let Some(host) = parts.uri.host()
    {
        let value = match parts.uri.port() {
            Some(port) => format!("{host}:{port}"),
            None => host.to_owned(),
        };
        let value =
            HeaderValue::try_from(value).map_err(|e| EngineFailure::new(EngineSignal::Other, e))?;
        parts.headers.insert(HOST, value);
    }
    let target = parts
        .uri
        .path_and_query()
        .map_or("/", |pq| pq.as_str())
        .to_owned();
    parts.uri = Uri::try_from(target).map_err(|e| EngineFailure::new(EngineSignal::Other, e))?;
    // hyper frames the body with the caller's Content-Length when there is
    // one, else with the body's exact size hint (else chunked): the body is
    // only complete when it yielded exactly that many bytes.
    let framed_length = parts
        .headers
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .or_else(|| body.size_hint().exact());
    Ok(Request::from_parts(
        parts,
        TrackedBody {
            inner: body,
            tracker,
            framed_length,
            yielded: 0,
            head_gate_open: false,
        },
    ))
}

/// The request body as hyper sees it: tells the [`Tracker`] when hyper
/// encodes the head (its first question to the body) and when the body
/// handed over its last frame.
pub(crate) struct TrackedBody {
    inner: AttemptBody,
    tracker: Arc<Tracker>,
    framed_length: Option<u64>,
    yielded: u64,
    /// Whether the head was flushed before the first body frame went out.
    head_gate_open: bool,
}

impl TrackedBody {
    fn finish(&self) {
        if self.framed_length.is_none_or(|n| n == self.yielded) {
            self.tracker.body_finished();
        }
    }
}

impl Body for TrackedBody {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = self.get_mut();
        this.tracker.head_encoded();
        if !this.head_gate_open {
            // On a stream that does not write vectored, hold the first frame
            // back until the head alone was flushed, so the head/body
            // boundary is exact (see `Tracker`).
            if !this.tracker.finds_head_boundary_in_writes()
                && !this.tracker.wake_when_head_flushed(cx.waker())
            {
                return Poll::Pending;
            }
            this.head_gate_open = true;
        }
        match ready!(Pin::new(&mut this.inner).poll_frame(cx)) {
            None => {
                this.finish();
                Poll::Ready(None)
            }
            Some(Ok(frame)) => {
                if let Some(data) = frame.data_ref() {
                    if this.yielded == 0 && !data.is_empty() {
                        this.tracker.body_starts_at(data.as_ptr());
                    }
                    this.yielded += data.len() as u64;
                }
                if frame.is_trailers() || this.inner.is_end_stream() {
                    this.finish();
                }
                Poll::Ready(Some(Ok(frame)))
            }
            Some(Err(e)) => Poll::Ready(Some(Err(Box::new(RequestBodyError::new(e))))),
        }
    }

    fn is_end_stream(&self) -> bool {
        // hyper asks this right before it encodes the request head.
        self.tracker.head_encoded();
        let end = self.inner.is_end_stream();
        if end {
            self.finish();
        }
        end
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// Returns the connection to the pool once the exchange is complete.
struct Release {
    pool: Arc<Pool>,
    origin: Origin,
    conn: H1Conn,
    tracker: Arc<Tracker>,
    /// False after a 421 Misdirected Request.
    reusable: bool,
}

impl Release {
    fn finish(self) {
        // A request still being written (the server answered early) would
        // leak its last bytes into the next request's count; a sealed
        // attempt's connection refuses writes and is abandoned.
        if self.tracker.fully_written() && !self.tracker.sealed() && self.reusable {
            self.conn.slot.set(None);
            self.pool.put_h1(self.origin, self.conn);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io;
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::task::Waker;
    use std::time::Duration;

    use evident_core::client::{Body, CallOptions, ClientBuilder};
    use evident_core::resilience::PipelineConfig;
    use evident_core::{AttemptStage, ExecutionEvidence, RetryPolicy, StopReason};
    use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, ReadBuf};
    use tokio::net::{TcpListener, TcpStream};

    use super::*;
    use crate::HyperEngine;
    use crate::socket::SharedTcp;

    /// A stream whose writes block until the gate opens, as a socket whose
    /// send buffer is full would: hyper's connection task sits in its first
    /// write while the attempt's timer runs.
    struct GatedIo {
        inner: SharedTcp,
        gate: Arc<Gate>,
    }

    #[derive(Default)]
    struct Gate {
        open: AtomicBool,
        waiting: Mutex<Option<Waker>>,
        writes_tried: AtomicUsize,
        bytes_passed: AtomicUsize,
    }

    impl Gate {
        fn release(&self) {
            self.open.store(true, Ordering::Release);
            if let Some(waker) = self.waiting.lock().unwrap().take() {
                waker.wake();
            }
        }
    }

    impl AsyncRead for GatedIo {
        fn poll_read(
            self: Pin<&mut Self>,
            cx: &mut Context<'_>,
            buf: &mut ReadBuf<'_>,
        ) -> Poll<io::Result<()>> {
            Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
        }
    }

    impl crate::io::ReadNow for GatedIo {
        fn read_now(&mut self, cx: &mut Context<'_>, out: &mut Vec<u8>, limit: usize) {
            crate::io::read_now_polling(&mut self.inner, cx, out, limit);
        }
    }

    impl AsyncWrite for GatedIo {
        fn poll_write(
            self: Pin<&mut Self>,
            cx: &mut Context<'_>,
            buf: &[u8],
        ) -> Poll<io::Result<usize>> {
            let this = self.get_mut();
            this.gate.writes_tried.fetch_add(1, Ordering::AcqRel);
            if !this.gate.open.load(Ordering::Acquire) {
                *this.gate.waiting.lock().unwrap() = Some(cx.waker().clone());
                if !this.gate.open.load(Ordering::Acquire) {
                    return Poll::Pending;
                }
            }
            let polled = Pin::new(&mut this.inner).poll_write(cx, buf);
            if let Poll::Ready(Ok(n)) = polled {
                this.gate.bytes_passed.fetch_add(n, Ordering::AcqRel);
            }
            polled
        }

        fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
            Pin::new(&mut self.get_mut().inner).poll_flush(cx)
        }

        fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
            Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
        }
    }

    /// Issue 9 item 1. Before the fix, the counting layer counted a write
    /// only once it returned: the core's timer snapshot showed exact
    /// counting with 0 bytes at `WriteHead`, the attempt became `NotSent`,
    /// and this POST with nothing declared was sent again.
    #[tokio::test(start_paused = true)]
    async fn a_write_blocked_when_the_attempt_timer_fires_is_sent_no_response_and_nothing_more_is_written()
     {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        // The server counts what reaches it until the client closes.
        let server = tokio::spawn(async move {
            let (mut conn, _) = listener.accept().await.unwrap();
            let mut received = Vec::new();
            let _ = conn.read_to_end(&mut received).await;
            received.len()
        });
        let tcp = SharedTcp::new(TcpStream::connect(addr).await.unwrap());
        let probe = IdleProbe::new(&tcp);
        let gate = Arc::new(Gate::default());
        let io = GatedIo {
            inner: tcp,
            gate: gate.clone(),
        };
        let conn = H1Conn::handshake_over(io, probe).await.unwrap();
        let url = format!("http://{addr}/pay");
        let engine = HyperEngine::builder().build().unwrap();
        let origin = Origin::from_uri(&url.parse().unwrap()).unwrap();
        engine.pool().put_h1(origin, conn);

        let client = ClientBuilder::new()
            .policy(
                RetryPolicy::builder()
                    .max_attempts(2)
                    .jitter(0.0)
                    .no_budget()
                    .build()
                    .unwrap(),
            )
            .attempt_timeout(Duration::from_secs(1))
            .pipeline(PipelineConfig::disabled())
            .build(engine)
            .unwrap();
        let request = http::Request::post(&url).body(Body::from("{}")).unwrap();
        let err = client
            .execute(request, CallOptions::new())
            .await
            .unwrap_err();

        assert!(
            gate.writes_tried.load(Ordering::Acquire) > 0,
            "hyper never tried to write: the test proves nothing"
        );
        let records = err.attempts();
        assert_eq!(records.len(), 1, "{records:?}");
        assert_eq!(records[0].stage, Some(AttemptStage::WriteHead));
        assert_eq!(records[0].evidence, Some(ExecutionEvidence::SentNoResponse));
        assert_eq!(
            records[0].decision.stop_reason(),
            Some(StopReason::NotIdempotent)
        );

        // The write is released after the seal: it is refused, hyper closes
        // the connection, and no byte of the abandoned request leaves.
        gate.release();
        assert_eq!(server.await.unwrap(), 0);
        assert_eq!(gate.bytes_passed.load(Ordering::Acquire), 0);
    }

    #[tokio::test]
    async fn a_sealed_attempts_connection_refuses_writes_and_flushes() {
        let progress = Progress::new();
        let tracker = Arc::new(Tracker::new(progress.clone()));
        let slot = Arc::new(Slot::default());
        slot.set(Some(tracker));
        let mut io = CountingIo::new(crate::io::tests::WriteOnly::default(), slot);
        use tokio::io::AsyncWriteExt;
        io.write_all(b"GET / HTTP/1.1\r\n").await.unwrap();
        progress.seal();
        let refused = io.write_all(b"host: a\r\n\r\n").await.unwrap_err();
        assert_eq!(refused.kind(), io::ErrorKind::BrokenPipe);
        assert!(io.flush().await.is_err());
        assert_eq!(progress.snapshot().bytes_written(), 16);
    }

    /// RFC 9112 §9.6: a server may answer before it read the whole request
    /// and reset. The peer here makes hyper's losing order certain: its
    /// answer is seen only once a write failed, so hyper meets the write
    /// error before it reads. The caller gets the 413, as the answer; before
    /// the fix the call failed as a reset while writing the body.
    #[tokio::test]
    async fn an_answer_that_arrives_while_the_body_is_written_is_the_calls_answer() {
        use crate::io::tests::AnswersThenResets;
        // A live socket only for the idle probe; the request goes to the peer.
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let _idle = tokio::spawn(async move { listener.accept().await });
        let tcp = SharedTcp::new(TcpStream::connect(addr).await.unwrap());
        let probe = IdleProbe::new(&tcp);
        let answer = b"HTTP/1.1 413 Payload Too Large\r\ncontent-length: 7\r\nconnection: close\r\n\r\ntoo big";
        let peer = AnswersThenResets::new(64 * 1024, answer);
        let conn = H1Conn::handshake_over(peer, probe).await.unwrap();
        let url = format!("http://{addr}/upload");
        let engine = HyperEngine::builder().build().unwrap();
        let origin = Origin::from_uri(&url.parse().unwrap()).unwrap();
        engine.pool().put_h1(origin, conn);
        let client = ClientBuilder::new()
            .policy(
                RetryPolicy::builder()
                    .max_attempts(2)
                    .no_budget()
                    .build()
                    .unwrap(),
            )
            .pipeline(PipelineConfig::disabled())
            .build(engine)
            .unwrap();
        let request = http::Request::post(&url)
            .body(Body::from(vec![0u8; 1024 * 1024]))
            .unwrap();
        let response = client.execute(request, CallOptions::new()).await.unwrap();
        assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
        assert_eq!(&response.body()[..], b"too big");
        let records = evident_core::client::attempts_of(&response);
        assert_eq!(records.len(), 1, "{records:?}");
        assert_eq!(records[0].status, Some(413));
        assert_eq!(records[0].evidence, Some(ExecutionEvidence::Responded));
        assert_eq!(
            records[0].decision.stop_reason(),
            Some(StopReason::StatusNotRetryable)
        );
    }

    /// Issue 19 item 4: an early 413 is the caller's problem, not the
    /// upstream's. Answered (not lost to the failed write), it is a status
    /// the breaker does not count, so three in a row through a breaker that
    /// opens on a single failure never open it. Before the early-answer fix
    /// the first call already failed as a reset while writing the body: a
    /// failure, which opens this breaker for the next call.
    #[tokio::test]
    async fn early_413s_never_open_the_circuit() {
        use crate::io::tests::AnswersThenResets;
        use evident_core::resilience::CircuitBreakerConfig;
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let _idle = tokio::spawn(async move {
            let mut held = Vec::new();
            while let Ok((tcp, _)) = listener.accept().await {
                held.push(tcp);
            }
        });
        let url = format!("http://{addr}/upload");
        let engine = HyperEngine::builder().build().unwrap();
        let origin = Origin::from_uri(&url.parse().unwrap()).unwrap();
        let answer =
            b"HTTP/1.1 413 Payload Too Large\r\ncontent-length: 0\r\nconnection: close\r\n\r\n";
        // The probes watch these sockets; they stay open for the test.
        let mut probed = Vec::new();
        for _ in 0..3 {
            let tcp = SharedTcp::new(TcpStream::connect(addr).await.unwrap());
            let probe = IdleProbe::new(&tcp);
            probed.push(tcp);
            let peer = AnswersThenResets::new(64 * 1024, answer);
            let conn = H1Conn::handshake_over(peer, probe).await.unwrap();
            engine.pool().put_h1(origin.clone(), conn);
        }
        let breaker = CircuitBreakerConfig::builder()
            .sliding_window_size(1)
            .minimum_number_of_calls(1)
            .build()
            .unwrap();
        let client = ClientBuilder::new()
            .policy(
                RetryPolicy::builder()
                    .max_attempts(1)
                    .no_budget()
                    .build()
                    .unwrap(),
            )
            .pipeline(PipelineConfig::disabled().circuit_breaker(Some(breaker)))
            .build(engine)
            .unwrap();
        for call in 0..3 {
            let request = http::Request::post(&url)
                .body(Body::from(vec![0u8; 1024 * 1024]))
                .unwrap();
            let response = client
                .execute(request, CallOptions::new())
                .await
                .unwrap_or_else(|e| panic!("call {call}: {e}"));
            assert_eq!(
                response.status(),
                StatusCode::PAYLOAD_TOO_LARGE,
                "call {call}"
            );
        }
    }
}
