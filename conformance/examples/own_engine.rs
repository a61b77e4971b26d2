//! The conformance runner for an engine that is not built in, as a third
//! party writes it: an `EngineUnderTest` for the engine and one call to
//! `run_main`.
//! Here the "own" engine is hyper configured for HTTP/1.1 only, compared
//! row by row with the built-in hyper engine.
//!
//! ```text
//! cargo run -p evident-conformance --example own_engine
//! cargo run -p evident-conformance --example own_engine -- --json --scenario ok_200
//! ```

use std::process::ExitCode;
use std::sync::Arc;

use evident_conformance::harness::EngineUnderTest;
use evident_conformance::scenario::Capability;

fn main() -> ExitCode {
    let mine = EngineUnderTest::asynchronous("http1-hyper", |env| {
        Arc::new(
            evident_hyper::HyperEngine::builder()
                .root_certificates(env.roots.clone())
                .host_overrides(env.overrides.clone())
                .build()
                .expect("a valid hyper configuration"),
        )
    })
    .lacks(Capability::Http2, "configured for HTTP/1.1 only");
    evident_conformance::run_main(vec![mine, evident_conformance::engines::hyper()])
}
