//! damka-engine: the rules of Russian, English, international and Brazilian draughts.
//!
//! Legal move generation with full capture sequences, notation, PDN FEN and games, game
//! state with every automatic draw, and perft. No I/O.
//!
//! ```
//! use damka_engine::{Game, Status, Variant};
//! let mut game = Game::new(Variant::Russian);
//! game.play_str("c3-d4").unwrap();
//! assert_eq!(game.status(), Status::Ongoing);
//! assert_eq!(game.legal_moves().len(), 7);
//! ```

mod draw;
pub mod fen;
mod game;
mod geometry;
mod king_rays;
mod movegen;
mod notation;
pub mod pdn;
mod perft;
mod position;
mod preset;
mod rules;
mod square;
mod zobrist;

pub use draw::DrawReason;
pub use fen::{FenError, FenErrorKind, SquareStyle};
pub use game::{Game, Status, WinReason};
pub use notation::{MoveError, parse_move};
pub use pdn::{PdnError, PdnGame, parse_games};
pub use perft::{divide, perft};
pub use position::{IllegalMove, Material, Move, Piece, PieceKind, Position};
pub use rules::{BoardSize, CaptureChoice, Color, Rules, UnknownVariant, Variant};
pub use square::Square;
pub use zobrist::hash as zobrist_hash;
