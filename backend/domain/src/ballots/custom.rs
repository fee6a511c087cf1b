//! A table the organiser uploads: one opening per line, as moves or as a FEN.
//!
//! ```text
//! # comment lines and blank lines are skipped
//! 1. c3-d4 f6-g5 2. b2-c3        <- moves, code "1" (the entry's ordinal)
//! A7: c3-d4 d6-c5                <- moves with the code "A7"
//! W:Wa1,c3:Bh8                   <- a position to start from, code "3"
//! R2: W:Wa1,c3:Bh8               <- the same with a code
//! B: b6-a5                       <- the code "B" (a FEN's piece list starts with W or B)
//! ```
//! A code is the text before the first `:` that is followed by a blank (so capture moves such
//! as `c3:e5` and FENs such as `W:W...` are not taken for codes). Moves may be written in any
//! spelling the engine reads; move numbers (`1.`, `12...`) are ignored. Every entry is
//! replayed, and the work is bounded by [`MAX_TEXT_BYTES`], [`MAX_ENTRIES`] and
//! [`MAX_PLIES`].

use super::replay::{Fault, replay};
use super::{BallotError, Opening};
use damka_engine::Variant;
use std::collections::HashMap;

/// The largest upload accepted (256 KiB).
pub const MAX_TEXT_BYTES: usize = 256 * 1024;
/// The most openings in one table.
pub const MAX_ENTRIES: usize = 1000;
/// The most plies in one opening.
pub const MAX_PLIES: usize = 200;
/// The longest code.
pub const MAX_CODE_CHARS: usize = 32;

/// Parses and checks an uploaded table for `variant`; see the module documentation.
pub fn parse_custom_table(variant: Variant, text: &str) -> Result<Vec<Opening>, BallotError> {
    if text.len() > MAX_TEXT_BYTES {
        return Err(BallotError::TooLarge {
            size: text.len(),
            limit: MAX_TEXT_BYTES,
        });
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut openings: Vec<Opening> = Vec::new();
    let mut first_line_of: HashMap<String, usize> = HashMap::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if openings.len() == MAX_ENTRIES {
            return Err(BallotError::TooMany {
                line,
                limit: MAX_ENTRIES,
            });
        }
        let (code, body) = match split_code(trimmed) {
            Some((code, body)) => (code.to_string(), body),
            None => ((openings.len() + 1).to_string(), trimmed),
        };
        if code.chars().count() > MAX_CODE_CHARS {
            return Err(BallotError::CodeTooLong {
                line,
                code,
                limit: MAX_CODE_CHARS,
            });
        }
        if let Some(&first_line) = first_line_of.get(&code) {
            return Err(BallotError::DuplicateCode {
                line,
                code,
                first_line,
            });
        }
        let opening = entry(variant, line, &code, body)?;
        first_line_of.insert(code, line);
        openings.push(opening);
    }
    if openings.is_empty() {
        return Err(BallotError::Empty);
    }
    Ok(openings)
}

/// `CODE: rest` when the line starts with a code: the text before the first `:` followed by
/// a blank (or ending the line), non-empty and without blanks. A line that is a FEN has none.
fn split_code(line: &str) -> Option<(&str, &str)> {
    if is_fen(line) {
        return None;
    }
    let bytes = line.as_bytes();
    let colon = (0..bytes.len())
        .find(|&i| bytes[i] == b':' && bytes.get(i + 1).is_none_or(|b| b.is_ascii_whitespace()))?;
    let code = line[..colon].trim();
    if code.is_empty() || code.contains(char::is_whitespace) {
        return None;
    }
    Some((code, line[colon + 1..].trim()))
}

/// A PDN FEN starts with the side to move, a colon and a piece list: `W:W21,22:B1,2`. The
/// piece list must start with a capital `W` or `B`, so that the code `B` before the moves
/// `b6-a5` (`B: b6-a5`) is not read as a FEN.
fn is_fen(text: &str) -> bool {
    let mut chars = text.chars();
    if !matches!(chars.next(), Some('W' | 'w' | 'B' | 'b')) {
        return false;
    }
    let rest = chars.as_str().trim_start();
    rest.strip_prefix(':')
        .is_some_and(|pieces| pieces.trim_start().starts_with(['W', 'B']))
}

fn entry(variant: Variant, line: usize, code: &str, body: &str) -> Result<Opening, BallotError> {
    let (start_fen, moves): (Option<&str>, Vec<&str>) = if is_fen(body) {
        (Some(body), Vec::new())
    } else {
        let moves = body
            .split_whitespace()
            .map(strip_move_number)
            .filter(|token| !token.is_empty())
            .collect();
        (None, moves)
    };
    if moves.len() > MAX_PLIES {
        return Err(BallotError::TooLong {
            line,
            code: code.to_string(),
            plies: moves.len(),
            limit: MAX_PLIES,
        });
    }
    if start_fen.is_none() && moves.is_empty() {
        // "A7:" alone: nothing to play from the start position is the free opening.
        return Ok(Opening {
            code: code.to_string(),
            moves: Vec::new(),
            start_fen: None,
            fen: damka_engine::Position::start(variant).to_fen(),
        });
    }
    let replayed = replay(variant, start_fen, &moves).map_err(|fault| {
        let code = code.to_string();
        match fault {
            Fault::BadFen(reason) => BallotError::BadFen { line, code, reason },
            Fault::BadMove { ply, text, reason } => BallotError::BadMove {
                line,
                code,
                ply,
                text,
                reason,
            },
            Fault::GameOver { ply } => BallotError::GameOver { line, code, ply },
        }
    })?;
    Ok(Opening {
        code: code.to_string(),
        moves: replayed.moves,
        start_fen: replayed.start_fen,
        fen: replayed.fen,
    })
}

/// `1.` -> ``, `12...` -> ``, `1.c3-d4` -> `c3-d4`; a move such as `11-15` is kept whole.
fn strip_move_number(token: &str) -> &str {
    let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits > 0 && token[digits..].starts_with('.') {
        token[digits..].trim_start_matches('.')
    } else {
        token
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_told_from_captures_and_fens() {
        assert_eq!(split_code("12-IV: c3-d4"), Some(("12-IV", "c3-d4")));
        assert_eq!(split_code("A:"), Some(("A", "")));
        assert_eq!(split_code("c3:e5 f6:d4"), None);
        assert_eq!(split_code("W:Wa1:Bh8"), None);
        assert_eq!(split_code("B: b6-a5"), Some(("B", "b6-a5")));
        assert_eq!(split_code("two words: c3-d4"), None);
        assert!(is_fen("W:W21,22:B1"));
        assert!(is_fen("b : W21:B1"));
        assert!(!is_fen("B: b6-a5"));
    }

    #[test]
    fn move_numbers_are_dropped() {
        assert_eq!(strip_move_number("1."), "");
        assert_eq!(strip_move_number("12..."), "");
        assert_eq!(strip_move_number("1.c3-d4"), "c3-d4");
        assert_eq!(strip_move_number("11-15"), "11-15");
        assert_eq!(strip_move_number("c3-d4"), "c3-d4");
    }

    #[test]
    fn an_empty_entry_is_the_free_opening() {
        let t = parse_custom_table(Variant::International, "Free:\n32-28").expect("valid");
        assert_eq!(t[0].label(), "Free: start position");
        assert_eq!(
            t[0].fen,
            damka_engine::Position::start(Variant::International).to_fen()
        );
        assert_eq!(t[1].code, "2");
    }
}
