//! The Keizer system (J. H. Keizer, 1956): whoever is present is paired top-down by the
//! Keizer ranking; a win earns the opponent's value number, a draw half of it, an absence
//! a share of one's own. Every share is in sixths, so every score is an exact integer
//! number of sixths.
//!
//! - [`options`]: the event's options and the form's presets.
//! - [`standings`]: the scores and the ranking after a round, each player's rounds
//!   explained (opponent, the value used, what it earned).
//! - [`pair_next_round`]: the present players paired by the ranking after the last round.

pub mod options;
mod pairing;
mod scoring;
#[cfg(test)]
mod tests;

pub use options::{
    KeizerMethod, KeizerOptions, KeizerOptionsError, KeizerPreset, MAX_ITERATIONS, MAX_ROUNDS,
    PRESETS,
};

pub use pairing::pair_next_round;
pub use scoring::standings;

use crate::tournament::{RoundEntry, StartNo};

/// What one round gave a player, as their card explains it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeizerRound {
    /// 1-based.
    pub round: u32,
    pub entry: RoundEntry,
    /// The value the round was scored with: the opponent's for a game, the player's own
    /// for a bye or an absence; `None` when the round scores nothing by rule (a forfeit
    /// loss, a round before the player's entry).
    pub value: Option<u32>,
    /// The share of `value` the round earned, in sixths.
    pub share_sixths: u32,
    /// `value × share_sixths`: what the round added to the score, in sixths.
    pub earned_sixths: u64,
}

/// One player in the Keizer standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeizerRow {
    pub start_no: StartNo,
    /// 1-based, no shared places: equal scores are ranked by start number.
    pub rank: u32,
    /// The value number the rank gives now (what a win against the player earns next).
    pub value: u32,
    /// The whole score in sixths.
    pub sixths: u64,
    /// The own value counted once (0 when `own_value` is off), in sixths.
    pub own_value_sixths: u64,
    /// The rounds 1 ..= after_round, in order.
    pub rounds: Vec<KeizerRound>,
}

/// The Keizer standings after a round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeizerStandings {
    pub after_round: u32,
    /// In Keizer order.
    pub rows: Vec<KeizerRow>,
}

impl KeizerStandings {
    pub fn row(&self, start_no: StartNo) -> Option<&KeizerRow> {
        self.rows.iter().find(|r| r.start_no == start_no)
    }
}
