//! The client layer's instructions and allocations per call, per mode,
//! against issue 22's goals (see `evident_bench::instructions`). Needs
//! valgrind (cachegrind); counting instructions makes the figure stable on
//! a loaded machine, where timing is not.
//!
//! ```sh
//! cargo run -p evident-bench --release --bin instructions
//! cargo run -p evident-bench --release --bin instructions -- --calls 1000,6000 --check
//! ```

use std::process::ExitCode;

use evident_bench::instructions::{self, DEFAULT_CALLS};

const USAGE: &str = "usage: instructions [--calls LOW,HIGH] [--check]

--check exits with a failure when a goal is missed.";

fn main() -> ExitCode {
    let (calls, check) = match parse(std::env::args().skip(1)) {
        Ok(parsed) => parsed,
        Err(e) => {
            eprintln!("instructions: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    if !instructions::valgrind_installed() {
        eprintln!(
            "instructions: valgrind is not installed (apt-get install -y valgrind): \
             it counts the instructions"
        );
        return ExitCode::FAILURE;
    }
    let example = match instructions::build_client_cost() {
        Ok(path) => path,
        Err(e) => {
            eprintln!("instructions: {e}");
            return ExitCode::FAILURE;
        }
    };
    match instructions::measure(&example, calls, |mode| eprintln!("running {mode}")) {
        Ok(figures) => {
            println!("{}", instructions::report(&figures, calls));
            let missed = instructions::goals(&figures)
                .iter()
                .filter(|g| !g.met())
                .count();
            if check && missed > 0 {
                eprintln!("instructions: {missed} goal(s) missed");
                return ExitCode::FAILURE;
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("instructions: {e}");
            ExitCode::FAILURE
        }
    }
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<((u64, u64), bool), String> {
    let (mut calls, mut check) = (DEFAULT_CALLS, false);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--check" => check = true,
            "--calls" => {
                let value = args.next().ok_or("--calls needs LOW,HIGH")?;
                let (low, high) = value.split_once(',').ok_or("--calls needs LOW,HIGH")?;
                let number = |s: &str| {
                    s.trim()
                        .parse::<u64>()
                        .map_err(|_| format!("{s:?} is not a number"))
                };
                calls = (number(low)?, number(high)?);
                if calls.0 >= calls.1 {
                    return Err("--calls: LOW must be below HIGH".into());
                }
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok((calls, check))
}
