//! [`ReqwestEngine`]: one attempt per `send`, through reqwest's async
//! `Client`.

use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use evident_core::engine::CountedBody;
use evident_core::{
    AttemptBody, AttemptContext, AttemptStage, Engine, EngineFailure, EngineSignal, ResponseBody,
};
use http::{Request, Response, Version};
use http_body_util::BodyExt;

use crate::body::TrackedBody;
use crate::builder::ReqwestEngineBuilder;
use crate::classify::{ErrorSite, classify, goaway_signal};
use crate::hooks;

/// The reqwest engine. Cheap to clone: clones share the clients and their
/// connection pools.
///
/// ```
/// use evident_core::Engine;
/// use evident_reqwest::ReqwestEngine;
///
/// let engine = ReqwestEngine::builder().build().unwrap();
/// assert_eq!(engine.name(), "reqwest");
/// ```
#[derive(Debug, Clone)]
pub struct ReqwestEngine {
    inner: Arc<Clients>,
}

#[derive(Debug)]
struct Clients {
    /// Reusing pooled connections.
    pooled: Mode,
    /// Without a pool: every attempt on a new connection.
    fresh: Mode,
}

/// The reqwest clients of one pooling mode.
#[derive(Debug)]
pub(crate) struct Mode {
    /// `https://` (HTTP/2 or HTTP/1.1 by ALPN) and `http://` (HTTP/1.1).
    pub(crate) by_alpn: reqwest::Client,
    /// Whether `by_alpn` may speak HTTP/2 (offers `h2` over TLS).
    pub(crate) alpn_http2: bool,
    /// `http://` by HTTP/2 prior knowledge, when asked for.
    pub(crate) prior_knowledge: Option<reqwest::Client>,
}

impl ReqwestEngine {
    /// A builder with the defaults: no trusted roots, no host overrides,
    /// HTTP/2 by ALPN only, [`crate::DEFAULT_MAX_IDLE_PER_ORIGIN`] idle
    /// connections per origin.
    pub fn builder() -> ReqwestEngineBuilder {
        ReqwestEngineBuilder::default()
    }

    pub(crate) fn from_clients(pooled: Mode, fresh: Mode) -> Self {
        ReqwestEngine {
            inner: Arc::new(Clients { pooled, fresh }),
        }
    }
}

#[async_trait::async_trait]
impl Engine for ReqwestEngine {
    fn name(&self) -> &'static str {
        "reqwest"
    }

    async fn send(
        &self,
        request: Request<AttemptBody>,
        attempt: &AttemptContext,
    ) -> Result<Response<ResponseBody>, EngineFailure> {
        let progress = attempt.progress().clone();
        // Finding a connection: nothing of this request can be written
        // until hyper asks the body about its end (see `body`). reqwest
        // resolves no IP literal, so for one the next step is connecting.
        let literal = request
            .uri()
            .host()
            .map(|h| h.trim_start_matches('[').trim_end_matches(']'))
            .is_some_and(|h| h.parse::<IpAddr>().is_ok());
        progress.enter(if literal {
            AttemptStage::Connect
        } else {
            AttemptStage::Resolve
        });

        // After a 421 the core asks for another connection (RFC 9110
        // §15.5.20): the client without a pool opens one.
        let mode = if attempt.requires_fresh_connection() {
            &self.inner.fresh
        } else {
            &self.inner.pooled
        };
        let prior_knowledge = request.uri().scheme() == Some(&http::uri::Scheme::HTTP)
            && mode.prior_knowledge.is_some();
        let client = match &mode.prior_knowledge {
            Some(h2c) if prior_knowledge => h2c,
            _ => &mode.by_alpn,
        };

        // On HTTP/2 hyper's client task sends a request's HEADERS right
        // after it asks the body whether it has ended, without pulling a
        // frame that a sealed attempt could fail: a request the core gave
        // up on while it sat in that task's queue (reached through a
        // connection no hook reports) may still leave. So the stage alone
        // never proves such an attempt unsent when the core times it out.
        let http2_possible = prior_knowledge
            || (request.uri().scheme() == Some(&http::uri::Scheme::HTTPS) && mode.alpn_http2);
        if http2_possible {
            progress.seal_may_not_hold();
        }

        let (mut parts, body) = request.into_parts();
        // The connection chooses the protocol; hyper-util refuses an
        // HTTP/2-versioned request on an HTTP/1.1 connection.
        parts.version = Version::HTTP_11;
        let pulled = Arc::new(AtomicBool::new(false));
        let body = reqwest::Body::wrap(
            TrackedBody::new(body, progress.clone()).reporting_pulls(pulled.clone()),
        );
        let request = reqwest::Request::try_from(Request::from_parts(parts, body))
            .map_err(|e| EngineFailure::new(EngineSignal::Other, e))?;

        match hooks::scope(progress.clone(), client.execute(request)).await {
            Ok(response) => {
                progress.head_received();
                let http2 = response.version() == Version::HTTP_2;
                let response: Response<reqwest::Body> = response.into();
                let (parts, body) = response.into_parts();
                let site = ErrorSite::Exchange {
                    http2,
                    goaway_received: false,
                };
                let body =
                    CountedBody::new(body, progress, move |e: &reqwest::Error| classify(e, site));
                Ok(Response::from_parts(parts, body.boxed_unsync()))
            }
            Err(error) => {
                let site = site(&error, &progress.snapshot(), prior_knowledge);
                let signal = goaway_signal(classify(&error, site), pulled.load(Ordering::Acquire));
                Err(EngineFailure::new(signal, error))
            }
        }
    }
}

/// Where a failed call was: connecting (hyper-util says so), or on a
/// connection whose protocol hyper-util recorded.
fn site(
    error: &reqwest::Error,
    progress: &evident_core::ProgressSnapshot,
    prior_knowledge: bool,
) -> ErrorSite {
    let legacy = evident_core::classify_helpers::find::<hyper_util::client::legacy::Error>(
        error,
        evident_core::classify_helpers::no_unwrap,
    );
    match legacy {
        Some(e) if e.is_connect() => {
            if progress.stage() == Some(AttemptStage::Tls) {
                ErrorSite::TlsHandshake
            } else {
                ErrorSite::Connect
            }
        }
        _ => ErrorSite::Exchange {
            http2: prior_knowledge
                || legacy
                    .and_then(|e| e.connect_info())
                    .is_some_and(|c| c.is_negotiated_h2()),
            // reqwest shows no frames.
            goaway_received: false,
        },
    }
}
