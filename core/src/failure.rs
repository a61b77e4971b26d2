//! The failure vocabulary: how far an attempt got, what went wrong, and what
//! that proves about whether the server could have acted.
//!
//! The central type is [`TransportFailure`]. Its constructors carry their
//! proof, so the one claim that must never be guessed — "this request was not
//! sent" — can only be built from a [`NotSentProof`], and "the peer did not
//! process it" only from a [`NotProcessedProof`]. Everything else is
//! ambiguous ([`ExecutionEvidence::SentNoResponse`]) or happened after a
//! response head ([`ExecutionEvidence::Responded`]).
//!
//! ```compile_fail
//! use evident_core::{AttemptStage, FailureCategory, TransportFailure};
//! // An unproven "not sent" does not compile: `not_sent` wants a proof, not a stage.
//! let f = TransportFailure::not_sent(AttemptStage::WriteHead, FailureCategory::ConnectionReset);
//! ```
//!
//! ```compile_fail
//! use evident_core::{NotSentProof, PreWriteStage};
//! // There is no pre-write stage called `WriteHead`.
//! let p = NotSentProof::failed_before_write(PreWriteStage::WriteHead);
//! ```
//!
//! ```compile_fail
//! use evident_core::NotSentProof;
//! // The proof's representation is private: it cannot be built by hand.
//! let p = NotSentProof { kind: todo!() };
//! ```

use std::error::Error as StdError;
use std::fmt;

use crate::progress::ProgressSnapshot;

/// Where an attempt was when it failed. Stages are ordered: a later stage
/// means the attempt got further.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AttemptStage {
    /// Resolving the host name to addresses.
    Resolve,
    /// Establishing the TCP connection.
    Connect,
    /// Performing the TLS handshake.
    Tls,
    /// Writing the request head (request line or HEADERS frame).
    WriteHead,
    /// Writing the request body.
    WriteBody,
    /// The request is written; waiting for the response head.
    AwaitHead,
    /// The response head arrived; reading the body.
    ReadBody,
}

impl AttemptStage {
    /// Every stage, in order.
    pub const ALL: [AttemptStage; 7] = [
        AttemptStage::Resolve,
        AttemptStage::Connect,
        AttemptStage::Tls,
        AttemptStage::WriteHead,
        AttemptStage::WriteBody,
        AttemptStage::AwaitHead,
        AttemptStage::ReadBody,
    ];

    /// The stage's stable name, as used in observation (`evident.stage`).
    pub const fn as_str(self) -> &'static str {
        match self {
            AttemptStage::Resolve => "resolve",
            AttemptStage::Connect => "connect",
            AttemptStage::Tls => "tls",
            AttemptStage::WriteHead => "write_head",
            AttemptStage::WriteBody => "write_body",
            AttemptStage::AwaitHead => "await_head",
            AttemptStage::ReadBody => "read_body",
        }
    }

    /// The pre-write stage this is, if it is one.
    pub const fn pre_write(self) -> Option<PreWriteStage> {
        match self {
            AttemptStage::Resolve => Some(PreWriteStage::Resolve),
            AttemptStage::Connect => Some(PreWriteStage::Connect),
            AttemptStage::Tls => Some(PreWriteStage::Tls),
            _ => None,
        }
    }

    pub(crate) const fn index(self) -> u8 {
        self as u8
    }

    pub(crate) const fn from_index(i: u8) -> Option<AttemptStage> {
        match i {
            0 => Some(AttemptStage::Resolve),
            1 => Some(AttemptStage::Connect),
            2 => Some(AttemptStage::Tls),
            3 => Some(AttemptStage::WriteHead),
            4 => Some(AttemptStage::WriteBody),
            5 => Some(AttemptStage::AwaitHead),
            6 => Some(AttemptStage::ReadBody),
            _ => None,
        }
    }
}

impl fmt::Display for AttemptStage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A stage in which no request byte can have been written: a failure here
/// proves the request was not sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PreWriteStage {
    /// Name resolution.
    Resolve,
    /// TCP connect.
    Connect,
    /// TLS handshake (application data cannot flow before it completes;
    /// evident never enables TLS early data).
    Tls,
}

impl From<PreWriteStage> for AttemptStage {
    fn from(s: PreWriteStage) -> Self {
        match s {
            PreWriteStage::Resolve => AttemptStage::Resolve,
            PreWriteStage::Connect => AttemptStage::Connect,
            PreWriteStage::Tls => AttemptStage::Tls,
        }
    }
}

/// What went wrong, independent of the stage.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FailureCategory {
    /// The host name does not exist. Permanent.
    NameNotFound,
    /// The peer refused the connection.
    ConnectionRefused,
    /// Establishing the connection (resolve, connect or TLS) timed out.
    ConnectTimeout,
    /// The peer's certificate was rejected. Permanent.
    TlsCertificate,
    /// The TLS handshake failed for another reason (e.g. the peer closed).
    TlsHandshake,
    /// The connection was reset.
    ConnectionReset,
    /// The connection was closed (EOF) before the exchange completed.
    ConnectionClosed,
    /// The attempt timed out after the connection was established.
    Timeout,
    /// HTTP/2 `REFUSED_STREAM`.
    StreamRefused,
    /// HTTP/2 GOAWAY.
    GoAway,
    /// An HTTP/2 stream reset with a reason other than `REFUSED_STREAM`.
    StreamReset,
    /// The peer violated the protocol (malformed response). Permanent.
    Protocol,
    /// Producing the request body failed. Permanent.
    RequestBody,
    /// The response body exceeded the configured size limit. Permanent.
    ResponseTooLarge,
    /// The caller cancelled the call. Permanent.
    Cancelled,
    /// Anything else.
    Other,
}

impl FailureCategory {
    /// Every category.
    pub const ALL: [FailureCategory; 16] = [
        FailureCategory::NameNotFound,
        FailureCategory::ConnectionRefused,
        FailureCategory::ConnectTimeout,
        FailureCategory::TlsCertificate,
        FailureCategory::TlsHandshake,
        FailureCategory::ConnectionReset,
        FailureCategory::ConnectionClosed,
        FailureCategory::Timeout,
        FailureCategory::StreamRefused,
        FailureCategory::GoAway,
        FailureCategory::StreamReset,
        FailureCategory::Protocol,
        FailureCategory::RequestBody,
        FailureCategory::ResponseTooLarge,
        FailureCategory::Cancelled,
        FailureCategory::Other,
    ];

    /// Whether repeating the request cannot help.
    pub const fn is_permanent(self) -> bool {
        matches!(
            self,
            FailureCategory::NameNotFound
                | FailureCategory::TlsCertificate
                | FailureCategory::Protocol
                | FailureCategory::RequestBody
                | FailureCategory::ResponseTooLarge
                | FailureCategory::Cancelled
        )
    }

    /// The category's stable name, used as OpenTelemetry `error.type`.
    pub const fn as_str(self) -> &'static str {
        match self {
            FailureCategory::NameNotFound => "name_not_found",
            FailureCategory::ConnectionRefused => "connection_refused",
            FailureCategory::ConnectTimeout => "connect_timeout",
            FailureCategory::TlsCertificate => "tls_certificate",
            FailureCategory::TlsHandshake => "tls_handshake",
            FailureCategory::ConnectionReset => "connection_reset",
            FailureCategory::ConnectionClosed => "connection_closed",
            FailureCategory::Timeout => "timeout",
            FailureCategory::StreamRefused => "stream_refused",
            FailureCategory::GoAway => "goaway",
            FailureCategory::StreamReset => "stream_reset",
            FailureCategory::Protocol => "protocol",
            FailureCategory::RequestBody => "request_body",
            FailureCategory::ResponseTooLarge => "response_too_large",
            FailureCategory::Cancelled => "cancelled",
            FailureCategory::Other => "other",
        }
    }
}

impl fmt::Display for FailureCategory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What an attempt's failure proves about whether the server could have
/// acted on the request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ExecutionEvidence {
    /// No request byte reached the peer, proven by the stage or the transport.
    NotSent,
    /// Bytes may have been sent, but the protocol proves the peer did not
    /// process the request (HTTP/2 `REFUSED_STREAM`, or a stream above a
    /// GOAWAY's last-stream-id).
    NotProcessed,
    /// The request may have reached the peer and no response head arrived.
    /// Ambiguous.
    SentNoResponse,
    /// A response head arrived; the failure came later.
    Responded,
}

impl ExecutionEvidence {
    /// All four values.
    pub const ALL: [ExecutionEvidence; 4] = [
        ExecutionEvidence::NotSent,
        ExecutionEvidence::NotProcessed,
        ExecutionEvidence::SentNoResponse,
        ExecutionEvidence::Responded,
    ];

    /// Whether the evidence proves the server did not act, so a retry is
    /// safe whatever the idempotency.
    pub const fn proves_not_executed(self) -> bool {
        matches!(
            self,
            ExecutionEvidence::NotSent | ExecutionEvidence::NotProcessed
        )
    }

    /// The stable name used in observation (`evident.evidence`).
    pub const fn as_str(self) -> &'static str {
        match self {
            ExecutionEvidence::NotSent => "not_sent",
            ExecutionEvidence::NotProcessed => "not_processed",
            ExecutionEvidence::SentNoResponse => "sent_no_response",
            ExecutionEvidence::Responded => "responded",
        }
    }
}

impl fmt::Display for ExecutionEvidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Proof that no request byte reached the peer.
///
/// It can only be obtained from a pre-write stage, or from exact progress
/// showing that nothing was written for this request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotSentProof {
    kind: NotSentKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NotSentKind {
    Stage(PreWriteStage),
    NothingWritten,
}

impl NotSentProof {
    /// The attempt failed in a stage that precedes any request byte.
    pub const fn failed_before_write(stage: PreWriteStage) -> Self {
        NotSentProof {
            kind: NotSentKind::Stage(stage),
        }
    }

    /// Nothing was written for this request on its connection.
    ///
    /// Returns a proof only when the progress was counted exactly by the
    /// engine's transport and shows that no write for this request ever
    /// started (so none can still be under way on another thread): zero
    /// bytes, no head written, no write begun. Progress without exact write
    /// counting proves nothing.
    ///
    /// ```
    /// use evident_core::{NotSentProof, Progress};
    ///
    /// let progress = Progress::new();
    /// progress.counts_writes_exactly();
    /// assert!(NotSentProof::nothing_written(&progress.snapshot()).is_some());
    /// progress.start_write().unwrap();
    /// assert!(NotSentProof::nothing_written(&progress.snapshot()).is_none());
    /// ```
    pub const fn nothing_written(progress: &ProgressSnapshot) -> Option<Self> {
        if progress.proves_nothing_written() {
            Some(NotSentProof {
                kind: NotSentKind::NothingWritten,
            })
        } else {
            None
        }
    }

    /// The engine handed the request back because it never wrote it to the
    /// connection (hyper's dispatcher returns a request it did not start to
    /// write when the pooled connection turned out to be closed).
    ///
    /// Only an adapter whose engine makes that guarantee may use this; the
    /// classification still refuses it when the progress shows a write.
    pub const fn returned_unwritten_by_engine() -> Self {
        NotSentProof {
            kind: NotSentKind::NothingWritten,
        }
    }

    /// The pre-write stage named by the proof, if it is a stage proof.
    pub const fn stage(&self) -> Option<PreWriteStage> {
        match self.kind {
            NotSentKind::Stage(s) => Some(s),
            NotSentKind::NothingWritten => None,
        }
    }
}

/// Proof from the HTTP/2 protocol that the peer did not process a stream
/// (RFC 9113 §8.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotProcessedProof {
    kind: NotProcessedKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NotProcessedKind {
    RefusedStream,
    AboveGoAwayLastStreamId,
}

impl NotProcessedProof {
    /// The peer reset the stream with `REFUSED_STREAM`.
    pub const fn refused_stream() -> Self {
        NotProcessedProof {
            kind: NotProcessedKind::RefusedStream,
        }
    }

    /// The stream id is above the last-stream-id of a GOAWAY the peer sent.
    /// Returns `None` when it is not (the stream stays ambiguous).
    pub const fn above_goaway_last_stream_id(stream_id: u32, last_stream_id: u32) -> Option<Self> {
        if stream_id > last_stream_id {
            Some(NotProcessedProof {
                kind: NotProcessedKind::AboveGoAwayLastStreamId,
            })
        } else {
            None
        }
    }

    /// The HTTP/2 implementation itself reported that this stream was
    /// excluded by a GOAWAY (h2 fails exactly the streams above the
    /// last-stream-id with a remote GOAWAY error).
    pub const fn excluded_by_goaway() -> Self {
        NotProcessedProof {
            kind: NotProcessedKind::AboveGoAwayLastStreamId,
        }
    }

    const fn category(self) -> FailureCategory {
        match self.kind {
            NotProcessedKind::RefusedStream => FailureCategory::StreamRefused,
            NotProcessedKind::AboveGoAwayLastStreamId => FailureCategory::GoAway,
        }
    }
}

/// A boxed engine error, kept as the source of a [`TransportFailure`].
pub type BoxError = Box<dyn StdError + Send + Sync + 'static>;

/// A failed attempt: stage, category, evidence and the engine's error.
///
/// Build it through the constructor that matches what is known; each one
/// carries its proof. The classification in [`crate::classify()`] does this for
/// every engine.
pub struct TransportFailure {
    stage: AttemptStage,
    category: FailureCategory,
    evidence: ExecutionEvidence,
    source: Option<BoxError>,
}

impl TransportFailure {
    /// The request was not sent, as `proof` shows. `stage` is where the
    /// attempt was; a stage proof overrides it with the proven stage.
    pub const fn not_sent(
        proof: NotSentProof,
        stage: AttemptStage,
        category: FailureCategory,
    ) -> Self {
        let stage = match proof.kind {
            NotSentKind::Stage(s) => match s {
                PreWriteStage::Resolve => AttemptStage::Resolve,
                PreWriteStage::Connect => AttemptStage::Connect,
                PreWriteStage::Tls => AttemptStage::Tls,
            },
            NotSentKind::NothingWritten => stage,
        };
        TransportFailure {
            stage,
            category,
            evidence: ExecutionEvidence::NotSent,
            source: None,
        }
    }

    /// The protocol proves the peer did not process the request. The
    /// category follows from the proof (`StreamRefused` or `GoAway`).
    pub const fn not_processed(proof: NotProcessedProof, stage: AttemptStage) -> Self {
        TransportFailure {
            stage,
            category: proof.category(),
            evidence: ExecutionEvidence::NotProcessed,
            source: None,
        }
    }

    /// The request may have reached the peer and no response head arrived.
    pub const fn sent_no_response(stage: AttemptStage, category: FailureCategory) -> Self {
        TransportFailure {
            stage,
            category,
            evidence: ExecutionEvidence::SentNoResponse,
            source: None,
        }
    }

    /// A response head arrived and the failure came later (reading the body).
    pub const fn after_response(category: FailureCategory) -> Self {
        TransportFailure {
            stage: AttemptStage::ReadBody,
            category,
            evidence: ExecutionEvidence::Responded,
            source: None,
        }
    }

    /// Attaches the engine's error.
    pub fn with_source(mut self, source: impl Into<BoxError>) -> Self {
        self.source = Some(source.into());
        self
    }

    /// Where the attempt was.
    pub const fn stage(&self) -> AttemptStage {
        self.stage
    }

    /// What went wrong.
    pub const fn category(&self) -> FailureCategory {
        self.category
    }

    /// What the failure proves about execution.
    pub const fn evidence(&self) -> ExecutionEvidence {
        self.evidence
    }

    /// The engine's error, if one was attached.
    pub fn engine_error(&self) -> Option<&(dyn StdError + Send + Sync + 'static)> {
        self.source.as_deref()
    }

    /// Takes the engine's error out.
    pub fn take_engine_error(&mut self) -> Option<BoxError> {
        self.source.take()
    }
}

impl fmt::Debug for TransportFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TransportFailure")
            .field("stage", &self.stage)
            .field("category", &self.category)
            .field("evidence", &self.evidence)
            .field("source", &self.source)
            .finish()
    }
}

impl fmt::Display for TransportFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} during {} ({})",
            self.category, self.stage, self.evidence
        )
    }
}

impl StdError for TransportFailure {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        self.source
            .as_deref()
            .map(|e| e as &(dyn StdError + 'static))
    }
}

impl PartialEq for TransportFailure {
    /// Two failures are equal when their stage, category and evidence are;
    /// the engine error is not compared.
    fn eq(&self, other: &Self) -> bool {
        self.stage == other.stage
            && self.category == other.category
            && self.evidence == other.evidence
    }
}
