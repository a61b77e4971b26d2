//! Conformance for evident: the same fault gives the same classification,
//! the same retry decision, the same observation and the same number of
//! executions on the server, on every engine.
//!
//! * [`lab`]: real-socket loopback fault servers (TCP, TLS, HTTP/1.1,
//!   HTTP/2) with a ledger counting executions where they happen.
//! * [`scenario`] and [`table`]: what each scenario does and the attempt
//!   records and execution count the rules predict.
//! * [`harness`]: runs a scenario on an engine ([`harness::Driver`]).
//! * [`runner`] and [`report`]: the parity matrix, as Markdown and JSON.
//! * [`engines`]: the engines built in (by features).
//!
//! A new engine plugs in with a [`harness::Driver`] and one line in its test
//! target:
//!
//! ```no_run
//! evident_conformance::conformance_tests!(evident_conformance::engines::hyper());
//! ```
#![warn(missing_docs, unreachable_pub, rust_2018_idioms)]
#![forbid(unsafe_code)]

pub mod engines;
pub mod harness;
pub mod lab;
pub mod report;
pub mod runner;
pub mod scenario;
pub mod table;

/// Generates one `#[test]` per scenario of the table, each running the
/// scenario on the driver, plus a test that the list matches the table.
#[macro_export]
macro_rules! conformance_tests {
    ($driver:expr) => {
        $crate::__conformance_tests!(
            $driver;
            ok_200,
            ok_200_tls,
            name_not_found,
            connection_refused,
            connect_timeout,
            tls_untrusted_certificate,
            tls_closed_during_handshake,
            two_addresses_refused_then_untrusted,
            two_addresses_untrusted_then_refused,
            closed_after_request,
            closed_after_request_idempotent,
            reset_after_request,
            never_answers,
            never_answers_idempotent,
            partial_head_then_close,
            malformed_response,
            truncated_body,
            truncated_body_idempotent,
            body_stalls,
            closed_during_request_body,
            closed_during_request_body_idempotent,
            closed_during_one_shot_body,
            stale_keep_alive,
            retry_after_seconds,
            retry_after_not_idempotent,
            retry_after_http_date,
            retry_after_beyond_deadline,
            status_500_not_idempotent,
            h2_ok,
            h2_ok_tls,
            h2_refused_stream,
            h2_goaway_above_stream,
            h2_goaway_covering_stream,
            h2_stream_reset_internal_error,
            idempotency_key_after_ambiguous_failure,
            circuit_opens_on_503s,
            ok_200_ipv6,
            closed_after_request_tls,
            connection_close_then_next_call,
            redirect_is_an_answer,
            retry_after_malformed_uses_backoff,
            h2_refused_stream_tls,
            h2_goaway_above_stream_tls,
            h2_never_answers,
            reset_after_request_idempotent,
            partial_head_then_close_idempotent,
            body_stalls_idempotent,
            status_500_idempotent,
            h2_goaway_covering_stream_idempotent,
            h2_stream_reset_internal_error_idempotent,
            truncated_chunked_body,
            reset_during_body,
            deadline_leaves_no_time,
        );
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __conformance_tests {
    ($driver:expr; $($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                $crate::harness::assert_scenario(&$driver, stringify!($name));
            }
        )*

        #[test]
        fn the_test_list_is_the_whole_table() {
            assert_eq!(
                [$(stringify!($name)),*].as_slice(),
                $crate::table::scenario_names().as_slice()
            );
        }
    };
}
