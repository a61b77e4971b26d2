//! Helpers every engine classifier needs, so that the parts of translation
//! that do not depend on an engine are written once.
//!
//! * [`chain`] and [`find`] walk an error chain **including** the links that
//!   `source()` hides: `std::io::Error::get_ref()`, plus whatever an engine's
//!   own types wrap ([`Unwrap`]).
//! * [`io_signal`] maps an I/O error kind to a signal the same way for
//!   every engine; [`socket_signal`] is the whole classifier of an engine
//!   over its own sockets.
//! * [`is_name_not_found`] tells "no such name" (permanent) from a temporary
//!   resolver failure, from the system resolver's message.
//! * [`RequestBodyError`] marks a failing request body, so a classifier can
//!   tell it from a failing connection.

use std::error::Error as StdError;
use std::fmt;
use std::io;

use crate::classify::EngineSignal;
use crate::failure::BoxError;

/// How deep a chain is walked: far beyond any real nesting, and a bound on
/// a cyclic or pathological `source()`.
pub const MAX_CHAIN_DEPTH: usize = 32;

/// An engine's own unwrapping, for error types whose inner error is not
/// reachable through `source()` (h2's `get_io()`, ureq's variants).
pub type Unwrap = for<'a> fn(&'a (dyn StdError + 'static)) -> Option<&'a (dyn StdError + 'static)>;

/// No engine-specific unwrapping.
pub fn no_unwrap<'a>(_: &'a (dyn StdError + 'static)) -> Option<&'a (dyn StdError + 'static)> {
    None
}

/// The error and everything it wraps: `unwrap` first, then
/// `io::Error::get_ref()`, then `source()`.
///
/// ```
/// use std::io;
/// use evident_core::classify_helpers::{chain, no_unwrap};
///
/// #[derive(Debug)]
/// struct Inner;
/// impl std::fmt::Display for Inner {
///     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { f.write_str("inner") }
/// }
/// impl std::error::Error for Inner {}
///
/// // `io::Error::source()` would skip `Inner`; the chain does not.
/// let outer = io::Error::new(io::ErrorKind::InvalidData, Inner);
/// assert!(chain(&outer, no_unwrap).any(|e| e.is::<Inner>()));
/// ```
pub fn chain<'a>(
    error: &'a (dyn StdError + 'static),
    unwrap: Unwrap,
) -> impl Iterator<Item = &'a (dyn StdError + 'static)> {
    let mut next = Some(error);
    let mut depth = 0;
    std::iter::from_fn(move || {
        let current = next?;
        depth += 1;
        next = if depth < MAX_CHAIN_DEPTH {
            wrapped(current, unwrap)
        } else {
            None
        };
        Some(current)
    })
}

fn wrapped<'a>(
    error: &'a (dyn StdError + 'static),
    unwrap: Unwrap,
) -> Option<&'a (dyn StdError + 'static)> {
    if let Some(inner) = unwrap(error) {
        return Some(inner);
    }
    if let Some(io) = error.downcast_ref::<io::Error>() {
        return io.get_ref().map(|inner| inner as &(dyn StdError + 'static));
    }
    error.source()
}

/// The first error of type `T` in the chain.
pub fn find<'a, T: StdError + 'static>(
    error: &'a (dyn StdError + 'static),
    unwrap: Unwrap,
) -> Option<&'a T> {
    chain(error, unwrap).find_map(|e| e.downcast_ref::<T>())
}

/// The signal an I/O error kind means. `connecting` says whether the error
/// came from establishing the TCP connection: only there does "refused"
/// mean the connection was refused.
pub fn io_signal(kind: io::ErrorKind, connecting: bool) -> EngineSignal {
    use io::ErrorKind as K;
    match kind {
        K::ConnectionRefused if connecting => EngineSignal::ConnectionRefused,
        K::ConnectionReset | K::ConnectionAborted | K::BrokenPipe => EngineSignal::ConnectionReset,
        K::UnexpectedEof | K::NotConnected => EngineSignal::ConnectionClosed,
        // A blocking socket's read/write timeout surfaces as WouldBlock.
        K::TimedOut | K::WouldBlock => EngineSignal::TimedOut,
        kind => EngineSignal::Io(kind),
    }
}

/// The whole classifier of an engine that reads and writes its sockets
/// itself (std or tokio, rustls for TLS): the signal an I/O error raised at
/// `site` means.
///
/// * a rustls error inside it (feature `rustls`) is read by
///   `evident_core::tls::rustls_signal`: a rejected certificate
///   is permanent;
/// * a [`RequestBodyError`] inside it is the caller's body failing;
/// * otherwise its kind, read at `site` ([`ErrorSite::io_signal`]); during
///   the TLS handshake every failure but a timeout is a handshake failure.
///
/// ```
/// use std::io;
/// use evident_core::EngineSignal;
/// use evident_core::classify_helpers::socket_signal;
/// use evident_core::engine::ErrorSite;
///
/// let refused = io::Error::from(io::ErrorKind::ConnectionRefused);
/// assert_eq!(socket_signal(&refused, ErrorSite::Connect), EngineSignal::ConnectionRefused);
/// // A peer that closes mid-handshake is a handshake failure...
/// let eof = io::Error::from(io::ErrorKind::UnexpectedEof);
/// assert_eq!(socket_signal(&eof, ErrorSite::TlsHandshake), EngineSignal::TlsHandshake);
/// // ...and, once the request is on its way, a closed connection.
/// assert_eq!(socket_signal(&eof, ErrorSite::EXCHANGE), EngineSignal::ConnectionClosed);
/// ```
///
/// [`ErrorSite::io_signal`]: crate::engine::ErrorSite::io_signal
pub fn socket_signal(error: &io::Error, site: crate::engine::ErrorSite) -> EngineSignal {
    // `find` walks through `io::Error::get_ref()`, which `source()` skips:
    // rustls errors hide there.
    #[cfg(feature = "rustls")]
    if let Some(tls) = find::<rustls::Error>(error, no_unwrap) {
        return crate::tls::rustls_signal(tls, site.is_tls_handshake());
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

/// What system resolvers (glibc, musl, macOS, Windows) say when a name does
/// not exist. `std` reports every `getaddrinfo` failure with the same
/// `ErrorKind`, so the message is the only way to tell "no such name"
/// (permanent) from "temporary failure in name resolution" (not).
pub const NOT_FOUND_MESSAGES: &[&str] = &[
    "Name or service not known",
    "No address associated with hostname",
    "nodename nor servname provided",
    "Name does not resolve",
    "No such host is known",
];

/// Whether a resolver error says the name does not exist.
pub fn is_name_not_found(error: &io::Error) -> bool {
    let message = error.to_string();
    error.kind() == io::ErrorKind::NotFound
        || NOT_FOUND_MESSAGES.iter().any(|m| message.contains(m))
}

/// Producing the request body failed. An adapter wraps the body's own error
/// in this type before its engine sees it, so its classifier can report
/// [`EngineSignal::RequestBody`] instead of a connection failure.
#[derive(Debug)]
pub struct RequestBodyError(BoxError);

impl RequestBodyError {
    /// Wraps the request body's error.
    pub fn new(error: impl Into<BoxError>) -> Self {
        RequestBodyError(error.into())
    }
}

impl fmt::Display for RequestBodyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "request body failed: {}", self.0)
    }
}

impl StdError for RequestBodyError {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        Some(&*self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_kinds_map_the_same_for_every_engine() {
        use io::ErrorKind as K;
        assert_eq!(
            io_signal(K::ConnectionRefused, true),
            EngineSignal::ConnectionRefused
        );
        assert_eq!(
            io_signal(K::ConnectionRefused, false),
            EngineSignal::Io(K::ConnectionRefused),
            "refused outside connect proves nothing"
        );
        for k in [K::ConnectionReset, K::ConnectionAborted, K::BrokenPipe] {
            assert_eq!(io_signal(k, false), EngineSignal::ConnectionReset);
        }
        assert_eq!(
            io_signal(K::UnexpectedEof, false),
            EngineSignal::ConnectionClosed
        );
        assert_eq!(io_signal(K::WouldBlock, false), EngineSignal::TimedOut);
        assert_eq!(
            io_signal(K::PermissionDenied, false),
            EngineSignal::Io(K::PermissionDenied)
        );
    }

    #[test]
    fn resolver_messages_tell_no_such_name_from_a_temporary_failure() {
        let gone =
            io::Error::other("failed to lookup address information: Name or service not known");
        assert!(is_name_not_found(&gone));
        let temporary = io::Error::other(
            "failed to lookup address information: Temporary failure in name resolution",
        );
        assert!(!is_name_not_found(&temporary));
    }

    #[test]
    fn the_chain_is_bounded_and_finds_wrapped_body_errors() {
        let body = io::Error::other(RequestBodyError::new(io::Error::from(io::ErrorKind::Other)));
        assert!(find::<RequestBodyError>(&body, no_unwrap).is_some());
        assert!(chain(&body, no_unwrap).count() <= MAX_CHAIN_DEPTH);
    }
}
