//! Replaying one entry with the engine: the check every table entry goes through.

use damka_engine::{Game, MoveError, Position, Variant};

/// What is wrong with an entry; the caller adds the line and the code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    BadFen(String),
    /// `ply` is 1-based.
    BadMove {
        ply: usize,
        text: String,
        reason: MoveError,
    },
    /// The game is over after `ply` plies (0: at the start position).
    GameOver {
        ply: usize,
    },
}

/// An entry after its replay, everything in the engine's spelling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replayed {
    pub moves: Vec<String>,
    pub start_fen: Option<String>,
    pub fen: String,
}

/// Plays `moves` from `start_fen` (or the initial position) under the preset rules of
/// `variant`. The game must still be on after every ply: an opening that ends the game (or
/// a position with no move for the side to move) leaves nothing to play.
pub fn replay(
    variant: Variant,
    start_fen: Option<&str>,
    moves: &[&str],
) -> Result<Replayed, Fault> {
    let (mut game, start_fen) = match start_fen {
        Some(text) => {
            let start =
                Position::from_fen(variant, text).map_err(|e| Fault::BadFen(e.to_string()))?;
            (Game::from_position(start), Some(start.to_fen()))
        }
        None => (Game::new(variant), None),
    };
    if game.status().is_over() {
        return Err(Fault::GameOver { ply: 0 });
    }
    let mut canonical = Vec::with_capacity(moves.len());
    for (index, text) in moves.iter().enumerate() {
        let ply = index + 1;
        let played = game.play_str(text).map_err(|e| Fault::BadMove {
            ply,
            text: (*text).to_string(),
            reason: e,
        })?;
        canonical.push(played.notation());
        if game.status().is_over() {
            return Err(Fault::GameOver { ply });
        }
    }
    Ok(Replayed {
        moves: canonical,
        start_fen,
        fen: game.position().to_fen(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_moves_and_fens() {
        let r = replay(Variant::Russian, None, &["c3d4", "f6-g5"]).expect("legal");
        assert_eq!(r.moves, ["c3-d4", "f6-g5"]);
        assert_eq!(r.start_fen, None);
        let set_up = replay(Variant::Russian, Some("W:Wc3,a1:Bh8"), &[]).expect("legal");
        assert_eq!(set_up.start_fen.as_deref(), Some("W:Wc3,a1:Bh8"));
        assert_eq!(set_up.fen, "W:Wc3,a1:Bh8");
    }

    #[test]
    fn a_sequence_that_ends_the_game_is_refused() {
        // c3:e5 takes Black's last man.
        assert_eq!(
            replay(Variant::Russian, Some("W:Wc3:Bd4"), &["c3:e5"]),
            Err(Fault::GameOver { ply: 1 })
        );
        assert_eq!(
            replay(Variant::Russian, Some("B:Wc3:Bd4"), &[]),
            Ok(Replayed {
                moves: vec![],
                start_fen: Some("B:Wc3:Bd4".into()),
                fen: "B:Wc3:Bd4".into()
            })
        );
        // No move for White at the start.
        assert_eq!(
            replay(Variant::Russian, Some("W:Wa1:Bc3,b2"), &[]),
            Err(Fault::GameOver { ply: 0 })
        );
        assert!(matches!(
            replay(Variant::Russian, None, &["c3-d4", "c3-d4"]),
            Err(Fault::BadMove { ply: 2, .. })
        ));
    }
}
