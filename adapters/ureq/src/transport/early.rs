//! Reading what the server sent while the request was still being written:
//! the status line of an early answer, a reset, and whether an idle
//! connection is still usable.

use std::io;
use std::net::TcpStream;

use crate::attempt::Attempt;

/// Looks at the status line at the start of unconsumed input (a response
/// head is read before anything else of its exchange, and ureq consumes an
/// interim `100 Continue` before reading on). A 421 marks the attempt so its
/// connection is not pooled: ureq returns a bodiless response's connection
/// to its pool before the engine sees the status. Returns whether the final
/// status was seen.
pub(super) fn see_status(input: &[u8], attempt: &Attempt) -> bool {
    // "HTTP/1.1 421": the version, a space, three digits.
    const STATUS_LINE_PREFIX: usize = 12;
    if input.len() < STATUS_LINE_PREFIX {
        return false;
    }
    if !input.starts_with(b"HTTP/1.") || input[8] != b' ' {
        // Not a status line: nothing to learn, and nothing to wait for.
        return true;
    }
    match &input[9..12] {
        [b'1', _, _] => false,
        b"421" => {
            attempt.misdirected();
            true
        }
        _ => true,
    }
}

pub(super) fn is_reset(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionReset | io::ErrorKind::ConnectionAborted
    )
}

/// Whether an idle connection still looks usable: nothing to read (no EOF,
/// no stray bytes) without blocking.
pub(super) fn probe(tcp: &TcpStream) -> io::Result<bool> {
    tcp.set_nonblocking(true)?;
    let mut byte = [0u8; 1];
    let open = match tcp.peek(&mut byte) {
        Err(e) if e.kind() == io::ErrorKind::WouldBlock => true,
        // EOF, stray bytes or an error: not reusable.
        Ok(_) | Err(_) => false,
    };
    tcp.set_nonblocking(false)?;
    Ok(open)
}
