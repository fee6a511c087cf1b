//! A move decided without the game's lock. It is checked by the engine against the game as
//! this instance last left it (`replayed`), or else as one read of the database finds it,
//! and then:
//! - refused at once if the game as read refuses it (illegal, out of turn, on a finished
//!   game, a ply ahead, an offer not allowed): a refusal writes nothing, so it need not
//!   wait for a write that holds the game's lock (issue 25: a crowd of illegal moves does
//!   not queue behind the game's writers). The kept state may be behind another
//!   instance's write, so a refusal is only ever decided from the database's state;
//! - stored with one conditional statement that succeeds only if the game's revision is
//!   still the one that state carries. On PostgreSQL the row update and the move's insert
//!   are one statement (one round trip, no explicit transaction); on SQLite they are one
//!   write of the group commit;
//! - anything else (a resend, a flag fall to write, a move that ends the game, no role in
//!   the game, another writer in between) goes the locked way, which decides it with the
//!   database's word under the lock.
use super::move_check::{MoveInput, plan};
use super::view::{GameView, Names, view_of, view_with_names};
use super::{Loaded, clock, role_of};
use crate::service::effects::{self, Effects};
use crate::service::{Actor, AppError, AppResult, Refusal};
use crate::store::DbConn;
use crate::store::games::{self as stored, MoveRow};

/// What the way without the lock decided.
pub enum Decided {
    /// The move is stored: the game's view after it.
    Stored(Box<GameView>),
    /// The move is refused, as the game read from the database says.
    Refused(AppError),
    /// Only the game's lock can decide.
    Locked,
}

/// Decides a move without taking the game's lock, when it can.
pub fn submit(
    conn: &mut DbConn,
    actor: &Actor,
    user_id: i64,
    game_id: i64,
    input: &MoveInput,
    text: &str,
) -> AppResult<Decided> {
    if let Some(kept) = super::last_kept(conn, game_id) {
        match decide(conn, actor, user_id, kept, input, text)? {
            Decided::Refused(_) => {}
            decided => return Ok(decided),
        }
    }
    let read = super::load(conn, game_id)?;
    if read.moves.len() != usize::try_from(read.row.ply).unwrap_or(usize::MAX) {
        // The row and the moves were read while another write went in between.
        return Ok(Decided::Locked);
    }
    decide(conn, actor, user_id, read, input, text)
}

fn decide(
    conn: &mut DbConn,
    actor: &Actor,
    user_id: i64,
    mut loaded: Loaded,
    input: &MoveInput,
    text: &str,
) -> AppResult<Decided> {
    let current = loaded.row.ply;
    if input.ply <= current {
        // A resend, or a move for a ply taken: compared with the stored move under the lock.
        return Ok(Decided::Locked);
    }
    let Some(role) = role_of(conn, actor, &loaded.row)? else {
        // Refused under the lock, in the order the locked way checks.
        return Ok(Decided::Locked);
    };
    let now = conn.now();
    if input.ply == current + 1 && clock::flag_fallen(&loaded.row, now) {
        // The loss on time is written under the lock.
        return Ok(Decided::Locked);
    }
    let planned = match plan(&mut loaded, role, input, text, now) {
        Ok(planned) => planned,
        Err(AppError::Conflict {
            reason: Refusal::FlagFallen,
        }) => return Ok(Decided::Locked),
        Err(refusal) => return Ok(Decided::Refused(refusal)),
    };
    if planned.ends_game() {
        // The result reaches the event's board under its lock: the locked way.
        return Ok(Decided::Locked);
    }
    let revision = loaded.row.revision;
    let advanced = stored::advance(
        conn,
        &stored::Advance {
            game_id: loaded.row.id,
            revision,
            state: &planned.state,
            notation: &planned.notation,
            submitted_by: Some(user_id),
            at: now,
            clock_ms: planned.clock_ms,
        },
    )?;
    let names = match advanced {
        stored::Advanced::No => return Ok(Decided::Locked),
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
    super::remember(conn, &loaded);
    effects::apply(conn, Effects::game(loaded.row.id, loaded.row.event_id));
    let mut view = match names {
        Some((white, black)) => view_with_names(conn, &loaded, &Names { white, black })?,
        None => view_of(conn, &loaded)?,
    };
    view.draw_offer_refused = planned.offer_refused;
    Ok(Decided::Stored(Box::new(view)))
}
