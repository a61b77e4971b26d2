//! The TLS policy every rustls-based adapter shares (feature `rustls`).
//!
//! Two engines that trust different roots, offer different protocol
//! versions or allow early data would meet the same TLS fault differently;
//! one function builds the client configuration for all of them, and one
//! maps rustls errors to signals.

use std::sync::Arc;

use rustls::RootCertStore;
use rustls::pki_types::CertificateDer;

use crate::classify::EngineSignal;
use crate::config::ConfigError;

/// ALPN identifier of HTTP/2.
pub const ALPN_H2: &[u8] = b"h2";
/// ALPN identifier of HTTP/1.1.
pub const ALPN_HTTP1: &[u8] = b"http/1.1";

/// A rustls client configuration trusting exactly `roots` (DER), offering
/// `alpn` in order, with the ring provider and its safe default protocol
/// versions, and **without early data**: 0-RTT would let request bytes leave
/// before the handshake completes, and "a TLS failure proves nothing was
/// sent" depends on that never happening.
///
/// A root that is not valid DER X.509 is a [`ConfigError`] on the field
/// `root_certificates`, whose value is the root's index.
pub fn client_config(
    roots: Vec<Vec<u8>>,
    alpn: &[&[u8]],
) -> Result<rustls::ClientConfig, ConfigError> {
    let mut store = RootCertStore::empty();
    for (index, der) in roots.into_iter().enumerate() {
        store.add(CertificateDer::from(der)).map_err(|_| {
            ConfigError::new(
                "root_certificates",
                index,
                "not a valid DER X.509 certificate",
            )
        })?;
    }
    let mut config = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .map_err(|_| {
        ConfigError::new(
            "root_certificates",
            "ring",
            "the crypto provider supports no safe protocol version",
        )
    })?
    .with_root_certificates(store)
    .with_no_client_auth();
    config.enable_early_data = false;
    config.alpn_protocols = alpn.iter().map(|p| p.to_vec()).collect();
    Ok(config)
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
