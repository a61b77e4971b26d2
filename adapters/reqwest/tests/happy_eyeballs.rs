//! A named gap, pinned: a name whose first address is silent. The other
//! engines start the second address 250 ms after the first (RFC 8305's
//! Connection Attempt Delay) and answer on the first attempt; reqwest's
//! connector (hyper-util's, which reqwest lets no caller replace) tries the
//! addresses of one family one after another with no per-address limit,
//! so the silent address takes the attempt. The record is still honest:
//! a connect timeout, proven not sent. The conformance matrix names the
//! gap (`two_addresses_silent_then_answers`).

mod support;

use std::time::Duration;

use evident_core::{
    AttemptStage, Engine, EngineSignal, ExecutionEvidence, HostOverrides, classify,
};
use evident_test_support::silent::SilentListener;
use support::*;

#[tokio::test]
async fn known_gap_a_silent_first_address_takes_the_attempt_and_proves_it_unsent() {
    let silent = SilentListener::bind("127.0.0.2:0".parse().unwrap()).unwrap();
    let port = silent.addr().port();
    let (listener, _) = listen_on(&format!("127.0.0.3:{port}")).await;
    tokio::spawn(async move {
        // Live, but never reached.
        let _ = listener.accept().await;
    });
    let engine = ReqwestEngine::builder()
        .host_overrides(HostOverrides::new().map(
            "multi.test",
            vec!["127.0.0.2".parse().unwrap(), "127.0.0.3".parse().unwrap()],
        ))
        .build()
        .unwrap();
    let attempt = attempt();
    let url = format!("http://multi.test:{port}/");
    // The core bounds every attempt; here, as it does, by dropping it.
    let outcome = tokio::time::timeout(
        Duration::from_millis(600),
        engine.send(post(&url, "x"), &attempt),
    )
    .await;
    assert!(outcome.is_err(), "the silent address held the attempt");
    let judged = classify(EngineSignal::TimedOut, &attempt.progress().abandon());
    assert_eq!(judged.stage(), AttemptStage::Connect);
    assert_eq!(judged.evidence(), ExecutionEvidence::NotSent);
}
