//! The teaching engine's `EngineUnderTest`, written once for the
//! conformance test and the matrix example (`#[path]`-included there).

use std::sync::Arc;

use evident_conformance::harness::EngineUnderTest;
use evident_conformance::scenario::Capability;
use evident_teaching_engine::TeachingEngine;

/// The teaching engine as the conformance harness drives it.
pub fn teaching() -> EngineUnderTest {
    EngineUnderTest::blocking("teaching", |env| {
        Arc::new(
            TeachingEngine::new(env.roots.clone(), env.overrides.clone())
                .expect("the lab's root certificate is valid DER"),
        )
    })
    .lacks(
        Capability::Http2,
        "the teaching engine speaks HTTP/1.1 only",
    )
}
