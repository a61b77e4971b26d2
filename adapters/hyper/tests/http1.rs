//! HTTP/1.1 over plain TCP: progress facts, pooling, and failures.

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use evident_core::{
    AttemptBody, AttemptStage, Engine, EngineSignal, ExecutionEvidence, FailureCategory, classify,
};
use evident_hyper::HyperEngine;
use support::*;

#[tokio::test]
async fn a_completed_request_reports_every_progress_fact_exactly() {
    let (listener, addr) = listen().await;
    let server = tokio::spawn(async move {
        let (tcp, _) = listener.accept().await.unwrap();
        let mut conn = RequestReader::new(tcp);
        let request = conn.next_request().await.unwrap();
        conn.respond(OK_HELLO).await;
        request
    });
    let engine = HyperEngine::builder().build().unwrap();
    let attempt = attempt();
    let (status, body) = fetch(
        &engine,
        post(&format!("http://{addr}/pay?x=1"), "hello"),
        &attempt,
    )
    .await
    .unwrap();
    assert_eq!((status.as_u16(), &body[..]), (200, &b"hello"[..]));

    let request = server.await.unwrap();
    let text = String::from_utf8_lossy(&request);
    assert!(text.starts_with("POST /pay?x=1 HTTP/1.1\r\n"), "{text}");
    assert!(
        text.to_ascii_lowercase()
            .contains(&format!("host: {addr}\r\n")),
        "{text}"
    );

    let seen = attempt.progress().snapshot();
    assert!(seen.writes_counted_exactly());
    assert_eq!(
        seen.bytes_written(),
        request.len() as u64,
        "every byte the server got, no more"
    );
    assert_eq!(seen.bytes_read(), 5);
    assert_eq!(seen.connection_reused(), Some(false));
    assert!(seen.head_written() && seen.body_written() && seen.head_received());
    assert_eq!(seen.stage(), Some(AttemptStage::ReadBody));
    assert_eq!(seen.stream_id(), None);
}

#[tokio::test]
async fn a_pooled_connection_is_reused_for_the_next_request() {
    let (listener, addr) = listen().await;
    let accepted = Arc::new(AtomicUsize::new(0));
    let count = accepted.clone();
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            count.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(async move {
                let mut conn = RequestReader::new(tcp);
                while conn.next_request().await.is_some() {
                    conn.respond(OK_HELLO).await;
                }
            });
        }
    });
    let engine = HyperEngine::builder().build().unwrap();
    let url = format!("http://{addr}/");

    let first = attempt();
    fetch(&engine, get(&url), &first).await.unwrap();
    let second = attempt();
    fetch(&engine, get(&url), &second).await.unwrap();

    assert_eq!(first.progress().snapshot().connection_reused(), Some(false));
    let seen = second.progress().snapshot();
    assert_eq!(seen.connection_reused(), Some(true));
    assert!(seen.writes_counted_exactly());
    assert!(seen.bytes_written() > 0 && seen.head_received());
    assert_eq!(accepted.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_refused_connection_reports_connection_refused_at_connect() {
    let addr = refusing_addr().await;
    let engine = HyperEngine::builder().build().unwrap();
    let attempt = attempt();
    let failure = engine_send(&engine, &format!("http://{addr}/"), &attempt).await;
    assert_eq!(failure.signal(), EngineSignal::ConnectionRefused);
    let seen = attempt.progress().snapshot();
    assert_eq!(seen.stage(), Some(AttemptStage::Connect));
    assert_eq!(seen.bytes_written(), 0);
    let verdict = classify(failure.signal(), &seen);
    assert_eq!(verdict.evidence(), ExecutionEvidence::NotSent);
    assert_eq!(verdict.category(), FailureCategory::ConnectionRefused);
}

#[tokio::test]
async fn a_server_closing_after_reading_the_request_is_connection_closed_with_the_request_written()
{
    let (listener, addr) = listen().await;
    let server = tokio::spawn(async move {
        let (tcp, _) = listener.accept().await.unwrap();
        let mut conn = RequestReader::new(tcp);
        let request = conn.next_request().await.unwrap();
        drop(conn);
        request
    });
    let engine = HyperEngine::builder().build().unwrap();
    let attempt = attempt();
    let failure = engine
        .send(post(&format!("http://{addr}/"), "hello"), &attempt)
        .await
        .unwrap_err();
    let request = server.await.unwrap();
    assert_eq!(
        failure.signal(),
        EngineSignal::ConnectionClosed,
        "{failure}"
    );
    let seen = attempt.progress().snapshot();
    assert!(seen.head_written() && seen.body_written() && !seen.head_received());
    assert_eq!(seen.bytes_written(), request.len() as u64);
    let verdict = classify(failure.signal(), &seen);
    assert_eq!(verdict.evidence(), ExecutionEvidence::SentNoResponse);
    assert_eq!(verdict.stage(), AttemptStage::AwaitHead);
    assert_eq!(verdict.category(), FailureCategory::ConnectionClosed);
}

#[tokio::test]
async fn a_pooled_connection_closed_by_the_server_never_yields_an_ambiguous_failure() {
    let (listener, addr) = listen().await;
    let server = tokio::spawn(async move {
        // First connection: one response, then close (keep-alive promised).
        let (tcp, _) = listener.accept().await.unwrap();
        let mut conn = RequestReader::new(tcp);
        conn.next_request().await.unwrap();
        conn.respond(OK_HELLO).await;
        drop(conn);
        listener
    });
    let engine = HyperEngine::builder().build().unwrap();
    let url = format!("http://{addr}/");
    fetch(&engine, get(&url), &attempt()).await.unwrap();
    let listener = server.await.unwrap();
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let mut conn = RequestReader::new(tcp);
            if conn.next_request().await.is_some() {
                conn.respond(OK_HELLO).await;
            }
        }
    });

    let attempt = attempt();
    match engine.send(get(&url), &attempt).await {
        // The health check at checkout discarded the dead connection.
        Ok(_) => assert_eq!(
            attempt.progress().snapshot().connection_reused(),
            Some(false)
        ),
        // Or the dead connection was caught before a byte was written.
        Err(failure) => {
            let seen = attempt.progress().snapshot();
            assert_eq!(seen.connection_reused(), Some(true));
            assert!(seen.proves_nothing_written(), "{seen:?}");
            let verdict = classify(failure.signal(), &seen);
            assert_eq!(verdict.evidence(), ExecutionEvidence::NotSent);
        }
    }
}

#[tokio::test]
async fn a_failing_request_body_reports_request_body() {
    let (listener, addr) = listen().await;
    tokio::spawn(async move {
        let (tcp, _) = listener.accept().await.unwrap();
        let mut conn = RequestReader::new(tcp);
        let _ = conn.next_request().await;
    });
    let engine = HyperEngine::builder().build().unwrap();
    let attempt = attempt();
    let body = http_body_util::BodyExt::boxed_unsync(FailingBody { sent: false });
    let request = http::Request::post(format!("http://{addr}/"))
        .body(AttemptBody::Stream(body))
        .unwrap();
    let failure = engine.send(request, &attempt).await.unwrap_err();
    assert_eq!(failure.signal(), EngineSignal::RequestBody, "{failure}");
    let seen = attempt.progress().snapshot();
    assert!(!seen.body_written());
    assert_eq!(
        classify(failure.signal(), &seen).category(),
        FailureCategory::RequestBody
    );
}

async fn engine_send(
    engine: &HyperEngine,
    url: &str,
    attempt: &evident_core::AttemptContext,
) -> evident_core::EngineFailure {
    engine.send(get(url), attempt).await.unwrap_err()
}

/// One chunk, then an error.
struct FailingBody {
    sent: bool,
}

impl http_body::Body for FailingBody {
    type Data = bytes::Bytes;
    type Error = evident_core::BoxError;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        _cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<bytes::Bytes>, Self::Error>>> {
        if self.sent {
            std::task::Poll::Ready(Some(Err("the body's source failed".into())))
        } else {
            self.sent = true;
            std::task::Poll::Ready(Some(Ok(http_body::Frame::data(bytes::Bytes::from_static(
                b"part",
            )))))
        }
    }
}

/// Reads one request head (and its `content-length` body) from a blocking
/// stream.
fn read_request_blocking(stream: &mut std::net::TcpStream) {
    use std::io::Read;
    let mut seen = Vec::new();
    let mut byte = [0u8; 1];
    while !seen.ends_with(b"\r\n\r\n") {
        assert_eq!(stream.read(&mut byte).unwrap(), 1, "request head cut short");
        seen.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&seen).to_ascii_lowercase();
    let length = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .map_or(0, |v| v.trim().parse::<usize>().unwrap());
    let mut body = vec![0u8; length];
    stream.read_exact(&mut body).unwrap();
}

/// The race this closes: the server's FIN is already in the client's socket,
/// but hyper's connection task has not run since (a single-threaded runtime
/// that did not yield). A checkout that only asks hyper would hand out the
/// dead connection and the POST would be written into it, ending ambiguous.
#[tokio::test(flavor = "current_thread")]
async fn an_idle_connection_the_server_closed_is_never_used_even_before_hyper_notices() {
    use std::io::Write;
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let (close_tx, close_rx) = std::sync::mpsc::channel::<()>();
    let (closed_tx, closed_rx) = std::sync::mpsc::channel::<()>();
    let server = std::thread::spawn(move || {
        let (mut first, _) = listener.accept().unwrap();
        read_request_blocking(&mut first);
        first.write_all(OK_HELLO).unwrap();
        close_rx.recv().unwrap();
        drop(first);
        closed_tx.send(()).unwrap();
        let (mut second, _) = listener.accept().unwrap();
        read_request_blocking(&mut second);
        second.write_all(OK_HELLO).unwrap();
    });
    let engine = HyperEngine::builder().build().unwrap();
    let url = format!("http://{addr}/");
    fetch(&engine, get(&url), &attempt()).await.unwrap();

    close_tx.send(()).unwrap();
    // Block (not await) until the server closed: hyper's connection task
    // gets no chance to read the FIN before the next checkout.
    closed_rx.recv().unwrap();
    let second = attempt();
    let (status, _) = fetch(&engine, post(&url, "pay"), &second).await.unwrap();
    assert_eq!(status.as_u16(), 200);
    assert_eq!(
        second.progress().snapshot().connection_reused(),
        Some(false)
    );
    server.join().unwrap();
}

/// The head/body boundary is exact even when head and body leave in the
/// same write: a server that reads only the head and then resets fails the
/// attempt at `write_body`, with the head (and any idempotency key in it)
/// written and the body not.
#[tokio::test]
async fn a_reset_while_the_body_is_on_its_way_fails_at_write_body_with_the_head_written() {
    // Far more than loopback socket buffers hold, so the body is still on
    // its way when the reset arrives.
    const BODY: usize = 32 * 1024 * 1024;
    let (listener, addr) = listen().await;
    let server = tokio::spawn(async move {
        let (mut tcp, _) = listener.accept().await.unwrap();
        let mut seen = Vec::new();
        let mut chunk = [0u8; 4096];
        while !seen.windows(4).any(|w| w == b"\r\n\r\n") {
            let n = tokio::io::AsyncReadExt::read(&mut tcp, &mut chunk)
                .await
                .unwrap();
            assert!(n > 0, "the head arrives before any close");
            seen.extend_from_slice(&chunk[..n]);
        }
        // Linger zero: closing resets the connection.
        socket2::SockRef::from(&tcp)
            .set_linger(Some(std::time::Duration::ZERO))
            .unwrap();
    });
    let engine = HyperEngine::builder().build().unwrap();
    let attempt = attempt();
    let request = http::Request::post(format!("http://{addr}/upload"))
        .header("idempotency-key", "k-1")
        .body(AttemptBody::Full(Some(bytes::Bytes::from(vec![
            b'x';
            BODY
        ]))))
        .unwrap();
    let failure = engine.send(request, &attempt).await.unwrap_err();
    server.await.unwrap();
    let seen = attempt.progress().snapshot();
    assert!(seen.head_written(), "{failure}");
    assert!(!seen.body_written() && !seen.head_received());
    assert!(seen.bytes_written() < BODY as u64);
    let verdict = classify(failure.signal(), &seen);
    assert_eq!(verdict.stage(), AttemptStage::WriteBody);
    assert_eq!(verdict.evidence(), ExecutionEvidence::SentNoResponse);
}

/// Issue 9 item 8: RFC 9110 §15.5.20 lets a 421 be retried only on another
/// connection. The retry asks for a fresh one, and the connection that
/// answered 421 is never reused.
#[tokio::test]
async fn a_421_is_retried_on_a_new_connection_and_its_connection_is_not_reused() {
    const MISDIRECTED: &[u8] = b"HTTP/1.1 421 Misdirected Request\r\ncontent-length: 0\r\n\r\n";
    let (listener, addr) = listen().await;
    let accepted = Arc::new(AtomicUsize::new(0));
    let count = accepted.clone();
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            // Only the first connection is misdirected; it stays open.
            let misdirected = count.fetch_add(1, Ordering::SeqCst) == 0;
            tokio::spawn(async move {
                let mut conn = RequestReader::new(tcp);
                while conn.next_request().await.is_some() {
                    conn.respond(if misdirected { MISDIRECTED } else { OK_HELLO })
                        .await;
                }
            });
        }
    });
    let client = evident_core::client::ClientBuilder::new()
        .pipeline(evident_core::resilience::PipelineConfig::disabled())
        .build(HyperEngine::builder().build().unwrap())
        .unwrap();
    let url = format!("http://{addr}/pay");
    let post = || {
        http::Request::post(&url)
            .body(evident_core::client::Body::from("{}"))
            .unwrap()
    };
    // A POST with nothing declared: the 421 itself proves non-processing.
    let options = evident_core::client::CallOptions::new;
    let response = client.execute(post(), options()).await.unwrap();
    assert_eq!(response.body().as_ref(), b"hello");
    let reasons: Vec<_> = evident_core::client::attempts_of(&response)
        .iter()
        .map(|r| r.decision.reason_str())
        .collect();
    assert_eq!(reasons, ["misdirected_request", "succeeded"]);
    assert_eq!(accepted.load(Ordering::SeqCst), 2);

    // The next call reuses the good connection, never the misdirected one.
    let response = client.execute(post(), options()).await.unwrap();
    assert_eq!(evident_core::client::attempts_of(&response).len(), 1);
    assert_eq!(accepted.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn a_connection_that_answered_421_is_not_reused_by_the_next_request() {
    const MISDIRECTED: &[u8] = b"HTTP/1.1 421 Misdirected Request\r\ncontent-length: 0\r\n\r\n";
    let (listener, addr) = listen().await;
    let accepted = Arc::new(AtomicUsize::new(0));
    let count = accepted.clone();
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let misdirected = count.fetch_add(1, Ordering::SeqCst) == 0;
            tokio::spawn(async move {
                let mut conn = RequestReader::new(tcp);
                while conn.next_request().await.is_some() {
                    conn.respond(if misdirected { MISDIRECTED } else { OK_HELLO })
                        .await;
                }
            });
        }
    });
    let engine = HyperEngine::builder().build().unwrap();
    let url = format!("http://{addr}/");
    let first = attempt();
    let response = engine.send(get(&url), &first).await.unwrap();
    assert_eq!(response.status(), 421);
    collect(response.into_body()).await.unwrap();
    let second = attempt();
    fetch(&engine, get(&url), &second).await.unwrap();
    assert_eq!(
        second.progress().snapshot().connection_reused(),
        Some(false)
    );
    assert_eq!(accepted.load(Ordering::SeqCst), 2);
}

/// A server that answers before it read the whole request (RFC 9112 §9.6),
/// declares 100 body bytes, sends 10 and resets. hyper reads the head and
/// the 10 bytes before its next write of the request meets the reset; the
/// body's failure is that reset, not a bare "connection error" (`other`).
#[tokio::test]
async fn an_early_answer_cut_by_a_reset_fails_its_body_with_the_reset() {
    let (listener, addr) = listen().await;
    tokio::spawn(async move {
        let (mut tcp, _) = listener.accept().await.unwrap();
        tcp.set_nodelay(true).unwrap();
        let mut seen = vec![0; 64 * 1024];
        tokio::io::AsyncReadExt::read_exact(&mut tcp, &mut seen)
            .await
            .unwrap();
        tokio::io::AsyncWriteExt::write_all(
            &mut tcp,
            b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\nConnection: close\r\n\r\n0123456789",
        )
        .await
        .unwrap();
        tcp.set_zero_linger().unwrap();
    });
    let body = bytes::Bytes::from(vec![b'x'; 4 << 20]);
    let request = http::Request::post(format!("http://{addr}/"))
        .body(AttemptBody::Full(Some(body)))
        .unwrap();
    let attempt = attempt();
    let response = HyperEngine::builder()
        .build()
        .unwrap()
        .send(request, &attempt)
        .await
        .expect("the early answer");
    let failure = collect(response.into_body()).await.unwrap_err();
    assert_eq!(failure.signal(), EngineSignal::ConnectionReset);
}
