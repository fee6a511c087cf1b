//! The engine's reasons for refusing a move, as the service's refusals. A leaf of the
//! games module: ballots, event games and PDN imports check moves too.
use damka_engine::{Game, MoveError};

use crate::service::{AppError, Refusal};

/// The refusal of an illegal move: the engine's reason and the legal moves.
pub fn illegal(game: &Game, error: MoveError) -> AppError {
    let mut legal: Vec<String> = game.legal_moves().iter().map(|m| m.notation()).collect();
    legal.sort();
    AppError::invalid(
        "move",
        Refusal::IllegalMove {
            reason: Box::new(move_refusal(error)),
            legal_moves: legal,
        },
    )
}

/// The engine's reason as a refusal with its own code.
pub fn move_refusal(error: MoveError) -> Refusal {
    match error {
        MoveError::Empty => Refusal::MoveEmpty,
        MoveError::Malformed { text } => Refusal::MoveMalformed { text },
        MoveError::NotASquare { text } => Refusal::MoveNotASquare { text },
        MoveError::NoPiece { square } => Refusal::MoveNoPiece { square },
        MoveError::NotYourPiece { square } => Refusal::MoveNotYourPiece { square },
        MoveError::CaptureCompulsory { capturers } => Refusal::MoveCaptureCompulsory { capturers },
        MoveError::IllegalPath { text } => Refusal::MoveIllegalPath { text },
        MoveError::Ambiguous { candidates } => Refusal::MoveAmbiguous { candidates },
        MoveError::GameOver => Refusal::GameOver,
    }
}
