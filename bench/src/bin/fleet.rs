//! What sharing limits through Redis adds to a call: latency, CPU and
//! round trips per call beside issue 20's goals (see
//! `evident_bench::fleet`). Starts its own `redis-server`; without one
//! installed it says so and skips.
//!
//! ```sh
//! cargo run -p evident-bench --release --bin fleet                 # 10 rounds × 2,000 calls per variant
//! cargo run -p evident-bench --release --bin fleet -- --rounds 4 --calls 1000
//! ```

use std::process::ExitCode;

use evident_bench::fleet::{self, FleetPlan};

const USAGE: &str = "usage: fleet [--smoke] [--rounds N] [--calls N] [--warmup N]";

fn main() -> ExitCode {
    let plan = match parse(std::env::args().skip(1)) {
        Ok(plan) => plan,
        Err(e) => {
            eprintln!("fleet: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    if !fleet::redis_server_installed() {
        eprintln!(
            "fleet: skipped: redis-server is not installed \
             (apt-get install -y redis-server; .ci/run does)"
        );
        return ExitCode::SUCCESS;
    }
    match fleet::run(plan, |what| eprintln!("running {what}")) {
        Ok(report) => {
            println!("{}", evident_bench::report::fleet(&report));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("fleet: {e}");
            ExitCode::FAILURE
        }
    }
}

fn parse(args: impl Iterator<Item = String>) -> Result<FleetPlan, String> {
    let mut plan = FleetPlan::full();
    let mut args = args.peekable();
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--smoke" => plan = FleetPlan::smoke(),
            "--rounds" => plan.rounds = number(&value()?)?,
            "--calls" => plan.calls = number(&value()?)?,
            "--warmup" => plan.warmup = number(&value()?)?,
            "--help" | "-h" => return Err("help".into()),
            other => return Err(format!("unknown option {other:?}")),
        }
    }
    if plan.rounds == 0 || plan.calls == 0 {
        return Err("--rounds and --calls must be at least 1".into());
    }
    Ok(plan)
}

fn number(s: &str) -> Result<usize, String> {
    s.trim()
        .parse()
        .map_err(|_| format!("{s:?} is not a number"))
}
