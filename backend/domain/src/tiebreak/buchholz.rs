//! Buchholz (BH) and Sonneborn-Berger (SB), with the Cut-n and Median-n modifiers
//! (C.07 Articles 8, 9, 14 and 16).
//!
//! Each round gives a contribution: the opponent's adjusted score for a game, the dummy's
//! score for a Swiss unplayed round (see [`super::unplayed`]). SB multiplies it by the points
//! the player scored that round. Cut-n drops the n least significant contributions (lowest
//! opponent score; among equal scores the lowest value), but a voluntary unplayed round is
//! cut first unless the least significant contribution is worth more than it (16.5).
//! Median-n also drops the n most significant.

use super::unplayed::{RoundClass, classify, dummy_score, is_vur};
use super::{Context, Modifier, TieBreakValue};

/// One round's part in BH or SB.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Contribution {
    /// 1-based round.
    pub round: u32,
    /// The (adjusted or dummy) opponent score, in half-points.
    pub opponent_score: i64,
    /// What the round adds: half-points for BH, quarter-points for SB.
    pub value: i64,
    /// Whether the round is a voluntary unplayed round of the player.
    pub vur: bool,
}

/// The contributions of player `i`, one per round that enters BH/SB (`weighted`: SB).
pub fn contributions(ctx: &Context<'_>, i: usize, weighted: bool) -> Vec<Contribution> {
    let mut out = Vec::with_capacity(ctx.rounds as usize);
    for r in 0..ctx.rounds {
        let entry = ctx.entry(i, r);
        let (score, vur) = match classify(ctx, i, r) {
            RoundClass::Game(j) => (ctx.adjusted[j], false),
            RoundClass::Forfeit(j) => (dummy_score(ctx, i, Some(j)), is_vur(&entry)),
            RoundClass::NoOpponent if ctx.is_round_robin() => continue,
            RoundClass::NoOpponent => (dummy_score(ctx, i, None), is_vur(&entry)),
        };
        let score = i64::from(score.0);
        let value = if weighted {
            score * i64::from(ctx.points(i, r).0)
        } else {
            score
        };
        out.push(Contribution {
            round: r + 1,
            opponent_score: score,
            value,
            vur,
        });
    }
    out
}

fn key(c: &Contribution) -> (i64, i64) {
    (c.opponent_score, c.value)
}

/// Applies Cut-n / Median-n and returns the contributions kept.
pub fn apply_modifier(mut list: Vec<Contribution>, modifier: Modifier) -> Vec<Contribution> {
    let (low, high) = match modifier {
        Modifier::None => (0, 0),
        Modifier::Cut(n) => (usize::from(n), 0),
        Modifier::Median(n) => (usize::from(n), usize::from(n)),
    };
    for _ in 0..low {
        let Some(least) = (0..list.len()).min_by_key(|&k| key(&list[k])) else {
            break;
        };
        let vur = (0..list.len())
            .filter(|&k| list[k].vur)
            .min_by_key(|&k| key(&list[k]));
        let cut = match vur {
            Some(v) if list[least].value <= list[v].value => v,
            _ => least,
        };
        list.remove(cut);
    }
    for _ in 0..high {
        // max_by_key keeps the last maximum; any maximum gives the same sum.
        let Some(most) = (0..list.len()).max_by_key(|&k| key(&list[k])) else {
            break;
        };
        list.remove(most);
    }
    list
}

/// BH with a modifier, in half-points.
pub fn buchholz(ctx: &Context<'_>, i: usize, modifier: Modifier) -> TieBreakValue {
    let kept = apply_modifier(contributions(ctx, i, false), modifier);
    TieBreakValue::halves(kept.iter().map(|c| c.value).sum())
}

/// SB with a modifier, in quarter-points.
pub fn sonneborn_berger(ctx: &Context<'_>, i: usize, modifier: Modifier) -> TieBreakValue {
    let kept = apply_modifier(contributions(ctx, i, true), modifier);
    TieBreakValue::quarters(kept.iter().map(|c| c.value).sum())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(round: u32, score: i64, value: i64, vur: bool) -> Contribution {
        Contribution {
            round,
            opponent_score: score,
            value,
            vur,
        }
    }

    #[test]
    fn cut_one_prefers_the_voluntary_unplayed_round() {
        // Opponents 2, 3, 4 points; a VUR whose dummy has 5: the VUR goes first.
        let list = vec![
            c(1, 4, 4, false),
            c(2, 6, 6, false),
            c(3, 8, 8, false),
            c(4, 10, 10, true),
        ];
        let kept = apply_modifier(list.clone(), Modifier::Cut(1));
        assert_eq!(kept.iter().map(|c| c.round).collect::<Vec<_>>(), [1, 2, 3]);
        // Cut-2: the VUR, then the lowest of the rest.
        let kept = apply_modifier(list.clone(), Modifier::Cut(2));
        assert_eq!(kept.iter().map(|c| c.round).collect::<Vec<_>>(), [2, 3]);
        // Median-1: the VUR and the highest remaining.
        let kept = apply_modifier(list, Modifier::Median(1));
        assert_eq!(kept.iter().map(|c| c.round).collect::<Vec<_>>(), [1, 2]);
    }

    #[test]
    fn sb_cut_takes_the_more_valuable_of_least_and_vur() {
        // SB: least significant = lowest opponent score (round 1, value 8 = 4 x 2);
        // the VUR has a higher opponent score but value 0 (a zero-point round): the least
        // significant contribution is worth more, so it is cut.
        let list = vec![c(1, 4, 8, false), c(2, 6, 12, false), c(3, 10, 0, true)];
        let kept = apply_modifier(list, Modifier::Cut(1));
        assert_eq!(kept.iter().map(|c| c.round).collect::<Vec<_>>(), [2, 3]);
    }

    #[test]
    fn cuts_stop_when_nothing_is_left() {
        let kept = apply_modifier(vec![c(1, 4, 4, false)], Modifier::Median(2));
        assert!(kept.is_empty());
    }
}
