//! Concurrency stress: threads and tokio tasks hammer two origins with random
//! outcomes while the clock moves; afterwards every permission of every
//! component must be accounted for exactly once.
//!
//! Interleavings differ from run to run, but the random choices are seeded
//! and the loops bounded, and the invariants checked hold for every
//! interleaving: nothing lost (in flight at the end), nothing returned twice
//! (counters would exceed acquisitions, and the internal counts would
//! underflow and panic).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use evident_resilience::*;

const THREADS: u64 = 4;
const THREAD_ITERATIONS: u64 = 5000;
const TASKS: u64 = 8;
const TASK_ITERATIONS: u64 = 2000;
const SEED: u64 = 0x5eed_cafe_f00d_0001;

/// SplitMix64: small, seeded, good enough to pick outcomes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// What the workers saw, summed over all of them.
#[derive(Default)]
struct Tally {
    admitted: AtomicU64,
    circuit_open: AtomicU64,
    rate_limited: AtomicU64,
    bulkhead_full: AtomicU64,
    completed: AtomicU64,
    given_back: AtomicU64,
}

impl Tally {
    fn count(&self, counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }
    fn get(counter: &AtomicU64) -> u64 {
        counter.load(Ordering::Relaxed)
    }

    fn rejected(&self, rejection: &LocalRejection) {
        match rejection {
            LocalRejection::CircuitOpen { .. } => self.count(&self.circuit_open),
            LocalRejection::RateLimited { .. } => self.count(&self.rate_limited),
            LocalRejection::BulkheadFull { .. } => self.count(&self.bulkhead_full),
            other => panic!("unexpected rejection {other}"),
        }
    }

    /// Ends `permit` in one of five ways, at random.
    fn finish(&self, permit: AttemptPermit, rng: &mut Rng) {
        self.count(&self.admitted);
        // About 37 % of completed attempts fail: near the 50 % threshold of
        // a 20-call window, so circuits keep opening and closing.
        match rng.below(6) {
            0 | 1 => {
                permit.record_success();
                self.count(&self.completed);
            }
            2 => {
                permit.record_failure();
                self.count(&self.completed);
            }
            3 => {
                permit.record_status([200, 404, 500, 503][rng.below(4) as usize]);
                self.count(&self.completed);
            }
            4 => {
                permit.record_ignored();
                self.count(&self.given_back);
            }
            _ => {
                drop(permit);
                self.count(&self.given_back);
            }
        }
    }
}

fn config() -> PipelineConfig {
    PipelineConfig::default()
        .circuit_breaker(Some(
            CircuitBreakerConfig::builder()
                .sliding_window_size(20)
                .minimum_number_of_calls(10)
                .failure_rate_threshold(50.0)
                .wait_duration_in_open_state(Duration::from_millis(3))
                .permitted_calls_in_half_open_state(3)
                .max_wait_in_half_open_state(Some(Duration::from_millis(20)))
                .build()
                .unwrap(),
        ))
        .rate_limiter(Some(
            RateLimiterConfig::builder(10, Duration::from_millis(5))
                .max_wait(Duration::from_millis(1))
                .build()
                .unwrap(),
        ))
        .bulkhead(Some(
            BulkheadConfig::builder()
                .max_concurrent(3)
                .max_wait(Duration::from_micros(200))
                .build()
                .unwrap(),
        ))
}

fn origins() -> [Origin; 2] {
    [
        Origin::new(Scheme::Https, "a.test", 443),
        Origin::new(Scheme::Https, "b.test", 443),
    ]
}

#[test]
fn concurrent_attempts_with_random_outcomes_lose_and_double_return_no_permit() {
    let clock = ManualClock::new();
    let pipeline = Arc::new(Pipeline::new(config(), Arc::new(clock.clone())));
    let tally = Arc::new(Tally::default());

    std::thread::scope(|scope| {
        for worker in 0..THREADS {
            let (pipeline, tally, clock) = (&pipeline, &tally, &clock);
            scope.spawn(move || {
                let mut rng = Rng(SEED ^ worker);
                let origins = origins();
                let mut held = Vec::new();
                for _ in 0..THREAD_ITERATIONS {
                    if rng.below(8) == 0 {
                        clock.advance(Duration::from_micros(rng.below(2000)));
                    }
                    let origin = &origins[rng.below(2) as usize];
                    match pipeline.acquire_blocking(origin) {
                        Ok(permit) if rng.below(3) == 0 => held.push(permit),
                        Ok(permit) => tally.finish(permit, &mut rng),
                        Err(rejection) => tally.rejected(&rejection),
                    }
                    if held.len() > 2 || (!held.is_empty() && rng.below(2) == 0) {
                        let permit = held.swap_remove(rng.below(held.len() as u64) as usize);
                        tally.finish(permit, &mut rng);
                    }
                }
                for permit in held {
                    tally.finish(permit, &mut rng);
                }
            });
        }

        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_time()
            .build()
            .unwrap();
        runtime.block_on(async {
            let tasks: Vec<_> = (0..TASKS)
                .map(|task| {
                    let (pipeline, tally, clock) = (pipeline.clone(), tally.clone(), clock.clone());
                    tokio::spawn(async move {
                        let mut rng = Rng(SEED ^ (THREADS + task));
                        let origins = origins();
                        for _ in 0..TASK_ITERATIONS {
                            if rng.below(8) == 0 {
                                clock.advance(Duration::from_micros(rng.below(2000)));
                            }
                            let origin = &origins[rng.below(2) as usize];
                            match pipeline.acquire(origin).await {
                                Ok(permit) => {
                                    if rng.below(2) == 0 {
                                        tokio::task::yield_now().await;
                                    }
                                    tally.finish(permit, &mut rng);
                                }
                                Err(rejection) => tally.rejected(&rejection),
                            }
                        }
                    })
                })
                .collect();
            // Cancel some acquisitions mid-wait and some attempts mid-flight.
            let mut rng = Rng(SEED);
            for i in 0..200u64 {
                let pipeline = pipeline.clone();
                let tally = tally.clone();
                let cancelled = tokio::spawn(async move {
                    match pipeline.acquire(&origins()[(i % 2) as usize]).await {
                        Ok(permit) => {
                            tally.count(&tally.admitted);
                            tally.count(&tally.given_back);
                            let _permit = permit;
                            std::future::pending::<()>().await;
                        }
                        Err(rejection) => tally.rejected(&rejection),
                    }
                });
                if rng.below(2) == 0 {
                    tokio::task::yield_now().await;
                }
                cancelled.abort();
                let _ = cancelled.await;
            }
            for task in tasks {
                task.await.unwrap();
            }
        });
    });

    let mut sum = [0u64; 4];
    for origin in origins() {
        let metrics = pipeline.metrics(&origin).expect("origin was used");
        let circuit = metrics.circuit_breaker.unwrap();
        let rate = metrics.rate_limiter.unwrap();
        let bulkhead = metrics.bulkhead.unwrap();

        assert_eq!(circuit.in_flight, 0, "{origin}: {circuit:?}");
        assert_eq!(
            circuit.acquired,
            circuit.recorded + circuit.returned,
            "{origin}"
        );
        assert_eq!(circuit.trials_in_flight, 0, "{origin}: {circuit:?}");
        assert_eq!(rate.in_flight, 0, "{origin}: {rate:?}");
        assert_eq!(rate.acquired, rate.consumed + rate.returned, "{origin}");
        assert!(
            rate.available <= 10,
            "{origin}: more than the limit: {rate:?}"
        );
        assert_eq!((bulkhead.in_use, bulkhead.waiting), (0, 0), "{origin}");
        assert_eq!(bulkhead.acquired, bulkhead.released, "{origin}");

        // Every circuit admission went on to the rate limiter; every token
        // went on to the bulkhead, except those of acquisitions cancelled
        // while waiting (at most the 200 cancelled tasks).
        assert_eq!(circuit.acquired, rate.acquired + rate.rejected, "{origin}");
        let reached_bulkhead = bulkhead.acquired + bulkhead.rejected;
        assert!(rate.acquired >= reached_bulkhead, "{origin}");
        assert!(rate.acquired - reached_bulkhead <= 200, "{origin}");
        sum[0] += circuit.rejected;
        sum[1] += rate.rejected;
        sum[2] += bulkhead.rejected;
        sum[3] += bulkhead.acquired;
        assert_eq!(circuit.recorded, rate.consumed, "{origin}");
    }
    assert_eq!(sum[0], Tally::get(&tally.circuit_open));
    assert_eq!(sum[1], Tally::get(&tally.rate_limited));
    assert_eq!(sum[2], Tally::get(&tally.bulkhead_full));
    assert_eq!(sum[3], Tally::get(&tally.admitted));
    assert_eq!(
        Tally::get(&tally.admitted),
        Tally::get(&tally.completed) + Tally::get(&tally.given_back)
    );
    eprintln!(
        "admitted {}, circuit open {}, rate limited {}, bulkhead full {}, completed {}, given back {}",
        Tally::get(&tally.admitted),
        Tally::get(&tally.circuit_open),
        Tally::get(&tally.rate_limited),
        Tally::get(&tally.bulkhead_full),
        Tally::get(&tally.completed),
        Tally::get(&tally.given_back),
    );
    // The run exercised every path.
    for (name, counter) in [
        ("circuit open", &tally.circuit_open),
        ("rate limited", &tally.rate_limited),
        ("bulkhead full", &tally.bulkhead_full),
        ("completed", &tally.completed),
        ("given back", &tally.given_back),
    ] {
        assert!(Tally::get(counter) > 0, "no {name} in the run");
    }
}
