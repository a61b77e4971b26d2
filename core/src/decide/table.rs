//! The retry table as data: every (evidence × idempotency) and (answered
//! status × idempotency) cell, produced by calling the decision itself, so
//! the printed table can never drift from the code.

use std::fmt;
use std::time::Instant;

use http::StatusCode;

use super::{
    BodyReplay, Decision, Idempotency, Outcome, RetryContext, RetryPolicy, idempotency_key_reply,
    is_retryable_status, status_proves_not_processed,
};
use crate::failure::{ExecutionEvidence, FailureCategory};

/// The statuses the table shows: a success, ordinary client errors, the
/// statuses that prove non-processing (408, 421, 425), the idempotency
/// key's replies (409, 422: their meaning only for a sent key) and every
/// other retryable status.
pub const TABLE_STATUSES: [u16; 14] = [
    200, 400, 404, 408, 409, 421, 422, 425, 429, 500, 501, 502, 503, 504,
];

/// One row of the table: a label and the decision for each idempotency in
/// [`Idempotency::ALL`] order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableRow {
    /// What the row is about (an evidence or a status).
    pub label: String,
    /// One decision per idempotency.
    pub cells: [Decision; 4],
}

/// The generated retry table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetryTable {
    /// Evidence × idempotency, for a transient failure category.
    pub evidence: Vec<TableRow>,
    /// Answered status × idempotency.
    pub statuses: Vec<TableRow>,
}

impl RetryTable {
    /// Computes the table with `policy`, for a first attempt of a call with a
    /// replayable body, no deadline and attempts to spare. The policy's
    /// budget is not consulted (a table must not spend it).
    pub fn generate(policy: &RetryPolicy) -> RetryTable {
        let mut policy = policy.clone();
        policy.budget = None;
        let now = Instant::now();
        let decide = |outcome: Outcome| {
            Idempotency::ALL.map(|idempotency| {
                let ctx = RetryContext {
                    attempts_made: 1,
                    attempts_allowed: policy.max_attempts.max(2),
                    body: BodyReplay::Replayable,
                    response_delivered: false,
                    draining: false,
                    remaining: None,
                    min_attempt_time: policy.min_attempt_time,
                    idempotency,
                };
                policy.decide(&ctx, &outcome, now)
            })
        };
        let evidence = ExecutionEvidence::ALL
            .iter()
            .map(|&evidence| TableRow {
                label: evidence.as_str().to_owned(),
                cells: decide(Outcome::Failed {
                    // A transient category, so only the evidence speaks.
                    category: FailureCategory::ConnectionReset,
                    evidence,
                }),
            })
            .collect();
        let statuses = TABLE_STATUSES
            .iter()
            .map(|&code| {
                let status = StatusCode::from_u16(code).expect("table statuses are valid");
                TableRow {
                    label: format!(
                        "{code}{}",
                        if status_proves_not_processed(status).is_some() {
                            " (proves not processed)"
                        } else if idempotency_key_reply(status, Idempotency::KeySent).is_some() {
                            " (a reply to a sent key)"
                        } else if is_retryable_status(status) {
                            " (retryable)"
                        } else {
                            ""
                        }
                    ),
                    cells: decide(Outcome::Answered {
                        status,
                        retry_after: None,
                    }),
                }
            })
            .collect();
        RetryTable { evidence, statuses }
    }
}

fn cell(d: &Decision) -> String {
    match d {
        Decision::Retry { reason, .. } => format!("retry ({})", reason.as_str()),
        Decision::Stop(r) => format!("stop ({})", r.as_str()),
    }
}

fn write_rows(f: &mut fmt::Formatter<'_>, first: &str, rows: &[TableRow]) -> fmt::Result {
    write!(f, "| {first} |")?;
    for i in Idempotency::ALL {
        write!(f, " {} |", i.as_str())?;
    }
    writeln!(f)?;
    writeln!(f, "|---|---|---|---|---|")?;
    for row in rows {
        write!(f, "| {} |", row.label)?;
        for c in &row.cells {
            write!(f, " {} |", cell(c))?;
        }
        writeln!(f)?;
    }
    Ok(())
}

impl fmt::Display for RetryTable {
    /// Markdown: one table per input.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "### Evidence × idempotency (transient failure, first attempt)\n"
        )?;
        write_rows(f, "evidence", &self.evidence)?;
        writeln!(f, "\n### Answered status × idempotency (first attempt)\n")?;
        write_rows(f, "status", &self.statuses)
    }
}
