//! evident: HTTP retries decided by evidence, identically on every engine.
pub use evident_core::*;
