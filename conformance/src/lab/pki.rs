//! Test certificates, generated once per process.
//!
//! Two independent certificate authorities: the *trusted* test CA, which a
//! client under test adds as its only root, and an *untrusted* CA that signs
//! an otherwise valid certificate for the same names — so a certificate
//! failure is exactly "wrong issuer", nothing else.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    KeyUsagePurpose,
};
use rustls::crypto::CryptoProvider;
use rustls::{ClientConfig, RootCertStore, ServerConfig};
use rustls_pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};

/// Names every server certificate is valid for: `localhost`, the loopback
/// addresses 127.0.0.1 to 127.0.0.9 (so one host name can map to several
/// loopback addresses) and `::1`.
pub const SERVER_NAMES: &[&str] = &[
    "localhost",
    "127.0.0.1",
    "127.0.0.2",
    "127.0.0.3",
    "127.0.0.4",
    "127.0.0.5",
    "127.0.0.6",
    "127.0.0.7",
    "127.0.0.8",
    "127.0.0.9",
    "::1",
];

/// ALPN protocol id for HTTP/1.1.
pub const ALPN_HTTP1: &[u8] = b"http/1.1";

/// ALPN protocol id for HTTP/2.
pub const ALPN_H2: &[u8] = b"h2";

/// Which certificate a TLS lab server presents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ServerIdentity {
    /// Signed by the trusted test CA: a client trusting
    /// [`TestPki::ca_cert_der`] accepts it.
    Trusted,
    /// Valid for the same names, but signed by the untrusted CA: every
    /// correctly configured client rejects it.
    Untrusted,
}

/// The process-wide test PKI. Get it with [`TestPki::get`].
///
/// ```
/// use evident_conformance::lab::{ALPN_HTTP1, TestPki};
///
/// let pki = TestPki::get();
/// // A client under test trusts exactly the test CA...
/// let config = pki.client_config(&[ALPN_HTTP1]);
/// assert_eq!(config.alpn_protocols, [b"http/1.1".to_vec()]);
/// // ...or takes it as PEM.
/// assert!(pki.ca_cert_pem().contains("BEGIN CERTIFICATE"));
/// ```
#[derive(Debug)]
pub struct TestPki {
    trusted: Authority,
    untrusted: Authority,
    ca_pem_file: OnceLock<Result<PathBuf, String>>,
}

#[derive(Debug)]
struct Authority {
    ca_der: CertificateDer<'static>,
    ca_pem: String,
    server_der: CertificateDer<'static>,
    server_key_der: Vec<u8>,
}

impl TestPki {
    /// The PKI, generated on first use (rcgen takes a moment).
    ///
    /// # Panics
    ///
    /// If rcgen cannot generate a key or sign a certificate, which only a
    /// broken crypto backend would cause.
    pub fn get() -> &'static TestPki {
        static PKI: OnceLock<TestPki> = OnceLock::new();
        PKI.get_or_init(|| TestPki {
            trusted: Authority::generate("evident lab trusted CA")
                .expect("rcgen generates the trusted test CA"),
            untrusted: Authority::generate("evident lab UNTRUSTED CA")
                .expect("rcgen generates the untrusted test CA"),
            ca_pem_file: OnceLock::new(),
        })
    }

    /// The trusted CA certificate, DER. Add it as a client's only root.
    pub fn ca_cert_der(&self) -> &CertificateDer<'static> {
        &self.trusted.ca_der
    }

    /// The trusted CA certificate, PEM.
    pub fn ca_cert_pem(&self) -> &str {
        &self.trusted.ca_pem
    }

    /// A file holding [`TestPki::ca_cert_pem`], for engines that only take a
    /// CA bundle path (libcurl). Written once per process under the system
    /// temporary directory.
    ///
    /// # Errors
    ///
    /// If the file cannot be written.
    pub fn ca_pem_file(&self) -> std::io::Result<&Path> {
        let written = self.ca_pem_file.get_or_init(|| {
            let dir = std::env::temp_dir().join(format!("evident-lab-{}", std::process::id()));
            let path = dir.join("ca.pem");
            std::fs::create_dir_all(&dir)
                .and_then(|()| std::fs::write(&path, self.ca_cert_pem()))
                .map(|()| path)
                .map_err(|e| e.to_string())
        });
        written
            .as_deref()
            .map_err(|e| std::io::Error::other(e.clone()))
    }

    /// The untrusted CA certificate, DER (for asserting on errors; never
    /// add it to a client under test).
    pub fn untrusted_ca_cert_der(&self) -> &CertificateDer<'static> {
        &self.untrusted.ca_der
    }

    /// The leaf certificate a server with `identity` presents, DER.
    pub fn server_cert_der(&self, identity: ServerIdentity) -> &CertificateDer<'static> {
        &self.authority(identity).server_der
    }

    /// A root store holding only the trusted CA.
    pub fn root_store(&self) -> RootCertStore {
        let mut roots = RootCertStore::empty();
        roots
            .add(self.ca_cert_der().clone())
            .expect("the generated CA certificate parses");
        roots
    }

    /// A rustls client configuration (ring provider) trusting only the test
    /// CA and offering `alpn`.
    pub fn client_config(&self, alpn: &[&[u8]]) -> ClientConfig {
        let mut config = ClientConfig::builder_with_provider(provider())
            .with_safe_default_protocol_versions()
            .expect("ring supports the default protocol versions")
            .with_root_certificates(self.root_store())
            .with_no_client_auth();
        config.alpn_protocols = alpn.iter().map(|p| p.to_vec()).collect();
        config
    }

    /// A rustls server configuration presenting `identity`'s certificate and
    /// accepting `alpn`.
    pub fn server_config(&self, identity: ServerIdentity, alpn: &[&[u8]]) -> Arc<ServerConfig> {
        let authority = self.authority(identity);
        let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(authority.server_key_der.clone()));
        let mut config = ServerConfig::builder_with_provider(provider())
            .with_safe_default_protocol_versions()
            .expect("ring supports the default protocol versions")
            .with_no_client_auth()
            .with_single_cert(vec![authority.server_der.clone()], key)
            .expect("the generated key matches its certificate");
        config.alpn_protocols = alpn.iter().map(|p| p.to_vec()).collect();
        Arc::new(config)
    }

    fn authority(&self, identity: ServerIdentity) -> &Authority {
        match identity {
            ServerIdentity::Trusted => &self.trusted,
            ServerIdentity::Untrusted => &self.untrusted,
        }
    }
}

/// Always ring, explicitly: relying on the process default provider breaks
/// as soon as another crate in the build enables a second provider.
fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

impl Authority {
    fn generate(common_name: &str) -> Result<Self, rcgen::Error> {
        let ca_key = KeyPair::generate()?;
        let mut ca_params = CertificateParams::new(Vec::<String>::new())?;
        ca_params
            .distinguished_name
            .push(DnType::CommonName, common_name);
        ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        ca_params.key_usages = vec![
            KeyUsagePurpose::KeyCertSign,
            KeyUsagePurpose::CrlSign,
            KeyUsagePurpose::DigitalSignature,
        ];
        let ca_cert = ca_params.self_signed(&ca_key)?;
        let issuer = Issuer::new(ca_params, ca_key);

        let server_key = KeyPair::generate()?;
        let names: Vec<String> = SERVER_NAMES.iter().map(|n| (*n).to_owned()).collect();
        let mut server_params = CertificateParams::new(names)?;
        server_params
            .distinguished_name
            .push(DnType::CommonName, "localhost");
        server_params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        server_params.key_usages = vec![KeyUsagePurpose::DigitalSignature];
        let server_cert = server_params.signed_by(&server_key, &issuer)?;

        Ok(Self {
            ca_pem: ca_cert.pem(),
            ca_der: ca_cert.der().clone(),
            server_der: server_cert.der().clone(),
            server_key_der: server_key.serialize_der(),
        })
    }
}
