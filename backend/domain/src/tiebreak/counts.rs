//! Counting tie-breaks (C.07 Article 7).
//! - WIN: rounds in which the player got as many points as a win, played or not
//!   (forfeit wins, full-point byes, a PAB worth a win). In a micro-match: the pairings
//!   won (the collapsed result, more than half the pairing's game points), since the
//!   round score of a pairing says how much, not whether, it was won.
//! - WON and BPG in a micro-match likewise count pairings: won over the board, and
//!   played with Black in the first game (the pairing colour).
//! - WON: games won over the board (`Played` with `rated`; a `W` of under one move does not
//!   count, as the shared model defines it).
//! - BPG: games played with Black over the board (same rule).

use super::{Context, TieBreakValue};
use crate::tournament::{Colour, Outcome, RoundEntry};

fn count(ctx: &Context<'_>, i: usize, pred: impl Fn(&RoundEntry) -> bool) -> TieBreakValue {
    let n = (0..ctx.rounds).filter(|&r| pred(&ctx.entry(i, r))).count();
    TieBreakValue::integer(Some(n as i64))
}

pub(crate) fn wins(ctx: &Context<'_>, i: usize) -> TieBreakValue {
    let points = &ctx.tournament.points;
    count(ctx, i, |e| points.points(e) == points.win)
}

pub(crate) fn games_won(ctx: &Context<'_>, i: usize) -> TieBreakValue {
    count(ctx, i, |e| {
        matches!(
            e,
            RoundEntry::Played {
                outcome: Outcome::Win,
                rated: true,
                ..
            }
        )
    })
}

pub(crate) fn black_games(ctx: &Context<'_>, i: usize) -> TieBreakValue {
    count(ctx, i, |e| {
        matches!(
            e,
            RoundEntry::Played {
                colour: Colour::Black,
                rated: true,
                ..
            }
        )
    })
}
