//! A board's result, written under the event's lock (`events::write`): the board's own
//! result in a one-game event, a micro-match game's result and from it the pairing's.
//! Every change is kept (who, when, old, new); standings and later pairings are computed
//! from the stored results, so they follow at once; a rated event's ratings become stale.
use crate::service::effects::Effects;
use crate::service::events::micro_match;
use crate::service::{AppError, AppResult, Refusal};
use crate::store::models::{Event, Pairing, Round};
use crate::store::ratings::Scope;
use crate::store::{self, DbConn, events, micro_matches};
use damka_domain::vocabulary::{EventStatus, ResultCode};

/// The one path of a game's result to its board: the board's result in a one-game event,
/// the game's own result (and from it the pairing's) in a micro-match. Runs inside the
/// event's write.
pub fn record_board_result(
    conn: &mut DbConn,
    event: &Event,
    pairing_id: i64,
    game_no: i32,
    result: Option<ResultCode>,
    user_id: i64,
    effects: &mut Effects,
) -> AppResult<()> {
    if event.games_per_pairing <= 1 {
        return record_result(conn, event, pairing_id, result, user_id, effects);
    }
    let (pairing, round) = checked_board(conn, event, pairing_id)?;
    micro_matches::ensure_games(conn, pairing_id, event.games_per_pairing)?;
    let games = micro_matches::results_of_pairing(conn, pairing_id)?;
    let old = games
        .iter()
        .find(|(no, _)| *no == game_no)
        .ok_or(AppError::NotFound { what: "game" })?
        .1;
    if old == result {
        return Ok(());
    }
    if result.is_none() {
        check_clearable(conn, event, round.number)?;
    }
    micro_matches::set_game_result(conn, pairing_id, game_no, result)?;
    events::record_result_change(
        conn,
        pairing_id,
        Some(game_no),
        user_id,
        store::now(),
        old,
        result,
    )?;
    let games = micro_matches::results_of_pairing(conn, pairing_id)?;
    let combined = micro_match::combined_result(&games, event.games_per_pairing);
    if combined != pairing.result {
        events::set_result(conn, pairing_id, combined)?;
    }
    if event.rated {
        effects.results_changed(
            conn,
            event.variant,
            Scope::Pairing {
                event_id: event.id,
                pairing_id,
            },
        )?;
    }
    Ok(())
}

/// The board `pairing_id` of `event`, if a result may be written on it now.
fn checked_board(conn: &mut DbConn, event: &Event, pairing_id: i64) -> AppResult<(Pairing, Round)> {
    let (pairing, round) = events::pairing_with_event(conn, pairing_id)?
        .filter(|(_, round)| round.event_id == event.id)
        .ok_or(AppError::NotFound { what: "board" })?;
    if pairing.black_entry_id.is_none() {
        return Err(AppError::invalid("result", Refusal::ByeHasNoResult));
    }
    if !round.published {
        return Err(AppError::conflict(Refusal::PublishBeforeResults));
    }
    if event.status == EventStatus::Finished {
        return Err(AppError::conflict(Refusal::EventFinishedReopenToCorrect));
    }
    Ok((pairing, round))
}

/// A result may be cleared only in the last round (a later round was paired on it).
fn check_clearable(conn: &mut DbConn, event: &Event, round: i32) -> AppResult<()> {
    let last = events::rounds(conn, event.id)?.pop().map(|r| r.number);
    if last != Some(round) {
        return Err(AppError::invalid(
            "result",
            Refusal::OnlyLastRoundResultClears,
        ));
    }
    Ok(())
}

/// Writes a board's result and keeps the change (who, when, old, new): the one path every
/// result takes, whether an arbiter enters it or a game played on the site ends. Runs
/// inside the event's write (`events::write`).
pub fn record_result(
    conn: &mut DbConn,
    event: &Event,
    pairing_id: i64,
    result: Option<ResultCode>,
    user_id: i64,
    effects: &mut Effects,
) -> AppResult<()> {
    let (pairing, round) = checked_board(conn, event, pairing_id)?;
    if pairing.result == result {
        return Ok(());
    }
    if result.is_none() {
        check_clearable(conn, event, round.number)?;
    }
    events::set_result(conn, pairing_id, result)?;
    events::record_result_change(
        conn,
        pairing_id,
        None,
        user_id,
        store::now(),
        pairing.result,
        result,
    )?;
    if event.rated {
        effects.results_changed(
            conn,
            event.variant,
            Scope::Pairing {
                event_id: event.id,
                pairing_id,
            },
        )?;
    }
    Ok(())
}
