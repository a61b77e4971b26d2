//! The fleet's configuration: where Redis is, which keys belong to this
//! fleet, how long keys live, and how long any Redis operation may take.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use evident_core::observe::Observer;

/// Default deadline of one Redis operation: 5 ms. A loopback or same-zone
/// round trip takes well under a millisecond; a Redis that takes longer
/// than a few milliseconds is in trouble, and waiting for it would make
/// every call slower. Past the deadline the call goes on under local
/// limits.
pub const DEFAULT_DEADLINE: Duration = Duration::from_millis(5);

/// Default grace a key outlives the data it holds: 60 s. A key is never
/// deleted while it matters (its expiry is the span its value describes
/// plus this grace), and a fleet that stops leaves nothing behind a
/// minute later.
pub const DEFAULT_KEY_EXPIRY: Duration = Duration::from_secs(60);

/// Default number of processes the fleet is expected to have: 1. While
/// Redis is unreachable, each process enforces the shared rate and retry
/// floor divided by this number; 1 (each process alone allowed the whole
/// rate) is the only value that is safe to assume, so set it to your
/// replica count.
pub const DEFAULT_EXPECTED_FLEET_SIZE: u32 = 1;

/// Default time allowed to open a connection to Redis: 200 ms. Only the
/// background reconnect and start-up wait this long; no call ever does.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_millis(200);

/// Default pause between reconnect attempts while Redis is unreachable:
/// 100 ms, so the fleet shares again within a fraction of a second of
/// Redis coming back, at the cost of ten connection attempts a second per
/// process while it is down.
pub const DEFAULT_RECONNECT_INTERVAL: Duration = Duration::from_millis(100);

/// Default longest time a retry budget keeps its deposits before sending
/// them to Redis: 50 ms. A process making 1,000 calls a second then
/// talks to Redis for its budget 20 times a second (0.02 round trips per
/// call); the fleet's view of recent requests lags by at most this much.
pub const DEFAULT_FLUSH_INTERVAL: Duration = Duration::from_millis(50);

/// Longest accepted deadline, key expiry, reconnect and flush interval:
/// one day; longer values are mistakes.
const MAX_DURATION: Duration = Duration::from_secs(24 * 3600);
/// Longest accepted key prefix, in bytes: keys stay short and readable.
const MAX_KEY_PREFIX_LEN: usize = 128;
/// Largest accepted expected fleet size.
const MAX_FLEET_SIZE: u32 = 100_000;

/// A configuration value was rejected. Never shows a password.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FleetConfigError {
    /// The Redis URL does not parse, or redis-rs rejects it.
    #[error("invalid Redis URL {url}: {reason}")]
    #[non_exhaustive]
    InvalidUrl {
        /// The URL with any password replaced by `***`.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The URL's scheme is neither `redis` nor `rediss`.
    #[error("unsupported Redis URL scheme {scheme:?}: expected redis:// or rediss://")]
    #[non_exhaustive]
    UnsupportedScheme {
        /// The scheme given.
        scheme: String,
    },
    /// A `rediss://` URL, but this build has no TLS (feature `tls`).
    #[error("rediss:// needs evident-redis's `tls` feature")]
    TlsNotBuilt,
    /// The key prefix is empty, too long, or has characters that are not
    /// printable ASCII (or has a space).
    #[error("invalid key prefix {prefix:?}: {reason}")]
    #[non_exhaustive]
    InvalidKeyPrefix {
        /// The prefix given.
        prefix: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A number or duration out of range.
    #[error("invalid {field} = {value}: expected {expected}")]
    #[non_exhaustive]
    OutOfRange {
        /// The builder field.
        field: &'static str,
        /// The value given.
        value: String,
        /// What the field accepts.
        expected: &'static str,
    },
}

impl FleetConfigError {
    fn out_of_range(field: &'static str, value: impl fmt::Debug, expected: &'static str) -> Self {
        FleetConfigError::OutOfRange {
            field,
            value: format!("{value:?}"),
            expected,
        }
    }
}

/// A Redis URL, parsed, whose `Debug` and `Display` hide the password.
#[derive(Clone)]
pub struct RedisUrl {
    /// The URL as given (with its secret): only ever handed to redis-rs.
    raw: String,
    /// The URL with the password replaced, for messages.
    redacted: String,
    tls: bool,
}

impl RedisUrl {
    /// Parses and checks `url`: `redis://[user[:password]@]host[:port][/db]`
    /// or the same with `rediss://` (TLS).
    pub fn parse(url: &str) -> Result<Self, FleetConfigError> {
        let parsed = url::Url::parse(url).map_err(|e| FleetConfigError::InvalidUrl {
            // An unparseable URL cannot be redacted reliably: show none of it.
            url: "(unparseable)".to_owned(),
            reason: e.to_string(),
        })?;
        let tls = match parsed.scheme() {
            "redis" => false,
            "rediss" => true,
            other => {
                return Err(FleetConfigError::UnsupportedScheme {
                    scheme: other.to_owned(),
                });
            }
        };
        let mut shown = parsed.clone();
        if shown.password().is_some() {
            // Cannot fail for a URL with a host, which a password implies.
            let _ = shown.set_password(Some("***"));
        }
        let redacted = shown.to_string();
        if parsed.host_str().is_none_or(str::is_empty) {
            return Err(FleetConfigError::InvalidUrl {
                url: redacted,
                reason: "no host".to_owned(),
            });
        }
        if tls && !cfg!(feature = "tls") {
            return Err(FleetConfigError::TlsNotBuilt);
        }
        // redis-rs' own checks (database number, parameters), without
        // connecting.
        if let Err(e) = redis::Client::open(url) {
            return Err(FleetConfigError::InvalidUrl {
                url: redacted,
                // The category and detail of redis-rs' error, not its
                // Display, which might echo parts of the URL.
                reason: e.category().to_owned(),
            });
        }
        Ok(RedisUrl {
            raw: url.to_owned(),
            redacted,
            tls,
        })
    }

    /// Whether the connection uses TLS (`rediss://`).
    pub fn is_tls(&self) -> bool {
        self.tls
    }

    pub(crate) fn secret(&self) -> &str {
        &self.raw
    }
}

impl fmt::Debug for RedisUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("RedisUrl").field(&self.redacted).finish()
    }
}

impl fmt::Display for RedisUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.redacted)
    }
}

/// Certificates in PEM, shown by size only.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Pem(pub(crate) Vec<u8>);

impl fmt::Debug for Pem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Pem({} bytes)", self.0.len())
    }
}

/// Observers told of every switch between shared and local limits; shown
/// by number only (an observer need not be `Debug`).
#[derive(Clone, Default)]
pub(crate) struct Observers(pub(crate) Vec<Arc<dyn Observer>>);

impl fmt::Debug for Observers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Observers({})", self.0.len())
    }
}

/// A validated fleet configuration. Build it with [`FleetConfig::builder`].
#[derive(Debug, Clone)]
pub struct FleetConfig {
    pub(crate) url: RedisUrl,
    /// Roots trusted for `rediss://` instead of the system's.
    pub(crate) tls_roots: Option<Pem>,
    pub(crate) key_prefix: String,
    pub(crate) key_expiry: Duration,
    pub(crate) deadline: Duration,
    pub(crate) expected_fleet_size: u32,
    pub(crate) connect_timeout: Duration,
    pub(crate) reconnect_interval: Duration,
    pub(crate) flush_interval: Duration,
    pub(crate) observers: Observers,
}

impl FleetConfig {
    /// A builder for a fleet sharing its state at `url` under keys
    /// starting with `key_prefix` (one prefix per fleet: two fleets with
    /// the same prefix share their limits).
    ///
    /// ```
    /// use evident_redis::{FleetConfig, FleetConfigError};
    ///
    /// let config = FleetConfig::builder("redis://app:s3cret@127.0.0.1:6379/0", "payments")
    ///     .expected_fleet_size(40)
    ///     .build()?;
    /// // The password never shows.
    /// assert_eq!(config.url().to_string(), "redis://app:***@127.0.0.1:6379/0");
    /// assert!(!format!("{config:?}").contains("s3cret"));
    ///
    /// let err = FleetConfig::builder("http://127.0.0.1", "payments").build().unwrap_err();
    /// assert!(matches!(err, FleetConfigError::UnsupportedScheme { .. }));
    /// # Ok::<(), FleetConfigError>(())
    /// ```
    pub fn builder(url: impl Into<String>, key_prefix: impl Into<String>) -> FleetConfigBuilder {
        FleetConfigBuilder {
            url: url.into(),
            key_prefix: key_prefix.into(),
            tls_roots: None,
            key_expiry: DEFAULT_KEY_EXPIRY,
            deadline: DEFAULT_DEADLINE,
            expected_fleet_size: DEFAULT_EXPECTED_FLEET_SIZE,
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            reconnect_interval: DEFAULT_RECONNECT_INTERVAL,
            flush_interval: DEFAULT_FLUSH_INTERVAL,
            observers: Observers::default(),
        }
    }

    /// The Redis URL (displayed without its password).
    pub fn url(&self) -> &RedisUrl {
        &self.url
    }
    /// The prefix of every key this fleet writes.
    pub fn key_prefix(&self) -> &str {
        &self.key_prefix
    }
    /// How long a key outlives the data it holds.
    pub fn key_expiry(&self) -> Duration {
        self.key_expiry
    }
    /// The longest a Redis operation may take before the call goes on
    /// locally.
    pub fn deadline(&self) -> Duration {
        self.deadline
    }
    /// The number of processes the local fallback divides limits by.
    pub fn expected_fleet_size(&self) -> u32 {
        self.expected_fleet_size
    }
    /// How long opening a connection may take (background only).
    pub fn connect_timeout(&self) -> Duration {
        self.connect_timeout
    }
    /// The pause between reconnect attempts.
    pub fn reconnect_interval(&self) -> Duration {
        self.reconnect_interval
    }
    /// The longest a retry budget batches deposits.
    pub fn flush_interval(&self) -> Duration {
        self.flush_interval
    }
}

/// Builder for [`FleetConfig`].
#[derive(Clone)]
pub struct FleetConfigBuilder {
    url: String,
    key_prefix: String,
    tls_roots: Option<Pem>,
    key_expiry: Duration,
    deadline: Duration,
    expected_fleet_size: u32,
    connect_timeout: Duration,
    reconnect_interval: Duration,
    flush_interval: Duration,
    observers: Observers,
}

impl fmt::Debug for FleetConfigBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The URL is not validated yet, so it cannot be redacted safely:
        // leave it out.
        f.debug_struct("FleetConfigBuilder")
            .field("key_prefix", &self.key_prefix)
            .field("deadline", &self.deadline)
            .field("expected_fleet_size", &self.expected_fleet_size)
            .field("observers", &self.observers)
            .finish_non_exhaustive()
    }
}

impl FleetConfigBuilder {
    /// For `rediss://`: trust the certificate authorities in `pem` instead
    /// of the system's store (a private CA, as managed Redis services and
    /// test servers use).
    #[cfg(feature = "tls")]
    pub fn tls_root_certificates_pem(mut self, pem: impl Into<Vec<u8>>) -> Self {
        self.tls_roots = Some(Pem(pem.into()));
        self
    }

    /// How long a key outlives the data it holds (default
    /// [`DEFAULT_KEY_EXPIRY`]).
    pub fn key_expiry(mut self, expiry: Duration) -> Self {
        self.key_expiry = expiry;
        self
    }
    /// The deadline of every Redis operation a call may wait for (default
    /// [`DEFAULT_DEADLINE`]).
    pub fn deadline(mut self, deadline: Duration) -> Self {
        self.deadline = deadline;
        self
    }
    /// The number of processes sharing the limits; the local fallback
    /// enforces each shared limit divided by it (default
    /// [`DEFAULT_EXPECTED_FLEET_SIZE`]).
    pub fn expected_fleet_size(mut self, processes: u32) -> Self {
        self.expected_fleet_size = processes;
        self
    }
    /// How long opening a connection may take (default
    /// [`DEFAULT_CONNECT_TIMEOUT`]).
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }
    /// The pause between reconnect attempts (default
    /// [`DEFAULT_RECONNECT_INTERVAL`]).
    pub fn reconnect_interval(mut self, interval: Duration) -> Self {
        self.reconnect_interval = interval;
        self
    }
    /// The longest a retry budget batches deposits (default
    /// [`DEFAULT_FLUSH_INTERVAL`]).
    pub fn flush_interval(mut self, interval: Duration) -> Self {
        self.flush_interval = interval;
        self
    }

    /// Tells `observer` of every switch between shared and local limits
    /// ([`Observer::on_shared_state`], with the key prefix as the fleet's
    /// name): the first connection at start-up or its failure, each
    /// fallback with its reason, each return to shared state. Called once
    /// per switch, in order, from the fleet's own thread, holding no lock
    /// a call needs. May be given several times; the core's
    /// `MetricsObserver` (feature `metrics`) publishes these as metrics.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use evident_core::observe::{AttemptRecord, CallInfo, Observer, SharedStateEvent};
    /// use evident_redis::FleetConfig;
    ///
    /// struct Page;
    /// impl Observer for Page {
    ///     fn on_attempt(&self, _: &CallInfo, _: &AttemptRecord) {}
    ///     fn on_shared_state(&self, fleet: &str, event: &SharedStateEvent) {
    ///         if !event.is_shared() {
    ///             eprintln!("fleet {fleet} runs on local limits: {event}");
    ///         }
    ///     }
    /// }
    /// let config = FleetConfig::builder("redis://127.0.0.1:6379", "payments")
    ///     .observer(Arc::new(Page))
    ///     .build()?;
    /// # let _ = config;
    /// # Ok::<(), evident_redis::FleetConfigError>(())
    /// ```
    pub fn observer(mut self, observer: Arc<dyn Observer>) -> Self {
        self.observers.0.push(observer);
        self
    }

    /// Validates and builds.
    pub fn build(self) -> Result<FleetConfig, FleetConfigError> {
        let url = RedisUrl::parse(&self.url)?;
        check_prefix(&self.key_prefix)?;
        if let Some(roots) = &self.tls_roots {
            if !url.is_tls() {
                return Err(FleetConfigError::out_of_range(
                    "tls_root_certificates_pem",
                    roots,
                    "only with a rediss:// URL",
                ));
            }
            if redis_client(&url, Some(roots)).is_err() {
                return Err(FleetConfigError::out_of_range(
                    "tls_root_certificates_pem",
                    roots,
                    "PEM certificates",
                ));
            }
        }
        for (field, value) in [
            ("key_expiry", self.key_expiry),
            ("deadline", self.deadline),
            ("connect_timeout", self.connect_timeout),
            ("reconnect_interval", self.reconnect_interval),
            ("flush_interval", self.flush_interval),
        ] {
            if value.is_zero() || value > MAX_DURATION {
                return Err(FleetConfigError::out_of_range(
                    field,
                    value,
                    "a non-zero duration of at most one day",
                ));
            }
        }
        if self.expected_fleet_size == 0 || self.expected_fleet_size > MAX_FLEET_SIZE {
            return Err(FleetConfigError::out_of_range(
                "expected_fleet_size",
                self.expected_fleet_size,
                "1..=100000 processes",
            ));
        }
        Ok(FleetConfig {
            url,
            tls_roots: self.tls_roots,
            key_prefix: self.key_prefix,
            key_expiry: self.key_expiry,
            deadline: self.deadline,
            expected_fleet_size: self.expected_fleet_size,
            connect_timeout: self.connect_timeout,
            reconnect_interval: self.reconnect_interval,
            flush_interval: self.flush_interval,
            observers: self.observers,
        })
    }
}

/// The redis-rs client for `url`, trusting `roots` if given. Connects
/// nothing.
pub(crate) fn redis_client(
    url: &RedisUrl,
    roots: Option<&Pem>,
) -> redis::RedisResult<redis::Client> {
    #[cfg(feature = "tls")]
    if url.is_tls() {
        crate::link::install_crypto_provider();
    }
    match roots {
        #[cfg(feature = "tls")]
        Some(roots) => redis::Client::build_with_tls(
            url.secret(),
            redis::TlsCertificates {
                client_tls: None,
                root_cert: Some(roots.0.clone()),
            },
        ),
        _ => redis::Client::open(url.secret()),
    }
}

fn check_prefix(prefix: &str) -> Result<(), FleetConfigError> {
    let reason = if prefix.is_empty() {
        "must not be empty"
    } else if prefix.len() > MAX_KEY_PREFIX_LEN {
        "must be at most 128 bytes"
    } else if !prefix.bytes().all(|b| b.is_ascii_graphic()) {
        "must be printable ASCII without spaces"
    } else {
        return Ok(());
    };
    Err(FleetConfigError::InvalidKeyPrefix {
        prefix: prefix.to_owned(),
        reason,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_never_shows_in_display_debug_or_errors() {
        let url = RedisUrl::parse("redis://user:hunter2@localhost:6390/3").unwrap();
        assert_eq!(url.to_string(), "redis://user:***@localhost:6390/3");
        assert!(!format!("{url:?}").contains("hunter2"));
        let err = RedisUrl::parse("redis://user:hunter2@localhost:6390/notadb").unwrap_err();
        assert!(!err.to_string().contains("hunter2"), "{err}");
        assert!(matches!(err, FleetConfigError::InvalidUrl { .. }));
        let builder = FleetConfig::builder("redis://:hunter2@h", "p");
        assert!(!format!("{builder:?}").contains("hunter2"));
    }

    #[test]
    fn bad_urls_get_typed_errors() {
        assert!(matches!(
            RedisUrl::parse("not a url"),
            Err(FleetConfigError::InvalidUrl { .. })
        ));
        assert!(matches!(
            RedisUrl::parse("http://localhost"),
            Err(FleetConfigError::UnsupportedScheme { scheme }) if scheme == "http"
        ));
        assert!(matches!(
            RedisUrl::parse("redis://"),
            Err(FleetConfigError::InvalidUrl { .. })
        ));
        assert_eq!(
            RedisUrl::parse("rediss://localhost:6380").map(|u| u.is_tls()),
            if cfg!(feature = "tls") {
                Ok(true)
            } else {
                Err(FleetConfigError::TlsNotBuilt)
            }
        );
    }

    #[test]
    fn out_of_range_values_name_their_field() {
        let b = || FleetConfig::builder("redis://127.0.0.1", "fleet");
        let field = |r: Result<FleetConfig, FleetConfigError>| match r.unwrap_err() {
            FleetConfigError::OutOfRange { field, .. } => field,
            other => panic!("{other}"),
        };
        assert_eq!(field(b().deadline(Duration::ZERO).build()), "deadline");
        assert_eq!(
            field(b().expected_fleet_size(0).build()),
            "expected_fleet_size"
        );
        assert_eq!(
            field(b().key_expiry(Duration::from_secs(2 * 86_400)).build()),
            "key_expiry"
        );
        assert!(matches!(
            FleetConfig::builder("redis://127.0.0.1", "a b").build(),
            Err(FleetConfigError::InvalidKeyPrefix { .. })
        ));
        assert!(matches!(
            FleetConfig::builder("redis://127.0.0.1", "").build(),
            Err(FleetConfigError::InvalidKeyPrefix { .. })
        ));
        let ok = b().build().unwrap();
        assert_eq!(ok.deadline(), DEFAULT_DEADLINE);
    }
}
