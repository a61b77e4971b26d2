//! A named gap, pinned: libcurl as curl-sys builds it (curl-sys 0.4.91,
//! libcurl 8.22) waits on its sockets with `select()`, because the build
//! defines `HAVE_POLL_FINE` where libcurl 8.11 and later look for
//! `HAVE_POLL` (curl PR #15096). `select()` cannot watch a descriptor
//! numbered `FD_SETSIZE` (1024) or above, so in a process holding more than
//! about a thousand descriptors every transfer fails.
//!
//! What evident promises here is the evidence: such an attempt fails before
//! anything was written, the server executes nothing, and once descriptors
//! are below the limit again the same engine is answered. Its own binary,
//! because it fills the process's descriptor table.

mod support;

use std::os::fd::AsRawFd;

use evident_core::{AttemptStage, Engine, ExecutionEvidence};
use evident_isahc::IsahcEngine;
use support::*;

/// `FD_SETSIZE` on Linux.
const SELECT_LIMIT: i32 = 1024;

#[tokio::test]
async fn a_socket_numbered_above_selects_limit_fails_before_writing_and_nothing_is_executed() {
    let (listener, addr) = listen().await;
    let ledger = Ledger::default();
    let counted = ledger.clone();
    serve(listener, 4, move |_, mut conn| {
        let ledger = counted.clone();
        async move {
            while conn.next_request().await.is_some() {
                ledger.execute();
                conn.respond(OK_HELLO).await;
            }
        }
    });
    let engine = IsahcEngine::builder().build().unwrap();
    let url = format!("http://{addr}/");

    // Hold descriptors until the next one is numbered above the limit.
    let mut held = Vec::new();
    while held
        .last()
        .is_none_or(|f: &std::fs::File| f.as_raw_fd() < SELECT_LIMIT + 16)
    {
        held.push(std::fs::File::open("/dev/null").expect(
            "this test needs a descriptor limit above 1040 (`ulimit -n`); CI machines have 20000",
        ));
    }
    let attempt = attempt();
    let failure = engine.send(get(&url), &attempt).await.unwrap_err();
    let judged = judged(&failure, &attempt);
    assert_eq!(judged.stage(), AttemptStage::Connect, "{failure:?}");
    assert_eq!(judged.evidence(), ExecutionEvidence::NotSent);
    assert_eq!(ledger.executions(), 0, "nothing reached the server");

    drop(held);
    let (status, body) = fetch(&engine, get(&url), &support::attempt())
        .await
        .unwrap();
    assert_eq!(status, 200);
    assert_eq!(&body[..], b"hello");
    assert_eq!(ledger.executions(), 1);
}
