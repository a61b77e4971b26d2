//! The link to Redis: the fleet's own runtime thread, the connection, the
//! deadline of every operation, and whether the fleet is sharing or has
//! fallen back to local limits.
//!
//! # Why a runtime of its own
//!
//! Blocking clients have no async runtime, and an async caller's runtime
//! may be a test's that ends before the fleet does. Every Redis operation
//! therefore runs on one small current-thread runtime owned by the fleet;
//! a caller hands an operation over and waits for the answer at most the
//! deadline (an async caller awaits a channel, a blocking one waits on a
//! channel with a timeout). The connection is redis-rs'
//! `ConnectionManager` (multiplexed); this module adds only what it does
//! not do: deadlines that fall back instead of failing, and a supervisor
//! that notices trouble, reconnects in the background and switches the
//! fleet back to shared state by itself.

use std::fmt;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use evident_core::observe::{FallbackReason, SharedStateEvent};
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use tokio::sync::Notify;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender};

use crate::FleetConfig;

/// Why the fleet is not sharing through Redis right now. Never carries a
/// password or a server message (which could echo one).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Trouble {
    /// Redis did not answer within the deadline.
    #[error("Redis did not answer within {0:?}")]
    DeadlineExceeded(Duration),
    /// Nothing listens at the Redis address.
    #[error("connection to Redis refused")]
    ConnectionRefused,
    /// Redis rejected the username or password.
    #[error("Redis rejected the credentials")]
    Authentication,
    /// The connection failed or was lost.
    #[error("connection to Redis failed or was lost")]
    Connection,
    /// Redis answered with an error.
    #[error("Redis answered with an error ({0})")]
    Server(String),
    /// Not connected yet (start-up, or between reconnect attempts).
    #[error("not connected to Redis yet")]
    NotConnected,
    /// The fleet's runtime is gone (the process is shutting down).
    #[error("the fleet's runtime has stopped")]
    Stopped,
}

impl Trouble {
    /// The reason an observer is given for a fallback this trouble caused
    /// (mid-run; at start-up every failure is
    /// [`FallbackReason::UnavailableAtStart`]).
    fn fallback_reason(&self) -> FallbackReason {
        match self {
            Trouble::DeadlineExceeded(_) => FallbackReason::Deadline,
            _ => FallbackReason::Error,
        }
    }

    /// Classifies redis-rs' error; `deadline` is the one the operation ran
    /// under (redis-rs' own timeouts are set to it).
    pub(crate) fn from_redis(err: &redis::RedisError, deadline: Duration) -> Trouble {
        use redis::ErrorKind;
        if err.kind() == ErrorKind::AuthenticationFailed
            || matches!(err.code(), Some("WRONGPASS" | "NOAUTH" | "NOPERM"))
        {
            Trouble::Authentication
        } else if err.is_timeout() {
            // redis-rs' own timeout (set to the same deadline) fired
            // before ours.
            Trouble::DeadlineExceeded(deadline)
        } else if err.is_connection_refusal() {
            Trouble::ConnectionRefused
        } else if err.is_io_error() || err.is_connection_dropped() {
            Trouble::Connection
        } else {
            Trouble::Server(err.code().unwrap_or(err.category()).to_owned())
        }
    }
}

/// Whether the fleet is sharing its limits through Redis.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum FleetStatus {
    /// Limits and budget are shared through Redis.
    Shared,
    /// Limits and budget are local (the shared ones divided by the expected
    /// fleet size), because of this trouble; a reconnect runs in the
    /// background.
    Local(Trouble),
}

/// Counters of the fleet's Redis traffic, for benchmarks and dashboards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct FleetMetrics {
    /// Operations sent to Redis (each one round trip).
    pub round_trips: u64,
    /// Operations that missed their deadline.
    pub deadline_overruns: u64,
    /// Operations that failed otherwise.
    pub errors: u64,
    /// Times the fleet switched from shared to local.
    pub fallbacks: u64,
    /// Times it switched back to shared.
    pub recoveries: u64,
}

/// The shared half of the link: what tasks on the fleet's runtime and
/// callers both hold.
pub(crate) struct Link {
    pub(crate) config: FleetConfig,
    runtime: tokio::runtime::Handle,
    client: redis::Client,
    connection: Mutex<Option<ConnectionManager>>,
    shared: AtomicBool,
    /// Held while `shared` flips and the switch is queued for the
    /// observers, so they hear the switches in the order they happened.
    /// Calls never take it: only the one call that makes a fallback does.
    switching: Mutex<()>,
    /// Switches, to the observers (on the fleet's thread).
    switches: UnboundedSender<SharedStateEvent>,
    trouble: Mutex<Trouble>,
    wake_supervisor: Notify,
    round_trips: AtomicU64,
    deadline_overruns: AtomicU64,
    errors: AtomicU64,
    fallbacks: AtomicU64,
    recoveries: AtomicU64,
}

impl fmt::Debug for Link {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Link")
            .field("url", &self.config.url)
            .field("status", &self.status())
            .finish_non_exhaustive()
    }
}

/// Owns the runtime thread: dropping the last handle stops it.
pub(crate) struct LinkHandle {
    pub(crate) link: Arc<Link>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Drop for LinkHandle {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

impl fmt::Debug for LinkHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.link.fmt(f)
    }
}

impl Link {
    /// Starts the runtime thread and the supervisor, and waits up to the
    /// connect timeout for the first connection. Never fails because of
    /// Redis: unreachable, it starts local and keeps trying.
    pub(crate) fn start(config: FleetConfig) -> std::io::Result<LinkHandle> {
        let client = crate::config::redis_client(&config.url, config.tls_roots.as_ref())
            .expect("the URL and roots were validated by FleetConfigBuilder::build");
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .thread_name("evident-redis")
            .build()?;
        let handle = runtime.handle().clone();
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        std::thread::Builder::new()
            .name("evident-redis".to_owned())
            .spawn(move || {
                // Runs until the last handle is dropped, then drops the
                // runtime (and every task) on this thread.
                runtime.block_on(async {
                    let _ = stop_rx.await;
                });
            })?;
        let (switches, switched) = tokio::sync::mpsc::unbounded_channel();
        let link = Arc::new(Link {
            config,
            runtime: handle,
            client,
            connection: Mutex::new(None),
            shared: AtomicBool::new(false),
            switching: Mutex::new(()),
            switches,
            trouble: Mutex::new(Trouble::NotConnected),
            wake_supervisor: Notify::new(),
            round_trips: AtomicU64::new(0),
            deadline_overruns: AtomicU64::new(0),
            errors: AtomicU64::new(0),
            fallbacks: AtomicU64::new(0),
            recoveries: AtomicU64::new(0),
        });
        link.runtime.spawn(tell_observers(link.clone(), switched));
        let (first_tx, first_rx) = std::sync::mpsc::sync_channel(1);
        link.runtime.spawn(supervise(link.clone(), first_tx));
        // Bounded: the first attempt is itself bounded by the connect
        // timeout; the margin covers thread start-up.
        let _ = first_rx.recv_timeout(link.config.connect_timeout * 2);
        if !link.is_shared() {
            tracing::warn!(
                target: "evident::redis",
                url = %link.config.url,
                trouble = %link.trouble(),
                "evident fleet starts with local limits; reconnecting in the background"
            );
        }
        Ok(LinkHandle {
            link,
            stop: Some(stop_tx),
        })
    }

    /// Whether calls use the shared state now.
    pub(crate) fn is_shared(&self) -> bool {
        self.shared.load(Ordering::Acquire)
    }

    fn trouble(&self) -> Trouble {
        self.trouble
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    pub(crate) fn status(&self) -> FleetStatus {
        if self.is_shared() {
            FleetStatus::Shared
        } else {
            FleetStatus::Local(self.trouble())
        }
    }

    pub(crate) fn metrics(&self) -> FleetMetrics {
        FleetMetrics {
            round_trips: self.round_trips.load(Ordering::Relaxed),
            deadline_overruns: self.deadline_overruns.load(Ordering::Relaxed),
            errors: self.errors.load(Ordering::Relaxed),
            fallbacks: self.fallbacks.load(Ordering::Relaxed),
            recoveries: self.recoveries.load(Ordering::Relaxed),
        }
    }

    /// Records `trouble` and, if the fleet was sharing, falls back to
    /// local limits and wakes the supervisor to reconnect.
    pub(crate) fn report(&self, trouble: Trouble) {
        match trouble {
            Trouble::DeadlineExceeded(_) => &self.deadline_overruns,
            _ => &self.errors,
        }
        .fetch_add(1, Ordering::Relaxed);
        *self.trouble.lock().unwrap_or_else(PoisonError::into_inner) = trouble.clone();
        if self.is_shared()
            && self.switch(
                false,
                SharedStateEvent::FellBack {
                    reason: trouble.fallback_reason(),
                },
            )
        {
            self.fallbacks.fetch_add(1, Ordering::Relaxed);
            tracing::warn!(
                target: "evident::redis",
                url = %self.config.url,
                %trouble,
                "evident fleet falls back to local limits; reconnecting in the background"
            );
            self.wake_supervisor.notify_one();
        }
    }

    /// Sets whether the fleet shares; if that changed it, queues `event`
    /// for the observers and returns true. Exactly one caller wins each
    /// switch, and the observers hear the switches in order.
    fn switch(&self, shared: bool, event: SharedStateEvent) -> bool {
        let _switching = self
            .switching
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let switched = self.shared.swap(shared, Ordering::AcqRel) != shared;
        if switched {
            // Fails only once the fleet's runtime has stopped, when no
            // observer could be told anyway.
            let _ = self.switches.send(event);
        }
        switched
    }

    fn connection(&self) -> Option<ConnectionManager> {
        self.connection
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Runs `op` against Redis on the fleet's runtime, bounded by the
    /// deadline, and hands the outcome to `reply`. `reply` returns whether
    /// someone took the answer; if not, `undelivered` gets it (to give back
    /// tokens nobody will use). Trouble is reported before `reply` runs.
    pub(crate) fn submit<T, Op, Fut, Reply, Undelivered>(
        self: &Arc<Self>,
        op: Op,
        reply: Reply,
        undelivered: Undelivered,
    ) where
        T: Send + 'static,
        Op: FnOnce(ConnectionManager) -> Fut + Send + 'static,
        Fut: Future<Output = redis::RedisResult<T>> + Send + 'static,
        Reply: FnOnce(Result<T, Trouble>) -> Result<(), Result<T, Trouble>> + Send + 'static,
        Undelivered: FnOnce(T) + Send + 'static,
    {
        let link = self.clone();
        let task = async move {
            let outcome = link.run(op).await;
            if let Err(Ok(value)) = reply(outcome) {
                undelivered(value);
            }
        };
        // A stopped runtime drops the task: `reply` is never called and the
        // waiting caller sees a closed channel, which it treats as trouble.
        self.runtime.spawn(task);
    }

    /// Runs `op` on the current (fleet) runtime with the deadline.
    pub(crate) async fn run<T, Op, Fut>(self: &Arc<Self>, op: Op) -> Result<T, Trouble>
    where
        Op: FnOnce(ConnectionManager) -> Fut,
        Fut: Future<Output = redis::RedisResult<T>>,
    {
        let Some(connection) = self.connection() else {
            return Err(Trouble::NotConnected);
        };
        self.round_trips.fetch_add(1, Ordering::Relaxed);
        let deadline = self.config.deadline;
        let outcome = match tokio::time::timeout(deadline, op(connection)).await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(err)) => Err(Trouble::from_redis(&err, deadline)),
            Err(_) => Err(Trouble::DeadlineExceeded(deadline)),
        };
        if let Err(trouble) = &outcome {
            self.report(trouble.clone());
        }
        outcome
    }

    /// Spawns `task` on the fleet's runtime.
    pub(crate) fn spawn<F: Future<Output = ()> + Send + 'static>(&self, task: F) {
        self.runtime.spawn(task);
    }

    /// Waits (blocking the thread) for an operation's answer at most the
    /// deadline; the answer arrives through `rx`.
    pub(crate) fn wait_blocking<T>(
        &self,
        rx: &std::sync::mpsc::Receiver<Result<T, Trouble>>,
    ) -> Result<T, Trouble> {
        match rx.recv_timeout(self.config.deadline) {
            Ok(outcome) => outcome,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                // A thread descheduled past the deadline may find the
                // answer waiting: better than falling back for nothing.
                if let Ok(outcome) = rx.try_recv() {
                    return outcome;
                }
                let trouble = Trouble::DeadlineExceeded(self.config.deadline);
                self.report(trouble.clone());
                Err(trouble)
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => Err(Trouble::Stopped),
        }
    }

    /// Tries once to open a fresh connection and check it with a PING.
    async fn connect_once(&self) -> Result<ConnectionManager, Trouble> {
        let timeout = self.config.connect_timeout;
        let manager_config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(timeout))
            .set_response_timeout(Some(self.config.deadline))
            // The supervisor below retries; redis-rs' own retries would
            // only delay noticing that Redis is back.
            .set_number_of_retries(0)
            .set_max_delay(self.config.reconnect_interval);
        let attempt = async {
            let mut manager =
                ConnectionManager::new_with_config(self.client.clone(), manager_config).await?;
            redis::cmd("PING")
                .query_async::<String>(&mut manager)
                .await?;
            // A restarted Redis has forgotten the scripts: load them now,
            // so the first call does not spend its deadline on NOSCRIPT
            // and a second round trip.
            for script in [
                &*crate::limiter::TAKE,
                &*crate::limiter::REFUND,
                &*crate::budget::FLUSH,
            ] {
                script.prepare_invoke().load_async(&mut manager).await?;
            }
            Ok::<_, redis::RedisError>(manager)
        };
        match tokio::time::timeout(timeout, attempt).await {
            Ok(Ok(manager)) => Ok(manager),
            Ok(Err(err)) => Err(Trouble::from_redis(&err, timeout)),
            Err(_) => Err(Trouble::DeadlineExceeded(timeout)),
        }
    }
}

/// The supervisor: while the fleet is local, opens a fresh connection every
/// reconnect interval until one answers, then switches back to shared. A
/// fresh connection (rather than waiting for the old one to recover) makes
/// recovery from a restarted, paused or re-credentialed Redis the same
/// path.
async fn supervise(link: Arc<Link>, first: std::sync::mpsc::SyncSender<()>) {
    let mut first = Some(first);
    loop {
        if !link.is_shared() {
            match link.connect_once().await {
                Ok(manager) => {
                    *link
                        .connection
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner) = Some(manager);
                    let was_first = first.is_some();
                    link.switch(
                        true,
                        if was_first {
                            SharedStateEvent::Joined
                        } else {
                            SharedStateEvent::SharedAgain
                        },
                    );
                    if was_first {
                        tracing::info!(target: "evident::redis", url = %link.config.url, "evident fleet shares its limits through Redis");
                    } else {
                        link.recoveries.fetch_add(1, Ordering::Relaxed);
                        tracing::info!(target: "evident::redis", url = %link.config.url, "evident fleet shares its limits through Redis again");
                    }
                }
                Err(trouble) => {
                    link.errors.fetch_add(1, Ordering::Relaxed);
                    *link.trouble.lock().unwrap_or_else(PoisonError::into_inner) = trouble;
                    if first.is_some() {
                        // Not a switch (the fleet never shared), but the
                        // observers learn how it starts either way.
                        let _ = link.switches.send(SharedStateEvent::FellBack {
                            reason: FallbackReason::UnavailableAtStart,
                        });
                    }
                }
            }
            if let Some(first) = first.take() {
                let _ = first.try_send(());
            }
        }
        if link.is_shared() {
            link.wake_supervisor.notified().await;
            if link.is_shared() {
                // A wake-up left from before the last reconnect: nothing
                // is wrong with this connection.
                continue;
            }
            // The old connection may be stuck behind a slow or dead
            // server: the next attempt opens a new one.
            link.connection
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take();
        } else {
            tokio::time::sleep(link.config.reconnect_interval).await;
        }
    }
}

/// Tells the observers of each switch, in order, on the fleet's thread:
/// never on a call's path, and holding no lock a call needs.
async fn tell_observers(link: Arc<Link>, mut switched: UnboundedReceiver<SharedStateEvent>) {
    let observers = link.config.observers.0.clone();
    let fleet = link.config.key_prefix.clone();
    // The link owns the sender: drop this task's hold on it, or the
    // channel could never close.
    drop(link);
    while let Some(event) = switched.recv().await {
        for observer in &observers {
            // A panicking observer must not silence the others, nor the
            // switches still to come.
            let told = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                observer.on_shared_state(&fleet, &event);
            }));
            if told.is_err() {
                tracing::error!(target: "evident::redis", %event, "an Observer panicked in on_shared_state");
            }
        }
    }
}

/// rediss:// goes through redis-rs' rustls, which builds its TLS
/// configuration with rustls' process-wide default provider. The
/// workspace enables only ring, but a program that also links aws-lc-rs
/// (another dependency's choice) has two and no default, and redis-rs
/// would panic. Installing ring as the default when none is set is the
/// one thing redis-rs' API leaves us; a program that installed its own
/// keeps it.
#[cfg(feature = "tls")]
pub(crate) fn install_crypto_provider() {
    if rustls::crypto::CryptoProvider::get_default().is_none() {
        let _ = rustls::crypto::ring::default_provider().install_default();
    }
}
