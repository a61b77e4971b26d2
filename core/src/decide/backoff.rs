//! Exponential backoff with jitter, from an injected random source.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// A source of random numbers for jitter. Injected so tests are exact.
pub trait RandomSource: Send + Sync + fmt::Debug + 'static {
    /// The next random 64-bit value.
    fn next_u64(&self) -> u64;

    /// A value uniformly distributed in `[0, 1)`.
    fn next_unit(&self) -> f64 {
        // The top 53 bits fill an f64 mantissa exactly.
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

/// A fast, lock-free xorshift generator. Not cryptographic: jitter only
/// needs to spread clients apart, not to be unpredictable.
#[derive(Debug)]
pub struct XorShiftRandom {
    state: AtomicU64,
}

impl XorShiftRandom {
    /// A generator starting from `seed` (a zero seed is replaced, since
    /// xorshift never leaves zero). The same seed gives the same sequence.
    pub fn seeded(seed: u64) -> Self {
        XorShiftRandom {
            state: AtomicU64::new(if seed == 0 {
                0x9E37_79B9_7F4A_7C15
            } else {
                seed
            }),
        }
    }

    /// A generator seeded from the process's hash randomness.
    pub fn from_entropy() -> Self {
        use std::hash::{BuildHasher, RandomState};
        XorShiftRandom::seeded(RandomState::new().hash_one(std::time::SystemTime::now()))
    }
}

impl RandomSource for XorShiftRandom {
    fn next_u64(&self) -> u64 {
        let step = |mut x: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let prev = self
            .state
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |x| Some(step(x)))
            .unwrap_or_else(|x| x);
        step(prev)
    }
}

/// Backoff parameters (validated by the policy builder).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Backoff {
    pub(crate) base: Duration,
    pub(crate) max: Duration,
    pub(crate) jitter: f64,
}

impl Backoff {
    /// The delay before retry number `retry` (0 for the first retry):
    /// `base * 2^retry`, capped at `max`, then reduced by up to `jitter` of
    /// itself using `unit` (a random value in `[0, 1)`).
    pub fn delay(&self, retry: u32, unit: f64) -> Duration {
        let exp = if retry >= 32 {
            self.max
        } else {
            self.base
                .checked_mul(1u32 << retry)
                .unwrap_or(self.max)
                .min(self.max)
        };
        exp.mul_f64(1.0 - self.jitter * unit.clamp(0.0, 1.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn backoff(jitter: f64) -> Backoff {
        Backoff {
            base: Duration::from_millis(100),
            max: Duration::from_secs(1),
            jitter,
        }
    }

    #[test]
    fn without_jitter_the_delay_doubles_up_to_the_cap() {
        let b = backoff(0.0);
        let ms: Vec<u128> = (0..6).map(|i| b.delay(i, 0.7).as_millis()).collect();
        assert_eq!(ms, [100, 200, 400, 800, 1000, 1000]);
        assert_eq!(b.delay(40, 0.0), Duration::from_secs(1));
    }

    #[test]
    fn jitter_only_shortens_within_its_fraction() {
        let b = backoff(0.5);
        assert_eq!(b.delay(0, 0.0), Duration::from_millis(100));
        assert_eq!(b.delay(0, 0.5), Duration::from_millis(75));
        assert!(b.delay(0, 0.999_999) > Duration::from_millis(50));
    }

    #[test]
    fn seeded_random_is_repeatable_and_in_range() {
        let a = XorShiftRandom::seeded(42);
        let b = XorShiftRandom::seeded(42);
        for _ in 0..1000 {
            let (x, y) = (a.next_unit(), b.next_unit());
            assert_eq!(x, y);
            assert!((0.0..1.0).contains(&x));
        }
        assert_ne!(XorShiftRandom::seeded(0).next_u64(), 0);
    }
}
