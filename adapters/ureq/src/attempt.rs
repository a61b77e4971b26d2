//! The per-call slot through which ureq's resolver, connector and transport
//! find the attempt they work for.
//!
//! ureq hands its connector a [`ureq::unversioned::transport::ConnectionDetails`]
//! and its transport nothing at all: neither sees the request. But
//! `Agent::run` is synchronous, and everything up to the response head
//! (resolve, connect, TLS, writing the request, reading the head) runs
//! inside it on the calling thread. So the engine puts the attempt in a
//! thread-local slot for the duration of `run`, and the hooks read it there.
//! A transport *binds* to the attempt on its first write for it, so the
//! response body, which may be read after `run` returned (on any thread),
//! is still attributed to the right attempt.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use evident_core::Progress;

/// What the hooks need to know about the attempt in flight.
#[derive(Debug)]
pub(crate) struct Attempt {
    /// The attempt's progress record.
    pub(crate) progress: Progress,
    /// The attempt's deadline: every blocking I/O call is bounded by it.
    pub(crate) deadline: Option<Instant>,
    /// How the request body ends, so the transport can tell when it was
    /// written.
    pub(crate) body: BodyShape,
    /// Set when the connection must not carry another request (it answered
    /// 421 Misdirected Request).
    pub(crate) misdirected: AtomicBool,
}

impl Attempt {
    /// What the hooks need for an attempt.
    pub(crate) fn new(progress: Progress, deadline: Option<Instant>, body: BodyShape) -> Self {
        Attempt {
            progress,
            deadline,
            body,
            misdirected: AtomicBool::new(false),
        }
    }

    /// Marks the attempt's connection as answering 421: it is not reused.
    pub(crate) fn misdirected(&self) {
        self.misdirected.store(true, Ordering::Release);
    }

    /// Whether the attempt's connection may go back to the pool: not once
    /// the core sealed the attempt, nor after a 421.
    pub(crate) fn connection_reusable(&self) -> bool {
        !self.progress.is_sealed() && !self.misdirected.load(Ordering::Acquire)
    }
}

/// What follows the request head on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BodyShape {
    /// Nothing: the request is complete once its head is.
    None,
    /// A body, sent right after the head.
    Immediate,
    /// A body sent only after a `100 Continue` (or ureq's wait for it
    /// expired): ureq reads from the connection between head and body.
    AfterContinue,
}

thread_local! {
    static CURRENT: RefCell<Option<Arc<Attempt>>> = const { RefCell::new(None) };
}

/// Makes `attempt` the current one on this thread until the guard drops.
pub(crate) fn enter(attempt: Arc<Attempt>) -> Current {
    let previous = CURRENT.with(|c| c.replace(Some(attempt)));
    Current { previous }
}

/// The attempt in flight on this thread, if any.
pub(crate) fn current() -> Option<Arc<Attempt>> {
    CURRENT.with(|c| c.borrow().clone())
}

/// Restores the previous slot content on drop.
#[derive(Debug)]
#[must_use = "the attempt is current only while the guard lives"]
pub(crate) struct Current {
    previous: Option<Arc<Attempt>>,
}

impl Drop for Current {
    fn drop(&mut self) {
        let previous = self.previous.take();
        CURRENT.with(|c| *c.borrow_mut() = previous);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attempt() -> Arc<Attempt> {
        Arc::new(Attempt::new(Progress::new(), None, BodyShape::None))
    }

    #[test]
    fn the_slot_holds_the_attempt_only_while_the_guard_lives() {
        assert!(current().is_none());
        let a = attempt();
        {
            let _guard = enter(a.clone());
            assert!(Arc::ptr_eq(&current().unwrap(), &a));
            let b = attempt();
            {
                let _inner = enter(b.clone());
                assert!(Arc::ptr_eq(&current().unwrap(), &b));
            }
            assert!(Arc::ptr_eq(&current().unwrap(), &a));
        }
        assert!(current().is_none());
    }

    #[test]
    fn the_slot_is_per_thread() {
        let _guard = enter(attempt());
        std::thread::spawn(|| assert!(current().is_none()))
            .join()
            .unwrap();
    }
}
