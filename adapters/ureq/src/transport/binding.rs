//! What a transport knows of the request it carries for one attempt: the
//! bytes it wrote, where the head ended, and whether the body left whole.

use std::sync::Arc;

use crate::attempt::{Attempt, BodyShape};

/// The end of an HTTP/1.1 head.
pub(super) const HEAD_END: &[u8; 4] = b"\r\n\r\n";

/// Scans written bytes for the end of the request head.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct HeadScan {
    /// How many bytes of [`HEAD_END`] the bytes so far end with.
    pub(super) matched: usize,
    pub(super) done: bool,
}

impl HeadScan {
    /// Feeds written bytes; true once the head's end was among them.
    pub(super) fn feed(&mut self, bytes: &[u8]) -> bool {
        if self.done {
            return true;
        }
        for &b in bytes {
            self.matched = if b == HEAD_END[self.matched] {
                self.matched + 1
            } else if b == b'\r' {
                1
            } else {
                0
            };
            if self.matched == HEAD_END.len() {
                self.done = true;
                return true;
            }
        }
        false
    }
}

/// The attempt a transport currently works for, and how far its request got
/// on this connection.
pub(super) struct Binding {
    pub(super) attempt: Arc<Attempt>,
    pub(super) head: HeadScan,
    pub(super) body_written: bool,
    /// With `Expect: 100-continue`: a read happened after the head (the wait
    /// for `100 Continue`)...
    pub(super) waited_for_continue: bool,
    /// ...and a write after that wait (the body).
    pub(super) wrote_after_wait: bool,
    /// Whether the final (non-1xx) response's status line was looked at.
    pub(super) status_seen: bool,
    /// The write side broke after the server answered (see
    /// [`CountingTransport::read_early_answer`]): the body never left
    /// whole, whatever ureq believes.
    pub(super) write_side_over: bool,
    /// That answer sits in ureq's input, not yet handed over by an
    /// `await_input`.
    pub(super) early_answer_pending: bool,
}

impl Binding {
    pub(super) fn new(attempt: Arc<Attempt>) -> Self {
        Binding {
            attempt,
            head: HeadScan::default(),
            body_written: false,
            waited_for_continue: false,
            wrote_after_wait: false,
            status_seen: false,
            write_side_over: false,
            early_answer_pending: false,
        }
    }

    /// Records `bytes`, accepted by the connection.
    pub(super) fn wrote(&mut self, bytes: &[u8]) {
        let progress = &self.attempt.progress;
        progress.wrote(bytes.len());
        if self.waited_for_continue {
            self.wrote_after_wait = true;
        }
        if !self.head.done && self.head.feed(bytes) {
            progress.head_written();
            if self.attempt.body == BodyShape::None {
                self.body_written = true;
                progress.body_written();
            }
        }
    }

    /// Records that ureq is about to read from the connection.
    pub(super) fn reading(&mut self) {
        if !self.head.done || self.body_written || self.write_side_over {
            return;
        }
        let complete = match self.attempt.body {
            BodyShape::None | BodyShape::Immediate => true,
            BodyShape::AfterContinue => {
                if self.wrote_after_wait {
                    true
                } else {
                    self.waited_for_continue = true;
                    false
                }
            }
        };
        if complete {
            self.body_written = true;
            self.attempt.progress.body_written();
        }
    }
}
