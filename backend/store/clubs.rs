//! Clubs and their members (organisers and plain members).
use diesel::prelude::*;

use super::models::{Club, ClubFields, User};
use super::schema::{club_members, clubs, users};
use super::{DbConn, QueryResult};

pub const ROLE_ORGANISER: &str = "organiser";
pub const ROLE_MEMBER: &str = "member";

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

pub fn list(conn: &mut DbConn) -> QueryResult<Vec<Club>> {
    clubs::table
        .order(clubs::name)
        .select(Club::as_select())
        .load(conn)
}

pub fn count(conn: &mut DbConn) -> QueryResult<i64> {
    clubs::table.count().get_result(conn)
}

pub fn add_member(conn: &mut DbConn, club_id: i64, user_id: i64, role: &str) -> QueryResult<()> {
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
            club_members::role.eq(role),
        ))
        .execute(conn)
        .map(|_| ())
}

pub fn role_of(conn: &mut DbConn, club_id: i64, user_id: i64) -> QueryResult<Option<String>> {
    club_members::table
        .filter(club_members::club_id.eq(club_id))
        .filter(club_members::user_id.eq(user_id))
        .select(club_members::role)
        .first(conn)
        .optional()
}

pub fn members(conn: &mut DbConn, club_id: i64) -> QueryResult<Vec<(User, String)>> {
    club_members::table
        .inner_join(users::table)
        .filter(club_members::club_id.eq(club_id))
        .order(users::display_name)
        .select((User::as_select(), club_members::role))
        .load(conn)
}
