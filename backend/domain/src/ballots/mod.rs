//! Opening ballots: the tables of drawn openings (issue 15) and the draw itself.
//!
//! A micro-match starts from a drawn opening: a few compulsory plies, or for the 64-square
//! tables' "relocation" entries a set-up position. The built-in tables are data files in
//! `data/ballots/` converted from permissively licensed public files (see
//! `data/ballots/ATTRIBUTION.md`); every entry is replayed by the engine when a table is first
//! used, so a bad entry is an error naming it rather than an impossible game. An organiser may
//! also upload a table ([`parse_custom_table`]), which is checked the same way.
//!
//! Modules: [`tables`] (the built-in tables), [`custom`] (uploaded tables), [`replay`] (what
//! both use to check an entry), [`draw`] (the reproducible draw), [`error`].

pub mod custom;
pub mod draw;
pub mod error;
pub mod replay;
pub mod tables;

pub use custom::{MAX_CODE_CHARS, MAX_ENTRIES, MAX_PLIES, MAX_TEXT_BYTES, parse_custom_table};
pub use draw::{BallotPer, SplitMix64, draw};
pub use error::BallotError;
pub use tables::BallotTable;

/// One opening of a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opening {
    /// The code the table gives it: "12-IV" (FMJD), "I-1" (IDF), "001" (ACF), or for an
    /// uploaded table the organiser's code or the entry's ordinal.
    pub code: String,
    /// Each ply in the engine's notation (`Move::notation`), to be played from the start
    /// position (or `start_fen`) as the game's first plies.
    pub moves: Vec<String>,
    /// The set-up position the game starts from, for relocation starts and FEN entries; `None`
    /// when the game starts from the variant's initial position.
    pub start_fen: Option<String>,
    /// The position after the moves, as the engine writes FEN.
    pub fen: String,
}

impl Opening {
    /// Text for display: "1-I: a3-b4 b6-a5 ...", "II-1: position" for a set-up position,
    /// "5-VII: start position" for the free opening (no moves).
    pub fn label(&self) -> String {
        if !self.moves.is_empty() {
            format!("{}: {}", self.code, self.moves.join(" "))
        } else if self.start_fen.is_some() {
            format!("{}: position", self.code)
        } else {
            format!("{}: start position", self.code)
        }
    }
}
