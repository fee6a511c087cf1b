//! Bit layout of the playable squares ("ghost square" layout).
//!
//! The dark squares are numbered row by row from the top as White sees the board
//! (square 1 = b8 on 8x8, b10 on 10x10). Square index `i` (0-based) lives at bit
//! `i + i / (2 * PER_ROW)`: one unused "ghost" bit after every two rows. With that gap
//! every diagonal step is a plain shift by `PER_ROW` or `PER_ROW + 1`, and a step off
//! the left or right edge lands on a ghost bit, which is never a playable square.

/// Compile-time description of one board size.
pub(crate) trait Geometry: 'static {
    /// Dark squares per row (4 on 8x8, 5 on 10x10).
    const PER_ROW: u32;
    /// All playable squares.
    const MASK: u64;
    /// The top row (squares 1..=PER_ROW): White's promotion row.
    const TOP_ROW: u64;
    /// The bottom row: Black's promotion row.
    const BOTTOM_ROW: u64;
}

/// Bit of the 0-based square index `index` on a board with `per_row` dark squares per row.
pub(crate) const fn bit_of_index(index: u32, per_row: u32) -> u32 {
    index + index / (2 * per_row)
}

const fn squares_mask(per_row: u32, first_row: u32, rows: u32) -> u64 {
    let mut mask = 0u64;
    let mut index = first_row * per_row;
    while index < (first_row + rows) * per_row {
        mask |= 1u64 << bit_of_index(index, per_row);
        index += 1;
    }
    mask
}

/// 8x8 board: 32 squares in 35 bits.
pub(crate) struct Eight;
/// 10x10 board: 50 squares in 54 bits.
pub(crate) struct Ten;

impl Geometry for Eight {
    const PER_ROW: u32 = 4;
    const MASK: u64 = squares_mask(4, 0, 8);
    const TOP_ROW: u64 = squares_mask(4, 0, 1);
    const BOTTOM_ROW: u64 = squares_mask(4, 7, 1);
}

impl Geometry for Ten {
    const PER_ROW: u32 = 5;
    const MASK: u64 = squares_mask(5, 0, 10);
    const TOP_ROW: u64 = squares_mask(5, 0, 1);
    const BOTTOM_ROW: u64 = squares_mask(5, 9, 1);
}

/// One diagonal step in direction `dir` (0, 1: towards the bottom / higher square numbers;
/// 2, 3: towards the top). The result may contain ghost or off-board bits: callers always
/// intersect it with a set of real squares (empty squares or enemy pieces).
#[inline(always)]
pub(crate) fn step<G: Geometry>(bits: u64, dir: usize) -> u64 {
    match dir {
        0 => bits << G::PER_ROW,
        1 => bits << (G::PER_ROW + 1),
        2 => bits >> G::PER_ROW,
        _ => bits >> (G::PER_ROW + 1),
    }
}

/// The direction opposite to `dir`.
#[inline(always)]
pub(crate) const fn opposite(dir: usize) -> usize {
    dir ^ 2
}

/// Directions in which a man of the given side moves forward.
#[inline(always)]
pub(crate) const fn is_forward(white: bool, dir: usize) -> bool {
    if white { dir >= 2 } else { dir < 2 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_have_the_right_number_of_squares() {
        assert_eq!(Eight::MASK.count_ones(), 32);
        assert_eq!(Ten::MASK.count_ones(), 50);
        assert_eq!(Eight::TOP_ROW.count_ones(), 4);
        assert_eq!(Ten::BOTTOM_ROW.count_ones(), 5);
        assert_eq!(Eight::TOP_ROW & Eight::BOTTOM_ROW, 0);
    }

    #[test]
    fn steps_off_the_side_land_on_ghost_bits() {
        // Square 5 (a7 on 8x8, index 4) has no down-left neighbour: index 4 -> bit 4, +4 = bit 8 (ghost).
        let a7 = 1u64 << bit_of_index(4, 4);
        assert_eq!(step::<Eight>(a7, 0) & Eight::MASK, 0);
        // Square 4 (h8, index 3) has no down-right neighbour.
        let h8 = 1u64 << bit_of_index(3, 4);
        assert_eq!(step::<Eight>(h8, 1) & Eight::MASK, 0);
        // Square 1 (b8) steps down to squares 5 and 6.
        let b8 = 1u64;
        assert_eq!(step::<Eight>(b8, 0), 1 << bit_of_index(4, 4));
        assert_eq!(step::<Eight>(b8, 1), 1 << bit_of_index(5, 4));
    }
}
