//! The results that count for ratings, one row each: the fold's input kept current by the
//! writes that change it (`service::ratings::counted`), read by instant for a refold.
use chrono::NaiveDateTime;
use damka_engine::Variant;
use diesel::prelude::*;

use super::columns::Spelled;
use super::schema::rated_results;
use super::{DbConn, QueryResult};

/// One counted result, as stored.
#[derive(Debug, Clone, PartialEq, Queryable, Insertable)]
#[diesel(table_name = rated_results)]
pub struct RatedResultRow {
    #[diesel(serialize_as = Spelled<Variant>)]
    pub variant: Variant,
    pub standalone: bool,
    /// The pairing (a board or micro-match game) or the standalone game.
    pub source_id: i64,
    pub game_no: i32,
    pub at: NaiveDateTime,
    pub event_id: Option<i64>,
    pub game_id: Option<i64>,
    pub white_id: i64,
    pub black_id: i64,
    pub white_half_points: i32,
}

impl RatedResultRow {
    /// What identifies the result: its source and game.
    pub fn key(&self) -> (bool, i64, i32) {
        (self.standalone, self.source_id, self.game_no)
    }
}

type Columns = (
    rated_results::variant,
    rated_results::standalone,
    rated_results::source_id,
    rated_results::game_no,
    rated_results::at,
    rated_results::event_id,
    rated_results::game_id,
    rated_results::white_id,
    rated_results::black_id,
    rated_results::white_half_points,
);

const COLUMNS: Columns = (
    rated_results::variant,
    rated_results::standalone,
    rated_results::source_id,
    rated_results::game_no,
    rated_results::at,
    rated_results::event_id,
    rated_results::game_id,
    rated_results::white_id,
    rated_results::black_id,
    rated_results::white_half_points,
);

/// Every counted result of the variant.
pub fn all(conn: &mut DbConn, variant: Variant) -> QueryResult<Vec<RatedResultRow>> {
    rated_results::table
        .filter(rated_results::variant.eq(Spelled(variant)))
        .select(COLUMNS)
        .load(conn)
}

/// The counted results of one event's boards.
pub fn of_event(
    conn: &mut DbConn,
    variant: Variant,
    event_id: i64,
) -> QueryResult<Vec<RatedResultRow>> {
    rated_results::table
        .filter(rated_results::event_id.eq(event_id))
        .filter(rated_results::variant.eq(Spelled(variant)))
        .filter(rated_results::standalone.eq(false))
        .select(COLUMNS)
        .load(conn)
}

/// The counted results of one board (its game, or a micro-match's games).
pub fn of_pairing(
    conn: &mut DbConn,
    variant: Variant,
    pairing_id: i64,
) -> QueryResult<Vec<RatedResultRow>> {
    rated_results::table
        .filter(rated_results::variant.eq(Spelled(variant)))
        .filter(rated_results::standalone.eq(false))
        .filter(rated_results::source_id.eq(pairing_id))
        .select(COLUMNS)
        .load(conn)
}

/// The counted result of a standalone game, if it counts.
pub fn of_game(
    conn: &mut DbConn,
    variant: Variant,
    game_id: i64,
) -> QueryResult<Vec<RatedResultRow>> {
    rated_results::table
        .filter(rated_results::variant.eq(Spelled(variant)))
        .filter(rated_results::standalone.eq(true))
        .filter(rated_results::source_id.eq(game_id))
        .select(COLUMNS)
        .load(conn)
}

/// The counted results with an instant in `[from, to)` (`to` `None`: no end).
pub fn between(
    conn: &mut DbConn,
    variant: Variant,
    from: NaiveDateTime,
    to: Option<NaiveDateTime>,
) -> QueryResult<Vec<RatedResultRow>> {
    let mut query = rated_results::table
        .filter(rated_results::variant.eq(Spelled(variant)))
        .filter(rated_results::at.ge(from))
        .select(COLUMNS)
        .into_boxed();
    if let Some(to) = to {
        query = query.filter(rated_results::at.lt(to));
    }
    query.load(conn)
}

/// The standalone results with an instant in `[from, to)`: a month's Elo period.
pub fn standalone_between(
    conn: &mut DbConn,
    variant: Variant,
    from: NaiveDateTime,
    to: NaiveDateTime,
) -> QueryResult<Vec<RatedResultRow>> {
    rated_results::table
        .filter(rated_results::variant.eq(Spelled(variant)))
        .filter(rated_results::at.ge(from))
        .filter(rated_results::at.lt(to))
        .filter(rated_results::standalone.eq(true))
        .select(COLUMNS)
        .load(conn)
}

/// The instant of the result `skip` places after the first at or after `from`, in the
/// fold's order: where a window of about `skip` results ends.
pub fn instant_after(
    conn: &mut DbConn,
    variant: Variant,
    from: NaiveDateTime,
    skip: i64,
) -> QueryResult<Option<NaiveDateTime>> {
    rated_results::table
        .filter(rated_results::variant.eq(Spelled(variant)))
        .filter(rated_results::at.ge(from))
        .order(rated_results::at)
        .offset(skip)
        .limit(1)
        .select(rated_results::at)
        .first(conn)
        .optional()
}

/// The first instant after `at` that has a result.
pub fn next_instant(
    conn: &mut DbConn,
    variant: Variant,
    at: NaiveDateTime,
) -> QueryResult<Option<NaiveDateTime>> {
    rated_results::table
        .filter(rated_results::variant.eq(Spelled(variant)))
        .filter(rated_results::at.gt(at))
        .select(diesel::dsl::min(rated_results::at))
        .first(conn)
}

/// The instant of a player's first counted result in the variant.
pub fn first_of_player(
    conn: &mut DbConn,
    variant: Variant,
    player: i64,
) -> QueryResult<Option<NaiveDateTime>> {
    let as_white: Option<NaiveDateTime> = rated_results::table
        .filter(rated_results::white_id.eq(player))
        .filter(rated_results::variant.eq(Spelled(variant)))
        .select(diesel::dsl::min(rated_results::at))
        .first(conn)?;
    let as_black: Option<NaiveDateTime> = rated_results::table
        .filter(rated_results::black_id.eq(player))
        .filter(rated_results::variant.eq(Spelled(variant)))
        .select(diesel::dsl::min(rated_results::at))
        .first(conn)?;
    Ok(as_white.into_iter().chain(as_black).min())
}

/// Where a counted result comes from: (variant, standalone, source, event).
pub type Source = (Variant, bool, i64, Option<i64>);

/// Where every counted result a player played comes from.
pub fn sources_of_player(conn: &mut DbConn, player: i64) -> QueryResult<Vec<Source>> {
    let mut found: Vec<Source> = Vec::new();
    let as_white: Vec<Source> = rated_results::table
        .filter(rated_results::white_id.eq(player))
        .select((
            rated_results::variant,
            rated_results::standalone,
            rated_results::source_id,
            rated_results::event_id,
        ))
        .load(conn)?;
    let as_black: Vec<Source> = rated_results::table
        .filter(rated_results::black_id.eq(player))
        .select((
            rated_results::variant,
            rated_results::standalone,
            rated_results::source_id,
            rated_results::event_id,
        ))
        .load(conn)?;
    found.extend(as_white);
    found.extend(as_black);
    Ok(found)
}

pub fn insert(conn: &mut DbConn, row: &RatedResultRow) -> QueryResult<()> {
    diesel::insert_into(rated_results::table)
        .values(row.clone())
        .execute(conn)
        .map(|_| ())
}

pub fn delete(conn: &mut DbConn, row: &RatedResultRow) -> QueryResult<()> {
    diesel::delete(
        rated_results::table
            .filter(rated_results::variant.eq(Spelled(row.variant)))
            .filter(rated_results::standalone.eq(row.standalone))
            .filter(rated_results::source_id.eq(row.source_id))
            .filter(rated_results::game_no.eq(row.game_no)),
    )
    .execute(conn)
    .map(|_| ())
}

/// The instant of an event's last counted result: where its Elo period stands.
pub fn last_of_event(
    conn: &mut DbConn,
    variant: Variant,
    event_id: i64,
) -> QueryResult<Option<NaiveDateTime>> {
    rated_results::table
        .filter(rated_results::event_id.eq(event_id))
        .filter(rated_results::variant.eq(Spelled(variant)))
        .filter(rated_results::standalone.eq(false))
        .select(diesel::dsl::max(rated_results::at))
        .first(conn)
}

/// The instant of the last standalone result in `[from, to)`: where a month's Elo period
/// stands.
pub fn last_standalone_between(
    conn: &mut DbConn,
    variant: Variant,
    from: NaiveDateTime,
    to: NaiveDateTime,
) -> QueryResult<Option<NaiveDateTime>> {
    rated_results::table
        .filter(rated_results::variant.eq(Spelled(variant)))
        .filter(rated_results::at.ge(from))
        .filter(rated_results::at.lt(to))
        .filter(rated_results::standalone.eq(true))
        .select(diesel::dsl::max(rated_results::at))
        .first(conn)
}

/// Forgets every counted result of the variant (a rebuild from scratch follows).
pub fn delete_all(conn: &mut DbConn, variant: Variant) -> QueryResult<()> {
    diesel::delete(rated_results::table.filter(rated_results::variant.eq(Spelled(variant))))
        .execute(conn)
        .map(|_| ())
}
