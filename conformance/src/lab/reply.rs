//! The answer a `Respond` behaviour sends, shared by HTTP/1.1 and HTTP/2.

use bytes::Bytes;
use http::{HeaderName, HeaderValue, StatusCode};

/// A complete answer: status, headers, body, and whether answering counts
/// as executing the request.
///
/// By default a 2xx answer counts as an execution and any other status does
/// not (a 503 usually means "not done"); [`Reply::executes`] overrides that
/// for a server that acted and then failed, or answered 2xx without acting.
///
/// ```
/// use evident_conformance::lab::Reply;
/// use http::StatusCode;
///
/// let busy = Reply::new(StatusCode::SERVICE_UNAVAILABLE).header("retry-after", "1");
/// assert!(!busy.counts_as_execution());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    status: StatusCode,
    headers: Vec<(HeaderName, HeaderValue)>,
    body: Bytes,
    close: bool,
    executes: bool,
}

impl Reply {
    /// An empty-bodied answer with `status`.
    pub fn new(status: StatusCode) -> Self {
        Self {
            status,
            headers: Vec::new(),
            body: Bytes::new(),
            close: false,
            executes: status.is_success(),
        }
    }

    /// `200 OK`, counted as an execution.
    pub fn ok() -> Self {
        Self::new(StatusCode::OK)
    }

    /// Adds a header. `content-length` and `connection` are managed by the
    /// server; do not set them here.
    ///
    /// # Panics
    ///
    /// If `name` or `value` is not a valid header name or value (a bug in
    /// the scenario, not a runtime condition).
    pub fn header(mut self, name: &str, value: &str) -> Self {
        let name = HeaderName::from_bytes(name.as_bytes()).expect("a valid header name");
        let value = HeaderValue::from_str(value).expect("a valid header value");
        self.headers.push((name, value));
        self
    }

    /// Sets the body.
    pub fn body(mut self, body: impl Into<Bytes>) -> Self {
        self.body = body.into();
        self
    }

    /// HTTP/1.1: answer with `Connection: close` and close after the answer
    /// (ignored by HTTP/2).
    pub fn close(mut self) -> Self {
        self.close = true;
        self
    }

    /// Overrides whether answering counts as an execution.
    pub fn executes(mut self, executes: bool) -> Self {
        self.executes = executes;
        self
    }

    /// The status.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The headers, in order.
    pub fn headers(&self) -> &[(HeaderName, HeaderValue)] {
        &self.headers
    }

    /// The body.
    pub fn body_bytes(&self) -> &Bytes {
        &self.body
    }

    /// Whether the HTTP/1.1 connection closes after this answer.
    pub fn closes_connection(&self) -> bool {
        self.close
    }

    /// Whether answering counts as an execution in the ledger.
    pub fn counts_as_execution(&self) -> bool {
        self.executes
    }
}
