//! Conformance for evident: the same fault gives the same classification,
//! the same retry decision, the same observation and the same number of
//! executions on the server, on every engine.
//!
//! * [`lab`]: real-socket loopback fault servers (TCP, TLS, HTTP/1.1,
//!   HTTP/2) with a ledger counting executions where they happen.
//! * [`scenario`] and [`table`]: what each scenario does and the attempt
//!   records and execution count the rules predict.
//! * [`harness`]: runs a scenario on an engine ([`harness::EngineUnderTest`]).
//! * [`runner`] and [`report`]: the parity matrix, as Markdown and JSON.
//! * [`engines`]: the engines built in (by features).
//!
//! * [`audit`]: the evidence audit: many calls with faults aimed at the
//!   edges between stages, every evidence claim checked against the bytes
//!   the server received (`--audit` on the runner).
//! * [`parity`]: the cross-engine comparison ("identical" means identical).
//! * [`cli`] and [`testmain`]: the runner's command line ([`run_main`]) and
//!   the test harness ([`test_main`]), both usable from any crate.
//!
//! # Running it on your own engine
//!
//! This crate is meant to be depended on from outside this workspace. An
//! engine plugs in as an [`harness::EngineUnderTest`] (its name, the
//! capabilities it lacks with their reasons, and how to build it for the
//! lab). Then:
//!
//! * **tests**: a test target with `harness = false` in `Cargo.toml` and
//!   one line, which makes `cargo test` report every scenario, a scenario
//!   the engine cannot express as *skipped* with its reason:
//!
//!   ```toml
//!   [[test]]
//!   name = "conformance"
//!   harness = false
//!   ```
//!
//!   ```no_run
//!   evident_conformance::conformance_tests!(evident_conformance::engines::hyper());
//!   ```
//!
//! * **the matrix**: a binary whose `main` is one call, with the same flags
//!   as this crate's runner (`--json`, `--engine`, `--scenario`):
//!
//!   ```no_run
//!   fn main() -> std::process::ExitCode {
//!       evident_conformance::run_main(vec![evident_conformance::engines::hyper()])
//!   }
//!   ```
//!
//!   `examples/own_engine.rs` is such a runner, for an engine that is not
//!   built in, compared row by row with a built-in one.
#![warn(missing_docs, unreachable_pub, rust_2018_idioms)]
#![forbid(unsafe_code)]

pub mod audit;
pub mod cli;
pub mod engines;
pub mod harness;
pub mod lab;
pub mod parity;
pub mod report;
pub mod runner;
pub mod scenario;
pub mod table;
pub mod testmain;

pub use cli::run_main;
pub use testmain::test_main;

/// Writes the `main` of a conformance test target (which needs
/// `harness = false` in its `[[test]]` section): every scenario on each
/// driver, reported in `cargo test`'s format, skipped scenarios as skipped.
/// With several drivers, every row is also compared across them.
///
/// Under libtest's own harness (`harness = false` forgotten) the target
/// does not pass silently with no tests: it fails, saying what to add.
#[macro_export]
macro_rules! conformance_tests {
    ($($driver:expr),+ $(,)?) => {
        fn main() -> ::std::process::ExitCode {
            $crate::test_main(::std::vec![$($driver),+])
        }

        #[cfg(test)]
        #[test]
        fn conformance_tests_need_harness_false() {
            panic!(
                "this test target uses evident_conformance::conformance_tests!, which \
                 brings its own test harness: add `harness = false` to its [[test]] \
                 section in Cargo.toml"
            );
        }
    };
}
