//! An engine that is not in `engines::built_in()` runs the suite exactly
//! the way a third-party crate runs it: an `EngineUnderTest` of its own,
//! the matrix from `run_main`'s command line, the tests from `test_main`'s
//! harness.
//! The engine here is hyper under another name and configured for
//! HTTP/1.1 only, so it also shows how a declared gap is reported.

use std::sync::Arc;

use evident_conformance::cli::{EXIT_USAGE, run_cli};
use evident_conformance::engines;
use evident_conformance::harness::EngineUnderTest;
use evident_conformance::scenario::Capability;
use evident_conformance::testmain::run_tests;

const GAP: &str = "configured for HTTP/1.1 only";

fn outside() -> EngineUnderTest {
    EngineUnderTest::asynchronous("outside", |env| {
        Arc::new(
            evident_hyper::HyperEngine::builder()
                .root_certificates(env.roots.clone())
                .host_overrides(env.overrides.clone())
                .build()
                .expect("a valid hyper configuration"),
        )
    })
    .lacks(Capability::Http2, GAP)
}

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| (*s).to_owned()).collect()
}

#[test]
fn an_engine_that_is_not_built_in_prints_its_matrix_compared_with_a_built_in_one() {
    assert!(engines::built_in().iter().all(|d| d.name() != "outside"));
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = run_cli(
        args(&[
            "--scenario",
            "ok_200",
            "--scenario",
            "h2_ok",
            "--scenario",
            "closed_after_request",
        ]),
        vec![outside(), engines::hyper()],
        &mut out,
        &mut err,
    );
    let md = String::from_utf8(out).expect("UTF-8");
    let err = String::from_utf8(err).expect("UTF-8");
    assert_eq!(code, 0, "{md}\n{err}");
    assert!(
        md.contains("| scenario | outside | hyper | parity |"),
        "{md}"
    );
    assert!(
        md.contains("| ok_200 | 200 · 1 exec | 200 · 1 exec | ✓ identical |"),
        "{md}"
    );
    assert!(
        md.contains(
            "| closed_after_request | sent_no_response→not_idempotent · 1 exec | sent_no_response→not_idempotent · 1 exec | ✓ identical |"
        ),
        "{md}"
    );
    assert!(
        md.contains("| h2_ok | skipped | 200 · 1 exec | only hyper |"),
        "{md}"
    );
    assert!(
        md.contains(&format!("- h2_ok / outside: needs HTTP/2: {GAP}")),
        "{md}"
    );
    assert!(
        md.contains("parity: 5/5 cells identical (1 skipped)"),
        "{md}"
    );
}

#[test]
fn the_matrix_of_an_outside_engine_is_available_as_json() {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = run_cli(
        args(&["--json", "--scenario", "h2_ok"]),
        vec![outside()],
        &mut out,
        &mut err,
    );
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_slice(&out).expect("JSON");
    let cell = &json["scenarios"][0]["cells"]["outside"];
    assert_eq!(cell["status"], "skipped");
    assert_eq!(cell["reason"], format!("needs HTTP/2: {GAP}"));
    assert_eq!(json["parity"]["skipped"], 1);
    assert_eq!(json["parity"]["ran"], 0);
}

#[test]
fn its_test_harness_reports_a_scenario_it_cannot_express_as_skipped_not_as_passed() {
    let mut out = Vec::new();
    let code = run_tests(
        args(&["--exact", "ok_200", "h2_ok"]),
        vec![outside()],
        &mut out,
    );
    let text = String::from_utf8(out).expect("UTF-8");
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("running 2 tests"), "{text}");
    assert!(text.contains("test ok_200 ... ok"), "{text}");
    assert!(
        text.contains(&format!("test h2_ok ... skipped: needs HTTP/2: {GAP}")),
        "{text}"
    );
    assert!(
        text.contains("test result: ok. 1 passed; 0 failed; 1 skipped;"),
        "{text}"
    );
}

#[test]
fn an_unknown_engine_or_scenario_is_a_usage_error() {
    for bad in [
        &["--engine", "nope"][..],
        &["--scenario", "nope"],
        &["--bogus"],
    ] {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = run_cli(args(bad), vec![outside()], &mut out, &mut err);
        assert_eq!(code, EXIT_USAGE, "{bad:?}");
        assert!(out.is_empty());
        assert!(String::from_utf8(err).expect("UTF-8").contains("usage:"));
    }
}
