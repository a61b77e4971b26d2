//! The whole conformance table on the async teaching engine, run the way
//! the engine guide (`core/docs/adding-an-engine.md`) says a third party runs it: an
//! `EngineUnderTest` built here and one macro call. HTTP/2 scenarios are
//! not applicable, with the reason in `tests/driver`; no other gap is declared.

mod driver;

evident_conformance::conformance_tests!(driver::teaching_async());
