//! HTTP/2 by prior knowledge: stream ids, resets, GOAWAY, sharing.

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use evident_core::{
    AttemptStage, Engine, EngineSignal, ExecutionEvidence, FailureCategory, GoAwayScope, classify,
};
use evident_hyper::HyperEngine;
use support::*;
use tokio::io::AsyncWriteExt;

fn h2_engine() -> HyperEngine {
    HyperEngine::builder()
        .http2_prior_knowledge()
        .build()
        .unwrap()
}

/// An h2 server answering every request on every connection with `reply`;
/// counts connections.
async fn h2_server(reply: H2Reply) -> (std::net::SocketAddr, Arc<AtomicUsize>) {
    let (listener, addr) = listen().await;
    let accepted = Arc::new(AtomicUsize::new(0));
    let count = accepted.clone();
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            count.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(serve_h2(tcp, reply));
        }
    });
    (addr, accepted)
}

#[tokio::test]
async fn a_200_by_prior_knowledge_shares_one_connection_across_requests() {
    let (addr, accepted) = h2_server(H2Reply::Hello).await;
    let engine = h2_engine();
    let url = format!("http://{addr}/");

    let first = attempt();
    let (status, body) = fetch(&engine, post(&url, "hello"), &first).await.unwrap();
    assert_eq!((status.as_u16(), &body[..]), (200, &b"hello"[..]));
    let seen = first.progress().snapshot();
    assert_eq!(seen.stream_id(), Some(1));
    assert_eq!(seen.connection_reused(), Some(false));
    assert!(seen.head_written() && seen.body_written() && seen.head_received());
    assert_eq!(seen.bytes_written(), 5, "DATA payload handed to h2");

    let second = attempt();
    fetch(&engine, get(&url), &second).await.unwrap();
    let seen = second.progress().snapshot();
    assert_eq!(seen.stream_id(), Some(3));
    assert_eq!(seen.connection_reused(), Some(true));
    assert_eq!(accepted.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn refused_stream_is_http2_refused_stream_with_the_stream_id() {
    let (addr, _) = h2_server(H2Reply::Reset(h2::Reason::REFUSED_STREAM)).await;
    let attempt = attempt();
    let failure = h2_engine()
        .send(post(&format!("http://{addr}/"), "hello"), &attempt)
        .await
        .unwrap_err();
    assert_eq!(
        failure.signal(),
        EngineSignal::Http2RefusedStream,
        "{failure}"
    );
    let seen = attempt.progress().snapshot();
    assert_eq!(seen.stream_id(), Some(1));
    assert!(seen.head_written());
    let verdict = classify(failure.signal(), &seen);
    assert_eq!(verdict.evidence(), ExecutionEvidence::NotProcessed);
    assert_eq!(verdict.category(), FailureCategory::StreamRefused);
}

#[tokio::test]
async fn an_internal_error_reset_is_a_bare_stream_reset_and_proves_nothing() {
    let (addr, _) = h2_server(H2Reply::Reset(h2::Reason::INTERNAL_ERROR)).await;
    let attempt = attempt();
    let failure = h2_engine()
        .send(get(&format!("http://{addr}/")), &attempt)
        .await
        .unwrap_err();
    assert_eq!(
        failure.signal(),
        EngineSignal::Http2StreamReset { reason: 2 },
        "{failure}"
    );
    let seen = attempt.progress().snapshot();
    assert_eq!(seen.stream_id(), Some(1));
    let verdict = classify(failure.signal(), &seen);
    assert_eq!(verdict.evidence(), ExecutionEvidence::SentNoResponse);
    assert_eq!(verdict.category(), FailureCategory::StreamReset);
}

#[tokio::test]
async fn a_stream_above_the_goaway_last_stream_id_is_excluded() {
    let (listener, addr) = listen().await;
    tokio::spawn(async move {
        let (mut tcp, _) = listener.accept().await.unwrap();
        let stream = frames::until_first_headers(&mut tcp).await;
        assert_eq!(stream, 1);
        // Graceful GOAWAY that processed nothing: stream 1 is above 0.
        tcp.write_all(&frames::goaway(0, 0)).await.unwrap();
        let mut sink = Vec::new();
        let _ = tokio::io::AsyncReadExt::read_to_end(&mut tcp, &mut sink).await;
    });
    let attempt = attempt();
    let failure = h2_engine()
        .send(get(&format!("http://{addr}/")), &attempt)
        .await
        .unwrap_err();
    assert_eq!(
        failure.signal(),
        EngineSignal::Http2GoAway(GoAwayScope::StreamExcluded),
        "{failure}"
    );
    let verdict = classify(failure.signal(), &attempt.progress().snapshot());
    assert_eq!(verdict.evidence(), ExecutionEvidence::NotProcessed);
    assert_eq!(verdict.category(), FailureCategory::GoAway);
}

#[tokio::test]
async fn a_stream_covered_by_a_goaway_whose_connection_then_closes_is_ambiguous() {
    let (listener, addr) = listen().await;
    tokio::spawn(async move {
        let (mut tcp, _) = listener.accept().await.unwrap();
        let stream = frames::until_first_headers(&mut tcp).await;
        // Stream 1 is covered (the server may have processed it)...
        tcp.write_all(&frames::goaway(stream, 0)).await.unwrap();
        // ...and then the connection is gone without an answer.
        drop(tcp);
    });
    let attempt = attempt();
    let failure = h2_engine()
        .send(get(&format!("http://{addr}/")), &attempt)
        .await
        .unwrap_err();
    assert_eq!(
        failure.signal(),
        EngineSignal::Http2GoAway(GoAwayScope::StreamCovered),
        "{failure}"
    );
    let verdict = classify(failure.signal(), &attempt.progress().snapshot());
    assert_eq!(verdict.evidence(), ExecutionEvidence::SentNoResponse);
    assert_eq!(verdict.stage(), AttemptStage::AwaitHead);
}

#[tokio::test]
async fn a_connection_that_received_a_goaway_is_not_used_again() {
    let (listener, addr) = listen().await;
    let accepted = Arc::new(AtomicUsize::new(0));
    let count = accepted.clone();
    tokio::spawn(async move {
        // First connection: answer stream 1 (`:status 200`, HPACK static
        // index 8) and, in the same write, GOAWAY with last-stream-id 1.
        let (mut tcp, _) = listener.accept().await.unwrap();
        count.fetch_add(1, Ordering::SeqCst);
        let stream = frames::until_first_headers(&mut tcp).await;
        let mut reply = frames::frame(frames::HEADERS, 0x1 | 0x4, stream, &[0x88]);
        reply.extend(frames::goaway(stream, 0));
        tcp.write_all(&reply).await.unwrap();
        tokio::spawn(async move {
            let mut sink = Vec::new();
            let _ = tokio::io::AsyncReadExt::read_to_end(&mut tcp, &mut sink).await;
        });
        while let Ok((tcp, _)) = listener.accept().await {
            count.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(serve_h2(tcp, H2Reply::Hello));
        }
    });
    let engine = h2_engine();
    let url = format!("http://{addr}/");
    let (status, _) = fetch(&engine, get(&url), &attempt()).await.unwrap();
    assert_eq!(status.as_u16(), 200);

    let second = attempt();
    fetch(&engine, get(&url), &second).await.unwrap();
    let seen = second.progress().snapshot();
    assert_eq!(seen.connection_reused(), Some(false));
    assert_eq!(seen.stream_id(), Some(1));
    assert_eq!(accepted.load(Ordering::SeqCst), 2);
}

/// After a 421 the core asks for a new connection; on HTTP/2 the new
/// connection also replaces the shared one for later requests.
#[tokio::test]
async fn an_attempt_that_requires_a_fresh_connection_opens_a_new_http2_connection() {
    let (addr, accepted) = h2_server(H2Reply::Hello).await;
    let engine = h2_engine();
    let url = format!("http://{addr}/");

    fetch(&engine, get(&url), &attempt()).await.unwrap();
    let fresh = evident_core::testing::fresh_connection_attempt_context(
        evident_core::Progress::new(),
        None,
    );
    fetch(&engine, get(&url), &fresh).await.unwrap();
    let seen = fresh.progress().snapshot();
    assert_eq!(seen.connection_reused(), Some(false));
    assert_eq!(
        seen.stream_id(),
        Some(1),
        "the first stream of a new connection"
    );
    assert_eq!(accepted.load(Ordering::SeqCst), 2);

    let later = attempt();
    fetch(&engine, get(&url), &later).await.unwrap();
    let seen = later.progress().snapshot();
    assert_eq!(seen.connection_reused(), Some(true));
    assert_eq!(
        seen.stream_id(),
        Some(3),
        "the new connection is the shared one"
    );
    assert_eq!(accepted.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn a_shared_http2_connection_that_answered_421_is_shared_no_more() {
    let (listener, addr) = listen().await;
    let accepted = Arc::new(AtomicUsize::new(0));
    let count = accepted.clone();
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let reply = if count.fetch_add(1, Ordering::SeqCst) == 0 {
                H2Reply::Status(421)
            } else {
                H2Reply::Hello
            };
            tokio::spawn(serve_h2(tcp, reply));
        }
    });
    let engine = h2_engine();
    let url = format!("http://{addr}/");
    let (status, _) = fetch(&engine, get(&url), &attempt()).await.unwrap();
    assert_eq!(status, 421);
    let next = attempt();
    let (status, _) = fetch(&engine, get(&url), &next).await.unwrap();
    assert_eq!(status, 200);
    assert_eq!(next.progress().snapshot().connection_reused(), Some(false));
    assert_eq!(accepted.load(Ordering::SeqCst), 2);
}
