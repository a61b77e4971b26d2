//! Bounding every blocking call: socket timeouts set ahead of need, and the
//! budget of one call (ureq's next timeout, capped by the attempt deadline).

use std::io::{self, Write};
use std::time::{Duration, Instant};

use ureq::Timeout;
use ureq::unversioned::transport::NextTimeout;

use super::binding::Binding;

/// The shortest socket timeout set: `set_read_timeout(Some(ZERO))` is an
/// error, and a budget this small is as good as spent.
pub(super) const MIN_SOCKET_TIMEOUT: Duration = Duration::from_millis(1);

/// How long a socket timeout set ahead of need may be, as a divisor of the
/// budget it is set for: half the budget. Later calls of the same attempt
/// (whose budgets shrink) and calls of later attempts on the same
/// connection then find it still within their budget and set nothing, so a
/// healthy exchange makes no `setsockopt` at all. A call it cuts short
/// while budget remains is resumed with the exact remainder, so timeouts
/// still fire exactly at the budget.
pub(super) const AHEAD_DIVISOR: u32 = 2;

/// Writes `output` whole to a plain stream, counting every accepted byte.
/// A write cut short by a socket timeout set ahead (see [`AHEAD_DIVISOR`])
/// resumes with the budget's exact remainder (`rearm` sets it): a timeout
/// that returned an error accepted nothing, so nothing is written twice.
pub(super) fn write_plain(
    stream: &mut impl Write,
    output: &[u8],
    binding: &mut Option<Binding>,
    mut budget: Budget,
    mut rearm: impl FnMut(Option<Duration>) -> io::Result<()>,
) -> Result<(), ureq::Error> {
    let mut offset = 0;
    while offset < output.len() {
        match stream.write(&output[offset..]) {
            Ok(0) => return Err(io::Error::from(io::ErrorKind::WriteZero).into()),
            Ok(n) => {
                if let Some(b) = binding {
                    b.wrote(&output[offset..offset + n]);
                }
                offset += n;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if is_timeout(&e) => match budget.left() {
                Some(left) => {
                    budget = left;
                    rearm(budget.socket_timeout())?;
                }
                None => return Err(budget.io_error(e)),
            },
            Err(e) => return Err(budget.io_error(e)),
        }
    }
    Ok(())
}

/// Whether `e` is a socket timeout.
pub(super) fn is_timeout(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
    )
}

/// Sets a socket timeout to `value` through `set`, remembering it in `armed`.
pub(super) fn set_timeout(
    armed: &mut Option<Option<Duration>>,
    value: Option<Duration>,
    set: impl FnOnce(Option<Duration>) -> io::Result<()>,
) -> io::Result<()> {
    set(value)?;
    *armed = Some(value);
    Ok(())
}

/// Makes sure a socket timeout (as last set: `armed`) fits `budget`, setting
/// one through `set` only when it does not. `ahead`: a new timeout may be
/// shorter than the budget (see [`AHEAD_DIVISOR`]), because the caller
/// resumes a call cut short; otherwise it is exactly the budget.
pub(super) fn fit_timeout(
    armed: &mut Option<Option<Duration>>,
    budget: Budget,
    ahead: bool,
    set: impl FnOnce(Option<Duration>) -> io::Result<()>,
) -> io::Result<()> {
    let wanted = budget.socket_timeout();
    let fits = match (*armed, wanted) {
        (Some(None), None) => true,
        (Some(Some(current)), Some(wanted)) => {
            if ahead {
                current <= wanted
            } else {
                current == wanted
            }
        }
        _ => false,
    };
    if fits {
        return Ok(());
    }
    let value = wanted.map(|w| {
        if ahead {
            (w / AHEAD_DIVISOR).clamp(MIN_SOCKET_TIMEOUT, w)
        } else {
            w
        }
    });
    set_timeout(armed, value, set)
}

/// How long one blocking call may take, and what to call it when it ran out.
#[derive(Debug, Clone, Copy)]
pub(super) struct Budget {
    /// `None`: no limit.
    pub(super) limit: Option<Duration>,
    pub(super) reason: Timeout,
    /// When the limit started to run.
    pub(super) since: Instant,
}

impl Budget {
    /// ureq's next timeout, capped by the attempt deadline. Fails with a
    /// timeout when nothing is left.
    pub(super) fn new(next: NextTimeout, deadline: Option<Instant>) -> Result<Self, ureq::Error> {
        let since = Instant::now();
        let mut budget = Budget {
            limit: (!next.after.is_not_happening()).then(|| *next.after),
            reason: next.reason,
            since,
        };
        if let Some(deadline) = deadline {
            let left = deadline.saturating_duration_since(since);
            if budget.limit.is_none_or(|limit| left < limit) {
                budget = Budget {
                    limit: Some(left),
                    reason: Timeout::Global,
                    since,
                };
            }
        }
        match budget.limit {
            Some(limit) if limit.is_zero() => Err(ureq::Error::Timeout(budget.reason)),
            _ => Ok(budget),
        }
    }

    pub(super) fn socket_timeout(self) -> Option<Duration> {
        self.limit.map(|l| l.max(MIN_SOCKET_TIMEOUT))
    }

    /// What is left of the budget now, if anything (an unlimited budget
    /// never runs out).
    pub(super) fn left(self) -> Option<Budget> {
        let Some(limit) = self.limit else {
            return Some(self);
        };
        let now = Instant::now();
        let left = limit.checked_sub(now.saturating_duration_since(self.since))?;
        (!left.is_zero()).then_some(Budget {
            limit: Some(left),
            reason: self.reason,
            since: now,
        })
    }

    /// An I/O error of a call bounded by this budget: a socket timeout
    /// becomes ureq's timeout error (which ureq's own 100-continue wait
    /// relies on); anything else stays an I/O error.
    pub(super) fn io_error(self, e: io::Error) -> ureq::Error {
        match e.kind() {
            io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut => {
                ureq::Error::Timeout(self.reason)
            }
            _ => ureq::Error::from(e),
        }
    }
}
