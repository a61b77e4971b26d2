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
//! - HTTP/2: [`serve_h2`] with an [`H2Reply`], and raw [`frames`].

use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};

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
