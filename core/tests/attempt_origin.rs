//! The client hands every attempt the origin it parsed once for the call,
//! so an engine needs no parse of its own.

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
