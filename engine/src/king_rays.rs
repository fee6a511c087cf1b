//! The rays of one side's kings, looked along once in a position and then, in each position
//! one quiet move away, again only where that move changed them. Perft's last two plies need
//! the opponent's kings after every move of the side to move; a quiet move touches about a
//! quarter of those kings and one of their rays in fifteen, and fewer of the squares that
//! decide what a ray allows (up to its first piece and the square behind it).

use crate::geometry::{Geometry, diagonals, king_moves, ray, step, stop, stop_is_in, stop_span};
use crate::movegen::{Bitboards, KingScan, empty_squares, king_scan, targets};
use crate::preset::Preset;
use crate::square::bits;

/// At most 20 pieces a side (international), so at most 20 kings.
const MAX_KINGS: usize = 20;

/// One king: its square, per ray the squares where a change can matter and the span of the
/// piece the ray stops at (see [`stop_span`]).
#[derive(Clone, Copy, Default)]
struct KingRay {
    square: u32,
    /// Per direction, the squares up to the first piece and the one behind it: a move that
    /// changes none of them leaves the ray's quiet moves and its capture as they were.
    watched: [u64; 4],
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
    /// The union of the kings' watched squares.
    watched: u64,
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
            watched: 0,
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
        self.watched = 0;
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
                slot.watched[dir] = watched::<P::Board>(dir, square, code);
                self.watched |= slot.watched[dir];
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
    /// the rays that watch one of those squares (up to the first piece and the square behind
    /// it) are looked along again: the others meet the same first piece, with the same square
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
        let changed = (1u64 << from) | (1u64 << to);
        if self.watched & changed == 0 {
            return scan;
        }
        let touched = (diagonals::<P::Board>(from) | diagonals::<P::Board>(to)) & self.squares;
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
                if king.watched[dir] & changed != 0 {
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

/// The squares of the ray from `square` in direction `dir` that decide what a king there can
/// do that way, given where the ray stops (a [`stop`] code): the empty squares before the
/// first piece, that piece and the square behind it (the whole ray when it meets nothing).
#[inline(always)]
fn watched<G: Geometry>(dir: usize, square: u32, code: u32) -> u64 {
    let beyond = G::STOP_RAYS[dir & 3][(code & 63) as usize];
    ray::<G>(dir, square) & !step::<G>(step::<G>(beyond, dir), dir)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

    use super::*;
    use crate::movegen::{RawMove, legal_raw};
    use crate::position::Position;
    use crate::preset::{International, Russian};
    use crate::rules::Variant;

    /// After every quiet move of the side to move, `rescan` of the opponent's kings is what
    /// `king_scan` finds looking at the whole position, in positions with kings on both sides.
    fn check<P: Preset>(variant: Variant, fens: &[&str]) {
        let mut moves: Vec<RawMove> = Vec::new();
        let mut rays = Box::<KingRays>::default();
        for fen in fens {
            let pos = Position::from_fen(variant, fen).unwrap();
            // The position and every position one move later, so that both sides move.
            let mut boards = vec![*pos.boards()];
            legal_raw::<P, false>(pos.boards(), true, false, &mut moves);
            boards.extend(
                moves
                    .iter()
                    .map(|mv| crate::movegen::apply(pos.boards(), mv, false)),
            );
            for b in boards {
                for mover_white in [true, false] {
                    let quiets = if mover_white {
                        rays.scan::<P, false>(&b);
                        legal_raw::<P, true>(&b, false, false, &mut moves);
                        moves.clone()
                    } else {
                        rays.scan::<P, true>(&b);
                        legal_raw::<P, false>(&b, false, false, &mut moves);
                        moves.clone()
                    };
                    for mv in quiets.iter().filter(|mv| mv.captured == 0) {
                        let next = crate::movegen::apply(&b, mv, mover_white);
                        let (from, to) = (u32::from(mv.from), u32::from(mv.to));
                        if mover_white {
                            assert_eq!(
                                rays.rescan::<P, false>(&next, from, to),
                                king_scan::<P, false>(&next),
                                "{fen} {mv:?}"
                            );
                        } else {
                            assert_eq!(
                                rays.rescan::<P, true>(&next, from, to),
                                king_scan::<P, true>(&next),
                                "{fen} {mv:?}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn rescan_matches_a_full_scan() {
        check::<International>(
            Variant::International,
            &[
                "W:WK7,29,33,34,35,K37,38,39,40,43,44,50:B15,20,22,23,24,25,26,27,30,32,K41,K46",
                "B:WK6,K7,11,12,30,K31,34,35,40,45,46:B2,10,15,20,K26,K32,42,K48",
                "B:WK2,K7,K11,K12,17,30,31,34,35,40,45:BK10,14,19,20,24,25,K26,K28,K48",
            ],
        );
        check::<Russian>(
            Variant::Russian,
            &[
                "B:WKc7,e5,a3,Ke3,g3,h2,a1,e1:Bf8,h8,b6,h6,a5,h4,Kc1,Kg1",
                "B:WKb8,Kf8,Kc7,d6,b4,d4:Ba7,f6,h6,g5,Ke3,Kh2,Ke1",
                "W:WKb8,Kd8,Kg7,Kf6,a3,b2,h2,a1,g1:Bb6,d6,Ka5,c5,d4,h4,e3,Kc1,Ke1",
            ],
        );
    }
}
