//! The benchmark's smoke mode, as CI runs it: tiny counts, no timing
//! assertions. It checks that every client answers every call, that the
//! measurements are sane, and — correctness, not speed — that evident
//! keeps its outage bounds: an undeclared POST is never received twice,
//! and retries of keyed calls stay within the retry budget's ratio.

use std::time::Duration;

use evident_bench::clients::{Declaration, Role};
use evident_bench::outage::{self, OutagePlan};
use evident_bench::run::{self, Plan};
use evident_bench::server::Behaviour;
use evident_core::client::ClientBuilder;
use evident_core::{BudgetConfig, RetryPolicy};

#[test]
fn every_client_answers_every_smoke_call_and_its_costs_are_measured() {
    let plan = Plan::smoke();
    let cases = run::run(&plan, |_| {}).expect("the benchmark runs");
    assert_eq!(
        cases.len(),
        // HTTP/1.1 and HTTP/2, GET and POST, two in-flight counts.
        2 * plan.workloads.len() * plan.in_flight.len()
    );
    for case in &cases {
        for family in &case.families {
            assert_eq!(
                family.rows[0].role,
                Role::Bare,
                "{} starts with its bare engine",
                family.name
            );
            for row in &family.rows {
                let at = format!(
                    "{}, {}, {} in flight: {}",
                    case.protocol, case.workload, case.in_flight, row.name
                );
                assert_eq!(row.samples.len(), plan.rounds, "{at}");
                assert_eq!(row.calls(), plan.calls * plan.rounds, "{at}");
                assert_eq!(
                    row.succeeded(),
                    row.calls(),
                    "{at}: every call answered 2xx (first failure: {:?})",
                    row.first_failure()
                );
                let (median, lo, hi) = row.ratio();
                assert!(
                    lo > 0.0 && lo <= median && median <= hi && hi.is_finite(),
                    "{at}"
                );
                assert!(row.throughput() > 0.0, "{at}");
                // Every client allocates something per call, and nothing
                // allocates megabytes for a 16 KiB call.
                assert!(row.allocations_per_call() >= 1.0, "{at}");
                assert!(row.bytes_per_call() < 1024.0 * 1024.0, "{at}");
            }
        }
    }
    // Every engine is there three ways: bare, alone, and under the client
    // (ureq and isahc over HTTP/1.1 only).
    let tables = evident_bench::report::cases(&cases);
    for row in [
        "hyper-util",
        "evident-hyper engine",
        "evident client/hyper",
        "ureq",
        "evident-ureq engine",
        "evident blocking/ureq",
        "reqwest",
        "evident-reqwest engine",
        "evident client/reqwest",
        "reqwest-retry",
        "isahc",
        "isahc, no reuse (as evident's for other operations)",
        "evident-isahc engine",
        "evident client/isahc",
    ] {
        assert!(tables.contains(&format!("| {row} |")), "no row {row}");
    }
    // isahc's note says what its ratios owe to connection reuse.
    assert!(tables.contains(
        "* isahc: evident-isahc reuses a connection only for an operation whose repeat is harmless"
    ));
    // A target line per engine that has an "engine alone" and a client
    // row: hyper and reqwest everywhere, ureq and isahc over HTTP/1.1.
    let targets = evident_bench::report::targets(&cases);
    let lines = targets.lines().filter(|l| l.starts_with("| HTTP")).count();
    assert_eq!(lines, 2 * cases.len() + cases.len(), "{targets}");
    // CPU is sampled coarsely; over the whole smoke run it must show.
    let cpu: f64 = cases
        .iter()
        .flat_map(|c| &c.families)
        .flat_map(|f| &f.rows)
        .map(|r| r.cpu_us_per_call())
        .sum();
    assert!(cpu > 0.0);
}

/// The budget the outage bounds are checked against: the default ratio,
/// no floor (so the bound is exactly the ratio) and a window far longer
/// than the test, so every call of the run counts in it.
fn ratio_only_budget() -> BudgetConfig {
    BudgetConfig {
        ratio: evident_core::decide::DEFAULT_BUDGET_RATIO,
        min_per_sec: 0,
        ttl: Duration::from_secs(3600),
    }
}

fn evident_under_test() -> ClientBuilder {
    ClientBuilder::new().policy(
        RetryPolicy::builder()
            .budget(ratio_only_budget())
            // Short waits keep the test quick; the bounds do not depend on them.
            .base_backoff(Duration::from_millis(1))
            .max_backoff(Duration::from_millis(5))
            .build()
            .expect("a valid policy"),
    )
}

#[test]
fn evident_never_sends_an_undeclared_post_twice_and_keyed_retries_stay_within_the_budget() {
    let plan = OutagePlan {
        calls: 60,
        in_flight: 4,
    };
    let results = outage::run(plan, &evident_under_test, |_| {}).expect("the outage runs");
    let calls = plan.calls as u64;
    let bound = calls + (ratio_only_budget().ratio * calls as f64).floor() as u64;
    let mut keyed_retries_seen = false;
    for r in results.iter().filter(|r| r.role == Role::Client) {
        let at = format!("{:?}, {:?}: {}", r.behaviour, r.declaration, r.name);
        let attempts = r.sample.attempts.expect("evident reports its attempts");
        assert_eq!(r.sample.succeeded, 0, "{at}: nothing succeeds in an outage");
        match (r.behaviour, r.declaration) {
            (Behaviour::Refuse, _) => {
                assert_eq!(r.receipts, 0, "{at}");
                // "Not sent" is retried whatever was declared, within budget.
                assert!(attempts <= bound, "{at}: {attempts} attempts > {bound}");
            }
            (_, Declaration::Nothing) => {
                assert!(
                    r.max_receipts_per_call <= 1,
                    "{at}: a POST was received twice"
                );
                assert!(r.receipts <= calls, "{at}");
            }
            (_, _) => {
                assert!(
                    r.receipts <= bound,
                    "{at}: {} receipts > {bound}",
                    r.receipts
                );
                assert!(attempts <= bound, "{at}");
                keyed_retries_seen |= r.receipts > calls;
            }
        }
    }
    // The bound was approached, not vacuous: keyed calls did retry.
    assert!(keyed_retries_seen, "no keyed call was ever retried");
}
