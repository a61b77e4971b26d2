//! A POST over the isahc engine (libcurl), with nothing declared, whose
//! first answer is `425 Too Early`.
//!
//! An ordinary answered 503 would be final for a POST that declared
//! nothing: the server may have acted. A 425 is different: RFC 8470 §5.2
//! says the server did not process the request, so evident retries it
//! whatever the idempotency, and the loopback server's second answer, 201,
//! ends the call. Every attempt's record is printed.
//!
//! ```text
//! cargo run --example too_early_over_isahc --features isahc
//! ```

use std::time::Duration;

use evident::client::{Body, CallOptions, ClientBuilder, attempts_of};
use evident::isahc::IsahcEngine;
use evident::resilience::PipelineConfig;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// How many connections the server accepts before it stops.
const CONNECTIONS: usize = 2;

/// How long the server waits for the client to close a connection it
/// answered, so the answer is never cut short by the server's own close.
const LINGER: Duration = Duration::from_secs(5);

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let server = tokio::spawn(async move {
        for n in 0..CONNECTIONS {
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
            let answer: &[u8] = if n == 0 {
                b"HTTP/1.1 425 Too Early\r\ncontent-length: 0\r\n\r\n"
            } else {
                b"HTTP/1.1 201 Created\r\ncontent-length: 7\r\n\r\ncreated"
            };
            stream.write_all(answer).await?;
            // Let the client close first (it reads the whole answer).
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
        .build(IsahcEngine::builder().build()?)?;
    let request = http::Request::post(format!("http://{addr}/orders"))
        .header("content-type", "application/json")
        .body(Body::from(r#"{"item":42}"#))?;
    let response = client.execute(request, CallOptions::new()).await?;

    println!("status: {}", response.status());
    for record in attempts_of(&response) {
        println!("  {record}");
    }
    server.await??;
    Ok(())
}
