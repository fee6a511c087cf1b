//! Automatic draw counters (RULES.md "Automatic draws" and the local rules).
//!
//! Every counter is updated after each ply from the move and the position it led to. A
//! counter starts when its condition first holds and resets when it breaks; a capture or a
//! promotion always resets the material-based ones, a man move resets the "only kings moved"
//! ones.

use crate::position::{Material, Move, Position};
use crate::rules::{Color, Rules, Variant};
use std::fmt;

/// Why the game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// The same position with the same side to move occurred a third time.
    ThreefoldRepetition,
    /// The players agreed.
    Agreement,
    /// Russian piece-count table: `moves` moves each without capture or promotion with
    /// `pieces` pieces on the board and kings on both sides.
    NoCaptureOrPromotion { pieces: u32, moves: u32 },
    /// `moves` moves each in which only kings moved and nothing was captured.
    OnlyKingsMoved { moves: u32 },
    /// The stronger side did not catch a lone king within `moves` moves.
    LoneKingNotCaught { moves: u32 },
    /// Local rule `no_progress_limit`: `plies` plies with no capture and no man move.
    NoProgressLimit { plies: u32 },
    /// Local rule `move_limit`: the game reached `plies` plies.
    MoveLimit { plies: u32 },
    /// Local rule `lone_kings_limit`: one king each for `moves` moves each without a capture.
    LoneKingsLimit { moves: u32 },
}

impl fmt::Display for DrawReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DrawReason::ThreefoldRepetition => write!(f, "threefold repetition"),
            DrawReason::Agreement => write!(f, "draw agreed"),
            DrawReason::NoCaptureOrPromotion { pieces, moves } => write!(
                f,
                "{moves} moves each without a capture or promotion with {pieces} pieces"
            ),
            DrawReason::OnlyKingsMoved { moves } => {
                write!(
                    f,
                    "{moves} moves each with only kings moving and no capture"
                )
            }
            DrawReason::LoneKingNotCaught { moves } => {
                write!(f, "the lone king was not caught within {moves} moves")
            }
            DrawReason::NoProgressLimit { plies } => {
                write!(f, "{plies} plies without a capture or a man move")
            }
            DrawReason::MoveLimit { plies } => write!(f, "move limit of {plies} plies reached"),
            DrawReason::LoneKingsLimit { moves } => {
                write!(f, "one king each for {moves} moves without a capture")
            }
        }
    }
}

/// An ending of several pieces against a lone king, from when its balance arose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct LoneKingEnding {
    stronger: Color,
    /// Limit in moves of the stronger side.
    limit: u32,
    stronger_moves: u32,
    plies: u32,
}

/// The counters of one game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct DrawCounters {
    /// Plies since the last capture or man move.
    pub idle_plies: u32,
    /// Plies since the russian piece-count condition began (kings on both sides, 2-7 pieces),
    /// reset by captures and promotions. `None` when the condition does not hold.
    table_plies: Option<u32>,
    lone_king: Option<LoneKingEnding>,
    /// Plies with one king each and no capture (local rule).
    lone_kings_plies: Option<u32>,
    plies: u32,
}

fn is_lone_king(m: Material) -> bool {
    m.men == 0 && m.kings == 1
}

/// The russian "main road": the long diagonal a1-h8.
fn on_main_diagonal(position: &Position, color: Color) -> bool {
    position.pieces().iter().any(|(sq, piece)| {
        piece.color == color && {
            let (row, col) = sq.row_col(position.board_size());
            usize::from(row) + usize::from(col) == usize::from(position.board_size().side()) - 1
        }
    })
}

/// The lone-king ending that starts in `position`, if any.
fn lone_king_ending(position: &Position) -> Option<LoneKingEnding> {
    let variant = position.variant();
    for stronger in [Color::White, Color::Black] {
        let weak = position.material(stronger.opponent());
        let strong = position.material(stronger);
        if !is_lone_king(weak) {
            continue;
        }
        let small_force = matches!((strong.kings, strong.men), (3, 0) | (2, 1) | (1, 2));
        let limit = match variant {
            Variant::Russian => {
                if small_force && on_main_diagonal(position, stronger.opponent()) {
                    Some(5)
                } else if strong.kings >= 3 {
                    Some(15)
                } else {
                    None
                }
            }
            Variant::International | Variant::Brazilian => {
                if small_force {
                    Some(16)
                } else if matches!((strong.kings, strong.men), (2, 0) | (1, 1) | (1, 0)) {
                    Some(5)
                } else {
                    None
                }
            }
            Variant::English => None,
        };
        if let Some(limit) = limit {
            return Some(LoneKingEnding {
                stronger,
                limit,
                stronger_moves: 0,
                plies: 0,
            });
        }
    }
    None
}

/// Kings on both sides and 2-7 pieces: the russian table applies. Returns the piece count.
fn table_pieces(position: &Position) -> Option<u32> {
    let white = position.material(Color::White);
    let black = position.material(Color::Black);
    let total = white.total() + black.total();
    (position.variant() == Variant::Russian
        && white.kings > 0
        && black.kings > 0
        && (2..=7).contains(&total))
    .then_some(total)
}

/// (limit without capture/promotion, limit with only king moves), in moves of each side.
fn table_limits(pieces: u32) -> (u32, Option<u32>) {
    match pieces {
        0..=3 => (5, None),
        4..=5 => (30, Some(15)),
        _ => (60, Some(25)),
    }
}

impl DrawCounters {
    /// Counters for a game that starts in `position` (a set-up position may already be an
    /// ending: its counters start at zero).
    pub fn start(position: &Position) -> DrawCounters {
        let one_king_each = is_lone_king(position.material(Color::White))
            && is_lone_king(position.material(Color::Black));
        DrawCounters {
            idle_plies: 0,
            table_plies: table_pieces(position).map(|_| 0),
            lone_king: lone_king_ending(position),
            lone_kings_plies: one_king_each.then_some(0),
            plies: 0,
        }
    }

    /// Updates the counters for `mv`, played by `mover`, which led to `after`.
    pub fn record(&mut self, mv: &Move, mover: Color, before: &Position, after: &Position) {
        self.plies += 1;
        let man_moved = before
            .piece_at(mv.from())
            .is_some_and(|p| p.kind == crate::position::PieceKind::Man);
        let reversible = !mv.is_capture() && !man_moved;
        let material_kept = !mv.is_capture() && !mv.promotes();
        self.idle_plies = if reversible { self.idle_plies + 1 } else { 0 };

        self.table_plies = match (table_pieces(after), self.table_plies) {
            (Some(_), Some(plies)) if material_kept => Some(plies + 1),
            (Some(_), _) => Some(0),
            (None, _) => None,
        };

        self.lone_king = match self.lone_king {
            Some(mut ending) if material_kept => {
                ending.plies += 1;
                if mover == ending.stronger {
                    ending.stronger_moves += 1;
                }
                Some(ending)
            }
            _ => lone_king_ending(after),
        };

        let one_king_each = is_lone_king(after.material(Color::White))
            && is_lone_king(after.material(Color::Black));
        self.lone_kings_plies = match (one_king_each, self.lone_kings_plies) {
            (true, Some(plies)) if !mv.is_capture() => Some(plies + 1),
            (true, _) => Some(0),
            (false, _) => None,
        };
    }

    /// The draw the counters call for now, if any.
    pub fn draw(&self, rules: &Rules, position: &Position) -> Option<DrawReason> {
        if let Some(ending) = self.lone_king {
            let reached = match rules.variant {
                // Counted in moves of the stronger side.
                Variant::Russian => ending.stronger_moves >= ending.limit,
                // "N more moves each": 2N plies.
                _ => ending.plies >= 2 * ending.limit,
            };
            if reached {
                return Some(DrawReason::LoneKingNotCaught {
                    moves: ending.limit,
                });
            }
        }
        match rules.variant {
            Variant::Russian => {
                if let (Some(pieces), Some(plies)) = (table_pieces(position), self.table_plies) {
                    let (no_capture, kings_only) = table_limits(pieces);
                    if plies >= 2 * no_capture {
                        return Some(DrawReason::NoCaptureOrPromotion {
                            pieces,
                            moves: no_capture,
                        });
                    }
                    if let Some(limit) = kings_only
                        && plies.min(self.idle_plies) >= 2 * limit
                    {
                        return Some(DrawReason::OnlyKingsMoved { moves: limit });
                    }
                }
            }
            Variant::English => {
                if self.idle_plies >= 80 {
                    return Some(DrawReason::OnlyKingsMoved { moves: 40 });
                }
            }
            Variant::International | Variant::Brazilian => {
                if self.idle_plies >= 50 {
                    return Some(DrawReason::OnlyKingsMoved { moves: 25 });
                }
            }
        }
        if let Some(limit) = rules.no_progress_limit
            && self.idle_plies >= limit
        {
            return Some(DrawReason::NoProgressLimit { plies: limit });
        }
        if let Some(limit) = rules.lone_kings_limit
            && self
                .lone_kings_plies
                .is_some_and(|plies| plies >= 2 * limit)
        {
            return Some(DrawReason::LoneKingsLimit { moves: limit });
        }
        if let Some(limit) = rules.move_limit
            && self.plies >= limit
        {
            return Some(DrawReason::MoveLimit { plies: limit });
        }
        None
    }
}
