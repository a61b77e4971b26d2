//! HTTP/1.1 framing for an engine that writes its own bytes (feature
//! `http1`): the request head and body framing, and the response read
//! back, its head (interim `1xx` answers skipped) and its body framed by
//! RFC 9112 §6.3.
//!
//! Nothing here does I/O. The engine owns the connection: it writes the
//! bytes this module encodes through its own counting hook (so
//! `start_write` and `wrote` stay exact), and it reads into a [`BytesMut`]
//! that it hands to [`parse_head`] and [`BodyDecoder::decode`]. One codec
//! then serves a blocking engine and an async one alike.
//!
//! ```
//! use bytes::BytesMut;
//! use evident_core::engine::http1::{Decoded, parse_head};
//!
//! # fn main() -> Result<(), evident_core::engine::http1::Http1Error> {
//! // What arrived so far: an interim answer, the head, part of the body.
//! let mut buf = BytesMut::from(
//!     &b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhel"[..],
//! );
//! let (response, mut body) = parse_head(&mut buf, false)?.expect("a whole head");
//! assert_eq!(response.status(), 200);
//! assert_eq!(body.decode(&mut buf)?, Decoded::Data("hel".into()));
//! assert_eq!(body.decode(&mut buf)?, Decoded::NeedMore);
//! // More bytes came off the connection.
//! buf.extend_from_slice(b"lo\r\n0\r\n\r\n");
//! assert_eq!(body.decode(&mut buf)?, Decoded::Data("lo".into()));
//! assert_eq!(body.decode(&mut buf)?, Decoded::End);
//! # Ok(())
//! # }
//! ```

use std::borrow::Cow;
use std::io::{self, Read};

use bytes::{Buf, Bytes, BytesMut};
use http::header::{CONTENT_LENGTH, HOST, TRANSFER_ENCODING};

use super::{AttemptBody, BlockingAttemptBody, EARLY_ANSWER_LIMIT, EngineFailure};
use crate::EngineSignal;

/// The largest response head accepted, interim answers included: the
/// core's bound on an answer read after a failed write, far above any
/// real head, and a bound on a server that never ends one.
pub const MAX_HEAD_BYTES: usize = EARLY_ANSWER_LIMIT;

/// The most header fields a response head may have (httparse needs the
/// number up front).
pub const MAX_HEADERS: usize = 100;

/// The longest chunk-size or trailer line accepted in a chunked body.
pub const MAX_LINE_BYTES: usize = 4 * 1024;

/// How much [`read_into`] asks a reader for at a time.
pub const READ_BYTES: usize = 16 * 1024;

/// What broke the response.
#[derive(Debug, thiserror::Error)]
pub enum Http1Error {
    /// The bytes are not HTTP/1.1: an invalid head, chunk line or length.
    #[error("the response is not valid HTTP/1.1: {0}")]
    Malformed(Cow<'static, str>),
    /// The connection closed before the response was complete.
    #[error("the connection closed before the response was complete: {0}")]
    ClosedEarly(&'static str),
}

impl From<Http1Error> for EngineFailure {
    /// A malformed response is [`EngineSignal::Protocol`]; one cut short by
    /// a close is [`EngineSignal::ConnectionClosed`].
    fn from(e: Http1Error) -> Self {
        let signal = match e {
            Http1Error::Malformed(_) => EngineSignal::Protocol,
            Http1Error::ClosedEarly(_) => EngineSignal::ConnectionClosed,
        };
        EngineFailure::new(signal, e)
    }
}

fn malformed(why: impl Into<Cow<'static, str>>) -> Http1Error {
    Http1Error::Malformed(why.into())
}

/// How a request body is framed on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestFraming {
    /// No body, and no framing header.
    Empty,
    /// `content-length`: a body in memory.
    Length(u64),
    /// `transfer-encoding: chunked`: a streamed body, each piece framed by
    /// [`encode_chunk`] and the end by [`LAST_CHUNK`].
    Chunked,
}

impl RequestFraming {
    /// The framing of an async engine's request body.
    pub fn of(body: &AttemptBody) -> Self {
        match body {
            AttemptBody::Empty => RequestFraming::Empty,
            AttemptBody::Full(b) => {
                RequestFraming::Length(b.as_ref().map_or(0, |b| b.len() as u64))
            }
            AttemptBody::Stream(_) => RequestFraming::Chunked,
        }
    }

    /// The framing of a blocking engine's request body.
    pub fn of_blocking(body: &BlockingAttemptBody) -> Self {
        match body {
            BlockingAttemptBody::Empty => RequestFraming::Empty,
            BlockingAttemptBody::Full(b) => RequestFraming::Length(b.len() as u64),
            BlockingAttemptBody::Reader(_) => RequestFraming::Chunked,
        }
    }
}

/// The end of a chunked body: the last chunk, no trailers.
pub const LAST_CHUNK: &[u8] = b"0\r\n\r\n";

/// The request head: request line in origin form, a `host` field unless
/// the caller set one, the caller's fields, and the body's framing. The
/// framing is the engine's: a `content-length` or `transfer-encoding` the
/// caller set is replaced, so a head never disagrees with its body.
///
/// ```
/// use evident_core::engine::http1::{RequestFraming, encode_head};
///
/// let (parts, ()) = http::Request::post("http://localhost:8080/pay?x=1")
///     .header("content-length", "999")
///     .header("idempotency-key", "k1")
///     .body(())
///     .unwrap()
///     .into_parts();
/// let head = encode_head(&parts, RequestFraming::Length(2));
/// assert_eq!(
///     head,
///     b"POST /pay?x=1 HTTP/1.1\r\nhost: localhost:8080\r\nidempotency-key: k1\r\ncontent-length: 2\r\n\r\n"
/// );
/// ```
pub fn encode_head(parts: &http::request::Parts, framing: RequestFraming) -> Vec<u8> {
    let target = parts.uri.path_and_query().map_or("/", |p| p.as_str());
    let mut out = format!("{} {target} HTTP/1.1\r\n", parts.method).into_bytes();
    let mut field = |name: &[u8], value: &[u8]| {
        out.extend_from_slice(name);
        out.extend_from_slice(b": ");
        out.extend_from_slice(value);
        out.extend_from_slice(b"\r\n");
    };
    if !parts.headers.contains_key(HOST)
        && let Some(authority) = parts.uri.authority()
    {
        field(b"host", authority.as_str().as_bytes());
    }
    for (name, value) in &parts.headers {
        if name != CONTENT_LENGTH && name != TRANSFER_ENCODING {
            field(name.as_str().as_bytes(), value.as_bytes());
        }
    }
    match framing {
        RequestFraming::Empty => {}
        RequestFraming::Length(n) => field(b"content-length", n.to_string().as_bytes()),
        RequestFraming::Chunked => field(b"transfer-encoding", b"chunked"),
    }
    out.extend_from_slice(b"\r\n");
    out
}

/// One piece of a chunked body, framed. An empty piece would end the body,
/// so it encodes to nothing.
pub fn encode_chunk(data: &[u8]) -> Vec<u8> {
    if data.is_empty() {
        return Vec::new();
    }
    let mut out = format!("{:x}\r\n", data.len()).into_bytes();
    out.extend_from_slice(data);
    out.extend_from_slice(b"\r\n");
    out
}

/// Parses the response head at the front of `buf`, skipping interim `1xx`
/// answers (a `101` is final): `None` while the head is incomplete (read
/// more and call again), else the response and its body's decoder, with
/// the head taken off `buf` and the body's first bytes left in it.
///
/// `is_head_request`: the answer to a `HEAD` has no body whatever its
/// fields say.
///
/// # Errors
///
/// [`Http1Error::Malformed`] for a head that is not HTTP/1.1, is longer
/// than [`MAX_HEAD_BYTES`], has more than [`MAX_HEADERS`] fields, or frames
/// its body impossibly (conflicting or invalid `content-length`).
pub fn parse_head(
    buf: &mut BytesMut,
    is_head_request: bool,
) -> Result<Option<(http::Response<()>, BodyDecoder)>, Http1Error> {
    loop {
        let mut fields = [httparse::EMPTY_HEADER; MAX_HEADERS];
        let mut parsed = httparse::Response::new(&mut fields);
        let len = match parsed.parse(buf) {
            Ok(httparse::Status::Complete(len)) => len,
            Ok(httparse::Status::Partial) if buf.len() >= MAX_HEAD_BYTES => {
                return Err(malformed("the response head is too long"));
            }
            Ok(httparse::Status::Partial) => return Ok(None),
            Err(e) => return Err(malformed(e.to_string())),
        };
        let code = parsed.code.unwrap_or_default();
        if (100..200).contains(&code) && code != 101 {
            buf.advance(len);
            continue;
        }
        let mut response = http::Response::builder()
            .status(code)
            .version(http::Version::HTTP_11);
        for field in parsed.headers.iter() {
            response = response.header(field.name, field.value);
        }
        let response = response.body(()).map_err(|e| malformed(e.to_string()))?;
        let body = BodyDecoder::for_response(is_head_request, &response)?;
        buf.advance(len);
        return Ok(Some((response, body)));
    }
}

/// What [`BodyDecoder::decode`] found in the buffer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decoded {
    /// Body bytes, taken off the buffer.
    Data(Bytes),
    /// Nothing decodable yet: read more into the buffer (and call
    /// [`BodyDecoder::closed`] if the connection has ended instead).
    NeedMore,
    /// The body is complete.
    End,
}

/// Where a response body is, between the bytes on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
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
    /// After the last chunk: trailer lines, up to an empty one.
    Trailers,
    /// The body is complete.
    Done,
}

/// Decodes a response body from the bytes the engine reads, by its framing
/// (RFC 9112 §6.3): a length, chunked, or until the connection closes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BodyDecoder {
    state: State,
}

impl BodyDecoder {
    /// The framing of `response`'s body.
    fn for_response(
        is_head_request: bool,
        response: &http::Response<()>,
    ) -> Result<Self, Http1Error> {
        let status = response.status().as_u16();
        let state = if is_head_request || status == 204 || status == 304 {
            State::Done
        } else if let Some(codings) = response
            .headers()
            .get_all(TRANSFER_ENCODING)
            .iter()
            .next_back()
        {
            // Chunked only when it is the last coding; any other transfer
            // coding runs until the close.
            let codings = String::from_utf8_lossy(codings.as_bytes()).to_ascii_lowercase();
            if codings.trim_end().ends_with("chunked") {
                State::ChunkSize
            } else {
                State::UntilClose
            }
        } else {
            let mut lengths = response.headers().get_all(CONTENT_LENGTH).iter();
            match lengths.next() {
                None => State::UntilClose,
                Some(first) => {
                    if lengths
                        .any(|other| other.as_bytes().trim_ascii() != first.as_bytes().trim_ascii())
                    {
                        return Err(malformed("conflicting content-length fields"));
                    }
                    let n: u64 = std::str::from_utf8(first.as_bytes().trim_ascii())
                        .ok()
                        .filter(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
                        .and_then(|s| s.parse().ok())
                        .ok_or_else(|| malformed("an invalid content-length"))?;
                    if n == 0 {
                        State::Done
                    } else {
                        State::Length(n)
                    }
                }
            }
        };
        Ok(BodyDecoder { state })
    }

    /// Whether the body is complete.
    pub fn is_end(&self) -> bool {
        self.state == State::Done
    }

    /// Takes the next body bytes off the front of `buf`.
    ///
    /// # Errors
    ///
    /// [`Http1Error::Malformed`] for a chunk-size, chunk end or trailer
    /// line that breaks the chunked coding or is longer than
    /// [`MAX_LINE_BYTES`].
    pub fn decode(&mut self, buf: &mut BytesMut) -> Result<Decoded, Http1Error> {
        loop {
            match self.state {
                State::Done => return Ok(Decoded::End),
                State::UntilClose if buf.is_empty() => return Ok(Decoded::NeedMore),
                State::UntilClose => return Ok(Decoded::Data(buf.split().freeze())),
                State::Length(_) | State::ChunkData(_) if buf.is_empty() => {
                    return Ok(Decoded::NeedMore);
                }
                State::Length(left) => {
                    let data = take(buf, left);
                    let left = left - data.len() as u64;
                    self.state = if left == 0 {
                        State::Done
                    } else {
                        State::Length(left)
                    };
                    return Ok(Decoded::Data(data));
                }
                State::ChunkData(left) => {
                    let data = take(buf, left);
                    let left = left - data.len() as u64;
                    self.state = if left == 0 {
                        State::ChunkEnd
                    } else {
                        State::ChunkData(left)
                    };
                    return Ok(Decoded::Data(data));
                }
                State::ChunkSize => match httparse::parse_chunk_size(buf) {
                    Ok(httparse::Status::Complete((len, size))) => {
                        buf.advance(len);
                        self.state = if size == 0 {
                            State::Trailers
                        } else {
                            State::ChunkData(size)
                        };
                    }
                    Ok(httparse::Status::Partial) if buf.len() > MAX_LINE_BYTES => {
                        return Err(malformed("a chunk-size line is too long"));
                    }
                    Ok(httparse::Status::Partial) => return Ok(Decoded::NeedMore),
                    Err(_) => return Err(malformed("an invalid chunk-size line")),
                },
                State::ChunkEnd => {
                    if buf.starts_with(b"\r\n") {
                        buf.advance(2);
                    } else if buf.starts_with(b"\n") {
                        buf.advance(1);
                    } else if buf.is_empty() || &buf[..] == b"\r" {
                        return Ok(Decoded::NeedMore);
                    } else {
                        return Err(malformed("a chunk is longer than its size"));
                    }
                    self.state = State::ChunkSize;
                }
                State::Trailers => {
                    let Some(end) = buf.iter().position(|&b| b == b'\n') else {
                        if buf.len() > MAX_LINE_BYTES {
                            return Err(malformed("a trailer line is too long"));
                        }
                        return Ok(Decoded::NeedMore);
                    };
                    let line = buf.split_to(end + 1);
                    if matches!(&line[..], b"\r\n" | b"\n") {
                        self.state = State::Done;
                    }
                }
            }
        }
    }

    /// The connection has ended (a read returned nothing) with nothing
    /// decodable left: the end of a body that runs until the close, and
    /// otherwise a body cut short.
    ///
    /// # Errors
    ///
    /// [`Http1Error::ClosedEarly`] unless the body is complete or ends with
    /// the connection.
    pub fn closed(&mut self) -> Result<(), Http1Error> {
        match self.state {
            State::Done => Ok(()),
            State::UntilClose => {
                self.state = State::Done;
                Ok(())
            }
            State::Length(_) => Err(Http1Error::ClosedEarly(
                "the body is shorter than its content-length",
            )),
            _ => Err(Http1Error::ClosedEarly(
                "the body ended inside its chunked coding",
            )),
        }
    }
}

/// At most `limit` bytes off the front of `buf`.
fn take(buf: &mut BytesMut, limit: u64) -> Bytes {
    let n = usize::try_from(limit).map_or(buf.len(), |l| l.min(buf.len()));
    buf.split_to(n).freeze()
}

/// Reads once from a blocking `reader` into the spare room of `buf` (up to
/// [`READ_BYTES`]), retrying an interrupted read: the number of bytes read,
/// `0` at the end of the stream. An async engine has
/// `tokio::io::AsyncReadExt::read_buf` for this.
///
/// # Errors
///
/// The reader's error.
pub fn read_into(reader: &mut impl Read, buf: &mut BytesMut) -> io::Result<usize> {
    let start = buf.len();
    buf.resize(start + READ_BYTES, 0);
    let read = loop {
        match reader.read(&mut buf[start..]) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            other => break other,
        }
    };
    buf.truncate(start + *read.as_ref().unwrap_or(&0));
    read
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(raw: &str) -> Result<Option<(http::Response<()>, BodyDecoder)>, Http1Error> {
        parse_head(&mut BytesMut::from(raw.as_bytes()), false)
    }

    fn state(raw: &str) -> Option<State> {
        head(raw).ok().flatten().map(|(_, d)| d.state)
    }

    /// Decodes `body` fed in pieces of `step` bytes, then the close.
    fn decode_in_steps(
        mut decoder: BodyDecoder,
        body: &[u8],
        step: usize,
    ) -> Result<Vec<u8>, Http1Error> {
        let mut buf = BytesMut::new();
        let mut out = Vec::new();
        let mut pieces = body.chunks(step);
        loop {
            match decoder.decode(&mut buf)? {
                Decoded::Data(d) => out.extend_from_slice(&d),
                Decoded::End => return Ok(out),
                Decoded::NeedMore => match pieces.next() {
                    Some(piece) => buf.extend_from_slice(piece),
                    None => {
                        decoder.closed()?;
                        assert!(decoder.is_end());
                        return Ok(out);
                    }
                },
            }
        }
    }

    #[test]
    fn body_framing_follows_rfc_9112() {
        let ok = "HTTP/1.1 200 OK\r\n";
        assert_eq!(
            state(&format!("{ok}Content-Length: 10\r\n\r\n")),
            Some(State::Length(10))
        );
        assert_eq!(
            state(&format!(
                "{ok}transfer-encoding: gzip, chunked\r\ncontent-length: 3\r\n\r\n"
            )),
            Some(State::ChunkSize)
        );
        assert_eq!(
            state(&format!("{ok}transfer-encoding: gzip\r\n\r\n")),
            Some(State::UntilClose)
        );
        assert_eq!(state(&format!("{ok}\r\n")), Some(State::UntilClose));
        assert_eq!(
            state(&format!("{ok}content-length: 0\r\n\r\n")),
            Some(State::Done)
        );
        assert_eq!(
            state("HTTP/1.1 204 No Content\r\ncontent-length: 5\r\n\r\n"),
            Some(State::Done)
        );
        let (_, decoder) = parse_head(
            &mut BytesMut::from(&b"HTTP/1.1 200 OK\r\ncontent-length: 9\r\n\r\n"[..]),
            true,
        )
        .unwrap()
        .unwrap();
        assert!(decoder.is_end(), "the answer to a HEAD has no body");
        for bad in [
            "content-length: 1\r\ncontent-length: 2",
            "content-length: -1",
            "content-length: +1",
            "content-length: ",
        ] {
            assert!(
                matches!(
                    head(&format!("{ok}{bad}\r\n\r\n")),
                    Err(Http1Error::Malformed(_))
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn interim_answers_are_skipped_and_the_body_stays_in_the_buffer() {
        let mut buf = BytesMut::from(&b"HTTP/1.1 103 Early Hints\r\nlink: </a>\r\n\r\nHTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nx: y\r\ncontent-length: 2\r\n\r\nokEXTRA"[..]);
        let (response, mut body) = parse_head(&mut buf, false).unwrap().unwrap();
        assert_eq!(response.status(), 201);
        assert_eq!(response.headers()["x"], "y");
        assert_eq!(response.version(), http::Version::HTTP_11);
        assert_eq!(body.decode(&mut buf).unwrap(), Decoded::Data("ok".into()));
        assert_eq!(body.decode(&mut buf).unwrap(), Decoded::End);
        assert_eq!(&buf[..], b"EXTRA", "bytes past the body are not the body's");
    }

    #[test]
    fn a_head_in_pieces_needs_more_and_one_without_end_is_bounded() {
        let raw = b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n";
        for cut in 0..raw.len() {
            let mut buf = BytesMut::from(&raw[..cut]);
            assert!(
                parse_head(&mut buf, false).unwrap().is_none(),
                "cut at {cut}"
            );
        }
        let mut endless = BytesMut::from(&b"HTTP/1.1 200 OK\r\n"[..]);
        endless.resize(MAX_HEAD_BYTES, b'a');
        assert!(matches!(
            parse_head(&mut endless, false),
            Err(Http1Error::Malformed(_))
        ));
        assert!(matches!(
            head("HTTP/1.1 2x0 OK\r\n\r\n"),
            Err(Http1Error::Malformed(_))
        ));
    }

    #[test]
    fn every_framing_decodes_the_same_fed_in_any_piece_size() {
        let chunked = b"3\r\nabc\r\n4;ext=1\r\ndefg\r\n0\r\ntrailer: x\r\n\r\n";
        for step in 1..=chunked.len() {
            let decoder = BodyDecoder {
                state: State::ChunkSize,
            };
            assert_eq!(
                decode_in_steps(decoder, chunked, step).unwrap(),
                b"abcdefg",
                "step {step}"
            );
            let decoder = BodyDecoder {
                state: State::Length(7),
            };
            assert_eq!(
                decode_in_steps(decoder, b"abcdefg", step).unwrap(),
                b"abcdefg"
            );
            let decoder = BodyDecoder {
                state: State::UntilClose,
            };
            assert_eq!(
                decode_in_steps(decoder, b"abcdefg", step).unwrap(),
                b"abcdefg"
            );
        }
    }

    #[test]
    fn a_body_cut_short_or_broken_is_an_error_never_an_end() {
        let cut = |state, body: &[u8]| decode_in_steps(BodyDecoder { state }, body, 3);
        assert!(matches!(
            cut(State::Length(9), b"abc"),
            Err(Http1Error::ClosedEarly(_))
        ));
        assert!(matches!(
            cut(State::ChunkSize, b"5\r\nab"),
            Err(Http1Error::ClosedEarly(_))
        ));
        assert!(matches!(
            cut(State::ChunkSize, b"2\r\nab\r\n"),
            Err(Http1Error::ClosedEarly(_))
        ));
        assert!(matches!(
            cut(State::ChunkSize, b"0\r\nx: y\r\n"),
            Err(Http1Error::ClosedEarly(_))
        ));
        assert!(matches!(
            cut(State::ChunkSize, b"zz\r\n"),
            Err(Http1Error::Malformed(_))
        ));
        assert!(matches!(
            cut(State::ChunkSize, b"2\r\nabc\r\n"),
            Err(Http1Error::Malformed(_))
        ));
        let long_line = vec![b'1'; MAX_LINE_BYTES + 2];
        assert!(matches!(
            cut(State::ChunkSize, &long_line),
            Err(Http1Error::Malformed(_))
        ));
    }

    #[test]
    fn errors_become_the_signals_the_core_knows() {
        let failure = EngineFailure::from(Http1Error::ClosedEarly("x"));
        assert_eq!(failure.signal(), EngineSignal::ConnectionClosed);
        let failure = EngineFailure::from(malformed("x"));
        assert_eq!(failure.signal(), EngineSignal::Protocol);
    }

    #[test]
    fn chunks_are_framed_and_an_empty_one_is_nothing() {
        assert_eq!(
            encode_chunk(b"hello, world!!!!"),
            b"10\r\nhello, world!!!!\r\n"
        );
        assert!(encode_chunk(b"").is_empty());
        let (parts, ()) = http::Request::get("http://h/")
            .header("host", "other")
            .body(())
            .unwrap()
            .into_parts();
        assert_eq!(
            encode_head(&parts, RequestFraming::Chunked),
            b"GET / HTTP/1.1\r\nhost: other\r\ntransfer-encoding: chunked\r\n\r\n"
        );
    }

    #[test]
    fn read_into_keeps_what_was_there_and_adds_what_was_read() {
        let mut buf = BytesMut::from(&b"ab"[..]);
        assert_eq!(read_into(&mut &b"cd"[..], &mut buf).unwrap(), 2);
        assert_eq!(&buf[..], b"abcd");
        assert_eq!(read_into(&mut &b""[..], &mut buf).unwrap(), 0);
        assert_eq!(&buf[..], b"abcd");
    }

    proptest::proptest! {
        /// Whatever pieces a body is sent in, and whatever pieces its bytes
        /// arrive in, the chunked decoder gives back exactly the body.
        #[test]
        fn chunked_round_trips_in_any_pieces(
            body in proptest::collection::vec(proptest::num::u8::ANY, 0..600),
            sent in 1usize..70,
            arrived in 1usize..50,
        ) {
            let mut wire = Vec::new();
            for piece in body.chunks(sent) {
                wire.extend_from_slice(&encode_chunk(piece));
            }
            wire.extend_from_slice(LAST_CHUNK);
            let decoder = BodyDecoder { state: State::ChunkSize };
            proptest::prop_assert_eq!(decode_in_steps(decoder, &wire, arrived).unwrap(), body);
        }
    }
}
