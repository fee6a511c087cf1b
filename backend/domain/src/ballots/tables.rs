//! The built-in tables, embedded from `data/ballots/*.tsv` (made by `data/ballots/convert.py`).
//!
//! A data line is `code<TAB>moves<TAB>start_fen<TAB>fen`; `#` lines are comments. Loading
//! replays every entry and requires the engine to write exactly the stored moves and FEN, so
//! the data file, the source's position and the engine's rules all agree.

use super::replay::{Fault, replay};
use super::{BallotError, Opening};
use damka_engine::Variant;
use std::sync::OnceLock;

/// A built-in table of openings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BallotTable {
    /// The IDF "Drawing Table 64": 745 entries, "I-1" .. "XXXIII-9", 396 of them set-up
    /// (relocation) positions.
    Idf64,
    /// The FMJD "Drawing Table 64": 736 entries, "1-I" .. "46-XVI", 392 of them relocation
    /// starts.
    Fmjd64,
    /// The IDF 150 basic positions of 1-3 plies (and "5-VII", the free opening), "1-I" ..
    /// "15-X" (the source's FEN of "2-IV" is mended from its moves, see ATTRIBUTION.md).
    Basic150,
    /// The ACF three-move deck: the 156 openings of the 174 that are not barred, by ACF number.
    English3Move,
}

const SIXTY_FOUR: &[Variant] = &[Variant::Russian, Variant::Brazilian];
const ENGLISH: &[Variant] = &[Variant::English];

impl BallotTable {
    pub const ALL: [BallotTable; 4] = [
        BallotTable::Idf64,
        BallotTable::Fmjd64,
        BallotTable::Basic150,
        BallotTable::English3Move,
    ];

    /// The identifier used in settings.
    pub fn code(self) -> &'static str {
        match self {
            BallotTable::Idf64 => "idf64",
            BallotTable::Fmjd64 => "fmjd64",
            BallotTable::Basic150 => "basic150",
            BallotTable::English3Move => "english3",
        }
    }

    pub fn from_code(s: &str) -> Option<Self> {
        BallotTable::ALL.into_iter().find(|t| t.code() == s.trim())
    }

    /// The variants the table is played in. The 64-square tables are Russian; Brazilian men
    /// move the same way, and the federations' Brazilian versions leave a few entries out
    /// (see [`BallotTable::openings_for`]).
    pub fn variants(self) -> &'static [Variant] {
        match self {
            BallotTable::English3Move => ENGLISH,
            _ => SIXTY_FOUR,
        }
    }

    /// The variant whose rules the data files are written in.
    pub fn home_variant(self) -> Variant {
        match self {
            BallotTable::English3Move => Variant::English,
            _ => Variant::Russian,
        }
    }

    /// Attribution of the data, for display next to a drawn opening.
    pub fn source(self) -> &'static str {
        match self {
            BallotTable::Idf64 => "IDF Drawing Table 64, via pydraughts (MIT)",
            BallotTable::Fmjd64 => "FMJD Drawing Table 64, via strategygames (MIT)",
            BallotTable::Basic150 => "IDF 150 basic positions, via pydraughts (MIT)",
            BallotTable::English3Move => "ACF three-move deck of 156, via pydraughts (MIT)",
        }
    }

    fn data(self) -> &'static str {
        match self {
            BallotTable::Idf64 => include_str!("../../data/ballots/idf64.tsv"),
            BallotTable::Fmjd64 => include_str!("../../data/ballots/fmjd64.tsv"),
            BallotTable::Basic150 => include_str!("../../data/ballots/basic150.tsv"),
            BallotTable::English3Move => include_str!("../../data/ballots/english3.tsv"),
        }
    }

    /// The table's openings in the home variant, replayed once and kept. An error means a
    /// bad built-in entry (a bug; the tests load every table).
    pub fn openings(self) -> Result<&'static [Opening], BallotError> {
        self.openings_for(self.home_variant())
    }

    /// The openings of the table's version for `variant`, replayed under its rules and in its
    /// notation. The Brazilian versions leave out what the sources leave out (IDF table: 9
    /// entries, 4 of them illegal there because the most pieces must be captured; FMJD table:
    /// 11, 3 of them illegal): 736, 725 and 150 openings.
    pub fn openings_for(self, variant: Variant) -> Result<&'static [Opening], BallotError> {
        if !self.variants().contains(&variant) {
            return Err(BallotError::WrongVariant {
                table: self.code(),
                variant,
            });
        }
        let cell = cache(self, variant != self.home_variant());
        cell.get_or_init(|| load(self, variant, self.data()))
            .as_ref()
            .map(Vec::as_slice)
            .map_err(Clone::clone)
    }
}

type Loaded = OnceLock<Result<Vec<Opening>, BallotError>>;

/// One cache per table and per "home variant or the other one" (Brazilian).
fn cache(table: BallotTable, other_variant: bool) -> &'static Loaded {
    static CACHES: [[Loaded; 2]; 4] = [const { [const { OnceLock::new() }; 2] }; 4];
    let index = BallotTable::ALL
        .iter()
        .position(|t| *t == table)
        .unwrap_or_default();
    &CACHES[index][usize::from(other_variant)]
}

/// Reads and replays the lines of `data`, a table's file.
fn load(table: BallotTable, variant: Variant, data: &str) -> Result<Vec<Opening>, BallotError> {
    let home = variant == table.home_variant();
    let mut openings = Vec::new();
    for (index, line) in data.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |code: &str, reason: String| BallotError::BadBuiltin {
            table: table.code(),
            line: index + 1,
            code: code.to_string(),
            reason,
        };
        let fields: Vec<&str> = line.split('\t').collect();
        let (code, moves, start_fen, fen, brazilian) = match fields[..] {
            [code, moves, start_fen, fen] => (code, moves, start_fen, fen, None),
            [code, moves, start_fen, fen, flag] => (code, moves, start_fen, fen, Some(flag)),
            _ => {
                return Err(bad(
                    line,
                    format!("{} fields instead of 4 or 5", fields.len()),
                ));
            }
        };
        // The source's Brazilian version of the table leaves some entries out.
        if variant == Variant::Brazilian && brazilian != Some("1") {
            continue;
        }
        let moves: Vec<&str> = moves.split_whitespace().collect();
        let start = (!start_fen.is_empty()).then_some(start_fen);
        let replayed =
            replay(variant, start, &moves).map_err(|fault| bad(code, describe(&fault)))?;
        if replayed.fen != fen {
            return Err(bad(
                code,
                format!("the moves lead to {} instead of {fen}", replayed.fen),
            ));
        }
        // Another variant may spell captures differently (`x` in Brazilian).
        if home && (replayed.moves != moves || replayed.start_fen.as_deref() != start) {
            return Err(bad(code, "not written as the engine writes it".to_string()));
        }
        openings.push(Opening {
            code: code.to_string(),
            moves: replayed.moves,
            start_fen: replayed.start_fen,
            fen: replayed.fen,
        });
    }
    Ok(openings)
}

fn describe(fault: &Fault) -> String {
    match fault {
        Fault::BadFen(reason) => format!("bad FEN: {reason}"),
        Fault::BadMove { ply, text, reason } => format!("ply {ply} ({text}): {reason}"),
        Fault::GameOver { ply } => format!("the game is over after ply {ply}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str =
        "W:Wa3,c3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,f6,h6";

    fn builtin_error(data: &str) -> BallotError {
        load(BallotTable::Fmjd64, Variant::Russian, data).expect_err("bad entry refused")
    }

    #[test]
    fn a_bad_builtin_entry_is_an_error_naming_it() {
        let after_c3d4 =
            "B:Wd4,a3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,f6,h6";
        let good = format!("# comment\nA\tc3-d4\t\t{after_c3d4}\t1\n");
        assert_eq!(
            load(BallotTable::Fmjd64, Variant::Russian, &good).map(|o| o.len()),
            Ok(1)
        );
        let wrong_fen = format!("# comment\nX-1\tc3-d4\t\t{START}\t1\n");
        assert_eq!(
            builtin_error(&wrong_fen),
            BallotError::BadBuiltin {
                table: "fmjd64",
                line: 2,
                code: "X-1".into(),
                reason: format!("the moves lead to {after_c3d4} instead of {START}"),
            }
        );
        let illegal = format!("X-2\tc3-d5\t\t{START}\t1");
        assert_eq!(builtin_error(&illegal).code(), "ballot_bad_builtin");
        assert!(
            builtin_error(&illegal)
                .to_string()
                .contains("opening X-2: ply 1")
        );
        // Legal, but not spelt as the engine spells it.
        let spelling = format!("X-3\tc3d4\t\t{after_c3d4}\t1");
        assert!(
            builtin_error(&spelling)
                .to_string()
                .contains("not written as the engine")
        );
        assert!(builtin_error("X-4\tc3-d4").to_string().contains("2 fields"));
    }

    #[test]
    fn brazilian_skips_the_entries_flagged_out_and_checks_the_rest() {
        let data = format!("A\t\t{START}\t{START}\t0\nB\t\t{START}\t{START}\t1\n");
        let openings = load(BallotTable::Fmjd64, Variant::Brazilian, &data).expect("loads");
        assert_eq!(openings.len(), 1);
        assert_eq!(openings[0].code, "B");
        let bad = format!("C\tc3-d4\t\t{START}\t1");
        assert!(load(BallotTable::Fmjd64, Variant::Brazilian, &bad).is_err());
    }
}
