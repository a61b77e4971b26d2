//! The hyper engine's classifier: hyper, h2, rustls and I/O errors in, one
//! [`EngineSignal`] out.
//!
//! This module only *translates*. It never decides what a failure proves
//! about execution: that is [`evident_core::classify()`]'s job, from the
//! signal and the attempt's progress. Keeping the translation here, in one
//! function with a table of rules, is what lets the conformance suite compare
//! the hyper engine with the others cell by cell.
//!
//! # Walking the chain
//!
//! Errors arrive nested: a `hyper::Error` wraps a `std::io::Error`, which
//! wraps a `rustls::Error`; an `h2::Error` wraps an `io::Error`. Two links
//! are invisible to [`std::error::Error::source`]:
//!
//! * `io::Error::source()` skips the error it wraps (it returns the *inner
//!   error's* source), so the walk uses [`std::io::Error::get_ref`];
//! * `h2::Error` has no `source()` at all, so the walk uses
//!   [`h2::Error::get_io`].
//!
//! # The rules, most specific first
//!
//! | found in the chain | signal |
//! | --- | --- |
//! | our request body failed | [`EngineSignal::RequestBody`] |
//! | h2: remote `RST_STREAM(REFUSED_STREAM)`, or remote GOAWAY with `REFUSED_STREAM` | [`EngineSignal::Http2RefusedStream`] |
//! | h2: remote GOAWAY error (h2 gives it exactly to streams above the last-stream-id, and to streams it refuses to open after a GOAWAY) | [`EngineSignal::Http2GoAway`]`(`[`GoAwayScope::StreamExcluded`]`)` |
//! | h2: GOAWAY raised by h2 itself (the peer broke the protocol) | [`EngineSignal::Protocol`] |
//! | h2: any other stream reset | [`EngineSignal::Http2StreamReset`] with the reason code |
//! | h2: I/O error on a connection that had received a GOAWAY (the stream was covered by it, else it would have failed with the GOAWAY error) | [`EngineSignal::Http2GoAway`]`(`[`GoAwayScope::StreamCovered`]`)` |
//! | h2: `BrokenPipe` (h2's way of saying the peer closed the connection) | [`EngineSignal::ConnectionClosed`] |
//! | rustls `InvalidCertificate(..)` / `InvalidCertRevocationList(..)` | [`EngineSignal::TlsCertificate`] |
//! | anything else during the TLS handshake (alerts, EOF, resets) | [`EngineSignal::TlsHandshake`] |
//! | rustls error after the handshake | [`EngineSignal::ConnectionReset`] (the session was torn down) |
//! | hyper `is_parse*` | [`EngineSignal::Protocol`] |
//! | hyper `is_incomplete_message` | [`EngineSignal::ConnectionClosed`] |
//! | I/O `ConnectionRefused` during connect | [`EngineSignal::ConnectionRefused`] |
//! | I/O `ConnectionReset` / `ConnectionAborted` / `BrokenPipe` | [`EngineSignal::ConnectionReset`] |
//! | I/O `UnexpectedEof` / `NotConnected` | [`EngineSignal::ConnectionClosed`] |
//! | I/O `TimedOut` | [`EngineSignal::TimedOut`] |
//! | other I/O | [`EngineSignal::Io`] with its kind |
//! | hyper `is_canceled` without the request handed back | [`EngineSignal::ConnectionClosed`] |
//! | anything else | [`EngineSignal::Other`] |
//!
//! A request handed back unsent by hyper (`TrySendError::into_message`) is
//! not visible in the error itself; the engine reports it as
//! [`EngineSignal::CancelledUnsent`] before consulting this classifier.

use std::error::Error as StdError;
use std::io;

use evident_core::classify_helpers;
use evident_core::engine::h2::GoAwayReading;
use evident_core::{EngineSignal, GoAwayScope};

/// Where in the attempt an error was raised: the one site type every
/// engine's classifier takes (shared with the core, so the engines agree on
/// what a site means).
pub use evident_core::engine::ErrorSite;

/// Marks a failing request body (shared with every adapter).
pub use evident_core::classify_helpers::RequestBodyError;

/// Translates an error raised at `site` into a signal.
///
/// ```
/// use std::io;
/// use evident_core::EngineSignal;
/// use evident_hyper::classify::{ErrorSite, classify};
///
/// let refused = io::Error::from(io::ErrorKind::ConnectionRefused);
/// assert_eq!(classify(&refused, ErrorSite::Connect), EngineSignal::ConnectionRefused);
///
/// let eof = io::Error::from(io::ErrorKind::UnexpectedEof);
/// assert_eq!(classify(&eof, ErrorSite::TlsHandshake), EngineSignal::TlsHandshake);
/// assert_eq!(classify(&eof, ErrorSite::EXCHANGE), EngineSignal::ConnectionClosed);
/// ```
pub fn classify(error: &(dyn StdError + 'static), site: ErrorSite) -> EngineSignal {
    if find::<RequestBodyError>(error).is_some() {
        return EngineSignal::RequestBody;
    }
    if let Some(e) = find::<h2::Error>(error) {
        return h2_signal(e, site);
    }
    if let Some(e) = find::<rustls::Error>(error) {
        return tls_signal(e, site);
    }
    if site == ErrorSite::TlsHandshake {
        return EngineSignal::TlsHandshake;
    }
    let hyper_error = find::<hyper::Error>(error);
    if let Some(e) = hyper_error {
        if e.is_parse() || e.is_parse_status() {
            return EngineSignal::Protocol;
        }
        if e.is_incomplete_message() {
            return EngineSignal::ConnectionClosed;
        }
    }
    if let Some(e) = find::<io::Error>(error) {
        return io_signal(e.kind(), site);
    }
    if hyper_error.is_some_and(hyper::Error::is_canceled) {
        return EngineSignal::ConnectionClosed;
    }
    EngineSignal::Other
}

/// An `h2::Error`, read the shared way: this engine drives h2 itself, so a
/// remote GOAWAY's error reaches only the streams it excluded.
fn h2_signal(e: &h2::Error, site: ErrorSite) -> EngineSignal {
    evident_core::engine::h2::h2_signal(e, GoAwayReading::StreamExcluded, |io| {
        h2_io_signal(io, site)
    })
}

/// An I/O error as h2 reports it to a stream.
fn h2_io_signal(io: &io::Error, site: ErrorSite) -> EngineSignal {
    if let Some(tls) = find::<rustls::Error>(io) {
        return tls_signal(tls, site);
    }
    if matches!(
        site,
        ErrorSite::Exchange {
            goaway_received: true,
            ..
        }
    ) {
        // Streams above the last-stream-id failed with the GOAWAY error
        // itself; one that fails later, with an I/O error, was covered.
        return EngineSignal::Http2GoAway(GoAwayScope::StreamCovered);
    }
    match io.kind() {
        // h2 reports the peer's EOF to every open stream as BrokenPipe
        // ("stream closed because of a broken pipe").
        io::ErrorKind::BrokenPipe => EngineSignal::ConnectionClosed,
        kind => io_signal(kind, site),
    }
}

fn tls_signal(e: &rustls::Error, site: ErrorSite) -> EngineSignal {
    evident_core::tls::rustls_signal(e, site.is_tls_handshake())
}

fn io_signal(kind: io::ErrorKind, site: ErrorSite) -> EngineSignal {
    // Not `site.io_signal`: an HTTP/2 stream's BrokenPipe comes wrapped in
    // an `h2::Error` and is read by `h2_io_signal`.
    classify_helpers::io_signal(kind, site.is_connect())
}

/// The first error of type `T` in the chain, h2's hidden I/O errors
/// included.
fn find<'a, T: StdError + 'static>(error: &'a (dyn StdError + 'static)) -> Option<&'a T> {
    evident_core::engine::h2::find(error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt;

    fn io(kind: io::ErrorKind) -> io::Error {
        io::Error::from(kind)
    }

    fn tls_io(e: rustls::Error) -> io::Error {
        // tokio-rustls reports rustls errors this way.
        io::Error::new(io::ErrorKind::InvalidData, e)
    }

    /// A wrapper whose `source()` is the wrapped error, like hyper's.
    #[derive(Debug)]
    struct Outer(Box<dyn StdError + Send + Sync>);
    impl fmt::Display for Outer {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("outer")
        }
    }
    impl StdError for Outer {
        fn source(&self) -> Option<&(dyn StdError + 'static)> {
            Some(&*self.0)
        }
    }

    #[test]
    fn refused_is_connection_refused_only_at_connect() {
        let e = io(io::ErrorKind::ConnectionRefused);
        assert_eq!(
            classify(&e, ErrorSite::Connect),
            EngineSignal::ConnectionRefused
        );
        assert_eq!(
            classify(&e, ErrorSite::EXCHANGE),
            EngineSignal::Io(io::ErrorKind::ConnectionRefused)
        );
    }

    #[test]
    fn reset_broken_pipe_and_aborted_are_connection_reset() {
        for kind in [
            io::ErrorKind::ConnectionReset,
            io::ErrorKind::BrokenPipe,
            io::ErrorKind::ConnectionAborted,
        ] {
            assert_eq!(
                classify(&io(kind), ErrorSite::EXCHANGE),
                EngineSignal::ConnectionReset,
                "{kind:?}"
            );
        }
    }

    #[test]
    fn eof_is_connection_closed_on_an_established_connection() {
        assert_eq!(
            classify(&io(io::ErrorKind::UnexpectedEof), ErrorSite::EXCHANGE),
            EngineSignal::ConnectionClosed
        );
    }

    #[test]
    fn anything_during_the_handshake_is_a_handshake_failure() {
        for kind in [io::ErrorKind::UnexpectedEof, io::ErrorKind::ConnectionReset] {
            assert_eq!(
                classify(&io(kind), ErrorSite::TlsHandshake),
                EngineSignal::TlsHandshake
            );
        }
        let alert = tls_io(rustls::Error::AlertReceived(
            rustls::AlertDescription::HandshakeFailure,
        ));
        assert_eq!(
            classify(&alert, ErrorSite::TlsHandshake),
            EngineSignal::TlsHandshake
        );
    }

    #[test]
    fn a_rejected_certificate_is_found_behind_io_get_ref() {
        let e = tls_io(rustls::Error::InvalidCertificate(
            rustls::CertificateError::UnknownIssuer,
        ));
        // `source()` of this io::Error is None: only `get_ref()` reaches it.
        assert!(e.source().is_none());
        assert_eq!(
            classify(&e, ErrorSite::TlsHandshake),
            EngineSignal::TlsCertificate
        );
        for cert in [
            rustls::CertificateError::BadEncoding,
            rustls::CertificateError::Expired,
            rustls::CertificateError::NotValidForName,
        ] {
            let e = tls_io(rustls::Error::InvalidCertificate(cert));
            assert_eq!(
                classify(&e, ErrorSite::TlsHandshake),
                EngineSignal::TlsCertificate
            );
        }
    }

    #[test]
    fn the_walk_crosses_nested_io_errors_and_sources() {
        let deep = Outer(Box::new(io::Error::other(tls_io(
            rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer),
        ))));
        assert_eq!(
            classify(&deep, ErrorSite::TlsHandshake),
            EngineSignal::TlsCertificate
        );
        let reset = Outer(Box::new(io(io::ErrorKind::ConnectionReset)));
        assert_eq!(
            classify(&reset, ErrorSite::EXCHANGE),
            EngineSignal::ConnectionReset
        );
    }

    #[test]
    fn a_tls_error_after_the_handshake_is_a_torn_down_connection() {
        let e = tls_io(rustls::Error::DecryptError);
        assert_eq!(
            classify(&e, ErrorSite::EXCHANGE),
            EngineSignal::ConnectionReset
        );
    }

    #[test]
    fn a_failing_request_body_wins_over_the_io_error_around_it() {
        let e = Outer(Box::new(RequestBodyError::new(io(
            io::ErrorKind::ConnectionReset,
        ))));
        assert_eq!(classify(&e, ErrorSite::EXCHANGE), EngineSignal::RequestBody);
    }

    #[test]
    fn h2_broken_pipe_is_the_peer_closing_unless_a_goaway_covered_the_stream() {
        // h2::Error has no public constructor for its I/O kind: the
        // integration tests drive this through a real connection.
        let eof = io::Error::new(
            io::ErrorKind::BrokenPipe,
            "stream closed because of a broken pipe",
        );
        assert_eq!(
            h2_io_signal(&eof, ErrorSite::EXCHANGE),
            EngineSignal::ConnectionClosed
        );
        assert_eq!(
            h2_io_signal(
                &eof,
                ErrorSite::Exchange {
                    http2: true,
                    goaway_received: true
                }
            ),
            EngineSignal::Http2GoAway(GoAwayScope::StreamCovered)
        );
        assert_eq!(
            h2_io_signal(&io(io::ErrorKind::ConnectionReset), ErrorSite::EXCHANGE),
            EngineSignal::ConnectionReset
        );
    }

    #[test]
    fn a_bare_h2_reason_is_never_a_proof_of_refusal() {
        // Without an initiator nobody says the peer refused the stream.
        let e = h2::Error::from(h2::Reason::REFUSED_STREAM);
        assert_eq!(
            classify(&e, ErrorSite::EXCHANGE),
            EngineSignal::Http2StreamReset { reason: 7 }
        );
    }

    #[test]
    fn timeouts_and_unknown_kinds_pass_through() {
        assert_eq!(
            classify(&io(io::ErrorKind::TimedOut), ErrorSite::Connect),
            EngineSignal::TimedOut
        );
        assert_eq!(
            classify(&io(io::ErrorKind::AddrNotAvailable), ErrorSite::Connect),
            EngineSignal::Io(io::ErrorKind::AddrNotAvailable)
        );
        assert_eq!(
            classify(&Outer("opaque".into()), ErrorSite::EXCHANGE),
            EngineSignal::Other
        );
    }
}
