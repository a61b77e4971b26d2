//! The ureq engine over TLS: the handshake completes inside connect, so
//! every TLS failure is a `Tls`-stage failure, never one while writing the
//! head.

mod support;

use evident_core::{
    AttemptStage, EngineSignal, ExecutionEvidence, FailureCategory, HostOverrides, classify,
};
use evident_ureq::UreqEngine;
use support::*;

fn trusting_engine() -> UreqEngine {
    UreqEngine::builder()
        .root_certificates(trusted_roots())
        .build()
        .unwrap()
}

#[test]
fn a_200_over_https_records_exact_progress() {
    let (listener, addr) = listen();
    let requests = serve(listener, 1, Some(tls_server()), |conn, seen| {
        conn.next_reported(seen);
        conn.reply(OK_HELLO);
    });
    let attempt = attempt();
    let url = format!("https://localhost:{}/secure", addr.port());
    let (status, body) = fetch(&trusting_engine(), post(&url, "ping"), &attempt).unwrap();
    assert_eq!(status, 200);
    assert_eq!(&body[..], b"hello");

    let sent = next(&requests);
    let seen = attempt.progress().snapshot();
    assert!(seen.writes_counted_exactly());
    assert_eq!(
        seen.bytes_written(),
        sent.len() as u64,
        "plaintext bytes, counted above TLS"
    );
    assert!(seen.head_written() && seen.body_written() && seen.head_received());
    assert_eq!(seen.connection_reused(), Some(false));
    assert_eq!(seen.stage(), Some(AttemptStage::ReadBody));
    assert_eq!(seen.bytes_read(), 5);
}

#[test]
fn an_untrusted_certificate_fails_at_the_tls_stage_not_while_writing_the_head() {
    let (listener, addr) = listen();
    let _requests = serve(listener, 1, Some(tls_server()), |conn, seen| {
        conn.next_reported(seen);
    });
    // No roots: the test certificate is not trusted.
    let engine = UreqEngine::builder().build().unwrap();
    let attempt = attempt();
    let failure = send_err(
        &engine,
        get(&format!("https://localhost:{}/", addr.port())),
        &attempt,
    );
    assert_eq!(failure.signal(), EngineSignal::TlsCertificate);
    let seen = attempt.progress().snapshot();
    assert_eq!(seen.stage(), Some(AttemptStage::Tls));
    assert_eq!(seen.bytes_written(), 0);
    assert!(!seen.head_written());
    let verdict = classify(failure.signal(), &seen);
    assert_eq!(verdict.stage(), AttemptStage::Tls);
    assert_eq!(verdict.category(), FailureCategory::TlsCertificate);
    assert_eq!(verdict.evidence(), ExecutionEvidence::NotSent);
}

#[test]
fn a_certificate_for_another_name_is_a_certificate_failure() {
    let (listener, addr) = listen();
    let _requests = serve(listener, 1, Some(tls_server()), |conn, seen| {
        conn.next_reported(seen);
    });
    let engine = UreqEngine::builder()
        .root_certificates(trusted_roots())
        .host_overrides(HostOverrides::new().map("other.test", vec![addr.ip()]))
        .build()
        .unwrap();
    let failure = send_err(
        &engine,
        get(&format!("https://other.test:{}/", addr.port())),
        &attempt(),
    );
    assert_eq!(failure.signal(), EngineSignal::TlsCertificate);
}

#[test]
fn a_server_closing_during_the_handshake_is_a_handshake_failure() {
    let (listener, addr) = listen();
    let _requests = serve(listener, 1, None, |conn, _| {
        // Read the ClientHello, then hang up.
        let mut hello = [0u8; 1];
        let _ = std::io::Read::read(&mut conn.stream, &mut hello);
    });
    let attempt = attempt();
    let failure = send_err(
        &trusting_engine(),
        get(&format!("https://localhost:{}/", addr.port())),
        &attempt,
    );
    assert_eq!(failure.signal(), EngineSignal::TlsHandshake);
    let verdict = classify(failure.signal(), &attempt.progress().snapshot());
    assert_eq!(verdict.stage(), AttemptStage::Tls);
    assert_eq!(verdict.evidence(), ExecutionEvidence::NotSent);
}

#[test]
fn a_rejected_certificate_is_not_hidden_by_a_later_refused_address() {
    // 127.0.0.2 presents an untrusted certificate; 127.0.0.3 refuses.
    let (listener, addr) = listen_on("127.0.0.2:0");
    let _requests = serve(listener, 1, Some(tls_server()), |conn, seen| {
        conn.next_reported(seen);
    });
    let engine = UreqEngine::builder()
        .host_overrides(HostOverrides::new().map(
            "localhost",
            vec!["127.0.0.2".parse().unwrap(), "127.0.0.3".parse().unwrap()],
        ))
        .build()
        .unwrap();
    let attempt = attempt();
    let failure = send_err(
        &engine,
        get(&format!("https://localhost:{}/", addr.port())),
        &attempt,
    );
    assert_eq!(failure.signal(), EngineSignal::TlsCertificate);
    let verdict = classify(failure.signal(), &attempt.progress().snapshot());
    assert_eq!(verdict.category(), FailureCategory::TlsCertificate);
    assert_eq!(verdict.evidence(), ExecutionEvidence::NotSent);
}

#[test]
fn a_second_https_request_reuses_the_connection() {
    let (listener, addr) = listen();
    let requests = serve(listener, 1, Some(tls_server()), |conn, seen| {
        while conn.next_reported(seen).is_some() {
            conn.reply(OK_HELLO);
        }
    });
    let engine = trusting_engine();
    let url = format!("https://localhost:{}/", addr.port());
    fetch(&engine, get(&url), &attempt()).unwrap();
    let second = attempt();
    fetch(&engine, get(&url), &second).unwrap();
    next(&requests);
    let sent = next(&requests);
    let seen = second.progress().snapshot();
    assert_eq!(seen.connection_reused(), Some(true));
    assert_eq!(seen.bytes_written(), sent.len() as u64);
}

#[test]
fn a_silent_handshake_times_out_at_the_tls_stage_and_proves_not_sent() {
    let (listener, addr) = listen();
    // Accept, read nothing, answer nothing, until the client gives up.
    let _requests = serve(listener, 1, None, |conn, _| conn.until_client_closes());
    let attempt = attempt_until(std::time::Instant::now() + std::time::Duration::from_millis(300));
    let failure = send_err(
        &trusting_engine(),
        get(&format!("https://localhost:{}/", addr.port())),
        &attempt,
    );
    assert_eq!(failure.signal(), EngineSignal::TimedOut);
    let verdict = classify(failure.signal(), &attempt.progress().snapshot());
    assert_eq!(verdict.stage(), AttemptStage::Tls);
    assert_eq!(verdict.category(), FailureCategory::ConnectTimeout);
    assert_eq!(verdict.evidence(), ExecutionEvidence::NotSent);
}
