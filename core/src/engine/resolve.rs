//! Name resolution: [`HostOverrides`] first, then IP literals, then the
//! system resolver, async and blocking, with one classification of "no
//! such name".

use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use std::sync::mpsc;
use std::time::Instant;

use super::EngineFailure;
use crate::classify::EngineSignal;

/// Static name-resolution overrides that every adapter's resolver honours,
/// so the conformance suite can point one host name at several loopback
/// addresses, or make a name not exist, on every engine alike.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HostOverrides {
    entries: Vec<(String, HostOverride)>,
}

/// What a host name resolves to under [`HostOverrides`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostOverride {
    /// These addresses, in this order.
    Addrs(Vec<std::net::IpAddr>),
    /// The name does not exist.
    NotFound,
}

impl HostOverrides {
    /// No overrides.
    pub fn new() -> Self {
        Self::default()
    }

    /// Maps `host` to `addrs`, in this order (a connect then interleaves
    /// the families, RFC 8305 §4).
    pub fn map(mut self, host: impl Into<String>, addrs: Vec<std::net::IpAddr>) -> Self {
        self.entries
            .push((host.into().to_ascii_lowercase(), HostOverride::Addrs(addrs)));
        self
    }

    /// Makes `host` not exist.
    pub fn not_found(mut self, host: impl Into<String>) -> Self {
        self.entries
            .push((host.into().to_ascii_lowercase(), HostOverride::NotFound));
        self
    }

    /// The override for `host`, if any (case-insensitive; the last entry for
    /// a host wins).
    pub fn lookup(&self, host: &str) -> Option<&HostOverride> {
        self.entries
            .iter()
            .rev()
            .find(|(h, _)| h.eq_ignore_ascii_case(host))
            .map(|(_, o)| o)
    }

    /// Whether there are no overrides.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The addresses to try for `host` (as a URI spells it: an IPv6
    /// literal may be in brackets), in order, each with `port`: these
    /// overrides first, then an IP literal, then the system resolver
    /// (`getaddrinfo` on tokio's blocking pool). The one resolution every
    /// adapter that resolves names itself shares, so a missing name is the
    /// same [`EngineSignal::NameNotFound`] on each. [`resolve_blocking`](Self::resolve_blocking)
    /// is the same on the calling thread.
    ///
    /// # Errors
    ///
    /// [`EngineSignal::NameNotFound`] for an override saying so, an
    /// override without addresses, a resolver answer with no address or a
    /// resolver's "no such name"; otherwise the resolver's I/O error.
    pub async fn resolve(&self, host: &str, port: u16) -> Result<Vec<SocketAddr>, EngineFailure> {
        if let Some(answer) = self.without_resolver(host, port) {
            return answer;
        }
        let answer = tokio::net::lookup_host((host, port))
            .await
            .map(|addrs| addrs.collect());
        system_answer(host, answer)
    }

    /// [`resolve`](Self::resolve) for blocking engines: the same
    /// overrides, literals, errors and order. With a `deadline` (a
    /// blocking engine bounds every call by its attempt's), the system
    /// resolver runs on a thread of its own and a resolver still busy at the
    /// deadline is a [`EngineSignal::TimedOut`] failure (the thread ends with
    /// `getaddrinfo`, its answer unused); without one, on the calling thread.
    ///
    /// # Errors
    ///
    /// As [`resolve`](Self::resolve), and [`EngineSignal::TimedOut`] when
    /// the deadline passes first.
    pub fn resolve_blocking(
        &self,
        host: &str,
        port: u16,
        deadline: Option<Instant>,
    ) -> Result<Vec<SocketAddr>, EngineFailure> {
        if let Some(answer) = self.without_resolver(host, port) {
            return answer;
        }
        let lookup = move |host: &str| -> std::io::Result<Vec<SocketAddr>> {
            (host, port).to_socket_addrs().map(|addrs| addrs.collect())
        };
        let Some(deadline) = deadline else {
            return system_answer(host, lookup(host));
        };
        let (tx, rx) = mpsc::channel();
        let owned = host.to_owned();
        std::thread::Builder::new()
            .name("evident-resolve".into())
            .spawn(move || {
                let _ = tx.send(lookup(&owned));
            })
            .map_err(|e| EngineFailure::new(EngineSignal::Io(e.kind()), e))?;
        match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(answer) => system_answer(host, answer),
            Err(_) => Err(EngineFailure::new(
                EngineSignal::TimedOut,
                std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    format!("resolving `{host}` outlasted the attempt"),
                ),
            )),
        }
    }

    /// The answer when no resolver needs asking: an override, or an IP
    /// literal (brackets allowed).
    fn without_resolver(
        &self,
        host: &str,
        port: u16,
    ) -> Option<Result<Vec<SocketAddr>, EngineFailure>> {
        let literal = host
            .strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .unwrap_or(host);
        match self.lookup(literal) {
            Some(HostOverride::NotFound) => Some(Err(name_not_found(host, "a host override"))),
            Some(HostOverride::Addrs(addrs)) if addrs.is_empty() => Some(Err(name_not_found(
                host,
                "a host override without addresses",
            ))),
            Some(HostOverride::Addrs(addrs)) => Some(Ok(addrs
                .iter()
                .map(|ip| SocketAddr::new(*ip, port))
                .collect())),
            None => literal
                .parse::<IpAddr>()
                .ok()
                .map(|ip| Ok(vec![SocketAddr::new(ip, port)])),
        }
    }
}

/// The system resolver's answer, classified the one way every engine shares.
fn system_answer(
    host: &str,
    answer: std::io::Result<Vec<SocketAddr>>,
) -> Result<Vec<SocketAddr>, EngineFailure> {
    match answer {
        Ok(addrs) if addrs.is_empty() => Err(name_not_found(host, "the resolver (no addresses)")),
        Ok(addrs) => Ok(addrs),
        // Only "no such name" is permanent; a temporary resolver failure
        // stays an I/O error.
        Err(e) if crate::classify_helpers::is_name_not_found(&e) => {
            Err(EngineFailure::new(EngineSignal::NameNotFound, e))
        }
        Err(e) => Err(EngineFailure::new(EngineSignal::Io(e.kind()), e)),
    }
}

/// The addresses to try for `host` with `port`, in order: `overrides`
/// first, then an IP literal, then the system resolver. The free-function
/// spelling of [`HostOverrides::resolve`], for engines that resolve inside
/// their own connect (enter [`AttemptStage::Resolve`](crate::AttemptStage)
/// before calling it).
///
/// # Errors
///
/// As [`HostOverrides::resolve`].
pub async fn resolve(
    overrides: &HostOverrides,
    host: &str,
    port: u16,
) -> Result<Vec<SocketAddr>, EngineFailure> {
    overrides.resolve(host, port).await
}

/// [`resolve`] for blocking engines, bounded by `deadline` (see
/// [`HostOverrides::resolve_blocking`]).
///
/// # Errors
///
/// As [`HostOverrides::resolve_blocking`].
pub fn resolve_blocking(
    overrides: &HostOverrides,
    host: &str,
    port: u16,
    deadline: Option<Instant>,
) -> Result<Vec<SocketAddr>, EngineFailure> {
    overrides.resolve_blocking(host, port, deadline)
}

/// A name that does not exist, according to `by`.
fn name_not_found(host: &str, by: &str) -> EngineFailure {
    EngineFailure::new(
        EngineSignal::NameNotFound,
        std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!("host `{host}` does not exist according to {by}"),
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn overrides_then_literals_then_the_resolver_and_a_missing_name_is_not_found() {
        let overrides = HostOverrides::new()
            .map("svc.test", vec!["127.0.0.2".parse().unwrap()])
            .map("empty.test", vec![])
            .not_found("gone.test");
        assert_eq!(
            overrides.resolve("SVC.test", 80).await.unwrap(),
            ["127.0.0.2:80".parse().unwrap()]
        );
        // An IPv6 literal as a URI spells it, brackets included.
        assert_eq!(
            overrides.resolve("[::1]", 443).await.unwrap(),
            ["[::1]:443".parse().unwrap()]
        );
        for missing in ["gone.test", "empty.test"] {
            let failure = overrides.resolve(missing, 80).await.unwrap_err();
            assert_eq!(failure.signal(), EngineSignal::NameNotFound);
        }
    }

    #[test]
    fn blocking_resolution_answers_as_the_async_one() {
        let overrides = HostOverrides::new()
            .map(
                "svc.test",
                vec!["127.0.0.2".parse().unwrap(), "::1".parse().unwrap()],
            )
            .not_found("gone.test");
        assert_eq!(
            resolve_blocking(&overrides, "svc.test", 80, None).unwrap(),
            ["127.0.0.2:80".parse().unwrap(), "[::1]:80".parse().unwrap()]
        );
        assert_eq!(
            resolve_blocking(&overrides, "[::1]", 8443, None).unwrap(),
            ["[::1]:8443".parse().unwrap()]
        );
        let failure = resolve_blocking(&overrides, "gone.test", 80, None).unwrap_err();
        assert_eq!(failure.signal(), EngineSignal::NameNotFound);
    }
}
