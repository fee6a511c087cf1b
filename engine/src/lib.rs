//! damka-engine: the rules of Russian, English, international and Brazilian draughts.
//!
//! Legal move generation with full capture sequences, notation, PDN FEN and games, game
//! state with every automatic draw, and perft. No I/O.

mod geometry;
mod movegen;
mod perft;
mod position;
mod preset;
mod rules;
mod square;

pub use perft::{divide, perft};
pub use position::{IllegalMove, Material, Move, Piece, PieceKind, Position};
pub use rules::{BoardSize, CaptureChoice, Color, Rules, UnknownVariant, Variant};
pub use square::Square;

#[cfg(test)]
mod start_perft_smoke {
    use super::*;

    #[test]
    fn start_counts() {
        for v in Variant::ALL {
            let p = Position::start(v);
            let counts: Vec<u64> = (1..=6).map(|d| perft(&p, d)).collect();
            eprintln!("{v}: {counts:?}");
        }
    }
}
