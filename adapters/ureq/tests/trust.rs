//! Trust as a user sets it up: a CA installed as a PEM file and loaded
//! through `TlsOptions`, on top of the default roots; and mutual TLS
//! against a loopback server that requires a client certificate.

mod support;

use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver};
use std::thread;

use evident_core::tls::{ClientIdentity, TlsOptions};
use evident_ureq::UreqEngine;
use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    KeyUsagePurpose,
};
use rustls::server::WebPkiClientVerifier;
use rustls_pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use support::*;

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
        "evident-ureq-trust-{}-{name}.pem",
        std::process::id()
    ));
    std::fs::write(&path, pem).unwrap();
    path
}

/// A TLS server configuration for `server`, requiring a client
/// certificate issued by `client_ca_pem` when given.
fn server_config(server: &Chain, client_ca_pem: Option<&str>) -> Arc<rustls::ServerConfig> {
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
    Arc::new(
        builder
            .with_single_cert(vec![server.leaf_der.clone()], key)
            .unwrap(),
    )
}

/// What the server saw on its one connection: the client certificate
/// after a completed handshake, or the handshake's error.
type Served = Result<Option<CertificateDer<'static>>, String>;

/// Serves one connection on a thread: completes the handshake, then
/// answers one request.
fn serve_one(listener: TcpListener, config: Arc<rustls::ServerConfig>) -> Receiver<Served> {
    let (report, served) = mpsc::channel();
    thread::spawn(move || {
        let (mut tcp, _) = listener.accept().unwrap();
        let mut tls = rustls::ServerConnection::new(config).unwrap();
        // Bounded: each turn moves handshake bytes or fails.
        while tls.is_handshaking() {
            if let Err(e) = tls.complete_io(&mut tcp) {
                let _ = report.send(Err(e.to_string()));
                return;
            }
        }
        let client_cert = tls.peer_certificates().and_then(|c| c.first().cloned());
        let mut conn = RequestReader::new(Box::new(rustls::StreamOwned::new(tls, tcp)));
        if conn.next_request().is_some() {
            conn.reply(OK_HELLO);
        }
        let _ = report.send(Ok(client_cert));
    });
    served
}

#[test]
fn a_ca_installed_as_a_pem_file_is_trusted_alongside_the_default_roots() {
    let server = server_chain();
    let path = install("ca", &server.ca_pem);
    let (listener, addr) = listen();
    let served = serve_one(listener, server_config(&server, None));

    let engine = UreqEngine::builder()
        .tls(TlsOptions::new().add_roots_pem_file(&path).unwrap())
        .build()
        .unwrap();
    let url = format!("https://localhost:{}/", addr.port());
    let (status, body) = fetch(&engine, get(&url), &attempt()).unwrap();
    assert_eq!((status.as_u16(), &body[..]), (200, &b"hello"[..]));
    next(&served).unwrap();
    std::fs::remove_file(path).unwrap();
}

#[test]
fn a_server_whose_ca_is_not_installed_is_rejected_by_the_default_roots() {
    let server = server_chain();
    let (listener, addr) = listen();
    let _served = serve_one(listener, server_config(&server, None));

    let engine = UreqEngine::builder().build().unwrap();
    let url = format!("https://localhost:{}/", addr.port());
    let failure = send_err(&engine, get(&url), &attempt());
    assert_eq!(failure.signal(), evident_core::EngineSignal::TlsCertificate);
}

#[test]
fn mutual_tls_presents_the_client_certificate_the_server_requires() {
    let server = server_chain();
    let client = chain(
        "evident test client CA",
        &["client.test"],
        ExtendedKeyUsagePurpose::ClientAuth,
    );
    let (listener, addr) = listen();
    let served = serve_one(listener, server_config(&server, Some(&client.ca_pem)));

    let identity =
        ClientIdentity::from_pem(client.leaf_pem.as_bytes(), client.leaf_key_pem.as_bytes())
            .unwrap();
    let engine = UreqEngine::builder()
        .tls(
            TlsOptions::new()
                .add_roots_pem(server.ca_pem.as_bytes())
                .unwrap()
                .identity(identity),
        )
        .build()
        .unwrap();
    let url = format!("https://localhost:{}/", addr.port());
    let (status, _) = fetch(&engine, get(&url), &attempt()).unwrap();
    assert_eq!(status.as_u16(), 200);
    assert_eq!(next(&served).unwrap(), Some(client.leaf_der));
}

#[test]
fn without_a_client_certificate_the_mutual_tls_server_answers_nothing() {
    let server = server_chain();
    let client = chain(
        "evident test client CA",
        &["client.test"],
        ExtendedKeyUsagePurpose::ClientAuth,
    );
    let (listener, addr) = listen();
    let served = serve_one(listener, server_config(&server, Some(&client.ca_pem)));

    let engine = UreqEngine::builder()
        .tls(
            TlsOptions::new()
                .add_roots_pem(server.ca_pem.as_bytes())
                .unwrap(),
        )
        .build()
        .unwrap();
    let url = format!("https://localhost:{}/", addr.port());
    let attempt = attempt();
    let failure = send_err(&engine, get(&url), &attempt);
    assert!(next(&served).is_err(), "the server refused the handshake");
    // With TLS 1.3 the client finishes its side of the handshake before the
    // server judges the certificate, so the request may have been written:
    // whatever the signal, the verdict must not claim more than the
    // progress proves.
    let seen = attempt.progress().snapshot();
    let verdict = evident_core::classify(failure.signal(), &seen);
    if seen.head_written() {
        assert_ne!(verdict.evidence(), evident_core::ExecutionEvidence::NotSent);
    }
}
