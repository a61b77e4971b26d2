//! A client certificate (mutual TLS) handed to curl's rustls backend.
//!
//! # Why files, and why in memory
//!
//! curl's rustls backend reads the client certificate and its key only from
//! **files** (`CURLOPT_SSLCERT`, `CURLOPT_SSLKEY`: `vtls/rustls.c`,
//! `init_config_builder_client_auth`, reads both as PEM on every
//! handshake). It does not support the in-memory blobs
//! (`CURLOPT_SSLCERT_BLOB`) that isahc's `Identity::from_pem` sets: curl
//! accepts the option and the backend ignores it, so the handshake would go
//! on **without** a certificate. The adapter therefore never uses blobs.
//!
//! A private key written to a temporary file would outlive a crash on disk.
//! On Linux the adapter writes both PEM texts to anonymous memory files
//! (`memfd_create`, close-on-exec) and hands curl their `/proc/self/fd/N`
//! paths: nothing touches a disk, and only a process allowed to read this
//! process's memory can open them. The files live as long as the engine.
//! Elsewhere the builder refuses a client identity with a typed error
//! rather than connect without it.

use evident_core::ConfigError;
use evident_core::tls::ClientIdentity;

/// The PEM texts of a client identity, in files curl can open.
#[derive(Debug)]
pub(crate) struct IdentityFiles {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    certificates: memfd::PemFile,
    #[cfg(any(target_os = "linux", target_os = "android"))]
    key: memfd::PemFile,
}

impl IdentityFiles {
    /// Writes `identity` where curl can read it, and checks it can.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    pub(crate) fn new(identity: &ClientIdentity) -> Result<Self, ConfigError> {
        let chain = identity
            .certificate_chain()
            .iter()
            .map(|der| pem("CERTIFICATE", der))
            .collect::<String>();
        let key = {
            use rustls_pki_types::PrivateKeyDer;
            let (label, der) = match identity.private_key() {
                PrivateKeyDer::Pkcs8(key) => ("PRIVATE KEY", key.secret_pkcs8_der()),
                PrivateKeyDer::Pkcs1(key) => ("RSA PRIVATE KEY", key.secret_pkcs1_der()),
                PrivateKeyDer::Sec1(key) => ("EC PRIVATE KEY", key.secret_sec1_der()),
                _ => {
                    return Err(ConfigError::new(
                        "identity",
                        "private key",
                        "a key encoding curl's rustls backend cannot read",
                    ));
                }
            };
            pem(label, der)
        };
        Ok(IdentityFiles {
            certificates: memfd::PemFile::new("evident-client-certificates", &chain)?,
            key: memfd::PemFile::new("evident-client-key", &key)?,
        })
    }

    /// Anywhere but Linux: refused, since curl would need the key on disk.
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    pub(crate) fn new(_identity: &ClientIdentity) -> Result<Self, ConfigError> {
        Err(ConfigError::new(
            "identity",
            "client certificate",
            "the isahc engine presents one only on Linux, where curl can read it from memory",
        ))
    }

    /// isahc's identity naming the two files.
    pub(crate) fn isahc_identity(&self) -> isahc::tls::Identity {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        {
            isahc::tls::Identity::from_pem_file(
                self.certificates.path(),
                Some(isahc::tls::PrivateKey::from_pem_file(self.key.path(), None)),
            )
        }
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        unreachable!("IdentityFiles is only built on Linux")
    }
}

/// One PEM section: `label`, and `der` in base64, 64 characters a line
/// (RFC 7468).
fn pem(label: &str, der: &[u8]) -> String {
    /// RFC 7468 §2: lines of exactly 64 characters, the last one shorter.
    const LINE: usize = 64;
    let encoded = base64(der);
    let mut out = format!("-----BEGIN {label}-----\n");
    for line in encoded.as_bytes().chunks(LINE) {
        // The base64 alphabet is ASCII.
        out.push_str(std::str::from_utf8(line).unwrap_or_default());
        out.push('\n');
    }
    out.push_str(&format!("-----END {label}-----\n"));
    out
}

/// Standard base64 with padding (RFC 4648 §4).
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(any(target_os = "linux", target_os = "android"))]
mod memfd {
    use std::fs::File;
    use std::io::Write;
    use std::os::fd::AsRawFd;
    use std::path::PathBuf;

    use evident_core::ConfigError;
    use rustix::fs::{MemfdFlags, memfd_create};

    /// An anonymous in-memory file holding one PEM text, open for the
    /// engine's lifetime.
    #[derive(Debug)]
    pub(super) struct PemFile {
        file: File,
    }

    impl PemFile {
        pub(super) fn new(name: &str, pem: &str) -> Result<Self, ConfigError> {
            let unavailable = |what: &str, e: std::io::Error| {
                ConfigError::new(
                    "identity",
                    format!("{what}: {e}"),
                    "curl cannot be handed the client certificate",
                )
            };
            // Close-on-exec: a child process never inherits the key.
            let fd = memfd_create(name, MemfdFlags::CLOEXEC)
                .map_err(|e| unavailable("memfd_create", e.into()))?;
            let mut file = File::from(fd);
            file.write_all(pem.as_bytes())
                .map_err(|e| unavailable("write", e))?;
            let file = PemFile { file };
            // curl opens the path itself on every handshake: prove now that
            // it can (a process without /proc could not), rather than fail
            // every connection later.
            match std::fs::read(file.path()) {
                Ok(read) if read == pem.as_bytes() => Ok(file),
                Ok(_) => Err(ConfigError::new(
                    "identity",
                    file.path().display().to_string(),
                    "reads back differently",
                )),
                Err(e) => Err(unavailable("/proc/self/fd", e)),
            }
        }

        /// The path curl opens: this process's view of the descriptor.
        pub(super) fn path(&self) -> PathBuf {
            PathBuf::from(format!("/proc/self/fd/{}", self.file.as_raw_fd()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc_4648_test_vectors() {
        let vectors = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (input, expected) in vectors {
            assert_eq!(base64(input.as_bytes()), expected, "{input:?}");
        }
    }

    #[test]
    fn pem_sections_read_back_as_the_same_identity() {
        // Every byte value, and a length that leaves a short last line.
        let der: Vec<u8> = (0..=255u8).cycle().take(1000).collect();
        let text = pem("CERTIFICATE", &der);
        assert!(text.lines().all(|line| line.len() <= 64));
        let key = pem("PRIVATE KEY", b"key bytes");
        let identity = ClientIdentity::from_pem(text.as_bytes(), key.as_bytes()).unwrap();
        assert_eq!(identity.certificate_chain()[0].as_ref(), &der[..]);
    }
}
