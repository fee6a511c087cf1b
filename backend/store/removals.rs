//! Archiving and deleting events, player profiles and clubs, what each still holds that
//! others rely on, and the site's trail of removals (`site_changes`).
use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::columns::Spelled;
use super::schema::{
    clubs, entries, events, games, pairings, players, rating_changes, rounds, site_changes, users,
};
use super::{DbConn, QueryResult};
use damka_domain::vocabulary::{RemovalAction, RemovalSubject};

/// Archives (`Some(at)`) or restores (`None`) an event.
pub fn set_event_archived(
    conn: &mut DbConn,
    id: i64,
    at: Option<NaiveDateTime>,
) -> QueryResult<()> {
    diesel::update(events::table.find(id))
        .set(events::archived_at.eq(at))
        .execute(conn)
        .map(drop)
}

/// Archives (`Some(at)`) or restores (`None`) a player profile.
pub fn set_player_archived(
    conn: &mut DbConn,
    id: i64,
    at: Option<NaiveDateTime>,
) -> QueryResult<()> {
    diesel::update(players::table.find(id))
        .set(players::archived_at.eq(at))
        .execute(conn)
        .map(drop)
}

/// Archives (`Some(at)`) or restores (`None`) a club.
pub fn set_club_archived(conn: &mut DbConn, id: i64, at: Option<NaiveDateTime>) -> QueryResult<()> {
    diesel::update(clubs::table.find(id))
        .set(clubs::archived_at.eq(at))
        .execute(conn)
        .map(drop)
}

/// Whether anything of the event went into a rating: a stored rating change names it, or
/// the event is rated and one of its boards has a result (rating work may not have run
/// yet, but it will count that result).
pub fn event_has_rated_results(conn: &mut DbConn, event_id: i64, rated: bool) -> QueryResult<bool> {
    let changes: i64 = rating_changes::table
        .filter(rating_changes::event_id.eq(event_id))
        .count()
        .get_result(conn)?;
    if changes > 0 || !rated {
        return Ok(changes > 0);
    }
    let results: i64 = pairings::table
        .inner_join(rounds::table)
        .filter(rounds::event_id.eq(event_id))
        .filter(pairings::result.is_not_null())
        .count()
        .get_result(conn)?;
    Ok(results > 0)
}

/// Deletes an event with everything of it: its games (their moves and changes go with
/// them), its rounds (pairings, results and their trails), its entries, then the event.
/// Games and rounds go first because they point at pairings and entries without a cascade.
pub fn delete_event(conn: &mut DbConn, event_id: i64) -> QueryResult<()> {
    diesel::delete(games::table.filter(games::event_id.eq(event_id))).execute(conn)?;
    diesel::delete(rounds::table.filter(rounds::event_id.eq(event_id))).execute(conn)?;
    diesel::delete(entries::table.filter(entries::event_id.eq(event_id))).execute(conn)?;
    diesel::delete(events::table.find(event_id)).execute(conn)?;
    Ok(())
}

/// What a profile holds that others rely on; a profile holding nothing is deleted, any
/// other is archived.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PlayerRecords {
    /// Entries in events (their standings name the player).
    pub entries: i64,
    /// Games, in events or casual (the opponent's record names the player).
    pub games: i64,
    /// Steps of a rating history.
    pub rating_changes: i64,
    /// An account is linked to the profile.
    pub account: bool,
    /// Profiles merged into this one (they point at it).
    pub merged_profiles: i64,
}

impl PlayerRecords {
    pub fn is_empty(&self) -> bool {
        *self == PlayerRecords::default()
    }
}

pub fn player_records(conn: &mut DbConn, player_id: i64) -> QueryResult<PlayerRecords> {
    Ok(PlayerRecords {
        entries: entries::table
            .filter(entries::player_id.eq(player_id))
            .count()
            .get_result(conn)?,
        games: games::table
            .filter(
                games::white_player_id
                    .eq(player_id)
                    .or(games::black_player_id.eq(player_id)),
            )
            .count()
            .get_result(conn)?,
        rating_changes: rating_changes::table
            .filter(rating_changes::player_id.eq(player_id))
            .count()
            .get_result(conn)?,
        account: users::table
            .filter(users::player_id.eq(player_id))
            .count()
            .get_result::<i64>(conn)?
            > 0,
        merged_profiles: players::table
            .filter(players::merged_into.eq(player_id))
            .count()
            .get_result(conn)?,
    })
}

/// Deletes a profile that holds no records (`player_records` is empty): its imported
/// ratings, claims, links, requests and audit go with it by their cascades.
pub fn delete_player(conn: &mut DbConn, player_id: i64) -> QueryResult<()> {
    diesel::delete(players::table.find(player_id))
        .execute(conn)
        .map(drop)
}

/// How many events name the club as theirs.
pub fn club_events(conn: &mut DbConn, club_id: i64) -> QueryResult<i64> {
    events::table
        .filter(events::club_id.eq(club_id))
        .count()
        .get_result(conn)
}

/// Deletes a club that has no events: its members' profiles stay, in no club (the
/// foreign key sets it to none); its roles and join requests go with it.
pub fn delete_club(conn: &mut DbConn, club_id: i64) -> QueryResult<()> {
    diesel::delete(clubs::table.find(club_id))
        .execute(conn)
        .map(drop)
}

/// One row of the site's trail of removals, as written.
#[derive(Debug, Clone)]
pub struct NewSiteChange<'a> {
    pub user_id: i64,
    pub subject: RemovalSubject,
    pub subject_id: i64,
    pub subject_name: &'a str,
    pub action: RemovalAction,
}

pub fn record_change(
    conn: &mut DbConn,
    change: &NewSiteChange<'_>,
    at: NaiveDateTime,
) -> QueryResult<()> {
    diesel::insert_into(site_changes::table)
        .values((
            site_changes::changed_at.eq(at),
            site_changes::user_id.eq(change.user_id),
            site_changes::subject.eq(Spelled(change.subject)),
            site_changes::subject_id.eq(change.subject_id),
            site_changes::subject_name.eq(change.subject_name),
            site_changes::action.eq(Spelled(change.action)),
        ))
        .execute(conn)
        .map(drop)
}

/// One row of the site's trail of removals, with the display name of who acted (none when
/// that account is gone).
#[derive(Debug, Clone, Queryable)]
pub struct SiteChangeRow {
    pub id: i64,
    pub changed_at: NaiveDateTime,
    pub by: Option<String>,
    pub subject: RemovalSubject,
    pub subject_id: i64,
    pub subject_name: String,
    pub action: RemovalAction,
}

/// Up to `limit` rows of the trail, newest first, those before the id `before` if given.
pub fn changes(
    conn: &mut DbConn,
    before: Option<i64>,
    limit: i64,
) -> QueryResult<Vec<SiteChangeRow>> {
    let mut query = site_changes::table
        .left_join(users::table)
        .select((
            site_changes::id,
            site_changes::changed_at,
            users::display_name.nullable(),
            site_changes::subject,
            site_changes::subject_id,
            site_changes::subject_name,
            site_changes::action,
        ))
        .into_boxed();
    if let Some(before) = before {
        query = query.filter(site_changes::id.lt(before));
    }
    query.order(site_changes::id.desc()).limit(limit).load(conn)
}

/// The latest row of the trail about one subject: who archived it, and when.
pub fn last_change(
    conn: &mut DbConn,
    subject: RemovalSubject,
    subject_id: i64,
) -> QueryResult<Option<SiteChangeRow>> {
    site_changes::table
        .left_join(users::table)
        .filter(site_changes::subject.eq(Spelled(subject)))
        .filter(site_changes::subject_id.eq(subject_id))
        .select((
            site_changes::id,
            site_changes::changed_at,
            users::display_name.nullable(),
            site_changes::subject,
            site_changes::subject_id,
            site_changes::subject_name,
            site_changes::action,
        ))
        .order(site_changes::id.desc())
        .first(conn)
        .optional()
}
