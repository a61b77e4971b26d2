//! The classifier: it only *translates* an I/O error into an
//! [`EngineSignal`]. It never looks at the progress and never decides
//! anything: the core turns the signal and the progress into evidence, the
//! same way for every engine.

use std::io;

use evident_core::EngineSignal;
use evident_core::classify_helpers::{RequestBodyError, find, no_unwrap};
use evident_core::tls::rustls_signal;

/// Which step of the attempt an error came from (the core's one site
/// type): the same I/O error kind means different things in different
/// steps. This engine uses three: `Connect` (only there does "refused" mean
/// the connection was refused), `TlsHandshake` (every failure but a timeout
/// is a handshake failure) and `EXCHANGE` (writing the request or reading
/// the response).
pub use evident_core::engine::ErrorSite;

/// The signal `error` means at `site`.
///
/// ```
/// use std::io;
/// use evident_core::EngineSignal;
/// use evident_teaching_engine::classify::{ErrorSite, signal};
///
/// let refused = io::Error::from(io::ErrorKind::ConnectionRefused);
/// assert_eq!(signal(&refused, ErrorSite::Connect), EngineSignal::ConnectionRefused);
/// // A peer that closes mid-handshake is a handshake failure...
/// let eof = io::Error::from(io::ErrorKind::UnexpectedEof);
/// assert_eq!(signal(&eof, ErrorSite::TlsHandshake), EngineSignal::TlsHandshake);
/// // ...and, once the request is on its way, a closed connection.
/// assert_eq!(signal(&eof, ErrorSite::EXCHANGE), EngineSignal::ConnectionClosed);
/// ```
pub fn signal(error: &io::Error, site: ErrorSite) -> EngineSignal {
    // `find` walks the chain through `io::Error::get_ref()`, which
    // `source()` skips: rustls errors hide there.
    if let Some(tls) = find::<rustls::Error>(error, no_unwrap) {
        return rustls_signal(tls, site.is_tls_handshake());
    }
    if find::<RequestBodyError>(error, no_unwrap).is_some() {
        return EngineSignal::RequestBody;
    }
    match site.io_signal(error.kind()) {
        EngineSignal::TimedOut => EngineSignal::TimedOut,
        _ if site.is_tls_handshake() => EngineSignal::TlsHandshake,
        other => other,
    }
}
