//! [`UreqEngine`]: one attempt per [`BlockingEngine::send`], on the calling
//! thread, over ureq's agent with this crate's resolver, connector and
//! transport.

use std::io::{self, Read};
use std::sync::Arc;
use std::time::Instant;

use evident_core::engine::CountedReader;
use evident_core::{
    AttemptContext, AttemptStage, BlockingAttemptBody, BlockingEngine, BlockingResponseBody,
    EngineFailure, EngineSignal,
};
use http::header::EXPECT;
use ureq::{AsSendBody, SendBody};

use crate::attempt::{self, Attempt, BodyShape};
use crate::builder::UreqEngineBuilder;
use crate::classify::{ErrorSite, classify, classify_at, request_body_error};

/// The `max_idle_age` of a request that must not reuse a pooled connection:
/// every idle connection is at least this old, so none qualifies.
const FRESH_CONNECTION_MAX_IDLE_AGE: std::time::Duration = std::time::Duration::ZERO;

/// The ureq engine: blocking, HTTP/1.1.
///
/// ```no_run
/// use evident_core::{BlockingAttemptBody, BlockingEngine, Progress};
/// use evident_core::testing::attempt_context;
/// use evident_ureq::UreqEngine;
///
/// # fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let engine = UreqEngine::builder().build()?;
/// let attempt = attempt_context(Progress::new(), None);
/// let request = http::Request::get("http://127.0.0.1:8080/").body(BlockingAttemptBody::Empty)?;
/// let response = engine.send(request, &attempt)?;
/// assert!(attempt.progress().snapshot().head_received());
/// # let _ = response;
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct UreqEngine {
    agent: ureq::Agent,
}

impl UreqEngine {
    /// A builder with the defaults.
    pub fn builder() -> UreqEngineBuilder {
        UreqEngineBuilder::default()
    }

    pub(crate) fn from_agent(agent: ureq::Agent) -> Self {
        UreqEngine { agent }
    }

    /// The ureq agent underneath, configured by the builder.
    pub fn agent(&self) -> &ureq::Agent {
        &self.agent
    }

    fn run<S: AsSendBody>(
        &self,
        request: http::Request<S>,
        deadline: Option<Instant>,
        fresh_connection: bool,
    ) -> Result<ureq::http::Response<ureq::Body>, ureq::Error> {
        let budget = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        let mut config = self.agent.configure_request(request).timeout_global(budget);
        if fresh_connection {
            // ureq has no per-request "new connection" switch, but its pool
            // hands out no connection idle for at least the request's
            // `max_idle_age`. Zero excludes every pooled connection, so ureq
            // connects anew. (ureq 3.5.2's pool also drops the connections
            // it skips for this origin: a cost paid only after a 421.)
            config = config.max_idle_age(FRESH_CONNECTION_MAX_IDLE_AGE);
        }
        self.agent.run(config.build())
    }
}

impl BlockingEngine for UreqEngine {
    fn name(&self) -> &'static str {
        "ureq"
    }

    fn send(
        &self,
        request: http::Request<BlockingAttemptBody>,
        attempt: &AttemptContext,
    ) -> Result<http::Response<Box<dyn BlockingResponseBody>>, EngineFailure> {
        let progress = attempt.progress();
        // Every request byte goes through `CountingTransport`.
        progress.counts_writes_exactly();
        progress.enter(AttemptStage::Resolve);
        if attempt.deadline().is_some_and(|d| d <= Instant::now()) {
            return Err(EngineFailure::signal_only(EngineSignal::TimedOut));
        }

        let (parts, body) = request.into_parts();
        let expects_continue = parts
            .headers
            .get(EXPECT)
            .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"100-continue"));
        let has_body = match &body {
            BlockingAttemptBody::Empty => false,
            BlockingAttemptBody::Full(b) => !b.is_empty(),
            BlockingAttemptBody::Reader(_) => true,
        };
        let shape = match (has_body, expects_continue) {
            (false, _) => BodyShape::None,
            (true, false) => BodyShape::Immediate,
            (true, true) => BodyShape::AfterContinue,
        };
        let _current = attempt::enter(Arc::new(Attempt::new(
            progress.clone(),
            attempt.deadline(),
            shape,
        )));
        let fresh = attempt.requires_fresh_connection();

        let head = http::Request::from_parts(parts, ());
        let result = match body {
            BlockingAttemptBody::Empty => self.run(head, attempt.deadline(), fresh),
            BlockingAttemptBody::Full(bytes) => {
                self.run(head.map(|()| &bytes[..]), attempt.deadline(), fresh)
            }
            BlockingAttemptBody::Reader(reader) => {
                let body = SendBody::from_owned_reader(MarkErrors(reader));
                self.run(head.map(|()| body), attempt.deadline(), fresh)
            }
        };
        match result {
            Ok(response) => {
                progress.head_received();
                let (parts, body) = response.into_parts();
                // A small announced body gets a small buffer; an unknown or
                // large one reads in chunks. ureq's own size limit is off
                // (the core enforces its limit); the attempt deadline bounds
                // every read through ureq's global timeout and the
                // transport's budget.
                let length = parts
                    .headers
                    .get(http::header::CONTENT_LENGTH)
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.trim().parse::<u64>().ok());
                let body: Box<dyn BlockingResponseBody> = Box::new(
                    CountedReader::new(body.into_reader(), progress.clone(), |e| {
                        classify_at(e, ErrorSite::EXCHANGE)
                    })
                    .announced_length(length),
                );
                Ok(http::Response::from_parts(parts, body))
            }
            Err(e) => Err(EngineFailure::new(classify(&e), e)),
        }
    }
}

/// Marks the request body reader's errors, so the classifier can tell them
/// from the connection's.
struct MarkErrors(Box<dyn Read + Send>);

impl Read for MarkErrors {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            match self.0.read(buf) {
                // Not a failure, and ureq would take it for one.
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                result => return result.map_err(request_body_error),
            }
        }
    }
}
