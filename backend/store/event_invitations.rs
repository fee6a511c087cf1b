//! Invitation links to an event (their codes hashed) and who joined through them.
use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::models::EventInvitation;
use super::schema::{event_invitation_uses, event_invitations, players, users};
use super::{DbConn, QueryResult};

pub fn insert(
    conn: &mut DbConn,
    event_id: i64,
    code_hash: &str,
    label: &str,
    created_by: i64,
    at: NaiveDateTime,
) -> QueryResult<EventInvitation> {
    diesel::insert_into(event_invitations::table)
        .values((
            event_invitations::event_id.eq(event_id),
            event_invitations::code_hash.eq(code_hash),
            event_invitations::label.eq(label),
            event_invitations::created_by.eq(created_by),
            event_invitations::created_at.eq(at),
            event_invitations::uses.eq(0),
        ))
        .returning(event_invitations::all_columns)
        .get_result(conn)
}

pub fn by_hash(conn: &mut DbConn, code_hash: &str) -> QueryResult<Option<EventInvitation>> {
    event_invitations::table
        .filter(event_invitations::code_hash.eq(code_hash))
        .select(EventInvitation::as_select())
        .first(conn)
        .optional()
}

/// The event's invitation links, oldest first.
pub fn of_event(conn: &mut DbConn, event_id: i64) -> QueryResult<Vec<EventInvitation>> {
    event_invitations::table
        .filter(event_invitations::event_id.eq(event_id))
        .order((event_invitations::created_at, event_invitations::id))
        .select(EventInvitation::as_select())
        .load(conn)
}

/// Revokes the event's link `id` unless it is revoked already (then it keeps who revoked
/// it first); returns whether the event has such a link at all.
pub fn revoke(
    conn: &mut DbConn,
    event_id: i64,
    id: i64,
    by: i64,
    at: NaiveDateTime,
) -> QueryResult<bool> {
    let found = event_invitations::table
        .filter(event_invitations::id.eq(id))
        .filter(event_invitations::event_id.eq(event_id))
        .count()
        .get_result::<i64>(conn)?;
    diesel::update(
        event_invitations::table
            .filter(event_invitations::id.eq(id))
            .filter(event_invitations::event_id.eq(event_id))
            .filter(event_invitations::revoked_at.is_null()),
    )
    .set((
        event_invitations::revoked_by.eq(by),
        event_invitations::revoked_at.eq(at),
    ))
    .execute(conn)?;
    Ok(found == 1)
}

/// Records that `player_id` (the account `user_id`) joined through the link, and counts it.
pub fn record_use(
    conn: &mut DbConn,
    invitation_id: i64,
    player_id: i64,
    user_id: i64,
    at: NaiveDateTime,
) -> QueryResult<()> {
    diesel::insert_into(event_invitation_uses::table)
        .values((
            event_invitation_uses::invitation_id.eq(invitation_id),
            event_invitation_uses::player_id.eq(player_id),
            event_invitation_uses::user_id.eq(user_id),
            event_invitation_uses::used_at.eq(at),
        ))
        .execute(conn)?;
    diesel::update(event_invitations::table.find(invitation_id))
        .set(event_invitations::uses.eq(event_invitations::uses + 1))
        .execute(conn)
        .map(|_| ())
}

/// Who joined through the event's links: (link id, player id, player name, when), in the
/// order they joined.
pub fn uses_in_event(
    conn: &mut DbConn,
    event_id: i64,
) -> QueryResult<Vec<(i64, i64, String, NaiveDateTime)>> {
    event_invitation_uses::table
        .inner_join(event_invitations::table)
        .inner_join(players::table)
        .filter(event_invitations::event_id.eq(event_id))
        .order((event_invitation_uses::used_at, event_invitation_uses::id))
        .select((
            event_invitation_uses::invitation_id,
            event_invitation_uses::player_id,
            players::name,
            event_invitation_uses::used_at,
        ))
        .load(conn)
}

/// The display names of these accounts, by id (those that still exist).
pub fn user_names(conn: &mut DbConn, ids: &[i64]) -> QueryResult<Vec<(i64, String)>> {
    users::table
        .filter(users::id.eq_any(ids.to_vec()))
        .select((users::id, users::display_name))
        .load(conn)
}
