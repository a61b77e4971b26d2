//! The decision and classification paths allocate nothing: proven with a
//! counting global allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use evident_core::*;

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every method forwards to the system allocator unchanged; the
// counter is the only addition.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations_during(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    f();
    ALLOCATIONS.load(Ordering::SeqCst) - before
}

#[test]
fn deciding_and_classifying_allocate_nothing() {
    let policy = RetryPolicy::builder().build().unwrap();
    let progress = Progress::new();
    progress.counts_writes_exactly();
    progress.enter(AttemptStage::AwaitHead);
    progress.wrote(300);
    progress.head_written();
    let ctx = RetryContext {
        attempts_made: 1,
        attempts_allowed: 3,
        body: BodyReplay::Replayable,
        response_delivered: false,
        draining: false,
        remaining: Some(Duration::from_secs(5)),
        min_attempt_time: policy.min_attempt_time(),
        idempotency: Idempotency::Declared,
    };
    let now = Instant::now();
    let outcomes = [
        Outcome::Failed {
            category: FailureCategory::Timeout,
            evidence: ExecutionEvidence::SentNoResponse,
        },
        Outcome::Answered {
            status: http::StatusCode::SERVICE_UNAVAILABLE,
            retry_after: Some(Duration::from_secs(1)),
        },
        Outcome::Answered {
            status: http::StatusCode::OK,
            retry_after: None,
        },
    ];
    // Warm up anything lazily initialised (none is expected).
    let _ = policy.decide(&ctx, &outcomes[0], now);
    let n = allocations_during(|| {
        for _ in 0..100 {
            let snapshot = progress.snapshot();
            for signal in [
                EngineSignal::TimedOut,
                EngineSignal::Http2RefusedStream,
                EngineSignal::Io(std::io::ErrorKind::ConnectionReset),
            ] {
                let failure = classify(signal, &snapshot);
                std::hint::black_box(policy.decide(&ctx, &Outcome::failed(&failure), now));
            }
            for o in &outcomes {
                std::hint::black_box(policy.decide(&ctx, o, now));
            }
            std::hint::black_box(RetryAfter::parse(b" 120 "));
        }
    });
    assert_eq!(n, 0, "the decision and classification paths allocated");
}
