//! HTTP/1.1 on the wire: writing the request, reading the response.
//!
//! The progress is fed at the boundaries the core needs:
//!
//! * `WriteHead` is entered before the first request byte is handed over;
//! * every write is marked started (`Progress::start_write`) *before* bytes
//!   are handed to the socket or TLS layer, and the bytes it accepted are
//!   counted after: a write that fails half-way still rules out "not sent",
//!   which is what keeps the core from re-sending a request the server may
//!   have acted on;
//! * `head_written` once the head was flushed, `body_written` once the body
//!   was; the response head is only read after that.

use std::io::{self, BufRead, BufReader, Read, Write};

use bytes::{Bytes, BytesMut};
use evident_core::{AttemptStage, classify_helpers::RequestBodyError};
use evident_core::{
    BlockingAttemptBody, BlockingResponseBody, BoxError, EngineFailure, EngineSignal, Progress,
};
use http::header::{CONTENT_LENGTH, HOST, TRANSFER_ENCODING};

use crate::classify::{ErrorSite, signal};
use crate::connect::Conn;

/// The largest response head accepted: far above any real head, and a
/// bound on a server that never ends one.
pub const MAX_HEAD_BYTES: usize = 64 * 1024;

/// The most response header fields accepted (httparse needs the number up
/// front).
pub const MAX_HEADERS: usize = 100;

/// The longest chunk-size or trailer line accepted in a chunked body.
pub const MAX_LINE_BYTES: usize = 4 * 1024;

/// The size of the pieces a body is read and written in.
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

/// Hands `bytes` to the connection: the write is marked started first, and
/// every byte the connection accepted is counted.
fn write_counted(conn: &mut Conn, bytes: &[u8], progress: &Progress) -> Result<(), EngineFailure> {
    // From here on "nothing written" can no longer be claimed, even if this
    // write fails before it returns. Refused once the core gave up on the
    // attempt: then nothing more may be written on this connection.
    progress
        .start_write()
        .map_err(|sealed| exchange(sealed.into_io_error()))?;
    let mut rest = bytes;
    while !rest.is_empty() {
        match conn.write(rest) {
            Ok(0) => return Err(exchange(io::ErrorKind::WriteZero.into())),
            Ok(n) => {
                progress.wrote(n);
                rest = &rest[n..];
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(exchange(e)),
        }
    }
    Ok(())
}

/// The request head. The body's framing is this engine's: a framing header
/// the caller set is replaced.
fn head(parts: &http::request::Parts, body: &BlockingAttemptBody) -> Vec<u8> {
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
        BlockingAttemptBody::Empty => {}
        BlockingAttemptBody::Full(b) => {
            out.extend_from_slice(format!("content-length: {}\r\n", b.len()).as_bytes());
        }
        BlockingAttemptBody::Reader(_) => out.extend_from_slice(b"transfer-encoding: chunked\r\n"),
    }
    out.extend_from_slice(b"\r\n");
    out
}

/// Writes the request and returns the connection, ready for the response.
pub fn send(
    mut conn: Conn,
    parts: &http::request::Parts,
    body: BlockingAttemptBody,
    progress: &Progress,
) -> Result<BufReader<Conn>, EngineFailure> {
    progress.enter(AttemptStage::WriteHead);
    write_counted(&mut conn, &head(parts, &body), progress)?;
    conn.flush().map_err(exchange)?;
    // The head, and with it any `Idempotency-Key`, is on its way.
    progress.head_written();

    match body {
        BlockingAttemptBody::Empty => {}
        BlockingAttemptBody::Full(bytes) => write_counted(&mut conn, &bytes, progress)?,
        BlockingAttemptBody::Reader(mut reader) => {
            let mut buf = vec![0; CHUNK_BYTES];
            loop {
                let n = match reader.read(&mut buf) {
                    Ok(n) => n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    // The body failed, not the connection.
                    Err(e) => {
                        return Err(EngineFailure::new(
                            EngineSignal::RequestBody,
                            RequestBodyError::new(e),
                        ));
                    }
                };
                if n == 0 {
                    write_counted(&mut conn, b"0\r\n\r\n", progress)?;
                    break;
                }
                let mut frame = format!("{n:x}\r\n").into_bytes();
                frame.extend_from_slice(&buf[..n]);
                frame.extend_from_slice(b"\r\n");
                write_counted(&mut conn, &frame, progress)?;
            }
        }
    }
    conn.flush().map_err(exchange)?;
    progress.body_written();
    Ok(BufReader::new(conn))
}

/// Appends one line (up to and including `\n`) to `out`, reading at most
/// `limit` bytes.
fn read_line(
    reader: &mut BufReader<Conn>,
    out: &mut Vec<u8>,
    limit: usize,
) -> Result<(), EngineFailure> {
    let n = reader
        .by_ref()
        .take(limit as u64)
        .read_until(b'\n', out)
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
fn read_head(reader: &mut BufReader<Conn>) -> Result<Vec<u8>, EngineFailure> {
    let mut head = Vec::new();
    loop {
        let start = head.len();
        read_line(reader, &mut head, MAX_HEAD_BYTES - start)?;
        let line = &head[start..];
        if line == b"\r\n" || line == b"\n" {
            return Ok(head);
        }
    }
}

/// Reads the response head and returns the response with its body still
/// on the connection. Interim `1xx` answers are skipped.
pub fn receive(
    mut reader: BufReader<Conn>,
    is_head_request: bool,
    progress: &Progress,
) -> Result<http::Response<Box<dyn BlockingResponseBody>>, EngineFailure> {
    loop {
        let raw = read_head(&mut reader)?;
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
        let framing = framing(is_head_request, code, &*parsed.headers)?;
        let body: Box<dyn BlockingResponseBody> = Box::new(Body {
            reader,
            framing,
            progress: progress.clone(),
        });
        return response.body(body).map_err(protocol);
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
        return if codings.ends_with("chunked") {
            Ok(Framing::ChunkSize)
        } else {
            Ok(Framing::UntilClose)
        };
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
/// is dropped.
struct Body {
    reader: BufReader<Conn>,
    framing: Framing,
    progress: Progress,
}

impl Body {
    /// Reads up to `max` bytes (an empty result is the end of the stream).
    fn read_some(&mut self, max: u64) -> Result<Bytes, EngineFailure> {
        let len = usize::try_from(max).map_or(CHUNK_BYTES, |m| m.min(CHUNK_BYTES));
        let mut buf = BytesMut::zeroed(len);
        let n = loop {
            match self.reader.read(&mut buf) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(exchange(e)),
            }
        };
        self.progress.read(n);
        buf.truncate(n);
        Ok(buf.freeze())
    }
}

impl BlockingResponseBody for Body {
    fn next_chunk(&mut self) -> Result<Option<Bytes>, EngineFailure> {
        loop {
            match self.framing {
                Framing::Done => return Ok(None),
                Framing::Length(left) => {
                    let data = self.read_some(left)?;
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
                    let data = self.read_some(CHUNK_BYTES as u64)?;
                    if data.is_empty() {
                        self.framing = Framing::Done;
                        return Ok(None);
                    }
                    return Ok(Some(data));
                }
                Framing::ChunkSize => {
                    let mut line = Vec::new();
                    read_line(&mut self.reader, &mut line, MAX_LINE_BYTES)?;
                    self.framing = match httparse::parse_chunk_size(&line) {
                        Ok(httparse::Status::Complete((_, 0))) => {
                            // The last chunk; skip the trailer fields.
                            loop {
                                let mut trailer = Vec::new();
                                read_line(&mut self.reader, &mut trailer, MAX_LINE_BYTES)?;
                                if trailer == b"\r\n" || trailer == b"\n" {
                                    break;
                                }
                            }
                            Framing::Done
                        }
                        Ok(httparse::Status::Complete((_, size))) => Framing::ChunkData(size),
                        _ => return Err(protocol("an invalid chunk-size line")),
                    };
                }
                Framing::ChunkData(left) => {
                    let data = self.read_some(left)?;
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
                    let mut line = Vec::new();
                    read_line(&mut self.reader, &mut line, MAX_LINE_BYTES)?;
                    if line != b"\r\n" && line != b"\n" {
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

    fn field<'a>(name: &'a str, value: &'a str) -> httparse::Header<'a> {
        httparse::Header {
            name,
            value: value.as_bytes(),
        }
    }

    #[test]
    fn the_engine_frames_the_body_and_drops_the_callers_framing_headers() {
        let (parts, ()) = http::Request::post("http://localhost:8080/pay?x=1")
            .header("content-length", "999")
            .header("idempotency-key", "k1")
            .body(())
            .unwrap()
            .into_parts();
        let head = head(
            &parts,
            &BlockingAttemptBody::Full(Bytes::from_static(b"{}")),
        );
        assert_eq!(
            String::from_utf8(head).unwrap(),
            "POST /pay?x=1 HTTP/1.1\r\nhost: localhost:8080\r\nidempotency-key: k1\r\ncontent-length: 2\r\n\r\n"
        );
    }

    #[test]
    fn body_framing_follows_rfc_9112() {
        let f = |fields: &[httparse::Header<'_>]| framing(false, 200, fields).ok();
        assert_eq!(
            f(&[field("Content-Length", "10")]),
            Some(Framing::Length(10))
        );
        assert_eq!(
            f(&[
                field("transfer-encoding", "gzip, chunked"),
                field("content-length", "3")
            ]),
            Some(Framing::ChunkSize)
        );
        assert_eq!(f(&[]), Some(Framing::UntilClose));
        assert_eq!(
            f(&[field("content-length", "1"), field("content-length", "2")]),
            None
        );
        assert_eq!(f(&[field("content-length", "-1")]), None);
        assert_eq!(
            framing(true, 200, &[field("content-length", "10")]).ok(),
            Some(Framing::Done)
        );
        assert_eq!(framing(false, 204, &[]).ok(), Some(Framing::Done));
    }
}
