//! The client loop: lanes of calls, each drawn from the seed, against the
//! recording servers, through the driver's engine wrapped in the tagging
//! engine.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use evident_core::RetryPolicy;
use evident_core::client::{self, CallOptions, ClientBuilder, attempts_of, blocking};
use evident_core::engine::{BlockingEngine, Engine, HostOverrides};
use evident_core::resilience::PipelineConfig;

use super::AuditConfig;
use super::book::FrozenBook;
use super::oracle::CallOutcome;
use super::rng::SplitMix64;
use super::server::{self, LaneServer};
use super::shape::{BodyKind, CallShape, Connection, Declared, LARGE_BODY, Protocol, Target};
use super::state::{AuditState, CallPlan};
use super::tag::{CALL_HEADER, Tagging};
use super::tls;
use crate::harness::{BuiltEngine, EngineEnv, EngineUnderTest, LAB_HOST, OneShotStream};
use crate::lab::{
    ConnectTimeoutServer, RefusedPort, TestPki, TlsFault, TlsFaultServer, loopback_v4,
};
use crate::scenario::Capability;

/// The retry policy's first backoff: short, so that the next attempt
/// starts soon and meets the connection the previous one left behind.
const BASE_BACKOFF: Duration = Duration::from_millis(1);

/// The retry policy's longest backoff.
const MAX_BACKOFF: Duration = Duration::from_millis(4);

/// How long the run waits for the recording servers to record their last
/// bytes after the shutdown.
const SERVERS_END_LIMIT: Duration = Duration::from_secs(15);

/// How long one call may take before the run counts it as hung: three
/// attempts of at most [`super::shape`]'s longest timeout, plus backoff,
/// with a wide margin for a loaded machine.
const CALL_LIMIT: Duration = Duration::from_secs(20);

/// The header padding one call's head (value bytes).
const PADDING_HEADER: &str = "x-evident-padding";

/// A client over the tagged engine.
#[derive(Clone)]
enum Caller {
    Async(client::Client<Arc<dyn Engine>>),
    Blocking(blocking::Client<Arc<dyn BlockingEngine>>),
}

fn caller(driver: &EngineUnderTest, env: &EngineEnv, state: &Arc<AuditState>) -> Caller {
    let policy = RetryPolicy::builder()
        .max_attempts(super::shape::MAX_ATTEMPTS)
        .base_backoff(BASE_BACKOFF)
        .max_backoff(MAX_BACKOFF)
        .no_budget()
        .build()
        .expect("the audit's policy is valid");
    let builder = ClientBuilder::new()
        .policy(policy)
        .pipeline(PipelineConfig::disabled());
    match driver.build_engine(env) {
        BuiltEngine::Async(inner) => {
            let tagged: Arc<dyn Engine> = Arc::new(Tagging {
                inner,
                state: state.clone(),
            });
            Caller::Async(builder.build(tagged).expect("the audit's client is valid"))
        }
        BuiltEngine::Blocking(inner) => {
            let tagged: Arc<dyn BlockingEngine> = Arc::new(Tagging {
                inner,
                state: state.clone(),
            });
            Caller::Blocking(
                builder
                    .build_blocking(tagged)
                    .expect("the audit's client is valid"),
            )
        }
    }
}

/// Largest frame the audit's one-shot bodies yield at once.
const ONE_SHOT_FRAME: usize = 16 * 1024;

fn payload(kind: BodyKind) -> Bytes {
    match kind {
        BodyKind::Empty => Bytes::new(),
        BodyKind::InMemory | BodyKind::OneShot => Bytes::from_static(br#"{"amount":100}"#),
        BodyKind::InMemoryLarge | BodyKind::Streamed => Bytes::from(vec![b'b'; LARGE_BODY]),
    }
}

fn options(shape: &CallShape) -> CallOptions {
    let o = CallOptions::new().attempt_timeout(shape.attempt_timeout);
    match shape.declared {
        Declared::Nothing => o,
        Declared::Idempotent => o.idempotent(),
        Declared::Key => o.generate_idempotency_key(),
    }
}

fn head(url: &str, shape: &CallShape, call: u64) -> http::request::Builder {
    let method = if shape.post {
        http::Method::POST
    } else {
        http::Method::GET
    };
    let mut b = http::Request::builder()
        .method(method)
        .uri(url)
        .header(CALL_HEADER, call.to_string());
    if shape.head_padding > 0 {
        b = b.header(PADDING_HEADER, "p".repeat(shape.head_padding));
    }
    b
}

impl Caller {
    async fn call(
        &self,
        url: String,
        shape: &CallShape,
        call: u64,
    ) -> (Vec<evident_core::AttemptRecord>, Option<String>) {
        let options = options(shape);
        match self.clone() {
            Caller::Async(client) => {
                let body = match shape.body {
                    BodyKind::Empty => client::Body::Empty,
                    BodyKind::InMemory | BodyKind::InMemoryLarge => {
                        client::Body::Full(payload(shape.body))
                    }
                    BodyKind::Streamed | BodyKind::OneShot => client::Body::stream(
                        OneShotStream::new(payload(shape.body), ONE_SHOT_FRAME),
                    ),
                };
                let request = head(&url, shape, call).body(body).expect("a valid request");
                match client.execute(request, options).await {
                    Ok(response) => (attempts_of(&response).to_vec(), None),
                    Err(e) => (e.attempts().to_vec(), Some(e.to_string())),
                }
            }
            Caller::Blocking(client) => {
                let body = match shape.body {
                    BodyKind::Empty => blocking::Body::Empty,
                    BodyKind::InMemory | BodyKind::InMemoryLarge => {
                        blocking::Body::Full(payload(shape.body))
                    }
                    BodyKind::Streamed | BodyKind::OneShot => {
                        blocking::Body::reader(std::io::Cursor::new(payload(shape.body)))
                    }
                };
                let request = head(&url, shape, call).body(body).expect("a valid request");
                let joined =
                    tokio::task::spawn_blocking(move || match client.execute(request, options) {
                        Ok(response) => (attempts_of(&response).to_vec(), None),
                        Err(e) => (e.attempts().to_vec(), Some(e.to_string())),
                    })
                    .await;
                joined.unwrap_or_else(|e| (Vec::new(), Some(format!("the call panicked: {e}"))))
            }
        }
    }
}

/// Where each lane's calls go.
struct Ports {
    h1: Vec<u16>,
    h2: Vec<u16>,
    /// The TLS terminators in front of `h1`.
    tls: Vec<u16>,
    refused: u16,
    connect_stall: u16,
    tls_stall: u16,
}

impl Ports {
    fn url(&self, shape: &CallShape, lane: usize, call: u64) -> String {
        let port = match shape.target {
            Target::Refused => self.refused,
            Target::ConnectStall => self.connect_stall,
            Target::TlsStall => self.tls_stall,
            Target::Lane => match shape.protocol {
                Protocol::Http1 if shape.tls => self.tls[lane],
                Protocol::Http1 => self.h1[lane],
                Protocol::Http2 => self.h2[lane],
            },
        };
        let scheme = if shape.tls { "https" } else { "http" };
        format!("{scheme}://{LAB_HOST}:{port}/c{call}/")
    }
}

/// Everything one engine's run produced.
pub(crate) struct RunOutput {
    pub(crate) outcomes: Vec<CallOutcome>,
    pub(crate) book: FrozenBook,
    pub(crate) hung_calls: u64,
}

/// Runs the calls of `config` on `driver`. Needs a multi-threaded tokio
/// runtime.
pub(crate) async fn run(
    driver: &EngineUnderTest,
    config: &AuditConfig,
) -> std::io::Result<RunOutput> {
    let lanes = config.lanes.max(1);
    let http2 = !driver.lacks_capability(Capability::Http2);
    let state = AuditState::new(lanes);
    let mut servers: Vec<LaneServer> = Vec::new();
    // Held for the whole run: a released port could be taken by a server
    // of an audit running beside this one, which would answer it.
    let refused = RefusedPort::bind(loopback_v4(1))?;
    let mut ports = Ports {
        h1: Vec::new(),
        h2: Vec::new(),
        tls: Vec::new(),
        refused: refused.addr().port(),
        connect_stall: 0,
        tls_stall: 0,
    };
    for lane in 0..lanes {
        let s = server::start(state.clone(), lane, Protocol::Http1)?;
        ports.h1.push(s.addr.port());
        let terminator = tls::start(state.clone(), s.addr)?;
        ports.tls.push(terminator.addr.port());
        servers.push(s);
        servers.push(terminator);
        if http2 {
            let s = server::start(state.clone(), lane, Protocol::Http2)?;
            ports.h2.push(s.addr.port());
            servers.push(s);
        }
    }
    let stall = tokio::task::block_in_place(|| ConnectTimeoutServer::new().start())?;
    ports.connect_stall = stall.port();
    let tls_stall = TlsFaultServer::new(TlsFault::StalledHandshake).start()?;
    ports.tls_stall = tls_stall.port();
    let env = |h2c| EngineEnv {
        overrides: HostOverrides::new().map(LAB_HOST, vec![std::net::Ipv4Addr::LOCALHOST.into()]),
        roots: vec![TestPki::get().ca_cert_der().to_vec()],
        http2_prior_knowledge: h2c,
    };
    let h1 = caller(driver, &env(false), &state);
    let h2 = http2.then(|| caller(driver, &env(true), &state));
    let ports = Arc::new(ports);
    let attempts = Arc::new(AtomicU64::new(0));
    let hung = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let mut tasks = Vec::new();
    for lane in 0..lanes {
        let (state, ports, attempts, hung) =
            (state.clone(), ports.clone(), attempts.clone(), hung.clone());
        let (h1, h2) = (h1.clone(), h2.clone());
        let (seed, target, time_limit) = (config.seed, config.attempts, config.time_limit);
        tasks.push(tokio::spawn(async move {
            let mut rng = SplitMix64::stream(seed, lane as u64);
            let mut outcomes = Vec::new();
            let mut next = CallShape::draw(&mut rng, http2);
            let mut index = 0u64;
            while attempts.load(Ordering::Relaxed) < target && started.elapsed() < time_limit {
                let shape = next;
                next = CallShape::draw(&mut rng, http2);
                let call = index * lanes as u64 + lane as u64;
                index += 1;
                state.register(
                    call,
                    CallPlan {
                        shape: shape.clone(),
                        lane,
                        then_close: next.connection == Connection::Fresh,
                    },
                );
                let client = match (shape.protocol, &h2) {
                    (Protocol::Http2, Some(h2)) => h2,
                    _ => &h1,
                };
                let url = ports.url(&shape, lane, call);
                let result = tokio::time::timeout(CALL_LIMIT, client.call(url, &shape, call)).await;
                let (records, error) = match result {
                    Ok(done) => done,
                    Err(_) => {
                        hung.fetch_add(1, Ordering::Relaxed);
                        (Vec::new(), Some("the call hung".to_owned()))
                    }
                };
                state.release(lane, call);
                attempts.fetch_add(records.len() as u64, Ordering::Relaxed);
                outcomes.push(CallOutcome {
                    call,
                    lane,
                    shape,
                    records,
                    error,
                });
            }
            outcomes
        }));
    }
    let mut outcomes = Vec::new();
    for task in tasks {
        outcomes.extend(task.await.unwrap_or_default());
    }
    // The engines go first (their pooled connections close), then the
    // servers record what is left and end.
    drop((h1, h2));
    state.shutdown.send_replace(true);
    let _ = tokio::time::timeout(SERVERS_END_LIMIT, async {
        for s in servers {
            let _ = s.task.await;
        }
    })
    .await;
    drop((stall, tls_stall));
    outcomes.sort_by_key(|o| o.call);
    let book = state.book().freeze();
    Ok(RunOutput {
        outcomes,
        book,
        hung_calls: hung.load(Ordering::Relaxed),
    })
}
