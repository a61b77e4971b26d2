//! Outage amplification: what each client does to a server that is down.
//!
//! The server reads each request whole and resets the connection, answers
//! only 503, or refuses connections. Every call is a 16 KiB POST, either
//! with nothing declared or with an idempotency key, and carries its number
//! so the server can count **receipts per call**. The properties evident
//! must keep are correctness, not speed, and the smoke test checks them:
//!
//! * a POST with nothing declared is never received twice (a reset after
//!   the request was read is ambiguous; a 503 proves nothing);
//! * for keyed (safely idempotent) calls, retries add at most the retry
//!   budget's ratio of the calls (plus its floor) — receipts for the reset
//!   and 503 servers, attempts for the refusing one (a refused connection
//!   proves "not sent", so evident retries it whatever was declared, still
//!   within the budget).

use std::time::Duration;

use bytes::Bytes;
use evident_core::client::ClientBuilder;

use crate::clients::{
    self, CallSpec, Declaration, Protocol, REQWEST_RETRY_MIN_BACKOFF, ReqwestRetry, Role, Row,
    Setup, bare_hyper, bare_isahc, bare_reqwest, bare_ureq, row,
};
use crate::run::{POST_BODY_BYTES, Sample, batch, client_runtime};
use crate::server::{Behaviour, Server};

/// How large an outage run is.
#[derive(Debug, Clone, Copy)]
pub struct OutagePlan {
    /// Calls per client, per server behaviour and declaration.
    pub calls: usize,
    /// Calls in flight.
    pub in_flight: usize,
}

/// Calls per client in the full run's outage section.
pub const DEFAULT_OUTAGE_CALLS: usize = 400;
/// Calls in flight in the outage section.
pub const DEFAULT_OUTAGE_IN_FLIGHT: usize = 16;

impl Default for OutagePlan {
    fn default() -> Self {
        OutagePlan {
            calls: DEFAULT_OUTAGE_CALLS,
            in_flight: DEFAULT_OUTAGE_IN_FLIGHT,
        }
    }
}

/// One client against one outage.
#[derive(Debug, Clone)]
pub struct OutageResult {
    /// What the server did.
    pub behaviour: Behaviour,
    /// What the calls declared.
    pub declaration: Declaration,
    /// The client.
    pub name: String,
    /// What the client is.
    pub role: Role,
    /// The run (attempts are known for evident's clients).
    pub sample: Sample,
    /// Requests the server read whole.
    pub receipts: u64,
    /// The most receipts of any one call.
    pub max_receipts_per_call: u64,
}

impl OutageResult {
    /// Receipts per call.
    pub fn receipts_per_call(&self) -> f64 {
        self.receipts as f64 / self.sample.calls.max(1) as f64
    }

    /// Mean time per call.
    pub fn time_per_call(&self) -> Duration {
        self.sample.call_time / self.sample.calls.max(1) as u32
    }
}

/// The clients of the outage section, fresh for each run so that no
/// breaker, budget or pool state carries over. `evident` configures
/// evident's clients (a fresh builder each time: clones of one builder
/// share its retry budget).
fn rows(evident: &dyn Fn() -> ClientBuilder) -> Result<Vec<Row>, Box<dyn std::error::Error>> {
    let setup = Setup {
        protocol: Protocol::Http1,
        pool: DEFAULT_OUTAGE_IN_FLIGHT,
        bulkhead: None,
    };
    let [_, hyper_client] = clients::evident_async_rows(
        "hyper",
        evident_hyper::HyperEngine::builder().build()?,
        evident(),
    );
    let [_, ureq_client] = clients::evident_blocking_rows(
        "ureq",
        evident_ureq::UreqEngine::builder().build()?,
        evident(),
    );
    let [_, reqwest_client] = clients::evident_async_rows(
        "reqwest",
        evident_reqwest::ReqwestEngine::builder().build()?,
        evident(),
    );
    let [_, isahc_client] = clients::evident_async_rows(
        "isahc",
        evident_isahc::IsahcEngine::builder().build()?,
        evident(),
    );
    Ok(vec![
        row("hyper-util", Role::Bare, bare_hyper(setup)),
        hyper_client,
        row("ureq", Role::Bare, bare_ureq(setup)),
        ureq_client,
        row("reqwest", Role::Bare, bare_reqwest(setup)?),
        reqwest_client,
        row(
            "reqwest-retry",
            Role::Peer,
            clients::Driver::Async(std::sync::Arc::new(ReqwestRetry::new(
                setup,
                REQWEST_RETRY_MIN_BACKOFF,
            )?)),
        ),
        row("isahc", Role::Bare, bare_isahc(setup, true)?),
        isahc_client,
    ])
}

/// Runs every client against every outage, with evident's clients built
/// from a fresh `evident()` each time.
pub fn run(
    plan: OutagePlan,
    evident: &dyn Fn() -> ClientBuilder,
    mut note: impl FnMut(&str),
) -> Result<Vec<OutageResult>, Box<dyn std::error::Error>> {
    let runtime = client_runtime()?;
    let mut results = Vec::new();
    for behaviour in [
        Behaviour::ResetAfterRead,
        Behaviour::Only503,
        Behaviour::Refuse,
    ] {
        let server = Server::start(behaviour)?;
        for declaration in [Declaration::Nothing, Declaration::Key] {
            note(&format!("outage {behaviour:?}, {declaration:?}"));
            let spec = CallSpec {
                url: format!("{}/upload", server.base_url()).parse()?,
                post: true,
                body: Bytes::from(vec![b'x'; POST_BODY_BYTES]),
                declaration,
                call_id: None,
            };
            let rows = {
                let _entered = runtime.enter();
                rows(evident)?
            };
            for row in rows {
                server.receipts().reset();
                let sample = batch(
                    &runtime,
                    &row.driver,
                    &spec,
                    plan.calls,
                    plan.in_flight,
                    true,
                );
                results.push(OutageResult {
                    behaviour,
                    declaration,
                    name: row.name,
                    role: row.role,
                    sample,
                    receipts: server.receipts().total(),
                    max_receipts_per_call: server.receipts().max_per_call(),
                });
            }
        }
    }
    Ok(results)
}
