//! A table to take away (the CSV and .xlsx downloads): column titles and typed cells, made
//! once by a use case and written by the web layer in either format, so the two never say
//! different things. Titles and the few cells that are words are kept as what they mean
//! (a catalogue key, a bye kind), for the web layer to put in the reader's language.
use chrono::NaiveDate;
use damka_domain::tournament::ByeKind;
use damka_domain::vocabulary::System;
use damka_engine::Variant;

/// What a column is called.
#[derive(Debug, Clone, PartialEq)]
pub enum Title {
    /// A catalogue key (`player.name`).
    Key(&'static str),
    /// A tie-break column, by its code (named as the event's variant and system name it).
    Tiebreak {
        code: String,
        variant: Variant,
        system: System,
    },
    /// A numbered column: a crosstable's opponent (round-robin) or round (Swiss).
    Number(u32),
}

/// One cell, typed as a spreadsheet should hold it.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Empty,
    Text(String),
    Integer(i64),
    /// Points, tie-break values: `1.5`, not the text "1,5".
    Number(f64),
    Date(NaiveDate),
    /// A crosstable cell as the API writes it (`12w1`), for the reader's letters.
    Cross(String),
    /// Why a player has no game; `keizer`: by the Keizer names of absences.
    Bye {
        kind: ByeKind,
        keizer: bool,
    },
}

impl Cell {
    pub fn text(text: impl Into<String>) -> Cell {
        Cell::Text(text.into())
    }

    pub fn optional(number: Option<impl Into<i64>>) -> Cell {
        number.map_or(Cell::Empty, |n| Cell::Integer(n.into()))
    }

    /// A figure computed as text elsewhere (`"12.5"`), as a number when it reads as one.
    pub fn figure(text: &str) -> Cell {
        match text.trim().parse::<f64>() {
            Ok(number) if number.is_finite() => Cell::Number(number),
            _ if text.trim().is_empty() => Cell::Empty,
            _ => Cell::text(text),
        }
    }
}

/// Column titles and rows of cells (each row as long as the titles).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Table {
    pub titles: Vec<Title>,
    pub rows: Vec<Vec<Cell>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_become_numbers_and_anything_else_stays_text() {
        assert_eq!(Cell::figure("12.5"), Cell::Number(12.5));
        assert_eq!(Cell::figure("3"), Cell::Number(3.0));
        assert_eq!(Cell::figure(""), Cell::Empty);
        assert_eq!(Cell::figure("n/a"), Cell::text("n/a"));
        assert_eq!(Cell::figure("NaN"), Cell::text("NaN"));
    }
}
