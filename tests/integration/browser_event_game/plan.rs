//! The event game's moves, worked out with the engine before anyone clicks: which squares a
//! player clicks for each, read as the game page's script reads clicks.
use damka_engine::{Game, Move, Status, Variant};

/// One move of the game worked out before it is played: its notation as the site shows
/// it, the squares a player clicks for it, and how many pieces it takes.
pub(super) struct PlannedMove {
    pub(super) notation: String,
    pub(super) clicks: Vec<String>,
    pub(super) captured: u32,
}

fn square_names(mv: &Move) -> Vec<String> {
    let variant = mv.variant();
    mv.path()
        .iter()
        .map(|sq| sq.name(variant.board_size(), variant.algebraic()))
        .collect()
}

/// The squares a player clicks for `mv` among the `legal` moves, read as the game page's
/// script reads clicks (static/game.js): the piece, then landing squares until the path so
/// far is a whole legal move or only one legal move begins with it.
fn clicks_for(legal: &[Move], mv: &Move) -> Vec<String> {
    let paths: Vec<Vec<String>> = legal.iter().map(square_names).collect();
    let path = square_names(mv);
    for length in 2..=path.len() {
        let prefix = &path[..length];
        let left: Vec<&Vec<String>> = paths.iter().filter(|p| p.starts_with(prefix)).collect();
        if left.len() == 1 || left.iter().any(|p| p.len() == length) {
            return prefix.to_vec();
        }
    }
    path
}

/// A Russian game of `plies` legal moves, still going after the last, with at least one
/// capture of two or more pieces whose route takes clicks through two landing squares:
/// seeded random playouts, the first such capture on offer always taken, seed after seed
/// until one fits.
pub(super) fn plan_game(plies: usize) -> Vec<PlannedMove> {
    for seed in 1u64..10_000 {
        let mut random = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut game = Game::new(Variant::Russian);
        let mut moves = Vec::new();
        let mut routed = false;
        while moves.len() < plies && game.status() == Status::Ongoing {
            let legal = game.legal_moves().to_vec();
            let route_to_click = legal
                .iter()
                .find(|m| m.captured_count() >= 2 && clicks_for(&legal, m).len() >= 3);
            let mv = match route_to_click {
                Some(mv) if !routed => {
                    routed = true;
                    *mv
                }
                _ => {
                    // xorshift64: the same games on every run.
                    random ^= random << 13;
                    random ^= random >> 7;
                    random ^= random << 17;
                    legal[(random % legal.len() as u64) as usize]
                }
            };
            moves.push(PlannedMove {
                notation: mv.notation(),
                clicks: clicks_for(&legal, &mv),
                captured: mv.captured_count(),
            });
            game.play(&mv).expect("a legal move plays");
        }
        if routed && moves.len() == plies && game.status() == Status::Ongoing {
            return moves;
        }
    }
    panic!("no seed gave a {plies}-ply game with a capture route to click");
}
