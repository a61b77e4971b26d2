//! The parity matrix: scenario × engine, as Markdown and as JSON.

use serde_json::{Value, json};

use crate::harness::{Cell, CellStatus};
use crate::scenario::Scenario;

/// Every cell of one run.
#[derive(Debug, Clone)]
pub struct Matrix {
    /// Engine names, in column order.
    pub engines: Vec<&'static str>,
    /// One row per scenario: the scenario and a cell per engine.
    pub rows: Vec<(Scenario, Vec<Cell>)>,
}

impl Matrix {
    /// Cells that ran (not n/a), and how many of them passed.
    pub fn counts(&self) -> (usize, usize, usize) {
        let mut applicable = 0;
        let mut passed = 0;
        let mut not_applicable = 0;
        for (_, cells) in &self.rows {
            for cell in cells {
                match cell.status {
                    CellStatus::Pass => {
                        applicable += 1;
                        passed += 1;
                    }
                    CellStatus::Fail(_) | CellStatus::Gap(_) => applicable += 1,
                    CellStatus::NotApplicable(_) => not_applicable += 1,
                }
            }
        }
        (passed, applicable, not_applicable)
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

    /// The summary line: `parity: N/M cells identical`.
    pub fn summary(&self) -> String {
        let (passed, applicable, not_applicable) = self.counts();
        match self.named_gaps() {
            0 => format!("parity: {passed}/{applicable} cells identical ({not_applicable} n/a)"),
            gaps => format!(
                "parity: {passed}/{applicable} cells identical ({gaps} named gaps, {not_applicable} n/a)"
            ),
        }
    }

    /// The matrix as Markdown, with the gaps listed under it.
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        out.push_str("| scenario |");
        for e in &self.engines {
            out.push_str(&format!(" {e} |"));
        }
        out.push_str("\n|---|");
        for _ in &self.engines {
            out.push_str("---|");
        }
        out.push('\n');
        let mut notes = Vec::new();
        for (scenario, cells) in &self.rows {
            out.push_str(&format!("| {} |", scenario.name));
            for (engine, cell) in self.engines.iter().zip(cells) {
                let text = match &cell.status {
                    CellStatus::Pass => "pass".to_owned(),
                    CellStatus::Fail(diff) => {
                        notes.push(format!("- **{} / {engine}** fails: {diff}", scenario.name));
                        "**FAIL**".to_owned()
                    }
                    CellStatus::NotApplicable(reason) => {
                        notes.push(format!("- {} / {engine} is n/a: {reason}", scenario.name));
                        "n/a".to_owned()
                    }
                    CellStatus::Gap(gap) => {
                        notes.push(format!("- {} / {engine}: {gap}", scenario.name));
                        "gap".to_owned()
                    }
                };
                out.push_str(&format!(" {text} |"));
            }
            out.push('\n');
        }
        if !notes.is_empty() {
            out.push_str("\nGaps and differences:\n\n");
            out.push_str(&notes.join("\n"));
            out.push('\n');
        }
        out.push('\n');
        out.push_str(&self.summary());
        out.push('\n');
        out
    }

    /// The matrix as JSON:
    /// `{"engines": [...], "scenarios": [{"name", "cells": {"<engine>": {"status", "reason", "records", "executions"}}}]}`.
    pub fn json(&self) -> Value {
        let scenarios: Vec<Value> = self
            .rows
            .iter()
            .map(|(scenario, cells)| {
                let mut map = serde_json::Map::new();
                for (engine, cell) in self.engines.iter().zip(cells) {
                    let (status, reason) = match &cell.status {
                        CellStatus::Pass => ("pass", Value::Null),
                        CellStatus::Fail(d) => ("fail", Value::String(d.clone())),
                        CellStatus::NotApplicable(r) => ("n/a", Value::String(r.clone())),
                        CellStatus::Gap(g) => ("gap", Value::String(g.clone())),
                    };
                    let records: Vec<Value> = cell
                        .records
                        .iter()
                        .map(|call| {
                            Value::Array(
                                call.iter()
                                    .map(|r| {
                                        json!({
                                            "resend_count": r.resend_count,
                                            "stage": r.stage.map(|s| s.as_str()),
                                            "category": r.category.map(|c| c.as_str()),
                                            "evidence": r.evidence.map(|e| e.as_str()),
                                            "status": r.status,
                                            "rejection": r.rejection.map(|k| k.as_str()),
                                            "decision": r.decision.verb(),
                                            "reason": r.decision.reason_str(),
                                            "backoff_ms": r.backoff().map(|d| d.as_millis() as u64),
                                        })
                                    })
                                    .collect(),
                            )
                        })
                        .collect();
                    map.insert(
                        (*engine).to_owned(),
                        json!({
                            "status": status,
                            "reason": reason,
                            "records": records,
                            "executions": cell.executions,
                        }),
                    );
                }
                json!({
                    "name": scenario.name,
                    "summary": scenario.summary,
                    "cells": Value::Object(map),
                })
            })
            .collect();
        let (passed, applicable, not_applicable) = self.counts();
        json!({
            "engines": self.engines,
            "scenarios": scenarios,
            "parity": {"identical": passed, "applicable": applicable, "not_applicable": not_applicable},
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::{Cell, CellStatus};
    use crate::table::scenarios;

    fn matrix() -> Matrix {
        let mut rows = scenarios();
        rows.truncate(2);
        let cell = |status| Cell {
            status,
            records: Vec::new(),
            executions: 1,
        };
        Matrix {
            engines: vec!["a", "b"],
            rows: vec![
                (
                    rows.remove(0),
                    vec![cell(CellStatus::Pass), cell(CellStatus::Pass)],
                ),
                (
                    rows.remove(0),
                    vec![
                        cell(CellStatus::Fail("call 0 attempt 0: differs".into())),
                        cell(CellStatus::NotApplicable("needs HTTP/2: no".into())),
                    ],
                ),
            ],
        }
    }

    #[test]
    fn the_summary_counts_identical_cells_over_applicable_ones() {
        let m = matrix();
        assert_eq!(m.counts(), (2, 3, 1));
        assert!(m.has_failures());
        assert_eq!(m.summary(), "parity: 2/3 cells identical (1 n/a)");
        let md = m.markdown();
        assert!(md.contains("| scenario | a | b |"), "{md}");
        assert!(md.contains("**FAIL**") && md.contains("n/a"), "{md}");
        assert!(
            md.contains("differs") && md.contains("needs HTTP/2: no"),
            "{md}"
        );
    }

    #[test]
    fn the_json_has_the_documented_shape() {
        let json = matrix().json();
        assert_eq!(json["engines"], serde_json::json!(["a", "b"]));
        let first = &json["scenarios"][0];
        assert_eq!(first["name"], "ok_200");
        assert_eq!(first["cells"]["a"]["status"], "pass");
        assert!(first["cells"]["a"]["reason"].is_null());
        assert!(first["cells"]["a"]["records"].is_array());
        assert_eq!(first["cells"]["a"]["executions"], 1);
        let second = &json["scenarios"][1]["cells"];
        assert_eq!(second["a"]["status"], "fail");
        assert_eq!(second["b"]["status"], "n/a");
        assert_eq!(second["b"]["reason"], "needs HTTP/2: no");
    }

    #[test]
    fn a_named_gap_is_neither_identical_nor_a_failure() {
        let mut m = matrix();
        m.rows[1].1[0].status = CellStatus::Gap("named gap: `go_away` is seen as `x`".into());
        assert!(!m.has_failures());
        assert_eq!(m.counts(), (2, 3, 1));
        assert_eq!(
            m.summary(),
            "parity: 2/3 cells identical (1 named gaps, 1 n/a)"
        );
        assert!(m.markdown().contains("| gap |"), "{}", m.markdown());
        assert_eq!(m.json()["scenarios"][1]["cells"]["a"]["status"], "gap");
    }
}
