//! The differences a driver may declare ([`KnownGap`] for one scenario,
//! [`StandingGap`] wherever a rule applies), and how each turns a
//! scenario's expectation into the one the engine is held to.

use evident_core::AttemptStage;
use evident_core::FailureCategory;
use evident_core::observe::AttemptRecord;

use crate::scenario::{BodySpec, Declared, Expect, Scenario};

/// A difference an engine shows in every scenario where a rule says it
/// applies, declared once in its driver with why and what would close it
/// (a [`KnownGap`] names one scenario). The expectation it applies is
/// derived from the scenario's own by that rule, never copied from what
/// the engine printed; every field the rule does not name is checked, and
/// compared across engines, as strictly as without it.
#[derive(Debug, Clone)]
pub struct StandingGap {
    kind: StandingKind,
    reason: &'static str,
}

#[derive(Debug, Clone, Copy)]
enum StandingKind {
    BodylessHeadUnproven,
}

/// What a [`StandingGap::bodyless_head_unproven`] says the engine cannot do.
const BODYLESS_HEAD_UNPROVEN: &str = "a bodyless request that failed after it was handed \
    to the connection is at `write_head`, not `await_head`: nothing proves its head left \
    before an answer, so the head is not claimed written (nor an idempotency key in it \
    sent). The evidence is the same";

impl StandingGap {
    /// For a call without a body, an attempt the rules expect to fail at
    /// `await_head` reports `write_head`: the engine has no hook that
    /// shows, late, that the head was written (the contract's rule for
    /// strengthening facts), so it reports the write as started only.
    /// The evidence is the same. A keyed call would not count its key as
    /// sent, so its decision would differ: such a cell fails rather than
    /// pass under this gap.
    pub fn bodyless_head_unproven(reason: &'static str) -> StandingGap {
        StandingGap {
            kind: StandingKind::BodylessHeadUnproven,
            reason,
        }
    }

    /// The positions (call, attempt) whose expectation the rule changes.
    fn positions(&self, scenario: &Scenario) -> Vec<(usize, usize)> {
        match self.kind {
            StandingKind::BodylessHeadUnproven => scenario
                .calls
                .iter()
                .zip(&scenario.expected)
                .enumerate()
                .filter(|(_, (call, _))| {
                    call.body == BodySpec::Empty && call.declared != Declared::Key
                })
                .flat_map(|(c, (_, expects))| {
                    expects.iter().enumerate().filter_map(move |(a, e)| {
                        matches!(e.failure, Some((AttemptStage::AwaitHead, _, _))).then_some((c, a))
                    })
                })
                .collect(),
        }
    }

    /// `scenario` with the rule applied; `None` when it changes nothing.
    pub(super) fn applied_to(&self, scenario: &Scenario) -> Option<Scenario> {
        let positions = self.positions(scenario);
        if positions.is_empty() {
            return None;
        }
        let mut scenario = scenario.clone();
        for (c, a) in positions {
            if let Some((stage, _, _)) = &mut scenario.expected[c][a].failure {
                *stage = AttemptStage::WriteHead;
            }
        }
        Some(scenario)
    }

    /// `records` with the rule's difference undone at the positions it
    /// changed in `scenario`, for the cross-engine comparison.
    pub(super) fn undone(&self, scenario: &Scenario, records: &mut [Vec<AttemptRecord>]) {
        for (c, a) in self.positions(scenario) {
            if let Some(record) = records.get_mut(c).and_then(|call| call.get_mut(a))
                && record.stage == Some(AttemptStage::WriteHead)
            {
                record.stage = Some(AttemptStage::AwaitHead);
            }
        }
    }

    pub(super) fn describe(&self) -> String {
        match self.kind {
            StandingKind::BodylessHeadUnproven => {
                format!("named gap: {BODYLESS_HEAD_UNPROVEN}: {}", self.reason)
            }
        }
    }
}

/// A scenario an engine runs but cannot match exactly, declared in its
/// driver, with why and what would close it. Two kinds:
///
/// * [`KnownGap::category`]: the engine cannot see which failure it was and
///   reports another category. Only that field may differ: every other
///   field of every record, and the server's execution count, must match.
/// * [`KnownGap::unseen_proof`]: the engine cannot see a protocol proof of
///   non-processing (a GOAWAY's last-stream-id), so it must report the
///   weaker, ambiguous evidence and decide from that; and, more generally,
///   [`KnownGap::records`]: the engine meets the fault differently (it
///   refuses at once what others time out on). Its expectation is written
///   out in full, from the rules applied to what the engine reports, never
///   copied from what the engine printed; it is checked as strictly as the
///   scenario's own (records, decisions, executions).
///
/// A declared gap never widens anything else: the cell is shown as a gap
/// (not a pass, not identical), a cell that matches neither expectation
/// fails, and a gap that is no longer seen fails the cell so the
/// declaration gets removed.
#[derive(Debug, Clone)]
pub struct KnownGap {
    pub(super) scenario: &'static str,
    kind: GapKind,
    reason: &'static str,
    /// A race sometimes gives the scenario's own records instead.
    own_outcome_too: Option<&'static str>,
}

#[derive(Debug, Clone)]
enum GapKind {
    Category {
        expected: FailureCategory,
        observed: FailureCategory,
    },
    Records {
        expected: Vec<Vec<Expect>>,
        executions: u64,
        connections: Option<u64>,
        what: &'static str,
    },
    /// Either the scenario's own records, or `lost`: a race inside the
    /// engine's library decides which.
    Race {
        lost: Vec<Vec<Expect>>,
        executions: u64,
        what: &'static str,
    },
}

/// What an [`KnownGap::unseen_proof`] says the engine cannot do.
const UNSEEN_PROOF: &str =
    "a `not_processed` proof is not seen, so the attempt is `sent_no_response` and decided as such";

impl KnownGap {
    /// In `scenario`, attempts expected to fail with `expected` report
    /// `observed` instead, for `reason` (which says what would close it).
    pub fn category(
        scenario: &'static str,
        expected: FailureCategory,
        observed: FailureCategory,
        reason: &'static str,
    ) -> KnownGap {
        KnownGap {
            scenario,
            kind: GapKind::Category { expected, observed },
            reason,
            own_outcome_too: None,
        }
    }

    /// In `scenario`, the engine cannot see the protocol proof that makes
    /// an attempt `not_processed`, for `reason`. `expected` is what the
    /// rules give for the evidence the engine can prove (one list of
    /// records per call), with the server executing `executions` times
    /// over `connections` connections when the scenario checks them.
    pub fn unseen_proof(
        scenario: &'static str,
        expected: Vec<Vec<Expect>>,
        executions: u64,
        connections: Option<u64>,
        reason: &'static str,
    ) -> KnownGap {
        KnownGap::records(
            scenario,
            UNSEEN_PROOF,
            expected,
            executions,
            connections,
            reason,
        )
    }

    /// In `scenario`, the engine meets the fault differently, as `what`
    /// says (for example: it refuses a request at once where others time
    /// out), for `reason`. `expected` is what the rules give for what the
    /// engine reports (one list of records per call), with the server
    /// executing `executions` times over `connections` connections when
    /// the scenario checks them; the server's other counts stay as the
    /// scenario has them.
    pub fn records(
        scenario: &'static str,
        what: &'static str,
        expected: Vec<Vec<Expect>>,
        executions: u64,
        connections: Option<u64>,
        reason: &'static str,
    ) -> KnownGap {
        KnownGap {
            scenario,
            kind: GapKind::Records {
                expected,
                executions,
                connections,
                what,
            },
            reason,
            own_outcome_too: None,
        }
    }

    /// In `scenario`, a race inside the engine's library, which the
    /// adapter cannot reach, decides between the scenario's own records
    /// and `lost` (written from the rules for what the engine reports when
    /// it loses, with the server executing `executions` times), as `what`
    /// says, for `reason`. Either outcome passes as this named gap; any
    /// other fails. The scenario's own outcome is still compared across
    /// engines.
    pub fn race(
        scenario: &'static str,
        what: &'static str,
        lost: Vec<Vec<Expect>>,
        executions: u64,
        reason: &'static str,
    ) -> KnownGap {
        KnownGap {
            scenario,
            kind: GapKind::Race {
                lost,
                executions,
                what,
            },
            reason,
            own_outcome_too: None,
        }
    }

    /// A race inside the engine's library sometimes gives the scenario's
    /// own records instead of this gap's difference, as `why` says: both
    /// pass as this gap (each under the standing rules), anything else
    /// fails.
    pub fn or_the_scenarios_own(mut self, why: &'static str) -> KnownGap {
        self.own_outcome_too = Some(why);
        self
    }

    /// Whether the scenario's own outcome also passes as this gap.
    pub(super) fn allows_the_scenarios_outcome(&self) -> bool {
        matches!(self.kind, GapKind::Race { .. }) || self.own_outcome_too.is_some()
    }

    /// The scenario with only the declared difference applied.
    pub(super) fn applied_to(&self, scenario: &Scenario) -> Scenario {
        let mut scenario = scenario.clone();
        match &self.kind {
            GapKind::Category { expected, observed } => {
                for call in &mut scenario.expected {
                    for expect in call {
                        if let Some((_, category, _)) = &mut expect.failure
                            && category == expected
                        {
                            *category = *observed;
                        }
                    }
                }
            }
            GapKind::Records {
                expected,
                executions,
                connections,
                ..
            } => {
                scenario.expected = expected.clone();
                scenario.server.executions = *executions;
                if scenario.server.connections.is_some() {
                    scenario.server.connections = *connections;
                }
            }
            GapKind::Race {
                lost, executions, ..
            } => {
                scenario.expected = lost.clone();
                scenario.server.executions = *executions;
            }
        }
        scenario
    }

    /// `records` with a category gap's difference undone (the observed
    /// category read as the expected one), for the cross-engine
    /// comparison; `None` for a gap whose records differ by construction.
    pub(super) fn undone(&self, records: &[Vec<AttemptRecord>]) -> Option<Vec<Vec<AttemptRecord>>> {
        let GapKind::Category { expected, observed } = &self.kind else {
            return None;
        };
        let mut records = records.to_vec();
        for record in records.iter_mut().flatten() {
            if record.category == Some(*observed) {
                record.category = Some(*expected);
            }
        }
        Some(records)
    }

    pub(super) fn describe(&self) -> String {
        let gap = match &self.kind {
            GapKind::Category { expected, observed } => format!(
                "named gap: `{}` is seen as `{}`: {}",
                expected.as_str(),
                observed.as_str(),
                self.reason
            ),
            GapKind::Records { what, .. } | GapKind::Race { what, .. } => {
                format!("named gap: {what}: {}", self.reason)
            }
        };
        match self.own_outcome_too {
            Some(why) => format!("{gap} (or the scenario's own records: {why})"),
            None => gap,
        }
    }
}
