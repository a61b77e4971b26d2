//! Every scenario on every engine this build includes
//! (`engines::built_in()`), each row compared across them: a difference
//! fails the row's cells even when each meets its expectation.

fn main() -> std::process::ExitCode {
    evident_conformance::test_main(evident_conformance::engines::built_in())
}
