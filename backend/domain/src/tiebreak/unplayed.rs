//! Unplayed rounds (C.07 Article 16, 2026 revision) as TieBreakServer applies them.
//!
//! - A *voluntary unplayed round* (VUR) is an unplayed round the player did not win: a
//!   forfeit loss, a double forfeit, a requested half- or zero-point bye, an absence (also a
//!   round after withdrawal). Forfeit wins, the pairing-allocated bye and full-point byes
//!   are not VURs.
//! - Opponent's score (16.3): a player's rounds without an opponent that come after the
//!   last round that was not a VUR count as draws (in a round-robin: as zero); every other
//!   round counts what it was given. So a withdrawal's trailing absences and a requested bye
//!   in the last round count as draws, while a forfeit loss keeps its zero.
//! - Own unplayed round in a Swiss (16.4): a game against a dummy opponent whose score is
//!   the player's own score, capped: after a forfeit (win, loss or double) at the scheduled
//!   opponent's adjusted score, after a bye at the draw points times the rounds so far.
//! - A round's points are what it really gave ([`super::Context::points`]); a "draw" is a
//!   drawn round, in a micro-match all its games drawn (or a drawn match's match points).
//! - Round-robin: a forfeit counts as a game against the scheduled opponent; byes (odd
//!   numbers of players) do not enter BH/SB.
//! - Cut-n (16.5): the lowest VUR contribution is cut before any other (see `buchholz`).

use super::Context;
use crate::tournament::{ByeKind, HalfPoints, RoundEntry};

/// How a round enters BH/SB for the player who has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoundClass {
    /// A game against this opponent (player index): over the board, or in a round-robin
    /// also a forfeit.
    Game(usize),
    /// Unplayed with a scheduled opponent (Swiss forfeit, double forfeit).
    Forfeit(usize),
    /// No opponent: byes, absence, not paired.
    NoOpponent,
}

/// A voluntary unplayed round (see the module text).
pub fn is_vur(entry: &RoundEntry) -> bool {
    match entry {
        RoundEntry::Played { .. } => false,
        RoundEntry::Forfeit { won, .. } => !won,
        RoundEntry::DoubleForfeit { .. } => true,
        RoundEntry::Bye(ByeKind::PairingAllocated | ByeKind::FullPoint) => false,
        RoundEntry::Bye(
            ByeKind::HalfPoint | ByeKind::ZeroPoint | ByeKind::Excused | ByeKind::ClubDuty,
        )
        | RoundEntry::NotPaired => true,
    }
}

/// Classifies player `i`'s round `r` (0-based).
pub fn classify(ctx: &Context<'_>, i: usize, r: u32) -> RoundClass {
    let entry = ctx.entry(i, r);
    let opponent = entry.opponent().and_then(|o| ctx.index_of(o));
    match (entry, opponent) {
        (RoundEntry::Played { .. }, Some(j)) => RoundClass::Game(j),
        (_, Some(j)) if ctx.is_round_robin() => RoundClass::Game(j),
        (_, Some(j)) => RoundClass::Forfeit(j),
        (_, None) => RoundClass::NoOpponent,
    }
}

/// 0-based index of the last round (within the context) that is not a VUR, plus one;
/// 0 when every round is a VUR.
pub fn rounds_until_last_non_vur(ctx: &Context<'_>, i: usize) -> u32 {
    (0..ctx.rounds)
        .rev()
        .find(|&r| !is_vur(&ctx.entry(i, r)))
        .map_or(0, |r| r + 1)
}

/// Player `i`'s score as their opponents see it (16.3).
pub fn adjusted_score(ctx: &Context<'_>, i: usize) -> HalfPoints {
    let last = rounds_until_last_non_vur(ctx, i);
    // A draw here is a drawn round: in a micro-match all its games drawn.
    let no_opponent = if ctx.is_round_robin() {
        HalfPoints::ZERO
    } else {
        ctx.tournament.round_draw_points()
    };
    (0..ctx.rounds)
        .map(|r| {
            let entry = ctx.entry(i, r);
            if r < last || entry.opponent().is_some() {
                ctx.points(i, r)
            } else {
                no_opponent
            }
        })
        .sum()
}

/// Score of the dummy opponent of player `i`'s unplayed round in a Swiss (16.4): own
/// score, capped by the scheduled opponent's adjusted score (`Some(j)`) or by
/// draw × rounds (byes).
pub fn dummy_score(ctx: &Context<'_>, i: usize, scheduled: Option<usize>) -> HalfPoints {
    let own = ctx.score[i];
    let cap = match scheduled {
        Some(j) => ctx.adjusted[j],
        None => HalfPoints(
            ctx.tournament
                .round_draw_points()
                .0
                .saturating_mul(ctx.rounds),
        ),
    };
    own.min(cap)
}
