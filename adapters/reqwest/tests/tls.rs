//! HTTPS: the core's rustls policy through reqwest's preconfigured-TLS
//! hook, HTTP/1.1 or HTTP/2 by ALPN, and how TLS failures map.

mod support;

use evident_core::{
    AttemptStage as S, EngineSignal, ExecutionEvidence as E, FailureCategory as C, HostOverrides,
};
use support::*;
use tokio::io::AsyncReadExt;

fn trusting_engine() -> ReqwestEngine {
    ReqwestEngine::builder()
        .root_certificates(vec![Pki::get().trusted_ca_der.clone()])
        .host_overrides(HostOverrides::new().map("localhost", vec!["127.0.0.1".parse().unwrap()]))
        .build()
        .unwrap()
}

#[tokio::test]
async fn a_200_over_https_with_http1_by_alpn_reports_the_whole_exchange() {
    let (listener, addr) = listen().await;
    let acceptor = Pki::get().acceptor(true, &[b"http/1.1"]);
    tokio::spawn(async move {
        let tls = accept_tls(&listener, &acceptor).await;
        assert_eq!(tls.get_ref().1.alpn_protocol(), Some(&b"http/1.1"[..]));
        let mut conn = RequestReader::new(tls);
        conn.next_request().await.unwrap();
        conn.respond(OK_HELLO).await;
    });
    let attempt = attempt();
    let url = format!("https://localhost:{}/", addr.port());
    let response = trusting_engine()
        .send_for_test(post(&url, "hi"), &attempt)
        .await;
    assert_eq!(response.version(), http::Version::HTTP_11);
    let seen = attempt.progress().snapshot();
    assert!(seen.head_written() && seen.body_written() && seen.head_received());
}

#[tokio::test]
async fn https_negotiates_http2_by_alpn() {
    let (listener, addr) = listen().await;
    let acceptor = Pki::get().acceptor(true, &[b"h2", b"http/1.1"]);
    tokio::spawn(async move {
        let tls = accept_tls(&listener, &acceptor).await;
        assert_eq!(tls.get_ref().1.alpn_protocol(), Some(&b"h2"[..]));
        serve_h2(tls, H2Reply::Hello).await;
    });
    let attempt = attempt();
    // An IP literal: no resolver, the certificate names 127.0.0.1.
    let url = format!("https://127.0.0.1:{}/", addr.port());
    let response = trusting_engine().send_for_test(get(&url), &attempt).await;
    assert_eq!(response.version(), http::Version::HTTP_2);
    let body = collect(response.into_body()).await.unwrap();
    assert_eq!(&body[..], b"hello");
    assert_eq!(attempt.progress().snapshot().bytes_read(), 5);
}

#[tokio::test]
async fn an_untrusted_certificate_is_a_permanent_failure_at_tls_before_any_write() {
    let (listener, addr) = listen().await;
    let acceptor = Pki::get().acceptor(false, &[b"http/1.1"]);
    tokio::spawn(async move {
        let (tcp, _) = listener.accept().await.unwrap();
        let _ = acceptor.accept(tcp).await;
    });
    let attempt = attempt();
    let url = format!("https://localhost:{}/", addr.port());
    let failure = fetch(&trusting_engine(), post(&url, "x"), &attempt)
        .await
        .unwrap_err();
    assert_eq!(failure.signal(), EngineSignal::TlsCertificate);
    assert_eq!(attempt.progress().snapshot().stage(), Some(S::Tls));
    assert_eq!(
        judged(&failure, &attempt),
        (S::Tls, C::TlsCertificate, E::NotSent)
    );
}

#[tokio::test]
async fn a_server_closing_during_the_handshake_is_a_handshake_failure_at_tls() {
    let (listener, addr) = listen().await;
    tokio::spawn(async move {
        let (mut tcp, _) = listener.accept().await.unwrap();
        // Read (part of) the ClientHello, then hang up.
        let mut hello = [0u8; 5];
        tcp.read_exact(&mut hello).await.unwrap();
        assert_eq!(hello[0], 0x16, "a TLS handshake record");
    });
    let attempt = attempt();
    let url = format!("https://localhost:{}/", addr.port());
    let failure = fetch(&trusting_engine(), post(&url, "x"), &attempt)
        .await
        .unwrap_err();
    assert_eq!(failure.signal(), EngineSignal::TlsHandshake);
    assert_eq!(
        judged(&failure, &attempt),
        (S::Tls, C::TlsHandshake, E::NotSent)
    );
}

#[tokio::test]
async fn a_refused_https_connection_never_reaches_the_tls_stage() {
    let addr = refusing_addr().await;
    let attempt = attempt();
    let url = format!("https://localhost:{}/", addr.port());
    let failure = fetch(&trusting_engine(), get(&url), &attempt)
        .await
        .unwrap_err();
    assert_eq!(failure.signal(), EngineSignal::ConnectionRefused);
    assert_eq!(attempt.progress().snapshot().stage(), Some(S::Connect));
}

#[tokio::test]
async fn tls_options_add_a_root_beside_the_default_roots_as_on_every_engine() {
    let (listener, addr) = listen().await;
    let acceptor = Pki::get().acceptor(true, &[b"http/1.1"]);
    tokio::spawn(async move {
        let tls = accept_tls(&listener, &acceptor).await;
        let mut conn = RequestReader::new(tls);
        conn.next_request().await.unwrap();
        conn.respond(OK_HELLO).await;
    });
    // The options every rustls engine takes: the default roots (feature
    // `webpki-roots`) plus the test CA, as a user adds a company CA.
    let options = evident_core::tls::TlsOptions::new()
        .add_root_der(Pki::get().trusted_ca_der.clone())
        .unwrap();
    let engine = ReqwestEngine::builder().tls(options).build().unwrap();
    let attempt = attempt();
    let url = format!("https://127.0.0.1:{}/", addr.port());
    let response = engine.send_for_test(get(&url), &attempt).await;
    assert_eq!(response.status(), http::StatusCode::OK);
    assert!(attempt.progress().snapshot().head_received());
}

#[tokio::test]
async fn tls_options_without_the_test_root_reject_the_server_before_any_write() {
    let (listener, addr) = listen().await;
    let acceptor = Pki::get().acceptor(true, &[b"http/1.1"]);
    tokio::spawn(async move {
        let (tcp, _) = listener.accept().await.unwrap();
        let _ = acceptor.accept(tcp).await;
    });
    // Default roots only: a private CA is not among them.
    let engine = ReqwestEngine::builder()
        .tls(evident_core::tls::TlsOptions::new())
        .build()
        .unwrap();
    let attempt = attempt();
    let url = format!("https://127.0.0.1:{}/", addr.port());
    let failure = fetch(&engine, get(&url), &attempt).await.unwrap_err();
    assert_eq!(failure.signal(), EngineSignal::TlsCertificate);
    assert_eq!(
        judged(&failure, &attempt),
        (S::Tls, C::TlsCertificate, E::NotSent)
    );
}
