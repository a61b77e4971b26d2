//! A POST carrying an idempotency key, over the hyper engine, against a
//! loopback server that reads the first request and closes without
//! answering (the server may have acted: the outcome is ambiguous).
//!
//! Because the key was actually sent with the first attempt, the repeat is
//! safe and evident retries; a POST without a key would stop. Every attempt
//! is printed with its stage, category, evidence and decision, and the
//! `tracing` events are printed too.
//!
//! ```text
//! cargo run --example idempotency_key_over_hyper --features hyper
//! ```

use std::time::Duration;

use evident::client::{Body, CallOptions, ClientBuilder, attempts_of};
use evident::hyper::HyperEngine;
use evident::resilience::PipelineConfig;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// Reads one request head (and a small body) from `stream`.
async fn read_request(stream: &mut tokio::net::TcpStream) -> String {
    let mut seen = Vec::new();
    let mut buf = [0u8; 1024];
    while !seen.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = stream.read(&mut buf).await.expect("read");
        if n == 0 {
            break;
        }
        seen.extend_from_slice(&buf[..n]);
    }
    String::from_utf8_lossy(&seen).into_owned()
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    tracing_subscriber::fmt().with_target(false).init();

    // A loopback server: the first request is read and the connection closed
    // with no answer; the second gets a 201. It remembers the keys it saw.
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let server = tokio::spawn(async move {
        let mut keys = Vec::new();
        for n in 0..2 {
            let (mut stream, _) = listener.accept().await.expect("accept");
            let head = read_request(&mut stream).await;
            keys.extend(
                head.lines()
                    .filter_map(|l| l.strip_prefix("idempotency-key: "))
                    .map(str::to_owned),
            );
            if n == 1 {
                let _ = stream
                    .write_all(b"HTTP/1.1 201 Created\r\ncontent-length: 2\r\n\r\nok")
                    .await;
            }
        }
        keys
    });

    let client = ClientBuilder::new()
        .attempt_timeout(Duration::from_secs(2))
        .pipeline(PipelineConfig::disabled())
        .build(HyperEngine::builder().build()?)?;
    let request = http::Request::post(format!("http://{addr}/payments"))
        .header("content-type", "application/json")
        .body(Body::from(r#"{"amount":100}"#))?;
    let response = client
        .execute(request, CallOptions::new().generate_idempotency_key())
        .await?;

    println!("status: {}", response.status());
    for record in attempts_of(&response) {
        println!("  {record}");
    }
    let keys = server.await?;
    println!("the server saw the key {} times: {:?}", keys.len(), keys);
    Ok(())
}
