//! The audit's source of randomness: SplitMix64, seeded once per run.
//!
//! Hand-rolled rather than taken from `rand`: a seed printed by one run must
//! replay the same shapes after any `cargo update`, and `rand`'s generators
//! do not promise a stable stream across releases (`StdRng` says so
//! outright). SplitMix64 is ten lines, passes BigCrush, and its stream is
//! fixed by this file alone.

/// A SplitMix64 generator (Steele, Lea and Flood, 2014).
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

/// SplitMix64's increment: the odd number closest to 2^64 / φ.
const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

impl SplitMix64 {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// An independent stream for `index` (a lane, an engine), derived from
    /// `seed` so that one printed seed replays every stream.
    pub fn stream(seed: u64, index: u64) -> Self {
        let mut mixer = SplitMix64::new(seed ^ index.wrapping_mul(GOLDEN_GAMMA));
        SplitMix64::new(mixer.next_u64())
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN_GAMMA);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`; the tiny modulo bias is irrelevant
    /// for choosing among a handful of shapes).
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        self.next_u64() % n
    }

    /// True with probability `numerator / denominator`.
    pub fn chance(&mut self, numerator: u64, denominator: u64) -> bool {
        self.below(denominator) < numerator
    }

    /// One of `items`, uniformly.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }

    /// A value in `lo..=hi`, log-uniformly: as many draws land between 50
    /// and 500 as between 500 and 5000, which is how the edges between
    /// stages are spread on loopback (microseconds apart early, longer
    /// later).
    pub fn log_uniform(&mut self, lo: u64, hi: u64) -> u64 {
        debug_assert!(0 < lo && lo <= hi);
        let (l, h) = ((lo as f64).ln(), (hi as f64).ln());
        let unit = (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        ((l + (h - l) * unit).exp().round() as u64).clamp(lo, hi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_the_published_splitmix64_stream() {
        // First outputs for seed 0 (reference values of the algorithm).
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn a_seed_replays_the_same_draws() {
        let draw = |seed| {
            let mut rng = SplitMix64::stream(seed, 3);
            (0..16).map(|_| rng.below(1000)).collect::<Vec<_>>()
        };
        assert_eq!(draw(42), draw(42));
        assert_ne!(draw(42), draw(43));
    }

    #[test]
    fn log_uniform_stays_in_bounds() {
        let mut rng = SplitMix64::new(7);
        for _ in 0..1000 {
            let v = rng.log_uniform(50, 5000);
            assert!((50..=5000).contains(&v));
        }
    }
}
