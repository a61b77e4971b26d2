//! How far one attempt got, fed by the engine adapter's hooks.
//!
//! A [`Progress`] is shared between the core (which owns the attempt and its
//! timeout) and whatever hooks an engine offers: a resolver wrapper, a
//! counting connector, a stream wrapper under or above TLS. Hooks can run on
//! any thread, so every field is an atomic and every update is one atomic
//! operation. The core reads a [`ProgressSnapshot`] when the attempt fails or
//! when its timer fires, and classifies from that.
//!
//! Progress is monotonic: stages only move forward, counters only grow and
//! flags are only set. An adapter that cannot observe some fact simply never
//! reports it, and the classification falls back to the conservative answer.
//!
//! # Why "a write started" and sealing
//!
//! An engine's connection may live in another task or thread than the
//! attempt. A counter that is bumped only when a write *returns* cannot tell
//! the core, which snapshots the record the moment its timer fires, that a
//! write is under way: the snapshot would show exact counting with zero
//! bytes, and "nothing written" would be claimed for a request whose bytes
//! may be on the wire. So a counting layer calls [`Progress::start_write`]
//! *before* it hands bytes to the socket or TLS layer, and "nothing written"
//! ([`ProgressSnapshot::proves_nothing_written`]) holds only when no write
//! ever started.
//!
//! Once the core has given up on an attempt (its timer fired, the deadline
//! passed, the call was cancelled), it [`seals`](Progress::seal) the record
//! and classifies from the snapshot the seal returns. From then on
//! [`Progress::start_write`] refuses: the counting layer fails the write with
//! an I/O error, so the connection writes nothing more for that attempt and
//! is discarded instead of pooled. Setting "write started" and sealing are
//! one atomic operation on the same word, so either the write started before
//! the seal (and the sealed snapshot shows it) or it is refused.

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU32, AtomicU64, Ordering};

use crate::failure::AttemptStage;

const WRITES_COUNTED: u16 = 1 << 0;
const REUSE_KNOWN: u16 = 1 << 1;
const REUSED: u16 = 1 << 2;
const HEAD_WRITTEN: u16 = 1 << 3;
const HEAD_RECEIVED: u16 = 1 << 4;
const BODY_WRITTEN: u16 = 1 << 5;
const WRITE_STARTED: u16 = 1 << 6;
const SEALED: u16 = 1 << 7;
/// The engine cannot stop a connection that takes the request after the
/// seal from writing its head (see [`Progress::seal_may_not_hold`]).
const SEAL_MAY_NOT_HOLD: u16 = 1 << 8;
/// The core sealed the attempt while the engine was still running it (its
/// timer fired, or the call was dropped), rather than after the engine
/// returned a failure.
const ABANDONED: u16 = 1 << 9;
/// Flags that show a request byte may have been handed to the connection.
const ANY_WRITE: u16 = WRITE_STARTED | HEAD_WRITTEN | BODY_WRITTEN | HEAD_RECEIVED;

#[derive(Debug, Default)]
struct Cell {
    /// 0: no stage entered yet; otherwise `stage.index() + 1`.
    stage: AtomicU8,
    flags: AtomicU16,
    written: AtomicU64,
    read: AtomicU64,
    /// 0: unknown (0 is never a client stream id).
    stream_id: AtomicU32,
}

/// The live progress record of one attempt. Cloning shares the record.
///
/// ```
/// use evident_core::{AttemptStage, Progress};
///
/// let progress = Progress::new();
/// progress.counts_writes_exactly();
/// progress.enter(AttemptStage::Connect);
/// progress.enter(AttemptStage::WriteHead);
/// progress.wrote(120);
/// progress.head_written();
/// progress.body_written();
///
/// let seen = progress.snapshot();
/// assert_eq!(seen.stage(), Some(AttemptStage::AwaitHead));
/// assert_eq!(seen.bytes_written(), 120);
/// ```
#[derive(Debug, Clone, Default)]
pub struct Progress {
    cell: Arc<Cell>,
}

impl Progress {
    /// A fresh record: no stage entered, nothing counted.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records that the attempt entered `stage`. Stages never move back: an
    /// earlier stage reported late is ignored.
    pub fn enter(&self, stage: AttemptStage) {
        self.cell
            .stage
            .fetch_max(stage.index() + 1, Ordering::AcqRel);
    }

    /// Declares that this adapter counts every request byte it hands to the
    /// connection, so a zero count is a proof that nothing was written.
    pub fn counts_writes_exactly(&self) {
        self.set(WRITES_COUNTED);
    }

    /// Records that a write for this request is about to hand bytes to the
    /// socket or TLS layer. A counting layer calls it *before* every write,
    /// so a snapshot taken while the write is still in progress (by the core
    /// on another thread) never shows "nothing written".
    ///
    /// Fails once the core [sealed](Self::seal) the attempt: the caller must
    /// then not write (fail the write with
    /// [`AttemptSealed::into_io_error`]), so the connection is abandoned.
    ///
    /// ```
    /// use evident_core::Progress;
    ///
    /// let progress = Progress::new();
    /// progress.counts_writes_exactly();
    /// assert!(progress.start_write().is_ok());
    /// // A write started: zero counted bytes no longer prove anything.
    /// assert!(!progress.snapshot().proves_nothing_written());
    ///
    /// progress.seal();
    /// assert!(progress.start_write().is_err());
    /// ```
    pub fn start_write(&self) -> Result<(), AttemptSealed> {
        self.cell
            .flags
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |flags| {
                (flags & SEALED == 0).then_some(flags | WRITE_STARTED)
            })
            .map(drop)
            .map_err(|_| AttemptSealed)
    }

    /// Declares that sealing this attempt may not stop its request: a
    /// connection of the engine can take the request from a queue the
    /// adapter cannot see and write its head after the core gave up, with
    /// nothing left to refuse ([`Self::start_write`] is asked too late, or
    /// not before the head leaves), or the engine writes on a thread of its
    /// own that no hook reports. The core then never reads "not sent" from
    /// the stage alone when it [abandoned](Self::abandon) the attempt (its
    /// timeout fired while the engine ran): only a failure the engine
    /// itself returned proves it.
    ///
    /// ```
    /// use evident_core::{AttemptStage, EngineSignal, ExecutionEvidence, Progress, classify};
    ///
    /// let progress = Progress::new();
    /// progress.enter(AttemptStage::Connect);
    /// progress.seal_may_not_hold();
    /// let at_seal = progress.abandon();
    /// // The core's timeout fired at `connect`: the request may still leave.
    /// let timed_out = classify(EngineSignal::TimedOut, &at_seal);
    /// assert_eq!(timed_out.evidence(), ExecutionEvidence::SentNoResponse);
    /// // The engine itself was refused a connection: that still proves it.
    /// let refused = classify(EngineSignal::ConnectionRefused, &at_seal);
    /// assert_eq!(refused.evidence(), ExecutionEvidence::NotSent);
    /// ```
    pub fn seal_may_not_hold(&self) {
        self.set(SEAL_MAY_NOT_HOLD);
    }

    /// Seals the record: the core has given up on this attempt. Returns the
    /// snapshot taken at the seal, which the core classifies from. After
    /// it, [`Self::start_write`] refuses.
    pub fn seal(&self) -> ProgressSnapshot {
        let flags = self.cell.flags.fetch_or(SEALED, Ordering::AcqRel) | SEALED;
        self.snapshot_with(flags)
    }

    /// Seals the record because the core gives up on an attempt the engine
    /// is still running: its attempt timer fired, or the call was dropped.
    /// Returns the snapshot taken at that moment, marked
    /// [`abandoned`](ProgressSnapshot::abandoned).
    ///
    /// This is what the async client does when its timer fires; an engine's
    /// own tests call it to check what a record says when the core gives up
    /// at a chosen moment (while the engine's connection may still be
    /// writing).
    ///
    /// ```
    /// use evident_core::{AttemptStage, EngineSignal, ExecutionEvidence, Progress, classify};
    ///
    /// let progress = Progress::new();
    /// progress.enter(AttemptStage::Connect);
    /// // The engine's transfer runs on a thread no seal can stop.
    /// progress.seal_may_not_hold();
    /// let at_seal = progress.abandon();
    /// assert!(at_seal.abandoned());
    /// let timed_out = classify(EngineSignal::TimedOut, &at_seal);
    /// assert_eq!(timed_out.evidence(), ExecutionEvidence::SentNoResponse);
    /// ```
    pub fn abandon(&self) -> ProgressSnapshot {
        let flags = self
            .cell
            .flags
            .fetch_or(SEALED | ABANDONED, Ordering::AcqRel)
            | SEALED
            | ABANDONED;
        self.snapshot_with(flags)
    }

    /// Whether the core sealed this attempt.
    pub fn is_sealed(&self) -> bool {
        self.cell.flags.load(Ordering::Acquire) & SEALED != 0
    }

    /// Adds `n` request bytes accepted by the connection for this request
    /// (a write that accepted bytes has started, whether or not
    /// [`Self::start_write`] was called).
    pub fn wrote(&self, n: usize) {
        if n > 0 {
            self.set(WRITE_STARTED);
        }
        self.cell.written.fetch_add(n as u64, Ordering::AcqRel);
    }

    /// Adds `n` response bytes read for this request.
    pub fn read(&self, n: usize) {
        self.cell.read.fetch_add(n as u64, Ordering::AcqRel);
    }

    /// Records whether the attempt runs on a connection reused from a pool.
    pub fn connection_reused(&self, reused: bool) {
        self.set(REUSE_KNOWN | if reused { REUSED } else { 0 });
    }

    /// Records that the request head was fully written (and with it any
    /// `Idempotency-Key` header). Enters [`AttemptStage::WriteBody`].
    pub fn head_written(&self) {
        self.set(HEAD_WRITTEN);
        self.enter(AttemptStage::WriteBody);
    }

    /// Records that the request body was fully written. Enters
    /// [`AttemptStage::AwaitHead`].
    pub fn body_written(&self) {
        self.set(HEAD_WRITTEN | BODY_WRITTEN);
        self.enter(AttemptStage::AwaitHead);
    }

    /// Records that a response head arrived. Enters [`AttemptStage::ReadBody`].
    pub fn head_received(&self) {
        self.set(HEAD_WRITTEN | BODY_WRITTEN | HEAD_RECEIVED);
        self.enter(AttemptStage::ReadBody);
    }

    /// Records the HTTP/2 stream id the request was sent on.
    pub fn stream_id(&self, id: u32) {
        self.cell.stream_id.store(id, Ordering::Release);
    }

    /// A consistent-enough copy of the record. Each field is read atomically;
    /// fields only grow, so a snapshot never claims less progress than was
    /// made before it was taken.
    pub fn snapshot(&self) -> ProgressSnapshot {
        // Flags first: a flag set after this read can only add progress.
        self.snapshot_with(self.cell.flags.load(Ordering::Acquire))
    }

    fn snapshot_with(&self, flags: u16) -> ProgressSnapshot {
        let c = &*self.cell;
        ProgressSnapshot {
            stage: AttemptStage::from_index(c.stage.load(Ordering::Acquire).wrapping_sub(1)),
            flags,
            written: c.written.load(Ordering::Acquire),
            read: c.read.load(Ordering::Acquire),
            stream_id: c.stream_id.load(Ordering::Acquire),
        }
    }

    /// Makes this record fresh for a new attempt, reusing its allocation when
    /// no hook of an earlier attempt still holds it (so a late update from a
    /// finished attempt can never leak into the next one).
    pub fn renew(&mut self) {
        match Arc::get_mut(&mut self.cell) {
            Some(cell) => *cell = Cell::default(),
            None => *self = Progress::new(),
        }
    }

    fn set(&self, bits: u16) {
        self.cell.flags.fetch_or(bits, Ordering::AcqRel);
    }
}

/// Seals an attempt's progress when dropped, unless the attempt was
/// settled first. The async client holds one across the await of an
/// attempt, so an attempt abandoned in any way — its timer fired, or the
/// caller dropped the whole call — is sealed.
#[derive(Debug)]
pub(crate) struct SealOnDrop(Option<Progress>);

impl SealOnDrop {
    pub(crate) fn new(progress: &Progress) -> Self {
        SealOnDrop(Some(progress.clone()))
    }

    /// The engine returned a failure: seals the attempt and returns the
    /// snapshot to classify from.
    pub(crate) fn seal(mut self) -> ProgressSnapshot {
        self.0.take().map(|p| p.seal()).unwrap_or_default()
    }

    /// The core gave up while the engine still ran the attempt (its timer
    /// fired): abandons it and returns the snapshot to classify from.
    pub(crate) fn abandon(mut self) -> ProgressSnapshot {
        self.0.take().map(|p| p.abandon()).unwrap_or_default()
    }

    /// The attempt was answered and may still be in use (a streamed body):
    /// a snapshot, no seal.
    pub(crate) fn answered(mut self) -> ProgressSnapshot {
        self.0.take().map(|p| p.snapshot()).unwrap_or_default()
    }
}

impl Drop for SealOnDrop {
    fn drop(&mut self) {
        if let Some(progress) = self.0.take() {
            progress.abandon();
        }
    }
}

/// The error of [`Progress::start_write`] once the core gave up on the
/// attempt: nothing more may be written for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AttemptSealed;

impl AttemptSealed {
    /// The error a counting layer fails the write with: the connection is
    /// broken for its engine and never reused.
    pub fn into_io_error(self) -> std::io::Error {
        std::io::Error::new(std::io::ErrorKind::BrokenPipe, self)
    }
}

impl std::fmt::Display for AttemptSealed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the attempt was abandoned by the core; nothing more is written for it")
    }
}

impl std::error::Error for AttemptSealed {}

/// A copy of an attempt's progress at one moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ProgressSnapshot {
    stage: Option<AttemptStage>,
    flags: u16,
    written: u64,
    read: u64,
    stream_id: u32,
}

impl ProgressSnapshot {
    /// The furthest stage entered, or `None` when the adapter reported none.
    pub const fn stage(&self) -> Option<AttemptStage> {
        self.stage
    }

    /// Request bytes written for this request (meaningful as a proof only
    /// when [`Self::writes_counted_exactly`]).
    pub const fn bytes_written(&self) -> u64 {
        self.written
    }

    /// Response bytes read for this request.
    pub const fn bytes_read(&self) -> u64 {
        self.read
    }

    /// Whether the adapter counts request bytes exactly.
    pub const fn writes_counted_exactly(&self) -> bool {
        self.flags & WRITES_COUNTED != 0
    }

    /// Whether the connection was reused, when the adapter knows.
    pub const fn connection_reused(&self) -> Option<bool> {
        if self.flags & REUSE_KNOWN == 0 {
            None
        } else {
            Some(self.flags & REUSED != 0)
        }
    }

    /// Whether the request head was fully written.
    pub const fn head_written(&self) -> bool {
        self.flags & HEAD_WRITTEN != 0
    }

    /// Whether the request body was fully written.
    pub const fn body_written(&self) -> bool {
        self.flags & BODY_WRITTEN != 0
    }

    /// Whether a response head arrived.
    pub const fn head_received(&self) -> bool {
        self.flags & HEAD_RECEIVED != 0
    }

    /// Whether a write for this request ever started (bytes were about to
    /// be, or were, handed to the connection).
    pub const fn write_started(&self) -> bool {
        self.flags & ANY_WRITE != 0 || self.written > 0
    }

    /// Whether the core had sealed the attempt when this copy was taken.
    pub const fn sealed(&self) -> bool {
        self.flags & SEALED != 0
    }

    /// Whether the core gave up on the attempt while the engine was still
    /// running it ([`Progress::abandon`]): the failure is the core's own
    /// timeout, not one the engine returned.
    pub const fn abandoned(&self) -> bool {
        self.flags & ABANDONED != 0
    }

    /// Whether sealing the attempt stops its request from being written
    /// (false when the engine declared [`Progress::seal_may_not_hold`]).
    pub const fn seal_holds(&self) -> bool {
        self.flags & SEAL_MAY_NOT_HOLD == 0
    }

    /// The HTTP/2 stream id, when known.
    pub const fn stream_id(&self) -> Option<u32> {
        if self.stream_id == 0 {
            None
        } else {
            Some(self.stream_id)
        }
    }

    /// Whether this progress alone proves that no request byte was written:
    /// the writes were counted exactly, no write ever started (so none can
    /// be in progress on another thread), and neither the head nor a
    /// response was seen.
    pub const fn proves_nothing_written(&self) -> bool {
        self.writes_counted_exactly() && !self.write_started()
    }

    /// Whether the attempt provably never got past the connection set-up
    /// stages (resolve, connect, TLS).
    pub const fn still_before_write(&self) -> bool {
        match self.stage {
            Some(s) => s.pre_write().is_some() && !self.write_started(),
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stages_never_move_back() {
        let p = Progress::new();
        p.enter(AttemptStage::AwaitHead);
        p.enter(AttemptStage::Connect);
        assert_eq!(p.snapshot().stage(), Some(AttemptStage::AwaitHead));
    }

    #[test]
    fn a_fresh_record_knows_nothing_and_proves_nothing() {
        let s = Progress::new().snapshot();
        assert_eq!(s.stage(), None);
        assert_eq!(s.connection_reused(), None);
        assert!(!s.proves_nothing_written());
        assert!(!s.still_before_write());
    }

    #[test]
    fn zero_bytes_prove_nothing_written_only_when_counted() {
        let p = Progress::new();
        p.enter(AttemptStage::WriteHead);
        assert!(!p.snapshot().proves_nothing_written());
        p.counts_writes_exactly();
        assert!(p.snapshot().proves_nothing_written());
        p.wrote(1);
        assert!(!p.snapshot().proves_nothing_written());
    }

    #[test]
    fn renew_starts_over_and_detaches_late_hooks() {
        let mut p = Progress::new();
        p.enter(AttemptStage::ReadBody);
        p.renew();
        assert_eq!(p.snapshot(), ProgressSnapshot::default());
        let late_hook = p.clone();
        p.renew();
        late_hook.wrote(10);
        assert_eq!(p.snapshot().bytes_written(), 0);
    }

    #[test]
    fn a_started_write_forbids_nothing_written_even_before_any_byte_is_counted() {
        let p = Progress::new();
        p.counts_writes_exactly();
        p.enter(AttemptStage::WriteHead);
        p.start_write().unwrap();
        let seen = p.snapshot();
        assert_eq!(seen.bytes_written(), 0);
        assert!(seen.write_started());
        assert!(!seen.proves_nothing_written());
    }

    #[test]
    fn a_started_write_is_no_longer_before_write_whatever_the_stage() {
        let p = Progress::new();
        p.enter(AttemptStage::Tls);
        assert!(p.snapshot().still_before_write());
        p.start_write().unwrap();
        assert!(!p.snapshot().still_before_write());
    }

    #[test]
    fn after_the_seal_no_write_may_start_and_the_seal_snapshot_shows_earlier_starts() {
        let p = Progress::new();
        p.counts_writes_exactly();
        p.start_write().unwrap();
        let sealed = p.seal();
        assert!(sealed.sealed());
        assert!(sealed.write_started());
        assert_eq!(p.start_write(), Err(AttemptSealed));
        assert!(p.is_sealed());

        let untouched = Progress::new();
        untouched.counts_writes_exactly();
        let sealed = untouched.seal();
        assert!(sealed.proves_nothing_written());
        assert!(untouched.start_write().is_err());
        // A refused write leaves the record as it was sealed.
        assert!(untouched.snapshot().proves_nothing_written());
        assert_eq!(
            AttemptSealed.into_io_error().kind(),
            std::io::ErrorKind::BrokenPipe
        );
    }

    #[test]
    fn a_write_racing_the_seal_is_either_seen_by_the_seal_or_refused() {
        // Whatever the interleaving, the two answers are consistent.
        for _ in 0..200 {
            let p = Progress::new();
            p.counts_writes_exactly();
            let writer = p.clone();
            let handle = std::thread::spawn(move || writer.start_write().is_ok());
            let sealed = p.seal();
            let started = handle.join().unwrap();
            assert_eq!(started, sealed.write_started());
        }
    }

    #[test]
    fn renewing_a_sealed_record_starts_an_unsealed_one() {
        let mut p = Progress::new();
        p.seal();
        p.renew();
        assert!(!p.is_sealed());
        assert!(p.start_write().is_ok());
        let late_hook = p.clone();
        late_hook.seal();
        p.renew();
        assert!(!p.is_sealed(), "a hook's record is detached, not reset");
    }
}
