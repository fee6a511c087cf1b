//! The common move, stored without taking the game's lock first: checked by the engine
//! against the game as this instance last left it (`replayed`), then written with one
//! conditional statement that succeeds only if the game's revision is still the one that
//! state carries. On PostgreSQL the row update and the move's insert are one statement
//! (one round trip, no explicit transaction); on SQLite they are one write of the group
//! commit. Anything unusual (no kept state, a refusal, a move that ends the game, another
//! writer in between) goes the locked way, which decides it with the database's word.
use super::play::{MoveInput, plan};
use super::view::{GameView, Names, view_of, view_with_names};
use super::{clock, replayed, role_of};
use crate::service::{Actor, AppResult};
use crate::store::DbConn;
use crate::store::games::{self as stored, MoveRow};

/// The stored move's view, or `None` to go the locked way.
pub fn submit(
    conn: &mut DbConn,
    actor: &Actor,
    user_id: i64,
    game_id: i64,
    input: &MoveInput,
    text: &str,
) -> AppResult<Option<GameView>> {
    let Some(mut loaded) = replayed::latest(conn, game_id) else {
        return Ok(None);
    };
    if input.ply != loaded.row.ply + 1 {
        return Ok(None);
    }
    let Some(role) = role_of(conn, actor, &loaded.row)? else {
        return Ok(None);
    };
    let now = conn.now();
    if clock::flag_fallen(&loaded.row, now) {
        // The loss on time is written under the lock.
        return Ok(None);
    }
    let Ok(planned) = plan(&mut loaded, role, input, text, now) else {
        return Ok(None);
    };
    if planned.ends_game() {
        // The result reaches the event's board under its lock: the locked way.
        return Ok(None);
    }
    let revision = loaded.row.revision;
    let advanced = stored::advance(
        conn,
        &stored::Advance {
            game_id,
            revision,
            state: &planned.state,
            notation: &planned.notation,
            submitted_by: Some(user_id),
            at: now,
            clock_ms: planned.clock_ms,
        },
    )?;
    let names = match advanced {
        stored::Advanced::No => return Ok(None),
        stored::Advanced::Yes { names } => names,
    };
    loaded.row.revision = revision + 1;
    planned.state.apply_to(&mut loaded.row);
    loaded.moves.push(MoveRow {
        ply: input.ply,
        notation: planned.notation,
        submitted_by: Some(user_id),
        played_at: now,
        clock_ms: planned.clock_ms,
    });
    replayed::remember(conn, &loaded);
    crate::service::live::game_changed(conn, game_id, loaded.row.event_id);
    let view = match names {
        Some((white, black)) => view_with_names(conn, &loaded, &Names { white, black })?,
        None => view_of(conn, &loaded)?,
    };
    Ok(Some(view))
}
