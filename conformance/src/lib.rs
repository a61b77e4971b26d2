//! Conformance support for evident: real-socket loopback fault servers that
//! every HTTP engine is pointed at, so "the same fault, the same attempt
//! records, the same number of executions" can be measured where it
//! happens — on the server.
//!
//! Only [`lab`] exists so far; the scenario table and the parity runner
//! build on it.
#![warn(missing_docs, unreachable_pub, rust_2018_idioms)]
#![forbid(unsafe_code)]

pub mod lab;
