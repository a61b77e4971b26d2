//! Tiny loopback servers and helpers for the engine's behaviour tests.
//!
//! Deliberately independent of evident-conformance: these servers are plain
//! threads on std sockets (and rustls for TLS) that do just enough to put
//! the engine in one situation each. Each server handles a fixed number of
//! connections and reports what it received over a channel, so tests wait
//! for events, never for time.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

use bytes::{Bytes, BytesMut};
use evident_core::{AttemptContext, BlockingAttemptBody, BlockingEngine, EngineFailure, Progress};
use rustls_pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};

/// A canned keep-alive response with a 5-byte body.
pub const OK_HELLO: &[u8] = b"HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello";

/// How long a test waits for a server event before declaring the test
/// broken. Only a safety net against a hung test: no test waits for it to
/// make something true.
pub const EVENT_TIMEOUT: Duration = Duration::from_secs(10);

/// A fresh attempt context. Its deadline is only a safety net, so that a
/// broken engine fails the test instead of hanging it.
pub fn attempt() -> AttemptContext {
    attempt_until(Instant::now() + EVENT_TIMEOUT)
}

/// A fresh attempt context whose deadline is `deadline`.
pub fn attempt_until(deadline: Instant) -> AttemptContext {
    evident_core::testing::attempt_context(Progress::new(), Some(deadline))
}

/// A GET without a body.
pub fn get(url: &str) -> http::Request<BlockingAttemptBody> {
    http::Request::get(url)
        .body(BlockingAttemptBody::Empty)
        .unwrap()
}

/// A POST with an in-memory body.
pub fn post(url: &str, body: &'static str) -> http::Request<BlockingAttemptBody> {
    http::Request::post(url)
        .body(BlockingAttemptBody::Full(Bytes::from_static(
            body.as_bytes(),
        )))
        .unwrap()
}

/// Sends one attempt and reads the whole response.
pub fn fetch(
    engine: &impl BlockingEngine,
    request: http::Request<BlockingAttemptBody>,
    attempt: &AttemptContext,
) -> Result<(http::StatusCode, Bytes), EngineFailure> {
    let response = engine.send(request, attempt)?;
    let status = response.status();
    let mut body = response.into_body();
    let mut all = BytesMut::new();
    while let Some(chunk) = body.next_chunk()? {
        all.extend_from_slice(&chunk);
    }
    Ok((status, all.freeze()))
}

/// A listener on `addr` (port 0 for any).
pub fn listen_on(addr: &str) -> (TcpListener, SocketAddr) {
    let listener = TcpListener::bind(addr).unwrap();
    let addr = listener.local_addr().unwrap();
    (listener, addr)
}

/// A listener on 127.0.0.1, any port.
pub fn listen() -> (TcpListener, SocketAddr) {
    listen_on("127.0.0.1:0")
}

/// An address on which nothing listens: bound, then released.
pub fn refusing_addr() -> SocketAddr {
    let (listener, addr) = listen();
    drop(listener);
    addr
}

/// A byte stream a server handler works on: TCP or TLS.
pub trait Conn: Read + Write + Send {}
impl<T: Read + Write + Send> Conn for T {}

/// Serves `connections` connections accepted on `listener`, one after the
/// other, each with `handler`; every request the handler reads is reported
/// on the returned channel.
pub fn serve<F>(
    listener: TcpListener,
    connections: usize,
    tls: Option<Arc<rustls::ServerConfig>>,
    handler: F,
) -> Receiver<Vec<u8>>
where
    F: Fn(&mut RequestReader, &mpsc::Sender<Vec<u8>>) + Send + 'static,
{
    let (seen, requests) = mpsc::channel();
    thread::spawn(move || {
        for _ in 0..connections {
            let Ok((tcp, _)) = listener.accept() else {
                return;
            };
            let stream: Box<dyn Conn> = match &tls {
                None => Box::new(tcp),
                Some(config) => {
                    let conn = rustls::ServerConnection::new(config.clone()).unwrap();
                    Box::new(rustls::StreamOwned::new(conn, tcp))
                }
            };
            let mut reader = RequestReader::new(stream);
            handler(&mut reader, &seen);
        }
    });
    requests
}

/// Reads HTTP/1.1 requests off a stream, keeping what follows one request.
pub struct RequestReader {
    pub stream: Box<dyn Conn>,
    buf: Vec<u8>,
}

impl RequestReader {
    pub fn new(stream: Box<dyn Conn>) -> Self {
        RequestReader {
            stream,
            buf: Vec::new(),
        }
    }

    /// The next whole request (head and a `content-length` or chunked
    /// body), or `None` at EOF or on an error.
    pub fn next_request(&mut self) -> Option<Vec<u8>> {
        let head_end = loop {
            if let Some(i) = find(&self.buf, b"\r\n\r\n") {
                break i + 4;
            }
            if !self.fill() {
                return None;
            }
        };
        let head = String::from_utf8_lossy(&self.buf[..head_end]).to_ascii_lowercase();
        let end = if head.contains("transfer-encoding: chunked") {
            loop {
                if let Some(i) = find(&self.buf[head_end - 2..], b"\r\n0\r\n\r\n") {
                    break head_end - 2 + i + 7;
                }
                if !self.fill() {
                    return None;
                }
            }
        } else {
            let body_len: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .map_or(0, |v| v.trim().parse().unwrap());
            while self.buf.len() < head_end + body_len {
                if !self.fill() {
                    return None;
                }
            }
            head_end + body_len
        };
        Some(self.buf.drain(..end).collect())
    }

    /// Reads the next request and reports it; `None` at EOF.
    pub fn next_reported(&mut self, seen: &mpsc::Sender<Vec<u8>>) -> Option<()> {
        let request = self.next_request()?;
        let _ = seen.send(request);
        Some(())
    }

    /// Writes `bytes` and flushes.
    pub fn reply(&mut self, bytes: &[u8]) {
        let _ = self.stream.write_all(bytes);
        let _ = self.stream.flush();
    }

    /// Closes the connection now (rather than when the handler returns).
    pub fn close(&mut self) {
        drop(std::mem::replace(
            &mut self.stream,
            Box::new(std::io::Cursor::new(Vec::new())),
        ));
    }

    /// Blocks until the client closes the connection (EOF or error).
    pub fn until_client_closes(&mut self) {
        let mut chunk = [0u8; 1024];
        while matches!(self.stream.read(&mut chunk), Ok(n) if n > 0) {}
    }

    fn fill(&mut self) -> bool {
        let mut chunk = [0u8; 4096];
        match self.stream.read(&mut chunk) {
            Ok(0) | Err(_) => false,
            Ok(n) => {
                self.buf.extend_from_slice(&chunk[..n]);
                true
            }
        }
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Waits for the next event from a server.
pub fn next<T>(events: &Receiver<T>) -> T {
    events
        .recv_timeout(EVENT_TIMEOUT)
        .expect("the server reported nothing")
}

/// A test PKI: a self-signed certificate for `localhost` and 127.0.0.1.
pub struct Pki {
    pub cert: CertificateDer<'static>,
    pub key: PrivatePkcs8KeyDer<'static>,
}

/// The test PKI, generated once per test binary.
pub fn pki() -> &'static Pki {
    static PKI: OnceLock<Pki> = OnceLock::new();
    PKI.get_or_init(|| {
        let certified = rcgen::generate_simple_self_signed(vec![
            "localhost".to_owned(),
            "127.0.0.1".to_owned(),
        ])
        .unwrap();
        Pki {
            cert: certified.cert.der().clone(),
            key: PrivatePkcs8KeyDer::from(certified.signing_key.serialize_der()),
        }
    })
}

/// A rustls server configuration presenting the test PKI's certificate.
pub fn tls_server() -> Arc<rustls::ServerConfig> {
    let pki = pki();
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_no_client_auth()
    .with_single_cert(
        vec![pki.cert.clone()],
        PrivateKeyDer::Pkcs8(pki.key.clone_key()),
    )
    .unwrap();
    Arc::new(config)
}

/// The test PKI's certificate, as the engine builder takes roots.
pub fn trusted_roots() -> Vec<Vec<u8>> {
    vec![pki().cert.to_vec()]
}

/// Sends one attempt that must fail, and returns its failure. (A response
/// cannot be `unwrap_err`ed: `dyn BlockingResponseBody` is not `Debug`.)
pub fn send_err(
    engine: &impl BlockingEngine,
    request: http::Request<BlockingAttemptBody>,
    attempt: &AttemptContext,
) -> EngineFailure {
    match engine.send(request, attempt) {
        Ok(response) => panic!("expected a failure, got {}", response.status()),
        Err(failure) => failure,
    }
}
