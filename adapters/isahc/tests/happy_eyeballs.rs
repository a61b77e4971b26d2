//! A name whose first address is silent and whose second is live answers on
//! the first attempt, within the Connection Attempt Delay. curl connects to
//! one address per transfer and cannot race two (RFC 8305), so the engine
//! gives each address but the last that long to connect and then tries the
//! next, where the other engines start the next beside it: the silent
//! address costs the same 250 ms. Real time, measured, never slept on: the
//! silent address is a loopback listener whose accept queue is full, so the
//! kernel drops the SYNs sent to it.

mod support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use evident_core::HostOverrides;
use evident_core::client::{CallOptions, ClientBuilder};
use evident_isahc::IsahcEngine;
use evident_test_support::silent::{Records, SilentListener};
use support::*;

/// A common attempt timeout: the per-address timeout of old (2 s) equalled
/// it, so every attempt died on the silent address.
const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(2);

/// What answering on the first attempt must take at most: the 250 ms
/// Connection Attempt Delay plus a loopback exchange, with room to spare.
const WITHIN: Duration = Duration::from_millis(500);

#[tokio::test]
async fn a_silent_first_address_costs_the_attempt_delay_and_the_first_attempt_answers() {
    let silent = SilentListener::bind("127.0.0.2:0".parse().unwrap()).unwrap();
    let port = silent.addr().port();
    let (listener, _) = listen_on(&format!("127.0.0.3:{port}")).await;
    let served = tokio::spawn(async move {
        let (tcp, _) = listener.accept().await.unwrap();
        let mut conn = RequestReader::new(tcp);
        conn.next_request().await.unwrap();
        conn.respond(OK_HELLO).await;
    });
    let engine = IsahcEngine::builder()
        .host_overrides(HostOverrides::new().map(
            "multi.test",
            vec!["127.0.0.2".parse().unwrap(), "127.0.0.3".parse().unwrap()],
        ))
        .build()
        .unwrap();
    let records = Arc::new(Records::default());
    let client = ClientBuilder::new()
        .attempt_timeout(ATTEMPT_TIMEOUT)
        .observer(records.clone())
        .build(engine)
        .unwrap();

    let started = Instant::now();
    let request = http::Request::get(format!("http://multi.test:{port}/"))
        .body(evident_core::client::Body::Empty)
        .unwrap();
    let response = client.execute(request, CallOptions::new()).await.unwrap();
    let took = started.elapsed();
    assert_eq!(response.status(), 200);
    served.await.unwrap();
    assert!(took < WITHIN, "the silent address cost {took:?}");

    let calls = records.calls();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].len(), 1, "one attempt: {:?}", calls[0]);
    assert_eq!(calls[0][0].status, Some(200));
    assert_eq!(calls[0][0].resend_count, 0);
}
