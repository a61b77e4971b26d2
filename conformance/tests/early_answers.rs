//! The early-answer scenarios race inside the engines (the server's answer
//! against the client's next write), so one run proves little: this runs
//! them [`ROUNDS`] times on every built-in engine and fails on any cell that
//! meets neither its expectation nor its engine's declared race gap.
//!
//! 10 rounds × 4 scenarios × 4 engines: about 20 s on two shared cores.

use evident_conformance::engines::built_in;
use evident_conformance::runner::run_matrix;

/// How many times the early-answer rows run.
const ROUNDS: usize = 10;

#[test]
fn early_answers_never_fail_in_repeated_runs() {
    let drivers = built_in();
    for round in 0..ROUNDS {
        let matrix = run_matrix(&drivers, |s| s.name.starts_with("early_"));
        let (_, ran, _) = matrix.counts();
        assert_eq!(ran, 4 * drivers.len(), "every early-answer cell runs");
        assert!(
            !matrix.has_failures(),
            "round {round}:\n{}",
            matrix.markdown()
        );
    }
}
