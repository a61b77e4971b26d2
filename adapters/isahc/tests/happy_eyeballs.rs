//! A name whose first address is silent and whose second is live answers on
//! the first attempt, within the Connection Attempt Delay. curl connects to
//! one address per transfer and cannot race two (RFC 8305), so the engine
//! gives each address but the last that long to connect and then tries the
//! next, where the other engines start the next beside it: the silent
//! address costs the same 250 ms. Real time, measured, never slept on: the
//! silent address is a loopback listener whose accept queue is full, so the
//! kernel drops the SYNs sent to it.

use evident_isahc::IsahcEngine;
use evident_test_support::silent::SilentThenLive;

#[tokio::test]
async fn a_silent_first_address_costs_the_attempt_delay_and_the_first_attempt_answers() {
    let lab = SilentThenLive::start().unwrap();
    let engine = IsahcEngine::builder()
        .host_overrides(lab.overrides())
        .build()
        .unwrap();
    lab.answers_at_once(engine).await;
}
