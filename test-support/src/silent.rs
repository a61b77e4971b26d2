//! A silent address: a loopback port whose TCP connects hang, for the
//! "first address silent, second live" tests of every engine (async or
//! blocking: this module uses only `std` and `socket2`).
//!
//! Linux drops an incoming SYN while the listener's accept queue is full
//! (`tcp_conn_request`, counted as `ListenOverflows`; with
//! `tcp_abort_on_overflow` at its default 0), and the client stays in
//! SYN-SENT, retransmitting, until its own timeout. So the listener asks for
//! the smallest backlog, never accepts, and is filled with connections of
//! its own until one does not complete: that failed probe proves, on this
//! very machine, that the next connect hangs.

use std::io;
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use evident_core::{AttemptRecord, CallInfo, Observer};
use socket2::{Domain, Socket, Type};

/// Filling connections tried before giving up on the queue ever filling.
const MAX_FILLERS: usize = 16;

/// How long a filling connect may take before the queue counts as full. A
/// loopback handshake the kernel completes takes microseconds: this is
/// waited for once, by the probe that proves the queue full.
const FILL_PROBE: Duration = Duration::from_millis(200);

/// A listening loopback port that accepts no TCP handshake. Dropping it
/// closes the listener and its fillers.
#[derive(Debug)]
pub struct SilentListener {
    addr: SocketAddr,
    _listener: Socket,
    _fillers: Vec<TcpStream>,
}

impl SilentListener {
    /// A silent listener on `addr` (a loopback address; port 0 picks a free
    /// port).
    ///
    /// # Errors
    ///
    /// The socket's errors, or `Other` when the queue did not fill within
    /// 16 connections (the kernel accepts SYNs beyond the
    /// backlog: the test cannot hold here).
    pub fn bind(addr: SocketAddr) -> io::Result<SilentListener> {
        assert!(
            addr.ip().is_loopback(),
            "test servers listen on loopback only"
        );
        let listener = Socket::new(Domain::for_address(addr), Type::STREAM, None)?;
        listener.bind(&addr.into())?;
        listener.listen(0)?;
        let addr = listener
            .local_addr()?
            .as_socket()
            .ok_or_else(|| io::Error::other("not an IP socket"))?;
        let mut fillers = Vec::new();
        for _ in 0..MAX_FILLERS {
            match TcpStream::connect_timeout(&addr, FILL_PROBE) {
                Ok(filler) => fillers.push(filler),
                Err(e) if e.kind() == io::ErrorKind::TimedOut => {
                    return Ok(SilentListener {
                        addr,
                        _listener: listener,
                        _fillers: fillers,
                    });
                }
                Err(e) => return Err(e),
            }
        }
        Err(io::Error::other(format!(
            "the accept queue of {addr} did not fill after {MAX_FILLERS} connections"
        )))
    }

    /// The address whose connects hang.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }
}

/// An observer keeping the records of each call that ended.
#[derive(Debug, Default)]
pub struct Records(std::sync::Mutex<Vec<Vec<AttemptRecord>>>);

impl Records {
    /// The records of every call that ended, in order.
    pub fn calls(&self) -> Vec<Vec<AttemptRecord>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

impl Observer for Records {
    fn on_attempt(&self, _call: &CallInfo, _record: &AttemptRecord) {}

    fn on_call_end(&self, _call: &CallInfo, records: &[AttemptRecord]) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(records.to_vec());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_connect_to_a_silent_listener_hangs() {
        let silent = SilentListener::bind("127.0.0.2:0".parse().unwrap()).unwrap();
        let e = TcpStream::connect_timeout(&silent.addr(), Duration::from_millis(100)).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::TimedOut);
    }
}
