//! The connection pool: idle HTTP/1.1 connections and one shared HTTP/2
//! connection per origin.
//!
//! Checkout health-checks what it hands out: an HTTP/1.1 connection whose
//! hyper dispatcher is closed, or that does not accept a request, is
//! dropped; an HTTP/2 connection that can open no stream (closed, failed,
//! GOAWAY received) is removed. Nothing is ever re-sent: a connection that
//! fails *after* checkout fails the attempt, and the core decides.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Mutex, PoisonError};

use crate::h1::H1Conn;
use crate::h2::H2Conn;
use crate::origin::Origin;

/// A connection ready for one request.
#[derive(Debug)]
pub(crate) enum Conn {
    H1(H1Conn),
    H2(H2Conn),
}

#[derive(Default)]
struct Entry {
    idle: Vec<H1Conn>,
    h2: Option<H2Conn>,
}

/// Connections per origin.
pub(crate) struct Pool {
    max_idle_per_origin: usize,
    origins: Mutex<HashMap<Origin, Entry>>,
}

impl fmt::Debug for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let origins = self.lock();
        f.debug_struct("Pool")
            .field("max_idle_per_origin", &self.max_idle_per_origin)
            .field("origins", &origins.len())
            .finish()
    }
}

impl Pool {
    pub(crate) fn new(max_idle_per_origin: usize) -> Self {
        Pool {
            max_idle_per_origin,
            origins: Mutex::new(HashMap::new()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Origin, Entry>> {
        self.origins.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A healthy pooled connection for `origin`, HTTP/2 first.
    pub(crate) async fn checkout(&self, origin: &Origin) -> Option<Conn> {
        let shared = self.lock().get(origin).and_then(|e| e.h2.clone());
        if let Some(h2) = shared {
            if !h2.is_closed()
                && let Ok(ready) = h2.ready().await
            {
                return Some(Conn::H2(ready));
            }
            self.remove_h2(origin, &h2);
        }
        // Bounded: every turn removes one idle connection.
        while let Some(mut conn) = self.pop_idle(origin) {
            if conn.is_closed() {
                continue;
            }
            if conn.ready().await.is_ok() {
                return Some(Conn::H1(conn));
            }
        }
        None
    }

    fn pop_idle(&self, origin: &Origin) -> Option<H1Conn> {
        let mut origins = self.lock();
        let entry = origins.get_mut(origin)?;
        let conn = entry.idle.pop();
        if entry.idle.is_empty() && entry.h2.is_none() {
            origins.remove(origin);
        }
        conn
    }

    /// Keeps an HTTP/1.1 connection whose exchange is complete.
    ///
    /// Only hyper's own view is consulted here, not the socket: a peer that
    /// closes the connection later (or just now) is caught by the socket
    /// check at checkout, which is the one that protects the next request.
    /// Looking at the socket at check-in too cost a syscall per request
    /// and proved nothing the checkout does not prove again.
    pub(crate) fn put_h1(&self, origin: Origin, conn: H1Conn) {
        if conn.dispatcher_closed() || self.max_idle_per_origin == 0 {
            return;
        }
        let mut origins = self.lock();
        let entry = origins.entry(origin).or_default();
        if entry.idle.len() < self.max_idle_per_origin {
            entry.idle.push(conn);
        }
    }

    /// Shares an HTTP/2 connection for later requests to `origin`.
    pub(crate) fn put_h2(&self, origin: Origin, conn: H2Conn) {
        self.lock().entry(origin).or_default().h2 = Some(conn);
    }

    /// Stops sharing `conn` for `origin` (if it still is the shared one).
    pub(crate) fn remove_h2(&self, origin: &Origin, conn: &H2Conn) {
        let mut origins = self.lock();
        if let Some(entry) = origins.get_mut(origin) {
            if entry.h2.as_ref().is_some_and(|c| c.same_connection(conn)) {
                entry.h2 = None;
            }
            if entry.idle.is_empty() && entry.h2.is_none() {
                origins.remove(origin);
            }
        }
    }
}
