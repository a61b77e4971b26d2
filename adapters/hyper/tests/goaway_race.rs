//! The adversary of "not processed" over HTTP/2: a server that shuts its
//! connections down gracefully while requests are in flight (a reload), and
//! a check of every claim against what the server executed.
//!
//! This engine drives h2 itself: a stream h2 refuses to open was not
//! queued, and h2 fails an opened stream with a GOAWAY's error only when
//! the stream is above its last-stream-id (`Streams::recv_go_away`), so
//! its GOAWAY proofs must hold under any interleaving.

mod support;

use evident_hyper::HyperEngine;
use support::reload;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_claim_is_false_while_the_server_reloads_its_http2_connections() {
    let engine = HyperEngine::builder()
        .http2_prior_knowledge()
        .build()
        .unwrap();
    let found = reload::attack(engine, |addr| format!("http://{addr}/"), 400, 24).await;
    found.assert_no_false_claim();
}
