//! Name resolution: [`HostOverrides`] first, then the system resolver.

use std::net::SocketAddr;

use evident_core::{EngineFailure, HostOverrides};

/// The addresses to try for `host`, in order, each with `port`.
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
fn is_not_found(e: &std::io::Error) -> bool {
    evident_core::errors::is_name_not_found(e)
}

#[cfg(test)]
mod tests {
    use super::*;
    use evident_core::EngineSignal;
    use std::io;

    #[tokio::test]
    async fn an_override_wins_over_an_ip_literal_and_the_resolver() {
        let overrides = HostOverrides::new()
            .map(
                "svc.test",
                vec!["127.0.0.2".parse().unwrap(), "127.0.0.1".parse().unwrap()],
            )
            .not_found("gone.test");
        let addrs = resolve("svc.test", 8080, &overrides).await.unwrap();
        assert_eq!(
            addrs,
            [
                "127.0.0.2:8080".parse().unwrap(),
                "127.0.0.1:8080".parse().unwrap()
            ]
        );
        let failure = resolve("gone.test", 80, &overrides).await.unwrap_err();
        assert_eq!(failure.signal(), EngineSignal::NameNotFound);
    }

    #[tokio::test]
    async fn ip_literals_need_no_resolver() {
        let addrs = resolve("::1", 443, &HostOverrides::new()).await.unwrap();
        assert_eq!(addrs, ["[::1]:443".parse().unwrap()]);
    }

    #[test]
    fn only_no_such_name_counts_as_not_found() {
        let nx =
            io::Error::other("failed to lookup address information: Name or service not known");
        assert!(is_not_found(&nx));
        let again = io::Error::other(
            "failed to lookup address information: Temporary failure in name resolution",
        );
        assert!(!is_not_found(&again));
    }
}
