//! A name whose first address is silent and whose second is live answers on
//! the first attempt, within the Connection Attempt Delay: the core's Happy
//! Eyeballs connect (RFC 8305) starts the second address 250 ms after the
//! first. Real time, measured, never slept on: the silent address is a
//! loopback listener whose accept queue is full, so the kernel drops the
//! SYNs sent to it.

use evident_teaching_engine::TeachingEngine;
use evident_test_support::silent::SilentThenLive;

#[test]
fn a_silent_first_address_costs_the_attempt_delay_and_the_first_attempt_answers() {
    let lab = SilentThenLive::start().unwrap();
    let engine = TeachingEngine::new(Vec::new(), lab.overrides()).unwrap();
    lab.answers_at_once_blocking(engine);
}
