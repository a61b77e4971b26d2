//! The async teaching engine's `EngineUnderTest`, written once for the
//! conformance test and the matrix example (`#[path]`-included there).

use std::sync::Arc;

use evident_conformance::harness::EngineUnderTest;
use evident_conformance::scenario::Capability;
use evident_core::tls::TlsOptions;
use evident_teaching_engine_async::AsyncTeachingEngine;

/// The async teaching engine as the conformance harness drives it.
pub fn teaching_async() -> EngineUnderTest {
    EngineUnderTest::asynchronous("teaching-async", |env| {
        let tls = TlsOptions::new()
            .with_only_roots(env.roots.clone())
            .expect("the lab's root certificate is valid DER");
        Arc::new(
            AsyncTeachingEngine::new(&tls, env.overrides.clone())
                .expect("the lab's TLS options make a rustls configuration"),
        )
    })
    .lacks(
        Capability::Http2,
        "the teaching engine speaks HTTP/1.1 only",
    )
}
