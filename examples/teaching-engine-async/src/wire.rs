//! HTTP/1.1 on the wire, async: writing the request, reading the response.
//!
//! The progress is fed at the boundaries the core needs: `WriteHead` before
//! the first byte; `start_write` before every write and `wrote(n)` after
//! it; `head_written` and `body_written` once the connection took them (a
//! flush returned); `head_received` when a final head parsed; `read(n)` for
//! every byte of the response body.

use std::io;

use bytes::{Bytes, BytesMut};
use evident_core::classify_helpers::RequestBodyError;
use evident_core::engine::ErrorSite;
use evident_core::{AttemptBody, AttemptStage, BoxError, EngineFailure, EngineSignal, Progress};
use evident_core::{ResponseBody, engine::EARLY_ANSWER_LIMIT};
use http::header::{CONTENT_LENGTH, HOST, TRANSFER_ENCODING};
use http_body::Frame;
use http_body_util::{BodyExt, StreamBody};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};

use crate::{Conn, signal};

/// The largest response head accepted: the core's bound on an answer read
/// after a failed write, far above any real head.
pub const MAX_HEAD_BYTES: usize = EARLY_ANSWER_LIMIT;

/// The most response header fields accepted.
pub const MAX_HEADERS: usize = 100;

/// The longest chunk-size or trailer line accepted.
pub const MAX_LINE_BYTES: usize = 4 * 1024;

/// The size of the pieces a body is read in.
pub const CHUNK_BYTES: usize = 16 * 1024;

/// An I/O error while writing the request or reading the response.
fn exchange(e: io::Error) -> EngineFailure {
    EngineFailure::new(signal(&e, ErrorSite::EXCHANGE), e)
}

/// The response broke HTTP/1.1.
fn protocol(why: impl Into<BoxError>) -> EngineFailure {
    EngineFailure::new(EngineSignal::Protocol, why)
}

/// The peer closed before the response was complete.
fn closed_early(what: &str) -> EngineFailure {
    exchange(io::Error::new(
        io::ErrorKind::UnexpectedEof,
        what.to_owned(),
    ))
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

/// The request head. The body's framing is this engine's: a framing header
/// the caller set is replaced.
fn head(parts: &http::request::Parts, body: &AttemptBody) -> Vec<u8> {
    let target = parts.uri.path_and_query().map_or("/", |p| p.as_str());
    let mut out = format!("{} {target} HTTP/1.1\r\n", parts.method).into_bytes();
    if !parts.headers.contains_key(HOST)
        && let Some(authority) = parts.uri.authority()
    {
        out.extend_from_slice(format!("host: {}\r\n", authority.as_str()).as_bytes());
    }
    for (name, value) in &parts.headers {
        if name == CONTENT_LENGTH || name == TRANSFER_ENCODING {
            continue;
        }
        out.extend_from_slice(name.as_str().as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(value.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    match body {
        AttemptBody::Empty => {}
        AttemptBody::Full(b) => {
            let len = b.as_ref().map_or(0, Bytes::len);
            out.extend_from_slice(format!("content-length: {len}\r\n").as_bytes());
        }
        AttemptBody::Stream(_) => out.extend_from_slice(b"transfer-encoding: chunked\r\n"),
    }
    out.extend_from_slice(b"\r\n");
    out
}

/// Writes the request: head, then body.
pub async fn write_request(
    conn: &mut Conn,
    parts: &http::request::Parts,
    body: AttemptBody,
    progress: &Progress,
) -> Result<(), EngineFailure> {
    progress.enter(AttemptStage::WriteHead);
    write_counted(conn, &head(parts, &body), progress).await?;
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
                let Ok(data) = frame.into_data() else {
                    continue; // trailers: not sent by this engine
                };
                if data.is_empty() {
                    continue;
                }
                let mut chunk = format!("{:x}\r\n", data.len()).into_bytes();
                chunk.extend_from_slice(&data);
                chunk.extend_from_slice(b"\r\n");
                write_counted(conn, &chunk, progress).await?;
            }
            write_counted(conn, b"0\r\n\r\n", progress).await?;
        }
    }
    flush(conn, progress).await?;
    progress.body_written();
    Ok(())
}

/// The connection, buffered for reading.
type Reader = BufReader<Conn>;

/// Appends one line (up to and including `\n`) to `out`, reading at most
/// `limit` bytes.
async fn read_line(
    reader: &mut Reader,
    out: &mut Vec<u8>,
    limit: usize,
) -> Result<(), EngineFailure> {
    let n = (&mut *reader)
        .take(limit as u64)
        .read_until(b'\n', out)
        .await
        .map_err(exchange)?;
    if out.ends_with(b"\n") {
        Ok(())
    } else if n == limit {
        Err(protocol("a response line is too long"))
    } else {
        Err(closed_early(
            "the connection closed in the middle of a line",
        ))
    }
}

/// Reads the response head, up to and including its empty line.
async fn read_head(reader: &mut Reader) -> Result<Vec<u8>, EngineFailure> {
    let mut head = Vec::new();
    loop {
        let start = head.len();
        read_line(reader, &mut head, MAX_HEAD_BYTES - start).await?;
        if matches!(&head[start..], b"\r\n" | b"\n") {
            return Ok(head);
        }
    }
}

/// Reads the response head (skipping interim `1xx` answers) and returns the
/// response, its body still on the connection.
pub async fn read_response(
    conn: Conn,
    is_head_request: bool,
    progress: &Progress,
) -> Result<http::Response<ResponseBody>, EngineFailure> {
    let mut reader = BufReader::new(conn);
    loop {
        let raw = read_head(&mut reader).await?;
        let mut fields = [httparse::EMPTY_HEADER; MAX_HEADERS];
        let mut parsed = httparse::Response::new(&mut fields);
        match parsed.parse(&raw) {
            Ok(httparse::Status::Complete(_)) => {}
            Ok(httparse::Status::Partial) => return Err(protocol("an incomplete response head")),
            Err(e) => return Err(protocol(e)),
        }
        let code = parsed.code.unwrap_or_default();
        if (100..200).contains(&code) && code != 101 {
            continue;
        }
        let mut response = http::Response::builder()
            .status(code)
            .version(http::Version::HTTP_11);
        for field in parsed.headers.iter() {
            response = response.header(field.name, field.value);
        }
        let framing = framing(is_head_request, code, parsed.headers)?;
        let response = response.body(()).map_err(protocol)?;
        // Late: the whole head arrived and parsed.
        progress.head_received();
        let body = Body {
            reader,
            framing,
            progress: progress.clone(),
        };
        return Ok(response.map(|()| body.into_response_body()));
    }
}

/// How the response body ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Framing {
    /// After this many more bytes.
    Length(u64),
    /// When the server closes the connection.
    UntilClose,
    /// Chunked: next is a chunk-size line...
    ChunkSize,
    /// ...then this many bytes of chunk data...
    ChunkData(u64),
    /// ...then the CRLF ending the chunk.
    ChunkEnd,
    /// The body is complete.
    Done,
}

/// The body's framing, from RFC 9112 §6.3.
fn framing(
    is_head_request: bool,
    code: u16,
    fields: &[httparse::Header<'_>],
) -> Result<Framing, EngineFailure> {
    if is_head_request || code == 204 || code == 304 {
        return Ok(Framing::Done);
    }
    let value = |name: &'static str| {
        fields
            .iter()
            .filter(move |f| f.name.eq_ignore_ascii_case(name))
            .map(|f| String::from_utf8_lossy(f.value).trim().to_ascii_lowercase())
    };
    if let Some(codings) = value("transfer-encoding").next_back() {
        return Ok(if codings.ends_with("chunked") {
            Framing::ChunkSize
        } else {
            Framing::UntilClose
        });
    }
    let mut lengths = value("content-length");
    match lengths.next() {
        None => Ok(Framing::UntilClose),
        Some(first) => {
            if lengths.any(|other| other != first) {
                return Err(protocol("conflicting content-length fields"));
            }
            let n = first
                .parse()
                .map_err(|_| protocol("an invalid content-length"))?;
            Ok(if n == 0 {
                Framing::Done
            } else {
                Framing::Length(n)
            })
        }
    }
}

/// A response body read off the connection; the connection closes when it
/// is dropped (by the caller, or by the core at the deadline).
struct Body {
    reader: Reader,
    framing: Framing,
    progress: Progress,
}

impl Body {
    /// The body as the core takes it: frames of data, or an
    /// [`EngineFailure`] the core classifies (a reset mid-body is
    /// `ConnectionReset`, a short body `ConnectionClosed`).
    fn into_response_body(self) -> ResponseBody {
        let frames = futures_util::stream::unfold(self, |mut body| async move {
            match body.next_chunk().await {
                Ok(None) => None,
                Ok(Some(data)) => Some((Ok(Frame::data(data)), body)),
                Err(failure) => {
                    // Nothing more after a failure.
                    body.framing = Framing::Done;
                    Some((Err(failure), body))
                }
            }
        });
        StreamBody::new(frames).boxed_unsync()
    }

    /// Reads up to `max` bytes, counting them (empty at the end of stream).
    async fn read_some(&mut self, max: u64) -> Result<Bytes, EngineFailure> {
        let len = usize::try_from(max).map_or(CHUNK_BYTES, |m| m.min(CHUNK_BYTES));
        let mut buf = BytesMut::zeroed(len);
        let n = self.reader.read(&mut buf).await.map_err(exchange)?;
        self.progress.read(n);
        buf.truncate(n);
        Ok(buf.freeze())
    }

    /// Reads a framing line (chunk size, chunk end, trailer).
    async fn line(&mut self) -> Result<Vec<u8>, EngineFailure> {
        let mut line = Vec::new();
        read_line(&mut self.reader, &mut line, MAX_LINE_BYTES).await?;
        Ok(line)
    }

    /// The next piece of the body, `None` at its end.
    async fn next_chunk(&mut self) -> Result<Option<Bytes>, EngineFailure> {
        loop {
            match self.framing {
                Framing::Done => return Ok(None),
                Framing::Length(left) => {
                    let data = self.read_some(left).await?;
                    if data.is_empty() {
                        return Err(closed_early("the body is shorter than its content-length"));
                    }
                    let left = left - data.len() as u64;
                    self.framing = if left == 0 {
                        Framing::Done
                    } else {
                        Framing::Length(left)
                    };
                    return Ok(Some(data));
                }
                Framing::UntilClose => {
                    let data = self.read_some(CHUNK_BYTES as u64).await?;
                    if data.is_empty() {
                        self.framing = Framing::Done;
                        return Ok(None);
                    }
                    return Ok(Some(data));
                }
                Framing::ChunkSize => {
                    let line = self.line().await?;
                    self.framing = match httparse::parse_chunk_size(&line) {
                        Ok(httparse::Status::Complete((_, 0))) => {
                            // The last chunk; skip the trailer fields.
                            while !matches!(self.line().await?.as_slice(), b"\r\n" | b"\n") {}
                            Framing::Done
                        }
                        Ok(httparse::Status::Complete((_, size))) => Framing::ChunkData(size),
                        _ => return Err(protocol("an invalid chunk-size line")),
                    };
                }
                Framing::ChunkData(left) => {
                    let data = self.read_some(left).await?;
                    if data.is_empty() {
                        return Err(closed_early("the body ended inside a chunk"));
                    }
                    let left = left - data.len() as u64;
                    self.framing = if left == 0 {
                        Framing::ChunkEnd
                    } else {
                        Framing::ChunkData(left)
                    };
                    return Ok(Some(data));
                }
                Framing::ChunkEnd => {
                    if !matches!(self.line().await?.as_slice(), b"\r\n" | b"\n") {
                        return Err(protocol("a chunk is longer than its size"));
                    }
                    self.framing = Framing::ChunkSize;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_engine_frames_the_body_and_drops_the_callers_framing_headers() {
        let (parts, ()) = http::Request::post("http://localhost:8080/pay?x=1")
            .header("content-length", "999")
            .header("idempotency-key", "k1")
            .body(())
            .unwrap()
            .into_parts();
        let head = head(&parts, &AttemptBody::Full(Some(Bytes::from_static(b"{}"))));
        assert_eq!(
            String::from_utf8(head).unwrap(),
            "POST /pay?x=1 HTTP/1.1\r\nhost: localhost:8080\r\nidempotency-key: k1\r\ncontent-length: 2\r\n\r\n"
        );
    }

    #[test]
    fn body_framing_follows_rfc_9112() {
        let field = |name, value: &'static str| httparse::Header {
            name,
            value: value.as_bytes(),
        };
        let f = |fields: &[httparse::Header<'_>]| framing(false, 200, fields).ok();
        assert_eq!(
            f(&[field("Content-Length", "10")]),
            Some(Framing::Length(10))
        );
        assert_eq!(
            f(&[
                field("transfer-encoding", "chunked"),
                field("content-length", "3")
            ]),
            Some(Framing::ChunkSize)
        );
        assert_eq!(f(&[]), Some(Framing::UntilClose));
        assert_eq!(
            f(&[field("content-length", "1"), field("content-length", "2")]),
            None
        );
        assert_eq!(
            framing(true, 200, &[field("content-length", "10")]).ok(),
            Some(Framing::Done)
        );
        assert_eq!(framing(false, 204, &[]).ok(), Some(Framing::Done));
    }
}
