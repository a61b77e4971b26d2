//! The connection pool: idle HTTP/1.1 connections and one shared HTTP/2
//! connection per origin.
//!
//! Checkout health-checks what it hands out: an HTTP/1.1 connection whose
//! hyper dispatcher is closed, or that does not accept a request, is
//! dropped; an HTTP/2 connection that can open no stream (closed, failed,
//! GOAWAY received) is removed. Nothing is ever re-sent: a connection that
//! fails *after* checkout fails the attempt, and the core decides.
//!
//! Idle connections do not wait for the next checkout to be judged: while
//! anything is pooled, a reaper task sweeps the pool every
//! [`EVICTION_INTERVAL`], closing connections the peer closed and those idle
//! longer than the idle timeout. Checkout applies the same rules, so
//! correctness never depends on when the reaper last ran.

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::Duration;

use tokio::time::Instant;

use crate::h1::H1Conn;
use crate::h2::H2Conn;
use evident_core::engine::Origin;

/// How often the reaper sweeps the pool. A sweep peeks each idle socket
/// once (one non-blocking syscall each), so a second keeps a server's close
/// from lingering in the pool at negligible cost.
pub(crate) const EVICTION_INTERVAL: Duration = Duration::from_secs(1);

/// A connection ready for one request.
#[derive(Debug)]
pub(crate) enum Conn {
    H1(H1Conn),
    H2(H2Conn),
}

/// A pooled HTTP/1.1 connection and when it became idle.
struct Idle {
    conn: H1Conn,
    since: Instant,
}

#[derive(Default)]
struct Entry {
    idle: Vec<Idle>,
    /// The shared HTTP/2 connection and when a request last checked it out.
    h2: Option<(H2Conn, Instant)>,
}

impl Entry {
    fn is_empty(&self) -> bool {
        self.idle.is_empty() && self.h2.is_none()
    }
}

/// Connections per origin.
pub(crate) struct Pool {
    max_idle_per_origin: usize,
    idle_timeout: Duration,
    origins: Mutex<HashMap<Origin, Entry>>,
    reaper_running: AtomicBool,
}

impl fmt::Debug for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let origins = self.lock();
        f.debug_struct("Pool")
            .field("max_idle_per_origin", &self.max_idle_per_origin)
            .field("idle_timeout", &self.idle_timeout)
            .field("origins", &origins.len())
            .finish()
    }
}

impl Pool {
    pub(crate) fn new(max_idle_per_origin: usize, idle_timeout: Duration) -> Self {
        Pool {
            max_idle_per_origin,
            idle_timeout,
            origins: Mutex::new(HashMap::new()),
            reaper_running: AtomicBool::new(false),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Origin, Entry>> {
        self.origins.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A healthy pooled connection for `origin`, HTTP/2 first.
    pub(crate) async fn checkout(&self, origin: &Origin) -> Option<Conn> {
        let shared = self.lock().get_mut(origin).and_then(|e| {
            let (conn, last_used) = e.h2.as_mut()?;
            *last_used = Instant::now();
            Some(conn.clone())
        });
        if let Some(h2) = shared {
            if !h2.is_closed()
                && let Ok(ready) = h2.ready().await
            {
                return Some(Conn::H2(ready));
            }
            self.remove_h2(origin, &h2);
        }
        // Bounded: every turn removes one idle connection.
        while let Some(idle) = self.pop_idle(origin) {
            if idle.conn.is_closed() || idle.since.elapsed() >= self.idle_timeout {
                continue;
            }
            let mut conn = idle.conn;
            if conn.ready().await.is_ok() {
                return Some(Conn::H1(conn));
            }
        }
        None
    }

    fn pop_idle(&self, origin: &Origin) -> Option<Idle> {
        let mut origins = self.lock();
        let entry = origins.get_mut(origin)?;
        let conn = entry.idle.pop();
        if entry.is_empty() {
            origins.remove(origin);
        }
        conn
    }

    /// Keeps an HTTP/1.1 connection whose exchange is complete.
    ///
    /// Only hyper's own view is consulted here, not the socket: a peer that
    /// closes the connection later (or just now) is caught by the socket
    /// check at checkout (and by the reaper's sweep), which are the ones
    /// that protect the next request. Looking at the socket at check-in too
    /// cost a syscall per request and proved nothing the checkout does not
    /// prove again.
    pub(crate) fn put_h1(self: &Arc<Self>, origin: Origin, conn: H1Conn) {
        if conn.dispatcher_closed() || self.max_idle_per_origin == 0 {
            return;
        }
        {
            let mut origins = self.lock();
            let entry = origins.entry(origin).or_default();
            if entry.idle.len() >= self.max_idle_per_origin {
                return;
            }
            entry.idle.push(Idle {
                conn,
                since: Instant::now(),
            });
        }
        self.ensure_reaper();
    }

    /// Shares an HTTP/2 connection for later requests to `origin`.
    pub(crate) fn put_h2(self: &Arc<Self>, origin: Origin, conn: H2Conn) {
        self.lock().entry(origin).or_default().h2 = Some((conn, Instant::now()));
        self.ensure_reaper();
    }

    /// Stops sharing `conn` for `origin` (if it still is the shared one).
    pub(crate) fn remove_h2(&self, origin: &Origin, conn: &H2Conn) {
        let mut origins = self.lock();
        if let Some(entry) = origins.get_mut(origin) {
            if entry
                .h2
                .as_ref()
                .is_some_and(|(c, _)| c.same_connection(conn))
            {
                entry.h2 = None;
            }
            if entry.is_empty() {
                origins.remove(origin);
            }
        }
    }

    /// How many HTTP/1.1 connections are idle in the pool, over all origins.
    pub(crate) fn idle_h1(&self) -> usize {
        self.lock().values().map(|e| e.idle.len()).sum()
    }

    /// How many HTTP/2 connections the pool shares, over all origins.
    pub(crate) fn shared_h2(&self) -> usize {
        self.lock().values().filter(|e| e.h2.is_some()).count()
    }

    /// Drops every connection the peer closed or that sat idle for the idle
    /// timeout (an HTTP/2 connection's streams in flight keep it open until
    /// they end; the pool only stops handing it out). Returns whether
    /// anything is still pooled.
    fn evict(&self, now: Instant) -> bool {
        let mut origins = self.lock();
        origins.retain(|_, entry| {
            entry.idle.retain(|idle| {
                !idle.conn.is_closed() && now.duration_since(idle.since) < self.idle_timeout
            });
            if entry.h2.as_ref().is_some_and(|(conn, last_used)| {
                conn.is_closed() || now.duration_since(*last_used) >= self.idle_timeout
            }) {
                entry.h2 = None;
            }
            !entry.is_empty()
        });
        !origins.is_empty()
    }

    /// Starts the reaper unless it runs (needs a tokio runtime, which every
    /// caller of the engine has).
    fn ensure_reaper(self: &Arc<Self>) {
        if self.reaper_running.swap(true, Ordering::AcqRel) {
            return;
        }
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => {
                runtime.spawn(reap(Arc::downgrade(self)));
            }
            Err(_) => self.reaper_running.store(false, Ordering::Release),
        }
    }
}

/// Sweeps the pool every [`EVICTION_INTERVAL`] until the pool is empty or
/// dropped; the next connection put in starts a new reaper.
async fn reap(pool: Weak<Pool>) {
    let mut tick = tokio::time::interval(EVICTION_INTERVAL);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    tick.tick().await;
    loop {
        tick.tick().await;
        let Some(pool) = pool.upgrade() else {
            return;
        };
        if !pool.evict(Instant::now()) {
            pool.reaper_running.store(false, Ordering::Release);
            // A put racing with this exit saw the flag still set; sweep
            // once more so its connection is not left without a reaper.
            if !pool.evict(Instant::now()) || pool.reaper_running.swap(true, Ordering::AcqRel) {
                return;
            }
        }
    }
}
