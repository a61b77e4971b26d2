//! An engine picked by name at run time drives the same client as the
//! engine itself: one call each way against a loopback server.
#![cfg(all(feature = "hyper", feature = "ureq"))]

use std::io::{Read, Write};
use std::net::TcpListener;

use evident::{AnyBlockingEngine, AnyEngine, CallOptions, Client, ExecutionEvidence};

/// Answers `count` connections, one request each, with 200 "hello".
fn serve(count: usize) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for _ in 0..count {
            let (mut conn, _) = listener.accept().unwrap();
            let mut head = Vec::new();
            let mut byte = [0u8; 1];
            while !head.ends_with(b"\r\n\r\n") && conn.read(&mut byte).is_ok_and(|n| n == 1) {
                head.push(byte[0]);
            }
            conn.write_all(
                b"HTTP/1.1 200 OK\r\ncontent-length: 5\r\nconnection: close\r\n\r\nhello",
            )
            .unwrap();
        }
    });
    url
}

#[tokio::test]
async fn an_engine_chosen_by_name_answers_like_the_engine_itself() {
    let url = serve(1);
    let engine = AnyEngine::by_name("hyper").unwrap();
    assert_eq!(engine.name(), "hyper");
    let client: Client<AnyEngine> = Client::new(engine);
    let request = evident::http::Request::get(url)
        .body(evident::Body::Empty)
        .unwrap();
    let response = client.execute(request, CallOptions::new()).await.unwrap();
    assert_eq!(response.body(), "hello");
    let attempts = evident::attempts_of(&response);
    assert_eq!(attempts.len(), 1);
    assert_eq!(attempts[0].evidence, Some(ExecutionEvidence::Responded));
}

#[test]
fn a_blocking_engine_chosen_by_name_answers_too() {
    let url = serve(1);
    let client = evident::blocking::Client::new(AnyBlockingEngine::by_name("ureq").unwrap());
    let request = evident::http::Request::get(url)
        .body(evident::blocking::Body::Empty)
        .unwrap();
    let response = client.execute(request, CallOptions::new()).unwrap();
    assert_eq!(response.body(), "hello");
    assert!(AnyEngine::by_name("ureq").is_err(), "ureq is blocking only");
}
