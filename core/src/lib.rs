//! evident-core: HTTP retries decided by evidence, identically on every
//! engine.
//!
//! When a request fails, a client must decide whether to send it again. This
//! crate decides from **evidence** — how far the attempt got
//! ([`AttemptStage`]), what failed ([`FailureCategory`]) and what that proves
//! about whether the server could have acted ([`ExecutionEvidence`]) —
//! combined with what the caller **declared** ([`Idempotency`]). Never from
//! the HTTP method.
//!
//! The evidence is conservative: a response head beats every later signal,
//! an HTTP/2 protocol proof beats bytes written, a pre-write signal
//! (refused, name not found, TLS) proves "not sent" only at a pre-write
//! stage or with exact counting showing that no write ever started, and an
//! attempt the core gave up on is sealed so its connection writes nothing
//! more. Three answered statuses prove by their RFCs that the request was
//! not processed — 408, 421 (retried on a new connection) and 425 — and are
//! retried whatever the idempotency.
//!
//! * [`failure`]: the vocabulary, with constructors that carry their proof.
//! * [`progress`]: the per-attempt record that engine adapters feed.
//! * [`classify()`]: one function turning an engine's [`EngineSignal`] and
//!   the progress into a [`TransportFailure`], shared by every engine.
//! * [`decide`]: the ordered retry rules, `Retry-After`, backoff and budget.
//! * [`engine`]: the seam an HTTP engine implements, one attempt at a time.
//! * [`client`]: the retry loop, async and blocking, over any engine.
//! * [`observe`]: per-attempt records, `tracing` and the [`observe::Observer`] hook.
//! * [`testing`]: a scripted engine for tests.
#![warn(missing_docs, unreachable_pub, rust_2018_idioms)]
#![forbid(unsafe_code)]

pub mod classify;
pub mod classify_helpers;
pub mod client;
pub mod config;
pub mod decide;
pub mod engine;
/// The old name of [`classify_helpers`], kept for engines written against
/// it.
#[doc(hidden)]
pub mod errors {
    pub use crate::classify_helpers::*;
}
pub mod failure;
#[cfg(feature = "metrics")]
pub mod metrics;
pub mod observe;
pub mod progress;
pub mod testing;
#[cfg(feature = "rustls")]
pub mod tls;

pub use classify::{EngineSignal, GoAwayScope, classify};
pub use config::ConfigError;
pub use decide::{
    BodyReplay, BudgetConfig, Decision, DelaySource, Idempotency, Outcome, RandomSource,
    RetryAfter, RetryBudget, RetryContext, RetryPolicy, RetryPolicyBuilder, RetryReason,
    RetryTable, StopReason, XorShiftRandom, idempotency_key_reply, is_retryable_status,
    status_proves_not_processed,
};
pub use engine::{
    AttemptBody, AttemptContext, BlockingAttemptBody, BlockingEngine, BlockingResponseBody,
    ConnectFailures, ConnectTiming, Engine, EngineFailure, ErrorSite, HostOverride, HostOverrides,
    Origin, ResponseBody,
};
pub use evident_resilience as resilience;
pub use failure::{
    AttemptStage, BoxError, ExecutionEvidence, FailureCategory, NotProcessedProof, NotSentProof,
    PreWriteStage, TransportFailure,
};
pub use observe::{
    AttemptRecord, CallInfo, EvidenceFacts, FallbackReason, Observer, RejectionKind,
    SharedStateEvent,
};
pub use progress::{AttemptSealed, Progress, ProgressSnapshot};
