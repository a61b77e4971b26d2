//! The conformance runner: every scenario on every engine built in, printed
//! as the parity matrix.
//!
//! ```text
//! cargo run -p evident-conformance --release            # Markdown
//! cargo run -p evident-conformance --release -- --json  # JSON
//! cargo run -p evident-conformance --release -- --engine hyper --scenario h2_refused_stream
//! ```
//!
//! Exits non-zero when any applicable cell fails.

use std::process::ExitCode;

use evident_conformance::engines::built_in;
use evident_conformance::runner::run_matrix;

fn usage() -> ExitCode {
    eprintln!(
        "usage: evident-conformance [--json] [--engine NAME]... [--scenario NAME]...\n\
         engines built in: {}",
        built_in()
            .iter()
            .map(|d| d.name())
            .collect::<Vec<_>>()
            .join(", ")
    );
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let mut json = false;
    let mut engines = Vec::new();
    let mut scenarios = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--json" => json = true,
            "--engine" => match args.next() {
                Some(e) => engines.push(e),
                None => return usage(),
            },
            "--scenario" => match args.next() {
                Some(s) => scenarios.push(s),
                None => return usage(),
            },
            "-h" | "--help" => {
                usage();
                return ExitCode::SUCCESS;
            }
            _ => return usage(),
        }
    }
    let drivers: Vec<_> = built_in()
        .into_iter()
        .filter(|d| engines.is_empty() || engines.iter().any(|e| e == d.name()))
        .collect();
    if drivers.is_empty() {
        eprintln!("no engine selected (check --engine and the crate's features)");
        return usage();
    }
    for name in &scenarios {
        if !evident_conformance::table::scenario_names().contains(&name.as_str()) {
            eprintln!("unknown scenario {name}");
            return usage();
        }
    }
    let matrix = run_matrix(&drivers, |s| {
        scenarios.is_empty() || scenarios.iter().any(|n| n == s.name)
    });
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&matrix.json()).expect("JSON serializes")
        );
    } else {
        print!("{}", matrix.markdown());
    }
    if matrix.has_failures() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
