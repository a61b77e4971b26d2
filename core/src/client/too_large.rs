//! The error behind a `ResponseTooLarge` failure: the limit and how much
//! had arrived when the limit was crossed.

/// A response body exceeded the call's limit
/// ([`ClientBuilder::max_response_bytes`](super::ClientBuilder::max_response_bytes)
/// or [`CallOptions::max_response_bytes`](super::CallOptions::max_response_bytes)).
/// It is the engine error of the call's `ResponseTooLarge` failure; read
/// it with [`Error::response_too_large`](super::Error::response_too_large).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("response body exceeds the limit of {limit} bytes ({seen} bytes received so far)")]
pub struct ResponseTooLarge {
    limit: usize,
    seen: usize,
}

impl ResponseTooLarge {
    pub(crate) fn new(limit: usize, seen: usize) -> Self {
        ResponseTooLarge { limit, seen }
    }

    /// The limit, in bytes.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// The body bytes received when the limit was crossed: more than the
    /// limit, and a lower bound of the body's size (the rest was not read).
    pub fn seen(&self) -> usize {
        self.seen
    }
}
