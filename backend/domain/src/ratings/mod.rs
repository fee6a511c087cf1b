//! Player ratings computed from played results, as pure functions: the federation Elo
//! ([`elo`], FIDE/FMJD rules, one rating period per event) and Glicko-2 ([`glicko2`],
//! lidraughts parameters, one game per rating period).
//!
//! Both systems take a player's state and the results of one period and return the new
//! state, so a full recompute is a fold over results in the order they became final, per
//! player and variant. Nothing here allocates per game: recomputing 100,000 games is a
//! loop over plain structs.
//!
//! Only games played over the board are rated; callers leave out forfeits, byes and
//! unplayed games before calling in.

pub mod elo;
pub mod glicko2;
pub mod ledger;

use crate::tournament::HalfPoints;

/// The result of one game for the player being rated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Score {
    Loss,
    Draw,
    Win,
}

impl Score {
    /// The same result seen from the opponent's side.
    pub fn reversed(self) -> Score {
        match self {
            Score::Loss => Score::Win,
            Score::Draw => Score::Draw,
            Score::Win => Score::Loss,
        }
    }

    pub fn half_points(self) -> HalfPoints {
        match self {
            Score::Loss => HalfPoints::ZERO,
            Score::Draw => HalfPoints::HALF,
            Score::Win => HalfPoints::ONE,
        }
    }

    /// The score in hundredths of a point (0, 50, 100), so Elo sums stay exact integers
    /// like the expected-score table, which is given in hundredths.
    pub(crate) fn hundredths(self) -> i64 {
        i64::from(self.half_points().0) * 50
    }

    /// The score as 0, 0.5 or 1, for Glicko-2's continuous formulas.
    pub(crate) fn as_f64(self) -> f64 {
        self.half_points().as_f64()
    }
}
