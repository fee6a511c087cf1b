//! Bit layout of the playable squares ("ghost square" layout).
//!
//! The dark squares are numbered row by row from the top as White sees the board
//! (square 1 = b8 on 8x8, b10 on 10x10). Square index `i` (0-based) lives at bit
//! `i + i / (2 * PER_ROW)`: one unused "ghost" bit after every two rows. With that gap
//! every diagonal step is a plain shift by `PER_ROW` or `PER_ROW + 1`, and a step off
//! the left or right edge lands on a ghost bit, which is never a playable square.
//!
//! Flying kings use precomputed rays: the nearest piece on a ray is its lowest or highest
//! set bit after masking with the occupied squares, so a king's reach in one direction costs a
//! table look-up and a bit scan instead of a walk square by square.

use std::num::NonZeroU64;

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
    /// `RAYS[dir][bit]`: the squares a king on `bit` sees in direction `dir` on an empty
    /// board, up to the edge (the square itself excluded). Zero for ghost bits.
    const RAYS: &'static Rays;
    /// `RAY_LENGTHS[dir][bit]`: the number of squares in `RAYS[dir][bit]`, so the length of a
    /// blocked ray is a difference of two lengths instead of a population count.
    const RAY_LENGTHS: &'static RayLengths;
    /// `STOP_SPANS[dir][code]`: for the [`stop`] code of a piece, the squares from that piece
    /// to the edge, the piece's own included (0 for "no piece"). A king's quiet moves in
    /// `dir` are its ray's length minus the span of the piece where the ray stops.
    const STOP_SPANS: &'static RayLengths;
    /// `KING_MOVES[bit]`: a king's moves on `bit` on an empty board (all four rays).
    const KING_MOVES: &'static [u8; 64];
    /// `DIAGONALS[bit]`: the squares of both diagonals through `bit` (all four rays), so a
    /// square is on a king's diagonals exactly when the king is on the square's.
    const DIAGONALS: &'static [u64; 64];
    /// `STOP_RAYS[dir][code]`: for the [`stop`] code of a piece, that piece's square and the
    /// squares behind it to the edge (0 for "no piece"): a ray less this is the part of it
    /// before the piece.
    const STOP_RAYS: &'static Rays;
}

/// Per direction and bit, the squares of a diagonal ray.
pub(crate) type Rays = [[u64; 64]; 4];
/// Per direction and bit, the number of squares of the ray.
pub(crate) type RayLengths = [[u8; 64]; 4];

/// Shift of one step in `dir` (`step`'s distances) as a signed bit offset.
const fn offset(per_row: u32, dir: usize) -> i32 {
    let near = per_row as i32;
    match dir {
        0 => near,
        1 => near + 1,
        2 => -near,
        _ => -(near + 1),
    }
}

const fn rays(per_row: u32, mask: u64) -> Rays {
    let mut rays = [[0u64; 64]; 4];
    let mut dir = 0;
    while dir < 4 {
        let mut bit = 0;
        while bit < 64 {
            if mask & (1u64 << bit) != 0 {
                let mut ray = 0u64;
                let mut next = bit as i32 + offset(per_row, dir);
                // A step off the side lands on a ghost bit, which is not in `mask`.
                while next >= 0 && next < 64 && mask & (1u64 << next) != 0 {
                    ray |= 1u64 << next;
                    next += offset(per_row, dir);
                }
                rays[dir][bit] = ray;
            }
            bit += 1;
        }
        dir += 1;
    }
    rays
}

const fn ray_lengths(rays: &Rays) -> RayLengths {
    let mut lengths = [[0u8; 64]; 4];
    let mut dir = 0;
    while dir < 4 {
        let mut bit = 0;
        while bit < 64 {
            lengths[dir][bit] = rays[dir][bit].count_ones() as u8;
            bit += 1;
        }
        dir += 1;
    }
    lengths
}

const fn stop_spans(rays: &Rays, mask: u64) -> RayLengths {
    let lengths = ray_lengths(rays);
    let mut spans = [[0u8; 64]; 4];
    let mut dir = 0;
    while dir < 4 {
        let mut bit = 0;
        while bit < 63 {
            if mask & (1u64 << bit) != 0 {
                // The codes of `stop`: the bit itself, or one more for directions that shift
                // right.
                let code = if dir < 2 { bit } else { bit + 1 };
                spans[dir][code] = lengths[dir][bit] + 1;
            }
            bit += 1;
        }
        dir += 1;
    }
    spans
}

const fn stop_rays(rays: &Rays, mask: u64) -> Rays {
    let mut beyond = [[0u64; 64]; 4];
    let mut dir = 0;
    while dir < 4 {
        let mut bit = 0;
        while bit < 63 {
            if mask & (1u64 << bit) != 0 {
                let code = if dir < 2 { bit } else { bit + 1 };
                beyond[dir][code] = (1u64 << bit) | rays[dir][bit];
            }
            bit += 1;
        }
        dir += 1;
    }
    beyond
}

const fn king_moves_table(rays: &Rays) -> [u8; 64] {
    let lengths = ray_lengths(rays);
    let mut moves = [0u8; 64];
    let mut bit = 0;
    while bit < 64 {
        moves[bit] = lengths[0][bit] + lengths[1][bit] + lengths[2][bit] + lengths[3][bit];
        bit += 1;
    }
    moves
}

const fn diagonals_table(rays: &Rays) -> [u64; 64] {
    let mut lines = [0u64; 64];
    let mut bit = 0;
    while bit < 64 {
        lines[bit] = rays[0][bit] | rays[1][bit] | rays[2][bit] | rays[3][bit];
        bit += 1;
    }
    lines
}

const EIGHT_RAYS: Rays = rays(4, squares_mask(4, 0, 8));
const TEN_RAYS: Rays = rays(5, squares_mask(5, 0, 10));

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
    const RAYS: &'static Rays = &EIGHT_RAYS;
    const RAY_LENGTHS: &'static RayLengths = &ray_lengths(&EIGHT_RAYS);
    const STOP_SPANS: &'static RayLengths = &stop_spans(&EIGHT_RAYS, Self::MASK);
    const KING_MOVES: &'static [u8; 64] = &king_moves_table(&EIGHT_RAYS);
    const DIAGONALS: &'static [u64; 64] = &diagonals_table(&EIGHT_RAYS);
    const STOP_RAYS: &'static Rays = &stop_rays(&EIGHT_RAYS, Self::MASK);
}

impl Geometry for Ten {
    const PER_ROW: u32 = 5;
    const MASK: u64 = squares_mask(5, 0, 10);
    const TOP_ROW: u64 = squares_mask(5, 0, 1);
    const BOTTOM_ROW: u64 = squares_mask(5, 9, 1);
    const RAYS: &'static Rays = &TEN_RAYS;
    const RAY_LENGTHS: &'static RayLengths = &ray_lengths(&TEN_RAYS);
    const STOP_SPANS: &'static RayLengths = &stop_spans(&TEN_RAYS, Self::MASK);
    const KING_MOVES: &'static [u8; 64] = &king_moves_table(&TEN_RAYS);
    const DIAGONALS: &'static [u64; 64] = &diagonals_table(&TEN_RAYS);
    const STOP_RAYS: &'static Rays = &stop_rays(&TEN_RAYS, Self::MASK);
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

/// `steps` diagonal steps in direction `dir` at once.
#[inline(always)]
fn steps<G: Geometry>(bits: u64, dir: usize, steps: u32) -> u64 {
    match dir {
        0 => bits << (steps * G::PER_ROW),
        1 => bits << (steps * (G::PER_ROW + 1)),
        2 => bits >> (steps * G::PER_ROW),
        _ => bits >> (steps * (G::PER_ROW + 1)),
    }
}

/// The squares of `empty` from which a flying king looking in direction `dir` meets one of
/// `pieces` first: the runs of empty squares behind each of them, for all of them at once
/// (a fill by doubling steps: 1, 2, 4 and, on 10x10, 8 squares). Cheaper than looking
/// along the ray of each square when there are more than two or so, and without a branch.
#[inline(always)]
pub(crate) fn seers<G: Geometry>(dir: usize, pieces: u64, empty: u64) -> u64 {
    let back = opposite(dir);
    let mut found = pieces;
    // `open`: the squares from which the next `n` steps back are all empty.
    let mut open = empty;
    found |= open & steps::<G>(found, back, 1);
    open &= steps::<G>(open, back, 1);
    found |= open & steps::<G>(found, back, 2);
    open &= steps::<G>(open, back, 2);
    found |= open & steps::<G>(found, back, 4);
    if G::PER_ROW > 4 {
        // Runs of up to 8 empty squares on 10x10; 8x8 has at most 6.
        open &= steps::<G>(open, back, 4);
        found |= open & steps::<G>(found, back, 8);
    }
    found & empty
}

/// The squares seen from `bit` in direction `dir` on an empty board.
#[inline(always)]
pub(crate) fn ray<G: Geometry>(dir: usize, bit: u32) -> u64 {
    G::RAYS[dir & 3][(bit & 63) as usize]
}

/// Number of squares of [`ray`].
#[inline(always)]
pub(crate) fn ray_length<G: Geometry>(dir: usize, bit: u32) -> u32 {
    u32::from(G::RAY_LENGTHS[dir & 3][(bit & 63) as usize])
}

/// The square of `set` nearest to the origin of a ray in direction `dir` (`set` lies on it):
/// the lowest bit for directions that shift left, the highest for the others.
#[inline(always)]
pub(crate) fn nearest(dir: usize, set: NonZeroU64) -> u32 {
    if dir < 2 {
        set.trailing_zeros()
    } else {
        63 - set.leading_zeros()
    }
}

/// Where the ray from `bit` in direction `dir` stops, as a code: the bit of the first square
/// of `occupied` on it (63 when there is none) for directions that shift left, that bit plus
/// one (0 when there is none) for the others. One bit scan and no branch: a sentinel bit
/// stands for "nothing", since whether a ray is blocked is as good as random and a
/// mispredicted branch costs more than the scan.
#[inline(always)]
pub(crate) fn stop<G: Geometry>(dir: usize, bit: u32, occupied: u64) -> u32 {
    let met = ray::<G>(dir, bit) & occupied;
    if dir < 2 {
        // The nearest square is the lowest bit; bit 63 (never a square) is the sentinel.
        (met | 1u64 << 63).trailing_zeros()
    } else {
        // The nearest square is the highest bit; shifted up by one, bit 0 is the sentinel.
        63 - ((met << 1) | 1).leading_zeros()
    }
}

/// Whether the square where a ray stopped (a [`stop`] code) is one of `set`.
#[inline(always)]
pub(crate) fn stop_is_in(dir: usize, code: u32, set: u64) -> bool {
    let shifted = if dir < 2 { set } else { set << 1 };
    (shifted >> (code & 63)) & 1 != 0
}

/// The squares from where a ray stopped (a [`stop`] code) to the edge, that square included;
/// 0 when nothing stopped it.
#[inline(always)]
pub(crate) fn stop_span<G: Geometry>(dir: usize, code: u32) -> u32 {
    u32::from(G::STOP_SPANS[dir & 3][(code & 63) as usize])
}

/// The square where a ray stopped (a [`stop`] code that is not "no piece").
#[inline(always)]
pub(crate) fn stop_square(dir: usize, code: u32) -> u32 {
    if dir < 2 {
        code
    } else {
        code.wrapping_sub(1) & 63
    }
}

/// The squares of the ray from `bit` in direction `dir` before where it stopped (a [`stop`]
/// code), and their number: [`open_ray`] and its length, without a branch.
#[inline(always)]
pub(crate) fn open_ray_before<G: Geometry>(dir: usize, bit: u32, code: u32) -> (u64, u32) {
    let beyond = G::STOP_RAYS[dir & 3][(code & 63) as usize];
    (
        ray::<G>(dir, bit) & !beyond,
        ray_length::<G>(dir, bit) - stop_span::<G>(dir, code),
    )
}

/// Both diagonals through `bit`.
#[inline(always)]
pub(crate) fn diagonals<G: Geometry>(bit: u32) -> u64 {
    G::DIAGONALS[(bit & 63) as usize]
}

/// A king's moves from `bit` on an empty board.
#[inline(always)]
pub(crate) fn king_moves<G: Geometry>(bit: u32) -> u32 {
    u32::from(G::KING_MOVES[(bit & 63) as usize])
}

/// Whether the first square of `occupied` on the ray from `bit` in direction `dir` is one of
/// `set` (false when the ray meets nothing), without a branch. The per-square reference the
/// tests check [`seers`] against.
#[cfg(test)]
pub(crate) fn first_is_in<G: Geometry>(dir: usize, bit: u32, occupied: u64, set: u64) -> bool {
    stop_is_in(dir, stop::<G>(dir, bit, occupied), set)
}

/// The squares of the ray from `bit` in direction `dir` up to, not including, the first
/// square of `occupied`, with a branch: the reference the tests check [`open_ray_before`]
/// against.
#[cfg(test)]
pub(crate) fn open_ray<G: Geometry>(dir: usize, bit: u32, occupied: u64) -> u64 {
    let full = ray::<G>(dir, bit);
    match NonZeroU64::new(full & occupied) {
        None => full,
        Some(blockers) => {
            let stop = nearest(dir, blockers);
            full ^ ray::<G>(dir, stop) ^ (1u64 << stop)
        }
    }
}

/// [`open_ray`] and the number of its squares, with a branch: the reference the tests check
/// [`open_ray_before`] against.
#[cfg(test)]
pub(crate) fn open_ray_counted<G: Geometry>(dir: usize, bit: u32, occupied: u64) -> (u64, u32) {
    let full = ray::<G>(dir, bit);
    let length = ray_length::<G>(dir, bit);
    match NonZeroU64::new(full & occupied) {
        None => (full, length),
        Some(blockers) => {
            let stop = nearest(dir, blockers);
            (
                full ^ ray::<G>(dir, stop) ^ (1u64 << stop),
                length - ray_length::<G>(dir, stop) - 1,
            )
        }
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

    /// The rays agree with repeated single steps, and their lengths with a population count.
    fn check_rays<G: Geometry>() {
        for bit in 0..64u32 {
            for dir in 0..4 {
                let mut walked = 0u64;
                if G::MASK & (1u64 << bit) != 0 {
                    let mut at = step::<G>(1u64 << bit, dir) & G::MASK;
                    while at != 0 {
                        walked |= at;
                        at = step::<G>(at, dir) & G::MASK;
                    }
                }
                assert_eq!(ray::<G>(dir, bit), walked, "bit {bit} dir {dir}");
                assert_eq!(ray_length::<G>(dir, bit), walked.count_ones());
            }
        }
    }

    #[test]
    fn rays_match_single_steps() {
        check_rays::<Eight>();
        check_rays::<Ten>();
        // The long diagonal of 10x10: square 46 (a1) sees 9 squares up to square 5 (j10).
        let a1 = bit_of_index(45, 5);
        assert_eq!(ray_length::<Ten>(2, a1), 9);
    }

    #[test]
    fn open_ray_stops_before_the_first_piece() {
        // 8x8, square 29 (a1) up-right: 25 (b2), 22 (c3), 18 (d4), ...; a piece on d4.
        let bit = |number: u32| 1u64 << bit_of_index(number - 1, 4);
        let a1 = bit_of_index(28, 4);
        let d4 = bit(18);
        assert_eq!(open_ray::<Eight>(2, a1, d4), bit(25) | bit(22));
        assert_eq!(open_ray_counted::<Eight>(2, a1, d4), (bit(25) | bit(22), 2));
        assert_eq!(open_ray_counted::<Eight>(2, a1, 0).1, 7);
        assert_eq!(open_ray::<Eight>(2, a1, 0), ray::<Eight>(2, a1));
        let nearest_piece = NonZeroU64::new(ray::<Eight>(2, a1) & (d4 | bit(4))).unwrap();
        assert_eq!(1u64 << nearest(2, nearest_piece), d4);
    }

    /// `stop`, `stop_is_in` and `stop_span` against `open_ray` and `nearest` for every square,
    /// direction and a few occupancies.
    fn check_stops<G: Geometry>() {
        let occupancies = [
            0,
            G::MASK,
            0x5555_5555_5555_5555 & G::MASK,
            0x0f0f_0f0f_0f0f & G::MASK,
        ];
        for bit in (0..64u32).filter(|bit| G::MASK & (1u64 << bit) != 0) {
            let mut moves = 0;
            for dir in 0..4 {
                moves += ray_length::<G>(dir, bit);
                for occupied in occupancies {
                    let occupied = occupied & !(1u64 << bit);
                    let code = stop::<G>(dir, bit, occupied);
                    let first =
                        NonZeroU64::new(ray::<G>(dir, bit) & occupied).map(|met| nearest(dir, met));
                    for square in (0..64).filter(|square| G::MASK & (1u64 << square) != 0) {
                        assert_eq!(
                            stop_is_in(dir, code, 1u64 << square),
                            first == Some(square),
                            "bit {bit} dir {dir} occupied {occupied:x} square {square}"
                        );
                    }
                    assert_eq!(
                        ray_length::<G>(dir, bit) - stop_span::<G>(dir, code),
                        open_ray::<G>(dir, bit, occupied).count_ones(),
                        "bit {bit} dir {dir} occupied {occupied:x}"
                    );
                    assert_eq!(
                        open_ray_before::<G>(dir, bit, code),
                        open_ray_counted::<G>(dir, bit, occupied),
                        "bit {bit} dir {dir} occupied {occupied:x}"
                    );
                    if let Some(square) = first {
                        assert_eq!(stop_square(dir, code), square);
                    }
                }
            }
            assert_eq!(king_moves::<G>(bit), moves);
            for other in 0..64u32 {
                let seen = (0..4).any(|dir| ray::<G>(dir, bit) & (1u64 << other) != 0);
                assert_eq!(diagonals::<G>(bit) & (1u64 << other) != 0, seen);
                assert_eq!(
                    seen,
                    diagonals::<G>(other) & (1u64 << bit) != 0,
                    "symmetric"
                );
            }
        }
    }

    /// `seers` against looking along the ray of every empty square.
    fn check_seers<G: Geometry>() {
        // The two corners of the long diagonal, with every square between them empty.
        let per_row = G::PER_ROW;
        let corners = (1u64 << bit_of_index(2 * per_row * per_row - per_row, per_row))
            | (1u64 << bit_of_index(per_row - 1, per_row));
        let boards = [
            (corners, corners),
            (0x5555_5555_5555_5555 & G::MASK, 0x0f0f_0f0f_0f0f & G::MASK),
            (
                0x1248_1248_1248_1248 & G::MASK,
                0xffff_0000_ffff_0000 & G::MASK,
            ),
            (0x8000_0000_0004_0001 & G::MASK, G::MASK),
            (0, G::MASK),
        ];
        for (occupied, pieces) in boards {
            let pieces = pieces & occupied;
            let empty = G::MASK & !occupied;
            for dir in 0..4 {
                let seen = seers::<G>(dir, pieces, empty);
                for bit in (0..64u32).filter(|bit| G::MASK & (1u64 << bit) != 0) {
                    let expected =
                        empty & (1u64 << bit) != 0 && first_is_in::<G>(dir, bit, occupied, pieces);
                    assert_eq!(
                        seen & (1u64 << bit) != 0,
                        expected,
                        "bit {bit} dir {dir} occupied {occupied:x} pieces {pieces:x}"
                    );
                }
            }
        }
    }

    #[test]
    fn seers_match_looking_along_each_ray() {
        check_seers::<Eight>();
        check_seers::<Ten>();
    }

    #[test]
    fn stops_match_the_rays() {
        check_stops::<Eight>();
        check_stops::<Ten>();
    }

    #[test]
    fn first_is_in_looks_at_the_nearest_piece_only() {
        let bit = |number: u32| 1u64 << bit_of_index(number - 1, 4);
        // 8x8, a1 (29) up-right: b2 (25), c3 (22), d4 (18), e5 (15)...
        let a1 = bit_of_index(28, 4);
        assert!(first_is_in::<Eight>(2, a1, bit(22) | bit(15), bit(22)));
        assert!(!first_is_in::<Eight>(2, a1, bit(22) | bit(15), bit(15)));
        assert!(
            !first_is_in::<Eight>(2, a1, 0, Eight::MASK),
            "nothing on the ray"
        );
        // h8 (4) down-left: g7 (8), f6 (11); square 1 (b8) is not on that ray.
        let h8 = bit_of_index(3, 4);
        assert!(first_is_in::<Eight>(0, h8, bit(11) | bit(1), bit(11)));
        assert!(!first_is_in::<Eight>(0, h8, bit(1), Eight::MASK));
        // b8 (1, bit 0) seen from c7 (6) up-left: the lowest bit of the board.
        let c7 = bit_of_index(5, 4);
        assert!(first_is_in::<Eight>(3, c7, bit(1), bit(1)));
        assert!(!first_is_in::<Eight>(3, c7, 0, bit(1)));
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
