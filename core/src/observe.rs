//! Observation: one record per attempt, the same for every engine.
//!
//! Every attempt ends in an [`AttemptRecord`]: stage, category, evidence,
//! status, decision and its reason, and the delay before the next attempt.
//! The client emits it twice, as data to an [`Observer`] and as a `tracing`
//! event inside a per-attempt span, both using the OpenTelemetry HTTP client
//! names where they exist (`http.request.method`, `server.address`,
//! `server.port`, `url.scheme`, `http.request.resend_count`,
//! `http.response.status_code`, `error.type`) and `evident.*` for the rest.
//!
//! What is never observed: the query string, header values and bodies.
//! [`CallInfo`] holds only the method, scheme, host and port, so there is no
//! way to leak them through this module.
//!
//! "Identical observation" across engines means identical sequences of
//! records for the same fault; the conformance suite compares exactly these.

use std::fmt;
use std::time::Duration;

use crate::decide::{Decision, DelaySource, StopReason};
use crate::failure::{AttemptStage, ExecutionEvidence, FailureCategory, TransportFailure};
use crate::progress::ProgressSnapshot;

/// Name of the per-call `tracing` span.
pub const CALL_SPAN: &str = "evident.call";
/// Name of the per-attempt `tracing` span.
pub const ATTEMPT_SPAN: &str = "evident.attempt";

/// Why an attempt was refused before anything was sent.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RejectionKind {
    /// The origin's circuit is open.
    CircuitOpen,
    /// The origin's rate limit is exhausted.
    RateLimited,
    /// The origin's bulkhead is full.
    BulkheadFull,
    /// The client was drained while the call waited to retry.
    Draining,
}

impl RejectionKind {
    /// Stable name.
    pub const fn as_str(self) -> &'static str {
        match self {
            RejectionKind::CircuitOpen => "circuit_open",
            RejectionKind::RateLimited => "rate_limited",
            RejectionKind::BulkheadFull => "bulkhead_full",
            RejectionKind::Draining => "draining",
        }
    }
}

/// The measured facts behind an attempt's evidence, as the engine's
/// progress reported them. `None` where the engine gave no such fact.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EvidenceFacts {
    /// Whether the attempt ran on a pooled connection.
    pub connection_reused: Option<bool>,
    /// Request bytes the connection accepted for this attempt, only where
    /// the engine counts them exactly.
    pub bytes_written: Option<u64>,
    /// The HTTP/2 stream id, where known.
    pub stream_id: Option<u32>,
    /// Response body bytes the engine had handed over when the record was
    /// made ([`Progress::read`](crate::Progress::read)): the whole body of
    /// an answer the client read in full, none yet of one handed over at
    /// its head. `None` when no byte was counted (an empty body, or an
    /// engine that counts none).
    pub bytes_read: Option<u64>,
}

impl EvidenceFacts {
    /// The facts in an attempt's progress.
    pub fn from_progress(progress: &ProgressSnapshot) -> Self {
        EvidenceFacts {
            connection_reused: progress.connection_reused(),
            bytes_written: progress
                .writes_counted_exactly()
                .then(|| progress.bytes_written()),
            stream_id: progress.stream_id(),
            bytes_read: Some(progress.bytes_read()).filter(|&n| n > 0),
        }
    }
}

/// How one attempt ended and what was decided, when it ran and the facts
/// behind its evidence.
///
/// Two records are equal when they say the same about the attempt: stage,
/// category, evidence, status, rejection and decision. Its timing and its
/// facts are measurements of one run (two engines, or two runs, differ in
/// them by nature) and are not compared; read them from the fields.
#[derive(Debug, Clone, Copy)]
pub struct AttemptRecord {
    /// The attempt's index within its call: 0 for the first attempt
    /// (`http.request.resend_count`).
    pub attempt_index: u32,
    /// Where a failed attempt was (`evident.stage`).
    pub stage: Option<AttemptStage>,
    /// What failed (`error.type`).
    pub category: Option<FailureCategory>,
    /// What the attempt proves about execution (`evident.evidence`);
    /// `Responded` for an answered attempt.
    pub evidence: Option<ExecutionEvidence>,
    /// The answered status (`http.response.status_code`).
    pub status: Option<u16>,
    /// Set when the pipeline refused the attempt locally.
    pub rejection: Option<RejectionKind>,
    /// The decision (`evident.decision`, `evident.decision.reason`,
    /// `evident.backoff_ms`); its delay says whether it came from
    /// `Retry-After` or from backoff ([`Self::delay_source`]).
    pub decision: Decision,
    /// When the attempt started, from the start of the call (the client's
    /// clock).
    pub started: Duration,
    /// How long the attempt took, up to its record.
    pub duration: Duration,
    /// The facts behind the evidence.
    pub facts: EvidenceFacts,
}

impl PartialEq for AttemptRecord {
    fn eq(&self, other: &Self) -> bool {
        // Timing and facts are measurements, not what the record says
        // (see the type's docs).
        (
            self.attempt_index,
            self.stage,
            self.category,
            self.evidence,
            self.status,
            self.rejection,
            self.decision,
        ) == (
            other.attempt_index,
            other.stage,
            other.category,
            other.evidence,
            other.status,
            other.rejection,
            other.decision,
        )
    }
}

impl Eq for AttemptRecord {}

impl AttemptRecord {
    /// The record of a failed attempt.
    pub fn failed(attempt_index: u32, failure: &TransportFailure, decision: Decision) -> Self {
        AttemptRecord {
            attempt_index,
            stage: Some(failure.stage()),
            category: Some(failure.category()),
            evidence: Some(failure.evidence()),
            status: None,
            rejection: None,
            decision,
            started: Duration::ZERO,
            duration: Duration::ZERO,
            facts: EvidenceFacts::default(),
        }
    }

    /// The record of an answered attempt.
    pub fn answered(attempt_index: u32, status: u16, decision: Decision) -> Self {
        AttemptRecord {
            attempt_index,
            stage: None,
            category: None,
            evidence: Some(ExecutionEvidence::Responded),
            status: Some(status),
            rejection: None,
            decision,
            started: Duration::ZERO,
            duration: Duration::ZERO,
            facts: EvidenceFacts::default(),
        }
    }

    /// The record of an attempt the pipeline refused before sending.
    pub fn rejected(attempt_index: u32, kind: RejectionKind) -> Self {
        AttemptRecord {
            attempt_index,
            stage: None,
            category: None,
            evidence: None,
            status: None,
            rejection: Some(kind),
            decision: Decision::Stop(StopReason::LocalRejection),
            started: Duration::ZERO,
            duration: Duration::ZERO,
            facts: EvidenceFacts::default(),
        }
    }

    /// The same record, with when the attempt started (from the call's
    /// start) and how long it took.
    pub fn with_timing(mut self, started: Duration, duration: Duration) -> Self {
        self.started = started;
        self.duration = duration;
        self
    }

    /// The same record, with the facts behind its evidence.
    pub fn with_facts(mut self, facts: EvidenceFacts) -> Self {
        self.facts = facts;
        self
    }

    /// The record of the attempt a drained client did not start: the call
    /// was waiting to retry when [`drain`](crate::client::Client::drain) was
    /// called.
    pub fn drained(attempt_index: u32) -> Self {
        AttemptRecord {
            attempt_index,
            stage: None,
            category: None,
            evidence: None,
            status: None,
            rejection: Some(RejectionKind::Draining),
            decision: Decision::Stop(StopReason::Draining),
            started: Duration::ZERO,
            duration: Duration::ZERO,
            facts: EvidenceFacts::default(),
        }
    }

    /// The delay before the next attempt, when the decision retries.
    pub fn backoff(&self) -> Option<Duration> {
        match self.decision {
            Decision::Retry { after, .. } => Some(after),
            Decision::Stop(_) => None,
        }
    }

    /// Whether the delay came from the server's `Retry-After`.
    pub fn delay_source(&self) -> Option<DelaySource> {
        match self.decision {
            Decision::Retry { delay, .. } => Some(delay),
            Decision::Stop(_) => None,
        }
    }
}

impl fmt::Display for AttemptRecord {
    /// A compact one-line form used in test failures and the parity matrix:
    /// `#0 await_head/timeout/sent_no_response -> stop(not_idempotent)`.
    /// The decision part is the [`Decision`]'s own `Display` without a
    /// retry's delay (`retry(not_sent)` for `retry(not_sent) after 100 ms`):
    /// delays carry jitter, and this form must be the same for the same
    /// fault on every engine.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{} ", self.attempt_index)?;
        if let Some(kind) = self.rejection {
            write!(f, "rejected:{}", kind.as_str())?;
        } else if let Some(status) = self.status {
            write!(f, "status:{status}")?;
        } else {
            let s = self.stage.map_or("-", AttemptStage::as_str);
            let c = self.category.map_or("-", FailureCategory::as_str);
            let e = self.evidence.map_or("-", ExecutionEvidence::as_str);
            write!(f, "{s}/{c}/{e}")?;
        }
        write!(
            f,
            " -> {}({})",
            self.decision.verb(),
            self.decision.reason_str()
        )
    }
}

/// The next call id; ids start at 1.
static NEXT_CALL_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// A fresh call id.
pub(crate) fn next_call_id() -> u64 {
    NEXT_CALL_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// What is observable about a call: never the query, headers or body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallInfo {
    /// Tells concurrent calls apart (`evident.call_id`): unique within the
    /// process, increasing in the order calls start, from 1. Every
    /// [`Observer`] callback, the call span, every attempt span and every
    /// attempt event carry it.
    pub call_id: u64,
    /// The request method (`http.request.method`).
    pub method: http::Method,
    /// `http` or `https` (`url.scheme`).
    pub scheme: &'static str,
    /// The host (`server.address`).
    pub host: String,
    /// The port (`server.port`).
    pub port: u16,
    /// The engine that ran the call.
    pub engine: &'static str,
}

/// Receives the same attempt records the client logs, as data.
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use evident_core::observe::{AttemptRecord, CallInfo, Observer};
///
/// #[derive(Default)]
/// struct Collect(Mutex<Vec<AttemptRecord>>);
///
/// impl Observer for Collect {
///     fn on_attempt(&self, _call: &CallInfo, record: &AttemptRecord) {
///         self.0.lock().unwrap().push(*record);
///     }
/// }
/// let observer = Arc::new(Collect::default());
/// # let _ = observer;
/// ```
pub trait Observer: Send + Sync + 'static {
    /// One attempt ended and was decided.
    fn on_attempt(&self, call: &CallInfo, record: &AttemptRecord);

    /// The call ended; `records` holds every attempt's record, one per
    /// attempt. No record of the call follows it: in streaming mode the
    /// call ends when the handed-over body ends (read to its end, failed or
    /// dropped), after the revision of a body failure.
    fn on_call_end(&self, call: &CallInfo, records: &[AttemptRecord]) {
        let _ = (call, records);
    }

    /// A streamed attempt's record was revised: its response was handed
    /// over at the head (`delivered`, already seen by
    /// [`on_attempt`](Self::on_attempt)), then its body failed. `record`,
    /// the body failure judged as any failure, replaces `delivered` in the
    /// call's records, so one attempt keeps one record. An observer that
    /// counts attempts counts none here.
    fn on_attempt_revised(
        &self,
        call: &CallInfo,
        delivered: &AttemptRecord,
        record: &AttemptRecord,
    ) {
        let _ = (call, delivered, record);
    }

    /// A fleet sharing its limits through a store (`evident-redis`)
    /// switched between shared and local limits; `fleet` is its name (the
    /// key prefix it was configured with). Called once per switch, from the
    /// fleet's own thread and holding none of its locks; keep it quick, as
    /// the fleet's Redis traffic waits meanwhile. The default does nothing,
    /// so an observer of attempts needs no change.
    ///
    /// ```
    /// use std::sync::Mutex;
    /// use evident_core::observe::{
    ///     AttemptRecord, CallInfo, FallbackReason, Observer, SharedStateEvent,
    /// };
    ///
    /// #[derive(Default)]
    /// struct Switches(Mutex<Vec<SharedStateEvent>>);
    ///
    /// impl Observer for Switches {
    ///     fn on_attempt(&self, _: &CallInfo, _: &AttemptRecord) {}
    ///     fn on_shared_state(&self, _fleet: &str, event: &SharedStateEvent) {
    ///         self.0.lock().unwrap().push(*event);
    ///     }
    /// }
    /// let switches = Switches::default();
    /// switches.on_shared_state(
    ///     "payments",
    ///     &SharedStateEvent::FellBack { reason: FallbackReason::Deadline },
    /// );
    /// assert_eq!(switches.0.lock().unwrap()[0].to_string(), "fell_back(deadline)");
    /// ```
    fn on_shared_state(&self, fleet: &str, event: &SharedStateEvent) {
        let _ = (fleet, event);
    }
}

/// Why a fleet stopped sharing its limits through its shared store (Redis)
/// and went on under local limits. Names only the cause, never an address,
/// a credential or a server's message.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FallbackReason {
    /// An operation missed its deadline (the store was slow or paused).
    Deadline,
    /// An operation failed: the connection was lost or refused, or the
    /// store answered with an error.
    Error,
    /// The first connection at start-up failed (unreachable, refused or
    /// wrong credentials): the fleet started with local limits.
    UnavailableAtStart,
}

impl FallbackReason {
    /// Stable name (`evident.fleet.fallback.reason`).
    pub const fn as_str(self) -> &'static str {
        match self {
            FallbackReason::Deadline => "deadline",
            FallbackReason::Error => "error",
            FallbackReason::UnavailableAtStart => "unavailable_at_start",
        }
    }
}

impl fmt::Display for FallbackReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A fleet's limits switched between shared (through its store) and local.
///
/// A fleet reports each switch exactly once, in the order they happened:
/// first [`Joined`](Self::Joined) or
/// [`FellBack`](Self::FellBack) with
/// [`UnavailableAtStart`](FallbackReason::UnavailableAtStart), then
/// alternately `FellBack` and [`SharedAgain`](Self::SharedAgain).
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SharedStateEvent {
    /// The first connection at start-up succeeded: the fleet shares.
    Joined,
    /// The fleet went on under local limits, for this reason; it
    /// reconnects in the background.
    FellBack {
        /// Why.
        reason: FallbackReason,
    },
    /// The fleet shares again after a fallback.
    SharedAgain,
}

impl SharedStateEvent {
    /// Whether the fleet shares its limits after this event.
    pub const fn is_shared(self) -> bool {
        !matches!(self, SharedStateEvent::FellBack { .. })
    }

    /// Stable name: `joined`, `fell_back` or `shared_again`.
    pub const fn as_str(self) -> &'static str {
        match self {
            SharedStateEvent::Joined => "joined",
            SharedStateEvent::FellBack { .. } => "fell_back",
            SharedStateEvent::SharedAgain => "shared_again",
        }
    }
}

impl fmt::Display for SharedStateEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SharedStateEvent::FellBack { reason } => write!(f, "fell_back({reason})"),
            other => f.write_str(other.as_str()),
        }
    }
}

/// Emits an attempt's record as a `tracing` event and records its fields on
/// the current (attempt) span, so span-based exporters see them as
/// attributes.
pub(crate) fn trace_attempt(call: &CallInfo, record: &AttemptRecord) {
    // No subscriber anywhere (global or scoped): nothing below would be
    // seen, and finding the current span is most of its cost.
    if !tracing::dispatcher::has_been_set() {
        return;
    }
    let span = tracing::Span::current();
    span.record("evident.call_id", call.call_id);
    if let Some(status) = record.status {
        span.record("http.response.status_code", status);
    }
    if let Some(category) = record.category {
        span.record("error.type", category.as_str());
    }
    if let Some(stage) = record.stage {
        span.record("evident.stage", stage.as_str());
    }
    if let Some(evidence) = record.evidence {
        span.record("evident.evidence", evidence.as_str());
    }
    span.record("evident.decision", record.decision.verb());
    span.record("evident.decision.reason", record.decision.reason_str());
    if let Some(backoff) = record.backoff() {
        span.record("evident.backoff_ms", backoff.as_millis() as u64);
    }
    tracing::event!(
        target: "evident",
        tracing::Level::INFO,
        evident.call_id = call.call_id,
        http.request.resend_count = record.attempt_index,
        http.response.status_code = record.status,
        error.type = record.category.map(FailureCategory::as_str),
        evident.stage = record.stage.map(AttemptStage::as_str),
        evident.evidence = record.evidence.map(ExecutionEvidence::as_str),
        evident.rejection = record.rejection.map(RejectionKind::as_str),
        evident.decision = record.decision.verb(),
        evident.decision.reason = record.decision.reason_str(),
        evident.backoff_ms = record.backoff().map(|d| d.as_millis() as u64),
        "attempt ended"
    );
}

/// The per-call span, with the OpenTelemetry HTTP client attributes; `host`
/// is the call's (`call.host` is filled only for an observer).
pub(crate) fn call_span(call: &CallInfo, host: &str) -> tracing::Span {
    tracing::info_span!(
        target: "evident",
        "evident.call",
        evident.call_id = call.call_id,
        http.request.method = call.method.as_str(),
        server.address = host,
        server.port = call.port,
        url.scheme = call.scheme,
        evident.engine = call.engine,
    )
}

/// The per-attempt span.
pub(crate) fn attempt_span(attempt_index: u32) -> tracing::Span {
    tracing::info_span!(
        target: "evident",
        "evident.attempt",
        // Recorded when the attempt ends (the call span holds it from the
        // start).
        evident.call_id = tracing::field::Empty,
        http.request.resend_count = attempt_index,
        http.response.status_code = tracing::field::Empty,
        error.type = tracing::field::Empty,
        evident.stage = tracing::field::Empty,
        evident.evidence = tracing::field::Empty,
        evident.decision = tracing::field::Empty,
        evident.decision.reason = tracing::field::Empty,
        evident.backoff_ms = tracing::field::Empty,
    )
}
