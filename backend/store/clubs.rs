//! Clubs and their members (organisers and plain members).
use diesel::prelude::*;

use super::models::{Club, ClubFields, ClubJoinRequest, User};
use super::schema::{club_join_requests, club_members, clubs, players, users};
use super::{DbConn, QueryResult};
use damka_domain::vocabulary::{ClubRole, JoinRequestStatus, Spelling};

pub fn insert(
    conn: &mut DbConn,
    fields: &ClubFields,
    at: chrono::NaiveDateTime,
) -> QueryResult<Club> {
    diesel::insert_into(clubs::table)
        .values((fields, clubs::created_at.eq(at)))
        .returning(clubs::all_columns)
        .get_result(conn)
}

pub fn update(conn: &mut DbConn, id: i64, fields: &ClubFields) -> QueryResult<Club> {
    diesel::update(clubs::table.find(id))
        .set(fields)
        .returning(clubs::all_columns)
        .get_result(conn)
}

pub fn by_id(conn: &mut DbConn, id: i64) -> QueryResult<Option<Club>> {
    clubs::table
        .find(id)
        .select(Club::as_select())
        .first(conn)
        .optional()
}

pub fn by_name(conn: &mut DbConn, name: &str) -> QueryResult<Option<Club>> {
    clubs::table
        .filter(clubs::name.eq(name))
        .select(Club::as_select())
        .first(conn)
        .optional()
}

/// The clubs not archived, by name (the lists and the forms' choices).
pub fn list(conn: &mut DbConn) -> QueryResult<Vec<Club>> {
    clubs::table
        .filter(clubs::archived_at.is_null())
        .order(clubs::name)
        .select(Club::as_select())
        .load(conn)
}

/// A page of clubs not archived by (name, id): at most `fetch` after the key `after`.
pub fn page(
    conn: &mut DbConn,
    after: Option<&(String, i64)>,
    fetch: i64,
) -> QueryResult<Vec<Club>> {
    let mut query = clubs::table
        .filter(clubs::archived_at.is_null())
        .select(Club::as_select())
        .into_boxed();
    if let Some((name, id)) = after {
        query = query
            .filter(clubs::name.ge(name.clone()))
            .filter(clubs::name.gt(name.clone()).or(clubs::id.gt(*id)));
    }
    query
        .order((clubs::name, clubs::id))
        .limit(fetch)
        .load(conn)
}

/// The clubs with these ids (a page's players name theirs).
pub fn by_ids(conn: &mut DbConn, ids: &[i64]) -> QueryResult<Vec<Club>> {
    clubs::table
        .filter(clubs::id.eq_any(ids))
        .select(Club::as_select())
        .load(conn)
}

pub fn count(conn: &mut DbConn) -> QueryResult<i64> {
    clubs::table
        .filter(clubs::archived_at.is_null())
        .count()
        .get_result(conn)
}

pub fn add_member(
    conn: &mut DbConn,
    club_id: i64,
    user_id: i64,
    role: ClubRole,
) -> QueryResult<()> {
    diesel::delete(
        club_members::table
            .filter(club_members::club_id.eq(club_id))
            .filter(club_members::user_id.eq(user_id)),
    )
    .execute(conn)?;
    diesel::insert_into(club_members::table)
        .values((
            club_members::club_id.eq(club_id),
            club_members::user_id.eq(user_id),
            club_members::role.eq(role.spelling()),
        ))
        .execute(conn)
        .map(|_| ())
}

/// The account's role in the club, if it is a member; a stored word of no known role is an
/// error, never a default.
pub fn role_of(conn: &mut DbConn, club_id: i64, user_id: i64) -> QueryResult<Option<ClubRole>> {
    club_members::table
        .filter(club_members::club_id.eq(club_id))
        .filter(club_members::user_id.eq(user_id))
        .select(club_members::role)
        .first::<String>(conn)
        .optional()?
        .map(|text| role_from_column(&text))
        .transpose()
}

fn role_from_column(text: &str) -> QueryResult<ClubRole> {
    damka_domain::vocabulary::parse(text)
        .map_err(|unknown| diesel::result::Error::DeserializationError(Box::new(unknown)))
}

/// A page of the club's members by (display name, account id): at most `fetch` after the
/// key `after`.
pub fn members(
    conn: &mut DbConn,
    club_id: i64,
    after: Option<&(String, i64)>,
    fetch: i64,
) -> QueryResult<Vec<(User, ClubRole)>> {
    let mut query = club_members::table
        .inner_join(users::table)
        .filter(club_members::club_id.eq(club_id))
        .select((User::as_select(), club_members::role))
        .into_boxed();
    if let Some((name, id)) = after {
        query = query
            .filter(users::display_name.ge(name.clone()))
            .filter(users::display_name.gt(name.clone()).or(users::id.gt(*id)));
    }
    query
        .order((users::display_name, users::id))
        .limit(fetch)
        .load::<(User, String)>(conn)?
        .into_iter()
        .map(|(user, role)| Ok((user, role_from_column(&role)?)))
        .collect()
}

/// The clubs in which this account is an organiser.
pub fn organised_by(conn: &mut DbConn, user_id: i64) -> QueryResult<Vec<i64>> {
    club_members::table
        .filter(club_members::user_id.eq(user_id))
        .filter(club_members::role.eq(ClubRole::Organiser.spelling()))
        .select(club_members::club_id)
        .load(conn)
}

pub fn insert_request(
    conn: &mut DbConn,
    club_id: i64,
    player_id: i64,
    requested_by: i64,
    at: chrono::NaiveDateTime,
) -> QueryResult<ClubJoinRequest> {
    diesel::insert_into(club_join_requests::table)
        .values((
            club_join_requests::club_id.eq(club_id),
            club_join_requests::player_id.eq(player_id),
            club_join_requests::requested_by.eq(requested_by),
            club_join_requests::requested_at.eq(at),
            club_join_requests::status.eq(JoinRequestStatus::Pending.spelling()),
        ))
        .returning(club_join_requests::all_columns)
        .get_result(conn)
}

/// The open request of this profile to this club, if any.
pub fn pending_request(
    conn: &mut DbConn,
    club_id: i64,
    player_id: i64,
) -> QueryResult<Option<ClubJoinRequest>> {
    club_join_requests::table
        .filter(club_join_requests::club_id.eq(club_id))
        .filter(club_join_requests::player_id.eq(player_id))
        .filter(club_join_requests::status.eq(JoinRequestStatus::Pending.spelling()))
        .select(ClubJoinRequest::as_select())
        .first(conn)
        .optional()
}

/// One request of this club.
pub fn request(
    conn: &mut DbConn,
    club_id: i64,
    request_id: i64,
) -> QueryResult<Option<ClubJoinRequest>> {
    club_join_requests::table
        .find(request_id)
        .filter(club_join_requests::club_id.eq(club_id))
        .select(ClubJoinRequest::as_select())
        .first(conn)
        .optional()
}

/// (request, profile name, requester's display name) of the club's open requests, oldest
/// first by (asked at, id): at most `fetch` after the key `after`.
pub fn pending_requests(
    conn: &mut DbConn,
    club_id: i64,
    after: Option<&(chrono::NaiveDateTime, i64)>,
    fetch: i64,
) -> QueryResult<Vec<(ClubJoinRequest, String, String)>> {
    let mut query = club_join_requests::table
        .inner_join(players::table)
        .inner_join(users::table)
        .filter(club_join_requests::club_id.eq(club_id))
        .filter(club_join_requests::status.eq(JoinRequestStatus::Pending.spelling()))
        .select((
            ClubJoinRequest::as_select(),
            players::name,
            users::display_name,
        ))
        .into_boxed();
    if let Some((at, id)) = after {
        query = query.filter(
            club_join_requests::requested_at
                .gt(*at)
                .or(club_join_requests::requested_at
                    .eq(*at)
                    .and(club_join_requests::id.gt(*id))),
        );
    }
    query
        .order((club_join_requests::requested_at, club_join_requests::id))
        .limit(fetch)
        .load(conn)
}

/// Closes a pending request; returns whether it was still pending (of two organisers
/// deciding at once, one decides).
pub fn decide_request(
    conn: &mut DbConn,
    request_id: i64,
    status: JoinRequestStatus,
    decided_by: i64,
    at: chrono::NaiveDateTime,
) -> QueryResult<bool> {
    diesel::update(
        club_join_requests::table
            .find(request_id)
            .filter(club_join_requests::status.eq(JoinRequestStatus::Pending.spelling())),
    )
    .set((
        club_join_requests::status.eq(status.spelling()),
        club_join_requests::decided_by.eq(decided_by),
        club_join_requests::decided_at.eq(at),
    ))
    .execute(conn)
    .map(|n| n == 1)
}

/// Puts a profile in a club (or in none).
pub fn set_player_club(conn: &mut DbConn, player_id: i64, club_id: Option<i64>) -> QueryResult<()> {
    diesel::update(players::table.find(player_id))
        .set(players::club_id.eq(club_id))
        .execute(conn)
        .map(|_| ())
}
