//! The client layer's instructions and allocations per call, per mode,
//! against issue 22's goals (see `evident_bench::instructions`). Needs
//! valgrind (cachegrind); counting instructions makes the figure stable on
//! a loaded machine, where timing is not.
//!
//! ```sh
//! cargo run -p evident-bench --release --bin instructions
//! cargo run -p evident-bench --release --bin instructions -- --calls 1000,6000 --check
//! cargo run -p evident-bench --release --bin instructions -- --hyper-post
//! ```

use std::process::ExitCode;

use evident_bench::instructions::{self, CLIENT_COST, CostExample, HYPER_POST_COST};

const USAGE: &str = "usage: instructions [--hyper-post] [--calls LOW,HIGH] [--check]

--hyper-post measures a keyed 16 KiB POST through the hyper engine against
hyper-util instead of the client layer.
--check exits with a failure when a goal is missed.";

/// What the command was asked.
struct Args {
    example: CostExample,
    calls: Option<(u64, u64)>,
    check: bool,
}

fn main() -> ExitCode {
    let Args {
        example: which,
        calls,
        check,
    } = match parse(std::env::args().skip(1)) {
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
    let calls = calls.unwrap_or(which.calls);
    let example = match instructions::build_example(&which) {
        Ok(path) => path,
        Err(e) => {
            eprintln!("instructions: {e}");
            return ExitCode::FAILURE;
        }
    };
    let measured = instructions::measure_modes(&example, which.modes, calls, |mode| {
        eprintln!("running {mode}")
    });
    match measured {
        Ok(figures) if which == HYPER_POST_COST => {
            println!("{}", instructions::hyper_post_report(&figures, calls));
            ExitCode::SUCCESS
        }
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

fn parse(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let (mut example, mut calls, mut check) = (CLIENT_COST, None, false);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--check" => check = true,
            "--hyper-post" => example = HYPER_POST_COST,
            "--calls" => {
                let value = args.next().ok_or("--calls needs LOW,HIGH")?;
                let (low, high) = value.split_once(',').ok_or("--calls needs LOW,HIGH")?;
                let number = |s: &str| {
                    s.trim()
                        .parse::<u64>()
                        .map_err(|_| format!("{s:?} is not a number"))
                };
                let pair = (number(low)?, number(high)?);
                if pair.0 >= pair.1 {
                    return Err("--calls: LOW must be below HIGH".into());
                }
                calls = Some(pair);
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(Args {
        example,
        calls,
        check,
    })
}
