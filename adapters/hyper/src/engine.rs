//! [`HyperEngine`]: one attempt per `send`, on a connection this crate
//! controls.

use std::sync::Arc;

use evident_core::{
    AttemptBody, AttemptContext, AttemptStage, Engine, EngineFailure, ResponseBody,
};
use http::{Request, Response};

use crate::builder::{Config, HyperEngineBuilder};
use crate::connect::connect;
use crate::h2::unopened_signal;
use crate::pool::{Conn, Pool};
use crate::{h1, h2};

/// The hyper 1 engine. Cheap to clone: clones share the configuration and
/// the connection pool.
///
/// ```
/// use evident_core::Engine;
/// use evident_hyper::HyperEngine;
///
/// let engine = HyperEngine::builder().build().unwrap();
/// assert_eq!(engine.name(), "hyper");
/// ```
#[derive(Debug, Clone)]
pub struct HyperEngine {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    config: Config,
    pool: Arc<Pool>,
}

impl HyperEngine {
    /// A builder with the defaults: the default trust roots (see
    /// `evident_core::tls`), no host overrides, HTTP/2 by ALPN only,
    /// [`crate::DEFAULT_MAX_IDLE_PER_ORIGIN`] idle connections per origin
    /// kept for [`crate::DEFAULT_IDLE_TIMEOUT`].
    pub fn builder() -> HyperEngineBuilder {
        HyperEngineBuilder::default()
    }

    /// How many connections the pool holds for reuse: idle HTTP/1.1
    /// connections plus shared HTTP/2 connections, over all origins. For
    /// monitoring; a connection the peer closed leaves within a second.
    pub fn pooled_connections(&self) -> usize {
        self.inner.pool.idle_h1() + self.inner.pool.shared_h2()
    }

    /// The connection pool, for tests that place a connection in it.
    #[cfg(test)]
    pub(crate) fn pool(&self) -> &Arc<Pool> {
        &self.inner.pool
    }

    pub(crate) fn from_config(config: Config) -> Self {
        let pool = Arc::new(Pool::new(config.max_idle_per_origin, config.idle_timeout));
        HyperEngine {
            inner: Arc::new(Inner { config, pool }),
        }
    }
}

#[async_trait::async_trait]
impl Engine for HyperEngine {
    fn name(&self) -> &'static str {
        "hyper"
    }

    async fn send(
        &self,
        request: Request<AttemptBody>,
        attempt: &AttemptContext,
    ) -> Result<Response<ResponseBody>, EngineFailure> {
        let progress = attempt.progress();
        let inner = &self.inner;
        // Finding a connection: nothing of this request can be written yet.
        progress.enter(AttemptStage::Resolve);
        let origin = attempt.origin_of(request.uri())?;
        // After a 421 the core asks for a new connection: the pool is not
        // consulted (a new HTTP/2 connection then replaces the shared one).
        let pooled = if attempt.requires_fresh_connection() {
            None
        } else {
            inner.pool.checkout(&origin).await
        };
        let conn = match pooled {
            Some(conn) => {
                progress.connection_reused(true);
                conn
            }
            None => {
                let conn = connect(&origin, &inner.config, attempt).await?;
                progress.connection_reused(false);
                match conn {
                    Conn::H2(shared) => {
                        inner.pool.put_h2(origin.clone(), shared.clone());
                        let ready = shared
                            .ready()
                            .await
                            .map_err(|e| EngineFailure::new(unopened_signal(&e), e))?;
                        Conn::H2(ready)
                    }
                    h1 => h1,
                }
            }
        };
        match conn {
            Conn::H1(conn) => h1::send(conn, request, progress, origin, inner.pool.clone()).await,
            Conn::H2(conn) => {
                let shared = conn.clone();
                let response = h2::send(conn, request, progress).await?;
                if response.status() == http::StatusCode::MISDIRECTED_REQUEST {
                    // Not configured for this origin on this connection
                    // (RFC 9110 §15.5.20): no later request may share it.
                    inner.pool.remove_h2(&origin, &shared);
                }
                Ok(response)
            }
        }
    }
}
