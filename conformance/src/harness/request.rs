//! The requests a scenario's calls send: the head, the body in the engine's
//! flavour and the call options.

use bytes::Bytes;
use evident_core::client::{self, CallOptions, blocking};

use crate::lab::REQUEST_ID_HEADER;
use crate::scenario::{BodySpec, Declared, LARGE_BODY_BYTES, ScenarioCall};

pub(super) fn options(call: &ScenarioCall) -> CallOptions {
    let mut o = CallOptions::new();
    o = match call.declared {
        Declared::Nothing => o,
        Declared::Idempotent => o.idempotent(),
        Declared::Key => o.generate_idempotency_key(),
    };
    if let Some(d) = call.deadline {
        o = o.deadline(d);
    }
    o
}

fn small_body() -> Bytes {
    Bytes::from_static(br#"{"amount":100}"#)
}

/// The header that carries a call's head padding.
pub const PADDING_HEADER: &str = "x-evident-padding";

pub(super) fn head(url: &str, call: &ScenarioCall, index: usize) -> http::request::Builder {
    let mut builder = http::Request::builder()
        .method(call.method.clone())
        .uri(url)
        .header(REQUEST_ID_HEADER, format!("call-{index}"));
    if call.head_padding > 0 {
        builder = builder.header(PADDING_HEADER, "a".repeat(call.head_padding));
    }
    builder
}

/// A one-shot async body: its bytes, in frames of at most `frame` bytes
/// (the matrix and the audit both send one).
pub(crate) struct OneShotStream {
    data: Bytes,
    frame: usize,
}

/// Largest frame the matrix's one-shot bodies yield at once.
const ONE_SHOT_CHUNK: usize = 64 * 1024;

impl OneShotStream {
    /// `data`, yielded in frames of at most `frame` bytes (at least one).
    pub(crate) fn new(data: Bytes, frame: usize) -> Self {
        OneShotStream {
            data,
            frame: frame.max(1),
        }
    }
}

impl http_body::Body for OneShotStream {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        _cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<Bytes>, Self::Error>>> {
        if self.data.is_empty() {
            return std::task::Poll::Ready(None);
        }
        let n = self.data.len().min(self.frame);
        let chunk = self.data.split_to(n);
        std::task::Poll::Ready(Some(Ok(http_body::Frame::data(chunk))))
    }
}

pub(super) fn async_body(spec: BodySpec) -> client::Body {
    match spec {
        BodySpec::Empty => client::Body::Empty,
        BodySpec::Small => client::Body::Full(small_body()),
        BodySpec::Large => client::Body::Full(Bytes::from(vec![0u8; LARGE_BODY_BYTES])),
        BodySpec::LargeOneShot => client::Body::stream(OneShotStream::new(
            Bytes::from(vec![0u8; LARGE_BODY_BYTES]),
            ONE_SHOT_CHUNK,
        )),
        BodySpec::SmallOneShot => {
            client::Body::stream(OneShotStream::new(small_body(), ONE_SHOT_CHUNK))
        }
    }
}

pub(super) fn blocking_body(spec: BodySpec) -> blocking::Body {
    use std::io::Read;
    match spec {
        BodySpec::Empty => blocking::Body::Empty,
        BodySpec::Small => blocking::Body::Full(small_body()),
        BodySpec::Large => blocking::Body::Full(Bytes::from(vec![0u8; LARGE_BODY_BYTES])),
        BodySpec::LargeOneShot => {
            blocking::Body::reader(std::io::repeat(0).take(LARGE_BODY_BYTES as u64))
        }
        BodySpec::SmallOneShot => blocking::Body::reader(std::io::Cursor::new(small_body())),
    }
}
