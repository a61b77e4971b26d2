//! The decision rules, one behaviour per test.

use std::sync::Arc;
use std::time::{Duration, Instant};

use http::StatusCode;
use proptest::prelude::*;

use super::*;
use crate::failure::{ExecutionEvidence as E, FailureCategory as C};

fn policy() -> RetryPolicy {
    RetryPolicy::builder()
        .max_attempts(5)
        .jitter(0.0)
        .no_budget()
        .build()
        .unwrap()
}

fn ctx(idempotency: Idempotency) -> RetryContext {
    RetryContext {
        attempts_made: 1,
        attempts_allowed: 5,
        body: BodyReplay::Replayable,
        response_delivered: false,
        draining: false,
        remaining: None,
        min_attempt_time: Duration::from_millis(50),
        idempotency,
    }
}

fn failed(category: C, evidence: E) -> Outcome {
    Outcome::Failed { category, evidence }
}

fn answered(code: u16, retry_after: Option<Duration>) -> Outcome {
    Outcome::Answered {
        status: StatusCode::from_u16(code).unwrap(),
        retry_after,
    }
}

fn decide(ctx: &RetryContext, outcome: Outcome) -> Decision {
    policy().decide(ctx, &outcome, Instant::now())
}

#[test]
fn not_sent_is_retried_whatever_the_idempotency() {
    for idem in Idempotency::ALL {
        for category in [
            C::ConnectionRefused,
            C::ConnectTimeout,
            C::TlsHandshake,
            C::ConnectionClosed,
        ] {
            let d = decide(&ctx(idem), failed(category, E::NotSent));
            assert!(
                matches!(
                    d,
                    Decision::Retry {
                        reason: RetryReason::NotSent,
                        ..
                    }
                ),
                "{category:?} / {idem:?}: {d}"
            );
        }
        let d = decide(&ctx(idem), failed(C::StreamRefused, E::NotProcessed));
        assert!(matches!(
            d,
            Decision::Retry {
                reason: RetryReason::NotProcessed,
                ..
            }
        ));
    }
}

#[test]
fn ambiguous_failures_retry_only_when_safely_idempotent() {
    for evidence in [E::SentNoResponse, E::Responded] {
        for idem in Idempotency::ALL {
            let d = decide(&ctx(idem), failed(C::Timeout, evidence));
            if idem.safely_idempotent() {
                assert!(matches!(
                    d,
                    Decision::Retry {
                        reason: RetryReason::SafelyIdempotent,
                        ..
                    }
                ));
            } else {
                assert_eq!(d, Decision::Stop(StopReason::NotIdempotent), "{idem:?}");
            }
        }
    }
}

#[test]
fn permanent_categories_stop_even_when_not_sent() {
    for category in C::ALL.into_iter().filter(|c| c.is_permanent()) {
        let d = decide(&ctx(Idempotency::Declared), failed(category, E::NotSent));
        assert_eq!(
            d,
            Decision::Stop(StopReason::PermanentFailure),
            "{category:?}"
        );
    }
}

#[test]
fn answered_statuses_do_not_retry_a_non_idempotent_operation() {
    for code in [429, 500, 502, 503, 504] {
        for idem in [Idempotency::None, Idempotency::KeyNotSent] {
            let d = decide(&ctx(idem), answered(code, None));
            assert_eq!(
                d,
                Decision::Stop(StopReason::StatusNotIdempotent),
                "{code} {idem:?}"
            );
        }
        for idem in [Idempotency::Declared, Idempotency::KeySent] {
            let d = decide(&ctx(idem), answered(code, None));
            assert!(matches!(
                d,
                Decision::Retry {
                    reason: RetryReason::RetryableStatus,
                    ..
                }
            ));
        }
    }
    for code in [400, 401, 403, 404, 409, 422, 501, 505] {
        let d = decide(&ctx(Idempotency::Declared), answered(code, None));
        assert_eq!(d, Decision::Stop(StopReason::StatusNotRetryable), "{code}");
    }
    for code in [200, 201, 204] {
        let d = decide(&ctx(Idempotency::Declared), answered(code, None));
        assert_eq!(d, Decision::Stop(StopReason::Succeeded));
    }
}

/// draft-ietf-httpapi-idempotency-key-header: to a call whose key was
/// sent, 409 means "a request with this key is in progress" (retry, after
/// `Retry-After` when given, within the deadline) and 422 means "this key
/// was reused with another payload" (never retried). Without a sent key
/// both are ordinary answers.
#[test]
fn a_sent_keys_replies_have_their_own_reasons_and_only_for_a_sent_key() {
    let in_progress = decide(&ctx(Idempotency::KeySent), answered(409, None));
    assert!(
        matches!(
            in_progress,
            Decision::Retry {
                reason: RetryReason::KeyInProgress,
                delay: DelaySource::Backoff,
                ..
            }
        ),
        "{in_progress:?}"
    );
    let waited = decide(
        &ctx(Idempotency::KeySent),
        answered(409, Some(Duration::from_secs(2))),
    );
    assert_eq!(
        waited,
        Decision::Retry {
            reason: RetryReason::KeyInProgress,
            after: Duration::from_secs(2),
            delay: DelaySource::RetryAfter,
        }
    );
    let mut near_deadline = ctx(Idempotency::KeySent);
    near_deadline.remaining = Some(Duration::from_secs(1));
    assert_eq!(
        policy().decide(
            &near_deadline,
            &answered(409, Some(Duration::from_secs(2))),
            Instant::now()
        ),
        Decision::Stop(StopReason::RetryAfterBeyondDeadline)
    );
    let mut last = ctx(Idempotency::KeySent);
    last.attempts_made = last.attempts_allowed;
    assert_eq!(
        policy().decide(&last, &answered(409, None), Instant::now()),
        Decision::Stop(StopReason::AttemptsExhausted)
    );
    assert_eq!(
        decide(&ctx(Idempotency::KeySent), answered(422, None)),
        Decision::Stop(StopReason::KeyReused)
    );
    for idem in [
        Idempotency::None,
        Idempotency::Declared,
        Idempotency::KeyNotSent,
    ] {
        for code in [409, 422] {
            assert_eq!(
                decide(&ctx(idem), answered(code, None)),
                Decision::Stop(StopReason::StatusNotRetryable),
                "{code} {idem:?}"
            );
        }
    }
    // A missing key's 400 is an ordinary answer.
    assert_eq!(
        decide(&ctx(Idempotency::KeySent), answered(400, None)),
        Decision::Stop(StopReason::StatusNotRetryable)
    );
}

/// 408, 421 and 425 prove by their RFCs that the request was not processed
/// (docs/design.md §4 rule 4): retried whatever the idempotency, each with its
/// own reason.
#[test]
fn statuses_that_prove_non_processing_retry_whatever_the_idempotency() {
    for (code, reason) in [
        (408, RetryReason::RequestTimeout),
        (421, RetryReason::MisdirectedRequest),
        (425, RetryReason::TooEarly),
    ] {
        for idem in Idempotency::ALL {
            let d = decide(&ctx(idem), answered(code, None));
            assert!(
                matches!(d, Decision::Retry { reason: r, delay: DelaySource::Backoff, .. } if r == reason),
                "{code} {idem:?}: {d}"
            );
        }
    }
    assert_eq!(RetryReason::RequestTimeout.as_str(), "request_timeout");
    assert_eq!(
        RetryReason::MisdirectedRequest.as_str(),
        "misdirected_request"
    );
    assert_eq!(RetryReason::TooEarly.as_str(), "too_early");
}

#[test]
fn statuses_that_prove_non_processing_still_obey_the_blockers_the_delay_and_the_budget() {
    for code in [408, 421, 425] {
        // Absolute blockers come first.
        let mut c = ctx(Idempotency::None);
        c.body = BodyReplay::OneShot;
        assert_eq!(
            decide(&c, answered(code, None)),
            Decision::Stop(StopReason::BodyNotReplayable)
        );
        let mut c = ctx(Idempotency::None);
        c.attempts_made = c.attempts_allowed;
        assert_eq!(
            decide(&c, answered(code, None)),
            Decision::Stop(StopReason::AttemptsExhausted)
        );
        let mut c = ctx(Idempotency::None);
        c.response_delivered = true;
        assert_eq!(
            decide(&c, answered(code, None)),
            Decision::Stop(StopReason::ResponseDelivered)
        );
        let mut c = ctx(Idempotency::None);
        c.draining = true;
        assert_eq!(
            decide(&c, answered(code, None)),
            Decision::Stop(StopReason::Draining)
        );
        let mut c = ctx(Idempotency::None);
        c.remaining = Some(c.min_attempt_time);
        assert_eq!(
            decide(&c, answered(code, None)),
            Decision::Stop(StopReason::DeadlineTooShort)
        );
        // The Retry-After rule: honoured exactly inside the deadline...
        let mut c = ctx(Idempotency::None);
        c.remaining = Some(Duration::from_secs(10));
        let d = decide(&c, answered(code, Some(Duration::from_secs(3))));
        assert!(matches!(
            d,
            Decision::Retry { after, delay: DelaySource::RetryAfter, .. } if after == Duration::from_secs(3)
        ));
        // ...and a stop when it does not fit.
        let d = decide(&c, answered(code, Some(Duration::from_secs(30))));
        assert_eq!(d, Decision::Stop(StopReason::RetryAfterBeyondDeadline));
        // The budget is consulted last.
        // An empty budget: no deposits, no floor.
        let budget = Arc::new(RetryBudget::new(0.0, 0, Duration::from_secs(1)));
        let p = RetryPolicy::builder()
            .jitter(0.0)
            .shared_budget(budget)
            .build()
            .unwrap();
        let d = p.decide(
            &ctx(Idempotency::None),
            &answered(code, None),
            Instant::now(),
        );
        assert_eq!(d, Decision::Stop(StopReason::BudgetExhausted), "{code}");
    }
}

#[test]
fn denies_one_shot_body_even_when_declared_idempotent() {
    let mut c = ctx(Idempotency::Declared);
    c.body = BodyReplay::OneShot;
    for outcome in [
        failed(C::ConnectionRefused, E::NotSent),
        answered(503, None),
    ] {
        assert_eq!(
            decide(&c, outcome),
            Decision::Stop(StopReason::BodyNotReplayable)
        );
    }
}

#[test]
fn a_key_that_was_never_sent_does_not_make_a_repeat_safe() {
    assert!(!Idempotency::KeyNotSent.safely_idempotent());
    assert!(Idempotency::KeySent.safely_idempotent());
    let d = decide(
        &ctx(Idempotency::KeyNotSent),
        failed(C::ConnectionReset, E::SentNoResponse),
    );
    assert_eq!(d, Decision::Stop(StopReason::NotIdempotent));
    let d = decide(
        &ctx(Idempotency::KeySent),
        failed(C::ConnectionReset, E::SentNoResponse),
    );
    assert!(d.is_retry());
}

#[test]
fn honors_retry_after_only_inside_deadline() {
    let mut c = ctx(Idempotency::Declared);
    c.remaining = Some(Duration::from_secs(10));
    // Fits: 3 s wait + 50 ms attempt < 10 s.
    let d = decide(&c, answered(503, Some(Duration::from_secs(3))));
    assert_eq!(
        d,
        Decision::Retry {
            reason: RetryReason::RetryableStatus,
            after: Duration::from_secs(3),
            delay: DelaySource::RetryAfter
        }
    );
    // Does not fit: stop rather than shorten.
    for wait in [9_951, 10_000, 60_000] {
        let d = decide(&c, answered(503, Some(Duration::from_millis(wait))));
        assert_eq!(
            d,
            Decision::Stop(StopReason::RetryAfterBeyondDeadline),
            "{wait} ms"
        );
    }
    // Without a deadline, a Retry-After beyond the ceiling stops.
    let c = ctx(Idempotency::Declared);
    let d = decide(
        &c,
        answered(
            429,
            Some(DEFAULT_RETRY_AFTER_CEILING + Duration::from_secs(1)),
        ),
    );
    assert_eq!(d, Decision::Stop(StopReason::RetryAfterBeyondCeiling));
    let d = decide(&c, answered(429, Some(DEFAULT_RETRY_AFTER_CEILING)));
    assert!(d.is_retry());
    let d = decide(&c, answered(429, Some(Duration::MAX)));
    assert_eq!(d, Decision::Stop(StopReason::RetryAfterBeyondCeiling));
}

#[test]
fn honored_retry_after_is_not_clipped_by_max_backoff() {
    let p = RetryPolicy::builder()
        .max_backoff(Duration::from_secs(1))
        .base_backoff(Duration::from_millis(100))
        .no_budget()
        .build()
        .unwrap();
    let d = p.decide(
        &ctx(Idempotency::Declared),
        &answered(503, Some(Duration::from_secs(30))),
        Instant::now(),
    );
    assert_eq!(
        d,
        Decision::Retry {
            reason: RetryReason::RetryableStatus,
            after: Duration::from_secs(30),
            delay: DelaySource::RetryAfter
        }
    );
}

#[test]
fn backoff_grows_and_is_capped_by_the_deadline() {
    let p = policy();
    let mut c = ctx(Idempotency::None);
    let out = failed(C::ConnectionRefused, E::NotSent);
    let delays: Vec<_> = (1..=4)
        .map(|n| {
            c.attempts_made = n;
            match p.decide(&c, &out, Instant::now()) {
                Decision::Retry {
                    after,
                    delay: DelaySource::Backoff,
                    ..
                } => after.as_millis(),
                d => panic!("{d}"),
            }
        })
        .collect();
    assert_eq!(delays, [100, 200, 400, 800]);
    c.attempts_made = 4;
    c.remaining = Some(Duration::from_millis(300));
    match p.decide(&c, &out, Instant::now()) {
        Decision::Retry { after, .. } => assert_eq!(after, Duration::from_millis(250)),
        d => panic!("{d}"),
    }
}

#[test]
fn blockers_stop_in_their_order() {
    let out = failed(C::ConnectionRefused, E::NotSent);
    let mut c = ctx(Idempotency::Declared);
    c.attempts_made = 5;
    c.body = BodyReplay::OneShot;
    c.response_delivered = true;
    c.draining = true;
    c.remaining = Some(Duration::from_millis(10));
    let mut expected = vec![
        StopReason::AttemptsExhausted,
        StopReason::BodyNotReplayable,
        StopReason::ResponseDelivered,
        StopReason::Draining,
        StopReason::DeadlineTooShort,
    ];
    expected.reverse();
    while let Some(reason) = expected.pop() {
        assert_eq!(decide(&c, out), Decision::Stop(reason));
        match reason {
            StopReason::AttemptsExhausted => c.attempts_made = 1,
            StopReason::BodyNotReplayable => c.body = BodyReplay::Replayable,
            StopReason::ResponseDelivered => c.response_delivered = false,
            StopReason::Draining => c.draining = false,
            _ => c.remaining = None,
        }
    }
    assert!(decide(&c, out).is_retry());
}

#[test]
fn a_stopped_decision_never_spends_budget() {
    let budget = Arc::new(RetryBudget::new(0.0, 1, Duration::from_secs(1)));
    let p = RetryPolicy::builder()
        .shared_budget(budget.clone())
        .jitter(0.0)
        .build()
        .unwrap();
    let now = Instant::now();
    assert_eq!(budget.remaining(now), 1);
    // Every kind of stop, many times: the single token stays.
    let mut one_shot = ctx(Idempotency::Declared);
    one_shot.body = BodyReplay::OneShot;
    let mut close_deadline = ctx(Idempotency::Declared);
    close_deadline.remaining = Some(Duration::from_secs(1));
    let stops = [
        (
            ctx(Idempotency::None),
            failed(C::Timeout, E::SentNoResponse),
        ),
        (
            ctx(Idempotency::Declared),
            failed(C::Protocol, E::SentNoResponse),
        ),
        (ctx(Idempotency::None), answered(503, None)),
        (ctx(Idempotency::Declared), answered(404, None)),
        (ctx(Idempotency::Declared), answered(200, None)),
        (one_shot, failed(C::ConnectionRefused, E::NotSent)),
        (close_deadline, answered(503, Some(Duration::from_secs(5)))),
    ];
    for _ in 0..10 {
        for (c, o) in &stops {
            assert!(!p.decide(c, o, now).is_retry());
        }
    }
    assert_eq!(budget.remaining(now), 1);
    // A retry spends it; the next retry is stopped by the budget.
    let c = ctx(Idempotency::None);
    let o = failed(C::ConnectionRefused, E::NotSent);
    assert!(p.decide(&c, &o, now).is_retry());
    assert_eq!(budget.remaining(now), 0);
    assert_eq!(
        p.decide(&c, &o, now),
        Decision::Stop(StopReason::BudgetExhausted)
    );
}

fn any_idempotency() -> impl Strategy<Value = Idempotency> {
    proptest::sample::select(Idempotency::ALL.to_vec())
}

fn any_outcome() -> impl Strategy<Value = Outcome> {
    prop_oneof![
        (
            proptest::sample::select(C::ALL.to_vec()),
            proptest::sample::select(E::ALL.to_vec())
        )
            .prop_map(|(category, evidence)| Outcome::Failed { category, evidence }),
        (
            300u16..600,
            proptest::option::of((0u64..200_000).prop_map(Duration::from_millis))
        )
            .prop_map(|(code, retry_after)| Outcome::Answered {
                status: StatusCode::from_u16(code).unwrap(),
                retry_after
            }),
    ]
}

fn any_context() -> impl Strategy<Value = RetryContext> {
    (
        1u32..8,
        1u32..8,
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        proptest::option::of((0u64..120_000).prop_map(Duration::from_millis)),
        (1u64..500).prop_map(Duration::from_millis),
        any_idempotency(),
    )
        .prop_map(
            |(made, allowed, one_shot, delivered, draining, remaining, min, idem)| RetryContext {
                attempts_made: made,
                attempts_allowed: allowed,
                body: if one_shot {
                    BodyReplay::OneShot
                } else {
                    BodyReplay::Replayable
                },
                response_delivered: delivered,
                draining,
                remaining,
                min_attempt_time: min,
                idempotency: idem,
            },
        )
}

/// The first blocker of rule 1 that applies, computed independently.
fn earliest_blocker(c: &RetryContext) -> Option<StopReason> {
    [
        (
            c.attempts_made >= c.attempts_allowed,
            StopReason::AttemptsExhausted,
        ),
        (c.body == BodyReplay::OneShot, StopReason::BodyNotReplayable),
        (c.response_delivered, StopReason::ResponseDelivered),
        (c.draining, StopReason::Draining),
        (
            c.remaining.is_some_and(|r| r <= c.min_attempt_time),
            StopReason::DeadlineTooShort,
        ),
    ]
    .into_iter()
    .find_map(|(applies, reason)| applies.then_some(reason))
}

proptest! {
    #[test]
    fn a_later_rule_never_reenables_what_an_earlier_rule_forbade(
        c in any_context(),
        outcome in any_outcome(),
        seed in any::<u64>(),
    ) {
        let p = RetryPolicy::builder()
            .random(Arc::new(XorShiftRandom::seeded(seed)))
            .budget(BudgetConfig { ratio: 0.5, min_per_sec: 1, ttl: Duration::from_secs(1) })
            .build()
            .unwrap();
        let d = p.decide(&c, &outcome, Instant::now());
        if let Some(blocker) = earliest_blocker(&c) {
            prop_assert_eq!(d, Decision::Stop(blocker));
            return Ok(());
        }
        match outcome {
            Outcome::Failed { category, evidence } => {
                if category.is_permanent() {
                    prop_assert_eq!(d, Decision::Stop(StopReason::PermanentFailure));
                } else if !evidence.proves_not_executed() && !c.idempotency.safely_idempotent() {
                    prop_assert_eq!(d, Decision::Stop(StopReason::NotIdempotent));
                }
            }
            Outcome::Answered { status, .. } => {
                // A reason proving nothing processed, then a sent key's own
                // replies (409 in progress, 422 reused), before the classes.
                let own_rule = status_proves_not_processed(status)
                    .map(Ok)
                    .or_else(|| idempotency_key_reply(status, c.idempotency));
                if let Some(meaning) = own_rule {
                    match meaning {
                        // Retried for that reason, unless the wait or the
                        // budget stops it.
                        Ok(reason) => prop_assert!(
                            matches!(d, Decision::Retry { reason: r, .. } if r == reason)
                                || matches!(
                                    d,
                                    Decision::Stop(
                                        StopReason::RetryAfterBeyondDeadline
                                            | StopReason::RetryAfterBeyondCeiling
                                            | StopReason::BudgetExhausted
                                    )
                                ),
                            "{} gave {}", status, d
                        ),
                        Err(stop) => prop_assert_eq!(d, Decision::Stop(stop)),
                    }
                } else if !is_retryable_status(status) {
                    prop_assert_eq!(d, Decision::Stop(StopReason::StatusNotRetryable));
                } else if !c.idempotency.safely_idempotent() {
                    prop_assert_eq!(d, Decision::Stop(StopReason::StatusNotIdempotent));
                }
            }
        }
        if let Decision::Retry { after, .. } = d {
            // A retry always leaves time for the next attempt.
            if let Some(remaining) = c.remaining {
                prop_assert!(after + c.min_attempt_time <= remaining);
            }
        }
    }
}
