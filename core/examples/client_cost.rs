//! The client layer's cost per call, without a network: N calls through the
//! client over a scripted engine that answers at once, or N calls to the
//! engine alone. The difference is what the client adds (admission,
//! planning, classification, the decision, the records).
//!
//! Timing this on a shared machine is noise; counting instructions is not.
//! Run each mode at two counts under cachegrind and take the difference per
//! call:
//!
//! ```text
//! cargo build --release -p evident-core --example client_cost
//! B=target/release/examples/client_cost
//! for n in 2000 12000; do
//!   valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null $B client $n 2>&1 | grep 'I *refs'
//! done
//! ```
//!
//! Modes: `engine`, `client` (an idempotent GET), `client-key` (a GET with a
//! generated idempotency key), `blocking-engine`, `blocking-client`.
//!
//! Each run ends by printing `allocations N`: the heap allocations the whole
//! run made (a counting global allocator), so the same two counts give the
//! allocations per call too. `cargo run -p evident-bench --release --bin
//! instructions` does all of this for every mode and prints the figures
//! per call against issue 22's goals.

use std::hint::black_box;

use evident_core::Progress;
use evident_core::client::{Body, CallOptions, ClientBuilder, blocking};
use evident_core::engine::{AttemptBody, BlockingAttemptBody, BlockingEngine, Engine};
use evident_core::testing::{ScriptedEngine, Step, attempt_context};
use http_body_util::BodyExt;

const URL: &str = "http://127.0.0.1:8080/x";
const USAGE: &str =
    "usage: client_cost engine|client|client-key|blocking-engine|blocking-client CALLS";

#[path = "support/counting_alloc.rs"]
mod counting_alloc;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    counting_alloc::main_with(USAGE, run)
}

fn run(mode: &str, calls: usize) -> Result<(), Box<dyn std::error::Error>> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()?;
    // It keeps no log of requests: copying each request's headers (the
    // generated key's among them) would count the engine's bookkeeping as
    // the client's.
    let engine = ScriptedEngine::new([Step::respond(200, "ok")]).keeping_no_requests();
    let uri: http::Uri = URL.parse()?;
    match mode {
        "engine" => runtime.block_on(async {
            let progress = Progress::new();
            for _ in 0..calls {
                let request = http::Request::get(uri.clone()).body(AttemptBody::Empty)?;
                let context = attempt_context(progress.clone(), None);
                let response = Engine::send(&engine, request, &context).await?;
                black_box(response.into_body().collect().await?.to_bytes());
            }
            Ok::<_, Box<dyn std::error::Error>>(())
        })?,
        "client" | "client-key" => {
            let client = ClientBuilder::new().build(engine)?;
            runtime.block_on(async {
                for _ in 0..calls {
                    let request = http::Request::get(uri.clone()).body(Body::Empty)?;
                    let options = match mode {
                        "client" => CallOptions::new().idempotent(),
                        _ => CallOptions::new().generate_idempotency_key(),
                    };
                    black_box(client.execute(request, options).await?);
                }
                Ok::<_, Box<dyn std::error::Error>>(())
            })?
        }
        "blocking-engine" => {
            let progress = Progress::new();
            for _ in 0..calls {
                let request = http::Request::get(uri.clone()).body(BlockingAttemptBody::Empty)?;
                let context = attempt_context(progress.clone(), None);
                let mut body = BlockingEngine::send(&engine, request, &context)?.into_body();
                while let Some(chunk) = body.next_chunk()? {
                    black_box(chunk);
                }
            }
        }
        "blocking-client" => {
            let client = ClientBuilder::new().build_blocking(engine)?;
            for _ in 0..calls {
                let request = http::Request::get(uri.clone()).body(blocking::Body::Empty)?;
                black_box(client.execute(request, CallOptions::new().idempotent())?);
            }
        }
        _ => return Err(USAGE.into()),
    }
    Ok(())
}
