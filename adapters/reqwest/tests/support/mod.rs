//! Tiny loopback servers and helpers for the engine's behaviour tests.
//!
//! The servers and helpers every async engine's tests use come from
//! evident-test-support, re-exported here; this module adds the ones only
//! reqwest's tests use.
#![allow(dead_code)]

use evident_core::{AttemptBody, AttemptContext, Engine, EngineFailure, ResponseBody};
pub use evident_reqwest::ReqwestEngine;
pub use evident_test_support::*;
use tokio::net::TcpStream;

/// What the core concludes from a failure and the attempt's progress: the
/// stage, category and evidence the attempt record will carry.
pub fn judged(
    failure: &EngineFailure,
    attempt: &AttemptContext,
) -> (
    evident_core::AttemptStage,
    evident_core::FailureCategory,
    evident_core::ExecutionEvidence,
) {
    let t = evident_core::classify(failure.signal(), &attempt.progress().snapshot());
    (t.stage(), t.category(), t.evidence())
}

/// Closes `stream` with a TCP reset instead of a FIN.
pub fn reset(stream: TcpStream) {
    socket2::SockRef::from(&stream)
        .set_linger(Some(std::time::Duration::ZERO))
        .unwrap();
    drop(stream);
}

/// Sending helpers on the engine.
#[allow(async_fn_in_trait)]
pub trait SendForTest {
    /// Sends one attempt and panics on failure.
    async fn send_for_test(
        &self,
        request: http::Request<AttemptBody>,
        attempt: &AttemptContext,
    ) -> http::Response<ResponseBody>;
}

impl<E: Engine> SendForTest for E {
    async fn send_for_test(
        &self,
        request: http::Request<AttemptBody>,
        attempt: &AttemptContext,
    ) -> http::Response<ResponseBody> {
        match self.send(request, attempt).await {
            Ok(response) => response,
            Err(e) => panic!("the attempt failed: {e}"),
        }
    }
}
