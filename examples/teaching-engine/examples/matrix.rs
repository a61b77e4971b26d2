//! Prints the parity matrix of the teaching engine next to hyper, built in
//! this crate (not in the conformance crate's list of engines). Exits
//! non-zero when a cell that ran fails.
//!
//! ```text
//! cargo run -p evident-teaching-engine --example matrix
//! ```

use std::process::ExitCode;
use std::sync::Arc;

use evident_conformance::harness::Driver;
use evident_conformance::scenario::Capability;
use evident_teaching_engine::TeachingEngine;

fn teaching() -> Driver {
    Driver::blocking("teaching", |env| {
        Arc::new(
            TeachingEngine::new(env.roots.clone(), env.overrides.clone())
                .expect("the lab's root certificate is valid DER"),
        )
    })
    .lacks(
        Capability::Http2,
        "the teaching engine speaks HTTP/1.1 only",
    )
}

fn main() -> ExitCode {
    // The same flags as the project's runner: --json, --engine, --scenario.
    evident_conformance::run_main(vec![evident_conformance::engines::hyper(), teaching()])
}
