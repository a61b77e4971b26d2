//! The TLS policy every rustls-based adapter shares (feature `rustls`).
//!
//! Two engines that trust different roots, offer different protocol
//! versions or allow early data would meet the same TLS fault differently;
//! one type, [`TlsOptions`], says what to trust and which client identity
//! to present, and one function builds the client configuration for every
//! engine from it. An engine that is not built on rustls (libcurl) reads the
//! same options through [`TlsOptions::root_certificates`] and
//! [`TlsOptions::identity`].
//!
//! # Where trust comes from, and why
//!
//! By default ([`TlsOptions::new`]) the client trusts:
//!
//! * **Mozilla's root program**, compiled in (feature `webpki-roots`, on by
//!   default, from the `webpki-root-certs` crate). It is the same set on
//!   every operating system and in a bare container with no CA bundle, so
//!   every engine meets a public HTTPS server with the same verdict — the
//!   parity this project exists for. Its cost is that a new root needs a
//!   rebuild.
//! * **The operating system's store**, when the feature `native-roots` is
//!   on (off by default; `rustls-native-certs`, which honours
//!   `SSL_CERT_FILE` and `SSL_CERT_DIR`). Turn it on where a company CA is
//!   installed system-wide.
//!
//! The platform verifier (`rustls-platform-verifier`) is not offered: it
//! verifies with each OS's own rules and revocation fetches, so the same
//! certificate could pass on one machine and fail on another, and libcurl
//! cannot share it.
//!
//! Turning the default features off leaves no implicit roots: only what the
//! caller adds ([`TlsOptions::add_root_der`], [`TlsOptions::add_roots_pem`],
//! [`TlsOptions::add_roots_pem_file`]) is trusted.
//!
//! ```
//! use evident_core::tls::{ClientIdentity, TlsOptions};
//! # let ca = rcgen::generate_simple_self_signed(vec!["ca.test".into()]).unwrap();
//! # let company_ca_pem = ca.cert.pem();
//! # let client = rcgen::generate_simple_self_signed(vec!["me.test".into()]).unwrap();
//! # let (client_cert_pem, client_key_pem) = (client.cert.pem(), client.signing_key.serialize_pem());
//!
//! // The public web roots plus a company CA, from PEM, presenting a client
//! // certificate (mTLS).
//! let options = TlsOptions::new()
//!     .add_roots_pem(company_ca_pem.as_bytes())?
//!     .identity(ClientIdentity::from_pem(
//!         client_cert_pem.as_bytes(),
//!         client_key_pem.as_bytes(),
//!     )?);
//! let config = options.client_config(&[evident_core::tls::ALPN_HTTP1])?;
//! assert!(config.client_auth_cert_resolver.has_certs());
//!
//! // Bad input is a typed error naming what was wrong.
//! let err = TlsOptions::new().add_roots_pem(b"not pem").unwrap_err();
//! assert_eq!(err.field(), "roots_pem");
//! # Ok::<(), evident_core::ConfigError>(())
//! ```

use std::path::Path;
use std::sync::Arc;

use rustls::RootCertStore;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

use crate::classify::EngineSignal;
use crate::config::ConfigError;

/// ALPN identifier of HTTP/2.
pub const ALPN_H2: &[u8] = b"h2";
/// ALPN identifier of HTTP/1.1.
pub const ALPN_HTTP1: &[u8] = b"http/1.1";

/// What a client trusts and which certificate it presents. Cheap to clone;
/// every adapter builder takes one (`.tls(options)`).
#[derive(Clone)]
pub struct TlsOptions {
    webpki_roots: bool,
    native_roots: bool,
    extra_roots: Vec<CertificateDer<'static>>,
    identity: Option<ClientIdentity>,
}

impl Default for TlsOptions {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for TlsOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TlsOptions")
            .field("webpki_roots", &self.webpki_roots)
            .field("native_roots", &self.native_roots)
            .field("extra_roots", &self.extra_roots.len())
            .field("identity", &self.identity.is_some())
            .finish()
    }
}

impl TlsOptions {
    /// The default trust sources compiled in (see the module docs): the
    /// public web roots with feature `webpki-roots` (default), the system
    /// store with feature `native-roots`. No client certificate.
    pub fn new() -> Self {
        TlsOptions {
            webpki_roots: cfg!(feature = "webpki-roots"),
            native_roots: cfg!(feature = "native-roots"),
            extra_roots: Vec::new(),
            identity: None,
        }
    }

    /// Trust only the roots added to these options: no compiled-in or
    /// system roots.
    pub fn without_default_roots(mut self) -> Self {
        self.webpki_roots = false;
        self.native_roots = false;
        self
    }

    /// Also trust `der`, one DER X.509 certificate.
    ///
    /// # Errors
    ///
    /// `root_certificates` when it is not a certificate usable as a trust
    /// anchor; the value is its index among the added roots.
    pub fn add_root_der(mut self, der: impl Into<Vec<u8>>) -> Result<Self, ConfigError> {
        let cert = CertificateDer::from(der.into());
        RootCertStore::empty().add(cert.clone()).map_err(|_| {
            ConfigError::new(
                "root_certificates",
                self.extra_roots.len(),
                "not a valid DER X.509 certificate",
            )
        })?;
        self.extra_roots.push(cert);
        Ok(self)
    }

    /// Trust exactly the DER certificates `ders` and nothing else: the
    /// compiled-in, system and previously added roots are dropped, the
    /// client identity is kept. What an engine builder's
    /// `root_certificates(ders)` means on every engine.
    ///
    /// # Errors
    ///
    /// As [`Self::add_root_der`].
    pub fn with_only_roots(self, ders: Vec<Vec<u8>>) -> Result<Self, ConfigError> {
        let exact = TlsOptions {
            extra_roots: Vec::new(),
            ..self.without_default_roots()
        };
        ders.into_iter().try_fold(exact, TlsOptions::add_root_der)
    }

    /// Also trust every `CERTIFICATE` in `pem` (a CA bundle, as the files
    /// under `/etc/ssl` are written). Other PEM sections are skipped.
    ///
    /// # Errors
    ///
    /// `roots_pem` when the text is not PEM, holds no certificate, or a
    /// certificate is not usable as a trust anchor.
    pub fn add_roots_pem(mut self, pem: &[u8]) -> Result<Self, ConfigError> {
        let mut found = 0usize;
        for (index, item) in CertificateDer::pem_slice_iter(pem).enumerate() {
            let cert = item.map_err(|_| {
                ConfigError::new("roots_pem", index, "malformed PEM certificate section")
            })?;
            self = self.add_root_der(cert.to_vec()).map_err(|_| {
                ConfigError::new("roots_pem", index, "not a valid X.509 certificate")
            })?;
            found += 1;
        }
        if found == 0 {
            return Err(ConfigError::new(
                "roots_pem",
                pem.len(),
                "no PEM CERTIFICATE section found",
            ));
        }
        Ok(self)
    }

    /// Also trust every certificate in the PEM file at `path`.
    ///
    /// # Errors
    ///
    /// `roots_pem_file` when the file cannot be read (the value is the
    /// path); otherwise as [`Self::add_roots_pem`].
    pub fn add_roots_pem_file(self, path: impl AsRef<Path>) -> Result<Self, ConfigError> {
        let path = path.as_ref();
        let pem = std::fs::read(path)
            .map_err(|_| ConfigError::new("roots_pem_file", path, "the file cannot be read"))?;
        self.add_roots_pem(&pem)
    }

    /// Present `identity` when the server asks for a client certificate
    /// (mutual TLS).
    pub fn identity(mut self, identity: ClientIdentity) -> Self {
        self.identity = Some(identity);
        self
    }

    /// The client identity, if one was set.
    pub fn client_identity(&self) -> Option<&ClientIdentity> {
        self.identity.as_ref()
    }

    /// Every root these options trust, as DER: the compiled-in roots, the
    /// system store and the added roots, in that order. For engines that
    /// take a CA bundle rather than a rustls configuration.
    ///
    /// # Errors
    ///
    /// `native_roots` when the system store is enabled but yields no
    /// certificate at all.
    pub fn root_certificates(&self) -> Result<Vec<CertificateDer<'static>>, ConfigError> {
        let mut roots = Vec::new();
        #[cfg(feature = "webpki-roots")]
        if self.webpki_roots {
            roots.extend(webpki_root_certs::TLS_SERVER_ROOT_CERTS.iter().cloned());
        }
        #[cfg(feature = "native-roots")]
        if self.native_roots {
            roots.extend(native_roots()?);
        }
        roots.extend(self.extra_roots.iter().cloned());
        Ok(roots)
    }

    /// A rustls client configuration from these options, offering `alpn`
    /// in order, with the ring provider and its safe default protocol
    /// versions, and **without early data**: 0-RTT would let request bytes
    /// leave before the handshake completes, and "a TLS failure proves
    /// nothing was sent" depends on that never happening.
    ///
    /// # Errors
    ///
    /// As [`Self::root_certificates`]; `identity` when the client key does
    /// not match its certificate or is of an unsupported kind.
    pub fn client_config(&self, alpn: &[&[u8]]) -> Result<rustls::ClientConfig, ConfigError> {
        let mut store = RootCertStore::empty();
        // Compiled-in and system stores may hold a certificate rustls cannot
        // use as an anchor (an unsupported key type); skipping it is what
        // every TLS client does. Added roots were checked one by one.
        store.add_parsable_certificates(self.root_certificates()?);
        let builder = rustls::ClientConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .map_err(|_| {
            ConfigError::new(
                "tls",
                "ring",
                "the crypto provider supports no safe protocol version",
            )
        })?
        .with_root_certificates(store);
        let mut config = match &self.identity {
            None => builder.with_no_client_auth(),
            Some(identity) => builder
                .with_client_auth_cert(identity.chain.clone(), identity.key.clone_key())
                .map_err(|_| {
                    ConfigError::new(
                        "identity",
                        identity.chain.len(),
                        "the key does not match the certificate or is unsupported",
                    )
                })?,
        };
        config.enable_early_data = false;
        config.alpn_protocols = alpn.iter().map(|p| p.to_vec()).collect();
        Ok(config)
    }
}

/// The system store's certificates (feature `native-roots`).
#[cfg(feature = "native-roots")]
fn native_roots() -> Result<Vec<CertificateDer<'static>>, ConfigError> {
    let loaded = rustls_native_certs::load_native_certs();
    // A store with some unreadable entries still serves the others; a store
    // that yields nothing would make every https request fail.
    if loaded.certs.is_empty() {
        return Err(ConfigError::new(
            "native_roots",
            loaded.errors.len(),
            "the system certificate store yielded no certificate",
        ));
    }
    Ok(loaded.certs)
}

/// A client certificate chain and its private key, for mutual TLS.
pub struct ClientIdentity {
    chain: Vec<CertificateDer<'static>>,
    key: PrivateKeyDer<'static>,
}

impl Clone for ClientIdentity {
    fn clone(&self) -> Self {
        ClientIdentity {
            chain: self.chain.clone(),
            key: self.key.clone_key(),
        }
    }
}

impl std::fmt::Debug for ClientIdentity {
    // Never prints the key.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientIdentity")
            .field("chain", &self.chain.len())
            .finish_non_exhaustive()
    }
}

impl ClientIdentity {
    /// From PEM: `certificates` holds the leaf first, then any
    /// intermediates; `key` one PKCS#8, PKCS#1 or SEC1 private key.
    ///
    /// # Errors
    ///
    /// `identity_certificates` when no certificate is found or one is
    /// malformed; `identity_key` when no private key is found.
    pub fn from_pem(certificates: &[u8], key: &[u8]) -> Result<Self, ConfigError> {
        let chain = CertificateDer::pem_slice_iter(certificates)
            .enumerate()
            .map(|(index, item)| {
                item.map_err(|_| {
                    ConfigError::new(
                        "identity_certificates",
                        index,
                        "malformed PEM certificate section",
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let key = PrivateKeyDer::from_pem_slice(key)
            .map_err(|_| ConfigError::new("identity_key", key.len(), "no PEM private key found"))?;
        Self::new(chain, key)
    }

    /// From DER: the chain (leaf first) and a PKCS#8, PKCS#1 or SEC1 key.
    ///
    /// # Errors
    ///
    /// `identity_certificates` when the chain is empty; `identity_key` when
    /// the key is none of the supported encodings.
    pub fn from_der(chain: Vec<Vec<u8>>, key: Vec<u8>) -> Result<Self, ConfigError> {
        let key = PrivateKeyDer::try_from(key).map_err(|_| {
            ConfigError::new(
                "identity_key",
                "DER",
                "not a PKCS#8, PKCS#1 or SEC1 private key",
            )
        })?;
        Self::new(chain.into_iter().map(CertificateDer::from).collect(), key)
    }

    fn new(
        chain: Vec<CertificateDer<'static>>,
        key: PrivateKeyDer<'static>,
    ) -> Result<Self, ConfigError> {
        if chain.is_empty() {
            return Err(ConfigError::new(
                "identity_certificates",
                0,
                "no certificate in the chain",
            ));
        }
        Ok(ClientIdentity { chain, key })
    }

    /// The certificate chain, leaf first.
    pub fn certificate_chain(&self) -> &[CertificateDer<'static>] {
        &self.chain
    }

    /// The private key.
    pub fn private_key(&self) -> &PrivateKeyDer<'static> {
        &self.key
    }
}

/// A rustls client configuration trusting exactly `roots` (DER) — no
/// compiled-in or system roots — offering `alpn` in order; otherwise as
/// [`TlsOptions::client_config`].
///
/// A root that is not valid DER X.509 is a [`ConfigError`] on the field
/// `root_certificates`, whose value is the root's index.
pub fn client_config(
    roots: Vec<Vec<u8>>,
    alpn: &[&[u8]],
) -> Result<rustls::ClientConfig, ConfigError> {
    roots
        .into_iter()
        .try_fold(TlsOptions::new().without_default_roots(), |options, der| {
            options.add_root_der(der)
        })?
        .client_config(alpn)
}

/// The name an `https://` origin's certificate is verified against, and
/// sent as SNI: its host, a DNS name or an IP address. `None` for
/// `http://`. A host rustls cannot take as a name is the attempt's failure
/// ([`EngineSignal::Other`]), before anything is sent.
///
/// ```
/// use evident_core::engine::Origin;
/// use evident_core::tls::server_name;
///
/// let origin = Origin::from_uri(&"https://example.com/".parse().unwrap()).unwrap();
/// assert_eq!(server_name(&origin).unwrap().unwrap().to_str(), "example.com");
/// let plain = Origin::from_uri(&"http://example.com/".parse().unwrap()).unwrap();
/// assert!(server_name(&plain).unwrap().is_none());
/// ```
pub fn server_name(
    origin: &crate::engine::Origin,
) -> Result<Option<rustls::pki_types::ServerName<'static>>, crate::engine::EngineFailure> {
    if !origin.is_https() {
        return Ok(None);
    }
    rustls::pki_types::ServerName::try_from(origin.host().to_owned())
        .map(Some)
        .map_err(|e| crate::engine::EngineFailure::new(EngineSignal::Other, e))
}

/// Reads plaintext from a TLS client session without writing anything:
/// what the session already decrypted, then records from `socket` until
/// one yields plaintext. `Ok(0)` at a clean end (close_notify); the
/// socket's `WouldBlock` when nothing more has arrived on a non-blocking
/// socket.
///
/// For reading a server's early answer after a write failed (see
/// [`crate::engine::EARLY_ANSWER_LIMIT`]): a stream's own read first tries
/// to write the records the failed write left, which fails again.
///
/// ```
/// # fn demo(conn: &mut rustls::ClientConnection, socket: &mut std::net::TcpStream)
/// # -> std::io::Result<()> {
/// let mut buf = [0u8; 4096];
/// let n = evident_core::tls::read_plaintext(conn, socket, &mut buf)?;
/// # let _ = n; Ok(()) }
/// ```
pub fn read_plaintext(
    conn: &mut rustls::ClientConnection,
    socket: &mut impl std::io::Read,
    out: &mut [u8],
) -> std::io::Result<usize> {
    loop {
        match std::io::Read::read(&mut conn.reader(), out) {
            Ok(n) => return Ok(n),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(e) => return Err(e),
        }
        if conn.read_tls(socket)? == 0 {
            return Ok(0);
        }
        conn.process_new_packets().map_err(std::io::Error::other)?;
    }
}

/// The signal a rustls error means: a rejected certificate (permanent), any
/// other failure during the handshake, or — after the handshake — a torn
/// down session, reported as a reset.
pub fn rustls_signal(error: &rustls::Error, during_handshake: bool) -> EngineSignal {
    match error {
        rustls::Error::InvalidCertificate(_) | rustls::Error::InvalidCertRevocationList(_) => {
            EngineSignal::TlsCertificate
        }
        _ if during_handshake => EngineSignal::TlsHandshake,
        _ => EngineSignal::ConnectionReset,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_config_never_allows_early_data_and_offers_alpn_in_order() {
        let config = client_config(Vec::new(), &[ALPN_H2, ALPN_HTTP1]).unwrap();
        assert!(!config.enable_early_data);
        assert_eq!(
            config.alpn_protocols,
            vec![b"h2".to_vec(), b"http/1.1".to_vec()]
        );
    }

    #[test]
    fn a_root_that_is_not_der_is_rejected_by_index() {
        let err = client_config(vec![b"nope".to_vec()], &[]).unwrap_err();
        assert_eq!((err.field(), err.value()), ("root_certificates", "0"));
    }

    fn self_signed(name: &str) -> rcgen::CertifiedKey<rcgen::KeyPair> {
        rcgen::generate_simple_self_signed(vec![name.to_owned()]).unwrap()
    }

    #[cfg(feature = "webpki-roots")]
    #[test]
    fn the_default_options_trust_the_compiled_in_public_roots() {
        let roots = TlsOptions::new().root_certificates().unwrap();
        let public = webpki_root_certs::TLS_SERVER_ROOT_CERTS;
        // Mozilla's program holds well over a hundred roots; a handful
        // would mean the wrong list.
        assert!(public.len() > 100, "{} roots", public.len());
        assert_eq!(&roots[..public.len()], public);
        let config = TlsOptions::new().client_config(&[]).unwrap();
        assert!(!config.enable_early_data);
    }

    #[test]
    fn without_default_roots_only_the_added_roots_are_trusted() {
        let ca = self_signed("ca.test");
        let options = TlsOptions::new()
            .without_default_roots()
            .add_root_der(ca.cert.der().to_vec())
            .unwrap();
        assert_eq!(
            options.root_certificates().unwrap(),
            vec![ca.cert.der().clone()]
        );
        assert!(
            TlsOptions::new()
                .without_default_roots()
                .root_certificates()
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn every_certificate_of_a_pem_bundle_is_trusted_and_other_sections_are_skipped() {
        let (a, b) = (self_signed("a.test"), self_signed("b.test"));
        let bundle = format!(
            "{}\n{}{}",
            a.cert.pem(),
            a.signing_key.serialize_pem(),
            b.cert.pem()
        );
        let options = TlsOptions::new()
            .without_default_roots()
            .add_roots_pem(bundle.as_bytes())
            .unwrap();
        assert_eq!(
            options.root_certificates().unwrap(),
            vec![a.cert.der().clone(), b.cert.der().clone()]
        );
    }

    #[test]
    fn pem_without_a_certificate_is_rejected() {
        let key_only = self_signed("a.test").signing_key.serialize_pem();
        for bad in [&b"plain text"[..], key_only.as_bytes()] {
            let err = TlsOptions::new().add_roots_pem(bad).unwrap_err();
            assert_eq!(err.field(), "roots_pem");
        }
        let broken = "-----BEGIN CERTIFICATE-----\n%%%\n-----END CERTIFICATE-----\n";
        let err = TlsOptions::new()
            .add_roots_pem(broken.as_bytes())
            .unwrap_err();
        assert_eq!((err.field(), err.value()), ("roots_pem", "0"));
    }

    #[test]
    fn a_pem_file_that_cannot_be_read_is_rejected_naming_the_path() {
        let err = TlsOptions::new()
            .add_roots_pem_file("/nonexistent/evident/roots.pem")
            .unwrap_err();
        assert_eq!(err.field(), "roots_pem_file");
        assert!(err.value().contains("/nonexistent/evident/roots.pem"));
    }

    #[test]
    fn a_client_identity_is_offered_and_a_mismatched_key_is_rejected() {
        let (me, other) = (self_signed("me.test"), self_signed("other.test"));
        let identity = ClientIdentity::from_pem(
            me.cert.pem().as_bytes(),
            me.signing_key.serialize_pem().as_bytes(),
        )
        .unwrap();
        let config = TlsOptions::new()
            .without_default_roots()
            .identity(identity)
            .client_config(&[])
            .unwrap();
        assert!(config.client_auth_cert_resolver.has_certs());

        let mismatched = ClientIdentity::from_der(
            vec![me.cert.der().to_vec()],
            other.signing_key.serialize_der(),
        )
        .unwrap();
        let err = TlsOptions::new()
            .without_default_roots()
            .identity(mismatched)
            .client_config(&[])
            .unwrap_err();
        assert_eq!(err.field(), "identity");
    }

    #[test]
    fn a_client_identity_needs_a_certificate_and_a_key() {
        let me = self_signed("me.test");
        let key = me.signing_key.serialize_pem();
        let err = ClientIdentity::from_pem(b"", key.as_bytes()).unwrap_err();
        assert_eq!(err.field(), "identity_certificates");
        let err = ClientIdentity::from_pem(me.cert.pem().as_bytes(), b"").unwrap_err();
        assert_eq!(err.field(), "identity_key");
        let err =
            ClientIdentity::from_der(vec![me.cert.der().to_vec()], b"junk".to_vec()).unwrap_err();
        assert_eq!(err.field(), "identity_key");
    }

    #[test]
    fn a_client_identity_never_prints_its_key() {
        let me = self_signed("me.test");
        let key_der = me.signing_key.serialize_der();
        let identity = ClientIdentity::from_der(vec![me.cert.der().to_vec()], key_der).unwrap();
        let printed = format!(
            "{identity:?} {:?}",
            TlsOptions::new().identity(identity.clone())
        );
        assert!(!printed.contains("key:"), "{printed}");
        assert_eq!(identity.certificate_chain().len(), 1);
    }

    /// Runs only as the child of the test below, which sets
    /// `SSL_CERT_FILE` for it (setting the variable in this process would
    /// race every other test).
    #[cfg(feature = "native-roots")]
    #[test]
    #[ignore = "run by the_system_store_honours_ssl_cert_file with SSL_CERT_FILE set"]
    fn child_trusts_the_certificate_named_by_ssl_cert_file() {
        let path = std::env::var_os("SSL_CERT_FILE").expect("run by its parent test");
        let installed = CertificateDer::from_pem_file(path).unwrap();
        let roots = TlsOptions::new().root_certificates().unwrap();
        assert!(roots.contains(&installed));
        let without = TlsOptions::new().without_default_roots();
        assert!(!without.root_certificates().unwrap().contains(&installed));
    }

    #[cfg(feature = "native-roots")]
    #[test]
    fn the_system_store_honours_ssl_cert_file() {
        let ca = self_signed("installed.test");
        let path = std::env::temp_dir().join(format!(
            "evident-core-native-roots-{}.pem",
            std::process::id()
        ));
        std::fs::write(&path, ca.cert.pem()).unwrap();
        let child = "tls::tests::child_trusts_the_certificate_named_by_ssl_cert_file";
        let output = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", child, "--ignored", "--test-threads=1"])
            .env("SSL_CERT_FILE", &path)
            .env("SSL_CERT_DIR", &path)
            .output()
            .unwrap();
        std::fs::remove_file(&path).unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{stdout}");
        assert!(stdout.contains("1 passed"), "the child ran: {stdout}");
    }

    #[test]
    fn certificate_errors_are_permanent_and_others_depend_on_the_handshake() {
        let bad = rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer);
        assert_eq!(rustls_signal(&bad, true), EngineSignal::TlsCertificate);
        assert_eq!(rustls_signal(&bad, false), EngineSignal::TlsCertificate);
        let alert = rustls::Error::DecryptError;
        assert_eq!(rustls_signal(&alert, true), EngineSignal::TlsHandshake);
        assert_eq!(rustls_signal(&alert, false), EngineSignal::ConnectionReset);
    }
}
