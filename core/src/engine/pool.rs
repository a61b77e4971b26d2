//! The connection-pool defaults every pooling engine shares, so that the
//! engines pool alike and their builders accept the same values.

use std::time::Duration;

/// How many idle connections a pool keeps per origin. Eight covers the
/// parallelism of a typical client call pattern against one upstream
/// without keeping a crowd of sockets open; beyond it, a finished
/// connection is closed rather than pooled.
pub const DEFAULT_MAX_IDLE_PER_ORIGIN: usize = 8;

/// The largest per-origin idle pool a builder accepts: a guard against a
/// configuration that would let one upstream hold thousands of sockets.
pub const MAX_IDLE_PER_ORIGIN_LIMIT: usize = 1024;

/// How long an idle pooled connection is kept: 90 s, the idle timeout of
/// hyper-util's and reqwest's pools. Servers close idle connections on
/// their own schedule; a client that keeps them much longer mostly keeps
/// connections the server already dropped.
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(90);
