//! The whole conformance table on the teaching engine, run the way
//! `docs/adding-an-engine.md` says a third party runs it: a `Driver` built
//! here, outside the conformance crate's list of built-in engines, and one
//! macro call. HTTP/2 scenarios are not applicable, with the reason below.

use std::sync::Arc;

use evident_conformance::harness::Driver;
use evident_conformance::scenario::Capability;
use evident_teaching_engine::TeachingEngine;

fn teaching() -> Driver {
    Driver::blocking("teaching", |env| {
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

evident_conformance::conformance_tests!(teaching());
