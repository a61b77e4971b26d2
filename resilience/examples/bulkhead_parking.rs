//! What queueing in a blocking bulkhead costs a call: THREADS threads each
//! make CALLS calls (acquire a slot, block WORK_US microseconds as an
//! attempt's I/O would, release), through a bulkhead of SLOTS slots. With
//! fewer slots than threads every call queues and parks; with as many, none
//! does. The difference in CPU per call between the two is what parking
//! costs, without a network or an engine:
//!
//! ```text
//! cargo run --release -p evident-resilience --example bulkhead_parking -- 128 100 2000 50
//! cargo run --release -p evident-resilience --example bulkhead_parking -- 128 128 2000 50
//! ```
//!
//! Prints wall time and process CPU time (user + system, from
//! `/proc/self/stat`, Linux) per call.

use std::time::{Duration, Instant};

use evident_resilience::{Bulkhead, BulkheadConfig, Interrupt, Origin, Scheme};

const USAGE: &str = "usage: bulkhead_parking THREADS SLOTS CALLS WORK_US";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse())
        .collect::<Result<_, _>>()
        .map_err(|_| USAGE)?;
    let [threads, slots, calls, work_us] = args[..] else {
        return Err(USAGE.into());
    };
    let config = BulkheadConfig::builder()
        .max_concurrent(u32::try_from(slots)?)
        .max_wait(Duration::from_secs(60))
        .build()?;
    let bulkhead = Bulkhead::new(Origin::new(Scheme::Http, "127.0.0.1", 8080), config);
    let interrupt = Interrupt::new();
    let work = Duration::from_micros(work_us);
    let (cpu0, wall0) = (cpu_time()?, Instant::now());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                for _ in 0..calls {
                    // As the blocking client waits: interruptible by a drain.
                    let permit = bulkhead
                        .acquire_blocking_interruptible(Duration::MAX, &interrupt)
                        .expect("a slot within a minute");
                    std::thread::sleep(work);
                    drop(permit);
                }
            });
        }
    });
    let (cpu, wall) = (cpu_time()? - cpu0, wall0.elapsed());
    let total = (threads * calls) as f64;
    println!(
        "threads {threads} slots {slots} calls {total} work {work_us} µs: \
         wall {:.2} µs/call, cpu {:.2} µs/call",
        wall.as_secs_f64() * 1e6 / total,
        cpu.as_secs_f64() * 1e6 / total
    );
    Ok(())
}

/// The process's user + system CPU time.
fn cpu_time() -> Result<Duration, Box<dyn std::error::Error>> {
    let stat = std::fs::read_to_string("/proc/self/stat")?;
    // After the command name (in parentheses, which may hold spaces).
    let rest = &stat[stat.rfind(')').ok_or("no ) in /proc/self/stat")? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the line, 12 and 13 here.
    let ticks: u64 = fields[11].parse::<u64>()? + fields[12].parse::<u64>()?;
    // The kernel's USER_HZ is 100 on every Linux this runs on.
    Ok(Duration::from_millis(ticks * 10))
}
