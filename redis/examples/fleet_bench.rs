//! What sharing through Redis adds to a call: latency (p50, p99), CPU and
//! Redis round trips per call, for the shared rate limiter with and without
//! leasing and for the shared retry budget, each beside its local
//! counterpart, and beside a raw redis-rs round trip running the same
//! script (the noise floor: what any client pays to ask Redis once).
//! Starts its own redis-server on a free loopback port.
//!
//! ```sh
//! cargo run -p evident-redis --release --example fleet_bench
//! ```
//!
//! The variants run in paired rounds: every round runs each of them for
//! [`CALLS_PER_ROUND`] calls, in an order that rotates from round to round,
//! so a burst of load from elsewhere on the machine lands on all of them
//! alike rather than on whichever ran at the time.
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

/// Rounds; each runs every variant once.
const ROUNDS: usize = 10;
/// Calls per variant per round: ROUNDS × this per variant in all, enough
/// for a stable p99.
const CALLS_PER_ROUND: usize = 2_000;
/// Calls before measuring (connections, script cache, allocator).
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
/// The GCRA script the shared limiter runs, for the raw round trips.
static GCRA: std::sync::LazyLock<redis::Script> =
    std::sync::LazyLock::new(|| redis::Script::new(include_str!("../src/lua/gcra_take.lua")));

/// One measured variant: its latencies, CPU and round trips, summed over
/// the rounds.
struct Run {
    name: &'static str,
    goal: &'static str,
    latencies: Vec<Duration>,
    cpu: Duration,
    round_trips: u64,
}

impl Run {
    fn new(name: &'static str, goal: &'static str) -> Self {
        Run {
            name,
            goal,
            latencies: Vec::with_capacity(ROUNDS * CALLS_PER_ROUND),
            cpu: Duration::ZERO,
            round_trips: 0,
        }
    }
    fn percentile(&self, p: f64) -> Duration {
        let mut sorted = self.latencies.clone();
        sorted.sort_unstable();
        sorted[((sorted.len() - 1) as f64 * p) as usize]
    }
    fn per_call(&self) -> f64 {
        self.round_trips as f64 / self.latencies.len() as f64
    }
    fn cpu_per_call(&self) -> f64 {
        micros(self.cpu) / self.latencies.len() as f64
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

/// One call of a variant.
enum Variant<'a> {
    /// An async admission through a pipeline.
    Limiter(&'a Pipeline),
    /// A blocking admission through a pipeline.
    LimiterBlocking(&'a Pipeline),
    /// The script over redis-rs, on the caller's own runtime.
    Raw(redis::aio::MultiplexedConnection),
    /// The script over redis-rs on another thread's runtime, the answer
    /// back through a oneshot: a raw round trip plus one thread hop each
    /// way, which is what any limiter shared by callers on many runtimes
    /// pays (the fleet's design).
    RawHop(tokio::runtime::Handle, redis::aio::MultiplexedConnection),
    /// A deposit, and every RETRY_EVERY-th call a withdrawal.
    Budget(&'a RetryBudget),
}

impl Variant<'_> {
    async fn call(&mut self, origin: &Origin, i: usize) {
        match self {
            Variant::Limiter(pipeline) => {
                let permit = pipeline.acquire(origin).await.expect("under the limit");
                permit.record_success();
            }
            Variant::LimiterBlocking(pipeline) => {
                let permit = pipeline.acquire_blocking(origin).expect("under the limit");
                permit.record_success();
            }
            Variant::Raw(connection) => {
                let _: (u64, u64, u64) = gcra().invoke_async(connection).await.unwrap();
            }
            Variant::RawHop(handle, connection) => {
                let (tx, rx) = tokio::sync::oneshot::channel();
                let invocation = gcra();
                let mut connection = connection.clone();
                handle.spawn(async move {
                    let reply: redis::RedisResult<(u64, u64, u64)> =
                        invocation.invoke_async(&mut connection).await;
                    let _ = tx.send(reply);
                });
                rx.await.unwrap().unwrap();
            }
            Variant::Budget(budget) => {
                let now = Instant::now();
                budget.deposit(now);
                if i.is_multiple_of(RETRY_EVERY) {
                    let _ = budget.try_withdraw(now);
                }
            }
        }
    }
}

/// The raw call: the limiter's script with the limiter's arguments, on a
/// key of its own.
fn gcra() -> redis::ScriptInvocation<'static> {
    let mut invocation = GCRA.key("evident-bench:raw");
    invocation
        .arg(1e6 / f64::from(HIGH_LIMIT))
        .arg(1e6)
        .arg(1)
        .arg(0)
        .arg(60_000);
    invocation
}

async fn measure(run: &mut Run, variant: &mut Variant<'_>, fleet: Option<&Fleet>, calls: usize) {
    let origin = Origin::new(Scheme::Https, "bench.test", 443);
    let trips = || fleet.map_or(0, |f| f.metrics().round_trips);
    let (trips_before, cpu_before) = (trips(), cpu_time());
    for i in 0..calls {
        std::thread::sleep(PACE);
        let start = Instant::now();
        variant.call(&origin, i).await;
        run.latencies.push(start.elapsed());
    }
    run.cpu += cpu_time() - cpu_before;
    run.round_trips += trips() - trips_before;
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
    // The other thread of the hop variant: a runtime like the fleet's.
    let other = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let other_handle = other.handle().clone();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let other_thread = std::thread::spawn(move || {
        other.block_on(async {
            let _ = stopped.await;
        })
    });
    let client = redis::Client::open(server.url()).unwrap();
    let own_connection = runtime
        .block_on(client.get_multiplexed_async_connection())
        .unwrap();
    let hop_connection = other_handle
        .block_on(client.get_multiplexed_async_connection())
        .unwrap();

    let local = pipeline(PipelineConfig::disabled().rate_limiter(Some(rate.clone())));
    let shared = pipeline(PipelineConfig::disabled().rate_limit_provider(Arc::new(
        fleet.rate_limits(rate.clone()).lease(NO_LEASE).unwrap(),
    )));
    let leased = pipeline(PipelineConfig::disabled().rate_limit_provider(Arc::new(
        fleet.rate_limits(rate.clone()).lease(LEASE).unwrap(),
    )));
    let budget_config = BudgetConfig::default();
    let local_budget = RetryBudget::new(
        budget_config.ratio,
        budget_config.min_per_sec,
        budget_config.ttl,
    );
    let shared_budget = fleet.retry_budget(budget_config).unwrap();

    let mut variants = vec![
        (
            Run::new("rate limiter, local", "baseline"),
            Variant::Limiter(&local),
            None,
        ),
        (
            Run::new("raw redis-rs EVALSHA, caller's runtime", "noise floor"),
            Variant::Raw(own_connection),
            None,
        ),
        (
            Run::new(
                "raw redis-rs EVALSHA, via another thread",
                "floor + thread hop",
            ),
            Variant::RawHop(other_handle, hop_connection),
            None,
        ),
        (
            Run::new("rate limiter, shared, no lease", "≤ 50 µs p99"),
            Variant::Limiter(&shared),
            Some(&fleet),
        ),
        (
            Run::new("rate limiter, shared, no lease, blocking", "≤ 50 µs p99"),
            Variant::LimiterBlocking(&shared),
            Some(&fleet),
        ),
        (
            Run::new("rate limiter, shared, lease 20", "≤ 0.1 trips, ≤ 50 µs p99"),
            Variant::Limiter(&leased),
            Some(&fleet),
        ),
        (
            Run::new("retry budget, local", "baseline"),
            Variant::Budget(&local_budget),
            None,
        ),
        (
            Run::new("retry budget, shared", "≤ 0.05 trips, ≤ 50 µs p99"),
            Variant::Budget(&shared_budget),
            Some(&fleet),
        ),
    ];

    runtime.block_on(async {
        for (_, variant, _) in &mut variants {
            let mut warm = Run::new("warm-up", "");
            measure(&mut warm, variant, None, WARM_UP).await;
        }
        for round in 0..ROUNDS {
            let n = variants.len();
            for k in 0..n {
                let (run, variant, fleet) = &mut variants[(round + k) % n];
                measure(run, variant, *fleet, CALLS_PER_ROUND).await;
            }
        }
    });
    let _ = stop.send(());
    other_thread.join().unwrap();

    println!(
        "{ROUNDS} paired rounds × {CALLS_PER_ROUND} calls per variant, one at a time, {PACE:?} apart, \
         on loopback; redis-server {}\n",
        server.url()
    );
    println!(
        "| what | p50 | p99 | added p50 | added p99 | added CPU per call | round trips per call | goal |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    let runs: Vec<Run> = variants.into_iter().map(|(run, _, _)| run).collect();
    // Each run beside its local counterpart: the limiter's runs and the raw
    // round trips beside the local limiter, the budget's beside the local
    // budget.
    let budget_base = runs
        .iter()
        .position(|run| run.name == "retry budget, local")
        .expect("the local budget runs");
    for (i, run) in runs.iter().enumerate() {
        let base = &runs[if i < budget_base { 0 } else { budget_base }];
        let added = |p: f64| run.percentile(p).saturating_sub(base.percentile(p));
        println!(
            "| {} | {:.1} µs | {:.1} µs | {:.1} µs | {:.1} µs | {:.2} µs | {:.4} | {} |",
            run.name,
            micros(run.percentile(0.50)),
            micros(run.percentile(0.99)),
            micros(added(0.50)),
            micros(added(0.99)),
            run.cpu_per_call() - base.cpu_per_call(),
            if run.name.starts_with("raw") {
                1.0 // one EVALSHA per call, by construction
            } else {
                run.per_call()
            },
            run.goal,
        );
    }
    println!("\nfleet: {:?}, {:?}", fleet.status(), fleet.metrics());
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}
