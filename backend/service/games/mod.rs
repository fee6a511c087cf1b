//! Games: every move checked by the engine and stored one row per ply, draw offers,
//! resignations, arbiters' results and takebacks; a finished event game's result lands on
//! its board through the one path an arbiter's result takes.
//!
//! The stored move list is the truth. A game is rebuilt from its start position and stored
//! moves, or taken from the state this instance kept after its last write to it
//! (`replayed`), which is used only while the game row's revision says nothing has written
//! to the game since, here or on another instance. Writes lock the game row first
//! (`store::games::lock`), except the common move, which is stored only if the revision is
//! still the one it was checked against (`optimistic`).
pub mod arbiter;
pub mod challenge;
pub mod clock;
pub mod clock_start;
pub mod create;
pub mod engine_refusal;
pub mod event_games;
pub mod move_check;
pub mod offers;
pub mod optimistic;
pub mod pdn;
pub mod play;
mod replayed;
pub mod time_forfeit;
pub mod view;

use chrono::{DateTime, Utc};
use damka_engine::{CaptureChoice, Color, Game, Position, Rules, Variant};

use super::{Actor, AppError, AppResult, Refusal};
use crate::store::games::{self as stored, GameRow, MoveRow};
use crate::store::models::LocalRules;
use crate::store::{DbConn, events};
use damka_domain::vocabulary::{GameEnd, GameStatus, ResultCode};

/// Game lists filter by player, event and status with this (the home and player pages).
pub use crate::store::games::GameFilter;
pub use view::{GameSummary, GameView};

/// A game as stored, replayed by the engine.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub row: GameRow,
    pub moves: Vec<MoveRow>,
    pub game: Game,
}

impl Loaded {
    pub fn is_over(&self) -> bool {
        self.row.status == GameStatus::Finished
    }
}

/// The engine's rules for a variant with an event's local rules on top.
pub fn engine_rules(variant: Variant, local: &LocalRules) -> Rules {
    let mut rules = Rules::preset(variant);
    if let Some(mandatory) = local.mandatory_capture {
        rules.mandatory_capture = mandatory;
    }
    match local.capture_choice.as_deref() {
        Some("free") => rules.capture_choice = CaptureChoice::Free,
        Some("maximum") => rules.capture_choice = CaptureChoice::Maximum,
        _ => {}
    }
    rules.no_progress_limit = local.no_progress_limit;
    rules.move_limit = local.move_limit;
    rules.lone_kings_limit = local.lone_kings_limit;
    rules
}

/// Replays the stored moves of `row`. A stored move the engine refuses is a damaged game
/// (an internal error), never silently skipped.
pub fn replay(row: &GameRow, moves: &[MoveRow]) -> AppResult<Game> {
    let rules = engine_rules(row.variant, &row.local_rules);
    let start = Position::from_fen(rules, &row.start_fen)
        .map_err(|e| AppError::internal(format!("game {}: bad start FEN: {e}", row.id)))?;
    let mut game = Game::from_position(start);
    for (index, mv) in moves.iter().enumerate() {
        if mv.ply != index as i32 + 1 {
            return Err(AppError::internal(format!(
                "game {}: ply {} stored where {} was expected",
                row.id,
                mv.ply,
                index + 1
            )));
        }
        game.play_str(&mv.notation).map_err(|e| {
            AppError::internal(format!(
                "game {}: stored ply {} ({}) does not replay: {e}",
                row.id, mv.ply, mv.notation
            ))
        })?;
    }
    Ok(game)
}

/// Loads and replays a game (no lock).
pub fn load(conn: &mut DbConn, game_id: i64) -> AppResult<Loaded> {
    let row = stored::by_id(conn, game_id)?.ok_or(AppError::NotFound { what: "game" })?;
    let revision = row.revision;
    loaded_at(conn, row, revision)
}

/// `row` with its moves, replayed, taken from the cache when it holds the game at
/// `revision` (the revision the moves and the row agree on).
fn loaded_at(conn: &mut DbConn, row: GameRow, revision: i64) -> AppResult<Loaded> {
    match replayed::lookup(conn, row.id, revision) {
        Some((moves, game)) => Ok(Loaded { row, moves, game }),
        None => loaded(conn, row),
    }
}

/// A game row already read (under its lock, say) with its moves, replayed.
pub fn loaded(conn: &mut DbConn, row: GameRow) -> AppResult<Loaded> {
    let moves = stored::moves(conn, row.id)?;
    let game = replay(&row, &moves)?;
    Ok(Loaded { row, moves, game })
}

/// Runs a write to one game: a write transaction whose first statement locks the game, then
/// `f` with the game as it stands under the lock.
pub fn write<T>(
    conn: &mut DbConn,
    game_id: i64,
    f: impl FnOnce(&mut DbConn, Loaded) -> AppResult<T>,
) -> AppResult<T> {
    conn.write_transaction(|conn| {
        let row = stored::lock(conn, game_id)?.ok_or(AppError::NotFound { what: "game" })?;
        // The lock has just bumped the revision: the state before it is the one stamped
        // with the revision before.
        let before = row.revision - 1;
        let loaded = loaded_at(conn, row, before)?;
        f(conn, loaded)
    })
}

/// Keeps a game's state after a committed write for the next one (`replayed`).
pub fn remember(conn: &mut DbConn, loaded: &Loaded) {
    replayed::remember(conn, &loaded.row, &loaded.moves, &loaded.game);
}

/// The game as this instance last left it (`replayed`), if kept: what a move may be
/// checked against before any read, to be stored only if the revision is still the same.
pub fn last_kept(conn: &mut DbConn, game_id: i64) -> Option<Loaded> {
    let (row, moves, game) = replayed::latest(conn, game_id)?;
    Some(Loaded { row, moves, game })
}

/// Who the actor is in a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The player of this side.
    Player(Color),
    /// An arbiter of the game's event, its organiser, the organiser who created a
    /// standalone game, or a site administrator: enters moves for both sides, sets results,
    /// takes moves back.
    Arbiter,
}

/// The actor's role in the game, if any. A player who is also an arbiter acts as the
/// player (their own moves are theirs, not an arbiter's).
pub fn role_of(conn: &mut DbConn, actor: &Actor, row: &GameRow) -> AppResult<Option<Role>> {
    let Some(user) = &actor.user else {
        return Ok(None);
    };
    if let Some(player) = user.player_id {
        if player == row.white_player_id {
            return Ok(Some(Role::Player(Color::White)));
        }
        if player == row.black_player_id {
            return Ok(Some(Role::Player(Color::Black)));
        }
    }
    if is_arbiter(conn, actor, row)? {
        return Ok(Some(Role::Arbiter));
    }
    Ok(None)
}

/// Whether the actor may act as the game's arbiter.
pub fn is_arbiter(conn: &mut DbConn, actor: &Actor, row: &GameRow) -> AppResult<bool> {
    let Some(user) = &actor.user else {
        return Ok(false);
    };
    if user.is_admin {
        return Ok(true);
    }
    match row.event_id {
        Some(event_id) => {
            let event =
                events::by_id(conn, event_id)?.ok_or(AppError::NotFound { what: "event" })?;
            super::events::may_arbitrate(conn, actor, &event)
        }
        // The organiser who created it; a player who created their own game is no
        // arbiter of it (they would set their own results).
        None => Ok(row.created_by == user.id && user.is_organiser),
    }
}

/// The actor's role, or 401/403.
pub fn require_role(conn: &mut DbConn, actor: &Actor, row: &GameRow) -> AppResult<Role> {
    actor.require_user()?;
    role_of(conn, actor, row)?.ok_or_else(|| AppError::forbidden(Refusal::NotInGame))
}

/// Who makes ply `ply` (1 = the game's first move) of a game that `first` starts; the
/// side to move after `n` plies is the mover of ply `n + 1`.
pub fn mover_of_ply(first: Color, ply: i32) -> Color {
    if ply % 2 == 1 {
        first
    } else {
        first.opponent()
    }
}

/// The result of a game won by `winner`.
pub fn win_for(winner: Color) -> ResultCode {
    match winner {
        Color::White => ResultCode::WhiteWins,
        Color::Black => ResultCode::BlackWins,
    }
}

/// The result and reason of a game the engine says is over by the rules.
pub fn verdict(game: &Game) -> Option<(ResultCode, GameEnd)> {
    let status = game.status();
    let reason = GameEnd::of_status(status)?;
    let result = match status {
        damka_engine::Status::Win { winner, .. } => win_for(winner),
        _ => ResultCode::Draw,
    };
    Some((result, reason))
}

/// Stored times are UTC without a zone.
pub fn utc(at: chrono::NaiveDateTime) -> DateTime<Utc> {
    DateTime::from_naive_utc_and_offset(at, Utc)
}
