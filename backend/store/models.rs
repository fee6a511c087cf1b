//! Rows as they are stored, and the insert/update structs next to them.
use chrono::{NaiveDate, NaiveDateTime};
use damka_domain::clock::TimeControl;
use damka_domain::tournament::{ByeKind, Colour};
use damka_engine::Variant;
use diesel::prelude::*;

use super::columns::Spelled;
use super::local_rules::JsonText;
pub use super::local_rules::LocalRules;
use super::schema::*;
use super::time_control::TimeControlText;
use damka_domain::keizer::KeizerOptions;
use damka_domain::vocabulary::{
    BallotPer, EventStatus, MatchScoring, OpeningBallot, ResultCode, ScoringDisplay, System,
    TimeCategory,
};

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
    /// When the club was archived (hidden from lists, closed to new members and events).
    pub archived_at: Option<NaiveDateTime>,
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
    /// The account that created the profile, if a signed-in one did.
    pub created_by: Option<i64>,
    /// The profile this one was merged into; a merged profile is no longer listed.
    pub merged_into: Option<i64>,
    /// When the profile was archived (hidden from lists, entered in nothing new).
    pub archived_at: Option<NaiveDateTime>,
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
    #[diesel(serialize_as = Spelled<Variant>)]
    pub variant: Variant,
    pub rating: i32,
    pub games: i32,
}

/// An event as stored; the columns are typed where they are read (`store::columns`). The
/// API shows it as `service::events::EventView`.
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = events)]
pub struct Event {
    pub id: i64,
    pub name: String,
    pub place: String,
    pub starts_on: Option<NaiveDate>,
    pub ends_on: Option<NaiveDate>,
    pub variant: Variant,
    pub local_rules: LocalRules,
    pub system: System,
    pub rounds: i32,
    pub time_control: TimeCategory,
    pub draw_offer_min_moves: i32,
    pub rated: bool,
    pub scoring_display: ScoringDisplay,
    pub pab_half_points: i32,
    pub tiebreaks: String,
    pub first_colour: Colour,
    pub status: EventStatus,
    pub self_registration: bool,
    pub late_entry_until_round: i32,
    pub organiser_id: i64,
    pub club_id: Option<i64>,
    pub created_at: NaiveDateTime,
    // Bumped by every write to the event (see `store::events::lock`).
    pub revision: i64,
    /// The clock its games are played with.
    pub clock: TimeControl,
    /// 1, or 2: a micro-match, the second game with colours swapped.
    pub games_per_pairing: i32,
    /// How a micro-match scores: `game_points` or `match_points` (2/1/0).
    pub match_scoring: MatchScoring,
    /// `none`, `idf64`, `fmjd64`, `basic150`, `english3` or `custom`.
    pub opening_ballot: OpeningBallot,
    /// `pairing` (every board draws its own opening) or `round` (one for all boards).
    pub ballot_per: BallotPer,
    /// The organiser's own table (`custom`): one opening a line, moves or a FEN.
    pub custom_openings: String,
    /// A Keizer event's options (other systems ignore them).
    pub keizer: KeizerOptions,
    /// When the event was archived (hidden from lists, closed to changes).
    pub archived_at: Option<NaiveDateTime>,
}

/// What an organiser sets on an event, as written to its row by a create or an update (the
/// use cases take and check `service::events::EventInput` and convert it). Status and owner
/// are changed separately.
#[derive(Debug, Clone, Insertable, AsChangeset)]
#[diesel(table_name = events, treat_none_as_null = true)]
pub struct EventSettings {
    pub name: String,
    pub place: String,
    pub starts_on: Option<NaiveDate>,
    pub ends_on: Option<NaiveDate>,
    /// `russian`, `english`, `international` or `brazilian`.
    #[diesel(serialize_as = Spelled<Variant>)]
    pub variant: Variant,
    #[diesel(serialize_as = JsonText)]
    pub local_rules: LocalRules,
    /// `round_robin`, `double_round_robin` or `swiss`.
    #[diesel(serialize_as = Spelled<System>)]
    pub system: System,
    /// Swiss: the number of rounds. Round-robins: ignored (the number of players decides).
    pub rounds: i32,
    /// The category: `classical`, `rapid`, `blitz` or `none` (games without a clock at
    /// all). Derived from `clock` when the event is timed.
    #[diesel(serialize_as = Spelled<TimeCategory>)]
    pub time_control: TimeCategory,
    /// Moves each side must have made before a draw may be offered (0: no limit).
    pub draw_offer_min_moves: i32,
    pub rated: bool,
    /// `1-0.5-0` or `2-1-0`.
    #[diesel(serialize_as = Spelled<ScoringDisplay>)]
    pub scoring_display: ScoringDisplay,
    /// Points for the pairing-allocated bye, in half-points (2 = a win, 1 = a draw, 0).
    pub pab_half_points: i32,
    /// Tie-break order, e.g. `BH/C1,BH,SB,WIN`; empty: the system's default.
    pub tiebreaks: String,
    /// Colour of the first-ranked player in round 1: `white` or `black`.
    #[diesel(serialize_as = Spelled<Colour>)]
    pub first_colour: Colour,
    pub self_registration: bool,
    /// Swiss: late entries are accepted up to this round (0: none).
    pub late_entry_until_round: i32,
    pub club_id: Option<i64>,
    /// The clock the games are played with (absent: none). When it is timed, it decides
    /// `time_control` (the category) and the value sent there is not used.
    #[diesel(serialize_as = TimeControlText)]
    pub clock: TimeControl,
    /// 1 (default), or 2: each pairing plays a micro-match of two games, colours swapped
    /// in the second.
    pub games_per_pairing: i32,
    /// How a micro-match scores: `game_points` (default: the games' points summed) or
    /// `match_points` (2 for the match won, 1 drawn, 0 lost).
    #[diesel(serialize_as = Spelled<MatchScoring>)]
    pub match_scoring: MatchScoring,
    /// The table the openings are drawn from: `none` (default), `idf64`, `fmjd64`,
    /// `basic150` (Russian and Brazilian), `english3` (English), `custom`.
    #[diesel(serialize_as = Spelled<OpeningBallot>)]
    pub opening_ballot: OpeningBallot,
    /// `pairing` (default: every board draws its own) or `round` (one for every board).
    #[diesel(serialize_as = Spelled<BallotPer>)]
    pub ballot_per: BallotPer,
    /// With `custom`: one opening a line, `CODE: moves` or a FEN; `#` starts a comment.
    pub custom_openings: String,
    /// A Keizer event's options, as a JSON object by the API's names.
    #[diesel(serialize_as = JsonText)]
    pub keizer: KeizerOptions,
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
    /// The seed the round's openings were drawn with (none: no ballot).
    pub ballot_seed: Option<i64>,
}

#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = pairings)]
pub struct Pairing {
    pub id: i64,
    pub round_id: i64,
    pub board: i32,
    pub white_entry_id: i64,
    pub black_entry_id: Option<i64>,
    /// Set when the player has no opponent (no `black_entry_id`).
    pub bye: Option<ByeKind>,
    pub result: Option<ResultCode>,
}

/// A board to store (written by `store::events::insert_pairing`).
#[derive(Debug, Clone)]
pub struct NewPairing {
    pub round_id: i64,
    pub board: i32,
    pub white_entry_id: i64,
    pub black_entry_id: Option<i64>,
    pub bye: Option<ByeKind>,
    pub result: Option<ResultCode>,
}

#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = result_changes)]
pub struct ResultChange {
    pub id: i64,
    pub pairing_id: i64,
    pub user_id: i64,
    pub changed_at: NaiveDateTime,
    pub old_result: Option<ResultCode>,
    pub new_result: Option<ResultCode>,
    /// The game of a micro-match the change was made in (`None`: the pairing as a whole).
    pub game_no: Option<i32>,
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

/// An account's request to be linked to a profile.
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = player_claims)]
pub struct PlayerClaim {
    pub id: i64,
    pub player_id: i64,
    pub user_id: i64,
    pub status: String,
    pub created_at: NaiveDateTime,
    pub decided_by: Option<i64>,
    pub decided_at: Option<NaiveDateTime>,
}

/// A one-time link that links the account opening it to a profile (its code hashed).
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = player_claim_links)]
pub struct PlayerClaimLink {
    pub id: i64,
    pub code_hash: String,
    pub player_id: i64,
    pub created_by: i64,
    pub created_at: NaiveDateTime,
    pub used_by: Option<i64>,
    pub used_at: Option<NaiveDateTime>,
}

/// One row of a profile's audit.
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = player_changes)]
pub struct PlayerChange {
    pub id: i64,
    pub player_id: i64,
    pub user_id: i64,
    pub changed_at: NaiveDateTime,
    pub action: String,
    pub other_player_id: Option<i64>,
    pub account_id: Option<i64>,
}

/// An invitation link to an event (its code hashed): whoever opens it enters themselves.
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = event_invitations)]
pub struct EventInvitation {
    pub id: i64,
    pub event_id: i64,
    pub code_hash: String,
    pub label: String,
    pub created_by: i64,
    pub created_at: NaiveDateTime,
    pub revoked_by: Option<i64>,
    pub revoked_at: Option<NaiveDateTime>,
    pub uses: i32,
}
