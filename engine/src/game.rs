//! A game: rules, start position and history, with results and automatic draws.

use crate::draw::{DrawCounters, DrawReason};
use crate::notation::{MoveError, parse_move_among};
use crate::position::{Move, Position};
use crate::rules::{Color, Rules};
use crate::zobrist;
use std::fmt;

/// Why a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinReason {
    /// The loser had no legal move on their turn (no pieces left, or all blocked).
    NoLegalMoves,
    /// The loser resigned.
    Resignation,
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Ongoing,
    Win { winner: Color, reason: WinReason },
    Draw { reason: DrawReason },
}

impl Status {
    pub fn is_over(self) -> bool {
        self != Status::Ongoing
    }

    /// The PDN result string: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn pdn_result(self) -> &'static str {
        match self {
            Status::Ongoing => "*",
            Status::Win {
                winner: Color::White,
                ..
            } => "1-0",
            Status::Win {
                winner: Color::Black,
                ..
            } => "0-1",
            Status::Draw { .. } => "1/2-1/2",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Ongoing => write!(f, "ongoing"),
            Status::Win {
                winner,
                reason: WinReason::NoLegalMoves,
            } => write!(f, "{winner} wins: {} has no legal move", winner.opponent()),
            Status::Win {
                winner,
                reason: WinReason::Resignation,
            } => write!(f, "{winner} wins: {} resigned", winner.opponent()),
            Status::Draw { reason } => write!(f, "draw: {reason}"),
        }
    }
}

/// A game in progress or finished.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    history: Vec<Move>,
    /// Hash of the start position and of the position after each ply.
    hashes: Vec<u64>,
    legal: Vec<Move>,
    counters: DrawCounters,
    status: Status,
}

impl Game {
    /// A game from the variant's start position.
    pub fn new(rules: impl Into<Rules>) -> Game {
        Game::from_position(Position::start(rules))
    }

    /// A game from a set-up position.
    pub fn from_position(start: Position) -> Game {
        let mut game = Game {
            start,
            position: start,
            history: Vec::new(),
            hashes: vec![zobrist::hash(&start)],
            legal: start.legal_moves(),
            counters: DrawCounters::start(&start),
            status: Status::Ongoing,
        };
        game.status = game.compute_status();
        game
    }

    pub fn rules(&self) -> &Rules {
        self.position.rules()
    }

    pub fn start_position(&self) -> &Position {
        &self.start
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn history(&self) -> &[Move] {
        &self.history
    }

    pub fn side_to_move(&self) -> Color {
        self.position.side_to_move()
    }

    /// Legal moves now (none once the game is over).
    pub fn legal_moves(&self) -> &[Move] {
        if self.status.is_over() {
            &[]
        } else {
            &self.legal
        }
    }

    pub fn status(&self) -> Status {
        self.status
    }

    /// Number of moves `side` has made in this game (for the draw-offer rule).
    pub fn moves_made(&self, side: Color) -> u32 {
        let first = self.start.side_to_move();
        let plies = self.history.len() as u32;
        if side == first {
            plies.div_ceil(2)
        } else {
            plies / 2
        }
    }

    /// Parses and plays a move typed by the player to move.
    pub fn play_str(&mut self, text: &str) -> Result<Move, MoveError> {
        if self.status.is_over() {
            return Err(MoveError::GameOver);
        }
        let mv = parse_move_among(&self.position, &self.legal, text)?;
        self.apply(mv);
        Ok(mv)
    }

    /// Plays a move (it must be legal in the current position).
    pub fn play(&mut self, mv: &Move) -> Result<(), MoveError> {
        if self.status.is_over() {
            return Err(MoveError::GameOver);
        }
        if !self.legal.contains(mv) {
            return Err(MoveError::IllegalPath {
                text: mv.notation(),
            });
        }
        self.apply(*mv);
        Ok(())
    }

    /// The player `side` resigns.
    pub fn resign(&mut self, side: Color) -> Result<(), MoveError> {
        if self.status.is_over() {
            return Err(MoveError::GameOver);
        }
        self.status = Status::Win {
            winner: side.opponent(),
            reason: WinReason::Resignation,
        };
        Ok(())
    }

    /// The players agree a draw.
    pub fn agree_draw(&mut self) -> Result<(), MoveError> {
        if self.status.is_over() {
            return Err(MoveError::GameOver);
        }
        self.status = Status::Draw {
            reason: DrawReason::Agreement,
        };
        Ok(())
    }

    fn apply(&mut self, mv: Move) {
        let before = self.position;
        let mover = before.side_to_move();
        self.position = before.play_unchecked(&mv);
        self.history.push(mv);
        self.hashes.push(zobrist::hash(&self.position));
        self.counters.record(&mv, mover, &before, &self.position);
        self.position.fill_legal_moves(&mut self.legal);
        self.status = self.compute_status();
    }

    fn compute_status(&self) -> Status {
        if self.legal.is_empty() {
            return Status::Win {
                winner: self.side_to_move().opponent(),
                reason: WinReason::NoLegalMoves,
            };
        }
        if self.repetitions() >= 3 {
            return Status::Draw {
                reason: DrawReason::ThreefoldRepetition,
            };
        }
        match self.counters.draw(self.rules(), &self.position) {
            Some(reason) => Status::Draw { reason },
            None => Status::Ongoing,
        }
    }

    /// How often the current position has occurred. A capture or a man move can never be
    /// undone, so only the plies since the last one are searched.
    fn repetitions(&self) -> usize {
        let Some(&current) = self.hashes.last() else {
            return 0;
        };
        let window = self.counters.idle_plies as usize + 1;
        self.hashes
            .iter()
            .rev()
            .take(window)
            .step_by(2)
            .filter(|&&h| h == current)
            .count()
    }
}
