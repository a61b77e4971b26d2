//! The comparison: a run's records and the server's counts against the
//! scenario's expectation, with the engine's declared gaps applied, and the
//! resulting [`Cell`] of the matrix.

use std::time::Duration;

use evident_core::observe::AttemptRecord;

use super::driver::EngineUnderTest;
use super::gaps::KnownGap;
use crate::lab::Ledger;
use crate::scenario::{Expect, Scenario};

/// The verdict of one scenario on one engine.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CellStatus {
    /// Every record and the execution count are as expected (and, in a
    /// matrix, the same as every other engine's).
    Pass,
    /// The first difference from the expectation, or from another engine.
    Fail(String),
    /// The scenario needs a capability the engine lacks: not run, never a
    /// pass. The reason.
    Skipped(String),
    /// The engine differs exactly as its driver declared
    /// ([`KnownGap`](super::KnownGap)): ran, not identical, not a failure.
    /// The declaration.
    Gap(String),
}

impl CellStatus {
    /// Whether the cell ran (it was not skipped).
    pub fn ran(&self) -> bool {
        !matches!(self, CellStatus::Skipped(_))
    }
}

/// One cell of the parity matrix.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct Cell {
    /// The verdict.
    pub status: CellStatus,
    /// The records of every call.
    pub records: Vec<Vec<AttemptRecord>>,
    /// Executions counted by the server.
    pub executions: u64,
    /// For a category gap: the records with the named difference undone,
    /// which the cross-engine comparison checks like a passing cell's.
    without_gap: Option<Vec<Vec<AttemptRecord>>>,
}

impl Cell {
    /// A cell with these records and executions.
    pub fn new(status: CellStatus, records: Vec<Vec<AttemptRecord>>, executions: u64) -> Cell {
        Cell {
            status,
            records,
            executions,
            without_gap: None,
        }
    }

    /// A cell that matched its named category gap: `records` as observed,
    /// `without_gap` with the named category put back.
    pub(crate) fn category_gap(
        describe: String,
        records: Vec<Vec<AttemptRecord>>,
        without_gap: Vec<Vec<AttemptRecord>>,
        executions: u64,
    ) -> Cell {
        let mut cell = Cell::new(CellStatus::Gap(describe), records, executions);
        cell.without_gap = Some(without_gap);
        cell
    }

    /// The records the cross-engine comparison reads: a passing cell's own,
    /// and a category gap's with the named category put back (so every
    /// field it does not name is still compared); `None` for a cell that
    /// is not compared (failed, skipped, or a gap whose expectation differs
    /// by construction and is checked in full against its own).
    pub fn compared_records(&self) -> Option<&[Vec<AttemptRecord>]> {
        match self.status {
            CellStatus::Pass => Some(&self.records),
            CellStatus::Gap(_) => self.without_gap.as_deref(),
            _ => None,
        }
    }

    pub(super) fn without_records(status: CellStatus) -> Cell {
        Cell::new(status, Vec::new(), 0)
    }
}

/// What one run of a scenario observed: each call's records and how long
/// it took, and the server's ledger (if the fault has a server).
pub(super) struct Observed<'a> {
    pub(super) records: Vec<Vec<AttemptRecord>>,
    pub(super) durations: Vec<Duration>,
    pub(super) ledger: Option<&'a Ledger>,
}

/// The cell for what a run of `scenario` on `driver`'s engine observed:
/// compared with the scenario's expectation and, where that fails, with
/// the expectation the driver's declared gaps make of it.
pub(super) fn verdict(
    driver: &EngineUnderTest,
    scenario: &Scenario,
    observed: Observed<'_>,
) -> Cell {
    let Observed {
        records: all,
        durations,
        ledger,
    } = observed;
    let mut keys = Vec::new();
    if let Some(ledger) = ledger {
        for receipt in ledger.receipts() {
            if let Some(key) = receipt.idempotency_key.clone() {
                keys.push(key);
            }
        }
    }
    let executions = ledger.map_or(0, Ledger::executions);
    let key = keys.first().cloned();
    let status = compare(scenario, &all, &durations, ledger, executions, key.clone());
    // A scenario's declared gaps are alternatives (usually one).
    let gaps: Vec<&KnownGap> = driver
        .known_gaps
        .iter()
        .filter(|g| g.scenario == scenario.name)
        .collect();
    let own_outcome_allowed = gaps.iter().any(|g| g.allows_the_scenarios_outcome());
    let mut without_gap = None;
    let status = match status {
        CellStatus::Pass => match gaps.first() {
            Some(gap) if own_outcome_allowed => {
                without_gap = Some(all.clone());
                CellStatus::Gap(gap.describe())
            }
            Some(gap) => CellStatus::Fail(format!(
                "the declared gap is no longer seen, remove it: {}",
                gap.describe()
            )),
            None => CellStatus::Pass,
        },
        CellStatus::Fail(diff) => {
            // Each declared gap, then the standing rules on top of it (each
            // derived from the expectation it is applied to). Where a gap
            // lets the scenario's own outcome pass (a race), that is also
            // tried without any difference, under the standing rules alone.
            let mut tries: Vec<(Option<&KnownGap>, Option<&KnownGap>)> =
                gaps.iter().map(|g| (Some(*g), Some(*g))).collect();
            if tries.is_empty() {
                tries.push((None, None));
            }
            if own_outcome_allowed {
                tries.push((gaps.first().copied(), None));
            }
            let mut status = CellStatus::Fail(diff);
            for (declared, applied_gap) in tries {
                if let Some((passed, undone)) = under_gaps(
                    driver,
                    scenario,
                    (declared, applied_gap),
                    (&all, &durations, ledger),
                    executions,
                    key.clone(),
                ) {
                    status = passed;
                    without_gap = undone;
                    break;
                }
            }
            status
        }
        other => other,
    };
    match (status, without_gap) {
        (CellStatus::Gap(describe), Some(undone)) => {
            Cell::category_gap(describe, all, undone, executions)
        }
        (status, _) => Cell::new(status, all, executions),
    }
}

/// The cell under `applied` (the scenario's declared gap, or none) and the
/// engine's standing rules on top of it, when that passes: a gap cell, and
/// the observed records with every declared difference undone when they
/// can be compared across engines. `None` when it does not pass, or when
/// nothing at all is declared.
fn under_gaps(
    driver: &EngineUnderTest,
    scenario: &Scenario,
    (declared, applied): (Option<&KnownGap>, Option<&KnownGap>),
    (all, durations, ledger): (&[Vec<AttemptRecord>], &[Duration], Option<&Ledger>),
    executions: u64,
    key: Option<String>,
) -> Option<(CellStatus, Option<Vec<Vec<AttemptRecord>>>)> {
    let base = applied.map_or_else(|| scenario.clone(), |gap| gap.applied_to(scenario));
    let mut describes: Vec<String> = declared.iter().map(|g| g.describe()).collect();
    let mut current = base.clone();
    let mut standing = Vec::new();
    for rule in &driver.standing_gaps {
        if let Some(next) = rule.applied_to(&current) {
            describes.push(rule.describe());
            standing.push(rule);
            current = next;
        }
    }
    if declared.is_none() && standing.is_empty() {
        return None;
    }
    match compare(&current, all, durations, ledger, executions, key) {
        CellStatus::Pass => {
            let undone = match applied {
                Some(gap) => gap.undone(all),
                None => Some(all.to_vec()),
            };
            let undone = undone.map(|mut records| {
                for rule in &standing {
                    rule.undone(&base, &mut records);
                }
                records
            });
            Some((CellStatus::Gap(describes.join("; ")), undone))
        }
        _ => None,
    }
}

/// How the observed calls differ from the expected ones: their number,
/// then each call's number of attempts and every record.
fn records_mismatch(expected: &[Vec<Expect>], got: &[Vec<AttemptRecord>]) -> Option<String> {
    if expected.len() != got.len() {
        return Some(format!(
            "expected {} call(s), observed {}",
            expected.len(),
            got.len()
        ));
    }
    for (c, (expected, got)) in expected.iter().zip(got).enumerate() {
        for (a, pair) in expected.iter().zip(got.iter()).enumerate() {
            if let Some(diff) = pair.0.mismatch(pair.1) {
                return Some(format!("call {c} attempt {a}: {diff}"));
            }
        }
        if expected.len() != got.len() {
            let extra: Vec<String> = got.iter().map(ToString::to_string).collect();
            return Some(format!(
                "call {c}: expected {} attempt(s), got {}: [{}]",
                expected.len(),
                got.len(),
                extra.join(", ")
            ));
        }
    }
    None
}

fn compare(
    scenario: &Scenario,
    got: &[Vec<AttemptRecord>],
    durations: &[Duration],
    ledger: Option<&Ledger>,
    executions: u64,
    key: Option<String>,
) -> CellStatus {
    if let Some(diff) = records_mismatch(&scenario.expected, got) {
        return CellStatus::Fail(diff);
    }
    if let Some(limit) = scenario.ends_within {
        for (c, took) in durations.iter().enumerate() {
            if *took > limit {
                return CellStatus::Fail(format!(
                    "call {c} took {} ms, expected at most {} ms",
                    took.as_millis(),
                    limit.as_millis()
                ));
            }
        }
    }
    if scenario.server.executions != executions {
        return CellStatus::Fail(format!(
            "server executions: expected {}, got {executions}",
            scenario.server.executions
        ));
    }
    if let (Some(expected), Some(ledger)) = (scenario.server.requests, ledger) {
        let requests = ledger.requests();
        if expected != requests {
            return CellStatus::Fail(format!(
                "server requests: expected {expected}, got {requests}"
            ));
        }
    }
    if let (Some(expected), Some(ledger)) = (scenario.server.connections, ledger) {
        let connections = ledger.connections();
        if expected != connections {
            return CellStatus::Fail(format!(
                "server connections: expected {expected}, got {connections}"
            ));
        }
    }
    if let (Some(expected), Some(ledger)) = (scenario.server.key_receipts, ledger) {
        let Some(key) = key else {
            if expected == 0 {
                return CellStatus::Pass;
            }
            return CellStatus::Fail("no idempotency key reached the server".to_owned());
        };
        let receipts = ledger.receipts_for_key(&key);
        let executed = ledger.executions_for_key(&key);
        if receipts != expected || executed > 1 {
            return CellStatus::Fail(format!(
                "idempotency key: expected {expected} receipt(s) and at most one execution, got {receipts} and {executed}"
            ));
        }
    }
    CellStatus::Pass
}

/// A failed cell, explained: the difference, the scenario's summary, the
/// records and the executions.
pub fn describe_failure(engine: &str, scenario: &Scenario, cell: &Cell, diff: &str) -> String {
    let got: Vec<Vec<String>> = cell
        .records
        .iter()
        .map(|c| c.iter().map(ToString::to_string).collect())
        .collect();
    format!(
        "{} on {engine}: {diff}\n  summary: {}\n  records: {got:?}\n  executions: {}",
        scenario.name, scenario.summary, cell.executions
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use evident_core::decide::{Decision, StopReason};
    use evident_core::{AttemptStage, ExecutionEvidence, FailureCategory};

    fn stopped() -> Expect {
        Expect::failed(
            AttemptStage::Connect,
            FailureCategory::ConnectionRefused,
            ExecutionEvidence::NotSent,
            crate::scenario::Then::Stop(StopReason::AttemptsExhausted),
        )
    }

    #[test]
    fn a_missing_call_is_a_difference() {
        // Two calls expected, none observed: every record that was
        // observed matched, but a call is missing.
        let diff = records_mismatch(&[vec![stopped()], vec![stopped()]], &[]);
        assert_eq!(diff.as_deref(), Some("expected 2 call(s), observed 0"));
        let diff = records_mismatch(&[], &[Vec::new()]);
        assert_eq!(diff.as_deref(), Some("expected 0 call(s), observed 1"));
    }

    /// A bodyless idempotent GET, expected to fail at `await_head` with a
    /// GOAWAY and stop; the server executes nothing.
    fn covered_get() -> Scenario {
        Scenario::one_call(
            "covered_get",
            "a test scenario",
            crate::scenario::Fault::Refused,
            crate::scenario::ScenarioCall::idempotent_get(),
            vec![Expect::failed(
                AttemptStage::AwaitHead,
                FailureCategory::GoAway,
                ExecutionEvidence::SentNoResponse,
                crate::scenario::Then::Stop(StopReason::AttemptsExhausted),
            )],
            0,
        )
    }

    fn observed(stage: AttemptStage, category: FailureCategory) -> Vec<Vec<AttemptRecord>> {
        let mut r = AttemptRecord::answered(0, 0, Decision::Stop(StopReason::AttemptsExhausted));
        r.status = None;
        r.stage = Some(stage);
        r.category = Some(category);
        r.evidence = Some(ExecutionEvidence::SentNoResponse);
        vec![vec![r]]
    }

    fn cell(driver: &EngineUnderTest, records: Vec<Vec<AttemptRecord>>) -> CellStatus {
        let durations = vec![Duration::ZERO; records.len()];
        verdict(
            driver,
            &covered_get(),
            Observed {
                records,
                durations,
                ledger: None,
            },
        )
        .status
    }

    fn engine(gap: KnownGap) -> EngineUnderTest {
        EngineUnderTest::asynchronous("test", |_| {
            std::sync::Arc::new(evident_core::testing::ScriptedEngine::new([]))
        })
        .known_gap(gap)
        .standing_gap(super::super::StandingGap::bodyless_head_unproven(
            "no late hook",
        ))
    }

    #[test]
    fn a_gap_a_race_sometimes_hides_passes_either_way_under_the_standing_rules() {
        let gap = || {
            KnownGap::category(
                "covered_get",
                FailureCategory::GoAway,
                FailureCategory::ConnectionClosed,
                "the GOAWAY is lost",
            )
        };
        let racy = engine(gap().or_the_scenarios_own("sometimes seen"));
        // The gap's difference, and the scenario's own category: both pass,
        // each with the standing rule (a bodyless call at `write_head`).
        for category in [FailureCategory::ConnectionClosed, FailureCategory::GoAway] {
            let status = cell(&racy, observed(AttemptStage::WriteHead, category));
            assert!(
                matches!(status, CellStatus::Gap(_)),
                "{category:?}: {status:?}"
            );
        }
        // Anything else still fails.
        let status = cell(
            &racy,
            observed(AttemptStage::WriteHead, FailureCategory::ConnectionReset),
        );
        assert!(matches!(status, CellStatus::Fail(_)), "{status:?}");
        // Without the race declared, the scenario's own category is a
        // difference the gap does not allow.
        let strict = engine(gap());
        let status = cell(
            &strict,
            observed(AttemptStage::WriteHead, FailureCategory::GoAway),
        );
        assert!(matches!(status, CellStatus::Fail(_)), "{status:?}");
    }

    #[test]
    fn several_gaps_of_one_scenario_are_alternatives() {
        let category = |observed| {
            KnownGap::category(
                "covered_get",
                FailureCategory::GoAway,
                observed,
                "seen otherwise",
            )
        };
        let two = engine(category(FailureCategory::ConnectionClosed))
            .known_gap(category(FailureCategory::Other));
        for observed_category in [FailureCategory::ConnectionClosed, FailureCategory::Other] {
            let status = cell(&two, observed(AttemptStage::WriteHead, observed_category));
            assert!(
                matches!(status, CellStatus::Gap(_)),
                "{observed_category:?}: {status:?}"
            );
        }
        // Neither alternative, nor the scenario's own (no race declared).
        for observed_category in [FailureCategory::ConnectionReset, FailureCategory::GoAway] {
            let status = cell(&two, observed(AttemptStage::WriteHead, observed_category));
            assert!(
                matches!(status, CellStatus::Fail(_)),
                "{observed_category:?}: {status:?}"
            );
        }
    }

    #[test]
    fn a_missing_attempt_is_a_difference() {
        let diff = records_mismatch(&[vec![stopped()]], &[Vec::new()]).unwrap();
        assert!(
            diff.starts_with("call 0: expected 1 attempt(s), got 0"),
            "{diff}"
        );
    }
}
