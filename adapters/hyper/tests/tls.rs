//! HTTPS: HTTP/1.1 and HTTP/2 chosen by ALPN, and TLS failures.

mod support;

use evident_core::{
    AttemptStage, Engine, EngineSignal, ExecutionEvidence, FailureCategory, classify,
};
use evident_hyper::HyperEngine;
use support::*;

fn trusting_engine() -> HyperEngine {
    HyperEngine::builder()
        .root_certificates(vec![Pki::get().trusted_ca_der.clone()])
        .build()
        .unwrap()
}

#[tokio::test]
async fn a_200_over_https_with_http1_by_alpn_counts_plaintext_bytes() {
    let (listener, addr) = listen().await;
    let acceptor = Pki::get().acceptor(true, &[b"http/1.1"]);
    let server = tokio::spawn(async move {
        let tls = accept_tls(&listener, &acceptor).await;
        let mut conn = RequestReader::new(tls);
        let request = conn.next_request().await.unwrap();
        conn.respond(OK_HELLO).await;
        request
    });
    let attempt = attempt();
    let url = format!("https://localhost:{}/", addr.port());
    let (status, body) = fetch(&trusting_engine(), post(&url, "hello"), &attempt)
        .await
        .unwrap();
    assert_eq!((status.as_u16(), &body[..]), (200, &b"hello"[..]));
    let request = server.await.unwrap();

    let seen = attempt.progress().snapshot();
    assert!(seen.writes_counted_exactly());
    // Counted above TLS: the plaintext the server decrypted, not records.
    assert_eq!(seen.bytes_written(), request.len() as u64);
    assert!(seen.head_written() && seen.body_written() && seen.head_received());
    assert_eq!(seen.connection_reused(), Some(false));
}

#[tokio::test]
async fn a_200_over_https_with_http2_by_alpn_records_the_stream_id() {
    let (listener, addr) = listen().await;
    let acceptor = Pki::get().acceptor(true, &[b"h2", b"http/1.1"]);
    tokio::spawn(async move {
        let tls = accept_tls(&listener, &acceptor).await;
        assert_eq!(tls.get_ref().1.alpn_protocol(), Some(&b"h2"[..]));
        serve_h2(tls, H2Reply::Hello).await;
    });
    let attempt = attempt();
    let url = format!("https://127.0.0.1:{}/", addr.port());
    let (status, body) = fetch(&trusting_engine(), get(&url), &attempt)
        .await
        .unwrap();
    assert_eq!((status.as_u16(), &body[..]), (200, &b"hello"[..]));

    let seen = attempt.progress().snapshot();
    assert_eq!(seen.stream_id(), Some(1));
    assert!(
        !seen.writes_counted_exactly(),
        "h2 never claims exact counts"
    );
    assert!(seen.head_written() && seen.body_written() && seen.head_received());
    assert_eq!(seen.bytes_read(), 5);
}

#[tokio::test]
async fn an_untrusted_certificate_is_a_tls_certificate_failure_before_any_write() {
    let (listener, addr) = listen().await;
    let acceptor = Pki::get().acceptor(false, &[b"http/1.1"]);
    tokio::spawn(async move {
        let (tcp, _) = listener.accept().await.unwrap();
        let _ = acceptor.accept(tcp).await;
    });
    let attempt = attempt();
    let url = format!("https://localhost:{}/", addr.port());
    let failure = trusting_engine()
        .send(get(&url), &attempt)
        .await
        .unwrap_err();
    assert_eq!(failure.signal(), EngineSignal::TlsCertificate, "{failure}");
    let seen = attempt.progress().snapshot();
    assert_eq!(seen.stage(), Some(AttemptStage::Tls));
    let verdict = classify(failure.signal(), &seen);
    assert_eq!(verdict.evidence(), ExecutionEvidence::NotSent);
    assert_eq!(verdict.category(), FailureCategory::TlsCertificate);
}

#[tokio::test]
async fn a_server_closing_during_the_handshake_is_a_tls_handshake_failure() {
    let (listener, addr) = listen().await;
    tokio::spawn(async move {
        let (tcp, _) = listener.accept().await.unwrap();
        drop(tcp);
    });
    let attempt = attempt();
    let url = format!("https://localhost:{}/", addr.port());
    let failure = trusting_engine()
        .send(get(&url), &attempt)
        .await
        .unwrap_err();
    assert_eq!(failure.signal(), EngineSignal::TlsHandshake, "{failure}");
    let verdict = classify(failure.signal(), &attempt.progress().snapshot());
    assert_eq!(verdict.evidence(), ExecutionEvidence::NotSent);
    assert_eq!(verdict.stage(), AttemptStage::Tls);
}
