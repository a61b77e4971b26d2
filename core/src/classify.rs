//! One classification for every engine.
//!
//! An engine's classifier (one per adapter crate) only *translates*: it walks
//! its engine's error chain and reports an [`EngineSignal`]. This module turns
//! that signal plus the attempt's [`ProgressSnapshot`] into a
//! [`TransportFailure`], with one function, [`classify`], that every engine
//! shares. Parity between engines comes from this split: two engines that
//! report the same signal at the same progress get the same answer.
//!
//! The order of the rules, and why:
//!
//! 1. **A response head received beats everything.** Once a head arrived,
//!    the server acted: every failure, an HTTP/2 `REFUSED_STREAM` or GOAWAY
//!    arriving afterwards included, is
//!    [`ExecutionEvidence::Responded`](crate::ExecutionEvidence::Responded).
//! 2. **Protocol proofs beat bytes written.** HTTP/2 `REFUSED_STREAM`, or a
//!    stream excluded by a GOAWAY, proves the peer did not process the
//!    request, however many bytes were written (RFC 9113 §8.7).
//! 3. **Signals that can only come from a pre-write stage** (name not found,
//!    connection refused, TLS handshake failures) prove "not sent" only when
//!    the progress agrees: its stage is at or before the stage the signal
//!    implies and no write started, or exact counting shows no write ever
//!    started. An engine that cannot count bytes, or reports no stage,
//!    cannot turn a misread signal into a duplicate.
//! 4. **Progress that never left connection set-up** proves "not sent".
//! 5. **Exact write counting showing that no write ever started** (or an
//!    engine handing the request back untouched) proves "not sent". A write
//!    that started — even one still blocked on another thread when the core
//!    gave up — is never "nothing written" (see [`crate::progress`]).
//! 6. **Everything else is ambiguous.** A generic I/O error proves nothing on
//!    its own; unknown progress is treated as "may have been sent".

use std::io::ErrorKind;

use crate::failure::{
    AttemptStage, FailureCategory, NotProcessedProof, NotSentProof, PreWriteStage, TransportFailure,
};
use crate::progress::ProgressSnapshot;

/// The stage reported when an adapter recorded none: the conservative one,
/// "written and waiting", which proves nothing about execution.
pub const UNKNOWN_STAGE_FALLBACK: AttemptStage = AttemptStage::AwaitHead;

/// What an engine's classifier reports about a failed attempt, normalized.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EngineSignal {
    /// The resolver said the host does not exist.
    NameNotFound,
    /// `connect()` was refused.
    ConnectionRefused,
    /// A timer fired (the core's, or the engine's own).
    TimedOut,
    /// The connection was reset or broken (ECONNRESET, EPIPE, ECONNABORTED).
    ConnectionReset,
    /// The peer closed the connection (EOF) before the exchange completed.
    ConnectionClosed,
    /// The TLS handshake rejected the peer's certificate.
    TlsCertificate,
    /// The TLS handshake failed otherwise (alert, peer closed mid-handshake).
    TlsHandshake,
    /// The peer violated HTTP (malformed response, bad framing).
    Protocol,
    /// HTTP/2 `RST_STREAM` or GOAWAY error with `REFUSED_STREAM`.
    Http2RefusedStream,
    /// HTTP/2 GOAWAY affected this stream.
    Http2GoAway(GoAwayScope),
    /// HTTP/2 `RST_STREAM` with a reason other than `REFUSED_STREAM`.
    Http2StreamReset {
        /// The HTTP/2 error code.
        reason: u32,
    },
    /// The engine handed the request back because it was never written to
    /// the connection (e.g. hyper's "connection closed before message
    /// completed" with the request returned).
    CancelledUnsent,
    /// The caller cancelled the call.
    Cancelled,
    /// Producing the request body failed.
    RequestBody,
    /// The response body exceeded the size limit.
    ResponseTooLarge,
    /// An I/O error whose origin is not known more precisely.
    Io(ErrorKind),
    /// Anything else.
    Other,
}

/// How a GOAWAY relates to the failed stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GoAwayScope {
    /// The HTTP/2 implementation failed this stream *because* it is above the
    /// GOAWAY's last-stream-id (h2 reports a remote GOAWAY error exactly for
    /// those streams).
    StreamExcluded,
    /// The GOAWAY's last-stream-id is known; compare it with the stream id in
    /// the progress.
    LastStreamId(u32),
    /// The stream is at or below the last-stream-id: the peer may have
    /// processed it.
    StreamCovered,
    /// A GOAWAY was seen but its relation to this stream is unknown.
    Unknown,
}

/// Turns an engine's signal and the attempt's progress into a
/// [`TransportFailure`]. Allocation-free; the engine's error can be attached
/// afterwards with [`TransportFailure::with_source`].
///
/// ```
/// use evident_core::{classify, AttemptStage, EngineSignal, ExecutionEvidence, Progress};
///
/// let progress = Progress::new();
/// progress.enter(AttemptStage::Connect);
/// let failure = classify(EngineSignal::TimedOut, &progress.snapshot());
/// assert_eq!(failure.evidence(), ExecutionEvidence::NotSent);
///
/// progress.head_written();
/// let failure = classify(EngineSignal::TimedOut, &progress.snapshot());
/// assert_eq!(failure.evidence(), ExecutionEvidence::SentNoResponse);
/// ```
pub fn classify(signal: EngineSignal, progress: &ProgressSnapshot) -> TransportFailure {
    let stage = progress.stage().unwrap_or(UNKNOWN_STAGE_FALLBACK);

    // 1. After a response head, the request was answered: the head is direct
    //    evidence that the server acted, which no later signal can undo.
    if progress.head_received() {
        return TransportFailure::after_response(category(signal, AttemptStage::ReadBody));
    }

    // 2. Protocol proofs of non-processing win over bytes written.
    match signal {
        EngineSignal::Http2RefusedStream => {
            return TransportFailure::not_processed(
                NotProcessedProof::refused_stream(),
                stream_stage(stage),
            );
        }
        EngineSignal::Http2GoAway(scope) => {
            let proof = match scope {
                GoAwayScope::StreamExcluded => Some(NotProcessedProof::excluded_by_goaway()),
                GoAwayScope::LastStreamId(last) => match progress.stream_id() {
                    Some(id) => NotProcessedProof::above_goaway_last_stream_id(id, last),
                    None => None,
                },
                GoAwayScope::StreamCovered | GoAwayScope::Unknown => None,
            };
            if let Some(proof) = proof {
                return TransportFailure::not_processed(proof, stream_stage(stage));
            }
        }
        _ => {}
    }

    // 3. Signals that can only arise before the first request byte, when
    //    the progress agrees.
    if let Some(implied) = implied_pre_write_stage(signal) {
        let category = category(signal, implied.into());
        let stage_agrees = progress
            .stage()
            .is_some_and(|reached| reached <= AttemptStage::from(implied))
            && !progress.write_started();
        return if stage_agrees || progress.proves_nothing_written() {
            TransportFailure::not_sent(
                NotSentProof::failed_before_write(implied),
                implied.into(),
                category,
            )
        } else {
            // The progress does not show the attempt was still before the
            // write: believe the progress, never the signal alone.
            TransportFailure::sent_no_response(stage, category)
        };
    }

    let category = category(signal, stage);

    // 4. The attempt never got past connection set-up; when the core gave
    //    up on it while the engine still ran it (its timeout), only if
    //    sealing it stops its request.
    if progress.still_before_write()
        && (!progress.abandoned() || progress.seal_holds())
        && let Some(pre) = stage.pre_write()
    {
        return TransportFailure::not_sent(NotSentProof::failed_before_write(pre), stage, category);
    }

    // 5. The transport proves nothing was written for this request.
    if let Some(proof) = NotSentProof::nothing_written(progress) {
        return TransportFailure::not_sent(proof, stage, category);
    }
    if signal == EngineSignal::CancelledUnsent && !progress.write_started() {
        return TransportFailure::not_sent(
            NotSentProof::returned_unwritten_by_engine(),
            stage.max(AttemptStage::WriteHead),
            category,
        );
    }

    // 6. Ambiguous.
    TransportFailure::sent_no_response(stage, category)
}

/// A stream-level failure happens once the request's head is on its way.
fn stream_stage(stage: AttemptStage) -> AttemptStage {
    stage.max(AttemptStage::WriteHead)
}

fn implied_pre_write_stage(signal: EngineSignal) -> Option<PreWriteStage> {
    match signal {
        EngineSignal::NameNotFound => Some(PreWriteStage::Resolve),
        EngineSignal::ConnectionRefused => Some(PreWriteStage::Connect),
        EngineSignal::TlsCertificate | EngineSignal::TlsHandshake => Some(PreWriteStage::Tls),
        _ => None,
    }
}

/// The failure category a signal means at a stage.
fn category(signal: EngineSignal, stage: AttemptStage) -> FailureCategory {
    match signal {
        EngineSignal::NameNotFound => FailureCategory::NameNotFound,
        EngineSignal::ConnectionRefused => FailureCategory::ConnectionRefused,
        EngineSignal::TimedOut => timeout_category(stage),
        EngineSignal::ConnectionReset => FailureCategory::ConnectionReset,
        EngineSignal::ConnectionClosed | EngineSignal::CancelledUnsent => {
            FailureCategory::ConnectionClosed
        }
        EngineSignal::TlsCertificate => FailureCategory::TlsCertificate,
        EngineSignal::TlsHandshake => FailureCategory::TlsHandshake,
        EngineSignal::Protocol => FailureCategory::Protocol,
        EngineSignal::Http2RefusedStream => FailureCategory::StreamRefused,
        EngineSignal::Http2GoAway(_) => FailureCategory::GoAway,
        EngineSignal::Http2StreamReset { .. } => FailureCategory::StreamReset,
        EngineSignal::Cancelled => FailureCategory::Cancelled,
        EngineSignal::RequestBody => FailureCategory::RequestBody,
        EngineSignal::ResponseTooLarge => FailureCategory::ResponseTooLarge,
        EngineSignal::Io(kind) => io_category(kind, stage),
        EngineSignal::Other => FailureCategory::Other,
    }
}

fn timeout_category(stage: AttemptStage) -> FailureCategory {
    if stage.pre_write().is_some() {
        FailureCategory::ConnectTimeout
    } else {
        FailureCategory::Timeout
    }
}

fn io_category(kind: ErrorKind, stage: AttemptStage) -> FailureCategory {
    match kind {
        ErrorKind::ConnectionRefused => FailureCategory::ConnectionRefused,
        ErrorKind::ConnectionReset | ErrorKind::ConnectionAborted | ErrorKind::BrokenPipe => {
            FailureCategory::ConnectionReset
        }
        ErrorKind::UnexpectedEof | ErrorKind::NotConnected => FailureCategory::ConnectionClosed,
        ErrorKind::TimedOut | ErrorKind::WouldBlock => timeout_category(stage),
        ErrorKind::InvalidData => FailureCategory::Protocol,
        _ => FailureCategory::Other,
    }
}

#[cfg(test)]
mod tests;
