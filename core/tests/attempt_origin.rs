//! The client hands every attempt what the call settled once: the origin it
//! parsed (so an engine needs no parse of its own), and whether a repeat of
//! the request is harmless.

use std::sync::{Arc, Mutex};

use evident_core::client::{Body, CallOptions, ClientBuilder};
use evident_core::engine::Scheme;
use evident_core::engine::{AttemptBody, AttemptContext, Engine, EngineFailure, ResponseBody};
use evident_core::{EngineSignal, Origin};
use http_body_util::BodyExt;

/// Records each attempt's origin, refuses the first connection and
/// answers the second.
#[derive(Default, Clone)]
struct Recording(Arc<Mutex<Vec<Option<Origin>>>>);

#[async_trait::async_trait]
impl Engine for Recording {
    fn name(&self) -> &'static str {
        "recording"
    }

    async fn send(
        &self,
        _request: http::Request<AttemptBody>,
        attempt: &AttemptContext,
    ) -> Result<http::Response<ResponseBody>, EngineFailure> {
        let mut seen = self.0.lock().unwrap();
        seen.push(attempt.origin().cloned());
        if seen.len() == 1 {
            attempt
                .progress()
                .enter(evident_core::AttemptStage::Connect);
            return Err(EngineFailure::signal_only(EngineSignal::ConnectionRefused));
        }
        let body = http_body_util::Empty::new()
            .map_err(|never: std::convert::Infallible| match never {})
            .boxed_unsync();
        Ok(http::Response::new(body))
    }
}

#[tokio::test(start_paused = true)]
async fn every_attempt_carries_the_calls_origin() {
    let recording = Recording::default();
    let client = ClientBuilder::new().build(recording.clone()).unwrap();
    let request = http::Request::post("https://API.Example.com/orders")
        .body(Body::Empty)
        .unwrap();
    client.execute(request, CallOptions::new()).await.unwrap();
    let expected = Origin::new(Scheme::Https, "api.example.com", 443);
    let seen = recording.0.lock().unwrap().clone();
    assert_eq!(seen, vec![Some(expected.clone()), Some(expected)]);
}

/// Records whether each attempt's request may be repeated without harm,
/// and fails it before anything is written.
#[derive(Default, Clone)]
struct Harmless(Arc<Mutex<Vec<bool>>>);

impl Harmless {
    fn refuse(&self, attempt: &AttemptContext) -> EngineFailure {
        self.0.lock().unwrap().push(attempt.repeat_is_harmless());
        attempt
            .progress()
            .enter(evident_core::AttemptStage::Connect);
        EngineFailure::signal_only(EngineSignal::ConnectionRefused)
    }

    fn take(&self) -> Vec<bool> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
}

#[async_trait::async_trait]
impl Engine for Harmless {
    fn name(&self) -> &'static str {
        "harmless"
    }

    async fn send(
        &self,
        _request: http::Request<AttemptBody>,
        attempt: &AttemptContext,
    ) -> Result<http::Response<ResponseBody>, EngineFailure> {
        Err(self.refuse(attempt))
    }
}

impl evident_core::engine::BlockingEngine for Harmless {
    fn name(&self) -> &'static str {
        "harmless"
    }

    fn send(
        &self,
        _request: http::Request<evident_core::engine::BlockingAttemptBody>,
        attempt: &AttemptContext,
    ) -> Result<http::Response<Box<dyn evident_core::engine::BlockingResponseBody>>, EngineFailure>
    {
        Err(self.refuse(attempt))
    }
}

/// The four declarations, and whether a repeat of their request is
/// harmless: declared idempotent, or a key in every attempt's head.
fn declarations() -> [(CallOptions, bool); 4] {
    [
        (CallOptions::new(), false),
        (CallOptions::new().idempotent(), true),
        (
            CallOptions::new().idempotency_key(http::HeaderValue::from_static("k-1")),
            true,
        ),
        (CallOptions::new().generate_idempotency_key(), true),
    ]
}

#[tokio::test(start_paused = true)]
async fn every_attempt_says_whether_a_repeat_of_its_request_is_harmless() {
    let engine = Harmless::default();
    let client = ClientBuilder::new().build(engine.clone()).unwrap();
    for (options, harmless) in declarations() {
        let request = http::Request::post("http://127.0.0.1:9/pay")
            .body(Body::Full("{}".into()))
            .unwrap();
        let err = client
            .execute(request, options.max_attempts(2))
            .await
            .unwrap_err();
        assert_eq!(err.attempts().len(), 2, "a refused connection is retried");
        assert_eq!(engine.take(), vec![harmless; 2]);
    }
}

#[test]
fn every_blocking_attempt_says_whether_a_repeat_of_its_request_is_harmless() {
    let engine = Harmless::default();
    let client = ClientBuilder::new().build_blocking(engine.clone()).unwrap();
    for (options, harmless) in declarations() {
        let request = http::Request::post("http://127.0.0.1:9/pay")
            .body(evident_core::client::blocking::Body::Full("{}".into()))
            .unwrap();
        let err = client
            .execute(request, options.max_attempts(2))
            .unwrap_err();
        assert_eq!(err.attempts().len(), 2, "a refused connection is retried");
        assert_eq!(engine.take(), vec![harmless; 2]);
    }
}
