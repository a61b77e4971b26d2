//! The tagging engine: wraps the engine under audit and marks each attempt
//! before handing it over, so the server can tell attempts apart.
//!
//! The core gives the engine each attempt's index
//! ([`AttemptContext::attempt_index`]) but lets neither the caller nor an
//! observer change the request per attempt, so the audit wraps the
//! driver's engine in this one. It changes nothing the engine does: it
//! rewrites the request target's first segment from `/c<call>/` to
//! `/c<call>a<attempt>/` (the first bytes of the request line on
//! HTTP/1.1, the `:path` on HTTP/2, so even a request cut a few bytes in
//! names its attempt) and adds [`ATTEMPT_HEADER`], then publishes the
//! attempt as its lane's attempt in flight and calls the engine.

use std::sync::Arc;

use evident_core::engine::{
    AttemptBody, AttemptContext, BlockingAttemptBody, BlockingEngine, BlockingResponseBody, Engine,
    EngineFailure, ResponseBody,
};
use http::header::HeaderValue;

use super::book::AttemptTag;
use super::state::AuditState;

/// The header carrying the call id, set by the audit on every call.
pub const CALL_HEADER: &str = "x-evident-audit-call";

/// The header carrying the attempt's tag (`c<call>a<attempt>`), set by the
/// tagging engine on every attempt.
pub const ATTEMPT_HEADER: &str = "x-evident-attempt";

/// The engine under audit, with every attempt tagged.
pub(crate) struct Tagging<E: ?Sized> {
    pub(crate) inner: Arc<E>,
    pub(crate) state: Arc<AuditState>,
}

fn tag_request<B>(state: &AuditState, request: &mut http::Request<B>, attempt: u32) {
    let Some(call) = request
        .headers()
        .get(CALL_HEADER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
    else {
        return;
    };
    let tag = AttemptTag { call, attempt };
    let untagged = format!("/c{call}/");
    let mut parts = request.uri().clone().into_parts();
    if let Some(pq) = &parts.path_and_query
        && let Some(rest) = pq.as_str().strip_prefix(&untagged)
        && let Ok(tagged) = format!("/{tag}/{rest}").parse()
    {
        parts.path_and_query = Some(tagged);
        if let Ok(uri) = http::Uri::from_parts(parts) {
            *request.uri_mut() = uri;
        }
    }
    if let Ok(value) = HeaderValue::from_str(&tag.to_string()) {
        request.headers_mut().insert(ATTEMPT_HEADER, value);
    }
    state.handing_over(tag);
}

#[async_trait::async_trait]
impl Engine for Tagging<dyn Engine> {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    async fn send(
        &self,
        mut request: http::Request<AttemptBody>,
        attempt: &AttemptContext,
    ) -> Result<http::Response<ResponseBody>, EngineFailure> {
        tag_request(&self.state, &mut request, attempt.attempt_index());
        self.inner.send(request, attempt).await
    }
}

impl BlockingEngine for Tagging<dyn BlockingEngine> {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    fn send(
        &self,
        mut request: http::Request<BlockingAttemptBody>,
        attempt: &AttemptContext,
    ) -> Result<http::Response<Box<dyn BlockingResponseBody>>, EngineFailure> {
        tag_request(&self.state, &mut request, attempt.attempt_index());
        self.inner.send(request, attempt)
    }
}
