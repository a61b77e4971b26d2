//! The matrix-printing command line, for the built-in runner and for any
//! crate that brings its own engine.
//!
//! A third-party engine gets the same runner in its own crate with one
//! call (in `src/bin/conformance.rs` or an example):
//!
//! ```no_run
//! use std::sync::Arc;
//! use evident_conformance::harness::EngineUnderTest;
//! use evident_conformance::scenario::Capability;
//! # use evident_core::testing::{ScriptedEngine as MyEngine, Step};
//!
//! fn main() -> std::process::ExitCode {
//!     // `env` carries the lab's host overrides and trusted root.
//!     let mine = EngineUnderTest::asynchronous("mine", |_env| {
//!         Arc::new(MyEngine::new([Step::respond(200, "ok")]))
//!     })
//!     .lacks(Capability::Http2, "speaks HTTP/1.1 only");
//!     // With a built-in engine beside it, every row is also compared
//!     // across the two.
//!     evident_conformance::run_main(vec![mine, evident_conformance::engines::hyper()])
//! }
//! ```
//!
//! Flags (the same for every binary built this way):
//!
//! ```text
//! --json              print the matrix as JSON instead of Markdown
//! --engine NAME       only this engine (repeatable)
//! --scenario NAME     only this scenario (repeatable)
//! -h, --help          usage
//! --audit ...         the evidence audit instead (see `audit::cli`)
//! ```
//!
//! The exit status is 0 when every cell that ran passed, 1 when one failed
//! and 2 for a usage error.

use std::io::Write;
use std::process::ExitCode;

use crate::harness::EngineUnderTest;
use crate::runner::run_matrix;
use crate::table::scenario_names;

/// Exit status of a run where a cell failed.
pub const EXIT_FAILED: u8 = 1;
/// Exit status of a usage error.
pub const EXIT_USAGE: u8 = 2;

/// Runs the matrix for `drivers` with the process's arguments, prints it
/// and returns the exit status: the whole `main` of a conformance runner.
pub fn run_main(drivers: Vec<EngineUnderTest>) -> ExitCode {
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    ExitCode::from(run_cli(
        std::env::args().skip(1),
        drivers,
        &mut stdout.lock(),
        &mut stderr.lock(),
    ))
}

fn usage(drivers: &[EngineUnderTest], err: &mut dyn Write) -> u8 {
    let _ = writeln!(
        err,
        "usage: [--json] [--engine NAME]... [--scenario NAME]...\nengines: {}",
        drivers
            .iter()
            .map(EngineUnderTest::name)
            .collect::<Vec<_>>()
            .join(", ")
    );
    EXIT_USAGE
}

/// [`run_main`] with its arguments and output given: prints the matrix to
/// `out`, problems to `err`, and returns the exit status.
pub fn run_cli(
    args: impl IntoIterator<Item = String>,
    drivers: Vec<EngineUnderTest>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let args: Vec<String> = args.into_iter().collect();
    if args.iter().any(|a| a == "--audit") {
        return crate::audit::cli::run_audit_cli(args, drivers, out, err);
    }
    let mut json = false;
    let mut engines = Vec::new();
    let mut scenarios = Vec::new();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--json" => json = true,
            "--engine" => match args.next() {
                Some(e) => engines.push(e),
                None => return usage(&drivers, err),
            },
            "--scenario" => match args.next() {
                Some(s) => scenarios.push(s),
                None => return usage(&drivers, err),
            },
            "-h" | "--help" => {
                usage(&drivers, err);
                return 0;
            }
            other => {
                let _ = writeln!(err, "unknown argument {other}");
                return usage(&drivers, err);
            }
        }
    }
    for name in &engines {
        if !drivers.iter().any(|d| d.name() == name) {
            let _ = writeln!(err, "unknown engine {name}");
            return usage(&drivers, err);
        }
    }
    let drivers: Vec<_> = drivers
        .into_iter()
        .filter(|d| engines.is_empty() || engines.iter().any(|e| e == d.name()))
        .collect();
    if drivers.is_empty() {
        let _ = writeln!(err, "no engine to run");
        return usage(&drivers, err);
    }
    let known = scenario_names();
    for name in &scenarios {
        if !known.contains(&name.as_str()) {
            let _ = writeln!(err, "unknown scenario {name}");
            return usage(&drivers, err);
        }
    }
    let matrix = run_matrix(&drivers, |s| {
        scenarios.is_empty() || scenarios.iter().any(|n| n == s.name)
    });
    let printed = if json {
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&matrix.json()).expect("JSON serializes")
        )
    } else {
        write!(out, "{}", matrix.markdown())
    };
    if printed.is_err() {
        return EXIT_FAILED;
    }
    if matrix.has_failures() {
        EXIT_FAILED
    } else {
        0
    }
}
