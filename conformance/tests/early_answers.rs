//! The early-answer scenarios race inside the engines (the server's answer
//! against the client's next write), so one run proves little: this runs
//! them [`ROUNDS`] times on every built-in engine and fails on any cell that
//! meets neither its expectation nor its engine's declared race gap.
//!
//! 10 rounds of 6 scenarios (4 over HTTP/1.1 on four engines, 2 over HTTP/2
//! on two): a few seconds in release, well under a minute in debug.

use evident_conformance::engines::built_in;
use evident_conformance::runner::run_matrix;
use evident_conformance::table::scenarios;

/// How many times the early-answer rows run.
const ROUNDS: usize = 10;

#[test]
fn early_answers_never_fail_in_repeated_runs() {
    let drivers = built_in();
    let early = |name: &str| name.starts_with("early_") || name.starts_with("h2_early_");
    let applicable: usize = scenarios()
        .iter()
        .filter(|s| early(s.name))
        .map(|s| {
            drivers
                .iter()
                .filter(|d| d.not_applicable(s).is_none())
                .count()
        })
        .sum();
    assert!(applicable >= 4 * drivers.len(), "the rows exist");
    for round in 0..ROUNDS {
        let matrix = run_matrix(&drivers, |s| early(s.name));
        let (_, ran, _) = matrix.counts();
        assert_eq!(ran, applicable, "every applicable early-answer cell runs");
        assert!(
            !matrix.has_failures(),
            "round {round}:\n{}",
            matrix.markdown()
        );
    }
}
