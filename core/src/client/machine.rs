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

use super::config::{
    CallOptions, Declared, IDEMPOTENCY_KEY_HEADER, MAX_RESPONSE_BYTES_LIMIT, Shared,
};
use super::error::Error;
use crate::classify::classify;
use crate::decide::{
    BodyReplay, Decision, Idempotency, MAX_ATTEMPTS_LIMIT, Outcome, RetryAfter, RetryContext,
    RetryPolicy, check_duration,
};
use crate::engine::{AttemptContext, EngineFailure};
use crate::failure::{ExecutionEvidence, FailureCategory, TransportFailure};
use crate::observe::{
    AttemptRecord, CallInfo, EvidenceFacts, RejectionKind, call_span, next_call_id, trace_attempt,
};
use crate::progress::ProgressSnapshot;

/// One attempt's plan.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AttemptPlan {
    pub(crate) attempt_index: u32,
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
    pub(crate) key: Option<Key>,
    body: BodyReplay,
    deadline: Option<Instant>,
    attempts_made: u32,
    records: Records,
    /// The call's own retry policy, when its options replaced the client's.
    policy: Option<std::sync::Arc<RetryPolicy>>,
    attempts_allowed: u32,
    attempt_timeout: Duration,
    /// The largest response body this call reads whole.
    pub(crate) max_response_bytes: usize,
    /// When the call started, and when its current attempt started.
    started: Instant,
    attempt_started: Instant,
    /// The last attempt's failure while a retry of it is pending.
    last_failure: Option<TransportFailure>,
}

/// A call's records, in order. Most calls make one attempt: its record is
/// kept inline, and only a retry allocates.
pub(crate) type Records = smallvec::SmallVec<[AttemptRecord; 1]>;

/// The header name of the idempotency key, made once (cloning it copies
/// nothing).
static KEY_HEADER: HeaderName = HeaderName::from_static(IDEMPOTENCY_KEY_HEADER);

/// The header name of the idempotency key.
pub(crate) fn key_header() -> HeaderName {
    KEY_HEADER.clone()
}

/// A call's idempotency key.
pub(crate) enum Key {
    /// The caller's.
    Given(HeaderValue),
    /// Generated for the call: a UUID in its hyphenated lower-case form.
    /// Each attempt's header value is made from it: one allocation per
    /// attempt, where a value shared by every attempt costs two for the
    /// first (its bytes, then their sharing on the first clone).
    Generated([u8; uuid::fmt::Hyphenated::LENGTH]),
}

impl Key {
    /// The header value an attempt carries.
    fn value(&self) -> HeaderValue {
        match self {
            Key::Given(value) => value.clone(),
            Key::Generated(text) => {
                HeaderValue::from_bytes(text).expect("a UUID is a valid header value")
            }
        }
    }
}

impl Call {
    /// Validates the request target and starts a call and its span. Nothing
    /// is sent if this fails.
    // Inlined into each client's loop, so that the call is made where it
    // stays, not made and then moved there (hundreds of bytes per call).
    #[inline(always)]
    pub(crate) fn start(
        shared: &Shared,
        engine: &'static str,
        parts: &http::request::Parts,
        options: &CallOptions,
        body: BodyReplay,
        now: Instant,
    ) -> Result<(Call, tracing::Span), Error> {
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
        let authority = uri.authority().map_or("", |a| a.as_str());
        let (host, port, origin) = target_of(scheme, authority)?;
        let (idempotency, key) = match declared {
            Declared::Nothing => (Idempotency::None, None),
            Declared::Idempotent => (Idempotency::Declared, None),
            Declared::Key(k) => (Idempotency::KeyNotSent, Some(Key::Given(k.clone()))),
            Declared::GeneratedKey => {
                let mut text = [0; uuid::fmt::Hyphenated::LENGTH];
                uuid::Uuid::new_v4().hyphenated().encode_lower(&mut text);
                (Idempotency::KeyNotSent, Some(Key::Generated(text)))
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
        let attempt_timeout = match options.attempt_timeout {
            Some(t) => check_duration("attempt_timeout", t)
                .map(|()| t)
                .map_err(|_| {
                    Error::invalid_request("the attempt timeout must be between 0 and one day")
                })?,
            None => shared.attempt_timeout,
        };
        let max_response_bytes = match options.max_response_bytes {
            Some(0) => return Err(Error::invalid_request("max_response_bytes must not be 0")),
            Some(n) if n > MAX_RESPONSE_BYTES_LIMIT => {
                return Err(Error::invalid_request(
                    "max_response_bytes exceeds MAX_RESPONSE_BYTES_LIMIT",
                ));
            }
            Some(n) => n,
            None => shared.max_response_bytes,
        };
        let policy = options.policy.clone();
        let attempts_allowed = match options.max_attempts {
            Some(n) if n == 0 || n > MAX_ATTEMPTS_LIMIT => {
                return Err(Error::invalid_request(
                    "max_attempts must be between 1 and MAX_ATTEMPTS_LIMIT",
                ));
            }
            Some(n) => n,
            None => policy.as_deref().unwrap_or(&shared.policy).max_attempts(),
        };
        if let Some(budget) = policy.as_deref().unwrap_or(&shared.policy).budget() {
            budget.deposit(now);
        }
        let info = CallInfo {
            call_id: next_call_id(),
            method: method.clone(),
            scheme: scheme.as_str(),
            // Only an observer reads the host from here (the call span takes
            // it below): without one, a call copies no string.
            host: match shared.observer {
                Some(_) => host.to_owned(),
                None => String::new(),
            },
            port,
            engine,
        };
        let span = call_span(&info, host);
        let call = Call {
            info,
            origin,
            idempotency,
            key,
            body,
            deadline,
            attempts_made: 0,
            records: Records::new(),
            last_failure: None,
            policy,
            attempts_allowed,
            attempt_timeout,
            max_response_bytes,
            started: now,
            attempt_started: now,
        };
        Ok((call, span))
    }

    /// How long the pipeline may keep the next attempt waiting for
    /// admission (rate-limiter and bulkhead waits together): what remains of
    /// the deadline less the minimum attempt time, so an admitted attempt
    /// still has time to run. Unbounded without a deadline (the pipeline's
    /// own configured waits still apply).
    pub(crate) fn admission_bound(&self, shared: &Shared, now: Instant) -> Duration {
        self.admission_bound_with(shared, || now)
    }

    /// [`Self::admission_bound`], reading the time only if the call has a
    /// deadline.
    pub(crate) fn admission_bound_with(
        &self,
        shared: &Shared,
        now: impl FnOnce() -> Instant,
    ) -> Duration {
        match self.deadline {
            Some(deadline) => deadline
                .saturating_duration_since(now())
                .saturating_sub(self.policy(shared).min_attempt_time()),
            None => Duration::MAX,
        }
    }

    /// Whether the server receiving a request of this call twice does no
    /// harm: declared idempotent, or every attempt's head carries its key.
    pub(crate) fn repeat_is_harmless(&self) -> bool {
        self.idempotency == Idempotency::Declared || self.key.is_some()
    }

    /// The context the attempt `plan` runs with: its progress, deadline and
    /// index, this call's origin and whether a repeat of it is harmless.
    #[inline]
    pub(crate) fn attempt_context(
        &self,
        plan: &AttemptPlan,
        progress: &crate::progress::Progress,
        fresh_connection: bool,
    ) -> AttemptContext {
        AttemptContext::new(
            progress.clone(),
            Some(plan.deadline),
            plan.attempt_index,
            fresh_connection,
        )
        .with_origin(self.origin.clone())
        .with_repeat_is_harmless(self.repeat_is_harmless())
    }

    /// Plans the next attempt, once the pipeline admitted it: its timeout
    /// and deadline count from now, after any admission wait.
    pub(crate) fn plan(&mut self, _shared: &Shared, now: Instant) -> AttemptPlan {
        let attempt_index = self.attempts_made;
        self.attempts_made += 1;
        self.attempt_started = now;
        let mut timeout = self.attempt_timeout;
        if let Some(deadline) = self.deadline {
            timeout = timeout.min(deadline.saturating_duration_since(now));
        }
        AttemptPlan {
            attempt_index,
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
        let record = AttemptRecord::answered(self.attempts_made - 1, status.as_u16(), decision);
        self.record(shared, self.measured(record, ended));
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
        let record = AttemptRecord::failed(self.attempts_made - 1, &failure, decision);
        self.record(shared, self.measured(record, ended));
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
    pub(crate) fn drained(&mut self, shared: &Shared, now: Instant) -> Error {
        // Never started: timed at the moment the drain ended the call.
        let started = now.saturating_duration_since(self.started);
        let record =
            AttemptRecord::drained(self.attempts_made).with_timing(started, Duration::ZERO);
        self.record(shared, record);
        let last = self.last_failure.take();
        Error::drained(last, self.finish(shared))
    }

    /// Records a local rejection of the next attempt (which ends the call).
    pub(crate) fn rejected(&mut self, shared: &Shared, rejection: &LocalRejection, now: Instant) {
        let kind = match rejection {
            LocalRejection::CircuitOpen { .. } => RejectionKind::CircuitOpen,
            LocalRejection::RateLimited { .. } => RejectionKind::RateLimited,
            _ => RejectionKind::BulkheadFull,
        };
        // Refused before any I/O, when admission failed: no time of its own.
        let started = now.saturating_duration_since(self.started);
        let record =
            AttemptRecord::rejected(self.attempts_made, kind).with_timing(started, Duration::ZERO);
        self.record(shared, record);
    }

    /// Ends the call: tells the observer and hands over the records.
    /// Ends the call with a whole answer: the call's records go on the
    /// response, and its progress record is kept for the thread's next
    /// call.
    pub(crate) fn finish_full<B>(
        &mut self,
        shared: &Shared,
        response: &mut http::Response<B>,
        progress: crate::progress::Progress,
    ) {
        let attempts = self.finish(shared);
        response
            .extensions_mut()
            .insert(super::CallReport { attempts });
        super::keep_spare_progress(progress);
    }

    pub(crate) fn finish(&mut self, shared: &Shared) -> Records {
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
            attempts_allowed: self.attempts_allowed,
            body: self.body,
            response_delivered: false,
            draining,
            remaining: self.deadline.map(|d| d.saturating_duration_since(now)),
            min_attempt_time: self.policy(shared).min_attempt_time(),
            idempotency: self.idempotency,
        };
        self.policy(shared).decide(&ctx, outcome, now)
    }

    /// `record` with the attempt's timing and the facts of its progress.
    fn measured(&self, record: AttemptRecord, ended: Ended<'_>) -> AttemptRecord {
        // A first attempt admitted at once starts when the call does.
        let started = match self.attempt_started == self.started {
            true => Duration::ZERO,
            false => self.attempt_started.saturating_duration_since(self.started),
        };
        record
            .with_timing(
                started,
                ended.now.saturating_duration_since(self.attempt_started),
            )
            .with_facts(EvidenceFacts::from_progress(ended.progress))
    }

    /// The policy this call is judged by: its own, or the client's.
    fn policy<'a>(&'a self, shared: &'a Shared) -> &'a RetryPolicy {
        self.policy.as_deref().unwrap_or(&shared.policy)
    }

    fn record(&mut self, shared: &Shared, record: AttemptRecord) {
        trace_attempt(&self.info, &record);
        if let Some(observer) = &shared.observer {
            observer.on_attempt(&self.info, &record);
        }
        if self.records.len() == self.records.inline_size() {
            // A retry: room for the rest at once.
            self.records.reserve_exact(self.attempts_allowed as usize);
        }
        self.records.push(record);
    }

    /// Replaces the record of the attempt whose response was delivered
    /// (the last one) with `record`: one attempt, one record.
    fn revise_delivered(&mut self, shared: &Shared, record: AttemptRecord) {
        let Some(last) = self
            .records
            .last_mut()
            .filter(|last| last.attempt_index == record.attempt_index)
        else {
            // A delivered attempt always has its record; should it not,
            // the failure is still recorded, never lost.
            self.record(shared, record);
            return;
        };
        trace_attempt(&self.info, &record);
        let delivered = std::mem::replace(last, record);
        if let Some(observer) = &shared.observer {
            observer.on_attempt_revised(&self.info, &delivered, &record);
        }
    }
}

/// The host (an IPv6 literal keeps its brackets) and port of a parsed URI
/// authority, as `Uri::host` and `Uri::port_u16` give them, in one pass over
/// its bytes: those two search the string several times, a measurable part
/// of a call's cost.
fn host_and_port(authority: &str) -> (&str, Option<u16>) {
    let bytes = authority.as_bytes();
    // Past any user information (`user:pass@`).
    let start = bytes
        .iter()
        .rposition(|&b| b == b'@')
        .map_or(0, |at| at + 1);
    let rest = &bytes[start..];
    let host_end = if rest.first() == Some(&b'[') {
        // The parser checked the brackets; an unclosed one cannot get here.
        rest.iter()
            .position(|&b| b == b']')
            .map_or(rest.len(), |i| i + 1)
    } else {
        rest.iter().position(|&b| b == b':').unwrap_or(rest.len())
    };
    let host = &authority[start..start + host_end];
    // Like `Uri::port_u16`: the digits after the last colon, if they are
    // a port number.
    let port = match bytes.iter().rposition(|&b| b == b':') {
        Some(colon) => parse_port(&bytes[colon + 1..]),
        None => None,
    };
    (host, port)
}

/// `str::parse::<u16>` for a port's bytes (an optional `+`, then decimal
/// digits, leading zeros allowed), without its generic machinery.
fn parse_port(text: &[u8]) -> Option<u16> {
    let digits = text.strip_prefix(b"+").unwrap_or(text);
    if digits.is_empty() {
        return None;
    }
    let mut port: u32 = 0;
    for &b in digits {
        if !b.is_ascii_digit() {
            return None;
        }
        port = port * 10 + u32::from(b - b'0');
        if port > u32::from(u16::MAX) {
            return None;
        }
    }
    u16::try_from(port).ok()
}

/// Where a call goes: its URI's scheme and authority, and what they give.
struct Target {
    scheme: Scheme,
    authority: Box<str>,
    /// The host, without an IPv6 literal's brackets, within `authority`.
    host: std::ops::Range<usize>,
    port: u16,
    origin: Origin,
}

thread_local! {
    /// The target of this thread's last call. Calls mostly go where the
    /// last one went: an equal authority then costs one comparison, not a
    /// parse, and its origin is shared, not made again.
    static LAST_TARGET: std::cell::RefCell<Option<Target>> =
        const { std::cell::RefCell::new(None) };
}

/// Where in `authority` its host is (without an IPv6 literal's brackets),
/// and the port, the scheme's by default; an error if nothing can be sent
/// there.
fn parse_target(scheme: Scheme, authority: &str) -> Result<(std::ops::Range<usize>, u16), Error> {
    let (host, port) = match host_and_port(authority) {
        (host, port) if !host.is_empty() => (host, port),
        _ => return Err(Error::invalid_request("the URI has no host")),
    };
    let port = port.unwrap_or(scheme.default_port());
    if port == 0 {
        return Err(Error::invalid_request("port 0 cannot be connected to"));
    }
    // A part of `authority`, as `host_and_port` found it: its place there.
    let start = host.as_ptr() as usize - authority.as_ptr() as usize;
    let start = start + usize::from(host.starts_with('['));
    let end = start + host.trim_start_matches('[').trim_end_matches(']').len();
    Ok((start..end, port))
}

/// The host (without brackets), port and origin of `scheme://authority`,
/// or why nothing can be sent there.
fn target_of(scheme: Scheme, authority: &str) -> Result<(&str, u16, Origin), Error> {
    let cached = LAST_TARGET.try_with(|last| {
        let last = last.try_borrow().ok()?;
        let last = last.as_ref()?;
        (last.scheme == scheme && *last.authority == *authority)
            .then(|| (last.host.clone(), last.port, last.origin.clone()))
    });
    if let Ok(Some((host, port, origin))) = cached {
        return Ok((&authority[host], port, origin));
    }
    let (range, port) = parse_target(scheme, authority)?;
    let host = &authority[range.clone()];
    let origin = LAST_TARGET
        .try_with(|last| {
            let mut last = last.try_borrow_mut().ok()?;
            // The same origin written otherwise (the host's case, user
            // information): `Origin::new` lower-cases the host, so an equal
            // host, ignoring ASCII case, makes an equal origin.
            let origin = match &*last {
                Some(t)
                    if t.origin.port() == port
                        && t.origin.scheme() == scheme
                        && t.origin.host().eq_ignore_ascii_case(host) =>
                {
                    t.origin.clone()
                }
                _ => Origin::new(scheme, host, port),
            };
            *last = Some(Target {
                scheme,
                authority: authority.into(),
                host: range.clone(),
                port,
                origin: origin.clone(),
            });
            Some(origin)
        })
        .ok()
        .flatten()
        .unwrap_or_else(|| Origin::new(scheme, host, port));
    Ok((host, port, origin))
}

/// The delay of a retry decision; `None` for a stop.
fn delay_of(decision: Decision) -> Option<Duration> {
    match decision {
        Decision::Retry { after, .. } => Some(after),
        Decision::Stop(_) => None,
    }
}

/// Room left in an attempt's header map for the headers an engine adds.
const ENGINE_HEADERS: usize = 4;

/// The attempt's request: the caller's head (its extensions are not handed
/// to the engine), plus the idempotency key, with `body`.
pub(crate) fn attempt_request<B>(
    parts: &mut http::request::Parts,
    key: Option<&Key>,
    body: B,
) -> http::Request<B> {
    // The caller's extensions were taken out when the call started (see
    // `take_extensions`), so cloning the head copies none.
    debug_assert!(parts.extensions.is_empty());
    let head = match key {
        None => parts.clone(),
        // No headers of the caller's (cloning them is free): room for the
        // key and the few headers an engine adds, in one allocation of each
        // table.
        Some(key) if parts.headers.is_empty() => {
            let mut head = parts.clone();
            head.headers.reserve(1 + ENGINE_HEADERS);
            head.headers.insert(key_header(), key.value());
            head
        }
        Some(key) => {
            // Sized from the start for the key and the few headers an engine
            // adds (host, content-length, ...): one allocation of each
            // table, where a clone and then inserts would grow them.
            let mut headers =
                http::HeaderMap::with_capacity(parts.headers.len() + 1 + ENGINE_HEADERS);
            for (name, value) in &parts.headers {
                headers.append(name.clone(), value.clone());
            }
            headers.insert(key_header(), key.value());
            // The rest of the head cloned without the caller's headers,
            // which are put back at once.
            let caller_headers = std::mem::take(&mut parts.headers);
            let mut head = parts.clone();
            parts.headers = caller_headers;
            head.headers = headers;
            head
        }
    };
    http::Request::from_parts(head, body)
}

/// Takes the caller's request extensions out of its head: the engine never
/// sees them, and a head without them is cloned for each attempt at no cost.
/// The caller keeps them for the call (they are dropped when it ends, as
/// before).
pub(crate) fn take_extensions(parts: &mut http::request::Parts) -> http::Extensions {
    std::mem::take(&mut parts.extensions)
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
    pub(crate) fn hand_over(call: Call, shared: &Shared, now: Instant) -> (Records, Delivered) {
        let context = RetryContext {
            attempts_made: call.attempts_made,
            attempts_allowed: call.attempts_allowed,
            body: call.body,
            response_delivered: true,
            draining: false,
            remaining: call.deadline.map(|d| d.saturating_duration_since(now)),
            min_attempt_time: call.policy(shared).min_attempt_time(),
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
    pub(crate) fn attempt_index(&self) -> u32 {
        self.call.attempts_made - 1
    }

    /// Classifies, judges, records and observes a failure while the caller
    /// reads the body, then ends the call: the caller gets the client's
    /// error with every record, the body failure's last, in place of the
    /// delivered attempt's (one attempt, one record).
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
        let decision = self
            .call
            .policy(shared)
            .decide(&context, &Outcome::failed(&failure), now);
        let record = AttemptRecord::failed(self.attempt_index(), &failure, decision);
        let ended = Ended {
            progress,
            draining: false,
            now,
        };
        let record = self.call.measured(record, ended);
        self.call.revise_delivered(shared, record);
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

#[cfg(test)]
mod tests {
    use super::host_and_port;
    use evident_resilience::{Origin, Scheme};
    use proptest::prelude::*;

    proptest! {
        /// A thread's calls to any sequence of authorities, some repeated,
        /// some invalid: each gets what a fresh parse gives, never the last
        /// call's target.
        #[test]
        fn a_cached_target_is_what_a_fresh_parse_gives(
            calls in proptest::collection::vec((0usize..9, any::<bool>()), 1..24),
        ) {
            const AUTHORITIES: [&str; 9] = [
                "127.0.0.1:8080", "127.0.0.1:8081", "LOCALHOST:8080", "localhost:8080",
                "u:p@localhost:8080", "[::1]:9", "127.0.0.1:0", "", "example.com",
            ];
            for (i, https) in calls {
                let scheme = if https { Scheme::Https } else { Scheme::Http };
                let authority = AUTHORITIES[i];
                let got = super::target_of(scheme, authority)
                    .map(|(host, port, origin)| (host.to_owned(), port, origin));
                let fresh = super::parse_target(scheme, authority).map(|(range, port)| {
                    let host = &authority[range];
                    (host.to_owned(), port, Origin::new(scheme, host, port))
                });
                match (got, fresh) {
                    (Ok(got), Ok(fresh)) => prop_assert_eq!(got, fresh),
                    (Err(got), Err(fresh)) => prop_assert_eq!(got.to_string(), fresh.to_string()),
                    (got, fresh) => prop_assert!(false, "{authority}: {got:?} but {fresh:?}"),
                }
            }
        }
    }

    proptest! {
        /// Whatever authority the URI parser accepts, the one-pass split
        /// finds the host and port the parser's own accessors find.
        #[test]
        fn host_and_port_agree_with_the_uri_parser_on_any_authority(
            user in proptest::option::of("[a-z0-9:%]{0,6}"),
            host in prop_oneof![
                "[a-zA-Z0-9.-]{0,12}",
                "\\[[0-9a-f:]{2,12}\\]",
                "[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}",
            ],
            port in proptest::option::of("[0-9]{0,6}"),
        ) {
            let mut authority = String::new();
            if let Some(user) = user {
                authority.push_str(&user);
                authority.push('@');
            }
            authority.push_str(&host);
            if let Some(port) = port {
                authority.push(':');
                authority.push_str(&port);
            }
            if let Ok(parsed) = format!("http://{authority}/").parse::<http::Uri>()
                && let Some(a) = parsed.authority()
            {
                prop_assert_eq!(
                    host_and_port(a.as_str()),
                    (parsed.host().unwrap_or(""), parsed.port_u16())
                );
            }
        }
    }

    proptest! {
        #[test]
        fn parse_port_agrees_with_str_parse(text in "[+-]?[0-9a]{0,8}") {
            prop_assert_eq!(super::parse_port(text.as_bytes()), text.parse::<u16>().ok());
        }
    }

    #[test]
    fn host_and_port_agree_with_the_uri_parser() {
        for uri in [
            "http://example.com/",
            "http://example.com:8080/x",
            "https://EXAMPLE.com:443",
            "http://user:pass@example.com:81/",
            "http://user@example.com/",
            "http://u:p@[::1]:8080/",
            "http://[::1]/",
            "http://[::1]:1/",
            "http://[fe80::1%25eth0]:9/",
            "http://127.0.0.1:65535/",
            "http://127.0.0.1:/",
            "http://a:b@127.0.0.1:0/",
            "http://host:99999/",
        ] {
            let parsed: http::Uri = uri.parse().unwrap();
            let authority = parsed.authority().unwrap().as_str();
            assert_eq!(
                host_and_port(authority),
                (parsed.host().unwrap(), parsed.port_u16()),
                "{uri}"
            );
        }
    }
}
