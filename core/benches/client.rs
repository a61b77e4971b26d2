//! A successful call through the client versus calling the scripted engine
//! directly: the difference is the client's cost per call.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use evident_core::client::{Body, CallOptions, ClientBuilder, blocking};
use evident_core::engine::{AttemptBody, BlockingAttemptBody, BlockingEngine, Engine};
use evident_core::resilience::PipelineConfig;
use evident_core::testing::{ScriptedEngine, Step};
use evident_core::{Progress, RetryPolicy};
use http_body_util::BodyExt;

const URL: &str = "http://127.0.0.1:8080/x";

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    let engine = ScriptedEngine::new([Step::respond(200, "ok")]);
    let progress = Progress::new();
    c.bench_function("async/engine_direct", |b| {
        b.iter(|| {
            rt.block_on(async {
                let request = http::Request::get(URL).body(AttemptBody::Empty).unwrap();
                let context = evident_core::testing::attempt_context(progress.clone(), None);
                let response = Engine::send(&engine, request, &context).await.unwrap();
                black_box(response.into_body().collect().await.unwrap().to_bytes())
            })
        })
    });
    for (name, pipeline) in [
        ("async/client_no_pipeline", PipelineConfig::disabled()),
        ("async/client_default_pipeline", PipelineConfig::default()),
    ] {
        let client = ClientBuilder::new()
            .policy(RetryPolicy::builder().no_budget().build().unwrap())
            .pipeline(pipeline)
            .build(ScriptedEngine::new([Step::respond(200, "ok")]))
            .unwrap();
        c.bench_function(name, |b| {
            b.iter(|| {
                rt.block_on(async {
                    let request = http::Request::get(URL).body(Body::Empty).unwrap();
                    black_box(client.execute(request, CallOptions::new()).await.unwrap())
                })
            })
        });
    }

    c.bench_function("blocking/engine_direct", |b| {
        b.iter(|| {
            let request = http::Request::get(URL)
                .body(BlockingAttemptBody::Empty)
                .unwrap();
            let context = evident_core::testing::attempt_context(progress.clone(), None);
            let response = BlockingEngine::send(&engine, request, &context).unwrap();
            let mut body = response.into_body();
            while let Some(chunk) = body.next_chunk().unwrap() {
                black_box(chunk);
            }
        })
    });
    let client = ClientBuilder::new()
        .policy(RetryPolicy::builder().no_budget().build().unwrap())
        .build_blocking(ScriptedEngine::new([Step::respond(200, "ok")]))
        .unwrap();
    c.bench_function("blocking/client_default_pipeline", |b| {
        b.iter(|| {
            let request = http::Request::get(URL).body(blocking::Body::Empty).unwrap();
            black_box(client.execute(request, CallOptions::new()).unwrap())
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
