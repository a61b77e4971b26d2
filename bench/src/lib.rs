//! evident-bench: evident end to end, side by side with the bare engines it
//! wraps, on loopback.
//!
//! ```sh
//! cargo run -p evident-bench --release            # the full run (a few minutes)
//! cargo run -p evident-bench --release -- --smoke # tiny counts, what CI runs as a test
//! ```
//!
//! One process serves loopback HTTP/1.1 and HTTP/2 ([`server`]) and drives
//! each engine three ways ([`clients`]): bare (hyper-util's legacy client,
//! a ureq agent, reqwest, isahc), evident's engine alone through
//! `Engine::send`, and the evident client over that engine; plus reqwest
//! with reqwest-retry, the retrying peer users pick today, and a second
//! bare client per family (the *null* row) whose ratio shows the noise
//! floor. ureq and isahc run over HTTP/1.1 only, as their evident engines
//! do.
//!
//! evident-isahc reuses a connection only for an operation whose repeat is
//! harmless (libcurl silently re-sends a request whose reused connection
//! died; the engine refuses that re-send), where bare isahc reuses one for
//! everything: the isahc family has a third bare row, isahc without
//! connection reuse (what every other operation pays), and a note under
//! its table says so.
//!
//! Rounds are paired and interleaved ([`run`]): every row of a family runs
//! the same calls in each round, in an order that rotates, and its ratio is
//! its throughput over the bare row's in the same round. Per client the
//! tables ([`report`]) give requests per second, the paired ratio with its
//! spread, client CPU µs per call (process CPU minus the server threads'
//! CPU, steadier than throughput on a shared machine), and allocations and
//! bytes per call (a counting global allocator, [`measure`]). Workloads:
//! GET with a small answer, and POST 16 KiB with an idempotency key, at 16
//! and 128 in flight.
//!
//! [`outage`] measures amplification: servers that reset after reading,
//! answer only 503, or refuse connections, with receipts and time per call
//! for every client.
//!
//! [`fleet`] measures what sharing a rate limit and a retry budget through
//! Redis (evident-redis) adds to a call, against a `redis-server` it
//! starts: `cargo run -p evident-bench --release --bin fleet`.
//!
//! Every client gets the same idle pool per origin, so rows differ by their
//! code and not by their pool defaults. Each case builds its clients afresh
//! and drops each family's once it is measured (see [`run::run`]).
//!
//! The crate installs a counting global allocator in every binary that
//! links it; it is a benchmark, never a dependency.

#![warn(missing_docs, unreachable_pub, rust_2018_idioms)]

pub mod clients;
pub mod fleet;
pub mod instructions;
pub mod measure;
pub mod outage;
pub mod reload;
pub mod report;
pub mod run;
pub mod server;
