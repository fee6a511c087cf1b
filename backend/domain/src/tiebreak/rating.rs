//! Rating-based tie-breaks: ARO (average rating of opponents) and TPR (tournament
//! performance rating, ARO + dp(p) from FIDE table 8.1a).
//!
//! Only games over the board count (`RoundEntry::Played` with `rated`), as in C.07: byes,
//! forfeits and games of under one move (`W D L`) are left out. An opponent without a
//! rating counts with `Context::unrated_rating` when the organiser set one, else is left
//! out. Both figures are rounded half up to whole rating points. In a micro-match a
//! pairing is one "game" of TPR, its percentage the real points over a won round's points.

use super::{Context, TieBreakValue};
use crate::tournament::{HalfPoints, RoundEntry};

/// FIDE table 8.1a: dp for p = 0.00, 0.01, ..., 1.00 (index = percentage).
pub const DP_TABLE: [i32; 101] = [
    -800, -677, -589, -538, -501, -470, -444, -422, -401, -383, -366, -351, -336, -322, -309, -296,
    -284, -273, -262, -251, -240, -230, -220, -211, -202, -193, -184, -175, -166, -158, -149, -141,
    -133, -125, -117, -110, -102, -95, -87, -80, -72, -65, -57, -50, -43, -36, -29, -21, -14, -7,
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149, 158,
    166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351, 366,
    383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
];

/// dp for a score of `score` out of `games` games: p is rounded half up to two decimals
/// (FIDE rounds the percentage before looking it up). `None` when there are no games or the
/// score is impossible.
pub fn dp(score: HalfPoints, games: u32, win: HalfPoints) -> Option<i32> {
    if games == 0 || win.0 == 0 {
        return None;
    }
    // p = score / (games * win); percentage rounded half up: floor((200·s + g·w) / (2·g·w)).
    let s = u64::from(score.0);
    let max = u64::from(games) * u64::from(win.0);
    if s > max {
        return None;
    }
    let pct = (200 * s + max) / (2 * max);
    DP_TABLE.get(usize::try_from(pct).ok()?).copied()
}

/// Ratings of the opponents met over the board and the points scored against them.
pub(crate) fn rated_games(ctx: &Context<'_>, i: usize) -> (Vec<u32>, HalfPoints) {
    let mut ratings = Vec::new();
    let mut score = HalfPoints::ZERO;
    for r in 0..ctx.rounds {
        let entry = ctx.entry(i, r);
        if let RoundEntry::Played {
            opponent,
            rated: true,
            ..
        } = entry
        {
            let rating = ctx
                .index_of(opponent)
                .and_then(|j| ctx.tournament.players[j].rating)
                .or(ctx.options.unrated_rating);
            if let Some(rating) = rating {
                ratings.push(rating);
                score += ctx.points(i, r);
            }
        }
    }
    (ratings, score)
}

/// Average of ratings, rounded half up.
pub fn average_rating(ratings: &[u32]) -> Option<i64> {
    if ratings.is_empty() {
        return None;
    }
    let sum: i64 = ratings.iter().map(|&r| i64::from(r)).sum();
    let n = ratings.len() as i64;
    Some((2 * sum + n) / (2 * n))
}

pub(crate) fn aro(ctx: &Context<'_>, i: usize) -> TieBreakValue {
    let (ratings, _) = rated_games(ctx, i);
    TieBreakValue::integer(average_rating(&ratings))
}

/// Performance rating: ARO + dp(p); `None` without rated games.
pub fn performance(ratings: &[u32], score: HalfPoints, win: HalfPoints) -> Option<i64> {
    let aro = average_rating(ratings)?;
    let dp = dp(score, u32::try_from(ratings.len()).ok()?, win)?;
    Some(aro + i64::from(dp))
}

pub(crate) fn tpr(ctx: &Context<'_>, i: usize) -> TieBreakValue {
    let (ratings, score) = rated_games(ctx, i);
    TieBreakValue::integer(performance(
        &ratings,
        score,
        ctx.tournament.round_win_points(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dp_table_rows_of_ratings_md() {
        // The rows RATINGS.md quotes.
        for (pct, want) in [
            (100, 800),
            (99, 677),
            (95, 470),
            (90, 366),
            (80, 240),
            (75, 193),
            (70, 149),
            (60, 72),
            (55, 36),
            (50, 0),
        ] {
            assert_eq!(DP_TABLE[pct], want, "p = {pct}");
            assert_eq!(DP_TABLE[100 - pct], -want, "p = {}", 100 - pct);
        }
        // Strictly increasing, as the table is.
        assert!(DP_TABLE.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn dp_rounds_the_percentage_half_up() {
        let one = HalfPoints::ONE;
        // 2/3 = 0.6667 -> 0.67 -> 125.
        assert_eq!(dp(HalfPoints(4), 3, one), Some(125));
        // 1/8 = 0.125 -> 0.13 -> -322 (half up).
        assert_eq!(dp(HalfPoints(1), 4, one), Some(-322));
        assert_eq!(dp(HalfPoints(6), 3, one), Some(800));
        assert_eq!(dp(HalfPoints::ZERO, 5, one), Some(-800));
        assert_eq!(dp(HalfPoints(7), 3, one), None);
        assert_eq!(dp(HalfPoints(1), 0, one), None);
    }

    #[test]
    fn average_rounds_half_up() {
        assert_eq!(average_rating(&[1500, 1501]), Some(1501));
        assert_eq!(average_rating(&[1500, 1500, 1501]), Some(1500));
        assert_eq!(average_rating(&[]), None);
        // 1600 avg, 2.5/4 = 0.625 -> 0.63 -> +95.
        assert_eq!(
            performance(&[1500, 1700, 1600, 1600], HalfPoints(5), HalfPoints::ONE),
            Some(1695)
        );
    }
}
