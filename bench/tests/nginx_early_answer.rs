//! nginx from the distribution answering before it reads the request body
//! (`return 200`, then reading and discarding the rest, as RFC 9112 §9.6
//! allows): every engine gets the answer. CI installs nginx (`.ci/run`);
//! without it this test fails and says so.

use std::net::Ipv4Addr;
use std::time::Duration;

use bytes::Bytes;
use evident_bench::reload::Nginx;
use evident_core::client::{self, Body, CallOptions, ClientBuilder};
use evident_core::{Engine, ExecutionEvidence, HostOverrides};

/// Bodies nginx answers before reading: in one socket buffer, and several
/// times larger than one (nginx's `client_max_body_size` is 1 MiB).
const SIZES: [usize; 3] = [10, 100_000, 900_000];

/// Calls per engine and size: the answer arrives while curl, hyper or ureq
/// is still writing, at a moment that varies from run to run.
const ROUNDS: usize = 5;

async fn every_call_is_answered<E: Engine>(name: &str, engine: E, nginx: &Nginx) {
    let client = ClientBuilder::new()
        .attempt_timeout(Duration::from_secs(10))
        .build(engine)
        .unwrap();
    for size in SIZES {
        for round in 0..ROUNDS {
            let body = Body::from(Bytes::from(vec![b'x'; size]));
            let request = http::Request::post(nginx.url()).body(body).unwrap();
            // A POST that declares nothing: one attempt, whatever happens.
            let response = match client.execute(request, CallOptions::new()).await {
                Ok(response) => response,
                Err(e) => panic!(
                    "{name}, {size} bytes, round {round}: {e} {:?}",
                    e.attempts()
                ),
            };
            assert_eq!(response.status(), 200, "{name}, {size} bytes");
            assert_eq!(response.body().as_ref(), b"ok", "{name}, {size} bytes");
            let attempts = client::attempts_of(&response);
            assert_eq!(attempts.len(), 1, "{name}: {attempts:?}");
            assert_eq!(attempts[0].evidence, Some(ExecutionEvidence::Responded));
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nginx_answering_before_it_reads_the_body_is_answered_on_every_engine() {
    let nginx = Nginx::start().unwrap();
    let roots = || vec![nginx.ca_der().to_vec()];
    let overrides = || HostOverrides::new().map("localhost", vec![Ipv4Addr::LOCALHOST.into()]);
    let hyper = evident_hyper::HyperEngine::builder()
        .root_certificates(roots())
        .host_overrides(overrides())
        .build()
        .unwrap();
    every_call_is_answered("hyper", hyper, &nginx).await;
    let reqwest = evident_reqwest::ReqwestEngine::builder()
        .root_certificates(roots())
        .host_overrides(overrides())
        .build()
        .unwrap();
    every_call_is_answered("reqwest", reqwest, &nginx).await;
    let isahc = evident_isahc::IsahcEngine::builder()
        .root_certificates(roots())
        .host_overrides(overrides())
        .build()
        .unwrap();
    every_call_is_answered("isahc", isahc, &nginx).await;
    // ureq is blocking: the same calls through the blocking client.
    let ureq = evident_ureq::UreqEngine::builder()
        .root_certificates(roots())
        .host_overrides(overrides())
        .build()
        .unwrap();
    let client = ClientBuilder::new()
        .attempt_timeout(Duration::from_secs(10))
        .build_blocking(ureq)
        .unwrap();
    let url = nginx.url();
    tokio::task::spawn_blocking(move || {
        for size in SIZES {
            for round in 0..ROUNDS {
                let body = client::blocking::Body::from(Bytes::from(vec![b'x'; size]));
                let request = http::Request::post(&url).body(body).unwrap();
                let response = match client.execute(request, CallOptions::new()) {
                    Ok(response) => response,
                    Err(e) => panic!("ureq, {size} bytes, round {round}: {e} {:?}", e.attempts()),
                };
                assert_eq!(response.status(), 200, "ureq, {size} bytes");
                assert_eq!(response.body().as_ref(), b"ok", "ureq, {size} bytes");
                assert_eq!(client::attempts_of(&response).len(), 1);
            }
        }
    })
    .await
    .unwrap();
}
