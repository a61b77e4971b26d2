//! The async teaching engine next to hyper: every record of every cell is
//! compared across the two. Takes the runner's flags (`--json`, `--engine
//! NAME`, `--scenario NAME`).
//!
//! ```text
//! cargo run -p evident-teaching-engine-async --example async_matrix
//! ```

use std::process::ExitCode;
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

fn main() -> ExitCode {
    evident_conformance::run_main(vec![
        evident_conformance::engines::hyper(),
        teaching_async(),
    ])
}
