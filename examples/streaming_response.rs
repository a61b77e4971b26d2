//! A response handed over at its head and read as a stream, over the hyper
//! engine, against a loopback server that sends a chunked body.
//!
//! `execute_streaming` returns as soon as the response head arrived; the
//! body is read frame by frame by the caller. From that moment the response
//! counts as delivered: a failure while streaming is still classified and
//! observed, but never retried (the caller may already have used part of
//! it).
//!
//! ```text
//! cargo run --example streaming_response --features hyper
//! ```

use std::time::Duration;

use evident::client::{Body, CallOptions, ClientBuilder, attempts_of};
use evident::hyper::HyperEngine;
use evident::resilience::PipelineConfig;
use http_body_util::BodyExt;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// The chunks the server sends.
const CHUNKS: [&str; 3] = ["first line\n", "second line\n", "last line\n"];

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A loopback server answering one request with a chunked body.
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let server = tokio::spawn(async move {
        let (mut stream, _) = listener.accept().await?;
        let mut seen = Vec::new();
        let mut buf = [0u8; 1024];
        while !seen.windows(4).any(|w| w == b"\r\n\r\n") {
            let n = stream.read(&mut buf).await?;
            if n == 0 {
                return Ok(());
            }
            seen.extend_from_slice(&buf[..n]);
        }
        stream
            .write_all(b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n")
            .await?;
        for chunk in CHUNKS {
            let frame = format!("{:x}\r\n{chunk}\r\n", chunk.len());
            stream.write_all(frame.as_bytes()).await?;
            stream.flush().await?;
        }
        stream.write_all(b"0\r\n\r\n").await?;
        std::io::Result::Ok(())
    });

    let client = ClientBuilder::new()
        .attempt_timeout(Duration::from_secs(2))
        .pipeline(PipelineConfig::disabled())
        .build(HyperEngine::builder().build()?)?;
    let request = http::Request::get(format!("http://{addr}/log")).body(Body::Empty)?;
    let response = client
        .execute_streaming(request, CallOptions::new().idempotent())
        .await?;

    println!("status: {} (handed over at the head)", response.status());
    for record in attempts_of(&response) {
        println!("  {record}");
    }
    let mut body = response.into_body();
    while let Some(frame) = body.frame().await {
        if let Ok(data) = frame?.into_data() {
            print!(
                "  frame of {} bytes: {}",
                data.len(),
                String::from_utf8_lossy(&data)
            );
        }
    }
    server.await??;
    Ok(())
}
