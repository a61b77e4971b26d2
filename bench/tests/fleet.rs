//! The fleet run with tiny counts, as CI runs it: no timing assertions. It
//! checks that every variant is measured and that the round trips it
//! counts are the ones the design promises: one per admission without a
//! lease, a fraction with one, and a fraction for the batched budget. It
//! starts its own `redis-server`; CI installs it (`.ci/run`), and without
//! it this test fails and says so.

use evident_bench::fleet::{self, FleetPlan};

#[test]
fn every_fleet_variant_is_measured_and_only_the_unleased_limiter_asks_redis_per_call() {
    let plan = FleetPlan::smoke();
    let report = fleet::run(plan, |_| {}).expect("the fleet run (needs redis-server)");
    let calls = plan.rounds * plan.calls;
    for result in &report.results {
        assert_eq!(result.calls(), calls, "{}", result.name);
        assert!(
            result.percentile(0.50) <= result.percentile(0.99),
            "{}",
            result.name
        );
        let base = &report.results[result.baseline];
        assert_eq!(base.round_trips, 0, "{}: a local baseline", result.name);
    }
    let per_call = |name: &str| {
        report
            .results
            .iter()
            .find(|r| r.name.starts_with(name))
            .unwrap_or_else(|| panic!("a variant {name:?}"))
            .round_trips_per_call()
    };
    assert_eq!(per_call("raw redis-rs EVALSHA, caller's"), 1.0);
    // A fallback mid-run (a missed 5 ms deadline on a loaded machine)
    // admits calls locally, without a round trip.
    if report.metrics.fallbacks == 0 {
        assert!(per_call("rate limiter, shared, no lease") >= 1.0);
    }
    let leased = per_call("rate limiter, shared, lease");
    assert!(leased > 0.0 && leased < 0.5, "{leased}");
    assert!(per_call("retry budget, shared") < 0.5);

    let table = evident_bench::report::fleet(&report);
    for result in &report.results {
        assert!(table.contains(result.name), "{table}");
    }
}
