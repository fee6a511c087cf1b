//! The draw of openings for a round: recorded (the seed is stored with the round),
//! reproducible, and never the same opening twice for the same pair of players in an event
//! while the table has one they have not played.
//!
//! The random numbers come from [`SplitMix64`], written out here, so a stored seed gives the
//! same openings on every platform and with every Rust or crate version.

use std::collections::HashMap;

/// Whether each board draws its own opening or one opening is drawn for the whole round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum BallotPer {
    /// Each pairing draws independently (the default); distinct boards may get the same
    /// opening.
    #[default]
    Pairing,
    /// One opening for every board of the round.
    Round,
}

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
/// OOPSLA 2014; the constants of Vigna's public-domain `splitmix64.c`).
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.state)
    }

    /// A uniform number in `0..n` (`n > 0`), by rejection so that no value is favoured.
    pub fn below(&mut self, n: usize) -> usize {
        let n = n.max(1) as u64;
        // The values below `threshold` would make the low residues more likely.
        let threshold = n.wrapping_neg() % n;
        loop {
            let x = self.next_u64();
            if x >= threshold {
                return (x % n) as usize;
            }
        }
    }
}

/// The SplitMix64 output function, also used to derive one stream per pair.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// An unordered pair as `(min, max)`, the form of the keys of `used`.
pub fn normalise(pair: (i64, i64)) -> (i64, i64) {
    (pair.0.min(pair.1), pair.0.max(pair.1))
}

/// The stream of one pair: a function of the seed and the two ids only, so a pair's opening
/// does not change with the order of the boards or with the other pairings of the round.
fn pair_stream(seed: u64, pair: (i64, i64)) -> SplitMix64 {
    let (low, high) = normalise(pair);
    SplitMix64::new(seed ^ mix(mix(low as u64) ^ high as u64))
}

/// The openings `pair` already had, oldest first, ignoring indices outside the table. Keys
/// should be normalised with [`normalise`]; a key written the other way round is found when
/// the normalised one is absent.
fn history<'a>(
    used: &'a HashMap<(i64, i64), Vec<usize>>,
    pair: (i64, i64),
    table_len: usize,
) -> impl Iterator<Item = usize> + 'a {
    let key = normalise(pair);
    used.get(&key)
        .or_else(|| used.get(&(key.1, key.0)))
        .into_iter()
        .flatten()
        .copied()
        .filter(move |&index| index < table_len)
}

/// One round's draw: one table index per pair, in the order of `pairs`.
///
/// `pairs` are the round's pairings as unordered pairs of stable player ids; `used` gives,
/// for each unordered pair (key `(min, max)`), the table indices of the openings it already
/// had in this event, oldest first.
///
/// - [`BallotPer::Pairing`]: each pair draws uniformly among the openings it has not played.
///   A pair that has played the whole table gets the opening it played least recently (the
///   one whose last use is oldest), so the table is cycled through again in the same order.
/// - [`BallotPer::Round`]: one opening for all boards, drawn uniformly among those none of
///   the round's pairs has played; if there is none, among those played by the fewest pairs.
///
/// The same arguments give the same result everywhere. An empty table gives an empty result.
pub fn draw(
    seed: u64,
    table_len: usize,
    pairs: &[(i64, i64)],
    used: &HashMap<(i64, i64), Vec<usize>>,
    per: BallotPer,
) -> Vec<usize> {
    if table_len == 0 {
        return Vec::new();
    }
    match per {
        BallotPer::Pairing => pairs
            .iter()
            .map(|&pair| draw_for_pair(seed, table_len, pair, used))
            .collect(),
        BallotPer::Round => {
            let opening = draw_for_round(seed, table_len, pairs, used);
            vec![opening; pairs.len()]
        }
    }
}

fn draw_for_pair(
    seed: u64,
    table_len: usize,
    pair: (i64, i64),
    used: &HashMap<(i64, i64), Vec<usize>>,
) -> usize {
    // last_played[i]: position in the history of the latest use of opening i.
    let mut last_played: Vec<Option<usize>> = vec![None; table_len];
    for (when, index) in history(used, pair, table_len).enumerate() {
        last_played[index] = Some(when);
    }
    let fresh: Vec<usize> = (0..table_len)
        .filter(|&i| last_played[i].is_none())
        .collect();
    if fresh.is_empty() {
        return (0..table_len)
            .min_by_key(|&i| last_played[i])
            .unwrap_or_default();
    }
    fresh[pair_stream(seed, pair).below(fresh.len())]
}

fn draw_for_round(
    seed: u64,
    table_len: usize,
    pairs: &[(i64, i64)],
    used: &HashMap<(i64, i64), Vec<usize>>,
) -> usize {
    // played_by[i]: how many of the round's pairs have had opening i.
    let mut played_by = vec![0usize; table_len];
    for &pair in pairs {
        let mut seen = vec![false; table_len];
        for index in history(used, pair, table_len) {
            if !seen[index] {
                seen[index] = true;
                played_by[index] += 1;
            }
        }
    }
    let fewest = played_by.iter().copied().min().unwrap_or_default();
    let candidates: Vec<usize> = (0..table_len).filter(|&i| played_by[i] == fewest).collect();
    candidates[SplitMix64::new(seed).below(candidates.len())]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_is_uniform_enough_and_in_range() {
        let mut rng = SplitMix64::new(3);
        let mut counts = [0u32; 7];
        for _ in 0..70_000 {
            counts[rng.below(7)] += 1;
        }
        // Each bucket expects 10,000; 5 sigma is about 450.
        assert!(
            counts.iter().all(|&c| (9_500..10_500).contains(&c)),
            "{counts:?}"
        );
        assert_eq!(SplitMix64::new(1).below(1), 0);
    }

    #[test]
    fn pair_streams_do_not_depend_on_the_order_of_the_ids() {
        assert_eq!(
            pair_stream(5, (3, 9)).next_u64(),
            pair_stream(5, (9, 3)).next_u64()
        );
        assert_ne!(
            pair_stream(5, (3, 9)).next_u64(),
            pair_stream(5, (3, 10)).next_u64()
        );
        assert_eq!(normalise((9, -3)), (-3, 9));
    }
}
