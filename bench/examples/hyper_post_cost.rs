//! A keyed 16 KiB POST over loopback, N times, through hyper-util's client
//! or through evident's hyper engine alone (`Engine::send`, no client
//! layer), against the same in-process HTTP/1.1 server: what the engine
//! costs over the library it is built on, in instructions (issue 22, item
//! 3). The server's work is in both counts alike.
//!
//! ```text
//! cargo run -p evident-bench --release --bin instructions -- --hyper-post
//! ```
//!
//! runs both modes at two counts under cachegrind and prints the cost per
//! call. Modes: `hyper-util`, `engine`. Each run ends by printing
//! `allocations N`.

#[path = "../../core/examples/support/counting_alloc.rs"]
mod counting_alloc;

use std::convert::Infallible;

use bytes::Bytes;
use evident_core::Progress;
use evident_core::engine::{AttemptBody, Engine};
use evident_core::testing::attempt_context;
use http_body_util::{BodyExt, Full};
use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo};

const USAGE: &str = "usage: hyper_post_cost hyper-util|engine CALLS";

/// The request body: 16 KiB, as in the benchmark's keyed POST.
const BODY_BYTES: usize = 16 * 1024;

/// The idempotency key every request carries (the client layer would
/// generate one per call; the engine only sends it).
const KEY: &str = "00000000-0000-4000-8000-000000000000";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    counting_alloc::main_with(USAGE, run)
}

fn run(mode: &str, calls: usize) -> Result<(), Box<dyn std::error::Error>> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let addr = serve().await?;
        let url = format!("http://{addr}/pay");
        let body = Bytes::from(vec![b'x'; BODY_BYTES]);
        match mode {
            "hyper-util" => {
                let mut connector = hyper_util::client::legacy::connect::HttpConnector::new();
                connector.set_nodelay(true);
                let client = hyper_util::client::legacy::Client::builder(TokioExecutor::new())
                    .build(connector);
                for _ in 0..calls {
                    let request = http::Request::post(url.as_str())
                        .header("idempotency-key", KEY)
                        .body(Full::new(body.clone()))?;
                    let response = client.request(request).await?;
                    response.into_body().collect().await?;
                }
            }
            "engine" => {
                let engine = evident_hyper::HyperEngine::builder().build()?;
                for _ in 0..calls {
                    let request = http::Request::post(url.as_str())
                        .header("idempotency-key", KEY)
                        .body(AttemptBody::Full(Some(body.clone())))?;
                    let attempt = attempt_context(Progress::new(), None);
                    let response = engine.send(request, &attempt).await?;
                    response.into_body().collect().await?;
                }
            }
            _ => return Err(USAGE.into()),
        }
        Ok::<_, Box<dyn std::error::Error>>(())
    })
}

/// An HTTP/1.1 server on loopback that reads each request whole and
/// answers `200 ok`, keeping the connection.
async fn serve() -> std::io::Result<std::net::SocketAddr> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let _ = stream.set_nodelay(true);
            tokio::spawn(async move {
                let service =
                    service_fn(|request: http::Request<hyper::body::Incoming>| async move {
                        let _ = request.into_body().collect().await;
                        Ok::<_, Infallible>(http::Response::new(Full::new(Bytes::from_static(
                            b"ok",
                        ))))
                    });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    Ok(addr)
}
