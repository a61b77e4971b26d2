//! What a conformance scenario is: a fault, the calls made against it, and
//! the expected attempt records and server-side executions.
//!
//! Expectations are written from the rules in `docs/design.md`
//! (classification, evidence, decision), before any engine runs them:
//! never copied from what an engine printed.

use std::fmt;
use std::time::{Duration, SystemTime};

use evident_core::decide::{RetryReason, StopReason};
use evident_core::observe::{AttemptRecord, RejectionKind};
use evident_core::{AttemptStage, Decision, ExecutionEvidence, FailureCategory};
use http::Method;

use crate::lab::{Http1Behaviour, Http2Behaviour, TlsFault};

/// What a single address of a multi-address host does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddressFault {
    /// Nothing listens: the connection is refused.
    Refused,
    /// A TLS server presenting a certificate from an untrusted CA.
    UntrustedCertificate,
    /// A listener whose accept queue is full: the kernel drops the SYNs,
    /// and the connect neither completes nor fails.
    Silent,
    /// An HTTP/1.1 server that answers 200 to every request.
    Answers,
}

/// The fault a scenario's server (or resolver) produces.
#[derive(Debug, Clone)]
pub enum Fault {
    /// An HTTP/1.1 server playing a script (plain or TLS).
    Http1 {
        /// Request N gets `script[N]`; the last repeats.
        script: Vec<Http1Behaviour>,
        /// Serve over TLS.
        tls: bool,
        /// Listen on `::1` instead of `127.0.0.1`.
        ipv6: bool,
        /// Fix each connection's receive buffer to this many bytes (so a
        /// server that stops reading blocks the client's writes).
        receive_buffer: Option<usize>,
    },
    /// An HTTP/2 server playing a script (h2c by prior knowledge, or TLS
    /// with ALPN `h2`).
    Http2 {
        /// Request N gets `script[N]`; the last repeats.
        script: Vec<Http2Behaviour>,
        /// Serve over TLS.
        tls: bool,
    },
    /// The resolver says the host does not exist.
    NameNotFound,
    /// Nothing listens at the address.
    Refused,
    /// A listener whose accept backlog is full: connects hang.
    ConnectTimeout,
    /// A TLS-level fault.
    Tls(TlsFault),
    /// A server that accepts and never reads.
    NeverReads,
    /// One host name, two loopback addresses with the same port, tried in
    /// this order.
    TwoAddresses(AddressFault, AddressFault),
}

impl Fault {
    /// The capability an engine needs to express this fault.
    pub fn requires(&self) -> Option<Capability> {
        match self {
            Fault::Http2 { .. } => Some(Capability::Http2),
            _ => None,
        }
    }
}

/// Something an engine may be unable to do.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Capability {
    /// Speak HTTP/2.
    Http2,
    /// Send a request head larger than [`LARGE_HEAD_BYTES`].
    LargeRequestHead,
}

/// A request head above this size needs [`Capability::LargeRequestHead`]:
/// 64 KiB, a common limit of clients' head buffers and servers' head
/// parsers.
pub const LARGE_HEAD_BYTES: usize = 64 * 1024;

impl fmt::Display for Capability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Capability::Http2 => f.write_str("HTTP/2"),
            Capability::LargeRequestHead => {
                write!(f, "a request head over {} KiB", LARGE_HEAD_BYTES / 1024)
            }
        }
    }
}

/// What the caller declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Declared {
    /// Nothing.
    Nothing,
    /// Idempotent.
    Idempotent,
    /// A generated idempotency key.
    Key,
}

/// The request body of a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodySpec {
    /// No body.
    Empty,
    /// A small in-memory body.
    Small,
    /// A large (8 MiB) in-memory body: replayable.
    Large,
    /// A large (8 MiB) streamed body: one-shot.
    LargeOneShot,
    /// The small body, streamed: one-shot.
    SmallOneShot,
}

/// Size of the large bodies: big enough that the client is still writing
/// when a server that stops reading closes the connection.
pub const LARGE_BODY_BYTES: usize = 8 * 1024 * 1024;

/// Something to do before a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Before {
    /// Nothing.
    Nothing,
    /// Wait until the server has closed an idle keep-alive connection.
    IdleConnectionClosed,
    /// Start while the previous call is still in flight, as soon as the
    /// server has received the previous call's request.
    PreviousInFlight,
}

/// The former name of [`ScenarioCall`] (renamed so that `CallSpec` means
/// one thing in the workspace: the benchmark has its own).
#[deprecated(note = "renamed `ScenarioCall`")]
pub type CallSpec = ScenarioCall;

/// One logical call of a scenario.
#[derive(Debug, Clone)]
pub struct ScenarioCall {
    /// The method (never an input to the decision; shown for realism).
    pub method: Method,
    /// The body.
    pub body: BodySpec,
    /// What is declared.
    pub declared: Declared,
    /// The call's deadline.
    pub deadline: Option<Duration>,
    /// What happens first.
    pub before: Before,
    /// Bytes of padding added to the request head (one extra header), to
    /// make a head larger than the socket buffers.
    pub head_padding: usize,
}

impl ScenarioCall {
    /// A POST with a small body and nothing declared.
    pub fn post() -> Self {
        ScenarioCall {
            method: Method::POST,
            body: BodySpec::Small,
            declared: Declared::Nothing,
            deadline: None,
            before: Before::Nothing,
            head_padding: 0,
        }
    }

    /// A GET declared idempotent.
    pub fn idempotent_get() -> Self {
        ScenarioCall {
            method: Method::GET,
            body: BodySpec::Empty,
            declared: Declared::Idempotent,
            deadline: None,
            before: Before::Nothing,
            head_padding: 0,
        }
    }

    /// Declares the call idempotent.
    pub fn idempotent(mut self) -> Self {
        self.declared = Declared::Idempotent;
        self
    }

    /// Sends a generated idempotency key.
    pub fn with_key(mut self) -> Self {
        self.declared = Declared::Key;
        self
    }

    /// Sets the body.
    pub fn body(mut self, body: BodySpec) -> Self {
        self.body = body;
        self
    }

    /// Sets the deadline.
    pub fn deadline(mut self, deadline: Duration) -> Self {
        self.deadline = Some(deadline);
        self
    }

    /// Waits for something first.
    pub fn before(mut self, before: Before) -> Self {
        self.before = before;
        self
    }

    /// Pads the request head with `bytes` bytes (one extra header).
    pub fn pad_head(mut self, bytes: usize) -> Self {
        self.head_padding = bytes;
        self
    }
}

/// A retry budget for a scenario ([`evident_core::decide::BudgetConfig`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BudgetSpec {
    /// Share of recent calls that retries may add.
    pub ratio: f64,
    /// Retries per second always allowed.
    pub min_per_sec: u32,
    /// The window over which calls count.
    pub ttl: Duration,
}

/// A rate limiter for a scenario: `limit` permits per `period`, no wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateSpec {
    /// Permits per period.
    pub limit: u32,
    /// The refresh period.
    pub period: Duration,
}

/// The client configuration of a scenario.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClientSpec {
    /// Total attempts per call.
    pub max_attempts: u32,
    /// The timeout of one attempt.
    pub attempt_timeout: Duration,
    /// A circuit breaker (sliding window size = minimum calls), when set.
    pub breaker_window: Option<u32>,
    /// A retry budget, when set (none by default: only attempts bound
    /// retries).
    pub budget: Option<BudgetSpec>,
    /// A rate limiter that never waits, when set.
    pub rate_limit: Option<RateSpec>,
    /// A bulkhead of this many concurrent attempts that never waits, when
    /// set.
    pub bulkhead: Option<u32>,
    /// The client's wall clock stands still at this time (for `Retry-After`
    /// HTTP-dates); the machine's clock when `None`.
    pub wall_clock: Option<SystemTime>,
    /// Call `drain()` on the client as soon as an attempt is decided
    /// "retry", i.e. while the client waits before the next attempt.
    pub drain_on_retry: bool,
}

/// The conformance client: three attempts, a one-second attempt timeout, no
/// circuit breaker, retry budget, rate limiter or bulkhead (a scenario about
/// one of them turns it on), the machine's wall clock.
pub const DEFAULT_CLIENT: ClientSpec = ClientSpec {
    max_attempts: 3,
    attempt_timeout: Duration::from_secs(1),
    breaker_window: None,
    budget: None,
    rate_limit: None,
    bulkhead: None,
    wall_clock: None,
    drain_on_retry: false,
};

/// What the delay of a retry must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DelayCheck {
    /// Not checked (backoff).
    Any,
    /// Exactly this (a delta-seconds `Retry-After`).
    Exactly(Duration),
    /// Within these bounds, inclusive (an HTTP-date `Retry-After`, whose
    /// resolution is a second).
    Within(Duration, Duration),
}

/// One expected attempt record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Expect {
    /// Stage, category and evidence of a failure.
    pub failure: Option<(AttemptStage, FailureCategory, ExecutionEvidence)>,
    /// The answered status.
    pub status: Option<u16>,
    /// An attempt refused before anything was sent, and why.
    pub rejection: Option<RejectionKind>,
    /// `"retry"` or `"stop"`.
    pub verb: &'static str,
    /// The decision's reason.
    pub reason: &'static str,
    /// The delay check for a retry.
    pub delay: DelayCheck,
}

/// A retry or a stop, with its reason.
#[derive(Debug, Clone, Copy)]
pub enum Then {
    /// Retry for this reason.
    Retry(RetryReason),
    /// Stop for this reason.
    Stop(StopReason),
}

impl Then {
    fn parts(self) -> (&'static str, &'static str) {
        match self {
            Then::Retry(r) => ("retry", r.as_str()),
            Then::Stop(s) => ("stop", s.as_str()),
        }
    }
}

impl Expect {
    /// A failed attempt.
    pub fn failed(
        stage: AttemptStage,
        category: FailureCategory,
        evidence: ExecutionEvidence,
        then: Then,
    ) -> Expect {
        let (verb, reason) = then.parts();
        Expect {
            failure: Some((stage, category, evidence)),
            status: None,
            rejection: None,
            verb,
            reason,
            delay: DelayCheck::Any,
        }
    }

    /// An answered attempt.
    pub fn answered(status: u16, then: Then) -> Expect {
        let (verb, reason) = then.parts();
        Expect {
            failure: None,
            status: Some(status),
            rejection: None,
            verb,
            reason,
            delay: DelayCheck::Any,
        }
    }

    /// An attempt the pipeline refused.
    pub fn rejected(kind: RejectionKind) -> Expect {
        Expect {
            failure: None,
            status: None,
            rejection: Some(kind),
            verb: "stop",
            reason: StopReason::LocalRejection.as_str(),
            delay: DelayCheck::Any,
        }
    }

    /// The retry that a drained client does not start: recorded as an
    /// attempt refused before sending (`rejected:draining`), stopped with
    /// reason `draining` (rule 1).
    pub fn refused_by_drain() -> Expect {
        Expect {
            failure: None,
            status: None,
            rejection: Some(RejectionKind::Draining),
            verb: "stop",
            reason: StopReason::Draining.as_str(),
            delay: DelayCheck::Any,
        }
    }

    /// Checks the retry's delay too.
    pub fn delay(mut self, check: DelayCheck) -> Expect {
        self.delay = check;
        self
    }

    /// The first difference between this expectation and `got`, if any.
    pub fn mismatch(&self, got: &AttemptRecord) -> Option<String> {
        let got_failure = match (got.stage, got.category, got.evidence) {
            (Some(s), Some(c), Some(e)) => Some((s, c, e)),
            _ => None,
        };
        let wanted = self.to_string();
        let seen = got.to_string();
        if self.failure != got_failure
            || self.status != got.status
            || self.rejection != got.rejection
            || self.verb != got.decision.verb()
            || self.reason != got.decision.reason_str()
        {
            return Some(format!("expected `{wanted}`, got `{seen}`"));
        }
        let after = match got.decision {
            Decision::Retry { after, .. } => Some(after),
            Decision::Stop(_) => None,
        };
        match (self.delay, after) {
            (DelayCheck::Exactly(d), Some(a)) if a != d => Some(format!(
                "expected a delay of {} ms, got {} ms",
                d.as_millis(),
                a.as_millis()
            )),
            (DelayCheck::Within(lo, hi), Some(a)) if a < lo || a > hi => Some(format!(
                "expected a delay within {}..={} ms, got {} ms",
                lo.as_millis(),
                hi.as_millis(),
                a.as_millis()
            )),
            _ => None,
        }
    }
}

impl fmt::Display for Expect {
    /// The same compact form as [`AttemptRecord`]'s, without the index.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(kind) = self.rejection {
            write!(f, "rejected:{}", kind.as_str())?;
        } else if let Some(status) = self.status {
            write!(f, "status:{status}")?;
        } else if let Some((s, c, e)) = self.failure {
            write!(f, "{s}/{c}/{e}")?;
        }
        write!(f, " -> {}({})", self.verb, self.reason)
    }
}

/// What the server must have seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServerExpect {
    /// Executions counted by the ledger.
    pub executions: u64,
    /// Requests whose head the server read, when checked.
    pub requests: Option<u64>,
    /// Receipts carrying the call's idempotency key, when checked.
    pub key_receipts: Option<u64>,
    /// Connections the server accepted, when checked.
    pub connections: Option<u64>,
}

/// A conformance scenario.
#[derive(Debug, Clone)]
pub struct Scenario {
    /// A stable identifier (also the test name).
    pub name: &'static str,
    /// One line on what it proves.
    pub summary: &'static str,
    /// The fault.
    pub fault: Fault,
    /// The client configuration.
    pub client: ClientSpec,
    /// The calls, in order.
    pub calls: Vec<ScenarioCall>,
    /// The expected records, per call.
    pub expected: Vec<Vec<Expect>>,
    /// What the server must have seen.
    pub server: ServerExpect,
    /// Every call must end within this long, when set (for "promptly").
    pub ends_within: Option<Duration>,
}

impl Scenario {
    /// A scenario with one call.
    pub fn one_call(
        name: &'static str,
        summary: &'static str,
        fault: Fault,
        call: ScenarioCall,
        expected: Vec<Expect>,
        executions: u64,
    ) -> Scenario {
        Scenario {
            name,
            summary,
            fault,
            client: DEFAULT_CLIENT,
            calls: vec![call],
            expected: vec![expected],
            server: ServerExpect {
                executions,
                requests: None,
                key_receipts: None,
                connections: None,
            },
            ends_within: None,
        }
    }

    /// Uses this client configuration.
    pub fn client(mut self, client: ClientSpec) -> Scenario {
        self.client = client;
        self
    }

    /// Also checks the requests the server read.
    pub fn requests(mut self, requests: u64) -> Scenario {
        self.server.requests = Some(requests);
        self
    }

    /// Also checks the receipts of the call's idempotency key.
    pub fn key_receipts(mut self, receipts: u64) -> Scenario {
        self.server.key_receipts = Some(receipts);
        self
    }

    /// Also checks the connections the server accepted.
    pub fn connections(mut self, connections: u64) -> Scenario {
        self.server.connections = Some(connections);
        self
    }

    /// The capabilities an engine needs to run this scenario: the fault's,
    /// and a large request head when a call pads its head beyond
    /// [`LARGE_HEAD_BYTES`].
    pub fn requirements(&self) -> Vec<Capability> {
        let mut needs: Vec<Capability> = self.fault.requires().into_iter().collect();
        if self.calls.iter().any(|c| c.head_padding > LARGE_HEAD_BYTES) {
            needs.push(Capability::LargeRequestHead);
        }
        needs
    }

    /// Also checks that every call ends within `limit`.
    pub fn ends_within(mut self, limit: Duration) -> Scenario {
        self.ends_within = Some(limit);
        self
    }
}
