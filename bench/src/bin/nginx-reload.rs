//! nginx reloaded under load: POSTs that declare nothing, executions
//! counted from nginx's access log (see `evident_bench::reload`).
//!
//! ```sh
//! cargo run -p evident-bench --release --bin nginx-reload                 # 30 runs of 6 s per client
//! cargo run -p evident-bench --release --bin nginx-reload -- --runs 3 --seconds 2
//! ```
//!
//! Exits non-zero when an evident client let nginx execute a call twice.

use std::process::ExitCode;
use std::time::Duration;

use evident_bench::reload::{self, Subject};

/// The long run the closing notes quote: 30 runs of 6 s per client.
const DEFAULT_RUNS: u32 = 30;
const DEFAULT_SECONDS: u64 = 6;

fn main() -> ExitCode {
    let mut runs = DEFAULT_RUNS;
    let mut seconds = DEFAULT_SECONDS;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args.next().and_then(|v| v.parse::<u64>().ok());
        match (arg.as_str(), value) {
            ("--runs", Some(v)) if (1..=1000).contains(&v) => runs = v as u32,
            ("--seconds", Some(v)) if (1..=600).contains(&v) => seconds = v,
            _ => {
                eprintln!("usage: nginx-reload [--runs 1..=1000] [--seconds 1..=600]");
                return ExitCode::from(2);
            }
        }
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let totals = match runtime.block_on(reload::campaign(runs, Duration::from_secs(seconds))) {
        Ok(totals) => totals,
        Err(e) => {
            eprintln!("nginx-reload: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!(
        "\n{runs} run(s) of {seconds} s, {} callers, reload every {:?}:",
        reload::CALLERS,
        reload::RELOAD_EVERY
    );
    let mut evident_twice = 0;
    for (subject, total) in &totals {
        println!("{:<16} {}", subject.name(), total.line());
        if *subject != Subject::BareReqwest {
            evident_twice += total.executed_twice;
        }
    }
    if evident_twice == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
