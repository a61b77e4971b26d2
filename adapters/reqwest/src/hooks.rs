//! The hooks reqwest offers, and how each one finds the attempt it belongs
//! to.
//!
//! reqwest's resolver and its TLS configuration are shared by every request
//! of a client, so they cannot hold a request's [`Progress`]. They do not
//! need to: hyper-util polls the connect future (resolver, TCP connect, TLS
//! handshake) inside the request's own future, so a task-local set around
//! that future reaches exactly the attempt that asked for the connection.
//! A connection that hyper-util finishes in the background (the request got
//! a pooled connection first) runs outside that scope and reports nothing:
//! less evidence, never wrong evidence.

use std::fmt;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;

use evident_core::{AttemptStage, EngineSignal, HostOverrides, Progress};
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use rustls::NamedGroup;
use rustls::client::{
    ClientSessionMemoryCache, ClientSessionStore, Tls12ClientSessionValue, Tls13ClientSessionValue,
};
use rustls_pki_types::ServerName;

/// How many TLS sessions the resumption cache keeps: rustls' own default
/// (`Resumption::default()`), which the other adapters use too.
pub(crate) const TLS_SESSION_CACHE_SIZE: usize = 256;

tokio::task_local! {
    /// The progress of the attempt whose future is being polled.
    static ATTEMPT: Progress;
}

/// Runs `future` (one attempt's reqwest call) with `progress` reachable
/// from the connection hooks.
pub(crate) async fn scope<F: Future>(progress: Progress, future: F) -> F::Output {
    ATTEMPT.scope(progress, future).await
}

/// Records `stage` on the attempt being polled, if any.
fn enter(stage: AttemptStage) {
    let _ = ATTEMPT.try_with(|p| p.enter(stage));
}

/// A name-resolution failure, with the signal it means. The classifier
/// finds it behind hyper-util's "dns error".
#[derive(Debug)]
pub(crate) struct ResolveError {
    pub(crate) signal: EngineSignal,
    pub(crate) source: io::Error,
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "name resolution failed: {}", self.source)
    }
}

impl std::error::Error for ResolveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// reqwest's resolver: [`HostOverrides`] first, then the system resolver.
/// Enters [`AttemptStage::Connect`] once the addresses are known.
///
/// reqwest does not call it for IP literals (the engine enters `Connect`
/// itself for those) nor when a pooled connection is used.
#[derive(Debug, Clone)]
pub(crate) struct Resolver {
    overrides: Arc<HostOverrides>,
}

impl Resolver {
    pub(crate) fn new(overrides: HostOverrides) -> Self {
        Resolver {
            overrides: Arc::new(overrides),
        }
    }
}

impl Resolve for Resolver {
    fn resolve(&self, name: Name) -> Resolving {
        let overrides = self.overrides.clone();
        let host = name.as_str().to_owned();
        Box::pin(async move {
            let addrs = resolve(&host, &overrides).await?;
            enter(AttemptStage::Connect);
            Ok(Box::new(addrs.into_iter()) as Addrs)
        })
    }
}

/// The addresses for `host`, with port 0 (reqwest puts the URL's port in).
pub(crate) async fn resolve(
    host: &str,
    overrides: &HostOverrides,
) -> Result<Vec<SocketAddr>, ResolveError> {
    // The one resolution every adapter shares (overrides, IP literals, the
    // system resolver), so a missing name reads the same on each engine.
    overrides.resolve(host, 0).await.map_err(|failure| {
        let (signal, source) = failure.into_parts();
        let source = match source.map(|e| e.downcast::<io::Error>()) {
            Some(Ok(io)) => *io,
            Some(Err(other)) => io::Error::other(other),
            None => io::Error::other("name resolution failed"),
        };
        ResolveError { signal, source }
    })
}

/// rustls' session cache, watched: rustls asks it for a ticket to resume
/// while it builds the ClientHello, which is the first thing a TLS handshake
/// does once TCP is connected. That question enters
/// [`AttemptStage::Tls`].
#[derive(Debug)]
pub(crate) struct HandshakeWatch {
    inner: ClientSessionMemoryCache,
}

impl HandshakeWatch {
    pub(crate) fn new() -> Self {
        HandshakeWatch {
            inner: ClientSessionMemoryCache::new(TLS_SESSION_CACHE_SIZE),
        }
    }
}

impl ClientSessionStore for HandshakeWatch {
    fn set_kx_hint(&self, server_name: ServerName<'static>, group: NamedGroup) {
        self.inner.set_kx_hint(server_name, group);
    }

    fn kx_hint(&self, server_name: &ServerName<'_>) -> Option<NamedGroup> {
        enter(AttemptStage::Tls);
        self.inner.kx_hint(server_name)
    }

    fn set_tls12_session(&self, server_name: ServerName<'static>, value: Tls12ClientSessionValue) {
        self.inner.set_tls12_session(server_name, value);
    }

    fn tls12_session(&self, server_name: &ServerName<'_>) -> Option<Tls12ClientSessionValue> {
        enter(AttemptStage::Tls);
        self.inner.tls12_session(server_name)
    }

    fn remove_tls12_session(&self, server_name: &ServerName<'static>) {
        self.inner.remove_tls12_session(server_name);
    }

    fn insert_tls13_ticket(
        &self,
        server_name: ServerName<'static>,
        value: Tls13ClientSessionValue,
    ) {
        self.inner.insert_tls13_ticket(server_name, value);
    }

    fn take_tls13_ticket(
        &self,
        server_name: &ServerName<'static>,
    ) -> Option<Tls13ClientSessionValue> {
        // The first question rustls asks, before the ClientHello exists.
        enter(AttemptStage::Tls);
        self.inner.take_tls13_ticket(server_name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn overrides_win_and_a_missing_name_is_permanent() {
        let overrides = HostOverrides::new()
            .map(
                "svc.test",
                vec!["127.0.0.2".parse().unwrap(), "::1".parse().unwrap()],
            )
            .not_found("gone.test");
        let addrs = resolve("svc.test", &overrides).await.unwrap();
        assert_eq!(
            addrs,
            ["127.0.0.2:0".parse().unwrap(), "[::1]:0".parse().unwrap()]
        );
        let err = resolve("gone.test", &overrides).await.unwrap_err();
        assert_eq!(err.signal, EngineSignal::NameNotFound);
    }

    #[tokio::test]
    async fn the_resolver_enters_connect_only_inside_an_attempt_scope() {
        let overrides = HostOverrides::new().map("svc.test", vec!["127.0.0.1".parse().unwrap()]);
        let resolver = Resolver::new(overrides);
        // Outside any attempt: nothing to report to, and nothing breaks.
        let name: Name = "svc.test".parse().unwrap();
        assert_eq!(resolver.resolve(name).await.unwrap().count(), 1);

        let progress = Progress::new();
        progress.enter(AttemptStage::Resolve);
        let name: Name = "svc.test".parse().unwrap();
        let addrs = scope(progress.clone(), resolver.resolve(name))
            .await
            .unwrap();
        assert_eq!(addrs.count(), 1);
        assert_eq!(progress.snapshot().stage(), Some(AttemptStage::Connect));
    }

    #[tokio::test]
    async fn a_failed_resolution_leaves_the_attempt_at_resolve() {
        let resolver = Resolver::new(HostOverrides::new().not_found("gone.test"));
        let progress = Progress::new();
        progress.enter(AttemptStage::Resolve);
        let name: Name = "gone.test".parse().unwrap();
        let result = scope(progress.clone(), resolver.resolve(name)).await;
        assert!(result.is_err());
        assert_eq!(progress.snapshot().stage(), Some(AttemptStage::Resolve));
    }

    #[test]
    fn the_session_store_reports_the_handshake_start_to_the_attempt_polled() {
        let watch = HandshakeWatch::new();
        let name = ServerName::try_from("localhost").unwrap();
        // A handshake outside any attempt (a background connect) has
        // nobody to report to, and must not fail.
        assert!(watch.take_tls13_ticket(&name).is_none());

        let progress = Progress::new();
        progress.enter(AttemptStage::Connect);
        ATTEMPT.sync_scope(progress.clone(), || {
            assert!(watch.take_tls13_ticket(&name).is_none());
        });
        assert_eq!(progress.snapshot().stage(), Some(AttemptStage::Tls));
    }
}
