//! The public driver API: what an engine author writes to put an engine
//! under test ([`EngineUnderTest`]), and what the engine is built with for
//! one scenario ([`EngineEnv`]).

use std::sync::Arc;

use evident_core::engine::{BlockingEngine, Engine, HostOverrides};

use super::gaps::{KnownGap, StandingGap};
use crate::scenario::{Capability, Scenario};

/// What an engine is built with for one scenario.
#[derive(Debug, Clone)]
pub struct EngineEnv {
    /// Name resolution overrides (the lab's addresses).
    pub overrides: HostOverrides,
    /// Trusted root certificates (DER): the lab's CA only.
    pub roots: Vec<Vec<u8>>,
    /// Speak HTTP/2 by prior knowledge on `http://` URLs.
    pub http2_prior_knowledge: bool,
}

pub(super) type BuildAsync = dyn Fn(&EngineEnv) -> Arc<dyn Engine> + Send + Sync;
pub(super) type BuildBlocking = dyn Fn(&EngineEnv) -> Arc<dyn BlockingEngine> + Send + Sync;

#[derive(Clone)]
pub(super) enum Build {
    Async(Arc<BuildAsync>),
    Blocking(Arc<BuildBlocking>),
}

/// An engine under test, as the harness sees it: its name, what it cannot
/// do and the differences it declares (each with its reason), and how to
/// build it for a scenario. Often called its *driver* in these docs.
#[derive(Clone)]
pub struct EngineUnderTest {
    pub(super) name: &'static str,
    pub(super) gaps: Vec<(Capability, &'static str)>,
    pub(super) known_gaps: Vec<KnownGap>,
    pub(super) standing_gaps: Vec<StandingGap>,
    pub(super) build: Build,
}

/// The former name of [`EngineUnderTest`], kept so that a third party's
/// engine crate written against it keeps compiling (with a deprecation
/// warning). Nothing in the workspace names it any more: the guide and
/// both teaching engines use [`EngineUnderTest`].
#[deprecated(note = "renamed EngineUnderTest")]
pub type Driver = EngineUnderTest;

impl std::fmt::Debug for EngineUnderTest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EngineUnderTest")
            .field("name", &self.name)
            .field("gaps", &self.gaps)
            .finish_non_exhaustive()
    }
}

impl EngineUnderTest {
    /// An async engine.
    pub fn asynchronous<E: Engine>(
        name: &'static str,
        build: impl Fn(&EngineEnv) -> Arc<E> + Send + Sync + 'static,
    ) -> EngineUnderTest {
        EngineUnderTest {
            name,
            gaps: Vec::new(),
            known_gaps: Vec::new(),
            standing_gaps: Vec::new(),
            build: Build::Async(Arc::new(move |env| build(env) as Arc<dyn Engine>)),
        }
    }

    /// A blocking engine.
    pub fn blocking<E: BlockingEngine>(
        name: &'static str,
        build: impl Fn(&EngineEnv) -> Arc<E> + Send + Sync + 'static,
    ) -> EngineUnderTest {
        EngineUnderTest {
            name,
            gaps: Vec::new(),
            known_gaps: Vec::new(),
            standing_gaps: Vec::new(),
            build: Build::Blocking(Arc::new(move |env| build(env) as Arc<dyn BlockingEngine>)),
        }
    }

    /// Declares something the engine cannot do, with the reason; scenarios
    /// needing it are skipped on this engine, with the reason.
    pub fn lacks(mut self, capability: Capability, reason: &'static str) -> EngineUnderTest {
        self.gaps.push((capability, reason));
        self
    }

    /// Declares a scenario the engine runs but cannot match exactly (see
    /// [`KnownGap`]). Several gaps for one scenario are alternatives: a
    /// run passes under any one of them (for a race whose losing side
    /// itself takes more than one shape).
    pub fn known_gap(mut self, gap: KnownGap) -> EngineUnderTest {
        self.known_gaps.push(gap);
        self
    }

    /// Declares a difference the engine shows wherever a rule says it
    /// applies (see [`StandingGap`]).
    pub fn standing_gap(mut self, gap: StandingGap) -> EngineUnderTest {
        self.standing_gaps.push(gap);
        self
    }

    /// The engine's name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Whether the engine declared that it lacks `capability` (see
    /// [`EngineUnderTest::lacks`]).
    pub fn lacks_capability(&self, capability: Capability) -> bool {
        self.gaps.iter().any(|(c, _)| *c == capability)
    }

    /// Builds the engine for `env`, in its own flavour: how a tool other
    /// than the scenario harness (the evidence audit, a wrapper driver)
    /// runs the same engine the matrix runs.
    pub fn build_engine(&self, env: &EngineEnv) -> BuiltEngine {
        match &self.build {
            Build::Async(build) => BuiltEngine::Async(build(env)),
            Build::Blocking(build) => BuiltEngine::Blocking(build(env)),
        }
    }

    /// Why `scenario` does not apply to this engine, if it does not: the
    /// first capability it needs that the engine lacks, with the reason.
    pub fn not_applicable(&self, scenario: &Scenario) -> Option<String> {
        scenario.requirements().into_iter().find_map(|needed| {
            self.gaps
                .iter()
                .find(|(c, _)| *c == needed)
                .map(|(c, reason)| format!("needs {c}: {reason}"))
        })
    }
}

/// An engine built by an [`EngineUnderTest`]
/// ([`EngineUnderTest::build_engine`]).
#[derive(Clone)]
pub enum BuiltEngine {
    /// An async engine.
    Async(Arc<dyn Engine>),
    /// A blocking engine.
    Blocking(Arc<dyn BlockingEngine>),
}

impl std::fmt::Debug for BuiltEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuiltEngine::Async(e) => write!(f, "BuiltEngine::Async({})", e.name()),
            BuiltEngine::Blocking(e) => write!(f, "BuiltEngine::Blocking({})", e.name()),
        }
    }
}
