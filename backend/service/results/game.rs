//! A game's new state, written under the game's lock (`games::write`): the moves' owner
//! (play, offers, resignations, flag falls, arbiters' results and takebacks, PDN imports)
//! decides the state, this writes it. A result that changed reaches the event's board
//! (locking the event after the game, the order every game write keeps) or, for a rated
//! standalone game, makes the variant's ratings stale.
use super::board;
use crate::service::AppResult;
use crate::service::effects::Effects;
use crate::service::games::{Loaded, clock};
use crate::store::DbConn;
use crate::store::games::{self as stored, GameState};

/// Writes the game's new state; a result that changed reaches the event's board. Says in
/// `effects` that the game changed and, through the board, what else did.
pub fn store_state(
    conn: &mut DbConn,
    loaded: &mut Loaded,
    state: GameState,
    user_id: i64,
    effects: &mut Effects,
) -> AppResult<()> {
    let mut state = state;
    let now = conn.now();
    clock::settle(&mut state, &loaded.row, loaded.game.side_to_move(), now);
    let old_result = loaded.row.result;
    stored::set_state(conn, loaded.row.id, &state)?;
    effects.game_changed(loaded.row.id, loaded.row.event_id);
    if old_result != state.result
        && let (Some(event_id), Some(pairing_id)) = (loaded.row.event_id, loaded.row.pairing_id)
    {
        let (result, game_no) = (state.result, loaded.row.game_no);
        crate::service::events::write(conn, event_id, |conn, event| {
            board::record_board_result(conn, &event, pairing_id, game_no, result, user_id, effects)
        })?;
    } else if old_result != state.result && loaded.row.rated && loaded.row.event_id.is_none() {
        effects.results_changed(
            conn,
            loaded.row.variant,
            crate::store::ratings::Scope::Game(loaded.row.id),
        )?;
    }
    state.apply_to(&mut loaded.row);
    Ok(())
}
