//! A fleet of clients sharing one rate limit and one retry budget through
//! Redis: 10 calls a second to the origin for every process running this
//! example together.
//!
//! Start a throwaway Redis, then run the example (in two terminals at once
//! to watch them share):
//!
//! ```text
//! redis-server --port 6379 --save '' --appendonly no
//! cargo run --example fleet_over_hyper --features hyper,redis
//! ```
//!
//! Set `REDIS_URL` for another Redis. Without a Redis the example still
//! runs, on local limits (10 a second divided by the expected fleet size
//! of 2), and says so: Redis trouble never fails a call.

use std::sync::Arc;
use std::time::Duration;

use evident::client::{Body, CallOptions, ClientBuilder};
use evident::hyper::HyperEngine;
use evident::redis::{Fleet, FleetConfig};
use evident::resilience::{LocalRejection, PipelineConfig, RateLimiterConfig};
use evident::{BudgetConfig, RetryPolicy};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// Calls this process makes: more than the fleet's 10 a second.
const CALLS: usize = 25;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A loopback origin answering 200 to every request.
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut seen = Vec::new();
                let mut buf = [0u8; 1024];
                while !seen.windows(4).any(|w| w == b"\r\n\r\n") {
                    match stream.read(&mut buf).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => seen.extend_from_slice(&buf[..n]),
                    }
                }
                let _ = stream
                    .write_all(
                        b"HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 2\r\n\r\nok",
                    )
                    .await;
            });
        }
    });

    let url = std::env::var("REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".to_owned());
    // One key prefix per fleet: every process of this example shares it.
    let fleet = Fleet::connect(
        FleetConfig::builder(url, "evident-example")
            .expected_fleet_size(2)
            .build()?,
    )?;
    println!("fleet: {:?}", fleet.status());

    let limits = fleet.rate_limits(RateLimiterConfig::builder(10, Duration::from_secs(1)).build()?);
    let client = ClientBuilder::new()
        .pipeline(PipelineConfig::default().rate_limit_provider(Arc::new(limits)))
        .policy(
            RetryPolicy::builder()
                .shared_budget(fleet.retry_budget(BudgetConfig::default())?)
                .build()?,
        )
        .build(HyperEngine::builder().build()?)?;

    let (mut ok, mut limited) = (0, 0);
    for _ in 0..CALLS {
        let request = http::Request::get(format!("http://{addr}/quota")).body(Body::Empty)?;
        match client.execute(request, CallOptions::new()).await {
            Ok(_) => ok += 1,
            Err(e) if matches!(e.rejection(), Some(LocalRejection::RateLimited { .. })) => {
                limited += 1
            }
            Err(e) => return Err(e.into()),
        }
    }
    println!("{ok} calls went through, {limited} were held back by the fleet's rate limit");
    println!("fleet: {:?}, {:?}", fleet.status(), fleet.metrics());
    Ok(())
}
