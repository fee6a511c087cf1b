//! Rows as they are stored, and the insert/update structs next to them.
use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::schema::*;

/// An account as everything above the store sees it: never with its password hash, which
/// only the password check reads (`accounts::password_hash_of`), so no view, template or
/// log of a user can carry it.
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = users)]
pub struct User {
    pub id: i64,
    pub email: String,
    pub display_name: String,
    pub is_admin: bool,
    pub is_organiser: bool,
    pub locale: Option<String>,
    pub player_id: Option<i64>,
    pub created_at: NaiveDateTime,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = users)]
pub struct NewUser<'a> {
    pub email: &'a str,
    pub display_name: &'a str,
    pub password_hash: &'a str,
    pub is_admin: bool,
    pub is_organiser: bool,
    pub locale: Option<&'a str>,
    pub player_id: Option<i64>,
    pub created_at: NaiveDateTime,
}

#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = api_tokens)]
pub struct ApiToken {
    pub id: i64,
    pub user_id: i64,
    pub name: String,
    pub token_hash: String,
    pub prefix: String,
    pub created_at: NaiveDateTime,
    pub last_used_at: Option<NaiveDateTime>,
}

#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = invitations)]
pub struct Invitation {
    pub id: i64,
    pub code_hash: String,
    pub email: String,
    pub created_by: i64,
    pub created_at: NaiveDateTime,
    pub used_by: Option<i64>,
    pub used_at: Option<NaiveDateTime>,
}

#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = clubs)]
pub struct Club {
    pub id: i64,
    pub name: String,
    pub city: String,
    pub country: String,
    pub description: String,
    pub created_at: NaiveDateTime,
}

#[derive(Debug, Clone, Insertable, AsChangeset)]
#[diesel(table_name = clubs)]
pub struct ClubFields {
    pub name: String,
    pub city: String,
    pub country: String,
    pub description: String,
}

/// A player's request to have their profile in a club (see `clubs::REQUEST_*`).
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = club_join_requests)]
pub struct ClubJoinRequest {
    pub id: i64,
    pub club_id: i64,
    pub player_id: i64,
    pub requested_by: i64,
    pub requested_at: NaiveDateTime,
    pub status: String,
    pub decided_by: Option<i64>,
    pub decided_at: Option<NaiveDateTime>,
}

#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = players)]
pub struct Player {
    pub id: i64,
    pub name: String,
    pub club_id: Option<i64>,
    pub country: String,
    pub federation_id: String,
    pub birth_year: Option<i32>,
    pub title: String,
    pub created_at: NaiveDateTime,
}

/// The editable fields of a player profile; `None` in `club_id`/`birth_year` clears them.
#[derive(Debug, Clone, Insertable, AsChangeset)]
#[diesel(table_name = players, treat_none_as_null = true)]
pub struct PlayerFields {
    pub name: String,
    pub club_id: Option<i64>,
    pub country: String,
    pub federation_id: String,
    pub birth_year: Option<i32>,
    pub title: String,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = player_ratings)]
pub struct PlayerRating {
    pub player_id: i64,
    pub variant: String,
    pub rating: i32,
    pub games: i32,
}

#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = events)]
pub struct Event {
    pub id: i64,
    pub name: String,
    pub place: String,
    pub starts_on: Option<chrono::NaiveDate>,
    pub ends_on: Option<chrono::NaiveDate>,
    pub variant: String,
    pub local_rules: String,
    pub system: String,
    pub rounds: i32,
    pub time_control: String,
    pub draw_offer_min_moves: i32,
    pub rated: bool,
    pub scoring_display: String,
    pub pab_half_points: i32,
    pub tiebreaks: String,
    pub first_colour: String,
    pub status: String,
    pub self_registration: bool,
    pub late_entry_until_round: i32,
    pub organiser_id: i64,
    pub club_id: Option<i64>,
    pub created_at: NaiveDateTime,
    /// Bumped by every write to the event (see `store::events::lock`).
    pub revision: i64,
}

/// The fields an organiser sets on an event (status and owner are changed separately).
#[derive(Debug, Clone, Insertable, AsChangeset)]
#[diesel(table_name = events, treat_none_as_null = true)]
pub struct EventFields {
    pub name: String,
    pub place: String,
    pub starts_on: Option<chrono::NaiveDate>,
    pub ends_on: Option<chrono::NaiveDate>,
    pub variant: String,
    pub local_rules: String,
    pub system: String,
    pub rounds: i32,
    pub time_control: String,
    pub draw_offer_min_moves: i32,
    pub rated: bool,
    pub scoring_display: String,
    pub pab_half_points: i32,
    pub tiebreaks: String,
    pub first_colour: String,
    pub self_registration: bool,
    pub late_entry_until_round: i32,
    pub club_id: Option<i64>,
}

#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = entries)]
pub struct Entry {
    pub id: i64,
    pub event_id: i64,
    pub player_id: i64,
    pub start_no: i32,
    pub rating: Option<i32>,
    pub first_round: i32,
    pub withdrawn_from_round: Option<i32>,
    pub created_at: NaiveDateTime,
}

#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = rounds)]
pub struct Round {
    pub id: i64,
    pub event_id: i64,
    pub number: i32,
    pub published: bool,
    pub paired_at: NaiveDateTime,
    pub published_at: Option<NaiveDateTime>,
}

#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = pairings)]
pub struct Pairing {
    pub id: i64,
    pub round_id: i64,
    pub board: i32,
    pub white_entry_id: i64,
    pub black_entry_id: Option<i64>,
    pub bye: Option<String>,
    pub result: Option<String>,
}

#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = pairings)]
pub struct NewPairing {
    pub round_id: i64,
    pub board: i32,
    pub white_entry_id: i64,
    pub black_entry_id: Option<i64>,
    pub bye: Option<String>,
    pub result: Option<String>,
}

#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = result_changes)]
pub struct ResultChange {
    pub id: i64,
    pub pairing_id: i64,
    pub user_id: i64,
    pub changed_at: NaiveDateTime,
    pub old_result: Option<String>,
    pub new_result: Option<String>,
}

#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = pairing_changes)]
pub struct PairingChange {
    pub id: i64,
    pub round_id: i64,
    pub user_id: i64,
    pub changed_at: NaiveDateTime,
    pub old_pairing: String,
    pub new_pairing: String,
    pub warnings: String,
}
