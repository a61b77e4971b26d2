//! The decision and classification paths allocate nothing: proven with a
//! counting global allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::time::{Duration, Instant};

use evident_core::*;

struct Counting;

thread_local! {
    /// Allocations made by this thread: tests running in parallel on other
    /// threads do not disturb the count.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn count() {
    // `try_with`: the slot may be gone while the thread shuts down.
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
}

// SAFETY: every method forwards to the system allocator unchanged; the
// counter is the only addition.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations_during(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
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

/// Allocations of `n` direct engine sends of the scripted steps, building
/// each request as the client does (the head cloned per attempt).
fn direct_engine_allocations(steps: &[evident_core::testing::Step]) -> usize {
    use evident_core::engine::{BlockingAttemptBody, BlockingEngine};
    let engine = evident_core::testing::ScriptedEngine::new(steps.to_vec());
    let head = http::Request::get("http://127.0.0.1:8080/x")
        .header("accept", "*/*")
        .body(())
        .unwrap();
    let progress = Progress::new();
    allocations_during(|| {
        for _ in steps {
            let mut request = http::Request::new(BlockingAttemptBody::Empty);
            *request.method_mut() = head.method().clone();
            *request.uri_mut() = head.uri().clone();
            *request.headers_mut() = head.headers().clone();
            let context = evident_core::testing::attempt_context(progress.clone(), None);
            if let Ok(response) = BlockingEngine::send(&engine, request, &context) {
                let mut body = response.into_body();
                while let Ok(Some(_)) = body.next_chunk() {}
            }
        }
    })
}

fn client_call_allocations(steps: &[evident_core::testing::Step]) -> usize {
    use evident_core::client::{CallOptions, ClientBuilder, blocking};
    let clock = evident_core::resilience::ManualClock::new();
    let client = ClientBuilder::new()
        .policy(
            RetryPolicy::builder()
                .max_attempts(5)
                .jitter(0.0)
                .no_budget()
                .build()
                .unwrap(),
        )
        .clock(std::sync::Arc::new(clock.clone()))
        .build_blocking(
            evident_core::testing::ScriptedEngine::new(steps.to_vec()).with_clock(clock),
        )
        .unwrap();
    // The origin's pipeline state is created on first use: warm it up.
    let warm = http::Request::get("http://127.0.0.1:8080/x")
        .body(blocking::Body::Empty)
        .unwrap();
    let _ = client.execute(warm, CallOptions::new());
    let request = http::Request::get("http://127.0.0.1:8080/x")
        .header("accept", "*/*")
        .body(blocking::Body::Empty)
        .unwrap();
    allocations_during(|| {
        let _ = client.execute(request, CallOptions::new());
    })
}

#[test]
fn the_retry_loop_allocates_nothing_per_attempt_beyond_the_request() {
    use evident_core::testing::{Reached, Step};
    let refused = Step::fail(EngineSignal::ConnectionRefused, Reached::Connect);
    let ok = Step::respond(200, "ok");
    // The warm-up call consumes the script's first steps, so each script is
    // prefixed with one success for it.
    let one = [ok.clone(), ok.clone()];
    let two = [ok.clone(), refused.clone(), ok.clone()];
    let three = [ok.clone(), refused.clone(), refused.clone(), ok.clone()];
    let overhead = |script: &[Step]| {
        client_call_allocations(script) as isize - direct_engine_allocations(&script[1..]) as isize
    };
    let (overhead_one, overhead_two, overhead_three) =
        (overhead(&one), overhead(&two), overhead(&three));
    eprintln!(
        "loop overhead: {overhead_one} allocations for a 1-attempt call, {overhead_two} for a \
         2-attempt call, {overhead_three} for a 3-attempt call"
    );
    // A first attempt's record is kept inline; the first retry makes room
    // for the rest of the call's records at once.
    assert_eq!(
        overhead_two,
        overhead_one + 1,
        "a retry allocated other than its call's records, once"
    );
    assert_eq!(
        overhead_three, overhead_two,
        "each extra attempt allocated beyond the request head and the engine's own work"
    );
}
