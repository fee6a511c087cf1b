//! The public position type: where the pieces stand, who moves, and under which rules.

use crate::movegen::{self, Bitboards, CaptureSink, MAX_PATH, RawMove};
use crate::preset::{Preset, with_preset};
use crate::rules::{BoardSize, CaptureChoice, Color, Rules, Variant};
use crate::square::{Square, bits};
use std::fmt;
use std::hash::{Hash, Hasher};

/// Man or king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PieceKind {
    Man,
    King,
}

/// A piece of one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub kind: PieceKind,
}

/// Men and kings of one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Material {
    pub men: u32,
    pub kings: u32,
}

impl Material {
    pub fn total(self) -> u32 {
        self.men + self.kings
    }
}

/// A legal move. Two capture sequences that end on the same square with the same pieces
/// taken (and the same promotion) are one move: equality and hashing ignore the path, which
/// is kept only for display.
#[derive(Clone, Copy, Debug)]
pub struct Move {
    variant: Variant,
    raw: RawMove,
    /// Landing squares (bits), one per captured piece; empty for a quiet move.
    landings: [u8; MAX_PATH],
    landing_count: u8,
}

impl PartialEq for Move {
    fn eq(&self, other: &Self) -> bool {
        self.variant == other.variant && self.raw == other.raw
    }
}

impl Eq for Move {}

impl Hash for Move {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.variant.hash(state);
        self.raw.from.hash(state);
        self.raw.to.hash(state);
        self.raw.captured.hash(state);
        self.raw.promotes.hash(state);
    }
}

impl Move {
    fn size(&self) -> BoardSize {
        self.variant.board_size()
    }

    pub(crate) fn raw(&self) -> &RawMove {
        &self.raw
    }

    pub(crate) fn from_raw(variant: Variant, raw: RawMove, landings: &[u8]) -> Move {
        let mut stored = [0u8; MAX_PATH];
        let count = landings.len().min(MAX_PATH);
        stored[..count].copy_from_slice(&landings[..count]);
        Move {
            variant,
            raw,
            landings: stored,
            landing_count: count as u8,
        }
    }

    pub fn from(&self) -> Square {
        Square::from_bit(u32::from(self.raw.from), self.size())
    }

    pub fn to(&self) -> Square {
        Square::from_bit(u32::from(self.raw.to), self.size())
    }

    /// The concrete path: the start square, then every landing square.
    pub fn path(&self) -> Vec<Square> {
        let mut path = vec![self.from()];
        if self.landing_count == 0 {
            path.push(self.to());
        } else {
            path.extend(
                self.landings[..usize::from(self.landing_count)]
                    .iter()
                    .map(|&bit| Square::from_bit(u32::from(bit), self.size())),
            );
        }
        path
    }

    /// The captured pieces' squares, in increasing order.
    pub fn captured(&self) -> Vec<Square> {
        bits(self.raw.captured)
            .map(|bit| Square::from_bit(bit, self.size()))
            .collect()
    }

    pub fn captured_count(&self) -> u32 {
        self.raw.captured.count_ones()
    }

    pub fn is_capture(&self) -> bool {
        self.raw.captured != 0
    }

    /// Whether a man is crowned by this move.
    pub fn promotes(&self) -> bool {
        self.raw.promotes
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The move in the variant's notation: `c3-d4`, `c3:e5:g3` (russian), `c3xe5` (brazilian),
    /// `11-15`, `15x24x31` (english, international).
    pub fn notation(&self) -> String {
        let size = self.size();
        let algebraic = self.variant.algebraic();
        let separator = if !self.is_capture() {
            "-"
        } else if self.variant == Variant::Russian {
            ":"
        } else {
            "x"
        };
        self.path()
            .iter()
            .map(|sq| sq.name(size, algebraic))
            .collect::<Vec<_>>()
            .join(separator)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.notation())
    }
}

/// Collects public moves with their paths; same duplicate and maximum handling as
/// [`movegen::RawCaptures`].
struct MoveSink {
    variant: Variant,
    moves: Vec<Move>,
    maximum: bool,
    best: u32,
}

impl CaptureSink for MoveSink {
    const TRACK_PATH: bool = true;

    fn push(&mut self, from: u32, to: u32, captured: u64, count: u32, promotes: bool, path: &[u8]) {
        if self.maximum {
            if count < self.best {
                return;
            }
            if count > self.best {
                self.best = count;
                self.moves.clear();
            }
        }
        let raw = RawMove {
            from: from as u8,
            to: to as u8,
            promotes,
            captured,
        };
        if count >= 3 && self.moves.iter().any(|m| m.raw == raw) {
            return;
        }
        self.moves.push(Move::from_raw(self.variant, raw, path));
    }
}

/// A position: pieces, side to move and the rules they are played under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    rules: Rules,
    boards: Bitboards,
    side: Color,
}

/// A move that is not legal in the position it was played in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    pub notation: String,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is not a legal move in this position", self.notation)
    }
}

impl std::error::Error for IllegalMove {}

impl Position {
    /// The start position of the rules' variant.
    pub fn start(rules: impl Into<Rules>) -> Position {
        let rules = rules.into();
        let size = rules.variant.board_size();
        let rows_each = if size == BoardSize::Ten { 4 } else { 3 };
        let per_row = u32::from(size.per_row());
        let squares = u32::from(size.squares());
        let mut boards = Bitboards::default();
        for index in 0..squares {
            let bit = 1u64 << crate::geometry::bit_of_index(index, per_row);
            if index < rows_each * per_row {
                boards.black |= bit;
            } else if index >= squares - rows_each * per_row {
                boards.white |= bit;
            }
        }
        Position {
            rules,
            boards,
            side: rules.variant.first_to_move(),
        }
    }

    pub(crate) fn from_parts(rules: Rules, boards: Bitboards, side: Color) -> Position {
        Position {
            rules,
            boards,
            side,
        }
    }

    pub(crate) fn boards(&self) -> &Bitboards {
        &self.boards
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn variant(&self) -> Variant {
        self.rules.variant
    }

    pub fn board_size(&self) -> BoardSize {
        self.rules.variant.board_size()
    }

    /// The same pieces under other rules of the same board size.
    pub fn with_rules(&self, rules: Rules) -> Option<Position> {
        (rules.variant.board_size() == self.board_size()).then_some(Position { rules, ..*self })
    }

    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// What stands on a square.
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        let mask = square.mask(self.board_size());
        let color = if self.boards.white & mask != 0 {
            Color::White
        } else if self.boards.black & mask != 0 {
            Color::Black
        } else {
            return None;
        };
        let kind = if self.boards.kings & mask != 0 {
            PieceKind::King
        } else {
            PieceKind::Man
        };
        Some(Piece { color, kind })
    }

    /// Every square with what stands there (`None` for an empty square), in square order:
    /// what a UI needs to draw the board.
    pub fn squares(&self) -> Vec<(Square, Option<Piece>)> {
        let size = self.board_size();
        (1..=size.squares())
            .filter_map(|n| Square::new(n, size))
            .map(|sq| (sq, self.piece_at(sq)))
            .collect()
    }

    /// The occupied squares only.
    pub fn pieces(&self) -> Vec<(Square, Piece)> {
        self.squares()
            .into_iter()
            .filter_map(|(sq, piece)| piece.map(|p| (sq, p)))
            .collect()
    }

    pub fn material(&self, color: Color) -> Material {
        let side = self.boards.side(color == Color::White);
        Material {
            men: (side & !self.boards.kings).count_ones(),
            kings: (side & self.boards.kings).count_ones(),
        }
    }

    fn mandatory_and_maximum(&self) -> (bool, bool) {
        (
            self.rules.mandatory_capture,
            self.rules.capture_choice == CaptureChoice::Maximum,
        )
    }

    /// Every legal move, captures first. Duplicate capture paths appear once.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        self.fill_legal_moves(&mut moves);
        moves
    }

    /// Replaces the contents of `out` with the legal moves (reusing its allocation).
    pub(crate) fn fill_legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        let moves = std::mem::take(out);
        *out = with_preset!(self.variant(), P => {
            if self.side == Color::White {
                self.legal_moves_for::<P, true>(moves)
            } else {
                self.legal_moves_for::<P, false>(moves)
            }
        });
    }

    fn legal_moves_for<P: Preset, const WHITE: bool>(&self, buffer: Vec<Move>) -> Vec<Move> {
        let (mandatory, maximum) = self.mandatory_and_maximum();
        let mut sink = MoveSink {
            variant: self.variant(),
            moves: buffer,
            maximum,
            best: 0,
        };
        let men = movegen::men_capturers::<P, WHITE>(&self.boards);
        let kings = movegen::king_scan::<P, WHITE>(&self.boards).capturers;
        movegen::generate_captures::<P, WHITE, _>(&self.boards, men, kings, &mut sink);
        let mut moves = sink.moves;
        if moves.is_empty() || !mandatory {
            let mut quiet = Vec::new();
            movegen::generate_quiets::<P, WHITE>(&self.boards, &mut quiet);
            moves.extend(
                quiet
                    .into_iter()
                    .map(|raw| Move::from_raw(self.variant(), raw, &[])),
            );
        }
        moves
    }

    /// The squares of the pieces that can capture now.
    pub fn capturers(&self) -> Vec<Square> {
        let mask = with_preset!(self.variant(), P => {
            if self.side == Color::White {
                movegen::capturers::<P, true>(&self.boards)
            } else {
                movegen::capturers::<P, false>(&self.boards)
            }
        });
        bits(mask)
            .map(|bit| Square::from_bit(bit, self.board_size()))
            .collect()
    }

    /// The position after a legal move.
    pub fn play(&self, mv: &Move) -> Result<Position, IllegalMove> {
        if mv.variant != self.variant() || !self.legal_moves().contains(mv) {
            return Err(IllegalMove {
                notation: mv.notation(),
            });
        }
        Ok(self.play_unchecked(mv))
    }

    /// The position after `mv`, which must come from this position's [`Self::legal_moves`].
    pub(crate) fn play_unchecked(&self, mv: &Move) -> Position {
        Position {
            rules: self.rules,
            boards: movegen::apply(&self.boards, &mv.raw, self.side == Color::White),
            side: self.side.opponent(),
        }
    }
}
