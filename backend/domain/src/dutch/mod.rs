//! The FIDE Dutch system (Handbook C.04.1 basic rules, C.04.3 Dutch system): pairs the next
//! round of a [`Tournament`]. The result is meant to be identical to bbpPairings `--dutch`
//! (boards, colours, PAB), which the corpus in `tests/data/dutch` checks.
//!
//! Modules: [`players`] (scores, colour preferences, floats, bye eligibility), [`weights`]
//! (the criteria as edge weights), [`blossom`] (maximum-weight matching), [`brackets`] (the
//! bracket-by-bracket procedure), [`colours`] (colour allocation), [`bigint`] (wide integers),
//! `tables` (compact storage of the matching's weights and blossoms).
//!
//! Accelerations (TRF `XXA`, [`crate::tournament::Player::accelerations`]) are used as
//! bbpPairings uses them: the score every criterion, bracket, bye and colour rule sees is
//! the score plus the acceleration of the round being paired; a past round's float is
//! judged on the scores that round was paired on (score before it plus its acceleration);
//! only the order of the boards uses the scores without acceleration. A micro-match event
//! pairs on its real totals this way (see [`crate::micro_match`]).

pub mod bigint;
pub mod blossom;
pub mod brackets;
pub mod colours;
pub mod players;
mod tables;
pub mod weights;

use crate::tournament::{StartNo, Tournament};
use std::fmt::Write as _;

/// One board: White against Black.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Board {
    pub white: StartNo,
    pub black: StartNo,
}

/// The pairing of one round, boards in publication order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RoundPairing {
    pub boards: Vec<Board>,
    /// The player who gets the pairing-allocated bye.
    pub bye: Option<StartNo>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PairingError {
    #[error(
        "no valid pairing exists: the players cannot all be paired without breaking an absolute criterion"
    )]
    NoValidPairing,
    #[error("the total number of rounds of the event is not known (TRF record XXR)")]
    UnknownRoundCount,
    #[error("all {0} rounds of the event have been paired already")]
    EventFinished(u32),
    #[error("the event is too large for the pairing engine ({0} bits of weight needed)")]
    TooLarge(usize),
    #[error(
        "games still without a result (each must be played or scored before the next round is paired): {}",
        .0.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
    )]
    UnplayedGames(Vec<crate::tournament::PendingGame>),
}

impl RoundPairing {
    /// Whether `player` is on a board or has the bye.
    pub fn places(&self, player: StartNo) -> bool {
        self.bye == Some(player)
            || self
                .boards
                .iter()
                .any(|b| b.white == player || b.black == player)
    }

    /// bbpPairings' output: the number of pairs (the PAB counts as one), then one
    /// `white black` line per board, and `N 0` for the PAB.
    pub fn to_bbp_format(&self) -> String {
        let mut out = String::new();
        let count = self.boards.len() + usize::from(self.bye.is_some());
        let _ = writeln!(out, "{count}");
        for b in &self.boards {
            let _ = writeln!(out, "{} {}", b.white, b.black);
        }
        if let Some(p) = self.bye {
            let _ = writeln!(out, "{p} 0");
        }
        out
    }

    /// Parses bbpPairings' output format (used by tests).
    pub fn from_bbp_format(text: &str) -> Option<RoundPairing> {
        let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
        let count: usize = lines.next()?.parse().ok()?;
        let mut r = RoundPairing::default();
        for _ in 0..count {
            let mut it = lines.next()?.split_whitespace();
            let a: StartNo = it.next()?.parse().ok()?;
            let b: StartNo = it.next()?.parse().ok()?;
            if b == 0 {
                r.bye = Some(a);
            } else {
                r.boards.push(Board { white: a, black: b });
            }
        }
        Some(r)
    }
}

/// Pairs the next round of `t` with the Dutch system. Players listed in
/// `t.next_round_absences` are not paired.
pub fn pair_next_round(t: &Tournament) -> Result<RoundPairing, PairingError> {
    if !t.pending_games.is_empty() {
        let mut games = t.pending_games.clone();
        games.sort_unstable();
        return Err(PairingError::UnplayedGames(games));
    }
    let round = players::build(t);
    if round.total_rounds == 0 {
        return Err(PairingError::UnknownRoundCount);
    }
    if round.played_rounds >= round.total_rounds {
        return Err(PairingError::EventFinished(round.total_rounds));
    }
    let mut scores: Vec<u32> = round.players.iter().map(|p| p.score).collect();
    scores.sort_unstable_by(|a, b| b.cmp(a));
    let bits = weights::Layout::new(&scores, round.played_rounds).total_bits + 6;
    let (pairs, bye) = match bits.div_ceil(64) {
        0..=2 => brackets::pair_round::<2>(&round)?,
        3 => brackets::pair_round::<3>(&round)?,
        4 => brackets::pair_round::<4>(&round)?,
        5 => brackets::pair_round::<5>(&round)?,
        6 => brackets::pair_round::<6>(&round)?,
        7 => brackets::pair_round::<7>(&round)?,
        8 => brackets::pair_round::<8>(&round)?,
        9 => brackets::pair_round::<9>(&round)?,
        10 => brackets::pair_round::<10>(&round)?,
        11..=12 => brackets::pair_round::<12>(&round)?,
        13..=16 => brackets::pair_round::<16>(&round)?,
        17..=24 => brackets::pair_round::<24>(&round)?,
        25..=32 => brackets::pair_round::<32>(&round)?,
        33..=48 => brackets::pair_round::<48>(&round)?,
        49..=64 => brackets::pair_round::<64>(&round)?,
        _ => return Err(PairingError::TooLarge(bits)),
    };
    let mut boards: Vec<(usize, usize)> = pairs
        .into_iter()
        .map(|(a, b)| {
            // Colours are decided from the side of the smaller start number.
            let (p, o) = if round.players[a].start_no < round.players[b].start_no {
                (a, b)
            } else {
                (b, a)
            };
            match colours::colour_of(&round, p, o) {
                crate::tournament::Colour::White => (p, o),
                crate::tournament::Colour::Black => (o, p),
            }
        })
        .collect();
    // Board order: higher player's score, then lower player's score, then the higher
    // player's pairing number; scores without acceleration, as bbpPairings publishes.
    let key = |&(w, b): &(usize, usize)| {
        let (pw, pb) = (&round.players[w], &round.players[b]);
        let (hi, lo) = if colours::ranked_above_unaccelerated(pw, pb) {
            (pw, pb)
        } else {
            (pb, pw)
        };
        (
            std::cmp::Reverse(hi.unaccelerated_score),
            std::cmp::Reverse(lo.unaccelerated_score),
            hi.rank,
        )
    };
    boards.sort_by_key(key);
    Ok(RoundPairing {
        boards: boards
            .into_iter()
            .map(|(w, b)| Board {
                white: round.players[w].start_no,
                black: round.players[b].start_no,
            })
            .collect(),
        bye: bye.map(|p| round.players[p].start_no),
    })
}
