//! The reqwest engine's classifier: reqwest, hyper-util, hyper, h2, rustls
//! and I/O errors in, one [`EngineSignal`] out.
//!
//! Like every engine classifier it only *translates*; what a signal proves
//! about execution is decided by [`evident_core::classify()`] from the
//! signal and the attempt's progress.
//!
//! # Walking the chain
//!
//! A failed reqwest call is a `reqwest::Error` whose source is hyper-util's
//! `client::legacy::Error`, whose source is either the connector's error
//! (resolver, TCP, TLS) or a `hyper::Error`, which may wrap an `h2::Error`
//! or an `io::Error`, which may wrap a `rustls::Error`. The walk follows
//! `source()`, `io::Error::get_ref()` (which `source()` skips) and
//! `h2::Error::get_io()` ([`evident_core::classify_helpers::chain`]).
//!
//! # The rules, most specific first
//!
//! | found in the chain | signal |
//! | --- | --- |
//! | our request body failed | [`EngineSignal::RequestBody`] |
//! | our resolver failed | its signal ([`EngineSignal::NameNotFound`] for a name that does not exist) |
//! | h2: remote `RST_STREAM(REFUSED_STREAM)` (a reset names its stream) | [`EngineSignal::Http2RefusedStream`] |
//! | h2: remote GOAWAY error, whatever its code (see below: a proof only with [`goaway_signal`]) | [`EngineSignal::Http2GoAway`]`(`[`GoAwayScope::Unknown`]`)` |
//! | h2: GOAWAY raised by h2 itself | [`EngineSignal::Protocol`] |
//! | h2: any other stream reset | [`EngineSignal::Http2StreamReset`] |
//! | rustls `InvalidCertificate(..)` | [`EngineSignal::TlsCertificate`] |
//! | any other error while connecting, once the TLS handshake started | [`EngineSignal::TlsHandshake`] |
//! | hyper `is_parse*` | [`EngineSignal::Protocol`] |
//! | hyper `is_incomplete_message` | [`EngineSignal::ConnectionClosed`] |
//! | hyper `is_canceled` (hyper 1.12 creates it only when it hands the request back unwritten) | [`EngineSignal::CancelledUnsent`] |
//! | I/O `BrokenPipe` on HTTP/2 (h2's report of the peer's EOF to every open stream) | [`EngineSignal::ConnectionClosed`] |
//! | I/O `ConnectionRefused` while connecting | [`EngineSignal::ConnectionRefused`] |
//! | other I/O | [`evident_core::classify_helpers::io_signal`] |
//! | anything else | [`EngineSignal::Other`] |
//!
//! # What this classifier cannot see
//!
//! Which stream a GOAWAY error belongs to. h2 gives a remote GOAWAY's error
//! to the streams above its last-stream-id and to every stream the caller
//! tries to open after it, and both were not processed. But hyper's HTTP/2
//! client task, right after h2 opened a stream and queued its HEADERS,
//! asks h2 again whether it may open the next one (`ClientTask::poll`,
//! "Check poll_ready() again", `hyper/src/proto/h2/client.rs`); when a
//! GOAWAY arrived in between, it fails the request it has just sent with
//! that GOAWAY's error. Its HEADERS still leave, and the GOAWAY may cover
//! the stream: a server that starts a graceful shutdown with a
//! last-stream-id of 2^31-1 (RFC 9113 §6.8) covers every stream. The
//! conformance lab's reload adversary and nginx's graceful reload both made
//! that request execute while the error claimed a GOAWAY excluded it. The
//! three cases fail with the same error, and reqwest shows neither the
//! stream id nor the frames, so a GOAWAY error is reported with an
//! [`GoAwayScope::Unknown`] scope, which the core reads as the ambiguous
//! `SentNoResponse`, unless hyper had pulled a frame of the request's body:
//! that happens only once the stream was opened and hyper's client task let
//! go of it ([`goaway_signal`]). The same holds for a GOAWAY whose code is
//! `REFUSED_STREAM`: the code is the connection's, and it reaches the
//! same streams. The conformance matrix lists the difference from the
//! engines that see the stream id as a named gap.
//!
//! A stream at or below a GOAWAY's last-stream-id fails later, when the
//! connection closes, with an I/O error: hyper turns an `h2::Error` that
//! carries I/O into a plain I/O error and drops the GOAWAY
//! (`hyper::Error::new_h2`), so the GOAWAY that covered the stream is
//! invisible here. The failure is reported as the closed connection it
//! looks like; the evidence is the same ambiguous `SentNoResponse`.

use std::error::Error as StdError;
use std::io;

use evident_core::classify_helpers::RequestBodyError;
use evident_core::engine::h2::{GoAwayReading, find, h2_signal};
use evident_core::{EngineSignal, GoAwayScope};

use crate::hooks::ResolveError;

/// Where in the attempt an error was raised: the one site type every
/// classifier takes. reqwest's connector reports resolution, TCP connect
/// and TLS handshake alike (hyper-util's `Error::is_connect()`); the
/// engine tells the handshake apart by the stage its hooks recorded.
pub use evident_core::engine::ErrorSite;

/// Translates an error raised at `site` into a signal.
///
/// ```
/// use std::io;
/// use evident_core::EngineSignal;
/// use evident_reqwest::classify::{ErrorSite, classify};
///
/// let refused = io::Error::from(io::ErrorKind::ConnectionRefused);
/// let connecting = ErrorSite::Connect;
/// assert_eq!(classify(&refused, connecting), EngineSignal::ConnectionRefused);
///
/// let eof = io::Error::from(io::ErrorKind::UnexpectedEof);
/// let handshaking = ErrorSite::TlsHandshake;
/// assert_eq!(classify(&eof, handshaking), EngineSignal::TlsHandshake);
/// ```
pub fn classify(error: &(dyn StdError + 'static), site: ErrorSite) -> EngineSignal {
    if find::<RequestBodyError>(error).is_some() {
        return EngineSignal::RequestBody;
    }
    if let Some(e) = find::<ResolveError>(error) {
        return e.signal;
    }
    if let Some(e) = find::<h2::Error>(error) {
        // Not a proof here: hyper may hand a remote GOAWAY's error to a
        // stream it has just opened (see the module docs).
        return h2_signal(e, GoAwayReading::StreamUnknown, |io| {
            site.io_signal(io.kind())
        });
    }
    let connecting = site.is_connect() || site.is_tls_handshake();
    if let Some(e) = find::<rustls::Error>(error) {
        return evident_core::tls::rustls_signal(e, connecting);
    }
    if site.is_tls_handshake() {
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
        if e.is_canceled() {
            return EngineSignal::CancelledUnsent;
        }
    }
    if let Some(e) = find::<io::Error>(error) {
        return site.io_signal(e.kind());
    }
    EngineSignal::Other
}

/// What a GOAWAY error proves once it is known whether hyper pulled a
/// frame of the request body.
///
/// hyper pulls the body only from the stream's own body pipe, which it
/// starts after h2 opened the stream and its client task let go of the
/// request; from then on the request learns its fate from h2's stream
/// alone, and h2 gives an opened stream a remote GOAWAY's error only when
/// the stream is above the GOAWAY's last-stream-id (`Streams::recv_go_away`).
/// So a GOAWAY error on a request whose body was pulled is that proof. A
/// request whose body was never pulled may have been failed inside hyper's
/// client task with the connection's GOAWAY after its stream opened (see
/// the module docs): no proof. A request without a body (its end known at
/// the head) is never pulled, and never proven.
///
/// ```
/// use evident_core::{EngineSignal, GoAwayScope};
/// use evident_reqwest::classify::goaway_signal;
///
/// let unknown = EngineSignal::Http2GoAway(GoAwayScope::Unknown);
/// assert_eq!(goaway_signal(unknown, false), unknown);
/// assert_eq!(
///     goaway_signal(unknown, true),
///     EngineSignal::Http2GoAway(GoAwayScope::StreamExcluded)
/// );
/// ```
pub fn goaway_signal(signal: EngineSignal, body_pulled: bool) -> EngineSignal {
    match signal {
        EngineSignal::Http2GoAway(GoAwayScope::Unknown) if body_pulled => {
            EngineSignal::Http2GoAway(GoAwayScope::StreamExcluded)
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt;

    const CONNECTING: ErrorSite = ErrorSite::Connect;
    const HANDSHAKING: ErrorSite = ErrorSite::TlsHandshake;
    const H1: ErrorSite = ErrorSite::EXCHANGE;
    const H2: ErrorSite = ErrorSite::HTTP2_EXCHANGE;

    /// A wrapper whose `source()` is the wrapped error, like hyper-util's.
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

    fn io(kind: io::ErrorKind) -> io::Error {
        io::Error::from(kind)
    }

    #[test]
    fn refused_means_refused_only_while_connecting_tcp() {
        let e = Outer(Box::new(io(io::ErrorKind::ConnectionRefused)));
        assert_eq!(classify(&e, CONNECTING), EngineSignal::ConnectionRefused);
        assert_eq!(
            classify(&e, H1),
            EngineSignal::Io(io::ErrorKind::ConnectionRefused)
        );
    }

    #[test]
    fn anything_after_the_handshake_started_is_a_handshake_failure_unless_a_certificate() {
        let eof = Outer(Box::new(io(io::ErrorKind::UnexpectedEof)));
        assert_eq!(classify(&eof, HANDSHAKING), EngineSignal::TlsHandshake);
        // hyper-rustls wraps tokio-rustls' io::Error in another io::Error.
        let cert = io::Error::other(io::Error::new(
            io::ErrorKind::InvalidData,
            rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer),
        ));
        assert_eq!(
            classify(&Outer(Box::new(cert)), HANDSHAKING),
            EngineSignal::TlsCertificate
        );
    }

    #[test]
    fn a_resolver_failure_keeps_its_own_signal_behind_the_connect_error() {
        let resolved = Outer(Box::new(ResolveError {
            signal: EngineSignal::NameNotFound,
            source: io(io::ErrorKind::NotFound),
        }));
        assert_eq!(classify(&resolved, CONNECTING), EngineSignal::NameNotFound);
    }

    #[test]
    fn a_broken_pipe_is_a_closed_connection_on_http2_and_a_reset_on_http1() {
        let pipe = Outer(Box::new(io(io::ErrorKind::BrokenPipe)));
        assert_eq!(classify(&pipe, H2), EngineSignal::ConnectionClosed);
        assert_eq!(classify(&pipe, H1), EngineSignal::ConnectionReset);
    }

    #[test]
    fn a_failing_request_body_wins_over_the_io_error_around_it() {
        let e = Outer(Box::new(RequestBodyError::new(io(
            io::ErrorKind::ConnectionReset,
        ))));
        assert_eq!(classify(&e, H1), EngineSignal::RequestBody);
    }

    #[test]
    fn a_bare_h2_reason_is_never_a_proof_of_refusal() {
        let e = Outer(Box::new(h2::Error::from(h2::Reason::REFUSED_STREAM)));
        assert_eq!(
            classify(&e, H2),
            EngineSignal::Http2StreamReset { reason: 7 }
        );
    }

    #[test]
    fn an_opaque_error_is_other() {
        assert_eq!(classify(&Outer("opaque".into()), H1), EngineSignal::Other);
    }
}
