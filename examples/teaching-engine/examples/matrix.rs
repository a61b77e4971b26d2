//! Prints the parity matrix of the teaching engine next to hyper, built in
//! this crate (not in the conformance crate's list of engines). Exits
//! non-zero when an applicable cell fails.
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
    let drivers = [evident_conformance::engines::hyper(), teaching()];
    let matrix = evident_conformance::runner::run_matrix(&drivers, |_| true);
    print!("{}", matrix.markdown());
    if matrix.has_failures() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
