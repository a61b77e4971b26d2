//! Transfers in a busy process: every socket curl opens is numbered above
//! 5,000, far past `select()`'s `FD_SETSIZE` (1024).
//!
//! libcurl 8.11 and later wait with `poll()` only when built with
//! `HAVE_POLL` (curl PR #15096); curl-sys 0.4.91 defines the older
//! `HAVE_POLL_FINE` instead, so its libcurl used `select()`, and in such a
//! process every transfer failed at `connect` (curl's connect check cannot
//! watch the socket). This workspace builds curl-sys with `HAVE_POLL` (see
//! `adapters/isahc/vendor/curl-sys/EVIDENT.md`); this test is what fails
//! when that is lost.
//!
//! Its own binary, because it fills the process's descriptor table.

mod support;

use std::os::fd::AsRawFd;

use evident_isahc::IsahcEngine;
use support::*;

/// How many descriptors the process holds while the transfers run: a
/// server with a few thousand open connections, well past `FD_SETSIZE`.
const HELD_DESCRIPTORS: usize = 5_000;

/// Room above the held descriptors for the runtime, the loopback servers
/// and curl's own sockets and pipes.
const HEADROOM: u64 = 512;

/// `FD_SETSIZE` on Linux: `select()` cannot watch a descriptor numbered
/// this or above.
const SELECT_LIMIT: i32 = 1024;

/// Raises the soft descriptor limit to what the test needs, never past the
/// hard limit. `Err` names the hard limit when it forbids the test.
fn allow_descriptors(needed: u64) -> Result<(), String> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `limit` is a valid, writable rlimit for the call.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return Err(format!(
            "getrlimit failed: {}",
            std::io::Error::last_os_error()
        ));
    }
    if limit.rlim_cur >= needed {
        return Ok(());
    }
    if limit.rlim_max < needed {
        return Err(format!(
            "the hard limit on open descriptors is {}, below the {needed} this test needs",
            limit.rlim_max
        ));
    }
    limit.rlim_cur = needed;
    // SAFETY: `limit` is a valid rlimit, its soft value within the hard one.
    if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &limit) } != 0 {
        return Err(format!(
            "setrlimit to {needed} failed: {}",
            std::io::Error::last_os_error()
        ));
    }
    Ok(())
}

#[tokio::test]
async fn transfers_work_while_the_process_holds_five_thousand_descriptors() {
    let needed = HELD_DESCRIPTORS as u64 + HEADROOM;
    if let Err(reason) = allow_descriptors(needed) {
        eprintln!("SKIPPED: cannot hold {HELD_DESCRIPTORS} descriptors: {reason}");
        return;
    }
    // A plain and a TLS server, each executing what it reads.
    let (plain, plain_addr) = listen().await;
    let (tls, tls_addr) = listen().await;
    let ledger = Ledger::default();
    let counted = ledger.clone();
    serve(plain, 2, move |_, mut conn| {
        let ledger = counted.clone();
        async move {
            while conn.next_request().await.is_some() {
                ledger.execute();
                conn.respond(OK_HELLO).await;
            }
        }
    });
    let acceptor = Pki::get().acceptor(true, &[b"http/1.1"]);
    let counted = ledger.clone();
    tokio::spawn(async move {
        let mut conn = RequestReader::new(accept_tls(&tls, &acceptor).await);
        while conn.next_request().await.is_some() {
            counted.execute();
            conn.respond(OK_HELLO).await;
        }
    });
    let engine = IsahcEngine::builder()
        .root_certificates(vec![Pki::get().trusted_ca_der.clone()])
        .build()
        .unwrap();

    let held: Vec<std::fs::File> = (0..HELD_DESCRIPTORS)
        .map(|_| std::fs::File::open("/dev/null").unwrap())
        .collect();
    let lowest_free = std::fs::File::open("/dev/null").unwrap();
    assert!(
        lowest_free.as_raw_fd() > SELECT_LIMIT * 4,
        "every socket curl opens now is numbered above {}",
        lowest_free.as_raw_fd()
    );
    drop(lowest_free);

    let plain_url = format!("http://{plain_addr}/");
    let (status, body) = fetch(&engine, get(&plain_url), &attempt())
        .await
        .expect("a GET while 5,000 descriptors are open");
    assert_eq!((status.as_u16(), &body[..]), (200, &b"hello"[..]));
    let (status, body) = fetch(&engine, post(&plain_url, "payload"), &attempt())
        .await
        .expect("a POST with a body while 5,000 descriptors are open");
    assert_eq!((status.as_u16(), &body[..]), (200, &b"hello"[..]));
    let tls_url = format!("https://localhost:{}/", tls_addr.port());
    let (status, body) = fetch(&engine, get(&tls_url), &attempt())
        .await
        .expect("an HTTPS GET while 5,000 descriptors are open");
    assert_eq!((status.as_u16(), &body[..]), (200, &b"hello"[..]));
    assert_eq!(ledger.executions(), 3, "each request executed once");
    drop(held);
}
