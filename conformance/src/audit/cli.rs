//! The audit's command line, reached through the runner's `--audit` flag
//! (so any crate's [`crate::run_main`] has it too).
//!
//! ```text
//! --audit             run the evidence audit instead of the matrix
//! --seed N            replay the run of seed N (default: a fresh seed, printed)
//! --attempts N        attempts per engine (default: the short audit's)
//! --long              100 000 attempts per engine
//! --engine NAME       only this engine (repeatable)
//! --lanes N           concurrent lanes (default 8)
//! ```
//!
//! Exit status: 0 when no engine made a false claim outside its declared
//! classes, 1 otherwise, 2 for a usage error.

use std::io::Write;

use super::{AuditConfig, audit_engine, fresh_seed};
use crate::cli::{EXIT_FAILED, EXIT_USAGE};
use crate::harness::EngineUnderTest;

fn usage(err: &mut dyn Write) -> u8 {
    let _ = writeln!(
        err,
        "usage: --audit [--seed N] [--attempts N | --long] [--engine NAME]... [--lanes N]"
    );
    EXIT_USAGE
}

fn number(value: Option<String>) -> Option<u64> {
    value.and_then(|v| v.replace('_', "").parse().ok())
}

/// Runs the audit with `args` (which include `--audit`) on `drivers`.
pub fn run_audit_cli(
    args: impl IntoIterator<Item = String>,
    drivers: Vec<EngineUnderTest>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let mut seed = None;
    let mut config = AuditConfig::short(0);
    let mut engines = Vec::new();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--audit" => {}
            "--seed" => match number(args.next()) {
                Some(s) => seed = Some(s),
                None => return usage(err),
            },
            "--attempts" => match number(args.next()) {
                Some(n) => {
                    config.attempts = n;
                    config.time_limit = std::time::Duration::from_secs(3600 * 4);
                }
                None => return usage(err),
            },
            "--long" => {
                config = AuditConfig {
                    seed: 0,
                    ..AuditConfig::long(0)
                }
            }
            "--lanes" => match number(args.next()) {
                Some(n) if n > 0 => config.lanes = n as usize,
                _ => return usage(err),
            },
            "--engine" => match args.next() {
                Some(e) => engines.push(e),
                None => return usage(err),
            },
            other => {
                let _ = writeln!(err, "unknown argument {other}");
                return usage(err);
            }
        }
    }
    for name in &engines {
        if !drivers.iter().any(|d| d.name() == name) {
            let _ = writeln!(err, "unknown engine {name}");
            return usage(err);
        }
    }
    config.seed = seed.unwrap_or_else(fresh_seed);
    let _ = writeln!(
        out,
        "# evidence audit, seed {} (replay with --seed {}), {} attempts per engine, {} lanes\n",
        config.seed, config.seed, config.attempts, config.lanes
    );
    let mut failed = false;
    for driver in drivers
        .iter()
        .filter(|d| engines.is_empty() || engines.iter().any(|e| e == d.name()))
    {
        match audit_engine(driver, &config) {
            Ok(audit) => {
                failed |= !audit.unexpected().is_empty();
                let _ = writeln!(out, "{audit}");
            }
            Err(e) => {
                failed = true;
                let _ = writeln!(err, "{}: {e}", driver.name());
            }
        }
        let _ = out.flush();
    }
    if failed { EXIT_FAILED } else { 0 }
}
