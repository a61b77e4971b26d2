//! A real `redis-server` for the tests and the benchmark: started on a free
//! loopback port in a temporary directory, without persistence, killed and
//! restarted on demand. Never a mock: the point is to see what a real
//! server does to the fleet.
#![allow(dead_code, unreachable_pub)] // each test target uses a part

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long a starting server may take to answer: generous for a loaded
/// CI machine; polled, so a fast start costs nothing.
const START_TIMEOUT: Duration = Duration::from_secs(10);
/// Polling step while waiting for the server.
const POLL: Duration = Duration::from_millis(10);

pub struct RedisServer {
    child: Option<Child>,
    port: u16,
    dir: PathBuf,
    extra: Vec<String>,
}

/// A loopback port nothing listens on right now.
pub fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind a loopback port");
    listener.local_addr().unwrap().port()
}

impl RedisServer {
    /// Starts a server; panics with a clear message if `redis-server` is
    /// not installed, so a machine without it fails instead of skipping.
    pub fn start() -> Self {
        Self::start_with(&[])
    }

    /// Starts a server with extra arguments (`--requirepass x`, ...).
    pub fn start_with(extra: &[&str]) -> Self {
        Self::start_with_port(|_| extra.iter().map(|s| s.to_string()).collect())
    }

    /// Starts a server speaking only TLS on its port, with this
    /// certificate and key (PEM files), not asking clients for theirs.
    pub fn start_tls(cert: &std::path::Path, key: &std::path::Path) -> Self {
        Self::start_with_port(|port| {
            vec![
                "--port".into(),
                "0".into(),
                "--tls-port".into(),
                port.to_string(),
                "--tls-cert-file".into(),
                cert.display().to_string(),
                "--tls-key-file".into(),
                key.display().to_string(),
                "--tls-ca-cert-file".into(),
                cert.display().to_string(),
                "--tls-auth-clients".into(),
                "no".into(),
            ]
        })
    }

    /// Starts a server with extra arguments made from its port (later
    /// arguments override earlier ones).
    pub fn start_with_port(extra: impl FnOnce(u16) -> Vec<String>) -> Self {
        let port = free_port();
        let extra = extra(port);
        let dir = std::env::temp_dir().join(format!("evident-redis-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("create the server's temp dir");
        let mut server = RedisServer {
            child: None,
            port,
            dir,
            extra,
        };
        server.launch();
        server
    }

    fn launch(&mut self) {
        let child = Command::new("redis-server")
            .args(["--port", &self.port.to_string()])
            .args(["--bind", "127.0.0.1"])
            .args(["--save", ""])
            .args(["--appendonly", "no"])
            .args(["--daemonize", "no"])
            .args(["--loglevel", "warning"])
            .arg("--dir")
            .arg(&self.dir)
            .args(&self.extra)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "cannot start redis-server ({e}): these tests need a real Redis; \
                     install it with `apt-get install -y redis-server` (.ci/run does)"
                )
            });
        self.child = Some(child);
        self.wait_until_listening();
    }

    fn wait_until_listening(&mut self) {
        let start = Instant::now();
        while start.elapsed() < START_TIMEOUT {
            if std::net::TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
                return;
            }
            if let Some(status) = self
                .child
                .as_mut()
                .and_then(|c| c.try_wait().ok().flatten())
            {
                panic!("redis-server exited at start-up: {status}");
            }
            std::thread::sleep(POLL);
        }
        panic!(
            "redis-server did not listen on port {} within {START_TIMEOUT:?}",
            self.port
        );
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// `redis://127.0.0.1:port` (no credentials).
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Kills the server (SIGKILL: no goodbye to clients) and waits for it.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts the server again on the same port, empty.
    pub fn restart(&mut self) {
        self.kill();
        self.launch();
    }

    /// A plain redis-rs connection for the test's own commands.
    pub fn connection(&self, url: &str) -> redis::Connection {
        redis::Client::open(url)
            .and_then(|c| c.get_connection_with_timeout(START_TIMEOUT))
            .expect("connect to the test's redis-server")
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.kill();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
