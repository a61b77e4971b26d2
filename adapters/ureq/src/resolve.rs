//! Name resolution: the core's blocking resolution
//! ([`HostOverrides::resolve_blocking`]: overrides, IP literals, then the
//! system resolver, bounded by the deadline), handed to ureq.

use evident_core::engine::Origin;
use evident_core::{AttemptStage, EngineFailure, HostOverrides};
use http::Uri;
use ureq::config::Config;
use ureq::unversioned::resolver::{ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::NextTimeout;

use crate::attempt;
use crate::classify::Classified;

/// ureq's resolver: the core's, with every failure carrying its signal.
#[derive(Debug, Default)]
pub(crate) struct OverrideResolver {
    overrides: HostOverrides,
}

impl OverrideResolver {
    pub(crate) fn new(overrides: HostOverrides) -> Self {
        OverrideResolver { overrides }
    }
}

impl Resolver for OverrideResolver {
    fn resolve(
        &self,
        uri: &Uri,
        _config: &Config,
        timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let current = attempt::current();
        if let Some(current) = &current {
            current.progress.enter(AttemptStage::Resolve);
        }
        let origin = Origin::from_uri(uri).map_err(|e| ureq::Error::BadUri(e.to_string()))?;
        let deadline = crate::connect::deadline(timeout, current.as_deref());
        let found = self
            .overrides
            .resolve_blocking(origin.host(), origin.port(), deadline)
            .map_err(into_ureq)?;
        let mut addrs = self.empty();
        // ureq keeps a bounded number of addresses; so do we.
        for addr in found {
            if addrs.try_push(addr).is_err() {
                break;
            }
        }
        Ok(addrs)
    }
}

/// A failure of the core's kit, as the error a ureq hook returns.
pub(crate) fn into_ureq(failure: EngineFailure) -> ureq::Error {
    let (signal, source) = failure.into_parts();
    let source = source.unwrap_or_else(|| format!("{signal:?}").into());
    Classified::new(signal, source).into_ureq()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classify::classify;
    use evident_core::EngineSignal;
    use std::net::SocketAddr;

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
}
