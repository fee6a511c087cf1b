//! The Dutch quality criteria as one integer per candidate pair.
//!
//! From the most significant field down: completion and PAB eligibility (C4/C5 and the
//! PAB conditions), number of pairs in the current bracket (C6), scores paired in the
//! current bracket (C7), the same two for the next bracket (C8, look-ahead), unplayed games
//! of the PAB assignee (C9), colour criteria (C10..C13), repeated floats (C14..C17), scores
//! of repeated floaters (C18..C21), and room for the homogeneous-bracket ordering rules
//! (exchanges and the order of S1 and S2). Each field is wide enough to hold its sum over a
//! whole matching, so comparing total weights compares the criteria lexicographically.

use super::bigint::Big;
use super::players::{Float, RoundContext};
use std::collections::HashMap;

/// Number of bits needed to write `x`.
pub fn bits_for(x: usize) -> usize {
    (usize::BITS - x.leading_zeros()) as usize
}

/// Field widths for one round.
pub struct Layout {
    /// Bits for a count of players of one score group (the largest group).
    pub group_bits: usize,
    /// Total width of a per-score-group field.
    pub groups_width: usize,
    /// Offset of each score's sub-field inside a per-score-group field.
    pub score_shift: HashMap<u32, usize>,
    pub played_rounds: u32,
    /// Total bits of a weight (before the matching's own doubling).
    pub total_bits: usize,
}

impl Layout {
    /// `scores` sorted in descending order (one entry per player to pair).
    pub fn new(scores_desc: &[u32], played_rounds: u32) -> Layout {
        let mut score_shift = HashMap::new();
        let mut shift = 0usize;
        let mut max_group = 0usize;
        let mut i = scores_desc.len();
        // From the lowest score group up.
        while i > 0 {
            let s = scores_desc[i - 1];
            let mut j = i;
            while j > 0 && scores_desc[j - 1] == s {
                j -= 1;
            }
            let size = i - j;
            score_shift.insert(s, shift);
            shift += bits_for(size);
            max_group = max_group.max(size);
            i = j;
        }
        let group_bits = bits_for(max_group).max(1);
        let mut layout = Layout {
            group_bits,
            groups_width: shift,
            score_shift,
            played_rounds,
            total_bits: 0,
        };
        layout.total_bits = layout.shifts_total() + 2;
        layout
    }

    fn shifts_total(&self) -> usize {
        let (g, s) = (self.group_bits, self.groups_width);
        let mut t = g + s + g + s + 2 * g + 4 * g;
        if self.played_rounds >= 1 {
            t += 2 * g + 2 * s;
        }
        if self.played_rounds >= 2 {
            t += 2 * g + 2 * s;
        }
        t + 3 * g + 1
    }

    /// The weight given to a pair once it is final: above any other edge weight.
    pub fn final_weight<const N: usize>(&self) -> Big<N> {
        Big::ones(self.total_bits)
    }

    fn shift_of(&self, score: u32) -> usize {
        self.score_shift.get(&score).copied().unwrap_or(0)
    }
}

/// Per-round data the weights depend on, besides the players.
pub struct WeightContext<'a> {
    pub round: &'a RoundContext,
    pub layout: &'a Layout,
    /// Score of the player who will get the PAB (0 when the number of players is even).
    pub bye_score: u32,
    /// Whether C9 (minimise the unplayed games of the PAB assignee) is active.
    pub single_downfloater_is_bye: bool,
    /// Rank of a number of played games among the PAB candidates (more games = lower).
    pub unplayed_rank: &'a HashMap<u32, u64>,
}

impl WeightContext<'_> {
    fn bye_candidate(&self, p: usize) -> bool {
        let st = &self.round.players[p];
        st.bye_eligible && st.score <= self.bye_score
    }

    /// The weight of pairing `higher` (ranked above) with `lower`. `in_current`: `lower` is
    /// a resident of the bracket being paired; `in_next`: `lower` belongs to the next
    /// score group (look-ahead).
    pub fn edge<const N: usize>(
        &self,
        higher: usize,
        lower: usize,
        in_current: bool,
        in_next: bool,
    ) -> Big<N> {
        let r = self.round;
        let lay = self.layout;
        if !r.compatible(higher, lower) {
            return Big::ZERO;
        }
        let h = &r.players[higher];
        let l = &r.players[lower];
        let g = lay.group_bits;
        let s = lay.groups_width;
        let mut w = Big::<N>::from_u64(
            1 + u64::from(!self.bye_candidate(higher)) + u64::from(!self.bye_candidate(lower)),
        );
        // C6/C7: pairs and scores in the current bracket.
        w.shl(g);
        w.or_small(u64::from(in_current));
        w.shl(s);
        if in_current {
            w.set_bit(lay.shift_of(h.score));
        }
        // Look-ahead to the next bracket.
        w.shl(g);
        w.or_small(u64::from(in_next));
        w.shl(s);
        if in_next {
            w.set_bit(lay.shift_of(h.score));
        }
        // C9: unplayed games of the PAB assignee.
        w.shl(2 * g);
        if self.single_downfloater_is_bye {
            if h.score == self.bye_score {
                w.add_small(
                    self.unplayed_rank
                        .get(&h.played_games)
                        .copied()
                        .unwrap_or(0),
                );
            }
            if l.score == self.bye_score {
                w.add_small(
                    self.unplayed_rank
                        .get(&l.played_games)
                        .copied()
                        .unwrap_or(0),
                );
            }
        }
        // C10..C13: colours, only inside the current bracket.
        let mask = in_current;
        let same_pref = l.preference == h.preference;
        w.shl(g);
        w.or_small(u64::from(
            mask && (!l.absolute_imbalance() || !h.absolute_imbalance() || !same_pref),
        ));
        w.shl(g);
        let c11 = !l.absolute() || !h.absolute() || !same_pref || {
            if l.imbalance == h.imbalance {
                l.repeated.is_none() || l.repeated != h.repeated
            } else {
                let smaller = if l.imbalance > h.imbalance { h } else { l };
                smaller.repeated != l.preference.map(|c| c.opposite())
            }
        };
        w.or_small(u64::from(mask && c11));
        w.shl(g);
        let compatible_prefs =
            l.preference.is_none() || h.preference.is_none() || l.preference != h.preference;
        w.or_small(u64::from(mask && compatible_prefs));
        w.shl(g);
        let c13 = (!l.strong && !l.absolute())
            || (!h.strong && !h.absolute())
            || (l.absolute() && h.absolute())
            || !same_pref;
        w.or_small(u64::from(mask && c13));
        let up_into = |back: usize| h.score > l.score && l.floats[back] == Float::Up;
        // C14..C17: repeated floats.
        for back in 0..2usize {
            if r.played_rounds as usize > back {
                w.shl(g);
                if in_current {
                    w.or_small(u64::from(l.floats[back] == Float::Down));
                    w.add_small(u64::from(
                        h.score <= l.score && h.floats[back] == Float::Down,
                    ));
                }
                w.shl(g);
                if in_current {
                    w.or_small(u64::from(!up_into(back)));
                }
            }
        }
        // C18..C21: scores of repeated floaters.
        for back in 0..2usize {
            if r.played_rounds as usize > back {
                w.shl(s);
                if in_current {
                    if l.floats[back] == Float::Down {
                        w.add_assign(&Big::pow2(lay.shift_of(l.score)));
                    }
                    if h.floats[back] == Float::Down {
                        w.add_assign(&Big::pow2(lay.shift_of(h.score)));
                    }
                }
                w.shl(s);
                if in_current && !up_into(back) {
                    w.add_assign(&Big::pow2(lay.shift_of(h.score)));
                }
            }
        }
        // Room for the homogeneous-bracket ordering rules.
        w.shl(3 * g + 1);
        w
    }
}
