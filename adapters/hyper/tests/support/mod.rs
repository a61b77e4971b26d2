//! Tiny loopback servers and helpers for the engine's behaviour tests.
//!
//! All of them are shared with the other async engines' tests, in
//! evident-test-support; this module only re-exports them, so that each
//! test says `mod support; use support::*;` as on every engine.
#![allow(dead_code)]

pub use evident_test_support::*;
