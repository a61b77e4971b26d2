//! The engines built into the runner, chosen by the crate's features
//! (all on by default).

use crate::harness::Driver;
#[cfg(feature = "ureq")]
use crate::scenario::Capability;

/// The hyper 1 engine (HTTP/1.1 and HTTP/2).
#[cfg(feature = "hyper")]
pub fn hyper() -> Driver {
    use std::sync::Arc;
    Driver::asynchronous("hyper", |env| {
        let mut builder = evident_hyper::HyperEngine::builder()
            .root_certificates(env.roots.clone())
            .host_overrides(env.overrides.clone());
        if env.http2_prior_knowledge {
            builder = builder.http2_prior_knowledge();
        }
        Arc::new(
            builder
                .build()
                .expect("the lab's hyper configuration is valid"),
        )
    })
}

/// The ureq 3 engine (blocking, HTTP/1.1 only).
#[cfg(feature = "ureq")]
pub fn ureq() -> Driver {
    use std::sync::Arc;
    Driver::blocking("ureq", |env| {
        Arc::new(
            evident_ureq::UreqEngine::builder()
                .root_certificates(env.roots.clone())
                .host_overrides(env.overrides.clone())
                .build()
                .expect("the lab's ureq configuration is valid"),
        )
    })
    .lacks(Capability::Http2, "ureq 3 speaks HTTP/1.1 only")
    .lacks(
        Capability::LargeRequestHead,
        "ureq encodes the head into its output buffer (128 KiB by default) and refuses a larger one before writing",
    )
}

/// Every engine this build includes, in matrix column order.
pub fn built_in() -> Vec<Driver> {
    vec![
        #[cfg(feature = "hyper")]
        hyper(),
        #[cfg(feature = "ureq")]
        ureq(),
    ]
}
