//! A slow, straightforward reference move generator written independently of the bitboard
//! one (coordinates, vectors, explicit recursion), used as an oracle in tests.

#![allow(clippy::unwrap_used)] // test helpers: a failed unwrap is a failed test
#![allow(dead_code)]

use damka_engine::{Color, PieceKind, Position, Square, Variant};
use std::collections::BTreeSet;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Cell {
    pub white: bool,
    pub king: bool,
}

#[derive(Clone)]
pub struct RefBoard {
    pub variant: Variant,
    pub n: i32,
    pub cells: Vec<Option<Cell>>,
    pub white_to_move: bool,
    pub mandatory: bool,
    pub maximum: bool,
}

/// A move as the reference sees it: the key that identifies it (from, to, captured squares
/// sorted, promotion) in PDN square numbers.
pub type Key = (u8, u8, Vec<u8>, bool);

type Coord = (i32, i32);
/// A complete capture sequence: landing squares, captured squares, whether it crowns.
type Sequence = (Vec<Coord>, Vec<Coord>, bool);

const DIRS: [(i32, i32); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];

impl RefBoard {
    pub fn from_position(pos: &Position) -> RefBoard {
        let size = pos.board_size();
        let n = i32::from(size.side());
        let mut cells = vec![None; (n * n) as usize];
        for (sq, piece) in pos.pieces() {
            let (r, c) = sq.row_col(size);
            cells[(i32::from(r) * n + i32::from(c)) as usize] = Some(Cell {
                white: piece.color == Color::White,
                king: piece.kind == PieceKind::King,
            });
        }
        RefBoard {
            variant: pos.variant(),
            n,
            cells,
            white_to_move: pos.side_to_move() == Color::White,
            mandatory: pos.rules().mandatory_capture,
            maximum: pos.rules().capture_choice == damka_engine::CaptureChoice::Maximum,
        }
    }

    fn inside(&self, r: i32, c: i32) -> bool {
        r >= 0 && c >= 0 && r < self.n && c < self.n
    }

    fn at(&self, r: i32, c: i32) -> Option<Cell> {
        self.cells[(r * self.n + c) as usize]
    }

    fn number(&self, r: i32, c: i32) -> u8 {
        (r * self.n / 2 + c / 2 + 1) as u8
    }

    fn promotion_row(&self) -> i32 {
        if self.white_to_move { 0 } else { self.n - 1 }
    }

    fn forward(&self) -> i32 {
        if self.white_to_move { -1 } else { 1 }
    }

    /// (landing squares, captured squares, promoted) of each complete capture sequence.
    fn captures_from(&self, r0: i32, c0: i32) -> Vec<Sequence> {
        let mut out = Vec::new();
        let king = self.at(r0, c0).is_some_and(|p| p.king);
        self.search(
            (r0, c0),
            (r0, c0),
            king,
            false,
            &mut Vec::new(),
            &mut Vec::new(),
            &mut out,
        );
        out
    }

    fn free(&self, origin: (i32, i32), r: i32, c: i32) -> bool {
        self.inside(r, c) && ((r, c) == origin || self.at(r, c).is_none())
    }

    fn enemy(&self, r: i32, c: i32, taken: &[(i32, i32)]) -> bool {
        self.inside(r, c)
            && self.at(r, c).is_some_and(|p| p.white != self.white_to_move)
            && !taken.contains(&(r, c))
    }

    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        origin: (i32, i32),
        at: (i32, i32),
        king: bool,
        promoted: bool,
        path: &mut Vec<(i32, i32)>,
        taken: &mut Vec<(i32, i32)>,
        out: &mut Vec<Sequence>,
    ) {
        // Each option: (victim, landing squares that may be chosen).
        let mut options: Vec<(Coord, Vec<Coord>)> = Vec::new();
        let flying = self.variant != Variant::English;
        for (dr, dc) in DIRS {
            if king && flying {
                let (mut r, mut c) = (at.0 + dr, at.1 + dc);
                while self.free(origin, r, c) {
                    r += dr;
                    c += dc;
                }
                if !self.enemy(r, c, taken) {
                    continue;
                }
                let victim = (r, c);
                let mut lands = Vec::new();
                let (mut lr, mut lc) = (r + dr, c + dc);
                while self.free(origin, lr, lc) {
                    lands.push((lr, lc));
                    lr += dr;
                    lc += dc;
                }
                if !lands.is_empty() {
                    options.push((victim, lands));
                }
            } else {
                let men_back = self.variant != Variant::English;
                if !king && !men_back && dr != self.forward() {
                    continue;
                }
                let victim = (at.0 + dr, at.1 + dc);
                let land = (at.0 + 2 * dr, at.1 + 2 * dc);
                if self.enemy(victim.0, victim.1, taken) && self.free(origin, land.0, land.1) {
                    options.push((victim, vec![land]));
                }
            }
        }
        if options.is_empty() {
            if !path.is_empty() {
                let crowned = promoted || (!king && at.0 == self.promotion_row());
                out.push((path.clone(), taken.clone(), crowned));
            }
            return;
        }
        for (victim, lands) in options {
            taken.push(victim);
            // A flying king must choose a landing square from which it can go on, if any.
            let can_go_on: Vec<bool> = lands
                .iter()
                .map(|&l| {
                    let mut probe = Vec::new();
                    let mut p = vec![l];
                    self.search(origin, l, king, promoted, &mut p, taken, &mut probe);
                    probe.iter().any(|(pp, _, _)| pp.len() > 1)
                })
                .collect();
            let any = can_go_on.iter().any(|&b| b);
            for (i, &land) in lands.iter().enumerate() {
                if any && !can_go_on[i] {
                    continue;
                }
                path.push(land);
                let reaches_last = land.0 == self.promotion_row();
                if !king && reaches_last && self.variant == Variant::Russian {
                    self.search(origin, land, true, true, path, taken, out);
                } else if !king && reaches_last && self.variant == Variant::English {
                    out.push((path.clone(), taken.clone(), true));
                } else {
                    self.search(origin, land, king, promoted, path, taken, out);
                }
                path.pop();
            }
            taken.pop();
        }
    }

    /// Every legal move as (key, resulting board).
    pub fn legal(&self) -> Vec<(Key, RefBoard)> {
        let mut captures: Vec<(Key, RefBoard)> = Vec::new();
        let mut quiets: Vec<(Key, RefBoard)> = Vec::new();
        let mut seen = BTreeSet::new();
        for r in 0..self.n {
            for c in 0..self.n {
                let Some(piece) = self.at(r, c) else { continue };
                if piece.white != self.white_to_move {
                    continue;
                }
                for (path, taken, crowned) in self.captures_from(r, c) {
                    let to = path[path.len() - 1];
                    let mut numbers: Vec<u8> =
                        taken.iter().map(|&(tr, tc)| self.number(tr, tc)).collect();
                    numbers.sort();
                    let key = (self.number(r, c), self.number(to.0, to.1), numbers, crowned);
                    if seen.insert(key.clone()) {
                        captures.push((key, self.after((r, c), to, &taken, crowned || piece.king)));
                    }
                }
                let flying = self.variant != Variant::English;
                for (dr, dc) in DIRS {
                    if !piece.king && dr != self.forward() {
                        continue;
                    }
                    let (mut tr, mut tc) = (r + dr, c + dc);
                    while self.inside(tr, tc) && self.at(tr, tc).is_none() {
                        let crowned = !piece.king && tr == self.promotion_row();
                        let key = (self.number(r, c), self.number(tr, tc), vec![], crowned);
                        quiets.push((
                            key,
                            self.after((r, c), (tr, tc), &[], crowned || piece.king),
                        ));
                        if !(piece.king && flying) {
                            break;
                        }
                        tr += dr;
                        tc += dc;
                    }
                }
            }
        }
        if self.maximum {
            let best = captures.iter().map(|(k, _)| k.2.len()).max().unwrap_or(0);
            captures.retain(|(k, _)| k.2.len() == best);
        }
        if captures.is_empty() || !self.mandatory {
            captures.extend(quiets);
        }
        captures
    }

    fn after(
        &self,
        from: (i32, i32),
        to: (i32, i32),
        taken: &[(i32, i32)],
        king: bool,
    ) -> RefBoard {
        let mut next = self.clone();
        let piece = self.at(from.0, from.1);
        next.cells[(from.0 * self.n + from.1) as usize] = None;
        for &(r, c) in taken {
            next.cells[(r * self.n + c) as usize] = None;
        }
        next.cells[(to.0 * self.n + to.1) as usize] = piece.map(|p| Cell { king, ..p });
        next.white_to_move = !self.white_to_move;
        next
    }

    pub fn perft(&self, depth: u32) -> u64 {
        let moves = self.legal();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|(_, b)| b.perft(depth - 1)).sum()
    }
}

/// The engine's legal moves as reference keys.
pub fn engine_keys(pos: &Position) -> BTreeSet<Key> {
    pos.legal_moves()
        .iter()
        .map(|m| {
            (
                m.from().number(),
                m.to().number(),
                m.captured().iter().map(|s: &Square| s.number()).collect(),
                m.promotes(),
            )
        })
        .collect()
}

/// A small deterministic pseudo-random generator (xorshift64*), so failures reproduce.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
