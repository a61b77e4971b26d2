//! The conformance runner for the teaching engine next to hyper, built in
//! this crate (not in the conformance crate's list of engines): every
//! record of every cell is compared across the two engines. Exits non-zero
//! when an applicable cell fails or the engines differ. Takes the runner's
//! flags (`--json`, `--engine NAME`, `--scenario NAME`).
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
    evident_conformance::run_main(vec![evident_conformance::engines::hyper(), teaching()])
}
