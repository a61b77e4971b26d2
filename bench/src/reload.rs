//! A real server reloading under load: nginx from the distribution, HTTPS
//! with HTTP/2 by ALPN, reloaded gracefully (`SIGHUP`) every few hundred
//! milliseconds while callers send POSTs that declare nothing.
//!
//! A reload makes nginx's old workers send GOAWAY on their HTTP/2
//! connections and finish what they accepted. A client that takes a
//! GOAWAY for proof that a stream was not processed when it was re-sends a
//! POST that already ran. Every call carries a unique [`CALL_ID_HEADER`];
//! nginx's access log names it for every request it executed, so
//! executions per call are counted where they happen, on the server.
//!
//! ```sh
//! cargo run -p evident-bench --release --bin nginx-reload                    # 30 runs of 6 s per client
//! cargo run -p evident-bench --release --bin nginx-reload -- --runs 3 --seconds 2
//! ```
//!
//! Clients: the evident client over the hyper and reqwest engines (each
//! attempt's record kept), and bare reqwest with its default retry policy,
//! whose "protocol NACK" retries re-send after a GOAWAY.

use std::collections::HashMap;
use std::fs;
use std::io;
use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use evident_core::client::{self, CallOptions};
use evident_core::decide::Decision;
use evident_core::observe::AttemptRecord;

/// The request header that names each call in nginx's access log.
pub const CALL_ID_HEADER: &str = "x-call-id";

/// Where Debian's package installs nginx.
pub const NGINX: &str = "/usr/sbin/nginx";

/// Concurrent callers, as in the report that found the double execution.
pub const CALLERS: usize = 16;

/// How often nginx is reloaded.
pub const RELOAD_EVERY: Duration = Duration::from_millis(400);

/// The request body: 1 KiB.
pub const BODY_BYTES: usize = 1024;

/// The evident clients' attempt timeout: far above a loopback exchange,
/// it only ends an attempt whose stream a reload left unanswered.
pub const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(2);

/// How long nginx may take to start, or to stop once asked.
const NGINX_LIMIT: Duration = Duration::from_secs(10);

/// Which client a run drives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subject {
    /// The evident client over the hyper engine.
    EvidentHyper,
    /// The evident client over the reqwest engine.
    EvidentReqwest,
    /// reqwest alone, with its default retry policy.
    BareReqwest,
}

impl Subject {
    /// Every client, in report order.
    pub const ALL: [Subject; 3] = [
        Subject::EvidentHyper,
        Subject::EvidentReqwest,
        Subject::BareReqwest,
    ];

    /// The client's name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Subject::EvidentHyper => "evident/hyper",
            Subject::EvidentReqwest => "evident/reqwest",
            Subject::BareReqwest => "bare reqwest",
        }
    }
}

/// What one or more runs counted.
#[derive(Debug, Default, Clone)]
pub struct Tally {
    /// Calls made.
    pub calls: u64,
    /// Calls that ended with an answer.
    pub answered: u64,
    /// Calls that ended with an error.
    pub failed: u64,
    /// Retries the evident client decided, by reason.
    pub retries: HashMap<String, u64>,
    /// Executions nginx logged for the calls.
    pub executions: u64,
    /// Calls nginx executed more than once.
    pub executed_twice: u64,
    /// The records of the calls executed more than once (evident clients).
    pub duplicates: Vec<String>,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.calls += other.calls;
        self.answered += other.answered;
        self.failed += other.failed;
        for (reason, n) in other.retries {
            *self.retries.entry(reason).or_default() += n;
        }
        self.executions += other.executions;
        self.executed_twice += other.executed_twice;
        self.duplicates.extend(other.duplicates);
    }

    /// One line: calls, answers, failures, retries by reason, executions
    /// and calls executed twice.
    pub fn line(&self) -> String {
        let mut retries: Vec<_> = self.retries.iter().collect();
        retries.sort();
        let retries: Vec<String> = retries.iter().map(|(r, n)| format!("{r} {n}")).collect();
        format!(
            "{} calls, {} answered, {} failed, retries [{}], {} executions, {} executed twice",
            self.calls,
            self.answered,
            self.failed,
            retries.join(", "),
            self.executions,
            self.executed_twice
        )
    }
}

/// Why nginx could not be run.
#[derive(Debug, thiserror::Error)]
pub enum ReloadError {
    /// nginx is not installed.
    #[error("{NGINX} not found: install Debian's nginx (apt-get install nginx-light)")]
    NoNginx,
    /// nginx did not start or stop, or its files could not be written.
    #[error("nginx: {0}")]
    Nginx(String),
    /// An I/O error around nginx's files.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// A running nginx in its own directory, stopped on drop.
pub struct Nginx {
    dir: PathBuf,
    master: Child,
    port: u16,
    ca_der: Vec<u8>,
}

impl Nginx {
    /// Starts nginx on a free loopback port with 2 workers, HTTPS and
    /// HTTP/2 by ALPN, answering 200 to every request without reading its
    /// body, and logging every request's call id.
    pub fn start() -> Result<Nginx, ReloadError> {
        if !Path::new(NGINX).exists() {
            return Err(ReloadError::NoNginx);
        }
        let dir = std::env::temp_dir().join(format!(
            "evident-nginx-{}-{}",
            std::process::id(),
            NEXT_DIR.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("tmp"))?;
        let (cert_pem, key_pem, ca_der) = certificate()?;
        fs::write(dir.join("cert.pem"), cert_pem)?;
        fs::write(dir.join("key.pem"), key_pem)?;
        let port = free_port()?;
        fs::write(dir.join("nginx.conf"), config(&dir, port))?;
        let master = Command::new(NGINX)
            .arg("-p")
            .arg(&dir)
            .arg("-c")
            .arg(dir.join("nginx.conf"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()?;
        let nginx = Nginx {
            dir,
            master,
            port,
            ca_der,
        };
        nginx.until_listening()?;
        Ok(nginx)
    }

    fn until_listening(&self) -> Result<(), ReloadError> {
        let started = Instant::now();
        while started.elapsed() < NGINX_LIMIT {
            if std::net::TcpStream::connect((Ipv4Addr::LOCALHOST, self.port)).is_ok() {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Err(ReloadError::Nginx(format!(
            "not listening after {NGINX_LIMIT:?}; see {}",
            self.dir.join("error.log").display()
        )))
    }

    /// The URL every call goes to.
    pub fn url(&self) -> String {
        format!("https://localhost:{}/", self.port)
    }

    /// The loopback address to reach `localhost` at.
    pub fn addr(&self) -> SocketAddr {
        SocketAddr::from((Ipv4Addr::LOCALHOST, self.port))
    }

    /// The test CA's certificate (DER), to trust.
    pub fn ca_der(&self) -> &[u8] {
        &self.ca_der
    }

    /// A graceful reload: new workers start, old ones finish what they
    /// accepted and close their connections.
    pub fn reload(&self) {
        signal(&self.master, libc::SIGHUP);
    }

    /// Executions per call id, from the access log.
    pub fn executions(&self) -> io::Result<HashMap<u64, u64>> {
        let log = fs::read_to_string(self.dir.join("access.log"))?;
        let mut executions = HashMap::new();
        for id in log
            .lines()
            .filter_map(|l| l.split(' ').next()?.parse().ok())
        {
            *executions.entry(id).or_default() += 1;
        }
        Ok(executions)
    }

    /// Stops gracefully (`SIGQUIT`): every worker finishes and logs what it
    /// accepted.
    pub fn quit(&mut self) -> Result<(), ReloadError> {
        signal(&self.master, libc::SIGQUIT);
        let started = Instant::now();
        while started.elapsed() < NGINX_LIMIT {
            if self.master.try_wait()?.is_some() {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.master.kill();
        Err(ReloadError::Nginx("did not stop when asked".into()))
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        if self.master.try_wait().ok().flatten().is_none() {
            let _ = self.quit();
        }
        let _ = fs::remove_dir_all(&self.dir);
    }
}

static NEXT_DIR: AtomicU64 = AtomicU64::new(0);

fn signal(child: &Child, signal: libc::c_int) {
    if let Ok(pid) = libc::pid_t::try_from(child.id()) {
        // SAFETY: kill(2) on our own child's pid; no memory is involved.
        unsafe {
            libc::kill(pid, signal);
        }
    }
}

fn free_port() -> io::Result<u16> {
    Ok(TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?
        .local_addr()?
        .port())
}

/// nginx 1.22's configuration (Debian 12): `listen … ssl http2`.
fn config(dir: &Path, port: u16) -> String {
    let dir = dir.display();
    format!(
        r#"worker_processes 2;
daemon off;
master_process on;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    log_format calls '$http_x_call_id $connection $connection_requests $request_method $status $server_protocol';
    access_log {dir}/access.log calls;
    client_body_temp_path {dir}/tmp/body;
    proxy_temp_path {dir}/tmp/proxy;
    fastcgi_temp_path {dir}/tmp/fastcgi;
    uwsgi_temp_path {dir}/tmp/uwsgi;
    scgi_temp_path {dir}/tmp/scgi;
    server {{
        listen 127.0.0.1:{port} ssl http2;
        server_name localhost;
        ssl_certificate {dir}/cert.pem;
        ssl_certificate_key {dir}/key.pem;
        location / {{ return 200 "ok"; }}
    }}
}}
"#
    )
}

/// A test CA and a certificate for `localhost` it signed: (certificate
/// PEM, key PEM, CA DER).
fn certificate() -> Result<(String, String, Vec<u8>), ReloadError> {
    use rcgen::{BasicConstraints, CertificateParams, IsCa, Issuer, KeyPair};
    let failed = |e: rcgen::Error| ReloadError::Nginx(format!("test certificate: {e}"));
    let ca_key = KeyPair::generate().map_err(failed)?;
    let mut ca = CertificateParams::new(Vec::<String>::new()).map_err(failed)?;
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let ca_cert = ca.self_signed(&ca_key).map_err(failed)?;
    let issuer = Issuer::new(ca, ca_key);
    let key = KeyPair::generate().map_err(failed)?;
    let leaf = CertificateParams::new(vec!["localhost".to_owned()]).map_err(failed)?;
    let cert = leaf.signed_by(&key, &issuer).map_err(failed)?;
    Ok((cert.pem(), key.serialize_pem(), ca_cert.der().to_vec()))
}

/// A client under test.
enum Caller {
    Evident(Box<dyn EvidentCall>),
    Bare(reqwest::Client),
}

#[async_trait::async_trait]
trait EvidentCall: Send + Sync {
    async fn call(&self, request: http::Request<client::Body>) -> (bool, Vec<AttemptRecord>);
}

#[async_trait::async_trait]
impl<E: evident_core::Engine> EvidentCall for client::Client<E> {
    async fn call(&self, request: http::Request<client::Body>) -> (bool, Vec<AttemptRecord>) {
        // A POST that declares nothing: retried only on proof.
        match self.execute(request, CallOptions::new()).await {
            Ok(response) => (true, client::attempts_of(&response).to_vec()),
            Err(e) => (false, e.attempts().to_vec()),
        }
    }
}

fn caller(subject: Subject, nginx: &Nginx) -> Result<Caller, Box<dyn std::error::Error>> {
    let roots = vec![nginx.ca_der().to_vec()];
    let overrides =
        evident_core::HostOverrides::new().map("localhost", vec![Ipv4Addr::LOCALHOST.into()]);
    let client = || client::ClientBuilder::new().attempt_timeout(ATTEMPT_TIMEOUT);
    Ok(match subject {
        Subject::EvidentHyper => {
            let engine = evident_hyper::HyperEngine::builder()
                .root_certificates(roots)
                .host_overrides(overrides)
                .build()?;
            Caller::Evident(Box::new(client().build(engine)?))
        }
        Subject::EvidentReqwest => {
            let engine = evident_reqwest::ReqwestEngine::builder()
                .root_certificates(roots)
                .host_overrides(overrides)
                .build()?;
            Caller::Evident(Box::new(client().build(engine)?))
        }
        Subject::BareReqwest => {
            let tls = evident_core::tls::TlsOptions::new()
                .with_only_roots(roots)?
                .client_config(&[evident_core::tls::ALPN_H2, evident_core::tls::ALPN_HTTP1])?;
            Caller::Bare(
                reqwest::Client::builder()
                    .tls_backend_preconfigured(tls)
                    .no_proxy()
                    .resolve("localhost", nginx.addr())
                    .timeout(ATTEMPT_TIMEOUT)
                    .build()?,
            )
        }
    })
}

/// One run: nginx started afresh, [`CALLERS`] tasks sending POSTs for
/// `length` while it is reloaded every [`RELOAD_EVERY`], then nginx
/// stopped gracefully (its master exits once every worker, old ones
/// included, has finished and logged what it accepted) and its log read.
pub async fn run(subject: Subject, length: Duration) -> Result<Tally, Box<dyn std::error::Error>> {
    let mut nginx = Nginx::start()?;
    let caller = Arc::new(caller(subject, &nginx)?);
    let url = nginx.url();
    let next_id = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..CALLERS {
        let (caller, url, next_id) = (caller.clone(), url.clone(), next_id.clone());
        tasks.push(tokio::spawn(async move {
            let mut outcomes = Vec::new();
            let body = Bytes::from(vec![b'x'; BODY_BYTES]);
            while started.elapsed() < length {
                let id = next_id.fetch_add(1, Ordering::Relaxed);
                let outcome = match &*caller {
                    Caller::Evident(client) => {
                        let request = http::Request::post(url.as_str())
                            .header(CALL_ID_HEADER, id)
                            .body(client::Body::Full(body.clone()))
                            .expect("a valid request");
                        client.call(request).await
                    }
                    Caller::Bare(client) => {
                        let sent = client
                            .post(url.as_str())
                            .header(CALL_ID_HEADER, id)
                            .body(body.clone())
                            .send()
                            .await;
                        let answered = match sent {
                            Ok(response) => response.bytes().await.is_ok(),
                            Err(_) => false,
                        };
                        (answered, Vec::new())
                    }
                };
                outcomes.push((id, outcome));
            }
            outcomes
        }));
    }
    let reloads = async {
        let mut tick = tokio::time::interval(RELOAD_EVERY);
        tick.tick().await;
        while started.elapsed() < length {
            tick.tick().await;
            nginx.reload();
        }
    };
    let (outcomes, ()) = tokio::join!(join_all(tasks), reloads);
    drop(caller);
    nginx.quit()?;
    let calls = next_id.load(Ordering::Relaxed);
    let executions = nginx.executions()?;

    let mut tally = Tally {
        calls,
        ..Tally::default()
    };
    for (id, (answered, records)) in outcomes? {
        if answered {
            tally.answered += 1;
        } else {
            tally.failed += 1;
        }
        for record in &records {
            if let Decision::Retry { reason, .. } = record.decision {
                *tally.retries.entry(reason.as_str().to_owned()).or_default() += 1;
            }
        }
        let executed = executions.get(&id).copied().unwrap_or(0);
        tally.executions += executed;
        if executed > 1 {
            tally.executed_twice += 1;
            let records: Vec<String> = records.iter().map(ToString::to_string).collect();
            tally.duplicates.push(format!(
                "call {id}: executed {executed}: {}",
                records.join(" | ")
            ));
        }
    }
    Ok(tally)
}

async fn join_all<T>(
    tasks: Vec<tokio::task::JoinHandle<Vec<T>>>,
) -> Result<Vec<T>, tokio::task::JoinError> {
    let mut all = Vec::new();
    for task in tasks {
        all.extend(task.await?);
    }
    Ok(all)
}

/// `runs` runs of `length` for each client, printed as they finish;
/// returns each client's total.
pub async fn campaign(
    runs: u32,
    length: Duration,
) -> Result<Vec<(Subject, Tally)>, Box<dyn std::error::Error>> {
    let mut totals: Vec<(Subject, Tally)> = Subject::ALL
        .iter()
        .map(|s| (*s, Tally::default()))
        .collect();
    for run_index in 0..runs {
        for (subject, total) in &mut totals {
            let tally = run(*subject, length).await?;
            println!("run {run_index:>2} {:<16} {}", subject.name(), tally.line());
            for duplicate in &tally.duplicates {
                println!("    {duplicate}");
            }
            total.add(tally);
        }
    }
    Ok(totals)
}
