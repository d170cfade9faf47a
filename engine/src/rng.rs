//! The game's one random stream: a seeded, portable ChaCha8 generator with stable draw algorithms.
//!
//! Every random decision of a game (dice, shuffles, map generation, random reinforcement) draws
//! from the [`GameRng`] that the game state owns. The algorithms that turn raw words into dice or
//! indices live here, not in `rand`, so a replay recorded today gives the same game after any
//! dependency update.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A seeded ChaCha8 stream whose position can be saved and restored exactly.
#[derive(Clone, PartialEq, Eq)]
pub struct GameRng {
    inner: ChaCha8Rng,
}

impl std::fmt::Debug for GameRng {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "GameRng(stream {}, word {})", self.inner.get_stream(), self.inner.get_word_pos())
    }
}

impl GameRng {
    /// A stream from a 64-bit seed, the form seeds take on the command line and in saves.
    pub fn from_seed(seed: u64) -> Self {
        Self { inner: ChaCha8Rng::seed_from_u64(seed) }
    }

    /// An independent stream derived from this seed and a stream number (used for per-game and
    /// per-computer-player streams in simulations, so each is reproducible on its own).
    pub fn from_seed_and_stream(seed: u64, stream: u64) -> Self {
        let mut inner = ChaCha8Rng::seed_from_u64(seed);
        inner.set_stream(stream);
        Self { inner }
    }

    /// The next raw 32-bit word.
    pub fn next_u32(&mut self) -> u32 {
        self.inner.next_u32()
    }

    /// The next raw 64-bit word.
    pub fn next_u64(&mut self) -> u64 {
        self.inner.next_u64()
    }

    /// A uniform integer in `0..n` (unbiased, Lemire's multiply-and-reject). `n == 0` gives 0.
    pub fn below(&mut self, n: u32) -> u32 {
        if n <= 1 {
            return 0;
        }
        let threshold = n.wrapping_neg() % n;
        loop {
            let product = u64::from(self.next_u32()) * u64::from(n);
            if (product as u32) >= threshold {
                return (product >> 32) as u32;
            }
        }
    }

    /// A uniform integer in `low..=high`; `high < low` gives `low`.
    pub fn range_inclusive(&mut self, low: i64, high: i64) -> i64 {
        if high <= low {
            return low;
        }
        // `high - low` fits in a u64 even for the widest range; the sums below wrap back into
        // `low..=high` (two's complement), so no range can overflow.
        let Some(span) = (high.wrapping_sub(low) as u64).checked_add(1) else {
            // Every 64-bit integer: one raw word is uniform already.
            return self.next_u64() as i64;
        };
        if span <= u64::from(u32::MAX) {
            low.wrapping_add(i64::from(self.below(span as u32)))
        } else {
            // Wide ranges are rare (never dice); a 64-bit modulo with rejection keeps them exact.
            let zone = u64::MAX - (u64::MAX % span);
            loop {
                let word = self.next_u64();
                if word < zone {
                    return low.wrapping_add((word % span) as i64);
                }
            }
        }
    }

    /// One roll of a die with `sides` faces: `1..=sides`.
    pub fn die(&mut self, sides: u32) -> u32 {
        1 + self.below(sides)
    }

    /// A uniform float in `[0, 1)` with 53 random bits.
    pub fn unit_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// True with probability `numerator / denominator`.
    pub fn chance(&mut self, numerator: u32, denominator: u32) -> bool {
        self.below(denominator) < numerator
    }

    /// Fisher–Yates shuffle in place.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// The saved form of the stream position.
    pub fn snapshot(&self) -> RngSnapshot {
        RngSnapshot {
            seed: hex(&self.inner.get_seed()),
            stream: self.inner.get_stream(),
            word_pos: self.inner.get_word_pos().to_string(),
        }
    }

    /// Restores a stream saved with [`GameRng::snapshot`].
    pub fn restore(snapshot: &RngSnapshot) -> Result<Self, String> {
        let bytes = unhex(&snapshot.seed).ok_or("the random seed is not 64 hex digits")?;
        let seed: [u8; 32] = bytes.try_into().map_err(|_| "the random seed is not 32 bytes")?;
        let word_pos: u128 = snapshot.word_pos.parse().map_err(|_| "the random stream position is not a number")?;
        let mut inner = ChaCha8Rng::from_seed(seed);
        inner.set_stream(snapshot.stream);
        inner.set_word_pos(word_pos);
        Ok(Self { inner })
    }
}

/// A stream position in plain, portable data: seed bytes in hex, stream number, word position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RngSnapshot {
    /// The 32 seed bytes as 64 lowercase hex digits.
    pub seed: String,
    /// The ChaCha stream number.
    pub stream: u64,
    /// How many 32-bit words have been drawn, as a decimal string (it can exceed 2^64).
    pub word_pos: String,
}

impl Serialize for GameRng {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.snapshot().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for GameRng {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let snapshot = RngSnapshot::deserialize(deserializer)?;
        GameRng::restore(&snapshot).map_err(serde::de::Error::custom)
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if text.len() % 2 != 0 {
        return None;
    }
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let mut a = GameRng::from_seed(7);
        let mut b = GameRng::from_seed(7);
        let xs: Vec<u32> = (0..100).map(|_| a.die(6)).collect();
        let ys: Vec<u32> = (0..100).map(|_| b.die(6)).collect();
        assert_eq!(xs, ys);
    }

    #[test]
    fn known_values_stay_stable_across_versions() {
        // If this fails, every saved replay breaks: the generator or a draw algorithm changed.
        let mut rng = GameRng::from_seed(1);
        let rolls: Vec<u32> = (0..12).map(|_| rng.die(6)).collect();
        assert_eq!(rolls, KNOWN_ROLLS_SEED_1);
    }
    const KNOWN_ROLLS_SEED_1: [u32; 12] = [4, 3, 6, 1, 2, 4, 3, 2, 5, 2, 6, 5];

    #[test]
    fn ranges_up_to_every_64_bit_integer_stay_inside_and_never_overflow() {
        let mut rng = GameRng::from_seed(3);
        for (low, high) in [(-1, i64::MAX), (i64::MIN, i64::MAX), (i64::MIN, 0), (i64::MIN, i64::MIN + 1), (-5, 5)] {
            for _ in 0..1_000 {
                let x = rng.range_inclusive(low, high);
                assert!((low..=high).contains(&x), "{x} outside {low}..={high}");
            }
        }
        // Both ends of a two-value range at the edge of the integers come up.
        let seen: std::collections::BTreeSet<i64> =
            (0..200).map(|_| rng.range_inclusive(i64::MAX - 1, i64::MAX)).collect();
        assert_eq!(seen.len(), 2);
        // Narrow ranges draw exactly as before (saved games replay): the same words, the same values.
        let mut a = GameRng::from_seed(9);
        let mut b = GameRng::from_seed(9);
        for _ in 0..100 {
            assert_eq!(a.range_inclusive(-3, 10), -3 + i64::from(b.below(14)));
        }
    }

    #[test]
    fn snapshot_restores_exact_position() {
        let mut rng = GameRng::from_seed(99);
        for _ in 0..37 {
            rng.next_u32();
        }
        let mut copy = GameRng::restore(&rng.snapshot()).unwrap();
        for _ in 0..50 {
            assert_eq!(rng.next_u64(), copy.next_u64());
        }
    }

    #[test]
    fn dice_are_uniform() {
        let mut rng = GameRng::from_seed(3);
        let mut counts = [0u32; 6];
        let n = 600_000;
        for _ in 0..n {
            counts[rng.die(6) as usize - 1] += 1;
        }
        // Each face: mean 100000, sd sqrt(n p (1-p)) ≈ 288.7; allow 5 sd.
        for c in counts {
            assert!((c as i64 - 100_000).abs() < 1_444, "{counts:?}");
        }
    }

    #[test]
    fn below_covers_range_and_shuffle_permutes() {
        let mut rng = GameRng::from_seed(5);
        let mut seen = [false; 7];
        for _ in 0..1000 {
            seen[rng.below(7) as usize] = true;
        }
        assert!(seen.iter().all(|s| *s));
        let mut items: Vec<u32> = (0..20).collect();
        rng.shuffle(&mut items);
        let mut sorted = items.clone();
        sorted.sort();
        assert_eq!(sorted, (0..20).collect::<Vec<_>>());
        assert_ne!(items, sorted);
    }
}
