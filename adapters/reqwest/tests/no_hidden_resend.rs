//! No request is executed twice behind the adapter's back: not by
//! reqwest's retry layer, not by its redirect follower, not by hyper-util's
//! re-send of requests hyper handed back. A ledger on each server counts
//! what the server actually received.

mod support;

use std::io::{Read, Write};
use std::sync::{Arc, Mutex, mpsc};

use evident_core::{Engine, EngineSignal, ExecutionEvidence as E, HostOverrides};
use support::*;

/// What a server received: one entry per request, `METHOD /path`.
#[derive(Debug, Clone, Default)]
struct Ledger(Arc<Mutex<Vec<String>>>);

impl Ledger {
    fn record(&self, request: &[u8]) {
        let line = String::from_utf8_lossy(request)
            .lines()
            .next()
            .unwrap_or_default()
            .rsplit_once(' ')
            .map(|(start, _)| start.to_owned())
            .unwrap_or_default();
        self.0.lock().unwrap().push(line);
    }

    fn count(&self, what: &str) -> usize {
        self.0.lock().unwrap().iter().filter(|r| *r == what).count()
    }
}

/// Reads one request (head and `content-length` body) from a blocking
/// socket; `None` at EOF.
fn read_request(stream: &mut std::net::TcpStream) -> Option<Vec<u8>> {
    let mut buf = Vec::new();
    let mut byte = [0u8; 1];
    while !buf.ends_with(b"\r\n\r\n") {
        match stream.read(&mut byte) {
            Ok(1) => buf.push(byte[0]),
            _ => return None,
        }
    }
    let head = String::from_utf8_lossy(&buf).to_ascii_lowercase();
    let len: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .map_or(0, |v| v.trim().parse().unwrap());
    let mut body = vec![0u8; len];
    stream.read_exact(&mut body).ok()?;
    buf.extend_from_slice(&body);
    Some(buf)
}

/// A POST over a pooled connection the server has just closed, sent
/// before hyper's connection task could notice the close (the test's only
/// runtime thread is blocked until the server closed it).
///
/// Either hyper hands the request back untouched and hyper-util re-sends it
/// on a new connection, or hyper writes it into the dead connection and the
/// attempt fails. In both cases the server executes the POST at most once,
/// and the evidence never claims more than it knows: a 200 means exactly
/// one execution; a failure is not "not sent" unless the body was never
/// touched. The server only half-closes the stale connection and keeps
/// reading it, so a request written into it and then re-sent elsewhere
/// is counted twice.
#[tokio::test(flavor = "current_thread")]
async fn a_post_over_a_stale_pooled_connection_is_executed_at_most_once() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let ledger = Ledger::default();
    let (closed_tx, closed_rx) = mpsc::channel();
    let (stale_done_tx, stale_done) = tokio::sync::oneshot::channel();
    let server_ledger = ledger.clone();
    std::thread::spawn(move || {
        // Connection 1: answer the GET keep-alive, then close while idle.
        let (mut first, _) = listener.accept().unwrap();
        let request = read_request(&mut first).unwrap();
        server_ledger.record(&request);
        first.write_all(OK_HELLO).unwrap();
        // Close our side only (FIN) and keep reading: a request written
        // into the stale connection reaches the ledger too, so a write
        // followed by a re-send elsewhere counts twice.
        first.shutdown(std::net::Shutdown::Write).unwrap();
        closed_tx.send(()).unwrap();
        let stale_ledger = server_ledger.clone();
        std::thread::spawn(move || {
            while let Some(request) = read_request(&mut first) {
                stale_ledger.record(&request);
            }
            // The client closed the stale connection: all it wrote is in.
            let _ = stale_done_tx.send(());
        });
        // Any later connection: answer every request.
        for stream in listener.incoming() {
            let mut stream = stream.unwrap();
            while let Some(request) = read_request(&mut stream) {
                server_ledger.record(&request);
                stream.write_all(OK_HELLO).unwrap();
            }
        }
    });

    let engine = ReqwestEngine::builder()
        .host_overrides(HostOverrides::new())
        .build()
        .unwrap();
    let url = format!("http://{addr}/");
    fetch(&engine, get(&url), &attempt()).await.unwrap();
    // Block this runtime's only thread: hyper's connection task cannot
    // run, so it cannot notice the close before the POST is sent.
    closed_rx.recv().unwrap();

    let post_attempt = attempt();
    let outcome = fetch(&engine, post(&url, "pay"), &post_attempt).await;
    // Closing the engine's connections ends the stale one too: once the
    // server has read it to its end, every request written into it is in
    // the ledger (a re-send elsewhere was answered, so it is in already).
    drop(engine);
    tokio::time::timeout(std::time::Duration::from_secs(10), stale_done)
        .await
        .expect("the stale connection is closed with the engine")
        .unwrap();
    match outcome {
        Ok((status, _)) => {
            assert_eq!(status, 200);
            assert_eq!(ledger.count("POST /"), 1, "{:?}", ledger.0);
        }
        Err(failure) => {
            assert!(ledger.count("POST /") <= 1, "{:?}", ledger.0);
            let (_, _, evidence) = judged(&failure, &post_attempt);
            if evidence == E::NotSent {
                assert!(
                    post_attempt.progress().snapshot().still_before_write(),
                    "not sent only when hyper never touched the body: {failure}"
                );
                assert_eq!(ledger.count("POST /"), 0);
            }
        }
    }
}

/// reqwest's default retry layer re-sends a stream the server refused; the
/// engine turns it off (and hands reqwest no body it could clone for a
/// re-send), so the server sees the stream once and the core gets the
/// refusal to decide on.
#[tokio::test]
async fn an_http2_refused_stream_reaches_the_server_once() {
    let (listener, addr) = listen().await;
    let streams = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let seen = streams.clone();
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let seen = seen.clone();
            tokio::spawn(async move {
                let mut conn = h2::server::handshake(tcp).await.unwrap();
                while let Some(Ok((_, mut respond))) = conn.accept().await {
                    seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    respond.send_reset(h2::Reason::REFUSED_STREAM);
                }
            });
        }
    });
    let engine = ReqwestEngine::builder()
        .http2_prior_knowledge()
        .build()
        .unwrap();
    let attempt = attempt();
    let failure = engine
        .send(post(&format!("http://{addr}/"), "pay"), &attempt)
        .await
        .unwrap_err();
    assert_eq!(failure.signal(), EngineSignal::Http2RefusedStream);
    assert_eq!(streams.load(std::sync::atomic::Ordering::SeqCst), 1);
}

/// A redirect is the server's answer; reqwest's default policy would
/// follow a 303 with a GET, a request the caller never made (a 307 or 308
/// it could only follow by re-sending the body, which the engine never
/// lets reqwest clone). The engine returns both.
#[tokio::test]
async fn a_redirect_is_returned_and_never_followed() {
    let (listener, addr) = listen().await;
    let ledger = Ledger::default();
    let server_ledger = ledger.clone();
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let ledger = server_ledger.clone();
            tokio::spawn(async move {
                let mut reader = RequestReader::new(tcp);
                while let Some(request) = reader.next_request().await {
                    ledger.record(&request);
                    let reply: &[u8] = if request.starts_with(b"POST /see-other") {
                        b"HTTP/1.1 303 See Other\r\nlocation: /elsewhere\r\ncontent-length: 0\r\n\r\n"
                    } else {
                        b"HTTP/1.1 307 Temporary Redirect\r\nlocation: /elsewhere\r\ncontent-length: 0\r\n\r\n"
                    };
                    reader.respond(reply).await;
                }
            });
        }
    });
    let engine = ReqwestEngine::builder().build().unwrap();
    for (path, expected) in [("/see-other", 303), ("/pay", 307)] {
        let url = format!("http://{addr}{path}");
        let (status, _) = fetch(&engine, post(&url, "pay"), &attempt()).await.unwrap();
        assert_eq!(status, expected);
        assert_eq!(ledger.count(&format!("POST {path}")), 1);
    }
    assert_eq!(ledger.count("GET /elsewhere"), 0, "{:?}", ledger.0);
    assert_eq!(ledger.count("POST /elsewhere"), 0, "{:?}", ledger.0);
}
