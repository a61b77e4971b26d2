//! "Identical" means identical: the cross-engine comparison.
//!
//! A cell passes its own expectation when its records match what the rules
//! predict. That is not enough for parity: two engines can both meet an
//! expectation that leaves a field unchecked (a backoff delay, the number
//! of executions where the scenario allows either) and still disagree. So
//! after every engine has run a scenario, what every record says (its
//! `PartialEq`: attempt index, stage, category, evidence, status,
//! rejection, decision) and the execution count are compared across the
//! engines whose cells passed, and those with a named category gap (with
//! that category read as expected). A record's timing and evidence facts
//! are measurements engines report at different precision, and are not
//! compared; the evidence drawn from them is.
//! When they are not all the same, every one of those cells fails, with the
//! difference: nothing says which engine is right, only that they differ.
//!
//! The only tolerance is on retry delays ([`DELAY_TOLERANCE`]): a delay
//! capped by the remaining deadline depends on how long the engine took to
//! fail, which is wall-clock time. Every other field must be equal.

use std::time::Duration;

use evident_core::Decision;
use evident_core::observe::AttemptRecord;

use crate::harness::{Cell, CellStatus};

/// How far two engines' retry delays may be apart and still count as the
/// same. Delays are exact when no deadline caps them (no jitter in the
/// conformance client, `Retry-After` read with an injected wall clock); a
/// delay capped by the remaining deadline moves with the time the engine
/// took to fail, which on a loaded machine can be tens of milliseconds.
/// 50 ms covers that and is far below the one-second `Retry-After` steps
/// the table uses.
pub const DELAY_TOLERANCE: Duration = Duration::from_millis(50);

/// The first difference between two engines' cells, if any: records field
/// by field (delays within [`DELAY_TOLERANCE`]), then executions.
///
/// ```
/// use evident_conformance::harness::{Cell, CellStatus};
/// use evident_conformance::parity::difference;
///
/// let a = Cell::new(CellStatus::Pass, vec![vec![]], 1);
/// let b = Cell::new(CellStatus::Pass, vec![vec![]], 2);
/// assert_eq!(difference(&a, &a), None);
/// assert_eq!(difference(&a, &b).unwrap(), "executions 1 vs 2");
/// ```
pub fn difference(a: &Cell, b: &Cell) -> Option<String> {
    records_difference(&a.records, &b.records)
        .or_else(|| executions_difference(a.executions, b.executions))
}

fn executions_difference(a: u64, b: u64) -> Option<String> {
    (a != b).then(|| format!("executions {a} vs {b}"))
}

/// The first difference between two lists of calls' records.
fn records_difference(a: &[Vec<AttemptRecord>], b: &[Vec<AttemptRecord>]) -> Option<String> {
    if a.len() != b.len() {
        return Some(format!("{} call(s) vs {}", a.len(), b.len()));
    }
    for (c, (x, y)) in a.iter().zip(b).enumerate() {
        if x.len() != y.len() {
            return Some(format!(
                "call {c}: {} attempt(s) vs {}: [{}] vs [{}]",
                x.len(),
                y.len(),
                list(x),
                list(y)
            ));
        }
        for (i, (r, s)) in x.iter().zip(y).enumerate() {
            if let Some(diff) = record_difference(r, s) {
                return Some(format!("call {c} attempt {i}: {diff}"));
            }
        }
    }
    None
}

/// [`difference`] on what the comparison reads of each cell
/// ([`Cell::compared_records`]).
fn compared_difference(a: &Cell, b: &Cell) -> Option<String> {
    let (Some(x), Some(y)) = (a.compared_records(), b.compared_records()) else {
        return Some("not comparable".to_owned());
    };
    records_difference(x, y).or_else(|| executions_difference(a.executions, b.executions))
}

fn list(records: &[AttemptRecord]) -> String {
    records
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Compares two records on what they say (their `PartialEq`); retry
/// delays within the tolerance.
fn record_difference(a: &AttemptRecord, b: &AttemptRecord) -> Option<String> {
    let mut b_aligned = *b;
    if let (
        Decision::Retry { after: x, .. },
        Decision::Retry {
            reason,
            after: y,
            delay,
        },
    ) = (a.decision, b.decision)
    {
        if x.abs_diff(y) > DELAY_TOLERANCE {
            return Some(format!(
                "delay {} ms vs {} ms (tolerance {} ms)",
                x.as_millis(),
                y.as_millis(),
                DELAY_TOLERANCE.as_millis()
            ));
        }
        // Within tolerance: compare everything else as if equal.
        b_aligned.decision = Decision::Retry {
            reason,
            after: x,
            delay,
        };
    }
    if *a == b_aligned {
        return None;
    }
    let (x, y) = (a.to_string(), b.to_string());
    if x != y {
        Some(format!("`{x}` vs `{y}`"))
    } else {
        // Same compact form, different fields (e.g. the delay's source).
        Some(format!("{a:?} vs {b:?}"))
    }
}

/// Compares the cells of one row (one scenario, one cell per engine, named
/// by `engines`): when the cells that passed their expectation are not all
/// identical, each of them fails with what it differs in and from which
/// engine. A cell with a named category gap takes part too, with that one
/// category read as expected: every field its gap does not name must match.
/// Cells that failed or were skipped, and gaps whose records differ by
/// construction, are left as they are.
pub fn compare_row(engines: &[&str], cells: &mut [Cell]) {
    let passed: Vec<usize> = cells
        .iter()
        .enumerate()
        .filter(|(_, c)| c.compared_records().is_some())
        .map(|(i, _)| i)
        .collect();
    // Group the passing cells into classes of identical outcomes.
    let mut classes: Vec<Vec<usize>> = Vec::new();
    for &i in &passed {
        match classes
            .iter_mut()
            .find(|class| compared_difference(&cells[class[0]], &cells[i]).is_none())
        {
            Some(class) => class.push(i),
            None => classes.push(vec![i]),
        }
    }
    if classes.len() <= 1 {
        return;
    }
    let verdicts: Vec<(usize, String)> = classes
        .iter()
        .enumerate()
        .flat_map(|(k, class)| {
            let other = if k == 0 { &classes[1] } else { &classes[0] };
            let diff = compared_difference(&cells[class[0]], &cells[other[0]])
                .unwrap_or_else(|| "differs".to_owned());
            let them = other
                .iter()
                .map(|&j| engines.get(j).copied().unwrap_or("?"))
                .collect::<Vec<_>>()
                .join(", ");
            class
                .iter()
                .map(move |&i| (i, format!("differs from {them}: {diff}")))
                .collect::<Vec<_>>()
        })
        .collect();
    for (i, message) in verdicts {
        cells[i].status = CellStatus::Fail(message);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use evident_core::decide::{DelaySource, RetryReason, StopReason};

    fn retry_after(ms: u64) -> AttemptRecord {
        AttemptRecord::answered(
            0,
            503,
            Decision::Retry {
                reason: RetryReason::RetryableStatus,
                after: Duration::from_millis(ms),
                delay: DelaySource::Backoff,
            },
        )
    }

    fn ok(resend: u32) -> AttemptRecord {
        AttemptRecord::answered(resend, 200, Decision::Stop(StopReason::Succeeded))
    }

    fn cell(records: Vec<AttemptRecord>, executions: u64) -> Cell {
        Cell::new(CellStatus::Pass, vec![records], executions)
    }

    fn failed(resend: u32, category: evident_core::FailureCategory) -> AttemptRecord {
        let mut record = ok(resend);
        record.status = None;
        record.category = Some(category);
        record
    }

    #[test]
    fn a_category_gap_is_compared_on_every_field_it_does_not_name() {
        use evident_core::FailureCategory as C;
        let gap = |observed: Vec<AttemptRecord>, executions| {
            let undone = observed
                .iter()
                .map(|r| {
                    let mut r = *r;
                    if r.category == Some(C::ConnectionClosed) {
                        r.category = Some(C::GoAway);
                    }
                    r
                })
                .collect();
            Cell::category_gap("named gap".into(), vec![observed], vec![undone], executions)
        };
        // Only the named category differs: both keep their verdicts.
        let mut row = [
            cell(vec![failed(0, C::GoAway)], 1),
            gap(vec![failed(0, C::ConnectionClosed)], 1),
        ];
        compare_row(&["a", "b"], &mut row);
        assert_eq!(row[0].status, CellStatus::Pass);
        assert!(matches!(row[1].status, CellStatus::Gap(_)));
        // The same gap, but the server executed once more: both fail.
        let mut row = [
            cell(vec![failed(0, C::GoAway)], 1),
            gap(vec![failed(0, C::ConnectionClosed)], 2),
        ];
        compare_row(&["a", "b"], &mut row);
        assert_eq!(
            row[1].status,
            CellStatus::Fail("differs from a: executions 2 vs 1".into())
        );
        assert!(matches!(row[0].status, CellStatus::Fail(_)));
    }

    #[test]
    fn cells_that_both_pass_but_differ_in_executions_both_fail() {
        let mut row = [cell(vec![ok(0)], 1), cell(vec![ok(0)], 2)];
        compare_row(&["a", "b"], &mut row);
        assert_eq!(
            row[0].status,
            CellStatus::Fail("differs from b: executions 1 vs 2".into())
        );
        assert_eq!(
            row[1].status,
            CellStatus::Fail("differs from a: executions 2 vs 1".into())
        );
    }

    #[test]
    fn a_difference_in_a_field_no_expectation_checks_fails_the_row() {
        let mut answered = retry_after(20);
        answered.decision = Decision::Retry {
            reason: RetryReason::RetryableStatus,
            after: Duration::from_millis(20),
            delay: DelaySource::RetryAfter,
        };
        let mut row = [
            cell(vec![retry_after(20), ok(1)], 0),
            cell(vec![answered, ok(1)], 0),
        ];
        compare_row(&["a", "b"], &mut row);
        let CellStatus::Fail(message) = &row[0].status else {
            panic!("{:?}", row[0].status)
        };
        assert!(message.contains("call 0 attempt 0"), "{message}");
        assert!(matches!(row[1].status, CellStatus::Fail(_)));
    }

    #[test]
    fn delays_within_the_tolerance_are_the_same_and_beyond_it_are_not() {
        let mut row = [
            cell(vec![retry_after(20), ok(1)], 0),
            cell(vec![retry_after(60), ok(1)], 0),
        ];
        compare_row(&["a", "b"], &mut row);
        assert!(row.iter().all(|c| c.status == CellStatus::Pass));
        let mut row = [
            cell(vec![retry_after(20), ok(1)], 0),
            cell(vec![retry_after(100), ok(1)], 0),
        ];
        compare_row(&["a", "b"], &mut row);
        let CellStatus::Fail(message) = &row[1].status else {
            panic!("{:?}", row[1].status)
        };
        assert!(message.contains("delay 100 ms vs 20 ms"), "{message}");
    }

    #[test]
    fn a_different_attempt_count_names_both_sequences() {
        let a = cell(vec![retry_after(20), ok(1)], 1);
        let b = cell(vec![ok(0)], 1);
        let diff = difference(&a, &b).expect("they differ");
        assert!(diff.starts_with("call 0: 2 attempt(s) vs 1"), "{diff}");
    }

    #[test]
    fn failed_and_skipped_cells_are_left_alone_and_do_not_count_as_a_difference() {
        let mut row = [
            cell(vec![ok(0)], 1),
            Cell::new(CellStatus::Fail("expected x".into()), vec![vec![]], 5),
            Cell::new(CellStatus::Skipped("needs HTTP/2".into()), Vec::new(), 0),
            cell(vec![ok(0)], 1),
        ];
        compare_row(&["a", "b", "c", "d"], &mut row);
        assert_eq!(row[0].status, CellStatus::Pass);
        assert_eq!(row[1].status, CellStatus::Fail("expected x".into()));
        assert_eq!(row[2].status, CellStatus::Skipped("needs HTTP/2".into()));
        assert_eq!(row[3].status, CellStatus::Pass);
    }

    #[test]
    fn with_three_engines_the_odd_one_and_the_others_all_fail_naming_each_other() {
        let mut row = [
            cell(vec![ok(0)], 1),
            cell(vec![ok(0)], 1),
            cell(vec![ok(0)], 0),
        ];
        compare_row(&["a", "b", "c"], &mut row);
        for (i, who) in [(0, "c"), (1, "c"), (2, "a, b")] {
            let CellStatus::Fail(message) = &row[i].status else {
                panic!("{:?}", row[i].status)
            };
            assert!(
                message.starts_with(&format!("differs from {who}:")),
                "{message}"
            );
        }
    }
}
