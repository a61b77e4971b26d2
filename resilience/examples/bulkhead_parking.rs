//! What queueing in a blocking bulkhead costs a call, against what a
//! blocking queue costs on the same machine in the same run.
//!
//! THREADS threads each make CALLS calls: take a slot, block WORK_US
//! microseconds as an attempt's I/O would, give it back. Four ways, in
//! paired rounds (each round runs all four, one after the other, so a load
//! that comes and goes hits them alike):
//!
//! * `bulkhead`: evident's [`Bulkhead`] with SLOTS slots, waiting as the
//!   blocking client does (first come, first served; interruptible by a
//!   drain; counted);
//! * `fifo`: the least a first-come-first-served queue can do, by hand: a
//!   `Mutex` over a count and a queue of parked threads, a release handing
//!   its slot to the first of them and unparking it;
//! * `condvar`: a `Mutex` + `Condvar` counting semaphore, the plainest
//!   blocking queue the standard library offers. It is not first come,
//!   first served: a thread that gives a slot back takes it again for its
//!   next call before the woken waiter runs, so fewer calls block at all;
//! * `unqueued`: the bulkhead with a slot for every thread, so no call
//!   ever waits.
//!
//! With fewer slots than threads nearly every call waits. What a wait costs
//! is the queued CPU per call less the unqueued one. In a first-come-
//! first-served queue at capacity every queued call blocks once and is
//! woken once, and that block and wake-up is what the kernel charges,
//! whoever queues: the bulkhead's own share is how far it sits above
//! `fifo`, against the spread of the rounds.
//!
//! ```text
//! cargo run --release -p evident-resilience --example bulkhead_parking -- 128 100 2000 50 5
//! ```
//!
//! CPU time is the process's user + system time (`/proc/self/stat`, Linux,
//! in 10 ms ticks: a run should take well over a second of CPU).

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use evident_resilience::{Bulkhead, BulkheadConfig, Interrupt, Origin, Scheme};

const USAGE: &str = "usage: bulkhead_parking THREADS SLOTS CALLS WORK_US [ROUNDS]";

/// Rounds when the command line names none.
const DEFAULT_ROUNDS: u64 = 5;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse())
        .collect::<Result<_, _>>()
        .map_err(|_| USAGE)?;
    let (threads, slots, calls, work_us, rounds) = match args[..] {
        [t, s, c, w] => (t, s, c, w, DEFAULT_ROUNDS),
        [t, s, c, w, r] => (t, s, c, w, r),
        _ => return Err(USAGE.into()),
    };
    if threads == 0 || slots == 0 || calls == 0 || rounds == 0 {
        return Err(format!("{USAGE}: THREADS, SLOTS, CALLS and ROUNDS must be at least 1").into());
    }
    let run = Run {
        threads,
        calls,
        work: Duration::from_micros(work_us),
    };
    println!(
        "{threads} threads x {calls} calls, {slots} slots, {work_us} µs of blocking work per \
         call, {rounds} paired rounds: µs of CPU per call [wall]; a wait = queued - unqueued"
    );
    println!(
        "round  bulkhead        fifo            condvar         unqueued        \
         wait: bulkhead  fifo    condvar"
    );
    let mut waits: [Vec<f64>; 3] = Default::default();
    for round in 1..=rounds {
        let bulkhead = run.bulkhead(slots)?;
        let fifo = run.fifo(slots)?;
        let condvar = run.condvar(slots)?;
        let unqueued = run.bulkhead(threads)?;
        let wait = [bulkhead.cpu, fifo.cpu, condvar.cpu].map(|cpu| cpu - unqueued.cpu);
        println!(
            "{round:>5}  {bulkhead}  {fifo}  {condvar}  {unqueued}  {:>14.2}  {:>6.2}  {:>7.2}",
            wait[0], wait[1], wait[2]
        );
        for (all, one) in waits.iter_mut().zip(wait) {
            all.push(one);
        }
    }
    let [bulkhead, fifo, condvar] = waits.map(Spread::of);
    println!(
        "a wait, µs of CPU per call (median, range): bulkhead {bulkhead}, fifo {fifo}, \
         condvar {condvar}"
    );
    let ratios: Vec<f64> = (0..rounds as usize)
        .map(|i| bulkhead.values[i] / fifo.values[i])
        .collect();
    println!("bulkhead / fifo, paired per round: {}", Spread::of(ratios));
    Ok(())
}

/// One way of running the calls.
struct Run {
    threads: u64,
    calls: u64,
    work: Duration,
}

/// What one run cost per call.
struct PerCall {
    cpu: f64,
    wall: f64,
}

impl std::fmt::Display for PerCall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = format!("{:.2} [{:.2}]", self.cpu, self.wall);
        write!(f, "{text:<14}")
    }
}

impl Run {
    /// The calls through evident's bulkhead of `slots` slots.
    fn bulkhead(&self, slots: u64) -> Result<PerCall, Box<dyn std::error::Error>> {
        let config = BulkheadConfig::builder()
            .max_concurrent(u32::try_from(slots)?)
            .max_wait(Duration::from_secs(60))
            .build()?;
        let bulkhead = Bulkhead::new(Origin::new(Scheme::Http, "127.0.0.1", 8080), config);
        let interrupt = Interrupt::new();
        self.measure(|| {
            // As the blocking client waits: interruptible by a drain.
            let permit = bulkhead
                .acquire_blocking_interruptible(Duration::MAX, &interrupt)
                .expect("a slot within a minute");
            std::thread::sleep(self.work);
            drop(permit);
        })
    }

    /// The calls through the least first-come-first-served queue.
    fn fifo(&self, slots: u64) -> Result<PerCall, Box<dyn std::error::Error>> {
        let queue = Fifo {
            state: Mutex::new((slots, VecDeque::new())),
        };
        self.measure(|| {
            queue.acquire();
            std::thread::sleep(self.work);
            queue.release();
        })
    }

    /// The calls through a `Mutex` + `Condvar` semaphore.
    fn condvar(&self, slots: u64) -> Result<PerCall, Box<dyn std::error::Error>> {
        let free = Mutex::new(slots);
        let freed = Condvar::new();
        self.measure(|| {
            let mut guard = free.lock().expect("not poisoned");
            while *guard == 0 {
                guard = freed.wait(guard).expect("not poisoned");
            }
            *guard -= 1;
            drop(guard);
            std::thread::sleep(self.work);
            *free.lock().expect("not poisoned") += 1;
            freed.notify_one();
        })
    }

    fn measure(&self, call: impl Fn() + Sync) -> Result<PerCall, Box<dyn std::error::Error>> {
        let (cpu0, wall0) = (cpu_time()?, Instant::now());
        std::thread::scope(|s| {
            for _ in 0..self.threads {
                s.spawn(|| {
                    for _ in 0..self.calls {
                        call();
                    }
                });
            }
        });
        let (cpu, wall) = (cpu_time()? - cpu0, wall0.elapsed());
        let total = (self.threads * self.calls) as f64;
        Ok(PerCall {
            cpu: cpu.as_secs_f64() * 1e6 / total,
            wall: wall.as_secs_f64() * 1e6 / total,
        })
    }
}

/// Free slots and the parked waiters, first in line first: a release with
/// a waiter hands the slot over (sets its flag) and unparks it.
struct Fifo {
    state: Mutex<(u64, VecDeque<Waiter>)>,
}

/// A parked waiter: the flag a release sets when it hands the slot over,
/// and the thread to unpark.
type Waiter = (Arc<AtomicBool>, std::thread::Thread);

impl Fifo {
    fn acquire(&self) {
        let mut state = self.state.lock().expect("not poisoned");
        if state.0 > 0 && state.1.is_empty() {
            state.0 -= 1;
            return;
        }
        let handed = Arc::new(AtomicBool::new(false));
        state.1.push_back((handed.clone(), std::thread::current()));
        drop(state);
        while !handed.load(Ordering::Acquire) {
            std::thread::park();
        }
    }

    fn release(&self) {
        let mut state = self.state.lock().expect("not poisoned");
        match state.1.pop_front() {
            Some((handed, thread)) => {
                drop(state);
                handed.store(true, Ordering::Release);
                thread.unpark();
            }
            None => state.0 += 1,
        }
    }
}

/// A median and range.
struct Spread {
    values: Vec<f64>,
}

impl Spread {
    fn of(values: Vec<f64>) -> Self {
        Spread { values }
    }
}

impl std::fmt::Display for Spread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut sorted = self.values.clone();
        sorted.sort_by(f64::total_cmp);
        let mid = sorted.len() / 2;
        let median = if sorted.len().is_multiple_of(2) {
            (sorted[mid - 1] + sorted[mid]) / 2.0
        } else {
            sorted[mid]
        };
        let (min, max) = (sorted[0], sorted[sorted.len() - 1]);
        write!(f, "{median:.2} ({min:.2}–{max:.2})")
    }
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
