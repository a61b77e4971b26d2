//! The ureq engine over plain HTTP/1.1: progress, failures and what the
//! core concludes from them.

mod support;

use std::io::{self, Read, Write};
use std::time::{Duration, Instant};

use bytes::Bytes;
use evident_core::{
    AttemptStage, BlockingAttemptBody, EngineSignal, ExecutionEvidence, FailureCategory, classify,
};
use evident_ureq::UreqEngine;
use support::*;

fn engine() -> UreqEngine {
    UreqEngine::builder().build().unwrap()
}

#[test]
fn a_200_records_exact_progress_on_a_fresh_connection() {
    let (listener, addr) = listen();
    let requests = serve(listener, 1, None, |conn, seen| {
        conn.next_reported(seen);
        conn.reply(OK_HELLO);
    });
    let attempt = attempt();
    let (status, body) = fetch(
        &engine(),
        post(&format!("http://{addr}/x"), "ping"),
        &attempt,
    )
    .expect("a 200");
    assert_eq!(status, 200);
    assert_eq!(&body[..], b"hello");

    let sent = next(&requests);
    assert!(sent.ends_with(b"\r\n\r\nping"));
    let seen = attempt.progress().snapshot();
    assert!(seen.writes_counted_exactly());
    assert_eq!(
        seen.bytes_written(),
        sent.len() as u64,
        "every byte counted"
    );
    assert!(seen.head_written() && seen.body_written() && seen.head_received());
    assert_eq!(seen.connection_reused(), Some(false));
    assert_eq!(seen.stage(), Some(AttemptStage::ReadBody));
    assert_eq!(seen.bytes_read(), 5);
}

#[test]
fn a_refused_connection_fails_at_connect_and_proves_not_sent() {
    let addr = refusing_addr();
    let attempt = attempt();
    let failure = send_err(&engine(), get(&format!("http://{addr}/")), &attempt);
    assert_eq!(failure.signal(), EngineSignal::ConnectionRefused);
    let seen = attempt.progress().snapshot();
    assert_eq!(seen.stage(), Some(AttemptStage::Connect));
    assert_eq!(seen.bytes_written(), 0);
    let verdict = classify(failure.signal(), &seen);
    assert_eq!(verdict.stage(), AttemptStage::Connect);
    assert_eq!(verdict.category(), FailureCategory::ConnectionRefused);
    assert_eq!(verdict.evidence(), ExecutionEvidence::NotSent);
}

#[test]
fn a_server_closing_after_reading_the_request_is_closed_after_head_and_body() {
    let (listener, addr) = listen();
    let requests = serve(listener, 1, None, |conn, seen| {
        // Read the whole request, then close without answering (FIN).
        conn.next_reported(seen);
    });
    let attempt = attempt();
    let failure = send_err(
        &engine(),
        post(&format!("http://{addr}/pay"), "amount=1"),
        &attempt,
    );
    next(&requests);
    assert_eq!(failure.signal(), EngineSignal::ConnectionClosed);
    let seen = attempt.progress().snapshot();
    assert!(seen.head_written() && seen.body_written());
    let verdict = classify(failure.signal(), &seen);
    assert_eq!(verdict.stage(), AttemptStage::AwaitHead);
    assert_eq!(verdict.category(), FailureCategory::ConnectionClosed);
    assert_eq!(verdict.evidence(), ExecutionEvidence::SentNoResponse);
}

#[test]
fn a_server_that_never_answers_times_out_at_await_head_by_the_deadline() {
    let (listener, addr) = listen();
    let requests = serve(listener, 1, None, |conn, seen| {
        conn.next_reported(seen);
        // Hold the connection open, silent, until the client gives up.
        conn.until_client_closes();
    });
    let started = Instant::now();
    let attempt = attempt_until(started + Duration::from_millis(300));
    let failure = send_err(
        &engine(),
        post(&format!("http://{addr}/slow"), "x"),
        &attempt,
    );
    next(&requests);
    assert_eq!(failure.signal(), EngineSignal::TimedOut);
    assert!(
        started.elapsed() < EVENT_TIMEOUT,
        "the deadline bounded the wait"
    );
    let seen = attempt.progress().snapshot();
    assert_eq!(seen.stage(), Some(AttemptStage::AwaitHead));
    let verdict = classify(failure.signal(), &seen);
    assert_eq!(verdict.category(), FailureCategory::Timeout);
    assert_eq!(verdict.evidence(), ExecutionEvidence::SentNoResponse);
}

#[test]
fn a_second_request_on_a_pooled_connection_is_recorded_as_reused() {
    let (listener, addr) = listen();
    let requests = serve(listener, 1, None, |conn, seen| {
        while conn.next_reported(seen).is_some() {
            conn.reply(OK_HELLO);
        }
    });
    let engine = engine();
    let url = format!("http://{addr}/");
    let first = attempt();
    fetch(&engine, get(&url), &first).unwrap();
    let second = attempt();
    fetch(&engine, get(&url), &second).unwrap();
    next(&requests);
    next(&requests);
    assert_eq!(first.progress().snapshot().connection_reused(), Some(false));
    let seen = second.progress().snapshot();
    assert_eq!(seen.connection_reused(), Some(true));
    assert!(seen.head_written() && seen.body_written() && seen.head_received());
    // Only the second request's bytes count for the second attempt.
    assert_eq!(
        seen.bytes_written(),
        first.progress().snapshot().bytes_written()
    );
}

#[test]
fn a_partial_head_then_close_is_connection_closed() {
    let (listener, addr) = listen();
    let requests = serve(listener, 1, None, |conn, seen| {
        conn.next_reported(seen);
        conn.reply(b"HTTP/1.1 200 OK\r\ncontent-le");
    });
    let attempt = attempt();
    let failure = send_err(&engine(), get(&format!("http://{addr}/")), &attempt);
    next(&requests);
    // ureq waits for the rest of the head, reads EOF, and reports "peer
    // disconnected" (UnexpectedEof), as hyper reports an incomplete message.
    assert_eq!(failure.signal(), EngineSignal::ConnectionClosed);
    let verdict = classify(failure.signal(), &attempt.progress().snapshot());
    assert_eq!(verdict.stage(), AttemptStage::AwaitHead);
    assert_eq!(verdict.evidence(), ExecutionEvidence::SentNoResponse);
}

#[test]
fn a_malformed_status_line_is_a_protocol_violation() {
    let (listener, addr) = listen();
    let requests = serve(listener, 1, None, |conn, seen| {
        conn.next_reported(seen);
        conn.reply(b"HTTP/1.1 abc nonsense\r\n\r\n");
    });
    let failure = send_err(&engine(), get(&format!("http://{addr}/")), &attempt());
    next(&requests);
    assert_eq!(failure.signal(), EngineSignal::Protocol);
}

#[test]
fn a_body_cut_short_is_connection_closed_after_the_response() {
    let (listener, addr) = listen();
    let requests = serve(listener, 1, None, |conn, seen| {
        conn.next_reported(seen);
        conn.reply(b"HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nhel");
    });
    let attempt = attempt();
    let failure = fetch(&engine(), get(&format!("http://{addr}/")), &attempt).unwrap_err();
    next(&requests);
    assert_eq!(failure.signal(), EngineSignal::ConnectionClosed);
    let seen = attempt.progress().snapshot();
    assert_eq!(seen.bytes_read(), 3);
    let verdict = classify(failure.signal(), &seen);
    assert_eq!(verdict.evidence(), ExecutionEvidence::Responded);
}

#[test]
fn statuses_and_redirects_are_answers_never_errors_or_second_requests() {
    let (listener, addr) = listen();
    let requests = serve(listener, 1, None, |conn, seen| {
        while conn.next_reported(seen).is_some() {
            conn.reply(b"HTTP/1.1 302 Found\r\nlocation: /elsewhere\r\ncontent-length: 0\r\n\r\n");
            if conn.next_reported(seen).is_none() {
                return;
            }
            conn.reply(b"HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\n\r\n");
        }
    });
    let engine = engine();
    let url = format!("http://{addr}/");
    let (status, _) = fetch(&engine, post(&url, "once"), &attempt()).unwrap();
    assert_eq!(status, 302);
    let (status, _) = fetch(&engine, get(&url), &attempt()).unwrap();
    assert_eq!(status, 503);
    let first = next(&requests);
    assert!(first.starts_with(b"POST / "));
    let second = next(&requests);
    assert!(
        second.starts_with(b"GET / "),
        "the redirect was not followed"
    );
}

#[test]
fn a_streamed_body_is_sent_chunked_and_counted() {
    let (listener, addr) = listen();
    let requests = serve(listener, 1, None, |conn, seen| {
        conn.next_reported(seen);
        conn.reply(OK_HELLO);
    });
    let request = http::Request::put(format!("http://{addr}/upload"))
        .body(BlockingAttemptBody::Reader(Box::new(io::Cursor::new(
            b"streamed".to_vec(),
        ))))
        .unwrap();
    let attempt = attempt();
    fetch(&engine(), request, &attempt).unwrap();
    let sent = next(&requests);
    assert!(sent.ends_with(b"8\r\nstreamed\r\n0\r\n\r\n"));
    let seen = attempt.progress().snapshot();
    assert_eq!(seen.bytes_written(), sent.len() as u64);
    assert!(seen.body_written());
}

#[test]
fn a_failing_request_body_is_a_request_body_failure_after_the_head() {
    struct Failing(bool);
    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if std::mem::replace(&mut self.0, true) {
                return Err(io::Error::other("the disk is gone"));
            }
            buf[..4].copy_from_slice(b"part");
            Ok(4)
        }
    }
    let (listener, addr) = listen();
    let _requests = serve(listener, 1, None, |conn, _| conn.until_client_closes());
    let request = http::Request::post(format!("http://{addr}/"))
        .body(BlockingAttemptBody::Reader(Box::new(Failing(false))))
        .unwrap();
    let attempt = attempt();
    let failure = send_err(&engine(), request, &attempt);
    assert_eq!(failure.signal(), EngineSignal::RequestBody);
    let seen = attempt.progress().snapshot();
    assert!(seen.head_written() && !seen.body_written());
    let verdict = classify(failure.signal(), &seen);
    assert_eq!(verdict.stage(), AttemptStage::WriteBody);
    assert_eq!(verdict.category(), FailureCategory::RequestBody);
}

#[test]
fn an_attempt_whose_deadline_already_passed_sends_nothing() {
    let addr = refusing_addr();
    let attempt = attempt_until(Instant::now());
    let failure = send_err(&engine(), get(&format!("http://{addr}/")), &attempt);
    assert_eq!(failure.signal(), EngineSignal::TimedOut);
    let verdict = classify(failure.signal(), &attempt.progress().snapshot());
    assert_eq!(verdict.evidence(), ExecutionEvidence::NotSent);
    assert_eq!(verdict.category(), FailureCategory::ConnectTimeout);
}

#[test]
fn an_empty_in_memory_body_is_complete_with_the_head() {
    let (listener, addr) = listen();
    let requests = serve(listener, 1, None, |conn, seen| {
        conn.next_reported(seen);
        conn.reply(OK_HELLO);
    });
    let request = http::Request::post(format!("http://{addr}/"))
        .body(BlockingAttemptBody::Full(Bytes::new()))
        .unwrap();
    let attempt = attempt();
    fetch(&engine(), request, &attempt).unwrap();
    let sent = next(&requests);
    assert_eq!(
        attempt.progress().snapshot().bytes_written(),
        sent.len() as u64
    );
}

#[test]
fn a_stalled_body_times_out_by_the_deadline_after_the_response() {
    let (listener, addr) = listen();
    let requests = serve(listener, 1, None, |conn, seen| {
        conn.next_reported(seen);
        conn.reply(b"HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nhel");
        conn.until_client_closes();
    });
    let attempt = attempt_until(Instant::now() + Duration::from_millis(300));
    let failure = fetch(&engine(), get(&format!("http://{addr}/")), &attempt).unwrap_err();
    next(&requests);
    assert_eq!(failure.signal(), EngineSignal::TimedOut);
    let verdict = classify(failure.signal(), &attempt.progress().snapshot());
    assert_eq!(verdict.stage(), AttemptStage::ReadBody);
    assert_eq!(verdict.evidence(), ExecutionEvidence::Responded);
}

#[test]
fn a_pooled_connection_the_server_closed_is_replaced_before_anything_is_written() {
    let (listener, addr) = listen();
    let (closed, closures) = std::sync::mpsc::channel();
    let requests = serve(listener, 2, None, move |conn, seen| {
        if conn.next_reported(seen).is_some() {
            conn.reply(OK_HELLO);
        }
        // The first connection is closed right after its response.
        conn.close();
        let _ = closed.send(());
    });
    let engine = engine();
    let url = format!("http://{addr}/");
    let first = attempt();
    fetch(&engine, get(&url), &first).unwrap();
    next(&requests);
    next(&closures);
    let second = attempt();
    fetch(&engine, get(&url), &second).unwrap();
    next(&requests);
    // ureq's pool probes an idle connection before lending it and drops a
    // closed one; nothing was written on it, so nothing is re-sent.
    assert_eq!(
        second.progress().snapshot().connection_reused(),
        Some(false)
    );
}

#[test]
fn a_reused_connection_reset_after_the_request_fails_once_and_is_never_resent() {
    let (listener, addr) = listen();
    let requests = serve(listener, 1, None, |conn, seen| {
        conn.next_reported(seen);
        conn.reply(OK_HELLO);
        // Take one byte of the next request and close with the rest unread:
        // the kernel answers with a reset.
        let mut first_byte = [0u8; 1];
        if conn.stream.read(&mut first_byte).is_ok() {
            let _ = seen.send(first_byte.to_vec());
        }
    });
    let engine = engine();
    let url = format!("http://{addr}/");
    fetch(&engine, get(&url), &attempt()).unwrap();
    next(&requests);
    let attempt = attempt();
    let failure = fetch(&engine, post(&url, "again"), &attempt).unwrap_err();
    assert_eq!(next(&requests), b"P");
    assert_eq!(failure.signal(), EngineSignal::ConnectionReset);
    let seen = attempt.progress().snapshot();
    assert_eq!(seen.connection_reused(), Some(true));
    let verdict = classify(failure.signal(), &seen);
    assert_eq!(verdict.evidence(), ExecutionEvidence::SentNoResponse);
    // The server accepts a single connection: a hidden re-send by ureq would
    // have had to open a second one, and failed differently.
}

#[test]
fn with_expect_100_continue_the_body_is_written_after_the_interim_response() {
    let (listener, addr) = listen();
    let requests = serve(listener, 1, None, |conn, seen| {
        // The head alone first: no body is sent before the 100.
        let mut head = Vec::new();
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") && conn.stream.read(&mut byte).is_ok_and(|n| n == 1) {
            head.push(byte[0]);
        }
        let _ = seen.send(head);
        conn.reply(b"HTTP/1.1 100 Continue\r\n\r\n");
        let mut body = [0u8; 4];
        if conn.stream.read_exact(&mut body).is_ok() {
            let _ = seen.send(body.to_vec());
        }
        conn.reply(OK_HELLO);
    });
    let request = http::Request::post(format!("http://{addr}/"))
        .header("expect", "100-continue")
        .body(BlockingAttemptBody::Full(Bytes::from_static(b"data")))
        .unwrap();
    let attempt = attempt();
    let (status, _) = fetch(&engine(), request, &attempt).unwrap();
    assert_eq!(status, 200);
    let head = next(&requests);
    assert_eq!(next(&requests), b"data");
    let seen = attempt.progress().snapshot();
    assert_eq!(seen.bytes_written(), head.len() as u64 + 4);
    assert!(seen.body_written());
}

#[test]
fn a_reset_during_a_close_delimited_body_is_an_error_not_a_short_body() {
    let (listener, addr) = listen();
    let (seen, requests) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let Ok((mut tcp, _)) = listener.accept() else {
            return;
        };
        // Read only the head...
        let mut head = Vec::new();
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") && tcp.read(&mut byte).is_ok_and(|n| n == 1) {
            head.push(byte[0]);
        }
        // ...wait until the body is here, unread, so that closing resets...
        let _ = tcp.peek(&mut byte);
        let _ = seen.send(head);
        // ...and answer with a body that ends when the connection does.
        let _ = tcp.write_all(b"HTTP/1.1 200 OK\r\nconnection: close\r\n\r\nhel");
    });
    let outcome = fetch(
        &engine(),
        post(&format!("http://{addr}/"), "unread body"),
        &attempt(),
    );
    next(&requests);
    // ureq alone would take the reset for the end of the body and return a
    // complete-looking "hel".
    let failure = outcome.expect_err("a reset must not end a body");
    assert_eq!(failure.signal(), EngineSignal::ConnectionReset);
}

#[test]
fn a_large_body_is_counted_exactly_across_many_writes() {
    // Larger than ureq's 128 KiB output buffer: several transmits.
    const SIZE: usize = 300 * 1024;
    let (listener, addr) = listen();
    let requests = serve(listener, 1, None, |conn, seen| {
        conn.next_reported(seen);
        let mut reply = format!("HTTP/1.1 200 OK\r\ncontent-length: {SIZE}\r\n\r\n").into_bytes();
        reply.resize(reply.len() + SIZE, b'r');
        conn.reply(&reply);
    });
    let request = http::Request::put(format!("http://{addr}/big"))
        .body(BlockingAttemptBody::Full(Bytes::from(vec![b'q'; SIZE])))
        .unwrap();
    let attempt = attempt();
    let (status, body) = fetch(&engine(), request, &attempt).unwrap();
    assert_eq!(status, 200);
    assert_eq!(body.len(), SIZE);
    let sent = next(&requests);
    let seen = attempt.progress().snapshot();
    assert_eq!(seen.bytes_written(), sent.len() as u64);
    assert!(seen.head_written() && seen.body_written());
    assert_eq!(seen.bytes_read(), SIZE as u64);
}

/// The engine reads a response body through one buffer sized by the
/// announced length (at most a chunk): bodies longer than a chunk, shorter
/// than one, and without a length must all arrive whole and counted.
#[test]
fn response_bodies_arrive_whole_whatever_their_length_and_framing() {
    let big: Vec<u8> = (0..40_000u32).map(|i| (i % 251) as u8).collect();
    let mut with_length =
        format!("HTTP/1.1 200 OK\r\ncontent-length: {}\r\n\r\n", big.len()).into_bytes();
    with_length.extend_from_slice(&big);
    let mut chunked = b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n".to_vec();
    for part in big.chunks(7_000) {
        chunked.extend_from_slice(format!("{:x}\r\n", part.len()).as_bytes());
        chunked.extend_from_slice(part);
        chunked.extend_from_slice(b"\r\n");
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    let short = b"HTTP/1.1 200 OK\r\ncontent-length: 3\r\n\r\nabc".to_vec();
    let empty = b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n".to_vec();
    let replies = [with_length, chunked, short, empty];
    let (listener, addr) = listen();
    let served = replies.clone();
    let _requests = serve(listener, 1, None, move |conn, seen| {
        for reply in &served {
            conn.next_reported(seen);
            conn.reply(reply);
        }
    });
    let engine = engine();
    let expected: [&[u8]; 4] = [&big, &big, b"abc", b""];
    for want in expected {
        let attempt = attempt();
        let (status, body) =
            fetch(&engine, get(&format!("http://{addr}/")), &attempt).expect("a 200");
        assert_eq!(status, 200);
        assert_eq!(body.len(), want.len());
        assert!(body[..] == *want, "the body arrives unchanged");
        assert_eq!(
            attempt.progress().snapshot().bytes_read(),
            want.len() as u64
        );
    }
}

/// A server that reads the head and the first 64 KiB of the body, sends
/// `answer`, and resets with the rest of the body unread (SO_LINGER 0).
fn answer_early_then_reset(
    answer: &'static [u8],
) -> (std::net::SocketAddr, std::thread::JoinHandle<()>) {
    let (listener, addr) = listen();
    let server = std::thread::spawn(move || {
        let (mut tcp, _) = listener.accept().unwrap();
        tcp.set_nodelay(true).unwrap();
        let mut seen = 0;
        let mut scratch = [0u8; 16 * 1024];
        while seen < 64 * 1024 {
            let n = tcp.read(&mut scratch).unwrap();
            assert!(n > 0, "the client stopped sending");
            seen += n;
        }
        tcp.write_all(answer).unwrap();
        socket2::SockRef::from(&tcp)
            .set_linger(Some(Duration::ZERO))
            .unwrap();
        drop(tcp);
    });
    (addr, server)
}

/// RFC 9112 §9.6: a server may answer before it read the whole request and
/// then reset. ureq writes the whole body before it reads, so the reset
/// failed the write and the answer was never read: the caller was told its
/// upload failed, although the server had answered (and for a 200, acted).
/// The answer sent before the reset is the call's answer.
#[test]
fn an_answer_sent_while_the_body_is_written_is_the_answer_even_after_a_reset() {
    let (addr, server) = answer_early_then_reset(
        b"HTTP/1.1 413 Payload Too Large\r\ncontent-length: 7\r\nconnection: close\r\n\r\ntoo big",
    );
    let body = Bytes::from(vec![0u8; 16 * 1024 * 1024]);
    let request = http::Request::post(format!("http://{addr}/upload"))
        .body(BlockingAttemptBody::Full(body))
        .unwrap();
    let attempt = attempt();
    let (status, answer) = fetch(&engine(), request, &attempt).expect("the early answer");
    server.join().unwrap();
    assert_eq!(status, 413);
    assert_eq!(&answer[..], b"too big");
    let seen = attempt.progress().snapshot();
    assert!(seen.head_received());
    assert!(
        seen.bytes_written() < 16 * 1024 * 1024,
        "the body never left whole"
    );
}

/// The same early answer, cut short: its head declares 100 body bytes, 10
/// come, then the reset. The failed write took the reset, and the socket
/// then reads a plain end; the body's failure is that reset, as on every
/// engine, not a clean close.
#[test]
fn an_early_answer_cut_by_a_reset_fails_its_body_with_the_reset() {
    let (addr, server) = answer_early_then_reset(
        b"HTTP/1.1 200 OK\r\ncontent-length: 100\r\nconnection: close\r\n\r\n0123456789",
    );
    let body = Bytes::from(vec![0u8; 16 * 1024 * 1024]);
    let request = http::Request::post(format!("http://{addr}/upload"))
        .body(BlockingAttemptBody::Full(body))
        .unwrap();
    let attempt = attempt();
    let failure = fetch(&engine(), request, &attempt).expect_err("the body was cut");
    server.join().unwrap();
    assert_eq!(failure.signal(), EngineSignal::ConnectionReset);
    assert!(attempt.progress().snapshot().head_received());
}
