//! The classifier: it only *translates* an I/O error into an
//! [`EngineSignal`]. It never looks at the progress and never decides
//! anything: the core turns the signal and the progress into evidence, the
//! same way for every engine.

use std::io;

use evident_core::EngineSignal;
use evident_core::errors::{RequestBodyError, find, io_signal, no_unwrap};
use evident_core::tls::rustls_signal;

/// Which step of the attempt an error came from: the same I/O error kind
/// means different things in different steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// TCP connect: only here does "refused" mean the connection was refused.
    Connect,
    /// The TLS handshake: every failure but a timeout is a handshake failure.
    Handshake,
    /// Writing the request or reading the response.
    Exchange,
}

/// The signal `error` means at `step`.
///
/// ```
/// use std::io;
/// use evident_core::EngineSignal;
/// use evident_teaching_engine::classify::{Step, signal};
///
/// let refused = io::Error::from(io::ErrorKind::ConnectionRefused);
/// assert_eq!(signal(&refused, Step::Connect), EngineSignal::ConnectionRefused);
/// // A peer that closes mid-handshake is a handshake failure...
/// let eof = io::Error::from(io::ErrorKind::UnexpectedEof);
/// assert_eq!(signal(&eof, Step::Handshake), EngineSignal::TlsHandshake);
/// // ...and, once the request is on its way, a closed connection.
/// assert_eq!(signal(&eof, Step::Exchange), EngineSignal::ConnectionClosed);
/// ```
pub fn signal(error: &io::Error, step: Step) -> EngineSignal {
    // `find` walks the chain through `io::Error::get_ref()`, which
    // `source()` skips: rustls errors hide there.
    if let Some(tls) = find::<rustls::Error>(error, no_unwrap) {
        return rustls_signal(tls, step == Step::Handshake);
    }
    if find::<RequestBodyError>(error, no_unwrap).is_some() {
        return EngineSignal::RequestBody;
    }
    match io_signal(error.kind(), step == Step::Connect) {
        EngineSignal::TimedOut => EngineSignal::TimedOut,
        _ if step == Step::Handshake => EngineSignal::TlsHandshake,
        other => other,
    }
}
