//! PDN FEN: `W:W21,22,K23:B1,2,3`, ranges `W:W31-50:B1-20`, algebraic squares for russian
//! and brazilian (`W:Wa1,c1,Kh2:Bb8`). Parsing validates everything before a position is built.

use crate::movegen::Bitboards;
use crate::position::{PieceKind, Position};
use crate::rules::{Color, Rules};
use crate::square::Square;
use std::fmt;

/// How squares are written in a FEN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SquareStyle {
    /// The variant's usual spelling (algebraic for russian and brazilian, numbers otherwise).
    Native,
    /// PDN numbers (1 = top-left dark square), also accepted for russian when the GameType says so.
    Numeric,
}

/// What is wrong with a FEN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenErrorKind {
    Empty,
    /// The first field is not `W` or `B`.
    BadSideToMove(String),
    /// A piece field does not start with `W` or `B`.
    BadColor(String),
    /// The same colour's field appears twice.
    DuplicateColor(Color),
    NotASquare(String),
    BadRange(String),
    /// Two pieces on one square.
    SquareTwice(String),
    /// A man standing on the row where it would have been crowned.
    ManOnPromotionRow(String),
}

/// A FEN error with the 1-based column where it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    pub column: usize,
    pub kind: FenErrorKind,
}

impl fmt::Display for FenErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenErrorKind::Empty => write!(f, "the FEN is empty"),
            FenErrorKind::BadSideToMove(t) => {
                write!(f, "side to move must be W or B, found {t:?}")
            }
            FenErrorKind::BadColor(t) => {
                write!(f, "a piece list must start with W or B, found {t:?}")
            }
            FenErrorKind::DuplicateColor(c) => write!(f, "the {c} pieces are listed twice"),
            FenErrorKind::NotASquare(t) => write!(f, "{t:?} is not a square of this board"),
            FenErrorKind::BadRange(t) => write!(f, "{t:?} is not a valid range of squares"),
            FenErrorKind::SquareTwice(t) => write!(f, "square {t} is given twice"),
            FenErrorKind::ManOnPromotionRow(t) => {
                write!(
                    f,
                    "a man on {t} stands on its promotion row (it should be a king)"
                )
            }
        }
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.column, self.kind)
    }
}

impl std::error::Error for FenError {}

struct Parser<'a> {
    text: &'a str,
    rules: Rules,
    algebraic: bool,
}

impl Parser<'_> {
    fn error(&self, offset: usize, kind: FenErrorKind) -> FenError {
        FenError {
            column: self.text[..offset.min(self.text.len())].chars().count() + 1,
            kind,
        }
    }

    fn square(&self, token: &str, offset: usize) -> Result<Square, FenError> {
        let size = self.rules.variant.board_size();
        Square::parse(token, size, self.algebraic)
            .ok_or_else(|| self.error(offset, FenErrorKind::NotASquare(token.to_string())))
    }

    /// Squares named by one item: `23`, `c3` or a numeric range `31-50`.
    fn item(&self, token: &str, offset: usize) -> Result<Vec<Square>, FenError> {
        match token.split_once('-') {
            Some((low, high)) if !self.algebraic => {
                let low_sq = self.square(low, offset)?;
                let high_sq = self.square(high, offset + low.len() + 1)?;
                if low_sq > high_sq {
                    return Err(self.error(offset, FenErrorKind::BadRange(token.to_string())));
                }
                let size = self.rules.variant.board_size();
                Ok((low_sq.number()..=high_sq.number())
                    .filter_map(|n| Square::new(n, size))
                    .collect())
            }
            Some(_) => Err(self.error(offset, FenErrorKind::BadRange(token.to_string()))),
            None => Ok(vec![self.square(token, offset)?]),
        }
    }

    fn parse(&self) -> Result<Position, FenError> {
        let size = self.rules.variant.board_size();
        // Offsets are relative to `self.text`; surrounding quotes, blanks and a final '.' are allowed.
        let start = self.text.len() - self.text.trim_start_matches([' ', '\t', '"']).len();
        let body = self.text[start..]
            .trim_end_matches([' ', '\t', '\r', '\n', '"'])
            .trim_end_matches('.');
        if body.is_empty() {
            return Err(self.error(start, FenErrorKind::Empty));
        }
        let mut fields = Vec::new();
        let mut offset = start;
        for field in body.split(':') {
            fields.push((field, offset));
            offset += field.len() + 1;
        }
        let (side_field, side_offset) = fields[0];
        let side = match side_field.trim() {
            "W" | "w" => Color::White,
            "B" | "b" => Color::Black,
            other => {
                return Err(self.error(side_offset, FenErrorKind::BadSideToMove(other.to_string())));
            }
        };
        let mut boards = Bitboards::default();
        let mut seen = [false; 2];
        for &(field, field_offset) in &fields[1..] {
            let trimmed_start = field.len() - field.trim_start().len();
            let field_offset = field_offset + trimmed_start;
            let field = field.trim();
            let color = match field.chars().next() {
                Some('W' | 'w') => Color::White,
                Some('B' | 'b') => Color::Black,
                _ => {
                    return Err(self.error(field_offset, FenErrorKind::BadColor(field.to_string())));
                }
            };
            let slot = usize::from(color == Color::Black);
            if seen[slot] {
                return Err(self.error(field_offset, FenErrorKind::DuplicateColor(color)));
            }
            seen[slot] = true;
            let mut item_offset = field_offset + 1;
            for raw_item in field[1..].split(',') {
                let lead = raw_item.len() - raw_item.trim_start().len();
                let item = raw_item.trim();
                let at = item_offset + lead;
                item_offset += raw_item.len() + 1;
                if item.is_empty() {
                    continue;
                }
                let (kind, squares_text, squares_at) = match item.strip_prefix(['K', 'k']) {
                    Some(rest) => (PieceKind::King, rest, at + 1),
                    None => (PieceKind::Man, item, at),
                };
                for square in self.item(squares_text, squares_at)? {
                    let mask = square.mask(size);
                    if (boards.white | boards.black) & mask != 0 {
                        return Err(self.error(
                            at,
                            FenErrorKind::SquareTwice(square.name(size, self.algebraic)),
                        ));
                    }
                    let (row, _) = square.row_col(size);
                    let promotion_row = match color {
                        Color::White => 0,
                        Color::Black => size.side() - 1,
                    };
                    if kind == PieceKind::Man && row == promotion_row {
                        return Err(self.error(
                            at,
                            FenErrorKind::ManOnPromotionRow(square.name(size, self.algebraic)),
                        ));
                    }
                    match color {
                        Color::White => boards.white |= mask,
                        Color::Black => boards.black |= mask,
                    }
                    if kind == PieceKind::King {
                        boards.kings |= mask;
                    }
                }
            }
        }
        Ok(Position::from_parts(self.rules, boards, side))
    }
}

/// Parses a FEN with the given square style.
pub fn parse_fen(rules: Rules, text: &str, style: SquareStyle) -> Result<Position, FenError> {
    Parser {
        text,
        rules,
        algebraic: style == SquareStyle::Native && rules.variant.algebraic(),
    }
    .parse()
}

/// Writes a FEN in the given square style (squares in increasing PDN order, no ranges).
pub fn format_fen(position: &Position, style: SquareStyle) -> String {
    let size = position.board_size();
    let algebraic = style == SquareStyle::Native && position.variant().algebraic();
    let mut out = String::new();
    out.push(position.side_to_move().letter());
    for color in [Color::White, Color::Black] {
        out.push(':');
        out.push(color.letter());
        let names: Vec<String> = position
            .pieces()
            .into_iter()
            .filter(|(_, piece)| piece.color == color)
            .map(|(sq, piece)| {
                let prefix = if piece.kind == PieceKind::King {
                    "K"
                } else {
                    ""
                };
                format!("{prefix}{}", sq.name(size, algebraic))
            })
            .collect();
        out.push_str(&names.join(","));
    }
    out
}

impl Position {
    /// Parses a FEN in the variant's usual square spelling.
    pub fn from_fen(rules: impl Into<Rules>, text: &str) -> Result<Position, FenError> {
        parse_fen(rules.into(), text, SquareStyle::Native)
    }

    /// The FEN in the variant's usual square spelling.
    pub fn to_fen(&self) -> String {
        format_fen(self, SquareStyle::Native)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    #[test]
    fn start_positions_round_trip_and_match_ranges() {
        let intl = Position::from_fen(Variant::International, "W:W31-50:B1-20").unwrap();
        assert_eq!(intl, Position::start(Variant::International));
        let english = Position::from_fen(Variant::English, "B:W21-32:B1-12").unwrap();
        assert_eq!(english, Position::start(Variant::English));
        for v in Variant::ALL {
            let start = Position::start(v);
            assert_eq!(Position::from_fen(v, &start.to_fen()).unwrap(), start);
        }
        assert_eq!(
            Position::start(Variant::Russian).to_fen(),
            "W:Wa3,c3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,f6,h6"
        );
    }

    #[test]
    fn kings_and_algebraic_squares() {
        let pos = Position::from_fen(Variant::Russian, "W:WKc1:Bd2,e5,c5,c3").unwrap();
        assert_eq!(pos.to_fen(), "W:WKc1:Bc5,e5,c3,d2");
        let numeric = parse_fen(
            Variant::Russian.into(),
            "B:W21,K22:B1",
            SquareStyle::Numeric,
        )
        .unwrap();
        assert_eq!(numeric.to_fen(), "B:Wa3,Kc3:Bb8");
    }

    #[test]
    fn errors_name_the_column() {
        let err = Position::from_fen(Variant::International, "W:W31-51:B1").unwrap_err();
        assert_eq!(err.kind, FenErrorKind::NotASquare("51".into()));
        assert_eq!(err.column, 7, "the 51 of the range");
        let err = Position::from_fen(Variant::Russian, "X:Wc3").unwrap_err();
        assert_eq!(err.column, 1);
        let err = Position::from_fen(Variant::Russian, "W:Wc3:Bc3").unwrap_err();
        assert_eq!(err.kind, FenErrorKind::SquareTwice("c3".into()));
        assert_eq!(err.column, 8);
        let err = Position::from_fen(Variant::Russian, "W:Wb8").unwrap_err();
        assert_eq!(err.kind, FenErrorKind::ManOnPromotionRow("b8".into()));
        let err = Position::from_fen(Variant::Russian, "W:Wc3:Wd4").unwrap_err();
        assert_eq!(err.kind, FenErrorKind::DuplicateColor(Color::White));
        let err = Position::from_fen(Variant::English, "W:W5-3").unwrap_err();
        assert_eq!(err.kind, FenErrorKind::BadRange("5-3".into()));
        assert_eq!(
            Position::from_fen(Variant::English, "").unwrap_err().kind,
            FenErrorKind::Empty
        );
    }
}
