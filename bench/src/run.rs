//! Paired, interleaved rounds and what they measure.
//!
//! Within a round every row of a family runs the same calls against the
//! same server, one row after another; the order rotates from round to
//! round so that no row always runs first (warm caches) or last. A row's
//! ratio is its throughput divided by the bare row's **in the same round**,
//! so slow drifts of a shared machine cancel out; the spread of those
//! ratios over the rounds, and the ratio of the null row (a second bare
//! client), show how much of a difference is noise.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Barrier, Mutex, PoisonError};
use std::time::{Duration, Instant};

use bytes::Bytes;

use crate::clients::{CallSpec, Declaration, Driver, Outcome, Protocol, Role, Setup, families};
use crate::measure::Counters;
use crate::server::{Behaviour, Server};

/// The POST workload's body size: 16 KiB, as the issue measured.
pub const POST_BODY_BYTES: usize = 16 * 1024;

/// Worker threads of the clients' runtime: as many as the server's, on the
/// two-core machines this is tuned for.
const CLIENT_THREADS: usize = 2;

/// What each call does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Workload {
    /// GET with a small answer, declared idempotent.
    Get,
    /// POST of 16 KiB with an idempotency key.
    PostWithKey,
}

impl std::fmt::Display for Workload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Workload::Get => "GET small",
            Workload::PostWithKey => "POST 16 KiB + key",
        })
    }
}

impl Workload {
    /// The call this workload makes against `base_url`.
    pub fn spec(self, base_url: &str) -> CallSpec {
        match self {
            Workload::Get => CallSpec {
                url: format!("{base_url}/small").parse().expect("a valid URL"),
                post: false,
                body: Bytes::new(),
                declaration: Declaration::Idempotent,
                call_id: None,
            },
            Workload::PostWithKey => CallSpec {
                url: format!("{base_url}/upload").parse().expect("a valid URL"),
                post: true,
                body: Bytes::from(vec![b'x'; POST_BODY_BYTES]),
                declaration: Declaration::Key,
                call_id: None,
            },
        }
    }
}

/// What to run.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Protocols, each with its own set of clients.
    pub protocols: Vec<Protocol>,
    /// Workloads.
    pub workloads: Vec<Workload>,
    /// Calls in flight at once.
    pub in_flight: Vec<usize>,
    /// Calls per row per round.
    pub calls: usize,
    /// Paired rounds.
    pub rounds: usize,
    /// Calls per row before the first round (fills pools, warms caches).
    pub warmup: usize,
    /// Only the rows whose name contains this (each family keeps its bare
    /// row, the baseline of every ratio): for profiling one client.
    pub only: Option<String>,
    /// The evident clients' bulkhead, if not the default (see
    /// [`Setup::bulkhead`](crate::clients::Setup::bulkhead)).
    pub bulkhead: Option<u32>,
}

/// Calls per row per round of the full run: enough for a few hundred
/// milliseconds per row on loopback, so timer and scheduling noise is small.
pub const DEFAULT_CALLS: usize = 10_000;
/// Paired rounds of the full run: enough for a median and a spread.
pub const DEFAULT_ROUNDS: usize = 6;
/// Warm-up calls per row.
pub const DEFAULT_WARMUP: usize = 500;

impl Plan {
    /// The full benchmark: both protocols, both workloads, 16 and 128 in
    /// flight.
    pub fn full() -> Plan {
        Plan {
            protocols: vec![Protocol::Http1, Protocol::Http2],
            workloads: vec![Workload::Get, Workload::PostWithKey],
            in_flight: vec![16, 128],
            calls: DEFAULT_CALLS,
            rounds: DEFAULT_ROUNDS,
            warmup: DEFAULT_WARMUP,
            only: None,
            bulkhead: None,
        }
    }

    /// Tiny counts that check the benchmark works, not how fast anything is.
    /// 160 calls, so that 128 are really in flight at once (more than the
    /// default bulkhead's 100 slots: a healthy burst must still succeed).
    pub fn smoke() -> Plan {
        Plan {
            calls: 160,
            rounds: 2,
            warmup: 8,
            ..Plan::full()
        }
    }
}

/// One row's run of one batch of calls.
#[derive(Debug, Clone, Default)]
pub struct Sample {
    /// Wall time of the batch.
    pub elapsed: Duration,
    /// Calls made.
    pub calls: usize,
    /// Calls answered 2xx.
    pub succeeded: usize,
    /// Physical attempts, summed over the calls whose client tells.
    pub attempts: Option<u64>,
    /// Attempts refused locally by evident's pipeline.
    pub rejections: u64,
    /// Sum of every call's own duration.
    pub call_time: Duration,
    /// Allocations and CPU of the client during the batch.
    pub cost: Counters,
    /// The first failure seen, for the report.
    pub first_failure: Option<String>,
}

impl Sample {
    /// Calls per second.
    pub fn throughput(&self) -> f64 {
        self.calls as f64 / self.elapsed.as_secs_f64().max(f64::MIN_POSITIVE)
    }
}

/// Shared tallies of a batch.
#[derive(Default)]
struct Tally {
    succeeded: AtomicUsize,
    attempts: AtomicU64,
    attempts_known: AtomicUsize,
    rejections: AtomicU64,
    call_nanos: AtomicU64,
    first_failure: Mutex<Option<String>>,
}

impl Tally {
    fn record(&self, outcome: &Outcome, took: Duration) {
        if outcome.succeeded() {
            self.succeeded.fetch_add(1, Ordering::Relaxed);
        } else {
            let mut first = self
                .first_failure
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            if first.is_none() {
                *first = Some(match (&outcome.error, outcome.status) {
                    (Some(e), _) => e.clone(),
                    (None, Some(status)) => format!("status {status}"),
                    (None, None) => "no answer".into(),
                });
            }
        }
        if let Some(attempts) = outcome.attempts {
            self.attempts
                .fetch_add(u64::from(attempts), Ordering::Relaxed);
            self.attempts_known.fetch_add(1, Ordering::Relaxed);
        }
        self.rejections
            .fetch_add(u64::from(outcome.rejections), Ordering::Relaxed);
        self.call_nanos
            .fetch_add(took.as_nanos() as u64, Ordering::Relaxed);
    }

    fn into_sample(self, calls: usize, elapsed: Duration, cost: Counters) -> Sample {
        let known = self.attempts_known.into_inner();
        Sample {
            elapsed,
            calls,
            succeeded: self.succeeded.into_inner(),
            attempts: (known > 0).then(|| self.attempts.into_inner()),
            rejections: self.rejections.into_inner(),
            call_time: Duration::from_nanos(self.call_nanos.into_inner()),
            cost,
            first_failure: self
                .first_failure
                .into_inner()
                .unwrap_or_else(PoisonError::into_inner),
        }
    }
}

/// The runtime async clients run on.
pub fn client_runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(CLIENT_THREADS)
        .thread_name("bench-client")
        .enable_all()
        .build()
}

/// Makes `calls` calls of `spec` through `driver`, `in_flight` at a time.
/// With `numbered`, call `i` carries `call_id = i` (outage runs).
pub fn batch(
    runtime: &tokio::runtime::Runtime,
    driver: &Driver,
    spec: &CallSpec,
    calls: usize,
    in_flight: usize,
    numbered: bool,
) -> Sample {
    let in_flight = in_flight.clamp(1, calls.max(1));
    let next = Arc::new(AtomicUsize::new(0));
    let tally = Arc::new(Tally::default());
    let spec = Arc::new(spec.clone());
    let numbered_spec = move |spec: &CallSpec, i: usize| {
        let mut spec = spec.clone();
        spec.call_id = Some(i as u64);
        spec
    };
    let (elapsed, cost) = match driver {
        Driver::Async(client) => {
            let before = Counters::now();
            let started = Instant::now();
            runtime.block_on(async {
                let tasks: Vec<_> = (0..in_flight)
                    .map(|_| {
                        let (client, next, tally, spec) =
                            (client.clone(), next.clone(), tally.clone(), spec.clone());
                        tokio::spawn(async move {
                            loop {
                                let i = next.fetch_add(1, Ordering::Relaxed);
                                if i >= calls {
                                    break;
                                }
                                let t = Instant::now();
                                let outcome = if numbered {
                                    client.call(&numbered_spec(&spec, i)).await
                                } else {
                                    client.call(&spec).await
                                };
                                tally.record(&outcome, t.elapsed());
                            }
                        })
                    })
                    .collect();
                for task in tasks {
                    task.await.expect("a benchmark task never panics");
                }
            });
            (started.elapsed(), Counters::now().since(before))
        }
        Driver::Blocking(client) => {
            // Every thread is spawned and waiting before the clock starts,
            // so spawning costs no row anything.
            let ready = Barrier::new(in_flight + 1);
            let go = Barrier::new(in_flight + 1);
            std::thread::scope(|scope| {
                let threads: Vec<_> = (0..in_flight)
                    .map(|_| {
                        let (client, next, tally, spec) = (client, &next, &tally, &spec);
                        let (ready, go) = (&ready, &go);
                        scope.spawn(move || {
                            ready.wait();
                            go.wait();
                            loop {
                                let i = next.fetch_add(1, Ordering::Relaxed);
                                if i >= calls {
                                    break;
                                }
                                let t = Instant::now();
                                let outcome = if numbered {
                                    client.call(&numbered_spec(spec, i))
                                } else {
                                    client.call(spec)
                                };
                                tally.record(&outcome, t.elapsed());
                            }
                        })
                    })
                    .collect();
                ready.wait();
                let before = Counters::now();
                let started = Instant::now();
                go.wait();
                for thread in threads {
                    thread.join().expect("a benchmark thread never panics");
                }
                (started.elapsed(), Counters::now().since(before))
            })
        }
    };
    let tally = Arc::try_unwrap(tally).unwrap_or_else(|_| unreachable!("every task ended"));
    tally.into_sample(calls, elapsed, cost)
}

/// One row's results over the rounds of one case.
#[derive(Debug, Clone)]
pub struct RowResult {
    /// The row's name.
    pub name: String,
    /// What the row is.
    pub role: Role,
    /// One sample per round.
    pub samples: Vec<Sample>,
    /// Per round: this row's throughput over the bare row's.
    pub ratios: Vec<f64>,
}

impl RowResult {
    /// Calls over all rounds.
    pub fn calls(&self) -> usize {
        self.samples.iter().map(|s| s.calls).sum()
    }

    /// Calls answered 2xx over all rounds.
    pub fn succeeded(&self) -> usize {
        self.samples.iter().map(|s| s.succeeded).sum()
    }

    /// Median throughput over the rounds.
    pub fn throughput(&self) -> f64 {
        median(self.samples.iter().map(Sample::throughput).collect())
    }

    /// Median, lowest and highest paired ratio.
    pub fn ratio(&self) -> (f64, f64, f64) {
        let lo = self.ratios.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = self
            .ratios
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max);
        (median(self.ratios.clone()), lo, hi)
    }

    /// Client CPU per call, in microseconds, over all rounds.
    pub fn cpu_us_per_call(&self) -> f64 {
        let cpu: Duration = self.samples.iter().map(|s| s.cost.client_cpu).sum();
        cpu.as_secs_f64() * 1e6 / self.calls().max(1) as f64
    }

    /// Allocations per call, over all rounds.
    pub fn allocations_per_call(&self) -> f64 {
        let n: u64 = self.samples.iter().map(|s| s.cost.allocations).sum();
        n as f64 / self.calls().max(1) as f64
    }

    /// Bytes allocated per call, over all rounds.
    pub fn bytes_per_call(&self) -> f64 {
        let n: u64 = self.samples.iter().map(|s| s.cost.bytes).sum();
        n as f64 / self.calls().max(1) as f64
    }

    /// The first failure of any round.
    pub fn first_failure(&self) -> Option<&str> {
        self.samples.iter().find_map(|s| s.first_failure.as_deref())
    }
}

/// The median of `values` (NaN when empty).
pub fn median(mut values: Vec<f64>) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    }
}

/// The rows of one family in one case.
#[derive(Debug, Clone)]
pub struct FamilyResult {
    /// The engine's name.
    pub name: String,
    /// The rows, the bare engine first.
    pub rows: Vec<RowResult>,
    /// What the reader must know to read the ratios (see
    /// [`crate::clients::Family::note`]).
    pub note: Option<String>,
}

/// One protocol × workload × in-flight combination.
#[derive(Debug, Clone)]
pub struct Case {
    /// The protocol.
    pub protocol: Protocol,
    /// The workload.
    pub workload: Workload,
    /// Calls in flight.
    pub in_flight: usize,
    /// Every family's rows.
    pub families: Vec<FamilyResult>,
}

/// Runs `plan` against a healthy loopback server. `note` hears what is
/// starting (for a progress line on stderr). Every case builds its clients
/// afresh and drops each family's once measured, so that only one
/// family's connections are open at a time.
pub fn run(
    plan: &Plan,
    mut note: impl FnMut(&str),
) -> Result<Vec<Case>, Box<dyn std::error::Error>> {
    let server = Server::start(Behaviour::Healthy)?;
    let runtime = client_runtime()?;
    let pool = plan.in_flight.iter().copied().max().unwrap_or(1);
    let mut cases = Vec::new();
    for &protocol in &plan.protocols {
        for &workload in &plan.workloads {
            let spec = workload.spec(&server.base_url());
            for &in_flight in &plan.in_flight {
                note(&format!("{protocol}, {workload}, {in_flight} in flight"));
                // Fresh clients for every case (the warm-up fills their
                // pools), and each family's clients dropped, their pools
                // closed, once measured: the families before it must not
                // hold sockets while the next one runs. libcurl as built
                // here (isahc) waits on its sockets with select(), so it
                // fails to connect on any socket numbered 1024 or above,
                // and a few families' pools of 128 connections (two
                // descriptors each on loopback: client and server) reach
                // that.
                let mut families = {
                    let _entered = runtime.enter();
                    families(Setup {
                        protocol,
                        pool,
                        bulkhead: plan.bulkhead,
                    })?
                };
                if let Some(only) = &plan.only {
                    for family in &mut families {
                        family.rows.retain(|row| {
                            row.role == Role::Bare || row.name.contains(only.as_str())
                        });
                    }
                    families.retain(|family| family.rows.len() > 1);
                }
                let mut results = Vec::new();
                for family in families {
                    for row in &family.rows {
                        batch(&runtime, &row.driver, &spec, plan.warmup, in_flight, false);
                    }
                    let n = family.rows.len();
                    let mut samples: Vec<Vec<Sample>> = vec![Vec::new(); n];
                    for round in 0..plan.rounds {
                        for k in 0..n {
                            let index = (k + round) % n;
                            let row = &family.rows[index];
                            samples[index].push(batch(
                                &runtime,
                                &row.driver,
                                &spec,
                                plan.calls,
                                in_flight,
                                false,
                            ));
                        }
                    }
                    let bare: Vec<f64> = samples[0].iter().map(Sample::throughput).collect();
                    let rows = family
                        .rows
                        .iter()
                        .zip(samples)
                        .map(|(row, samples)| RowResult {
                            name: row.name.clone(),
                            role: row.role,
                            ratios: samples
                                .iter()
                                .zip(&bare)
                                .map(|(s, b)| s.throughput() / b)
                                .collect(),
                            samples,
                        })
                        .collect();
                    results.push(FamilyResult {
                        name: family.name.clone(),
                        rows,
                        note: family.note.clone(),
                    });
                }
                cases.push(Case {
                    protocol,
                    workload,
                    in_flight,
                    families: results,
                });
            }
        }
    }
    Ok(cases)
}
