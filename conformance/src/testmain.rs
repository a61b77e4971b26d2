//! The test harness behind [`crate::conformance_tests`]: one test per
//! scenario and engine, in `cargo test`'s format, where a scenario that
//! needs a capability the engine lacks is reported as **skipped** with its
//! reason — never as a pass.
//!
//! libtest has no way to skip a test at run time, and whether a scenario
//! applies is known only once the driver exists. So the conformance test
//! targets use their own `main` (`harness = false` in `Cargo.toml`) and
//! print what libtest prints, plus a skipped count:
//!
//! ```text
//! running 3 tests
//! test ok_200 ... ok
//! test h2_ok ... skipped: needs HTTP/2: ureq 3 speaks HTTP/1.1 only
//! test never_answers ... ok
//!
//! test result: ok. 2 passed; 0 failed; 1 skipped; 0 filtered out
//! ```
//!
//! The usual arguments work: a name filter (substring, or whole name with
//! `--exact`), `--skip FILTER`, `--list`; the others libtest accepts
//! (`--nocapture`, `--test-threads N`, ...) are accepted and ignored.
//! With several drivers, every row is compared across them too
//! ([`crate::parity`]) and the tests are named `engine::scenario`.

use std::io::Write;
use std::process::ExitCode;

use crate::harness::{CellStatus, EngineUnderTest, describe_failure};
use crate::runner::run_matrix;
use crate::table::scenarios;

/// Exit status of a failed test run (libtest's).
pub const EXIT_TESTS_FAILED: u8 = 101;

/// libtest options that take a value, accepted and ignored.
const IGNORED_WITH_VALUE: [&str; 6] = [
    "--test-threads",
    "--color",
    "--format",
    "-Z",
    "--logfile",
    "--shuffle-seed",
];

/// What the command line asks for.
#[derive(Debug, Default)]
struct Selection {
    filters: Vec<String>,
    skips: Vec<String>,
    exact: bool,
    list: bool,
    only_ignored: bool,
}

impl Selection {
    fn parse(args: impl IntoIterator<Item = String>) -> Selection {
        let mut selection = Selection::default();
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--exact" => selection.exact = true,
                "--list" => selection.list = true,
                "--ignored" => selection.only_ignored = true,
                "--skip" => selection.skips.extend(args.next()),
                a if IGNORED_WITH_VALUE.contains(&a) => {
                    args.next();
                }
                a if a.starts_with('-') => {}
                _ => selection.filters.push(arg),
            }
        }
        selection
    }

    fn selects(&self, name: &str) -> bool {
        let matches = |f: &String| {
            if self.exact {
                name == f
            } else {
                name.contains(f.as_str())
            }
        };
        !self.only_ignored
            && (self.filters.is_empty() || self.filters.iter().any(matches))
            && !self.skips.iter().any(|s| name.contains(s.as_str()))
    }
}

/// Runs the conformance table on `drivers` as a test binary: the whole
/// `main` of a `harness = false` test target. Prefer the
/// [`crate::conformance_tests`] macro, which writes that `main`.
pub fn test_main(drivers: Vec<EngineUnderTest>) -> ExitCode {
    let stdout = std::io::stdout();
    ExitCode::from(run_tests(
        std::env::args().skip(1),
        drivers,
        &mut stdout.lock(),
    ))
}

/// [`test_main`] with its arguments and output given; returns the exit
/// status (0, or [`EXIT_TESTS_FAILED`]).
pub fn run_tests(
    args: impl IntoIterator<Item = String>,
    drivers: Vec<EngineUnderTest>,
    out: &mut dyn Write,
) -> u8 {
    let selection = Selection::parse(args);
    let several = drivers.len() > 1;
    let test_name = |engine: &str, scenario: &str| {
        if several {
            format!("{engine}::{scenario}")
        } else {
            scenario.to_owned()
        }
    };
    let table = scenarios();
    let mut total = 0;
    let mut selected = Vec::new();
    for scenario in &table {
        for driver in &drivers {
            total += 1;
            let name = test_name(driver.name(), scenario.name);
            if selection.selects(&name) {
                selected.push(name);
            }
        }
    }
    if selection.list {
        for name in &selected {
            let _ = writeln!(out, "{name}: test");
        }
        return 0;
    }
    let _ = writeln!(out, "\nrunning {} tests", selected.len());
    let matrix = run_matrix(&drivers, |s| {
        drivers
            .iter()
            .any(|d| selected.contains(&test_name(d.name(), s.name)))
    });
    let (mut passed, mut skipped, mut gaps, mut failures) = (0, 0, 0, Vec::new());
    for (scenario, cells) in &matrix.rows {
        for (engine, cell) in matrix.engines.iter().zip(cells) {
            let name = test_name(engine, scenario.name);
            if !selected.contains(&name) {
                continue;
            }
            match &cell.status {
                CellStatus::Pass => {
                    passed += 1;
                    let _ = writeln!(out, "test {name} ... ok");
                }
                CellStatus::Skipped(reason) => {
                    skipped += 1;
                    let _ = writeln!(out, "test {name} ... skipped: {reason}");
                }
                CellStatus::Fail(diff) => {
                    let _ = writeln!(out, "test {name} ... FAILED");
                    failures.push((name, describe_failure(engine, scenario, cell, diff)));
                }
                CellStatus::Gap(gap) => {
                    gaps += 1;
                    let _ = writeln!(out, "test {name} ... {gap}");
                }
            }
        }
    }
    if !failures.is_empty() {
        let _ = writeln!(out, "\nfailures:\n");
        for (name, text) in &failures {
            let _ = writeln!(out, "---- {name} ----\n{text}\n");
        }
        let _ = writeln!(out, "failures:");
        for (name, _) in &failures {
            let _ = writeln!(out, "    {name}");
        }
    }
    let verdict = if failures.is_empty() { "ok" } else { "FAILED" };
    let _ = writeln!(
        out,
        "\ntest result: {verdict}. {passed} passed; {} failed; {skipped} skipped; {gaps} named gaps; {} filtered out\n",
        failures.len(),
        total - selected.len()
    );
    if failures.is_empty() {
        0
    } else {
        EXIT_TESTS_FAILED
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn a_filter_selects_by_substring_and_exact_by_whole_name() {
        let s = Selection::parse(args(&["ok_200", "--test-threads", "2", "--nocapture"]));
        assert!(s.selects("ok_200") && s.selects("ok_200_tls") && !s.selects("h2_ok"));
        let s = Selection::parse(args(&["--exact", "ok_200"]));
        assert!(s.selects("ok_200") && !s.selects("ok_200_tls"));
        let s = Selection::parse(args(&["--skip", "tls"]));
        assert!(s.selects("ok_200") && !s.selects("ok_200_tls"));
        assert!(!Selection::parse(args(&["--ignored"])).selects("ok_200"));
    }
}
