//! STUB (replaced by the `ballots` branch at merge): the interface the service codes against.
use std::collections::HashMap;

use damka_engine::Variant;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BallotTable {
    Idf64,
    Fmjd64,
    Basic150,
    English3Move,
}

impl BallotTable {
    pub const ALL: [BallotTable; 4] = [
        BallotTable::Idf64,
        BallotTable::Fmjd64,
        BallotTable::Basic150,
        BallotTable::English3Move,
    ];
    pub fn code(self) -> &'static str {
        match self {
            BallotTable::Idf64 => "idf64",
            BallotTable::Fmjd64 => "fmjd64",
            BallotTable::Basic150 => "basic150",
            BallotTable::English3Move => "english3",
        }
    }
    pub fn from_code(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.code() == s)
    }
    pub fn variants(self) -> &'static [Variant] {
        match self {
            BallotTable::English3Move => &[Variant::English],
            _ => &[Variant::Russian, Variant::Brazilian],
        }
    }
    pub fn openings(self) -> Result<&'static [Opening], BallotError> {
        Ok(&[])
    }
    pub fn openings_for(self, _variant: Variant) -> Result<&'static [Opening], BallotError> {
        Ok(&[])
    }
    pub fn source(self) -> &'static str {
        ""
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opening {
    pub code: String,
    pub moves: Vec<String>,
    pub start_fen: Option<String>,
    pub fen: String,
}

impl Opening {
    pub fn label(&self) -> String {
        format!("{}: {}", self.code, self.moves.join(" "))
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BallotError {
    #[error("line {line}: {reason}")]
    BadEntry { line: usize, reason: String },
}

impl BallotError {
    pub fn code(&self) -> &'static str {
        "ballot_bad_entry"
    }
}

pub fn parse_custom_table(_variant: Variant, _text: &str) -> Result<Vec<Opening>, BallotError> {
    Ok(Vec::new())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BallotPer {
    Pairing,
    Round,
}

pub fn draw(
    seed: u64,
    table_len: usize,
    pairs: &[(i64, i64)],
    _used: &HashMap<(i64, i64), Vec<usize>>,
    _per: BallotPer,
) -> Vec<usize> {
    pairs
        .iter()
        .enumerate()
        .map(|(i, _)| (seed as usize + i) % table_len.max(1))
        .collect()
}
