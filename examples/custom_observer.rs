//! A custom `Observer`: the same attempt records the client logs through
//! `tracing`, received as data, here tallied into per-decision counters as
//! a metrics exporter would.
//!
//! The loopback server answers the first request with `503` and
//! `Retry-After: 0`, the second with `200`. The GET is declared idempotent,
//! so the 503 is retried at once; the observer sees both attempts, then the
//! end of the call.
//!
//! ```text
//! cargo run --example custom_observer --features hyper
//! ```

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use evident::client::{Body, CallOptions, ClientBuilder};
use evident::hyper::HyperEngine;
use evident::observe::{AttemptRecord, CallInfo, Observer};
use evident::resilience::PipelineConfig;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// Counts attempts by `decision(reason)` and calls by attempt count.
#[derive(Debug, Default)]
struct Tally {
    decisions: Mutex<BTreeMap<String, u32>>,
    calls: Mutex<BTreeMap<usize, u32>>,
}

impl Observer for Tally {
    fn on_attempt(&self, call: &CallInfo, record: &AttemptRecord) {
        // `CallInfo` holds the method, scheme, host, port and engine: never
        // the query, headers or body.
        println!(
            "  {} {}://{}:{} via {}: {record}",
            call.method, call.scheme, call.host, call.port, call.engine
        );
        let key = format!(
            "{}({})",
            record.decision.verb(),
            record.decision.reason_str()
        );
        *self.decisions.lock().unwrap().entry(key).or_default() += 1;
    }

    fn on_call_end(&self, _call: &CallInfo, records: &[AttemptRecord]) {
        *self.calls.lock().unwrap().entry(records.len()).or_default() += 1;
    }
}

/// How many connections the server accepts before it stops.
const CONNECTIONS: usize = 2;

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
                b"HTTP/1.1 503 Service Unavailable\r\nretry-after: 0\r\nconnection: close\r\ncontent-length: 0\r\n\r\n"
            } else {
                b"HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 2\r\n\r\nok"
            };
            stream.write_all(answer).await?;
        }
        std::io::Result::Ok(())
    });

    let tally = Arc::new(Tally::default());
    let client = ClientBuilder::new()
        .attempt_timeout(Duration::from_secs(2))
        .pipeline(PipelineConfig::disabled())
        .observer(tally.clone())
        .build(HyperEngine::builder().build()?)?;
    let request = http::Request::get(format!("http://{addr}/inventory")).body(Body::Empty)?;
    let response = client
        .execute(request, CallOptions::new().idempotent())
        .await?;
    println!("status: {}", response.status());

    println!("decisions: {:?}", tally.decisions.lock().unwrap());
    println!("calls by attempt count: {:?}", tally.calls.lock().unwrap());
    server.await??;
    Ok(())
}
