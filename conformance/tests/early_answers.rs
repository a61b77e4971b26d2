//! The early-answer scenarios race inside the engines (the server's answer
//! against the client's next write), so one run proves little: this runs
//! them [`EARLY_ANSWER_ROUNDS`] times on every built-in engine and fails on
//! any cell that meets neither its expectation nor its engine's declared
//! race gap.
//!
//! 10 rounds of 6 scenarios (4 over HTTP/1.1 on four engines, 2 over HTTP/2
//! on two): a few seconds in release, well under a minute in debug.

use evident_conformance::engines::built_in;
use evident_conformance::runner::{EARLY_ANSWER_ROUNDS, early_answers_repeated};

#[test]
fn early_answers_never_fail_in_repeated_runs() {
    let drivers = built_in();
    assert!(drivers.len() >= 2, "the built-in engines");
    if let Err(failure) = early_answers_repeated(&drivers, EARLY_ANSWER_ROUNDS) {
        panic!("{failure}");
    }
}
