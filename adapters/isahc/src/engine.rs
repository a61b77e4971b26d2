//! [`IsahcEngine`]: one attempt per [`Engine::send`], as one libcurl
//! transfer per address tried.

use std::fmt;
use std::future::{Future, poll_fn};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use evident_core::engine::{ConnectTiming, ErrorSite, interleave};
use evident_core::{
    AttemptBody, AttemptContext, AttemptStage, BoxError, ConnectFailures, Engine, EngineFailure,
    EngineSignal, HostOverrides, Progress, ResponseBody,
};
use http::{HeaderMap, Method, StatusCode};
use http_body_util::BodyExt;
use isahc::config::Configurable;
use isahc::net::Dialer;

use crate::body::{self, RequestBody, ResetSeen, UploadState};
use crate::builder::IsahcEngineBuilder;
use crate::classify::{before_connected, classify_transfer, is_connect_failure};
use crate::identity::IdentityFiles;
use crate::relay::{Listening, Relay};
use crate::slot::{Lease, Slots, TurnFacts};

/// The most curl's own transfer timer is set ahead of the attempt deadline.
/// curl must report its timeout (with or without a connected address, which
/// is what tells "nothing sent" from "maybe sent") before the adapter's own
/// guard fires at the deadline, or the attempt is taken as possibly sent;
/// 250 ms covers isahc's agent thread on a heavily loaded machine, and costs
/// nothing else: a timeout curl reports early is held until the deadline.
pub const CURL_DEADLINE_LEAD_MAX: Duration = Duration::from_millis(250);

/// The share of the time left that curl's lead may take at most, so that a
/// short attempt is not eaten by the lead: a quarter.
const CURL_DEADLINE_LEAD_DIVISOR: u32 = 4;

/// The shortest transfer budget worth handing to curl. curl takes its
/// timeout in whole milliseconds, and zero would mean "no timeout at all".
const MIN_CURL_BUDGET: Duration = Duration::from_millis(1);

/// How far ahead of the attempt deadline the adapter's own guard fires:
/// one tick of tokio's timer, so the guard always completes the attempt
/// before the core's timer drops it, and the attempt's progress is settled
/// by the adapter, never read while curl may be writing.
const GUARD_LEAD: Duration = Duration::from_millis(1);

/// The isahc engine: libcurl (HTTP/1.1; a connection reused only where a
/// repeat is harmless, and curl's own re-send refused),
/// driven by the async client.
///
/// ```no_run
/// use evident_core::client::{Body, CallOptions, ClientBuilder};
/// use evident_isahc::IsahcEngine;
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let client = ClientBuilder::new().build(IsahcEngine::builder().build()?)?;
/// let request = http::Request::get("http://127.0.0.1:8080/").body(Body::Empty)?;
/// let response = client.execute(request, CallOptions::new().idempotent()).await?;
/// assert!(response.status().is_success());
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct IsahcEngine {
    /// The client that never reuses a connection (FORBID_REUSE).
    client: isahc::HttpClient,
    /// Connection reuse for the attempts whose repeat is harmless (see
    /// `slot.rs`): `None` without Unix sockets, or with reuse turned off.
    reuse: Option<Reuse>,
    overrides: HostOverrides,
    /// How long each address but the last may take to connect (see
    /// [`IsahcEngineBuilder`]).
    attempt_delay: Duration,
    /// The client certificate's files, which curl opens on every
    /// handshake: open as long as any clone of the engine.
    _identity: Option<Arc<IdentityFiles>>,
}

/// The client that reuses connections, and the slots it reuses them
/// through.
#[derive(Clone)]
pub(crate) struct Reuse {
    pub(crate) client: isahc::HttpClient,
    pub(crate) slots: Slots,
}

impl fmt::Debug for IsahcEngine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IsahcEngine")
            .field("reuse", &self.reuse.is_some())
            .field("overrides", &self.overrides)
            .field("attempt_delay", &self.attempt_delay)
            .finish_non_exhaustive()
    }
}

impl IsahcEngine {
    /// A builder with the defaults.
    pub fn builder() -> IsahcEngineBuilder {
        IsahcEngineBuilder::default()
    }

    pub(crate) fn new(
        client: isahc::HttpClient,
        reuse: Option<Reuse>,
        overrides: HostOverrides,
        connect_timing: ConnectTiming,
        identity: Option<IdentityFiles>,
    ) -> Self {
        IsahcEngine {
            client,
            reuse,
            overrides,
            attempt_delay: connect_timing
                .attempt_delay()
                .min(connect_timing.per_address_timeout()),
            _identity: identity.map(Arc::new),
        }
    }

    /// One transfer through `dialer`: the whole transfer within `budget`,
    /// its connection (TCP and TLS) within `connect_limit`.
    fn request(
        parts: &http::request::Parts,
        dialer: Dialer,
        budget: Option<Duration>,
        connect_limit: Option<Duration>,
        body: isahc::AsyncBody,
    ) -> Result<http::Request<isahc::AsyncBody>, http::Error> {
        let mut builder = http::Request::builder()
            .method(parts.method.clone())
            .uri(parts.uri.clone())
            // curl connects there, whatever the URL's host says; the URL
            // still names the host for `Host` and TLS.
            .dial(dialer);
        if let Some(budget) = budget {
            builder = builder.timeout(budget);
        }
        if let Some(limit) = connect_limit {
            builder = builder.connect_timeout(limit);
        }
        if let Some(headers) = builder.headers_mut() {
            // A caller's `Expect` is not sent: after a 417 curl sends the
            // request again on its own, and a body it never read needs no
            // rewind, so nothing would stop that second send.
            headers.extend(
                parts
                    .headers
                    .iter()
                    .filter(|(name, _)| *name != http::header::EXPECT)
                    .map(|(k, v)| (k.clone(), v.clone())),
            );
        }
        builder.body(body)
    }

    /// The answer once isahc returned a response: read ahead to the first
    /// body byte, or the end, to know whether the head was complete.
    async fn answer(
        response: http::Response<isahc::AsyncBody>,
        method: &Method,
        progress: &Progress,
        upload: &Arc<UploadState>,
        guard: &Guard,
        settle: impl Fn(),
        carried: Carried,
    ) -> Result<http::Response<ResponseBody>, EngineFailure> {
        let Carried { lease, reset } = carried;
        let (parts, mut body) = response.into_parts();
        let mut so_far = body::AnswerSoFar::new(&parts.headers, upload.clone(), reset);
        let first = match guard
            .run(poll_fn(|cx| body::poll_chunk(&mut body, &mut so_far, cx)))
            .await
        {
            None => {
                settle();
                return Err(EngineFailure::new(EngineSignal::TimedOut, AttemptDeadline));
            }
            Some(Err(failure)) => {
                // The head was not proven complete: no byte of body came.
                settle();
                if failure.signal() == EngineSignal::TimedOut {
                    guard.hold().await;
                }
                return Err(failure);
            }
            Some(Ok(Some(chunk))) => {
                // curl hands over body bytes only after the blank line
                // that ends the head: the head is complete.
                progress.read(chunk.len());
                Some(chunk)
            }
            Some(Ok(None)) => {
                if !empty_answer_is_complete(method, parts.status, &parts.headers) {
                    settle();
                    return Err(EngineFailure::new(
                        EngineSignal::ConnectionClosed,
                        IncompleteHead {
                            status: parts.status,
                        },
                    ));
                }
                None
            }
        };
        let body =
            body::ResponseBody::new(body, first, progress.clone(), so_far, guard.deadline, lease)
                .boxed_unsync();
        Ok(http::Response::from_parts(parts, body))
    }
}

#[async_trait::async_trait]
impl Engine for IsahcEngine {
    fn name(&self) -> &'static str {
        "isahc"
    }

    async fn send(
        &self,
        request: http::Request<AttemptBody>,
        attempt: &AttemptContext,
    ) -> Result<http::Response<ResponseBody>, EngineFailure> {
        let progress = attempt.progress();
        progress.enter(AttemptStage::Resolve);
        let guard = Guard::new(attempt.deadline());
        let (parts, body) = request.into_parts();
        let origin = attempt.origin_of(&parts.uri)?;
        // A connection is reused only where curl's own re-send would do no
        // harm, and even there it is refused (slot.rs). Every other transfer
        // gets a new connection (FORBID_REUSE), and so does the attempt that
        // must not run on a pooled one (after a 421).
        let reuse = self
            .reuse
            .as_ref()
            .filter(|_| attempt.repeat_is_harmless() && !attempt.requires_fresh_connection());
        let addrs = match guard
            .run(self.overrides.resolve(origin.host(), origin.port()))
            .await
        {
            Some(addrs) => interleave(addrs?),
            None => return Err(EngineFailure::new(EngineSignal::TimedOut, AttemptDeadline)),
        };

        progress.enter(AttemptStage::Connect);
        // Exact on a new connection; on a slot the relay records `true` once
        // the request leaves on a connection that was open before.
        progress.connection_reused(false);
        // curl's agent thread connects and writes with no hook of ours in
        // between, and nothing can stop it once the core gives up: the
        // stage alone never proves an abandoned attempt unsent (the core's
        // timer can fire while curl writes a bodyless request). A failure
        // curl itself returned still proves it (see `nothing_written`).
        progress.seal_may_not_hold();
        let body = RequestBody::new(body);
        let upload = Arc::new(UploadState::default());
        // What curl is proven to have taken, once the attempt is no longer
        // provably unsent. A fact that strengthens the record (a written
        // head counts an `Idempotency-Key` as sent) is reported only when
        // a hook saw it: the whole request when curl pulled all of the
        // body, the head when it pulled part of it (curl builds the head
        // first). Without a pull (a bodyless request, or a body curl never
        // reached) only "a write may have started": nothing shows that
        // curl got as far as writing the head.
        let settle = || {
            if upload.finished() {
                progress.body_written();
            } else if upload.touched() {
                progress.head_written();
            } else {
                // Sealed already: the core has its snapshot.
                let _ = progress.start_write();
                progress.enter(AttemptStage::WriteHead);
            }
        };
        // The relay needs Unix sockets; elsewhere curl dials, a stalled
        // handshake is recorded at `connect`, and an early answer can be
        // lost to curl's failed write.
        let https = origin.is_https();
        let relayed = cfg!(unix);
        let mut failures = ConnectFailures::new();
        let last = addrs.len().saturating_sub(1);
        for (index, addr) in addrs.into_iter().enumerate() {
            let budget = match guard.curl_budget() {
                Budget::Unbounded => None,
                Budget::Within(budget) => Some(budget),
                Budget::Exhausted => break,
            };
            // curl connects to one address per transfer and cannot race a
            // second beside it (RFC 8305): an address other than the last
            // gets the Connection Attempt Delay to connect, TCP and TLS,
            // and the next is tried after it, where the other engines start
            // the next beside it. The last has the whole attempt.
            let connect_limit = (index < last)
                .then_some(self.attempt_delay)
                .filter(|limit| budget.is_none_or(|budget| *limit < budget));
            // A reusable transfer goes through a slot: a Unix socket whose
            // relay dials TCP for curl (slot.rs). Every other transfer
            // goes through a relay over a TCP connection the adapter dials
            // first (relay.rs): TCP is then known to be up when a handshake
            // stalls, the relay proves whether a byte (over TLS, a record)
            // of the request left, and a server that stops taking the
            // request leaves curl its answer to read. A slot or relay that
            // cannot listen (no private directory for its socket, say)
            // leaves curl to dial a new connection: a stalled handshake is
            // then at `connect`. The relay listens first, so that it opens
            // no connection it would not use.
            let lease = reuse.and_then(|reuse| {
                let lease = reuse.slots.checkout(&origin, addr).ok()?;
                Some((lease, &reuse.client))
            });
            let route = if let Some((lease, client)) = lease {
                let bodyless = matches!(body, RequestBody::Empty);
                let turn = lease
                    .slot()
                    .begin(progress, connect_limit.or(budget), bodyless);
                Route::Slot(lease, turn, client)
            } else if let Some(listening) = relayed.then(Listening::bind).and_then(Result::ok) {
                match dial(addr, connect_limit.or(budget)).await {
                    Ok(tcp) => {
                        if https {
                            progress.enter(AttemptStage::Tls);
                        }
                        Route::Relayed(listening.relay_to(tcp))
                    }
                    Err(e) => {
                        own_connect_failed(e, addr, connect_limit, &guard, &mut failures).await?;
                        continue;
                    }
                }
            } else {
                Route::Direct(addr)
            };
            let (client, dialer) = match &route {
                Route::Slot(lease, _, client) => {
                    (*client, Dialer::unix_socket(lease.slot().path()))
                }
                Route::Relayed(relay) => (&self.client, Dialer::unix_socket(relay.path())),
                Route::Direct(addr) => (&self.client, Dialer::ip_socket(*addr)),
            };
            let transfer = Self::request(
                &parts,
                dialer,
                budget,
                connect_limit,
                body.for_transfer(progress, &upload),
            )
            .map_err(|e| EngineFailure::new(EngineSignal::Other, e))?;
            let error = match guard.run(client.send_async(transfer)).await {
                Some(Ok(response)) => {
                    return Self::answer(
                        response,
                        &parts.method,
                        progress,
                        &upload,
                        &guard,
                        settle,
                        route.carried(),
                    )
                    .await;
                }
                Some(Err(error)) => error,
                None => {
                    // curl did not report in time. Through a slot or a
                    // relay, sealed now, whether a byte of the request left
                    // is known, and none will; without one curl may have
                    // written.
                    let unsent = match &route {
                        Route::Slot(_, turn, _) => !turn.seal(),
                        Route::Relayed(relay) => !upload.touched() && !relay.facts().seal(),
                        Route::Direct(_) => false,
                    };
                    if !unsent {
                        settle();
                    }
                    return Err(EngineFailure::new(EngineSignal::TimedOut, AttemptDeadline));
                }
            };
            let sending_body = upload.touched() && !upload.finished();
            let mut signal = classify_transfer(&error, sending_body);
            let nothing_written = match &route {
                // The slot's relay, sealed now, forwarded no byte of the
                // request and never will: what curl wrote into the socket
                // stays there, whatever curl pulled of the body.
                Route::Slot(_, turn, _) => {
                    let left = turn.seal();
                    if !left && let Some(e) = turn.take_connect_error() {
                        own_connect_failed(e, addr, connect_limit, &guard, &mut failures).await?;
                        continue;
                    }
                    if turn.resend_refused() {
                        // curl's error is about the connection refused; the
                        // attempt's is the first one's: closed after the
                        // request, with no answer.
                        signal = EngineSignal::ConnectionClosed;
                    }
                    signal = turn.server_reset().correct(signal);
                    !left
                }
                // The relay, sealed now, proves whether a record that can
                // carry the request left; curl's bytes still in the socket
                // never will.
                Route::Relayed(relay) => {
                    let facts = relay.facts();
                    let left = facts.seal();
                    // curl saw the relay close; the server may have reset.
                    signal = facts.server_reset().correct(signal);
                    !left && !upload.touched()
                }
                // curl reports the connected address only once TCP and TLS
                // are up, and the easy handle is fresh: without one, and
                // with the body untouched, curl wrote nothing.
                Route::Direct(_) => error.remote_addr().is_none() && !upload.touched(),
            };
            let signal = if nothing_written {
                before_connected(signal, https)
            } else {
                signal
            };
            // A timeout in the connect phase of an address whose connect
            // was bounded below the transfer's budget is that bound: the
            // address is silent, and the next is tried.
            let connect_timed_out = connect_limit.is_some() && signal == EngineSignal::TimedOut;
            if nothing_written && (is_connect_failure(signal) || connect_timed_out) {
                failures.push_at(addr, signal, BoxError::from(error));
                continue;
            }
            if !(nothing_written && signal == EngineSignal::TimedOut) {
                settle();
            }
            if signal == EngineSignal::TimedOut {
                // curl's timer runs a little ahead of the attempt deadline;
                // the attempt itself ends at the deadline, as on every engine.
                guard.hold().await;
            }
            return Err(EngineFailure::new(signal, error));
        }
        Err(if failures.is_empty() {
            // The attempt's time ran out before any address was tried.
            EngineFailure::new(EngineSignal::TimedOut, AttemptDeadline)
        } else {
            failures.into_failure()
        })
    }
}

/// How a transfer reaches its address.
enum Route<'a> {
    /// Through a slot, on its connection if curl still holds one, by the
    /// client that reuses connections.
    Slot(Lease, Arc<TurnFacts>, &'a isahc::HttpClient),
    /// Through a relay, over the adapter's own new TCP connection.
    Relayed(Relay),
    /// curl dials the address itself, a new connection.
    Direct(SocketAddr),
}

impl Route<'_> {
    /// What the answer keeps of the route that carried it.
    fn carried(self) -> Carried {
        match self {
            Route::Slot(lease, turn, _) => Carried {
                lease: Some(lease),
                reset: Some(turn.server_reset().clone()),
            },
            Route::Relayed(relay) => Carried {
                lease: None,
                reset: Some(relay.facts().server_reset().clone()),
            },
            Route::Direct(_) => Carried {
                lease: None,
                reset: None,
            },
        }
    }
}

/// What an answer keeps of the route that carried its transfer.
struct Carried {
    /// The slot, checked in at the answer's end for the next transfer.
    lease: Option<Lease>,
    /// The relay's witness of a server reset: curl sees a reset during the
    /// answer's body as a close.
    reset: Option<Arc<ResetSeen>>,
}

/// A TCP connect of the adapter's own failed: `Ok` to try the next address
/// (the failure kept in `failures`), or the attempt's failure when the
/// attempt's own time ran out.
async fn own_connect_failed(
    e: std::io::Error,
    addr: SocketAddr,
    connect_limit: Option<Duration>,
    guard: &Guard,
    failures: &mut ConnectFailures<BoxError>,
) -> Result<(), EngineFailure> {
    let signal = ErrorSite::Connect.io_signal(e.kind());
    if signal == EngineSignal::TimedOut && connect_limit.is_none() {
        guard.hold().await;
        return Err(EngineFailure::new(signal, e));
    }
    failures.push_at(addr, signal, BoxError::from(e));
    Ok(())
}

/// Connects TCP to `addr` within `limit` (none: unbounded), with Nagle off
/// as curl sets it: the adapter's own dialer, for the relay and the slots.
pub(crate) async fn dial(
    addr: SocketAddr,
    limit: Option<Duration>,
) -> std::io::Result<tokio::net::TcpStream> {
    let tcp = match limit {
        Some(limit) => tokio::time::timeout(limit, tokio::net::TcpStream::connect(addr))
            .await
            .unwrap_or_else(|_| Err(std::io::ErrorKind::TimedOut.into()))?,
        None => tokio::net::TcpStream::connect(addr).await?,
    };
    tcp.set_nodelay(true)?;
    Ok(tcp)
}

/// Whether an answer that ended without a single body byte had a complete
/// head, as far as isahc lets anyone tell.
///
/// curl takes a head cut short for a response: it reports the status line
/// and the header lines it got, and a transfer that succeeded. Only a body
/// byte proves the blank line that ends a head arrived. Without one:
///
/// * an answer that would have had a body and declares no framing ends at
///   the close, so it is indistinguishable from a head cut short: refused;
/// * an answer declaring a non-zero `Content-Length` and no byte of it can
///   only come from curl keeping that header's cut line: refused;
/// * an answer that has no body by definition (`HEAD`, 1xx, 204, 304), or
///   declares `Content-Length: 0` or chunked framing, is accepted — a head
///   cut right after such a line cannot be told apart (a named gap).
fn empty_answer_is_complete(method: &Method, status: StatusCode, headers: &HeaderMap) -> bool {
    if method == Method::HEAD
        || status.is_informational()
        || status == StatusCode::NO_CONTENT
        || status == StatusCode::NOT_MODIFIED
    {
        return true;
    }
    if let Some(length) = headers.get(http::header::CONTENT_LENGTH) {
        return length
            .to_str()
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
            == Some(0);
    }
    headers
        .get_all(http::header::TRANSFER_ENCODING)
        .iter()
        .any(|v| {
            v.to_str()
                .is_ok_and(|v| v.to_ascii_lowercase().contains("chunked"))
        })
}

/// How long curl may run the next transfer.
enum Budget {
    /// No deadline.
    Unbounded,
    /// This long.
    Within(Duration),
    /// No time left for a transfer.
    Exhausted,
}

/// The adapter's own bound on an attempt: it fires just before the core's
/// attempt timer, so the adapter always ends the attempt itself, with the
/// progress it knows, rather than being dropped while curl runs on.
struct Guard {
    deadline: Option<tokio::time::Instant>,
}

// The response body holds a timeout curl reported early until this instant.
pub(crate) type HoldUntil = Option<tokio::time::Instant>;

impl Guard {
    fn new(deadline: Option<std::time::Instant>) -> Self {
        // The core's async clock is tokio's; measure the time left on it.
        let now = tokio::time::Instant::now();
        Guard {
            deadline: deadline.map(|d| {
                now + d
                    .saturating_duration_since(now.into_std())
                    .saturating_sub(GUARD_LEAD)
            }),
        }
    }

    fn curl_budget(&self) -> Budget {
        let Some(deadline) = self.deadline else {
            return Budget::Unbounded;
        };
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        let lead = CURL_DEADLINE_LEAD_MAX.min(left / CURL_DEADLINE_LEAD_DIVISOR);
        let budget = left.saturating_sub(lead);
        if budget < MIN_CURL_BUDGET {
            Budget::Exhausted
        } else {
            Budget::Within(budget)
        }
    }

    /// Waits out the attempt: for a timeout curl reported ahead of it.
    async fn hold(&self) {
        if let Some(deadline) = self.deadline {
            tokio::time::sleep_until(deadline).await;
        }
    }

    async fn run<F: Future>(&self, future: F) -> Option<F::Output> {
        match self.deadline {
            None => Some(future.await),
            Some(deadline) => tokio::time::timeout_at(deadline, future).await.ok(),
        }
    }
}

/// The attempt's deadline came before curl finished.
#[derive(Debug)]
struct AttemptDeadline;

impl fmt::Display for AttemptDeadline {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the attempt deadline passed before the transfer ended")
    }
}

impl std::error::Error for AttemptDeadline {}

/// curl reported an answer whose head may have been cut short.
#[derive(Debug)]
pub struct IncompleteHead {
    status: StatusCode,
}

impl IncompleteHead {
    /// The status line curl did receive.
    pub fn status(&self) -> StatusCode {
        self.status
    }
}

impl fmt::Display for IncompleteHead {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the connection ended after a {} status line and no body byte: \
             the response head is not proven complete",
            self.status.as_u16()
        )
    }
}

impl std::error::Error for IncompleteHead {}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        pairs
            .iter()
            .map(|(k, v)| (k.parse().unwrap(), v.parse().unwrap()))
            .collect()
    }

    #[test]
    fn an_empty_close_delimited_answer_is_not_proven_complete() {
        assert!(!empty_answer_is_complete(
            &Method::POST,
            StatusCode::OK,
            &HeaderMap::new()
        ));
    }

    #[test]
    fn a_declared_length_without_its_bytes_is_a_cut_head() {
        let cut = headers(&[("content-length", "5")]);
        assert!(!empty_answer_is_complete(
            &Method::GET,
            StatusCode::OK,
            &cut
        ));
        let zero = headers(&[("content-length", "0")]);
        assert!(empty_answer_is_complete(
            &Method::GET,
            StatusCode::OK,
            &zero
        ));
    }

    #[test]
    fn answers_without_a_body_by_definition_are_accepted() {
        let none = HeaderMap::new();
        assert!(empty_answer_is_complete(
            &Method::HEAD,
            StatusCode::OK,
            &none
        ));
        assert!(empty_answer_is_complete(
            &Method::DELETE,
            StatusCode::NO_CONTENT,
            &none
        ));
        assert!(empty_answer_is_complete(
            &Method::GET,
            StatusCode::NOT_MODIFIED,
            &none
        ));
        let chunked = headers(&[("transfer-encoding", "chunked")]);
        assert!(empty_answer_is_complete(
            &Method::GET,
            StatusCode::OK,
            &chunked
        ));
    }

    #[test]
    fn curl_gets_a_lead_on_the_deadline_but_never_zero() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .start_paused(true)
            .build()
            .unwrap();
        rt.block_on(async {
            let now = tokio::time::Instant::now().into_std();
            let long = Guard::new(Some(now + Duration::from_secs(2)));
            let left = Duration::from_secs(2) - GUARD_LEAD;
            assert!(matches!(
                long.curl_budget(),
                Budget::Within(b) if b == left - CURL_DEADLINE_LEAD_MAX
            ));
            // A short attempt: the lead takes a quarter of it, no more.
            let short = Guard::new(Some(now + Duration::from_millis(41)));
            assert!(matches!(
                short.curl_budget(),
                Budget::Within(b) if b == Duration::from_millis(30)
            ));
            let past = Guard::new(Some(now));
            assert!(matches!(past.curl_budget(), Budget::Exhausted));
            assert!(matches!(Guard::new(None).curl_budget(), Budget::Unbounded));
        });
    }
}
