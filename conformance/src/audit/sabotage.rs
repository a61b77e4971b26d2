//! An engine broken on purpose, to prove that the audit can fail.
//!
//! [`claims_not_sent_after_writing`] wraps any driver's engine so that
//! every failure is reported as a refused connection at the `connect`
//! stage, whatever was written: the engine runs each attempt against a
//! private progress record, and tells the core only "connecting" and, on
//! failure, "refused". The core then classifies every failure as
//! `not_sent`, which is exactly the lie the audit exists to catch: a
//! request that reached the server, claimed never sent.
//!
//! This is the only place in the workspace that builds an attempt context
//! outside the core ([`evident_core::testing::attempt_context`]), and it
//! does so to break the contract.

use std::sync::Arc;

use evident_core::engine::{
    AttemptBody, AttemptContext, BlockingAttemptBody, BlockingEngine, BlockingResponseBody, Engine,
    EngineFailure, ResponseBody,
};
use evident_core::{AttemptStage, EngineSignal, Progress};

use crate::harness::{BuiltEngine, EngineEnv, EngineUnderTest};

/// A driver whose engine claims "not sent" for every failure, written or
/// not. Named `sabotaged-<name>`; same flavour (async or blocking) and
/// same declared gaps as `driver`.
pub fn claims_not_sent_after_writing(driver: &EngineUnderTest) -> EngineUnderTest {
    let name: &'static str = Box::leak(format!("sabotaged-{}", driver.name()).into_boxed_str());
    let probe = EngineEnv {
        overrides: evident_core::HostOverrides::new(),
        roots: Vec::new(),
        http2_prior_knowledge: false,
    };
    let inner = driver.clone();
    let sabotaged = match driver.build_engine(&probe) {
        BuiltEngine::Async(_) => EngineUnderTest::asynchronous(name, move |env| {
            let BuiltEngine::Async(engine) = inner.build_engine(env) else {
                unreachable!("a driver builds one flavour")
            };
            Arc::new(Saboteur { inner: engine })
        }),
        BuiltEngine::Blocking(_) => EngineUnderTest::blocking(name, move |env| {
            let BuiltEngine::Blocking(engine) = inner.build_engine(env) else {
                unreachable!("a driver builds one flavour")
            };
            Arc::new(Saboteur { inner: engine })
        }),
    };
    if driver.lacks_capability(crate::scenario::Capability::Http2) {
        sabotaged.lacks(crate::scenario::Capability::Http2, "as the engine it wraps")
    } else {
        sabotaged
    }
}

struct Saboteur<E: ?Sized> {
    inner: Arc<E>,
}

/// The context the wrapped engine really runs with: a private progress,
/// so the core never learns what was written.
fn private(attempt: &AttemptContext) -> AttemptContext {
    attempt.progress().enter(AttemptStage::Connect);
    evident_core::testing::attempt_context(Progress::new(), attempt.deadline())
}

fn lie() -> EngineFailure {
    EngineFailure::signal_only(EngineSignal::ConnectionRefused)
}

#[async_trait::async_trait]
impl Engine for Saboteur<dyn Engine> {
    fn name(&self) -> &'static str {
        "sabotaged"
    }

    async fn send(
        &self,
        request: http::Request<AttemptBody>,
        attempt: &AttemptContext,
    ) -> Result<http::Response<ResponseBody>, EngineFailure> {
        let hidden = private(attempt);
        match self.inner.send(request, &hidden).await {
            Ok(response) => {
                attempt.progress().head_received();
                Ok(response)
            }
            Err(_) => Err(lie()),
        }
    }
}

impl BlockingEngine for Saboteur<dyn BlockingEngine> {
    fn name(&self) -> &'static str {
        "sabotaged"
    }

    fn send(
        &self,
        request: http::Request<BlockingAttemptBody>,
        attempt: &AttemptContext,
    ) -> Result<http::Response<Box<dyn BlockingResponseBody>>, EngineFailure> {
        let hidden = private(attempt);
        match self.inner.send(request, &hidden) {
            Ok(response) => {
                attempt.progress().head_received();
                Ok(response)
            }
            Err(_) => Err(lie()),
        }
    }
}
