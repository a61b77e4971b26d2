//! The whole conformance table on the teaching engine, run the way the
//! engine guide (`core/docs/adding-an-engine.md`) says a third party runs
//! it: an `EngineUnderTest` built here, outside the conformance crate's list
//! of built-in engines, and one macro call. HTTP/2 scenarios are not
//! applicable, with the reason in `tests/driver`.

mod driver;

evident_conformance::conformance_tests!(driver::teaching());
