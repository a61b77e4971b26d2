//! Connecting: where a request goes ([`Origin`]), and one connect over every
//! resolved address, async ([`connect`]) and blocking ([`connect_blocking`]),
//! per RFC 8305 (Happy Eyeballs version 2).
//!
//! The rules are in the [`engine`](crate::engine#connecting-happy-eyeballs)
//! docs ("Connecting: Happy Eyeballs").

use std::fmt;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::task::Poll;
use std::time::{Duration, Instant};

use super::EngineFailure;
use crate::classify::EngineSignal;
use crate::config::ConfigError;
use crate::failure::{AttemptStage, BoxError};
use crate::progress::Progress;

/// How long to wait after starting one address's connect before starting
/// the next while the first is still trying: 250 ms, RFC 8305 §5's
/// recommended Connection Attempt Delay. A healthy loopback or LAN address
/// connects far sooner; a silent one costs this, not a whole timeout.
pub const DEFAULT_CONNECTION_ATTEMPT_DELAY: Duration = Duration::from_millis(250);

/// The shortest Connection Attempt Delay accepted: 10 ms, below which
/// RFC 8305 §5 says it MUST NOT go (a client racing every address at once
/// floods the network).
pub const MIN_CONNECTION_ATTEMPT_DELAY: Duration = Duration::from_millis(10);

/// The longest Connection Attempt Delay accepted: 2 s, RFC 8305 §5's
/// recommended maximum. Beyond it, a silent first address costs as much as
/// trying the addresses one by one.
pub const MAX_CONNECTION_ATTEMPT_DELAY: Duration = Duration::from_secs(2);

/// How long one address's TCP connect may take while another address
/// remains to be started: 2 s. A healthy address answers far sooner, even
/// across continents. With Happy Eyeballs a silent address no longer holds
/// the next one back (that is the attempt delay's job); this bounds how
/// long it keeps trying beside the others. Every connect is in any case
/// bounded by what is left of the attempt.
pub const DEFAULT_CONNECT_TIMEOUT_PER_ADDRESS: Duration = Duration::from_secs(2);

/// The timing of a multi-address connect ([`connect`],
/// [`connect_blocking`]).
///
/// ```
/// use std::time::Duration;
/// use evident_core::engine::{ConnectTiming, DEFAULT_CONNECTION_ATTEMPT_DELAY};
///
/// let timing = ConnectTiming::default();
/// assert_eq!(timing.attempt_delay(), DEFAULT_CONNECTION_ATTEMPT_DELAY);
///
/// let timing = ConnectTiming::new(Duration::from_millis(100), Duration::from_secs(1)).unwrap();
/// assert_eq!(timing.attempt_delay(), Duration::from_millis(100));
///
/// // Below RFC 8305's floor: rejected, naming the builder field.
/// let err = ConnectTiming::new(Duration::from_millis(1), Duration::from_secs(1)).unwrap_err();
/// assert_eq!(err.field(), "connection_attempt_delay");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectTiming {
    attempt_delay: Duration,
    per_address_timeout: Duration,
}

impl Default for ConnectTiming {
    fn default() -> Self {
        ConnectTiming {
            attempt_delay: DEFAULT_CONNECTION_ATTEMPT_DELAY,
            per_address_timeout: DEFAULT_CONNECT_TIMEOUT_PER_ADDRESS,
        }
    }
}

impl ConnectTiming {
    /// A validated timing.
    ///
    /// # Errors
    ///
    /// * `connection_attempt_delay`: outside
    ///   [`MIN_CONNECTION_ATTEMPT_DELAY`]..=[`MAX_CONNECTION_ATTEMPT_DELAY`];
    /// * `connect_timeout_per_address`: zero.
    ///
    /// The field names are the adapters' builder methods.
    pub fn new(
        attempt_delay: Duration,
        per_address_timeout: Duration,
    ) -> Result<ConnectTiming, ConfigError> {
        if attempt_delay < MIN_CONNECTION_ATTEMPT_DELAY {
            return Err(ConfigError::new(
                "connection_attempt_delay",
                attempt_delay,
                "below MIN_CONNECTION_ATTEMPT_DELAY (RFC 8305 §5: at least 10 ms)",
            ));
        }
        if attempt_delay > MAX_CONNECTION_ATTEMPT_DELAY {
            return Err(ConfigError::new(
                "connection_attempt_delay",
                attempt_delay,
                "above MAX_CONNECTION_ATTEMPT_DELAY",
            ));
        }
        if per_address_timeout.is_zero() {
            return Err(ConfigError::new(
                "connect_timeout_per_address",
                per_address_timeout,
                "must be positive",
            ));
        }
        Ok(ConnectTiming {
            attempt_delay,
            per_address_timeout,
        })
    }

    /// The Connection Attempt Delay: how long after starting one address
    /// the next is started, if the first has neither connected nor failed.
    pub fn attempt_delay(&self) -> Duration {
        self.attempt_delay
    }

    /// The most one address's TCP connect may take while another address
    /// remains to be started.
    pub fn per_address_timeout(&self) -> Duration {
        self.per_address_timeout
    }

    /// The bound of one address's TCP connect: the per-address timeout
    /// unless it is the last address to start, and never more than what is
    /// left before `deadline`. `Err` when nothing is left.
    fn limit(&self, last: bool, deadline: Option<Instant>) -> Result<Option<Duration>, ()> {
        let own = (!last).then_some(self.per_address_timeout);
        match deadline {
            None => Ok(own),
            Some(deadline) => {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    Err(())
                } else {
                    Ok(Some(own.map_or(left, |own| own.min(left))))
                }
            }
        }
    }
}

/// Where a request goes: scheme, host and port, as the pipeline keys its
/// limits and an engine keys its pool, resolves and names the TLS server.
/// One type for both ([`evident_resilience::Origin`]): host names are
/// lower-cased and IPv6 literals kept without their brackets;
/// [`Origin::authority`] and `Display` put them back.
pub use evident_resilience::{Origin, Scheme};

/// A request URI no engine can send (relative, another scheme, no host),
/// from [`Origin::from_uri`]. An engine reports it as
/// [`EngineSignal::Other`] (nothing was sent, and the core does not retry
/// what cannot be sent): `EngineFailure::from(invalid)`.
pub use evident_resilience::InvalidUri;

impl From<InvalidUri> for EngineFailure {
    fn from(invalid: InvalidUri) -> Self {
        EngineFailure::new(EngineSignal::Other, invalid)
    }
}

/// The order addresses are tried in (RFC 8305 §4): the resolver's order
/// within each family, the families alternating, starting with the family
/// of the first address.
///
/// ```
/// use std::net::SocketAddr;
/// use evident_core::engine::interleave;
///
/// let addrs: Vec<SocketAddr> = ["[::1]:80", "[::2]:80", "[::3]:80", "127.0.0.1:80", "127.0.0.2:80"]
///     .iter().map(|a| a.parse().unwrap()).collect();
/// let order: Vec<String> = interleave(addrs).iter().map(ToString::to_string).collect();
/// assert_eq!(order, ["[::1]:80", "127.0.0.1:80", "[::2]:80", "127.0.0.2:80", "[::3]:80"]);
/// ```
pub fn interleave(addrs: Vec<SocketAddr>) -> Vec<SocketAddr> {
    let Some(first) = addrs.first() else {
        return addrs;
    };
    let first_is_v6 = first.is_ipv6();
    let (mut lead, mut other): (Vec<_>, Vec<_>) =
        addrs.into_iter().partition(|a| a.is_ipv6() == first_is_v6);
    let mut order = Vec::with_capacity(lead.len() + other.len());
    lead.reverse();
    other.reverse();
    loop {
        match (lead.pop(), other.pop()) {
            (None, None) => return order,
            (a, b) => order.extend(a.into_iter().chain(b)),
        }
    }
}

/// Which failure of a connect over several addresses surfaces, with every
/// address's failure kept.
///
/// A host with several addresses is tried in turn; each address may fail
/// differently. The rule, shared by every adapter so that every engine
/// reports the same thing: a **permanent** failure (a rejected certificate,
/// say) is never hidden by a milder one (a refused connection); among
/// failures of the same weight, the first pushed is kept. [`connect`] and
/// [`connect_blocking`] push in address order, whatever order the
/// addresses failed in.
///
/// ```
/// use evident_core::EngineSignal;
/// use evident_core::engine::ConnectFailures;
///
/// let mut failures = ConnectFailures::new();
/// failures.push(EngineSignal::TlsCertificate, "untrusted certificate at 127.0.0.3");
/// failures.push(EngineSignal::ConnectionRefused, "refused at 127.0.0.2");
/// assert_eq!(failures.len(), 2);
/// assert_eq!(failures.into_surfaced().unwrap().0, EngineSignal::TlsCertificate);
/// ```
#[derive(Debug)]
pub struct ConnectFailures<E> {
    all: Vec<(Option<SocketAddr>, EngineSignal, E)>,
    surfaced: Option<usize>,
}

impl<E> Default for ConnectFailures<E> {
    fn default() -> Self {
        ConnectFailures {
            all: Vec::new(),
            surfaced: None,
        }
    }
}

impl<E> ConnectFailures<E> {
    /// No failures yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records the failure of one address.
    pub fn push(&mut self, signal: EngineSignal, error: E) {
        self.push_for(None, signal, error);
    }

    /// Records the failure of `addr`.
    pub fn push_at(&mut self, addr: SocketAddr, signal: EngineSignal, error: E) {
        self.push_for(Some(addr), signal, error);
    }

    fn push_for(&mut self, addr: Option<SocketAddr>, signal: EngineSignal, error: E) {
        let weight = |s: EngineSignal| u8::from(signal_is_permanent(s));
        let replace = match self.surfaced {
            Some(kept) => weight(self.all[kept].1) < weight(signal),
            None => true,
        };
        if replace {
            self.surfaced = Some(self.all.len());
        }
        self.all.push((addr, signal, error));
    }

    /// How many addresses failed.
    pub fn len(&self) -> usize {
        self.all.len()
    }

    /// Whether no address failed yet.
    pub fn is_empty(&self) -> bool {
        self.all.is_empty()
    }

    /// Every failure, in the order pushed: the address (when known), the
    /// signal and the error.
    pub fn iter(&self) -> impl Iterator<Item = (Option<SocketAddr>, EngineSignal, &E)> {
        self.all.iter().map(|(a, s, e)| (*a, *s, e))
    }

    /// The failure that must be reported, if any address failed.
    pub fn into_surfaced(mut self) -> Option<(EngineSignal, E)> {
        let index = self.surfaced?;
        let (_, signal, error) = self.all.swap_remove(index);
        Some((signal, error))
    }
}

impl<E: Into<BoxError>> ConnectFailures<E> {
    /// The attempt's failure when no address connected: the surfaced
    /// signal, with an error that names every address's failure and whose
    /// [`source`](std::error::Error::source) is the surfaced error. With no
    /// failure at all (no address to try), [`EngineSignal::NameNotFound`].
    pub fn into_failure(self) -> EngineFailure {
        let Some(index) = self.surfaced else {
            return EngineFailure::new(
                EngineSignal::NameNotFound,
                std::io::Error::new(std::io::ErrorKind::NotFound, "no address to connect to"),
            );
        };
        let mut others = Vec::with_capacity(self.all.len().saturating_sub(1));
        let mut surfaced = None;
        for (i, (addr, signal, error)) in self.all.into_iter().enumerate() {
            let error: BoxError = error.into();
            if i == index {
                surfaced = Some((addr, signal, error));
            } else {
                others.push(format!("{}: {signal:?}: {error}", describe(addr)));
            }
        }
        let (addr, signal, error) = surfaced.expect("the surfaced index is in range");
        if others.is_empty() {
            return EngineFailure::new(signal, error);
        }
        EngineFailure::new(
            signal,
            AddressesFailed {
                addr,
                error,
                others,
            },
        )
    }
}

fn describe(addr: Option<SocketAddr>) -> String {
    addr.map_or_else(|| "an address".to_owned(), |a| a.to_string())
}

/// Every address failed: the surfaced failure, then the others.
#[derive(Debug)]
struct AddressesFailed {
    addr: Option<SocketAddr>,
    error: BoxError,
    others: Vec<String>,
}

impl fmt::Display for AddressesFailed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "every address failed; {}: {} (also: {})",
            describe(self.addr),
            self.error,
            self.others.join("; ")
        )
    }
}

impl std::error::Error for AddressesFailed {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.error)
    }
}

/// Whether a signal always means a permanent category (independent of the
/// stage it is seen at).
fn signal_is_permanent(signal: EngineSignal) -> bool {
    matches!(
        signal,
        EngineSignal::NameNotFound
            | EngineSignal::TlsCertificate
            | EngineSignal::Protocol
            | EngineSignal::Cancelled
    )
}

/// One address's failure: its signal and the error.
type AddrFailure = (EngineSignal, BoxError);

/// The failure of an address whose turn came after the attempt's deadline.
fn no_time_left(addr: SocketAddr) -> AddrFailure {
    (
        EngineSignal::TimedOut,
        std::io::Error::new(
            std::io::ErrorKind::TimedOut,
            format!("no time left in the attempt to connect to {addr}"),
        )
        .into(),
    )
}

/// A TCP connect that took longer than its bound.
fn connect_timed_out(addr: SocketAddr, limit: Duration) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::TimedOut,
        format!("TCP connect to {addr} took longer than {limit:?}"),
    )
}

/// A TCP connect's failure, classified: "refused" is only meaningful here.
fn tcp_failure(e: std::io::Error) -> AddrFailure {
    (crate::classify_helpers::io_signal(e.kind(), true), e.into())
}

/// Connects to one of `addrs` per RFC 8305 (see [Connecting: Happy Eyeballs](crate::engine#connecting-happy-eyeballs)),
/// on tokio: the winner's TCP stream, set up by `establish`.
///
/// Enters [`AttemptStage::Connect`] before each TCP connect. `establish`
/// gets each connected stream with its address and finishes the set-up
/// (enter `Tls` before a handshake); its failure is that address's
/// failure, as it would classify it at that step. The losers' futures are
/// dropped, which closes their connections.
///
/// `deadline` is the attempt's ([`AttemptContext::deadline`](super::AttemptContext::deadline)):
/// no per-address timeout is longer than what is left of it (the last
/// address has none: the core drops this future at the deadline). Timers
/// are tokio's (`tokio::time::pause` applies).
///
/// # Errors
///
/// When every address failed, [`ConnectFailures::into_failure`] of all of
/// them, pushed in address order.
///
/// ```no_run
/// use evident_core::engine::{ConnectTiming, HostOverrides, connect};
/// use evident_core::{AttemptStage, Progress};
///
/// # async fn run() -> Result<(), evident_core::EngineFailure> {
/// let progress = Progress::new();
/// progress.enter(AttemptStage::Resolve);
/// let addrs = HostOverrides::new().resolve("example.com", 80).await?;
/// let tcp = connect(addrs, &ConnectTiming::default(), &progress, None, |_addr, tcp| async move {
///     // TLS would go here, with `Tls` entered first.
///     Ok(tcp)
/// })
/// .await?;
/// # let _ = tcp;
/// # Ok(())
/// # }
/// ```
pub async fn connect<T, F, Fut>(
    addrs: Vec<SocketAddr>,
    timing: &ConnectTiming,
    progress: &Progress,
    deadline: Option<Instant>,
    establish: F,
) -> Result<T, EngineFailure>
where
    F: Fn(SocketAddr, tokio::net::TcpStream) -> Fut,
    Fut: Future<Output = Result<T, (EngineSignal, BoxError)>>,
{
    let establish = &establish;
    race(addrs, timing, deadline, |addr, limit| async move {
        progress.enter(AttemptStage::Connect);
        let tcp = match limit {
            None => tokio::net::TcpStream::connect(addr).await,
            Some(limit) => tokio::time::timeout(limit, tokio::net::TcpStream::connect(addr))
                .await
                .unwrap_or_else(|_elapsed| Err(connect_timed_out(addr, limit))),
        }
        .map_err(tcp_failure)?;
        establish(addr, tcp).await
    })
    .await
}

/// The async race: `start(addr, limit)` is one address's attempt.
async fn race<T, S, Fut>(
    addrs: Vec<SocketAddr>,
    timing: &ConnectTiming,
    deadline: Option<Instant>,
    mut start: S,
) -> Result<T, EngineFailure>
where
    S: FnMut(SocketAddr, Option<Duration>) -> Fut,
    Fut: Future<Output = Result<T, AddrFailure>>,
{
    let order = interleave(addrs);
    let mut failed: Vec<Option<AddrFailure>> = order.iter().map(|_| None).collect();
    let mut running: Vec<(usize, Pin<Box<Fut>>)> = Vec::new();
    let mut next = 0;
    // Whether the next address starts without waiting: the first, and the
    // one after a failure (RFC 8305 §5).
    let mut start_now = true;
    let timer = tokio::time::sleep(Duration::ZERO);
    tokio::pin!(timer);
    let outcome = std::future::poll_fn(|cx| {
        loop {
            let mut moved = false;
            // Start the next address: at once after a failure, else once
            // the attempt delay since the last start has passed.
            if next < order.len() && (start_now || timer.as_mut().poll(cx).is_ready()) {
                start_now = false;
                let addr = order[next];
                let last = next + 1 == order.len();
                // The last address gets no timer of its own: the core drops
                // the attempt's future at the deadline, and a second timer
                // racing the core's could only change who reports it.
                match timing.limit(last, if last { None } else { deadline }) {
                    Ok(limit) => running.push((next, Box::pin(start(addr, limit)))),
                    Err(()) => {
                        failed[next] = Some(no_time_left(addr));
                        start_now = true;
                    }
                }
                next += 1;
                timer
                    .as_mut()
                    .reset(tokio::time::Instant::now() + timing.attempt_delay);
                moved = true;
            }
            let mut i = 0;
            while i < running.len() {
                match running[i].1.as_mut().poll(cx) {
                    Poll::Ready(Ok(won)) => return Poll::Ready(Ok(won)),
                    Poll::Ready(Err(failure)) => {
                        let (index, _) = running.swap_remove(i);
                        failed[index] = Some(failure);
                        start_now = true;
                        moved = true;
                    }
                    Poll::Pending => i += 1,
                }
            }
            if running.is_empty() && next == order.len() {
                return Poll::Ready(Err(()));
            }
            if !moved {
                return Poll::Pending;
            }
        }
    })
    .await;
    // Losers still running are dropped here: their connections close.
    drop(running);
    outcome.map_err(|()| all_failed(&order, failed))
}

/// The failure when no address connected, every failure in address order.
fn all_failed(order: &[SocketAddr], failed: Vec<Option<AddrFailure>>) -> EngineFailure {
    let mut failures = ConnectFailures::new();
    for (addr, failure) in order.iter().zip(failed) {
        if let Some((signal, error)) = failure {
            failures.push_at(*addr, signal, error);
        }
    }
    failures.into_failure()
}

/// [`connect`] for blocking engines: each address's attempt runs on its
/// own thread (`std::net::TcpStream::connect_timeout`, then `establish` on
/// that thread); the calling thread waits for the first to succeed and
/// returns it. A loser that finishes later is dropped on its thread, which
/// closes its connection; a loser's thread ends by its own bound (the
/// per-address timeout or the deadline, and `establish` must bound its
/// I/O by `deadline` as every blocking engine does).
///
/// Enters [`AttemptStage::Connect`] before each TCP connect (on the
/// attempt's `progress`, which is shared with the threads).
///
/// # Errors
///
/// As [`connect`]. When a thread cannot be started, that address fails
/// with the I/O error.
pub fn connect_blocking<T, F>(
    addrs: Vec<SocketAddr>,
    timing: &ConnectTiming,
    progress: &Progress,
    deadline: Option<Instant>,
    establish: F,
) -> Result<T, EngineFailure>
where
    T: Send + 'static,
    F: Fn(SocketAddr, std::net::TcpStream) -> Result<T, (EngineSignal, BoxError)>
        + Send
        + Sync
        + 'static,
{
    let progress = progress.clone();
    race_blocking(
        addrs,
        timing,
        deadline,
        Arc::new(move |addr, limit: Option<Duration>, won: &AtomicBool| {
            progress.enter(AttemptStage::Connect);
            let tcp = match limit {
                None => std::net::TcpStream::connect(addr),
                Some(limit) => std::net::TcpStream::connect_timeout(&addr, limit).map_err(|e| {
                    if e.kind() == std::io::ErrorKind::TimedOut {
                        connect_timed_out(addr, limit)
                    } else {
                        e
                    }
                }),
            }
            .map_err(tcp_failure)?;
            if won.load(Ordering::Acquire) {
                // Another address won while this one connected: no set-up
                // for nothing; the connection closes here.
                return Err(another_won(addr));
            }
            establish(addr, tcp)
        }),
    )
}

/// The "failure" of an address that connected after another had won; never
/// reported (the race is over).
fn another_won(addr: SocketAddr) -> AddrFailure {
    (
        EngineSignal::Other,
        format!("{addr} connected after another address had won").into(),
    )
}

/// One address's attempt, run on its own thread.
/// The flag says whether another address has won already.
type BlockingStart<T> =
    Arc<dyn Fn(SocketAddr, Option<Duration>, &AtomicBool) -> Result<T, AddrFailure> + Send + Sync>;

/// The blocking race: `start(addr, limit)` is one address's attempt, run
/// on a thread of its own.
fn race_blocking<T: Send + 'static>(
    addrs: Vec<SocketAddr>,
    timing: &ConnectTiming,
    deadline: Option<Instant>,
    start: BlockingStart<T>,
) -> Result<T, EngineFailure> {
    let order = interleave(addrs);
    if let [addr] = order[..] {
        // Nothing to race: the calling thread connects, with no thread to
        // start (the common case of a single address, pooled engines'
        // every new connection included).
        let outcome = match timing.limit(true, deadline) {
            Ok(limit) => start(addr, limit, &AtomicBool::new(false)),
            Err(()) => Err(no_time_left(addr)),
        };
        return outcome.map_err(|failure| all_failed(&order, vec![Some(failure)]));
    }
    let mut failed: Vec<Option<AddrFailure>> = order.iter().map(|_| None).collect();
    let (tx, rx) = mpsc::channel::<(usize, Result<T, AddrFailure>)>();
    let won = Arc::new(AtomicBool::new(false));
    let mut running = 0usize;
    let mut next = 0;
    let mut next_start = Instant::now();
    // Bounded: each pass starts an address or receives one result, and
    // there are as many results as started addresses.
    loop {
        if next < order.len() && Instant::now() >= next_start {
            let addr = order[next];
            let index = next;
            next += 1;
            next_start = Instant::now() + timing.attempt_delay;
            let limit = match timing.limit(next == order.len(), deadline) {
                Ok(limit) => limit,
                Err(()) => {
                    failed[index] = Some(no_time_left(addr));
                    next_start = Instant::now();
                    continue;
                }
            };
            let (tx, start, won) = (tx.clone(), start.clone(), won.clone());
            let spawned = std::thread::Builder::new()
                .name("evident-connect".into())
                .spawn(move || {
                    let outcome = start(addr, limit, &won);
                    // A receiver gone means another address won: the
                    // connection is dropped (closed) here.
                    let _ = tx.send((index, outcome));
                });
            match spawned {
                Ok(_) => running += 1,
                Err(e) => {
                    failed[index] = Some((EngineSignal::Io(e.kind()), e.into()));
                    next_start = Instant::now();
                }
            }
            continue;
        }
        if running == 0 {
            break;
        }
        let received = if next < order.len() {
            match rx.recv_timeout(next_start.saturating_duration_since(Instant::now())) {
                Ok(received) => received,
                Err(mpsc::RecvTimeoutError::Timeout) => continue,
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        } else {
            match rx.recv() {
                Ok(received) => received,
                Err(mpsc::RecvError) => break,
            }
        };
        running -= 1;
        match received {
            (_, Ok(winner)) => {
                won.store(true, Ordering::Release);
                return Ok(winner);
            }
            (index, Err(failure)) => {
                failed[index] = Some(failure);
                // A failure starts the next address at once (RFC 8305 §5).
                next_start = Instant::now();
            }
        }
    }
    Err(all_failed(&order, failed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;
    use std::sync::atomic::AtomicUsize;

    fn addrs(list: &[&str]) -> Vec<SocketAddr> {
        list.iter().map(|a| a.parse().unwrap()).collect()
    }

    fn refused(addr: SocketAddr) -> AddrFailure {
        (
            EngineSignal::ConnectionRefused,
            format!("refused at {addr}").into(),
        )
    }

    #[test]
    fn families_alternate_starting_with_the_first_addresss() {
        let order = interleave(addrs(&[
            "127.0.0.1:1",
            "127.0.0.2:1",
            "127.0.0.3:1",
            "[::1]:1",
        ]));
        assert_eq!(
            order,
            addrs(&["127.0.0.1:1", "[::1]:1", "127.0.0.2:1", "127.0.0.3:1"])
        );
        assert_eq!(interleave(Vec::new()), Vec::<SocketAddr>::new());
    }

    #[test]
    fn timing_is_validated_against_rfc_8305s_bounds() {
        let second = Duration::from_secs(1);
        assert!(ConnectTiming::new(MIN_CONNECTION_ATTEMPT_DELAY, second).is_ok());
        assert!(ConnectTiming::new(MAX_CONNECTION_ATTEMPT_DELAY, second).is_ok());
        for bad in [
            Duration::ZERO,
            Duration::from_millis(9),
            MAX_CONNECTION_ATTEMPT_DELAY + Duration::from_millis(1),
        ] {
            let err = ConnectTiming::new(bad, second).unwrap_err();
            assert_eq!(err.field(), "connection_attempt_delay");
        }
        let err = ConnectTiming::new(DEFAULT_CONNECTION_ATTEMPT_DELAY, Duration::ZERO).unwrap_err();
        assert_eq!(err.field(), "connect_timeout_per_address");
    }

    #[test]
    fn a_connect_is_never_bounded_by_more_than_what_is_left_of_the_attempt() {
        let timing = ConnectTiming::default();
        assert_eq!(
            timing.limit(false, None),
            Ok(Some(DEFAULT_CONNECT_TIMEOUT_PER_ADDRESS))
        );
        assert_eq!(timing.limit(true, None), Ok(None));
        let soon = Instant::now() + Duration::from_millis(500);
        for last in [false, true] {
            let limit = timing.limit(last, Some(soon)).unwrap().unwrap();
            assert!(limit <= Duration::from_millis(500), "{limit:?}");
        }
        assert_eq!(timing.limit(false, Some(Instant::now())), Err(()));
    }

    /// An attempt that never ends, and counts when it is dropped.
    struct Dropped(Arc<AtomicUsize>);
    impl Drop for Dropped {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[tokio::test(start_paused = true)]
    async fn the_next_address_starts_after_the_attempt_delay_and_the_first_to_connect_wins() {
        let list = addrs(&["127.0.0.2:80", "[::1]:80", "127.0.0.3:80"]);
        let t0 = tokio::time::Instant::now();
        let started = Arc::new(Mutex::new(Vec::new()));
        let dropped = Arc::new(AtomicUsize::new(0));
        let silent = list[0];
        let won = race(
            list.clone(),
            &ConnectTiming::default(),
            None,
            |addr, limit| {
                started.lock().unwrap().push((addr, t0.elapsed(), limit));
                let guard = Dropped(dropped.clone());
                async move {
                    let _guard = guard;
                    if addr == silent {
                        // Silent.
                        std::future::pending::<()>().await;
                    }
                    // The second connects 100 ms after its start.
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    Ok(addr)
                }
            },
        )
        .await
        .unwrap();
        assert_eq!(won, list[1], "the live address wins");
        assert_eq!(t0.elapsed(), Duration::from_millis(350));
        let started = started.lock().unwrap().clone();
        assert_eq!(
            started,
            [
                (
                    list[0],
                    Duration::ZERO,
                    Some(DEFAULT_CONNECT_TIMEOUT_PER_ADDRESS)
                ),
                (
                    list[1],
                    DEFAULT_CONNECTION_ATTEMPT_DELAY,
                    Some(DEFAULT_CONNECT_TIMEOUT_PER_ADDRESS)
                ),
            ],
            "the third address was never needed"
        );
        assert_eq!(dropped.load(Ordering::SeqCst), 2, "the loser was dropped");
    }

    #[tokio::test(start_paused = true)]
    async fn a_failure_starts_the_next_address_at_once_and_all_failures_are_kept_in_address_order()
    {
        let list = addrs(&["127.0.0.2:80", "127.0.0.3:80", "127.0.0.4:80"]);
        let t0 = tokio::time::Instant::now();
        let starts = Arc::new(Mutex::new(Vec::new()));
        let failure = race::<(), _, _>(list.clone(), &ConnectTiming::default(), None, |addr, _| {
            starts.lock().unwrap().push(t0.elapsed());
            let first = addr == list[0];
            let second = addr == list[1];
            async move {
                if first {
                    // Slow, and the only permanent failure.
                    tokio::time::sleep(Duration::from_millis(400)).await;
                    return Err((EngineSignal::TlsCertificate, "untrusted".into()));
                }
                if second {
                    // Fails at once, after the first's start.
                    return Err(refused(addr));
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
                Err(refused(addr))
            }
        })
        .await
        .unwrap_err();
        // The second starts after the delay; its instant failure starts the
        // third at once.
        assert_eq!(
            *starts.lock().unwrap(),
            [
                Duration::ZERO,
                DEFAULT_CONNECTION_ATTEMPT_DELAY,
                DEFAULT_CONNECTION_ATTEMPT_DELAY
            ]
        );
        assert_eq!(failure.signal(), EngineSignal::TlsCertificate);
        let message = failure.to_string();
        assert!(
            message.contains("127.0.0.3:80") && message.contains("127.0.0.4:80"),
            "{message}"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn the_record_does_not_depend_on_the_order_failures_end_in() {
        // Two refusals, ending in either order: the first address's error is
        // the one kept.
        for slow_first in [true, false] {
            let list = addrs(&["127.0.0.2:80", "127.0.0.3:80"]);
            let failure =
                race::<(), _, _>(list.clone(), &ConnectTiming::default(), None, |addr, _| {
                    let slow = (addr == list[0]) == slow_first;
                    async move {
                        let wait = if slow { 300 } else { 260 };
                        tokio::time::sleep(Duration::from_millis(wait)).await;
                        Err(refused(addr))
                    }
                })
                .await
                .unwrap_err();
            assert_eq!(failure.signal(), EngineSignal::ConnectionRefused);
            let (_, source) = failure.into_parts();
            let source = source.unwrap();
            let surfaced = std::error::Error::source(&*source).unwrap().to_string();
            assert_eq!(
                surfaced, "refused at 127.0.0.2:80",
                "slow_first={slow_first}"
            );
        }
    }

    #[tokio::test(start_paused = true)]
    async fn async_limits_are_capped_by_the_deadline_and_the_last_is_left_to_the_core() {
        let list = addrs(&["127.0.0.2:80", "127.0.0.3:80"]);
        let limits = Arc::new(Mutex::new(Vec::new()));
        let deadline = Instant::now() + Duration::from_secs(1);
        let _ = race::<(), _, _>(
            list.clone(),
            &ConnectTiming::default(),
            Some(deadline),
            |addr, limit| {
                limits.lock().unwrap().push(limit);
                async move { Err(refused(addr)) }
            },
        )
        .await;
        let limits = limits.lock().unwrap().clone();
        assert_eq!(limits.len(), 2);
        assert!(
            limits[0].is_some_and(|l| l <= Duration::from_secs(1)),
            "{limits:?}"
        );
        assert_eq!(limits[1], None, "the core's timer bounds the last");
    }

    #[tokio::test(start_paused = true)]
    async fn no_address_is_the_same_failure_everywhere() {
        let failure = race::<(), _, _>(
            Vec::new(),
            &ConnectTiming::default(),
            None,
            |addr, _| async move { Err(refused(addr)) },
        )
        .await
        .unwrap_err();
        assert_eq!(failure.signal(), EngineSignal::NameNotFound);
        let failure = ConnectFailures::<BoxError>::new().into_failure();
        assert_eq!(failure.signal(), EngineSignal::NameNotFound);
    }

    #[tokio::test]
    async fn over_real_sockets_a_refused_address_falls_through_to_a_live_one() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let live = listener.local_addr().unwrap();
        // A loopback port nobody listens on: refused at once.
        let closed = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap();
        let progress = Progress::new();
        let won = connect(
            vec![closed, live],
            &ConnectTiming::default(),
            &progress,
            None,
            |addr, _tcp| async move { Ok(addr) },
        )
        .await
        .unwrap();
        assert_eq!(won, live);
        assert_eq!(progress.snapshot().stage(), Some(AttemptStage::Connect));
    }

    #[test]
    fn blocking_the_next_address_starts_after_the_delay_and_the_first_to_connect_wins() {
        let list = addrs(&["127.0.0.2:80", "127.0.0.3:80"]);
        let silent = list[0];
        let (release, hold) = mpsc::channel::<()>();
        let hold = Mutex::new(hold);
        let t0 = Instant::now();
        let won = race_blocking(
            list.clone(),
            &ConnectTiming::default(),
            None,
            Arc::new(move |addr, _limit, _: &AtomicBool| {
                if addr == silent {
                    // Silent until the test is over (the sender is dropped).
                    let _ = hold.lock().unwrap().recv();
                    return Err(refused(addr));
                }
                Ok(addr)
            }),
        )
        .unwrap();
        assert_eq!(won, list[1]);
        assert!(
            t0.elapsed() >= DEFAULT_CONNECTION_ATTEMPT_DELAY,
            "the second address started early: {:?}",
            t0.elapsed()
        );
        drop(release);
    }

    #[test]
    fn blocking_a_loser_that_ends_after_the_win_sees_that_it_lost() {
        let list = addrs(&["127.0.0.2:80", "127.0.0.3:80"]);
        let slow = list[0];
        let (release, hold) = mpsc::channel::<()>();
        let hold = Mutex::new(hold);
        let (seen_tx, seen) = mpsc::channel::<bool>();
        let seen_tx = Mutex::new(seen_tx);
        let won = race_blocking(
            list.clone(),
            &ConnectTiming::default(),
            None,
            Arc::new(move |addr, _, won: &AtomicBool| {
                if addr == slow {
                    let _ = hold.lock().unwrap().recv();
                    // Where `connect_blocking` checks before its set-up.
                    let _ = seen_tx.lock().unwrap().send(won.load(Ordering::Acquire));
                    return Err(another_won(addr));
                }
                Ok(addr)
            }),
        )
        .unwrap();
        assert_eq!(won, list[1]);
        release.send(()).unwrap();
        let lost = seen.recv_timeout(Duration::from_secs(10)).unwrap();
        assert!(lost, "the slow address would have started its set-up");
    }

    #[test]
    fn blocking_failures_are_kept_in_address_order_and_the_permanent_one_surfaces() {
        let list = addrs(&["127.0.0.2:80", "127.0.0.3:80", "127.0.0.4:80"]);
        let cert = list[1];
        let failure = race_blocking::<()>(
            list.clone(),
            &ConnectTiming::default(),
            None,
            Arc::new(move |addr, _, _: &AtomicBool| {
                if addr == cert {
                    Err((EngineSignal::TlsCertificate, "untrusted".into()))
                } else {
                    Err(refused(addr))
                }
            }),
        )
        .unwrap_err();
        assert_eq!(failure.signal(), EngineSignal::TlsCertificate);
        let message = failure.to_string();
        assert!(
            message.contains("refused at 127.0.0.2:80")
                && message.contains("refused at 127.0.0.4:80"),
            "{message}"
        );
    }

    #[test]
    fn blocking_a_single_address_connects_on_the_calling_thread() {
        let caller = std::thread::current().id();
        let on = race_blocking(
            addrs(&["127.0.0.2:80"]),
            &ConnectTiming::default(),
            None,
            Arc::new(|_, limit, _: &AtomicBool| {
                assert_eq!(limit, None, "the only address is the last");
                Ok(std::thread::current().id())
            }),
        )
        .unwrap();
        assert_eq!(on, caller);
    }

    #[test]
    fn blocking_past_the_deadline_no_address_is_started() {
        let started = Arc::new(AtomicUsize::new(0));
        let counter = started.clone();
        let failure = race_blocking::<()>(
            addrs(&["127.0.0.2:80"]),
            &ConnectTiming::default(),
            Some(Instant::now()),
            Arc::new(move |addr, _, _: &AtomicBool| {
                counter.fetch_add(1, Ordering::SeqCst);
                Err(refused(addr))
            }),
        )
        .unwrap_err();
        assert_eq!(failure.signal(), EngineSignal::TimedOut);
        assert_eq!(started.load(Ordering::SeqCst), 0);
    }
}
