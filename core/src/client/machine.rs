//! The retry loop, written once as a state machine without I/O.
//!
//! Both clients drive the same [`Call`]: plan an attempt, run it (their
//! part: pipeline, engine, timer), hand the outcome back, and follow the
//! decision (wait, then the next attempt, or finish). Everything that makes
//! two clients decide identically lives here: the attempt count, the
//! deadline arithmetic, the idempotency key's "was it sent" tracking, the
//! decision, the record and its observation.

use std::time::{Duration, Instant};

use evident_resilience::{AttemptPermit, LocalRejection, Origin, Scheme};
use http::HeaderValue;
use http::header::HeaderName;

use super::config::{CallOptions, Declared, IDEMPOTENCY_KEY_HEADER, Shared};
use super::error::Error;
use crate::classify::classify;
use crate::decide::{BodyReplay, Decision, Idempotency, Outcome, RetryAfter, RetryContext};
use crate::engine::EngineFailure;
use crate::failure::{ExecutionEvidence, FailureCategory, TransportFailure};
use crate::observe::{AttemptRecord, CallInfo, RejectionKind, trace_attempt};
use crate::progress::ProgressSnapshot;

/// One attempt's plan.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AttemptPlan {
    pub(crate) resend_count: u32,
    /// How long the attempt may take.
    pub(crate) timeout: Duration,
    /// When the attempt must end.
    pub(crate) deadline: Instant,
}

/// How an attempt ended, as the machine needs to know it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ended<'a> {
    /// The attempt's progress when it ended.
    pub(crate) progress: &'a ProgressSnapshot,
    /// Whether the client is draining.
    pub(crate) draining: bool,
    /// The clock's time when it ended.
    pub(crate) now: Instant,
}

/// The state of one call.
pub(crate) struct Call {
    pub(crate) info: CallInfo,
    pub(crate) origin: Origin,
    idempotency: Idempotency,
    pub(crate) key: Option<HeaderValue>,
    body: BodyReplay,
    deadline: Option<Instant>,
    attempts_made: u32,
    records: Vec<AttemptRecord>,
    /// The last attempt's failure while a retry of it is pending.
    last_failure: Option<TransportFailure>,
}

/// The header name of the idempotency key.
pub(crate) fn key_header() -> HeaderName {
    HeaderName::from_static(IDEMPOTENCY_KEY_HEADER)
}

impl Call {
    /// Validates the request target and starts a call. Nothing is sent if
    /// this fails.
    pub(crate) fn start(
        shared: &Shared,
        engine: &'static str,
        parts: &http::request::Parts,
        options: &CallOptions,
        body: BodyReplay,
        now: Instant,
    ) -> Result<Call, Error> {
        let (method, uri) = (&parts.method, &parts.uri);
        let (deadline, declared) = (options.deadline, &options.declared);
        let scheme = match uri.scheme_str() {
            Some(s) if s.eq_ignore_ascii_case("http") => Scheme::Http,
            Some(s) if s.eq_ignore_ascii_case("https") => Scheme::Https,
            Some(_) => {
                return Err(Error::invalid_request(
                    "unsupported URI scheme (use http or https)",
                ));
            }
            None => {
                return Err(Error::invalid_request(
                    "the URI has no scheme (absolute URI needed)",
                ));
            }
        };
        let host = match uri.host() {
            Some(h) if !h.is_empty() => h,
            _ => return Err(Error::invalid_request("the URI has no host")),
        };
        let port = uri.port_u16().unwrap_or(scheme.default_port());
        if port == 0 {
            return Err(Error::invalid_request("port 0 cannot be connected to"));
        }
        let (idempotency, key) = match declared {
            Declared::Nothing => (Idempotency::None, None),
            Declared::Idempotent => (Idempotency::Declared, None),
            Declared::Key(k) => (Idempotency::KeyNotSent, Some(k.clone())),
            Declared::GeneratedKey => {
                let key = uuid::Uuid::new_v4().hyphenated().to_string();
                let key = HeaderValue::from_str(&key).expect("a UUID is a valid header value");
                (Idempotency::KeyNotSent, Some(key))
            }
        };
        let deadline = match deadline.or(shared.default_deadline) {
            Some(d) => {
                crate::decide::check_duration("deadline", d).map_err(|_| {
                    Error::invalid_request("the deadline must be between 0 and one day")
                })?;
                Some(now + d)
            }
            None => None,
        };
        if let Some(budget) = shared.policy.budget() {
            budget.deposit(now);
        }
        let host = host.trim_start_matches('[').trim_end_matches(']');
        Ok(Call {
            info: CallInfo {
                method: method.clone(),
                scheme: scheme.as_str(),
                host: host.to_owned(),
                port,
                engine,
            },
            origin: Origin::new(scheme, host, port),
            idempotency,
            key,
            body,
            deadline,
            attempts_made: 0,
            records: Vec::with_capacity(shared.policy.max_attempts() as usize),
            last_failure: None,
        })
    }

    /// How long the pipeline may keep the next attempt waiting for
    /// admission (rate-limiter and bulkhead waits together): what remains of
    /// the deadline less the minimum attempt time, so an admitted attempt
    /// still has time to run. Unbounded without a deadline (the pipeline's
    /// own configured waits still apply).
    pub(crate) fn admission_bound(&self, shared: &Shared, now: Instant) -> Duration {
        match self.deadline {
            Some(deadline) => deadline
                .saturating_duration_since(now)
                .saturating_sub(shared.policy.min_attempt_time()),
            None => Duration::MAX,
        }
    }

    /// Plans the next attempt, once the pipeline admitted it: its timeout
    /// and deadline count from now, after any admission wait.
    pub(crate) fn plan(&mut self, shared: &Shared, now: Instant) -> AttemptPlan {
        let resend_count = self.attempts_made;
        self.attempts_made += 1;
        let mut timeout = shared.attempt_timeout;
        if let Some(deadline) = self.deadline {
            timeout = timeout.min(deadline.saturating_duration_since(now));
        }
        AttemptPlan {
            resend_count,
            timeout,
            deadline: now + timeout,
        }
    }

    /// Judges an answered attempt and records it: `Some(delay)` to retry
    /// after `delay`, `None` when the answer ends the call.
    pub(crate) fn answered(
        &mut self,
        shared: &Shared,
        status: http::StatusCode,
        headers: &http::HeaderMap,
        ended: Ended<'_>,
        permit: Option<AttemptPermit>,
    ) -> Option<Duration> {
        self.last_failure = None;
        if let Some(permit) = permit {
            permit.record_status(status.as_u16());
        }
        let retry_after =
            RetryAfter::from_headers(headers).map(|r| r.delay_from(shared.wall.now()));
        let outcome = Outcome::Answered {
            status,
            retry_after,
        };
        let decision = self.decide(shared, &outcome, ended);
        self.record(
            shared,
            AttemptRecord::answered(self.attempts_made - 1, status.as_u16(), decision),
        );
        delay_of(decision)
    }

    /// Classifies a failed attempt from its progress, judges and records it:
    /// `Ok(delay)` to retry after `delay`, or the call's final error.
    pub(crate) fn failed(
        &mut self,
        shared: &Shared,
        engine_failure: EngineFailure,
        ended: Ended<'_>,
        permit: Option<AttemptPermit>,
    ) -> Result<Duration, Error> {
        let (signal, source) = engine_failure.into_parts();
        let mut failure = classify(signal, ended.progress);
        if let Some(source) = source {
            failure = failure.with_source(source);
        }
        if let Some(permit) = permit {
            // Caller cancellation, the caller's own failing request body,
            // protocol-proven refusals and our own response limit say
            // nothing about the upstream's health: counting them would open
            // the circuit on a healthy dependency.
            if failure.evidence() == ExecutionEvidence::NotProcessed
                || matches!(
                    failure.category(),
                    FailureCategory::Cancelled
                        | FailureCategory::RequestBody
                        | FailureCategory::ResponseTooLarge
                )
            {
                permit.record_ignored();
            } else {
                permit.record_failure();
            }
        }
        let decision = self.decide(shared, &Outcome::failed(&failure), ended);
        self.record(
            shared,
            AttemptRecord::failed(self.attempts_made - 1, &failure, decision),
        );
        match delay_of(decision) {
            Some(delay) => {
                self.last_failure = Some(failure);
                Ok(delay)
            }
            None => Err(Error::failed(failure, self.finish(shared))),
        }
    }

    /// Ends the call because the client was drained while it waited to
    /// retry or for admission: the attempt that would have come next is
    /// recorded as refused with `stop(draining)`, and the error keeps the
    /// last failure, if the last attempt failed.
    pub(crate) fn drained(&mut self, shared: &Shared) -> Error {
        self.record(shared, AttemptRecord::drained(self.attempts_made));
        let last = self.last_failure.take();
        Error::drained(last, self.finish(shared))
    }

    /// Records a local rejection of the next attempt (which ends the call).
    pub(crate) fn rejected(&mut self, shared: &Shared, rejection: &LocalRejection) {
        let kind = match rejection {
            LocalRejection::CircuitOpen { .. } => RejectionKind::CircuitOpen,
            LocalRejection::RateLimited { .. } => RejectionKind::RateLimited,
            _ => RejectionKind::BulkheadFull,
        };
        self.record(shared, AttemptRecord::rejected(self.attempts_made, kind));
    }

    /// Ends the call: tells the observer and hands over the records.
    pub(crate) fn finish(&mut self, shared: &Shared) -> Vec<AttemptRecord> {
        let records = std::mem::take(&mut self.records);
        if let Some(observer) = &shared.observer {
            observer.on_call_end(&self.info, &records);
        }
        records
    }

    fn decide(&mut self, shared: &Shared, outcome: &Outcome, ended: Ended<'_>) -> Decision {
        let Ended {
            progress,
            draining,
            now,
        } = ended;
        // A key counts as sent once a head carrying it was fully written.
        if self.idempotency == Idempotency::KeyNotSent && progress.head_written() {
            self.idempotency = Idempotency::KeySent;
        }
        let ctx = RetryContext {
            attempts_made: self.attempts_made,
            attempts_allowed: shared.policy.max_attempts(),
            body: self.body,
            response_delivered: false,
            draining,
            remaining: self.deadline.map(|d| d.saturating_duration_since(now)),
            min_attempt_time: shared.policy.min_attempt_time(),
            idempotency: self.idempotency,
        };
        shared.policy.decide(&ctx, outcome, now)
    }

    fn record(&mut self, shared: &Shared, record: AttemptRecord) {
        trace_attempt(&record);
        if let Some(observer) = &shared.observer {
            observer.on_attempt(&self.info, &record);
        }
        self.records.push(record);
    }
}

/// The delay of a retry decision; `None` for a stop.
fn delay_of(decision: Decision) -> Option<Duration> {
    match decision {
        Decision::Retry { after, .. } => Some(after),
        Decision::Stop(_) => None,
    }
}

/// The attempt's request head: the caller's, plus the idempotency key.
pub(crate) fn attempt_head(
    parts: &http::request::Parts,
    key: Option<&HeaderValue>,
) -> (http::Method, http::Uri, http::Version, http::HeaderMap) {
    let mut headers = parts.headers.clone();
    if let Some(key) = key {
        headers.insert(key_header(), key.clone());
    }
    (
        parts.method.clone(),
        parts.uri.clone(),
        parts.version,
        headers,
    )
}

/// Builds a request from an attempt head and a body.
pub(crate) fn build_request<B>(
    head: (http::Method, http::Uri, http::Version, http::HeaderMap),
    body: B,
) -> http::Request<B> {
    let (method, uri, version, headers) = head;
    let mut request = http::Request::new(body);
    *request.method_mut() = method;
    *request.uri_mut() = uri;
    *request.version_mut() = version;
    *request.headers_mut() = headers;
    request
}

/// A call whose response head was handed to the caller (streaming mode).
///
/// The call is not over yet: the body is still the call's, so a failure
/// while the caller reads it is classified, judged (the delivered response
/// blocks any retry), recorded and observed as part of the call, and the
/// observer hears `on_call_end` only once the body ended (read to its end,
/// failed, or dropped), after every record.
pub(crate) struct Delivered {
    call: Call,
    context: RetryContext,
    ended: bool,
}

impl Delivered {
    /// Hands the call over at a response head; returns the records so far
    /// (for the response) and what judges the body.
    pub(crate) fn hand_over(
        call: Call,
        shared: &Shared,
        now: Instant,
    ) -> (Vec<AttemptRecord>, Delivered) {
        let context = RetryContext {
            attempts_made: call.attempts_made,
            attempts_allowed: shared.policy.max_attempts(),
            body: call.body,
            response_delivered: true,
            draining: false,
            remaining: call.deadline.map(|d| d.saturating_duration_since(now)),
            min_attempt_time: shared.policy.min_attempt_time(),
            idempotency: call.idempotency,
        };
        let records = call.records.clone();
        (
            records,
            Delivered {
                call,
                context,
                ended: false,
            },
        )
    }

    /// The call's deadline, which bounds the body too.
    pub(crate) fn deadline(&self) -> Option<Instant> {
        self.call.deadline
    }

    /// The attempt whose body this is.
    pub(crate) fn resend_count(&self) -> u32 {
        self.call.attempts_made - 1
    }

    /// Classifies, judges, records and observes a failure while the caller
    /// reads the body, then ends the call: the caller gets the client's
    /// error with every record, the body failure's last.
    pub(crate) fn body_failed(
        &mut self,
        shared: &Shared,
        engine_failure: EngineFailure,
        progress: &ProgressSnapshot,
        now: Instant,
    ) -> Error {
        let (signal, source) = engine_failure.into_parts();
        let mut failure = classify(signal, progress);
        if let Some(source) = source {
            failure = failure.with_source(source);
        }
        let mut context = self.context;
        context.remaining = self.call.deadline.map(|d| d.saturating_duration_since(now));
        let decision = shared
            .policy
            .decide(&context, &Outcome::failed(&failure), now);
        let record = AttemptRecord::failed(self.resend_count(), &failure, decision);
        self.call.record(shared, record);
        self.ended = true;
        Error::failed(failure, self.call.finish(shared))
    }

    /// The body ended (read to its end, or dropped): the call ends, once.
    pub(crate) fn end(&mut self, shared: &Shared) {
        if !self.ended {
            self.ended = true;
            self.call.finish(shared);
        }
    }
}
