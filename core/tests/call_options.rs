//! Per-call options override the client's limits for one call, and
//! several clients can share one pipeline and one retry budget. Over the
//! scripted engine, on paused tokio time; no test sleeps.

use std::time::Duration;

use evident_core::client::{Body, CallOptions, Client, ClientBuilder, Error};
use evident_core::decide::{BudgetConfig, StopReason};
use evident_core::resilience::{CircuitBreakerConfig, PipelineConfig};
use evident_core::testing::{Reached, ScriptedEngine, Step};
use evident_core::{EngineSignal, FailureCategory, RejectionKind, RetryPolicy};

const URL: &str = "http://127.0.0.1:8080/orders";

fn policy(max_attempts: u32) -> RetryPolicy {
    RetryPolicy::builder()
        .max_attempts(max_attempts)
        .jitter(0.0)
        .no_budget()
        .build()
        .unwrap()
}

fn client(steps: impl IntoIterator<Item = Step>) -> Client<ScriptedEngine> {
    ClientBuilder::new()
        .policy(policy(3))
        .pipeline(PipelineConfig::disabled())
        .build(ScriptedEngine::new(steps))
        .unwrap()
}

fn refused() -> Step {
    Step::fail(EngineSignal::ConnectionRefused, Reached::Connect)
}

async fn call(client: &Client<ScriptedEngine>, options: CallOptions) -> Result<usize, Error> {
    let request = http::Request::get(URL).body(Body::Empty).unwrap();
    client
        .execute(request, options)
        .await
        .map(|r| evident_core::client::attempts_of(&r).len())
}

#[tokio::test(start_paused = true)]
async fn max_attempts_per_call_overrides_the_policy_both_ways() {
    let c = client(std::iter::repeat_with(refused).take(10));
    let err = call(&c, CallOptions::new().max_attempts(1))
        .await
        .unwrap_err();
    assert_eq!(err.attempts().len(), 1);
    assert_eq!(
        err.attempts()[0].decision.stop_reason(),
        Some(StopReason::AttemptsExhausted)
    );
    let err = call(&c, CallOptions::new().max_attempts(5))
        .await
        .unwrap_err();
    assert_eq!(err.attempts().len(), 5);
}

#[tokio::test(start_paused = true)]
async fn a_whole_policy_per_call_replaces_the_clients() {
    let c = client(std::iter::repeat_with(refused).take(10));
    let err = call(&c, CallOptions::new().policy(policy(2)))
        .await
        .unwrap_err();
    assert_eq!(err.attempts().len(), 2);
    // max_attempts still wins over the call's own policy.
    let options = CallOptions::new().policy(policy(2)).max_attempts(4);
    assert_eq!(call(&c, options).await.unwrap_err().attempts().len(), 4);
}

#[tokio::test(start_paused = true)]
async fn the_attempt_timeout_per_call_ends_a_hanging_attempt_sooner() {
    let c = client([Step::hang(Reached::HeadWritten)]);
    let started = tokio::time::Instant::now();
    let options = CallOptions::new()
        .attempt_timeout(Duration::from_secs(2))
        .max_attempts(1);
    let err = call(&c, options).await.unwrap_err();
    assert_eq!(started.elapsed(), Duration::from_secs(2));
    assert_eq!(err.failure().unwrap().category(), FailureCategory::Timeout);
}

#[tokio::test(start_paused = true)]
async fn the_response_limit_per_call_applies_to_that_call_only() {
    let c = client([
        Step::respond(200, "0123456789"),
        Step::respond(200, "0123456789"),
    ]);
    let err = call(&c, CallOptions::new().max_response_bytes(5))
        .await
        .unwrap_err();
    assert_eq!(
        err.failure().unwrap().category(),
        FailureCategory::ResponseTooLarge
    );
    let too_large = err
        .response_too_large()
        .expect("the limit and the size seen");
    assert_eq!((too_large.limit(), too_large.seen()), (5, 10));
    assert_eq!(call(&c, CallOptions::new()).await.unwrap(), 1);
}

#[tokio::test(start_paused = true)]
async fn impossible_overrides_fail_the_call_before_anything_is_sent() {
    let c = client([Step::respond(200, "ok")]);
    let cases = [
        CallOptions::new().max_attempts(0),
        CallOptions::new().max_attempts(evident_core::decide::MAX_ATTEMPTS_LIMIT + 1),
        CallOptions::new().attempt_timeout(Duration::ZERO),
        CallOptions::new().max_response_bytes(0),
        CallOptions::new().max_response_bytes(evident_core::client::MAX_RESPONSE_BYTES_LIMIT + 1),
    ];
    for options in cases {
        let err = call(&c, options.clone()).await.unwrap_err();
        assert!(err.is_invalid_request(), "{options:?}: {err}");
    }
    assert_eq!(c.engine().sends(), 0);
}

#[tokio::test(start_paused = true)]
async fn clients_sharing_a_pipeline_share_the_breaker_of_an_origin() {
    let breaker = CircuitBreakerConfig::builder()
        .sliding_window_size(1)
        .minimum_number_of_calls(1)
        .build()
        .unwrap();
    let first = ClientBuilder::new()
        .policy(policy(1))
        .pipeline(PipelineConfig::disabled().circuit_breaker(Some(breaker)))
        .build(ScriptedEngine::new([Step::respond(503, "")]))
        .unwrap();
    let second = ClientBuilder::new()
        .policy(policy(1))
        .shared_pipeline(first.pipeline().clone())
        .build(ScriptedEngine::new([Step::respond(200, "ok")]))
        .unwrap();
    // The first client's 503 opens the origin's circuit...
    assert_eq!(call(&first, CallOptions::new()).await.unwrap(), 1);
    // ...and the second client's call to the same origin is rejected.
    let err = call(&second, CallOptions::new()).await.unwrap_err();
    assert_eq!(
        err.attempts()[0].rejection,
        Some(RejectionKind::CircuitOpen)
    );
    assert_eq!(second.engine().sends(), 0);
}

#[tokio::test(start_paused = true)]
async fn clients_given_clones_of_one_policy_share_its_retry_budget() {
    // No retry allowed beyond a floor of one per second, for both clients
    // together.
    let shared = RetryPolicy::builder()
        .max_attempts(3)
        .jitter(0.0)
        .budget(BudgetConfig {
            ratio: 0.0,
            min_per_sec: 1,
            ttl: Duration::from_secs(1),
        })
        .build()
        .unwrap();
    let build = |policy: RetryPolicy| {
        ClientBuilder::new()
            .policy(policy)
            .pipeline(PipelineConfig::disabled())
            .build(ScriptedEngine::new([refused(), refused(), refused()]))
            .unwrap()
    };
    let (first, second) = (build(shared.clone()), build(shared));
    // The first client spends the one retry the budget holds...
    let err = call(&first, CallOptions::new()).await.unwrap_err();
    assert_eq!(err.attempts().len(), 2, "{:?}", err.attempts());
    // ...so the second client's first failure finds the budget empty.
    let err = call(&second, CallOptions::new()).await.unwrap_err();
    assert_eq!(err.attempts().len(), 1);
    assert_eq!(
        err.attempts()[0].decision.stop_reason(),
        Some(StopReason::BudgetExhausted)
    );
}

#[test]
fn the_blocking_client_honours_the_per_call_limit_and_reports_what_it_saw() {
    let c = ClientBuilder::new()
        .policy(policy(1))
        .pipeline(PipelineConfig::disabled())
        .build_blocking(ScriptedEngine::new([Step::respond(200, "0123456789")]))
        .unwrap();
    let request = http::Request::get(URL)
        .body(evident_core::client::blocking::Body::Empty)
        .unwrap();
    let err = c
        .execute(request, CallOptions::new().max_response_bytes(4))
        .unwrap_err();
    let too_large = err
        .response_too_large()
        .expect("the limit and the size seen");
    assert_eq!((too_large.limit(), too_large.seen()), (4, 10));
}
