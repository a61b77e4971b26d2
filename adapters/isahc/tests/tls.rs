//! TLS through curl's rustls backend: the builder's roots, and how
//! handshake failures map.

mod support;

use std::time::Duration;

use evident_core::{AttemptStage, Engine, EngineSignal, ExecutionEvidence, HostOverrides};
use evident_isahc::IsahcEngine;
use support::*;
use tokio::io::AsyncWriteExt;

fn engine(overrides: HostOverrides) -> IsahcEngine {
    IsahcEngine::builder()
        .root_certificates(vec![Pki::get().trusted_ca_der.clone()])
        .host_overrides(overrides)
        .build()
        .unwrap()
}

#[tokio::test]
async fn a_trusted_certificate_gets_an_answer() {
    let (listener, addr) = listen().await;
    answer_once_over_tls(listener);
    let url = format!("https://localhost:{}/", addr.port());
    let (status, body) = fetch(&engine(HostOverrides::new()), get(&url), &attempt())
        .await
        .unwrap();
    assert_eq!(status, 200);
    assert_eq!(&body[..], b"hello");
}

#[tokio::test]
async fn an_untrusted_certificate_is_rejected_before_anything_is_sent() {
    let (listener, addr) = listen().await;
    let acceptor = Pki::get().acceptor(false, &[b"http/1.1"]);
    tokio::spawn(async move {
        let (tcp, _) = listener.accept().await.unwrap();
        let _ = acceptor.accept(tcp).await;
    });
    let attempt = attempt();
    let url = format!("https://localhost:{}/", addr.port());
    let failure = engine(HostOverrides::new())
        .send(post(&url, "x"), &attempt)
        .await
        .unwrap_err();
    assert_eq!(failure.signal(), EngineSignal::TlsCertificate);
    let judged = judged(&failure, &attempt);
    assert_eq!(judged.stage(), AttemptStage::Tls);
    assert_eq!(judged.evidence(), ExecutionEvidence::NotSent);
}

#[tokio::test]
async fn a_peer_closing_during_the_handshake_is_a_handshake_failure_not_sent() {
    let (listener, addr) = listen().await;
    serve(listener, 1, |_, conn| async move {
        let mut tcp = conn.stream;
        let mut hello = [0u8; 16];
        let _ = tokio::io::AsyncReadExt::read(&mut tcp, &mut hello).await;
        let _ = tcp.shutdown().await;
    });
    let attempt = attempt();
    let url = format!("https://localhost:{}/", addr.port());
    let failure = engine(HostOverrides::new())
        .send(post(&url, "x"), &attempt)
        .await
        .unwrap_err();
    assert_eq!(failure.signal(), EngineSignal::TlsHandshake);
    assert_eq!(
        judged(&failure, &attempt).evidence(),
        ExecutionEvidence::NotSent
    );
}

/// A handshake that stalls after the ClientHello is recorded at `Tls`, as
/// on every engine: the adapter dialed TCP itself and relays it to curl,
/// so it knows TCP was up, and the relay proves no application-data record
/// (the only kind that carries request bytes) left. curl alone reports
/// nothing that tells this from a connect that never completed.
#[tokio::test]
async fn a_handshake_that_never_completes_times_out_as_not_sent() {
    let (listener, addr) = listen().await;
    serve(listener, 1, |_, conn| async move {
        let mut tcp = conn.stream;
        // Read the ClientHello and never answer it.
        let mut sink = Vec::new();
        let _ = tokio::io::AsyncReadExt::read_to_end(&mut tcp, &mut sink).await;
    });
    let attempt = attempt_within(Duration::from_millis(400));
    let url = format!("https://localhost:{}/", addr.port());
    let failure = engine(HostOverrides::new())
        .send(post(&url, "x"), &attempt)
        .await
        .unwrap_err();
    assert_eq!(failure.signal(), EngineSignal::TimedOut);
    let judged = judged(&failure, &attempt);
    assert_eq!(judged.evidence(), ExecutionEvidence::NotSent);
    assert_eq!(judged.stage(), AttemptStage::Tls);
    assert_eq!(
        judged.category(),
        evident_core::FailureCategory::ConnectTimeout
    );
}

#[tokio::test]
async fn an_untrusted_first_address_is_not_hidden_by_a_refused_second() {
    let (listener, addr) = listen().await;
    let acceptor = Pki::get().acceptor(false, &[b"http/1.1"]);
    tokio::spawn(async move {
        let (tcp, _) = listener.accept().await.unwrap();
        let _ = acceptor.accept(tcp).await;
    });
    // 127.0.0.2 is loopback too, and nothing listens there on that port.
    let overrides =
        HostOverrides::new().map("svc.test", vec![addr.ip(), "127.0.0.2".parse().unwrap()]);
    let attempt = attempt();
    let url = format!("https://svc.test:{}/", addr.port());
    let failure = engine(overrides)
        .send(get(&url), &attempt)
        .await
        .unwrap_err();
    assert_eq!(failure.signal(), EngineSignal::TlsCertificate);
}

#[test]
fn a_root_that_is_not_a_certificate_is_a_typed_error_with_its_index() {
    let err = IsahcEngine::builder()
        .root_certificates(vec![Pki::get().trusted_ca_der.clone(), b"junk".to_vec()])
        .build()
        .unwrap_err();
    assert_eq!(err.field(), "root_certificates");
}

#[tokio::test]
async fn tls_options_hand_curl_the_default_roots_and_an_added_root() {
    let (listener, addr) = listen().await;
    answer_once_over_tls(listener);
    // The options every engine takes: the compiled-in public roots plus
    // the test CA, as a user adds a company CA.
    let options = evident_core::tls::TlsOptions::new()
        .add_root_der(Pki::get().trusted_ca_der.clone())
        .unwrap();
    let engine = IsahcEngine::builder().tls(options).build().unwrap();
    let url = format!("https://127.0.0.1:{}/", addr.port());
    let (status, _) = fetch(&engine, get(&url), &attempt()).await.unwrap();
    assert_eq!(status, 200);
}

#[test]
fn pool_options_are_validated_and_honoured() {
    // Connections are reused (for the attempts whose repeat is harmless)
    // through Unix sockets: the pool options mean what they mean on every
    // engine, and reuse can be turned off.
    assert!(
        IsahcEngine::builder()
            .max_idle_per_origin(0)
            .idle_timeout(Duration::from_secs(5))
            .build()
            .is_ok()
    );
    let err = IsahcEngine::builder()
        .max_idle_per_origin(evident_core::engine::pool::MAX_IDLE_PER_ORIGIN_LIMIT + 1)
        .build()
        .unwrap_err();
    assert_eq!(err.field(), "max_idle_per_origin");
    let err = IsahcEngine::builder()
        .idle_timeout(Duration::ZERO)
        .build()
        .unwrap_err();
    assert_eq!(err.field(), "idle_timeout");
}

/// A TLS server that answers every request on its connections; returns
/// how many connections it accepted.
fn answer_all_over_tls(listener: tokio::net::TcpListener) -> Ledger {
    let connections = Ledger::default();
    let counted = connections.clone();
    let acceptor = Pki::get().acceptor(true, &[b"http/1.1"]);
    tokio::spawn(async move {
        loop {
            let tls = accept_tls(&listener, &acceptor).await;
            counted.execute();
            tokio::spawn(async move {
                let mut conn = RequestReader::new(tls);
                while conn.next_request().await.is_some() {
                    conn.respond(OK_HELLO).await;
                }
            });
        }
    });
    connections
}

#[tokio::test]
async fn repeatable_attempts_reuse_one_tls_connection_and_others_get_their_own() {
    let (listener, addr) = listen().await;
    let connections = answer_all_over_tls(listener);
    let engine = engine(HostOverrides::new());
    let url = format!("https://localhost:{}/", addr.port());
    for _ in 0..3 {
        let attempt = repeatable();
        let (status, _) = fetch(&engine, get(&url), &attempt).await.unwrap();
        assert_eq!(status, 200);
    }
    assert_eq!(connections.executions(), 1, "one handshake for three GETs");
    let (status, _) = fetch(&engine, get(&url), &attempt()).await.unwrap();
    assert_eq!(status, 200);
    assert_eq!(
        connections.executions(),
        2,
        "a non-repeatable attempt gets its own"
    );
}

#[tokio::test]
async fn curls_resend_on_a_stale_reused_tls_connection_never_leaves() {
    // Every connection answers its first request, and closes after reading
    // its second, unanswered (a keep-alive race a server can lose).
    let (listener, addr) = listen().await;
    let requests = Ledger::default();
    let counted = requests.clone();
    let acceptor = Pki::get().acceptor(true, &[b"http/1.1"]);
    tokio::spawn(async move {
        loop {
            let tls = accept_tls(&listener, &acceptor).await;
            let requests = counted.clone();
            tokio::spawn(async move {
                let mut conn = RequestReader::new(tls);
                let mut on_this_connection = 0;
                while conn.next_request().await.is_some() {
                    requests.execute();
                    on_this_connection += 1;
                    if on_this_connection > 1 {
                        return;
                    }
                    conn.respond(OK_HELLO).await;
                }
            });
        }
    });
    let engine = engine(HostOverrides::new());
    let url = format!("https://localhost:{}/", addr.port());
    fetch(&engine, get(&url), &repeatable()).await.unwrap();
    let attempt = repeatable();
    let failure = fetch(&engine, get(&url), &attempt).await.unwrap_err();
    assert_eq!(
        requests.executions(),
        2,
        "curl's re-send never reached the server"
    );
    assert!(
        matches!(
            failure.signal(),
            EngineSignal::ConnectionClosed | EngineSignal::ConnectionReset
        ),
        "{failure}"
    );
    assert_eq!(
        judged(&failure, &attempt).evidence(),
        ExecutionEvidence::SentNoResponse
    );
    assert_eq!(
        attempt.progress().snapshot().connection_reused(),
        Some(true)
    );
    // The core's retry gets a new connection.
    fetch(&engine, get(&url), &repeatable()).await.unwrap();
    assert_eq!(requests.executions(), 3);
}
