//! The client's behaviour, end to end over the scripted engine, through both
//! the async client (paused tokio time) and the blocking client (a manual
//! clock). No test sleeps.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use evident_core::client::{self, CallOptions, ClientBuilder, blocking};
use evident_core::decide::{BudgetConfig, Decision, DelaySource, RetryReason, StopReason};
use evident_core::observe::{AttemptRecord, CallInfo, Observer};
use evident_core::resilience::{
    CircuitBreakerConfig, ManualClock, Origin, PipelineConfig, RateLimiterConfig, Scheme,
};
use evident_core::testing::{Reached, ScriptedEngine, Step};
use evident_core::{
    AttemptStage as S, EngineSignal, ExecutionEvidence as E, FailureCategory as C, RetryPolicy,
};
use http::HeaderValue;

const URL: &str = "http://127.0.0.1:8080/orders";

fn policy() -> RetryPolicy {
    RetryPolicy::builder()
        .max_attempts(3)
        .jitter(0.0)
        .no_budget()
        .build()
        .unwrap()
}

fn builder() -> ClientBuilder {
    ClientBuilder::new()
        .policy(policy())
        .attempt_timeout(Duration::from_secs(2))
        .pipeline(PipelineConfig::disabled())
}

fn records<T>(result: &Result<http::Response<T>, client::Error>) -> Vec<AttemptRecord> {
    match result {
        Ok(r) => client::attempts_of(r).to_vec(),
        Err(e) => e.attempts().to_vec(),
    }
}

/// Runs `steps` through the async client with `options` and returns the
/// records, the engine and the paused time elapsed.
async fn run_async(
    builder: ClientBuilder,
    steps: Vec<Step>,
    body: client::Body,
    options: CallOptions,
) -> (
    Result<http::Response<Bytes>, client::Error>,
    Arc<ScriptedEngine>,
    Duration,
) {
    let engine = Arc::new(ScriptedEngine::new(steps));
    let client = builder.build(engine.clone()).unwrap();
    let start = tokio::time::Instant::now();
    let request = http::Request::post(URL).body(body).unwrap();
    let result = client.execute(request, options).await;
    (result, engine, start.elapsed())
}

fn run_blocking(
    builder: ClientBuilder,
    steps: Vec<Step>,
    body: blocking::Body,
    options: CallOptions,
) -> (
    Result<http::Response<Bytes>, client::Error>,
    Arc<ScriptedEngine>,
    Duration,
) {
    let clock = ManualClock::new();
    let engine = Arc::new(ScriptedEngine::new(steps).with_clock(clock.clone()));
    let client = builder
        .clock(Arc::new(clock.clone()))
        .build_blocking(engine.clone())
        .unwrap();
    let request = http::Request::post(URL).body(body).unwrap();
    let result = client.execute(request, options);
    (result, engine, clock.elapsed())
}

fn scripts() -> Vec<(Vec<Step>, CallOptions)> {
    vec![
        (vec![Step::respond(200, "ok")], CallOptions::new()),
        (
            vec![
                Step::fail(EngineSignal::ConnectionRefused, Reached::Connect),
                Step::fail(EngineSignal::TlsHandshake, Reached::Tls),
                Step::respond(200, "ok"),
            ],
            CallOptions::new(),
        ),
        (
            vec![
                Step::fail(EngineSignal::ConnectionReset, Reached::BodyWritten),
                Step::respond(200, "ok"),
            ],
            CallOptions::new(),
        ),
        (
            vec![
                Step::fail(EngineSignal::ConnectionReset, Reached::BodyWritten),
                Step::respond(503, "").header("retry-after", "3"),
                Step::respond(200, "ok"),
            ],
            CallOptions::new().idempotent(),
        ),
        (
            vec![
                Step::hang(Reached::BodyWritten),
                Step::body_stalls(200, "partial"),
                Step::respond(200, "ok"),
            ],
            CallOptions::new().generate_idempotency_key(),
        ),
        (
            vec![
                Step::fail(EngineSignal::Http2RefusedStream, Reached::BodyWritten),
                Step::body_fails(200, "par", EngineSignal::ConnectionReset),
            ],
            CallOptions::new(),
        ),
        (
            vec![
                Step::respond(503, ""),
                Step::respond(503, ""),
                Step::respond(503, ""),
            ],
            CallOptions::new().idempotent(),
        ),
        (
            vec![Step::hang(Reached::Tls), Step::hang(Reached::HeadPartly)],
            CallOptions::new().deadline(Duration::from_secs(3)),
        ),
    ]
}

/// A rate limiter of one token per 5 s that lets an attempt wait up to 10 s.
fn slow_rate_limiter() -> PipelineConfig {
    PipelineConfig::disabled().rate_limiter(Some(
        RateLimiterConfig::builder(1, Duration::from_secs(5))
            .max_wait(Duration::from_secs(10))
            .build()
            .unwrap(),
    ))
}

/// Scripts whose attempts wait for admission.
fn admission_scripts() -> Vec<(Vec<Step>, CallOptions)> {
    vec![
        // The retry waits ~4.9 s for a token, then hangs: its 2 s timeout
        // counts from admission, not from before the wait.
        (
            vec![
                Step::fail(EngineSignal::ConnectionRefused, Reached::Connect),
                Step::hang(Reached::BodyWritten),
            ],
            CallOptions::new(),
        ),
        // The token is further away than the 3 s deadline allows: the
        // retry is rejected at once instead of waiting past the deadline.
        (
            vec![
                Step::fail(EngineSignal::ConnectionRefused, Reached::Connect),
                Step::respond(200, "ok"),
            ],
            CallOptions::new().deadline(Duration::from_secs(3)),
        ),
        // Within a 20 s deadline the wait fits; the retry succeeds.
        (
            vec![
                Step::fail(EngineSignal::ConnectionRefused, Reached::Connect),
                Step::respond(200, "ok"),
            ],
            CallOptions::new().deadline(Duration::from_secs(20)),
        ),
    ]
}

#[tokio::test(start_paused = true)]
async fn async_and_blocking_clients_decide_identically() {
    let plain = scripts()
        .into_iter()
        .map(|(steps, options)| (steps, options, PipelineConfig::disabled()));
    let admission = admission_scripts()
        .into_iter()
        .map(|(steps, options)| (steps, options, slow_rate_limiter()));
    for (i, (steps, options, pipeline)) in plain.chain(admission).enumerate() {
        let (a, a_engine, a_elapsed) = run_async(
            builder().pipeline(pipeline.clone()),
            steps.clone(),
            client::Body::from("x"),
            options.clone(),
        )
        .await;
        let (b, b_engine, b_elapsed) = tokio::task::spawn_blocking(move || {
            run_blocking(
                builder().pipeline(pipeline),
                steps,
                blocking::Body::from("x"),
                options,
            )
        })
        .await
        .unwrap();
        assert!(!records(&a).is_empty(), "script {i} recorded nothing");
        assert_eq!(records(&a), records(&b), "script {i}");
        assert_eq!(a.is_ok(), b.is_ok(), "script {i}");
        assert_eq!(a_engine.sends(), b_engine.sends(), "script {i}");
        assert_eq!(a_elapsed, b_elapsed, "script {i}: waits differ");
    }
}

#[tokio::test(start_paused = true)]
async fn a_timeout_is_classified_by_the_progress_it_reached() {
    let cases = [
        (
            Step::hang(Reached::Unknown),
            (S::AwaitHead, C::Timeout, E::SentNoResponse),
        ),
        (
            Step::hang(Reached::Resolve),
            (S::Resolve, C::ConnectTimeout, E::NotSent),
        ),
        (
            Step::hang(Reached::Connect),
            (S::Connect, C::ConnectTimeout, E::NotSent),
        ),
        (
            Step::hang(Reached::Tls),
            (S::Tls, C::ConnectTimeout, E::NotSent),
        ),
        (
            Step::hang(Reached::HeadPartly),
            (S::WriteHead, C::Timeout, E::SentNoResponse),
        ),
        (
            Step::hang(Reached::HeadWritten),
            (S::WriteBody, C::Timeout, E::SentNoResponse),
        ),
        (
            Step::hang(Reached::BodyWritten),
            (S::AwaitHead, C::Timeout, E::SentNoResponse),
        ),
        (
            Step::body_stalls(200, "part"),
            (S::ReadBody, C::Timeout, E::Responded),
        ),
    ];
    let one_attempt = || {
        builder().policy(
            RetryPolicy::builder()
                .max_attempts(1)
                .no_budget()
                .build()
                .unwrap(),
        )
    };
    for (step, (stage, category, evidence)) in cases {
        let (a, _, elapsed) = run_async(
            one_attempt(),
            vec![step.clone()],
            client::Body::Empty,
            CallOptions::new(),
        )
        .await;
        let (b, _, _) = run_blocking(
            one_attempt(),
            vec![step],
            blocking::Body::Empty,
            CallOptions::new(),
        );
        for result in [&a, &b] {
            let err = result.as_ref().unwrap_err();
            let f = err.failure().expect("a transport failure");
            assert_eq!(
                (f.stage(), f.category(), f.evidence()),
                (stage, category, evidence)
            );
            assert_eq!(err.attempts().len(), 1);
        }
        assert_eq!(
            elapsed,
            Duration::from_secs(2),
            "the core's attempt timer fired"
        );
    }
}

#[tokio::test(start_paused = true)]
async fn retry_after_is_waited_exactly() {
    let steps = || {
        vec![
            Step::respond(503, "").header("retry-after", "7"),
            Step::respond(200, "ok"),
        ]
    };
    let (a, _, elapsed) = run_async(
        builder(),
        steps(),
        client::Body::Empty,
        CallOptions::new().idempotent(),
    )
    .await;
    assert_eq!(elapsed, Duration::from_secs(7));
    let first = records(&a)[0];
    assert_eq!(first.backoff(), Some(Duration::from_secs(7)));
    assert_eq!(first.delay_source(), Some(DelaySource::RetryAfter));
    let (_, _, elapsed) = run_blocking(
        builder(),
        steps(),
        blocking::Body::Empty,
        CallOptions::new().idempotent(),
    );
    assert_eq!(elapsed, Duration::from_secs(7));
    // Not idempotent: the 503 is final, nothing is waited.
    let (a, engine, elapsed) =
        run_async(builder(), steps(), client::Body::Empty, CallOptions::new()).await;
    assert_eq!(a.unwrap().status(), 503);
    assert_eq!((engine.sends(), elapsed), (1, Duration::ZERO));
}

#[tokio::test(start_paused = true)]
async fn an_idempotency_key_counts_only_once_its_head_was_written() {
    let key = || CallOptions::new().idempotency_key(HeaderValue::from_static("k-123"));
    // The reset came while the head was still being written: the key never
    // reached the server, so it protects nothing.
    let (r, engine, _) = run_async(
        builder(),
        vec![
            Step::fail(EngineSignal::ConnectionReset, Reached::HeadPartly),
            Step::respond(200, "ok"),
        ],
        client::Body::Empty,
        key(),
    )
    .await;
    let err = r.unwrap_err();
    assert_eq!(
        err.attempts()[0].decision,
        Decision::Stop(StopReason::NotIdempotent)
    );
    assert_eq!(engine.sends(), 1);
    // The head (and with it the key) was written: the repeat is safe, and
    // carries the same key.
    let (r, engine, _) = run_async(
        builder(),
        vec![
            Step::fail(EngineSignal::ConnectionReset, Reached::HeadWritten),
            Step::respond(200, "ok"),
        ],
        client::Body::Empty,
        key(),
    )
    .await;
    assert_eq!(r.unwrap().status(), 200);
    let seen = engine.seen();
    assert_eq!(seen.len(), 2);
    for s in &seen {
        assert_eq!(s.headers["idempotency-key"], "k-123");
    }
    // A generated key is a UUID, the same on every attempt.
    let (_, engine, _) = run_async(
        builder(),
        vec![
            Step::fail(EngineSignal::ConnectionReset, Reached::BodyWritten),
            Step::respond(200, "ok"),
        ],
        client::Body::Empty,
        CallOptions::new().generate_idempotency_key(),
    )
    .await;
    let seen = engine.seen();
    let k0 = seen[0].headers["idempotency-key"]
        .to_str()
        .unwrap()
        .to_owned();
    assert_eq!(k0.len(), 36);
    assert_eq!(seen[1].headers["idempotency-key"], k0.as_str());
}

/// An engine that holds its first attempt until told, then fails it with a
/// refused connection (a reason that would otherwise retry).
struct Gate {
    entered: tokio::sync::Notify,
    release: tokio::sync::Notify,
    inner: ScriptedEngine,
}

#[async_trait::async_trait]
impl evident_core::Engine for Gate {
    fn name(&self) -> &'static str {
        "gate"
    }
    async fn send(
        &self,
        request: http::Request<evident_core::AttemptBody>,
        attempt: &evident_core::AttemptContext,
    ) -> Result<http::Response<evident_core::ResponseBody>, evident_core::EngineFailure> {
        if self.inner.sends() == 0 {
            self.entered.notify_one();
            self.release.notified().await;
        }
        evident_core::Engine::send(&self.inner, request, attempt).await
    }
}

#[tokio::test(start_paused = true)]
async fn drain_starts_no_new_retry() {
    let client = builder()
        .build(Gate {
            entered: tokio::sync::Notify::new(),
            release: tokio::sync::Notify::new(),
            inner: ScriptedEngine::new([
                Step::fail(EngineSignal::ConnectionRefused, Reached::Connect),
                Step::respond(200, "ok"),
            ]),
        })
        .unwrap();
    let in_flight = {
        let client = client.clone();
        tokio::spawn(async move {
            let request = http::Request::get(URL).body(client::Body::Empty).unwrap();
            client.execute(request, CallOptions::new()).await
        })
    };
    client.engine().entered.notified().await;
    client.drain();
    // New calls fail fast, before any attempt.
    let request = http::Request::get(URL).body(client::Body::Empty).unwrap();
    let err = client
        .execute(request, CallOptions::new())
        .await
        .unwrap_err();
    assert!(err.is_draining());
    assert!(err.attempts().is_empty());
    // The attempt in flight ends; its retry does not start.
    client.engine().release.notify_one();
    let err = in_flight.await.unwrap().unwrap_err();
    assert_eq!(err.attempts().len(), 1);
    assert_eq!(
        err.attempts()[0].decision,
        Decision::Stop(StopReason::Draining)
    );
    assert_eq!(client.engine().inner.sends(), 1);
}

#[tokio::test(start_paused = true)]
async fn an_oversized_response_is_a_clear_error_and_not_retried() {
    let b = || builder().max_response_bytes(10);
    let steps = || {
        vec![
            Step::respond(200, "0123456789A"),
            Step::respond(200, "small"),
        ]
    };
    let (r, engine, _) = run_async(
        b(),
        steps(),
        client::Body::Empty,
        CallOptions::new().idempotent(),
    )
    .await;
    let err = r.unwrap_err();
    let f = err.failure().unwrap();
    assert_eq!(
        (f.stage(), f.category(), f.evidence()),
        (S::ReadBody, C::ResponseTooLarge, E::Responded)
    );
    assert_eq!(
        err.attempts()[0].decision,
        Decision::Stop(StopReason::PermanentFailure)
    );
    assert_eq!(engine.sends(), 1);
    assert!(err.to_string().contains("response_too_large"), "{err}");
    let (r, engine, _) = run_blocking(
        b(),
        steps(),
        blocking::Body::Empty,
        CallOptions::new().idempotent(),
    );
    assert_eq!(
        r.unwrap_err().failure().unwrap().category(),
        C::ResponseTooLarge
    );
    assert_eq!(engine.sends(), 1);
    // Exactly at the limit is fine.
    let (r, _, _) = run_async(
        b(),
        vec![Step::respond(200, "0123456789")],
        client::Body::Empty,
        CallOptions::new(),
    )
    .await;
    assert_eq!(r.unwrap().body().len(), 10);
}

/// Every stop reason and every retry reason, produced through the client.
#[tokio::test(start_paused = true)]
async fn every_rule_of_the_table_is_reachable_end_to_end() {
    use std::collections::HashSet;
    let mut stops = HashSet::new();
    let mut retries = HashSet::new();
    let mut note = |records: Vec<AttemptRecord>| {
        for r in records {
            match r.decision {
                Decision::Stop(s) => {
                    stops.insert(s);
                }
                Decision::Retry { reason, .. } => {
                    retries.insert(reason);
                }
            }
        }
    };
    let refused = || Step::fail(EngineSignal::ConnectionRefused, Reached::Connect);
    let reset = || Step::fail(EngineSignal::ConnectionReset, Reached::BodyWritten);
    let cases: Vec<(ClientBuilder, Vec<Step>, CallOptions)> = vec![
        // succeeded, after not_sent and not_processed retries
        (
            builder().policy(
                RetryPolicy::builder()
                    .max_attempts(3)
                    .jitter(0.0)
                    .no_budget()
                    .build()
                    .unwrap(),
            ),
            vec![
                refused(),
                Step::fail(EngineSignal::Http2RefusedStream, Reached::BodyWritten),
                Step::respond(200, ""),
            ],
            CallOptions::new(),
        ),
        // request_timeout, misdirected_request and too_early, with nothing
        // declared: the statuses themselves prove non-processing
        (
            builder().policy(
                RetryPolicy::builder()
                    .max_attempts(4)
                    .jitter(0.0)
                    .no_budget()
                    .build()
                    .unwrap(),
            ),
            vec![
                Step::respond(408, ""),
                Step::respond(421, ""),
                Step::respond(425, ""),
                Step::respond(200, ""),
            ],
            CallOptions::new(),
        ),
        // idempotency_key_in_progress, then idempotency_key_reused: the
        // key's replies, for a call whose key was sent
        (
            builder(),
            vec![Step::respond(409, ""), Step::respond(422, "")],
            CallOptions::new().generate_idempotency_key(),
        ),
        // attempts_exhausted
        (builder(), vec![refused()], CallOptions::new()),
        // safely_idempotent then retryable_status, then status_not_retryable
        (
            builder().policy(
                RetryPolicy::builder()
                    .max_attempts(5)
                    .jitter(0.0)
                    .no_budget()
                    .build()
                    .unwrap(),
            ),
            vec![reset(), Step::respond(503, ""), Step::respond(404, "")],
            CallOptions::new().idempotent(),
        ),
        // not_idempotent
        (builder(), vec![reset()], CallOptions::new()),
        // status_not_idempotent
        (builder(), vec![Step::respond(503, "")], CallOptions::new()),
        // permanent_failure
        (
            builder(),
            vec![Step::fail(EngineSignal::TlsCertificate, Reached::Tls)],
            CallOptions::new(),
        ),
        // deadline_too_short: the attempt timed out at the deadline
        (
            builder(),
            vec![Step::hang(Reached::Connect)],
            CallOptions::new().deadline(Duration::from_secs(1)),
        ),
        // retry_after_beyond_deadline
        (
            builder(),
            vec![Step::respond(503, "").header("retry-after", "100")],
            CallOptions::new()
                .idempotent()
                .deadline(Duration::from_secs(10)),
        ),
        // retry_after_beyond_ceiling
        (
            builder(),
            vec![Step::respond(429, "").header("retry-after", "100000")],
            CallOptions::new().idempotent(),
        ),
        // budget_exhausted
        (no_retry_budget(), vec![refused()], CallOptions::new()),
    ];
    for (b, steps, options) in cases {
        let (r, _, _) = run_async(b, steps, client::Body::Empty, options).await;
        note(records(&r));
    }
    // body_not_replayable: a streamed body.
    let stream = http_body_util::Full::new(Bytes::from_static(b"once"));
    let (r, _, _) = run_async(
        builder(),
        vec![refused()],
        client::Body::stream(stream),
        CallOptions::new(),
    )
    .await;
    note(records(&r));
    // draining
    let gate = Gate {
        entered: tokio::sync::Notify::new(),
        release: tokio::sync::Notify::new(),
        inner: ScriptedEngine::new([refused()]),
    };
    let gated = builder().build(gate).unwrap();
    let task = {
        let gated = gated.clone();
        tokio::spawn(async move {
            gated
                .execute(
                    http::Request::get(URL).body(client::Body::Empty).unwrap(),
                    CallOptions::new(),
                )
                .await
        })
    };
    gated.engine().entered.notified().await;
    gated.drain();
    gated.engine().release.notify_one();
    note(records(&task.await.unwrap()));
    // local_rejection: an upstream answering 503 opens its circuit.
    let breaker = CircuitBreakerConfig::builder()
        .sliding_window_size(1)
        .minimum_number_of_calls(1)
        .build()
        .unwrap();
    let c = builder()
        .pipeline(PipelineConfig::disabled().circuit_breaker(Some(breaker)))
        .build(ScriptedEngine::new([Step::respond(503, "")]))
        .unwrap();
    for _ in 0..2 {
        let r = c
            .execute(
                http::Request::get(URL).body(client::Body::Empty).unwrap(),
                CallOptions::new(),
            )
            .await;
        note(records(&r));
    }
    // response_delivered: a streamed response whose body fails after delivery.
    let c = builder()
        .build(ScriptedEngine::new([Step::body_fails(
            200,
            "part",
            EngineSignal::ConnectionReset,
        )]))
        .unwrap();
    let response = c
        .execute_streaming(
            http::Request::get(URL).body(client::Body::Empty).unwrap(),
            CallOptions::new().idempotent(),
        )
        .await
        .unwrap();
    use http_body_util::BodyExt;
    let err = response.into_body().collect().await.unwrap_err();
    note(err.attempts().to_vec());

    let missing_stops: Vec<_> = StopReason::ALL
        .iter()
        .filter(|s| !stops.contains(s))
        .collect();
    let missing_retries: Vec<_> = RetryReason::ALL
        .iter()
        .filter(|r| !retries.contains(r))
        .collect();
    assert!(
        missing_stops.is_empty(),
        "unreached stop reasons: {missing_stops:?}"
    );
    assert!(
        missing_retries.is_empty(),
        "unreached retry reasons: {missing_retries:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn invalid_requests_are_rejected_before_any_attempt() {
    for uri in ["/relative", "ftp://127.0.0.1/x", "http://127.0.0.1:0/"] {
        let (r, engine, _) = {
            let engine = Arc::new(ScriptedEngine::new([Step::respond(200, "")]));
            let client = builder().build(engine.clone()).unwrap();
            let request = http::Request::get(uri).body(client::Body::Empty).unwrap();
            (
                client.execute(request, CallOptions::new()).await,
                engine,
                (),
            )
        };
        let err = r.unwrap_err();
        assert!(err.is_invalid_request(), "{uri}: {err}");
        assert!(err.attempts().is_empty());
        assert_eq!(engine.sends(), 0, "{uri}");
    }
}

#[test]
fn impossible_client_configurations_are_typed_errors() {
    let e = ClientBuilder::new()
        .attempt_timeout(Duration::ZERO)
        .validate()
        .unwrap_err();
    assert_eq!(e.field(), "attempt_timeout");
    let e = ClientBuilder::new()
        .deadline(Duration::ZERO)
        .validate()
        .unwrap_err();
    assert_eq!(e.field(), "deadline");
    let e = ClientBuilder::new()
        .max_response_bytes(0)
        .validate()
        .unwrap_err();
    assert_eq!(e.field(), "max_response_bytes");
    assert!(
        ClientBuilder::new()
            .build_blocking(ScriptedEngine::new([Step::respond(200, "")]))
            .is_ok()
    );
}

/// A client whose retry budget allows no retry at all.
fn no_retry_budget() -> ClientBuilder {
    builder().policy(
        RetryPolicy::builder()
            .budget(BudgetConfig {
                ratio: 0.0,
                min_per_sec: 0,
                ttl: Duration::from_secs(1),
            })
            .build()
            .unwrap(),
    )
}

/// A breaker that opens on the first recorded failure.
fn hair_trigger_breaker() -> PipelineConfig {
    PipelineConfig::disabled().circuit_breaker(Some(
        CircuitBreakerConfig::builder()
            .sliding_window_size(1)
            .minimum_number_of_calls(1)
            .build()
            .unwrap(),
    ))
}

#[tokio::test(start_paused = true)]
async fn a_failing_request_body_never_opens_the_circuit() {
    // The caller's own body stream failed: nothing says the upstream is
    // unhealthy, so a breaker that opens on one failure stays closed.
    let engine = Arc::new(ScriptedEngine::new([
        Step::fail(EngineSignal::RequestBody, Reached::HeadWritten),
        Step::respond(200, "ok"),
    ]));
    let client = builder()
        .pipeline(hair_trigger_breaker())
        .build(engine.clone())
        .unwrap();
    let request = http::Request::post(URL)
        .body(client::Body::from("x"))
        .unwrap();
    let err = client
        .execute(request, CallOptions::new())
        .await
        .unwrap_err();
    assert_eq!(err.failure().unwrap().category(), C::RequestBody);
    let origin = Origin::new(Scheme::Http, "127.0.0.1", 8080);
    assert_eq!(
        client.pipeline().state(&origin),
        Some(evident_core::resilience::CircuitState::Closed)
    );
    let request = http::Request::get(URL).body(client::Body::Empty).unwrap();
    let ok = client.execute(request, CallOptions::new()).await.unwrap();
    assert_eq!(ok.status(), 200);
    assert_eq!(engine.sends(), 2);
}

/// An answer that arrived while the request body was still being written
/// (RFC 9112 §9.6) counts for the pipeline as its status does: an early 413
/// is the caller's problem and leaves the circuit closed; an early 503 is
/// the upstream failing and opens it; and an early 503 to an idempotent
/// call spends the retry budget as any 503 does.
#[tokio::test(start_paused = true)]
async fn early_answers_count_for_the_circuit_and_the_budget_as_their_status() {
    let origin = Origin::new(Scheme::Http, "127.0.0.1", 8080);
    let post = || {
        http::Request::post(URL)
            .body(client::Body::from(vec![b'x'; 1 << 20]))
            .unwrap()
    };
    let shown = |r: &Result<http::Response<Bytes>, client::Error>| -> Vec<String> {
        records(r).iter().map(|r| r.to_string()).collect()
    };

    // A client behind a breaker that opens on one failure, over an engine
    // answering `early` first, then 200.
    let behind_breaker = |early: Step| {
        let engine = Arc::new(ScriptedEngine::new([early, Step::respond(200, "ok")]));
        let client = builder()
            .pipeline(hair_trigger_breaker())
            .build(engine.clone())
            .unwrap();
        (engine, client)
    };

    let (engine, client) = behind_breaker(Step::respond_early(413, "too large"));
    let r = client.execute(post(), CallOptions::new()).await;
    assert_eq!(r.as_ref().unwrap().status(), 413);
    assert_eq!(shown(&r), ["#0 status:413 -> stop(status_not_retryable)"]);
    assert_eq!(
        client.pipeline().state(&origin),
        Some(evident_core::resilience::CircuitState::Closed)
    );
    let r = client.execute(post(), CallOptions::new()).await;
    assert_eq!(r.unwrap().status(), 200);
    assert_eq!(engine.sends(), 2);

    let (engine, client) = behind_breaker(Step::respond_early(503, ""));
    let r = client.execute(post(), CallOptions::new()).await;
    assert_eq!(r.as_ref().unwrap().status(), 503);
    assert_eq!(
        client.pipeline().state(&origin),
        Some(evident_core::resilience::CircuitState::Open)
    );
    let err = client
        .execute(post(), CallOptions::new())
        .await
        .unwrap_err();
    assert!(matches!(
        err.rejection(),
        Some(evident_core::resilience::LocalRejection::CircuitOpen { .. })
    ));
    assert_eq!(engine.sends(), 1, "the open circuit sent nothing");

    for early in [true, false] {
        let step = if early {
            Step::respond_early(503, "")
        } else {
            Step::respond(503, "")
        };
        let (r, engine, _) = run_async(
            no_retry_budget(),
            vec![step, Step::respond(200, "ok")],
            client::Body::from(vec![b'x'; 1 << 20]),
            CallOptions::new().idempotent(),
        )
        .await;
        assert_eq!(
            shown(&r),
            ["#0 status:503 -> stop(budget_exhausted)"],
            "early: {early}"
        );
        assert_eq!(engine.sends(), 1);
    }
}

#[tokio::test(start_paused = true)]
async fn admission_waits_end_within_the_call_deadline_and_the_attempt_is_timed_from_admission() {
    // The retry's token is 4.9 s away, the deadline 3 s: rejected at once.
    let (r, engine, elapsed) = run_async(
        builder().pipeline(slow_rate_limiter()),
        vec![
            Step::fail(EngineSignal::ConnectionRefused, Reached::Connect),
            Step::respond(200, "ok"),
        ],
        client::Body::Empty,
        CallOptions::new().deadline(Duration::from_secs(3)),
    )
    .await;
    let err = r.unwrap_err();
    assert!(matches!(
        err.rejection(),
        Some(evident_core::resilience::LocalRejection::RateLimited { .. })
    ));
    let shown: Vec<String> = err.attempts().iter().map(|r| r.to_string()).collect();
    assert_eq!(
        shown,
        [
            "#0 connect/connection_refused/not_sent -> retry(not_sent)",
            "#1 rejected:rate_limited -> stop(local_rejection)",
        ]
    );
    assert_eq!(engine.sends(), 1);
    assert_eq!(elapsed, Duration::from_millis(100), "only the backoff");
    // Admitted after waiting until 5 s, the hanging retry gets its whole
    // 2 s attempt timeout.
    let (r, _, elapsed) = run_async(
        builder().pipeline(slow_rate_limiter()),
        vec![
            Step::fail(EngineSignal::ConnectionRefused, Reached::Connect),
            Step::hang(Reached::BodyWritten),
        ],
        client::Body::Empty,
        CallOptions::new(),
    )
    .await;
    assert_eq!(r.unwrap_err().attempts().len(), 2);
    assert_eq!(elapsed, Duration::from_secs(7));
}

/// Collects records and says when the first one arrived.
#[derive(Default)]
struct Signal {
    records: Mutex<Vec<AttemptRecord>>,
    first: tokio::sync::Notify,
    sender: Mutex<Option<std::sync::mpsc::Sender<()>>>,
}

impl Observer for Signal {
    fn on_attempt(&self, _call: &CallInfo, record: &AttemptRecord) {
        self.records.lock().unwrap().push(*record);
        self.first.notify_one();
        if let Some(tx) = &*self.sender.lock().unwrap() {
            let _ = tx.send(());
        }
    }
}

fn shown(records: &[AttemptRecord]) -> Vec<String> {
    records.iter().map(|r| r.to_string()).collect()
}

const DRAINED_DURING_RETRY_AFTER: [&str; 2] = [
    "#0 status:503 -> retry(retryable_status)",
    "#1 rejected:draining -> stop(draining)",
];

fn retry_after_60() -> Vec<Step> {
    vec![
        Step::respond(503, "").header("retry-after", "60"),
        Step::respond(200, "ok"),
    ]
}

#[tokio::test(start_paused = true)]
async fn drain_during_a_retry_after_wait_ends_the_async_call_at_once() {
    let observer = Arc::new(Signal::default());
    let engine = Arc::new(ScriptedEngine::new(retry_after_60()));
    let client = builder()
        .observer(observer.clone())
        .build(engine.clone())
        .unwrap();
    let start = tokio::time::Instant::now();
    let call = {
        let client = client.clone();
        tokio::spawn(async move {
            let request = http::Request::get(URL).body(client::Body::Empty).unwrap();
            client
                .execute(request, CallOptions::new().idempotent())
                .await
        })
    };
    observer.first.notified().await;
    client.drain();
    let err = call.await.unwrap().unwrap_err();
    assert!(err.is_draining(), "{err}");
    assert_eq!(shown(err.attempts()), DRAINED_DURING_RETRY_AFTER);
    assert_eq!(
        shown(&observer.records.lock().unwrap()),
        DRAINED_DURING_RETRY_AFTER
    );
    assert_eq!(engine.sends(), 1);
    assert_eq!(start.elapsed(), Duration::ZERO, "not a moment of the 60 s");
}

#[test]
fn drain_during_a_retry_after_wait_ends_the_blocking_call_without_advancing_its_clock() {
    // The observer drains the client as the first attempt is recorded, so
    // the drain is in place when the wait begins.
    struct DrainOnFirst(std::sync::OnceLock<blocking::Client<Arc<ScriptedEngine>>>);
    impl Observer for DrainOnFirst {
        fn on_attempt(&self, _call: &CallInfo, _record: &AttemptRecord) {
            self.0.get().unwrap().drain();
        }
    }
    let clock = ManualClock::new();
    let observer = Arc::new(DrainOnFirst(std::sync::OnceLock::new()));
    let engine = Arc::new(ScriptedEngine::new(retry_after_60()).with_clock(clock.clone()));
    let client = builder()
        .clock(Arc::new(clock.clone()))
        .observer(observer.clone())
        .build_blocking(engine.clone())
        .unwrap();
    let _ = observer.0.set(client.clone());
    let request = http::Request::get(URL).body(blocking::Body::Empty).unwrap();
    let err = client
        .execute(request, CallOptions::new().idempotent())
        .unwrap_err();
    assert!(err.is_draining());
    assert_eq!(shown(err.attempts()), DRAINED_DURING_RETRY_AFTER);
    assert_eq!(engine.sends(), 1);
    assert_eq!(clock.elapsed(), Duration::ZERO);
}

#[test]
fn drain_wakes_a_blocking_call_asleep_in_a_retry_after_wait() {
    // The system clock: the call really sleeps, and drain() must wake it.
    let observer = Arc::new(Signal::default());
    let (tx, rx) = std::sync::mpsc::channel();
    *observer.sender.lock().unwrap() = Some(tx);
    let engine = Arc::new(ScriptedEngine::new(retry_after_60()));
    let client = builder()
        .observer(observer.clone())
        .build_blocking(engine.clone())
        .unwrap();
    let started = std::time::Instant::now();
    let call = {
        let client = client.clone();
        std::thread::spawn(move || {
            let request = http::Request::get(URL).body(blocking::Body::Empty).unwrap();
            client.execute(request, CallOptions::new().idempotent())
        })
    };
    rx.recv().unwrap();
    client.drain();
    let err = call.join().unwrap().unwrap_err();
    assert!(err.is_draining());
    assert_eq!(shown(err.attempts()), DRAINED_DURING_RETRY_AFTER);
    assert_eq!(engine.sends(), 1);
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "woken by the drain, not by the end of the 60 s wait"
    );
}

/// Logs records and call ends, in order, as text.
#[derive(Default)]
struct Log(Mutex<Vec<String>>);

impl Observer for Log {
    fn on_attempt(&self, _call: &CallInfo, record: &AttemptRecord) {
        self.0.lock().unwrap().push(record.to_string());
    }
    fn on_call_end(&self, _call: &CallInfo, records: &[AttemptRecord]) {
        self.0
            .lock()
            .unwrap()
            .push(format!("end({})", records.len()));
    }
    fn on_attempt_revised(
        &self,
        _call: &CallInfo,
        _delivered: &AttemptRecord,
        record: &AttemptRecord,
    ) {
        self.0.lock().unwrap().push(format!("revised {record}"));
    }
}

impl Log {
    fn lines(&self) -> Vec<String> {
        self.0.lock().unwrap().clone()
    }
}

fn refused_then_body_reset() -> Vec<Step> {
    vec![
        Step::fail(EngineSignal::ConnectionRefused, Reached::Connect),
        Step::body_fails(200, "par", EngineSignal::ConnectionReset),
    ]
}

/// What the caller sees at the head, then the records the error carries
/// (one per attempt: the body failure replaces the delivered attempt's),
/// then what the observer saw.
const STREAMED_AT_HEAD: [&str; 2] = [
    "#0 connect/connection_refused/not_sent -> retry(not_sent)",
    "#1 status:200 -> stop(succeeded)",
];
const STREAMED_BODY_RESET: [&str; 2] = [
    "#0 connect/connection_refused/not_sent -> retry(not_sent)",
    "#1 read_body/connection_reset/responded -> stop(response_delivered)",
];
const STREAMED_OBSERVED: [&str; 4] = [
    "#0 connect/connection_refused/not_sent -> retry(not_sent)",
    "#1 status:200 -> stop(succeeded)",
    "revised #1 read_body/connection_reset/responded -> stop(response_delivered)",
    "end(2)",
];

#[tokio::test(start_paused = true)]
async fn a_streamed_body_failure_is_the_clients_error_with_every_record_observed_inside_the_call() {
    use http_body_util::BodyExt;
    let log = Arc::new(Log::default());
    let client = builder()
        .observer(log.clone())
        .build(ScriptedEngine::new(refused_then_body_reset()))
        .unwrap();
    let request = http::Request::get(URL).body(client::Body::Empty).unwrap();
    let response = client
        .execute_streaming(request, CallOptions::new())
        .await
        .unwrap();
    assert_eq!(shown(client::attempts_of(&response)), STREAMED_AT_HEAD);
    assert_eq!(log.lines(), STREAMED_AT_HEAD, "the call is not over");
    let err: client::Error = response.into_body().collect().await.unwrap_err();
    assert_eq!(shown(err.attempts()), STREAMED_BODY_RESET);
    assert!(
        err.to_string().contains("after 2 attempt(s)"),
        "one record per attempt: {err}"
    );
    let f = err.failure().unwrap();
    assert_eq!(
        (f.stage(), f.category(), f.evidence()),
        (S::ReadBody, C::ConnectionReset, E::Responded)
    );
    assert_eq!(
        log.lines(),
        STREAMED_OBSERVED,
        "the body failure comes before the end"
    );
}

#[tokio::test(start_paused = true)]
async fn a_streamed_body_is_bounded_by_the_call_deadline() {
    use http_body_util::BodyExt;
    let client = builder()
        .build(ScriptedEngine::new([Step::body_stalls(200, "part")]))
        .unwrap();
    let request = http::Request::get(URL).body(client::Body::Empty).unwrap();
    let start = tokio::time::Instant::now();
    let response = client
        .execute_streaming(request, CallOptions::new().deadline(Duration::from_secs(5)))
        .await
        .unwrap();
    // Bounded here only so that a regression fails instead of hanging.
    let read = tokio::time::timeout(Duration::from_secs(3600), response.into_body().collect())
        .await
        .expect("the call's deadline ended the body");
    let err = read.unwrap_err();
    assert_eq!(start.elapsed(), Duration::from_secs(5));
    let f = err.failure().unwrap();
    assert_eq!(
        (f.stage(), f.category(), f.evidence()),
        (S::ReadBody, C::Timeout, E::Responded)
    );
    assert_eq!(
        err.attempts().last().unwrap().decision,
        Decision::Stop(StopReason::ResponseDelivered)
    );
}

#[test]
fn the_blocking_client_streams_with_the_same_trail_as_the_async_one() {
    let log = Arc::new(Log::default());
    let clock = ManualClock::new();
    let client = builder()
        .clock(Arc::new(clock.clone()))
        .observer(log.clone())
        .build_blocking(ScriptedEngine::new(refused_then_body_reset()).with_clock(clock))
        .unwrap();
    let request = http::Request::get(URL).body(blocking::Body::Empty).unwrap();
    let response = client
        .execute_streaming(request, CallOptions::new())
        .unwrap();
    assert_eq!(shown(client::attempts_of(&response)), STREAMED_AT_HEAD);
    let mut body = response.into_body();
    assert_eq!(body.next_chunk().unwrap().unwrap(), "par");
    assert_eq!(log.lines(), STREAMED_AT_HEAD, "the call is not over");
    let err = body.next_chunk().unwrap_err();
    assert_eq!(shown(err.attempts()), STREAMED_BODY_RESET);
    assert_eq!(log.lines(), STREAMED_OBSERVED);
    // Through `Read`, the client's error is inside the io::Error.
    let client = builder()
        .build_blocking(ScriptedEngine::new(refused_then_body_reset()))
        .unwrap();
    let request = http::Request::get(URL).body(blocking::Body::Empty).unwrap();
    let mut body = client
        .execute_streaming(request, CallOptions::new())
        .unwrap()
        .into_body();
    let io = std::io::Read::read_to_end(&mut body, &mut Vec::new()).unwrap_err();
    let err = io
        .get_ref()
        .unwrap()
        .downcast_ref::<client::Error>()
        .unwrap();
    assert_eq!(shown(err.attempts()), STREAMED_BODY_RESET);
}

#[tokio::test(start_paused = true)]
async fn a_streamed_call_ends_once_when_its_body_ends_or_is_dropped() {
    use http_body_util::BodyExt;
    let log = Arc::new(Log::default());
    let client = builder()
        .observer(log.clone())
        .build(ScriptedEngine::new([Step::respond(200, "whole")]))
        .unwrap();
    let stream = || http::Request::get(URL).body(client::Body::Empty).unwrap();
    let response = client
        .execute_streaming(stream(), CallOptions::new())
        .await
        .unwrap();
    assert_eq!(log.lines(), ["#0 status:200 -> stop(succeeded)"]);
    let body = response.into_body().collect().await.unwrap().to_bytes();
    assert_eq!(body, "whole");
    assert_eq!(log.lines(), ["#0 status:200 -> stop(succeeded)", "end(1)"]);
    let response = client
        .execute_streaming(stream(), CallOptions::new())
        .await
        .unwrap();
    drop(response);
    assert_eq!(log.lines().len(), 4);
    assert_eq!(log.lines()[3], "end(1)");
}

/// A bulkhead of one slot whose queue would keep a second attempt an hour.
fn one_slot_queueing_bulkhead() -> PipelineConfig {
    PipelineConfig::disabled().bulkhead(Some(
        evident_core::resilience::BulkheadConfig::builder()
            .max_concurrent(1)
            .max_wait(Duration::from_secs(3600))
            .build()
            .unwrap(),
    ))
}

const DRAINED_IN_ADMISSION: [&str; 1] = ["#0 rejected:draining -> stop(draining)"];

#[tokio::test(start_paused = true)]
async fn drain_ends_an_async_call_queued_for_admission() {
    let client = builder()
        .pipeline(one_slot_queueing_bulkhead())
        .build(ScriptedEngine::new([Step::respond(200, "ok")]))
        .unwrap();
    let origin = Origin::new(Scheme::Http, "127.0.0.1", 8080);
    let held = client.pipeline().acquire(&origin).await.unwrap();
    let start = tokio::time::Instant::now();
    let call = {
        let client = client.clone();
        tokio::spawn(async move {
            let request = http::Request::get(URL).body(client::Body::Empty).unwrap();
            client.execute(request, CallOptions::new()).await
        })
    };
    while client
        .pipeline()
        .metrics(&origin)
        .unwrap()
        .bulkhead
        .unwrap()
        .waiting
        == 0
    {
        tokio::task::yield_now().await;
    }
    client.drain();
    let err = call.await.unwrap().unwrap_err();
    assert!(err.is_draining());
    assert_eq!(shown(err.attempts()), DRAINED_IN_ADMISSION);
    assert_eq!(start.elapsed(), Duration::ZERO);
    assert_eq!(client.engine().sends(), 0);
    let bulkhead = client
        .pipeline()
        .metrics(&origin)
        .unwrap()
        .bulkhead
        .unwrap();
    assert_eq!(
        (bulkhead.waiting, bulkhead.in_use),
        (0, 1),
        "left the queue"
    );
    held.record_success();
}

#[test]
fn drain_wakes_a_blocking_call_queued_for_admission() {
    let client = builder()
        .pipeline(one_slot_queueing_bulkhead())
        .build_blocking(ScriptedEngine::new([Step::respond(200, "ok")]))
        .unwrap();
    let origin = Origin::new(Scheme::Http, "127.0.0.1", 8080);
    let held = client.pipeline().acquire_blocking(&origin).unwrap();
    let started = std::time::Instant::now();
    let call = {
        let client = client.clone();
        std::thread::spawn(move || {
            let request = http::Request::get(URL).body(blocking::Body::Empty).unwrap();
            client.execute(request, CallOptions::new())
        })
    };
    // Synchronisation on a fact, not a sleep: the call is in the queue.
    while client
        .pipeline()
        .metrics(&origin)
        .unwrap()
        .bulkhead
        .unwrap()
        .waiting
        == 0
    {
        std::thread::yield_now();
    }
    client.drain();
    let err = call.join().unwrap().unwrap_err();
    assert!(err.is_draining());
    assert_eq!(shown(err.attempts()), DRAINED_IN_ADMISSION);
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "woken by the drain"
    );
    assert_eq!(client.engine().sends(), 0);
    held.record_success();
}
