//! Production defaults of the pool, HTTP/2 and connecting: idle
//! connections are evicted without waiting for a checkout, HTTP/2 peers
//! that stop answering pings are dropped (a silent address is
//! `happy_eyeballs.rs`'s). Paused tokio time: the clock is advanced, never slept
//! on for real.

mod support;

use std::time::Duration;

use bytes::Bytes;
use evident_hyper::HyperEngine;
use support::*;
use tokio::io::AsyncReadExt;
use tokio::sync::oneshot;

/// The reaper's sweep interval (the pool's `EVICTION_INTERVAL`).
const SWEEP: Duration = Duration::from_secs(1);

/// Answers one keep-alive request, then runs `after` on the connection.
async fn answer_once<F, Fut>(listener: tokio::net::TcpListener, after: F)
where
    F: FnOnce(RequestReader<tokio::net::TcpStream>) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let (tcp, _) = listener.accept().await.unwrap();
    let mut conn = RequestReader::new(tcp);
    conn.next_request().await.unwrap();
    conn.respond(OK_HELLO).await;
    after(conn).await;
}

#[tokio::test(start_paused = true)]
async fn a_connection_the_server_closed_leaves_the_pool_without_waiting_for_a_checkout() {
    let (listener, addr) = listen().await;
    let (close_tx, close) = oneshot::channel::<()>();
    let (closed_tx, closed) = oneshot::channel();
    tokio::spawn(answer_once(listener, |conn| async move {
        close.await.unwrap();
        drop(conn);
        closed_tx.send(()).unwrap();
    }));
    let engine = HyperEngine::builder().build().unwrap();
    let url = format!("http://{addr}/");
    fetch(&engine, get(&url), &attempt()).await.unwrap();
    assert_eq!(engine.pooled_connections(), 1);
    close_tx.send(()).unwrap();
    closed.await.unwrap();

    // Two sweeps, far inside the idle timeout: only the close can evict.
    tokio::time::sleep(SWEEP * 5 / 2).await;
    assert_eq!(engine.pooled_connections(), 0);
}

#[tokio::test(start_paused = true)]
async fn an_idle_connection_is_closed_once_the_idle_timeout_passes() {
    let (listener, addr) = listen().await;
    let (eof_tx, mut eof) = oneshot::channel();
    tokio::spawn(answer_once(listener, |mut conn| async move {
        let mut byte = [0u8; 1];
        let n = conn.stream.read(&mut byte).await.unwrap_or(0);
        eof_tx.send(n).unwrap();
    }));
    let engine = HyperEngine::builder()
        .idle_timeout(Duration::from_secs(5))
        .build()
        .unwrap();
    fetch(&engine, get(&format!("http://{addr}/")), &attempt())
        .await
        .unwrap();

    tokio::time::sleep(Duration::from_secs(4)).await;
    assert_eq!(engine.pooled_connections(), 1, "still within the timeout");
    assert!(eof.try_recv().is_err(), "the socket is still open");

    tokio::time::sleep(Duration::from_secs(2) + SWEEP).await;
    assert_eq!(engine.pooled_connections(), 0);
    // The socket itself is closed, not just forgotten: the server reads EOF.
    assert_eq!(eof.await.unwrap(), 0);
}

/// How many of this process's descriptors refer to the live TCP socket
/// from local port `local` to remote port `remote` (Linux: `/proc/net/tcp`
/// gives the socket's inode, `/proc/self/fd` the descriptors).
#[cfg(target_os = "linux")]
fn descriptors_of_socket(local: u16, remote: u16) -> usize {
    let port = |field: &str| u16::from_str_radix(field.rsplit(':').next()?, 16).ok();
    let table = std::fs::read_to_string("/proc/net/tcp").unwrap();
    let inode = table
        .lines()
        .skip(1)
        .find_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            // Inode 0: a socket no descriptor refers to (TIME_WAIT).
            (port(fields[1])? == local && port(fields[2])? == remote && fields[9] != "0")
                .then(|| fields[9].to_owned())
        })
        .expect("the socket is in /proc/net/tcp");
    let target = format!("socket:[{inode}]");
    std::fs::read_dir("/proc/self/fd")
        .unwrap()
        .filter_map(|fd| std::fs::read_link(fd.ok()?.path()).ok())
        .filter(|link| link.to_string_lossy() == target)
        .count()
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn an_idle_pooled_socket_holds_one_descriptor() {
    let (listener, addr) = listen().await;
    let (port_tx, port) = oneshot::channel();
    let (done_tx, done) = oneshot::channel::<()>();
    tokio::spawn(async move {
        let (tcp, peer) = listener.accept().await.unwrap();
        let mut conn = RequestReader::new(tcp);
        conn.next_request().await.unwrap();
        conn.respond(OK_HELLO).await;
        port_tx.send(peer.port()).unwrap();
        // Keep the connection open until the test has looked.
        let _ = done.await;
    });
    let engine = HyperEngine::builder().build().unwrap();
    fetch(&engine, get(&format!("http://{addr}/")), &attempt())
        .await
        .unwrap();
    let client_port = port.await.unwrap();
    assert_eq!(engine.pooled_connections(), 1);
    assert_eq!(descriptors_of_socket(client_port, addr.port()), 1);
    drop(done_tx);
}

#[tokio::test(start_paused = true)]
async fn an_http2_peer_that_stops_answering_pings_is_dropped_and_the_next_request_connects_anew() {
    let (listener, addr) = listen().await;
    let (stop_tx, stop) = oneshot::channel::<()>();
    let server = tokio::spawn(async move {
        // First connection: answer one request, then stop polling it (the
        // socket stays open; pings go unanswered).
        let (tcp, _) = listener.accept().await.unwrap();
        let mut first = h2::server::handshake(tcp).await.unwrap();
        let (_, mut respond) = first.accept().await.unwrap().unwrap();
        let mut send = respond
            .send_response(http::Response::new(()), false)
            .unwrap();
        send.send_data(Bytes::from_static(b"hello"), true).unwrap();
        tokio::select! {
            _ = first.accept() => panic!("no second request on the first connection"),
            _ = stop => {}
        }
        // Second connection: served normally.
        let (tcp, _) = listener.accept().await.unwrap();
        serve_h2(tcp, H2Reply::Hello).await;
        drop(first);
    });
    let engine = HyperEngine::builder()
        .http2_prior_knowledge()
        .http2_keep_alive(Duration::from_secs(10), Duration::from_secs(5))
        .build()
        .unwrap();
    let url = format!("http://{addr}/");
    fetch(&engine, get(&url), &attempt()).await.unwrap();
    stop_tx.send(()).unwrap();
    assert_eq!(engine.pooled_connections(), 1);

    // A ping at 10 s, unanswered by 15 s: the connection is dropped and the
    // reaper takes it out of the pool.
    tokio::time::sleep(Duration::from_secs(15) + 2 * SWEEP).await;
    assert_eq!(engine.pooled_connections(), 0);

    let attempt = attempt();
    let (status, _) = fetch(&engine, get(&url), &attempt).await.unwrap();
    assert_eq!(status.as_u16(), 200);
    assert_eq!(
        attempt.progress().snapshot().connection_reused(),
        Some(false)
    );
    drop(engine);
    server.abort();
}

#[tokio::test(start_paused = true)]
async fn an_idle_http2_connection_is_closed_once_the_idle_timeout_passes_despite_its_pings() {
    let (listener, addr) = listen().await;
    let (closed_tx, closed) = oneshot::channel();
    tokio::spawn(async move {
        let (tcp, _) = listener.accept().await.unwrap();
        serve_h2(tcp, H2Reply::Hello).await;
        // serve_h2 returns when the client went away.
        closed_tx.send(()).unwrap();
    });
    let engine = HyperEngine::builder()
        .http2_prior_knowledge()
        .idle_timeout(Duration::from_secs(60))
        .http2_keep_alive(Duration::from_secs(10), Duration::from_secs(5))
        .build()
        .unwrap();
    fetch(&engine, get(&format!("http://{addr}/")), &attempt())
        .await
        .unwrap();
    assert_eq!(engine.pooled_connections(), 1);

    // Pings at 10, 20 and 30 s are answered: the connection stays.
    tokio::time::sleep(Duration::from_secs(35)).await;
    assert_eq!(engine.pooled_connections(), 1, "answered pings keep it");
    // But they do not keep it pooled forever.
    tokio::time::sleep(Duration::from_secs(25) + 2 * SWEEP).await;
    assert_eq!(engine.pooled_connections(), 0);
    closed.await.unwrap();
}
