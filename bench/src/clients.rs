//! The clients the benchmark drives, each behind one small trait, and the
//! rows it compares.
//!
//! A row is a named [`Driver`] in a [`Family`]: the family's first row is
//! its bare engine, and every other row is measured against it in the same
//! round. Adding an engine takes a few lines: build it, then
//! `family.rows.extend(evident_async_rows("name", engine, pool))` (or
//! [`evident_blocking_rows`]) gives its "engine alone" and "evident client"
//! rows.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use evident_core::client::{self, CallOptions};
use evident_core::testing::repeatable_attempt_context;
use evident_core::{
    AttemptBody, AttemptRecord, BlockingAttemptBody, BlockingEngine, Engine, Progress,
};
use http_body_util::{BodyExt, Full};

use crate::server::CALL_ID_HEADER;

/// The idempotency key header every client sends on a keyed call.
const KEY_HEADER: &str = "idempotency-key";

/// How long any one call may take before the benchmark calls it failed:
/// far above a loopback round trip, so it only ends calls that hang.
pub const CALL_TIMEOUT: Duration = Duration::from_secs(30);

/// What the caller declares about a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Declaration {
    /// Nothing: a plain POST.
    Nothing,
    /// The operation is idempotent.
    Idempotent,
    /// An idempotency key is generated per call and sent.
    Key,
}

/// One call to make.
#[derive(Debug, Clone)]
pub struct CallSpec {
    /// The full URL.
    pub url: http::Uri,
    /// `POST` with `body`, or `GET`.
    pub post: bool,
    /// The request body (empty for GET).
    pub body: Bytes,
    /// What the caller declares.
    pub declaration: Declaration,
    /// A number the server uses to tell re-sends of one call apart from
    /// new calls (outage runs only).
    pub call_id: Option<u64>,
}

impl CallSpec {
    /// The extra headers every client sends for this call: the key (fresh
    /// per call) and the call number.
    fn headers(&self) -> Vec<(&'static str, String)> {
        let mut headers = Vec::with_capacity(2);
        if self.declaration == Declaration::Key {
            headers.push((KEY_HEADER, uuid::Uuid::new_v4().to_string()));
        }
        if let Some(id) = self.call_id {
            headers.push((CALL_ID_HEADER, id.to_string()));
        }
        headers
    }

    /// A request builder with the method, the URL and [`Self::headers`].
    fn builder(&self) -> http::request::Builder {
        let mut request = http::Request::builder()
            .method(self.method())
            .uri(self.url.clone());
        for (name, value) in self.headers() {
            request = request.header(name, value);
        }
        request
    }

    fn method(&self) -> http::Method {
        if self.post {
            http::Method::POST
        } else {
            http::Method::GET
        }
    }

    /// The headers other than the key (evident's client adds the key itself).
    fn call_id_header(&self) -> Option<String> {
        self.call_id.map(|id| id.to_string())
    }
}

/// How a call ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The final status, if the call got an answer.
    pub status: Option<u16>,
    /// Physical attempts, where the client tells (evident does).
    pub attempts: Option<u32>,
    /// Attempts refused locally by evident's pipeline.
    pub rejections: u32,
    /// The error, if the call failed without an answer.
    pub error: Option<String>,
}

impl Outcome {
    fn answered(status: u16) -> Outcome {
        Outcome {
            status: Some(status),
            attempts: None,
            rejections: 0,
            error: None,
        }
    }

    fn failed(error: impl std::fmt::Display) -> Outcome {
        Outcome {
            status: None,
            attempts: None,
            rejections: 0,
            error: Some(error.to_string()),
        }
    }

    fn with_records(mut self, records: &[AttemptRecord]) -> Outcome {
        let rejections = records.iter().filter(|r| r.rejection.is_some()).count();
        self.attempts = Some((records.len() - rejections) as u32);
        self.rejections = rejections as u32;
        self
    }

    /// Whether the call got a 2xx answer.
    pub fn succeeded(&self) -> bool {
        self.status.is_some_and(|s| (200..300).contains(&s))
    }
}

/// A client driven from async tasks.
#[async_trait::async_trait]
pub trait AsyncClient: Send + Sync + 'static {
    /// Makes one call and reads the answer whole.
    async fn call(&self, spec: &CallSpec) -> Outcome;
}

/// A client driven from threads.
pub trait BlockingClient: Send + Sync + 'static {
    /// Makes one call and reads the answer whole.
    fn call(&self, spec: &CallSpec) -> Outcome;
}

/// Either kind of client.
#[derive(Clone)]
pub enum Driver {
    /// Driven by tasks on the client runtime.
    Async(Arc<dyn AsyncClient>),
    /// Driven by one thread per call in flight.
    Blocking(Arc<dyn BlockingClient>),
}

/// What a row is, relative to its family's bare engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Role {
    /// The bare engine: the family's baseline.
    Bare,
    /// A second, identical bare client: its ratio is the noise floor.
    Null,
    /// evident's engine alone, through `Engine::send`.
    Engine,
    /// The evident client over its engine.
    Client,
    /// A retrying peer users pick today.
    Peer,
    /// The bare engine set up the way evident's engine must set it up
    /// (isahc without connection reuse): how much of the gap that setting
    /// alone costs.
    Reference,
}

/// A named client.
#[derive(Clone)]
pub struct Row {
    /// The name in the table.
    pub name: String,
    /// What it is.
    pub role: Role,
    /// The client.
    pub driver: Driver,
}

impl std::fmt::Debug for Row {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Row")
            .field("name", &self.name)
            .field("role", &self.role)
            .finish_non_exhaustive()
    }
}

/// Rows measured against the same bare engine (the first row).
#[derive(Debug, Clone)]
pub struct Family {
    /// The engine's name.
    pub name: String,
    /// The rows, the bare engine first.
    pub rows: Vec<Row>,
    /// A line printed under the family's table rows: what a reader must
    /// know to read its ratios.
    pub note: Option<String>,
}

/// Which protocol the clients speak to the loopback server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Protocol {
    /// HTTP/1.1.
    Http1,
    /// HTTP/2 with prior knowledge (cleartext).
    Http2,
}

impl std::fmt::Display for Protocol {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Protocol::Http1 => "HTTP/1.1",
            Protocol::Http2 => "HTTP/2",
        })
    }
}

/// How the clients are set up.
#[derive(Debug, Clone, Copy)]
pub struct Setup {
    /// The protocol.
    pub protocol: Protocol,
    /// Idle connections each client may keep per origin. Every client gets
    /// the same pool, so rows differ by their code, not their defaults.
    pub pool: usize,
    /// The evident clients' bulkhead (concurrent attempts per origin):
    /// `None` keeps the default, which queues calls above
    /// [`DEFAULT_MAX_CONCURRENT_ATTEMPTS`](evident_core::resilience::DEFAULT_MAX_CONCURRENT_ATTEMPTS).
    /// Raising it to the calls in flight measures the client without that
    /// queueing (the bare engines have no such limit).
    pub bulkhead: Option<u32>,
}

impl Setup {
    /// The evident clients' configuration for this setup.
    pub fn client(&self) -> client::ClientBuilder {
        let builder = client::ClientBuilder::new();
        match self.bulkhead {
            None => builder,
            Some(max) => builder.pipeline(
                evident_core::resilience::PipelineConfig::default().bulkhead(Some(
                    evident_core::resilience::BulkheadConfig::builder()
                        .max_concurrent(max)
                        .build()
                        .expect("a bulkhead of at least one slot is valid"),
                )),
            ),
        }
    }
}

/// The rows for `setup`: hyper, ureq (HTTP/1.1 only), reqwest and isahc
/// (HTTP/1.1 only) families.
pub fn families(setup: Setup) -> Result<Vec<Family>, Box<dyn std::error::Error>> {
    let mut hyper = Family {
        name: "hyper".into(),
        rows: vec![
            row("hyper-util", Role::Bare, bare_hyper(setup)),
            row("hyper-util (null)", Role::Null, bare_hyper(setup)),
        ],
        note: None,
    };
    let mut engine = evident_hyper::HyperEngine::builder().max_idle_per_origin(setup.pool);
    if setup.protocol == Protocol::Http2 {
        engine = engine.http2_prior_knowledge();
    }
    hyper
        .rows
        .extend(evident_async_rows("hyper", engine.build()?, setup.client()));

    let mut reqwest = Family {
        name: "reqwest".into(),
        rows: vec![
            row("reqwest", Role::Bare, bare_reqwest(setup)?),
            row("reqwest (null)", Role::Null, bare_reqwest(setup)?),
        ],
        note: None,
    };
    // Set up like the bare client: the same idle pool, prior knowledge over
    // HTTP/2. reqwest's TCP_NODELAY is on by default in both; the engine
    // sets no timeout (the core owns attempt timeouts).
    let mut engine = evident_reqwest::ReqwestEngine::builder().max_idle_per_origin(setup.pool);
    if setup.protocol == Protocol::Http2 {
        engine = engine.http2_prior_knowledge();
    }
    reqwest.rows.extend(evident_async_rows(
        "reqwest",
        engine.build()?,
        setup.client(),
    ));
    reqwest.rows.push(row(
        "reqwest-retry",
        Role::Peer,
        Driver::Async(Arc::new(ReqwestRetry::new(
            setup,
            REQWEST_RETRY_MIN_BACKOFF,
        )?)),
    ));

    let mut families = vec![hyper];
    if setup.protocol == Protocol::Http1 {
        let mut ureq = Family {
            name: "ureq".into(),
            rows: vec![
                row("ureq", Role::Bare, bare_ureq(setup)),
                row("ureq (null)", Role::Null, bare_ureq(setup)),
            ],
            note: None,
        };
        let engine = evident_ureq::UreqEngine::builder()
            .max_idle_per_origin(setup.pool)
            .build()?;
        ureq.rows
            .extend(evident_blocking_rows("ureq", engine, setup.client()));
        families.push(ureq);
    }
    families.push(reqwest);
    if setup.protocol == Protocol::Http1 {
        families.push(isahc_family(setup)?);
    }
    Ok(families)
}

/// What the isahc family's note says: evident-isahc reuses connections
/// only where a repeat is harmless, through a relay, and the "no reuse" row
/// shows what every other operation pays.
pub const ISAHC_NOTE: &str = "evident-isahc reuses a connection only for an operation whose \
     repeat is harmless (both workloads here: a GET declared idempotent, a POST with a key), \
     through a local relay that refuses libcurl's own re-send (one more hop per exchange); \
     any other operation gets a new connection, as in the \"no reuse\" row";

/// The isahc family (HTTP/1.1 only: evident-isahc declares HTTP/2 a gap):
/// bare isahc as users get it, a null row, bare isahc without connection
/// reuse (the setting evident-isahc must impose, to show its share of the
/// gap), and evident's engine and client.
fn isahc_family(setup: Setup) -> Result<Family, Box<dyn std::error::Error>> {
    let mut isahc = Family {
        name: "isahc".into(),
        rows: vec![
            row("isahc", Role::Bare, bare_isahc(setup, true)?),
            row("isahc (null)", Role::Null, bare_isahc(setup, true)?),
            row(
                "isahc, no reuse (as evident's for other operations)",
                Role::Reference,
                bare_isahc(setup, false)?,
            ),
        ],
        note: Some(ISAHC_NOTE.into()),
    };
    isahc.rows.extend(evident_async_rows(
        "isahc",
        evident_isahc::IsahcEngine::builder().build()?,
        setup.client(),
    ));
    Ok(isahc)
}

pub(crate) fn row(name: &str, role: Role, driver: Driver) -> Row {
    Row {
        name: name.into(),
        role,
        driver,
    }
}

/// The "engine alone" and "evident client" rows of an async engine.
pub fn evident_async_rows<E: Engine + Clone>(
    name: &str,
    engine: E,
    client: client::ClientBuilder,
) -> [Row; 2] {
    let client = client
        .attempt_timeout(CALL_TIMEOUT)
        .build(engine.clone())
        .expect("the benchmark's client configuration is valid");
    [
        row(
            &format!("evident-{name} engine"),
            Role::Engine,
            Driver::Async(Arc::new(EngineAlone(engine))),
        ),
        row(
            &format!("evident client/{name}"),
            Role::Client,
            Driver::Async(Arc::new(EvidentClient(client))),
        ),
    ]
}

/// The "engine alone" and "evident client" rows of a blocking engine.
pub fn evident_blocking_rows<E: BlockingEngine + Clone>(
    name: &str,
    engine: E,
    client: client::ClientBuilder,
) -> [Row; 2] {
    let client = client
        .attempt_timeout(CALL_TIMEOUT)
        .build_blocking(engine.clone())
        .expect("the benchmark's client configuration is valid");
    [
        row(
            &format!("evident-{name} engine"),
            Role::Engine,
            Driver::Blocking(Arc::new(BlockingEngineAlone(engine))),
        ),
        row(
            &format!("evident blocking/{name}"),
            Role::Client,
            Driver::Blocking(Arc::new(EvidentBlockingClient(client))),
        ),
    ]
}

// ---- hyper-util's legacy client -------------------------------------------

type LegacyClient = hyper_util::client::legacy::Client<
    hyper_util::client::legacy::connect::HttpConnector,
    Full<Bytes>,
>;

pub(crate) fn bare_hyper(setup: Setup) -> Driver {
    let mut builder =
        hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new());
    builder.pool_max_idle_per_host(setup.pool);
    if setup.protocol == Protocol::Http2 {
        builder.http2_only(true);
    }
    let mut connector = hyper_util::client::legacy::connect::HttpConnector::new();
    connector.set_nodelay(true);
    Driver::Async(Arc::new(BareHyper(builder.build(connector))))
}

struct BareHyper(LegacyClient);

#[async_trait::async_trait]
impl AsyncClient for BareHyper {
    async fn call(&self, spec: &CallSpec) -> Outcome {
        let request = spec.builder();
        let request = request
            .body(Full::new(spec.body.clone()))
            .expect("a valid request");
        match self.0.request(request).await {
            Ok(response) => {
                let status = response.status().as_u16();
                match response.into_body().collect().await {
                    Ok(_) => Outcome::answered(status),
                    Err(e) => Outcome::failed(e),
                }
            }
            Err(e) => Outcome::failed(e),
        }
    }
}

// ---- evident, any async engine --------------------------------------------

struct EngineAlone<E>(E);

#[async_trait::async_trait]
impl<E: Engine> AsyncClient for EngineAlone<E> {
    async fn call(&self, spec: &CallSpec) -> Outcome {
        let request = spec.builder();
        let body = if spec.body.is_empty() {
            AttemptBody::Empty
        } else {
            AttemptBody::Full(Some(spec.body.clone()))
        };
        let request = request.body(body).expect("a valid request");
        // As the client's attempts of these workloads: a GET declared
        // idempotent, a POST with a key.
        let attempt = repeatable_attempt_context(Progress::new(), None);
        match self.0.send(request, &attempt).await {
            Ok(response) => {
                attempt.progress().head_received();
                let status = response.status().as_u16();
                match response.into_body().collect().await {
                    Ok(_) => Outcome::answered(status),
                    Err(e) => Outcome::failed(e),
                }
            }
            Err(e) => Outcome::failed(e),
        }
    }
}

struct EvidentClient<E>(client::Client<E>);

/// The evident client's request and options for `spec`: the declaration is
/// made through [`CallOptions`], the key generated by the client.
fn evident_call(spec: &CallSpec) -> (http::request::Builder, CallOptions) {
    let mut request = http::Request::builder()
        .method(spec.method())
        .uri(spec.url.clone());
    if let Some(id) = spec.call_id_header() {
        request = request.header(CALL_ID_HEADER, id);
    }
    let options = match spec.declaration {
        Declaration::Nothing => CallOptions::new(),
        Declaration::Idempotent => CallOptions::new().idempotent(),
        Declaration::Key => CallOptions::new().generate_idempotency_key(),
    };
    (request, options)
}

#[async_trait::async_trait]
impl<E: Engine> AsyncClient for EvidentClient<E> {
    async fn call(&self, spec: &CallSpec) -> Outcome {
        let (request, options) = evident_call(spec);
        let body = if spec.body.is_empty() {
            client::Body::Empty
        } else {
            client::Body::Full(spec.body.clone())
        };
        let request = request.body(body).expect("a valid request");
        match self.0.execute(request, options).await {
            Ok(response) => Outcome::answered(response.status().as_u16())
                .with_records(client::attempts_of(&response)),
            Err(e) => Outcome::failed(&e).with_records(e.attempts()),
        }
    }
}

// ---- ureq -----------------------------------------------------------------

pub(crate) fn bare_ureq(setup: Setup) -> Driver {
    let config = ureq::config::Config::builder()
        .http_status_as_error(false)
        .proxy(None)
        .max_idle_connections_per_host(setup.pool)
        .max_idle_connections(setup.pool)
        // No timeout: with one, ureq's default resolver spawns a thread per
        // lookup (even of an IP literal), which would bill ureq for a
        // setting evident's engine does not need to take the same way.
        .build();
    Driver::Blocking(Arc::new(BareUreq(ureq::Agent::new_with_config(config))))
}

struct BareUreq(ureq::Agent);

impl BlockingClient for BareUreq {
    fn call(&self, spec: &CallSpec) -> Outcome {
        let result = if spec.post {
            let mut request = self.0.post(&spec.url);
            for (name, value) in spec.headers() {
                request = request.header(name, value);
            }
            request.send(&spec.body[..])
        } else {
            let mut request = self.0.get(&spec.url);
            for (name, value) in spec.headers() {
                request = request.header(name, value);
            }
            request.call()
        };
        match result {
            Ok(mut response) => {
                let status = response.status().as_u16();
                match response.body_mut().read_to_vec() {
                    Ok(_) => Outcome::answered(status),
                    Err(e) => Outcome::failed(e),
                }
            }
            Err(e) => Outcome::failed(e),
        }
    }
}

struct BlockingEngineAlone<E>(E);

impl<E: BlockingEngine> BlockingClient for BlockingEngineAlone<E> {
    fn call(&self, spec: &CallSpec) -> Outcome {
        let request = spec.builder();
        let body = if spec.body.is_empty() {
            BlockingAttemptBody::Empty
        } else {
            BlockingAttemptBody::Full(spec.body.clone())
        };
        let request = request.body(body).expect("a valid request");
        let attempt = repeatable_attempt_context(
            Progress::new(),
            Some(std::time::Instant::now() + CALL_TIMEOUT),
        );
        match self.0.send(request, &attempt) {
            Ok(response) => {
                attempt.progress().head_received();
                let status = response.status().as_u16();
                let mut body = response.into_body();
                loop {
                    match body.next_chunk() {
                        Ok(Some(_)) => {}
                        Ok(None) => return Outcome::answered(status),
                        Err(e) => return Outcome::failed(e),
                    }
                }
            }
            Err(e) => Outcome::failed(e),
        }
    }
}

struct EvidentBlockingClient<E>(client::blocking::Client<E>);

impl<E: BlockingEngine> BlockingClient for EvidentBlockingClient<E> {
    fn call(&self, spec: &CallSpec) -> Outcome {
        let (request, options) = evident_call(spec);
        let body = if spec.body.is_empty() {
            client::blocking::Body::Empty
        } else {
            client::blocking::Body::Full(spec.body.clone())
        };
        let request = request.body(body).expect("a valid request");
        match self.0.execute(request, options) {
            Ok(response) => Outcome::answered(response.status().as_u16())
                .with_records(client::attempts_of(&response)),
            Err(e) => Outcome::failed(&e).with_records(e.attempts()),
        }
    }
}

// ---- reqwest and reqwest-retry --------------------------------------------

/// reqwest-retry's shortest backoff in these runs. Its default (1 s) would
/// make an outage run last minutes; a short one shows the same receipts.
pub const REQWEST_RETRY_MIN_BACKOFF: Duration = Duration::from_millis(10);
/// reqwest-retry's longest backoff in these runs (see above).
const REQWEST_RETRY_MAX_BACKOFF: Duration = Duration::from_millis(100);
/// reqwest-retry's retries per call: 3, the count its documentation's
/// examples use (and what makes its 4 receipts per call in an outage).
const REQWEST_RETRY_MAX_RETRIES: u32 = 3;

fn reqwest_client(setup: Setup) -> Result<reqwest::Client, reqwest::Error> {
    // The workspace builds reqwest with `rustls-no-provider` (the evident
    // engine brings ring through the core's TLS policy), so a bare client
    // needs a rustls configuration too; the benchmark speaks plain HTTP, so
    // it trusts nothing.
    let tls = evident_core::tls::TlsOptions::new()
        .without_default_roots()
        .client_config(&[evident_core::tls::ALPN_HTTP1])
        .expect("a rustls configuration with no roots is valid");
    let mut builder = reqwest::Client::builder()
        .tls_backend_preconfigured(tls)
        // Proxies from the environment must not divert loopback calls.
        .no_proxy()
        .pool_max_idle_per_host(setup.pool)
        .tcp_nodelay(true)
        .timeout(CALL_TIMEOUT);
    if setup.protocol == Protocol::Http2 {
        builder = builder.http2_prior_knowledge();
    }
    builder.build()
}

pub(crate) fn bare_reqwest(setup: Setup) -> Result<Driver, reqwest::Error> {
    Ok(Driver::Async(Arc::new(BareReqwest(reqwest_client(setup)?))))
}

struct BareReqwest(reqwest::Client);

fn reqwest_request(
    spec: &CallSpec,
    build: impl FnOnce(reqwest::Method, String) -> reqwest::RequestBuilder,
) -> reqwest::RequestBuilder {
    let mut request = build(spec.method(), spec.url.to_string());
    for (name, value) in spec.headers() {
        request = request.header(name, value);
    }
    if spec.post {
        request = request.body(spec.body.clone());
    }
    request
}

#[async_trait::async_trait]
impl AsyncClient for BareReqwest {
    async fn call(&self, spec: &CallSpec) -> Outcome {
        let request = reqwest_request(spec, |m, u| self.0.request(m, u));
        match request.send().await {
            Ok(response) => {
                let status = response.status().as_u16();
                match response.bytes().await {
                    Ok(_) => Outcome::answered(status),
                    Err(e) => Outcome::failed(e),
                }
            }
            Err(e) => Outcome::failed(e),
        }
    }
}

/// reqwest wrapped in reqwest-retry's transient-error middleware.
pub struct ReqwestRetry(reqwest_middleware::ClientWithMiddleware);

impl ReqwestRetry {
    /// reqwest-retry over a reqwest client set up like the bare one.
    pub fn new(setup: Setup, min_backoff: Duration) -> Result<ReqwestRetry, reqwest::Error> {
        let policy = reqwest_retry::policies::ExponentialBackoff::builder()
            .retry_bounds(min_backoff, REQWEST_RETRY_MAX_BACKOFF.max(min_backoff))
            .build_with_max_retries(REQWEST_RETRY_MAX_RETRIES);
        let client = reqwest_middleware::ClientBuilder::new(reqwest_client(setup)?)
            .with(reqwest_retry::RetryTransientMiddleware::new_with_policy(
                policy,
            ))
            .build();
        Ok(ReqwestRetry(client))
    }
}

#[async_trait::async_trait]
impl AsyncClient for ReqwestRetry {
    async fn call(&self, spec: &CallSpec) -> Outcome {
        let mut request = self.0.request(spec.method(), spec.url.to_string());
        for (name, value) in spec.headers() {
            request = request.header(name, value);
        }
        if spec.post {
            request = request.body(spec.body.clone());
        }
        match request.send().await {
            Ok(response) => {
                let status = response.status().as_u16();
                match response.bytes().await {
                    Ok(_) => Outcome::answered(status),
                    Err(e) => Outcome::failed(e),
                }
            }
            Err(e) => Outcome::failed(e),
        }
    }
}

// ---- isahc ----------------------------------------------------------------

/// Bare isahc as users get it, with what would otherwise differ from the
/// other clients turned off: no proxy from the environment, no redirects
/// (isahc's default too), no `Accept-Encoding` or decompression, HTTP/1.1.
/// Its connection cache holds the same number of idle connections as the
/// other clients' pools (one origin here, so per origin). With `reuse`
/// false the cache is off, as in evident-isahc. TCP_NODELAY is libcurl's
/// default; so is `Expect: 100-continue` only above 1 MiB (libcurl 8.22),
/// so the 16 KiB POST goes with its head, as on every client.
pub(crate) fn bare_isahc(setup: Setup, reuse: bool) -> Result<Driver, isahc::Error> {
    use isahc::config::{Configurable, RedirectPolicy, VersionNegotiation};
    let client = isahc::HttpClient::builder()
        .connection_cache_size(if reuse { setup.pool } else { 0 })
        .version_negotiation(VersionNegotiation::http11())
        .redirect_policy(RedirectPolicy::None)
        .proxy(None)
        .automatic_decompression(false)
        .timeout(CALL_TIMEOUT)
        .build()?;
    Ok(Driver::Async(Arc::new(BareIsahc(client))))
}

struct BareIsahc(isahc::HttpClient);

#[async_trait::async_trait]
impl AsyncClient for BareIsahc {
    async fn call(&self, spec: &CallSpec) -> Outcome {
        use isahc::AsyncReadResponseExt;
        let request = spec.builder();
        // isahc takes its body as a `Vec` (or a reader): the copy a user
        // holding `Bytes` makes. An empty `Vec` would still be a body (curl
        // would upload zero bytes), so a GET gets isahc's empty body.
        let body = if spec.body.is_empty() {
            isahc::AsyncBody::empty()
        } else {
            isahc::AsyncBody::from(spec.body.to_vec())
        };
        let request = request.body(body).expect("a valid request");
        match self.0.send_async(request).await {
            Ok(mut response) => {
                let status = response.status().as_u16();
                match response.bytes().await {
                    Ok(_) => Outcome::answered(status),
                    Err(e) => Outcome::failed(e),
                }
            }
            Err(e) => Outcome::failed(e),
        }
    }
}
