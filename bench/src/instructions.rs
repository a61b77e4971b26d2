//! The client layer's cost in instructions and allocations per call, a
//! figure a loaded machine does not blur (issue 22).
//!
//! `core/examples/client_cost` makes N calls in one mode: through the
//! engine alone or through a client over it (a scripted engine that answers
//! at once, no network). Each mode runs at two counts under `valgrind
//! --tool=cachegrind --cache-sim=no`; the difference in instructions (and
//! in allocations, which the example counts and prints) divided by the
//! difference in calls is the cost of one call, with start-up and
//! tear-down cancelled out. A client mode minus its engine mode is what the
//! client adds.
//!
//! `bench/examples/hyper_post_cost` is measured the same way: a keyed
//! 16 KiB POST over loopback through hyper-util's client or through the
//! hyper engine alone (issue 22, item 3).
//!
//! ```sh
//! cargo run -p evident-bench --release --bin instructions                 # 2,000 and 12,000 calls per mode
//! cargo run -p evident-bench --release --bin instructions -- --check      # fails when a goal is missed
//! cargo run -p evident-bench --release --bin instructions -- --hyper-post # the engine against hyper-util
//! ```

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// An example measured per call: its package, its name and its modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CostExample {
    /// The package the example belongs to.
    pub package: &'static str,
    /// The example's name.
    pub name: &'static str,
    /// Its modes, in the order they are reported.
    pub modes: &'static [&'static str],
    /// The call counts each mode runs at, by default.
    pub calls: (u64, u64),
}

/// The modes of `client_cost`, in the order they are reported.
pub const MODES: [&str; 5] = [
    "engine",
    "client",
    "client-key",
    "blocking-engine",
    "blocking-client",
];

/// The call counts each mode runs at, by default.
pub const DEFAULT_CALLS: (u64, u64) = (2_000, 12_000);

/// The client layer over a scripted engine (`core/examples/client_cost`).
pub const CLIENT_COST: CostExample = CostExample {
    package: "evident-core",
    name: "client_cost",
    modes: &MODES,
    calls: DEFAULT_CALLS,
};

/// A keyed 16 KiB POST over loopback, through hyper-util or the hyper
/// engine alone (`bench/examples/hyper_post_cost`). Each call is a real
/// exchange, so fewer calls.
pub const HYPER_POST_COST: CostExample = CostExample {
    package: "evident-bench",
    name: "hyper_post_cost",
    modes: &["hyper-util", "engine"],
    calls: (500, 2_500),
};

/// Issue 22's goals, in instructions per call.
pub const GOAL_ASYNC_OVER_ENGINE: f64 = 2_500.0;
/// A generated idempotency key, over the async GET.
pub const GOAL_KEY_OVER_GET: f64 = 500.0;
/// The blocking client, over its engine.
pub const GOAL_BLOCKING_OVER_ENGINE: f64 = 2_500.0;
/// Allocations per call, over the engine (every client mode).
pub const GOAL_ALLOCATIONS_OVER_ENGINE: f64 = 2.0;

/// One run of `client_cost`: what cachegrind counted and what the example
/// printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    /// Instructions executed (cachegrind's `I refs`).
    pub instructions: u64,
    /// Heap allocations (the example's `allocations N`).
    pub allocations: u64,
}

/// One mode's cost per call.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PerCall {
    /// The mode.
    pub mode: &'static str,
    /// Instructions per call.
    pub instructions: f64,
    /// Allocations per call.
    pub allocations: f64,
}

/// The cost per call from runs at two counts.
pub fn per_call(mode: &'static str, low: (u64, Run), high: (u64, Run)) -> PerCall {
    let calls = high.0.saturating_sub(low.0).max(1) as f64;
    let diff = |a: u64, b: u64| b as f64 - a as f64;
    PerCall {
        mode,
        instructions: diff(low.1.instructions, high.1.instructions) / calls,
        allocations: diff(low.1.allocations, high.1.allocations) / calls,
    }
}

/// The instruction count in cachegrind's summary (`==1== I   refs:
/// 12,345,678`), on its standard error.
pub fn parse_instructions(stderr: &str) -> Option<u64> {
    stderr.lines().find_map(|line| {
        let (_, rest) = line
            .split_once("I   refs:")
            .or_else(|| line.split_once("I refs:"))?;
        let digits: String = rest.trim().chars().filter(|c| *c != ',').collect();
        digits.parse().ok()
    })
}

/// The allocation count the example prints last (`allocations N`).
pub fn parse_allocations(stdout: &str) -> Option<u64> {
    stdout
        .lines()
        .rev()
        .find_map(|line| line.strip_prefix("allocations ")?.trim().parse().ok())
}

/// The path of the executable of example `name` in cargo's JSON messages
/// (its `compiler-artifact` line).
pub fn parse_executable(messages: &str, name: &str) -> Option<PathBuf> {
    let target = format!("\"name\":\"{name}\"");
    messages
        .lines()
        .filter(|line| line.contains("\"compiler-artifact\"") && line.contains(&target))
        .find_map(|line| {
            let (_, rest) = line.split_once("\"executable\":\"")?;
            let end = rest.find('"')?;
            // Cargo escapes only `\` and `"` in a Unix path.
            Some(PathBuf::from(rest[..end].replace("\\\\", "\\")))
        })
}

/// Whether valgrind can be run.
pub fn valgrind_installed() -> bool {
    Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Builds `client_cost` in release mode with the cargo that runs this (or
/// `cargo` from the path) and returns its path.
pub fn build_client_cost() -> Result<PathBuf, String> {
    build_example(&CLIENT_COST)
}

/// Builds `example` in release mode with the cargo that runs this (or
/// `cargo` from the path) and returns its path.
pub fn build_example(example: &CostExample) -> Result<PathBuf, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    // This workspace's, wherever the command runs from.
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.toml");
    let output = Command::new(cargo)
        .arg("build")
        .arg("--manifest-path")
        .arg(manifest)
        .args([
            "--release",
            "-p",
            example.package,
            "--example",
            example.name,
        ])
        .arg("--message-format=json-render-diagnostics")
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "building {} failed:\n{}",
            example.name,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    parse_executable(&String::from_utf8_lossy(&output.stdout), example.name)
        .ok_or_else(|| format!("cargo did not name the {} executable", example.name))
}

/// Runs the example at `example` in `mode` for `calls` calls under
/// cachegrind.
pub fn run_once(example: &Path, mode: &str, calls: u64) -> Result<Run, String> {
    let output = Command::new("valgrind")
        .args([
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
        ])
        .arg(example)
        .arg(mode)
        .arg(calls.to_string())
        .output()
        .map_err(|e| format!("cannot run valgrind: {e}"))?;
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    if !output.status.success() {
        return Err(format!(
            "{} {mode} {calls} failed:\n{stderr}",
            example.display()
        ));
    }
    let instructions = parse_instructions(&stderr)
        .ok_or_else(|| format!("no `I refs` in cachegrind's output:\n{stderr}"))?;
    let allocations = parse_allocations(&stdout).ok_or_else(|| {
        format!(
            "{} printed no allocation count:\n{stdout}",
            example.display()
        )
    })?;
    Ok(Run {
        instructions,
        allocations,
    })
}

/// Every mode of `client_cost` (at `example`), each from runs at
/// `calls.0` and `calls.1`.
pub fn measure(
    example: &Path,
    calls: (u64, u64),
    progress: impl FnMut(&str),
) -> Result<Vec<PerCall>, String> {
    measure_modes(example, &MODES, calls, progress)
}

/// Each of `modes` of the example at `example`, from runs at `calls.0` and
/// `calls.1`.
pub fn measure_modes(
    example: &Path,
    modes: &[&'static str],
    calls: (u64, u64),
    mut progress: impl FnMut(&str),
) -> Result<Vec<PerCall>, String> {
    modes
        .iter()
        .map(|&mode| {
            progress(mode);
            let low = run_once(example, mode, calls.0)?;
            let high = run_once(example, mode, calls.1)?;
            Ok(per_call(mode, (calls.0, low), (calls.1, high)))
        })
        .collect()
}

/// One goal, measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Goal {
    /// What is measured.
    pub what: &'static str,
    /// The measured figure.
    pub measured: f64,
    /// The most the goal allows.
    pub limit: f64,
}

impl Goal {
    /// Whether the figure is within the goal.
    pub fn met(&self) -> bool {
        self.measured <= self.limit
    }
}

/// The goals of issue 22 against `figures` (from [`measure`]).
pub fn goals(figures: &[PerCall]) -> Vec<Goal> {
    let of = |mode: &str| figures.iter().find(|f| f.mode == mode).copied();
    let mut goals = Vec::new();
    let (Some(engine), Some(client), Some(key), Some(b_engine), Some(b_client)) = (
        of("engine"),
        of("client"),
        of("client-key"),
        of("blocking-engine"),
        of("blocking-client"),
    ) else {
        return goals;
    };
    goals.push(Goal {
        what: "async GET, instructions over the engine",
        measured: client.instructions - engine.instructions,
        limit: GOAL_ASYNC_OVER_ENGINE,
    });
    goals.push(Goal {
        what: "generated key, instructions over the async GET",
        measured: key.instructions - client.instructions,
        limit: GOAL_KEY_OVER_GET,
    });
    goals.push(Goal {
        what: "blocking GET, instructions over the engine",
        measured: b_client.instructions - b_engine.instructions,
        limit: GOAL_BLOCKING_OVER_ENGINE,
    });
    for (what, client, engine) in [
        ("async GET, allocations over the engine", client, engine),
        ("generated key, allocations over the engine", key, engine),
        (
            "blocking GET, allocations over the engine",
            b_client,
            b_engine,
        ),
    ] {
        goals.push(Goal {
            what,
            measured: client.allocations - engine.allocations,
            limit: GOAL_ALLOCATIONS_OVER_ENGINE,
        });
    }
    goals
}

/// One Markdown row per mode: instructions and allocations per call.
fn figure_rows(out: &mut String, figures: &[PerCall]) {
    for f in figures {
        let _ = writeln!(
            out,
            "| {} | {:.0} | {:.2} |",
            f.mode, f.instructions, f.allocations
        );
    }
}

/// The figures and the goals as Markdown tables.
pub fn report(figures: &[PerCall], calls: (u64, u64)) -> String {
    let mut out = format!(
        "### Instructions per call (cachegrind, {} and {} calls per mode)\n\n\
         | mode | instructions / call | allocations / call |\n|---|---:|---:|\n",
        calls.0, calls.1
    );
    figure_rows(&mut out, figures);
    out.push_str("\n| goal (issue 22) | measured | at most | |\n|---|---:|---:|---|\n");
    for goal in goals(figures) {
        let _ = writeln!(
            out,
            "| {} | {:.2} | {} | {} |",
            goal.what,
            goal.measured,
            goal.limit,
            if goal.met() { "met" } else { "missed" }
        );
    }
    out
}

/// The hyper engine against hyper-util, from [`HYPER_POST_COST`]'s
/// figures, as a Markdown table.
pub fn hyper_post_report(figures: &[PerCall], calls: (u64, u64)) -> String {
    let of = |mode: &str| figures.iter().find(|f| f.mode == mode).copied();
    let mut out = format!(
        "### A keyed 16 KiB POST: the hyper engine against hyper-util (cachegrind, {} and {} calls; \
         the in-process server's work is in both)\n\n\
         | mode | instructions / call | allocations / call |\n|---|---:|---:|\n",
        calls.0, calls.1
    );
    figure_rows(&mut out, figures);
    if let (Some(bare), Some(engine)) = (of("hyper-util"), of("engine")) {
        let _ = writeln!(
            out,
            "\nthe engine over hyper-util: {:+.0} instructions, {:+.2} allocations per call; \
             hyper-util / engine = {:.3} (issue 22's goal: at least 0.98). User space only: \
             the engine's check of a pooled connection before reuse adds one `recvfrom` \
             (`MSG_PEEK`) per call in the kernel, which cachegrind does not count.",
            engine.instructions - bare.instructions,
            engine.allocations - bare.allocations,
            bare.instructions / engine.instructions
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_cachegrinds_summary() {
        let stderr = "==4242== Cachegrind, a cache and branch-prediction profiler\n\
                      ==4242== \n\
                      ==4242== I   refs:      123,456,789\n";
        assert_eq!(parse_instructions(stderr), Some(123_456_789));
        assert_eq!(parse_instructions("==1== I refs: 17"), Some(17));
        assert_eq!(parse_instructions("nothing here"), None);
    }

    #[test]
    fn reads_the_examples_allocation_count() {
        assert_eq!(parse_allocations("hello\nallocations 5012\n"), Some(5012));
        assert_eq!(parse_allocations("allocations x"), None);
    }

    #[test]
    fn finds_the_executable_in_cargos_messages() {
        let messages = concat!(
            r#"{"reason":"compiler-artifact","target":{"name":"evident_core"},"executable":null}"#,
            "\n",
            r#"{"reason":"compiler-artifact","target":{"name":"client_cost","kind":["example"]},"executable":"/t/release/examples/client_cost","fresh":true}"#,
            "\n",
            r#"{"reason":"build-finished","success":true}"#,
        );
        assert_eq!(
            parse_executable(messages, "client_cost"),
            Some(PathBuf::from("/t/release/examples/client_cost"))
        );
        assert_eq!(parse_executable(messages, "hyper_post_cost"), None);
    }

    #[test]
    fn the_cost_per_call_is_the_difference_over_the_difference_in_calls() {
        let run = |instructions, allocations| Run {
            instructions,
            allocations,
        };
        let f = per_call(
            "client",
            (2_000, run(1_000_000, 50)),
            (12_000, run(31_000_000, 20_050)),
        );
        assert_eq!((f.instructions, f.allocations), (3_000.0, 2.0));
    }

    #[test]
    fn goals_compare_each_client_with_its_engine() {
        let f = |mode, instructions, allocations| PerCall {
            mode,
            instructions,
            allocations,
        };
        let figures = [
            f("engine", 10_000.0, 3.0),
            f("client", 12_000.0, 5.0),
            f("client-key", 12_600.0, 6.0),
            f("blocking-engine", 8_000.0, 2.0),
            f("blocking-client", 10_400.0, 4.0),
        ];
        let goals = goals(&figures);
        let met: Vec<_> = goals.iter().map(|g| (g.measured, g.met())).collect();
        assert_eq!(
            met,
            [
                (2_000.0, true),
                (600.0, false),
                (2_400.0, true),
                (2.0, true),
                (3.0, false),
                (2.0, true),
            ]
        );
        assert!(report(&figures, DEFAULT_CALLS).contains(
            "| generated key, instructions over the async GET | 600.00 | 500 | missed |"
        ));
    }
}
