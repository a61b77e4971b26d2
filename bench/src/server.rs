//! Loopback servers: a healthy one (HTTP/1.1 and HTTP/2 by prior
//! knowledge) and three outages. Every server counts its **receipts**:
//! requests it read whole, which is what "executed on the server" means
//! here.
//!
//! All servers run on one runtime whose threads are marked as server
//! threads (see [`crate::measure`]), started once and kept for the life of
//! the process, so their CPU can be subtracted from every measurement.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::io::AsyncReadExt;
use tokio::net::{TcpListener, TcpStream};

use crate::measure::enter_server_thread;

/// Worker threads of the server runtime: one per core of the small
/// machines this runs on; the clients get the same number.
const SERVER_THREADS: usize = 2;

/// The body of every healthy answer: small, as the GET workload asks.
pub const SMALL_BODY: &[u8] = b"{\"status\":\"ok\",\"served_by\":\"evident-bench loopback\"}";

/// The header carrying a call's number in outage runs, so the server can
/// tell a re-sent call from a new one.
pub const CALL_ID_HEADER: &str = "x-bench-call";

/// The largest request head the outage server reads before giving up on a
/// connection: far above any head the clients send.
const MAX_HEAD: usize = 16 * 1024;

/// What a server does with each request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Behaviour {
    /// Answers 200 with [`SMALL_BODY`] after reading the request whole.
    Healthy,
    /// Reads the request whole, then resets the connection (RST) unanswered.
    ResetAfterRead,
    /// Reads the request whole and answers 503.
    Only503,
    /// Nothing listens: every connection is refused.
    Refuse,
}

/// What a server has received.
#[derive(Debug, Default)]
pub struct Receipts {
    total: AtomicU64,
    per_call: Mutex<HashMap<u64, u64>>,
}

impl Receipts {
    fn received(&self, call: Option<u64>) {
        self.total.fetch_add(1, Ordering::Relaxed);
        if let Some(call) = call {
            *self
                .per_call
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .entry(call)
                .or_default() += 1;
        }
    }

    /// Requests read whole so far.
    pub fn total(&self) -> u64 {
        self.total.load(Ordering::Relaxed)
    }

    /// The most receipts any one numbered call got.
    pub fn max_per_call(&self) -> u64 {
        self.per_call
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .values()
            .copied()
            .max()
            .unwrap_or(0)
    }

    /// Forgets everything received so far.
    pub fn reset(&self) {
        self.total.store(0, Ordering::Relaxed);
        self.per_call
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
    }
}

/// A running loopback server.
#[derive(Debug)]
pub struct Server {
    addr: SocketAddr,
    receipts: Arc<Receipts>,
    behaviour: Behaviour,
}

impl Server {
    /// Starts a server on 127.0.0.1 with `behaviour`. HTTP/1.1 and HTTP/2
    /// (prior knowledge) are told apart by the connection preface, so one
    /// port serves both.
    pub fn start(behaviour: Behaviour) -> std::io::Result<Server> {
        let receipts = Arc::new(Receipts::default());
        let std_listener = std::net::TcpListener::bind("127.0.0.1:0")?;
        let addr = std_listener.local_addr()?;
        if behaviour == Behaviour::Refuse {
            // Bound then closed: the port refuses connections.
            drop(std_listener);
            return Ok(Server {
                addr,
                receipts,
                behaviour,
            });
        }
        std_listener.set_nonblocking(true)?;
        let runtime = runtime();
        let listener = {
            let _entered = runtime.enter();
            TcpListener::from_std(std_listener)?
        };
        runtime.spawn(accept_loop(listener, behaviour, receipts.clone()));
        Ok(Server {
            addr,
            receipts,
            behaviour,
        })
    }

    /// The base URL, `http://127.0.0.1:port`.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// What the server received.
    pub fn receipts(&self) -> &Receipts {
        &self.receipts
    }

    /// What the server does.
    pub fn behaviour(&self) -> Behaviour {
        self.behaviour
    }
}

fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(SERVER_THREADS)
            .thread_name("bench-server")
            .on_thread_start(enter_server_thread)
            .enable_all()
            .build()
            .expect("the server runtime starts")
    })
}

async fn accept_loop(listener: TcpListener, behaviour: Behaviour, receipts: Arc<Receipts>) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        let _ = stream.set_nodelay(true);
        let receipts = receipts.clone();
        tokio::spawn(async move {
            match behaviour {
                Behaviour::ResetAfterRead => reset_after_read(stream, &receipts).await,
                _ => serve_http(stream, behaviour, receipts).await,
            }
        });
    }
}

/// The HTTP/2 connection preface (RFC 9113 §3.4).
const H2_PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

async fn serve_http(stream: TcpStream, behaviour: Behaviour, receipts: Arc<Receipts>) {
    let mut peek = [0u8; H2_PREFACE.len()];
    let is_h2 = matches!(
        tokio::time::timeout(Duration::from_secs(5), peek_exact(&stream, &mut peek)).await,
        Ok(Ok(())) if peek == H2_PREFACE
    );
    let status = if behaviour == Behaviour::Only503 {
        503
    } else {
        200
    };
    let service = service_fn(move |request: http::Request<hyper::body::Incoming>| {
        let receipts = receipts.clone();
        async move {
            let call = call_id(request.headers());
            // A receipt is a request read whole.
            if request.into_body().collect().await.is_ok() {
                receipts.received(call);
            }
            let response = http::Response::builder()
                .status(status)
                .header(http::header::CONTENT_TYPE, "application/json")
                .body(Full::new(Bytes::from_static(SMALL_BODY)))
                .expect("a valid response");
            Ok::<_, Infallible>(response)
        }
    });
    let io = TokioIo::new(stream);
    if is_h2 {
        let _ = hyper::server::conn::http2::Builder::new(TokioExecutor::new())
            .serve_connection(io, service)
            .await;
    } else {
        let _ = hyper::server::conn::http1::Builder::new()
            .serve_connection(io, service)
            .await;
    }
}

/// Waits until `buf.len()` bytes can be peeked (or the peer sent less and
/// stopped, which leaves `buf` partly filled).
async fn peek_exact(stream: &TcpStream, buf: &mut [u8]) -> std::io::Result<()> {
    loop {
        let n = stream.peek(buf).await?;
        if n == 0 || n == buf.len() || !H2_PREFACE.starts_with(&buf[..n]) {
            return Ok(());
        }
        // Part of the preface: wait for more.
        stream.readable().await?;
        tokio::task::yield_now().await;
    }
}

fn call_id(headers: &http::HeaderMap) -> Option<u64> {
    headers
        .get(CALL_ID_HEADER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
}

/// Reads one HTTP/1.1 request whole, counts it, and resets the connection.
async fn reset_after_read(mut stream: TcpStream, receipts: &Receipts) {
    let mut buf = Vec::with_capacity(4096);
    let (head_len, content_length, call) = loop {
        let mut chunk = [0u8; 4096];
        match stream.read(&mut chunk).await {
            Ok(0) | Err(_) => return,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
        let mut headers = [httparse::EMPTY_HEADER; 64];
        let mut request = httparse::Request::new(&mut headers);
        match request.parse(&buf) {
            Ok(httparse::Status::Complete(head_len)) => {
                let header = |name: &str| {
                    request
                        .headers
                        .iter()
                        .find(|h| h.name.eq_ignore_ascii_case(name))
                        .and_then(|h| std::str::from_utf8(h.value).ok())
                        .and_then(|v| v.trim().parse::<u64>().ok())
                };
                break (
                    head_len,
                    header("content-length").unwrap_or(0),
                    header(CALL_ID_HEADER),
                );
            }
            Ok(httparse::Status::Partial) if buf.len() < MAX_HEAD => {}
            _ => return,
        }
    };
    let mut body_seen = (buf.len() - head_len) as u64;
    while body_seen < content_length {
        let mut chunk = [0u8; 16 * 1024];
        match stream.read(&mut chunk).await {
            Ok(0) | Err(_) => return,
            Ok(n) => body_seen += n as u64,
        }
    }
    receipts.received(call);
    // Linger zero: closing sends RST instead of FIN.
    let _ = socket2::SockRef::from(&stream).set_linger(Some(Duration::ZERO));
    drop(stream);
}
