//! HTTP/1.1 on the wire, async: writing the request, reading the response.
//! The framing is the kit's ([`evident_core::engine::http1`]: it encodes
//! and decodes, and does no I/O); every byte passes through here.
//!
//! The progress is fed at the boundaries the core needs: `WriteHead` before
//! the first byte; `start_write` before every write and `wrote(n)` after
//! it; `head_written` and `body_written` once the connection took them (a
//! flush returned); `head_received` when a final head parsed; `read(n)` for
//! every byte of the response body.

use std::io;

use bytes::BytesMut;
use evident_core::classify_helpers::{RequestBodyError, socket_signal};
use evident_core::engine::http1::{
    BodyDecoder, Decoded, LAST_CHUNK, READ_BYTES, RequestFraming, encode_chunk, encode_head,
    parse_head,
};
use evident_core::engine::{ErrorSite, early_answer_ended};
use evident_core::{
    AttemptBody, AttemptStage, EngineFailure, EngineSignal, Progress, ResponseBody,
};
use http_body::Frame;
use http_body_util::{BodyExt, StreamBody};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::Conn;

/// An I/O error while writing the request or reading the response.
fn exchange(e: io::Error) -> EngineFailure {
    EngineFailure::new(socket_signal(&e, ErrorSite::EXCHANGE), e)
}

/// Hands `bytes` to the connection: the write is marked started first (it
/// may be pending when the core takes its snapshot), and every byte the
/// connection accepted is counted. Over TLS the count is plaintext.
async fn write_counted(
    conn: &mut Conn,
    bytes: &[u8],
    progress: &Progress,
) -> Result<(), EngineFailure> {
    // Refused once the core sealed the attempt: write nothing more.
    progress
        .start_write()
        .map_err(|sealed| exchange(sealed.into_io_error()))?;
    let mut rest = bytes;
    while !rest.is_empty() {
        match conn.write(rest).await {
            Ok(0) => return Err(exchange(io::ErrorKind::WriteZero.into())),
            Ok(n) => {
                progress.wrote(n);
                rest = &rest[n..];
            }
            Err(e) => return Err(exchange(e)),
        }
    }
    Ok(())
}

/// Flushes what was written (TLS records, kernel buffers are the socket's).
async fn flush(conn: &mut Conn, progress: &Progress) -> Result<(), EngineFailure> {
    progress
        .start_write()
        .map_err(|sealed| exchange(sealed.into_io_error()))?;
    conn.flush().await.map_err(exchange)
}

/// Writes the request: head, then body.
pub async fn write_request(
    conn: &mut Conn,
    parts: &http::request::Parts,
    body: AttemptBody,
    progress: &Progress,
) -> Result<(), EngineFailure> {
    progress.enter(AttemptStage::WriteHead);
    let head = encode_head(parts, RequestFraming::of(&body));
    write_counted(conn, &head, progress).await?;
    flush(conn, progress).await?;
    // Late, once the connection took it: the `Idempotency-Key` is sent.
    progress.head_written();

    match body {
        AttemptBody::Empty | AttemptBody::Full(None) => {}
        AttemptBody::Full(Some(bytes)) => write_counted(conn, &bytes, progress).await?,
        AttemptBody::Stream(mut stream) => {
            while let Some(frame) = stream.frame().await {
                // The caller's body failed, not the connection.
                let frame = frame.map_err(|e| {
                    EngineFailure::new(EngineSignal::RequestBody, RequestBodyError::new(e))
                })?;
                // Trailers are not sent by this engine.
                if let Ok(data) = frame.into_data() {
                    write_counted(conn, &encode_chunk(&data), progress).await?;
                }
            }
            write_counted(conn, LAST_CHUNK, progress).await?;
        }
    }
    flush(conn, progress).await?;
    progress.body_written();
    Ok(())
}

/// Reads what the connection has into `buf`: the bytes read, `0` at its
/// end.
async fn fill(
    conn: &mut Conn,
    buf: &mut BytesMut,
    after_reset: bool,
) -> Result<usize, EngineFailure> {
    buf.reserve(READ_BYTES);
    conn.read_buf(buf)
        .await
        .map_err(|e| exchange(end_of(after_reset, e)))
}

/// Reads the response head (interim `1xx` answers skipped) and returns the
/// response (`after_reset`: the request's write met the peer's reset after
/// it answered early, so the connection's end is that reset), its body still on the connection.
pub async fn read_response(
    mut conn: Conn,
    is_head_request: bool,
    progress: &Progress,
    after_reset: bool,
) -> Result<http::Response<ResponseBody>, EngineFailure> {
    let mut buf = BytesMut::new();
    let (response, decoder) = loop {
        if let Some(parsed) = parse_head(&mut buf, is_head_request)? {
            break parsed;
        }
        if fill(&mut conn, &mut buf, after_reset).await? == 0 {
            let e = io::Error::new(io::ErrorKind::UnexpectedEof, "closed before a whole head");
            return Err(exchange(end_of(after_reset, e)));
        }
    };
    // Late: the whole head arrived and parsed.
    progress.head_received();
    let body = Body {
        conn,
        buf,
        decoder,
        progress: progress.clone(),
        after_reset,
    };
    // The body as the core takes it: frames of data, or an
    // `EngineFailure` (a reset mid-body is `ConnectionReset`, a short body
    // `ConnectionClosed`), and nothing after a failure.
    let frames = futures_util::stream::unfold(Some(body), |body| async move {
        let mut body = body?;
        match body.next_chunk().await {
            Ok(None) => None,
            Ok(Some(data)) => Some((Ok(Frame::data(data)), Some(body))),
            Err(failure) => Some((Err(failure), None)),
        }
    });
    Ok(response.map(|()| StreamBody::new(frames).boxed_unsync()))
}

/// A response body read off the connection; the connection closes when it
/// is dropped (by the caller, or by the core at the deadline).
struct Body {
    conn: Conn,
    /// What was read and not yet decoded.
    buf: BytesMut,
    decoder: BodyDecoder,
    progress: Progress,
    /// The request's write met the peer's reset: the connection's end is
    /// that reset, not a clean close.
    after_reset: bool,
}

impl Body {
    /// The next piece of the body, `None` at its end.
    async fn next_chunk(&mut self) -> Result<Option<bytes::Bytes>, EngineFailure> {
        loop {
            match self.decoder.decode(&mut self.buf)? {
                Decoded::Data(data) => {
                    self.progress.read(data.len());
                    return Ok(Some(data));
                }
                Decoded::End => return Ok(None),
                Decoded::NeedMore => {
                    if fill(&mut self.conn, &mut self.buf, self.after_reset).await? == 0 {
                        if self.after_reset {
                            return Err(exchange(early_answer_ended(None)));
                        }
                        self.decoder.closed()?;
                    }
                }
            }
        }
    }
}

/// The error for a read that met `e`: after an early answer, the kit's
/// reading of the connection's end ([`early_answer_ended`]).
fn end_of(after_reset: bool, e: io::Error) -> io::Error {
    if after_reset {
        early_answer_ended(Some(e))
    } else {
        e
    }
}
