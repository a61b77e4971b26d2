//! Name resolution: [`HostOverrides`] first, then the system resolver.

use std::io;
use std::net::{IpAddr, SocketAddr};

use evident_core::{EngineFailure, EngineSignal, HostOverride, HostOverrides};

/// The addresses to try for `host`, in order, each with `port`.
pub(crate) async fn resolve(
    host: &str,
    port: u16,
    overrides: &HostOverrides,
) -> Result<Vec<SocketAddr>, EngineFailure> {
    match overrides.lookup(host) {
        Some(HostOverride::NotFound) => return Err(not_found(host, "a host override")),
        Some(HostOverride::Addrs(addrs)) if addrs.is_empty() => {
            return Err(not_found(host, "a host override without addresses"));
        }
        Some(HostOverride::Addrs(addrs)) => {
            return Ok(addrs.iter().map(|ip| SocketAddr::new(*ip, port)).collect());
        }
        None => {}
    }
    if let Ok(ip) = host.parse::<IpAddr>() {
        return Ok(vec![SocketAddr::new(ip, port)]);
    }
    match tokio::net::lookup_host((host, port)).await {
        Ok(addrs) => {
            let addrs: Vec<SocketAddr> = addrs.collect();
            if addrs.is_empty() {
                Err(not_found(host, "the resolver (no addresses)"))
            } else {
                Ok(addrs)
            }
        }
        Err(e) if is_not_found(&e) => Err(EngineFailure::new(EngineSignal::NameNotFound, e)),
        Err(e) => Err(EngineFailure::new(EngineSignal::Io(e.kind()), e)),
    }
}

fn is_not_found(e: &io::Error) -> bool {
    evident_core::errors::is_name_not_found(e)
}

fn not_found(host: &str, by: &str) -> EngineFailure {
    EngineFailure::new(
        EngineSignal::NameNotFound,
        io::Error::new(
            io::ErrorKind::NotFound,
            format!("host `{host}` does not exist according to {by}"),
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

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
