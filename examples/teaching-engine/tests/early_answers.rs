//! The early-answer rows race inside the engine (the server's answer
//! against the engine's next write), so they run
//! [`EARLY_ANSWER_ROUNDS`] times here: the engine reads the answer when a
//! write fails, and declares no race gap, so every round must get it.

mod driver;

use evident_conformance::runner::{EARLY_ANSWER_ROUNDS, early_answers_repeated};

#[test]
fn early_answers_are_read_in_every_round() {
    if let Err(failure) = early_answers_repeated(&[driver::teaching()], EARLY_ANSWER_ROUNDS) {
        panic!("{failure}");
    }
}
