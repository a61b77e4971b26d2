//! The engines built into the runner, chosen by the crate's features
//! (`hyper` and `ureq` by default; `isahc` on request, since libcurl builds
//! from source).

use crate::harness::Driver;
#[cfg(any(feature = "ureq", feature = "isahc"))]
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

/// The isahc engine (libcurl; async, HTTP/1.1 only, a fresh connection per
/// attempt so that libcurl cannot re-send a request on its own).
#[cfg(feature = "isahc")]
pub fn isahc() -> Driver {
    use std::sync::Arc;
    Driver::asynchronous("isahc", |env| {
        Arc::new(
            evident_isahc::IsahcEngine::builder()
                .root_certificates(env.roots.clone())
                .host_overrides(env.overrides.clone())
                .build()
                .expect("the lab's isahc configuration is valid"),
        )
    })
    .lacks(
        Capability::Http2,
        "libcurl re-sends a request refused with REFUSED_STREAM (and one above a \
         GOAWAY's last stream id) on its own, and isahc offers no switch: the \
         engine speaks HTTP/1.1 only. Closing this needs a libcurl option to \
         turn that re-send off, or isahc exposing one",
    )
    .lacks(
        Capability::LargeRequestHead,
        "libcurl builds the request head in a buffer limited to 1 MiB \
         (DYN_HTTP_REQUEST) and refuses a larger one before sending",
    )
}

/// Every engine this build includes, in matrix column order.
pub fn built_in() -> Vec<Driver> {
    vec![
        #[cfg(feature = "hyper")]
        hyper(),
        #[cfg(feature = "ureq")]
        ureq(),
        #[cfg(feature = "isahc")]
        isahc(),
    ]
}
