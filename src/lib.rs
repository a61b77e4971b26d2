//! evident: HTTP retries decided by evidence, identically on every engine.
//!
//! This facade re-exports [`evident_core`] (the vocabulary, classification,
//! decision, pipeline, client and observation) and, behind one feature per
//! engine, the engine adapters:
//!
//! | feature | module | engine |
//! |---|---|---|
//! | `hyper` | `evident::hyper` | hyper 1 + h2 (async, HTTP/1.1 and HTTP/2) |
//! | `ureq` | `evident::ureq` | ureq 3 (blocking, HTTP/1.1) |
//! | `reqwest` | `evident::reqwest` | reqwest 0.13 (async, HTTP/1.1 and HTTP/2) |
//! | `isahc` | `evident::isahc` | isahc 2 / libcurl (async, HTTP/1.1, a fresh connection per attempt) |
//!
//! ```
//! use evident::client::{Body, CallOptions, Client};
//! use evident::testing::{Reached, ScriptedEngine, Step};
//! use evident::EngineSignal;
//!
//! # #[tokio::main(flavor = "current_thread")] async fn main() {
//! # tokio::time::pause();
//! let engine = ScriptedEngine::new([
//!     Step::fail(EngineSignal::ConnectionRefused, Reached::Connect),
//!     Step::respond(201, "created"),
//! ]);
//! let client = Client::new(engine);
//! let request = http::Request::post("http://127.0.0.1:8080/orders")
//!     .body(Body::from("{}"))
//!     .unwrap();
//! let response = client.execute(request, CallOptions::new()).await.unwrap();
//! assert_eq!(response.status(), 201);
//! # }
//! ```
#![warn(missing_docs, unreachable_pub, rust_2018_idioms)]
#![forbid(unsafe_code)]

pub use evident_core::*;

/// The hyper engine (feature `hyper`).
#[cfg(feature = "hyper")]
pub use evident_hyper as hyper;

/// The ureq engine (feature `ureq`).
#[cfg(feature = "ureq")]
pub use evident_ureq as ureq;

/// The reqwest engine (feature `reqwest`).
#[cfg(feature = "reqwest")]
pub use evident_reqwest as reqwest;

/// The isahc (libcurl) engine (feature `isahc`).
#[cfg(feature = "isahc")]
pub use evident_isahc as isahc;
