//! Eight client *processes* share one rate limit through a real
//! redis-server: each offers three times its share, and together they get
//! the limit (at least 95 % of it) and never more than the limiter allows
//! in the measured window: the rate over it, plus the burst, plus what
//! leases let the processes hold.
//!
//! The limit is on the server's clock, while each process offers on its
//! own schedule: a process that is descheduled offers nothing meanwhile,
//! and when the whole fleet is (a loaded machine), the tokens of that time
//! beyond the burst go unused. Each process reports how long it was
//! stalled (gaps between its offers longer than two paces), and the share
//! the fleet must get is taken over the window less the shortest stall
//! among them (no less than the time the whole fleet offered nothing: a
//! lower bound that errs towards passing; the upper one is exact).
//!
//! A grant counts only if its offer began inside the window and it came
//! back before the window's end: the server decided it inside the window,
//! however long a process was descheduled around the call. (Counting by
//! the time a grant came back once counted grants a process lagging behind
//! its schedule got after the window, and failed a loaded CI run at
//! +9.1 %.)
//!
//! Processes, not threads: each has its own connection, runtime and
//! clock readings, as replicas do. The test binary re-executes itself as
//! the children (an environment variable says which role), so this target
//! has its own `main` (`harness = false` in Cargo.toml) and prints the
//! usual `test result:` line.

mod support;

use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use evident_redis::{Fleet, FleetConfig, NO_LEASE};
use evident_resilience::{
    Origin, Pipeline, PipelineConfig, RateLimiterConfig, Scheme, SystemClock,
};
use support::RedisServer;

/// Set in a child's environment: "url prefix lease start_unix_micros".
const CHILD_ENV: &str = "EVIDENT_FLEET_TEST_CHILD";
const PROCESSES: u32 = 8;
/// The fleet's limit: 50 per 100 ms, 500 a second, with a burst of 50.
const LIMIT_PER_PERIOD: u32 = 50;
const PERIOD: Duration = Duration::from_millis(100);
const RATE_PER_SEC: f64 = 500.0;
/// Each process offers three times its share.
const OFFERED_PER_PROCESS: f64 = 3.0 * RATE_PER_SEC / PROCESSES as f64;
/// The run, and the part of it measured: the first half second holds the
/// initial burst and the processes' start-up, so the window is the
/// steady state.
const RUN: Duration = Duration::from_millis(2500);
const WINDOW_START: Duration = Duration::from_millis(500);
/// The share of the limit the fleet must get at least.
const TOLERANCE: f64 = 0.05;
/// Time the children get to start and connect before the common start.
const START_DELAY: Duration = Duration::from_millis(1500);
/// Longest a child may run before the parent kills it and fails.
const CHILD_TIMEOUT: Duration = Duration::from_secs(30);
/// The deadline the children use, longer than the default (5 ms) on
/// purpose. Measured on the 2-core VM at a load average of 1 (six runs of
/// each test at the default): children fell back in three of the six, up
/// to 13 fallbacks across the eight processes in one run, often all eight
/// at once (redis-server itself descheduled past 5 ms); the rate stayed
/// within +3.0 % there, but each fallback spends a local share on top of
/// the shared limit, so the result would depend on the machine's load,
/// and this test is about sharing, not failing open (fleet.rs tests
/// that). 50 ms was also missed once, a child descheduled that long; 250
/// ms has not been.
const CHILD_DEADLINE: Duration = Duration::from_millis(250);

fn main() {
    if let Ok(spec) = std::env::var(CHILD_ENV) {
        child(&spec);
        return;
    }
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let tests: [(&str, fn()); 2] = [
        (
            "eight_processes_offering_three_times_their_share_get_the_shared_limit_and_no_more",
            || fleet_of_processes(NO_LEASE),
        ),
        (
            "eight_processes_with_leases_of_5_get_the_shared_limit_and_no_more",
            || fleet_of_processes(5),
        ),
    ];
    if std::env::args().any(|a| a == "--list") {
        for (name, _) in &tests {
            println!("{name}: test");
        }
        return;
    }
    let (mut passed, mut failed, mut filtered) = (0, 0, 0);
    for (name, test) in tests {
        if filter.as_deref().is_some_and(|f| !name.contains(f)) {
            filtered += 1;
            continue;
        }
        match std::panic::catch_unwind(test) {
            Ok(()) => {
                println!("test {name} ... ok");
                passed += 1;
            }
            Err(_) => {
                println!("test {name} ... FAILED");
                failed += 1;
            }
        }
    }
    let verdict = if failed == 0 { "ok" } else { "FAILED" };
    println!(
        "\ntest result: {verdict}. {passed} passed; {failed} failed; 0 ignored; 0 measured; {filtered} filtered out"
    );
    if failed > 0 {
        std::process::exit(101);
    }
}

fn fleet_of_processes(lease: u32) {
    let server = RedisServer::start();
    let prefix = format!("evident-procs-{}-{lease}", std::process::id());
    let start = SystemTime::now() + START_DELAY;
    let start_us = start.duration_since(UNIX_EPOCH).unwrap().as_micros();
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = (0..PROCESSES)
        .map(|_| {
            Command::new(&exe)
                .env(
                    CHILD_ENV,
                    format!("{} {prefix} {lease} {start_us}", server.url()),
                )
                .stdout(Stdio::piped())
                .stderr(Stdio::inherit())
                .spawn()
                .expect("start a child process")
        })
        .collect();
    let deadline = Instant::now() + CHILD_TIMEOUT;
    let mut total = 0u64;
    let mut fleet_stall = Duration::MAX;
    let mut reports = Vec::new();
    for mut child in children {
        // Bounded wait: a stuck child is killed and the test fails.
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if Instant::now() >= deadline {
                let _ = child.kill();
                panic!("a child ran past {CHILD_TIMEOUT:?}");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let mut out = String::new();
        child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut out)
            .unwrap();
        assert!(status.success(), "child failed: {status} {out}");
        let granted: u64 = field(&out, "granted");
        assert_eq!(
            field::<u64>(&out, "fallbacks"),
            0,
            "a child fell back: {out}"
        );
        total += granted;
        fleet_stall = fleet_stall.min(Duration::from_micros(field(&out, "stalled_us")));
        reports.push(out.trim().to_owned());
    }
    let window = (RUN - WINDOW_START).as_secs_f64();
    let expected = RATE_PER_SEC * window;
    let deviation = (total as f64 - expected) / expected;
    // What the fleet could use: the window less the time every process
    // was stalled (beyond the burst, those tokens were never asked for).
    let usable = RATE_PER_SEC * (window - fleet_stall.as_secs_f64()).max(0.0);
    let least = usable * (1.0 - TOLERANCE);
    // What the limiter may grant in any window of this length: the rate,
    // the burst (after a stall of the whole fleet the tokens saved up are
    // spent at once), and the tokens leases let the processes hold, taken
    // before the window and spent in it (at most two leases each).
    let held = if lease > 1 { 2 * lease * PROCESSES } else { 0 };
    let most = expected + f64::from(LIMIT_PER_PERIOD + held);
    println!(
        "lease {lease}: {PROCESSES} processes granted {total} in {window} s, limit {expected} \
         ({:+.2} %), fleet stalled {fleet_stall:?}; per process: {}",
        deviation * 100.0,
        reports.join(" | ")
    );
    assert!(
        total as f64 <= most,
        "granted {total}, more than the {most} the limiter allows in {window} s"
    );
    assert!(
        total as f64 >= least,
        "granted {total}, less than {least} ({} % of the {usable} the fleet could use, \
         stalled {fleet_stall:?}): the fleet did not get its limit",
        100.0 * (1.0 - TOLERANCE)
    );
}

/// How much of a gap between offers was a stall: none up to two paces,
/// else all but the one pace the schedule asks for.
fn stall(gap: Duration, pace: Duration) -> Duration {
    if gap > 2 * pace {
        gap - pace
    } else {
        Duration::ZERO
    }
}

fn field<T: std::str::FromStr>(report: &str, name: &str) -> T {
    let mut words = report.split_whitespace();
    while let Some(word) = words.next() {
        if word == name
            && let Some(value) = words.next().and_then(|v| v.parse().ok())
        {
            return value;
        }
    }
    panic!("no {name} in child report {report:?}");
}

/// One member of the fleet: offers its load at a steady pace for the run
/// and reports how many admissions it got inside the measured window.
fn child(spec: &str) {
    let parts: Vec<&str> = spec.split(' ').collect();
    let [url, prefix, lease, start_us] = parts[..] else {
        panic!("bad child spec {spec:?}");
    };
    let lease: u32 = lease.parse().unwrap();
    let start = UNIX_EPOCH + Duration::from_micros(start_us.parse().unwrap());
    let fleet = Fleet::connect(
        FleetConfig::builder(url, prefix)
            .deadline(CHILD_DEADLINE)
            .expected_fleet_size(PROCESSES)
            .build()
            .unwrap(),
    )
    .unwrap();
    assert!(fleet.wait_until_shared(START_DELAY), "{:?}", fleet.status());
    let limits = fleet
        .rate_limits(
            RateLimiterConfig::builder(LIMIT_PER_PERIOD, PERIOD)
                .build()
                .unwrap(),
        )
        .lease(lease)
        .unwrap();
    let pipeline = Pipeline::new(
        PipelineConfig::disabled().rate_limit_provider(Arc::new(limits)),
        Arc::new(SystemClock),
    );
    let origin = Origin::new(Scheme::Https, "quota.test", 443);
    let pace = Duration::from_secs_f64(1.0 / OFFERED_PER_PROCESS);
    let (window_start, end) = (start + WINDOW_START, start + RUN);
    let (mut offered, mut granted) = (0u64, 0u64);
    // Time in the window this process offered nothing for more than two
    // paces (descheduled), and when it last offered.
    let (mut stalled, mut last_offer) = (Duration::ZERO, window_start);
    loop {
        // Load generation: the next offer is due at start + offered × pace.
        let due = start + pace * u32::try_from(offered).unwrap();
        if due >= end {
            break;
        }
        if let Ok(wait) = due.duration_since(SystemTime::now()) {
            std::thread::sleep(wait);
        }
        offered += 1;
        let asked = SystemTime::now();
        if asked > window_start && asked < end {
            stalled += stall(asked.duration_since(last_offer).unwrap_or_default(), pace);
            last_offer = asked;
        }
        if let Ok(permit) = pipeline.acquire_blocking(&origin) {
            permit.record_success();
            if asked >= window_start && SystemTime::now() < end {
                granted += 1;
            }
        }
    }
    // A stall across the window's end.
    stalled += stall(end.duration_since(last_offer).unwrap_or_default(), pace);
    let metrics = fleet.metrics();
    println!(
        "offered {offered} granted {granted} fallbacks {} round_trips {} stalled_us {}",
        metrics.fallbacks,
        metrics.round_trips,
        stalled.as_micros()
    );
}
