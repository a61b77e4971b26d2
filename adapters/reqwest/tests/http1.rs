//! HTTP/1.1 on loopback servers: the stage each failure point reports, the
//! body wrapper's boundaries on a real connection, resolver overrides and
//! IPv6.

mod support;

use std::time::Duration;

use bytes::Bytes;
use evident_core::{
    AttemptBody, AttemptStage as S, EngineSignal, ExecutionEvidence as E, FailureCategory as C,
    HostOverrides,
};
use support::*;
use tokio::io::AsyncReadExt;

fn engine(overrides: HostOverrides) -> ReqwestEngine {
    ReqwestEngine::builder()
        .host_overrides(overrides)
        .build()
        .unwrap()
}

fn on(host: &str, ips: &[&str]) -> HostOverrides {
    HostOverrides::new().map(host, ips.iter().map(|ip| ip.parse().unwrap()).collect())
}

#[tokio::test]
async fn a_completed_request_reports_the_request_handed_over_and_the_response_read() {
    let (listener, addr) = listen().await;
    let server = tokio::spawn(async move {
        let (tcp, _) = listener.accept().await.unwrap();
        let mut reader = RequestReader::new(tcp);
        let request = reader.next_request().await.unwrap();
        reader.respond(OK_HELLO).await;
        request
    });
    let engine = engine(on("svc.test", &["127.0.0.1"]));
    let attempt = attempt();
    let url = format!("http://svc.test:{}/orders", addr.port());
    let (status, body) = fetch(&engine, post(&url, "{\"amount\":1}"), &attempt)
        .await
        .unwrap();
    assert_eq!((status.as_u16(), &body[..]), (200, &b"hello"[..]));
    let seen = attempt.progress().snapshot();
    assert_eq!(seen.stage(), Some(S::ReadBody));
    assert!(seen.head_written() && seen.body_written() && seen.head_received());
    assert_eq!(seen.bytes_written(), 12, "body bytes handed to hyper");
    assert_eq!(seen.bytes_read(), 5);
    assert!(
        !seen.writes_counted_exactly(),
        "reqwest cannot count bytes on the socket"
    );
    let request = String::from_utf8(server.await.unwrap()).unwrap();
    assert!(
        request.starts_with("POST /orders HTTP/1.1\r\n"),
        "{request}"
    );
    assert!(request.contains(&format!("host: svc.test:{}", addr.port())));
}

#[tokio::test]
async fn a_name_that_does_not_exist_fails_at_resolve_and_proves_not_sent() {
    let engine = engine(HostOverrides::new().not_found("gone.test"));
    let attempt = attempt();
    let failure = fetch(&engine, post("http://gone.test/", "x"), &attempt)
        .await
        .unwrap_err();
    assert_eq!(failure.signal(), EngineSignal::NameNotFound);
    assert_eq!(
        judged(&failure, &attempt),
        (S::Resolve, C::NameNotFound, E::NotSent)
    );
    assert_eq!(attempt.progress().snapshot().stage(), Some(S::Resolve));
}

#[tokio::test]
async fn a_refused_connection_fails_at_connect_after_the_resolver_answered() {
    let addr = refusing_addr().await;
    let engine = engine(on("svc.test", &["127.0.0.1"]));
    let attempt = attempt();
    let url = format!("http://svc.test:{}/", addr.port());
    let failure = fetch(&engine, post(&url, "x"), &attempt).await.unwrap_err();
    assert_eq!(failure.signal(), EngineSignal::ConnectionRefused);
    assert_eq!(attempt.progress().snapshot().stage(), Some(S::Connect));
    assert_eq!(
        judged(&failure, &attempt),
        (S::Connect, C::ConnectionRefused, E::NotSent)
    );
}

#[tokio::test]
async fn an_ip_literal_is_never_resolved_and_starts_at_connect() {
    let addr = refusing_addr().await;
    let engine = engine(HostOverrides::new());
    let attempt = attempt();
    let failure = fetch(&engine, get(&format!("http://{addr}/")), &attempt)
        .await
        .unwrap_err();
    assert_eq!(failure.signal(), EngineSignal::ConnectionRefused);
    assert_eq!(attempt.progress().snapshot().stage(), Some(S::Connect));
}

#[tokio::test]
async fn overrides_are_tried_in_order_until_an_address_answers() {
    let (listener, addr) = listen().await;
    // Nothing listens on 127.0.0.2 at that port.
    tokio::spawn(async move {
        let (tcp, _) = listener.accept().await.unwrap();
        let mut reader = RequestReader::new(tcp);
        reader.next_request().await.unwrap();
        reader.respond(OK_HELLO).await;
    });
    let engine = engine(on("svc.test", &["127.0.0.2", "127.0.0.1"]));
    let attempt = attempt();
    let url = format!("http://svc.test:{}/", addr.port());
    let (status, _) = fetch(&engine, get(&url), &attempt).await.unwrap();
    assert_eq!(status, 200);
}

#[tokio::test]
async fn a_server_closing_after_reading_the_request_is_ambiguous_with_the_request_handed_over() {
    let (listener, addr) = listen().await;
    tokio::spawn(async move {
        let (tcp, _) = listener.accept().await.unwrap();
        let mut reader = RequestReader::new(tcp);
        reader.next_request().await.unwrap();
        // Close without answering.
    });
    let engine = engine(HostOverrides::new());
    let attempt = attempt();
    let failure = fetch(&engine, post(&format!("http://{addr}/"), "x"), &attempt)
        .await
        .unwrap_err();
    assert_eq!(failure.signal(), EngineSignal::ConnectionClosed);
    assert_eq!(
        judged(&failure, &attempt),
        (S::AwaitHead, C::ConnectionClosed, E::SentNoResponse)
    );
}

#[tokio::test]
async fn a_reset_during_a_large_upload_is_seen_while_the_body_is_still_being_handed_over() {
    const BODY: usize = 8 * 1024 * 1024;
    let (listener, addr) = listen().await;
    tokio::spawn(async move {
        let (mut tcp, _) = listener.accept().await.unwrap();
        let mut seen = vec![0u8; 64 * 1024];
        tcp.read_exact(&mut seen).await.unwrap();
        reset(tcp);
    });
    let engine = engine(HostOverrides::new());
    let attempt = attempt();
    let request = http::Request::post(format!("http://{addr}/upload"))
        .body(AttemptBody::Full(Some(Bytes::from(vec![0u8; BODY]))))
        .unwrap();
    let failure = fetch(&engine, request, &attempt).await.unwrap_err();
    assert_eq!(failure.signal(), EngineSignal::ConnectionReset);
    let seen = attempt.progress().snapshot();
    assert!(seen.head_written() && !seen.body_written());
    assert!(seen.bytes_written() < BODY as u64);
    assert_eq!(
        judged(&failure, &attempt),
        (S::WriteBody, C::ConnectionReset, E::SentNoResponse)
    );
}

#[tokio::test]
async fn a_truncated_response_body_fails_at_read_body_after_the_response() {
    let (listener, addr) = listen().await;
    tokio::spawn(async move {
        let (tcp, _) = listener.accept().await.unwrap();
        let mut reader = RequestReader::new(tcp);
        reader.next_request().await.unwrap();
        reader
            .respond(b"HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nhel")
            .await;
    });
    let engine = engine(HostOverrides::new());
    let attempt = attempt();
    let failure = fetch(&engine, get(&format!("http://{addr}/")), &attempt)
        .await
        .unwrap_err();
    assert_eq!(failure.signal(), EngineSignal::ConnectionClosed);
    assert_eq!(attempt.progress().snapshot().bytes_read(), 3);
    assert_eq!(
        judged(&failure, &attempt),
        (S::ReadBody, C::ConnectionClosed, E::Responded)
    );
}

#[tokio::test]
async fn a_malformed_response_is_a_protocol_violation_after_the_request() {
    let (listener, addr) = listen().await;
    tokio::spawn(async move {
        let (tcp, _) = listener.accept().await.unwrap();
        let mut reader = RequestReader::new(tcp);
        reader.next_request().await.unwrap();
        reader.respond(b"NOT HTTP AT ALL\r\n\r\n").await;
    });
    let engine = engine(HostOverrides::new());
    let attempt = attempt();
    let failure = fetch(&engine, get(&format!("http://{addr}/")), &attempt)
        .await
        .unwrap_err();
    assert_eq!(failure.signal(), EngineSignal::Protocol);
    // Bodyless: nothing shows, late, that hyper wrote the head (the matrix
    // names this gap), so the write is only known to have started.
    assert_eq!(
        judged(&failure, &attempt),
        (S::WriteHead, C::Protocol, E::SentNoResponse)
    );
}

/// A body that yields one frame, then fails.
struct FailingBody(u8);

impl http_body::Body for FailingBody {
    type Data = Bytes;
    type Error = evident_core::BoxError;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<Bytes>, Self::Error>>> {
        self.0 += 1;
        std::task::Poll::Ready(Some(if self.0 == 1 {
            Ok(http_body::Frame::data(Bytes::from_static(b"first")))
        } else {
            Err("the disk went away".into())
        }))
    }
}

#[tokio::test]
async fn a_failing_request_body_is_the_bodys_fault_not_the_connections() {
    use http_body_util::BodyExt;
    let (listener, addr) = listen().await;
    tokio::spawn(async move {
        let (mut tcp, _) = listener.accept().await.unwrap();
        let mut sink = Vec::new();
        let _ = tcp.read_to_end(&mut sink).await;
    });
    let engine = engine(HostOverrides::new());
    let attempt = attempt();
    let request = http::Request::post(format!("http://{addr}/"))
        .body(AttemptBody::Stream(FailingBody(0).boxed_unsync()))
        .unwrap();
    let failure = fetch(&engine, request, &attempt).await.unwrap_err();
    assert_eq!(failure.signal(), EngineSignal::RequestBody);
    assert_eq!(
        judged(&failure, &attempt),
        (S::WriteBody, C::RequestBody, E::SentNoResponse)
    );
}

#[tokio::test]
async fn ipv6_loopback_works_by_literal_and_by_override() {
    let (listener, addr) = listen_on("[::1]:0").await;
    tokio::spawn(async move {
        for _ in 0..2 {
            let (tcp, _) = listener.accept().await.unwrap();
            tokio::spawn(async move {
                let mut reader = RequestReader::new(tcp);
                while reader.next_request().await.is_some() {
                    reader.respond(OK_HELLO).await;
                }
            });
        }
    });
    // Two engines: one connection each, so both paths really connect.
    let literal = format!("http://[::1]:{}/", addr.port());
    let (status, _) = fetch(&engine(HostOverrides::new()), get(&literal), &attempt())
        .await
        .unwrap();
    assert_eq!(status, 200);
    let named = format!("http://v6.test:{}/", addr.port());
    let (status, _) = fetch(&engine(on("v6.test", &["::1"])), get(&named), &attempt())
        .await
        .unwrap();
    assert_eq!(status, 200);
}

#[tokio::test]
async fn an_unanswered_request_waits_at_await_head_until_the_core_gives_up() {
    // A server that never answers: the engine waits as long as the core
    // lets it (here: the test's own bound), it never gives up by itself.
    let (listener, addr) = listen().await;
    tokio::spawn(async move {
        let (tcp, _) = listener.accept().await.unwrap();
        let mut reader = RequestReader::new(tcp);
        reader.next_request().await.unwrap();
        std::future::pending::<()>().await;
    });
    let engine = engine(HostOverrides::new());
    let attempt = attempt();
    // With a body, whose pulls show that hyper took the whole request.
    let send = fetch(&engine, post(&format!("http://{addr}/"), "x"), &attempt);
    assert!(
        tokio::time::timeout(Duration::from_millis(300), send)
            .await
            .is_err()
    );
    assert_eq!(attempt.progress().snapshot().stage(), Some(S::AwaitHead));
}

#[tokio::test]
async fn an_attempt_that_requires_a_fresh_connection_never_reuses_the_pooled_one() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let (listener, addr) = listen().await;
    let accepted = Arc::new(AtomicUsize::new(0));
    let count = accepted.clone();
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            count.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(async move {
                let mut reader = RequestReader::new(tcp);
                while reader.next_request().await.is_some() {
                    reader.respond(OK_HELLO).await;
                }
            });
        }
    });
    let engine = engine(HostOverrides::new());
    let url = format!("http://{addr}/");
    fetch(&engine, get(&url), &attempt()).await.unwrap();
    fetch(&engine, get(&url), &attempt()).await.unwrap();
    assert_eq!(accepted.load(Ordering::SeqCst), 1, "the pool is used");
    let fresh = evident_core::testing::fresh_connection_attempt_context(
        evident_core::Progress::new(),
        None,
    );
    fetch(&engine, post(&url, "again"), &fresh).await.unwrap();
    assert_eq!(accepted.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn a_sealed_attempt_puts_no_byte_of_its_request_on_the_wire() {
    let (listener, addr) = listen().await;
    let server = tokio::spawn(async move {
        let (mut tcp, _) = listener.accept().await.unwrap();
        let mut received = Vec::new();
        let _ = tcp.read_to_end(&mut received).await;
        received
    });
    let engine = engine(HostOverrides::new());
    let attempt = attempt();
    // The core gave up on the attempt before hyper asked the body anything
    // (in real use: while the connection was being set up).
    attempt.progress().seal();
    let failure = fetch(&engine, post(&format!("http://{addr}/"), "pay"), &attempt)
        .await
        .unwrap_err();
    assert!(!attempt.progress().snapshot().write_started(), "{failure}");
    drop(engine);
    let received = tokio::time::timeout(Duration::from_secs(10), server)
        .await
        .expect("the connection is torn down")
        .unwrap();
    assert!(
        received.is_empty(),
        "{:?}",
        String::from_utf8_lossy(&received)
    );
}
