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

/// A server whose first connection answers every request with `first`, and
/// every later connection with `OK_HELLO`, each connection on its own
/// thread. Returns the count of accepted connections.
fn first_connection_answers(
    listener: TcpListener,
    first: &'static [u8],
) -> std::sync::Arc<std::sync::atomic::AtomicUsize> {
    use std::sync::atomic::Ordering;
    /// Enough connections for any test here; the loop is bounded.
    const MAX_CONNECTIONS: usize = 4;
    let accepted = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let count = accepted.clone();
    std::thread::spawn(move || {
        for _ in 0..MAX_CONNECTIONS {
            let Ok((tcp, _)) = listener.accept() else {
                return;
            };
            let answer = if count.fetch_add(1, Ordering::SeqCst) == 0 {
                first
            } else {
                OK_HELLO
            };
            std::thread::spawn(move || {
                let mut conn = RequestReader::new(Box::new(tcp));
                while conn.next_request().is_some() {
                    conn.reply(answer);
                }
            });
        }
    });
    accepted
}

#[test]
fn an_attempt_that_requires_a_fresh_connection_does_not_take_a_pooled_one() {
    use std::sync::atomic::Ordering;
    let (listener, addr) = listen();
    let accepted = first_connection_answers(listener, OK_HELLO);
    let engine = UreqEngine::builder().build().unwrap();
    let url = format!("http://{addr}/");

    let first = attempt();
    fetch(&engine, get(&url), &first).unwrap();
    let fresh = evident_core::testing::fresh_connection_attempt_context(
        evident_core::Progress::new(),
        Some(std::time::Instant::now() + EVENT_TIMEOUT),
    );
    fetch(&engine, get(&url), &fresh).unwrap();
    assert_eq!(fresh.progress().snapshot().connection_reused(), Some(false));
    assert_eq!(accepted.load(Ordering::SeqCst), 2);

    // An ordinary attempt still reuses a pooled connection.
    let later = attempt();
    fetch(&engine, get(&url), &later).unwrap();
    assert_eq!(later.progress().snapshot().connection_reused(), Some(true));
    assert_eq!(accepted.load(Ordering::SeqCst), 2);
}

/// Issue 9 item 8: a 421 proves non-processing (RFC 9110 §15.5.20), so a
/// POST with nothing declared is retried, on a new connection; the
/// connection that answered 421 is never reused.
#[test]
fn a_421_is_retried_on_a_new_connection_and_its_connection_is_not_reused() {
    use std::sync::atomic::Ordering;
    const MISDIRECTED: &[u8] = b"HTTP/1.1 421 Misdirected Request\r\ncontent-length: 0\r\n\r\n";
    let (listener, addr) = listen();
    let accepted = first_connection_answers(listener, MISDIRECTED);
    let client = ClientBuilder::new()
        .clock(std::sync::Arc::new(ManualClock::new()))
        .build_blocking(UreqEngine::builder().build().unwrap())
        .unwrap();
    let post = || {
        http::Request::post(format!("http://{addr}/pay"))
            .body(Body::from("amount=1"))
            .unwrap()
    };
    let response = client.execute(post(), CallOptions::new()).unwrap();
    assert_eq!(&response.body()[..], b"hello");
    let reasons: Vec<_> = attempts_of(&response)
        .iter()
        .map(|r| r.decision.reason_str())
        .collect();
    assert_eq!(reasons, ["misdirected_request", "succeeded"]);
    assert_eq!(accepted.load(Ordering::SeqCst), 2);

    for _ in 0..2 {
        let response = client.execute(post(), CallOptions::new()).unwrap();
        assert_eq!(attempts_of(&response).len(), 1);
    }
    assert_eq!(accepted.load(Ordering::SeqCst), 2);
}

#[test]
fn a_connection_that_answered_421_is_not_reused_by_the_next_call() {
    use std::sync::atomic::Ordering;
    const MISDIRECTED: &[u8] = b"HTTP/1.1 421 Misdirected Request\r\ncontent-length: 0\r\n\r\n";
    let (listener, addr) = listen();
    let accepted = first_connection_answers(listener, MISDIRECTED);
    // One attempt per call: the 421 ends the first call, no retry runs.
    let client = ClientBuilder::new()
        .policy(
            evident_core::RetryPolicy::builder()
                .max_attempts(1)
                .build()
                .unwrap(),
        )
        .clock(std::sync::Arc::new(ManualClock::new()))
        .build_blocking(UreqEngine::builder().build().unwrap())
        .unwrap();
    let get = || {
        http::Request::get(format!("http://{addr}/"))
            .body(Body::Empty)
            .unwrap()
    };
    let response = client.execute(get(), CallOptions::new()).unwrap();
    assert_eq!(response.status(), 421);
    let response = client.execute(get(), CallOptions::new()).unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(accepted.load(Ordering::SeqCst), 2);
}
