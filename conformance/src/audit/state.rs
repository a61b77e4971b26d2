//! What the client loop, the tagging engine and the servers share: each
//! call's plan, and per lane the attempt in flight and the commands the
//! servers obey.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::watch;

use super::book::{AttemptTag, Book};
use super::shape::{Action, CallShape, Fault};

/// One call's plan, as the servers read it.
#[derive(Debug, Clone)]
pub(crate) struct CallPlan {
    pub(crate) shape: CallShape,
    pub(crate) lane: usize,
    /// The next call on the lane wants a fresh connection: the server ends
    /// this call's connection after answering it.
    pub(crate) then_close: bool,
}

/// Per lane: the attempt in flight and the servers' commands.
#[derive(Debug)]
pub(crate) struct LaneCtl {
    current: AtomicU64,
    /// Close (or reset, or stall) every idle connection now: sent when an
    /// attempt whose fault is at the hand-over is handed to the engine.
    pub(crate) idle: watch::Sender<(u64, Action)>,
    /// Calls up to this id are over: stalled connections of theirs may end.
    pub(crate) released: watch::Sender<u64>,
}

impl LaneCtl {
    fn new() -> Self {
        LaneCtl {
            current: AtomicU64::new(0),
            idle: watch::channel((0, Action::Close)).0,
            released: watch::channel(0).0,
        }
    }

    /// The attempt in flight on this lane.
    pub(crate) fn current(&self) -> Option<AttemptTag> {
        AttemptTag::unpack(self.current.load(Ordering::Acquire))
    }
}

/// The shared state of one engine's audit run.
#[derive(Debug)]
pub(crate) struct AuditState {
    plans: Mutex<HashMap<u64, Arc<CallPlan>>>,
    pub(crate) lanes: Vec<LaneCtl>,
    book: Mutex<Book>,
    connections: AtomicU64,
    /// Set once the run is over: every server ends its connections.
    pub(crate) shutdown: watch::Sender<bool>,
}

impl AuditState {
    pub(crate) fn new(lanes: usize) -> Arc<Self> {
        Arc::new(AuditState {
            plans: Mutex::new(HashMap::new()),
            lanes: (0..lanes).map(|_| LaneCtl::new()).collect(),
            book: Mutex::new(Book::default()),
            connections: AtomicU64::new(0),
            shutdown: watch::channel(false).0,
        })
    }

    /// The next connection number.
    pub(crate) fn next_connection(&self) -> u64 {
        self.connections.fetch_add(1, Ordering::Relaxed)
    }

    pub(crate) fn book(&self) -> MutexGuard<'_, Book> {
        self.book.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn plan(&self, call: u64) -> Option<Arc<CallPlan>> {
        self.plans
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&call)
            .cloned()
    }

    pub(crate) fn register(&self, call: u64, plan: CallPlan) {
        self.plans
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(call, Arc::new(plan));
    }

    /// The fault planned for `tag` (an unknown attempt is answered).
    pub(crate) fn fault(&self, tag: AttemptTag) -> Fault {
        self.plan(tag.call)
            .map_or(Fault::Answer(200), |p| p.shape.fault(tag.attempt))
    }

    /// Called by the tagging engine just before it hands attempt `tag` to
    /// the engine: publishes it as the lane's attempt in flight and, for a
    /// fault at the hand-over, orders the lane's idle connections closed.
    pub(crate) fn handing_over(&self, tag: AttemptTag) {
        let Some(plan) = self.plan(tag.call) else {
            return;
        };
        let lane = &self.lanes[plan.lane];
        lane.current.store(tag.pack(), Ordering::Release);
        if let Fault::Cut(super::shape::Edge::HandOver, action) = plan.shape.fault(tag.attempt) {
            lane.idle.send_modify(|(generation, a)| {
                *generation += 1;
                *a = action;
            });
        }
    }

    /// The call `call` on `lane` is over.
    pub(crate) fn release(&self, lane: usize, call: u64) {
        self.lanes[lane]
            .released
            .send_modify(|r| *r = (*r).max(call));
    }
}
