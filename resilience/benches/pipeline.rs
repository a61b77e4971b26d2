//! Cost of one attempt's way through the pipeline: acquire (circuit breaker →
//! rate limiter → bulkhead) and record a success, for an origin already known
//! to the registry. Target: ≤ 200 ns uncontended.

use std::hint::black_box;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use evident_resilience::*;

fn all_three() -> PipelineConfig {
    PipelineConfig::default().rate_limiter(Some(
        // A limit that is never reached: the benchmark measures the path, not
        // rejections.
        RateLimiterConfig::builder(u32::MAX, Duration::from_secs(1))
            .build()
            .unwrap(),
    ))
}

fn attempt(pipeline: &Pipeline, origin: &Origin) {
    let permit = pipeline.acquire_blocking(black_box(origin)).unwrap();
    permit.record_success();
}

fn bench(c: &mut Criterion) {
    let origin = Origin::new(Scheme::Https, "api.example.com", 443);
    let mut group = c.benchmark_group("acquire_and_record");

    for (name, config) in [
        ("default_breaker_and_bulkhead", PipelineConfig::default()),
        ("breaker_rate_limiter_bulkhead", all_three()),
    ] {
        let pipeline = Pipeline::new(config.clone(), Arc::new(SystemClock));
        attempt(&pipeline, &origin);
        group.bench_function(format!("uncontended/{name}"), |b| {
            b.iter(|| attempt(&pipeline, &origin))
        });

        // Two threads on the same origin; reports the time per attempt seen
        // by each thread while the other does the same.
        let pipeline = Arc::new(Pipeline::new(config, Arc::new(SystemClock)));
        attempt(&pipeline, &origin);
        group.bench_function(format!("two_threads_same_origin/{name}"), |b| {
            b.iter_custom(|iters| {
                let barrier = Arc::new(Barrier::new(2));
                let other = {
                    let (pipeline, origin, barrier) =
                        (pipeline.clone(), origin.clone(), barrier.clone());
                    std::thread::spawn(move || {
                        barrier.wait();
                        for _ in 0..iters {
                            attempt(&pipeline, &origin);
                        }
                    })
                };
                barrier.wait();
                let start = Instant::now();
                for _ in 0..iters {
                    attempt(&pipeline, &origin);
                }
                let elapsed = start.elapsed();
                other.join().unwrap();
                elapsed
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
