//! Uses the facade with this crate's own (old) `http`, `bytes` and `tokio`:
//! the request is built with `http` 1.2 and its body from `bytes` 1.7, so
//! the build fails if evident were resolved against other copies.

use evident::client::{Body, CallOptions, Client};
use evident::hyper::HyperEngine;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let engine = HyperEngine::builder().build().expect("default engine");
    let client = Client::new(engine);
    let request: http::Request<Body> = http::Request::get("http://127.0.0.1:9/")
        .body(Body::from(bytes::Bytes::from_static(b"")))
        .expect("valid request");
    // Port 9 (discard) on loopback: refused or answered, either is fine;
    // this binary exists to be built.
    let _ = client.execute(request, CallOptions::new()).await;
}
