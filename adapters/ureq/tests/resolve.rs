//! Host overrides: a name that does not exist, and several addresses tried
//! in order.

mod support;

use evident_core::{
    AttemptStage, EngineSignal, ExecutionEvidence, FailureCategory, HostOverrides, classify,
};
use evident_ureq::UreqEngine;
use support::*;

#[test]
fn a_name_the_overrides_make_not_exist_fails_at_resolve() {
    let engine = UreqEngine::builder()
        .host_overrides(HostOverrides::new().not_found("gone.test"))
        .build()
        .unwrap();
    let attempt = attempt();
    let failure = send_err(&engine, get("http://gone.test/"), &attempt);
    assert_eq!(failure.signal(), EngineSignal::NameNotFound);
    let seen = attempt.progress().snapshot();
    assert_eq!(seen.stage(), Some(AttemptStage::Resolve));
    let verdict = classify(failure.signal(), &seen);
    assert_eq!(verdict.stage(), AttemptStage::Resolve);
    assert_eq!(verdict.category(), FailureCategory::NameNotFound);
    assert_eq!(verdict.evidence(), ExecutionEvidence::NotSent);
}

#[test]
fn a_refused_first_address_falls_through_to_the_next_on_the_same_port() {
    let (listener, addr) = listen_on("127.0.0.3:0");
    let requests = serve(listener, 1, None, |conn, seen| {
        conn.next_reported(seen);
        conn.reply(OK_HELLO);
    });
    let engine = UreqEngine::builder()
        .host_overrides(HostOverrides::new().map(
            "svc.test",
            vec!["127.0.0.2".parse().unwrap(), "127.0.0.3".parse().unwrap()],
        ))
        .build()
        .unwrap();
    let attempt = attempt();
    let (status, body) = fetch(
        &engine,
        get(&format!("http://svc.test:{}/", addr.port())),
        &attempt,
    )
    .unwrap();
    assert_eq!(status, 200);
    assert_eq!(&body[..], b"hello");
    let sent = next(&requests);
    assert!(
        String::from_utf8_lossy(&sent)
            .to_ascii_lowercase()
            .contains(&format!("host: svc.test:{}", addr.port())),
        "the request names the host, not the address"
    );
    let seen = attempt.progress().snapshot();
    assert_eq!(seen.connection_reused(), Some(false));
    assert_eq!(seen.bytes_written(), sent.len() as u64);
}

#[test]
fn when_every_address_refuses_the_refusal_surfaces() {
    let port = refusing_addr().port();
    let engine = UreqEngine::builder()
        .host_overrides(HostOverrides::new().map(
            "svc.test",
            vec!["127.0.0.2".parse().unwrap(), "127.0.0.3".parse().unwrap()],
        ))
        .build()
        .unwrap();
    let attempt = attempt();
    let failure = send_err(&engine, get(&format!("http://svc.test:{port}/")), &attempt);
    assert_eq!(failure.signal(), EngineSignal::ConnectionRefused);
    let verdict = classify(failure.signal(), &attempt.progress().snapshot());
    assert_eq!(verdict.stage(), AttemptStage::Connect);
    assert_eq!(verdict.evidence(), ExecutionEvidence::NotSent);
}
