//! The retry decision: may this call send its request again, and when?
//!
//! The decision has two independent inputs: what was **observed** about the
//! attempt (its [`Outcome`]: a failure's category and evidence, or an answered
//! status) and what the caller **declared** about the operation
//! ([`Idempotency`]). The HTTP method is not an input: [`RetryContext`] has no
//! method and no URL.
//!
//! The rules run in a fixed order. Each rule may only **stop** or **pass**;
//! only the end of the chain says **retry**, so a later rule can never
//! re-enable something an earlier rule forbade:
//!
//! 0. A successful answer (2xx) ends the call: there is nothing to retry.
//! 1. Absolute blockers, cheapest first: attempts exhausted, a one-shot body,
//!    a response byte already delivered, draining, a deadline too close.
//! 2. Permanent failure categories.
//! 3. Evidence: `NotSent`/`NotProcessed` pass whatever the idempotency;
//!    ambiguous evidence passes only when safely idempotent.
//! 4. Answered statuses: 429, 500, 502, 503, 504 pass only when safely
//!    idempotent (an ordinary answer is no proof of non-processing). Three
//!    statuses are such a proof by their RFCs and pass whatever the
//!    idempotency: 408 Request Timeout (RFC 9110 §15.5.9: the server did not
//!    receive a complete request), 421 Misdirected Request (RFC 9110
//!    §15.5.20: the client may retry "whether or not the original request
//!    had an idempotent method", on another connection, which the client
//!    asks the engine for) and 425 Too Early (RFC 8470 §5.2). Other
//!    statuses stop. A call whose idempotency key was sent reads two
//!    statuses as the key's replies
//!    (draft-ietf-httpapi-idempotency-key-header): 409 Conflict, a request
//!    with that key is still in progress, passes
//!    ([`RetryReason::KeyInProgress`]); 422 Unprocessable Content, the key
//!    was reused with another payload, stops ([`StopReason::KeyReused`]).
//!    Without a sent key they are ordinary statuses. The blockers of rule
//!    1, the delay rule and the budget still apply to all of them.
//! 5. Delay: a `Retry-After` is honoured exactly when it fits the deadline
//!    (never clipped by the maximum backoff), else the call stops; otherwise
//!    exponential backoff with jitter, capped by the maximum and the deadline.
//! 6. The retry budget, consulted last and spent only on "retry".

mod backoff;
mod budget;
mod policy;
mod retry_after;
mod table;

use std::fmt;
use std::time::{Duration, Instant};

use http::StatusCode;

pub use backoff::{Backoff, RandomSource, XorShiftRandom};
pub use budget::{
    DEFAULT_BUDGET_MIN_PER_SEC, DEFAULT_BUDGET_RATIO, DEFAULT_BUDGET_TTL, RetryBudget,
    RetryBudgetBackend,
};
#[allow(unused_imports)] // used by the client configuration
pub(crate) use policy::check_duration;
pub use policy::{
    BudgetConfig, DEFAULT_BASE_BACKOFF, DEFAULT_JITTER, DEFAULT_MAX_ATTEMPTS, DEFAULT_MAX_BACKOFF,
    DEFAULT_MIN_ATTEMPT_TIME, DEFAULT_RETRY_AFTER_CEILING, MAX_ATTEMPTS_LIMIT, MAX_CONFIG_DURATION,
    RetryPolicy, RetryPolicyBuilder,
};
pub use retry_after::RetryAfter;
pub use table::{RetryTable, TABLE_STATUSES, TableRow};

use crate::failure::{ExecutionEvidence, FailureCategory, TransportFailure};

/// What the caller declared about the operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Idempotency {
    /// The caller declared the operation idempotent.
    Declared,
    /// An idempotency key is registered and was sent (a head carrying it was
    /// fully written).
    KeySent,
    /// An idempotency key is registered but no attempt has sent it yet.
    KeyNotSent,
    /// Nothing declared.
    None,
}

impl Idempotency {
    /// All four values.
    pub const ALL: [Idempotency; 4] = [
        Idempotency::Declared,
        Idempotency::KeySent,
        Idempotency::KeyNotSent,
        Idempotency::None,
    ];

    /// Whether repeating the operation is safe: declared, or a key the server
    /// has actually received. A key never sent protects nothing.
    pub const fn safely_idempotent(self) -> bool {
        matches!(self, Idempotency::Declared | Idempotency::KeySent)
    }

    /// Stable name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Idempotency::Declared => "declared",
            Idempotency::KeySent => "key_sent",
            Idempotency::KeyNotSent => "key_not_sent",
            Idempotency::None => "none",
        }
    }
}

/// Whether the request body can be sent again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BodyReplay {
    /// Empty or in-memory: can be replayed.
    Replayable,
    /// Streamed: it can be sent once.
    OneShot,
}

/// Everything the decision knows about the call. No method, no URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryContext {
    /// Attempts made so far, the one being judged included (≥ 1).
    pub attempts_made: u32,
    /// Attempts allowed in total.
    pub attempts_allowed: u32,
    /// Whether the body can be sent again.
    pub body: BodyReplay,
    /// Whether any response byte was already delivered to the caller.
    pub response_delivered: bool,
    /// Whether the client is draining (no new retries).
    pub draining: bool,
    /// Time left before the call's deadline, if it has one.
    pub remaining: Option<Duration>,
    /// The minimum time an attempt needs.
    pub min_attempt_time: Duration,
    /// What the caller declared.
    pub idempotency: Idempotency,
}

/// How the judged attempt ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The attempt failed.
    Failed {
        /// What went wrong.
        category: FailureCategory,
        /// What it proves about execution.
        evidence: ExecutionEvidence,
    },
    /// The server answered with a status.
    Answered {
        /// The status.
        status: StatusCode,
        /// The `Retry-After` delay, already resolved against the wall clock.
        retry_after: Option<Duration>,
    },
}

impl Outcome {
    /// The outcome of a transport failure.
    pub fn failed(failure: &TransportFailure) -> Self {
        Outcome::Failed {
            category: failure.category(),
            evidence: failure.evidence(),
        }
    }
}

/// Why a call stops.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StopReason {
    /// The server answered with a success status.
    Succeeded,
    /// Rule 1: every allowed attempt was made.
    AttemptsExhausted,
    /// Rule 1: the body is one-shot and cannot be sent again.
    BodyNotReplayable,
    /// Rule 1: response bytes were already delivered to the caller.
    ResponseDelivered,
    /// Rule 1: the client is draining.
    Draining,
    /// Rule 1: the deadline leaves no more than the minimum attempt time.
    DeadlineTooShort,
    /// Rule 2: the failure category is permanent.
    PermanentFailure,
    /// Rule 3: the request may have been processed and the operation is not
    /// safely idempotent.
    NotIdempotent,
    /// Rule 4: the status is not retryable.
    StatusNotRetryable,
    /// Rule 4: a retryable status, but the operation is not safely idempotent.
    StatusNotIdempotent,
    /// Rule 5: the server's `Retry-After` does not fit the deadline.
    RetryAfterBeyondDeadline,
    /// Rule 5: without a deadline, the `Retry-After` exceeds the ceiling.
    RetryAfterBeyondCeiling,
    /// Rule 4: `422 Unprocessable Content` to a call whose idempotency key
    /// was sent: the key was reused with a different payload
    /// (draft-ietf-httpapi-idempotency-key-header §2.7). Never retried: the
    /// same key and payload would be refused again.
    KeyReused,
    /// Rule 6: the retry budget is spent.
    BudgetExhausted,
    /// The resilience pipeline refused the attempt locally (circuit open,
    /// rate limited, bulkhead full). Set by the client, never by the rules:
    /// the upstream never saw the request.
    LocalRejection,
}

impl StopReason {
    /// Every stop reason.
    pub const ALL: [StopReason; 15] = [
        StopReason::Succeeded,
        StopReason::AttemptsExhausted,
        StopReason::BodyNotReplayable,
        StopReason::ResponseDelivered,
        StopReason::Draining,
        StopReason::DeadlineTooShort,
        StopReason::PermanentFailure,
        StopReason::NotIdempotent,
        StopReason::StatusNotRetryable,
        StopReason::StatusNotIdempotent,
        StopReason::KeyReused,
        StopReason::RetryAfterBeyondDeadline,
        StopReason::RetryAfterBeyondCeiling,
        StopReason::BudgetExhausted,
        StopReason::LocalRejection,
    ];

    /// Stable name (`evident.decision.reason`).
    pub const fn as_str(self) -> &'static str {
        match self {
            StopReason::Succeeded => "succeeded",
            StopReason::AttemptsExhausted => "attempts_exhausted",
            StopReason::BodyNotReplayable => "body_not_replayable",
            StopReason::ResponseDelivered => "response_delivered",
            StopReason::Draining => "draining",
            StopReason::DeadlineTooShort => "deadline_too_short",
            StopReason::PermanentFailure => "permanent_failure",
            StopReason::NotIdempotent => "not_idempotent",
            StopReason::StatusNotRetryable => "status_not_retryable",
            StopReason::StatusNotIdempotent => "status_not_idempotent",
            StopReason::KeyReused => "idempotency_key_reused",
            StopReason::RetryAfterBeyondDeadline => "retry_after_beyond_deadline",
            StopReason::RetryAfterBeyondCeiling => "retry_after_beyond_ceiling",
            StopReason::BudgetExhausted => "budget_exhausted",
            StopReason::LocalRejection => "local_rejection",
        }
    }
}

/// Why a call retries.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RetryReason {
    /// The request was proven not sent.
    NotSent,
    /// The protocol proved the peer did not process it.
    NotProcessed,
    /// The outcome was ambiguous but the operation is safely idempotent.
    SafelyIdempotent,
    /// A retryable status for a safely idempotent operation.
    RetryableStatus,
    /// 408 Request Timeout: the server did not receive a complete request
    /// (RFC 9110 §15.5.9), so it cannot have processed it.
    RequestTimeout,
    /// 421 Misdirected Request: the server is not configured for this
    /// origin on this connection and did not process the request (RFC 9110
    /// §15.5.20). The next attempt uses a new connection.
    MisdirectedRequest,
    /// 425 Too Early: the server declined to process a request that might
    /// be replayed (RFC 8470 §5.2).
    TooEarly,
    /// `409 Conflict` to a call whose idempotency key was sent: a request
    /// with that key is still being processed
    /// (draft-ietf-httpapi-idempotency-key-header §2.7). The key makes the
    /// repeat safe; it waits for `Retry-After` or the backoff, within the
    /// deadline.
    KeyInProgress,
}

impl RetryReason {
    /// Every retry reason.
    pub const ALL: [RetryReason; 8] = [
        RetryReason::NotSent,
        RetryReason::NotProcessed,
        RetryReason::SafelyIdempotent,
        RetryReason::RetryableStatus,
        RetryReason::RequestTimeout,
        RetryReason::MisdirectedRequest,
        RetryReason::TooEarly,
        RetryReason::KeyInProgress,
    ];

    /// Stable name (`evident.decision.reason`).
    pub const fn as_str(self) -> &'static str {
        match self {
            RetryReason::NotSent => "not_sent",
            RetryReason::NotProcessed => "not_processed",
            RetryReason::SafelyIdempotent => "safely_idempotent",
            RetryReason::RetryableStatus => "retryable_status",
            RetryReason::RequestTimeout => "request_timeout",
            RetryReason::MisdirectedRequest => "misdirected_request",
            RetryReason::TooEarly => "too_early",
            RetryReason::KeyInProgress => "idempotency_key_in_progress",
        }
    }
}

/// Where a retry's delay came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DelaySource {
    /// The server's `Retry-After`, honoured exactly.
    RetryAfter,
    /// Exponential backoff with jitter.
    Backoff,
}

/// The verdict on one attempt, with its reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Send the request again after `after`.
    Retry {
        /// Why.
        reason: RetryReason,
        /// How long to wait first.
        after: Duration,
        /// Where the delay came from.
        delay: DelaySource,
    },
    /// Do not send it again.
    Stop(StopReason),
}

impl Decision {
    /// Whether the decision is to retry.
    pub const fn is_retry(&self) -> bool {
        matches!(self, Decision::Retry { .. })
    }

    /// The stop reason, if the decision stops.
    pub const fn stop_reason(&self) -> Option<StopReason> {
        match self {
            Decision::Stop(r) => Some(*r),
            Decision::Retry { .. } => None,
        }
    }

    /// `"retry"` or `"stop"` (`evident.decision`).
    pub const fn verb(&self) -> &'static str {
        match self {
            Decision::Retry { .. } => "retry",
            Decision::Stop(_) => "stop",
        }
    }

    /// The reason's stable name (`evident.decision.reason`).
    pub const fn reason_str(&self) -> &'static str {
        match self {
            Decision::Retry { reason, .. } => reason.as_str(),
            Decision::Stop(r) => r.as_str(),
        }
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Decision::Retry { reason, after, .. } => {
                write!(
                    f,
                    "retry({}) after {} ms",
                    reason.as_str(),
                    after.as_millis()
                )
            }
            Decision::Stop(r) => write!(f, "stop({})", r.as_str()),
        }
    }
}

/// The statuses worth repeating: those that prove the request was not
/// processed ([`status_proves_not_processed`]), for any operation, and 429,
/// 500, 502, 503, 504 for a safely idempotent one.
pub const fn is_retryable_status(status: StatusCode) -> bool {
    status_proves_not_processed(status).is_some()
        || matches!(status.as_u16(), 429 | 500 | 502 | 503 | 504)
}

/// The retry reason of a status whose RFC says the request was not
/// processed (408, 421, 425), or `None` for every other status.
///
/// ```
/// use evident_core::{RetryReason, status_proves_not_processed};
/// use http::StatusCode;
///
/// assert_eq!(
///     status_proves_not_processed(StatusCode::MISDIRECTED_REQUEST),
///     Some(RetryReason::MisdirectedRequest)
/// );
/// assert_eq!(status_proves_not_processed(StatusCode::SERVICE_UNAVAILABLE), None);
/// ```
pub const fn status_proves_not_processed(status: StatusCode) -> Option<RetryReason> {
    match status.as_u16() {
        408 => Some(RetryReason::RequestTimeout),
        421 => Some(RetryReason::MisdirectedRequest),
        425 => Some(RetryReason::TooEarly),
        _ => None,
    }
}

type Rule = Result<(), StopReason>;

impl RetryPolicy {
    /// Decides whether the attempt described by `outcome` may be repeated.
    ///
    /// `now` is used only by the retry budget.
    ///
    /// ```
    /// use std::time::{Duration, Instant};
    /// use evident_core::*;
    ///
    /// let policy = RetryPolicy::builder().jitter(0.0).build()?;
    /// let ctx = RetryContext {
    ///     attempts_made: 1,
    ///     attempts_allowed: 3,
    ///     body: BodyReplay::Replayable,
    ///     response_delivered: false,
    ///     draining: false,
    ///     remaining: None,
    ///     min_attempt_time: policy.min_attempt_time(),
    ///     idempotency: Idempotency::None,
    /// };
    /// // A refused connection is retried even when nothing is declared.
    /// let refused = Outcome::Failed {
    ///     category: FailureCategory::ConnectionRefused,
    ///     evidence: ExecutionEvidence::NotSent,
    /// };
    /// assert!(policy.decide(&ctx, &refused, Instant::now()).is_retry());
    /// // A timeout after the request left is not.
    /// let timeout = Outcome::Failed {
    ///     category: FailureCategory::Timeout,
    ///     evidence: ExecutionEvidence::SentNoResponse,
    /// };
    /// assert_eq!(
    ///     policy.decide(&ctx, &timeout, Instant::now()),
    ///     Decision::Stop(StopReason::NotIdempotent)
    /// );
    /// # Ok::<(), ConfigError>(())
    /// ```
    pub fn decide(&self, ctx: &RetryContext, outcome: &Outcome, now: Instant) -> Decision {
        match self.judge(ctx, outcome) {
            Ok((reason, retry_after)) => match self.delay(ctx, retry_after) {
                Ok((after, delay)) => {
                    // Rule 6: the budget, last, and spent only on "retry".
                    if let Some(budget) = &self.budget
                        && !budget.try_withdraw(now)
                    {
                        return Decision::Stop(StopReason::BudgetExhausted);
                    }
                    Decision::Retry {
                        reason,
                        after,
                        delay,
                    }
                }
                Err(stop) => Decision::Stop(stop),
            },
            Err(stop) => Decision::Stop(stop),
        }
    }

    /// Rules 0 to 4. On pass, the retry reason and any `Retry-After`.
    fn judge(
        &self,
        ctx: &RetryContext,
        outcome: &Outcome,
    ) -> Result<(RetryReason, Option<Duration>), StopReason> {
        if let Outcome::Answered { status, .. } = outcome
            && status.is_success()
        {
            return Err(StopReason::Succeeded);
        }
        blockers(ctx)?;
        match *outcome {
            Outcome::Failed { category, evidence } => {
                if category.is_permanent() {
                    return Err(StopReason::PermanentFailure);
                }
                let reason = evidence_rule(evidence, ctx.idempotency)?;
                Ok((reason, None))
            }
            Outcome::Answered {
                status,
                retry_after,
            } => {
                let reason = status_rule(status, ctx.idempotency)?;
                Ok((reason, retry_after))
            }
        }
    }

    /// Rule 5.
    fn delay(
        &self,
        ctx: &RetryContext,
        retry_after: Option<Duration>,
    ) -> Result<(Duration, DelaySource), StopReason> {
        // Time usable for waiting: what the deadline leaves after the next
        // attempt's minimum. Rule 1 made sure it is positive.
        let usable = ctx
            .remaining
            .map(|r| r.saturating_sub(ctx.min_attempt_time));
        if let Some(wait) = retry_after {
            return match usable {
                Some(usable) if wait < usable => Ok((wait, DelaySource::RetryAfter)),
                Some(_) => Err(StopReason::RetryAfterBeyondDeadline),
                None if wait <= self.retry_after_ceiling => Ok((wait, DelaySource::RetryAfter)),
                None => Err(StopReason::RetryAfterBeyondCeiling),
            };
        }
        let retry = ctx.attempts_made.saturating_sub(1);
        let mut after = self.backoff.delay(retry, self.random.next_unit());
        if let Some(usable) = usable {
            after = after.min(usable);
        }
        Ok((after, DelaySource::Backoff))
    }
}

/// Rule 1, cheapest first.
fn blockers(ctx: &RetryContext) -> Rule {
    if ctx.attempts_made >= ctx.attempts_allowed {
        return Err(StopReason::AttemptsExhausted);
    }
    if ctx.body == BodyReplay::OneShot {
        return Err(StopReason::BodyNotReplayable);
    }
    if ctx.response_delivered {
        return Err(StopReason::ResponseDelivered);
    }
    if ctx.draining {
        return Err(StopReason::Draining);
    }
    if let Some(remaining) = ctx.remaining
        && remaining <= ctx.min_attempt_time
    {
        return Err(StopReason::DeadlineTooShort);
    }
    Ok(())
}

/// Rule 3.
fn evidence_rule(
    evidence: ExecutionEvidence,
    idempotency: Idempotency,
) -> Result<RetryReason, StopReason> {
    match evidence {
        ExecutionEvidence::NotSent => Ok(RetryReason::NotSent),
        ExecutionEvidence::NotProcessed => Ok(RetryReason::NotProcessed),
        ExecutionEvidence::SentNoResponse | ExecutionEvidence::Responded => {
            if idempotency.safely_idempotent() {
                Ok(RetryReason::SafelyIdempotent)
            } else {
                Err(StopReason::NotIdempotent)
            }
        }
    }
}

/// The meaning of a status answered to a call whose idempotency key was
/// sent (draft-ietf-httpapi-idempotency-key-header §2.7): `409 Conflict`,
/// a request with that key is still being processed, retried;
/// `422 Unprocessable Content`, the key was reused with another payload,
/// never retried. `None` for every other status, and for every status when
/// the key was not sent: then 409 and 422 are ordinary answers.
///
/// ```
/// use evident_core::{Idempotency, RetryReason, StopReason, idempotency_key_reply};
/// use http::StatusCode;
///
/// assert_eq!(
///     idempotency_key_reply(StatusCode::CONFLICT, Idempotency::KeySent),
///     Some(Ok(RetryReason::KeyInProgress))
/// );
/// assert_eq!(
///     idempotency_key_reply(StatusCode::UNPROCESSABLE_ENTITY, Idempotency::KeySent),
///     Some(Err(StopReason::KeyReused))
/// );
/// assert_eq!(idempotency_key_reply(StatusCode::CONFLICT, Idempotency::Declared), None);
/// ```
pub const fn idempotency_key_reply(
    status: StatusCode,
    idempotency: Idempotency,
) -> Option<Result<RetryReason, StopReason>> {
    if !matches!(idempotency, Idempotency::KeySent) {
        return None;
    }
    match status.as_u16() {
        409 => Some(Ok(RetryReason::KeyInProgress)),
        422 => Some(Err(StopReason::KeyReused)),
        _ => None,
    }
}

/// Rule 4.
fn status_rule(status: StatusCode, idempotency: Idempotency) -> Result<RetryReason, StopReason> {
    if let Some(reason) = status_proves_not_processed(status) {
        return Ok(reason);
    }
    if let Some(meaning) = idempotency_key_reply(status, idempotency) {
        return meaning;
    }
    if !is_retryable_status(status) {
        return Err(StopReason::StatusNotRetryable);
    }
    if !idempotency.safely_idempotent() {
        return Err(StopReason::StatusNotIdempotent);
    }
    Ok(RetryReason::RetryableStatus)
}

#[cfg(test)]
mod tests;
