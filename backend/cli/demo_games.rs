//! The demo's games, played move by move through the same use case as a player's phone
//! (`games::play::submit`), so every demo game is a legal game the engine checked. The
//! moves come from a two-ply material search with a random choice among equals: not
//! strong play, but games that look like games.
use damka_engine::{Color, Game, Move, Position};

use crate::service::games::arbiter::{self, GameResultInput};
use crate::service::games::play::{self, MoveInput};
use crate::service::{Actor, AppError, games};
use crate::store::DbConn;
use damka_domain::vocabulary::{GameStatus, ResultCode, Spelling};

/// Plays `plies` more plies of game `game_id` as `arbiter` (who may move for both sides);
/// stops early when the game ends by the rules.
pub fn play_plies(
    conn: &mut DbConn,
    arbiter: &Actor,
    game_id: i64,
    plies: u32,
    roll: &mut dyn FnMut() -> u64,
) -> Result<(), AppError> {
    let loaded = games::load(conn, game_id)?;
    if loaded.row.status == GameStatus::Finished {
        return Ok(());
    }
    // The engine's copy of the game chooses; the server checks and stores each move.
    let mut game = loaded.game;
    let first = loaded.row.ply + 1;
    for ply in (first..).take(plies as usize) {
        let Some(chosen) = choose(&game, roll) else {
            break;
        };
        let stored = play::submit(
            conn,
            arbiter,
            game_id,
            &MoveInput {
                ply,
                text: chosen.notation(),
                offer_draw: false,
            },
        )?;
        let view = match stored {
            play::Submitted::Stored(view) | play::Submitted::AlreadyStored(view) => view,
        };
        if view.status == GameStatus::Finished {
            break;
        }
        game.play(&chosen)
            .map_err(|e| AppError::internal(format!("demo move refused: {e}")))?;
    }
    Ok(())
}

/// How many plies past `plies` a game goes on looking for a position that fits its
/// intended result.
const EXTRA_PLIES: u32 = 60;

/// Plays a whole game: at least `plies` plies, then on until the position fits `intended`
/// (a draw agreed with material level within a man, a resignation by the side at least two
/// men behind, a king counting three), for at most [`EXTRA_PLIES`] more. If the rules end it
/// first, that is its result; if no fitting position came, the players end it as its
/// material says (no agreed draw with 3 men against 10).
pub fn play_to_result(
    conn: &mut DbConn,
    arbiter: &Actor,
    game_id: i64,
    plies: u32,
    intended: ResultCode,
    roll: &mut dyn FnMut() -> u64,
) -> Result<(), AppError> {
    play_plies(conn, arbiter, game_id, plies, roll)?;
    let mut extra = 0;
    let result = loop {
        let loaded = games::load(conn, game_id)?;
        if loaded.row.status == GameStatus::Finished {
            return Ok(());
        }
        let said = material_says(loaded.game.position());
        if said == intended || extra >= EXTRA_PLIES {
            break said;
        }
        play_plies(conn, arbiter, game_id, 2, roll)?;
        extra += 2;
    };
    let reason = if result == ResultCode::Draw {
        "agreement"
    } else {
        "resignation"
    };
    arbiter::set_result(
        conn,
        arbiter,
        game_id,
        &GameResultInput {
            result: Some(result.spelling().to_string()),
            reason: Some(reason.to_string()),
        },
    )?;
    Ok(())
}

/// The result players would agree on in this position: the side two men (or a king) ahead
/// wins by the other's resignation; otherwise a draw.
fn material_says(position: &Position) -> ResultCode {
    match balance(position, Color::White) {
        lead if lead >= 2 => ResultCode::WhiteWins,
        lead if lead <= -2 => ResultCode::BlackWins,
        _ => ResultCode::Draw,
    }
}

/// The mover's best move by material after the opponent's best reply; ties broken at
/// random.
fn choose(game: &Game, roll: &mut dyn FnMut() -> u64) -> Option<Move> {
    let position = game.position();
    let mover = position.side_to_move();
    let mut best: Vec<Move> = Vec::new();
    let mut best_score = i32::MIN;
    for mv in game.legal_moves() {
        let Ok(after) = position.play(mv) else {
            continue;
        };
        let score = after
            .legal_moves()
            .iter()
            .filter_map(|reply| after.play(reply).ok())
            .map(|p| balance(&p, mover))
            .min()
            .unwrap_or(i32::MAX / 2);
        if score > best_score {
            best_score = score;
            best.clear();
        }
        if score == best_score {
            best.push(*mv);
        }
    }
    if best.is_empty() {
        return None;
    }
    let index = (roll() % best.len() as u64) as usize;
    best.get(index).copied()
}

/// Material of `side` minus the opponent's, a king worth three men.
fn balance(position: &Position, side: Color) -> i32 {
    let worth = |color: Color| {
        let material = position.material(color);
        (material.men + 3 * material.kings) as i32
    };
    worth(side) - worth(side.opponent())
}
