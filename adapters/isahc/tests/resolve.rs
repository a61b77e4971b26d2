//! The adapter's own resolver and dialer: overrides, IP literals, IPv6, and
//! the loop over a host's addresses.

mod support;

use evident_core::{AttemptStage, Engine, EngineSignal, ExecutionEvidence, HostOverrides};
use evident_isahc::IsahcEngine;
use support::*;

async fn hello_server(addr: &str) -> std::net::SocketAddr {
    let (listener, addr) = listen_on(addr).await;
    serve(listener, 1, |_, mut conn| async move {
        conn.next_request().await.unwrap();
        conn.respond(OK_HELLO).await;
    });
    addr
}

#[tokio::test]
async fn an_overridden_name_is_dialed_at_its_addresses_in_order() {
    let good = hello_server("127.0.0.1:0").await;
    // Nothing listens on 127.0.0.3 at that port: the first address refuses,
    // the second answers.
    let overrides =
        HostOverrides::new().map("svc.test", vec!["127.0.0.3".parse().unwrap(), good.ip()]);
    let engine = IsahcEngine::builder()
        .host_overrides(overrides)
        .build()
        .unwrap();
    let url = format!("http://svc.test:{}/", good.port());
    let attempt = attempt();
    let (status, _) = fetch(&engine, get(&url), &attempt).await.unwrap();
    assert_eq!(status, 200);
}

#[tokio::test]
async fn a_name_made_not_to_exist_fails_at_resolve_as_not_sent() {
    let engine = IsahcEngine::builder()
        .host_overrides(HostOverrides::new().not_found("gone.test"))
        .build()
        .unwrap();
    let attempt = attempt();
    let failure = engine
        .send(post("http://gone.test/", "x"), &attempt)
        .await
        .unwrap_err();
    assert_eq!(failure.signal(), EngineSignal::NameNotFound);
    let judged = judged(&failure, &attempt);
    assert_eq!(judged.stage(), AttemptStage::Resolve);
    assert_eq!(judged.evidence(), ExecutionEvidence::NotSent);
}

#[tokio::test]
async fn every_address_refused_is_a_refused_connection() {
    let refused = refusing_addr().await;
    let overrides =
        HostOverrides::new().map("svc.test", vec![refused.ip(), "127.0.0.4".parse().unwrap()]);
    let engine = IsahcEngine::builder()
        .host_overrides(overrides)
        .build()
        .unwrap();
    let attempt = attempt();
    let url = format!("http://svc.test:{}/", refused.port());
    let failure = engine.send(get(&url), &attempt).await.unwrap_err();
    assert_eq!(failure.signal(), EngineSignal::ConnectionRefused);
    assert_eq!(
        judged(&failure, &attempt).evidence(),
        ExecutionEvidence::NotSent
    );
}

#[tokio::test]
async fn an_ipv6_literal_is_dialed_directly() {
    let addr = hello_server("[::1]:0").await;
    let engine = IsahcEngine::builder().build().unwrap();
    let (status, body) = fetch(&engine, get(&format!("http://{addr}/")), &attempt())
        .await
        .unwrap();
    assert_eq!(status, 200);
    assert_eq!(&body[..], b"hello");
}

#[tokio::test]
async fn a_name_overridden_to_ipv6_keeps_its_host_header() {
    let (listener, addr) = listen_on("[::1]:0").await;
    let (seen, received) = tokio::sync::oneshot::channel();
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Some(seen)));
    serve(listener, 1, move |_, mut conn| {
        let seen = seen.clone();
        async move {
            let request = conn.next_request().await.unwrap();
            conn.respond(OK_HELLO).await;
            let _ = seen.lock().unwrap().take().unwrap().send(request);
        }
    });
    let overrides = HostOverrides::new().map("six.test", vec![addr.ip()]);
    let engine = IsahcEngine::builder()
        .host_overrides(overrides)
        .build()
        .unwrap();
    let url = format!("http://six.test:{}/", addr.port());
    fetch(&engine, get(&url), &attempt()).await.unwrap();
    let request = String::from_utf8(received.await.unwrap()).unwrap();
    assert!(
        request
            .to_ascii_lowercase()
            .contains(&format!("host: six.test:{}\r\n", addr.port())),
        "{request}"
    );
}

#[tokio::test]
async fn a_one_shot_body_untouched_by_a_refused_address_goes_whole_to_the_next() {
    use http_body_util::BodyExt;
    let (listener, good) = listen().await;
    let (seen, received) = tokio::sync::oneshot::channel();
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Some(seen)));
    serve(listener, 1, move |_, mut conn| {
        let seen = seen.clone();
        async move {
            let request = conn.next_request().await.unwrap();
            conn.respond(OK_HELLO).await;
            let _ = seen.lock().unwrap().take().unwrap().send(request);
        }
    });
    // 127.0.0.5 refuses on the good port; the good address answers.
    let overrides =
        HostOverrides::new().map("svc.test", vec!["127.0.0.5".parse().unwrap(), good.ip()]);
    let engine = IsahcEngine::builder()
        .host_overrides(overrides)
        .build()
        .unwrap();
    let stream = http_body_util::Full::new(bytes::Bytes::from_static(b"one-shot payload"))
        .map_err(|never| match never {})
        .boxed_unsync();
    let request = http::Request::post(format!("http://svc.test:{}/upload", good.port()))
        .body(evident_core::AttemptBody::Stream(stream))
        .unwrap();
    let (status, _) = fetch(&engine, request, &attempt()).await.unwrap();
    assert_eq!(status, 200);
    assert!(
        received
            .await
            .unwrap()
            .ends_with(b"\r\n\r\none-shot payload")
    );
}
