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
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use evident_core::client::{self, CallOptions, ClientBuilder, attempts_of, blocking};
use evident_core::engine::{BlockingEngine, Engine, HostOverrides};
use evident_core::observe::AttemptRecord;
use evident_core::resilience::{CircuitBreakerConfig, PipelineConfig};
use evident_core::{FailureCategory, RetryPolicy};

use crate::lab::{
    ConnectTimeoutServer, Http1Server, Http2Server, LabServer, Ledger, REQUEST_ID_HEADER, TestPki,
    TlsFault, TlsFaultServer, loopback_v4, refused_addr, refused_addr_on, shared_free_port,
};
use crate::scenario::{
    AddressFault, Before, BodySpec, CallSpec, Capability, Declared, Fault, LARGE_BODY_BYTES,
    Scenario,
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
    build: Build,
}

/// A scenario an engine runs but cannot match exactly, declared in its
/// driver: the one difference allowed (a failure category the engine
/// cannot see, reported as another), why, and what would close it.
///
/// A declared gap never widens the expectation: every other field of every
/// record, and the server's execution count, must still match, the cell is
/// shown as a gap (not a pass), and a gap that is no longer seen fails the
/// cell so the declaration gets removed.
#[derive(Debug, Clone)]
pub struct KnownGap {
    scenario: &'static str,
    expected: FailureCategory,
    observed: FailureCategory,
    reason: &'static str,
}

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
            expected,
            observed,
            reason,
        }
    }

    /// The scenario with only the declared difference applied.
    fn applied_to(&self, scenario: &Scenario) -> Scenario {
        let mut scenario = scenario.clone();
        for call in &mut scenario.expected {
            for expect in call {
                if let Some((_, category, _)) = &mut expect.failure
                    && *category == self.expected
                {
                    *category = self.observed;
                }
            }
        }
        scenario
    }

    fn describe(&self) -> String {
        format!(
            "named gap: `{}` is seen as `{}`: {}",
            self.expected.as_str(),
            self.observed.as_str(),
            self.reason
        )
    }
}

impl std::fmt::Debug for Driver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Driver")
            .field("name", &self.name)
            .field("gaps", &self.gaps)
            .field("known_gaps", &self.known_gaps)
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
            build: Build::Blocking(Arc::new(move |env| build(env) as Arc<dyn BlockingEngine>)),
        }
    }

    /// Declares something the engine cannot do, with the reason; scenarios
    /// needing it are not applicable to this engine.
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

    /// The engine's name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Why `scenario` does not apply to this engine, if it does not.
    pub fn not_applicable(&self, scenario: &Scenario) -> Option<String> {
        let needed = scenario.fault.requires()?;
        self.gaps
            .iter()
            .find(|(c, _)| *c == needed)
            .map(|(c, reason)| format!("needs {c}: {reason}"))
    }
}

/// The verdict of one scenario on one engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CellStatus {
    /// Every record and the execution count are as expected.
    Pass,
    /// The first difference.
    Fail(String),
    /// The engine cannot express the scenario; the reason.
    NotApplicable(String),
    /// The engine differs exactly as its driver declared ([`KnownGap`]);
    /// the declaration.
    Gap(String),
}

/// One cell of the parity matrix.
#[derive(Debug, Clone)]
pub struct Cell {
    /// The verdict.
    pub status: CellStatus,
    /// The records of every call.
    pub records: Vec<Vec<AttemptRecord>>,
    /// Executions counted by the server.
    pub executions: u64,
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
        Fault::Http1 { script, tls, ipv6 } => {
            let mut server = Http1Server::new(script.clone());
            if *tls {
                server = server.tls();
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

fn client_builder(scenario: &Scenario) -> ClientBuilder {
    let policy = RetryPolicy::builder()
        .max_attempts(scenario.client.max_attempts)
        .base_backoff(crate::table::CONFORMANCE_BASE_BACKOFF)
        .max_backoff(Duration::from_millis(100))
        .jitter(0.0)
        .no_budget()
        .build()
        .expect("the conformance policy is valid");
    let pipeline = match scenario.client.breaker_window {
        Some(window) => PipelineConfig::disabled().circuit_breaker(Some(
            CircuitBreakerConfig::builder()
                .sliding_window_size(window)
                .minimum_number_of_calls(window)
                .build()
                .expect("the conformance breaker is valid"),
        )),
        None => PipelineConfig::disabled(),
    };
    ClientBuilder::new()
        .policy(policy)
        .attempt_timeout(scenario.client.attempt_timeout)
        .pipeline(pipeline)
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

fn head(url: &str, call: &CallSpec, index: usize) -> http::request::Builder {
    http::Request::builder()
        .method(call.method.clone())
        .uri(url)
        .header(REQUEST_ID_HEADER, format!("call-{index}"))
}

/// A one-shot async body of `LARGE_BODY_BYTES` zeros, in 64 KiB chunks.
struct ZeroStream {
    remaining: usize,
}

impl http_body::Body for ZeroStream {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        _cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<Bytes>, Self::Error>>> {
        const CHUNK: usize = 64 * 1024;
        if self.remaining == 0 {
            return std::task::Poll::Ready(None);
        }
        let n = self.remaining.min(CHUNK);
        self.remaining -= n;
        std::task::Poll::Ready(Some(Ok(http_body::Frame::data(Bytes::from(vec![0u8; n])))))
    }
}

fn async_body(spec: BodySpec) -> client::Body {
    match spec {
        BodySpec::Empty => client::Body::Empty,
        BodySpec::Small => client::Body::Full(small_body()),
        BodySpec::Large => client::Body::Full(Bytes::from(vec![0u8; LARGE_BODY_BYTES])),
        BodySpec::LargeOneShot => client::Body::stream(ZeroStream {
            remaining: LARGE_BODY_BYTES,
        }),
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
    }
}

fn records_of<B>(result: &Result<http::Response<B>, client::Error>) -> Vec<AttemptRecord> {
    match result {
        Ok(response) => attempts_of(response).to_vec(),
        Err(err) => err.attempts().to_vec(),
    }
}

fn key_of(records_request: &[String]) -> Option<String> {
    records_request.first().cloned()
}

/// Runs one scenario on one engine. Must be called inside a multi-threaded
/// tokio runtime (the lab's servers run on it).
pub async fn run_scenario(driver: &Driver, scenario: &Scenario) -> Cell {
    if let Some(reason) = driver.not_applicable(scenario) {
        return Cell {
            status: CellStatus::NotApplicable(reason),
            records: Vec::new(),
            executions: 0,
        };
    }
    match tokio::time::timeout(SCENARIO_LIMIT, run_applicable(driver, scenario)).await {
        Ok(cell) => cell,
        Err(_) => Cell {
            status: CellStatus::Fail(format!(
                "did not finish within {} s",
                SCENARIO_LIMIT.as_secs()
            )),
            records: Vec::new(),
            executions: 0,
        },
    }
}

async fn run_applicable(driver: &Driver, scenario: &Scenario) -> Cell {
    let target = match start_fault(&scenario.fault) {
        Ok(t) => t,
        Err(e) => {
            return Cell {
                status: CellStatus::Fail(format!("the lab could not start the fault: {e}")),
                records: Vec::new(),
                executions: 0,
            };
        }
    };
    let env = EngineEnv {
        overrides: target.overrides.clone(),
        roots: vec![TestPki::get().ca_cert_der().to_vec()],
        http2_prior_knowledge: target.http2_prior_knowledge,
    };
    let builder = client_builder(scenario);
    let mut all = Vec::new();
    let mut keys = Vec::new();
    match &driver.build {
        Build::Async(build) => {
            let client = builder
                .build(build(&env))
                .expect("the conformance client configuration is valid");
            for (i, call) in scenario.calls.iter().enumerate() {
                before(&target, call.before).await;
                let request = head(&target.url, call, i)
                    .body(async_body(call.body))
                    .expect("a valid request");
                let result = client.execute(request, options(call)).await;
                all.push(records_of(&result));
            }
        }
        Build::Blocking(build) => {
            let client = builder
                .build_blocking(build(&env))
                .expect("the conformance client configuration is valid");
            for (i, call) in scenario.calls.iter().enumerate() {
                before(&target, call.before).await;
                let request = head(&target.url, call, i)
                    .body(blocking_body(call.body))
                    .expect("a valid request");
                let options = options(call);
                let client = client.clone();
                let result = tokio::task::spawn_blocking(move || client.execute(request, options))
                    .await
                    .expect("the blocking call does not panic");
                all.push(records_of(&result));
            }
        }
    }
    if let Some(ledger) = &target.ledger {
        for receipt in ledger.receipts() {
            if let Some(key) = receipt.idempotency_key.clone() {
                keys.push(key);
            }
        }
    }
    let executions = target.ledger.as_ref().map_or(0, Ledger::executions);
    let key = key_of(&keys);
    let status = compare(scenario, &all, &target, executions, key.clone());
    let status = match driver
        .known_gaps
        .iter()
        .find(|g| g.scenario == scenario.name)
    {
        None => status,
        Some(gap) => match status {
            CellStatus::Pass => CellStatus::Fail(format!(
                "the declared gap is no longer seen, remove it: {}",
                gap.describe()
            )),
            CellStatus::Fail(diff) => {
                match compare(&gap.applied_to(scenario), &all, &target, executions, key) {
                    CellStatus::Pass => CellStatus::Gap(gap.describe()),
                    _ => CellStatus::Fail(diff),
                }
            }
            other => other,
        },
    };
    drop(target.servers);
    Cell {
        status,
        records: all,
        executions,
    }
}

async fn before(target: &Target, before: Before) {
    match before {
        Before::Nothing => {}
        Before::IdleConnectionClosed => {
            if let Some(server) = target.servers.first() {
                let _ = tokio::time::timeout(Duration::from_secs(5), server.idle_closed()).await;
            }
        }
    }
}

fn compare(
    scenario: &Scenario,
    got: &[Vec<AttemptRecord>],
    target: &Target,
    executions: u64,
    key: Option<String>,
) -> CellStatus {
    for (c, (expected, got)) in scenario.expected.iter().zip(got).enumerate() {
        for (a, pair) in expected.iter().zip(got.iter()).enumerate() {
            if let Some(diff) = pair.0.mismatch(pair.1) {
                return CellStatus::Fail(format!("call {c} attempt {a}: {diff}"));
            }
        }
        if expected.len() != got.len() {
            let extra: Vec<String> = got.iter().map(ToString::to_string).collect();
            return CellStatus::Fail(format!(
                "call {c}: expected {} attempt(s), got {}: [{}]",
                expected.len(),
                got.len(),
                extra.join(", ")
            ));
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
    if let (Some(expected), Some(ledger)) = (scenario.server.key_receipts, &target.ledger) {
        let Some(key) = key else {
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
/// the first difference if the cell fails; used by the per-engine test
/// targets. A scenario the engine cannot express passes after printing its
/// reason.
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
    match cell.status {
        CellStatus::Pass => {}
        CellStatus::NotApplicable(reason) => {
            println!("{name} is not applicable to {}: {reason}", driver.name());
        }
        CellStatus::Gap(gap) => {
            println!("{name} on {}: {gap}", driver.name());
        }
        CellStatus::Fail(diff) => {
            let got: Vec<Vec<String>> = cell
                .records
                .iter()
                .map(|c| c.iter().map(ToString::to_string).collect())
                .collect();
            panic!(
                "{name} on {}: {diff}\n  summary: {}\n  records: {got:?}\n  executions: {}",
                driver.name(),
                scenario.summary,
                cell.executions
            );
        }
    }
}
