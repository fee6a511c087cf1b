//! Squares: PDN numbers, algebraic names and their bits.

use crate::geometry::bit_of_index;
use crate::rules::BoardSize;
use std::fmt;

/// A dark square, by its PDN number (1 = the top-left dark square as White sees the board:
/// b8 on 8x8, b10 on 10x10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with PDN number `number`, if the board has it.
    pub fn new(number: u8, size: BoardSize) -> Option<Square> {
        (1..=size.squares())
            .contains(&number)
            .then_some(Square(number))
    }

    pub(crate) fn from_index(index: u32) -> Square {
        // Indices come from board bits, so they are below 50.
        Square(index as u8 + 1)
    }

    /// The PDN number of the square.
    pub fn number(self) -> u8 {
        self.0
    }

    pub(crate) fn index(self) -> u32 {
        u32::from(self.0) - 1
    }

    /// The bit of this square in the board layout.
    pub(crate) fn bit(self, size: BoardSize) -> u32 {
        bit_of_index(self.index(), u32::from(size.per_row()))
    }

    pub(crate) fn mask(self, size: BoardSize) -> u64 {
        1u64 << self.bit(size)
    }

    /// The square at a bit of the layout (the bit must be a playable square).
    pub(crate) fn from_bit(bit: u32, size: BoardSize) -> Square {
        let per_row = u32::from(size.per_row());
        Square::from_index(bit - bit / (2 * per_row + 1))
    }

    /// Row from the top (0 = Black's back row) and column from the left (0 = file a).
    pub fn row_col(self, size: BoardSize) -> (u8, u8) {
        let per_row = size.per_row();
        let index = self.0 - 1;
        let row = index / per_row;
        let in_row = index % per_row;
        let col = if row.is_multiple_of(2) {
            2 * in_row + 1
        } else {
            2 * in_row
        };
        (row, col)
    }

    /// The dark square at a row (from the top) and column, if it is one.
    pub fn from_row_col(size: BoardSize, row: u8, col: u8) -> Option<Square> {
        let side = size.side();
        if row >= side || col >= side || (row + col).is_multiple_of(2) {
            return None;
        }
        Some(Square(row * size.per_row() + col / 2 + 1))
    }

    /// Algebraic name, `a1` = bottom left on White's side.
    pub fn algebraic(self, size: BoardSize) -> String {
        let (row, col) = self.row_col(size);
        format!("{}{}", char::from(b'a' + col), size.side() - row)
    }

    /// Parses `c3` (algebraic) or `22` (numeric) as a square of the board.
    pub fn parse(text: &str, size: BoardSize, algebraic: bool) -> Option<Square> {
        if algebraic {
            let mut chars = text.chars();
            let file = chars.next()?.to_ascii_lowercase();
            if !file.is_ascii_lowercase() {
                return None;
            }
            let rank: u8 = chars.as_str().parse().ok()?;
            let side = size.side();
            if rank == 0 || rank > side || chars.as_str().starts_with(['+', '0']) {
                return None;
            }
            let col = u8::try_from(u32::from(file) - u32::from('a')).ok()?;
            Square::from_row_col(size, side - rank, col)
        } else {
            if !text.bytes().all(|b| b.is_ascii_digit()) || text.starts_with('0') {
                return None;
            }
            Square::new(text.parse().ok()?, size)
        }
    }

    /// The square written for a variant: algebraic or numeric.
    pub fn name(self, size: BoardSize, algebraic: bool) -> String {
        if algebraic {
            self.algebraic(size)
        } else {
            self.0.to_string()
        }
    }
}

impl fmt::Display for Square {
    /// The PDN number; use [`Square::name`] for the variant's spelling.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Iterates over the set bits of a board mask, lowest first.
pub(crate) fn bits(mut mask: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let bit = mask.trailing_zeros();
            mask &= mask - 1;
            Some(bit)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_matches_the_rules() {
        let eight = BoardSize::Eight;
        let ten = BoardSize::Ten;
        assert_eq!(
            Square::new(1, eight).map(|s| s.algebraic(eight)),
            Some("b8".into())
        );
        assert_eq!(
            Square::new(29, eight).map(|s| s.algebraic(eight)),
            Some("a1".into())
        );
        assert_eq!(
            Square::new(32, eight).map(|s| s.algebraic(eight)),
            Some("g1".into())
        );
        assert_eq!(
            Square::new(1, ten).map(|s| s.algebraic(ten)),
            Some("b10".into())
        );
        assert_eq!(
            Square::new(46, ten).map(|s| s.algebraic(ten)),
            Some("a1".into())
        );
        assert_eq!(Square::new(33, eight), None);
        assert_eq!(
            Square::parse("c3", eight, true).map(|s| s.number()),
            Some(22)
        );
        assert_eq!(
            Square::parse("h8", eight, true).map(|s| s.number()),
            Some(4)
        );
        assert_eq!(Square::parse("a2", eight, true), None, "light square");
        assert_eq!(Square::parse("i1", eight, true), None);
        assert_eq!(Square::parse("c03", eight, true), None);
        assert_eq!(
            Square::parse("50", ten, false).map(|s| s.number()),
            Some(50)
        );
        assert_eq!(Square::parse("51", ten, false), None);
        assert_eq!(Square::parse("07", ten, false), None);
    }

    #[test]
    fn bits_round_trip() {
        for size in [BoardSize::Eight, BoardSize::Ten] {
            for n in 1..=size.squares() {
                let sq = Square::new(n, size).unwrap();
                assert_eq!(Square::from_bit(sq.bit(size), size), sq);
                let (row, col) = sq.row_col(size);
                assert_eq!(Square::from_row_col(size, row, col), Some(sq));
            }
        }
    }
}
