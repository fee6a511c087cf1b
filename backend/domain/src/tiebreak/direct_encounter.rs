//! Direct encounter (C.07 Article 6), computed inside a group of players tied on everything
//! before it.
//!
//! Each player's DE score is the sum, over the other players of the group met, of the
//! points scored against them (the average when they met more than once, as in a double
//! round-robin). In a round-robin a forfeit counts as a game; in a Swiss only games over the
//! board count.
//! - If every player of the group met every other one (always assumed in a round-robin),
//!   the group is ordered by DE score, equal scores sharing a place.
//! - Otherwise a player is placed ahead only when their DE score is more than anybody
//!   below can still reach (met score plus a win for every opponent not met); from the first
//!   player who cannot be separated so, the rest share a place.
//!
//! Sub-groups still tied are then worked out again among themselves, until nothing
//! changes. The figure is the place inside the group (1 = first), or 0 for every member
//! when DE does not separate the group at all (as TieBreakServer prints it).

use super::Context;
use crate::tournament::RoundEntry;

/// DE points are kept in 1/24 of a point: exact for averages over 1, 2, 3, 4 or 6 meetings.
const SCALE: i64 = 12;

/// DE places for `group` (player indices in their current order): one figure per member,
/// in the order given.
pub fn direct_encounter(ctx: &Context<'_>, group: &[usize]) -> Vec<i64> {
    let mut place = vec![0i64; group.len()];
    split(
        ctx,
        group,
        &(0..group.len()).collect::<Vec<_>>(),
        0,
        &mut place,
    );
    if place.iter().all(|&p| p == place[0]) {
        return vec![0; group.len()];
    }
    place.iter().map(|p| p + 1).collect()
}

/// DE score of `member` against the players of `sub` (indices into `group`), and the number
/// of them met.
fn score_within(ctx: &Context<'_>, group: &[usize], sub: &[usize], member: usize) -> (i64, i64) {
    let i = group[member];
    let mut total = 0i64;
    let mut met = 0i64;
    for &other in sub {
        if other == member {
            continue;
        }
        let j = group[other];
        let mut points = 0i64;
        let mut games = 0i64;
        for r in 0..ctx.rounds {
            let e = ctx.entry(i, r);
            let counts = match e {
                RoundEntry::Played { .. } => true,
                RoundEntry::Forfeit { .. } | RoundEntry::DoubleForfeit { .. } => {
                    ctx.is_round_robin()
                }
                _ => false,
            };
            if counts && e.opponent().and_then(|o| ctx.index_of(o)) == Some(j) {
                points += i64::from(ctx.points(i, r).0);
                games += 1;
            }
        }
        if games > 0 {
            met += 1;
            total += points * SCALE / games;
        }
    }
    (total, met)
}

/// Orders `sub` (indices into `group`, all at place `base`) and recurses into ties.
fn split(ctx: &Context<'_>, group: &[usize], sub: &[usize], base: i64, place: &mut [i64]) {
    if sub.len() < 2 {
        return;
    }
    let others = sub.len() as i64 - 1;
    // What an encounter not played yet could still give: a won round.
    let win = i64::from(ctx.tournament.round_win_points().0) * SCALE;
    let mut rows: Vec<(usize, i64, i64)> = sub
        .iter()
        .map(|&m| {
            let (score, met) = score_within(ctx, group, sub, m);
            (m, score, score + (others - met) * win)
        })
        .collect();
    let all_met = ctx.is_round_robin() || rows.iter().all(|&(_, s, max)| s == max);
    // Stable sort: the incoming order (start numbers) breaks remaining ties.
    if all_met {
        rows.sort_by_key(|&(_, s, _)| std::cmp::Reverse(s));
    } else {
        rows.sort_by_key(|&(_, s, max)| (std::cmp::Reverse(s), std::cmp::Reverse(max)));
    }
    let mut rel = vec![0i64; rows.len()];
    if all_met {
        for k in 1..rows.len() {
            rel[k] = if rows[k].1 == rows[k - 1].1 {
                rel[k - 1]
            } else {
                k as i64
            };
        }
    } else {
        let mut unique = true;
        for k in 1..rows.len() {
            let best_below = rows[k..].iter().map(|r| r.2).max().unwrap_or(i64::MIN);
            if unique && rows[k - 1].1 > best_below {
                rel[k] = k as i64;
            } else {
                unique = false;
                rel[k] = rel[k - 1];
            }
        }
    }
    if rel.iter().all(|&r| r == 0) {
        return;
    }
    let mut start = 0;
    while start < rows.len() {
        let mut end = start + 1;
        while end < rows.len() && rel[end] == rel[start] {
            end += 1;
        }
        let members: Vec<usize> = rows[start..end].iter().map(|r| r.0).collect();
        for &m in &members {
            place[m] = base + rel[start];
        }
        split(ctx, group, &members, base + rel[start], place);
        start = end;
    }
}
