//! The origin (scheme, host, port) a request goes to: the key of the
//! connection pool and the input of resolution and TLS.

use std::fmt;

use http::Uri;

/// `http` or `https`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Scheme {
    Http,
    Https,
}

/// Where a request goes. Host names are lower-cased; IPv6 literals are kept
/// without their brackets.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Origin {
    pub(crate) scheme: Scheme,
    pub(crate) host: String,
    pub(crate) port: u16,
}

impl Origin {
    pub(crate) fn from_uri(uri: &Uri) -> Result<Origin, InvalidUri> {
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
        let host = host
            .strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .unwrap_or(host)
            .to_ascii_lowercase();
        let port = uri.port_u16().unwrap_or(match scheme {
            Scheme::Http => 80,
            Scheme::Https => 443,
        });
        Ok(Origin { scheme, host, port })
    }
}

/// The request's URI cannot be sent by this engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct InvalidUri(&'static str);

impl fmt::Display for InvalidUri {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid request URI: {}", self.0)
    }
}

impl std::error::Error for InvalidUri {}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin(s: &str) -> Result<Origin, InvalidUri> {
        Origin::from_uri(&s.parse().unwrap())
    }

    #[test]
    fn default_ports_follow_the_scheme() {
        assert_eq!(origin("http://Example.COM/x").unwrap().port, 80);
        let o = origin("https://example.com/").unwrap();
        assert_eq!(
            (o.scheme, o.host.as_str(), o.port),
            (Scheme::Https, "example.com", 443)
        );
    }

    #[test]
    fn ipv6_literals_lose_their_brackets() {
        let o = origin("http://[::1]:8080/").unwrap();
        assert_eq!((o.host.as_str(), o.port), ("::1", 8080));
    }

    #[test]
    fn relative_and_foreign_uris_are_rejected() {
        assert!(origin("/path").is_err());
        assert!(origin("ftp://example.com/").is_err());
    }
}
