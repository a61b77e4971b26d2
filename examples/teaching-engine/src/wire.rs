//! HTTP/1.1 on the wire: writing the request, reading the response. The
//! framing is the kit's ([`evident_core::engine::http1`]: it encodes and
//! decodes, and does no I/O); every byte passes through here.
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
//!   was; `head_received` once a final head parsed; `read(n)` for every
//!   byte of the response body.

use std::io::{self, Read, Write};

use bytes::{Bytes, BytesMut};
use evident_core::AttemptStage;
use evident_core::classify_helpers::{RequestBodyError, socket_signal};
use evident_core::engine::http1::{
    BodyDecoder, Decoded, LAST_CHUNK, READ_BYTES, RequestFraming, encode_chunk, encode_head,
    parse_head, read_into,
};
use evident_core::engine::{ErrorSite, early_answer_ended};
use evident_core::{
    BlockingAttemptBody, BlockingResponseBody, EngineFailure, EngineSignal, Progress,
};

use crate::connect::Conn;

/// An I/O error while writing the request or reading the response.
pub(crate) fn exchange(e: io::Error) -> EngineFailure {
    EngineFailure::new(socket_signal(&e, ErrorSite::EXCHANGE), e)
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

/// Writes the request: head, then body.
pub fn send(
    conn: &mut Conn,
    parts: &http::request::Parts,
    body: BlockingAttemptBody,
    progress: &Progress,
) -> Result<(), EngineFailure> {
    progress.enter(AttemptStage::WriteHead);
    let head = encode_head(parts, RequestFraming::of_blocking(&body));
    write_counted(conn, &head, progress)?;
    conn.flush().map_err(exchange)?;
    // The head, and with it any `Idempotency-Key`, is on its way.
    progress.head_written();

    match body {
        BlockingAttemptBody::Empty => {}
        BlockingAttemptBody::Full(bytes) => write_counted(conn, &bytes, progress)?,
        BlockingAttemptBody::Reader(mut reader) => {
            let mut buf = vec![0; READ_BYTES];
            loop {
                let n = match reader.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    // The body failed, not the connection.
                    Err(e) => {
                        let e = RequestBodyError::new(e);
                        return Err(EngineFailure::new(EngineSignal::RequestBody, e));
                    }
                };
                write_counted(conn, &encode_chunk(&buf[..n]), progress)?;
            }
            write_counted(conn, LAST_CHUNK, progress)?;
        }
    }
    conn.flush().map_err(exchange)?;
    progress.body_written();
    Ok(())
}

/// Reads the response head (interim `1xx` answers skipped) and returns the
/// response (`after_reset`: the request's write met the peer's reset after
/// it answered early, so the connection's end is that reset) with its body still on the connection.
pub fn receive(
    mut conn: Conn,
    is_head_request: bool,
    progress: &Progress,
    after_reset: bool,
) -> Result<http::Response<Box<dyn BlockingResponseBody>>, EngineFailure> {
    let mut buf = BytesMut::new();
    let (response, decoder) = loop {
        if let Some(parsed) = parse_head(&mut buf, is_head_request)? {
            break parsed;
        }
        if read_into(&mut conn, &mut buf).map_err(|e| exchange(end_of(after_reset, e)))? == 0 {
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
    Ok(response.map(|()| Box::new(body) as Box<dyn BlockingResponseBody>))
}

/// A response body read off the connection; the connection closes when it
/// is dropped.
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

impl BlockingResponseBody for Body {
    fn next_chunk(&mut self) -> Result<Option<Bytes>, EngineFailure> {
        loop {
            match self.decoder.decode(&mut self.buf)? {
                Decoded::Data(data) => {
                    self.progress.read(data.len());
                    return Ok(Some(data));
                }
                Decoded::End => return Ok(None),
                Decoded::NeedMore => {
                    let read = read_into(&mut self.conn, &mut self.buf);
                    if read.map_err(|e| exchange(end_of(self.after_reset, e)))? == 0 {
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
