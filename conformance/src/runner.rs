//! Runs the whole table on several engines, scenarios concurrently, then
//! compares every row across the engines ([`crate::parity`]).

use std::sync::Arc;

use crate::harness::{EngineUnderTest, run_scenario};
use crate::parity::compare_row;
use crate::report::Matrix;
use crate::scenario::Scenario;
use crate::table::scenarios;

/// Scenarios run at once per engine. Most scenarios spend their time
/// waiting on timers (attempt timeouts, `Retry-After`), so running them
/// concurrently keeps a whole engine's table well under two minutes on two
/// cores; the bound keeps the 8 MiB upload scenarios from piling up.
pub const CONCURRENT_SCENARIOS: usize = 8;

/// Runs every scenario accepted by `filter` on every driver, and fails the
/// cells of a row whose engines disagree although each met the expectation.
pub fn run_matrix(drivers: &[EngineUnderTest], filter: impl Fn(&Scenario) -> bool) -> Matrix {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let table: Vec<Scenario> = scenarios().into_iter().filter(|s| filter(s)).collect();
    let limit = Arc::new(tokio::sync::Semaphore::new(CONCURRENT_SCENARIOS));
    let results = runtime.block_on(async {
        let mut handles = Vec::new();
        for (row, scenario) in table.iter().enumerate() {
            for (col, driver) in drivers.iter().enumerate() {
                let driver = driver.clone();
                let limit = limit.clone();
                // Each cell builds its own copy of the row, so the time-
                // dependent parts (an HTTP-date) are fresh when it runs.
                let name = scenario.name;
                handles.push(tokio::spawn(async move {
                    let _permit = limit.acquire_owned().await.expect("never closed");
                    let scenario = scenarios()
                        .into_iter()
                        .find(|s| s.name == name)
                        .expect("the scenario exists");
                    (row, col, run_scenario(&driver, &scenario).await)
                }));
            }
        }
        let mut cells = Vec::new();
        for h in handles {
            cells.push(h.await.expect("a scenario task does not panic"));
        }
        cells
    });
    let mut rows: Vec<(Scenario, Vec<Option<crate::harness::Cell>>)> = table
        .into_iter()
        .map(|s| (s, vec![None; drivers.len()]))
        .collect();
    for (row, col, cell) in results {
        rows[row].1[col] = Some(cell);
    }
    let engines: Vec<&'static str> = drivers.iter().map(EngineUnderTest::name).collect();
    Matrix {
        rows: rows
            .into_iter()
            .map(|(s, cells)| {
                let mut cells: Vec<_> = cells
                    .into_iter()
                    .map(|c| c.expect("every cell ran"))
                    .collect();
                compare_row(&engines, &mut cells);
                (s, cells)
            })
            .collect(),
        engines,
    }
}

/// Rounds [`early_answers_repeated`] runs by default: 10 rounds of the
/// early-answer rows take a few seconds in release, well under a minute in
/// debug.
pub const EARLY_ANSWER_ROUNDS: usize = 10;

/// Whether `scenario` is an early-answer row: the server answers while the
/// request body is still being written, which races inside the engine.
pub fn is_early_answer(scenario: &Scenario) -> bool {
    scenario.name.starts_with("early_") || scenario.name.starts_with("h2_early_")
}

/// Runs the early-answer rows `rounds` times on `drivers`. One run proves
/// little where the engine races the server's answer against its own next
/// write; a cell that meets neither its expectation nor its engine's
/// declared race gap in any round is the error, with that round's matrix.
///
/// ```no_run
/// use evident_conformance::runner::{EARLY_ANSWER_ROUNDS, early_answers_repeated};
///
/// early_answers_repeated(&[evident_conformance::engines::hyper()], EARLY_ANSWER_ROUNDS).unwrap();
/// ```
///
/// # Errors
///
/// The first failing round, its number and its matrix as Markdown; or no
/// early-answer row applicable to some driver.
pub fn early_answers_repeated(drivers: &[EngineUnderTest], rounds: usize) -> Result<(), String> {
    let applicable: usize = scenarios()
        .iter()
        .filter(|s| is_early_answer(s))
        .map(|s| {
            drivers
                .iter()
                .filter(|d| d.not_applicable(s).is_none())
                .count()
        })
        .sum();
    if applicable < drivers.len() {
        return Err("an engine has no applicable early-answer row".to_owned());
    }
    for round in 0..rounds {
        let matrix = run_matrix(drivers, is_early_answer);
        let (_, ran, _) = matrix.counts();
        if ran != applicable || matrix.has_failures() {
            return Err(format!(
                "round {round}: {ran} of {applicable} cells ran\n{}",
                matrix.markdown()
            ));
        }
    }
    Ok(())
}
