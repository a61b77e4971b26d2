//! The conformance runner: every scenario on every engine built in, printed
//! as the parity matrix.
//!
//! ```text
//! cargo run -p evident-conformance --release            # Markdown
//! cargo run -p evident-conformance --release -- --json  # JSON
//! cargo run -p evident-conformance --release -- --engine hyper --scenario h2_refused_stream
//! ```
//!
//! Exits non-zero when any cell that ran fails (against its expectation or
//! against another engine). A crate with its own engine gets the same
//! runner from [`evident_conformance::run_main`].

use std::process::ExitCode;

fn main() -> ExitCode {
    evident_conformance::run_main(evident_conformance::engines::built_in())
}
