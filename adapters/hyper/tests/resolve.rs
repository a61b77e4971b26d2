//! Host overrides and the connect loop over several addresses.

mod support;

use evident_core::{
    AttemptStage, Engine, EngineSignal, ExecutionEvidence, FailureCategory, HostOverrides, classify,
};
use evident_hyper::HyperEngine;
use support::*;

#[tokio::test]
async fn a_name_the_overrides_make_not_exist_is_name_not_found_at_resolve() {
    let engine = HyperEngine::builder()
        .host_overrides(HostOverrides::new().not_found("gone.test"))
        .build()
        .unwrap();
    let attempt = attempt();
    let failure = engine
        .send(get("http://gone.test/"), &attempt)
        .await
        .unwrap_err();
    assert_eq!(failure.signal(), EngineSignal::NameNotFound);
    let seen = attempt.progress().snapshot();
    assert_eq!(seen.stage(), Some(AttemptStage::Resolve));
    let verdict = classify(failure.signal(), &seen);
    assert_eq!(verdict.evidence(), ExecutionEvidence::NotSent);
    assert_eq!(verdict.category(), FailureCategory::NameNotFound);
    assert!(verdict.category().is_permanent());
}

#[tokio::test]
async fn a_refused_first_address_is_skipped_for_the_second() {
    // Only 127.0.0.1 listens on this port; 127.0.0.2 refuses.
    let (listener, addr) = listen().await;
    tokio::spawn(async move {
        let (tcp, _) = listener.accept().await.unwrap();
        let mut conn = RequestReader::new(tcp);
        while conn.next_request().await.is_some() {
            conn.respond(OK_HELLO).await;
        }
    });
    let engine = HyperEngine::builder()
        .host_overrides(HostOverrides::new().map(
            "svc.test",
            vec!["127.0.0.2".parse().unwrap(), "127.0.0.1".parse().unwrap()],
        ))
        .build()
        .unwrap();
    let attempt = attempt();
    let url = format!("http://svc.test:{}/", addr.port());
    let (status, body) = fetch(&engine, get(&url), &attempt).await.unwrap();
    assert_eq!((status.as_u16(), &body[..]), (200, &b"hello"[..]));
}

#[tokio::test]
async fn a_rejected_certificate_is_not_hidden_by_a_later_refused_address() {
    // 127.0.0.2 presents an untrusted certificate; 127.0.0.3 refuses.
    let (listener, addr) = listen_on("127.0.0.2:0").await;
    let acceptor = Pki::get().acceptor(false, &[b"http/1.1"]);
    tokio::spawn(async move {
        let (tcp, _) = listener.accept().await.unwrap();
        let _ = acceptor.accept(tcp).await;
    });
    let engine = HyperEngine::builder()
        .root_certificates(vec![Pki::get().trusted_ca_der.clone()])
        .host_overrides(HostOverrides::new().map(
            "svc.test",
            vec!["127.0.0.2".parse().unwrap(), "127.0.0.3".parse().unwrap()],
        ))
        .build()
        .unwrap();
    let attempt = attempt();
    let failure = engine
        .send(get(&format!("https://svc.test:{}/", addr.port())), &attempt)
        .await
        .unwrap_err();
    assert_eq!(failure.signal(), EngineSignal::TlsCertificate, "{failure}");
    let verdict = classify(failure.signal(), &attempt.progress().snapshot());
    assert_eq!(verdict.evidence(), ExecutionEvidence::NotSent);
    assert_eq!(verdict.category(), FailureCategory::TlsCertificate);
}
