//! The async client as a `tower::Service` (feature `tower`), so it composes
//! with tower middleware: timeouts, concurrency limits, load shedding,
//! tracing layers.
//!
//! A request's [`CallOptions`] travel in its extensions (absent: the
//! defaults, nothing declared). The service is always ready: admission is
//! decided per attempt by the client's own pipeline (breaker → rate limiter
//! → bulkhead), not by `poll_ready`.
//!
//! Do not stack a retrying layer (`tower::retry`) on top: it would re-send
//! what the evidence forbade, and its attempts would be invisible to the
//! records. Retries belong to the client.
//!
//! ```
//! use evident_core::client::{Body, CallOptions, Client};
//! use evident_core::testing::{Reached, ScriptedEngine, Step};
//! use evident_core::EngineSignal;
//! use tower::{Service, ServiceExt};
//!
//! # #[tokio::main(flavor = "current_thread")] async fn main() {
//! # tokio::time::pause();
//! let engine = ScriptedEngine::new([Step::respond(200, "hello")]);
//! let mut service = Client::new(engine);
//! let mut request = http::Request::get("http://127.0.0.1:8080/").body(Body::Empty).unwrap();
//! request.extensions_mut().insert(CallOptions::new().idempotent());
//! let response = service.ready().await.unwrap().call(request).await.unwrap();
//! assert_eq!(response.body(), "hello");
//! # }
//! ```

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;

use super::{Body, CallOptions, Client, Error};
use crate::engine::Engine;

/// The future a [`Client`] returns as a service.
pub type ResponseFuture =
    Pin<Box<dyn Future<Output = Result<http::Response<Bytes>, Error>> + Send + 'static>>;

impl<E: Engine> tower_service::Service<http::Request<Body>> for Client<E> {
    type Response = http::Response<Bytes>;
    type Error = Error;
    type Future = ResponseFuture;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Error>> {
        // Admission is per attempt, inside the call (the pipeline); a
        // draining client fails the call itself with `is_draining`.
        Poll::Ready(Ok(()))
    }

    /// Runs [`Client::execute`] with the [`CallOptions`] found in the
    /// request's extensions, or the defaults.
    fn call(&mut self, mut request: http::Request<Body>) -> Self::Future {
        let options = request
            .extensions_mut()
            .remove::<CallOptions>()
            .unwrap_or_default();
        let client = self.clone();
        Box::pin(async move { client.execute(request, options).await })
    }
}
