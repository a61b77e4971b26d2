//! Every scenario on every built-in engine, each row compared across them:
//! a difference fails the row's cells even when each meets its expectation.

evident_conformance::conformance_tests!(
    evident_conformance::engines::hyper(),
    evident_conformance::engines::ureq(),
);
