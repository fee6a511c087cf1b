//! What arbiters do to a game (the event's arbiters and organiser; for a standalone game
//! the organiser who created it; site administrators): set or clear the result, take the
//! last ply back. Both are kept in the game's change log; an event game's result reaches
//! its board through `results::game::store_state`, as every result does.
use serde::Deserialize;

use super::view::{GameView, view_of};
use super::{Loaded, is_arbiter};
use crate::service::effects::{self, Effects};
use crate::service::results::{self, game::store_state};
use crate::service::{Actor, AppError, AppResult, Refusal};
use crate::store::games::{self as stored, GameRow, GameState, NewGameChange};
use crate::store::{self, DbConn};
use damka_domain::vocabulary::{GameEnd, GameStatus, ResultCode, Spelling, spellings};

#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct GameResultInput {
    /// `1-0`, `0-1`, `1/2-1/2`, or null (or empty) to clear the result and let the game go
    /// on.
    #[serde(default)]
    pub result: Option<String>,
    /// Why: `arbiter` (the default), or what happened at the board: `resignation`,
    /// `agreement`, `no_legal_moves`, ...
    #[serde(default)]
    pub reason: Option<String>,
}

const GAME_RESULTS: [&str; 3] = ["1-0", "0-1", "1/2-1/2"];

fn parse_result(text: Option<&str>) -> AppResult<Option<ResultCode>> {
    match text.map(str::trim) {
        None | Some("") => Ok(None),
        Some(text) => ResultCode::from_spelling(text)
            .filter(|r| r.played())
            .map(Some)
            .ok_or_else(|| AppError::invalid("result", Refusal::not_one_of(&GAME_RESULTS))),
    }
}

fn parse_reason(text: Option<&str>) -> AppResult<GameEnd> {
    match text.map(str::trim) {
        None | Some("") => Ok(GameEnd::Arbiter),
        Some(text) => GameEnd::from_spelling(text).ok_or_else(|| {
            AppError::invalid("reason", Refusal::not_one_of(&spellings::<GameEnd>()))
        }),
    }
}

fn require_arbiter(conn: &mut DbConn, actor: &Actor, row: &GameRow) -> AppResult<i64> {
    let user = actor.require_user()?;
    if is_arbiter(conn, actor, row)? {
        Ok(user.id)
    } else {
        Err(AppError::forbidden(Refusal::OnlyGameArbiters))
    }
}

/// Sets or clears a game's result (`PUT /games/{id}/result`).
pub fn set_result(
    conn: &mut DbConn,
    actor: &Actor,
    game_id: i64,
    input: &GameResultInput,
) -> AppResult<GameView> {
    let result = parse_result(input.result.as_deref())?;
    let reason = parse_reason(input.reason.as_deref())?;
    let (loaded, effects) = super::write(conn, game_id, |conn, mut loaded| {
        let user_id = require_arbiter(conn, actor, &loaded.row)?;
        // Said even when nothing changes: the watchers read again, as they always did.
        let mut effects = Effects::game(game_id, loaded.row.event_id);
        apply_result(conn, &mut loaded, result, reason, user_id, &mut effects)?;
        Ok((loaded, effects))
    })?;
    effects::apply(conn, effects);
    view_of(conn, &loaded)
}

fn apply_result(
    conn: &mut DbConn,
    loaded: &mut Loaded,
    result: Option<ResultCode>,
    reason: GameEnd,
    user_id: i64,
    effects: &mut Effects,
) -> AppResult<()> {
    let mut state = GameState::of(&loaded.row);
    match result {
        Some(result) => {
            if state.result == Some(result) && state.reason == Some(reason) {
                return Ok(());
            }
            state.finish(result, reason, store::now());
        }
        None => {
            if state.status == GameStatus::Ongoing {
                return Ok(());
            }
            if super::verdict(&loaded.game).is_some() {
                return Err(AppError::conflict(Refusal::GameOverByRules));
            }
            state.reopen();
        }
    }
    let old_result = loaded.row.result;
    let new_result = state.result;
    let new_reason = state.reason;
    store_state(conn, loaded, state, user_id, effects)?;
    stored::record_change(
        conn,
        &NewGameChange {
            game_id: loaded.row.id,
            user_id,
            at: store::now(),
            action: stored::CHANGE_RESULT,
            ply: Some(loaded.row.ply),
            notation: None,
            old_result,
            new_result,
            reason: new_reason,
        },
    )?;
    Ok(())
}

/// A result entered on the event's board for a board that has a game: the game takes it
/// (locked first, then the event, the order every game write keeps). A forfeit means the
/// game was not played: allowed only while it has no move, and the game is removed. A
/// result for a game being played (it has moves and is not over) ends it only with
/// `end_game`, as the arbiter's decision; otherwise it is entered as reported.
pub fn result_from_board(
    conn: &mut DbConn,
    actor: &Actor,
    game: GameRow,
    result: Option<ResultCode>,
    end_game: bool,
) -> AppResult<()> {
    let (Some(event_id), Some(pairing_id)) = (game.event_id, game.pairing_id) else {
        return Err(AppError::NotFound { what: "board" });
    };
    let effects = super::write(conn, game.id, |conn, mut loaded| {
        let user_id = require_arbiter(conn, actor, &loaded.row)?;
        let mut effects = Effects::game(game.id, Some(event_id));
        match result {
            Some(code) if !code.played() => {
                if loaded.row.has_moves() {
                    return Err(AppError::conflict(Refusal::GameHasMoves {
                        plies: loaded.row.ply - loaded.row.opening_plies,
                    }));
                }
                stored::delete(conn, loaded.row.id)?;
                let game_no = loaded.row.game_no;
                crate::service::events::write(conn, event_id, |conn, event| {
                    results::board::record_board_result(
                        conn,
                        &event,
                        pairing_id,
                        game_no,
                        Some(code),
                        user_id,
                        &mut effects,
                    )
                })?;
            }
            // The result the game already has: nothing to enter (a rule's end keeps its
            // reason).
            Some(code) if loaded.row.result == Some(code) => {}
            Some(code) => {
                let reason = board_reason(&loaded, code, end_game)?;
                apply_result(conn, &mut loaded, result, reason, user_id, &mut effects)?;
            }
            None => apply_result(
                conn,
                &mut loaded,
                None,
                GameEnd::Entered,
                user_id,
                &mut effects,
            )?,
        }
        Ok(effects)
    })?;
    effects::apply(conn, effects);
    Ok(())
}

/// Why a result typed on the board ends its game: the arbiter's decision for a game being
/// played (refused without `end_game`), else a result entered as reported.
fn board_reason(loaded: &Loaded, code: ResultCode, end_game: bool) -> AppResult<GameEnd> {
    if !loaded.row.in_progress() {
        return Ok(GameEnd::Entered);
    }
    if !end_game {
        return Err(AppError::conflict(Refusal::GameInProgress {
            moves: moves_played(&loaded.row),
            result: code.spelling().to_string(),
        }));
    }
    Ok(GameEnd::Arbiter)
}

/// The moves of a game as its move list numbers them (a move is White's and Black's ply).
pub fn moves_played(row: &GameRow) -> i32 {
    (row.ply + 1) / 2
}

/// Takes the last ply back (`POST /games/{id}/takeback`). A finished game goes on again and
/// its result is withdrawn from the board.
pub fn take_back(conn: &mut DbConn, actor: &Actor, game_id: i64) -> AppResult<GameView> {
    let (loaded, effects) = super::write(conn, game_id, |conn, mut loaded| {
        let user_id = require_arbiter(conn, actor, &loaded.row)?;
        // A drawn opening's plies are the event's, not a player's: they stay.
        if !loaded.row.has_moves() {
            return Err(AppError::conflict(Refusal::NothingToTakeBack));
        }
        let Some(last) = loaded.moves.pop() else {
            return Err(AppError::conflict(Refusal::NothingToTakeBack));
        };
        stored::delete_move(conn, game_id, last.ply)?;
        loaded.game = super::replay(&loaded.row, &loaded.moves)?;
        let old_result = loaded.row.result;
        let mut state = GameState::of(&loaded.row);
        state.ply = last.ply - 1;
        state.reopen();
        super::clock::after_takeback(&mut state, &loaded, conn.now());
        let mut effects = Effects::none();
        store_state(conn, &mut loaded, state, user_id, &mut effects)?;
        stored::record_change(
            conn,
            &NewGameChange {
                game_id,
                user_id,
                at: store::now(),
                action: stored::CHANGE_TAKEBACK,
                ply: Some(last.ply),
                notation: Some(&last.notation),
                old_result,
                new_result: None,
                reason: None,
            },
        )?;
        Ok((loaded, effects))
    })?;
    effects::apply(conn, effects);
    view_of(conn, &loaded)
}
