//! The HTTP/2 fault server, observed by the h2 crate's client: the error
//! each fault produces and what the ledger counts.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use evident_conformance::lab::{
    ALPN_H2, Http2Behaviour, Http2Server, LabServer, REPLAY_HEADER, Reply, TestPki,
};
use h2::Reason;
use h2::client::SendRequest;
use http::{Request, StatusCode};
use rustls_pki_types::ServerName;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio::task::JoinHandle;
use tokio::time::timeout;

/// Upper bound for anything that should happen promptly.
const BOUND: Duration = Duration::from_secs(5);

/// How long "no answer" is watched for.
const QUIET: Duration = Duration::from_millis(300);

/// A client connection: the request handle and the task driving it.
struct Client {
    send: SendRequest<Bytes>,
    driver: JoinHandle<Result<(), h2::Error>>,
}

async fn handshake<T>(io: T) -> Client
where
    T: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let (send, connection) = timeout(BOUND, h2::client::handshake(io))
        .await
        .expect("h2 handshake in time")
        .expect("h2 handshake");
    let driver = tokio::spawn(connection);
    Client { send, driver }
}

async fn h2c(server: &LabServer) -> Client {
    handshake(TcpStream::connect(server.addr()).await.unwrap()).await
}

async fn h2_over_tls(server: &LabServer) -> Client {
    let config = TestPki::get().client_config(&[ALPN_H2]);
    let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
    let tcp = TcpStream::connect(server.addr()).await.unwrap();
    let tls = connector
        .connect(ServerName::try_from("localhost").unwrap(), tcp)
        .await
        .unwrap();
    assert_eq!(tls.get_ref().1.alpn_protocol(), Some(ALPN_H2));
    handshake(tls).await
}

fn request(headers: &[(&str, &str)]) -> Request<()> {
    let mut builder = Request::post("http://lab.invalid/pay");
    for (name, value) in headers {
        builder = builder.header(*name, *value);
    }
    builder.body(()).unwrap()
}

/// Sends a request with a small body and waits for its answer.
async fn call(
    client: &mut Client,
    headers: &[(&str, &str)],
) -> Result<http::Response<h2::RecvStream>, h2::Error> {
    let send = timeout(BOUND, client.send.clone().ready())
        .await
        .expect("ready in time")?;
    client.send = send;
    let (response, mut body) = client.send.send_request(request(headers), false)?;
    body.send_data(Bytes::from_static(b"10 EUR"), true)?;
    timeout(BOUND, response).await.expect("an outcome in time")
}

async fn wait_for_requests(server: &LabServer, n: u64) {
    timeout(BOUND, server.ledger().wait_until(|s| s.requests >= n))
        .await
        .expect("requests counted in time");
}

#[tokio::test]
async fn respond_answers_over_h2c_and_counts_one_execution() {
    let server = Http2Server::new([Http2Behaviour::Respond(
        Reply::new(StatusCode::CREATED)
            .header("x-lab", "yes")
            .body("made"),
    )])
    .start()
    .unwrap();
    let mut client = h2c(&server).await;

    let response = call(&mut client, &[("x-evident-request", "call-1")])
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    assert_eq!(response.headers()["x-lab"], "yes");
    let mut body = response.into_body();
    let chunk = timeout(BOUND, body.data()).await.unwrap().unwrap().unwrap();
    assert_eq!(chunk, "made");
    let ledger = server.ledger();
    assert_eq!((ledger.requests(), ledger.executions()), (1, 1));
    assert_eq!(ledger.executions_for("call-1"), 1);
    assert_eq!(ledger.receipts()[0].stream_id, Some(1));
}

#[tokio::test]
async fn respond_answers_over_tls_with_alpn_h2() {
    let server = Http2Server::new([]).tls().start().unwrap();
    assert!(server.url("/").starts_with("https://"));
    let mut client = h2_over_tls(&server).await;

    let response = call(&mut client, &[]).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(server.ledger().executions(), 1);
}

#[tokio::test]
async fn a_refused_stream_is_reported_as_refused_and_the_connection_serves_the_next() {
    let server = Http2Server::new([Http2Behaviour::RefusedStream, Http2Behaviour::respond(200)])
        .start()
        .unwrap();
    let mut client = h2c(&server).await;

    let error = call(&mut client, &[]).await.unwrap_err();
    assert_eq!(error.reason(), Some(Reason::REFUSED_STREAM));
    assert!(error.is_reset() && error.is_remote(), "{error:?}");
    let next = call(&mut client, &[]).await.unwrap();
    assert_eq!(next.status(), StatusCode::OK);

    let ledger = server.ledger();
    assert_eq!(ledger.connections(), 1);
    assert_eq!((ledger.requests(), ledger.executions()), (2, 1));
}

#[tokio::test]
async fn a_goaway_below_the_stream_fails_it_as_a_remote_goaway_and_a_new_connection_is_served() {
    let server = Http2Server::new([
        Http2Behaviour::GoAwayAboveLastStreamId,
        Http2Behaviour::respond(200),
    ])
    .start()
    .unwrap();
    let mut client = h2c(&server).await;

    let error = call(&mut client, &[("x-evident-request", "call-1")])
        .await
        .unwrap_err();
    assert!(error.is_go_away() && error.is_remote(), "{error:?}");
    assert_eq!(error.reason(), Some(Reason::NO_ERROR));
    // The server closes after its GOAWAY; the client connection ends.
    let ended = timeout(BOUND, &mut client.driver)
        .await
        .expect("connection ends");
    assert!(ended.is_ok());

    let mut retry = h2c(&server).await;
    let response = call(&mut retry, &[("x-evident-request", "call-1")])
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let ledger = server.ledger();
    assert_eq!(ledger.connections(), 2);
    assert_eq!(ledger.receipts_for("call-1"), 2);
    assert_eq!(ledger.executions_for("call-1"), 1);
}

#[tokio::test]
async fn a_goaway_below_a_later_stream_names_the_last_stream_served() {
    // Stream 1 is served; stream 3 meets GOAWAY(last-stream-id = 1).
    let server = Http2Server::new([
        Http2Behaviour::respond(200),
        Http2Behaviour::GoAwayAboveLastStreamId,
    ])
    .start()
    .unwrap();
    let mut client = h2c(&server).await;

    assert_eq!(
        call(&mut client, &[]).await.unwrap().status(),
        StatusCode::OK
    );
    let error = call(&mut client, &[]).await.unwrap_err();
    assert!(error.is_go_away() && error.is_remote(), "{error:?}");
    let streams: Vec<_> = server
        .ledger()
        .receipts()
        .iter()
        .map(|r| r.stream_id)
        .collect();
    assert_eq!(streams, [Some(1), Some(3)]);
    assert_eq!(server.ledger().executions(), 1);
}

#[tokio::test]
async fn a_goaway_covering_the_stream_then_close_is_not_a_goaway_error_for_it() {
    let server =
        Http2Server::new([Http2Behaviour::GoAwayCoveringStreamThenClose { execute: true }])
            .start()
            .unwrap();
    let mut client = h2c(&server).await;

    let error = call(&mut client, &[]).await.unwrap_err();
    // The stream is at or below the last-stream-id: the GOAWAY does not
    // fail it; the connection closing afterwards does, as an I/O error
    // (broken pipe) — nothing proves it was not processed.
    assert!(!error.is_go_away(), "{error:?}");
    assert!(error.is_io(), "{error:?}");
    assert_eq!(
        error.get_io().map(std::io::Error::kind),
        Some(std::io::ErrorKind::BrokenPipe)
    );
    assert_eq!(server.ledger().executions(), 1);
}

#[tokio::test]
async fn a_bare_stream_reset_after_executing_carries_its_reason() {
    let server = Http2Server::new([
        Http2Behaviour::ResetStream {
            reason: Reason::INTERNAL_ERROR,
            execute: true,
        },
        Http2Behaviour::respond(200),
    ])
    .start()
    .unwrap();
    let mut client = h2c(&server).await;

    let error = call(&mut client, &[]).await.unwrap_err();
    assert_eq!(error.reason(), Some(Reason::INTERNAL_ERROR));
    assert!(error.is_reset() && error.is_remote(), "{error:?}");
    assert_eq!(
        call(&mut client, &[]).await.unwrap().status(),
        StatusCode::OK
    );
    assert_eq!(server.ledger().executions(), 2);
}

#[tokio::test]
async fn never_answer_leaves_the_stream_open() {
    let server = Http2Server::new([Http2Behaviour::NeverAnswer { execute: false }])
        .start()
        .unwrap();
    let mut client = h2c(&server).await;
    client.send = client.send.clone().ready().await.unwrap();
    let (response, _body) = client.send.send_request(request(&[]), true).unwrap();
    wait_for_requests(&server, 1).await;

    assert!(timeout(QUIET, response).await.is_err());
    assert_eq!(server.ledger().executions(), 0);
}

#[tokio::test]
async fn a_repeated_idempotency_key_over_h2_is_replayed_not_executed_twice() {
    let server = Http2Server::new([
        Http2Behaviour::GoAwayCoveringStreamThenClose { execute: true },
        Http2Behaviour::respond(503),
    ])
    .start()
    .unwrap();
    let keyed = [("idempotency-key", "key-1")];

    let mut first = h2c(&server).await;
    assert!(call(&mut first, &keyed).await.is_err());
    let mut retry = h2c(&server).await;
    let replayed = call(&mut retry, &keyed).await.unwrap();

    assert_eq!(replayed.status(), StatusCode::OK);
    assert_eq!(replayed.headers()[REPLAY_HEADER], "true");
    let ledger = server.ledger();
    assert_eq!(ledger.receipts_for_key("key-1"), 2);
    assert_eq!(ledger.executions_for_key("key-1"), 1);
}

#[tokio::test]
async fn a_goaway_below_the_stream_works_over_tls_too() {
    let server = Http2Server::new([
        Http2Behaviour::GoAwayAboveLastStreamId,
        Http2Behaviour::respond(200),
    ])
    .tls()
    .start()
    .unwrap();
    let mut client = h2_over_tls(&server).await;

    let error = call(&mut client, &[]).await.unwrap_err();
    assert!(error.is_go_away() && error.is_remote(), "{error:?}");
    let mut retry = h2_over_tls(&server).await;
    assert_eq!(
        call(&mut retry, &[]).await.unwrap().status(),
        StatusCode::OK
    );
    assert_eq!(server.ledger().executions(), 1);
}

#[tokio::test]
async fn a_refusal_after_the_body_comes_once_the_whole_body_was_read_and_executes_nothing() {
    let server = Http2Server::new([
        Http2Behaviour::RefusedStreamAfterBody,
        Http2Behaviour::respond(200),
    ])
    .start()
    .unwrap();
    let mut client = h2c(&server).await;

    let error = call(&mut client, &[]).await.unwrap_err();
    assert_eq!(error.reason(), Some(Reason::REFUSED_STREAM));
    assert!(error.is_reset() && error.is_remote(), "{error:?}");
    let next = call(&mut client, &[]).await.unwrap();
    assert_eq!(next.status(), StatusCode::OK);
    let ledger = server.ledger();
    assert_eq!((ledger.requests(), ledger.executions()), (2, 1));
}

#[tokio::test]
async fn a_refusal_after_the_head_delivers_the_head_and_some_body_before_the_reset() {
    let server = Http2Server::new([
        Http2Behaviour::RespondHeadThenRefusedStream { execute: true },
        Http2Behaviour::respond(200),
    ])
    .start()
    .unwrap();
    let mut client = h2c(&server).await;

    let response = call(&mut client, &[]).await.expect("the head arrives");
    assert_eq!(response.status(), StatusCode::OK);
    let mut body = response.into_body();
    let chunk = timeout(BOUND, body.data()).await.unwrap().unwrap().unwrap();
    assert_eq!(chunk, "partial");
    let error = timeout(BOUND, body.data())
        .await
        .expect("the reset arrives")
        .expect("an outcome")
        .unwrap_err();
    assert_eq!(error.reason(), Some(Reason::REFUSED_STREAM));
    assert!(error.is_reset() && error.is_remote(), "{error:?}");
    assert_eq!(server.ledger().executions(), 1);
}

#[tokio::test]
async fn a_goaway_with_an_error_code_below_the_stream_carries_that_code() {
    let server = Http2Server::new([
        Http2Behaviour::GoAwayWithErrorAboveLastStreamId {
            reason: Reason::INTERNAL_ERROR,
        },
        Http2Behaviour::respond(200),
    ])
    .start()
    .unwrap();
    let mut client = h2c(&server).await;

    let error = call(&mut client, &[]).await.unwrap_err();
    assert!(error.is_go_away() && error.is_remote(), "{error:?}");
    assert_eq!(error.reason(), Some(Reason::INTERNAL_ERROR));
    assert_eq!(server.ledger().executions(), 0);
}
