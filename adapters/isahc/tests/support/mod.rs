//! Tiny loopback servers and helpers for the engine's behaviour tests.
//!
//! Deliberately independent of evident-conformance: these servers do just
//! enough to put the engine in one situation each.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};

use bytes::Bytes;
use evident_core::{
    AttemptBody, AttemptContext, Engine, EngineFailure, Progress, ResponseBody, TransportFailure,
};
use http_body_util::BodyExt;
use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    KeyUsagePurpose,
};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::TlsAcceptor;
use tokio_rustls::server::TlsStream;

/// A canned keep-alive response with a 5-byte body.
pub const OK_HELLO: &[u8] = b"HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello";

/// A fresh attempt context without a deadline.
pub fn attempt() -> AttemptContext {
    evident_core::testing::attempt_context(Progress::new(), None)
}

/// A fresh attempt context whose deadline is `after` from now.
pub fn attempt_within(after: std::time::Duration) -> AttemptContext {
    evident_core::testing::attempt_context(Progress::new(), Some(std::time::Instant::now() + after))
}

/// What the core makes of a failed attempt: the shared classification of the
/// engine's signal at the attempt's progress.
pub fn judged(failure: &EngineFailure, attempt: &AttemptContext) -> TransportFailure {
    evident_core::classify(failure.signal(), &attempt.progress().snapshot())
}

/// How many requests a server executed, counted where it happens.
#[derive(Debug, Clone, Default)]
pub struct Ledger(Arc<std::sync::atomic::AtomicUsize>);

impl Ledger {
    pub fn execute(&self) {
        self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }

    pub fn executions(&self) -> usize {
        self.0.load(std::sync::atomic::Ordering::SeqCst)
    }
}

/// Serves at most `connections` connections on `listener`, each handled by
/// `handle(index, reader)` in its own task.
pub fn serve<F, Fut>(listener: TcpListener, connections: usize, handle: F)
where
    F: Fn(usize, RequestReader<TcpStream>) -> Fut + Send + Sync + 'static,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    tokio::spawn(async move {
        for index in 0..connections {
            let Ok((tcp, _)) = listener.accept().await else {
                return;
            };
            tokio::spawn(handle(index, RequestReader::new(tcp)));
        }
    });
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

pub async fn collect(body: ResponseBody) -> Result<Bytes, EngineFailure> {
    Ok(body.collect().await?.to_bytes())
}

/// A listener on 127.0.0.1, any port.
pub async fn listen() -> (TcpListener, SocketAddr) {
    listen_on("127.0.0.1:0").await
}

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
