//! Name resolution: [`HostOverrides`] first, then ureq's system resolver.

use std::io;
use std::net::{IpAddr, SocketAddr};

use evident_core::{AttemptStage, EngineSignal, HostOverride, HostOverrides};
use http::Uri;
use ureq::config::Config;
use ureq::unversioned::resolver::{DefaultResolver, ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::NextTimeout;

use crate::attempt;
use crate::classify::{Classified, ErrorSite, classify_at};

/// ureq's resolver: overrides, IP literals, then the system resolver, with
/// every failure classified at the resolve site.
#[derive(Debug, Default)]
pub(crate) struct OverrideResolver {
    overrides: HostOverrides,
    system: DefaultResolver,
}

impl OverrideResolver {
    pub(crate) fn new(overrides: HostOverrides) -> Self {
        OverrideResolver {
            overrides,
            system: DefaultResolver::default(),
        }
    }
}

impl Resolver for OverrideResolver {
    fn resolve(
        &self,
        uri: &Uri,
        config: &Config,
        timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        if let Some(current) = attempt::current() {
            current.progress.enter(AttemptStage::Resolve);
        }
        let (Some(host), Some(port)) = (uri.host(), port_of(uri)) else {
            return Err(ureq::Error::BadUri(format!("no host or port in {uri}")));
        };
        let host = host.trim_start_matches('[').trim_end_matches(']');
        let mut addrs = self.empty();
        match self.overrides.lookup(host) {
            Some(HostOverride::NotFound) => return Err(not_found(host, "a host override")),
            Some(HostOverride::Addrs(ips)) => {
                // ureq keeps a bounded number of addresses; so do we.
                for ip in ips {
                    if addrs.try_push(SocketAddr::new(*ip, port)).is_err() {
                        break;
                    }
                }
            }
            None => {
                if let Ok(ip) = host.parse::<IpAddr>() {
                    addrs.push(SocketAddr::new(ip, port));
                } else {
                    return self
                        .system
                        .resolve(uri, config, timeout)
                        .map_err(|e| system_failure(host, e));
                }
            }
        }
        if addrs.is_empty() {
            return Err(not_found(host, "a host override without addresses"));
        }
        Ok(addrs)
    }
}

fn port_of(uri: &Uri) -> Option<u16> {
    uri.port_u16().or(match uri.scheme_str() {
        Some("http") => Some(80),
        Some("https") => Some(443),
        _ => None,
    })
}

fn not_found(host: &str, by: &str) -> ureq::Error {
    Classified::new(
        EngineSignal::NameNotFound,
        io::Error::new(
            io::ErrorKind::NotFound,
            format!("host `{host}` does not exist according to {by}"),
        ),
    )
    .into_ureq()
}

/// Classifies a failure of the system resolver.
fn system_failure(host: &str, e: ureq::Error) -> ureq::Error {
    match e {
        ureq::Error::HostNotFound => not_found(host, "the resolver (no addresses)"),
        ureq::Error::Io(e) if is_not_found(&e) => {
            Classified::new(EngineSignal::NameNotFound, e).into_ureq()
        }
        ureq::Error::Io(e) => {
            let signal = classify_at(&e, ErrorSite::Resolve);
            Classified::new(signal, e).into_ureq()
        }
        // A timeout (classified as such) or a bad URI: as ureq said.
        other => other,
    }
}

fn is_not_found(e: &io::Error) -> bool {
    evident_core::errors::is_name_not_found(e)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classify::classify;

    fn resolve(resolver: &OverrideResolver, uri: &str) -> Result<Vec<SocketAddr>, ureq::Error> {
        let config = Config::default();
        resolver
            .resolve(&uri.parse().unwrap(), &config, NextTimeout::default())
            .map(|a| a.iter().copied().collect())
    }

    #[test]
    fn an_override_wins_over_an_ip_literal_and_the_resolver() {
        let resolver = OverrideResolver::new(
            HostOverrides::new()
                .map(
                    "svc.test",
                    vec!["127.0.0.2".parse().unwrap(), "127.0.0.1".parse().unwrap()],
                )
                .not_found("gone.test"),
        );
        let addrs = resolve(&resolver, "http://SVC.test:8080/x").unwrap();
        assert_eq!(
            addrs,
            [
                "127.0.0.2:8080".parse().unwrap(),
                "127.0.0.1:8080".parse().unwrap()
            ]
        );
        let addrs = resolve(&resolver, "https://svc.test/").unwrap();
        assert_eq!(addrs[0].port(), 443);
        let e = resolve(&resolver, "http://gone.test/").unwrap_err();
        assert_eq!(classify(&e), EngineSignal::NameNotFound);
    }

    #[test]
    fn an_override_without_addresses_means_not_found() {
        let resolver = OverrideResolver::new(HostOverrides::new().map("empty.test", vec![]));
        let e = resolve(&resolver, "http://empty.test/").unwrap_err();
        assert_eq!(classify(&e), EngineSignal::NameNotFound);
    }

    #[test]
    fn ip_literals_need_no_resolver() {
        let resolver = OverrideResolver::default();
        let addrs = resolve(&resolver, "http://[::1]:8443/").unwrap();
        assert_eq!(addrs, ["[::1]:8443".parse().unwrap()]);
    }

    #[test]
    fn only_no_such_name_counts_as_not_found() {
        let nx =
            io::Error::other("failed to lookup address information: Name or service not known");
        assert_eq!(
            classify(&system_failure("x", ureq::Error::Io(nx))),
            EngineSignal::NameNotFound
        );
        let again = io::Error::other(
            "failed to lookup address information: Temporary failure in name resolution",
        );
        assert_eq!(
            classify(&system_failure("x", ureq::Error::Io(again))),
            EngineSignal::Io(io::ErrorKind::Other)
        );
        assert_eq!(
            classify(&system_failure("x", ureq::Error::HostNotFound)),
            EngineSignal::NameNotFound
        );
    }
}
