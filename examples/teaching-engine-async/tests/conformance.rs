//! The whole conformance table on the async teaching engine, run the way
//! the engine guide (`core/docs/adding-an-engine.md`) says a third party runs it: an
//! `EngineUnderTest` built here and one macro call. HTTP/2 scenarios are
//! not applicable, with the reason below; no other gap is declared.

use std::sync::Arc;

use evident_conformance::harness::EngineUnderTest;
use evident_conformance::scenario::Capability;
use evident_core::tls::TlsOptions;
use evident_teaching_engine_async::AsyncTeachingEngine;

fn teaching_async() -> EngineUnderTest {
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

evident_conformance::conformance_tests!(teaching_async());
