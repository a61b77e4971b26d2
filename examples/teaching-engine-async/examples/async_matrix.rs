//! The async teaching engine next to hyper: every record of every cell is
//! compared across the two. Takes the runner's flags (`--json`, `--engine
//! NAME`, `--scenario NAME`).
//!
//! ```text
//! cargo run -p evident-teaching-engine-async --example async_matrix
//! ```

use std::process::ExitCode;

#[path = "../tests/driver/mod.rs"]
mod driver;

fn main() -> ExitCode {
    evident_conformance::run_main(vec![
        evident_conformance::engines::hyper(),
        driver::teaching_async(),
    ])
}
