//! A name whose first address is silent and whose second is live answers on
//! the first attempt, within the Connection Attempt Delay: the core's Happy
//! Eyeballs connect (RFC 8305) starts the second address 250 ms after the
//! first. Real time, measured, never slept on: the silent address is a
//! loopback listener whose accept queue is full, so the kernel drops the
//! SYNs sent to it.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::Arc;
use std::time::{Duration, Instant};

use evident_core::HostOverrides;
use evident_core::client::blocking::Body;
use evident_core::client::{CallOptions, ClientBuilder};
use evident_teaching_engine::TeachingEngine;
use evident_test_support::silent::{Records, SilentListener};

/// A common attempt timeout.
const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(2);

/// The 250 ms Connection Attempt Delay plus a loopback exchange, with room.
const WITHIN: Duration = Duration::from_millis(500);

#[test]
fn a_silent_first_address_costs_the_attempt_delay_and_the_first_attempt_answers() {
    let silent = SilentListener::bind("127.0.0.2:0".parse().unwrap()).unwrap();
    let port = silent.addr().port();
    let listener = TcpListener::bind(("127.0.0.3", port)).unwrap();
    let server = std::thread::spawn(move || {
        let (mut tcp, _) = listener.accept().unwrap();
        // Bounded: a request head arrives within this, or the test fails.
        tcp.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let mut seen = Vec::new();
        let mut buf = [0u8; 1024];
        while !seen.windows(4).any(|w| w == b"\r\n\r\n") {
            let n = tcp.read(&mut buf).unwrap();
            assert!(n > 0, "the client closed before its head");
            seen.extend_from_slice(&buf[..n]);
        }
        tcp.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 5\r\nconnection: close\r\n\r\nhello")
            .unwrap();
    });
    let engine = TeachingEngine::new(
        Vec::new(),
        HostOverrides::new().map(
            "multi.test",
            vec!["127.0.0.2".parse().unwrap(), "127.0.0.3".parse().unwrap()],
        ),
    )
    .unwrap();
    let records = Arc::new(Records::default());
    let client = ClientBuilder::new()
        .attempt_timeout(ATTEMPT_TIMEOUT)
        .observer(records.clone())
        .build_blocking(engine)
        .unwrap();

    let started = Instant::now();
    let request = http::Request::get(format!("http://multi.test:{port}/"))
        .body(Body::Empty)
        .unwrap();
    let response = client.execute(request, CallOptions::new()).unwrap();
    let took = started.elapsed();
    assert_eq!(response.status(), 200);
    assert_eq!(&response.body()[..], b"hello");
    server.join().unwrap();
    assert!(took < WITHIN, "the silent address cost {took:?}");

    let calls = records.calls();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].len(), 1, "one attempt: {:?}", calls[0]);
    assert_eq!(calls[0][0].status, Some(200));
}
