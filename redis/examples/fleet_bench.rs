//! What sharing through Redis adds to a call: latency (p50, p99), CPU and
//! Redis round trips per call, for the shared rate limiter with and without
//! leasing and for the shared retry budget, each beside its local
//! counterpart. Starts its own redis-server on a free loopback port.
//!
//! ```sh
//! cargo run -p evident-redis --release --example fleet_bench
//! ```
//!
//! Goals (issue 20): at most 0.05 round trips per call for the budget,
//! 0.1 for the limiter with leasing, and 50 µs added at p99 on loopback.

#[path = "../tests/support/mod.rs"]
mod support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use evident_core::BudgetConfig;
use evident_core::decide::RetryBudget;
use evident_redis::{Fleet, FleetConfig, NO_LEASE};
use evident_resilience::{
    Origin, Pipeline, PipelineConfig, RateLimiterConfig, Scheme, SystemClock,
};

/// Calls per measurement: enough for a stable p99.
const CALLS: usize = 50_000;
/// Calls before measuring (connection, script cache, allocator).
const WARM_UP: usize = 2_000;
/// A limit the benchmark never reaches: it measures cost, not refusals.
const HIGH_LIMIT: u32 = 1_000_000;
/// The lease the leasing run takes.
const LEASE: u32 = 20;
/// Share of calls that retry in the budget runs.
const RETRY_EVERY: usize = 10;
/// Pause between calls (a sleep, so it costs no CPU): a real call takes
/// tens of microseconds at least, so back-to-back admissions at 0.1 µs
/// would measure a client no one runs. With the sleep's granularity this
/// is about 15,000 calls a second, still far above one process's usual
/// rate to one origin.
const PACE: Duration = Duration::from_micros(50);

struct Run {
    name: &'static str,
    latencies: Vec<Duration>,
    cpu: Duration,
    round_trips: u64,
}

impl Run {
    fn percentile(&self, p: f64) -> Duration {
        let mut sorted = self.latencies.clone();
        sorted.sort_unstable();
        sorted[((sorted.len() - 1) as f64 * p) as usize]
    }
    fn per_call(&self) -> f64 {
        self.round_trips as f64 / self.latencies.len() as f64
    }
}

/// CPU time of the whole process (every thread, the fleet's included).
fn cpu_time() -> Duration {
    // std has no portable way to read process CPU time; getrusage is the
    // one call that does.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage writes into the struct we own.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

async fn limiter_run(name: &'static str, pipeline: &Pipeline, fleet: Option<&Fleet>) -> Run {
    let origin = Origin::new(Scheme::Https, "bench.test", 443);
    for _ in 0..WARM_UP {
        pipeline.acquire(&origin).await.unwrap().record_success();
    }
    let trips = || fleet.map_or(0, |f| f.metrics().round_trips);
    let (trips_before, cpu_before) = (trips(), cpu_time());
    let mut latencies = Vec::with_capacity(CALLS);
    for _ in 0..CALLS {
        std::thread::sleep(PACE);
        let start = Instant::now();
        let permit = pipeline.acquire(&origin).await.expect("under the limit");
        permit.record_success();
        latencies.push(start.elapsed());
    }
    Run {
        name,
        latencies,
        cpu: cpu_time() - cpu_before,
        round_trips: trips() - trips_before,
    }
}

fn budget_run(name: &'static str, budget: &RetryBudget, fleet: Option<&Fleet>) -> Run {
    for _ in 0..WARM_UP {
        budget.deposit(Instant::now());
    }
    let trips = || fleet.map_or(0, |f| f.metrics().round_trips);
    let (trips_before, cpu_before) = (trips(), cpu_time());
    let mut latencies = Vec::with_capacity(CALLS);
    for i in 0..CALLS {
        std::thread::sleep(PACE);
        let start = Instant::now();
        budget.deposit(start);
        if i % RETRY_EVERY == 0 {
            let _ = budget.try_withdraw(start);
        }
        latencies.push(start.elapsed());
    }
    Run {
        name,
        latencies,
        cpu: cpu_time() - cpu_before,
        round_trips: trips() - trips_before,
    }
}

fn pipeline(limits: PipelineConfig) -> Pipeline {
    Pipeline::new(limits, Arc::new(SystemClock))
}

fn main() {
    let server = support::RedisServer::start();
    let fleet = Fleet::connect(
        FleetConfig::builder(server.url(), "evident-bench")
            .build()
            .expect("a valid configuration"),
    )
    .expect("the fleet's runtime starts");
    assert!(
        fleet.wait_until_shared(Duration::from_secs(5)),
        "{:?}",
        fleet.status()
    );
    let rate = RateLimiterConfig::builder(HIGH_LIMIT, Duration::from_secs(1))
        .build()
        .unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();

    let local = pipeline(PipelineConfig::disabled().rate_limiter(Some(rate.clone())));
    let shared = pipeline(PipelineConfig::disabled().rate_limit_provider(Arc::new(
        fleet.rate_limits(rate.clone()).lease(NO_LEASE).unwrap(),
    )));
    let leased = pipeline(PipelineConfig::disabled().rate_limit_provider(Arc::new(
        fleet.rate_limits(rate.clone()).lease(LEASE).unwrap(),
    )));
    let limiter_runs = runtime.block_on(async {
        [
            limiter_run("rate limiter, local", &local, None).await,
            limiter_run("rate limiter, shared, no lease", &shared, Some(&fleet)).await,
            limiter_run("rate limiter, shared, lease 20", &leased, Some(&fleet)).await,
        ]
    });

    let budget_config = BudgetConfig::default();
    let local_budget = RetryBudget::new(
        budget_config.ratio,
        budget_config.min_per_sec,
        budget_config.ttl,
    );
    let shared_budget = fleet.retry_budget(budget_config).unwrap();
    let budget_runs = [
        budget_run("retry budget, local", &local_budget, None),
        budget_run("retry budget, shared", &shared_budget, Some(&fleet)),
    ];

    println!(
        "{CALLS} calls each, one at a time, {PACE:?} apart, on loopback; redis-server {}\n",
        server.url()
    );
    println!(
        "| what | p50 | p99 | added p50 | added p99 | added CPU per call | round trips per call | goal |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    let print = |runs: &[Run], goals: &[&str]| {
        let base = &runs[0];
        for (run, goal) in runs.iter().zip(goals) {
            let added = |p: f64| run.percentile(p).saturating_sub(base.percentile(p));
            println!(
                "| {} | {:.1} µs | {:.1} µs | {:.1} µs | {:.1} µs | {:.2} µs | {:.4} | {} |",
                run.name,
                micros(run.percentile(0.50)),
                micros(run.percentile(0.99)),
                micros(added(0.50)),
                micros(added(0.99)),
                (micros(run.cpu) - micros(base.cpu)) / run.latencies.len() as f64,
                run.per_call(),
                goal,
            );
        }
    };
    print(
        &limiter_runs,
        &[
            "baseline",
            "(one round trip per call)",
            "≤ 0.1 trips, ≤ 50 µs p99",
        ],
    );
    print(&budget_runs, &["baseline", "≤ 0.05 trips, ≤ 50 µs p99"]);
    println!("\nfleet: {:?}, {:?}", fleet.status(), fleet.metrics());
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}
