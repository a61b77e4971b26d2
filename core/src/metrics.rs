//! Metrics an operator can use (feature `metrics`): an [`Observer`] that
//! publishes through the [`metrics`] facade, so any exporter installed as
//! its recorder (Prometheus, OpenTelemetry, StatsD, ...) receives them. No
//! export format is written here.
//!
//! | metric | kind | labels |
//! |---|---|---|
//! | `http.client.request.duration` (s) | histogram, per attempt | `http.request.method`, `server.address`, `server.port`, `url.scheme`, `http.response.status_code` or `error.type` |
//! | `evident.client.call.attempts` | histogram, per call | `server.address`, `server.port`, `url.scheme` |
//! | `evident.client.retries` | counter | `evident.decision.reason`, `server.address` |
//! | `evident.client.rejections` | counter | `evident.rejection`, `server.address` |
//! | `evident.client.breaker.state` | gauge: 0 closed, 1 half-open, 2 open | `server.address`, `server.port`, `url.scheme` |
//! | `evident.client.fleet.shared` | gauge: 1 shared, 0 local limits | `evident.fleet` |
//! | `evident.client.fleet.fallbacks` | counter | `evident.fleet`, `evident.fleet.fallback.reason` |
//! | `evident.client.fleet.recoveries` | counter | `evident.fleet` |
//!
//! The fleet metrics come from a fleet sharing its limits through Redis
//! (`evident-redis`), given this observer in its configuration; the
//! fallback reasons are [`FallbackReason::as_str`](crate::observe::FallbackReason::as_str).
//!
//! The first follows the OpenTelemetry HTTP client semantic conventions
//! (every attempt is one HTTP request there, resends included). The breaker
//! gauge needs the pipeline: build it first and give it to both the
//! observer and the client ([`ClientBuilder::shared_pipeline`]).
//!
//! ```
//! use std::sync::Arc;
//! use evident_core::client::ClientBuilder;
//! use evident_core::metrics::MetricsObserver;
//! use evident_core::resilience::{Pipeline, PipelineConfig, TokioClock};
//! use evident_core::testing::{ScriptedEngine, Step};
//!
//! let pipeline = Arc::new(Pipeline::new(PipelineConfig::default(), Arc::new(TokioClock)));
//! let metrics = MetricsObserver::new().breaker_states_of(pipeline.clone());
//! let client = ClientBuilder::new()
//!     .shared_pipeline(pipeline)
//!     .observer(Arc::new(metrics))
//!     .build(ScriptedEngine::new([Step::respond(200, "ok")]))
//!     .unwrap();
//! # let _ = client;
//! ```
//!
//! [`ClientBuilder::shared_pipeline`]: crate::client::ClientBuilder::shared_pipeline

use std::sync::Arc;

use evident_resilience::{CircuitState, Origin, Pipeline, Scheme};

use crate::decide::Decision;
use crate::observe::{AttemptRecord, CallInfo, Observer, SharedStateEvent};

/// Publishes each attempt and call through the `metrics` facade.
#[derive(Debug, Clone, Default)]
pub struct MetricsObserver {
    pipeline: Option<Arc<Pipeline>>,
}

impl MetricsObserver {
    /// An observer publishing the attempt and call metrics.
    pub fn new() -> Self {
        Self::default()
    }

    /// Also publish the circuit breaker state of each origin this pipeline
    /// serves, after every attempt to it.
    pub fn breaker_states_of(mut self, pipeline: Arc<Pipeline>) -> Self {
        self.pipeline = Some(pipeline);
        self
    }
}

/// The gauge value of a breaker state; `None` for a state this version
/// does not know.
fn state_value(state: CircuitState) -> Option<f64> {
    match state {
        CircuitState::Closed => Some(0.0),
        CircuitState::HalfOpen => Some(1.0),
        CircuitState::Open => Some(2.0),
        _ => None,
    }
}

impl Observer for MetricsObserver {
    fn on_attempt(&self, call: &CallInfo, record: &AttemptRecord) {
        let address = call.host.clone();
        let port = call.port.to_string();
        if record.rejection.is_none() {
            let outcome = match (record.status, record.category) {
                (Some(status), _) => ("http.response.status_code", status.to_string()),
                (None, Some(category)) => ("error.type", category.as_str().to_owned()),
                (None, None) => ("error.type", "_OTHER".to_owned()),
            };
            ::metrics::histogram!(
                "http.client.request.duration",
                "http.request.method" => call.method.as_str().to_owned(),
                "server.address" => address.clone(),
                "server.port" => port.clone(),
                "url.scheme" => call.scheme,
                outcome.0 => outcome.1,
            )
            .record(record.duration.as_secs_f64());
        }
        if let Decision::Retry { reason, .. } = record.decision {
            ::metrics::counter!(
                "evident.client.retries",
                "evident.decision.reason" => reason.as_str(),
                "server.address" => address.clone(),
            )
            .increment(1);
        }
        if let Some(kind) = record.rejection {
            ::metrics::counter!(
                "evident.client.rejections",
                "evident.rejection" => kind.as_str(),
                "server.address" => address.clone(),
            )
            .increment(1);
        }
        if let Some(pipeline) = &self.pipeline {
            let scheme = if call.scheme == "https" {
                Scheme::Https
            } else {
                Scheme::Http
            };
            let origin = Origin::new(scheme, &call.host, call.port);
            if let Some(value) = pipeline.state(&origin).and_then(state_value) {
                ::metrics::gauge!(
                    "evident.client.breaker.state",
                    "server.address" => address,
                    "server.port" => port,
                    "url.scheme" => call.scheme,
                )
                .set(value);
            }
        }
    }

    fn on_call_end(&self, call: &CallInfo, records: &[AttemptRecord]) {
        ::metrics::histogram!(
            "evident.client.call.attempts",
            "server.address" => call.host.clone(),
            "server.port" => call.port.to_string(),
            "url.scheme" => call.scheme,
        )
        .record(records.len() as f64);
    }

    fn on_shared_state(&self, fleet: &str, event: &SharedStateEvent) {
        let fleet = fleet.to_owned();
        ::metrics::gauge!("evident.client.fleet.shared", "evident.fleet" => fleet.clone())
            .set(if event.is_shared() { 1.0 } else { 0.0 });
        match *event {
            SharedStateEvent::FellBack { reason } => ::metrics::counter!(
                "evident.client.fleet.fallbacks",
                "evident.fleet" => fleet,
                "evident.fleet.fallback.reason" => reason.as_str(),
            )
            .increment(1),
            SharedStateEvent::SharedAgain => ::metrics::counter!(
                "evident.client.fleet.recoveries",
                "evident.fleet" => fleet,
            )
            .increment(1),
            // Joined, and events of later versions: the gauge says it.
            _ => {}
        }
    }
}
