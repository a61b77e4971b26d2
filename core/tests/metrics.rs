//! The metrics exporter publishes OpenTelemetry-named metrics through the
//! `metrics` facade: checked with metrics-util's debugging recorder.

use std::sync::Arc;
use std::time::Duration;

use evident_core::client::{Body, CallOptions, ClientBuilder};
use evident_core::metrics::MetricsObserver;
use evident_core::observe::{FallbackReason, Observer, SharedStateEvent};
use evident_core::resilience::{CircuitBreakerConfig, Pipeline, PipelineConfig, TokioClock};
use evident_core::testing::{Reached, ScriptedEngine, Step};
use evident_core::{EngineSignal, RetryPolicy};
use metrics_util::debugging::{DebugValue, DebuggingRecorder};

/// One metric as the recorder saw it: name, sorted labels, value.
type Seen = (String, Vec<(String, String)>, DebugValue);

fn run_calls() -> Vec<Seen> {
    let recorder = DebuggingRecorder::new();
    let snapshotter = recorder.snapshotter();
    metrics::with_local_recorder(&recorder, || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .start_paused(true)
            .build()
            .unwrap();
        runtime.block_on(async {
            let breaker = CircuitBreakerConfig::builder()
                .sliding_window_size(2)
                .minimum_number_of_calls(2)
                .build()
                .unwrap();
            let pipeline = Arc::new(Pipeline::new(
                PipelineConfig::disabled().circuit_breaker(Some(breaker)),
                Arc::new(TokioClock),
            ));
            let client = ClientBuilder::new()
                .policy(
                    RetryPolicy::builder()
                        .max_attempts(3)
                        .jitter(0.0)
                        .no_budget()
                        .build()
                        .unwrap(),
                )
                .shared_pipeline(pipeline.clone())
                .observer(Arc::new(MetricsObserver::new().breaker_states_of(pipeline)))
                .build(ScriptedEngine::new([
                    Step::fail(EngineSignal::ConnectionRefused, Reached::Connect),
                    Step::fail(EngineSignal::ConnectionRefused, Reached::Connect),
                ]))
                .unwrap();
            // Two refusals open the circuit (window 2, both failures); the
            // third attempt is rejected locally.
            let request = http::Request::post("http://127.0.0.1:8080/orders")
                .body(Body::from("{}"))
                .unwrap();
            let err = client
                .execute(
                    request,
                    CallOptions::new().attempt_timeout(Duration::from_secs(1)),
                )
                .await
                .unwrap_err();
            assert_eq!(err.attempts().len(), 3, "{:?}", err.attempts());
        });
    });
    snapshotter
        .snapshot()
        .into_vec()
        .into_iter()
        .map(|(key, _, _, value)| {
            let mut labels: Vec<(String, String)> = key
                .key()
                .labels()
                .map(|l| (l.key().to_owned(), l.value().to_owned()))
                .collect();
            labels.sort();
            (key.key().name().to_owned(), labels, value)
        })
        .collect()
}

fn find<'a>(seen: &'a [Seen], name: &str, label: (&str, &str)) -> Option<&'a DebugValue> {
    seen.iter()
        .find(|(n, labels, _)| {
            n == name
                && labels
                    .iter()
                    .any(|(k, v)| (k.as_str(), v.as_str()) == label)
        })
        .map(|(_, _, value)| value)
}

#[test]
fn attempts_retries_rejections_durations_and_breaker_state_are_published() {
    let seen = run_calls();
    // Two attempts reached the engine, each one `http.client.request.duration`
    // observation labelled with its error type.
    match find(
        &seen,
        "http.client.request.duration",
        ("error.type", "connection_refused"),
    ) {
        Some(DebugValue::Histogram(values)) => assert_eq!(values.len(), 2, "{seen:?}"),
        other => panic!("no duration histogram: {other:?} in {seen:?}"),
    }
    match find(
        &seen,
        "evident.client.retries",
        ("evident.decision.reason", "not_sent"),
    ) {
        Some(DebugValue::Counter(n)) => assert_eq!(*n, 2),
        other => panic!("no retry counter: {other:?} in {seen:?}"),
    }
    match find(
        &seen,
        "evident.client.rejections",
        ("evident.rejection", "circuit_open"),
    ) {
        Some(DebugValue::Counter(n)) => assert_eq!(*n, 1),
        other => panic!("no rejection counter: {other:?} in {seen:?}"),
    }
    match find(
        &seen,
        "evident.client.call.attempts",
        ("server.address", "127.0.0.1"),
    ) {
        Some(DebugValue::Histogram(values)) => {
            assert_eq!(
                values.iter().map(|v| v.into_inner()).collect::<Vec<_>>(),
                [3.0]
            );
        }
        other => panic!("no attempts histogram: {other:?} in {seen:?}"),
    }
    match find(
        &seen,
        "evident.client.breaker.state",
        ("server.port", "8080"),
    ) {
        Some(DebugValue::Gauge(state)) => assert_eq!(state.into_inner(), 2.0, "open"),
        other => panic!("no breaker gauge: {other:?} in {seen:?}"),
    }
}

/// Publishes `events` of fleet `fleet` through the metrics observer.
fn publish_fleet_events(fleet: &str, events: &[SharedStateEvent]) -> Vec<Seen> {
    let recorder = DebuggingRecorder::new();
    let snapshotter = recorder.snapshotter();
    metrics::with_local_recorder(&recorder, || {
        let observer = MetricsObserver::new();
        for event in events {
            observer.on_shared_state(fleet, event);
        }
    });
    snapshotter
        .snapshot()
        .into_vec()
        .into_iter()
        .map(|(key, _, _, value)| {
            let mut labels: Vec<(String, String)> = key
                .key()
                .labels()
                .map(|l| (l.key().to_owned(), l.value().to_owned()))
                .collect();
            labels.sort();
            (key.key().name().to_owned(), labels, value)
        })
        .collect()
}

#[test]
fn fleet_switches_publish_a_shared_gauge_and_fallbacks_by_reason() {
    let fell_back = |reason| SharedStateEvent::FellBack { reason };
    let seen = publish_fleet_events(
        "payments",
        &[
            SharedStateEvent::Joined,
            fell_back(FallbackReason::Deadline),
            SharedStateEvent::SharedAgain,
            fell_back(FallbackReason::Error),
            SharedStateEvent::SharedAgain,
            fell_back(FallbackReason::Deadline),
        ],
    );
    let fleet = ("evident.fleet", "payments");
    match find(&seen, "evident.client.fleet.shared", fleet) {
        Some(DebugValue::Gauge(shared)) => assert_eq!(shared.into_inner(), 0.0, "local last"),
        other => panic!("no shared gauge: {other:?} in {seen:?}"),
    }
    let fallbacks = |reason: &str| {
        seen.iter()
            .find(|(name, labels, _)| {
                name == "evident.client.fleet.fallbacks"
                    && labels.contains(&("evident.fleet".into(), "payments".into()))
                    && labels.contains(&("evident.fleet.fallback.reason".into(), reason.into()))
            })
            .map(|(_, _, value)| value)
    };
    assert_eq!(
        fallbacks("deadline"),
        Some(&DebugValue::Counter(2)),
        "{seen:?}"
    );
    assert_eq!(
        fallbacks("error"),
        Some(&DebugValue::Counter(1)),
        "{seen:?}"
    );
    assert_eq!(fallbacks("unavailable_at_start"), None, "{seen:?}");
    assert_eq!(
        find(&seen, "evident.client.fleet.recoveries", fleet),
        Some(&DebugValue::Counter(2)),
        "{seen:?}"
    );

    let started_local =
        publish_fleet_events("orders", &[fell_back(FallbackReason::UnavailableAtStart)]);
    assert_eq!(
        find(
            &started_local,
            "evident.client.fleet.fallbacks",
            ("evident.fleet.fallback.reason", "unavailable_at_start"),
        ),
        Some(&DebugValue::Counter(1)),
        "{started_local:?}"
    );
    match find(
        &started_local,
        "evident.client.fleet.shared",
        ("evident.fleet", "orders"),
    ) {
        Some(DebugValue::Gauge(shared)) => assert_eq!(shared.into_inner(), 0.0),
        other => panic!("no shared gauge: {other:?} in {started_local:?}"),
    }
}
