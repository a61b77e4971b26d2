//! Reading HTTP/1.1 requests off a connection and writing raw answers.

use std::io;

use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::super::conn::Conn;
use super::super::ledger::{IDEMPOTENCY_KEY_HEADER, REQUEST_ID_HEADER};
use super::super::reply::Reply;

/// Largest request head the lab reads; far above any test request.
const MAX_HEAD_BYTES: usize = 64 * 1024;

/// Most header fields in one request head.
const MAX_HEADERS: usize = 128;

/// Read size; large enough that multi-megabyte bodies stream quickly.
const READ_CHUNK: usize = 64 * 1024;

/// Longest chunk-size or trailer line accepted in a chunked body.
const MAX_LINE_BYTES: usize = 8 * 1024;

/// How a request body is delimited.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Framing {
    Empty,
    Length(u64),
    Chunked,
}

/// A parsed request head.
#[derive(Debug, Clone)]
pub(crate) struct Head {
    pub(crate) method: String,
    pub(crate) target: String,
    pub(crate) request_id: Option<String>,
    pub(crate) idempotency_key: Option<String>,
    pub(crate) framing: Framing,
    pub(crate) expects_continue: bool,
    /// The client asked to close after this exchange.
    pub(crate) wants_close: bool,
}

/// A connection with a read buffer.
#[derive(Debug)]
pub(crate) struct Wire {
    pub(crate) conn: Conn,
    buf: Vec<u8>,
}

impl Wire {
    pub(crate) fn new(conn: Conn) -> Self {
        Self {
            conn,
            buf: Vec::new(),
        }
    }

    /// Reads more bytes into the buffer; `Ok(0)` at EOF.
    async fn fill(&mut self) -> io::Result<usize> {
        let start = self.buf.len();
        self.buf.resize(start + READ_CHUNK, 0);
        let read = self.conn.read(&mut self.buf[start..]).await;
        let n = *read.as_ref().unwrap_or(&0);
        self.buf.truncate(start + n);
        read
    }

    /// The next request head; `None` when the client closed between
    /// requests.
    pub(crate) async fn read_head(&mut self) -> io::Result<Option<Head>> {
        loop {
            if !self.buf.is_empty() {
                if let Some((head, used)) = parse_head(&self.buf)? {
                    self.buf.drain(..used);
                    return Ok(Some(head));
                }
                if self.buf.len() > MAX_HEAD_BYTES {
                    return Err(invalid("request head too large"));
                }
            }
            if self.fill().await? == 0 {
                return if self.buf.is_empty() {
                    Ok(None)
                } else {
                    Err(io::ErrorKind::UnexpectedEof.into())
                };
            }
        }
    }

    /// Reads and discards the whole body; returns its length.
    pub(crate) async fn read_body(&mut self, head: &Head) -> io::Result<u64> {
        if head.expects_continue && head.framing != Framing::Empty {
            self.conn
                .write_all(b"HTTP/1.1 100 Continue\r\n\r\n")
                .await?;
        }
        match head.framing {
            Framing::Empty => Ok(0),
            Framing::Length(n) => {
                self.skip(n).await?;
                Ok(n)
            }
            Framing::Chunked => self.read_chunked().await,
        }
    }

    /// Consumes up to `limit` raw bytes after the head (fewer only at EOF).
    pub(crate) async fn discard_raw(&mut self, limit: u64) -> io::Result<u64> {
        let mut taken = 0;
        while taken < limit {
            if self.buf.is_empty() && self.fill().await? == 0 {
                break;
            }
            let n = self
                .buf
                .len()
                .min(usize::try_from(limit - taken).unwrap_or(usize::MAX));
            self.buf.drain(..n);
            taken += n as u64;
        }
        Ok(taken)
    }

    async fn skip(&mut self, n: u64) -> io::Result<()> {
        if self.discard_raw(n).await? < n {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        Ok(())
    }

    async fn read_line(&mut self) -> io::Result<Vec<u8>> {
        loop {
            if let Some(end) = self.buf.windows(2).position(|w| w == b"\r\n") {
                let line = self.buf[..end].to_vec();
                self.buf.drain(..end + 2);
                return Ok(line);
            }
            if self.buf.len() > MAX_LINE_BYTES {
                return Err(invalid("chunk line too long"));
            }
            if self.fill().await? == 0 {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
        }
    }

    async fn read_chunked(&mut self) -> io::Result<u64> {
        let mut total = 0u64;
        loop {
            let line = self.read_line().await?;
            let size = line.split(|b| *b == b';').next().unwrap_or_default();
            let size = std::str::from_utf8(size)
                .ok()
                .and_then(|s| u64::from_str_radix(s.trim(), 16).ok())
                .ok_or_else(|| invalid("bad chunk size"))?;
            if size == 0 {
                // Trailer fields, up to the empty line.
                while !self.read_line().await?.is_empty() {}
                return Ok(total);
            }
            self.skip(size).await?;
            total += size;
            if !self.read_line().await?.is_empty() {
                return Err(invalid("chunk not followed by CRLF"));
            }
        }
    }

    /// Writes raw bytes and flushes.
    pub(crate) async fn send(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.conn.write_all(bytes).await?;
        self.conn.flush().await
    }
}

fn invalid(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_owned())
}

fn parse_head(buf: &[u8]) -> io::Result<Option<(Head, usize)>> {
    let mut fields = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut request = httparse::Request::new(&mut fields);
    let used = match request.parse(buf) {
        Ok(httparse::Status::Complete(used)) => used,
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(e) => return Err(invalid(&e.to_string())),
    };
    let mut head = Head {
        method: request.method.unwrap_or_default().to_owned(),
        target: request.path.unwrap_or_default().to_owned(),
        request_id: None,
        idempotency_key: None,
        framing: Framing::Empty,
        expects_continue: false,
        wants_close: request.version == Some(0),
    };
    for field in request.headers.iter() {
        let value = String::from_utf8_lossy(field.value).trim().to_owned();
        let name = field.name;
        if name.eq_ignore_ascii_case(REQUEST_ID_HEADER) {
            head.request_id = Some(value);
        } else if name.eq_ignore_ascii_case(IDEMPOTENCY_KEY_HEADER) {
            head.idempotency_key = Some(value);
        } else if name.eq_ignore_ascii_case("content-length") {
            if head.framing != Framing::Chunked {
                let n = value.parse().map_err(|_| invalid("bad content-length"))?;
                head.framing = Framing::Length(n);
            }
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            if value.to_ascii_lowercase().ends_with("chunked") {
                head.framing = Framing::Chunked;
            }
        } else if name.eq_ignore_ascii_case("expect") {
            head.expects_continue = value.eq_ignore_ascii_case("100-continue");
        } else if name.eq_ignore_ascii_case("connection") {
            head.wants_close = value.to_ascii_lowercase().contains("close");
        }
    }
    if head.framing == Framing::Length(0) {
        head.framing = Framing::Empty;
    }
    Ok(Some((head, used)))
}

/// How an answer's connection handling is announced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Persistence {
    /// Nothing said: HTTP/1.1 keeps the connection alive by default.
    Default,
    /// `Connection: keep-alive` and a `Keep-Alive` hint, inviting reuse.
    KeepAlive,
    /// `Connection: close`.
    Close,
}

/// Serialises `reply`; `head_only` omits the body (answers to HEAD).
pub(crate) fn encode_reply(reply: &Reply, persistence: Persistence, head_only: bool) -> Vec<u8> {
    encode_reply_declaring(reply, reply.body_bytes().len(), persistence, head_only)
}

/// Serialises `reply` with a `Content-Length` of `declared`, whatever its
/// body's length (above it: an answer cut short).
pub(crate) fn encode_reply_declaring(
    reply: &Reply,
    declared: usize,
    persistence: Persistence,
    head_only: bool,
) -> Vec<u8> {
    let mut out = encode_head(
        reply.status().as_u16(),
        reply.status().canonical_reason().unwrap_or("Lab"),
        reply
            .headers()
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_bytes())),
        declared,
        persistence,
    );
    if !head_only {
        out.extend_from_slice(reply.body_bytes());
    }
    out
}

/// Serialises a status line, headers, `Content-Length` and the persistence
/// headers.
pub(crate) fn encode_head<'a>(
    status: u16,
    reason: &str,
    headers: impl Iterator<Item = (&'a str, &'a [u8])>,
    content_length: usize,
    persistence: Persistence,
) -> Vec<u8> {
    let mut out = format!("HTTP/1.1 {status} {reason}\r\n").into_bytes();
    for (name, value) in headers {
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(value);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(format!("content-length: {content_length}\r\n").as_bytes());
    match persistence {
        Persistence::Default => {}
        Persistence::KeepAlive => {
            out.extend_from_slice(b"connection: keep-alive\r\nkeep-alive: timeout=60\r\n");
        }
        Persistence::Close => out.extend_from_slice(b"connection: close\r\n"),
    }
    out.extend_from_slice(b"\r\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_head_yields_its_ids_and_framing() {
        let raw = b"POST /pay HTTP/1.1\r\nHost: x\r\nX-Evident-Request: r1\r\n\
                    Idempotency-Key: k1\r\nContent-Length: 5\r\n\r\nhello";
        let (head, used) = parse_head(raw).unwrap().unwrap();
        assert_eq!(used, raw.len() - 5);
        assert_eq!(head.request_id.as_deref(), Some("r1"));
        assert_eq!(head.idempotency_key.as_deref(), Some("k1"));
        assert_eq!(head.framing, Framing::Length(5));
        assert!(!head.wants_close);
    }

    #[test]
    fn chunked_wins_over_content_length() {
        let raw = b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n";
        let (head, _) = parse_head(raw).unwrap().unwrap();
        assert_eq!(head.framing, Framing::Chunked);
    }

    #[test]
    fn an_incomplete_head_asks_for_more() {
        assert!(parse_head(b"GET / HTTP/1.1\r\nHost").unwrap().is_none());
    }
}
