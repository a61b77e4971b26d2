//! Runs scenarios against engines.
//!
//! An engine plugs in as a [`Driver`]: its name, what it cannot do (each gap
//! with its reason), and a function building the engine for an
//! [`EngineEnv`] (the lab's host overrides and trusted root). Async and
//! blocking engines run the same scenarios through the same core client
//! state machine; only the driver of the loop differs.
//!
//! ```no_run
//! use std::sync::Arc;
//! use evident_conformance::harness::{Driver, run_scenario};
//! use evident_core::testing::{ScriptedEngine, Step};
//!
//! let driver = Driver::asynchronous("scripted", |_env| {
//!     Arc::new(ScriptedEngine::new([Step::respond(200, "ok")]))
//! });
//! let scenario = evident_conformance::table::scenarios().remove(0);
//! let cell = tokio::runtime::Runtime::new().unwrap().block_on(run_scenario(&driver, &scenario));
//! println!("{}: {:?}", scenario.name, cell.status);
//! ```

use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use bytes::Bytes;
use evident_core::client::{self, CallOptions, ClientBuilder, WallClock, attempts_of, blocking};
use evident_core::decide::BudgetConfig;
use evident_core::engine::{BlockingEngine, Engine, HostOverrides};
use evident_core::observe::{AttemptRecord, CallInfo, Observer};
use evident_core::resilience::{
    BulkheadConfig, CircuitBreakerConfig, PipelineConfig, RateLimiterConfig,
};
use evident_core::{AttemptStage, FailureCategory, RetryPolicy};
use tokio::task::JoinHandle;

use crate::lab::{
    ConnectTimeoutServer, Http1Server, Http2Server, LabServer, Ledger, NeverReadsServer,
    REQUEST_ID_HEADER, TestPki, TlsFault, TlsFaultServer, loopback_v4, refused_addr,
    refused_addr_on, shared_free_port,
};
use crate::scenario::{
    AddressFault, Before, BodySpec, CallSpec, Capability, Declared, Expect, Fault,
    LARGE_BODY_BYTES, Scenario,
};

/// The host name every scenario's URL uses; the engine's resolver maps it
/// through [`EngineEnv::overrides`]. It is on the lab certificate.
pub const LAB_HOST: &str = "localhost";

/// A host name the lab's resolver says does not exist.
pub const MISSING_HOST: &str = "missing.evident.invalid";

/// Upper bound on one scenario's run: every lab server stops by itself well
/// within it, so hitting it means an engine hung.
pub const SCENARIO_LIMIT: Duration = Duration::from_secs(45);

/// What an engine is built with for one scenario.
#[derive(Debug, Clone)]
pub struct EngineEnv {
    /// Name resolution overrides (the lab's addresses).
    pub overrides: HostOverrides,
    /// Trusted root certificates (DER): the lab's CA only.
    pub roots: Vec<Vec<u8>>,
    /// Speak HTTP/2 by prior knowledge on `http://` URLs.
    pub http2_prior_knowledge: bool,
}

type BuildAsync = dyn Fn(&EngineEnv) -> Arc<dyn Engine> + Send + Sync;
type BuildBlocking = dyn Fn(&EngineEnv) -> Arc<dyn BlockingEngine> + Send + Sync;

#[derive(Clone)]
enum Build {
    Async(Arc<BuildAsync>),
    Blocking(Arc<BuildBlocking>),
}

/// An engine as the harness sees it.
#[derive(Clone)]
pub struct Driver {
    name: &'static str,
    gaps: Vec<(Capability, &'static str)>,
    known_gaps: Vec<KnownGap>,
    standing_gaps: Vec<StandingGap>,
    build: Build,
}

/// A difference an engine shows in every scenario where a rule says it
/// applies, declared once in its driver with why and what would close it
/// (a [`KnownGap`] names one scenario). The expectation it applies is
/// derived from the scenario's own by that rule, never copied from what
/// the engine printed; every field the rule does not name is checked, and
/// compared across engines, as strictly as without it.
#[derive(Debug, Clone)]
pub struct StandingGap {
    kind: StandingKind,
    reason: &'static str,
}

#[derive(Debug, Clone, Copy)]
enum StandingKind {
    BodylessHeadUnproven,
}

/// What a [`StandingGap::bodyless_head_unproven`] says the engine cannot do.
const BODYLESS_HEAD_UNPROVEN: &str = "a bodyless request that failed after it was handed \
    to the connection is at `write_head`, not `await_head`: nothing proves its head left \
    before an answer, so the head is not claimed written (nor an idempotency key in it \
    sent). The evidence is the same";

impl StandingGap {
    /// For a call without a body, an attempt the rules expect to fail at
    /// `await_head` reports `write_head`: the engine has no hook that
    /// shows, late, that the head was written (the contract's rule for
    /// strengthening facts), so it reports the write as started only.
    /// The evidence is the same. A keyed call would not count its key as
    /// sent, so its decision would differ: such a cell fails rather than
    /// pass under this gap.
    pub fn bodyless_head_unproven(reason: &'static str) -> StandingGap {
        StandingGap {
            kind: StandingKind::BodylessHeadUnproven,
            reason,
        }
    }

    /// The positions (call, attempt) whose expectation the rule changes.
    fn positions(&self, scenario: &Scenario) -> Vec<(usize, usize)> {
        match self.kind {
            StandingKind::BodylessHeadUnproven => scenario
                .calls
                .iter()
                .zip(&scenario.expected)
                .enumerate()
                .filter(|(_, (call, _))| {
                    call.body == BodySpec::Empty && call.declared != Declared::Key
                })
                .flat_map(|(c, (_, expects))| {
                    expects.iter().enumerate().filter_map(move |(a, e)| {
                        matches!(e.failure, Some((AttemptStage::AwaitHead, _, _))).then_some((c, a))
                    })
                })
                .collect(),
        }
    }

    /// `scenario` with the rule applied; `None` when it changes nothing.
    fn applied_to(&self, scenario: &Scenario) -> Option<Scenario> {
        let positions = self.positions(scenario);
        if positions.is_empty() {
            return None;
        }
        let mut scenario = scenario.clone();
        for (c, a) in positions {
            if let Some((stage, _, _)) = &mut scenario.expected[c][a].failure {
                *stage = AttemptStage::WriteHead;
            }
        }
        Some(scenario)
    }

    /// `records` with the rule's difference undone at the positions it
    /// changed in `scenario`, for the cross-engine comparison.
    fn undone(&self, scenario: &Scenario, records: &mut [Vec<AttemptRecord>]) {
        for (c, a) in self.positions(scenario) {
            if let Some(record) = records.get_mut(c).and_then(|call| call.get_mut(a))
                && record.stage == Some(AttemptStage::WriteHead)
            {
                record.stage = Some(AttemptStage::AwaitHead);
            }
        }
    }

    fn describe(&self) -> String {
        match self.kind {
            StandingKind::BodylessHeadUnproven => {
                format!("named gap: {BODYLESS_HEAD_UNPROVEN}: {}", self.reason)
            }
        }
    }
}

/// A scenario an engine runs but cannot match exactly, declared in its
/// driver, with why and what would close it. Two kinds:
///
/// * [`KnownGap::category`]: the engine cannot see which failure it was and
///   reports another category. Only that field may differ: every other
///   field of every record, and the server's execution count, must match.
/// * [`KnownGap::unseen_proof`]: the engine cannot see a protocol proof of
///   non-processing (a GOAWAY's last-stream-id), so it must report the
///   weaker, ambiguous evidence and decide from that; and, more generally,
///   [`KnownGap::records`]: the engine meets the fault differently (it
///   refuses at once what others time out on). Its expectation is written
///   out in full, from the rules applied to what the engine reports, never
///   copied from what the engine printed; it is checked as strictly as the
///   scenario's own (records, decisions, executions).
///
/// A declared gap never widens anything else: the cell is shown as a gap
/// (not a pass, not identical), a cell that matches neither expectation
/// fails, and a gap that is no longer seen fails the cell so the
/// declaration gets removed.
#[derive(Debug, Clone)]
pub struct KnownGap {
    scenario: &'static str,
    kind: GapKind,
    reason: &'static str,
}

#[derive(Debug, Clone)]
enum GapKind {
    Category {
        expected: FailureCategory,
        observed: FailureCategory,
    },
    Records {
        expected: Vec<Vec<Expect>>,
        executions: u64,
        connections: Option<u64>,
        what: &'static str,
    },
    /// Either the scenario's own records, or `lost`: a race inside the
    /// engine's library decides which.
    Race {
        lost: Vec<Vec<Expect>>,
        executions: u64,
        what: &'static str,
    },
}

/// What an [`KnownGap::unseen_proof`] says the engine cannot do.
const UNSEEN_PROOF: &str =
    "a `not_processed` proof is not seen, so the attempt is `sent_no_response` and decided as such";

impl KnownGap {
    /// In `scenario`, attempts expected to fail with `expected` report
    /// `observed` instead, for `reason` (which says what would close it).
    pub fn category(
        scenario: &'static str,
        expected: FailureCategory,
        observed: FailureCategory,
        reason: &'static str,
    ) -> KnownGap {
        KnownGap {
            scenario,
            kind: GapKind::Category { expected, observed },
            reason,
        }
    }

    /// In `scenario`, the engine cannot see the protocol proof that makes
    /// an attempt `not_processed`, for `reason`. `expected` is what the
    /// rules give for the evidence the engine can prove (one list of
    /// records per call), with the server executing `executions` times
    /// over `connections` connections when the scenario checks them.
    pub fn unseen_proof(
        scenario: &'static str,
        expected: Vec<Vec<Expect>>,
        executions: u64,
        connections: Option<u64>,
        reason: &'static str,
    ) -> KnownGap {
        KnownGap::records(
            scenario,
            UNSEEN_PROOF,
            expected,
            executions,
            connections,
            reason,
        )
    }

    /// In `scenario`, the engine meets the fault differently, as `what`
    /// says (for example: it refuses a request at once where others time
    /// out), for `reason`. `expected` is what the rules give for what the
    /// engine reports (one list of records per call), with the server
    /// executing `executions` times over `connections` connections when
    /// the scenario checks them; the server's other counts stay as the
    /// scenario has them.
    pub fn records(
        scenario: &'static str,
        what: &'static str,
        expected: Vec<Vec<Expect>>,
        executions: u64,
        connections: Option<u64>,
        reason: &'static str,
    ) -> KnownGap {
        KnownGap {
            scenario,
            kind: GapKind::Records {
                expected,
                executions,
                connections,
                what,
            },
            reason,
        }
    }

    /// In `scenario`, a race inside the engine's library, which the
    /// adapter cannot reach, decides between the scenario's own records
    /// and `lost` (written from the rules for what the engine reports when
    /// it loses, with the server executing `executions` times), as `what`
    /// says, for `reason`. Either outcome passes as this named gap; any
    /// other fails. The scenario's own outcome is still compared across
    /// engines.
    pub fn race(
        scenario: &'static str,
        what: &'static str,
        lost: Vec<Vec<Expect>>,
        executions: u64,
        reason: &'static str,
    ) -> KnownGap {
        KnownGap {
            scenario,
            kind: GapKind::Race {
                lost,
                executions,
                what,
            },
            reason,
        }
    }

    /// Whether the scenario's own outcome also passes as this gap.
    fn allows_the_scenarios_outcome(&self) -> bool {
        matches!(self.kind, GapKind::Race { .. })
    }

    /// The scenario with only the declared difference applied.
    fn applied_to(&self, scenario: &Scenario) -> Scenario {
        let mut scenario = scenario.clone();
        match &self.kind {
            GapKind::Category { expected, observed } => {
                for call in &mut scenario.expected {
                    for expect in call {
                        if let Some((_, category, _)) = &mut expect.failure
                            && category == expected
                        {
                            *category = *observed;
                        }
                    }
                }
            }
            GapKind::Records {
                expected,
                executions,
                connections,
                ..
            } => {
                scenario.expected = expected.clone();
                scenario.server.executions = *executions;
                if scenario.server.connections.is_some() {
                    scenario.server.connections = *connections;
                }
            }
            GapKind::Race {
                lost, executions, ..
            } => {
                scenario.expected = lost.clone();
                scenario.server.executions = *executions;
            }
        }
        scenario
    }

    /// `records` with a category gap's difference undone (the observed
    /// category read as the expected one), for the cross-engine
    /// comparison; `None` for a gap whose records differ by construction.
    fn undone(&self, records: &[Vec<AttemptRecord>]) -> Option<Vec<Vec<AttemptRecord>>> {
        let GapKind::Category { expected, observed } = &self.kind else {
            return None;
        };
        let mut records = records.to_vec();
        for record in records.iter_mut().flatten() {
            if record.category == Some(*observed) {
                record.category = Some(*expected);
            }
        }
        Some(records)
    }

    fn describe(&self) -> String {
        match &self.kind {
            GapKind::Category { expected, observed } => format!(
                "named gap: `{}` is seen as `{}`: {}",
                expected.as_str(),
                observed.as_str(),
                self.reason
            ),
            GapKind::Records { what, .. } | GapKind::Race { what, .. } => {
                format!("named gap: {what}: {}", self.reason)
            }
        }
    }
}

impl std::fmt::Debug for Driver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Driver")
            .field("name", &self.name)
            .field("gaps", &self.gaps)
            .finish_non_exhaustive()
    }
}

impl Driver {
    /// An async engine.
    pub fn asynchronous<E: Engine>(
        name: &'static str,
        build: impl Fn(&EngineEnv) -> Arc<E> + Send + Sync + 'static,
    ) -> Driver {
        Driver {
            name,
            gaps: Vec::new(),
            known_gaps: Vec::new(),
            standing_gaps: Vec::new(),
            build: Build::Async(Arc::new(move |env| build(env) as Arc<dyn Engine>)),
        }
    }

    /// A blocking engine.
    pub fn blocking<E: BlockingEngine>(
        name: &'static str,
        build: impl Fn(&EngineEnv) -> Arc<E> + Send + Sync + 'static,
    ) -> Driver {
        Driver {
            name,
            gaps: Vec::new(),
            known_gaps: Vec::new(),
            standing_gaps: Vec::new(),
            build: Build::Blocking(Arc::new(move |env| build(env) as Arc<dyn BlockingEngine>)),
        }
    }

    /// Declares something the engine cannot do, with the reason; scenarios
    /// needing it are skipped on this engine, with the reason.
    pub fn lacks(mut self, capability: Capability, reason: &'static str) -> Driver {
        self.gaps.push((capability, reason));
        self
    }

    /// Declares a scenario the engine runs but cannot match exactly (see
    /// [`KnownGap`]).
    pub fn known_gap(mut self, gap: KnownGap) -> Driver {
        self.known_gaps.push(gap);
        self
    }

    /// Declares a difference the engine shows wherever a rule says it
    /// applies (see [`StandingGap`]).
    pub fn standing_gap(mut self, gap: StandingGap) -> Driver {
        self.standing_gaps.push(gap);
        self
    }

    /// The engine's name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Whether the engine declared that it lacks `capability` (see
    /// [`Driver::lacks`]).
    pub fn lacks_capability(&self, capability: Capability) -> bool {
        self.gaps.iter().any(|(c, _)| *c == capability)
    }

    /// Builds the engine for `env`, in its own flavour: how a tool other
    /// than the scenario harness (the evidence audit, a wrapper driver)
    /// runs the same engine the matrix runs.
    pub fn build_engine(&self, env: &EngineEnv) -> BuiltEngine {
        match &self.build {
            Build::Async(build) => BuiltEngine::Async(build(env)),
            Build::Blocking(build) => BuiltEngine::Blocking(build(env)),
        }
    }

    /// Why `scenario` does not apply to this engine, if it does not: the
    /// first capability it needs that the engine lacks, with the reason.
    pub fn not_applicable(&self, scenario: &Scenario) -> Option<String> {
        scenario.requirements().into_iter().find_map(|needed| {
            self.gaps
                .iter()
                .find(|(c, _)| *c == needed)
                .map(|(c, reason)| format!("needs {c}: {reason}"))
        })
    }
}

/// An engine built by a [`Driver`] ([`Driver::build_engine`]).
#[derive(Clone)]
pub enum BuiltEngine {
    /// An async engine.
    Async(Arc<dyn Engine>),
    /// A blocking engine.
    Blocking(Arc<dyn BlockingEngine>),
}

impl std::fmt::Debug for BuiltEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuiltEngine::Async(e) => write!(f, "BuiltEngine::Async({})", e.name()),
            BuiltEngine::Blocking(e) => write!(f, "BuiltEngine::Blocking({})", e.name()),
        }
    }
}

/// The verdict of one scenario on one engine.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CellStatus {
    /// Every record and the execution count are as expected (and, in a
    /// matrix, the same as every other engine's).
    Pass,
    /// The first difference from the expectation, or from another engine.
    Fail(String),
    /// The scenario needs a capability the engine lacks: not run, never a
    /// pass. The reason.
    Skipped(String),
    /// The engine differs exactly as its driver declared ([`KnownGap`]):
    /// ran, not identical, not a failure. The declaration.
    Gap(String),
}

impl CellStatus {
    /// Whether the cell ran (it was not skipped).
    pub fn ran(&self) -> bool {
        !matches!(self, CellStatus::Skipped(_))
    }
}

/// One cell of the parity matrix.
#[non_exhaustive]
#[derive(Debug, Clone)]
pub struct Cell {
    /// The verdict.
    pub status: CellStatus,
    /// The records of every call.
    pub records: Vec<Vec<AttemptRecord>>,
    /// Executions counted by the server.
    pub executions: u64,
    /// For a category gap: the records with the named difference undone,
    /// which the cross-engine comparison checks like a passing cell's.
    without_gap: Option<Vec<Vec<AttemptRecord>>>,
}

impl Cell {
    /// A cell with these records and executions.
    pub fn new(status: CellStatus, records: Vec<Vec<AttemptRecord>>, executions: u64) -> Cell {
        Cell {
            status,
            records,
            executions,
            without_gap: None,
        }
    }

    /// A cell that matched its named category gap: `records` as observed,
    /// `without_gap` with the named category put back.
    pub(crate) fn category_gap(
        describe: String,
        records: Vec<Vec<AttemptRecord>>,
        without_gap: Vec<Vec<AttemptRecord>>,
        executions: u64,
    ) -> Cell {
        let mut cell = Cell::new(CellStatus::Gap(describe), records, executions);
        cell.without_gap = Some(without_gap);
        cell
    }

    /// The records the cross-engine comparison reads: a passing cell's own,
    /// and a category gap's with the named category put back (so every
    /// field it does not name is still compared); `None` for a cell that
    /// is not compared (failed, skipped, or a gap whose expectation differs
    /// by construction and is checked in full against its own).
    pub fn compared_records(&self) -> Option<&[Vec<AttemptRecord>]> {
        match self.status {
            CellStatus::Pass => Some(&self.records),
            CellStatus::Gap(_) => self.without_gap.as_deref(),
            _ => None,
        }
    }

    fn without_records(status: CellStatus) -> Cell {
        Cell::new(status, Vec::new(), 0)
    }
}

/// The lab side of a scenario: its servers and the URL to call.
struct Target {
    url: String,
    overrides: HostOverrides,
    ledger: Option<Ledger>,
    http2_prior_knowledge: bool,
    /// Kept alive for the scenario's duration.
    servers: Vec<LabServer>,
}

fn lab_url(scheme: &str, port: u16) -> String {
    format!("{scheme}://{LAB_HOST}:{port}/evident")
}

fn start_fault(fault: &Fault) -> std::io::Result<Target> {
    let on = |addr: SocketAddr| HostOverrides::new().map(LAB_HOST, vec![addr.ip()]);
    let single = |server: LabServer, h2c: bool| Target {
        url: lab_url(server.scheme(), server.port()),
        overrides: on(server.addr()),
        ledger: Some(server.ledger().clone()),
        http2_prior_knowledge: h2c,
        servers: vec![server],
    };
    Ok(match fault {
        Fault::Http1 {
            script,
            tls,
            ipv6,
            receive_buffer,
        } => {
            let mut server = Http1Server::new(script.clone());
            if *tls {
                server = server.tls();
            }
            if let Some(bytes) = receive_buffer {
                server = server.receive_buffer(*bytes);
            }
            if *ipv6 {
                server = server.bind(SocketAddr::from((std::net::Ipv6Addr::LOCALHOST, 0)));
            }
            single(server.start()?, false)
        }
        Fault::Http2 { script, tls } => {
            let mut server = Http2Server::new(script.clone());
            if *tls {
                server = server.tls();
            }
            single(server.start()?, !tls)
        }
        Fault::NameNotFound => Target {
            url: format!("http://{MISSING_HOST}:80/evident"),
            overrides: HostOverrides::new().not_found(MISSING_HOST),
            ledger: None,
            http2_prior_knowledge: false,
            servers: Vec::new(),
        },
        Fault::Refused => {
            let addr = refused_addr()?;
            Target {
                url: lab_url("http", addr.port()),
                overrides: on(addr),
                ledger: None,
                http2_prior_knowledge: false,
                servers: Vec::new(),
            }
        }
        Fault::ConnectTimeout => single(ConnectTimeoutServer::new().start()?, false),
        Fault::NeverReads => single(NeverReadsServer::new().start()?, false),
        Fault::Tls(fault) => single(TlsFaultServer::new(*fault).start()?, false),
        Fault::TwoAddresses(first, second) => {
            let ips: [IpAddr; 2] = [loopback_v4(2), loopback_v4(3)];
            let port = shared_free_port(&ips)?;
            let mut servers = Vec::new();
            let mut scheme = "http";
            for (ip, fault) in ips.iter().zip([first, second]) {
                match fault {
                    AddressFault::Refused => {
                        // Nothing listens on this IP at that port.
                        let _ = refused_addr_on(*ip);
                    }
                    AddressFault::UntrustedCertificate => {
                        scheme = "https";
                        servers.push(
                            TlsFaultServer::new(TlsFault::UntrustedCertificate)
                                .bind(SocketAddr::new(*ip, port))
                                .start()?,
                        );
                    }
                }
            }
            let ledger = servers.first().map(|s| s.ledger().clone());
            Target {
                url: lab_url(scheme, port),
                overrides: HostOverrides::new().map(LAB_HOST, ips.to_vec()),
                ledger,
                http2_prior_knowledge: false,
                servers,
            }
        }
    })
}

fn client_builder(scenario: &Scenario, observer: Arc<DrainOnRetry>) -> ClientBuilder {
    let spec = &scenario.client;
    let mut policy = RetryPolicy::builder()
        .max_attempts(spec.max_attempts)
        .base_backoff(crate::table::CONFORMANCE_BASE_BACKOFF)
        .max_backoff(Duration::from_millis(100))
        .jitter(0.0);
    policy = match spec.budget {
        Some(b) => policy.budget(BudgetConfig {
            ratio: b.ratio,
            min_per_sec: b.min_per_sec,
            ttl: b.ttl,
        }),
        None => policy.no_budget(),
    };
    let policy = policy.build().expect("the conformance policy is valid");
    let breaker = spec.breaker_window.map(|window| {
        CircuitBreakerConfig::builder()
            .sliding_window_size(window)
            .minimum_number_of_calls(window)
            .build()
            .expect("the conformance breaker is valid")
    });
    let rate = spec.rate_limit.map(|r| {
        RateLimiterConfig::builder(r.limit, r.period)
            .max_wait(Duration::ZERO)
            .build()
            .expect("the conformance rate limiter is valid")
    });
    let bulkhead = spec.bulkhead.map(|max| {
        BulkheadConfig::builder()
            .max_concurrent(max)
            .max_wait(Duration::ZERO)
            .build()
            .expect("the conformance bulkhead is valid")
    });
    let pipeline = PipelineConfig::disabled()
        .circuit_breaker(breaker)
        .rate_limiter(rate)
        .bulkhead(bulkhead);
    let mut builder = ClientBuilder::new()
        .policy(policy)
        .attempt_timeout(spec.attempt_timeout)
        .pipeline(pipeline)
        .observer(observer);
    if let Some(now) = spec.wall_clock {
        builder = builder.wall_clock(Arc::new(FixedWallClock(now)));
    }
    builder
}

/// A wall clock that stands still: `Retry-After` HTTP-dates resolve to the
/// same delay on every engine and every machine.
#[derive(Debug, Clone, Copy)]
struct FixedWallClock(SystemTime);

impl WallClock for FixedWallClock {
    fn now(&self) -> SystemTime {
        self.0
    }
}

type DrainFn = Box<dyn Fn() + Send + Sync>;

/// The observer every conformance client gets. For a scenario with
/// `drain_on_retry` it drains the client as soon as an attempt is decided
/// "retry", i.e. while the client waits before the next attempt: no timer
/// is involved, so the drain always lands inside that wait.
#[derive(Default)]
struct DrainOnRetry {
    drain: Mutex<Option<DrainFn>>,
}

impl DrainOnRetry {
    fn arm(&self, drain: DrainFn) {
        *self.drain.lock().unwrap_or_else(|e| e.into_inner()) = Some(drain);
    }

    /// Drops the drain function (it holds the client, which holds this
    /// observer).
    fn disarm(&self) {
        self.drain.lock().unwrap_or_else(|e| e.into_inner()).take();
    }
}

impl Observer for DrainOnRetry {
    fn on_attempt(&self, _call: &CallInfo, record: &AttemptRecord) {
        if record.decision.is_retry()
            && let Some(drain) = &*self.drain.lock().unwrap_or_else(|e| e.into_inner())
        {
            drain();
        }
    }
}

fn options(call: &CallSpec) -> CallOptions {
    let mut o = CallOptions::new();
    o = match call.declared {
        Declared::Nothing => o,
        Declared::Idempotent => o.idempotent(),
        Declared::Key => o.generate_idempotency_key(),
    };
    if let Some(d) = call.deadline {
        o = o.deadline(d);
    }
    o
}

fn small_body() -> Bytes {
    Bytes::from_static(br#"{"amount":100}"#)
}

/// The header that carries a call's head padding.
pub const PADDING_HEADER: &str = "x-evident-padding";

fn head(url: &str, call: &CallSpec, index: usize) -> http::request::Builder {
    let mut builder = http::Request::builder()
        .method(call.method.clone())
        .uri(url)
        .header(REQUEST_ID_HEADER, format!("call-{index}"));
    if call.head_padding > 0 {
        builder = builder.header(PADDING_HEADER, "a".repeat(call.head_padding));
    }
    builder
}

/// A one-shot async body: its bytes, in frames of at most `frame` bytes
/// (the matrix and the audit both send one).
pub(crate) struct OneShotStream {
    data: Bytes,
    frame: usize,
}

/// Largest frame the matrix's one-shot bodies yield at once.
const ONE_SHOT_CHUNK: usize = 64 * 1024;

impl OneShotStream {
    /// `data`, yielded in frames of at most `frame` bytes (at least one).
    pub(crate) fn new(data: Bytes, frame: usize) -> Self {
        OneShotStream {
            data,
            frame: frame.max(1),
        }
    }
}

impl http_body::Body for OneShotStream {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        _cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<Bytes>, Self::Error>>> {
        if self.data.is_empty() {
            return std::task::Poll::Ready(None);
        }
        let n = self.data.len().min(self.frame);
        let chunk = self.data.split_to(n);
        std::task::Poll::Ready(Some(Ok(http_body::Frame::data(chunk))))
    }
}

fn async_body(spec: BodySpec) -> client::Body {
    match spec {
        BodySpec::Empty => client::Body::Empty,
        BodySpec::Small => client::Body::Full(small_body()),
        BodySpec::Large => client::Body::Full(Bytes::from(vec![0u8; LARGE_BODY_BYTES])),
        BodySpec::LargeOneShot => client::Body::stream(OneShotStream::new(
            Bytes::from(vec![0u8; LARGE_BODY_BYTES]),
            ONE_SHOT_CHUNK,
        )),
        BodySpec::SmallOneShot => {
            client::Body::stream(OneShotStream::new(small_body(), ONE_SHOT_CHUNK))
        }
    }
}

fn blocking_body(spec: BodySpec) -> blocking::Body {
    use std::io::Read;
    match spec {
        BodySpec::Empty => blocking::Body::Empty,
        BodySpec::Small => blocking::Body::Full(small_body()),
        BodySpec::Large => blocking::Body::Full(Bytes::from(vec![0u8; LARGE_BODY_BYTES])),
        BodySpec::LargeOneShot => {
            blocking::Body::reader(std::io::repeat(0).take(LARGE_BODY_BYTES as u64))
        }
        BodySpec::SmallOneShot => blocking::Body::reader(std::io::Cursor::new(small_body())),
    }
}

fn records_of<B>(result: &Result<http::Response<B>, client::Error>) -> Vec<AttemptRecord> {
    match result {
        Ok(response) => attempts_of(response).to_vec(),
        Err(err) => err.attempts().to_vec(),
    }
}

/// Runs one scenario on one engine. Must be called inside a multi-threaded
/// tokio runtime (the lab's servers run on it).
pub async fn run_scenario(driver: &Driver, scenario: &Scenario) -> Cell {
    if let Some(reason) = driver.not_applicable(scenario) {
        return Cell::without_records(CellStatus::Skipped(reason));
    }
    match tokio::time::timeout(SCENARIO_LIMIT, run_applicable(driver, scenario)).await {
        Ok(cell) => cell,
        Err(_) => Cell::without_records(CellStatus::Fail(format!(
            "did not finish within {} s",
            SCENARIO_LIMIT.as_secs()
        ))),
    }
}

/// How long a call waits for the server to receive the previous call's
/// request ([`Before::PreviousInFlight`]); a loopback request arrives in
/// microseconds, so this bound is only reached when something is broken.
const PREVIOUS_RECEIVED_LIMIT: Duration = Duration::from_secs(5);

/// How long a call waits for the server to close an idle connection
/// ([`Before::IdleConnectionClosed`]).
const IDLE_CLOSED_LIMIT: Duration = Duration::from_secs(5);

/// A client of either kind, built over the driver's engine.
#[derive(Clone)]
enum Caller {
    Async(client::Client<Arc<dyn Engine>>),
    Blocking(blocking::Client<Arc<dyn BlockingEngine>>),
}

/// The records of one call and how long it took.
type CallResult = (Vec<AttemptRecord>, Duration);

impl Caller {
    fn drain(&self) {
        match self {
            Caller::Async(c) => c.drain(),
            Caller::Blocking(c) => c.drain(),
        }
    }

    /// Starts call `index` on its own task.
    fn spawn(&self, url: &str, call: &CallSpec, index: usize) -> JoinHandle<CallResult> {
        let options = options(call);
        match self.clone() {
            Caller::Async(client) => {
                let request = head(url, call, index)
                    .body(async_body(call.body))
                    .expect("a valid request");
                tokio::spawn(async move {
                    let started = Instant::now();
                    let result = client.execute(request, options).await;
                    (records_of(&result), started.elapsed())
                })
            }
            Caller::Blocking(client) => {
                let request = head(url, call, index)
                    .body(blocking_body(call.body))
                    .expect("a valid request");
                tokio::task::spawn_blocking(move || {
                    let started = Instant::now();
                    let result = client.execute(request, options);
                    (records_of(&result), started.elapsed())
                })
            }
        }
    }
}

async fn run_applicable(driver: &Driver, scenario: &Scenario) -> Cell {
    let target = match start_fault(&scenario.fault) {
        Ok(t) => t,
        Err(e) => {
            return Cell::without_records(CellStatus::Fail(format!(
                "the lab could not start the fault: {e}"
            )));
        }
    };
    let env = EngineEnv {
        overrides: target.overrides.clone(),
        roots: vec![TestPki::get().ca_cert_der().to_vec()],
        http2_prior_knowledge: target.http2_prior_knowledge,
    };
    let observer = Arc::new(DrainOnRetry::default());
    let builder = client_builder(scenario, observer.clone());
    let caller = match &driver.build {
        Build::Async(build) => Caller::Async(
            builder
                .build(build(&env))
                .expect("the conformance client configuration is valid"),
        ),
        Build::Blocking(build) => Caller::Blocking(
            builder
                .build_blocking(build(&env))
                .expect("the conformance client configuration is valid"),
        ),
    };
    if scenario.client.drain_on_retry {
        let drained = caller.clone();
        observer.arm(Box::new(move || drained.drain()));
    }
    let calls = run_calls(&caller, &target, &scenario.calls).await;
    observer.disarm();
    drop(caller);
    let (all, durations): (Vec<_>, Vec<_>) = match calls {
        Ok(calls) => calls.into_iter().unzip(),
        Err(e) => return Cell::without_records(CellStatus::Fail(e)),
    };
    let mut keys = Vec::new();
    if let Some(ledger) = &target.ledger {
        for receipt in ledger.receipts() {
            if let Some(key) = receipt.idempotency_key.clone() {
                keys.push(key);
            }
        }
    }
    let executions = target.ledger.as_ref().map_or(0, Ledger::executions);
    let key = keys.first().cloned();
    let status = compare(scenario, &all, &durations, &target, executions, key.clone());
    let gap = driver
        .known_gaps
        .iter()
        .find(|g| g.scenario == scenario.name);
    let mut without_gap = None;
    let status = match status {
        CellStatus::Pass => match gap {
            Some(gap) if gap.allows_the_scenarios_outcome() => {
                without_gap = Some(all.clone());
                CellStatus::Gap(gap.describe())
            }
            Some(gap) => CellStatus::Fail(format!(
                "the declared gap is no longer seen, remove it: {}",
                gap.describe()
            )),
            None => CellStatus::Pass,
        },
        CellStatus::Fail(diff) => {
            // The scenario's gap first, then the standing rules on top of
            // it (each derived from the expectation it is applied to).
            let base = gap.map_or_else(|| scenario.clone(), |gap| gap.applied_to(scenario));
            let mut describes: Vec<String> = gap.iter().map(|g| g.describe()).collect();
            let mut applied = base.clone();
            let mut standing = Vec::new();
            for rule in &driver.standing_gaps {
                if let Some(next) = rule.applied_to(&applied) {
                    describes.push(rule.describe());
                    standing.push(rule);
                    applied = next;
                }
            }
            if gap.is_none() && standing.is_empty() {
                CellStatus::Fail(diff)
            } else {
                match compare(&applied, &all, &durations, &target, executions, key) {
                    CellStatus::Pass => {
                        let undone = match gap {
                            Some(gap) => gap.undone(&all),
                            None => Some(all.clone()),
                        };
                        without_gap = undone.map(|mut records| {
                            for rule in &standing {
                                rule.undone(&base, &mut records);
                            }
                            records
                        });
                        CellStatus::Gap(describes.join("; "))
                    }
                    _ => CellStatus::Fail(diff),
                }
            }
        }
        other => other,
    };
    drop(target.servers);
    match (status, without_gap) {
        (CellStatus::Gap(describe), Some(undone)) => {
            Cell::category_gap(describe, all, undone, executions)
        }
        (status, _) => Cell::new(status, all, executions),
    }
}

/// Runs the calls in order; a call marked [`Before::PreviousInFlight`]
/// starts while the one before it is still running.
async fn run_calls(
    caller: &Caller,
    target: &Target,
    calls: &[CallSpec],
) -> Result<Vec<CallResult>, String> {
    let mut results: Vec<Option<CallResult>> = vec![None; calls.len()];
    let mut in_flight = Vec::new();
    for (i, call) in calls.iter().enumerate() {
        if call.before == Before::IdleConnectionClosed
            && let Some(server) = target.servers.first()
        {
            let _ = tokio::time::timeout(IDLE_CLOSED_LIMIT, server.idle_closed()).await;
        }
        let next_overlaps = calls
            .get(i + 1)
            .is_some_and(|next| next.before == Before::PreviousInFlight);
        let received_before = target.ledger.as_ref().map(Ledger::requests);
        in_flight.push((i, caller.spawn(&target.url, call, i)));
        if next_overlaps {
            let (Some(ledger), Some(before)) = (&target.ledger, received_before) else {
                return Err("an overlapping call needs a server with a ledger".to_owned());
            };
            let received = ledger.wait_until(|s| s.requests > before);
            if tokio::time::timeout(PREVIOUS_RECEIVED_LIMIT, received)
                .await
                .is_err()
            {
                return Err(format!(
                    "call {i} did not reach the server within {} s",
                    PREVIOUS_RECEIVED_LIMIT.as_secs()
                ));
            }
        } else {
            // Everything started so far ends before the next call starts.
            for (j, handle) in in_flight.drain(..) {
                results[j] = Some(
                    handle
                        .await
                        .map_err(|e| format!("call {j} panicked: {e}"))?,
                );
            }
        }
    }
    Ok(results.into_iter().flatten().collect())
}

/// How the observed calls differ from the expected ones: their number,
/// then each call's number of attempts and every record.
fn records_mismatch(expected: &[Vec<Expect>], got: &[Vec<AttemptRecord>]) -> Option<String> {
    if expected.len() != got.len() {
        return Some(format!(
            "expected {} call(s), observed {}",
            expected.len(),
            got.len()
        ));
    }
    for (c, (expected, got)) in expected.iter().zip(got).enumerate() {
        for (a, pair) in expected.iter().zip(got.iter()).enumerate() {
            if let Some(diff) = pair.0.mismatch(pair.1) {
                return Some(format!("call {c} attempt {a}: {diff}"));
            }
        }
        if expected.len() != got.len() {
            let extra: Vec<String> = got.iter().map(ToString::to_string).collect();
            return Some(format!(
                "call {c}: expected {} attempt(s), got {}: [{}]",
                expected.len(),
                got.len(),
                extra.join(", ")
            ));
        }
    }
    None
}

fn compare(
    scenario: &Scenario,
    got: &[Vec<AttemptRecord>],
    durations: &[Duration],
    target: &Target,
    executions: u64,
    key: Option<String>,
) -> CellStatus {
    if let Some(diff) = records_mismatch(&scenario.expected, got) {
        return CellStatus::Fail(diff);
    }
    if let Some(limit) = scenario.ends_within {
        for (c, took) in durations.iter().enumerate() {
            if *took > limit {
                return CellStatus::Fail(format!(
                    "call {c} took {} ms, expected at most {} ms",
                    took.as_millis(),
                    limit.as_millis()
                ));
            }
        }
    }
    if scenario.server.executions != executions {
        return CellStatus::Fail(format!(
            "server executions: expected {}, got {executions}",
            scenario.server.executions
        ));
    }
    if let (Some(expected), Some(ledger)) = (scenario.server.requests, &target.ledger) {
        let requests = ledger.requests();
        if expected != requests {
            return CellStatus::Fail(format!(
                "server requests: expected {expected}, got {requests}"
            ));
        }
    }
    if let (Some(expected), Some(ledger)) = (scenario.server.connections, &target.ledger) {
        let connections = ledger.connections();
        if expected != connections {
            return CellStatus::Fail(format!(
                "server connections: expected {expected}, got {connections}"
            ));
        }
    }
    if let (Some(expected), Some(ledger)) = (scenario.server.key_receipts, &target.ledger) {
        let Some(key) = key else {
            if expected == 0 {
                return CellStatus::Pass;
            }
            return CellStatus::Fail("no idempotency key reached the server".to_owned());
        };
        let receipts = ledger.receipts_for_key(&key);
        let executed = ledger.executions_for_key(&key);
        if receipts != expected || executed > 1 {
            return CellStatus::Fail(format!(
                "idempotency key: expected {expected} receipt(s) and at most one execution, got {receipts} and {executed}"
            ));
        }
    }
    CellStatus::Pass
}

/// Runs a scenario by name on `driver` in a fresh runtime and panics with
/// the first difference if the cell fails. A scenario the engine cannot
/// express panics too, saying so: a caller that wants skips reported as
/// skips uses [`crate::test_main`], which the [`crate::conformance_tests`]
/// macro generates.
///
/// # Panics
///
/// If the scenario fails, is skipped, or does not exist.
pub fn assert_scenario(driver: &Driver, name: &str) {
    let scenario = crate::table::scenarios()
        .into_iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no scenario named {name}"));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let cell = runtime.block_on(run_scenario(driver, &scenario));
    match &cell.status {
        CellStatus::Pass => {}
        CellStatus::Skipped(reason) => {
            panic!(
                "{name} was skipped on {}: {reason} (not a pass)",
                driver.name()
            );
        }
        CellStatus::Fail(diff) => {
            panic!(
                "{}",
                describe_failure(driver.name(), &scenario, &cell, diff)
            );
        }
        CellStatus::Gap(gap) => println!("{name} on {}: {gap}", driver.name()),
    }
}

/// A failed cell, explained: the difference, the scenario's summary, the
/// records and the executions.
pub fn describe_failure(engine: &str, scenario: &Scenario, cell: &Cell, diff: &str) -> String {
    let got: Vec<Vec<String>> = cell
        .records
        .iter()
        .map(|c| c.iter().map(ToString::to_string).collect())
        .collect();
    format!(
        "{} on {engine}: {diff}\n  summary: {}\n  records: {got:?}\n  executions: {}",
        scenario.name, scenario.summary, cell.executions
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use evident_core::decide::StopReason;
    use evident_core::{AttemptStage, ExecutionEvidence};

    fn stopped() -> Expect {
        Expect::failed(
            AttemptStage::Connect,
            FailureCategory::ConnectionRefused,
            ExecutionEvidence::NotSent,
            crate::scenario::Then::Stop(StopReason::AttemptsExhausted),
        )
    }

    #[test]
    fn a_missing_call_is_a_difference() {
        // Two calls expected, none observed: every record that was
        // observed matched, but a call is missing.
        let diff = records_mismatch(&[vec![stopped()], vec![stopped()]], &[]);
        assert_eq!(diff.as_deref(), Some("expected 2 call(s), observed 0"));
        let diff = records_mismatch(&[], &[Vec::new()]);
        assert_eq!(diff.as_deref(), Some("expected 0 call(s), observed 1"));
    }

    #[test]
    fn a_missing_attempt_is_a_difference() {
        let diff = records_mismatch(&[vec![stopped()]], &[Vec::new()]).unwrap();
        assert!(
            diff.starts_with("call 0: expected 1 attempt(s), got 0"),
            "{diff}"
        );
    }
}
