//! Tiny loopback servers and helpers for the engine's behaviour tests.
//!
//! The servers and helpers every async engine's tests use come from
//! evident-test-support, re-exported here; this module adds the ones only
//! isahc's tests use.
#![allow(dead_code)]

use std::sync::Arc;

use evident_core::{AttemptContext, EngineFailure, Progress, TransportFailure};
pub use evident_test_support::*;
use tokio::net::{TcpListener, TcpStream};

/// A fresh attempt context whose deadline is `after` from now.
pub fn attempt_within(after: std::time::Duration) -> AttemptContext {
    evident_core::testing::attempt_context(Progress::new(), Some(std::time::Instant::now() + after))
}

/// A fresh attempt context for an operation declared idempotent: one the
/// engine may run on a reused connection.
pub fn repeatable() -> AttemptContext {
    evident_core::testing::repeatable_attempt_context(Progress::new(), None)
}

/// What the core makes of a failed attempt: the shared classification of the
/// engine's signal at the attempt's progress.
pub fn judged(failure: &EngineFailure, attempt: &AttemptContext) -> TransportFailure {
    evident_core::classify(failure.signal(), &attempt.progress().snapshot())
}

/// How many requests a server executed, counted where it happens.
#[derive(Debug, Clone, Default)]
pub struct Ledger(Arc<std::sync::atomic::AtomicUsize>);

impl Ledger {
    pub fn execute(&self) {
        self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }

    pub fn executions(&self) -> usize {
        self.0.load(std::sync::atomic::Ordering::SeqCst)
    }
}

/// Serves at most `connections` connections on `listener`, each handled by
/// `handle(index, reader)` in its own task.
pub fn serve<F, Fut>(listener: TcpListener, connections: usize, handle: F)
where
    F: Fn(usize, RequestReader<TcpStream>) -> Fut + Send + Sync + 'static,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    tokio::spawn(async move {
        for index in 0..connections {
            let Ok((tcp, _)) = listener.accept().await else {
                return;
            };
            tokio::spawn(handle(index, RequestReader::new(tcp)));
        }
    });
}

/// A TLS server on `listener` (the trusted certificate, HTTP/1.1) that
/// answers one request with [`OK_HELLO`], then holds the connection until
/// the client, which never reuses it, closes it.
pub fn answer_once_over_tls(listener: TcpListener) {
    let acceptor = Pki::get().acceptor(true, &[b"http/1.1"]);
    tokio::spawn(async move {
        let tls = accept_tls(&listener, &acceptor).await;
        let mut conn = RequestReader::new(tls);
        conn.next_request().await.unwrap();
        conn.respond(OK_HELLO).await;
        assert!(conn.next_request().await.is_none());
    });
}
