//! Running a scenario on an engine: the lab's fault started, a core client
//! built over the driver's engine, the calls made in order (or overlapping
//! where the scenario says so), then the verdict.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use evident_core::RetryPolicy;
use evident_core::client::{self, ClientBuilder, WallClock, attempts_of, blocking};
use evident_core::decide::BudgetConfig;
use evident_core::engine::{BlockingEngine, Engine};
use evident_core::observe::{AttemptRecord, CallInfo, Observer};
use evident_core::resilience::{
    BulkheadConfig, CircuitBreakerConfig, PipelineConfig, RateLimiterConfig,
};
use tokio::task::JoinHandle;

use super::compare::{Cell, CellStatus, Observed, describe_failure, verdict};
use super::driver::{Build, EngineEnv, EngineUnderTest};
use super::request::{async_body, blocking_body, head, options};
use super::target::{Target, start_fault};
use crate::lab::{Ledger, TestPki};
use crate::scenario::{Before, Scenario, ScenarioCall};

/// Upper bound on one scenario's run: every lab server stops by itself well
/// within it, so hitting it means an engine hung.
pub const SCENARIO_LIMIT: Duration = Duration::from_secs(45);

/// Runs one scenario on one engine. Must be called inside a multi-threaded
/// tokio runtime (the lab's servers run on it).
pub async fn run_scenario(driver: &EngineUnderTest, scenario: &Scenario) -> Cell {
    if let Some(reason) = driver.not_applicable(scenario) {
        return Cell::without_records(CellStatus::Skipped(reason));
    }
    match tokio::time::timeout(SCENARIO_LIMIT, run_applicable(driver, scenario)).await {
        Ok(cell) => cell,
        Err(_) => Cell::without_records(CellStatus::Fail(format!(
            "did not finish within {} s",
            SCENARIO_LIMIT.as_secs()
        ))),
    }
}

/// How long a call waits for the server to receive the previous call's
/// request ([`Before::PreviousInFlight`]); a loopback request arrives in
/// microseconds, so this bound is only reached when something is broken.
const PREVIOUS_RECEIVED_LIMIT: Duration = Duration::from_secs(5);

/// How long a call waits for the server to close an idle connection
/// ([`Before::IdleConnectionClosed`]).
const IDLE_CLOSED_LIMIT: Duration = Duration::from_secs(5);

/// A client of either kind, built over the driver's engine.
#[derive(Clone)]
enum Caller {
    Async(client::Client<Arc<dyn Engine>>),
    Blocking(blocking::Client<Arc<dyn BlockingEngine>>),
}

/// The records of one call and how long it took.
type CallResult = (Vec<AttemptRecord>, Duration);

impl Caller {
    fn drain(&self) {
        match self {
            Caller::Async(c) => c.drain(),
            Caller::Blocking(c) => c.drain(),
        }
    }

    /// Starts call `index` on its own task.
    fn spawn(&self, url: &str, call: &ScenarioCall, index: usize) -> JoinHandle<CallResult> {
        let options = options(call);
        match self.clone() {
            Caller::Async(client) => {
                let request = head(url, call, index)
                    .body(async_body(call.body))
                    .expect("a valid request");
                tokio::spawn(async move {
                    let started = Instant::now();
                    let result = client.execute(request, options).await;
                    (records_of(&result), started.elapsed())
                })
            }
            Caller::Blocking(client) => {
                let request = head(url, call, index)
                    .body(blocking_body(call.body))
                    .expect("a valid request");
                tokio::task::spawn_blocking(move || {
                    let started = Instant::now();
                    let result = client.execute(request, options);
                    (records_of(&result), started.elapsed())
                })
            }
        }
    }
}

async fn run_applicable(driver: &EngineUnderTest, scenario: &Scenario) -> Cell {
    let target = match start_fault(&scenario.fault) {
        Ok(t) => t,
        Err(e) => {
            return Cell::without_records(CellStatus::Fail(format!(
                "the lab could not start the fault: {e}"
            )));
        }
    };
    let env = EngineEnv {
        overrides: target.overrides.clone(),
        roots: vec![TestPki::get().ca_cert_der().to_vec()],
        http2_prior_knowledge: target.http2_prior_knowledge,
    };
    let observer = Arc::new(DrainOnRetry::default());
    let builder = client_builder(scenario, observer.clone());
    let caller = match &driver.build {
        Build::Async(build) => Caller::Async(
            builder
                .build(build(&env))
                .expect("the conformance client configuration is valid"),
        ),
        Build::Blocking(build) => Caller::Blocking(
            builder
                .build_blocking(build(&env))
                .expect("the conformance client configuration is valid"),
        ),
    };
    if scenario.client.drain_on_retry {
        let drained = caller.clone();
        observer.arm(Box::new(move || drained.drain()));
    }
    let calls = run_calls(&caller, &target, &scenario.calls).await;
    observer.disarm();
    drop(caller);
    let (all, durations): (Vec<_>, Vec<_>) = match calls {
        Ok(calls) => calls.into_iter().unzip(),
        Err(e) => return Cell::without_records(CellStatus::Fail(e)),
    };
    let cell = verdict(
        driver,
        scenario,
        Observed {
            records: all,
            durations,
            ledger: target.ledger.as_ref(),
        },
    );
    drop(target.servers);
    cell
}

/// Runs the calls in order; a call marked [`Before::PreviousInFlight`]
/// starts while the one before it is still running.
async fn run_calls(
    caller: &Caller,
    target: &Target,
    calls: &[ScenarioCall],
) -> Result<Vec<CallResult>, String> {
    let mut results: Vec<Option<CallResult>> = vec![None; calls.len()];
    let mut in_flight = Vec::new();
    for (i, call) in calls.iter().enumerate() {
        if call.before == Before::IdleConnectionClosed
            && let Some(server) = target.servers.first()
        {
            let _ = tokio::time::timeout(IDLE_CLOSED_LIMIT, server.idle_closed()).await;
        }
        let next_overlaps = calls
            .get(i + 1)
            .is_some_and(|next| next.before == Before::PreviousInFlight);
        let received_before = target.ledger.as_ref().map(Ledger::requests);
        in_flight.push((i, caller.spawn(&target.url, call, i)));
        if next_overlaps {
            let (Some(ledger), Some(before)) = (&target.ledger, received_before) else {
                return Err("an overlapping call needs a server with a ledger".to_owned());
            };
            let received = ledger.wait_until(|s| s.requests > before);
            if tokio::time::timeout(PREVIOUS_RECEIVED_LIMIT, received)
                .await
                .is_err()
            {
                return Err(format!(
                    "call {i} did not reach the server within {} s",
                    PREVIOUS_RECEIVED_LIMIT.as_secs()
                ));
            }
        } else {
            // Everything started so far ends before the next call starts.
            for (j, handle) in in_flight.drain(..) {
                results[j] = Some(
                    handle
                        .await
                        .map_err(|e| format!("call {j} panicked: {e}"))?,
                );
            }
        }
    }
    Ok(results.into_iter().flatten().collect())
}

fn records_of<B>(result: &Result<http::Response<B>, client::Error>) -> Vec<AttemptRecord> {
    match result {
        Ok(response) => attempts_of(response).to_vec(),
        Err(err) => err.attempts().to_vec(),
    }
}

fn client_builder(scenario: &Scenario, observer: Arc<DrainOnRetry>) -> ClientBuilder {
    let spec = &scenario.client;
    let mut policy = RetryPolicy::builder()
        .max_attempts(spec.max_attempts)
        .base_backoff(crate::table::CONFORMANCE_BASE_BACKOFF)
        .max_backoff(Duration::from_millis(100))
        .jitter(0.0);
    policy = match spec.budget {
        Some(b) => policy.budget(BudgetConfig {
            ratio: b.ratio,
            min_per_sec: b.min_per_sec,
            ttl: b.ttl,
        }),
        None => policy.no_budget(),
    };
    let policy = policy.build().expect("the conformance policy is valid");
    let breaker = spec.breaker_window.map(|window| {
        CircuitBreakerConfig::builder()
            .sliding_window_size(window)
            .minimum_number_of_calls(window)
            .build()
            .expect("the conformance breaker is valid")
    });
    let rate = spec.rate_limit.map(|r| {
        RateLimiterConfig::builder(r.limit, r.period)
            .max_wait(Duration::ZERO)
            .build()
            .expect("the conformance rate limiter is valid")
    });
    let bulkhead = spec.bulkhead.map(|max| {
        BulkheadConfig::builder()
            .max_concurrent(max)
            .max_wait(Duration::ZERO)
            .build()
            .expect("the conformance bulkhead is valid")
    });
    let pipeline = PipelineConfig::disabled()
        .circuit_breaker(breaker)
        .rate_limiter(rate)
        .bulkhead(bulkhead);
    let mut builder = ClientBuilder::new()
        .policy(policy)
        .attempt_timeout(spec.attempt_timeout)
        .pipeline(pipeline)
        .observer(observer);
    if let Some(now) = spec.wall_clock {
        builder = builder.wall_clock(Arc::new(FixedWallClock(now)));
    }
    builder
}

/// A wall clock that stands still: `Retry-After` HTTP-dates resolve to the
/// same delay on every engine and every machine.
#[derive(Debug, Clone, Copy)]
struct FixedWallClock(SystemTime);

impl WallClock for FixedWallClock {
    fn now(&self) -> SystemTime {
        self.0
    }
}

type DrainFn = Box<dyn Fn() + Send + Sync>;

/// The observer every conformance client gets. For a scenario with
/// `drain_on_retry` it drains the client as soon as an attempt is decided
/// "retry", i.e. while the client waits before the next attempt: no timer
/// is involved, so the drain always lands inside that wait.
#[derive(Default)]
struct DrainOnRetry {
    drain: Mutex<Option<DrainFn>>,
}

impl DrainOnRetry {
    fn arm(&self, drain: DrainFn) {
        *self.drain.lock().unwrap_or_else(|e| e.into_inner()) = Some(drain);
    }

    /// Drops the drain function (it holds the client, which holds this
    /// observer).
    fn disarm(&self) {
        self.drain.lock().unwrap_or_else(|e| e.into_inner()).take();
    }
}

impl Observer for DrainOnRetry {
    fn on_attempt(&self, _call: &CallInfo, record: &AttemptRecord) {
        if record.decision.is_retry()
            && let Some(drain) = &*self.drain.lock().unwrap_or_else(|e| e.into_inner())
        {
            drain();
        }
    }
}

/// Runs a scenario by name on `driver` in a fresh runtime and panics with
/// the first difference if the cell fails. A scenario the engine cannot
/// express panics too, saying so: a caller that wants skips reported as
/// skips uses [`crate::test_main`], which the [`crate::conformance_tests`]
/// macro generates.
///
/// # Panics
///
/// If the scenario fails, is skipped, or does not exist.
pub fn assert_scenario(driver: &EngineUnderTest, name: &str) {
    let scenario = crate::table::scenarios()
        .into_iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no scenario named {name}"));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let cell = runtime.block_on(run_scenario(driver, &scenario));
    match &cell.status {
        CellStatus::Pass => {}
        CellStatus::Skipped(reason) => {
            panic!(
                "{name} was skipped on {}: {reason} (not a pass)",
                driver.name()
            );
        }
        CellStatus::Fail(diff) => {
            panic!(
                "{}",
                describe_failure(driver.name(), &scenario, &cell, diff)
            );
        }
        CellStatus::Gap(gap) => println!("{name} on {}: {gap}", driver.name()),
    }
}
