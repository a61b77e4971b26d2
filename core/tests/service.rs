//! The async client as a `tower::Service`: call options from the request's
//! extensions, and composition with a tower layer. Paused tokio time; no
//! test sleeps.

use std::time::Duration;

use evident_core::EngineSignal;
use evident_core::RetryPolicy;
use evident_core::client::{Body, CallOptions, ClientBuilder, Error, attempts_of};
use evident_core::resilience::PipelineConfig;
use evident_core::testing::{Reached, ScriptedEngine, Step};
use tower::{Service, ServiceBuilder, ServiceExt};

const URL: &str = "http://127.0.0.1:8080/orders";

fn client(steps: Vec<Step>) -> evident_core::client::Client<ScriptedEngine> {
    ClientBuilder::new()
        .policy(
            RetryPolicy::builder()
                .max_attempts(3)
                .jitter(0.0)
                .no_budget()
                .build()
                .unwrap(),
        )
        .pipeline(PipelineConfig::disabled())
        .build(ScriptedEngine::new(steps))
        .unwrap()
}

fn post(options: Option<CallOptions>) -> http::Request<Body> {
    let mut request = http::Request::post(URL).body(Body::from("{}")).unwrap();
    if let Some(options) = options {
        request.extensions_mut().insert(options);
    }
    request
}

/// A reset after the whole request was written: ambiguous, so retried only
/// when the operation was declared idempotent.
fn reset_then_ok() -> Vec<Step> {
    vec![
        Step::fail(EngineSignal::ConnectionReset, Reached::BodyWritten),
        Step::respond(200, "ok"),
    ]
}

#[tokio::test(start_paused = true)]
async fn call_options_in_the_request_extensions_are_the_calls_declaration() {
    let mut service = client(reset_then_ok());
    let request = post(Some(CallOptions::new().idempotent()));
    let response = service.ready().await.unwrap().call(request).await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(attempts_of(&response).len(), 2);
}

#[tokio::test(start_paused = true)]
async fn without_call_options_nothing_is_declared_and_an_ambiguous_failure_stops() {
    let service = client(reset_then_ok());
    let error = service.oneshot(post(None)).await.unwrap_err();
    assert_eq!(error.attempts().len(), 1);
    assert!(error.failure().is_some());
}

#[tokio::test(start_paused = true)]
async fn a_tower_timeout_layer_wraps_the_whole_call_and_keeps_evidents_error() {
    // The engine hangs after writing the head; evident's own attempt
    // timeout is far away, so tower's layer ends the call.
    let client = client(vec![Step::hang(Reached::HeadWritten)]);
    let mut service = ServiceBuilder::new()
        .timeout(Duration::from_millis(500))
        .service(client.clone());
    let error = service
        .ready()
        .await
        .unwrap()
        .call(post(None))
        .await
        .unwrap_err();
    assert!(error.is::<tower::timeout::error::Elapsed>(), "{error}");

    // An error of the call itself comes through the layer as evident's
    // Error, records included.
    let failing = self::client(vec![Step::fail(
        EngineSignal::NameNotFound,
        Reached::Resolve,
    )]);
    let error = ServiceBuilder::new()
        .timeout(Duration::from_secs(60))
        .service(failing)
        .oneshot(post(None))
        .await
        .unwrap_err();
    let error = error.downcast::<Error>().expect("evident's error");
    assert_eq!(error.attempts().len(), 1);
}
