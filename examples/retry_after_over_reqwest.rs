//! Two POSTs over the reqwest engine against a loopback server that first
//! answers `503 Service Unavailable` with `Retry-After: 0`.
//!
//! The first POST declares nothing: a 503 is an ordinary answer, no proof
//! that the server did not act, so evident does not send it again (where
//! reqwest-retry would). The second carries a generated idempotency key,
//! which was sent with the head, so the 503 is retried after the delay the
//! server asked for and the server's 201 ends the call. Every attempt's
//! record is printed.
//!
//! ```text
//! cargo run --example retry_after_over_reqwest --features reqwest
//! ```

use std::time::Duration;

use evident::client::{Body, CallOptions, ClientBuilder, attempts_of};
use evident::reqwest::ReqwestEngine;
use evident::resilience::PipelineConfig;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// The server's answers, one connection each: the undeclared POST's 503,
/// then the keyed POST's 503 and the 201 of its retry.
const ANSWERS: [&[u8]; 3] = [
    b"HTTP/1.1 503 Service Unavailable\r\nretry-after: 0\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
    b"HTTP/1.1 503 Service Unavailable\r\nretry-after: 0\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
    b"HTTP/1.1 201 Created\r\ncontent-length: 7\r\nconnection: close\r\n\r\ncreated",
];

/// How long the server waits for the client to close a connection it
/// answered, so the answer is never cut short by the server's own close.
const LINGER: Duration = Duration::from_secs(5);

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let server = tokio::spawn(async move {
        for answer in ANSWERS {
            let (mut stream, _) = listener.accept().await?;
            let mut seen = Vec::new();
            let mut buf = [0u8; 1024];
            while !seen.windows(4).any(|w| w == b"\r\n\r\n") {
                let read = stream.read(&mut buf).await?;
                if read == 0 {
                    break;
                }
                seen.extend_from_slice(&buf[..read]);
            }
            stream.write_all(answer).await?;
            let _ = tokio::time::timeout(LINGER, async {
                while stream.read(&mut buf).await.is_ok_and(|n| n > 0) {}
            })
            .await;
        }
        std::io::Result::Ok(())
    });

    let client = ClientBuilder::new()
        .attempt_timeout(Duration::from_secs(5))
        .pipeline(PipelineConfig::disabled())
        .build(ReqwestEngine::builder().build()?)?;
    let url = format!("http://{addr}/orders");

    for (what, options) in [
        ("nothing declared", CallOptions::new()),
        (
            "idempotency key",
            CallOptions::new().generate_idempotency_key(),
        ),
    ] {
        let request = http::Request::post(&url)
            .header("content-type", "application/json")
            .body(Body::from(r#"{"item":42}"#))?;
        let response = client.execute(request, options).await?;
        println!("POST with {what}: {}", response.status());
        for record in attempts_of(&response) {
            println!("  {record}");
        }
    }
    server.await??;
    Ok(())
}
