//! libcurl's hidden re-send over a reused, stale keep-alive connection
//! (`Curl_retry_request`, transfer.c in curl 8.22), reproduced with raw
//! isahc, and shown impossible through the adapter. The server's ledger
//! counts executions where they happen.
//!
//! The server answers the first request on a connection and keeps it
//! alive; a second request on the same connection is executed and the
//! connection closed without an answer — a keep-alive race a server can
//! always lose. curl skips its liveness check on a connection it checked
//! less than a second ago, so the second request goes out on it.

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use evident_core::{AttemptBody, EngineSignal, ExecutionEvidence};
use evident_isahc::IsahcEngine;
use evident_isahc::isahc::config::Configurable;
use evident_isahc::isahc::{self, AsyncReadResponseExt, ResponseExt};
use support::*;

/// Starts the server; returns its address and how many POSTs it executed.
async fn stale_keep_alive_server() -> (std::net::SocketAddr, Ledger) {
    let (listener, addr) = listen().await;
    let posts = Ledger::default();
    let server = posts.clone();
    let connections = Arc::new(AtomicUsize::new(0));
    serve(listener, 4, move |_, mut conn| {
        let posts = server.clone();
        let _ = connections.fetch_add(1, Ordering::SeqCst);
        async move {
            let mut on_this_connection = 0;
            while let Some(request) = conn.next_request().await {
                on_this_connection += 1;
                if request.starts_with(b"POST") {
                    posts.execute();
                }
                if on_this_connection == 1 {
                    conn.respond(OK_HELLO).await;
                } else {
                    // Executed, then closed unanswered.
                    return;
                }
            }
        }
    });
    (addr, posts)
}

#[tokio::test]
async fn raw_isahc_executes_a_post_twice_on_a_stale_reused_connection() {
    let (addr, posts) = stale_keep_alive_server().await;
    let client = isahc::HttpClient::builder().metrics(true).build().unwrap();
    let mut first = client
        .get_async(format!("http://{addr}/warm-up"))
        .await
        .unwrap();
    first.consume().await.unwrap();
    let mut second = client
        .send_async(
            http::Request::post(format!("http://{addr}/pay"))
                .body(isahc::AsyncBody::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    second.consume().await.unwrap();
    assert_eq!(second.status(), 200, "the caller sees one success");
    assert_eq!(posts.executions(), 2, "the server executed the POST twice");
    let redirect_time = second.metrics().unwrap().redirect_time();
    assert!(
        !redirect_time.is_zero(),
        "with redirects off, curl's redirect timer is the only trace of the re-send"
    );
}

#[tokio::test]
async fn through_the_adapter_the_post_is_executed_once() {
    let (addr, posts) = stale_keep_alive_server().await;
    let engine = IsahcEngine::builder().build().unwrap();
    let warm_up = http::Request::get(format!("http://{addr}/warm-up"))
        .body(AttemptBody::Empty)
        .unwrap();
    fetch(&engine, warm_up, &attempt()).await.unwrap();
    let pay = http::Request::post(format!("http://{addr}/pay"))
        .body(AttemptBody::Empty)
        .unwrap();
    let (status, _) = fetch(&engine, pay, &attempt()).await.unwrap();
    assert_eq!(status, 200, "a fresh connection answers the POST");
    assert_eq!(posts.executions(), 1);
}

/// Serves every connection, answering every request; returns how many
/// connections it accepted.
async fn keep_alive_server() -> (std::net::SocketAddr, Ledger) {
    let (listener, addr) = listen().await;
    let connections = Ledger::default();
    let counted = connections.clone();
    serve(listener, 16, move |_, mut conn| {
        counted.execute();
        async move {
            while conn.next_request().await.is_some() {
                conn.respond(OK_HELLO).await;
            }
        }
    });
    (addr, connections)
}

#[tokio::test]
async fn through_the_adapter_every_attempt_whose_repeat_could_harm_opens_its_own_connection() {
    let (addr, connections) = keep_alive_server().await;
    let engine = IsahcEngine::builder().build().unwrap();
    for _ in 0..3 {
        fetch(&engine, get(&format!("http://{addr}/")), &attempt())
            .await
            .unwrap();
    }
    assert_eq!(connections.executions(), 3);
}

#[tokio::test]
async fn through_the_adapter_repeatable_attempts_share_one_connection() {
    let (addr, connections) = keep_alive_server().await;
    let engine = IsahcEngine::builder().build().unwrap();
    let url = format!("http://{addr}/");
    let mut reused = Vec::new();
    for _ in 0..3 {
        let attempt = repeatable();
        fetch(&engine, get(&url), &attempt).await.unwrap();
        reused.push(attempt.progress().snapshot().connection_reused());
    }
    assert_eq!(connections.executions(), 1);
    assert_eq!(reused, [Some(false), Some(true), Some(true)]);
    // One whose repeat could harm gets its own, and leaves the shared one
    // alone.
    fetch(&engine, get(&url), &attempt()).await.unwrap();
    fetch(&engine, get(&url), &repeatable()).await.unwrap();
    assert_eq!(connections.executions(), 2);
    // Reuse turned off: a connection per attempt, whatever the attempt.
    let (addr, connections) = keep_alive_server().await;
    let engine = IsahcEngine::builder()
        .max_idle_per_origin(0)
        .build()
        .unwrap();
    for _ in 0..2 {
        fetch(&engine, get(&format!("http://{addr}/")), &repeatable())
            .await
            .unwrap();
    }
    assert_eq!(connections.executions(), 2);
}

#[tokio::test]
async fn through_the_adapter_curls_resend_on_a_stale_reused_connection_never_leaves() {
    for body in [
        AttemptBody::Empty,
        AttemptBody::Full(Some(bytes::Bytes::from_static(b"amount=5"))),
    ] {
        let (addr, posts) = stale_keep_alive_server().await;
        let engine = IsahcEngine::builder().build().unwrap();
        let warm_up = http::Request::get(format!("http://{addr}/warm-up"))
            .body(AttemptBody::Empty)
            .unwrap();
        fetch(&engine, warm_up, &repeatable()).await.unwrap();
        // Declared idempotent: it runs on the warm connection, which the
        // server closes after executing it. curl sends it again on a new
        // connection (or, with a body it cannot rewind, gives up); the
        // slot refuses that connection, so the server executes it once,
        // and the attempt says what happened to it.
        let pay = http::Request::post(format!("http://{addr}/pay"))
            .body(body)
            .unwrap();
        let attempt = repeatable();
        let failure = fetch(&engine, pay, &attempt).await.unwrap_err();
        assert_eq!(posts.executions(), 1, "executed once, not re-sent");
        assert_eq!(failure.signal(), EngineSignal::ConnectionClosed);
        let judged = judged(&failure, &attempt);
        assert_eq!(judged.evidence(), ExecutionEvidence::SentNoResponse);
        assert_eq!(
            attempt.progress().snapshot().connection_reused(),
            Some(true)
        );
        // The core's retry, as an attempt of its own, gets a new connection.
        let again = http::Request::post(format!("http://{addr}/pay"))
            .body(AttemptBody::Empty)
            .unwrap();
        let (status, _) = fetch(&engine, again, &repeatable()).await.unwrap();
        assert_eq!(status, 200);
        assert_eq!(posts.executions(), 2);
    }
}

/// A server that answers 417 to a request head carrying `Expect:
/// 100-continue` (without reading its body) and executes any other request.
/// Returns its address, the request heads it saw and its executions.
async fn expectation_failing_server() -> (std::net::SocketAddr, Ledger, Ledger) {
    let (listener, addr) = listen().await;
    let (heads, executions) = (Ledger::default(), Ledger::default());
    let (seen, done) = (heads.clone(), executions.clone());
    serve(listener, 4, move |_, mut conn| {
        let (heads, executions) = (seen.clone(), done.clone());
        async move {
            while let Some(head) = conn.next_head().await {
                heads.execute();
                if String::from_utf8_lossy(&head)
                    .to_ascii_lowercase()
                    .contains("\r\nexpect: 100-continue\r\n")
                {
                    // Refused before the body: the connection stays usable.
                    conn.respond(b"HTTP/1.1 417 Expectation Failed\r\ncontent-length: 0\r\n\r\n")
                        .await;
                    continue;
                }
                conn.rest_of_request(&head).await;
                executions.execute();
                conn.respond(OK_HELLO).await;
            }
        }
    });
    (addr, heads, executions)
}

#[tokio::test]
async fn raw_isahc_sends_a_request_again_after_a_417_to_its_expect_header() {
    let (addr, heads, executions) = expectation_failing_server().await;
    let client = isahc::HttpClient::new().unwrap();
    let request = http::Request::post(format!("http://{addr}/pay"))
        .header("expect", "100-continue")
        .body(isahc::AsyncBody::from_bytes_static(b"amount=5"))
        .unwrap();
    // curl 8.22 keeps the caller's header on its second send, so every send
    // meets another 417, until the server stops accepting connections.
    let outcome = client.send_async(request).await;
    assert!(
        heads.executions() >= 2,
        "curl sent the request {} time(s)",
        heads.executions()
    );
    assert_eq!(executions.executions(), 0);
    assert!(outcome.is_err());
}

#[tokio::test]
async fn through_the_adapter_a_callers_expect_header_is_not_sent_so_there_is_no_417_resend() {
    let (addr, heads, executions) = expectation_failing_server().await;
    let engine = IsahcEngine::builder().build().unwrap();
    let request = http::Request::post(format!("http://{addr}/pay"))
        .header("expect", "100-continue")
        .body(AttemptBody::Full(Some(bytes::Bytes::from_static(
            b"amount=5",
        ))))
        .unwrap();
    let (status, _) = fetch(&engine, request, &attempt()).await.unwrap();
    assert_eq!(status, 200);
    assert_eq!(
        heads.executions(),
        1,
        "one request head, no hidden second send"
    );
    assert_eq!(executions.executions(), 1);
}
