//! When the https relay cannot start (here: `TMPDIR` names a directory
//! that cannot be created, so there is nowhere to put its socket), curl
//! dials as it would without Unix sockets, and the transfer still works.
//! A test binary of its own: the relay's directory is chosen once per
//! process.

mod support;

use evident_core::HostOverrides;
use evident_isahc::IsahcEngine;
use support::*;

#[tokio::test]
async fn https_works_when_the_relay_cannot_start() {
    // SAFETY: set before any thread of this test binary reads the
    // environment (the test is the binary's only one, and runs first).
    unsafe { std::env::set_var("TMPDIR", "/proc/evident-nowhere") };
    let (listener, addr) = listen().await;
    answer_once_over_tls(listener);
    let engine = IsahcEngine::builder()
        .root_certificates(vec![Pki::get().trusted_ca_der.clone()])
        .host_overrides(HostOverrides::new())
        .build()
        .unwrap();
    let url = format!("https://localhost:{}/", addr.port());
    let (status, body) = fetch(&engine, get(&url), &attempt()).await.unwrap();
    assert_eq!(status, 200);
    assert_eq!(&body[..], b"hello");
}
