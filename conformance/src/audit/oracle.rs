//! The checks: every attempt record against the server's book.
//!
//! * `not_sent` is false if any byte of the attempt reached the server;
//! * `not_processed` is false if the server executed the attempt;
//! * `responded` is false unless the server sent that attempt an answer
//!   head (with the recorded status, when the record has one);
//! * a call that was not declared idempotent must not be executed more
//!   than once (a key the server honours makes a repeat a replay, not an
//!   execution).
//!
//! `sent_no_response` is never false: it claims nothing the server could
//! contradict.

use std::collections::BTreeMap;
use std::fmt;

use evident_core::observe::AttemptRecord;
use evident_core::{AttemptStage, ExecutionEvidence, FailureCategory};

use super::book::{AttemptTag, Attribution, FrozenBook};
use super::shape::{BodyKind, CallShape, Protocol};

/// What a false claim claimed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ClaimKind {
    /// `not_sent`, while bytes of the attempt reached the server.
    NotSent,
    /// `not_processed`, while the server executed the attempt.
    NotProcessed,
    /// `responded`, while the server sent that attempt no such answer.
    Responded,
    /// The call ran more often than its idempotency allows.
    Duplicate,
}

impl ClaimKind {
    /// A stable name.
    pub const fn as_str(self) -> &'static str {
        match self {
            ClaimKind::NotSent => "not_sent",
            ClaimKind::NotProcessed => "not_processed",
            ClaimKind::Responded => "responded",
            ClaimKind::Duplicate => "duplicate_execution",
        }
    }
}

impl fmt::Display for ClaimKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One audited call: its shape and the records the client returned.
#[derive(Debug, Clone)]
pub struct CallOutcome {
    /// The call id.
    pub call: u64,
    /// The lane it ran on.
    pub lane: usize,
    /// Its shape.
    pub shape: CallShape,
    /// Its attempt records.
    pub records: Vec<AttemptRecord>,
    /// The call's error, when it failed.
    pub error: Option<String>,
}

/// A claim the server's book contradicts.
#[derive(Debug, Clone)]
pub struct FalseClaim {
    /// What was claimed.
    pub kind: ClaimKind,
    /// The attempt.
    pub tag: AttemptTag,
    /// The call's shape.
    pub shape: String,
    /// The attempt's record (for a duplicate, the call's last).
    pub record: String,
    /// The evidence's facts: reused connection, counted bytes, stream.
    pub facts: String,
    /// Every record of the call.
    pub call_records: Vec<String>,
    /// What the server saw: for each connection that received bytes of
    /// the attempt, its events and its first bytes; or the executions.
    pub server_log: Vec<String>,
    /// How the bytes were attributed (for `not_sent`).
    pub attribution: Option<Attribution>,
    /// The call's protocol.
    pub protocol: Protocol,
    /// The call's body.
    pub body: BodyKind,
    /// The record's stage, for a failed attempt.
    pub stage: Option<AttemptStage>,
    /// The record's category, for a failed attempt.
    pub category: Option<FailureCategory>,
}

impl fmt::Display for FalseClaim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "false `{}` claim by {}", self.kind, self.tag)?;
        writeln!(f, "    shape:   {}", self.shape)?;
        writeln!(f, "    record:  {}  [{}]", self.record, self.facts)?;
        writeln!(f, "    call:    [{}]", self.call_records.join(", "))?;
        if let Some(how) = self.attribution {
            writeln!(f, "    bytes attributed by: {how:?}")?;
        }
        for line in &self.server_log {
            writeln!(f, "    server:  {line}")?;
        }
        Ok(())
    }
}

/// The counts and findings of one engine's audit.
#[derive(Debug, Clone, Default)]
pub struct Verdicts {
    /// Attempt records audited.
    pub attempts: u64,
    /// Calls made.
    pub calls: u64,
    /// Records per evidence kind (`not_sent`, `not_processed`,
    /// `sent_no_response`, `responded`).
    pub claims: BTreeMap<&'static str, u64>,
    /// The same, for the calls made over TLS.
    pub tls_claims: BTreeMap<&'static str, u64>,
    /// The false claims: contradicted by bytes that carry the attempt's
    /// own tag, or by the server's executions and answers.
    pub false_claims: Vec<FalseClaim>,
    /// `not_sent` claims contradicted only by bytes tied to the attempt by
    /// timing (bytes without a readable tag, read while the attempt was the
    /// lane's attempt in flight). Reported, never counted as false: an
    /// earlier attempt's late bytes would look the same.
    pub suspects: Vec<FalseClaim>,
    /// Request bytes tied to no attempt (a cut HTTP/2 frame header).
    pub unattributed_bytes: usize,
    /// Bytes tied to an attempt by the attempt in flight rather than by
    /// their own tag.
    pub in_flight_attributed_bytes: usize,
}

fn facts(record: &AttemptRecord) -> String {
    let f = record.facts;
    format!(
        "reused={} bytes_written={} stream={} bytes_read={}",
        f.connection_reused
            .map_or("?".to_owned(), |r| r.to_string()),
        f.bytes_written.map_or("?".to_owned(), |b| b.to_string()),
        f.stream_id.map_or("-".to_owned(), |s| s.to_string()),
        f.bytes_read.map_or("0".to_owned(), |b| b.to_string()),
    )
}

/// Excerpt length of a connection's bytes in a finding.
const EXCERPT_BYTES: usize = 240;

fn conn_lines(book: &FrozenBook, tag: AttemptTag) -> Vec<String> {
    let mut lines = Vec::new();
    let mut seen = Vec::new();
    for (conn, n, how) in book.bytes.get(&tag).into_iter().flatten() {
        if seen.contains(conn) {
            continue;
        }
        seen.push(*conn);
        let log = &book.conns[*conn];
        lines.push(format!(
            "conn #{} ({:?}, lane {}): {n} byte(s) of {tag} ({how:?}); events: {}",
            log.number,
            log.protocol,
            log.lane,
            log.events.join(" | ")
        ));
        lines.push(format!(
            "conn #{} bytes: {}",
            log.number,
            log.excerpt(EXCERPT_BYTES)
        ));
    }
    if lines.is_empty() {
        lines.push(format!("no byte of {tag} reached the server"));
    }
    if let Some(a) = book.attempts.get(&tag) {
        lines.push(format!(
            "{tag}: executed={} answered={:?}",
            a.executed, a.answered
        ));
    }
    lines
}

/// Checks every record of every call against the book.
pub(crate) fn check(outcomes: &[CallOutcome], book: &FrozenBook) -> Verdicts {
    let mut v = Verdicts {
        unattributed_bytes: book.unattributed,
        in_flight_attributed_bytes: book
            .bytes
            .values()
            .flatten()
            .filter(|(_, _, how)| *how == Attribution::InFlight)
            .map(|(_, n, _)| n)
            .sum(),
        ..Verdicts::default()
    };
    for outcome in outcomes {
        v.calls += 1;
        let call_records: Vec<String> = outcome.records.iter().map(ToString::to_string).collect();
        let finding = |kind, tag: AttemptTag, record: &AttemptRecord, attribution| FalseClaim {
            kind,
            tag,
            shape: outcome.shape.to_string(),
            record: record.to_string(),
            facts: facts(record),
            call_records: call_records.clone(),
            server_log: conn_lines(book, tag),
            attribution,
            protocol: outcome.shape.protocol,
            body: outcome.shape.body,
            stage: record.stage,
            category: record.category,
        };
        for record in &outcome.records {
            if record.rejection.is_some() {
                continue;
            }
            v.attempts += 1;
            let Some(evidence) = record.evidence else {
                continue;
            };
            *v.claims.entry(evidence.as_str()).or_default() += 1;
            if outcome.shape.tls {
                *v.tls_claims.entry(evidence.as_str()).or_default() += 1;
            }
            let tag = AttemptTag {
                call: outcome.call,
                attempt: record.attempt_index,
            };
            let server = book.attempts.get(&tag);
            match evidence {
                ExecutionEvidence::NotSent => {
                    let bytes = book.bytes.get(&tag);
                    let total: usize = bytes.into_iter().flatten().map(|(_, n, _)| n).sum();
                    let tagged = bytes
                        .into_iter()
                        .flatten()
                        .any(|(_, _, how)| *how == Attribution::Tag);
                    if tagged {
                        v.false_claims.push(finding(
                            ClaimKind::NotSent,
                            tag,
                            record,
                            Some(Attribution::Tag),
                        ));
                    } else if total > 0 {
                        v.suspects.push(finding(
                            ClaimKind::NotSent,
                            tag,
                            record,
                            Some(Attribution::InFlight),
                        ));
                    }
                }
                ExecutionEvidence::NotProcessed => {
                    if server.is_some_and(|s| s.executed) {
                        v.false_claims
                            .push(finding(ClaimKind::NotProcessed, tag, record, None));
                    }
                }
                ExecutionEvidence::Responded => {
                    let answered = server.map(|s| s.answered.as_slice()).unwrap_or_default();
                    let matches = match record.status {
                        Some(status) => answered.contains(&status),
                        None => !answered.is_empty(),
                    };
                    if !matches {
                        v.false_claims
                            .push(finding(ClaimKind::Responded, tag, record, None));
                    }
                }
                ExecutionEvidence::SentNoResponse => {}
            }
        }
        let executions = book
            .executions_by_call
            .get(&outcome.call)
            .copied()
            .unwrap_or(0);
        if executions > 1
            && !outcome.shape.may_repeat()
            && let Some(last) = outcome.records.last()
        {
            let tag = AttemptTag {
                call: outcome.call,
                attempt: last.attempt_index,
            };
            let mut claim = finding(ClaimKind::Duplicate, tag, last, None);
            claim.server_log = (0..=last.attempt_index)
                .flat_map(|attempt| {
                    conn_lines(
                        book,
                        AttemptTag {
                            call: outcome.call,
                            attempt,
                        },
                    )
                })
                .collect();
            claim.server_log.insert(
                0,
                format!("call {} executed {executions} times", outcome.call),
            );
            v.false_claims.push(claim);
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use evident_core::decide::StopReason;
    use evident_core::{AttemptStage, Decision, ExecutionEvidence, FailureCategory};

    use super::*;
    use crate::audit::book::{AttemptLog, ConnLog};
    use crate::audit::rng::SplitMix64;

    fn record(attempt: u32, evidence: ExecutionEvidence, status: Option<u16>) -> AttemptRecord {
        let mut r = AttemptRecord::answered(attempt, 200, Decision::Stop(StopReason::Succeeded));
        r.status = status;
        r.evidence = Some(evidence);
        if status.is_none() {
            r.stage = Some(AttemptStage::Connect);
            r.category = Some(FailureCategory::ConnectionRefused);
        }
        r
    }

    fn book(tag: AttemptTag, bytes: usize, log: AttemptLog, executions: u32) -> FrozenBook {
        FrozenBook {
            conns: vec![ConnLog::new(0, Protocol::Http1, 0)],
            attempts: HashMap::from([(tag, log)]),
            executions_by_call: HashMap::from([(tag.call, executions)]),
            bytes: if bytes > 0 {
                HashMap::from([(tag, vec![(0, bytes, Attribution::Tag)])])
            } else {
                HashMap::new()
            },
            unattributed: 0,
        }
    }

    fn outcome(records: Vec<AttemptRecord>) -> CallOutcome {
        let mut shape = CallShape::draw(&mut SplitMix64::new(1), false);
        shape.declared = super::super::shape::Declared::Nothing;
        CallOutcome {
            call: 7,
            lane: 0,
            shape,
            records,
            error: None,
        }
    }

    const TAG: AttemptTag = AttemptTag {
        call: 7,
        attempt: 0,
    };

    #[test]
    fn not_sent_is_false_once_a_byte_of_the_attempt_reached_the_server() {
        let call = outcome(vec![record(0, ExecutionEvidence::NotSent, None)]);
        let none = check(
            std::slice::from_ref(&call),
            &book(TAG, 0, AttemptLog::default(), 0),
        );
        assert!(none.false_claims.is_empty());
        let one = check(&[call], &book(TAG, 1, AttemptLog::default(), 0));
        assert_eq!(one.false_claims.len(), 1);
        assert_eq!(one.false_claims[0].kind, ClaimKind::NotSent);
    }

    #[test]
    fn not_processed_is_false_when_the_server_executed_the_attempt() {
        let call = outcome(vec![record(0, ExecutionEvidence::NotProcessed, None)]);
        let executed = AttemptLog {
            executed: true,
            answered: Vec::new(),
        };
        let found = check(&[call], &book(TAG, 100, executed, 1));
        assert_eq!(found.false_claims.len(), 1);
        assert_eq!(found.false_claims[0].kind, ClaimKind::NotProcessed);
    }

    #[test]
    fn responded_must_match_an_answer_the_server_sent() {
        let call = outcome(vec![record(0, ExecutionEvidence::Responded, Some(200))]);
        let answered_503 = AttemptLog {
            executed: false,
            answered: vec![503],
        };
        let found = check(
            std::slice::from_ref(&call),
            &book(TAG, 100, answered_503, 0),
        );
        assert_eq!(found.false_claims[0].kind, ClaimKind::Responded);
        let answered_200 = AttemptLog {
            executed: true,
            answered: vec![200],
        };
        assert!(
            check(&[call], &book(TAG, 100, answered_200, 1))
                .false_claims
                .is_empty()
        );
    }

    #[test]
    fn a_call_not_declared_idempotent_may_be_executed_once() {
        let call = outcome(vec![
            record(0, ExecutionEvidence::SentNoResponse, None),
            record(1, ExecutionEvidence::Responded, Some(200)),
        ]);
        let log = AttemptLog {
            executed: true,
            answered: vec![200],
        };
        let mut twice = book(TAG, 100, log.clone(), 2);
        twice.attempts.insert(
            AttemptTag {
                call: 7,
                attempt: 1,
            },
            log,
        );
        let found = check(&[call], &twice);
        assert_eq!(found.false_claims.len(), 1);
        assert_eq!(found.false_claims[0].kind, ClaimKind::Duplicate);
    }
}
