//! nginx from the distribution, reloaded under load: the evident clients
//! never let it execute a POST that declared nothing twice. A bounded run
//! (the long one is `cargo run -p evident-bench --release --bin
//! nginx-reload`). CI installs nginx (`.ci/run`); without it this test
//! fails and says so.

use std::time::Duration;

use evident_bench::reload::{self, Subject};

/// Runs per client, and their length: bounded for CI.
const RUNS: u32 = 2;
const LENGTH: Duration = Duration::from_secs(3);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reloading_nginx_executes_no_keyless_post_twice_through_evident() {
    for subject in [Subject::EvidentHyper, Subject::EvidentReqwest] {
        for _ in 0..RUNS {
            let tally = reload::run(subject, LENGTH).await.unwrap();
            println!("{:<16} {}", subject.name(), tally.line());
            assert!(tally.calls > 0, "{}: no call was made", subject.name());
            assert!(
                tally.answered > 0,
                "{}: nothing was answered",
                subject.name()
            );
            assert_eq!(tally.executed_twice, 0, "{:#?}", tally.duplicates);
            // A POST that declared nothing runs at most once.
            assert!(tally.executions <= tally.calls);
        }
    }
}
