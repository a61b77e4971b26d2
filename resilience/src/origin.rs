//! The per-origin key.
//!
//! Breakers, rate limiters and bulkheads are kept per origin (scheme, host,
//! port): one dead upstream must not open the circuit, spend the quota or
//! fill the concurrency of another. This is the only HTTP notion this crate
//! has; the core re-exports [`Origin`] and builds it from a request URI.

use std::fmt;
use std::sync::Arc;

/// The scheme part of an [`Origin`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scheme {
    /// `http`
    Http,
    /// `https`
    Https,
}

impl Scheme {
    /// The scheme as written in a URI (`"http"`, `"https"`).
    pub fn as_str(self) -> &'static str {
        match self {
            Scheme::Http => "http",
            Scheme::Https => "https",
        }
    }

    /// The port used when a URI names none (80, 443).
    pub fn default_port(self) -> u16 {
        match self {
            Scheme::Http => 80,
            Scheme::Https => 443,
        }
    }
}

impl fmt::Display for Scheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An origin: scheme, host and port, the key under which resilience state is
/// kept.
///
/// Cheap to clone (the host is an `Arc<str>`) and to hash. The host is stored
/// in ASCII lower case, since host names are case-insensitive and
/// `Example.com` and `example.com` are one upstream. Displays as
/// `scheme://host:port`, with an IPv6 literal in brackets.
///
/// ```
/// use evident_resilience::{Origin, Scheme};
///
/// let origin = Origin::new(Scheme::Https, "API.example.com", 443);
/// assert_eq!(origin.host(), "api.example.com");
/// assert_eq!(origin.to_string(), "https://api.example.com:443");
/// assert_eq!(Origin::new(Scheme::Http, "::1", 8080).to_string(), "http://[::1]:8080");
/// ```
// Equality and order are the fields' (`hash` is last, and a function of
// the others, so it never decides).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Origin {
    scheme: Scheme,
    host: Arc<str>,
    port: u16,
    /// The origin's hash, computed once: the pipeline looks an origin up
    /// on every attempt, and hashing the host each time was a measurable
    /// part of an attempt's cost. Keyed per process, as `HashMap`'s own.
    hash: u64,
}

impl std::hash::Hash for Origin {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

impl fmt::Debug for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Origin")
            .field("scheme", &self.scheme)
            .field("host", &self.host)
            .field("port", &self.port)
            .finish()
    }
}

/// The key of every origin's hash in this process.
static HASH_KEY: std::sync::OnceLock<std::hash::RandomState> = std::sync::OnceLock::new();

/// A hasher for maps keyed by [`Origin`] alone: an origin hashes itself
/// (once, keyed), so the map only takes the number.
#[derive(Default)]
pub(crate) struct OriginHasher(u64);

impl std::hash::Hasher for OriginHasher {
    fn write(&mut self, bytes: &[u8]) {
        // Not reached for an `Origin`; any other key still hashes (FNV-1a).
        for b in bytes {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// What a map keyed by [`Origin`] hashes with.
pub(crate) type BuildOriginHasher = std::hash::BuildHasherDefault<OriginHasher>;

impl Origin {
    /// An origin for `scheme://host:port`. A host written in brackets
    /// (`[::1]`) is stored without them.
    pub fn new(scheme: Scheme, host: impl AsRef<str>, port: u16) -> Self {
        let host = host.as_ref();
        let host = host
            .strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .unwrap_or(host);
        let host: Arc<str> = if host.bytes().any(|b| b.is_ascii_uppercase()) {
            host.to_ascii_lowercase().into()
        } else {
            host.into()
        };
        use std::hash::BuildHasher as _;
        let hash = HASH_KEY
            .get_or_init(std::hash::RandomState::new)
            .hash_one((scheme, &*host, port));
        Self {
            scheme,
            host,
            port,
            hash,
        }
    }

    /// The origin of an absolute `http://` or `https://` URI; a missing
    /// port is the scheme's default.
    ///
    /// ```
    /// use evident_resilience::{Origin, Scheme};
    ///
    /// let origin = Origin::from_uri(&"HTTPS://Example.COM/x?y".parse().unwrap()).unwrap();
    /// assert_eq!((origin.scheme(), origin.host(), origin.port()), (Scheme::Https, "example.com", 443));
    ///
    /// let v6 = Origin::from_uri(&"http://[::1]:8080/".parse().unwrap()).unwrap();
    /// assert_eq!((v6.host(), v6.authority()), ("::1", "[::1]:8080".to_owned()));
    ///
    /// assert!(Origin::from_uri(&"/relative".parse().unwrap()).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`InvalidUri`] for a relative URI, another scheme or no host.
    pub fn from_uri(uri: &http::Uri) -> Result<Origin, InvalidUri> {
        let scheme = match uri.scheme_str() {
            Some(s) if s.eq_ignore_ascii_case("http") => Scheme::Http,
            Some(s) if s.eq_ignore_ascii_case("https") => Scheme::Https,
            Some(_) => return Err(InvalidUri("the scheme is neither http nor https")),
            None => return Err(InvalidUri("the URI is not absolute (no scheme)")),
        };
        let host = uri
            .host()
            .filter(|h| !h.is_empty())
            .ok_or(InvalidUri("the URI has no host"))?;
        let port = uri.port_u16().unwrap_or(scheme.default_port());
        Ok(Origin::new(scheme, host, port))
    }

    /// The scheme.
    pub fn scheme(&self) -> Scheme {
        self.scheme
    }

    /// Whether the origin is `https://`.
    pub fn is_https(&self) -> bool {
        self.scheme == Scheme::Https
    }

    /// The host, lower case, without IPv6 brackets (the form resolution
    /// and a TLS server name take).
    pub fn host(&self) -> &str {
        &self.host
    }

    /// The port (explicit or the scheme's default, as the caller gave it).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// `host:port`, an IPv6 literal in brackets.
    pub fn authority(&self) -> String {
        if self.host.contains(':') {
            format!("[{}]:{}", self.host, self.port)
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }
}

/// A request URI no engine can send: relative, another scheme, no host.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InvalidUri(&'static str);

impl fmt::Display for InvalidUri {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid request URI: {}", self.0)
    }
}

impl std::error::Error for InvalidUri {}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.host.contains(':') {
            write!(f, "{}://[{}]:{}", self.scheme, self.host, self.port)
        } else {
            write!(f, "{}://{}:{}", self.scheme, self.host, self.port)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_origins_hash_equal_and_debug_shows_no_hash() {
        use std::hash::BuildHasher;
        let hasher = std::hash::RandomState::new();
        let (a, b) = (
            Origin::new(Scheme::Https, "Example.COM", 443),
            Origin::new(Scheme::Https, "example.com", 443),
        );
        assert_eq!(hasher.hash_one(&a), hasher.hash_one(&b));
        assert_ne!(
            hasher.hash_one(&a),
            hasher.hash_one(Origin::new(Scheme::Https, "example.com", 444))
        );
        assert_eq!(
            format!("{a:?}"),
            r#"Origin { scheme: Https, host: "example.com", port: 443 }"#
        );
        let mut map: std::collections::HashMap<Origin, u8, BuildOriginHasher> = Default::default();
        map.insert(a, 1);
        assert_eq!(map.get(&b), Some(&1));
    }

    #[test]
    fn origins_differing_only_in_host_case_are_equal() {
        assert_eq!(
            Origin::new(Scheme::Https, "Example.COM", 443),
            Origin::new(Scheme::Https, "example.com", 443)
        );
    }

    #[test]
    fn bracketed_ipv6_hosts_are_stored_bare_and_displayed_bracketed() {
        let origin = Origin::new(Scheme::Https, "[2001:db8::1]", 8443);
        assert_eq!(origin.host(), "2001:db8::1");
        assert_eq!(origin.to_string(), "https://[2001:db8::1]:8443");
    }
}
