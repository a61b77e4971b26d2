//! Mutual TLS: the client certificate set in `TlsOptions`, as on every
//! engine, against loopback servers that require one.

mod support;

use std::sync::Arc;

use evident_core::tls::{ClientIdentity, TlsOptions};
use evident_core::{AttemptStage, Engine, EngineSignal, ExecutionEvidence};
use evident_isahc::IsahcEngine;
use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    KeyUsagePurpose,
};
use rustls::server::WebPkiClientVerifier;
use rustls_pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use support::*;
use tokio_rustls::TlsAcceptor;

/// A CA and one leaf it signed.
struct Chain {
    ca_der: CertificateDer<'static>,
    leaf_pem: String,
    leaf_der: CertificateDer<'static>,
    leaf_key_pem: String,
    leaf_key_der: Vec<u8>,
}

fn chain(ca_name: &str, leaf_names: &[&str], purpose: ExtendedKeyUsagePurpose) -> Chain {
    let ca_key = KeyPair::generate().unwrap();
    let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.distinguished_name.push(DnType::CommonName, ca_name);
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca.key_usages = vec![
        KeyUsagePurpose::KeyCertSign,
        KeyUsagePurpose::DigitalSignature,
    ];
    let ca_cert = ca.self_signed(&ca_key).unwrap();
    let issuer = Issuer::new(ca, ca_key);
    let key = KeyPair::generate().unwrap();
    let mut leaf =
        CertificateParams::new(leaf_names.iter().map(|n| n.to_string()).collect::<Vec<_>>())
            .unwrap();
    leaf.distinguished_name
        .push(DnType::CommonName, leaf_names[0]);
    leaf.extended_key_usages = vec![purpose];
    leaf.key_usages = vec![KeyUsagePurpose::DigitalSignature];
    let cert = leaf.signed_by(&key, &issuer).unwrap();
    Chain {
        ca_der: ca_cert.der().clone(),
        leaf_pem: cert.pem(),
        leaf_der: cert.der().clone(),
        leaf_key_pem: key.serialize_pem(),
        leaf_key_der: key.serialize_der(),
    }
}

fn server_chain() -> Chain {
    chain(
        "evident isahc test server CA",
        &["localhost"],
        ExtendedKeyUsagePurpose::ServerAuth,
    )
}

fn client_chain(ca_name: &str) -> Chain {
    chain(
        ca_name,
        &["client.test"],
        ExtendedKeyUsagePurpose::ClientAuth,
    )
}

/// A TLS server for `server` that requires a client certificate issued by
/// `client_ca`, speaking only `version`.
fn requiring(
    server: &Chain,
    client_ca: &CertificateDer<'static>,
    version: &'static rustls::SupportedProtocolVersion,
) -> TlsAcceptor {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut roots = rustls::RootCertStore::empty();
    roots.add(client_ca.clone()).unwrap();
    let verifier = WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider.clone())
        .build()
        .unwrap();
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(server.leaf_key_der.clone()));
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(&[version])
        .unwrap()
        .with_client_cert_verifier(verifier)
        .with_single_cert(vec![server.leaf_der.clone()], key)
        .unwrap();
    TlsAcceptor::from(Arc::new(config))
}

/// What the server saw on its one connection.
#[derive(Debug)]
enum Served {
    /// The handshake completed with this client certificate, and the
    /// server executed the request it then read.
    Executed(Option<CertificateDer<'static>>),
    /// The server refused the handshake, for this reason.
    Refused(String),
}

async fn serve_one(listener: tokio::net::TcpListener, acceptor: TlsAcceptor) -> Served {
    let (tcp, _) = listener.accept().await.unwrap();
    let tls = match acceptor.accept(tcp).await {
        Ok(tls) => tls,
        Err(e) => return Served::Refused(e.to_string()),
    };
    let seen = tls
        .get_ref()
        .1
        .peer_certificates()
        .and_then(|certs| certs.first().cloned());
    let mut conn = RequestReader::new(tls);
    conn.next_request().await.unwrap();
    conn.respond(OK_HELLO).await;
    // Keep the connection until the client, which never reuses it, closes
    // it: curl's rustls backend fails a transfer whose server ends TLS
    // without close_notify (a gap the crate docs name).
    assert!(conn.next_request().await.is_none());
    Served::Executed(seen)
}

fn engine(server: &Chain, client: Option<&Chain>) -> IsahcEngine {
    let mut options = TlsOptions::new()
        .without_default_roots()
        .add_root_der(server.ca_der.to_vec())
        .unwrap();
    if let Some(client) = client {
        options = options.identity(
            ClientIdentity::from_pem(client.leaf_pem.as_bytes(), client.leaf_key_pem.as_bytes())
                .unwrap(),
        );
    }
    IsahcEngine::builder().tls(options).build().unwrap()
}

#[tokio::test]
async fn mutual_tls_presents_the_client_certificate_the_server_requires() {
    let server = server_chain();
    let client = client_chain("evident isahc test client CA");
    for version in [&rustls::version::TLS13, &rustls::version::TLS12] {
        let (listener, addr) = listen().await;
        let served = tokio::spawn(serve_one(
            listener,
            requiring(&server, &client.ca_der, version),
        ));
        let url = format!("https://localhost:{}/", addr.port());
        let (status, body) = fetch(&engine(&server, Some(&client)), get(&url), &attempt())
            .await
            .unwrap_or_else(|e| panic!("{version:?}: {e:?}"));
        assert_eq!((status.as_u16(), &body[..]), (200, &b"hello"[..]));
        match served.await.unwrap() {
            Served::Executed(seen) => assert_eq!(seen, Some(client.leaf_der.clone())),
            Served::Refused(why) => panic!("{version:?}: the server refused: {why}"),
        }
    }
}

/// Over TLS 1.2 the client sends its certificate and waits for the
/// server's `Finished` before writing anything: a server that rejects the
/// certificate ends the handshake, and the attempt is provably unsent.
#[tokio::test]
async fn an_unknown_client_certificate_is_a_tls_failure_before_anything_is_written() {
    let server = server_chain();
    let trusted = client_chain("evident isahc test client CA");
    let unknown = client_chain("a CA the server never heard of");
    let (listener, addr) = listen().await;
    let served = tokio::spawn(serve_one(
        listener,
        requiring(&server, &trusted.ca_der, &rustls::version::TLS12),
    ));
    let url = format!("https://localhost:{}/", addr.port());
    let attempt = attempt();
    let failure = engine(&server, Some(&unknown))
        .send(post(&url, "pay"), &attempt)
        .await
        .unwrap_err();
    assert!(matches!(served.await.unwrap(), Served::Refused(_)));
    assert_eq!(failure.signal(), EngineSignal::TlsHandshake, "{failure:?}");
    let judged = judged(&failure, &attempt);
    assert_eq!(judged.stage(), AttemptStage::Tls);
    assert_eq!(judged.evidence(), ExecutionEvidence::NotSent);
}

/// Over TLS 1.3 the client's handshake is over before the server judges
/// the certificate, so curl may already have written the request when the
/// server's alert arrives. The server executed nothing, but nothing on the
/// client's side proves that: the record must not claim "not sent" (nor an
/// answer), whatever the signal.
#[tokio::test]
async fn an_unknown_client_certificate_over_tls13_never_claims_more_than_the_progress_proves() {
    let server = server_chain();
    let trusted = client_chain("evident isahc test client CA");
    let unknown = client_chain("a CA the server never heard of");
    let (listener, addr) = listen().await;
    let served = tokio::spawn(serve_one(
        listener,
        requiring(&server, &trusted.ca_der, &rustls::version::TLS13),
    ));
    let url = format!("https://localhost:{}/", addr.port());
    let attempt = attempt();
    let failure = engine(&server, Some(&unknown))
        .send(post(&url, "pay"), &attempt)
        .await
        .unwrap_err();
    assert!(matches!(served.await.unwrap(), Served::Refused(_)));
    let judged = judged(&failure, &attempt);
    assert_ne!(judged.evidence(), ExecutionEvidence::Responded);
    if attempt.progress().snapshot().write_started() {
        assert_ne!(judged.evidence(), ExecutionEvidence::NotSent, "{failure:?}");
    }
}

#[tokio::test]
async fn without_a_client_certificate_the_server_refuses_and_nothing_is_executed() {
    let server = server_chain();
    let client = client_chain("evident isahc test client CA");
    let (listener, addr) = listen().await;
    let served = tokio::spawn(serve_one(
        listener,
        requiring(&server, &client.ca_der, &rustls::version::TLS12),
    ));
    let url = format!("https://localhost:{}/", addr.port());
    let attempt = attempt();
    let failure = engine(&server, None)
        .send(post(&url, "pay"), &attempt)
        .await
        .unwrap_err();
    assert!(matches!(served.await.unwrap(), Served::Refused(_)));
    let judged = judged(&failure, &attempt);
    assert_eq!(judged.stage(), AttemptStage::Tls, "{failure:?}");
    assert_eq!(judged.evidence(), ExecutionEvidence::NotSent);
}

#[test]
fn a_key_that_does_not_match_its_certificate_is_a_typed_error() {
    let one = client_chain("evident isahc test client CA");
    let other = client_chain("evident isahc test client CA");
    let identity =
        ClientIdentity::from_pem(one.leaf_pem.as_bytes(), other.leaf_key_pem.as_bytes()).unwrap();
    let err = IsahcEngine::builder()
        .tls(TlsOptions::new().identity(identity))
        .build()
        .unwrap_err();
    assert!(err.field().starts_with("identity"), "{err}");
}
