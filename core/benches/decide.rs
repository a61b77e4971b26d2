//! One decision and one classification, measured.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use evident_core::*;

fn bench(c: &mut Criterion) {
    let policy = RetryPolicy::builder().no_budget().build().unwrap();
    let budgeted = RetryPolicy::builder().build().unwrap();
    let ctx = RetryContext {
        attempts_made: 1,
        attempts_allowed: 3,
        body: BodyReplay::Replayable,
        response_delivered: false,
        draining: false,
        remaining: Some(Duration::from_secs(5)),
        min_attempt_time: policy.min_attempt_time(),
        idempotency: Idempotency::Declared,
    };
    let timeout = Outcome::Failed {
        category: FailureCategory::Timeout,
        evidence: ExecutionEvidence::SentNoResponse,
    };
    let not_idempotent = RetryContext {
        idempotency: Idempotency::None,
        ..ctx
    };
    let now = Instant::now();
    c.bench_function("decide/retry_with_backoff", |b| {
        b.iter(|| policy.decide(black_box(&ctx), black_box(&timeout), now))
    });
    c.bench_function("decide/stop_not_idempotent", |b| {
        b.iter(|| policy.decide(black_box(&not_idempotent), black_box(&timeout), now))
    });
    c.bench_function("decide/retry_with_budget", |b| {
        // The budget refills as deposits arrive; deposit once per decision as
        // a client would (one call, one retry).
        b.iter(|| {
            budgeted.budget().unwrap().deposit(now);
            budgeted.decide(black_box(&ctx), black_box(&timeout), now)
        })
    });

    let progress = Progress::new();
    progress.counts_writes_exactly();
    progress.enter(AttemptStage::WriteHead);
    progress.wrote(200);
    progress.head_written();
    let snapshot = progress.snapshot();
    c.bench_function("classify/reset_after_head", |b| {
        b.iter(|| {
            classify(
                black_box(EngineSignal::ConnectionReset),
                black_box(&snapshot),
            )
        })
    });
    c.bench_function("classify/snapshot_and_classify", |b| {
        b.iter(|| classify(black_box(EngineSignal::TimedOut), &progress.snapshot()))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
