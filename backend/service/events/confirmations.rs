//! What the confirmation pages of an event's irreversible actions (finishing it, pairing a
//! round again, withdrawing a player) say, checked with the same permission the action
//! itself asks for, so nobody learns from the question what the action would refuse them.
use super::{Event, history, load, require_arbiter, require_manager};
use crate::service::{Actor, AppError, AppResult};
use crate::store::{DbConn, events};

/// Finishing an event (its managers): the event and how many rounds it has paired.
pub fn finish(conn: &mut DbConn, actor: &Actor, event_id: i64) -> AppResult<(Event, usize)> {
    let event = load(conn, event_id)?;
    require_manager(actor, &event)?;
    let paired = events::rounds(conn, event_id)?.len();
    Ok((event, paired))
}

/// Pairing the last round again (its arbiters): the event and the number of that round.
pub fn repair(conn: &mut DbConn, actor: &Actor, event_id: i64) -> AppResult<(Event, usize)> {
    let event = load(conn, event_id)?;
    require_arbiter(conn, actor, &event)?;
    let round = events::rounds(conn, event_id)?.len();
    Ok((event, round))
}

/// Withdrawing an entry: the player's name and the round the withdrawal starts from.
pub struct Withdrawal {
    pub name: String,
    pub from_round: i32,
}

/// Withdrawing an entry (the player themself or the event's managers). A missing event is
/// 404 before an anonymous visitor's 401, as the page always answered.
pub fn withdraw(
    conn: &mut DbConn,
    actor: &Actor,
    event_id: i64,
    entry_id: i64,
) -> AppResult<Withdrawal> {
    let event = load(conn, event_id)?;
    actor.require_user()?;
    let history = history::load(conn, &event)?;
    let entry = history
        .entry(entry_id)
        .ok_or(AppError::NotFound { what: "entry" })?;
    super::entries::require_may_withdraw(actor, &event, entry.entry.player_id)?;
    Ok(Withdrawal {
        name: entry.name.clone(),
        from_round: history.rounds.len() as i32 + 1,
    })
}
