//! What a run costs the client: allocations (a counting global allocator)
//! and CPU time (process CPU minus the CPU of the loopback server's
//! threads, which share the process).
//!
//! The server's threads mark themselves ([`enter_server_thread`]): their
//! allocations are not counted, and their CPU clocks are read and
//! subtracted, so every figure is the client's alone.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

/// Counter shards: threads spread their counts over this many cache lines,
/// so counting does not make the allocations of many client threads
/// contend on one line (which would tax the clients that allocate most).
const SHARDS: usize = 16;

#[repr(align(128))]
struct Shard {
    allocations: AtomicU64,
    bytes: AtomicU64,
}

static COUNTERS: [Shard; SHARDS] = [const {
    Shard {
        allocations: AtomicU64::new(0),
        bytes: AtomicU64::new(0),
    }
}; SHARDS];

static NEXT_SHARD: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    // Const-initialised and without destructors: safe to touch from inside
    // the allocator, even while a thread is being torn down.
    static SHARD: Cell<usize> = const { Cell::new(usize::MAX) };
    static SERVER_THREAD: Cell<bool> = const { Cell::new(false) };
}

/// The global allocator of every binary that links this crate: the system
/// allocator, counting the allocations of non-server threads.
pub struct CountingAllocator;

fn count(size: usize) {
    let _ = SHARD.try_with(|shard| {
        if SERVER_THREAD.try_with(Cell::get).unwrap_or(false) {
            return;
        }
        let mut index = shard.get();
        if index == usize::MAX {
            index = NEXT_SHARD.fetch_add(1, Ordering::Relaxed) % SHARDS;
            shard.set(index);
        }
        let counter = &COUNTERS[index];
        counter.allocations.fetch_add(1, Ordering::Relaxed);
        counter.bytes.fetch_add(size as u64, Ordering::Relaxed);
    });
}

// SAFETY: every method forwards to the system allocator unchanged; counting
// touches only atomics and const thread-locals, which never allocate.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // A reallocation is an allocation of `new_size` bytes.
        count(new_size);
        // SAFETY: forwarded unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// The CPU clocks of the server's threads.
static SERVER_CLOCKS: Mutex<Vec<libc::clockid_t>> = Mutex::new(Vec::new());

/// Marks the calling thread as a server thread: its allocations are not
/// counted and its CPU time is subtracted from the process's.
pub fn enter_server_thread() {
    SERVER_THREAD.with(|s| s.set(true));
    let mut clock: libc::clockid_t = 0;
    // SAFETY: `pthread_self` is always valid for the calling thread, and
    // `clock` is a valid out-pointer.
    let rc = unsafe { libc::pthread_getcpuclockid(libc::pthread_self(), &mut clock) };
    if rc == 0 {
        SERVER_CLOCKS
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(clock);
    }
}

/// Counters at one instant; subtract two to get what happened between.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counters {
    /// Allocations by client threads.
    pub allocations: u64,
    /// Bytes requested by those allocations.
    pub bytes: u64,
    /// CPU time of the process minus that of the server threads.
    pub client_cpu: Duration,
}

impl Counters {
    /// Reads the counters now.
    pub fn now() -> Counters {
        let (allocations, bytes) = COUNTERS.iter().fold((0, 0), |(a, b), s| {
            (
                a + s.allocations.load(Ordering::Relaxed),
                b + s.bytes.load(Ordering::Relaxed),
            )
        });
        let client_cpu = process_cpu().saturating_sub(server_cpu());
        Counters {
            allocations,
            bytes,
            client_cpu,
        }
    }

    /// What happened since `earlier`.
    pub fn since(self, earlier: Counters) -> Counters {
        Counters {
            allocations: self.allocations.saturating_sub(earlier.allocations),
            bytes: self.bytes.saturating_sub(earlier.bytes),
            client_cpu: self.client_cpu.saturating_sub(earlier.client_cpu),
        }
    }
}

/// User plus system CPU time of the whole process (`getrusage`).
fn process_cpu() -> Duration {
    // SAFETY: an all-zero `rusage` is a valid value of this plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `usage` is a valid out-pointer.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return Duration::ZERO;
    }
    timeval(usage.ru_utime) + timeval(usage.ru_stime)
}

fn timeval(t: libc::timeval) -> Duration {
    Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
}

/// CPU time of every server thread (a thread that ended stops counting, so
/// server runtimes live as long as the process's measurements).
fn server_cpu() -> Duration {
    let clocks = SERVER_CLOCKS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    clocks
        .iter()
        .map(|&clock| {
            // SAFETY: an all-zero `timespec` is valid; `ts` is a valid out-pointer.
            let mut ts: libc::timespec = unsafe { std::mem::zeroed() };
            // SAFETY: as above; a clock of an ended thread fails and counts 0.
            if unsafe { libc::clock_gettime(clock, &mut ts) } != 0 {
                return Duration::ZERO;
            }
            Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocations_of_this_thread_are_counted_and_server_threads_are_not() {
        let before = Counters::now();
        let v: Vec<u8> = Vec::with_capacity(1000);
        drop(std::hint::black_box(v));
        let counted = Counters::now().since(before);
        assert!(counted.allocations >= 1);
        assert!(counted.bytes >= 1000);

        let server = std::thread::spawn(|| {
            enter_server_thread();
            let before = Counters::now();
            for _ in 0..1000 {
                drop(std::hint::black_box(Vec::<u8>::with_capacity(4096)));
            }
            Counters::now().since(before)
        })
        .join()
        .unwrap();
        // Other test threads may allocate meanwhile, but not 4 MB.
        assert!(server.bytes < 1000 * 4096);
    }
}
