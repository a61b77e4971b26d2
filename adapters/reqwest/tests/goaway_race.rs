//! The adversary of "not processed" over HTTP/2: a server that shuts its
//! connections down gracefully while requests are in flight (a reload), and
//! a check of every claim against what the server executed.
//!
//! hyper's HTTP/2 client task opens a stream with h2's `send_request` and
//! then asks `poll_ready` whether it may take the next request. A GOAWAY
//! that the connection task processes in between makes `poll_ready` fail,
//! and hyper fails the request whose stream it has just opened with that
//! GOAWAY's error, although the stream's HEADERS are queued and the GOAWAY
//! may cover it (`hyper/src/proto/h2/client.rs`, `ClientTask::poll`, "Check
//! poll_ready() again"). The same error reaches a stream above the
//! last-stream-id and a request refused before its stream opened, and
//! reqwest shows no stream id: on reqwest a GOAWAY error proves the stream
//! was not processed only when hyper had pulled a frame of its body, which
//! it does only once the stream's own body pipe runs (the POSTs here have
//! a 1 KiB body, so both kinds of GOAWAY error are attacked).

mod support;

use support::reload;
use support::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_claim_is_false_while_the_server_reloads_its_http2_connections() {
    let engine = ReqwestEngine::builder()
        .http2_prior_knowledge()
        .build()
        .unwrap();
    let found = reload::attack(engine, |addr| format!("http://{addr}/"), 400, 24).await;
    found.assert_no_false_claim();
}
