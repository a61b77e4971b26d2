//! Events: what each component did with a permission, in order.
//!
//! A hook installed with [`Pipeline::with_event_hook`](crate::Pipeline::with_event_hook)
//! sees every acquisition, rejection and release as it happens. Tests use it
//! to assert the full order (circuit → rate → bulkhead on the way in, the
//! reverse on the way out); an observer may turn the events into metrics.
//! Without a hook nothing is built or called.

use std::sync::Arc;

use crate::{Origin, Verdict};

/// The component an [`Event`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Component {
    /// The origin's circuit breaker.
    CircuitBreaker,
    /// The origin's rate limiter.
    RateLimiter,
    /// The origin's bulkhead.
    Bulkhead,
}

/// What happened to a permission.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EventKind {
    /// A permission was handed out.
    Acquired,
    /// The component refused a permission (a local rejection).
    Rejected,
    /// The permission was given back unused: the attempt was dropped,
    /// rejected further down the pipeline, or recorded as
    /// [`Verdict::Ignored`]. A bulkhead slot is always released this way.
    Released,
    /// A rate-limiter token was spent by an attempt that completed (success
    /// or failure recorded); it is not given back.
    Consumed,
    /// The circuit breaker counted the attempt's outcome
    /// ([`Verdict::Success`] or [`Verdict::Failure`]).
    Recorded(Verdict),
}

/// One event: which origin, which component, what happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Event<'a> {
    /// The origin whose component acted.
    pub origin: &'a Origin,
    /// The component that acted.
    pub component: Component,
    /// What it did.
    pub kind: EventKind,
}

impl<'a> Event<'a> {
    /// An event of `component` for `origin`: for a [`RateLimit`](crate::RateLimit)
    /// implemented outside this crate, which reports to the hook it was
    /// given like the built-in components do.
    pub fn new(origin: &'a Origin, component: Component, kind: EventKind) -> Self {
        Event {
            origin,
            component,
            kind,
        }
    }
}

/// A function receiving every [`Event`]. Called synchronously, outside any
/// internal lock, on the thread that caused the event; keep it cheap.
pub type EventHook = Arc<dyn Fn(&Event<'_>) + Send + Sync>;

pub(crate) fn emit(
    hook: &Option<EventHook>,
    origin: &Origin,
    component: Component,
    kind: EventKind,
) {
    if let Some(hook) = hook {
        hook(&Event {
            origin,
            component,
            kind,
        });
    }
}
