//! The ureq engine under evident's blocking client, end to end: the retry
//! decisions come from the evidence this engine records.

mod support;

use std::net::TcpListener;
use std::sync::Mutex;

use evident_core::client::blocking::Body;
use evident_core::client::{CallOptions, ClientBuilder, attempts_of};
use evident_core::resilience::ManualClock;
use evident_core::{
    AttemptContext, AttemptStage, BlockingAttemptBody, BlockingEngine, BlockingResponseBody,
    EngineFailure, ExecutionEvidence, FailureCategory,
};
use evident_ureq::UreqEngine;
use support::*;

/// Runs `after_first` once, right after the first attempt: lets a test
/// change the world between two attempts without any timing.
struct BetweenAttempts<F> {
    engine: UreqEngine,
    after_first: Mutex<Option<F>>,
}

impl<F: FnOnce() + Send + 'static> BlockingEngine for BetweenAttempts<F> {
    fn name(&self) -> &'static str {
        self.engine.name()
    }

    fn send(
        &self,
        request: http::Request<BlockingAttemptBody>,
        attempt: &AttemptContext,
    ) -> Result<http::Response<Box<dyn BlockingResponseBody>>, EngineFailure> {
        let result = self.engine.send(request, attempt);
        if let Some(f) = self.after_first.lock().unwrap().take() {
            f();
        }
        result
    }
}

#[test]
fn a_refused_post_is_retried_and_then_succeeds() {
    // Nothing listens on the port for the first attempt; a server does for
    // the second.
    let addr = refusing_addr();
    let (started, requests) = std::sync::mpsc::channel();
    let engine = BetweenAttempts {
        engine: UreqEngine::builder().build().unwrap(),
        after_first: Mutex::new(Some(move || {
            let listener = TcpListener::bind(addr).unwrap();
            let requests = serve(listener, 1, None, |conn, seen| {
                conn.next_reported(seen);
                conn.reply(OK_HELLO);
            });
            started.send(requests).unwrap();
        })),
    };
    let client = ClientBuilder::new()
        .clock(std::sync::Arc::new(ManualClock::new()))
        .build_blocking(engine)
        .unwrap();
    // A POST without any idempotency declared: only proof may retry it.
    let request = http::Request::post(format!("http://{addr}/pay"))
        .body(Body::from("amount=1"))
        .unwrap();
    let response = client.execute(request, CallOptions::new()).unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(&response.body()[..], b"hello");

    let records = attempts_of(&response);
    assert_eq!(records.len(), 2);
    assert_eq!(records[0].stage, Some(AttemptStage::Connect));
    assert_eq!(
        records[0].category,
        Some(FailureCategory::ConnectionRefused)
    );
    assert_eq!(records[0].evidence, Some(ExecutionEvidence::NotSent));
    assert_eq!(records[1].status, Some(200));
    let server = requests.recv_timeout(EVENT_TIMEOUT).unwrap();
    assert!(next(&server).ends_with(b"amount=1"));
}

#[test]
fn a_post_whose_connection_closed_after_the_request_is_not_retried() {
    let (listener, addr) = listen();
    let requests = serve(listener, 2, None, |conn, seen| {
        conn.next_reported(seen);
    });
    let client = ClientBuilder::new()
        .clock(std::sync::Arc::new(ManualClock::new()))
        .build_blocking(UreqEngine::builder().build().unwrap())
        .unwrap();
    let request = http::Request::post(format!("http://{addr}/pay"))
        .body(Body::from("amount=1"))
        .unwrap();
    let error = client.execute(request, CallOptions::new()).unwrap_err();
    let failure = error.failure().expect("a transport failure");
    assert_eq!(failure.category(), FailureCategory::ConnectionClosed);
    assert_eq!(failure.evidence(), ExecutionEvidence::SentNoResponse);
    assert_eq!(error.attempts().len(), 1, "ambiguous and not idempotent");
    next(&requests);
    assert!(requests.try_recv().is_err(), "the server saw one execution");
}
