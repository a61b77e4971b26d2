//! A server may answer before it has read the whole request, then reset
//! the connection (RFC 9112 §9.6): the answer is the attempt's outcome.
//!
//! Without the adapter's relay in between, curl often lost it: its next
//! write of the body failed (curl error 55) before it read the answer, and
//! over TLS its rustls backend dropped an answer it had already decrypted
//! when the connection's end came in the same read (curl error 56). These
//! rounds put the answer and the reset as close together as a server can,
//! on a new connection and on a reused one (a slot), in plaintext and over
//! TLS, and require the answer every time.

mod support;

use bytes::Bytes;
use evident_core::{AttemptBody, AttemptContext, HostOverrides};
use evident_isahc::IsahcEngine;
use support::*;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite};
use tokio::net::TcpStream;

/// Rounds per case: each is one connection and one attempt, a few
/// milliseconds on loopback.
const ROUNDS: usize = 20;

/// Body bytes the server reads before it answers.
const READ_BEFORE_ANSWER: usize = 64 * 1024;

/// Far more than the socket buffers hold: curl is still writing when the
/// answer and the reset arrive.
const BODY_BYTES: usize = 4 << 20;

const TOO_LARGE: &[u8] =
    b"HTTP/1.1 413 Content Too Large\r\nContent-Length: 8\r\nConnection: close\r\n\r\ntoo big!";

fn engine() -> IsahcEngine {
    IsahcEngine::builder()
        .root_certificates(vec![Pki::get().trusted_ca_der.clone()])
        .host_overrides(HostOverrides::new())
        .build()
        .unwrap()
}

/// Reads the head and [`READ_BEFORE_ANSWER`] body bytes, answers 413, and
/// hands the stream back for the reset.
async fn answer_early<S: AsyncRead + AsyncWrite + Unpin>(stream: S) -> S {
    let mut conn = RequestReader::new(stream);
    conn.next_head().await.expect("a request head");
    let mut body = vec![0; READ_BEFORE_ANSWER];
    conn.stream.read_exact(&mut body).await.unwrap();
    conn.respond(TOO_LARGE).await;
    conn.stream
}

/// Resets `tcp`: an RST, with curl's unread body still in the buffer. The
/// servers turn Nagle off, as real ones do: otherwise the answer, a small
/// segment behind unacknowledged ones, could still be held back when the
/// reset discards it, and no client could see it.
fn reset(tcp: &TcpStream) {
    tcp.set_zero_linger().unwrap();
}

async fn rounds(url: String, attempt: fn() -> AttemptContext) {
    let engine = engine();
    let body = Bytes::from(vec![b'x'; BODY_BYTES]);
    for round in 0..ROUNDS {
        let request = http::Request::post(&url)
            .body(AttemptBody::Full(Some(body.clone())))
            .unwrap();
        let (status, answer) = fetch(&engine, request, &attempt())
            .await
            .unwrap_or_else(|e| panic!("round {round}: the answer was lost: {e:?}"));
        assert_eq!(status, 413, "round {round}");
        assert_eq!(&answer[..], b"too big!", "round {round}");
    }
}

async fn plaintext(attempt: fn() -> AttemptContext) {
    let (listener, addr) = listen().await;
    serve(listener, ROUNDS, |_, conn| async move {
        conn.stream.set_nodelay(true).unwrap();
        let tcp = answer_early(conn.stream).await;
        reset(&tcp);
    });
    rounds(format!("http://{addr}/"), attempt).await;
}

async fn over_tls(attempt: fn() -> AttemptContext) {
    let (listener, addr) = listen().await;
    let acceptor = Pki::get().acceptor(true, &[b"http/1.1"]);
    tokio::spawn(async move {
        for _ in 0..ROUNDS {
            let tls = accept_tls(&listener, &acceptor).await;
            tls.get_ref().0.set_nodelay(true).unwrap();
            tokio::spawn(async move {
                let tls = answer_early(tls).await;
                // No close_notify: the answer's record, then the reset.
                reset(tls.get_ref().0);
            });
        }
    });
    rounds(format!("https://localhost:{}/", addr.port()), attempt).await;
}

#[tokio::test]
async fn an_early_answer_then_a_reset_is_the_answer_on_a_new_connection() {
    plaintext(attempt).await;
}

#[tokio::test]
async fn an_early_answer_then_a_reset_is_the_answer_on_a_slot() {
    plaintext(repeatable).await;
}

#[tokio::test]
async fn an_early_answer_then_a_reset_over_tls_is_the_answer_on_a_new_connection() {
    over_tls(attempt).await;
}

#[tokio::test]
async fn an_early_answer_then_a_reset_over_tls_is_the_answer_on_a_slot() {
    over_tls(repeatable).await;
}
