//! Client configuration and per-call options.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use std::sync::atomic::{AtomicBool, Ordering};

use evident_resilience::{Clock, Interrupt, Pipeline, PipelineConfig};
use http::HeaderValue;

use crate::config::ConfigError;
use crate::decide::{RetryPolicy, check_duration};
use crate::observe::Observer;

/// Default timeout of one attempt: 30 s, a common ceiling for one HTTP
/// exchange; a call with a deadline is bounded by it as well.
pub const DEFAULT_ATTEMPT_TIMEOUT: Duration = Duration::from_secs(30);
/// Default limit on a response body read inside the attempt: 8 MiB. Larger
/// responses should use the streaming mode.
pub const DEFAULT_MAX_RESPONSE_BYTES: usize = 8 * 1024 * 1024;
/// Upper bound on the response size limit: 1 GiB. Reading more into memory
/// is not a configuration, it is a mistake.
pub const MAX_RESPONSE_BYTES_LIMIT: usize = 1024 * 1024 * 1024;
/// The header an idempotency key travels in.
pub const IDEMPOTENCY_KEY_HEADER: &str = "idempotency-key";

/// The wall clock, for `Retry-After` HTTP-dates. Injected so tests are exact.
pub trait WallClock: Send + Sync + 'static {
    /// The current wall-clock time.
    fn now(&self) -> SystemTime;
}

/// The operating system's wall clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemWallClock;

impl WallClock for SystemWallClock {
    fn now(&self) -> SystemTime {
        SystemTime::now()
    }
}

/// Everything a client shares between its calls.
#[derive(Clone)]
pub(crate) struct Shared {
    pub(crate) policy: RetryPolicy,
    pub(crate) attempt_timeout: Duration,
    pub(crate) default_deadline: Option<Duration>,
    pub(crate) max_response_bytes: usize,
    pub(crate) pipeline: PipelineConfig,
    /// A pipeline shared with other clients, used instead of a new one.
    pub(crate) shared_pipeline: Option<Arc<Pipeline>>,
    pub(crate) clock: Option<Arc<dyn Clock>>,
    pub(crate) wall: Arc<dyn WallClock>,
    pub(crate) observer: Option<Arc<dyn Observer>>,
}

/// Builds a client ([`crate::client::Client`] or
/// [`crate::client::blocking::Client`]) with validated configuration.
///
/// ```
/// use std::time::Duration;
/// use evident_core::client::ClientBuilder;
/// use evident_core::RetryPolicy;
///
/// let builder = ClientBuilder::new()
///     .policy(RetryPolicy::builder().max_attempts(4).build()?)
///     .attempt_timeout(Duration::from_secs(5))
///     .deadline(Duration::from_secs(20));
/// # let _ = builder;
/// let err = ClientBuilder::new().attempt_timeout(Duration::ZERO).validate().unwrap_err();
/// assert_eq!(err.field(), "attempt_timeout");
/// # Ok::<(), evident_core::ConfigError>(())
/// ```
#[derive(Clone)]
pub struct ClientBuilder {
    shared: Shared,
}

impl Default for ClientBuilder {
    fn default() -> Self {
        ClientBuilder {
            shared: Shared {
                policy: RetryPolicy::default(),
                attempt_timeout: DEFAULT_ATTEMPT_TIMEOUT,
                default_deadline: None,
                max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
                pipeline: PipelineConfig::default(),
                shared_pipeline: None,
                clock: None,
                wall: Arc::new(SystemWallClock),
                observer: None,
            },
        }
    }
}

impl std::fmt::Debug for ClientBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientBuilder")
            .field("policy", &self.shared.policy)
            .field("attempt_timeout", &self.shared.attempt_timeout)
            .field("default_deadline", &self.shared.default_deadline)
            .field("max_response_bytes", &self.shared.max_response_bytes)
            .field("pipeline", &self.shared.pipeline)
            .finish_non_exhaustive()
    }
}

impl ClientBuilder {
    /// A builder with the defaults: the default [`RetryPolicy`], a 30 s
    /// attempt timeout, no deadline, an 8 MiB response limit, and a pipeline
    /// with a circuit breaker and a bulkhead per origin.
    pub fn new() -> Self {
        Self::default()
    }

    /// The retry policy.
    pub fn policy(mut self, policy: RetryPolicy) -> Self {
        self.shared.policy = policy;
        self
    }

    /// The timeout of one attempt (non-zero).
    pub fn attempt_timeout(mut self, timeout: Duration) -> Self {
        self.shared.attempt_timeout = timeout;
        self
    }

    /// The default deadline of a whole call (non-zero); a call may set its
    /// own with [`CallOptions::deadline`].
    pub fn deadline(mut self, deadline: Duration) -> Self {
        self.shared.default_deadline = Some(deadline);
        self
    }

    /// The largest response body read inside an attempt (`1..=1 GiB`).
    pub fn max_response_bytes(mut self, limit: usize) -> Self {
        self.shared.max_response_bytes = limit;
        self
    }

    /// The per-origin resilience pipeline.
    pub fn pipeline(mut self, pipeline: PipelineConfig) -> Self {
        self.shared.pipeline = pipeline;
        self.shared.shared_pipeline = None;
        self
    }

    /// Use this pipeline — typically another client's
    /// ([`Client::pipeline`](crate::client::Client::pipeline)) — instead of
    /// a new one: every client built with it shares one breaker, rate
    /// limiter and bulkhead per origin, so an upstream that fails for one
    /// is open for all. (To share the retry budget too, give the clients
    /// clones of one [`RetryPolicy`]: clones share its budget.)
    ///
    /// ```
    /// use evident_core::client::ClientBuilder;
    /// use evident_core::testing::{ScriptedEngine, Step};
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() {
    /// let engine = || ScriptedEngine::new([Step::respond(200, "ok")]);
    /// let first = ClientBuilder::new().build(engine()).unwrap();
    /// let second = ClientBuilder::new()
    ///     .shared_pipeline(first.pipeline().clone())
    ///     .build(engine())
    ///     .unwrap();
    /// assert!(std::sync::Arc::ptr_eq(first.pipeline(), second.pipeline()));
    /// # }
    /// ```
    pub fn shared_pipeline(mut self, pipeline: Arc<Pipeline>) -> Self {
        self.shared.shared_pipeline = Some(pipeline);
        self
    }

    /// The monotonic clock (default: tokio's for the async client, the
    /// system's for the blocking one).
    pub fn clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.shared.clock = Some(clock);
        self
    }

    /// The wall clock used for `Retry-After` dates.
    pub fn wall_clock(mut self, wall: Arc<dyn WallClock>) -> Self {
        self.shared.wall = wall;
        self
    }

    /// Receives every attempt record as data.
    pub fn observer(mut self, observer: Arc<dyn Observer>) -> Self {
        self.shared.observer = Some(observer);
        self
    }

    /// Checks the configuration without building a client.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let s = &self.shared;
        check_duration("attempt_timeout", s.attempt_timeout)?;
        if let Some(d) = s.default_deadline {
            check_duration("deadline", d)?;
        }
        if s.max_response_bytes == 0 || s.max_response_bytes > MAX_RESPONSE_BYTES_LIMIT {
            return Err(ConfigError::new(
                "max_response_bytes",
                s.max_response_bytes,
                "must be between 1 byte and 1 GiB",
            ));
        }
        Ok(())
    }

    pub(crate) fn into_shared(self) -> Result<Shared, ConfigError> {
        self.validate()?;
        Ok(self.shared)
    }
}

/// What the caller declares about one call.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) enum Declared {
    #[default]
    Nothing,
    Idempotent,
    Key(HeaderValue),
    GeneratedKey,
}

/// Per-call options: what the caller declares, and limits that override
/// the client's for this call only (deadline, attempt timeout, attempts,
/// response size, or the whole retry policy).
///
/// Overrides are checked when the call starts: an impossible value fails
/// the call with [`Error::is_invalid_request`](super::Error::is_invalid_request)
/// before anything is sent.
///
/// ```
/// use std::time::Duration;
/// use evident_core::client::CallOptions;
///
/// let payment = CallOptions::new()
///     .generate_idempotency_key()
///     .deadline(Duration::from_secs(10));
/// let read = CallOptions::new()
///     .idempotent()
///     .attempt_timeout(Duration::from_secs(2))
///     .max_attempts(5)
///     .max_response_bytes(64 * 1024);
/// # let _ = (payment, read);
/// ```
#[derive(Debug, Clone, Default)]
pub struct CallOptions {
    pub(crate) declared: Declared,
    pub(crate) deadline: Option<Duration>,
    pub(crate) attempt_timeout: Option<Duration>,
    pub(crate) max_attempts: Option<u32>,
    pub(crate) max_response_bytes: Option<usize>,
    /// Shared, so that options stay small to move and a call takes it
    /// without copying it.
    pub(crate) policy: Option<Arc<RetryPolicy>>,
}

impl CallOptions {
    /// Nothing declared: only proven non-execution allows a retry.
    pub fn new() -> Self {
        Self::default()
    }

    /// Declares the operation idempotent: ambiguous failures may be retried.
    pub fn idempotent(mut self) -> Self {
        self.declared = Declared::Idempotent;
        self
    }

    /// Sends this idempotency key (in `Idempotency-Key`). It makes a repeat
    /// safe only once an attempt has actually written it.
    pub fn idempotency_key(mut self, key: HeaderValue) -> Self {
        self.declared = Declared::Key(key);
        self
    }

    /// Generates a random (UUID v4) idempotency key for this call.
    pub fn generate_idempotency_key(mut self) -> Self {
        self.declared = Declared::GeneratedKey;
        self
    }

    /// The deadline of this call (overrides the client's default).
    pub fn deadline(mut self, deadline: Duration) -> Self {
        self.deadline = Some(deadline);
        self
    }

    /// How long each attempt of this call may take (overrides the
    /// client's attempt timeout; still cut by the deadline).
    pub fn attempt_timeout(mut self, timeout: Duration) -> Self {
        self.attempt_timeout = Some(timeout);
        self
    }

    /// Total attempts allowed for this call, the first included (overrides
    /// the policy's, including a policy given with [`Self::policy`]).
    pub fn max_attempts(mut self, attempts: u32) -> Self {
        self.max_attempts = Some(attempts);
        self
    }

    /// The largest response body this call reads whole (overrides the
    /// client's limit).
    pub fn max_response_bytes(mut self, limit: usize) -> Self {
        self.max_response_bytes = Some(limit);
        self
    }

    /// The retry policy for this call instead of the client's: its rules
    /// parameters, backoff and budget (a policy's budget is shared by every
    /// clone of it).
    pub fn policy(mut self, policy: RetryPolicy) -> Self {
        self.policy = Some(Arc::new(policy));
        self
    }
}

/// What both clients hold, shared by their clones: the engine, the
/// configuration, the per-origin pipeline, the clock and the drain signal.
pub(crate) struct Handles<E> {
    pub(crate) engine: Arc<E>,
    pub(crate) shared: Arc<Shared>,
    pub(crate) pipeline: Arc<Pipeline>,
    pub(crate) clock: Arc<dyn Clock>,
    /// Whether `clock` is the default tokio clock, so its instants are
    /// tokio's timer's (the async client then sets an attempt's timer to
    /// the attempt's planned deadline without reading the clock again).
    pub(crate) tokio_clock: bool,
    /// Whether the pipeline reads time from `clock`, so the client's own
    /// reading of it can be handed to the pipeline (a shared pipeline may
    /// have another clock).
    pub(crate) pipeline_on_clock: bool,
    drain: Arc<Drain>,
}

/// The drain signal, in the three forms its readers need: a flag for a
/// cheap check, a watch channel that ends an async wait between attempts,
/// and an interrupt that wakes a blocking one.
struct Drain {
    flag: AtomicBool,
    watch: tokio::sync::watch::Sender<bool>,
    interrupt: Interrupt,
}

impl<E> Clone for Handles<E> {
    fn clone(&self) -> Self {
        Handles {
            engine: self.engine.clone(),
            shared: self.shared.clone(),
            pipeline: self.pipeline.clone(),
            clock: self.clock.clone(),
            tokio_clock: self.tokio_clock,
            pipeline_on_clock: self.pipeline_on_clock,
            drain: self.drain.clone(),
        }
    }
}

impl<E> Handles<E> {
    /// Validates `builder` and assembles a client's handles; `default_clock`
    /// is used unless the builder was given one (`tokio_default`: it is
    /// [`TokioClock`](evident_resilience::TokioClock)).
    pub(crate) fn new(
        builder: ClientBuilder,
        engine: E,
        default_clock: Arc<dyn Clock>,
        tokio_default: bool,
    ) -> Result<Self, ConfigError> {
        let shared = builder.into_shared()?;
        let tokio_clock = shared.clock.is_none() && tokio_default;
        let clock = shared.clock.clone().unwrap_or(default_clock);
        let pipeline = match &shared.shared_pipeline {
            Some(pipeline) => pipeline.clone(),
            None => Arc::new(Pipeline::new(shared.pipeline.clone(), clock.clone())),
        };
        Ok(Handles {
            engine: Arc::new(engine),
            pipeline_on_clock: Arc::ptr_eq(pipeline.clock(), &clock),
            pipeline,
            shared: Arc::new(shared),
            clock,
            tokio_clock,
            drain: Arc::new(Drain {
                flag: AtomicBool::new(false),
                watch: tokio::sync::watch::Sender::new(false),
                interrupt: Interrupt::new(),
            }),
        })
    }

    pub(crate) fn drain(&self) {
        self.drain.flag.store(true, Ordering::SeqCst);
        self.drain.watch.send_replace(true);
        self.drain.interrupt.raise();
    }

    pub(crate) fn is_draining(&self) -> bool {
        self.drain.flag.load(Ordering::SeqCst)
    }

    /// Runs `fut` unless the client is drained first (or meanwhile): `None`
    /// then, and `fut` is dropped (an admission gives back what it took).
    pub(crate) async fn unless_drained<F: std::future::Future>(&self, fut: F) -> Option<F::Output> {
        use std::future::Future;
        use std::task::Poll;
        let mut drained = self.drain.watch.subscribe();
        let mut drained = std::pin::pin!(drained.wait_for(|d| *d));
        let mut fut = std::pin::pin!(fut);
        // The drain is polled first, so a client already drained never waits.
        std::future::poll_fn(|cx| {
            if drained.as_mut().poll(cx).is_ready() {
                return Poll::Ready(None);
            }
            fut.as_mut().poll(cx).map(Some)
        })
        .await
    }

    /// Waits `delay` on tokio's timer; `false` if the client was drained
    /// before or during the wait.
    pub(crate) async fn wait_unless_drained(&self, delay: std::time::Duration) -> bool {
        self.unless_drained(tokio::time::sleep(delay))
            .await
            .is_some()
    }

    /// What `drain()` raises, to end blocking waits.
    pub(crate) fn drain_interrupt(&self) -> &Interrupt {
        &self.drain.interrupt
    }

    /// Waits `delay` on the clock, blocking; `false` if the client was
    /// drained before or during the wait (which wakes it at once).
    pub(crate) fn wait_blocking_unless_drained(&self, delay: std::time::Duration) -> bool {
        !self.is_draining() && self.clock.sleep_unless(delay, &self.drain.interrupt)
    }
}
