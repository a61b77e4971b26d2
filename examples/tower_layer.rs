//! The async client as a `tower::Service`, under tower's concurrency limit
//! and timeout layers, against a loopback server.
//!
//! ```sh
//! cargo run --example tower_layer --features hyper,tower
//! ```
//!
//! The layers bound what the caller waits for and how many calls run at
//! once; retries stay inside evident, decided by evidence (never stack
//! `tower::retry` on top).

use std::time::Duration;

use evident::{Body, CallOptions};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tower::{Service, ServiceBuilder, ServiceExt};

/// How many calls the example sends.
const CALLS: usize = 4;

/// A server that answers `hello` to every request on `CALLS` connections.
async fn serve(listener: TcpListener) {
    for _ in 0..CALLS {
        let (mut conn, _) = listener.accept().await.expect("accept");
        tokio::spawn(async move {
            let mut buf = vec![0u8; 4096];
            let mut seen = Vec::new();
            // Bounded: a request head ends with a blank line or the client
            // closes.
            while !seen.ends_with(b"\r\n\r\n") {
                match conn.read(&mut buf).await {
                    Ok(0) | Err(_) => return,
                    Ok(n) => seen.extend_from_slice(&buf[..n]),
                }
            }
            let _ = conn
                .write_all(
                    b"HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 5\r\n\r\nhello",
                )
                .await;
        });
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), tower::BoxError> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}/greeting", listener.local_addr()?);
    tokio::spawn(serve(listener));

    let client = evident::hyper::client()?;
    let mut service = ServiceBuilder::new()
        .concurrency_limit(2)
        .timeout(Duration::from_secs(10))
        .service(client);

    for _ in 0..CALLS {
        let mut request = evident::http::Request::get(&url).body(Body::Empty)?;
        // Call options travel in the request's extensions.
        request
            .extensions_mut()
            .insert(CallOptions::new().idempotent());
        let response = service.ready().await?.call(request).await?;
        println!(
            "{} {:?} after {} attempt(s)",
            response.status(),
            response.body(),
            evident::attempts_of(&response).len()
        );
    }
    Ok(())
}
