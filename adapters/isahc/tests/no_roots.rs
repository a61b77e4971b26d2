//! `root_certificates(vec![])` means what it means on every engine:
//! `https://` trusts nothing, and `http://` still works. Its own test
//! binary, because it points libcurl's default trust (`SSL_CERT_FILE`) at
//! the lab's CA, so that falling back to that trust would be seen.

mod support;

use evident_core::{AttemptStage, Engine, EngineSignal, ExecutionEvidence};
use evident_isahc::IsahcEngine;
use support::*;

/// RFC 4648 base64, for the PEM file of the lab's CA.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[tokio::test]
async fn no_roots_trusts_nothing_not_even_libcurls_default_trust() {
    let pem = format!(
        "-----BEGIN CERTIFICATE-----\n{}\n-----END CERTIFICATE-----\n",
        base64(&Pki::get().trusted_ca_der)
            .as_bytes()
            .chunks(64)
            .map(|line| std::str::from_utf8(line).unwrap())
            .collect::<Vec<_>>()
            .join("\n")
    );
    let file = std::env::temp_dir().join(format!("evident-no-roots-{}.pem", std::process::id()));
    std::fs::write(&file, pem).unwrap();
    // SAFETY: the only test of this binary sets it before any engine or
    // other thread of its own reads the environment.
    unsafe { std::env::set_var("SSL_CERT_FILE", &file) };

    let engine = IsahcEngine::builder()
        .root_certificates(vec![])
        .build()
        .unwrap();
    let (listener, addr) = listen().await;
    let acceptor = Pki::get().acceptor(true, &[b"http/1.1"]);
    tokio::spawn(async move {
        let (tcp, _) = listener.accept().await.unwrap();
        let _ = acceptor.accept(tcp).await;
    });
    let attempt = attempt();
    let url = format!("https://localhost:{}/", addr.port());
    let failure = engine.send(post(&url, "x"), &attempt).await.unwrap_err();
    assert_eq!(failure.signal(), EngineSignal::TlsCertificate);
    let judged = judged(&failure, &attempt);
    assert_eq!(judged.stage(), AttemptStage::Tls);
    assert_eq!(judged.evidence(), ExecutionEvidence::NotSent);

    let (listener, addr) = listen().await;
    serve(listener, 1, |_, mut conn| async move {
        conn.next_request().await.unwrap();
        conn.respond(OK_HELLO).await;
    });
    let plain = support::attempt();
    let (status, _) = fetch(&engine, get(&format!("http://{addr}/")), &plain)
        .await
        .unwrap();
    assert_eq!(status, 200);
    let _ = std::fs::remove_file(&file);
}
