//! A sealed attempt writes nothing. The core seals an attempt it gave up
//! on (timed out, failed) and classifies it from the progress at the seal;
//! a request that reaches a connection afterwards must not leave, or the
//! record's "not sent" is false.
//!
//! The hand-over can come after the seal: with a pooled connection no hook
//! runs, and hyper's connection task may take the request from its queue
//! just before the core drops it. These tests seal first and then hand
//! the request over, the latest such a hand-over can be.

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use evident_core::{AttemptBody, AttemptStage, Engine, EngineSignal, ExecutionEvidence as E};
use support::reload;
use support::*;
use tokio::io::AsyncReadExt;

/// How long a sealed send, or the server's last connection after the
/// engine is dropped, may take: only bounds a hang.
const LIMIT: Duration = Duration::from_secs(5);

/// What a server that never answers received.
#[derive(Default)]
struct Received {
    bytes: AtomicUsize,
    open: AtomicUsize,
    ended: tokio::sync::Notify,
}

/// An HTTP/1.1 server that counts every byte it receives on any
/// connection, and never answers.
async fn counting_server() -> (std::net::SocketAddr, Arc<Received>) {
    let (listener, addr) = listen().await;
    let received = Arc::new(Received::default());
    let count = received.clone();
    tokio::spawn(async move {
        while let Ok((mut tcp, _)) = listener.accept().await {
            let count = count.clone();
            count.open.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(async move {
                let mut buf = [0u8; 4096];
                while let Ok(n) = tcp.read(&mut buf).await {
                    if n == 0 {
                        break;
                    }
                    count.bytes.fetch_add(n, Ordering::SeqCst);
                }
                count.open.fetch_sub(1, Ordering::SeqCst);
                count.ended.notify_waiters();
            });
        }
    });
    (addr, received)
}

async fn sealed_send_writes_nothing(request: http::Request<AttemptBody>, received: &Received) {
    let attempt = attempt();
    // Where the engine is when no hook has run: an IP literal's connect.
    attempt.progress().enter(AttemptStage::Connect);
    let snapshot = attempt.progress().seal();
    // The record is made at the seal, before the hand-over: not sent.
    let judged = evident_core::classify(EngineSignal::TimedOut, &snapshot);
    assert_eq!(judged.evidence(), E::NotSent);

    let engine = ReqwestEngine::builder().build().unwrap();
    // A request that was not written cannot be answered: the send fails,
    // or (if hyper wrote it) waits for an answer that never comes.
    let sent = tokio::time::timeout(LIMIT, engine.send(request, &attempt)).await;
    assert!(!matches!(sent, Ok(Ok(_))), "a sealed attempt was answered");
    drop(engine);
    // Once the engine is gone its connections are closed; the server has
    // counted every byte when it has seen them end.
    tokio::time::timeout(LIMIT, async {
        loop {
            let ended = received.ended.notified();
            if received.open.load(Ordering::SeqCst) == 0 {
                return;
            }
            ended.await;
        }
    })
    .await
    .expect("the connections end with the engine");
    assert_eq!(
        received.bytes.load(Ordering::SeqCst),
        0,
        "the sealed request reached the server while its record says not sent"
    );
}

#[tokio::test]
async fn a_sealed_get_is_not_written() {
    let (addr, received) = counting_server().await;
    sealed_send_writes_nothing(get(&format!("http://{addr}/")), &received).await;
}

#[tokio::test]
async fn a_sealed_post_with_an_empty_body_is_not_written() {
    let (addr, received) = counting_server().await;
    let request = http::Request::post(format!("http://{addr}/"))
        .body(AttemptBody::Empty)
        .unwrap();
    sealed_send_writes_nothing(request, &received).await;
}

#[tokio::test]
async fn a_sealed_post_with_a_body_is_not_written() {
    let (addr, received) = counting_server().await;
    sealed_send_writes_nothing(post(&format!("http://{addr}/"), "hello"), &received).await;
}

/// On HTTP/2 the seal cannot hold: hyper sends the HEADERS right after it
/// asks the body whether it has ended, before pulling the frame that would
/// fail. So the core's timeout never proves such an attempt unsent from
/// its stage; a refusal the engine itself met still does.
#[tokio::test]
async fn a_sealed_request_over_http2_is_never_claimed_unsent_by_a_timeout() {
    let (addr, _ledger) = reload::serve(usize::MAX).await;
    let engine = ReqwestEngine::builder()
        .http2_prior_knowledge()
        .build()
        .unwrap();
    let attempt = attempt();
    attempt.progress().enter(AttemptStage::Connect);
    // The core's timer fired: it abandons the attempt while the engine
    // still holds the request.
    attempt.progress().abandon();
    let sent = tokio::time::timeout(
        LIMIT,
        engine.send(get(&format!("http://{addr}/")), &attempt),
    );
    let _ = sent.await;
    let snapshot = attempt.progress().snapshot();
    assert!(!snapshot.seal_holds());
    let timed_out = evident_core::classify(EngineSignal::TimedOut, &snapshot);
    assert_eq!(timed_out.evidence(), E::SentNoResponse);
    let refused = evident_core::classify(EngineSignal::ConnectionRefused, &snapshot);
    assert_eq!(refused.evidence(), E::NotSent);
}

/// Over HTTP/1.1 (`http://` without prior knowledge) the seal holds, and
/// the stage still proves a timed-out attempt unsent.
#[tokio::test]
async fn over_http1_the_seal_holds() {
    let (addr, _received) = counting_server().await;
    let attempt = attempt();
    attempt.progress().enter(AttemptStage::Connect);
    attempt.progress().seal();
    let engine = ReqwestEngine::builder().build().unwrap();
    let _ = tokio::time::timeout(
        LIMIT,
        engine.send(get(&format!("http://{addr}/")), &attempt),
    )
    .await;
    let snapshot = attempt.progress().snapshot();
    assert!(snapshot.seal_holds());
    assert_eq!(
        evident_core::classify(EngineSignal::TimedOut, &snapshot).evidence(),
        E::NotSent
    );
}
