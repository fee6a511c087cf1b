//! Why a table or one of its entries was refused.

use damka_engine::{MoveError, Variant};

/// A refused table or entry. Messages name the entry (line and code) and the problem;
/// [`BallotError::code`] gives a stable identifier for the service's problem codes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BallotError {
    #[error("the table is {size} bytes long; at most {limit} bytes are accepted")]
    TooLarge { size: usize, limit: usize },
    #[error("line {line}: more than {limit} openings; at most {limit} are accepted")]
    TooMany { line: usize, limit: usize },
    #[error("line {line}, opening {code}: {plies} plies; at most {limit} are accepted")]
    TooLong {
        line: usize,
        code: String,
        plies: usize,
        limit: usize,
    },
    #[error("line {line}: the code {code:?} is longer than {limit} characters")]
    CodeTooLong {
        line: usize,
        code: String,
        limit: usize,
    },
    #[error("line {line}, opening {code}: ply {ply} ({text:?}): {reason}")]
    BadMove {
        line: usize,
        code: String,
        /// 1-based.
        ply: usize,
        text: String,
        /// The engine's reason, as it refuses a move in a game.
        reason: MoveError,
    },
    #[error("line {line}, opening {code}: bad FEN: {reason}")]
    BadFen {
        line: usize,
        code: String,
        reason: String,
    },
    #[error("line {line}, opening {code}: {}", game_over_text(*.ply))]
    GameOver {
        line: usize,
        code: String,
        /// The ply after which the game is over; 0 for a start position with no game left.
        ply: usize,
    },
    #[error("line {line}: the code {code:?} was already given on line {first_line}")]
    DuplicateCode {
        line: usize,
        code: String,
        first_line: usize,
    },
    #[error("the table has no openings")]
    Empty,
    #[error("the {table} table is not played in {variant}")]
    WrongVariant {
        table: &'static str,
        variant: Variant,
    },
    /// A built-in table's entry does not replay: a bug in damka's data, which a test rules out.
    #[error("built-in table {table}, line {line}, opening {code}: {reason}")]
    BadBuiltin {
        table: &'static str,
        line: usize,
        code: String,
        reason: String,
    },
}

fn game_over_text(ply: usize) -> String {
    if ply == 0 {
        "the game is already over in this position".to_string()
    } else {
        format!("the game is over after ply {ply}; an opening must leave a game to play")
    }
}

impl BallotError {
    /// A stable snake_case identifier of the kind of error.
    pub fn code(&self) -> &'static str {
        match self {
            BallotError::TooLarge { .. } => "ballot_too_large",
            BallotError::TooMany { .. } => "ballot_too_many",
            BallotError::TooLong { .. } => "ballot_too_long",
            BallotError::CodeTooLong { .. } => "ballot_code_too_long",
            BallotError::BadMove { .. } => "ballot_bad_move",
            BallotError::BadFen { .. } => "ballot_bad_fen",
            BallotError::GameOver { .. } => "ballot_game_over",
            BallotError::DuplicateCode { .. } => "ballot_duplicate_code",
            BallotError::Empty => "ballot_empty",
            BallotError::WrongVariant { .. } => "ballot_wrong_variant",
            BallotError::BadBuiltin { .. } => "ballot_bad_builtin",
        }
    }
}
