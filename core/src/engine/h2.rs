//! HTTP/2 error reading shared by the engines built on the `h2` crate
//! (feature `h2`): the chain walk through `h2::Error::get_io` and the
//! translation of an `h2::Error` into a signal.

use std::error::Error as StdError;
use std::io;

use crate::classify::{EngineSignal, GoAwayScope};

/// The walk's extra link for h2: `h2::Error` keeps its I/O error behind
/// `get_io()`, not `source()`. Pass it to [`crate::classify_helpers::chain`] or
/// [`crate::classify_helpers::find`].
pub fn unwrap_h2<'a>(error: &'a (dyn StdError + 'static)) -> Option<&'a (dyn StdError + 'static)> {
    error
        .downcast_ref::<h2::Error>()
        .and_then(h2::Error::get_io)
        .map(|io| io as &(dyn StdError + 'static))
}

/// The first error of type `T` in the chain, h2's hidden I/O errors
/// included.
pub fn find<'a, T: StdError + 'static>(error: &'a (dyn StdError + 'static)) -> Option<&'a T> {
    crate::classify_helpers::find(error, unwrap_h2)
}

/// What a remote GOAWAY's error proves about the stream that got it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum GoAwayReading {
    /// The engine drives h2 itself, so h2 gives a remote GOAWAY's error
    /// only to the streams above its last-stream-id (and to those it
    /// refuses to open after it): the stream was excluded, and a GOAWAY
    /// with `REFUSED_STREAM` refused it.
    StreamExcluded,
    /// Something between the engine and h2 may hand a GOAWAY's error to a
    /// stream it has just opened (hyper's client task does): no proof,
    /// whatever the code.
    StreamUnknown,
}

/// The signal an `h2::Error` means.
///
/// * a remote GOAWAY: as `goaway` reads it;
/// * a GOAWAY raised by h2 itself: [`EngineSignal::Protocol`] (the peer
///   broke the protocol);
/// * a remote `RST_STREAM(REFUSED_STREAM)`: [`EngineSignal::Http2RefusedStream`];
/// * any other reset, or a bare reason nobody is named as having sent:
///   [`EngineSignal::Http2StreamReset`] with the code;
/// * an I/O error: what `io` makes of it (the engine knows its site).
pub fn h2_signal(
    e: &h2::Error,
    goaway: GoAwayReading,
    io: impl FnOnce(&io::Error) -> EngineSignal,
) -> EngineSignal {
    let refused = e.reason() == Some(h2::Reason::REFUSED_STREAM);
    if e.is_go_away() {
        return match (e.is_remote(), goaway, refused) {
            (false, _, _) => EngineSignal::Protocol,
            (true, GoAwayReading::StreamUnknown, _) => {
                EngineSignal::Http2GoAway(GoAwayScope::Unknown)
            }
            (true, GoAwayReading::StreamExcluded, true) => EngineSignal::Http2RefusedStream,
            (true, GoAwayReading::StreamExcluded, false) => {
                EngineSignal::Http2GoAway(GoAwayScope::StreamExcluded)
            }
        };
    }
    if e.is_reset() {
        return if e.is_remote() && refused {
            EngineSignal::Http2RefusedStream
        } else {
            EngineSignal::Http2StreamReset {
                reason: e.reason().map_or(0, u32::from),
            }
        };
    }
    if let Some(error) = e.get_io() {
        return io(error);
    }
    match e.reason() {
        // A bare reason: a stream-level error h2 reports without an
        // initiator. Never a proof of refusal, since nobody says the peer
        // sent it.
        Some(reason) => EngineSignal::Http2StreamReset {
            reason: u32::from(reason),
        },
        None => EngineSignal::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_remote_goaway_is_a_proof_only_when_the_stream_is_known() {
        let goaway = h2::Error::from(h2::Reason::NO_ERROR);
        // A bare reason (no initiator): never a proof.
        assert_eq!(
            h2_signal(&goaway, GoAwayReading::StreamExcluded, |_| {
                EngineSignal::Other
            }),
            EngineSignal::Http2StreamReset { reason: 0 }
        );
        let wrapped = io::Error::other(goaway);
        assert!(find::<h2::Error>(&wrapped).is_some());
    }
}
