//! The ledger: what a lab server saw and what it acted on.
//!
//! "No duplicate execution" is only meaningful when it is measured on the
//! server, so every lab server writes into a [`Ledger`]: connections
//! accepted, request heads received, and *executions* — requests the
//! server's behaviour acted on. Executions are counted per request id (the
//! [`REQUEST_ID_HEADER`] the conformance harness sets per logical call) and
//! per idempotency key, and a key that was already executed is answered as a
//! *replay* instead of being executed again.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::Notify;

/// Header carrying the conformance harness's id for one logical call; every
/// attempt of that call carries the same value.
pub const REQUEST_ID_HEADER: &str = "x-evident-request";

/// Header carrying the caller's idempotency key.
pub const IDEMPOTENCY_KEY_HEADER: &str = "idempotency-key";

/// Header set on an answer that replays a stored result for an idempotency
/// key instead of executing the request again (the name Stripe uses).
pub const REPLAY_HEADER: &str = "idempotent-replayed";

/// The request id under which requests without [`REQUEST_ID_HEADER`] are
/// counted.
pub const NO_REQUEST_ID: &str = "(none)";

/// What became of one received request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Disposition {
    /// The head was read; the behaviour did not act on it (yet, or ever).
    Received,
    /// The behaviour acted on the request.
    Executed,
    /// The request carried an idempotency key that had already been
    /// executed: it was answered from the stored result, not executed again.
    Replayed,
}

/// One request head the server read, in arrival order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Receipt {
    /// Position among all requests this server received, from 0.
    pub index: usize,
    /// The connection it arrived on, numbered from 0 in accept order.
    pub connection: u64,
    /// The HTTP/2 stream id, or `None` for HTTP/1.1.
    pub stream_id: Option<u32>,
    /// Method, e.g. `POST`.
    pub method: String,
    /// Request target (path and query) as sent.
    pub target: String,
    /// The [`REQUEST_ID_HEADER`] value, or [`NO_REQUEST_ID`].
    pub request_id: String,
    /// The [`IDEMPOTENCY_KEY_HEADER`] value, if any.
    pub idempotency_key: Option<String>,
    /// What the server did with it.
    pub disposition: Disposition,
}

/// A consistent copy of every ledger count, taken at one instant.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LedgerSnapshot {
    /// Connections accepted (TCP level, before any TLS handshake).
    pub connections: u64,
    /// Request heads fully read.
    pub requests: u64,
    /// Requests the server acted on.
    pub executions: u64,
    /// Requests answered as replays of an already executed idempotency key.
    pub replays: u64,
    /// Keep-alive connections the server closed while they were idle
    /// (see `RespondThenCloseIdle`).
    pub idle_closes: u64,
    /// Received requests per request id.
    pub receipts_by_request: BTreeMap<String, u64>,
    /// Executions per request id.
    pub executions_by_request: BTreeMap<String, u64>,
    /// Received requests per idempotency key.
    pub receipts_by_key: BTreeMap<String, u64>,
    /// Executions per idempotency key.
    pub executions_by_key: BTreeMap<String, u64>,
}

/// Shared, cheap-to-clone record of what one lab server saw.
///
/// All counts are monotonic. [`Ledger::wait_until`] lets a test wait for the
/// server to reach a state without sleeping.
///
/// ```
/// use std::time::Duration;
/// use evident_conformance::lab::{Http1Behaviour, Http1Server};
/// use tokio::io::{AsyncReadExt, AsyncWriteExt};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> std::io::Result<()> {
/// // Executed, then closed without an answer: the client cannot tell.
/// let server = Http1Server::new([Http1Behaviour::CloseAfterRequest { execute: true }]).start()?;
/// let mut stream = tokio::net::TcpStream::connect(server.addr()).await?;
/// stream
///     .write_all(b"POST /pay HTTP/1.1\r\nhost: lab\r\nidempotency-key: k1\r\ncontent-length: 0\r\n\r\n")
///     .await?;
/// let mut answer = Vec::new();
/// stream.read_to_end(&mut answer).await?;
/// assert!(answer.is_empty());
///
/// // The server knows.
/// let ledger = server.ledger();
/// tokio::time::timeout(Duration::from_secs(5), ledger.wait_until(|s| s.executions == 1))
///     .await
///     .expect("counted");
/// assert_eq!(ledger.executions_for_key("k1"), 1);
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, Default)]
pub struct Ledger {
    inner: Arc<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    state: Mutex<State>,
    changed: Notify,
}

#[derive(Debug, Default)]
struct State {
    counts: LedgerSnapshot,
    receipts: Vec<Receipt>,
    /// Status stored for each executed idempotency key, replayed on repeats.
    key_status: BTreeMap<String, u16>,
}

/// A received request, as the servers hand it to the ledger.
#[derive(Debug, Clone)]
pub(crate) struct Arrival {
    pub(crate) connection: u64,
    pub(crate) stream_id: Option<u32>,
    pub(crate) method: String,
    pub(crate) target: String,
    pub(crate) request_id: Option<String>,
    pub(crate) idempotency_key: Option<String>,
}

/// The ledger's verdict on a received request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Admission {
    /// A new request: run the script's behaviour for this index.
    Fresh { index: usize },
    /// The key was executed before: answer `status` without executing.
    Replay { index: usize, status: u16 },
}

impl Ledger {
    /// An empty ledger.
    pub fn new() -> Self {
        Self::default()
    }

    /// Connections accepted.
    pub fn connections(&self) -> u64 {
        self.lock().counts.connections
    }

    /// Request heads fully read (replays included).
    pub fn requests(&self) -> u64 {
        self.lock().counts.requests
    }

    /// Requests the server acted on, in total.
    pub fn executions(&self) -> u64 {
        self.lock().counts.executions
    }

    /// Requests answered as replays of an already executed key.
    pub fn replays(&self) -> u64 {
        self.lock().counts.replays
    }

    /// Idle keep-alive connections the server closed.
    pub fn idle_closes(&self) -> u64 {
        self.lock().counts.idle_closes
    }

    /// Executions of the logical call `request_id` (use [`NO_REQUEST_ID`]
    /// for requests that carried none).
    pub fn executions_for(&self, request_id: &str) -> u64 {
        count(&self.lock().counts.executions_by_request, request_id)
    }

    /// Requests received for the logical call `request_id`.
    pub fn receipts_for(&self, request_id: &str) -> u64 {
        count(&self.lock().counts.receipts_by_request, request_id)
    }

    /// Executions carrying idempotency key `key` (at most 1: the server
    /// honours keys).
    pub fn executions_for_key(&self, key: &str) -> u64 {
        count(&self.lock().counts.executions_by_key, key)
    }

    /// Requests received carrying idempotency key `key`.
    pub fn receipts_for_key(&self, key: &str) -> u64 {
        count(&self.lock().counts.receipts_by_key, key)
    }

    /// Every request received so far, in arrival order.
    pub fn receipts(&self) -> Vec<Receipt> {
        self.lock().receipts.clone()
    }

    /// All counts, taken together.
    pub fn snapshot(&self) -> LedgerSnapshot {
        self.lock().counts.clone()
    }

    /// Resolves once `condition` holds for the ledger's counts.
    ///
    /// Never resolves if it never holds: bound it with
    /// `tokio::time::timeout`.
    pub async fn wait_until(&self, mut condition: impl FnMut(&LedgerSnapshot) -> bool) {
        loop {
            let changed = self.inner.changed.notified();
            tokio::pin!(changed);
            // Register before checking, so a change between the check and
            // the await is not missed.
            changed.as_mut().enable();
            if condition(&self.lock().counts) {
                return;
            }
            changed.await;
        }
    }

    pub(crate) fn connection_accepted(&self) -> u64 {
        self.update(|s| {
            s.counts.connections += 1;
            s.counts.connections - 1
        })
    }

    pub(crate) fn idle_closed(&self) {
        self.update(|s| s.counts.idle_closes += 1);
    }

    /// Records a received head and decides whether it is a replay.
    pub(crate) fn receive(&self, arrival: Arrival) -> Admission {
        self.update(|s| {
            let index = s.receipts.len();
            let request_id = arrival
                .request_id
                .unwrap_or_else(|| NO_REQUEST_ID.to_owned());
            s.counts.requests += 1;
            *s.counts
                .receipts_by_request
                .entry(request_id.clone())
                .or_default() += 1;
            let stored = arrival.idempotency_key.as_ref().and_then(|key| {
                *s.counts.receipts_by_key.entry(key.clone()).or_default() += 1;
                s.key_status.get(key).copied()
            });
            let disposition = if stored.is_some() {
                s.counts.replays += 1;
                Disposition::Replayed
            } else {
                Disposition::Received
            };
            s.receipts.push(Receipt {
                index,
                connection: arrival.connection,
                stream_id: arrival.stream_id,
                method: arrival.method,
                target: arrival.target,
                request_id,
                idempotency_key: arrival.idempotency_key,
                disposition,
            });
            match stored {
                Some(status) => Admission::Replay { index, status },
                None => Admission::Fresh { index },
            }
        })
    }

    /// Records that the behaviour acted on receipt `index`; `status` is the
    /// answer a later replay of its idempotency key gets.
    pub(crate) fn execute(&self, index: usize, status: u16) {
        self.update(|s| {
            let Some(receipt) = s.receipts.get_mut(index) else {
                return;
            };
            if receipt.disposition != Disposition::Received {
                return;
            }
            receipt.disposition = Disposition::Executed;
            let request_id = receipt.request_id.clone();
            let key = receipt.idempotency_key.clone();
            s.counts.executions += 1;
            *s.counts
                .executions_by_request
                .entry(request_id)
                .or_default() += 1;
            if let Some(key) = key {
                *s.counts.executions_by_key.entry(key.clone()).or_default() += 1;
                s.key_status.entry(key).or_insert(status);
            }
        });
    }

    fn update<R>(&self, f: impl FnOnce(&mut State) -> R) -> R {
        let result = f(&mut self.lock());
        self.inner.changed.notify_waiters();
        result
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock cannot leave the counts torn in a
        // way that matters to a test; keep serving the data.
        self.inner
            .state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

fn count(map: &BTreeMap<String, u64>, key: &str) -> u64 {
    map.get(key).copied().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arrival(id: Option<&str>, key: Option<&str>) -> Arrival {
        Arrival {
            connection: 0,
            stream_id: None,
            method: "POST".into(),
            target: "/".into(),
            request_id: id.map(Into::into),
            idempotency_key: key.map(Into::into),
        }
    }

    #[test]
    fn a_key_executed_once_is_replayed_with_its_stored_status() {
        let ledger = Ledger::new();
        let Admission::Fresh { index } = ledger.receive(arrival(Some("a"), Some("k"))) else {
            panic!("first arrival must be fresh");
        };
        ledger.execute(index, 201);
        assert_eq!(
            ledger.receive(arrival(Some("a"), Some("k"))),
            Admission::Replay {
                index: 1,
                status: 201
            }
        );
        assert_eq!(ledger.executions_for_key("k"), 1);
        assert_eq!(ledger.receipts_for_key("k"), 2);
        assert_eq!(ledger.executions_for("a"), 1);
        assert_eq!(ledger.receipts_for("a"), 2);
        assert_eq!(ledger.replays(), 1);
    }

    #[test]
    fn a_key_received_but_not_executed_is_not_replayed() {
        let ledger = Ledger::new();
        ledger.receive(arrival(None, Some("k")));
        assert!(matches!(
            ledger.receive(arrival(None, Some("k"))),
            Admission::Fresh { index: 1 }
        ));
        assert_eq!(ledger.receipts_for(NO_REQUEST_ID), 2);
        assert_eq!(ledger.executions(), 0);
    }

    #[test]
    fn executing_the_same_receipt_twice_counts_once() {
        let ledger = Ledger::new();
        ledger.receive(arrival(None, None));
        ledger.execute(0, 200);
        ledger.execute(0, 200);
        assert_eq!(ledger.executions(), 1);
    }
}
