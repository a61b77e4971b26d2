//! Trust as a user sets it up: a CA installed as a PEM file and loaded
//! through `TlsOptions`, on top of the default roots; and mutual TLS
//! against a loopback server that requires a client certificate.

mod support;

use std::path::PathBuf;
use std::sync::Arc;

use evident_core::tls::{ClientIdentity, TlsOptions};
use evident_hyper::HyperEngine;
use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    KeyUsagePurpose,
};
use rustls::server::WebPkiClientVerifier;
use rustls_pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use support::*;
use tokio_rustls::TlsAcceptor;

/// A CA and one leaf it signed, both as PEM and DER.
struct Chain {
    ca_pem: String,
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
        ca_pem: ca_cert.pem(),
        leaf_pem: cert.pem(),
        leaf_der: cert.der().clone(),
        leaf_key_pem: key.serialize_pem(),
        leaf_key_der: key.serialize_der(),
    }
}

fn server_chain() -> Chain {
    chain(
        "evident test server CA",
        &["localhost", "127.0.0.1"],
        ExtendedKeyUsagePurpose::ServerAuth,
    )
}

/// Writes `pem` to a file of its own, as a user installs a CA bundle.
fn install(name: &str, pem: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!(
        "evident-hyper-trust-{}-{name}.pem",
        std::process::id()
    ));
    std::fs::write(&path, pem).unwrap();
    path
}

/// A TLS server for `server`, requiring a client certificate issued by
/// `client_ca_pem` when given.
fn acceptor(server: &Chain, client_ca_pem: Option<&str>) -> TlsAcceptor {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = rustls::ServerConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .unwrap();
    let builder = match client_ca_pem {
        None => builder.with_no_client_auth(),
        Some(pem) => {
            let mut roots = rustls::RootCertStore::empty();
            for cert in rustls_pki_types::pem::PemObject::pem_slice_iter(pem.as_bytes()) {
                roots.add(cert.unwrap()).unwrap();
            }
            let verifier = WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider)
                .build()
                .unwrap();
            builder.with_client_cert_verifier(verifier)
        }
    };
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(server.leaf_key_der.clone()));
    let config = builder
        .with_single_cert(vec![server.leaf_der.clone()], key)
        .unwrap();
    TlsAcceptor::from(Arc::new(config))
}

/// Serves one connection: on a completed handshake, answers one request
/// and reports the client certificate the server saw; `Err` when the
/// handshake failed on the server's side.
async fn serve_one(
    listener: tokio::net::TcpListener,
    acceptor: TlsAcceptor,
) -> Result<Option<CertificateDer<'static>>, std::io::Error> {
    let (tcp, _) = listener.accept().await?;
    let tls = acceptor.accept(tcp).await?;
    let client_cert = tls
        .get_ref()
        .1
        .peer_certificates()
        .and_then(|certs| certs.first().cloned());
    let mut conn = RequestReader::new(tls);
    if conn.next_request().await.is_some() {
        conn.respond(OK_HELLO).await;
    }
    Ok(client_cert)
}

#[tokio::test]
async fn a_ca_installed_as_a_pem_file_is_trusted_alongside_the_default_roots() {
    let server = server_chain();
    let path = install("ca", &server.ca_pem);
    let (listener, addr) = listen().await;
    let served = tokio::spawn(serve_one(listener, acceptor(&server, None)));

    let engine = HyperEngine::builder()
        .tls(TlsOptions::new().add_roots_pem_file(&path).unwrap())
        .build()
        .unwrap();
    let url = format!("https://localhost:{}/", addr.port());
    let (status, body) = fetch(&engine, get(&url), &attempt()).await.unwrap();
    assert_eq!((status.as_u16(), &body[..]), (200, &b"hello"[..]));
    served.await.unwrap().unwrap();
    std::fs::remove_file(path).unwrap();
}

#[tokio::test]
async fn a_server_whose_ca_is_not_installed_is_rejected_by_the_default_roots() {
    let server = server_chain();
    let (listener, addr) = listen().await;
    let _served = tokio::spawn(serve_one(listener, acceptor(&server, None)));

    let engine = HyperEngine::builder().build().unwrap();
    let url = format!("https://localhost:{}/", addr.port());
    let failure = fetch(&engine, get(&url), &attempt()).await.unwrap_err();
    assert_eq!(failure.signal(), evident_core::EngineSignal::TlsCertificate);
}

#[tokio::test]
async fn mutual_tls_presents_the_client_certificate_the_server_requires() {
    let server = server_chain();
    let client = chain(
        "evident test client CA",
        &["client.test"],
        ExtendedKeyUsagePurpose::ClientAuth,
    );
    let (listener, addr) = listen().await;
    let served = tokio::spawn(serve_one(listener, acceptor(&server, Some(&client.ca_pem))));

    let identity =
        ClientIdentity::from_pem(client.leaf_pem.as_bytes(), client.leaf_key_pem.as_bytes())
            .unwrap();
    let engine = HyperEngine::builder()
        .tls(
            TlsOptions::new()
                .add_roots_pem(server.ca_pem.as_bytes())
                .unwrap()
                .identity(identity),
        )
        .build()
        .unwrap();
    let url = format!("https://localhost:{}/", addr.port());
    let (status, _) = fetch(&engine, get(&url), &attempt()).await.unwrap();
    assert_eq!(status.as_u16(), 200);
    let seen = served.await.unwrap().unwrap();
    assert_eq!(seen, Some(client.leaf_der));
}

#[tokio::test]
async fn without_a_client_certificate_the_mutual_tls_server_answers_nothing() {
    let server = server_chain();
    let client = chain(
        "evident test client CA",
        &["client.test"],
        ExtendedKeyUsagePurpose::ClientAuth,
    );
    let (listener, addr) = listen().await;
    let served = tokio::spawn(serve_one(listener, acceptor(&server, Some(&client.ca_pem))));

    let engine = HyperEngine::builder()
        .tls(
            TlsOptions::new()
                .add_roots_pem(server.ca_pem.as_bytes())
                .unwrap(),
        )
        .build()
        .unwrap();
    let url = format!("https://localhost:{}/", addr.port());
    let attempt = attempt();
    let failure = fetch(&engine, get(&url), &attempt).await.unwrap_err();
    assert!(
        served.await.unwrap().is_err(),
        "the server refused the handshake"
    );
    // With TLS 1.3 the client finishes its side of the handshake before the
    // server judges the certificate, so the request may have been written:
    // whatever the signal, the verdict must not claim more than the
    // progress proves.
    let verdict = evident_core::classify(failure.signal(), &attempt.progress().snapshot());
    if attempt.progress().snapshot().head_written() {
        assert_ne!(verdict.evidence(), evident_core::ExecutionEvidence::NotSent);
    }
}
