//! The ureq engine's classifier: ureq, rustls and I/O errors in, one
//! [`EngineSignal`] out.
//!
//! This module only *translates*. It never decides what a failure proves
//! about execution: that is [`evident_core::classify()`]'s job, from the
//! signal and the attempt's progress. The rules mirror the hyper adapter's,
//! so that the same fault yields the same signal on both engines.
//!
//! # Walking the chain
//!
//! A `ureq::Error` wraps an `io::Error` ([`ureq::Error::Io`]) or any boxed
//! error ([`ureq::Error::Other`]); a response body reports a `ureq::Error`
//! wrapped in an `io::Error`; rustls reports its own error inside an
//! `io::Error` of kind `InvalidData`. `io::Error::source()` skips the error
//! it wraps, and `ureq::Error` has no `source()` at all, so the walk opens
//! both by hand ([`std::io::Error::get_ref`] and the variants).
//!
//! # Where the error was raised
//!
//! The same I/O error means different things at different places: a refused
//! connection only exists at connect, and an EOF during the TLS handshake is
//! a handshake failure. This engine's own connector knows where it is, so it
//! classifies its failures with an [`ErrorSite`] and hands ureq an error that
//! carries the decided signal; everything ureq raises itself happens on an
//! established connection ([`ErrorSite::Exchange`]).
//!
//! # A reset is not the end of a body
//!
//! ureq's body reader treats `ConnectionReset` and `ConnectionAborted` like
//! EOF: for a close-delimited body (no `content-length`, no chunking) a
//! reset would end the body early *without an error*. The transport hands
//! ureq such read errors wrapped (kind `Other`), so ureq reports them, and
//! this classifier unwraps them to [`EngineSignal::ConnectionReset`].
//!
//! # The rules, most specific first
//!
//! | found in the chain | signal |
//! | --- | --- |
//! | a failure the engine's resolver or connector already classified | that signal |
//! | our request body failed | [`EngineSignal::RequestBody`] |
//! | a reset while reading (hidden from ureq, see below) | [`EngineSignal::ConnectionReset`] |
//! | rustls `InvalidCertificate(..)` / `InvalidCertRevocationList(..)` | [`EngineSignal::TlsCertificate`] |
//! | I/O `TimedOut` / `WouldBlock` (a socket timeout), `ureq::Error::Timeout` | [`EngineSignal::TimedOut`] |
//! | anything else during the TLS handshake (alerts, EOF, resets) | [`EngineSignal::TlsHandshake`] |
//! | rustls error after the handshake | [`EngineSignal::ConnectionReset`] (the session was torn down) |
//! | `ureq::Error::HostNotFound` | [`EngineSignal::NameNotFound`] |
//! | `ureq::Error::Protocol`, `LargeResponseHeader` (malformed or oversized response head) | [`EngineSignal::Protocol`] |
//! | `ureq::Error::BodyExceedsLimit` | [`EngineSignal::ResponseTooLarge`] |
//! | `ureq::Error::Tls` | [`EngineSignal::TlsHandshake`] |
//! | I/O `ConnectionRefused` during connect | [`EngineSignal::ConnectionRefused`] |
//! | I/O `ConnectionReset` / `ConnectionAborted` / `BrokenPipe` | [`EngineSignal::ConnectionReset`] |
//! | I/O `UnexpectedEof` / `NotConnected` (ureq's "peer disconnected") | [`EngineSignal::ConnectionClosed`] |
//! | other I/O | [`EngineSignal::Io`] with its kind |
//! | anything else (bad URI, redirect or proxy errors, which this engine's configuration rules out) | [`EngineSignal::Other`] |

use std::error::Error as StdError;
use std::fmt;
use std::io;

use evident_core::classify_helpers;
use evident_core::{BoxError, EngineSignal};

/// Where in the attempt an error was raised: the one site type every
/// engine's classifier takes (shared with the core).
pub use evident_core::engine::ErrorSite;

/// Translates a ureq error into a signal. Errors raised by this engine's
/// resolver and connector carry the signal they were classified with.
///
/// ```
/// use std::io;
/// use evident_core::EngineSignal;
/// use evident_ureq::classify::classify;
///
/// let eof = ureq::Error::Io(io::Error::from(io::ErrorKind::UnexpectedEof));
/// assert_eq!(classify(&eof), EngineSignal::ConnectionClosed);
/// let timeout = ureq::Error::Timeout(ureq::Timeout::RecvResponse);
/// assert_eq!(classify(&timeout), EngineSignal::TimedOut);
/// ```
pub fn classify(error: &ureq::Error) -> EngineSignal {
    classify_at(error, ErrorSite::EXCHANGE)
}

/// Translates an error raised at `site` into a signal. The error may be a
/// `ureq::Error`, an `io::Error`, a `rustls::Error` or anything wrapping
/// them.
///
/// ```
/// use std::io;
/// use evident_core::EngineSignal;
/// use evident_ureq::classify::{ErrorSite, classify_at};
///
/// let refused = io::Error::from(io::ErrorKind::ConnectionRefused);
/// assert_eq!(classify_at(&refused, ErrorSite::Connect), EngineSignal::ConnectionRefused);
/// let eof = io::Error::from(io::ErrorKind::UnexpectedEof);
/// assert_eq!(classify_at(&eof, ErrorSite::TlsHandshake), EngineSignal::TlsHandshake);
/// assert_eq!(classify_at(&eof, ErrorSite::EXCHANGE), EngineSignal::ConnectionClosed);
/// ```
pub fn classify_at(error: &(dyn StdError + 'static), site: ErrorSite) -> EngineSignal {
    if let Some(e) = find::<Classified>(error) {
        return e.signal;
    }
    if find::<RequestBodyError>(error).is_some() {
        return EngineSignal::RequestBody;
    }
    if find::<PeerReset>(error).is_some() {
        return EngineSignal::ConnectionReset;
    }
    let tls = find::<rustls::Error>(error)
        .map(|e| evident_core::tls::rustls_signal(e, site == ErrorSite::TlsHandshake));
    if tls == Some(EngineSignal::TlsCertificate) {
        return EngineSignal::TlsCertificate;
    }
    if is_timeout(error) {
        return EngineSignal::TimedOut;
    }
    if site == ErrorSite::TlsHandshake {
        return EngineSignal::TlsHandshake;
    }
    if let Some(signal) = tls {
        return signal;
    }
    if let Some(signal) = find::<ureq::Error>(error).and_then(ureq_signal) {
        return signal;
    }
    if let Some(e) = find::<io::Error>(error) {
        return io_signal(e.kind(), site);
    }
    EngineSignal::Other
}

/// The signal a ureq error variant means by itself, if it does.
fn ureq_signal(e: &ureq::Error) -> Option<EngineSignal> {
    use ureq::Error as U;
    Some(match e {
        U::HostNotFound => EngineSignal::NameNotFound,
        U::Protocol(_) | U::LargeResponseHeader(..) => EngineSignal::Protocol,
        U::BodyExceedsLimit(_) => EngineSignal::ResponseTooLarge,
        U::Tls(_) => EngineSignal::TlsHandshake,
        // Wrappers: the walk goes on inside them.
        U::Io(_) | U::Other(_) => return None,
        _ => EngineSignal::Other,
    })
}

fn is_timeout(error: &(dyn StdError + 'static)) -> bool {
    chain(error).any(|e| {
        matches!(
            e.downcast_ref::<ureq::Error>(),
            Some(ureq::Error::Timeout(_))
        ) || e.downcast_ref::<io::Error>().is_some_and(|io| {
            matches!(
                io.kind(),
                io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock
            )
        })
    })
}

fn io_signal(kind: io::ErrorKind, site: ErrorSite) -> EngineSignal {
    classify_helpers::io_signal(kind, site == ErrorSite::Connect)
}

/// A failure this engine's resolver or connector already classified (with
/// the site it knew), handed to ureq as `ureq::Error::Other` so the signal
/// survives the trip through ureq.
#[derive(Debug)]
pub(crate) struct Classified {
    signal: EngineSignal,
    source: BoxError,
}

impl Classified {
    pub(crate) fn new(signal: EngineSignal, source: impl Into<BoxError>) -> Self {
        Classified {
            signal,
            source: source.into(),
        }
    }

    /// As the error a ureq connector or resolver returns.
    pub(crate) fn into_ureq(self) -> ureq::Error {
        ureq::Error::Other(Box::new(self))
    }
}

impl fmt::Display for Classified {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}: {}", self.signal, self.source)
    }
}

impl StdError for Classified {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        Some(&*self.source)
    }
}

/// Producing the request body failed (the marker every adapter shares).
pub(crate) use evident_core::classify_helpers::RequestBodyError;

/// Wraps a body reader's error in an `io::Error` ureq passes through.
pub(crate) fn request_body_error(error: io::Error) -> io::Error {
    io::Error::other(RequestBodyError::new(error))
}

/// The peer reset the connection while ureq was reading. The transport
/// hides the reset's `ErrorKind` from ureq in this type: ureq's body reader
/// takes a reset for the end of a close-delimited body and would return a
/// truncated body as complete.
#[derive(Debug)]
pub(crate) struct PeerReset(io::Error);

impl PeerReset {
    /// Wraps a reset in an `io::Error` of kind `Other`.
    pub(crate) fn wrap(error: io::Error) -> io::Error {
        io::Error::other(PeerReset(error))
    }
}

impl fmt::Display for PeerReset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "connection reset by peer: {}", self.0)
    }
}

impl StdError for PeerReset {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        Some(&self.0)
    }
}

/// The first error of type `T` in the chain, inside ureq's errors too.
fn find<'a, T: StdError + 'static>(error: &'a (dyn StdError + 'static)) -> Option<&'a T> {
    classify_helpers::find(error, unwrap_ureq)
}

/// The chain, inside ureq's errors too.
fn chain<'a>(
    error: &'a (dyn StdError + 'static),
) -> impl Iterator<Item = &'a (dyn StdError + 'static)> {
    classify_helpers::chain(error, unwrap_ureq)
}

/// `ureq::Error` implements `Error` without `source()`.
fn unwrap_ureq<'a>(error: &'a (dyn StdError + 'static)) -> Option<&'a (dyn StdError + 'static)> {
    match error.downcast_ref::<ureq::Error>()? {
        ureq::Error::Io(io) => Some(io),
        ureq::Error::Other(other) => Some(&**other),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn io(kind: io::ErrorKind) -> io::Error {
        io::Error::from(kind)
    }

    fn exchange(e: ureq::Error) -> EngineSignal {
        classify(&e)
    }

    fn tls_io(e: rustls::Error) -> io::Error {
        // rustls' `complete_io` and `StreamOwned` report rustls errors this way.
        io::Error::new(io::ErrorKind::InvalidData, e)
    }

    #[test]
    fn refused_is_connection_refused_only_at_connect() {
        let e = io(io::ErrorKind::ConnectionRefused);
        assert_eq!(
            classify_at(&e, ErrorSite::Connect),
            EngineSignal::ConnectionRefused
        );
        assert_eq!(
            exchange(ureq::Error::Io(e)),
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
                exchange(ureq::Error::Io(io(kind))),
                EngineSignal::ConnectionReset,
                "{kind:?}"
            );
        }
    }

    #[test]
    fn ureqs_peer_disconnected_is_connection_closed() {
        // What ureq raises when the response head (or a length-delimited
        // body) ends early: `Error::disconnected`, an `UnexpectedEof`.
        let e = ureq::Error::Io(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "Peer disconnected",
        ));
        assert_eq!(exchange(e), EngineSignal::ConnectionClosed);
    }

    #[test]
    fn every_timeout_is_timed_out_whatever_stage_ureq_names() {
        for t in [
            ureq::Timeout::Global,
            ureq::Timeout::Connect,
            ureq::Timeout::SendRequest,
            ureq::Timeout::RecvResponse,
            ureq::Timeout::RecvBody,
        ] {
            assert_eq!(exchange(ureq::Error::Timeout(t)), EngineSignal::TimedOut);
        }
        for kind in [io::ErrorKind::TimedOut, io::ErrorKind::WouldBlock] {
            assert_eq!(exchange(ureq::Error::Io(io(kind))), EngineSignal::TimedOut);
            // A timeout during the handshake is a timeout, not a handshake failure.
            assert_eq!(
                classify_at(&io(kind), ErrorSite::TlsHandshake),
                EngineSignal::TimedOut
            );
        }
    }

    #[test]
    fn a_body_read_error_carrying_a_ureq_timeout_is_timed_out() {
        // A response body reports ureq errors wrapped in an io::Error.
        let e = io::Error::other(ureq::Error::Timeout(ureq::Timeout::RecvBody));
        assert_eq!(classify_at(&e, ErrorSite::EXCHANGE), EngineSignal::TimedOut);
    }

    #[test]
    fn anything_during_the_handshake_is_a_handshake_failure() {
        for kind in [io::ErrorKind::UnexpectedEof, io::ErrorKind::ConnectionReset] {
            assert_eq!(
                classify_at(&io(kind), ErrorSite::TlsHandshake),
                EngineSignal::TlsHandshake
            );
        }
        let alert = tls_io(rustls::Error::AlertReceived(
            rustls::AlertDescription::HandshakeFailure,
        ));
        assert_eq!(
            classify_at(&alert, ErrorSite::TlsHandshake),
            EngineSignal::TlsHandshake
        );
    }

    #[test]
    fn a_rejected_certificate_is_found_behind_io_get_ref() {
        for cert in [
            rustls::CertificateError::UnknownIssuer,
            rustls::CertificateError::BadEncoding,
            rustls::CertificateError::Expired,
            rustls::CertificateError::NotValidForName,
        ] {
            let e = tls_io(rustls::Error::InvalidCertificate(cert));
            // `source()` of this io::Error is None: only `get_ref()` reaches it.
            assert!(e.source().is_none());
            assert_eq!(
                classify_at(&e, ErrorSite::TlsHandshake),
                EngineSignal::TlsCertificate
            );
        }
    }

    #[test]
    fn a_tls_error_after_the_handshake_is_a_torn_down_connection() {
        let e = ureq::Error::Io(tls_io(rustls::Error::DecryptError));
        assert_eq!(exchange(e), EngineSignal::ConnectionReset);
    }

    #[test]
    fn a_classified_connect_failure_keeps_its_signal_through_ureq() {
        let e = Classified::new(
            EngineSignal::TlsCertificate,
            tls_io(rustls::Error::InvalidCertificate(
                rustls::CertificateError::UnknownIssuer,
            )),
        )
        .into_ureq();
        assert_eq!(exchange(e), EngineSignal::TlsCertificate);
        let e =
            Classified::new(EngineSignal::ConnectionRefused, io(io::ErrorKind::Other)).into_ureq();
        assert_eq!(exchange(e), EngineSignal::ConnectionRefused);
    }

    #[test]
    fn a_failing_request_body_wins_over_the_io_error_around_it() {
        let e = ureq::Error::Io(request_body_error(io(io::ErrorKind::ConnectionReset)));
        assert_eq!(exchange(e), EngineSignal::RequestBody);
        // Also when ureq's `From<io::Error>` has seen it.
        let e = ureq::Error::from(request_body_error(io(io::ErrorKind::TimedOut)));
        assert_eq!(exchange(e), EngineSignal::RequestBody);
    }

    #[test]
    fn a_reset_hidden_from_ureq_is_still_a_reset() {
        let e = ureq::Error::Io(PeerReset::wrap(io(io::ErrorKind::ConnectionReset)));
        assert_eq!(exchange(e), EngineSignal::ConnectionReset);
        // As a body read reports it: `into_io` unpacks `Error::Io`.
        let e = PeerReset::wrap(io(io::ErrorKind::ConnectionAborted));
        assert_eq!(
            classify_at(&e, ErrorSite::EXCHANGE),
            EngineSignal::ConnectionReset
        );
    }

    #[test]
    fn ureq_variants_map_to_their_signals() {
        assert_eq!(
            exchange(ureq::Error::HostNotFound),
            EngineSignal::NameNotFound
        );
        assert_eq!(
            exchange(ureq::Error::LargeResponseHeader(70_000, 65_536)),
            EngineSignal::Protocol
        );
        assert_eq!(
            exchange(ureq::Error::BodyExceedsLimit(10)),
            EngineSignal::ResponseTooLarge
        );
        assert_eq!(
            exchange(ureq::Error::Tls("bad")),
            EngineSignal::TlsHandshake
        );
        assert_eq!(exchange(ureq::Error::TooManyRedirects), EngineSignal::Other);
        assert_eq!(exchange(ureq::Error::ConnectionFailed), EngineSignal::Other);
        assert_eq!(
            exchange(ureq::Error::Io(io(io::ErrorKind::PermissionDenied))),
            EngineSignal::Io(io::ErrorKind::PermissionDenied)
        );
    }

    #[test]
    fn a_malformed_response_is_protocol() {
        // Provoke a real ureq-proto parse error rather than naming a variant.
        let response = ureq_proto_parse_error();
        assert_eq!(exchange(response), EngineSignal::Protocol);
    }

    /// A `ureq::Error::Protocol` as ureq raises it for a garbage status line.
    fn ureq_proto_parse_error() -> ureq::Error {
        use ureq::unversioned::transport::{
            Buffers, ConnectionDetails, Connector, LazyBuffers, NextTimeout, Transport,
        };

        #[derive(Debug)]
        struct Garbage(LazyBuffers, bool);
        impl Transport for Garbage {
            fn buffers(&mut self) -> &mut dyn Buffers {
                &mut self.0
            }
            fn transmit_output(&mut self, _: usize, _: NextTimeout) -> Result<(), ureq::Error> {
                Ok(())
            }
            fn await_input(&mut self, _: NextTimeout) -> Result<bool, ureq::Error> {
                if std::mem::replace(&mut self.1, true) {
                    return Ok(false);
                }
                let reply = b"HTTP/1.1 abc nonsense\r\n\r\n";
                self.0.input_append_buf()[..reply.len()].copy_from_slice(reply);
                self.0.input_appended(reply.len());
                Ok(true)
            }
            fn is_open(&mut self) -> bool {
                false
            }
        }
        #[derive(Debug)]
        struct GarbageConnector;
        impl Connector for GarbageConnector {
            type Out = Garbage;
            fn connect(
                &self,
                _: &ConnectionDetails<'_>,
                _: Option<()>,
            ) -> Result<Option<Garbage>, ureq::Error> {
                Ok(Some(Garbage(LazyBuffers::new(1024, 1024), false)))
            }
        }
        #[derive(Debug)]
        struct Local;
        impl ureq::unversioned::resolver::Resolver for Local {
            fn resolve(
                &self,
                _: &http::Uri,
                _: &ureq::config::Config,
                _: NextTimeout,
            ) -> Result<ureq::unversioned::resolver::ResolvedSocketAddrs, ureq::Error> {
                let mut addrs = self.empty();
                addrs.push(([127, 0, 0, 1], 9).into());
                Ok(addrs)
            }
        }
        let config = ureq::config::Config::builder().proxy(None).build();
        let agent = ureq::Agent::with_parts(config, GarbageConnector, Local);
        let request = http::Request::get("http://127.0.0.1:9/").body(()).unwrap();
        agent.run(request).unwrap_err()
    }
}
