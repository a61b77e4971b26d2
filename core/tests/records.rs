//! Each attempt record carries when the attempt ran, where its delay came
//! from and the facts behind its evidence. Paused tokio time: the timings
//! are exact.

use std::time::Duration;

use evident_core::client::{Body, CallOptions, ClientBuilder, attempts_of};
use evident_core::decide::DelaySource;
use evident_core::resilience::PipelineConfig;
use evident_core::testing::{Reached, ScriptedEngine, Step};
use evident_core::{EvidenceFacts, RetryPolicy};

#[tokio::test(start_paused = true)]
async fn records_carry_their_start_offset_duration_delay_source_and_facts() {
    let client = ClientBuilder::new()
        .policy(
            RetryPolicy::builder()
                .max_attempts(3)
                .base_backoff(Duration::from_millis(100))
                .jitter(0.0)
                .no_budget()
                .build()
                .unwrap(),
        )
        .attempt_timeout(Duration::from_secs(2))
        .pipeline(PipelineConfig::disabled())
        .build(ScriptedEngine::new([
            // Times out after the head was written: 2 s, then backoff.
            Step::hang(Reached::HeadWritten),
            // Answers 503 asking for 1 s: the delay comes from the server.
            Step::respond(503, "").header("retry-after", "1"),
            Step::respond(200, "ok"),
        ]))
        .unwrap();
    let request = http::Request::get("http://127.0.0.1:8080/")
        .body(Body::Empty)
        .unwrap();
    let response = client
        .execute(request, CallOptions::new().idempotent())
        .await
        .unwrap();
    let records = attempts_of(&response);
    assert_eq!(records.len(), 3, "{records:?}");

    let ms = Duration::from_millis;
    assert_eq!((records[0].started, records[0].duration), (ms(0), ms(2000)));
    assert_eq!(records[0].delay_source(), Some(DelaySource::Backoff));
    assert_eq!(records[0].backoff(), Some(ms(100)));
    assert_eq!(
        records[0].facts,
        EvidenceFacts {
            connection_reused: Some(false),
            // The scripted engine writes a 64-byte head.
            bytes_written: Some(64),
            stream_id: None,
            // It hung before any answer.
            bytes_read: None,
        }
    );

    assert_eq!((records[1].started, records[1].duration), (ms(2100), ms(0)));
    assert_eq!(records[1].delay_source(), Some(DelaySource::RetryAfter));
    assert_eq!(records[1].backoff(), Some(ms(1000)));

    assert_eq!(records[2].started, ms(3100));
    assert_eq!(records[2].delay_source(), None);
    // The answer's body ("ok"), read in full before the record was made.
    assert_eq!(records[2].facts.bytes_read, Some(2));
}

#[test]
fn records_equal_in_what_they_say_are_equal_whatever_their_timing() {
    use evident_core::AttemptRecord;
    use evident_core::decide::{Decision, StopReason};
    let a = AttemptRecord::answered(0, 200, Decision::Stop(StopReason::Succeeded));
    let b = a
        .with_timing(Duration::from_secs(1), Duration::from_millis(5))
        .with_facts(EvidenceFacts {
            connection_reused: Some(true),
            ..EvidenceFacts::default()
        });
    assert_eq!(a, b);
}

#[test]
fn a_records_display_says_its_decision_as_the_decision_does_without_the_delay() {
    use evident_core::AttemptRecord;
    use evident_core::decide::{Decision, RetryReason, StopReason};
    let retry = Decision::Retry {
        reason: RetryReason::RetryableStatus,
        after: Duration::from_millis(250),
        delay: DelaySource::RetryAfter,
    };
    let stop = Decision::Stop(StopReason::Succeeded);
    assert_eq!(retry.to_string(), "retry(retryable_status) after 250 ms");
    assert_eq!(
        AttemptRecord::answered(0, 503, retry).to_string(),
        "#0 status:503 -> retry(retryable_status)"
    );
    assert_eq!(stop.to_string(), "stop(succeeded)");
    assert_eq!(
        AttemptRecord::answered(1, 200, stop).to_string(),
        "#1 status:200 -> stop(succeeded)"
    );
}

#[tokio::test(start_paused = true)]
async fn the_record_of_an_attempt_a_drain_cancelled_is_timed_at_the_drain() {
    let client = ClientBuilder::new()
        .pipeline(PipelineConfig::disabled())
        .build(ScriptedEngine::new([
            Step::respond(503, "").header("retry-after", "60")
        ]))
        .unwrap();
    let call = {
        let client = client.clone();
        tokio::spawn(async move {
            let request = http::Request::get("http://127.0.0.1:8080/")
                .body(Body::Empty)
                .unwrap();
            client
                .execute(request, CallOptions::new().idempotent())
                .await
        })
    };
    tokio::time::sleep(Duration::from_secs(5)).await;
    client.drain();
    let err = call.await.unwrap().unwrap_err();
    let records = err.attempts();
    assert_eq!(records.len(), 2, "{records:?}");
    assert_eq!(
        records[1].rejection,
        Some(evident_core::RejectionKind::Draining)
    );
    assert_eq!(
        (records[1].started, records[1].duration),
        (Duration::from_secs(5), Duration::ZERO)
    );
}
