//! Table-driven tests of the shared classification: every signal at every
//! reachable stage, plus the properties the decision depends on.

use std::io::ErrorKind;

use proptest::prelude::*;

use super::*;
use crate::failure::ExecutionEvidence::{self, *};
use crate::failure::FailureCategory as C;
use crate::progress::{Progress, ProgressSnapshot};

/// The progress an exactly-counting adapter records when an attempt fails
/// while in `stage` (on a fresh connection).
fn counted_at(stage: AttemptStage) -> ProgressSnapshot {
    let p = Progress::new();
    p.counts_writes_exactly();
    p.connection_reused(false);
    for s in AttemptStage::ALL {
        if s > stage {
            break;
        }
        p.enter(s);
        match s {
            AttemptStage::WriteBody => {
                p.wrote(100);
                p.head_written();
            }
            AttemptStage::AwaitHead => {
                p.wrote(10);
                p.body_written();
            }
            AttemptStage::ReadBody => {
                p.head_received();
                p.read(50);
            }
            _ => {}
        }
    }
    if stage == AttemptStage::WriteHead {
        p.wrote(7); // part of the head
    }
    p.snapshot()
}

/// Every signal the classifiers can report (one representative per kind of
/// payload).
fn all_signals() -> Vec<EngineSignal> {
    use EngineSignal::*;
    let mut v = vec![
        NameNotFound,
        ConnectionRefused,
        TimedOut,
        ConnectionReset,
        ConnectionClosed,
        TlsCertificate,
        TlsHandshake,
        Protocol,
        Http2RefusedStream,
        Http2GoAway(GoAwayScope::StreamExcluded),
        Http2GoAway(GoAwayScope::StreamCovered),
        Http2GoAway(GoAwayScope::Unknown),
        Http2GoAway(GoAwayScope::LastStreamId(0)),
        Http2StreamReset { reason: 2 },
        CancelledUnsent,
        Cancelled,
        RequestBody,
        ResponseTooLarge,
        Other,
    ];
    v.extend(IO_KINDS.iter().map(|&k| Io(k)));
    v
}

const IO_KINDS: [ErrorKind; 14] = [
    ErrorKind::ConnectionRefused,
    ErrorKind::ConnectionReset,
    ErrorKind::ConnectionAborted,
    ErrorKind::BrokenPipe,
    ErrorKind::UnexpectedEof,
    ErrorKind::NotConnected,
    ErrorKind::TimedOut,
    ErrorKind::WouldBlock,
    ErrorKind::InvalidData,
    ErrorKind::Interrupted,
    ErrorKind::Other,
    ErrorKind::AddrInUse,
    ErrorKind::PermissionDenied,
    ErrorKind::OutOfMemory,
];

fn triple(f: &TransportFailure) -> (AttemptStage, C, ExecutionEvidence) {
    (f.stage(), f.category(), f.evidence())
}

#[test]
fn every_signal_at_every_reachable_stage_follows_the_table() {
    use AttemptStage::*;
    // (signal, stage reached) -> expected (stage, category, evidence).
    // Derived from docs/design.md §2-§3, not from running the code.
    let rows: &[(
        EngineSignal,
        AttemptStage,
        (AttemptStage, C, ExecutionEvidence),
    )] = &[
        (
            EngineSignal::NameNotFound,
            Resolve,
            (Resolve, C::NameNotFound, NotSent),
        ),
        (
            EngineSignal::ConnectionRefused,
            Connect,
            (Connect, C::ConnectionRefused, NotSent),
        ),
        (
            EngineSignal::TimedOut,
            Resolve,
            (Resolve, C::ConnectTimeout, NotSent),
        ),
        (
            EngineSignal::TimedOut,
            Connect,
            (Connect, C::ConnectTimeout, NotSent),
        ),
        (
            EngineSignal::TimedOut,
            Tls,
            (Tls, C::ConnectTimeout, NotSent),
        ),
        (
            EngineSignal::TimedOut,
            WriteHead,
            (WriteHead, C::Timeout, SentNoResponse),
        ),
        (
            EngineSignal::TimedOut,
            WriteBody,
            (WriteBody, C::Timeout, SentNoResponse),
        ),
        (
            EngineSignal::TimedOut,
            AwaitHead,
            (AwaitHead, C::Timeout, SentNoResponse),
        ),
        (
            EngineSignal::TimedOut,
            ReadBody,
            (ReadBody, C::Timeout, Responded),
        ),
        (
            EngineSignal::TlsCertificate,
            Tls,
            (Tls, C::TlsCertificate, NotSent),
        ),
        (
            EngineSignal::TlsHandshake,
            Tls,
            (Tls, C::TlsHandshake, NotSent),
        ),
        // ureq's lazy handshake runs on the first write: still before any
        // request byte, so still a TLS failure and not sent.
        (
            EngineSignal::TlsCertificate,
            Connect,
            (Tls, C::TlsCertificate, NotSent),
        ),
        (
            EngineSignal::ConnectionReset,
            Connect,
            (Connect, C::ConnectionReset, NotSent),
        ),
        (
            EngineSignal::ConnectionReset,
            Tls,
            (Tls, C::ConnectionReset, NotSent),
        ),
        (
            EngineSignal::ConnectionReset,
            WriteHead,
            (WriteHead, C::ConnectionReset, SentNoResponse),
        ),
        (
            EngineSignal::ConnectionReset,
            WriteBody,
            (WriteBody, C::ConnectionReset, SentNoResponse),
        ),
        (
            EngineSignal::ConnectionReset,
            AwaitHead,
            (AwaitHead, C::ConnectionReset, SentNoResponse),
        ),
        (
            EngineSignal::ConnectionReset,
            ReadBody,
            (ReadBody, C::ConnectionReset, Responded),
        ),
        (
            EngineSignal::ConnectionClosed,
            AwaitHead,
            (AwaitHead, C::ConnectionClosed, SentNoResponse),
        ),
        (
            EngineSignal::ConnectionClosed,
            ReadBody,
            (ReadBody, C::ConnectionClosed, Responded),
        ),
        (
            EngineSignal::Protocol,
            AwaitHead,
            (AwaitHead, C::Protocol, SentNoResponse),
        ),
        (
            EngineSignal::Protocol,
            ReadBody,
            (ReadBody, C::Protocol, Responded),
        ),
        (
            EngineSignal::Http2RefusedStream,
            WriteHead,
            (WriteHead, C::StreamRefused, NotProcessed),
        ),
        (
            EngineSignal::Http2RefusedStream,
            AwaitHead,
            (AwaitHead, C::StreamRefused, NotProcessed),
        ),
        // A response head beats a protocol signal: a REFUSED_STREAM after
        // the head is a failure of an answered request (the head is direct
        // evidence that the server acted).
        (
            EngineSignal::Http2RefusedStream,
            ReadBody,
            (ReadBody, C::StreamRefused, Responded),
        ),
        (
            EngineSignal::Http2GoAway(GoAwayScope::StreamExcluded),
            ReadBody,
            (ReadBody, C::GoAway, Responded),
        ),
        (
            EngineSignal::Http2GoAway(GoAwayScope::StreamExcluded),
            AwaitHead,
            (AwaitHead, C::GoAway, NotProcessed),
        ),
        (
            EngineSignal::Http2GoAway(GoAwayScope::StreamCovered),
            AwaitHead,
            (AwaitHead, C::GoAway, SentNoResponse),
        ),
        (
            EngineSignal::Http2GoAway(GoAwayScope::Unknown),
            AwaitHead,
            (AwaitHead, C::GoAway, SentNoResponse),
        ),
        (
            EngineSignal::Http2GoAway(GoAwayScope::StreamCovered),
            ReadBody,
            (ReadBody, C::GoAway, Responded),
        ),
        (
            EngineSignal::Http2StreamReset { reason: 2 },
            AwaitHead,
            (AwaitHead, C::StreamReset, SentNoResponse),
        ),
        (
            EngineSignal::Http2StreamReset { reason: 8 },
            WriteBody,
            (WriteBody, C::StreamReset, SentNoResponse),
        ),
        (
            EngineSignal::Http2StreamReset { reason: 2 },
            ReadBody,
            (ReadBody, C::StreamReset, Responded),
        ),
        (
            EngineSignal::Cancelled,
            Connect,
            (Connect, C::Cancelled, NotSent),
        ),
        (
            EngineSignal::Cancelled,
            AwaitHead,
            (AwaitHead, C::Cancelled, SentNoResponse),
        ),
        (
            EngineSignal::RequestBody,
            WriteBody,
            (WriteBody, C::RequestBody, SentNoResponse),
        ),
        (
            EngineSignal::ResponseTooLarge,
            ReadBody,
            (ReadBody, C::ResponseTooLarge, Responded),
        ),
        (EngineSignal::Other, Connect, (Connect, C::Other, NotSent)),
        (
            EngineSignal::Other,
            AwaitHead,
            (AwaitHead, C::Other, SentNoResponse),
        ),
        (
            EngineSignal::Io(ErrorKind::BrokenPipe),
            WriteBody,
            (WriteBody, C::ConnectionReset, SentNoResponse),
        ),
        (
            EngineSignal::Io(ErrorKind::UnexpectedEof),
            AwaitHead,
            (AwaitHead, C::ConnectionClosed, SentNoResponse),
        ),
        (
            EngineSignal::Io(ErrorKind::TimedOut),
            Connect,
            (Connect, C::ConnectTimeout, NotSent),
        ),
        (
            EngineSignal::Io(ErrorKind::InvalidData),
            AwaitHead,
            (AwaitHead, C::Protocol, SentNoResponse),
        ),
    ];
    for (signal, at, expected) in rows {
        let got = classify(*signal, &counted_at(*at));
        assert_eq!(triple(&got), *expected, "{signal:?} at {at:?}");
    }
}

#[test]
fn every_signal_at_every_stage_is_classified_without_panicking_and_consistently() {
    for signal in all_signals() {
        for stage in AttemptStage::ALL {
            let p = counted_at(stage);
            let f = classify(signal, &p);
            // Evidence never claims less progress than was recorded: after
            // a head, every failure (a protocol proof included) responded.
            if p.head_received() {
                assert_eq!(f.evidence(), Responded, "{signal:?} at {stage:?}");
            }
            if f.evidence() == NotSent {
                assert!(
                    p.still_before_write() || p.proves_nothing_written(),
                    "{signal:?} at {stage:?} claimed not sent"
                );
            }
            if f.evidence() == NotProcessed {
                assert!(matches!(
                    signal,
                    EngineSignal::Http2RefusedStream | EngineSignal::Http2GoAway(_)
                ));
            }
        }
    }
}

#[test]
fn unknown_progress_gives_the_conservative_answer() {
    let unknown = ProgressSnapshot::default();
    for signal in all_signals() {
        let f = classify(signal, &unknown);
        // Without a stage, even a pre-write signal proves nothing: only the
        // engine's own hand-back of an unwritten request does.
        match f.evidence() {
            NotSent => assert_eq!(
                signal,
                EngineSignal::CancelledUnsent,
                "{signal:?} claimed not sent without progress"
            ),
            NotProcessed => assert!(matches!(
                signal,
                EngineSignal::Http2RefusedStream
                    | EngineSignal::Http2GoAway(GoAwayScope::StreamExcluded)
            )),
            SentNoResponse => {}
            Responded => panic!("{signal:?} claimed a response without progress"),
        }
    }
    assert_eq!(
        classify(EngineSignal::TimedOut, &unknown).category(),
        C::Timeout,
        "an unknown stage is not a connect timeout"
    );
}

#[test]
fn a_pre_write_signal_contradicted_by_progress_believes_the_progress() {
    let p = counted_at(AttemptStage::AwaitHead);
    let f = classify(EngineSignal::ConnectionRefused, &p);
    assert_eq!(f.evidence(), SentNoResponse);
}

#[test]
fn nothing_written_on_a_reused_connection_proves_not_sent() {
    let p = Progress::new();
    p.counts_writes_exactly();
    p.connection_reused(true);
    p.enter(AttemptStage::WriteHead);
    let f = classify(EngineSignal::ConnectionClosed, &p.snapshot());
    assert_eq!(
        triple(&f),
        (AttemptStage::WriteHead, C::ConnectionClosed, NotSent)
    );
}

#[test]
fn a_request_handed_back_unwritten_is_not_sent_unless_progress_shows_a_write() {
    let unknown = ProgressSnapshot::default();
    let f = classify(EngineSignal::CancelledUnsent, &unknown);
    assert_eq!(f.evidence(), NotSent);
    let p = Progress::new();
    p.enter(AttemptStage::WriteHead);
    p.wrote(3);
    let f = classify(EngineSignal::CancelledUnsent, &p.snapshot());
    assert_eq!(f.evidence(), SentNoResponse);
}

/// The protocol proof wins over bytes written, but not over a response
/// head: until issue 9 this test also expected `NotProcessed` after a head,
/// which let a `REFUSED_STREAM` or GOAWAY arriving mid-body turn an answered
/// request into a "safe" retry of a request the server had acted on. See
/// `a_response_head_beats_a_later_protocol_signal`.
#[test]
fn protocol_proof_of_non_processing_wins_over_bytes_written() {
    // REFUSED_STREAM after bytes were written, on a reused connection, even
    // after the head was written and the body sent: still not processed.
    for stage in [
        AttemptStage::WriteHead,
        AttemptStage::WriteBody,
        AttemptStage::AwaitHead,
    ] {
        let p = Progress::new();
        p.counts_writes_exactly();
        p.connection_reused(true);
        p.enter(stage);
        p.wrote(4096);
        p.head_written();
        p.stream_id(5);
        let f = classify(EngineSignal::Http2RefusedStream, &p.snapshot());
        assert_eq!(f.evidence(), NotProcessed);
        assert_eq!(f.category(), C::StreamRefused);
    }
    // Also with no progress at all.
    let f = classify(
        EngineSignal::Http2RefusedStream,
        &ProgressSnapshot::default(),
    );
    assert_eq!(f.evidence(), NotProcessed);
}

#[test]
fn a_response_head_beats_a_later_protocol_signal() {
    let p = Progress::new();
    p.enter(AttemptStage::AwaitHead);
    p.head_written();
    p.body_written();
    p.stream_id(5);
    p.head_received();
    let snap = p.snapshot();
    for signal in [
        EngineSignal::Http2RefusedStream,
        EngineSignal::Http2GoAway(GoAwayScope::StreamExcluded),
        EngineSignal::Http2GoAway(GoAwayScope::LastStreamId(1)),
    ] {
        let f = classify(signal, &snap);
        assert_eq!(f.evidence(), Responded, "{signal:?}");
        assert_eq!(f.stage(), AttemptStage::ReadBody, "{signal:?}");
    }
}

#[test]
fn a_pre_write_signal_without_a_pre_write_stage_proves_nothing() {
    // An engine that cannot count bytes reports a refusal while its progress
    // says the head was on its way: the signal may be misread, so no proof.
    for stage in [
        AttemptStage::WriteHead,
        AttemptStage::WriteBody,
        AttemptStage::AwaitHead,
    ] {
        let p = Progress::new();
        p.enter(stage);
        for signal in [
            EngineSignal::NameNotFound,
            EngineSignal::ConnectionRefused,
            EngineSignal::TlsHandshake,
            EngineSignal::TlsCertificate,
        ] {
            let f = classify(signal, &p.snapshot());
            assert_eq!(f.evidence(), SentNoResponse, "{signal:?} at {stage:?}");
            assert_eq!(f.stage(), stage);
        }
    }
    // The same signal at the stage it implies, or with exact counting that
    // shows no write started, is a proof.
    let p = Progress::new();
    p.enter(AttemptStage::Connect);
    let f = classify(EngineSignal::ConnectionRefused, &p.snapshot());
    assert_eq!(f.evidence(), NotSent);
    let p = Progress::new();
    p.counts_writes_exactly();
    p.enter(AttemptStage::WriteHead);
    let f = classify(EngineSignal::ConnectionRefused, &p.snapshot());
    assert_eq!(f.evidence(), NotSent);
    // A TLS signal while connecting (ureq's lazy handshake) is still before
    // the stage it implies.
    let p = Progress::new();
    p.enter(AttemptStage::Connect);
    let f = classify(EngineSignal::TlsHandshake, &p.snapshot());
    assert_eq!(f.evidence(), NotSent);
    // A signal implying an earlier stage than the one reached is no proof:
    // a "refused" at TLS is not a connect failure.
    let p = Progress::new();
    p.enter(AttemptStage::Tls);
    let f = classify(EngineSignal::NameNotFound, &p.snapshot());
    assert_eq!(f.evidence(), SentNoResponse);
}

#[test]
fn a_write_started_but_not_yet_counted_is_never_nothing_written() {
    // The core's timer fires while the connection task is inside its first
    // write: exact counting, zero bytes, but the write started.
    let p = Progress::new();
    p.counts_writes_exactly();
    p.connection_reused(true);
    p.enter(AttemptStage::WriteHead);
    p.start_write().unwrap();
    let sealed = p.seal();
    for signal in [
        EngineSignal::TimedOut,
        EngineSignal::ConnectionClosed,
        EngineSignal::CancelledUnsent,
        EngineSignal::Io(ErrorKind::BrokenPipe),
    ] {
        let f = classify(signal, &sealed);
        assert_eq!(f.evidence(), SentNoResponse, "{signal:?}");
    }
}

#[test]
fn a_bare_stream_reset_proves_nothing() {
    for reason in [0u32, 1, 2, 5, 8, 11, 0xff] {
        for stage in [
            AttemptStage::WriteHead,
            AttemptStage::WriteBody,
            AttemptStage::AwaitHead,
        ] {
            let f = classify(
                EngineSignal::Http2StreamReset { reason },
                &counted_at(stage),
            );
            assert_eq!(f.evidence(), SentNoResponse, "reason {reason} at {stage:?}");
            assert_eq!(f.category(), C::StreamReset);
        }
    }
}

#[test]
fn stream_after_goaway_last_id_is_peer_not_processed() {
    let p = Progress::new();
    p.enter(AttemptStage::AwaitHead);
    p.head_written();
    p.stream_id(7);
    let snap = p.snapshot();
    for last in [0, 1, 3, 5] {
        let f = classify(
            EngineSignal::Http2GoAway(GoAwayScope::LastStreamId(last)),
            &snap,
        );
        assert_eq!(f.evidence(), NotProcessed, "last id {last}");
        assert_eq!(f.category(), C::GoAway);
    }
    let f = classify(
        EngineSignal::Http2GoAway(GoAwayScope::StreamExcluded),
        &snap,
    );
    assert_eq!(f.evidence(), NotProcessed);
}

#[test]
fn stream_at_or_below_goaway_last_id_stays_ambiguous() {
    let p = Progress::new();
    p.enter(AttemptStage::AwaitHead);
    p.head_written();
    p.stream_id(7);
    let snap = p.snapshot();
    for last in [7, 9, i32::MAX as u32] {
        let f = classify(
            EngineSignal::Http2GoAway(GoAwayScope::LastStreamId(last)),
            &snap,
        );
        assert_eq!(f.evidence(), SentNoResponse, "last id {last}");
    }
    // Without a known stream id, a last-stream-id proves nothing.
    let p = Progress::new();
    p.enter(AttemptStage::AwaitHead);
    let f = classify(
        EngineSignal::Http2GoAway(GoAwayScope::LastStreamId(0)),
        &p.snapshot(),
    );
    assert_eq!(f.evidence(), SentNoResponse);
    let f = classify(EngineSignal::Http2GoAway(GoAwayScope::StreamCovered), &snap);
    assert_eq!(f.evidence(), SentNoResponse);
}

/// Any progress an adapter could record, including inconsistent ones.
fn any_progress() -> impl Strategy<Value = ProgressSnapshot> {
    (
        proptest::option::of(0usize..7),
        any::<bool>(),
        prop_oneof![Just(0usize), 1usize..100_000],
        any::<[bool; 4]>(),
        proptest::option::of(any::<bool>()),
        0u32..10,
    )
        .prop_map(
            |(stage, counted, written, [hw, bw, hr, started], reused, sid)| {
                let p = Progress::new();
                if let Some(s) = stage {
                    p.enter(AttemptStage::ALL[s]);
                }
                if counted {
                    p.counts_writes_exactly();
                }
                if started {
                    p.start_write().unwrap();
                }
                p.wrote(written);
                if hw {
                    p.head_written();
                }
                if bw {
                    p.body_written();
                }
                if hr {
                    p.head_received();
                }
                if let Some(r) = reused {
                    p.connection_reused(r);
                }
                p.stream_id(sid);
                p.snapshot()
            },
        )
}

proptest! {
    #[test]
    fn no_signal_at_a_post_write_stage_gives_not_sent_without_exact_zero_counting(
        signal in proptest::sample::select(all_signals()),
        progress in any_progress(),
    ) {
        // Only the engine's own hand-back of an unwritten request is a proof
        // that does not come from the progress (hyper guarantees it); every
        // other signal, pre-write ones included, needs the progress.
        prop_assume!(signal != EngineSignal::CancelledUnsent);
        let post_write = progress
            .stage()
            .is_none_or(|stage| stage.pre_write().is_none());
        let f = classify(signal, &progress);
        if post_write && f.evidence() == NotSent {
            prop_assert!(
                progress.writes_counted_exactly()
                    && progress.bytes_written() == 0
                    && !progress.write_started(),
                "{:?} claimed not sent at {:?}",
                signal,
                progress
            );
        }
        if progress.write_started() {
            prop_assert_ne!(f.evidence(), NotSent, "{:?} after a write started", signal);
        }
    }

    #[test]
    fn generic_io_failure_is_never_promoted_to_not_sent(
        kind in proptest::sample::select(IO_KINDS.to_vec()),
        progress in any_progress(),
    ) {
        let f = classify(EngineSignal::Io(kind), &progress);
        // A generic I/O error never proves anything by itself: "not sent"
        // only when the progress alone already proves it, and never "not
        // processed".
        prop_assert_ne!(f.evidence(), NotProcessed);
        if f.evidence() == NotSent {
            prop_assert!(progress.still_before_write() || progress.proves_nothing_written());
        }
        // And whatever the kind, the answer is never more optimistic than
        // for an unknown failure at the same progress.
        let baseline = classify(EngineSignal::Other, &progress);
        prop_assert_eq!(f.evidence(), baseline.evidence());
    }

    #[test]
    fn classification_never_claims_less_progress_than_recorded(
        signal in proptest::sample::select(all_signals()),
        progress in any_progress(),
    ) {
        let f = classify(signal, &progress);
        if let Some(stage) = progress.stage()
            && f.evidence() != NotSent {
                prop_assert!(f.stage() >= stage, "{:?} reported {:?} after reaching {:?}", signal, f.stage(), stage);
            }
        if f.evidence() == NotSent && (progress.bytes_written() > 0 || progress.head_written()) {
            prop_assert!(false, "{:?} claimed not sent after a recorded write", signal);
        }
    }
}

#[test]
fn only_an_abandoned_attempt_loses_its_stage_proof_when_the_seal_may_not_hold() {
    // An engine whose transfer runs on a thread no seal stops (isahc's
    // curl agent): the core's timer fires while the stage still shows
    // `connect`, but the transfer may already be writing.
    let abandoned = Progress::new();
    abandoned.enter(AttemptStage::Connect);
    abandoned.seal_may_not_hold();
    let f = classify(EngineSignal::TimedOut, &abandoned.abandon());
    assert_eq!(f.evidence(), SentNoResponse);
    assert_eq!(f.stage(), AttemptStage::Connect);
    // The same engine returned the timeout itself, its transfer over and
    // never connected: the stage still proves it.
    let returned = Progress::new();
    returned.enter(AttemptStage::Connect);
    returned.seal_may_not_hold();
    let f = classify(EngineSignal::TimedOut, &returned.seal());
    assert_eq!(f.evidence(), NotSent);
    // A seal that holds keeps the proof either way.
    let holds = Progress::new();
    holds.enter(AttemptStage::Connect);
    let f = classify(EngineSignal::TimedOut, &holds.abandon());
    assert_eq!(f.evidence(), NotSent);
}

/// The contract's rule for early and late facts, fact by fact: a weakening
/// fact reported early can only take a claim away; a strengthening fact
/// makes a claim, so reporting it before it happened would make a false
/// one. (Each engine's own tests check when it reports them.)
#[test]
fn each_fact_moves_the_record_the_way_the_contract_says() {
    let at_connect = || {
        let p = Progress::new();
        p.enter(AttemptStage::Connect);
        p
    };
    assert_eq!(
        classify(EngineSignal::ConnectionClosed, &at_connect().snapshot()).evidence(),
        NotSent
    );
    // Weakening: each one, early, ends "not sent" and claims nothing new.
    type Report = fn(&Progress);
    let weakening: [(&str, Report); 4] = [
        ("enter(WriteHead)", |p| p.enter(AttemptStage::WriteHead)),
        ("start_write", |p| {
            let _ = p.start_write();
        }),
        ("wrote", |p| p.wrote(1)),
        ("seal_may_not_hold", |p| p.seal_may_not_hold()),
    ];
    for (fact, report) in weakening {
        let p = at_connect();
        report(&p);
        let seen = if fact == "seal_may_not_hold" {
            p.abandon()
        } else {
            p.snapshot()
        };
        let signal = if fact == "seal_may_not_hold" {
            EngineSignal::TimedOut
        } else {
            EngineSignal::ConnectionClosed
        };
        let f = classify(signal, &seen);
        assert_eq!(f.evidence(), SentNoResponse, "{fact}");
        assert!(!seen.head_written() && !seen.head_received(), "{fact}");
    }
    // Strengthening: each one makes a claim that is false if the thing
    // had not happened yet.
    let written_stage = || {
        let p = Progress::new();
        p.enter(AttemptStage::WriteHead);
        p
    };
    let counted = written_stage();
    counted.counts_writes_exactly();
    assert_eq!(
        classify(EngineSignal::ConnectionClosed, &counted.snapshot()).evidence(),
        NotSent,
        "exact counting: zero bytes proves not sent"
    );
    let head = written_stage();
    head.head_written();
    assert!(
        head.snapshot().head_written(),
        "a key in the head counts as sent"
    );
    let body = written_stage();
    body.body_written();
    assert!(
        body.snapshot().head_written(),
        "a written body implies the head"
    );
    let answered = written_stage();
    answered.head_received();
    assert_eq!(
        classify(EngineSignal::ConnectionReset, &answered.snapshot()).evidence(),
        Responded,
        "a response head: the server answered"
    );
    let stream = written_stage();
    stream.head_written();
    stream.stream_id(5);
    assert_eq!(
        classify(
            EngineSignal::Http2GoAway(GoAwayScope::LastStreamId(3)),
            &stream.snapshot()
        )
        .evidence(),
        NotProcessed,
        "a stream id above the GOAWAY's last id proves not processed"
    );
}
