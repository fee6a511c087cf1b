//! The loss on time: a move that arrives after the mover's time is over ends the game
//! (`play`), and so does the sweep of the games nobody moves in (`sweep`).
use chrono::NaiveDateTime;

use super::clock::flag_fallen;
use super::{Loaded, win_for};
use crate::service::effects::{self, Effects};
use crate::service::{AppResult, results};
use crate::store::DbConn;
use crate::store::games::{self as stored, GameState};
use damka_domain::vocabulary::GameEnd;

/// Ends a game whose side to move ran out of time, under the game's lock: lost on time.
pub fn forfeit_on_time(
    conn: &mut DbConn,
    loaded: &mut Loaded,
    now: NaiveDateTime,
    user_id: Option<i64>,
    effects: &mut Effects,
) -> AppResult<()> {
    let loser = loaded.game.side_to_move();
    let mut state = GameState::of(&loaded.row);
    state.finish(win_for(loser.opponent()), GameEnd::TimeForfeit, now);
    let recorded_by = user_id.unwrap_or(loaded.row.created_by);
    results::game::store_state(conn, loaded, state, recorded_by, effects)
}

/// How many games the sweep looks at per call; the rest wait for the next call.
const SWEEP_BATCH: i64 = 100;

/// Ends the games whose side to move ran out of time with no request about them (a player
/// who left): what a move arriving late would have done. Safe on several instances at once:
/// each game is decided under its lock, where the deadline is read again.
pub fn sweep(conn: &mut DbConn) -> AppResult<Vec<i64>> {
    let now = conn.now();
    let overdue = stored::overdue(conn, now, SWEEP_BATCH)?;
    let mut ended = Vec::new();
    for game_id in overdue {
        let forfeited = super::write(conn, game_id, |conn, mut loaded| {
            let now = conn.now();
            if !flag_fallen(&loaded.row, now) {
                return Ok(None);
            }
            let mut effects = Effects::none();
            forfeit_on_time(conn, &mut loaded, now, None, &mut effects)?;
            Ok(Some((loaded, effects)))
        })?;
        if let Some((loaded, effects)) = forfeited {
            super::remember(conn, &loaded);
            effects::apply(conn, effects);
            ended.push(game_id);
        }
    }
    Ok(ended)
}
