//! isahc's errors, translated into [`EngineSignal`]s.
//!
//! isahc drops libcurl's error text but keeps the [`curl::Error`] as the
//! source of its own error, so the classifier reads the **curl error code**.
//! The code says *what* failed; *how far* the attempt got comes from the
//! progress (see the crate docs), which the engine advances from whether
//! curl reported a connected address and from the request body reader.
//!
//! | curl code | meaning | signal |
//! | --- | --- | --- |
//! | 6 `COULDNT_RESOLVE_HOST` | (never: the adapter resolves) | `NameNotFound` |
//! | 7 `COULDNT_CONNECT` | the one address curl was given refused | `ConnectionRefused` |
//! | 28 `OPERATION_TIMEDOUT` | curl's transfer timer fired | `TimedOut` |
//! | 35 `SSL_CONNECT_ERROR` | TLS handshake failed | `TlsHandshake` |
//! | 60 `PEER_FAILED_VERIFICATION`, 83 `SSL_ISSUER_ERROR`, 90 `SSL_PINNEDPUBKEYNOTMATCH` | certificate rejected | `TlsCertificate` |
//! | 52 `GOT_NOTHING`, 18 `PARTIAL_FILE` | the peer closed early | `ConnectionClosed` |
//! | 55 `SEND_ERROR`, 56 `RECV_ERROR` | the connection broke | `ConnectionReset` |
//! | 65 `SEND_FAIL_REWIND` | curl wanted to re-send and could not rewind | `ConnectionClosed` |
//! | 1 `UNSUPPORTED_PROTOCOL`, 8 `WEIRD_SERVER_REPLY`, 16 `HTTP2`, 92 `HTTP2_STREAM` | the peer broke HTTP | `Protocol` |
//! | 23 `WRITE_ERROR` | a TLS write of the request failed (curl's rustls backend), or isahc refused a response line | while curl still pulls the request body: `ConnectionReset`; otherwise `Protocol` (see [`classify_transfer`]) |
//! | 26 `READ_ERROR` | the request body failed | `RequestBody`; but once an answer's body is arriving, isahc's own cut of the upload keeps the answer (see below) |
//!
//! isahc 2.0.2 takes the request body away from curl when the answer's
//! body starts to arrive, so a server that answers before reading the
//! whole request makes curl fail the transfer with 26 although the
//! caller's body is fine. The response body tells that case apart (the
//! adapter's reader neither failed nor ended short) and keeps the answer:
//! complete when its declared length arrived, otherwise a connection
//! closed mid-body.
//!
//! A request body failure is recognised first, by the
//! [`RequestBodyError`] marker the
//! engine's body reader wraps its errors in (isahc records the reader's own
//! error, so it is found in the chain before any curl code).

use std::error::Error as StdError;
use std::io;

use evident_core::EngineSignal;
use evident_core::classify_helpers::{self, RequestBodyError, no_unwrap};

/// The signal for an error from isahc, curl or the adapter's own body
/// reader, wherever in the chain it sits (through `io::Error::get_ref`,
/// which `source()` skips).
///
/// ```
/// use evident_core::EngineSignal;
/// use evident_isahc::classify::classify;
///
/// // isahc's response body reports curl's error inside an `io::Error`.
/// let closed = std::io::Error::other(curl::Error::new(52));
/// assert_eq!(classify(&closed), EngineSignal::ConnectionClosed);
/// ```
pub fn classify(error: &(dyn StdError + 'static)) -> EngineSignal {
    if classify_helpers::find::<RequestBodyError>(error, no_unwrap).is_some() {
        return EngineSignal::RequestBody;
    }
    if let Some(curl) = classify_helpers::find::<curl::Error>(error, no_unwrap) {
        return curl_signal(curl);
    }
    if let Some(isahc) = classify_helpers::find::<isahc::Error>(error, no_unwrap) {
        return kind_signal(isahc.kind());
    }
    if let Some(io) = classify_helpers::find::<io::Error>(error, no_unwrap) {
        return classify_helpers::io_signal(io.kind(), false);
    }
    EngineSignal::Other
}

/// The signal for the error of a whole transfer, knowing whether curl was
/// still pulling the request body when it failed.
///
/// curl reports `WRITE_ERROR` (23) for two different failures: its rustls
/// backend returns it when handing request bytes to TLS fails
/// (`rustls_connection_write`), a broken connection while sending; and
/// isahc's header callback returns it when it refuses a response line, a
/// broken answer. The error carries no text to tell them apart. A transfer
/// whose body curl had started but not finished pulling was still sending,
/// and no response line refused by isahc can end it: that is a transport
/// failure while sending (`ConnectionReset`), never a protocol failure
/// that blames the server's answer. Otherwise the answer is the likelier
/// cause, and it stays `Protocol`. Either way the evidence comes from the
/// progress, not from this signal.
///
/// ```
/// use evident_core::EngineSignal;
/// use evident_isahc::classify::classify_transfer;
///
/// let write_error = curl::Error::new(23);
/// assert_eq!(classify_transfer(&write_error, true), EngineSignal::ConnectionReset);
/// assert_eq!(classify_transfer(&write_error, false), EngineSignal::Protocol);
/// ```
pub fn classify_transfer(error: &(dyn StdError + 'static), sending_body: bool) -> EngineSignal {
    let signal = classify(error);
    let write_error = classify_helpers::find::<curl::Error>(error, no_unwrap)
        .is_some_and(curl::Error::is_write_error);
    if write_error && sending_body && signal == EngineSignal::Protocol {
        EngineSignal::ConnectionReset
    } else {
        signal
    }
}

/// The signal for a failure of a transfer that curl reported **before its
/// connected address**, knowing whether the transfer was `https://`.
///
/// curl fills the connected address only once TCP and TLS are both up. A
/// send or receive failure (`SEND_ERROR` 55, `RECV_ERROR` 56, both
/// `ConnectionReset`) needs a connected socket, since a TCP connect that
/// fails is `COULDNT_CONNECT` (7). Such a failure without the address
/// therefore broke the TLS handshake: a server that rejects a client
/// certificate and closes makes curl's rustls backend fail writing its
/// handshake (55) or reading the alert (56) as often as with 35, depending
/// on which side is faster. It is reported as the handshake failure it is,
/// as every engine reports an I/O error during the handshake. Any other
/// signal keeps its meaning.
///
/// ```
/// use evident_core::EngineSignal;
/// use evident_isahc::classify::before_connected;
///
/// assert_eq!(before_connected(EngineSignal::ConnectionReset, true), EngineSignal::TlsHandshake);
/// assert_eq!(before_connected(EngineSignal::ConnectionReset, false), EngineSignal::ConnectionReset);
/// assert_eq!(before_connected(EngineSignal::TimedOut, true), EngineSignal::TimedOut);
/// ```
pub fn before_connected(signal: EngineSignal, tls: bool) -> EngineSignal {
    if tls && signal == EngineSignal::ConnectionReset {
        EngineSignal::TlsHandshake
    } else {
        signal
    }
}

/// The signal for a curl error code.
///
/// ```
/// use evident_core::EngineSignal;
/// use evident_isahc::classify::curl_signal;
///
/// assert_eq!(curl_signal(&curl::Error::new(7)), EngineSignal::ConnectionRefused);
/// assert_eq!(curl_signal(&curl::Error::new(60)), EngineSignal::TlsCertificate);
/// ```
pub fn curl_signal(error: &curl::Error) -> EngineSignal {
    if error.is_couldnt_resolve_host() {
        EngineSignal::NameNotFound
    } else if error.is_couldnt_connect() {
        EngineSignal::ConnectionRefused
    } else if error.is_operation_timedout() {
        EngineSignal::TimedOut
    } else if error.is_ssl_connect_error() {
        EngineSignal::TlsHandshake
    } else if error.is_peer_failed_verification()
        || error.is_ssl_issuer_error()
        || error.code() == CURLE_SSL_PINNEDPUBKEYNOTMATCH
    {
        EngineSignal::TlsCertificate
    } else if error.is_got_nothing() || error.is_partial_file() || error.is_send_fail_rewind() {
        EngineSignal::ConnectionClosed
    } else if error.is_send_error() || error.is_recv_error() {
        EngineSignal::ConnectionReset
    } else if error.is_unsupported_protocol()
        || error.code() == CURLE_WEIRD_SERVER_REPLY
        || error.is_http2_error()
        || error.is_http2_stream_error()
        || error.is_write_error()
    {
        EngineSignal::Protocol
    } else if error.is_read_error() {
        EngineSignal::RequestBody
    } else {
        EngineSignal::Other
    }
}

/// curl's "weird server reply": the response is not HTTP (the curl crate
/// has no predicate for it).
const CURLE_WEIRD_SERVER_REPLY: u32 = 8;

/// curl's "pinned public key does not match" (no predicate either).
const CURLE_SSL_PINNEDPUBKEYNOTMATCH: u32 = 90;

/// The signal when isahc reports an error without a curl code (it built
/// the error itself).
fn kind_signal(kind: &isahc::error::ErrorKind) -> EngineSignal {
    use isahc::error::ErrorKind as K;
    match kind {
        K::Timeout => EngineSignal::TimedOut,
        K::NameResolution => EngineSignal::NameNotFound,
        K::BadServerCertificate => EngineSignal::TlsCertificate,
        K::ProtocolViolation => EngineSignal::Protocol,
        _ => EngineSignal::Other,
    }
}

/// Whether a failure without a connected address may move on to the next
/// address of the host: only failures of connection set-up.
pub(crate) fn is_connect_failure(signal: EngineSignal) -> bool {
    matches!(
        signal,
        EngineSignal::ConnectionRefused | EngineSignal::TlsHandshake | EngineSignal::TlsCertificate
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn curl(code: u32) -> curl::Error {
        curl::Error::new(code)
    }

    #[test]
    fn curl_codes_map_to_the_shared_signals() {
        let cases = [
            (7, EngineSignal::ConnectionRefused),
            (28, EngineSignal::TimedOut),
            (35, EngineSignal::TlsHandshake),
            (60, EngineSignal::TlsCertificate),
            (52, EngineSignal::ConnectionClosed),
            (18, EngineSignal::ConnectionClosed),
            (65, EngineSignal::ConnectionClosed),
            (55, EngineSignal::ConnectionReset),
            (56, EngineSignal::ConnectionReset),
            (1, EngineSignal::Protocol),
            (8, EngineSignal::Protocol),
            (16, EngineSignal::Protocol),
            (92, EngineSignal::Protocol),
            (26, EngineSignal::RequestBody),
            (43, EngineSignal::Other),
        ];
        for (code, signal) in cases {
            assert_eq!(curl_signal(&curl(code)), signal, "curl code {code}");
        }
    }

    #[test]
    fn a_write_error_while_the_body_is_sent_is_a_broken_connection() {
        // Behind an `io::Error`, as isahc's response body reports it.
        let wrapped = io::Error::other(curl(23));
        assert_eq!(
            classify_transfer(&wrapped, true),
            EngineSignal::ConnectionReset
        );
        assert_eq!(classify_transfer(&wrapped, false), EngineSignal::Protocol);
        // Other codes keep their meaning whatever the upload's state.
        assert_eq!(classify_transfer(&curl(8), true), EngineSignal::Protocol);
        assert_eq!(classify_transfer(&curl(28), true), EngineSignal::TimedOut);
    }

    #[test]
    fn a_curl_code_is_found_behind_io_errors() {
        let wrapped = io::Error::other(curl(52));
        assert_eq!(classify(&wrapped), EngineSignal::ConnectionClosed);
    }

    #[test]
    fn a_request_body_failure_wins_over_the_io_error_around_it() {
        let body = io::Error::other(RequestBodyError::new(io::Error::from(
            io::ErrorKind::ConnectionReset,
        )));
        assert_eq!(classify(&body), EngineSignal::RequestBody);
    }

    #[test]
    fn a_bare_io_error_maps_like_every_other_engine() {
        let eof = io::Error::from(io::ErrorKind::UnexpectedEof);
        assert_eq!(classify(&eof), EngineSignal::ConnectionClosed);
    }

    #[test]
    fn only_connection_set_up_failures_move_on_to_the_next_address() {
        assert!(is_connect_failure(EngineSignal::ConnectionRefused));
        assert!(is_connect_failure(EngineSignal::TlsCertificate));
        assert!(!is_connect_failure(EngineSignal::TimedOut));
        assert!(!is_connect_failure(EngineSignal::ConnectionReset));
    }
}
