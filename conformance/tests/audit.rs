//! The evidence audit in `cargo test`: a short audit on every built-in
//! engine and on the teaching engine (a third party's engine, run through
//! its own `EngineUnderTest`), and the sabotage check that proves the audit
//! can fail.
//!
//! The seed is fixed ([`CI_SEED`]) so that a failure replays with the
//! same shapes (`cargo run -p evident-conformance --release -- --audit
//! --seed <seed> --engine <engine>`); set `EVIDENT_AUDIT_SEED` to run
//! another one.

use std::sync::Arc;

use evident_conformance::audit::{AuditConfig, ClaimKind, EngineAudit, audit_engine, sabotage};
use evident_conformance::engines;
use evident_conformance::harness::EngineUnderTest;
use evident_conformance::scenario::Capability;

/// The seed of the CI audit.
const CI_SEED: u64 = 0x5EED_0018;

fn seed() -> u64 {
    std::env::var("EVIDENT_AUDIT_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(CI_SEED)
}

fn audit(driver: &EngineUnderTest) -> EngineAudit {
    let audit = audit_engine(driver, &AuditConfig::short(seed())).expect("the audit runs");
    println!("{audit}");
    audit
}

/// Fewest attempts a short audit must audit to count: a quarter of its
/// target, so a machine several times slower than the two shared cores it
/// was measured on (where it reaches the target in under 20 s per engine)
/// still gets a meaningful audit within its time bound.
const FEWEST_ATTEMPTS: u64 = evident_conformance::audit::SHORT_ATTEMPTS / 4;

fn assert_no_unexpected_false_claim(audit: &EngineAudit) {
    assert!(
        audit.verdicts.attempts >= FEWEST_ATTEMPTS,
        "only {} attempts audited in the time bound",
        audit.verdicts.attempts
    );
    let unexpected = audit.unexpected();
    assert!(
        unexpected.is_empty(),
        "{} false claim(s) on {} (seed {}):\n{}",
        unexpected.len(),
        audit.engine,
        audit.seed,
        unexpected
            .iter()
            .map(ToString::to_string)
            .collect::<String>()
    );
}

#[cfg(feature = "hyper")]
#[test]
fn every_claim_of_the_hyper_engine_matches_what_the_server_received() {
    assert_no_unexpected_false_claim(&audit(&engines::hyper()));
}

#[cfg(feature = "ureq")]
#[test]
fn every_claim_of_the_ureq_engine_matches_what_the_server_received() {
    assert_no_unexpected_false_claim(&audit(&engines::ureq()));
}

#[cfg(feature = "reqwest")]
#[test]
fn every_claim_of_the_reqwest_engine_matches_what_the_server_received() {
    assert_no_unexpected_false_claim(&audit(&engines::reqwest()));
}

#[cfg(feature = "isahc")]
#[test]
fn every_claim_of_the_isahc_engine_matches_what_the_server_received() {
    assert_no_unexpected_false_claim(&audit(&engines::isahc()));
}

fn teaching() -> EngineUnderTest {
    EngineUnderTest::blocking("teaching", |env| {
        Arc::new(
            evident_teaching_engine::TeachingEngine::new(env.roots.clone(), env.overrides.clone())
                .expect("the lab's root certificate is valid DER"),
        )
    })
    .lacks(
        Capability::Http2,
        "the teaching engine speaks HTTP/1.1 only",
    )
}

#[test]
fn every_claim_of_the_teaching_engine_matches_what_the_server_received() {
    assert_no_unexpected_false_claim(&audit(&teaching()));
}

/// An engine that claims "not sent" after writing must be caught: the
/// audit can fail.
#[cfg(feature = "hyper")]
#[test]
fn an_engine_claiming_not_sent_after_writing_is_caught() {
    let audit = audit(&sabotage::claims_not_sent_after_writing(&engines::hyper()));
    let caught = audit
        .unexpected()
        .iter()
        .filter(|f| f.kind == ClaimKind::NotSent)
        .count();
    assert!(caught >= 1, "the audit missed the sabotage:\n{audit}");
}

/// The same lie told by a blocking engine, which the core cannot
/// interrupt, is caught as well.
#[test]
fn a_blocking_engine_claiming_not_sent_after_writing_is_caught() {
    let audit = audit(&sabotage::claims_not_sent_after_writing(&teaching()));
    assert!(
        audit
            .unexpected()
            .iter()
            .any(|f| f.kind == ClaimKind::NotSent),
        "the audit missed the sabotage:\n{audit}"
    );
}
