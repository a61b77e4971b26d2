//! The bodies that cross the seam: the request body of one attempt (async
//! and blocking) and the response body an engine returns.

use std::fmt;
use std::io::Read;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body::{Frame, SizeHint};

use super::EngineFailure;
use crate::failure::BoxError;

/// A boxed async body stream, the one-shot request body of the async client.
pub type BodyStream = http_body_util::combinators::UnsyncBoxBody<Bytes, BoxError>;

/// The response body an async engine returns: frames or an [`EngineFailure`].
pub type ResponseBody = http_body_util::combinators::UnsyncBoxBody<Bytes, EngineFailure>;

/// The request body of one attempt, for async engines. Implements
/// [`http_body::Body`], so hyper can send it directly; other engines can ask
/// for the bytes of an in-memory body.
pub enum AttemptBody {
    /// No body.
    Empty,
    /// An in-memory body (replayable: each attempt gets a cheap clone).
    Full(Option<Bytes>),
    /// A streamed, one-shot body.
    Stream(BodyStream),
}

impl AttemptBody {
    /// The whole body, when it is in memory (`Some(empty)` for no body).
    pub fn as_bytes(&self) -> Option<Bytes> {
        match self {
            AttemptBody::Empty => Some(Bytes::new()),
            AttemptBody::Full(b) => Some(b.clone().unwrap_or_default()),
            AttemptBody::Stream(_) => None,
        }
    }
}

impl fmt::Debug for AttemptBody {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AttemptBody::Empty => f.write_str("AttemptBody::Empty"),
            AttemptBody::Full(b) => write!(
                f,
                "AttemptBody::Full({} bytes)",
                b.as_ref().map_or(0, Bytes::len)
            ),
            AttemptBody::Stream(_) => f.write_str("AttemptBody::Stream"),
        }
    }
}

impl http_body::Body for AttemptBody {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        match self.get_mut() {
            AttemptBody::Empty => Poll::Ready(None),
            AttemptBody::Full(b) => Poll::Ready(b.take().map(|b| Ok(Frame::data(b)))),
            AttemptBody::Stream(s) => Pin::new(s).poll_frame(cx),
        }
    }

    fn is_end_stream(&self) -> bool {
        match self {
            AttemptBody::Empty => true,
            AttemptBody::Full(b) => b.is_none(),
            AttemptBody::Stream(s) => s.is_end_stream(),
        }
    }

    fn size_hint(&self) -> SizeHint {
        match self {
            AttemptBody::Empty => SizeHint::with_exact(0),
            AttemptBody::Full(b) => SizeHint::with_exact(b.as_ref().map_or(0, |b| b.len() as u64)),
            AttemptBody::Stream(s) => s.size_hint(),
        }
    }
}

/// The request body of one attempt, for blocking engines.
pub enum BlockingAttemptBody {
    /// No body.
    Empty,
    /// An in-memory body.
    Full(Bytes),
    /// A streamed, one-shot body.
    Reader(Box<dyn Read + Send>),
}

impl BlockingAttemptBody {
    /// The whole body, when it is in memory.
    pub fn as_bytes(&self) -> Option<Bytes> {
        match self {
            BlockingAttemptBody::Empty => Some(Bytes::new()),
            BlockingAttemptBody::Full(b) => Some(b.clone()),
            BlockingAttemptBody::Reader(_) => None,
        }
    }
}

impl fmt::Debug for BlockingAttemptBody {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BlockingAttemptBody::Empty => f.write_str("BlockingAttemptBody::Empty"),
            BlockingAttemptBody::Full(b) => {
                write!(f, "BlockingAttemptBody::Full({} bytes)", b.len())
            }
            BlockingAttemptBody::Reader(_) => f.write_str("BlockingAttemptBody::Reader"),
        }
    }
}

/// The response body a blocking engine returns.
pub trait BlockingResponseBody: Send {
    /// The next chunk, `None` at the end.
    fn next_chunk(&mut self) -> Result<Option<Bytes>, EngineFailure>;
}

impl fmt::Debug for dyn BlockingResponseBody {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("BlockingResponseBody")
    }
}
