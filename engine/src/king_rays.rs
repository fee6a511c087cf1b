//! The rays of one side's kings, looked along once in a position and then, in each position
//! one quiet move away, again only where that move changed them. Perft's last two plies need
//! the opponent's kings after every move of the side to move; a quiet move touches about a
//! quarter of those kings and one of their rays in fifteen.

use crate::geometry::{diagonals, king_moves, ray, stop, stop_is_in, stop_span};
use crate::movegen::{Bitboards, KingScan, empty_squares, king_scan, targets};
use crate::preset::Preset;
use crate::square::bits;

/// At most 20 pieces a side (international), so at most 20 kings.
const MAX_KINGS: usize = 20;

/// One king: its square, its four rays to the edge and, per ray, the span of the piece the
/// ray stops at (see [`stop_span`]).
#[derive(Clone, Copy, Default)]
struct KingRay {
    square: u32,
    rays: [u64; 4],
    spans: [u32; 4],
    /// Bit `dir` set when the king can capture in direction `dir`.
    captures: u8,
}

/// The kings of one side in a scanned position.
pub(crate) struct KingRays {
    kings: [KingRay; MAX_KINGS],
    len: usize,
    quiets: u32,
    capturers: u64,
    /// The squares of the kings.
    squares: u64,
    /// For each square with a king, its index in `kings`.
    slot_of: [u8; 64],
}

impl Default for KingRays {
    fn default() -> Self {
        KingRays {
            kings: [KingRay::default(); MAX_KINGS],
            len: 0,
            quiets: 0,
            capturers: 0,
            squares: 0,
            slot_of: [0; 64],
        }
    }
}

impl KingRays {
    /// Looks along the rays of the kings of `WHITE` (true: White) in `b`. Inlined into
    /// perft's node functions, which are compiled for processor extensions.
    #[inline(always)]
    pub(crate) fn scan<P: Preset, const WHITE: bool>(&mut self, b: &Bitboards) {
        self.len = 0;
        self.quiets = 0;
        self.capturers = 0;
        self.squares = 0;
        if !P::FLYING_KINGS {
            return;
        }
        let occupied = b.white | b.black;
        let empty = empty_squares::<P>(b);
        let them = b.side(!WHITE);
        let targets_by_dir = [0, 1, 2, 3].map(|dir| targets::<P>(them, empty, dir));
        let kings = b.side(WHITE) & b.kings;
        for (slot, square) in self.kings.iter_mut().zip(bits(kings)) {
            let mut blocked = 0;
            slot.square = square;
            slot.captures = 0;
            for (dir, &targets) in targets_by_dir.iter().enumerate() {
                let code = stop::<P::Board>(dir, square, occupied);
                slot.rays[dir] = ray::<P::Board>(dir, square);
                slot.spans[dir] = stop_span::<P::Board>(dir, code);
                blocked += slot.spans[dir];
                slot.captures |= u8::from(stop_is_in(dir, code, targets)) << dir;
            }
            self.capturers |= u64::from(slot.captures != 0) << square;
            self.quiets += king_moves::<P::Board>(square) - blocked;
            self.squares |= 1u64 << square;
            self.slot_of[(square & 63) as usize] = self.len as u8;
            self.len += 1;
        }
    }

    /// [`king_scan`] of `b`, a position that differs from the scanned one only on the squares
    /// `from` and `to` (a quiet move's: no piece of the scanned side moved or was taken). Only
    /// the kings on a diagonal through those squares, and only their rays through them, are
    /// looked along again: the other rays meet the same first piece, with the same square
    /// behind it.
    #[inline(always)]
    pub(crate) fn rescan<P: Preset, const WHITE: bool>(
        &self,
        b: &Bitboards,
        from: u32,
        to: u32,
    ) -> KingScan {
        if !P::FLYING_KINGS {
            return king_scan::<P, WHITE>(b);
        }
        let mut scan = KingScan {
            capturers: self.capturers,
            quiets: u64::from(self.quiets),
        };
        let touched = (diagonals::<P::Board>(from) | diagonals::<P::Board>(to)) & self.squares;
        if touched == 0 {
            return scan;
        }
        let changed = (1u64 << from) | (1u64 << to);
        let occupied = b.white | b.black;
        let empty = empty_squares::<P>(b);
        let them = b.side(!WHITE);
        let mut quiets = self.quiets;
        for square in bits(touched) {
            let Some(king) = self
                .kings
                .get(usize::from(self.slot_of[(square & 63) as usize]))
            else {
                continue;
            };
            let mut captures = king.captures;
            for dir in 0..4 {
                if king.rays[dir] & changed != 0 {
                    let code = stop::<P::Board>(dir, square, occupied);
                    quiets = quiets + king.spans[dir] - stop_span::<P::Board>(dir, code);
                    let can = stop_is_in(dir, code, targets::<P>(them, empty, dir));
                    captures = (captures & !(1 << dir)) | (u8::from(can) << dir);
                }
            }
            scan.capturers =
                (scan.capturers & !(1u64 << square)) | (u64::from(captures != 0) << square);
        }
        scan.quiets = u64::from(quiets);
        scan
    }
}
