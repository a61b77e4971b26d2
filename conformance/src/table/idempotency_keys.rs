//! Idempotency keys: a sent key makes an ambiguous POST safe to retry, a
//! key the server is still processing (409) or saw with another payload
//! (422), a key that never left, and a 409 without a key.

use std::time::Duration;

use evident_core::AttemptStage as S;
use evident_core::ExecutionEvidence as E;
use evident_core::FailureCategory as C;
use evident_core::decide::{RetryReason as R, StopReason as X};

use super::{after_write, h1, ok, retry, status, stop, succeeded};
use crate::lab::Http1Behaviour as H1;
use crate::scenario::{DelayCheck, Expect, Fault, Scenario, ScenarioCall};

/// Padding of the request head that never fully leaves: twice Linux's
/// largest default send buffer (4 MiB), against a server that never reads
/// and fixes its receive buffer at a few KiB.
const HEAD_PADDING: usize = 2 * 4 * 1024 * 1024;

/// The idempotency-key scenarios, in table order.
pub(super) fn scenarios() -> Vec<Scenario> {
    vec![
        Scenario::one_call(
            "idempotency_key_after_ambiguous_failure",
            "a POST whose key was sent is retried; the server sees the key twice and acts once",
            h1(vec![
                H1::CloseAfterRequest { execute: true },
                H1::Respond(ok()),
            ]),
            ScenarioCall::post().with_key(),
            vec![
                after_write(C::ConnectionClosed, retry(R::SafelyIdempotent)),
                succeeded(),
            ],
            1,
        )
        .key_receipts(2),
        Scenario::one_call(
            "idempotency_key_in_progress",
            "409 to a call whose key was sent: that key is still being processed; retried after its Retry-After",
            h1(vec![
                H1::Respond(status(409).header("retry-after", "1")),
                H1::Respond(ok()),
            ]),
            ScenarioCall::post().with_key(),
            vec![
                Expect::answered(409, retry(R::KeyInProgress))
                    .delay(DelayCheck::Exactly(Duration::from_secs(1))),
                succeeded(),
            ],
            1,
        )
        .key_receipts(2),
        Scenario::one_call(
            "idempotency_key_reused",
            "422 to a call whose key was sent: the key was reused with another payload; never retried",
            h1(vec![H1::Respond(status(422)), H1::Respond(ok())]),
            ScenarioCall::post().with_key(),
            vec![Expect::answered(422, stop(X::KeyReused))],
            0,
        )
        .key_receipts(1),
        Scenario::one_call(
            "conflict_without_a_key",
            "without a sent key, 409 is an ordinary answer, even for a declared-idempotent call",
            h1(vec![
                H1::Respond(status(409).header("retry-after", "1")),
                H1::Respond(ok()),
            ]),
            ScenarioCall::post().idempotent(),
            vec![Expect::answered(409, stop(X::StatusNotRetryable))],
            0,
        ),
        // A declared idempotency key whose head never fully left: the
        // server never reads and the head is larger than every buffer, so
        // the timer fires in write_head with bytes written →
        // sent_no_response. The key was registered but never sent, which
        // is not `safely_idempotent()` → rule 3 stops. The server never
        // received a request, let alone the key.
        Scenario::one_call(
            "idempotency_key_head_never_left",
            "a key in a head that never fully left does not make the call safely idempotent",
            Fault::NeverReads,
            ScenarioCall::post().with_key().pad_head(HEAD_PADDING),
            vec![Expect::failed(
                S::WriteHead,
                C::Timeout,
                E::SentNoResponse,
                stop(X::NotIdempotent),
            )],
            0,
        )
        .requests(0),
    ]
}
