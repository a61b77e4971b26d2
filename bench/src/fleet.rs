//! What sharing limits through Redis adds to a call (issue 20): latency
//! (p50, p99), CPU and Redis round trips per call, for the shared rate
//! limiter with and without leasing and for the shared retry budget, each
//! beside its local counterpart, and beside a raw redis-rs round trip
//! running the limiter's script (the noise floor: what any client pays to
//! ask Redis once).
//!
//! ```sh
//! cargo run -p evident-bench --release --bin fleet              # the full run (about a minute)
//! cargo run -p evident-bench --release --bin fleet -- --smoke   # tiny counts
//! ```
//!
//! It starts its own `redis-server` on a free loopback port, without
//! persistence (the one evident-redis' tests start), so it needs no running
//! Redis; without `redis-server` installed the `fleet` binary says so and
//! skips.
//!
//! The variants run in paired rounds: every round runs each of them for
//! [`FleetPlan::calls`] calls, in an order that rotates from round to
//! round, so a burst of load from elsewhere on the machine lands on all of
//! them alike rather than on whichever ran at the time. Calls are made one
//! at a time, [`PACE`] apart.
//!
//! Goals (issue 20): at most [`BUDGET_ROUND_TRIPS_GOAL`] round trips per
//! call for the budget, [`LEASED_ROUND_TRIPS_GOAL`] for the limiter with
//! leasing, and [`ADDED_P99_GOAL`] added at p99 on loopback.

#[path = "../../redis/tests/support/mod.rs"]
mod redis_server;

use std::sync::Arc;
use std::time::{Duration, Instant};

use evident_core::BudgetConfig;
use evident_core::decide::RetryBudget;
use evident_core::resilience::{
    Origin, Pipeline, PipelineConfig, RateLimiterConfig, Scheme, SystemClock,
};
use evident_redis::{Fleet, FleetConfig, FleetMetrics, FleetStatus, NO_LEASE};

use crate::measure::Counters;

/// Issue 20: the shared budget makes at most this many Redis round trips
/// per call.
pub const BUDGET_ROUND_TRIPS_GOAL: f64 = 0.05;
/// Issue 20: the leased shared limiter makes at most this many Redis round
/// trips per call.
pub const LEASED_ROUND_TRIPS_GOAL: f64 = 0.1;
/// Issue 20: sharing adds at most this much latency at p99 on loopback.
pub const ADDED_P99_GOAL: Duration = Duration::from_micros(50);

/// Paired rounds of the full run; each runs every variant once.
pub const DEFAULT_ROUNDS: usize = 10;
/// Calls per variant per round of the full run: 20,000 per variant in
/// all, enough for a stable p99.
pub const DEFAULT_CALLS: usize = 2_000;
/// Calls per variant before the first round (connections, script cache,
/// allocator).
pub const DEFAULT_WARMUP: usize = 2_000;
/// Pause between calls (a sleep, so it costs no CPU): a real call takes
/// tens of microseconds at least, so back-to-back admissions at 0.1 µs
/// would measure a client no one runs. With the sleep's granularity this
/// is about 15,000 calls a second, still far above one process's usual
/// rate to one origin.
pub const PACE: Duration = Duration::from_micros(50);
/// The lease the leasing variant takes.
pub const LEASE: u32 = 20;
/// A limit the benchmark never reaches: it measures cost, not refusals.
const HIGH_LIMIT: u32 = 1_000_000;
/// Every this many calls, a budget variant's call also retries.
const RETRY_EVERY: usize = 10;
/// Longest the run waits for the fleet to join the fresh server.
const JOIN_TIMEOUT: Duration = Duration::from_secs(5);
/// The GCRA script the shared limiter runs, for the raw round trips.
static GCRA: std::sync::LazyLock<redis::Script> = std::sync::LazyLock::new(|| {
    redis::Script::new(include_str!("../../redis/src/lua/gcra_take.lua"))
});

/// What to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FleetPlan {
    /// Paired rounds.
    pub rounds: usize,
    /// Calls per variant per round.
    pub calls: usize,
    /// Calls per variant before the first round.
    pub warmup: usize,
}

impl FleetPlan {
    /// The full run: about a minute.
    pub fn full() -> FleetPlan {
        FleetPlan {
            rounds: DEFAULT_ROUNDS,
            calls: DEFAULT_CALLS,
            warmup: DEFAULT_WARMUP,
        }
    }

    /// Tiny counts that check the run works, not how fast anything is.
    pub fn smoke() -> FleetPlan {
        FleetPlan {
            rounds: 2,
            calls: 100,
            warmup: 20,
        }
    }
}

/// Whether `redis-server` can be started from the `PATH`.
pub fn redis_server_installed() -> bool {
    std::process::Command::new("redis-server")
        .arg("--version")
        .output()
        .is_ok_and(|out| out.status.success())
}

/// The issue's goals for one variant, if it has any.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Goal {
    /// Most Redis round trips per call.
    pub round_trips: Option<f64>,
    /// Most latency added at p99 over the local counterpart.
    pub added_p99: Option<Duration>,
}

/// One measured variant: its latencies, CPU and round trips, summed over
/// the rounds.
#[derive(Debug, Clone)]
pub struct FleetResult {
    /// What was measured.
    pub name: &'static str,
    /// The index of its local counterpart in [`FleetReport::results`] (its
    /// own for a local variant): the "added" columns are over it.
    pub baseline: usize,
    /// What it is held to, for the shared variants; what it is, for the
    /// others.
    pub goal: Goal,
    /// Every measured call's latency, sorted.
    pub latencies: Vec<Duration>,
    /// CPU time of the whole process (the fleet's thread included) while
    /// it ran.
    pub cpu: Duration,
    /// Redis round trips while it ran (the fleet's count; for the raw
    /// variants, one per call).
    pub round_trips: u64,
}

impl FleetResult {
    /// Calls measured.
    pub fn calls(&self) -> usize {
        self.latencies.len()
    }

    /// The latency below which a share `p` of the calls stayed.
    pub fn percentile(&self, p: f64) -> Duration {
        self.latencies
            .get(((self.latencies.len().saturating_sub(1)) as f64 * p) as usize)
            .copied()
            .unwrap_or_default()
    }

    /// Round trips per call.
    pub fn round_trips_per_call(&self) -> f64 {
        self.round_trips as f64 / self.calls().max(1) as f64
    }

    /// CPU per call, in microseconds.
    pub fn cpu_us_per_call(&self) -> f64 {
        self.cpu.as_secs_f64() * 1e6 / self.calls().max(1) as f64
    }
}

/// A whole run.
#[derive(Debug, Clone)]
pub struct FleetReport {
    /// What was run.
    pub plan: FleetPlan,
    /// The server's URL (a fresh loopback port).
    pub server: String,
    /// The variants, each local one before those measured beside it.
    pub results: Vec<FleetResult>,
    /// Whether the fleet still shared at the end (a fallback mid-run would
    /// make the shared rows local ones).
    pub shared_at_end: bool,
    /// The fleet's counters at the end (fallbacks, deadline overruns).
    pub metrics: FleetMetrics,
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
    /// A deposit, and every [`RETRY_EVERY`]-th call a withdrawal.
    Budget(&'a RetryBudget),
}

/// Where a variant's round trips are counted.
#[derive(Clone, Copy)]
enum Trips<'a> {
    /// None are made.
    None,
    /// The fleet's counter.
    Fleet(&'a Fleet),
    /// One per call, by construction.
    OnePerCall,
}

impl Variant<'_> {
    async fn call(&mut self, origin: &Origin, i: usize) -> Result<(), String> {
        match self {
            Variant::Limiter(pipeline) => {
                let permit = pipeline.acquire(origin).await.map_err(|e| e.to_string())?;
                permit.record_success();
            }
            Variant::LimiterBlocking(pipeline) => {
                let permit = pipeline
                    .acquire_blocking(origin)
                    .map_err(|e| e.to_string())?;
                permit.record_success();
            }
            Variant::Raw(connection) => {
                let _: (u64, u64, u64) = gcra()
                    .invoke_async(connection)
                    .await
                    .map_err(|e| e.to_string())?;
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
                rx.await
                    .map_err(|_| "the other thread's runtime stopped".to_string())?
                    .map_err(|e| e.to_string())?;
            }
            Variant::Budget(budget) => {
                let now = Instant::now();
                budget.deposit(now);
                if i.is_multiple_of(RETRY_EVERY) {
                    let _ = budget.try_withdraw(now);
                }
            }
        }
        Ok(())
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

/// Makes `calls` calls of `variant`, [`PACE`] apart, adding what they
/// took to `result` (when there is one: the warm-up has none).
async fn measure(
    result: Option<&mut FleetResult>,
    variant: &mut Variant<'_>,
    trips: Trips<'_>,
    calls: usize,
) -> Result<(), String> {
    let origin = Origin::new(Scheme::Https, "bench.test", 443);
    let fleet_trips = || match trips {
        Trips::Fleet(fleet) => fleet.metrics().round_trips,
        Trips::None | Trips::OnePerCall => 0,
    };
    let mut latencies = Vec::with_capacity(calls);
    let (trips_before, before) = (fleet_trips(), Counters::now());
    for i in 0..calls {
        std::thread::sleep(PACE);
        let start = Instant::now();
        variant.call(&origin, i).await?;
        latencies.push(start.elapsed());
    }
    let cost = Counters::now().since(before);
    if let Some(result) = result {
        result.latencies.extend(latencies);
        result.cpu += cost.client_cpu;
        result.round_trips += match trips {
            Trips::OnePerCall => calls as u64,
            Trips::None | Trips::Fleet(_) => fleet_trips() - trips_before,
        };
    }
    Ok(())
}

fn pipeline(config: PipelineConfig) -> Pipeline {
    Pipeline::new(config, Arc::new(SystemClock))
}

/// Starts a `redis-server` on a free loopback port and measures every
/// variant under `plan`. `note` hears what is starting (for a progress
/// line on stderr).
///
/// # Errors
///
/// `redis-server` is not installed (see [`redis_server_installed`]), the
/// fleet did not join it, or a call failed (a refusal or an error from
/// Redis: the run measures cost, and none should happen).
pub fn run(
    plan: FleetPlan,
    mut note: impl FnMut(&str),
) -> Result<FleetReport, Box<dyn std::error::Error>> {
    if !redis_server_installed() {
        return Err(
            "redis-server is not installed (apt-get install -y redis-server; .ci/run does)".into(),
        );
    }
    note("redis-server on a free loopback port");
    let server = redis_server::RedisServer::start();
    let fleet = Fleet::connect(FleetConfig::builder(server.url(), "evident-bench").build()?)?;
    if !fleet.wait_until_shared(JOIN_TIMEOUT) {
        return Err(format!(
            "the fleet did not join {}: {:?}",
            server.url(),
            fleet.status()
        )
        .into());
    }
    let rate = RateLimiterConfig::builder(HIGH_LIMIT, Duration::from_secs(1)).build()?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    // The other thread of the hop variant: a runtime like the fleet's.
    let other = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let other_handle = other.handle().clone();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let other_thread = std::thread::spawn(move || {
        other.block_on(async {
            let _ = stopped.await;
        })
    });
    let client = redis::Client::open(server.url())?;
    let own_connection = runtime.block_on(client.get_multiplexed_async_connection())?;
    let hop_connection = other_handle.block_on(client.get_multiplexed_async_connection())?;

    let local = pipeline(PipelineConfig::disabled().rate_limiter(Some(rate.clone())));
    let shared = pipeline(
        PipelineConfig::disabled()
            .rate_limit_provider(Arc::new(fleet.rate_limits(rate.clone()).lease(NO_LEASE)?)),
    );
    let leased = pipeline(
        PipelineConfig::disabled()
            .rate_limit_provider(Arc::new(fleet.rate_limits(rate).lease(LEASE)?)),
    );
    let budget_config = BudgetConfig::default();
    let local_budget = RetryBudget::new(
        budget_config.ratio,
        budget_config.min_per_sec,
        budget_config.ttl,
    );
    let shared_budget = fleet.retry_budget(budget_config)?;

    let held_to = |round_trips: Option<f64>| Goal {
        round_trips,
        added_p99: Some(ADDED_P99_GOAL),
    };
    // (name, whether it is local (the baseline of those after it), goal,
    // the call, where its round trips are counted)
    let mut variants = vec![
        (
            "rate limiter, local",
            true,
            Goal::default(),
            Variant::Limiter(&local),
            Trips::None,
        ),
        (
            "raw redis-rs EVALSHA, caller's runtime (noise floor)",
            false,
            Goal::default(),
            Variant::Raw(own_connection),
            Trips::OnePerCall,
        ),
        (
            "raw redis-rs EVALSHA, via another thread (floor + hop)",
            false,
            Goal::default(),
            Variant::RawHop(other_handle, hop_connection),
            Trips::OnePerCall,
        ),
        (
            "rate limiter, shared, no lease",
            false,
            held_to(None),
            Variant::Limiter(&shared),
            Trips::Fleet(&fleet),
        ),
        (
            "rate limiter, shared, no lease, blocking",
            false,
            held_to(None),
            Variant::LimiterBlocking(&shared),
            Trips::Fleet(&fleet),
        ),
        (
            "rate limiter, shared, lease 20",
            false,
            held_to(Some(LEASED_ROUND_TRIPS_GOAL)),
            Variant::Limiter(&leased),
            Trips::Fleet(&fleet),
        ),
        (
            "retry budget, local",
            true,
            Goal::default(),
            Variant::Budget(&local_budget),
            Trips::None,
        ),
        (
            "retry budget, shared",
            false,
            held_to(Some(BUDGET_ROUND_TRIPS_GOAL)),
            Variant::Budget(&shared_budget),
            Trips::Fleet(&fleet),
        ),
    ];
    let mut baseline = 0;
    let mut results: Vec<FleetResult> = variants
        .iter()
        .enumerate()
        .map(|(i, (name, local, goal, _, _))| {
            if *local {
                baseline = i;
            }
            FleetResult {
                name,
                baseline,
                goal: *goal,
                latencies: Vec::with_capacity(plan.rounds * plan.calls),
                cpu: Duration::ZERO,
                round_trips: 0,
            }
        })
        .collect();

    let measured = runtime.block_on(async {
        note("warm-up");
        for (_, _, _, variant, trips) in &mut variants {
            measure(None, variant, *trips, plan.warmup).await?;
        }
        let n = variants.len();
        for round in 0..plan.rounds {
            note(&format!("round {} of {}", round + 1, plan.rounds));
            for k in 0..n {
                let index = (round + k) % n;
                let (_, _, _, variant, trips) = &mut variants[index];
                measure(Some(&mut results[index]), variant, *trips, plan.calls).await?;
            }
        }
        Ok::<_, String>(())
    });
    let _ = stop.send(());
    let _ = other_thread.join();
    measured?;
    for result in &mut results {
        result.latencies.sort_unstable();
    }
    Ok(FleetReport {
        plan,
        server: server.url(),
        results,
        shared_at_end: fleet.status() == FleetStatus::Shared,
        metrics: fleet.metrics(),
    })
}
