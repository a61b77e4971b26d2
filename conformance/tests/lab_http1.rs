//! The HTTP/1.1 fault server, observed by a raw tokio client: what the
//! client sees on the wire and what the server's ledger counts.

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use evident_conformance::lab::{
    ALPN_HTTP1, Http1Behaviour, Http1Server, LabServer, NO_REQUEST_ID, REPLAY_HEADER, Reply,
    TestPki,
};
use http::StatusCode;
use rustls_pki_types::ServerName;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::time::timeout;

/// Upper bound for anything that should happen promptly.
const BOUND: Duration = Duration::from_secs(5);

/// How long "nothing arrives" is watched for.
const QUIET: Duration = Duration::from_millis(300);

#[derive(Debug)]
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

async fn connect(server: &LabServer) -> TcpStream {
    timeout(BOUND, TcpStream::connect(server.addr()))
        .await
        .expect("connect in time")
        .expect("connect")
}

fn get(path: &str, extra: &str) -> String {
    format!("GET {path} HTTP/1.1\r\nhost: lab\r\n{extra}\r\n")
}

fn post(path: &str, extra: &str, body: &str) -> String {
    format!(
        "POST {path} HTTP/1.1\r\nhost: lab\r\ncontent-length: {}\r\n{extra}\r\n{body}",
        body.len()
    )
}

async fn send<S: AsyncWrite + Unpin>(stream: &mut S, raw: &str) {
    stream
        .write_all(raw.as_bytes())
        .await
        .expect("write request");
}

async fn read_answer<S: AsyncRead + Unpin>(stream: &mut S) -> io::Result<Answer> {
    timeout(BOUND, read_answer_unbounded(stream))
        .await
        .expect("answer in time")
}

async fn read_answer_unbounded<S: AsyncRead + Unpin>(stream: &mut S) -> io::Result<Answer> {
    let mut buf = Vec::new();
    loop {
        let mut fields = [httparse::EMPTY_HEADER; 32];
        let mut response = httparse::Response::new(&mut fields);
        let parsed = response
            .parse(&buf)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
        if let httparse::Status::Complete(used) = parsed {
            let headers: Vec<(String, String)> = response
                .headers
                .iter()
                .map(|h| {
                    (
                        h.name.to_owned(),
                        String::from_utf8_lossy(h.value).into_owned(),
                    )
                })
                .collect();
            let status = response.code.unwrap_or_default();
            let len: usize = headers
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
                .map_or(0, |(_, v)| v.parse().expect("numeric content-length"));
            let mut body = buf[used..].to_vec();
            while body.len() < len {
                let mut chunk = [0u8; 4096];
                let n = stream.read(&mut chunk).await?;
                if n == 0 {
                    return Err(io::ErrorKind::UnexpectedEof.into());
                }
                body.extend_from_slice(&chunk[..n]);
            }
            return Ok(Answer {
                status,
                headers,
                body,
            });
        }
        let mut chunk = [0u8; 4096];
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        buf.extend_from_slice(&chunk[..n]);
    }
}

/// Everything the server sends until it closes, or the error that ended it.
async fn read_to_end<S: AsyncRead + Unpin>(stream: &mut S) -> io::Result<Vec<u8>> {
    let mut all = Vec::new();
    timeout(BOUND, stream.read_to_end(&mut all))
        .await
        .expect("the server closes in time")?;
    Ok(all)
}

async fn wait_for_executions(server: &LabServer, n: u64) {
    timeout(BOUND, server.ledger().wait_until(|s| s.executions >= n))
        .await
        .expect("executions counted in time");
}

async fn wait_for_requests(server: &LabServer, n: u64) {
    timeout(BOUND, server.ledger().wait_until(|s| s.requests >= n))
        .await
        .expect("requests counted in time");
}

#[tokio::test]
async fn respond_answers_and_keeps_the_connection_alive_for_the_next_request() {
    let server = Http1Server::new([Http1Behaviour::Respond(
        Reply::new(StatusCode::CREATED).body("made"),
    )])
    .start()
    .unwrap();
    let mut stream = connect(&server).await;
    send(
        &mut stream,
        &post("/a", "x-evident-request: call-1\r\n", "hello"),
    )
    .await;
    let first = read_answer(&mut stream).await.unwrap();
    send(&mut stream, &get("/b", "")).await;
    let second = read_answer(&mut stream).await.unwrap();

    assert_eq!((first.status, first.body.as_slice()), (201, &b"made"[..]));
    assert_eq!(second.status, 201);
    let ledger = server.ledger();
    assert_eq!(ledger.connections(), 1);
    assert_eq!(ledger.requests(), 2);
    assert_eq!(ledger.executions(), 2);
    assert_eq!(ledger.executions_for("call-1"), 1);
    assert_eq!(ledger.executions_for(NO_REQUEST_ID), 1);
}

#[tokio::test]
async fn a_non_success_reply_is_received_but_not_executed_unless_told_so() {
    let server = Http1Server::new([
        Http1Behaviour::Respond(
            Reply::new(StatusCode::SERVICE_UNAVAILABLE).header("retry-after", "1"),
        ),
        Http1Behaviour::Respond(Reply::new(StatusCode::INTERNAL_SERVER_ERROR).executes(true)),
    ])
    .start()
    .unwrap();
    let mut stream = connect(&server).await;
    send(&mut stream, &get("/", "")).await;
    let busy = read_answer(&mut stream).await.unwrap();
    send(&mut stream, &get("/", "")).await;
    let failed = read_answer(&mut stream).await.unwrap();

    assert_eq!((busy.status, busy.header("retry-after")), (503, Some("1")));
    assert_eq!(failed.status, 500);
    assert_eq!(server.ledger().requests(), 2);
    assert_eq!(server.ledger().executions(), 1);
}

#[tokio::test]
async fn a_reply_with_close_says_so_and_closes() {
    let server = Http1Server::new([Http1Behaviour::Respond(Reply::ok().close())])
        .start()
        .unwrap();
    let mut stream = connect(&server).await;
    send(&mut stream, &get("/", "")).await;
    let answer = read_answer(&mut stream).await.unwrap();

    assert_eq!(answer.header("connection"), Some("close"));
    assert_eq!(read_to_end(&mut stream).await.unwrap(), b"");
}

#[tokio::test]
async fn a_repeated_idempotency_key_is_replayed_not_executed_twice() {
    // The first attempt is executed and then the connection closes with no
    // answer; the retry with the same key must not execute again.
    let server = Http1Server::new([
        Http1Behaviour::CloseAfterRequest { execute: true },
        Http1Behaviour::respond(503),
    ])
    .start()
    .unwrap();
    let keyed = "idempotency-key: key-1\r\nx-evident-request: call-1\r\n";

    let mut first = connect(&server).await;
    send(&mut first, &post("/pay", keyed, "10 EUR")).await;
    assert_eq!(read_to_end(&mut first).await.unwrap(), b"");

    let mut retry = connect(&server).await;
    send(&mut retry, &post("/pay", keyed, "10 EUR")).await;
    let replayed = read_answer(&mut retry).await.unwrap();

    assert_eq!(replayed.status, 200);
    assert_eq!(replayed.header(REPLAY_HEADER), Some("true"));
    let ledger = server.ledger();
    assert_eq!(ledger.receipts_for_key("key-1"), 2);
    assert_eq!(ledger.executions_for_key("key-1"), 1);
    assert_eq!(ledger.receipts_for("call-1"), 2);
    assert_eq!(ledger.executions_for("call-1"), 1);
    assert_eq!(ledger.replays(), 1);
}

#[tokio::test]
async fn a_replay_answers_with_the_status_stored_at_execution() {
    let server = Http1Server::new([
        Http1Behaviour::Respond(Reply::new(StatusCode::ACCEPTED)),
        Http1Behaviour::respond(500),
    ])
    .start()
    .unwrap();
    let mut stream = connect(&server).await;
    send(&mut stream, &post("/", "idempotency-key: k\r\n", "")).await;
    let first = read_answer(&mut stream).await.unwrap();
    send(&mut stream, &post("/", "idempotency-key: k\r\n", "")).await;
    let again = read_answer(&mut stream).await.unwrap();

    assert_eq!((first.status, again.status), (202, 202));
    assert_eq!(server.ledger().executions_for_key("k"), 1);
}

#[tokio::test]
async fn close_after_request_ends_with_a_clean_eof_and_no_answer() {
    let server = Http1Server::new([Http1Behaviour::CloseAfterRequest { execute: false }])
        .start()
        .unwrap();
    let mut stream = connect(&server).await;
    send(&mut stream, &post("/", "", "body")).await;

    assert_eq!(read_to_end(&mut stream).await.unwrap(), b"");
    assert_eq!(server.ledger().requests(), 1);
    assert_eq!(server.ledger().executions(), 0);
}

#[tokio::test]
async fn reset_after_request_makes_the_client_see_connection_reset() {
    let server = Http1Server::new([Http1Behaviour::ResetAfterRequest { execute: true }])
        .start()
        .unwrap();
    let mut stream = connect(&server).await;
    send(&mut stream, &get("/", "")).await;

    let error = read_to_end(&mut stream).await.unwrap_err();
    assert_eq!(error.kind(), io::ErrorKind::ConnectionReset);
    assert_eq!(server.ledger().executions(), 1);
}

#[tokio::test]
async fn never_answer_holds_the_connection_open_without_a_byte() {
    let server = Http1Server::new([Http1Behaviour::NeverAnswer { execute: true }])
        .start()
        .unwrap();
    let mut stream = connect(&server).await;
    send(&mut stream, &get("/", "")).await;
    wait_for_executions(&server, 1).await;

    let mut byte = [0u8; 1];
    assert!(timeout(QUIET, stream.read(&mut byte)).await.is_err());
}

#[tokio::test]
async fn shutting_the_server_down_closes_a_held_connection() {
    let server = Http1Server::new([Http1Behaviour::NeverAnswer { execute: false }])
        .start()
        .unwrap();
    let mut stream = connect(&server).await;
    send(&mut stream, &get("/", "")).await;
    wait_for_requests(&server, 1).await;

    server.shutdown();
    assert_eq!(read_to_end(&mut stream).await.unwrap(), b"");
}

#[tokio::test]
async fn a_server_past_its_lifetime_closes_its_connections_by_itself() {
    let server = Http1Server::new([Http1Behaviour::NeverAnswer { execute: false }])
        .lifetime(Duration::from_millis(200))
        .start()
        .unwrap();
    let mut stream = connect(&server).await;
    send(&mut stream, &get("/", "")).await;

    assert_eq!(read_to_end(&mut stream).await.unwrap(), b"");
}

#[tokio::test]
async fn partial_head_then_close_sends_half_a_head_and_eof() {
    let server = Http1Server::new([Http1Behaviour::PartialHeadThenClose { execute: true }])
        .start()
        .unwrap();
    let mut stream = connect(&server).await;
    send(&mut stream, &get("/", "")).await;

    let received = read_to_end(&mut stream).await.unwrap();
    assert_eq!(received, b"HTTP/1.1 200 OK\r\nContent-Ty");
    let mut fields = [httparse::EMPTY_HEADER; 4];
    let parsed = httparse::Response::new(&mut fields).parse(&received);
    assert!(matches!(parsed, Ok(httparse::Status::Partial)));
}

#[tokio::test]
async fn malformed_sends_a_status_line_that_a_parser_rejects() {
    let server = Http1Server::new([Http1Behaviour::Malformed { execute: false }])
        .start()
        .unwrap();
    let mut stream = connect(&server).await;
    send(&mut stream, &get("/", "")).await;

    let error = read_answer(&mut stream).await.unwrap_err();
    assert_eq!(error.kind(), io::ErrorKind::InvalidData);
    assert_eq!(server.ledger().executions(), 0);
}

#[tokio::test]
async fn truncated_body_announces_more_than_it_sends_then_closes() {
    let server = Http1Server::new([Http1Behaviour::TruncatedBody {
        declared: 100,
        sent: 10,
        execute: true,
    }])
    .start()
    .unwrap();
    let mut stream = connect(&server).await;
    send(&mut stream, &get("/", "")).await;

    let received = read_to_end(&mut stream).await.unwrap();
    let text = String::from_utf8(received).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    assert!(head.contains("content-length: 100"), "{head}");
    assert_eq!(body.len(), 10);
    assert_eq!(server.ledger().executions(), 1);
}

#[tokio::test]
async fn stall_body_sends_part_of_the_body_then_nothing() {
    let server = Http1Server::new([Http1Behaviour::StallBody {
        sent: 5,
        execute: true,
    }])
    .start()
    .unwrap();
    let mut stream = connect(&server).await;
    send(&mut stream, &get("/", "")).await;

    let mut received = Vec::new();
    let complete = |r: &[u8]| {
        let text = String::from_utf8_lossy(r);
        text.split_once("\r\n\r\n")
            .is_some_and(|(_, body)| body.len() >= 5)
    };
    while !complete(&received) {
        let mut chunk = [0u8; 1024];
        let n = timeout(BOUND, stream.read(&mut chunk))
            .await
            .unwrap()
            .unwrap();
        assert_ne!(n, 0, "closed before the promised bytes");
        received.extend_from_slice(&chunk[..n]);
    }
    let text = String::from_utf8(received).unwrap();
    assert!(text.contains("content-length: 1029"), "{text}");
    assert!(text.ends_with("\r\n\r\nxxxxx"), "{text}");
    let mut byte = [0u8; 1];
    assert!(timeout(QUIET, stream.read(&mut byte)).await.is_err());
    assert_eq!(server.ledger().executions(), 1);
}

#[tokio::test]
async fn close_during_request_body_resets_the_upload_while_the_client_is_still_sending() {
    const BODY: usize = 8 * 1024 * 1024;
    let server = Http1Server::new([Http1Behaviour::CloseDuringRequestBody { after_bytes: 1024 }])
        .start()
        .unwrap();
    let mut stream = connect(&server).await;
    let head = format!("POST /upload HTTP/1.1\r\nhost: lab\r\ncontent-length: {BODY}\r\n\r\n");
    send(&mut stream, &head).await;

    let body = vec![b'u'; BODY];
    let error = timeout(BOUND, stream.write_all(&body))
        .await
        .expect("the upload fails in time")
        .unwrap_err();
    assert!(
        matches!(
            error.kind(),
            io::ErrorKind::ConnectionReset | io::ErrorKind::BrokenPipe
        ),
        "{error:?}"
    );
    assert_eq!(server.ledger().requests(), 1);
    assert_eq!(server.ledger().executions(), 0);
}

#[tokio::test]
async fn close_during_request_body_answers_expect_continue_first() {
    let server = Http1Server::new([Http1Behaviour::CloseDuringRequestBody { after_bytes: 4 }])
        .start()
        .unwrap();
    let mut stream = connect(&server).await;
    let head =
        "POST / HTTP/1.1\r\nhost: lab\r\ncontent-length: 100000\r\nexpect: 100-continue\r\n\r\n";
    send(&mut stream, head).await;

    let interim = read_answer(&mut stream).await.unwrap();
    assert_eq!(interim.status, 100);
}

#[tokio::test]
async fn respond_then_close_idle_closes_the_pooled_connection_and_says_when() {
    let server = Http1Server::new([Http1Behaviour::RespondThenCloseIdle(Reply::ok())])
        .start()
        .unwrap();
    let mut stream = connect(&server).await;
    send(&mut stream, &get("/", "")).await;
    let answer = read_answer(&mut stream).await.unwrap();
    assert_eq!(answer.header("connection"), Some("keep-alive"));

    timeout(BOUND, server.idle_closed()).await.unwrap();
    // The client now holds a connection the server has closed: the next
    // request written onto it meets EOF (or a reset), never an answer.
    let mut byte = [0u8; 1];
    assert_eq!(stream.read(&mut byte).await.unwrap(), 0);
    let _ = stream.write_all(get("/", "").as_bytes()).await;
    let after = read_to_end(&mut stream).await;
    assert!(
        matches!(&after, Ok(bytes) if bytes.is_empty())
            || matches!(&after, Err(e) if e.kind() == io::ErrorKind::ConnectionReset),
        "{after:?}"
    );
    assert_eq!(server.ledger().requests(), 1);
    assert_eq!(server.ledger().idle_closes(), 1);
}

#[tokio::test]
async fn a_chunked_request_body_is_read_to_its_end() {
    let server = Http1Server::new([Http1Behaviour::respond(200)])
        .start()
        .unwrap();
    let mut stream = connect(&server).await;
    let chunked = "POST / HTTP/1.1\r\nhost: lab\r\ntransfer-encoding: chunked\r\n\r\n\
                   5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\ntrailer: yes\r\n\r\n";
    send(&mut stream, chunked).await;
    let first = read_answer(&mut stream).await.unwrap();
    send(&mut stream, &get("/", "")).await;
    let second = read_answer(&mut stream).await.unwrap();

    assert_eq!((first.status, second.status), (200, 200));
    assert_eq!(server.ledger().requests(), 2);
}

#[tokio::test]
async fn a_server_refuses_to_listen_beyond_loopback() {
    let outside: SocketAddr = "0.0.0.0:0".parse().unwrap();
    let error = Http1Server::new([]).bind(outside).start().unwrap_err();
    assert_eq!(error.kind(), io::ErrorKind::InvalidInput);
}

#[tokio::test]
async fn a_server_listens_on_ipv6_loopback() {
    let server = Http1Server::new([])
        .bind("[::1]:0".parse().unwrap())
        .start()
        .unwrap();
    assert!(server.url("/x").starts_with("http://[::1]:"));
    let mut stream = connect(&server).await;
    send(&mut stream, &get("/", "")).await;
    assert_eq!(read_answer(&mut stream).await.unwrap().status, 200);
}

#[test]
fn a_blocking_test_starts_servers_by_entering_a_runtime() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    assert!(Http1Server::new([]).start().is_err(), "no runtime entered");
    let _entered = runtime.enter();
    let server = Http1Server::new([]).start().unwrap();

    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(server.addr()).unwrap();
    stream.set_read_timeout(Some(BOUND)).unwrap();
    stream
        .write_all(b"GET / HTTP/1.1\r\nhost: lab\r\nconnection: close\r\n\r\n")
        .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"), "{answer}");
}

async fn tls_connect(server: &LabServer) -> tokio_rustls::client::TlsStream<TcpStream> {
    let config = TestPki::get().client_config(&[ALPN_HTTP1]);
    let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
    let tcp = connect(server).await;
    let name = ServerName::try_from("localhost").unwrap();
    timeout(BOUND, connector.connect(name, tcp))
        .await
        .expect("handshake in time")
        .expect("handshake")
}

#[tokio::test]
async fn over_tls_the_server_answers_with_alpn_http1() {
    let server = Http1Server::new([Http1Behaviour::respond(200)])
        .tls()
        .start()
        .unwrap();
    assert!(server.url("/").starts_with("https://127.0.0.1:"));
    let mut stream = tls_connect(&server).await;
    assert_eq!(stream.get_ref().1.alpn_protocol(), Some(ALPN_HTTP1));
    send(&mut stream, &get("/", "")).await;

    assert_eq!(read_answer(&mut stream).await.unwrap().status, 200);
    assert_eq!(server.ledger().executions(), 1);
}

#[tokio::test]
async fn over_tls_close_after_request_sends_close_notify_then_eof() {
    let server = Http1Server::new([Http1Behaviour::CloseAfterRequest { execute: false }])
        .tls()
        .start()
        .unwrap();
    let mut stream = tls_connect(&server).await;
    send(&mut stream, &get("/", "")).await;

    assert_eq!(read_to_end(&mut stream).await.unwrap(), b"");
}

#[tokio::test]
async fn over_tls_reset_after_request_is_a_connection_reset() {
    let server = Http1Server::new([Http1Behaviour::ResetAfterRequest { execute: false }])
        .tls()
        .start()
        .unwrap();
    let mut stream = tls_connect(&server).await;
    send(&mut stream, &get("/", "")).await;

    let error = read_to_end(&mut stream).await.unwrap_err();
    assert_eq!(error.kind(), io::ErrorKind::ConnectionReset);
}

#[tokio::test]
async fn close_during_request_body_with_a_short_body_still_resets_at_once() {
    let server = Http1Server::new([Http1Behaviour::CloseDuringRequestBody { after_bytes: 1024 }])
        .start()
        .unwrap();
    let mut stream = connect(&server).await;
    send(&mut stream, &post("/", "", "tiny")).await;

    let error = read_to_end(&mut stream).await.unwrap_err();
    assert_eq!(error.kind(), io::ErrorKind::ConnectionReset);
    assert_eq!(server.ledger().executions(), 0);
}

#[tokio::test]
async fn truncated_chunked_body_sends_one_chunk_and_closes_without_the_last() {
    let server = Http1Server::new([Http1Behaviour::TruncatedChunkedBody { execute: true }])
        .start()
        .unwrap();
    let mut stream = connect(&server).await;
    send(&mut stream, &get("/", "")).await;

    let received = read_to_end(&mut stream).await.unwrap();
    let text = String::from_utf8(received).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    assert!(head.contains("transfer-encoding: chunked"), "{head}");
    assert_eq!(body, "5\r\nhello\r\n", "no terminating chunk");
    assert_eq!(server.ledger().executions(), 1);
}

#[tokio::test]
async fn reset_during_body_sends_part_of_the_body_then_resets() {
    let server = Http1Server::new([Http1Behaviour::ResetDuringBody {
        declared: 100,
        sent: 10,
        execute: true,
    }])
    .start()
    .unwrap();
    let mut stream = connect(&server).await;
    send(&mut stream, &get("/", "")).await;

    let mut received = Vec::new();
    let mut buf = [0u8; 256];
    let error = loop {
        match stream.read(&mut buf).await {
            Ok(0) => panic!("a clean EOF instead of a reset after {received:?}"),
            Ok(n) => received.extend_from_slice(&buf[..n]),
            Err(e) => break e,
        }
    };
    assert_eq!(error.kind(), io::ErrorKind::ConnectionReset);
    assert_eq!(server.ledger().executions(), 1);
}

/// A body far larger than any loopback socket buffer pair with a fixed
/// small receive buffer on the server.
const UPLOAD_BYTES: usize = 8 * 1024 * 1024;

#[tokio::test]
async fn stop_reading_mid_body_blocks_the_upload_and_executes_nothing() {
    let server = Http1Server::new([Http1Behaviour::StopReadingMidBody {
        after_bytes: 64 * 1024,
    }])
    .receive_buffer(16 * 1024)
    .start()
    .unwrap();
    let mut stream = connect(&server).await;
    send(
        &mut stream,
        &format!("POST /pay HTTP/1.1\r\nhost: lab\r\ncontent-length: {UPLOAD_BYTES}\r\n\r\n"),
    )
    .await;
    let body = vec![0u8; UPLOAD_BYTES];
    let upload = timeout(QUIET, stream.write_all(&body)).await;
    assert!(upload.is_err(), "the upload is still blocked");
    wait_for_requests(&server, 1).await;
    assert_eq!(server.ledger().executions(), 0);
}
