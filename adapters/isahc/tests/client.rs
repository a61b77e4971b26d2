//! The isahc engine under evident's async client, end to end: the retry
//! decisions come from the evidence this engine records, and the server's
//! ledger shows how often each request was executed.

mod support;

use std::time::Duration;

use evident_core::client::{Body, CallOptions, ClientBuilder, attempts_of};
use evident_core::{AttemptStage, ExecutionEvidence, FailureCategory};
use evident_isahc::IsahcEngine;
use support::*;

/// A server that executes every request, closes the first connection
/// without an answer and answers on the later ones.
async fn close_first_then_answer() -> (std::net::SocketAddr, Ledger) {
    let (listener, addr) = listen().await;
    let ledger = Ledger::default();
    let counted = ledger.clone();
    serve(listener, 3, move |index, mut conn| {
        let ledger = counted.clone();
        async move {
            while conn.next_request().await.is_some() {
                ledger.execute();
                if index == 0 {
                    return;
                }
                conn.respond(OK_HELLO).await;
            }
        }
    });
    (addr, ledger)
}

fn client() -> evident_core::client::Client<IsahcEngine> {
    ClientBuilder::new()
        .attempt_timeout(Duration::from_secs(5))
        .build(IsahcEngine::builder().build().unwrap())
        .unwrap()
}

#[tokio::test]
async fn a_post_whose_connection_closed_after_the_request_is_executed_once() {
    let (addr, ledger) = close_first_then_answer().await;
    let request = http::Request::post(format!("http://{addr}/pay"))
        .body(Body::Full("amount=1".into()))
        .unwrap();
    let error = client()
        .execute(request, CallOptions::new())
        .await
        .unwrap_err();
    let records = error.attempts();
    assert_eq!(records.len(), 1, "ambiguous and not idempotent: no retry");
    assert_eq!(records[0].stage, Some(AttemptStage::AwaitHead));
    assert_eq!(records[0].category, Some(FailureCategory::ConnectionClosed));
    assert_eq!(records[0].evidence, Some(ExecutionEvidence::SentNoResponse));
    assert_eq!(ledger.executions(), 1);
}

#[tokio::test]
async fn a_declared_idempotent_get_is_retried_on_a_new_connection() {
    let (addr, ledger) = close_first_then_answer().await;
    let request = http::Request::get(format!("http://{addr}/report"))
        .body(Body::Empty)
        .unwrap();
    let response = client()
        .execute(request, CallOptions::new().idempotent())
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(&response.body()[..], b"hello");
    let records = attempts_of(&response);
    assert_eq!(records.len(), 2);
    assert_eq!(records[0].evidence, Some(ExecutionEvidence::SentNoResponse));
    assert_eq!(records[1].status, Some(200));
    assert_eq!(ledger.executions(), 2, "executed once per recorded attempt");
}

#[tokio::test]
async fn a_refused_post_is_retried_and_every_attempt_recorded_not_sent() {
    let addr = refusing_addr().await;
    let request = http::Request::post(format!("http://{addr}/pay"))
        .body(Body::Full("amount=1".into()))
        .unwrap();
    let error = client()
        .execute(request, CallOptions::new())
        .await
        .unwrap_err();
    let records = error.attempts();
    assert!(records.len() > 1, "a refusal proves nothing was sent");
    for record in records {
        assert_eq!(record.stage, Some(AttemptStage::Connect));
        assert_eq!(record.evidence, Some(ExecutionEvidence::NotSent));
    }
}
