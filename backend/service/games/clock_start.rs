//! An arbiter starts the clocks for over-the-board play: of one game, or of every
//! unfinished game of a round.
use super::clock::{clocks_of, millis, set_clocks, side};
use super::view::GameView;
use super::{Loaded, is_arbiter};
use crate::service::effects::{self, Effects};
use crate::service::{Actor, AppError, AppResult, Refusal};
use crate::store::DbConn;
use crate::store::events;
use crate::store::games::{self as stored, GameState};
use damka_domain::vocabulary::GameStatus;

/// An arbiter starts the clock of a game that has no move yet (over-the-board play:
/// White's clock runs from now). A running clock is left as it is.
pub fn start(conn: &mut DbConn, actor: &Actor, game_id: i64) -> AppResult<GameView> {
    let loaded = super::write(conn, game_id, |conn, mut loaded| {
        if !is_arbiter(conn, actor, &loaded.row)? {
            return Err(AppError::forbidden(Refusal::OnlyGameArbiters));
        }
        start_locked(conn, &mut loaded)?;
        Ok(loaded)
    })?;
    super::remember(conn, &loaded);
    effects::apply(conn, Effects::game(game_id, loaded.row.event_id));
    super::view::view_of(conn, &loaded)
}

fn start_locked(conn: &mut DbConn, loaded: &mut Loaded) -> AppResult<()> {
    if loaded.is_over() {
        return Err(AppError::conflict(Refusal::GameOver));
    }
    let mut state = GameState::of(&loaded.row);
    let Some(clocks) = clocks_of(&state) else {
        return Err(AppError::conflict(Refusal::NotTimed));
    };
    let now = conn.now();
    set_clocks(
        &mut state,
        clocks.started(side(loaded.game.side_to_move()), millis(now)),
    );
    stored::set_state(conn, loaded.row.id, &state)?;
    state.apply_to(&mut loaded.row);
    Ok(())
}

/// An arbiter starts the clocks of every unfinished game of a round: the games whose clock
/// was started (ones already running are left as they are).
pub fn start_round(
    conn: &mut DbConn,
    actor: &Actor,
    event_id: i64,
    round_number: i32,
) -> AppResult<Vec<i64>> {
    let event = events::by_id(conn, event_id)?.ok_or(AppError::NotFound { what: "event" })?;
    if !crate::service::events::may_arbitrate(conn, actor, &event)? {
        return Err(AppError::forbidden(Refusal::OnlyGameArbiters));
    }
    if !event.clock.is_timed() {
        return Err(AppError::conflict(Refusal::NotTimed));
    }
    let round = events::rounds(conn, event_id)?
        .into_iter()
        .find(|r| r.number == round_number)
        .ok_or(AppError::NotFound { what: "round" })?;
    let mut started = Vec::new();
    for row in stored::of_round(conn, round.id)? {
        if row.status == GameStatus::Finished || row.deadline.is_some() || row.white_ms.is_none() {
            continue;
        }
        let loaded = super::write(conn, row.id, |conn, mut loaded| {
            if loaded.is_over() || loaded.row.deadline.is_some() {
                return Ok(None);
            }
            start_locked(conn, &mut loaded)?;
            Ok(Some(loaded))
        })?;
        if let Some(loaded) = loaded {
            super::remember(conn, &loaded);
            effects::apply(conn, Effects::game(row.id, loaded.row.event_id));
            started.push(row.id);
        }
    }
    Ok(started)
}
