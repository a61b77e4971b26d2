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

#[path = "../tests/driver/mod.rs"]
mod driver;

fn main() -> ExitCode {
    evident_conformance::run_main(vec![
        evident_conformance::engines::hyper(),
        driver::teaching(),
    ])
}
