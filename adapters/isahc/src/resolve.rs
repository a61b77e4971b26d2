//! Name resolution, done by the adapter rather than by curl: host
//! overrides first, then IP literals, then the system resolver. curl is
//! then handed one address at a time (`CONNECT_TO`), so the loop over a
//! host's addresses, and which failure surfaces, are the core's rule
//! ([`evident_core::ConnectFailures`]), as on every other engine.

use std::net::SocketAddr;

use evident_core::{EngineFailure, HostOverrides};

/// The addresses to try for `host` (as a URI spells it: an IPv6 literal in
/// brackets), in order, each with `port`.
pub(crate) async fn resolve(
    host: &str,
    port: u16,
    overrides: &HostOverrides,
) -> Result<Vec<SocketAddr>, EngineFailure> {
    // The one resolution every adapter shares (overrides, IP literals, the
    // system resolver), so a missing name reads the same on each engine.
    overrides.resolve(host, port).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use evident_core::EngineSignal;

    #[tokio::test]
    async fn an_override_wins_over_the_resolver_and_keeps_its_order() {
        let overrides = HostOverrides::new()
            .map(
                "svc.test",
                vec!["127.0.0.2".parse().unwrap(), "::1".parse().unwrap()],
            )
            .not_found("gone.test");
        let addrs = resolve("svc.test", 8080, &overrides).await.unwrap();
        assert_eq!(
            addrs,
            [
                "127.0.0.2:8080".parse().unwrap(),
                "[::1]:8080".parse().unwrap()
            ]
        );
        let failure = resolve("gone.test", 80, &overrides).await.unwrap_err();
        assert_eq!(failure.signal(), EngineSignal::NameNotFound);
    }

    #[tokio::test]
    async fn an_override_without_addresses_is_a_name_that_does_not_exist() {
        let overrides = HostOverrides::new().map("empty.test", vec![]);
        let failure = resolve("empty.test", 80, &overrides).await.unwrap_err();
        assert_eq!(failure.signal(), EngineSignal::NameNotFound);
    }

    #[tokio::test]
    async fn ip_literals_need_no_resolver_even_in_uri_brackets() {
        let none = HostOverrides::new();
        assert_eq!(
            resolve("[::1]", 443, &none).await.unwrap(),
            ["[::1]:443".parse().unwrap()]
        );
        assert_eq!(
            resolve("127.0.0.1", 80, &none).await.unwrap(),
            ["127.0.0.1:80".parse().unwrap()]
        );
    }
}
