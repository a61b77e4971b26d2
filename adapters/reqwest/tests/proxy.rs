//! Proxies: none from the environment, the caller's when it names one.
//!
//! One test in its own binary, because it sets process environment
//! variables, which no other thread may read meanwhile.

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use evident_core::HostOverrides;
use support::*;

/// A loopback forward proxy: counts connections, records each request's
/// first line and answers it.
async fn forward_proxy() -> (
    std::net::SocketAddr,
    Arc<AtomicUsize>,
    Arc<std::sync::Mutex<Vec<String>>>,
) {
    let (listener, addr) = listen().await;
    let accepted = Arc::new(AtomicUsize::new(0));
    let lines = Arc::new(std::sync::Mutex::new(Vec::new()));
    let (count, seen) = (accepted.clone(), lines.clone());
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            count.fetch_add(1, Ordering::SeqCst);
            let seen = seen.clone();
            tokio::spawn(async move {
                let mut reader = RequestReader::new(tcp);
                while let Some(request) = reader.next_request().await {
                    let text = String::from_utf8_lossy(&request).into_owned();
                    seen.lock()
                        .unwrap()
                        .push(text.lines().next().unwrap_or_default().to_owned());
                    reader.respond(OK_HELLO).await;
                }
            });
        }
    });
    (addr, accepted, lines)
}

#[tokio::test]
async fn proxies_from_the_environment_are_ignored_and_a_named_proxy_is_used() {
    let (env_proxy, env_accepted, _) = forward_proxy().await;
    // SAFETY: this binary runs this one test; no other thread reads the
    // environment while it is changed.
    unsafe {
        for var in ["HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"] {
            std::env::set_var(var, format!("http://{env_proxy}"));
        }
    }
    let (target, target_accepted, _) = forward_proxy().await;
    let overrides = HostOverrides::new().map("svc.test", vec!["127.0.0.1".parse().unwrap()]);
    let engine = ReqwestEngine::builder()
        .host_overrides(overrides.clone())
        .build()
        .unwrap();
    let url = format!("http://svc.test:{}/direct", target.port());
    let (status, _) = fetch(&engine, get(&url), &attempt()).await.unwrap();
    assert_eq!(status, 200);
    assert_eq!(env_accepted.load(Ordering::SeqCst), 0, "HTTP_PROXY ignored");
    assert_eq!(target_accepted.load(Ordering::SeqCst), 1);

    let (named, _, named_lines) = forward_proxy().await;
    let engine = ReqwestEngine::builder()
        .host_overrides(overrides)
        .proxy(reqwest::Proxy::http(format!("http://{named}")).unwrap())
        .build()
        .unwrap();
    let (status, _) = fetch(&engine, post(&url, "via"), &attempt()).await.unwrap();
    assert_eq!(status, 200);
    assert_eq!(
        named_lines.lock().unwrap().as_slice(),
        [format!("POST {url} HTTP/1.1")],
        "absolute-form request through the named proxy"
    );
    assert_eq!(env_accepted.load(Ordering::SeqCst), 0);
}
