//! The parity matrix: scenario × engine, as Markdown and as JSON, each
//! cell in a short form that reads at a glance.

use evident_core::Decision;
use evident_core::decide::{DelaySource, StopReason};
use evident_core::observe::AttemptRecord;
use serde_json::{Value, json};

use crate::harness::{Cell, CellStatus};
use crate::scenario::Scenario;

/// How to read a cell, printed under the Markdown table.
pub const LEGEND: &str = "\nA cell lists each attempt: what it proved or the status it got, `→` the \
decision (`retry`, or the reason it stopped; a plain status is a success), repeats as `×n`; \
calls are separated by `‖`; then the executions the server counted. `✓ identical`: every \
engine that ran the row gave the same records and executions.\n";

/// Every cell of one run.
#[derive(Debug, Clone)]
pub struct Matrix {
    /// Engine names, in column order.
    pub engines: Vec<&'static str>,
    /// One row per scenario: the scenario and a cell per engine.
    pub rows: Vec<(Scenario, Vec<Cell>)>,
}

impl Matrix {
    /// Cells that passed (their expectation, and the same as every other
    /// engine's), cells that ran, and cells skipped.
    pub fn counts(&self) -> (usize, usize, usize) {
        let mut ran = 0;
        let mut passed = 0;
        let mut skipped = 0;
        for (_, cells) in &self.rows {
            for cell in cells {
                match cell.status {
                    CellStatus::Pass => {
                        ran += 1;
                        passed += 1;
                    }
                    CellStatus::Skipped(_) => skipped += 1,
                    _ => ran += 1,
                }
            }
        }
        (passed, ran, skipped)
    }

    /// Whether any cell failed (a declared gap is not a failure).
    pub fn has_failures(&self) -> bool {
        self.rows
            .iter()
            .flat_map(|(_, cells)| cells)
            .any(|c| matches!(c.status, CellStatus::Fail(_)))
    }

    /// How many cells differ exactly as their engine declared.
    pub fn named_gaps(&self) -> usize {
        self.rows
            .iter()
            .flat_map(|(_, cells)| cells)
            .filter(|c| matches!(c.status, CellStatus::Gap(_)))
            .count()
    }

    /// The summary line: `parity: N/M cells identical (K skipped)`, with
    /// the named gaps when there are any.
    pub fn summary(&self) -> String {
        let (passed, ran, skipped) = self.counts();
        match self.named_gaps() {
            0 => format!("parity: {passed}/{ran} cells identical ({skipped} skipped)"),
            gaps => format!(
                "parity: {passed}/{ran} cells identical ({gaps} named gaps, {skipped} skipped)"
            ),
        }
    }

    /// What the row's cells say together: `identical` when at least two
    /// engines ran it and every cell passed (so they agree), `only <engine>`
    /// when a single engine ran it and passed, `FAIL` otherwise.
    fn row_verdict(&self, cells: &[Cell]) -> String {
        let ran: Vec<(&str, &Cell)> = self
            .engines
            .iter()
            .copied()
            .zip(cells)
            .filter(|(_, c)| c.status.ran())
            .collect();
        if ran
            .iter()
            .any(|(_, c)| matches!(c.status, CellStatus::Fail(_)))
        {
            "**FAIL**".to_owned()
        } else if ran
            .iter()
            .any(|(_, c)| matches!(c.status, CellStatus::Gap(_)))
        {
            "named gap".to_owned()
        } else if ran.len() >= 2 {
            "✓ identical".to_owned()
        } else if let Some((engine, _)) = ran.first() {
            format!("only {engine}")
        } else {
            "skipped".to_owned()
        }
    }

    /// The matrix as Markdown: one row per scenario, each cell in short
    /// form ([`short_form`]), a last column saying whether the row is
    /// identical across engines, and under the table the skipped cells and
    /// the failures, each with its reason.
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        out.push_str("| scenario |");
        for e in &self.engines {
            out.push_str(&format!(" {e} |"));
        }
        out.push_str(" parity |\n|---|");
        for _ in &self.engines {
            out.push_str("---|");
        }
        out.push_str("---|\n");
        let mut skipped = Vec::new();
        let mut gaps = Vec::new();
        let mut failures = Vec::new();
        for (scenario, cells) in &self.rows {
            out.push_str(&format!("| {} |", scenario.name));
            for (engine, cell) in self.engines.iter().zip(cells) {
                let text = match &cell.status {
                    CellStatus::Pass => short_form(cell),
                    CellStatus::Skipped(reason) => {
                        skipped.push(format!("- {} / {engine}: {reason}", scenario.name));
                        "skipped".to_owned()
                    }
                    CellStatus::Gap(gap) => {
                        gaps.push(format!("- {} / {engine}: {gap}", scenario.name));
                        format!("gap {}", short_form(cell))
                    }
                    CellStatus::Fail(diff) => {
                        failures.push(format!("- **{} / {engine}**: {diff}", scenario.name));
                        if cell.records.is_empty() {
                            "**FAIL**".to_owned()
                        } else {
                            format!("**FAIL** {}", short_form(cell))
                        }
                    }
                };
                out.push_str(&format!(" {text} |"));
            }
            out.push_str(&format!(" {} |\n", self.row_verdict(cells)));
        }
        out.push_str(LEGEND);
        if !skipped.is_empty() {
            out.push_str("\nSkipped (gaps: the engine lacks what the scenario needs):\n\n");
            out.push_str(&skipped.join("\n"));
            out.push('\n');
        }
        if !gaps.is_empty() {
            out.push_str(
                "\nNamed gaps (what differs on that engine, and why; everything else is checked):\n\n",
            );
            out.push_str(&gaps.join("\n"));
            out.push('\n');
        }
        if !failures.is_empty() {
            out.push_str("\nFailures (against the expectation, or between engines):\n\n");
            out.push_str(&failures.join("\n"));
            out.push('\n');
        }
        out.push('\n');
        out.push_str(&self.summary());
        out.push('\n');
        out
    }

    /// The matrix as JSON:
    /// `{"engines": [...], "scenarios": [{"name", "summary", "identical", "cells": {"<engine>": {"status", "reason", "short", "records", "executions"}}}], "parity": {"identical", "ran", "skipped"}}`.
    ///
    /// `status` is `pass`, `fail` or `skipped`; `reason` is the failure or
    /// the gap (`null` for a pass); `identical` is true when at least two
    /// engines ran the scenario and all passed.
    pub fn json(&self) -> Value {
        let scenarios: Vec<Value> = self
            .rows
            .iter()
            .map(|(scenario, cells)| {
                let mut map = serde_json::Map::new();
                for (engine, cell) in self.engines.iter().zip(cells) {
                    let (status, reason) = match &cell.status {
                        CellStatus::Pass => ("pass", Value::Null),
                        CellStatus::Skipped(r) => ("skipped", Value::String(r.clone())),
                        CellStatus::Fail(d) => ("fail", Value::String(d.clone())),
                        CellStatus::Gap(g) => ("gap", Value::String(g.clone())),
                    };
                    let records: Vec<Value> = cell
                        .records
                        .iter()
                        .map(|call| Value::Array(call.iter().map(record_json).collect()))
                        .collect();
                    map.insert(
                        (*engine).to_owned(),
                        json!({
                            "status": status,
                            "reason": reason,
                            "short": if cell.status.ran() { Value::String(short_form(cell)) } else { Value::Null },
                            "records": records,
                            "executions": cell.executions,
                        }),
                    );
                }
                json!({
                    "name": scenario.name,
                    "summary": scenario.summary,
                    "identical": self.row_verdict(cells) == "✓ identical",
                    "cells": Value::Object(map),
                })
            })
            .collect();
        let (passed, ran, skipped) = self.counts();
        json!({
            "engines": self.engines,
            "scenarios": scenarios,
            "parity": {"identical": passed, "ran": ran, "skipped": skipped},
        })
    }
}

fn record_json(r: &AttemptRecord) -> Value {
    json!({
        "attempt_index": r.attempt_index,
        "stage": r.stage.map(|s| s.as_str()),
        "category": r.category.map(|c| c.as_str()),
        "evidence": r.evidence.map(|e| e.as_str()),
        "status": r.status,
        "rejection": r.rejection.map(|k| k.as_str()),
        "decision": r.decision.verb(),
        "reason": r.decision.reason_str(),
        "backoff_ms": r.backoff().map(|d| d.as_millis() as u64),
        "delay_source": r.delay_source().map(|d| match d {
            DelaySource::RetryAfter => "retry_after",
            DelaySource::Backoff => "backoff",
        }),
    })
}

/// One attempt in short form: what it proved or answered, then what was
/// decided. `not_sent→retry`, `503→retry`, `sent_no_response→not_idempotent`
/// (a stop names its reason), `200` (a success needs no more),
/// `rejected:circuit_open`.
fn attempt_token(r: &AttemptRecord) -> String {
    if let Some(kind) = r.rejection {
        return format!("rejected:{}", kind.as_str());
    }
    let what = match (r.status, r.evidence) {
        (Some(status), _) => status.to_string(),
        (None, Some(evidence)) => evidence.as_str().to_owned(),
        (None, None) => "-".to_owned(),
    };
    match r.decision {
        Decision::Retry { .. } => format!("{what}→retry"),
        Decision::Stop(StopReason::Succeeded) => what,
        Decision::Stop(reason) => format!("{what}→{}", reason.as_str()),
    }
}

/// A cell's outcome at a glance: each call's attempts in order, repeats
/// folded (`×2`), calls separated by ` ‖ ` (never `|`, which would split a
/// Markdown cell), then the server's executions.
/// For example `not_sent→retry ×2 · 200 · 1 exec`.
pub fn short_form(cell: &Cell) -> String {
    let calls: Vec<String> = cell
        .records
        .iter()
        .map(|call| {
            let mut folded: Vec<(String, usize)> = Vec::new();
            for token in call.iter().map(attempt_token) {
                match folded.last_mut() {
                    Some((last, n)) if *last == token => *n += 1,
                    _ => folded.push((token, 1)),
                }
            }
            folded
                .into_iter()
                .map(|(t, n)| if n > 1 { format!("{t} ×{n}") } else { t })
                .collect::<Vec<_>>()
                .join(" · ")
        })
        .collect();
    format!("{} · {} exec", calls.join(" ‖ "), cell.executions)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::{Cell, CellStatus};
    use crate::table::scenarios;
    use evident_core::decide::RetryReason;
    use evident_core::{AttemptStage, ExecutionEvidence, FailureCategory};

    /// A refused connect's record (built from an answered one so the test
    /// does not depend on how failures are constructed).
    fn refused(resend: u32, decision: Decision) -> AttemptRecord {
        let mut r = AttemptRecord::answered(resend, 0, decision);
        r.status = None;
        r.stage = Some(AttemptStage::Connect);
        r.category = Some(FailureCategory::ConnectionRefused);
        r.evidence = Some(ExecutionEvidence::NotSent);
        r
    }

    fn not_sent_retry(resend: u32) -> AttemptRecord {
        refused(
            resend,
            Decision::Retry {
                reason: RetryReason::NotSent,
                after: std::time::Duration::from_millis(20),
                delay: DelaySource::Backoff,
            },
        )
    }

    fn ok(resend: u32) -> AttemptRecord {
        AttemptRecord::answered(resend, 200, Decision::Stop(StopReason::Succeeded))
    }

    fn matrix() -> Matrix {
        let mut rows = scenarios();
        rows.truncate(3);
        let good = || Cell::new(CellStatus::Pass, vec![vec![ok(0)]], 1);
        Matrix {
            engines: vec!["a", "b"],
            rows: vec![
                (rows.remove(0), vec![good(), good()]),
                (
                    rows.remove(0),
                    vec![
                        Cell::new(
                            CellStatus::Fail("call 0 attempt 0: differs".into()),
                            vec![vec![ok(0)]],
                            2,
                        ),
                        Cell::new(CellStatus::Skipped("needs HTTP/2: no".into()), vec![], 0),
                    ],
                ),
                (
                    rows.remove(0),
                    vec![
                        good(),
                        Cell::new(CellStatus::Skipped("needs HTTP/2: no".into()), vec![], 0),
                    ],
                ),
            ],
        }
    }

    #[test]
    fn a_cell_in_short_form_folds_repeats_and_counts_executions() {
        let cell = Cell::new(
            CellStatus::Pass,
            vec![vec![not_sent_retry(0), not_sent_retry(1), ok(2)]],
            1,
        );
        assert_eq!(short_form(&cell), "not_sent→retry ×2 · 200 · 1 exec");
        let stopped = refused(0, Decision::Stop(StopReason::AttemptsExhausted));
        let two_calls = Cell::new(CellStatus::Pass, vec![vec![stopped], vec![ok(0)]], 0);
        assert_eq!(
            short_form(&two_calls),
            "not_sent→attempts_exhausted ‖ 200 · 0 exec"
        );
    }

    #[test]
    fn the_summary_counts_identical_cells_over_cells_that_ran_and_never_counts_a_skip_as_a_pass() {
        let m = matrix();
        assert_eq!(m.counts(), (3, 4, 2));
        assert!(m.has_failures());
        assert_eq!(m.summary(), "parity: 3/4 cells identical (2 skipped)");
    }

    #[test]
    fn the_markdown_shows_short_cells_marks_identical_rows_and_lists_gaps_under_the_table() {
        let md = matrix().markdown();
        assert!(md.contains("| scenario | a | b | parity |"), "{md}");
        assert!(
            md.contains("| ok_200 | 200 · 1 exec | 200 · 1 exec | ✓ identical |"),
            "{md}"
        );
        assert!(
            md.contains("| **FAIL** 200 · 2 exec | skipped | **FAIL** |"),
            "{md}"
        );
        assert!(md.contains("| skipped | only a |"), "{md}");
        let gaps = md.split("Skipped (gaps").nth(1).expect("gaps are listed");
        assert!(gaps.contains("/ b: needs HTTP/2: no"), "{md}");
        assert!(md.contains("call 0 attempt 0: differs"), "{md}");
    }

    #[test]
    fn a_named_gap_is_listed_with_its_reason_and_is_neither_identical_nor_a_failure() {
        let mut m = matrix();
        m.rows[1].1[0].status = CellStatus::Gap("named gap: `go_away` is seen as `x`".into());
        assert!(!m.has_failures());
        assert_eq!(m.counts(), (3, 4, 2));
        assert_eq!(
            m.summary(),
            "parity: 3/4 cells identical (1 named gaps, 2 skipped)"
        );
        let md = m.markdown();
        assert!(
            md.contains("| gap 200 · 2 exec | skipped | named gap |"),
            "{md}"
        );
        let gaps = md.split("Named gaps").nth(1).expect("gaps are listed");
        assert!(gaps.contains("is seen as `x`"), "{md}");
        assert_eq!(m.json()["scenarios"][1]["cells"]["a"]["status"], "gap");
    }

    #[test]
    fn the_json_has_the_documented_shape() {
        let json = matrix().json();
        assert_eq!(json["engines"], serde_json::json!(["a", "b"]));
        let first = &json["scenarios"][0];
        assert_eq!(first["name"], "ok_200");
        assert_eq!(first["identical"], true);
        assert_eq!(first["cells"]["a"]["status"], "pass");
        assert!(first["cells"]["a"]["reason"].is_null());
        assert_eq!(first["cells"]["a"]["short"], "200 · 1 exec");
        assert_eq!(first["cells"]["a"]["records"][0][0]["reason"], "succeeded");
        assert_eq!(first["cells"]["a"]["executions"], 1);
        let second = &json["scenarios"][1];
        assert_eq!(second["identical"], false);
        assert_eq!(second["cells"]["a"]["status"], "fail");
        assert_eq!(second["cells"]["b"]["status"], "skipped");
        assert_eq!(second["cells"]["b"]["reason"], "needs HTTP/2: no");
        assert!(second["cells"]["b"]["short"].is_null());
        assert_eq!(
            json["parity"],
            serde_json::json!({"identical": 3, "ran": 4, "skipped": 2})
        );
    }
}
