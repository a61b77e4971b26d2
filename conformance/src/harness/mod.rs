//! Runs scenarios against engines.
//!
//! An engine plugs in as an [`EngineUnderTest`]: its name, what it cannot
//! do (each gap with its reason), and a function building the engine for
//! an [`EngineEnv`] (the lab's host overrides and trusted root). Async and
//! blocking engines run the same scenarios through the same core client
//! state machine; only the driver of the loop differs.
//!
//! ```no_run
//! use std::sync::Arc;
//! use evident_conformance::harness::{EngineUnderTest, run_scenario};
//! use evident_core::testing::{ScriptedEngine, Step};
//!
//! let driver = EngineUnderTest::asynchronous("scripted", |_env| {
//!     Arc::new(ScriptedEngine::new([Step::respond(200, "ok")]))
//! });
//! let scenario = evident_conformance::table::scenarios().remove(0);
//! let cell = tokio::runtime::Runtime::new().unwrap().block_on(run_scenario(&driver, &scenario));
//! println!("{}: {:?}", scenario.name, cell.status);
//! ```

// One concern per file:
//
// * `driver`: what an engine author writes, the engine as the harness sees
//   it and what it is built with;
// * `gaps`: the differences a driver may declare, and how each rewrites an
//   expectation;
// * `target`: the lab side of a scenario (its servers, URL and resolver);
// * `request`: the requests a scenario's calls send (head, body, options);
// * `run`: running a scenario on an engine;
// * `compare`: the verdict (records against the expectation, declared gaps,
//   the server's counts), one cell of the matrix.

mod compare;
mod driver;
mod gaps;
mod request;
mod run;
mod target;

pub use compare::{Cell, CellStatus, describe_failure};
// The deprecated former name, still exported for code written against it.
#[allow(deprecated)]
pub use driver::Driver;
pub use driver::{BuiltEngine, EngineEnv, EngineUnderTest};
pub use gaps::{KnownGap, StandingGap};
pub(crate) use request::OneShotStream;
pub use request::PADDING_HEADER;
pub use run::{SCENARIO_LIMIT, assert_scenario, run_scenario};
pub use target::{LAB_HOST, MISSING_HOST};
