//! `cargo run -p evident-bench --release [-- options]`: the end-to-end
//! benchmark. See the crate docs for what it measures.

use std::process::ExitCode;

use evident_bench::clients::Protocol;
use evident_bench::outage::OutagePlan;
use evident_bench::run::{Plan, Workload};
use evident_core::client::ClientBuilder;

const USAGE: &str = "\
usage: evident-bench [--smoke] [--calls N] [--rounds N] [--warmup N]
                     [--in-flight 16,128] [--protocol h1,h2] [--workload get,post]
                     [--only NAME] [--bulkhead N] [--outage-calls N] [--no-outage]
                     [--outage-only]

--bulkhead N gives evident's clients N concurrent attempts per origin instead
of the default, which queues calls above it (the bare engines have no limit).";

fn main() -> ExitCode {
    match parse(std::env::args().skip(1)) {
        Ok((plan, outage, counts)) => match run(&plan, outage, counts) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("evident-bench: {e}");
                ExitCode::FAILURE
            }
        },
        Err(e) => {
            eprintln!("evident-bench: {e}\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn parse(args: impl Iterator<Item = String>) -> Result<(Plan, Option<OutagePlan>, bool), String> {
    let mut plan = Plan::full();
    let mut outage = Some(OutagePlan::default());
    let mut benchmark = true;
    // The instruction counts (cachegrind): not in a smoke run, which must
    // stay quick.
    let mut counts = true;
    let mut args = args.peekable();
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--smoke" => {
                plan = Plan::smoke();
                counts = false;
                outage = Some(OutagePlan {
                    calls: 40,
                    in_flight: 4,
                });
            }
            "--calls" => plan.calls = number(&value()?)?,
            "--rounds" => plan.rounds = number(&value()?)?,
            "--warmup" => plan.warmup = number(&value()?)?,
            "--in-flight" => {
                plan.in_flight = value()?.split(',').map(number).collect::<Result<_, _>>()?
            }
            "--protocol" => {
                plan.protocols = value()?
                    .split(',')
                    .map(|p| match p {
                        "h1" => Ok(Protocol::Http1),
                        "h2" => Ok(Protocol::Http2),
                        other => Err(format!("unknown protocol {other:?} (h1, h2)")),
                    })
                    .collect::<Result<_, _>>()?
            }
            "--workload" => {
                plan.workloads = value()?
                    .split(',')
                    .map(|w| match w {
                        "get" => Ok(Workload::Get),
                        "post" => Ok(Workload::PostWithKey),
                        other => Err(format!("unknown workload {other:?} (get, post)")),
                    })
                    .collect::<Result<_, _>>()?
            }
            "--outage-calls" => {
                let calls = number(&value()?)?;
                outage = outage.map(|o| OutagePlan { calls, ..o });
            }
            "--only" => plan.only = Some(value()?),
            "--bulkhead" => {
                let max = number(&value()?)?;
                let max = u32::try_from(max)
                    .ok()
                    .filter(|m| *m > 0)
                    .ok_or("--bulkhead must be between 1 and 4294967295")?;
                plan.bulkhead = Some(max);
            }
            "--no-outage" => outage = None,
            "--outage-only" => benchmark = false,
            "--help" | "-h" => return Err("help".into()),
            other => return Err(format!("unknown option {other:?}")),
        }
    }
    if !benchmark {
        plan.protocols.clear();
    }
    if plan.rounds == 0 || plan.calls == 0 || plan.in_flight.contains(&0) {
        return Err("--rounds, --calls and --in-flight must be at least 1".into());
    }
    Ok((plan, outage, counts))
}

fn number(s: &str) -> Result<usize, String> {
    s.trim()
        .parse()
        .map_err(|_| format!("{s:?} is not a number"))
}

fn run(
    plan: &Plan,
    outage: Option<OutagePlan>,
    counts: bool,
) -> Result<(), Box<dyn std::error::Error>> {
    println!(
        "## evident-bench: {} calls per client per round, {} paired rounds, {} warm-up calls\n",
        plan.calls, plan.rounds, plan.warmup
    );
    match plan.bulkhead {
        Some(max) => println!("evident clients' bulkhead: {max} concurrent attempts per origin\n"),
        None => println!(
            "evident clients' bulkhead: the default, {} per origin, queueing above\n",
            evident_core::resilience::DEFAULT_MAX_CONCURRENT_ATTEMPTS
        ),
    }
    if !plan.protocols.is_empty() {
        let cases = evident_bench::run::run(plan, |what| eprintln!("running {what}"))?;
        println!("{}", evident_bench::report::cases(&cases));
        println!("{}", evident_bench::report::targets(&cases));
        // Beside the ratios, the client layer's cost counted in
        // instructions, which the machine's load does not blur.
        if counts {
            println!("{}", instruction_counts());
        }
    }
    if let Some(outage) = outage {
        let results = evident_bench::outage::run(outage, &ClientBuilder::new, |what| {
            eprintln!("running {what}")
        })?;
        println!(
            "{}",
            evident_bench::report::outages(
                &results,
                &format!(
                    "{} calls, {} in flight, evident's default policy and budget",
                    outage.calls, outage.in_flight
                )
            )
        );
    }
    Ok(())
}

/// The `instructions` command's table, or why it is missing.
fn instruction_counts() -> String {
    use evident_bench::instructions::{self, DEFAULT_CALLS};
    if !instructions::valgrind_installed() {
        return "### Instructions per call\n\nskipped: valgrind is not installed \
                (`cargo run -p evident-bench --release --bin instructions` needs it)\n"
            .to_owned();
    }
    eprintln!("running the instruction counts (cachegrind)");
    match instructions::build_client_cost()
        .and_then(|example| instructions::measure(&example, DEFAULT_CALLS, |_| {}))
    {
        Ok(figures) => instructions::report(&figures, DEFAULT_CALLS),
        Err(e) => format!("### Instructions per call\n\nfailed: {e}\n"),
    }
}
