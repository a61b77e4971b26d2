//! Loopback servers and helpers shared by the integration tests of the
//! async engine adapters (hyper, reqwest, isahc).
//!
//! This crate is not published (`publish = false`): the adapters name it
//! only as a dev-dependency. Each adapter's `tests/support/mod.rs`
//! re-exports it and adds what is its engine's own, as h2's `h2-support`
//! does for h2's tests.
//!
//! Deliberately independent of evident-conformance: these servers do just
//! enough to put an engine in one situation each.
//!
//! What is here:
//!
//! - attempts and requests: [`attempt`], [`get`], [`post`], [`fetch`],
//!   [`collect`];
//! - sockets: [`listen`], [`listen_on`], [`refusing_addr`];
//! - HTTP/1.1 on the server side: [`RequestReader`], [`OK_HELLO`];
//! - TLS: [`Pki`], a trusted and an untrusted test CA, and [`accept_tls`];
//! - HTTP/2: [`serve_h2`] with an [`H2Reply`], and raw [`frames`];
//! - a silent address ([`silent::SilentListener`]: connects hang) and an
//!   observer keeping each call's records ([`silent::Records`]), usable by
//!   blocking engines' tests too.

use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};

pub mod silent;

use bytes::Bytes;
use evident_core::{AttemptBody, AttemptContext, Engine, EngineFailure, Progress, ResponseBody};
use http_body_util::BodyExt;
use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    KeyUsagePurpose,
};
use rustls_pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::TlsAcceptor;
use tokio_rustls::server::TlsStream;

/// A canned keep-alive response with a 5-byte body.
pub const OK_HELLO: &[u8] = b"HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello";

/// A fresh attempt context.
pub fn attempt() -> AttemptContext {
    evident_core::testing::attempt_context(Progress::new(), None)
}

/// A GET without a body.
pub fn get(url: &str) -> http::Request<AttemptBody> {
    http::Request::get(url).body(AttemptBody::Empty).unwrap()
}

/// A POST with an in-memory body.
pub fn post(url: &str, body: &'static str) -> http::Request<AttemptBody> {
    http::Request::post(url)
        .body(AttemptBody::Full(Some(Bytes::from_static(body.as_bytes()))))
        .unwrap()
}

/// Sends one attempt and reads the whole response.
pub async fn fetch(
    engine: &impl Engine,
    request: http::Request<AttemptBody>,
    attempt: &AttemptContext,
) -> Result<(http::StatusCode, Bytes), EngineFailure> {
    let response = engine.send(request, attempt).await?;
    let status = response.status();
    let body = collect(response.into_body()).await?;
    Ok((status, body))
}

/// Reads a whole response body.
pub async fn collect(body: ResponseBody) -> Result<Bytes, EngineFailure> {
    Ok(body.collect().await?.to_bytes())
}

/// A listener on 127.0.0.1, any port.
pub async fn listen() -> (TcpListener, SocketAddr) {
    listen_on("127.0.0.1:0").await
}

/// A listener on `addr` (port 0 for any).
pub async fn listen_on(addr: &str) -> (TcpListener, SocketAddr) {
    let listener = TcpListener::bind(addr).await.unwrap();
    let addr = listener.local_addr().unwrap();
    (listener, addr)
}

/// An address on which nothing listens: bound, then released.
pub async fn refusing_addr() -> SocketAddr {
    let (listener, addr) = listen().await;
    drop(listener);
    addr
}

/// Reads HTTP/1.1 requests off a stream, keeping what follows one request.
pub struct RequestReader<S> {
    pub stream: S,
    buf: Vec<u8>,
}

impl<S: AsyncRead + AsyncWrite + Unpin> RequestReader<S> {
    /// A reader with nothing buffered yet.
    pub fn new(stream: S) -> Self {
        RequestReader {
            stream,
            buf: Vec::new(),
        }
    }

    /// The next whole request (head and `content-length` body), or `None`
    /// at EOF.
    pub async fn next_request(&mut self) -> Option<Vec<u8>> {
        let head_end = loop {
            if let Some(i) = self.buf.windows(4).position(|w| w == b"\r\n\r\n") {
                break i + 4;
            }
            if !self.fill().await {
                return None;
            }
        };
        let head = String::from_utf8_lossy(&self.buf[..head_end]).to_ascii_lowercase();
        let body_len: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .map_or(0, |v| v.trim().parse().unwrap());
        while self.buf.len() < head_end + body_len {
            if !self.fill().await {
                return None;
            }
        }
        Some(self.buf.drain(..head_end + body_len).collect())
    }

    /// The next request head only, or `None` at EOF.
    pub async fn next_head(&mut self) -> Option<Vec<u8>> {
        let head_end = loop {
            if let Some(i) = self.buf.windows(4).position(|w| w == b"\r\n\r\n") {
                break i + 4;
            }
            if !self.fill().await {
                return None;
            }
        };
        Some(self.buf.drain(..head_end).collect())
    }

    /// Reads the `content-length` body that follows `head`.
    pub async fn rest_of_request(&mut self, head: &[u8]) {
        let head = String::from_utf8_lossy(head).to_ascii_lowercase();
        let body_len: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .map_or(0, |v| v.trim().parse().unwrap());
        while self.buf.len() < body_len {
            if !self.fill().await {
                return;
            }
        }
        self.buf.drain(..body_len);
    }

    async fn fill(&mut self) -> bool {
        let mut chunk = [0u8; 4096];
        match self.stream.read(&mut chunk).await {
            Ok(0) | Err(_) => false,
            Ok(n) => {
                self.buf.extend_from_slice(&chunk[..n]);
                true
            }
        }
    }

    /// Writes `bytes` and flushes.
    pub async fn respond(&mut self, bytes: &[u8]) {
        self.stream.write_all(bytes).await.unwrap();
        self.stream.flush().await.unwrap();
    }
}

/// Test certificates: a trusted CA and an untrusted one, each with a
/// server certificate for localhost and 127.0.0.1–127.0.0.9.
pub struct Pki {
    pub trusted_ca_der: Vec<u8>,
    trusted: (CertificateDer<'static>, Vec<u8>),
    untrusted: (CertificateDer<'static>, Vec<u8>),
}

impl Pki {
    /// The test certificates, generated once per test binary.
    pub fn get() -> &'static Pki {
        static PKI: OnceLock<Pki> = OnceLock::new();
        PKI.get_or_init(|| {
            let (trusted_ca_der, trusted) = authority("trusted test CA");
            let (_, untrusted) = authority("UNTRUSTED test CA");
            Pki {
                trusted_ca_der,
                trusted,
                untrusted,
            }
        })
    }

    /// A TLS acceptor presenting the trusted (or untrusted) server
    /// certificate and accepting `alpn`.
    pub fn acceptor(&self, trusted: bool, alpn: &[&[u8]]) -> TlsAcceptor {
        let (cert, key) = if trusted {
            &self.trusted
        } else {
            &self.untrusted
        };
        let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.clone()));
        let mut config = rustls::ServerConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![cert.clone()], key)
        .unwrap();
        config.alpn_protocols = alpn.iter().map(|p| p.to_vec()).collect();
        TlsAcceptor::from(Arc::new(config))
    }
}

fn authority(name: &str) -> (Vec<u8>, (CertificateDer<'static>, Vec<u8>)) {
    let ca_key = KeyPair::generate().unwrap();
    let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.distinguished_name.push(DnType::CommonName, name);
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca.key_usages = vec![
        KeyUsagePurpose::KeyCertSign,
        KeyUsagePurpose::DigitalSignature,
    ];
    let ca_cert = ca.self_signed(&ca_key).unwrap();
    let issuer = Issuer::new(ca, ca_key);
    let mut names = vec!["localhost".to_owned()];
    names.extend((1..=9).map(|i| format!("127.0.0.{i}")));
    let key = KeyPair::generate().unwrap();
    let mut leaf = CertificateParams::new(names).unwrap();
    leaf.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
    leaf.key_usages = vec![KeyUsagePurpose::DigitalSignature];
    let cert = leaf.signed_by(&key, &issuer).unwrap();
    (
        ca_cert.der().to_vec(),
        (cert.der().clone(), key.serialize_der()),
    )
}

/// Accepts one TCP connection and completes the TLS handshake on it.
pub async fn accept_tls(listener: &TcpListener, acceptor: &TlsAcceptor) -> TlsStream<TcpStream> {
    let (tcp, _) = listener.accept().await.unwrap();
    acceptor.accept(tcp).await.unwrap()
}

/// What an HTTP/2 test server does with each request.
#[derive(Debug, Clone, Copy)]
pub enum H2Reply {
    /// 200 with body `hello`.
    Hello,
    /// `RST_STREAM` with this reason.
    Reset(h2::Reason),
    /// This status, without a body.
    Status(u16),
}

/// Serves HTTP/2 on one connection until the client goes away.
pub async fn serve_h2<S>(io: S, reply: H2Reply)
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let mut conn = h2::server::handshake(io).await.unwrap();
    while let Some(Ok((request, mut respond))) = conn.accept().await {
        drop(request);
        match reply {
            H2Reply::Hello => {
                let mut send = respond
                    .send_response(http::Response::new(()), false)
                    .unwrap();
                send.send_data(Bytes::from_static(b"hello"), true).unwrap();
            }
            H2Reply::Reset(reason) => respond.send_reset(reason),
            H2Reply::Status(code) => {
                let mut response = http::Response::new(());
                *response.status_mut() = http::StatusCode::from_u16(code).unwrap();
                respond.send_response(response, true).unwrap();
            }
        }
    }
}

/// Raw HTTP/2 frames, for what the h2 server API will not do (a GOAWAY with
/// a chosen last-stream-id at a chosen moment).
pub mod frames {
    use super::*;

    pub const HEADERS: u8 = 1;
    pub const SETTINGS: u8 = 4;
    pub const GOAWAY: u8 = 7;

    pub fn frame(kind: u8, flags: u8, stream: u32, payload: &[u8]) -> Vec<u8> {
        let len = payload.len() as u32;
        let mut f = len.to_be_bytes()[1..].to_vec();
        f.push(kind);
        f.push(flags);
        f.extend_from_slice(&stream.to_be_bytes());
        f.extend_from_slice(payload);
        f
    }

    pub fn goaway(last_stream_id: u32, error: u32) -> Vec<u8> {
        let mut payload = last_stream_id.to_be_bytes().to_vec();
        payload.extend_from_slice(&error.to_be_bytes());
        frame(GOAWAY, 0, 0, &payload)
    }

    /// Reads the client preface and answers with empty SETTINGS, then
    /// reads frames until the first HEADERS and returns its stream id.
    pub async fn until_first_headers(s: &mut TcpStream) -> u32 {
        let mut preface = [0u8; 24];
        s.read_exact(&mut preface).await.unwrap();
        s.write_all(&frame(SETTINGS, 0, 0, &[])).await.unwrap();
        loop {
            let mut head = [0u8; 9];
            s.read_exact(&mut head).await.unwrap();
            let len = u32::from_be_bytes([0, head[0], head[1], head[2]]) as usize;
            let mut payload = vec![0u8; len];
            s.read_exact(&mut payload).await.unwrap();
            let stream = u32::from_be_bytes([head[5], head[6], head[7], head[8]]) & 0x7fff_ffff;
            match head[3] {
                SETTINGS if head[4] & 1 == 0 => {
                    s.write_all(&frame(SETTINGS, 1, 0, &[])).await.unwrap();
                }
                HEADERS => return stream,
                _ => {}
            }
        }
    }
}

/// A server that shuts its HTTP/2 connections down gracefully while
/// requests are in flight, as a server does on a reload, and counts how
/// many times it executed each call.
///
/// Every connection answers `requests_per_connection` requests with a 200,
/// then starts h2's graceful shutdown: a GOAWAY whose last-stream-id is
/// 2^31-1 (RFC 9113 §6.8: "the server is shutting down, streams already
/// sent may still be processed"), a PING, and, once the PING comes back, a
/// second GOAWAY naming the last stream it accepted. Every stream it
/// accepted (at or below that id) is executed and answered; the client
/// must open a new connection for the rest.
///
/// A request is *executed* when its HEADERS are accepted, before its body
/// is read, as a server that answers without reading the body does. Calls
/// are told apart by the [`CALL_ID`](reload::CALL_ID) header.
pub mod reload {
    use std::collections::HashMap;
    use std::sync::Mutex;

    use super::*;

    /// The request header carrying the call's id.
    pub const CALL_ID: &str = "x-call-id";

    /// How many times the server executed each call id.
    #[derive(Debug, Default)]
    pub struct Ledger {
        executed: Mutex<HashMap<u64, u32>>,
        open_connections: std::sync::atomic::AtomicUsize,
        closed: tokio::sync::Notify,
    }

    impl Ledger {
        /// Waits until every connection the server accepted has ended, so
        /// that every request that reached it is in the ledger.
        pub async fn until_all_connections_ended(&self) {
            loop {
                let closed = self.closed.notified();
                if self
                    .open_connections
                    .load(std::sync::atomic::Ordering::SeqCst)
                    == 0
                {
                    return;
                }
                closed.await;
            }
        }

        /// How many times call `id` was executed.
        pub fn executions(&self, id: u64) -> u32 {
            self.executed.lock().unwrap().get(&id).copied().unwrap_or(0)
        }

        fn execute(&self, id: u64) {
            *self.executed.lock().unwrap().entry(id).or_default() += 1;
        }
    }

    /// What [`attack`] found: every claim checked against the ledger.
    #[derive(Debug, Default)]
    pub struct Findings {
        /// Calls made.
        pub calls: usize,
        /// Attempts that claimed `not_sent` or `not_processed`.
        pub proven: usize,
        /// Attempts that claimed `not_processed` from a GOAWAY.
        pub proven_by_goaway: usize,
        /// Attempts ended by [`ATTEMPT_TIMEOUT`].
        pub timed_out: usize,
        /// Claims the server's ledger contradicts, with their records.
        pub false_claims: Vec<String>,
    }

    /// The attempt timeout [`attack`] applies, as the core would: far above
    /// a loopback exchange. An engine can leave a stream unanswered when a
    /// connection shuts down under it; the timeout ends such an attempt
    /// and its claim is checked like any other.
    pub const ATTEMPT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);

    /// How long the server's connections may outlive the engine before
    /// [`attack`] fails.
    pub const DRAIN_LIMIT: std::time::Duration = std::time::Duration::from_secs(10);

    impl Findings {
        /// Prints the figures and fails, listing them, on any false claim.
        pub fn assert_no_false_claim(&self) {
            println!(
                "{} calls, {} claimed not sent/not processed ({} from a GOAWAY), {} timed out, {} false",
                self.calls,
                self.proven,
                self.proven_by_goaway,
                self.timed_out,
                self.false_claims.len()
            );
            assert!(self.false_claims.is_empty(), "{:#?}", self.false_claims);
        }
    }

    /// Concurrent callers in [`attack`]: enough to keep an engine's HTTP/2
    /// connection busy opening streams while GOAWAYs arrive.
    pub const CALLERS: u64 = 16;

    /// Sends `calls_per_caller` keyless 1 KiB POSTs from each of
    /// [`CALLERS`] tasks, one attempt each, to a server that shuts every
    /// connection down after `requests_per_connection` requests, and
    /// checks every attempt's evidence against what the server executed:
    /// `not_sent` and `not_processed` are false for an executed call; an
    /// answered call was executed exactly once. Run it on a multi-threaded
    /// runtime, where the engine's connection task and its callers race.
    pub async fn attack<E>(
        engine: E,
        url_for: impl Fn(SocketAddr) -> String,
        calls_per_caller: u64,
        requests_per_connection: usize,
    ) -> Findings
    where
        E: Engine + Clone + 'static,
    {
        use evident_core::{ExecutionEvidence as E, FailureCategory as C};

        let (addr, ledger) = serve(requests_per_connection).await;
        let url = Arc::new(url_for(addr));
        let mut callers = Vec::new();
        for caller in 0..CALLERS {
            let (engine, url) = (engine.clone(), url.clone());
            callers.push(tokio::spawn(async move {
                let mut claims = Vec::new();
                for n in 0..calls_per_caller {
                    let id = caller * calls_per_caller + n;
                    let request = http::Request::post(url.as_str())
                        .header(CALL_ID, id)
                        .body(AttemptBody::Full(Some(Bytes::from(vec![b'x'; 1024]))))
                        .unwrap();
                    let attempt = attempt();
                    let sent = tokio::time::timeout(ATTEMPT_TIMEOUT, async {
                        match engine.send(request, &attempt).await {
                            Ok(response) => Ok(collect(response.into_body()).await),
                            Err(failure) => Err(failure),
                        }
                    });
                    // As the core does: an attempt that outlives its
                    // timeout is dropped and judged from its progress.
                    let outcome = match sent.await {
                        Ok(Ok(_)) => Ok(()),
                        Ok(Err(failure)) => Err((failure.signal(), failure.to_string())),
                        Err(_elapsed) => Err((
                            evident_core::EngineSignal::TimedOut,
                            "attempt timed out".to_owned(),
                        )),
                    };
                    let claim = match outcome {
                        Ok(()) => (E::Responded, None, String::new()),
                        Err((signal, failure)) => {
                            let judged =
                                evident_core::classify(signal, &attempt.progress().snapshot());
                            (
                                judged.evidence(),
                                Some(judged.category()),
                                format!("{:?}/{:?}: {failure}", judged.stage(), judged.category()),
                            )
                        }
                    };
                    claims.push((id, claim));
                }
                claims
            }));
        }
        let mut claims = Vec::new();
        for caller in callers {
            claims.extend(caller.await.unwrap());
        }
        drop(engine);
        // Every request that reached the server is in the ledger once the
        // server has read its connections to their end.
        tokio::time::timeout(DRAIN_LIMIT, ledger.until_all_connections_ended())
            .await
            .expect("the server's connections end once the engine is dropped");

        let mut findings = Findings {
            calls: claims.len(),
            ..Findings::default()
        };
        for (id, (evidence, category, record)) in claims {
            let executions = ledger.executions(id);
            if category == Some(C::Timeout) {
                findings.timed_out += 1;
            }
            let claim_holds = match evidence {
                E::NotSent | E::NotProcessed => {
                    findings.proven += 1;
                    if category == Some(C::GoAway) {
                        findings.proven_by_goaway += 1;
                    }
                    executions == 0
                }
                E::Responded => executions == 1,
                E::SentNoResponse => executions <= 1,
            };
            if !claim_holds {
                findings.false_claims.push(format!(
                    "call {id}: {evidence:?} ({record}), executed {executions} time(s)"
                ));
            }
        }
        findings
    }

    /// Starts the server on loopback; it runs until the runtime ends.
    pub async fn serve(requests_per_connection: usize) -> (SocketAddr, Arc<Ledger>) {
        let (listener, addr) = listen().await;
        let ledger = Arc::new(Ledger::default());
        let server_ledger = ledger.clone();
        tokio::spawn(async move {
            while let Ok((tcp, _)) = listener.accept().await {
                let ledger = server_ledger.clone();
                ledger
                    .open_connections
                    .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                tokio::spawn(async move {
                    connection(tcp, requests_per_connection, &ledger).await;
                    ledger
                        .open_connections
                        .fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
                    ledger.closed.notify_waiters();
                });
            }
        });
        (addr, ledger)
    }

    async fn connection(tcp: TcpStream, limit: usize, ledger: &Ledger) {
        let Ok(mut conn) = h2::server::handshake(tcp).await else {
            return;
        };
        let mut accepted = 0;
        while let Some(Ok((request, mut respond))) = conn.accept().await {
            let id = request
                .headers()
                .get(CALL_ID)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.parse().ok());
            if let Some(id) = id {
                ledger.execute(id);
            }
            drop(request);
            if let Ok(mut send) = respond.send_response(http::Response::new(()), false) {
                let _ = send.send_data(Bytes::from_static(b"ok"), true);
            }
            accepted += 1;
            if accepted == limit {
                conn.graceful_shutdown();
            }
        }
    }
}
