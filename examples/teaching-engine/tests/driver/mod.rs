//! The teaching engine's `EngineUnderTest`, written once for the
//! conformance test and the matrix example (`#[path]`-included there).

use std::sync::Arc;

use evident_conformance::engines::{EARLY_ANSWERS, with_early_answer_races};
use evident_conformance::harness::EngineUnderTest;
use evident_conformance::scenario::Capability;
use evident_teaching_engine::TeachingEngine;

/// Why the teaching engine loses an answer sent while it writes.
const EARLY_ANSWER_LOST: &str = "kept short on purpose, the engine writes the whole request \
    before it reads, so an answer sent while it writes is lost to the failed write; the ureq \
    engine's transport shows the fix (when a write fails, read what the server sent)";

/// The teaching engine as the conformance harness drives it.
pub fn teaching() -> EngineUnderTest {
    let driver = EngineUnderTest::blocking("teaching", |env| {
        Arc::new(
            TeachingEngine::new(env.roots.clone(), env.overrides.clone())
                .expect("the lab's root certificate is valid DER"),
        )
    })
    .lacks(
        Capability::Http2,
        "the teaching engine speaks HTTP/1.1 only",
    );
    let early: Vec<&str> = EARLY_ANSWERS.iter().map(|(s, _)| *s).collect();
    with_early_answer_races(driver, &early, EARLY_ANSWER_LOST)
}
