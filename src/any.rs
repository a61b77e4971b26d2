//! An engine picked at run time: [`AnyEngine`] (async) and
//! [`AnyBlockingEngine`], so that a service can choose its engine from
//! configuration without writing an enum over the client types.

use std::fmt;
use std::sync::Arc;

use evident_core::engine::{
    AttemptBody, AttemptContext, BlockingAttemptBody, BlockingEngine, BlockingResponseBody, Engine,
    EngineFailure, ResponseBody,
};

/// Any async engine, behind one type: `Client<AnyEngine>` is the same type
/// whichever engine it drives. Cloning shares the engine.
///
/// ```
/// # #[cfg(feature = "hyper")] {
/// use evident::{AnyEngine, Client};
///
/// // From configuration: "hyper", "reqwest" or "isahc", as built in.
/// let engine = AnyEngine::by_name("hyper").unwrap();
/// assert_eq!(engine.name(), "hyper");
/// let client: Client<AnyEngine> = Client::new(engine);
/// # let _ = client;
///
/// let unknown = AnyEngine::by_name("curl").unwrap_err();
/// assert!(unknown.to_string().contains("hyper"));
/// # }
/// ```
#[derive(Clone)]
pub struct AnyEngine {
    inner: Arc<dyn Engine>,
}

impl AnyEngine {
    /// Wraps `engine`, built with any configuration.
    pub fn new(engine: impl Engine) -> Self {
        AnyEngine {
            inner: Arc::new(engine),
        }
    }

    /// The async engine called `name` (its [`Engine::name`]: `hyper`,
    /// `reqwest` or `isahc`, as far as this build's features include
    /// them), with its default configuration.
    ///
    /// # Errors
    ///
    /// [`EngineChoiceError::Unknown`] when no async engine of that name is
    /// built in (the error lists those that are);
    /// [`EngineChoiceError::Config`] when its default configuration cannot
    /// be built (a trust source that cannot be loaded).
    pub fn by_name(name: &str) -> Result<Self, EngineChoiceError> {
        match name {
            #[cfg(feature = "hyper")]
            "hyper" => Ok(AnyEngine::new(
                evident_hyper::HyperEngine::builder().build()?,
            )),
            #[cfg(feature = "reqwest")]
            "reqwest" => Ok(AnyEngine::new(
                evident_reqwest::ReqwestEngine::builder().build()?,
            )),
            #[cfg(feature = "isahc")]
            "isahc" => Ok(AnyEngine::new(
                evident_isahc::IsahcEngine::builder().build()?,
            )),
            _ => Err(EngineChoiceError::Unknown {
                name: name.to_owned(),
                built_in: ASYNC_ENGINES,
            }),
        }
    }

    /// The wrapped engine's name.
    pub fn name(&self) -> &'static str {
        self.inner.name()
    }
}

impl fmt::Debug for AnyEngine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("AnyEngine")
            .field(&self.inner.name())
            .finish()
    }
}

#[async_trait::async_trait]
impl Engine for AnyEngine {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    async fn send(
        &self,
        request: http::Request<AttemptBody>,
        attempt: &AttemptContext,
    ) -> Result<http::Response<ResponseBody>, EngineFailure> {
        self.inner.send(request, attempt).await
    }
}

/// Any blocking engine, behind one type: `blocking::Client<AnyBlockingEngine>`.
///
/// ```
/// # #[cfg(feature = "ureq")] {
/// use evident::AnyBlockingEngine;
///
/// let engine = AnyBlockingEngine::by_name("ureq").unwrap();
/// let client = evident::blocking::Client::new(engine);
/// # let _ = client;
/// # }
/// ```
#[derive(Clone)]
pub struct AnyBlockingEngine {
    inner: Arc<dyn BlockingEngine>,
}

impl AnyBlockingEngine {
    /// Wraps `engine`, built with any configuration.
    pub fn new(engine: impl BlockingEngine) -> Self {
        AnyBlockingEngine {
            inner: Arc::new(engine),
        }
    }

    /// The blocking engine called `name` (`ureq`, when this build's
    /// features include it), with its default configuration.
    ///
    /// # Errors
    ///
    /// As [`AnyEngine::by_name`].
    pub fn by_name(name: &str) -> Result<Self, EngineChoiceError> {
        match name {
            #[cfg(feature = "ureq")]
            "ureq" => Ok(AnyBlockingEngine::new(
                evident_ureq::UreqEngine::builder().build()?,
            )),
            _ => Err(EngineChoiceError::Unknown {
                name: name.to_owned(),
                built_in: BLOCKING_ENGINES,
            }),
        }
    }

    /// The wrapped engine's name.
    pub fn name(&self) -> &'static str {
        self.inner.name()
    }
}

impl fmt::Debug for AnyBlockingEngine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("AnyBlockingEngine")
            .field(&self.inner.name())
            .finish()
    }
}

impl BlockingEngine for AnyBlockingEngine {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    fn send(
        &self,
        request: http::Request<BlockingAttemptBody>,
        attempt: &AttemptContext,
    ) -> Result<http::Response<Box<dyn BlockingResponseBody>>, EngineFailure> {
        self.inner.send(request, attempt)
    }
}

/// The async engines this build includes, by name.
const ASYNC_ENGINES: &[&str] = &[
    #[cfg(feature = "hyper")]
    "hyper",
    #[cfg(feature = "reqwest")]
    "reqwest",
    #[cfg(feature = "isahc")]
    "isahc",
];

/// The blocking engines this build includes, by name.
const BLOCKING_ENGINES: &[&str] = &[
    #[cfg(feature = "ureq")]
    "ureq",
];

/// Why an engine could not be picked by name.
#[derive(Debug, thiserror::Error)]
pub enum EngineChoiceError {
    /// No engine of that name is built in.
    #[error(
        "no engine called {name:?} in this build; built in: {}",
        list(built_in)
    )]
    Unknown {
        /// The name asked for.
        name: String,
        /// The engines of that kind this build includes.
        built_in: &'static [&'static str],
    },
    /// The engine's default configuration could not be built.
    #[error(transparent)]
    Config(#[from] crate::ConfigError),
}

fn list(names: &[&str]) -> String {
    if names.is_empty() {
        "none (enable an engine feature)".to_owned()
    } else {
        names.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_name_lists_the_engines_built_in() {
        let err = AnyEngine::by_name("no-such-engine").unwrap_err();
        let EngineChoiceError::Unknown { name, built_in } = &err else {
            panic!("{err:?}");
        };
        assert_eq!(name, "no-such-engine");
        assert_eq!(*built_in, ASYNC_ENGINES);
        let err = AnyBlockingEngine::by_name("hyper").unwrap_err();
        assert!(matches!(err, EngineChoiceError::Unknown { .. }), "{err:?}");
    }
}
