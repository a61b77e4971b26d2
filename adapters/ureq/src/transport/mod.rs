//! The connection ureq talks HTTP/1.1 over: a TCP or TLS stream whose every
//! request byte is counted, above TLS, for the attempt it belongs to.
//!
//! # How each fact is obtained
//!
//! * **Bytes written** (`wrote`): over plain TCP, each `write` call's return
//!   value, exactly. Over TLS, a `transmit_output` (ureq hands over whole
//!   buffers and expects them sent) counts its plaintext once rustls has
//!   flushed the records; when it fails, its plaintext counts as written as
//!   soon as any byte reached the socket during it, and not at all when none
//!   did — conservative, and still exact about "nothing written".
//! * **Head written**: an HTTP/1.1 request head ends at its first
//!   `\r\n\r\n` (a request line or header field cannot contain CR or LF), and
//!   ureq-proto writes the head in its own `transmit_output` calls before
//!   any body byte. The transport scans what it wrote for that sequence and
//!   reports the head written once the write that carried its end succeeded.
//! * **Body written**: ureq only reads from the connection once the whole
//!   request is sent (`send_request`, `send_body`, then `recv_response`), so
//!   the first read after the head proves the body was written. With
//!   `Expect: 100-continue` ureq reads between head and body; then it is the
//!   first read after a body write that follows that wait. A request without
//!   a body is complete with its head.
//! * **Reused**: a transport counts the requests it carried; the first write
//!   for an attempt on a transport that already carried one is a reuse.
//! * **A write started**: recorded ([`evident_core::Progress::start_write`])
//!   before every `transmit_output` hands bytes to TCP or rustls, so a write
//!   that fails or times out before the kernel accepted a byte is never
//!   "nothing written": the bytes may be queued in rustls, or the peer may
//!   have seen part of a record. Once the core has sealed the attempt, the
//!   transport refuses to write for it, and a sealed attempt's connection
//!   (or one that answered 421) is never returned to ureq's pool.

mod binding;
mod early;
mod stream;
mod timeouts;

use std::fmt;
use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::Arc;
use std::time::{Duration, Instant};

use evident_core::engine::{EARLY_ANSWER_LIMIT, early_answer_ended, peer_went_away};
use evident_core::tls::read_plaintext;
use evident_core::{AttemptSealed, AttemptStage};
use ureq::unversioned::transport::{Buffers, LazyBuffers, NextTimeout, Transport};

use crate::attempt;
use crate::classify::PeerReset;

use binding::Binding;
use early::{is_reset, probe, see_status};
pub(crate) use stream::{CountingSocket, Stream};
use timeouts::{Budget, fit_timeout, is_timeout, set_timeout, write_plain};

/// ureq's transport for one connection: counts request bytes for the attempt
/// it is bound to, and bounds every blocking call by ureq's timeout and the
/// attempt's deadline.
pub(crate) struct CountingTransport {
    stream: Stream,
    buffers: LazyBuffers,
    /// Requests this connection carried (or started to).
    requests: u64,
    binding: Option<Binding>,
    /// The socket's read timeout as this transport last set it (`None`:
    /// never set).
    read_timeout: Option<Option<Duration>>,
    /// The socket's write timeout, likewise.
    write_timeout: Option<Option<Duration>>,
}

impl CountingTransport {
    pub(crate) fn new(stream: Stream, buffers: LazyBuffers) -> Self {
        CountingTransport {
            stream,
            buffers,
            requests: 0,
            binding: None,
            read_timeout: None,
            write_timeout: None,
        }
    }

    /// Binds to the attempt in flight on this thread, on its first write.
    fn bind_current(&mut self) {
        let Some(current) = attempt::current() else {
            return;
        };
        if let Some(binding) = &self.binding
            && Arc::ptr_eq(&binding.attempt, &current)
        {
            return;
        }
        let progress = &current.progress;
        progress.connection_reused(self.requests > 0);
        progress.enter(AttemptStage::WriteHead);
        self.requests += 1;
        self.binding = Some(Binding::new(current));
    }

    fn deadline(&self) -> Option<Instant> {
        self.binding.as_ref().and_then(|b| b.attempt.deadline)
    }

    /// After a write failed with `error`: reads, without blocking, what the
    /// server sent before it closed or reset, into ureq's input. `true` when
    /// it sent something: the write side is then over (later writes are
    /// swallowed, never counted, and no "body written" follows) and ureq
    /// reads that answer as the call's (RFC 9112 §9.6 lets a server answer
    /// before it read the whole request, then close). Only once this
    /// request's whole head was accepted can bytes be its answer; with
    /// nothing sent, the write error stands.
    fn read_early_answer(&mut self, error: &ureq::Error) -> bool {
        let went_away = matches!(error, ureq::Error::Io(e) if peer_went_away(e.kind()));
        let Some(binding) = &self.binding else {
            return false;
        };
        if !went_away || !binding.head.done {
            return false;
        }
        if self.stream.tcp().set_nonblocking(true).is_err() {
            return false;
        }
        let mut read = 0;
        while read < EARLY_ANSWER_LIMIT {
            let input = self.buffers.input_append_buf();
            if input.is_empty() {
                break;
            }
            let result = match &mut self.stream {
                Stream::Tcp(tcp) => tcp.read(input),
                // Not through the stream's `read`: it first tries to write
                // the TLS records the failed write left, which fails again.
                Stream::Tls(tls) => read_plaintext(&mut tls.conn, &mut tls.sock, input),
                #[cfg(test)]
                Stream::Gated(gated) => gated.tcp.read(input),
            };
            match result {
                Ok(n) if n > 0 => {
                    self.buffers.input_appended(n);
                    read += n;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                // End of stream, the reset after the answer, or nothing more
                // yet: what was read is all there is.
                _ => break,
            }
        }
        let _ = self.stream.tcp().set_nonblocking(false);
        if read == 0 {
            return false;
        }
        if let Some(b) = &mut self.binding {
            b.write_side_over = true;
            b.early_answer_pending = true;
            if !b.status_seen {
                b.status_seen = see_status(self.buffers.input(), &b.attempt);
            }
        }
        true
    }

    /// Writes `amount` bytes of the output buffer, counting them.
    fn write_out(&mut self, amount: usize, budget: Budget) -> Result<(), ureq::Error> {
        if let Some(b) = &self.binding {
            // Before any byte goes to TCP or rustls; refused once sealed.
            b.attempt
                .progress
                .start_write()
                .map_err(|sealed| ureq::Error::from(sealed.into_io_error()))?;
        }
        let output = &self.buffers.output()[..amount];
        let armed = &mut self.write_timeout;
        match &mut self.stream {
            Stream::Tcp(tcp) => {
                let tcp: &TcpStream = tcp;
                let rearm = |t| set_timeout(armed, t, |t| tcp.set_write_timeout(t));
                write_plain(&mut &*tcp, output, &mut self.binding, budget, rearm)
            }
            #[cfg(test)]
            Stream::Gated(gated) => {
                let handle = gated.tcp.try_clone()?;
                let rearm = |t| set_timeout(armed, t, |t| handle.set_write_timeout(t));
                write_plain(gated, output, &mut self.binding, budget, rearm)
            }
            Stream::Tls(tls) => {
                let before = tls.sock.written;
                let result = tls.write_all(output).and_then(|()| tls.flush());
                let reached_socket = tls.sock.written > before;
                match result {
                    Ok(()) => {
                        if let Some(b) = &mut self.binding {
                            b.wrote(output);
                        }
                        Ok(())
                    }
                    Err(e) => {
                        if reached_socket && let Some(b) = &mut self.binding {
                            // Some record left: count all of it, but the
                            // head is not known to be complete.
                            b.attempt.progress.wrote(output.len());
                        }
                        Err(budget.io_error(e))
                    }
                }
            }
        }
    }
}

impl Transport for CountingTransport {
    fn buffers(&mut self) -> &mut dyn Buffers {
        &mut self.buffers
    }

    fn transmit_output(&mut self, amount: usize, timeout: NextTimeout) -> Result<(), ureq::Error> {
        self.bind_current();
        if self.binding.as_ref().is_some_and(|b| b.write_side_over) {
            // The server answered and went away: swallowed, never counted.
            return Ok(());
        }
        if let Some(b) = &self.binding
            && b.attempt.progress.is_sealed()
        {
            // The core gave up on the attempt: not one more byte for it.
            return Err(AttemptSealed.into_io_error().into());
        }
        let budget = Budget::new(timeout.for_write(), self.deadline())?;
        // A TLS write is not resumed after a timeout (rustls may hold part
        // of it), so its timeout is the exact budget.
        let ahead = !matches!(self.stream, Stream::Tls(_));
        let tcp = self.stream.tcp();
        fit_timeout(&mut self.write_timeout, budget, ahead, |t| {
            tcp.set_write_timeout(t)
        })?;
        match self.write_out(amount, budget) {
            Err(e) if self.read_early_answer(&e) => Ok(()),
            written => written,
        }
    }

    fn await_input(&mut self, timeout: NextTimeout) -> Result<bool, ureq::Error> {
        if let Some(b) = &mut self.binding {
            b.reading();
            if std::mem::take(&mut b.early_answer_pending) {
                // The answer read after the failed write is this wait's input.
                return Ok(true);
            }
        }
        let mut budget = Budget::new(timeout.for_read(), self.deadline())?;
        let tcp = self.stream.tcp();
        fit_timeout(&mut self.read_timeout, budget, true, |t| {
            tcp.set_read_timeout(t)
        })?;
        let write_side_over = self.binding.as_ref().is_some_and(|b| b.write_side_over);
        let input = self.buffers.input_append_buf();
        let amount = loop {
            let result = match &mut self.stream {
                Stream::Tcp(tcp) => tcp.read(input),
                // The write side broke: reading must not try to write the
                // records the failed write left (it would fail again).
                Stream::Tls(tls) if write_side_over => {
                    read_plaintext(&mut tls.conn, &mut tls.sock, input)
                }
                Stream::Tls(tls) => tls.read(input),
                #[cfg(test)]
                Stream::Gated(gated) => gated.tcp.read(input),
            };
            match result {
                // After an early answer the write met the peer's reset, and
                // the socket reads a plain end after it (over TLS, an end
                // without close_notify): the answer ends with that reset,
                // not with a clean close.
                Ok(0) if write_side_over => {
                    return Err(PeerReset::wrap(early_answer_ended(None)).into());
                }
                // Over TLS that end has no close_notify.
                Err(e) if write_side_over && e.kind() == io::ErrorKind::UnexpectedEof => {
                    return Err(PeerReset::wrap(early_answer_ended(Some(e))).into());
                }
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                // ureq takes a reset while reading a body for the body's
                // end, which silently truncates a close-delimited body.
                // Hidden from ureq's check, it stays an error.
                Err(e) if is_reset(&e) => return Err(PeerReset::wrap(e).into()),
                // A timeout set ahead cut the read short: resume it with
                // the exact remainder (a read that timed out read nothing).
                Err(e) if is_timeout(&e) => match budget.left() {
                    Some(left) => {
                        budget = left;
                        let tcp = self.stream.tcp();
                        set_timeout(&mut self.read_timeout, budget.socket_timeout(), |t| {
                            tcp.set_read_timeout(t)
                        })?;
                    }
                    None => return Err(budget.io_error(e)),
                },
                Err(e) => return Err(budget.io_error(e)),
            }
        };
        self.buffers.input_appended(amount);
        if let Some(b) = &mut self.binding
            && !b.status_seen
        {
            b.status_seen = see_status(self.buffers.input(), &b.attempt);
        }
        Ok(amount > 0)
    }

    fn is_open(&mut self) -> bool {
        // ureq asks when the connection goes back to the pool and when it
        // comes out of it: either way no attempt uses it now. Unbinding keeps
        // a late update of a finished attempt from reaching its record.
        if let Some(binding) = self.binding.take()
            && !binding.attempt.connection_reusable()
        {
            // The core gave up on the attempt, or the server said 421: the
            // connection is discarded, never pooled.
            return false;
        }
        probe(self.stream.tcp()).unwrap_or(false)
    }

    fn is_tls(&self) -> bool {
        matches!(self.stream, Stream::Tls(_))
    }
}

impl Drop for CountingTransport {
    fn drop(&mut self) {
        if let Stream::Tls(tls) = &mut self.stream {
            // Best effort: tell the peer we are done, without blocking on it.
            tls.conn.send_close_notify();
            let _ = tls.sock.tcp().set_nonblocking(true);
            let _ = tls.conn.write_tls(&mut tls.sock);
        }
        let _ = self.stream.tcp().shutdown(Shutdown::Both);
    }
}

impl fmt::Debug for CountingTransport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CountingTransport")
            .field("peer", &self.stream.tcp().peer_addr().ok())
            .field("tls", &self.is_tls())
            .field("requests", &self.requests)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
pub(crate) mod tests;
