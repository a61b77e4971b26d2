//! Where in an attempt an error was raised: the one "error site" every
//! classifier takes.

use crate::classify::EngineSignal;

/// Where in the attempt an error was raised. The same I/O error means
/// different things at different places: a refused connection only exists
/// while connecting, an EOF during the TLS handshake is a handshake
/// failure, and h2 reports the peer's EOF to every open stream as
/// `BrokenPipe`.
///
/// ```
/// use std::io::ErrorKind;
/// use evident_core::EngineSignal;
/// use evident_core::engine::ErrorSite;
///
/// assert_eq!(ErrorSite::Connect.io_signal(ErrorKind::ConnectionRefused), EngineSignal::ConnectionRefused);
/// assert_eq!(
///     ErrorSite::EXCHANGE.io_signal(ErrorKind::ConnectionRefused),
///     EngineSignal::Io(ErrorKind::ConnectionRefused)
/// );
/// assert_eq!(ErrorSite::HTTP2_EXCHANGE.io_signal(ErrorKind::BrokenPipe), EngineSignal::ConnectionClosed);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorSite {
    /// Name resolution.
    Resolve,
    /// The TCP connect to one address.
    Connect,
    /// The TLS handshake on an established TCP connection.
    TlsHandshake,
    /// Anything on an established connection: an HTTP/2 preface, the
    /// request, the response head or body.
    Exchange {
        /// Whether the connection speaks HTTP/2.
        http2: bool,
        /// Whether the HTTP/2 connection had received a GOAWAY when the
        /// error surfaced, as far as the engine can see (always `false`
        /// for HTTP/1.1, and for an engine that cannot see it).
        goaway_received: bool,
    },
}

impl ErrorSite {
    /// An established HTTP/1.1 connection.
    pub const EXCHANGE: ErrorSite = ErrorSite::Exchange {
        http2: false,
        goaway_received: false,
    };

    /// An established HTTP/2 connection on which no GOAWAY was seen.
    pub const HTTP2_EXCHANGE: ErrorSite = ErrorSite::Exchange {
        http2: true,
        goaway_received: false,
    };

    /// Whether this is the TCP connect, the one place "refused" means the
    /// connection was refused.
    pub fn is_connect(self) -> bool {
        self == ErrorSite::Connect
    }

    /// Whether this is the TLS handshake.
    pub fn is_tls_handshake(self) -> bool {
        self == ErrorSite::TlsHandshake
    }

    /// An I/O error kind raised here, as every engine maps it
    /// ([`crate::classify_helpers::io_signal`]), with h2's report of the peer's EOF
    /// (`BrokenPipe` on an HTTP/2 exchange) read as a closed connection.
    pub fn io_signal(self, kind: std::io::ErrorKind) -> EngineSignal {
        match self {
            ErrorSite::Exchange { http2: true, .. } if kind == std::io::ErrorKind::BrokenPipe => {
                EngineSignal::ConnectionClosed
            }
            site => crate::classify_helpers::io_signal(kind, site.is_connect()),
        }
    }
}
