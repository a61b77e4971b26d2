//! The blocking client: the same state machine, driven on the caller's
//! thread over a [`BlockingEngine`].

use std::io::Read;
use std::sync::Arc;

use bytes::{Bytes, BytesMut};
use evident_resilience::{Pipeline, SystemClock};

use super::config::{CallOptions, ClientBuilder, Handles};
use super::machine::{Call, Ended, attempt_head, build_request};
use super::{CallReport, Error};
use crate::classify::EngineSignal;
use crate::config::ConfigError;
use crate::decide::BodyReplay;
use crate::engine::{AttemptContext, BlockingAttemptBody, BlockingEngine, EngineFailure};
use crate::observe::{attempt_span, call_span};
use crate::progress::Progress;

/// The request body of the blocking client.
pub enum Body {
    /// No body.
    Empty,
    /// An in-memory body: replayable.
    Full(Bytes),
    /// A reader: sent once, never replayed.
    Reader(Box<dyn Read + Send>),
}

impl Body {
    /// A one-shot body read from `reader`.
    pub fn reader(reader: impl Read + Send + 'static) -> Body {
        Body::Reader(Box::new(reader))
    }

    fn replay(&self) -> BodyReplay {
        match self {
            Body::Empty | Body::Full(_) => BodyReplay::Replayable,
            Body::Reader(_) => BodyReplay::OneShot,
        }
    }
}

impl std::fmt::Debug for Body {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Body::Empty => f.write_str("Body::Empty"),
            Body::Full(b) => write!(f, "Body::Full({} bytes)", b.len()),
            Body::Reader(_) => f.write_str("Body::Reader"),
        }
    }
}

super::body_from_memory!(Body);

enum BodySource {
    Empty,
    Full(Bytes),
    Reader(Option<Box<dyn Read + Send>>),
}

impl BodySource {
    fn for_attempt(&mut self) -> BlockingAttemptBody {
        match self {
            BodySource::Empty => BlockingAttemptBody::Empty,
            BodySource::Full(b) => BlockingAttemptBody::Full(b.clone()),
            BodySource::Reader(r) => r
                .take()
                .map_or(BlockingAttemptBody::Empty, BlockingAttemptBody::Reader),
        }
    }
}

/// The blocking client. Cheap to clone.
pub struct Client<E> {
    h: Handles<E>,
}

impl<E> Clone for Client<E> {
    fn clone(&self) -> Self {
        Client { h: self.h.clone() }
    }
}

impl<E> std::fmt::Debug for Client<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("blocking::Client")
            .field("draining", &self.h.is_draining())
            .finish_non_exhaustive()
    }
}

impl ClientBuilder {
    /// Builds a blocking client over `engine`. Waits between attempts use
    /// the clock's `sleep` (a [`evident_resilience::ManualClock`] advances
    /// instead of sleeping, so tests are exact).
    pub fn build_blocking<E: BlockingEngine>(self, engine: E) -> Result<Client<E>, ConfigError> {
        Ok(Client {
            h: Handles::new(self, engine, Arc::new(SystemClock))?,
        })
    }
}

impl<E: BlockingEngine> Client<E> {
    /// A client with the default configuration.
    pub fn new(engine: E) -> Self {
        ClientBuilder::new()
            .build_blocking(engine)
            .expect("the default configuration is valid")
    }

    /// Sends `request`, retrying as the evidence allows, and returns the
    /// response with its body read whole (up to the configured limit).
    pub fn execute(
        &self,
        request: http::Request<Body>,
        options: CallOptions,
    ) -> Result<http::Response<Bytes>, Error> {
        if self.is_draining() {
            return Err(Error::draining());
        }
        let shared = &*self.h.shared;
        let (parts, body) = request.into_parts();
        let mut call = Call::start(
            shared,
            self.h.engine.name(),
            &parts,
            &options,
            body.replay(),
            self.h.clock.now(),
        )?;
        let mut body = match body {
            Body::Empty => BodySource::Empty,
            Body::Full(b) => BodySource::Full(b),
            Body::Reader(r) => BodySource::Reader(Some(r)),
        };
        let _call_span = call_span(&call.info).entered();
        let mut progress = Progress::new();
        // Set after a 421 Misdirected Request: the retry must not reuse the
        // connection that answered it (RFC 9110 §15.5.20).
        let mut fresh_connection = false;
        loop {
            let plan = call.plan(shared, self.h.clock.now());
            let permit = match self.h.pipeline.acquire_blocking(&call.origin) {
                Ok(permit) => permit,
                Err(rejection) => {
                    call.rejected(shared, &rejection);
                    return Err(Error::rejected(rejection, call.finish(shared)));
                }
            };
            progress.renew();
            let context = AttemptContext::new(
                progress.clone(),
                Some(plan.deadline),
                plan.resend_count,
                fresh_connection,
            );
            let request =
                build_request(attempt_head(&parts, call.key.as_ref()), body.for_attempt());
            // The attempt span covers the attempt and its record.
            let _attempt_span = attempt_span(plan.resend_count).entered();
            let result = run_attempt(
                &*self.h.engine,
                request,
                &context,
                shared.max_response_bytes,
            );
            drop(context);
            // Given up on (failed, timed out): sealed, so its connection
            // writes nothing more and a write already started shows.
            let snapshot = match &result {
                Ok(_) => progress.snapshot(),
                Err(_) => progress.seal(),
            };
            let ended = Ended {
                progress: &snapshot,
                draining: self.is_draining(),
                now: self.h.clock.now(),
            };
            let delay = match result {
                Ok(mut response) => {
                    let (status, headers) = (response.status(), response.headers());
                    match call.answered(shared, status, headers, ended, Some(permit)) {
                        Some(delay) => {
                            fresh_connection = status == http::StatusCode::MISDIRECTED_REQUEST;
                            delay
                        }
                        None => {
                            response.extensions_mut().insert(CallReport {
                                attempts: call.finish(shared),
                            });
                            return Ok(response);
                        }
                    }
                }
                Err(engine_failure) => {
                    fresh_connection = false;
                    call.failed(shared, engine_failure, ended, Some(permit))?
                }
            };
            drop(_attempt_span);
            self.h.clock.sleep(delay);
        }
    }

    /// Stops new retries; new calls fail fast.
    pub fn drain(&self) {
        self.h.drain();
    }

    /// Whether [`Self::drain`] was called.
    pub fn is_draining(&self) -> bool {
        self.h.is_draining()
    }

    /// The per-origin resilience pipeline.
    pub fn pipeline(&self) -> &Pipeline {
        &self.h.pipeline
    }

    /// The engine.
    pub fn engine(&self) -> &E {
        &self.h.engine
    }
}

/// One attempt on the calling thread. The engine bounds its I/O by the
/// attempt's deadline; a timeout it reports is classified by the core from
/// the progress, whatever stage the engine's error named.
fn run_attempt<E: BlockingEngine + ?Sized>(
    engine: &E,
    request: http::Request<BlockingAttemptBody>,
    context: &AttemptContext,
    max_bytes: usize,
) -> Result<http::Response<Bytes>, EngineFailure> {
    let response = engine.send(request, context)?;
    context.progress().head_received();
    let (parts, mut body) = response.into_parts();
    let mut collected = BytesMut::new();
    while let Some(chunk) = body.next_chunk()? {
        if collected.len() + chunk.len() > max_bytes {
            return Err(EngineFailure::signal_only(EngineSignal::ResponseTooLarge));
        }
        collected.extend_from_slice(&chunk);
    }
    Ok(http::Response::from_parts(parts, collected.freeze()))
}
