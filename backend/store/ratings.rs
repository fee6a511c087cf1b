//! Ratings: what a recompute reads (the counted results of a variant, the starting
//! ratings, birth years), the stored ratings and their changes, and the writes that bring
//! them in line with a recompute.
use chrono::NaiveDateTime;
use damka_engine::Variant;
use diesel::prelude::*;

use super::columns::Spelled;
use super::schema::{
    clubs, entries, events, games, glicko2_starts, pairing_games, pairings, player_ratings,
    players, rating_changes, rating_variants, ratings, result_changes, rounds,
};
use super::{DbConn, QueryResult};
use damka_domain::vocabulary::{GameStatus, RatingSystem, ResultCode};

/// Plies a standalone game needs to be rated: two moves by each side (RATINGS.md).
pub const MIN_RATED_PLIES: i32 = 4;

/// Makes sure the variant has its row (one added after the migration gets it).
pub fn ensure_variant_row(conn: &mut DbConn, variant: Variant) -> QueryResult<()> {
    let found: Option<String> = rating_variants::table
        .find(Spelled(variant))
        .select(rating_variants::variant)
        .first(conn)
        .optional()?;
    if found.is_some() {
        return Ok(());
    }
    diesel::insert_into(rating_variants::table)
        .values((
            rating_variants::variant.eq(Spelled(variant)),
            rating_variants::revision.eq(0_i64),
        ))
        .execute(conn)
        .map(|_| ())
}

/// Which counted results a query reads: the whole variant (a recompute from scratch), one
/// event's (its rated flag changed, a TRF import), one board's (its result changed) or
/// one standalone game's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Variant,
    Event(i64),
    Pairing { event_id: i64, pairing_id: i64 },
    Game(i64),
}

impl Scope {
    /// The event whose boards the scope reads, if only one.
    fn event(self) -> Option<i64> {
        match self {
            Scope::Event(id) | Scope::Pairing { event_id: id, .. } => Some(id),
            Scope::Variant | Scope::Game(_) => None,
        }
    }

    fn pairing(self) -> Option<i64> {
        match self {
            Scope::Pairing { pairing_id, .. } => Some(pairing_id),
            _ => None,
        }
    }

    fn reads_boards(self) -> bool {
        !matches!(self, Scope::Game(_))
    }

    fn reads_standalone(self) -> bool {
        matches!(self, Scope::Variant | Scope::Game(_))
    }
}

/// A board of a rated event with a result, as stored.
#[derive(Debug, Clone, Queryable)]
pub struct BoardRow {
    pub pairing_id: i64,
    pub event_id: i64,
    pub white_entry_id: i64,
    pub black_entry_id: Option<i64>,
    pub result: Option<ResultCode>,
    pub paired_at: NaiveDateTime,
    pub published_at: Option<NaiveDateTime>,
}

/// The boards of published rounds of the variant's rated events that have a played result
/// (forfeits, byes and boards without a result are left out here).
pub fn counted_boards(
    conn: &mut DbConn,
    variant: Variant,
    scope: Scope,
) -> QueryResult<Vec<BoardRow>> {
    if !scope.reads_boards() {
        return Ok(Vec::new());
    }
    let mut query = pairings::table
        .inner_join(rounds::table.inner_join(events::table))
        .filter(events::variant.eq(Spelled(variant)))
        .filter(events::rated.eq(true))
        // A micro-match's games count each on its own (`counted_micro_games`), never the
        // pairing's collapsed result.
        .filter(events::games_per_pairing.eq(1))
        .filter(rounds::published.eq(true))
        .filter(pairings::black_entry_id.is_not_null())
        .filter(pairings::result.is_not_null())
        .select((
            pairings::id,
            events::id,
            pairings::white_entry_id,
            pairings::black_entry_id,
            pairings::result,
            rounds::paired_at,
            rounds::published_at,
        ))
        .into_boxed();
    if let Some(event) = scope.event() {
        query = query.filter(events::id.eq(event));
    }
    if let Some(pairing) = scope.pairing() {
        query = query.filter(pairings::id.eq(pairing));
    }
    let rows: Vec<BoardRow> = query.load(conn)?;
    Ok(rows
        .into_iter()
        .filter(|row| row.result.is_some_and(ResultCode::played))
        .collect())
}

/// One game of a micro-match of a rated event with a result, in that game's colours.
#[derive(Debug, Clone)]
pub struct MicroGameRow {
    pub pairing_id: i64,
    pub event_id: i64,
    pub game_no: i32,
    pub white_entry_id: i64,
    pub black_entry_id: i64,
    pub result: ResultCode,
    pub paired_at: NaiveDateTime,
    pub published_at: Option<NaiveDateTime>,
}

/// A micro-match game as read, in the pairing's colours.
type MicroGameColumns = (
    i64,
    i64,
    i32,
    i64,
    Option<i64>,
    Option<ResultCode>,
    NaiveDateTime,
    Option<NaiveDateTime>,
);

/// A game of a micro-match: (pairing, game number).
pub type GameKey = (i64, i32);

/// The games of micro-matches of published rounds of the variant's rated events that have
/// a played result, each in its own colours (the second game's White is the pairing's
/// Black), in pairing and game order.
pub fn counted_micro_games(
    conn: &mut DbConn,
    variant: Variant,
    scope: Scope,
) -> QueryResult<Vec<MicroGameRow>> {
    if !scope.reads_boards() {
        return Ok(Vec::new());
    }
    let mut query = pairing_games::table
        .inner_join(pairings::table.inner_join(rounds::table.inner_join(events::table)))
        .filter(events::variant.eq(Spelled(variant)))
        .filter(events::rated.eq(true))
        .filter(rounds::published.eq(true))
        .filter(pairing_games::result.is_not_null())
        .order((pairing_games::pairing_id, pairing_games::game_no))
        .select((
            pairings::id,
            events::id,
            pairing_games::game_no,
            pairings::white_entry_id,
            pairings::black_entry_id,
            pairing_games::result,
            rounds::paired_at,
            rounds::published_at,
        ))
        .into_boxed();
    if let Some(event) = scope.event() {
        query = query.filter(events::id.eq(event));
    }
    if let Some(pairing) = scope.pairing() {
        query = query.filter(pairings::id.eq(pairing));
    }
    let rows: Vec<MicroGameColumns> = query.load(conn)?;
    Ok(rows
        .into_iter()
        .filter_map(
            |(
                pairing_id,
                event_id,
                game_no,
                first_white,
                first_black,
                result,
                paired_at,
                published_at,
            )| {
                let result = result.filter(|r| r.played())?;
                let first_black = first_black?;
                let (white_entry_id, black_entry_id) = if game_no % 2 == 1 {
                    (first_white, first_black)
                } else {
                    (first_black, first_white)
                };
                Some(MicroGameRow {
                    pairing_id,
                    event_id,
                    game_no,
                    white_entry_id,
                    black_entry_id,
                    result,
                    paired_at,
                    published_at,
                })
            },
        )
        .collect())
}

/// The last change of each micro-match game's result: ((pairing, game), when).
pub fn last_game_result_changes(
    conn: &mut DbConn,
    variant: Variant,
    scope: Scope,
) -> QueryResult<Vec<(GameKey, Option<NaiveDateTime>)>> {
    if !scope.reads_boards() {
        return Ok(Vec::new());
    }
    let mut query = result_changes::table
        .inner_join(pairings::table.inner_join(rounds::table.inner_join(events::table)))
        .filter(events::variant.eq(Spelled(variant)))
        .filter(events::rated.eq(true))
        .filter(result_changes::game_no.is_not_null())
        .group_by((result_changes::pairing_id, result_changes::game_no))
        .select((
            result_changes::pairing_id,
            result_changes::game_no,
            diesel::dsl::max(result_changes::changed_at),
        ))
        .into_boxed();
    if let Some(event) = scope.event() {
        query = query.filter(events::id.eq(event));
    }
    if let Some(pairing) = scope.pairing() {
        query = query.filter(pairings::id.eq(pairing));
    }
    let rows: Vec<(i64, Option<i32>, Option<NaiveDateTime>)> = query.load(conn)?;
    Ok(rows
        .into_iter()
        .filter_map(|(pairing, game_no, at)| Some(((pairing, game_no?), at)))
        .collect())
}

/// (entry id, player id) of every entry of the variant's rated events.
pub fn rated_entries(
    conn: &mut DbConn,
    variant: Variant,
    scope: Scope,
) -> QueryResult<Vec<(i64, i64)>> {
    if !scope.reads_boards() {
        return Ok(Vec::new());
    }
    let mut query = entries::table
        .inner_join(events::table)
        .filter(events::variant.eq(Spelled(variant)))
        .filter(events::rated.eq(true))
        .select((entries::id, entries::player_id))
        .into_boxed();
    if let Some(event) = scope.event() {
        query = query.filter(events::id.eq(event));
    }
    query.load(conn)
}

/// When each board of the variant's rated events last had its result changed.
pub fn last_result_changes(
    conn: &mut DbConn,
    variant: Variant,
    scope: Scope,
) -> QueryResult<Vec<(i64, Option<NaiveDateTime>)>> {
    if !scope.reads_boards() {
        return Ok(Vec::new());
    }
    let mut query = result_changes::table
        .inner_join(pairings::table.inner_join(rounds::table.inner_join(events::table)))
        .filter(events::variant.eq(Spelled(variant)))
        .filter(events::rated.eq(true))
        .group_by(result_changes::pairing_id)
        .select((
            result_changes::pairing_id,
            diesel::dsl::max(result_changes::changed_at),
        ))
        .into_boxed();
    if let Some(event) = scope.event() {
        query = query.filter(events::id.eq(event));
    }
    if let Some(pairing) = scope.pairing() {
        query = query.filter(pairings::id.eq(pairing));
    }
    query.load(conn)
}

/// (pairing id, game number, game id) of the variant's event games.
pub fn board_games(
    conn: &mut DbConn,
    variant: Variant,
    scope: Scope,
) -> QueryResult<Vec<(Option<i64>, i32, i64)>> {
    if !scope.reads_boards() {
        return Ok(Vec::new());
    }
    let mut query = games::table
        .filter(games::variant.eq(Spelled(variant)))
        .filter(games::pairing_id.is_not_null())
        .select((games::pairing_id, games::game_no, games::id))
        .into_boxed();
    if let Some(event) = scope.event() {
        query = query.filter(games::event_id.eq(event));
    }
    if let Some(pairing) = scope.pairing() {
        query = query.filter(games::pairing_id.eq(pairing));
    }
    query.load(conn)
}

/// A finished rated standalone game, as stored.
#[derive(Debug, Clone, Queryable)]
pub struct GameResultRow {
    pub game_id: i64,
    pub white: i64,
    pub black: i64,
    pub result: Option<ResultCode>,
    pub finished_at: Option<NaiveDateTime>,
}

/// Finished rated games outside any event with two moves by each side.
pub fn counted_games(
    conn: &mut DbConn,
    variant: Variant,
    scope: Scope,
) -> QueryResult<Vec<GameResultRow>> {
    if !scope.reads_standalone() {
        return Ok(Vec::new());
    }
    let mut query = games::table
        .filter(games::variant.eq(Spelled(variant)))
        .filter(games::event_id.is_null())
        .filter(games::rated.eq(true))
        .filter(games::status.eq(Spelled(GameStatus::Finished)))
        .filter(games::ply.ge(MIN_RATED_PLIES))
        .select((
            games::id,
            games::white_player_id,
            games::black_player_id,
            games::result,
            games::finished_at,
        ))
        .into_boxed();
    if let Scope::Game(id) = scope {
        query = query.filter(games::id.eq(id));
    }
    let rows: Vec<GameResultRow> = query.load(conn)?;
    Ok(rows
        .into_iter()
        .filter(|row| row.result.is_some_and(ResultCode::played))
        .collect())
}

/// (player, rating, games): the Elo ratings players arrived with.
pub fn elo_starts(conn: &mut DbConn, variant: Variant) -> QueryResult<Vec<(i64, i32, i32)>> {
    player_ratings::table
        .filter(player_ratings::variant.eq(Spelled(variant)))
        .select((
            player_ratings::player_id,
            player_ratings::rating,
            player_ratings::games,
        ))
        .load(conn)
}

/// A Glicko-2 rating a player arrived with.
#[derive(Debug, Clone, PartialEq, Queryable, Insertable)]
#[diesel(table_name = glicko2_starts)]
pub struct GlickoStartRow {
    pub player_id: i64,
    #[diesel(serialize_as = Spelled<Variant>)]
    pub variant: Variant,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: i32,
}

pub fn glicko_starts(conn: &mut DbConn, variant: Variant) -> QueryResult<Vec<GlickoStartRow>> {
    glicko2_starts::table
        .filter(glicko2_starts::variant.eq(Spelled(variant)))
        .select((
            glicko2_starts::player_id,
            glicko2_starts::variant,
            glicko2_starts::rating,
            glicko2_starts::deviation,
            glicko2_starts::volatility,
            glicko2_starts::games,
        ))
        .load(conn)
}

/// Replaces a player's Glicko-2 start in a variant.
pub fn set_glicko_start(conn: &mut DbConn, start: &GlickoStartRow) -> QueryResult<()> {
    diesel::delete(
        glicko2_starts::table
            .filter(glicko2_starts::player_id.eq(start.player_id))
            .filter(glicko2_starts::variant.eq(Spelled(start.variant))),
    )
    .execute(conn)?;
    diesel::insert_into(glicko2_starts::table)
        .values(start.clone())
        .execute(conn)
        .map(|_| ())
}

/// (player, birth year) of every player whose birth year is known.
pub fn birth_years(conn: &mut DbConn) -> QueryResult<Vec<(i64, Option<i32>)>> {
    players::table
        .filter(players::birth_year.is_not_null())
        .select((players::id, players::birth_year))
        .load(conn)
}

/// A player's current rating in one variant and system, as stored.
#[derive(Debug, Clone, PartialEq, Queryable, Insertable)]
#[diesel(table_name = ratings)]
pub struct RatingRow {
    pub player_id: i64,
    #[diesel(serialize_as = Spelled<Variant>)]
    pub variant: Variant,
    #[diesel(serialize_as = Spelled<RatingSystem>)]
    pub system: RatingSystem,
    pub rating: Option<f64>,
    pub deviation: Option<f64>,
    pub volatility: Option<f64>,
    pub games: i32,
    pub provisional: bool,
    pub last_played: Option<NaiveDateTime>,
    /// How many steps the player's history has in this system, and their digest.
    pub history_steps: i32,
    pub history_digest: i64,
}

/// One step of a rating, as stored.
#[derive(Debug, Clone, PartialEq, Queryable, Insertable)]
#[diesel(table_name = rating_changes)]
pub struct ChangeRow {
    pub player_id: i64,
    #[diesel(serialize_as = Spelled<Variant>)]
    pub variant: Variant,
    #[diesel(serialize_as = Spelled<RatingSystem>)]
    pub system: RatingSystem,
    pub seq: i32,
    pub at: NaiveDateTime,
    pub rating_before: Option<f64>,
    pub rating_after: Option<f64>,
    pub deviation: Option<f64>,
    pub volatility: Option<f64>,
    pub games: i32,
    pub event_id: Option<i64>,
    pub game_id: Option<i64>,
    pub performance: Option<i32>,
    pub step_games: i32,
    pub step_half_points: i32,
    /// Where the step stands in the fold: the result's instant (Glicko-2), the period's
    /// last result's (Elo).
    pub period_at: NaiveDateTime,
    /// Elo: the rest of the state after the step, beside `rating_after` and `games`.
    pub elo_reached_2400: bool,
    pub elo_unrated_opponents: Option<i64>,
    pub elo_unrated_half_points: Option<i32>,
    /// The running digest of the history up to and with this step.
    pub digest: i64,
}

type RatingColumns = (
    ratings::player_id,
    ratings::variant,
    ratings::system,
    ratings::rating,
    ratings::deviation,
    ratings::volatility,
    ratings::games,
    ratings::provisional,
    ratings::last_played,
    ratings::history_steps,
    ratings::history_digest,
);

const RATING_COLUMNS: RatingColumns = (
    ratings::player_id,
    ratings::variant,
    ratings::system,
    ratings::rating,
    ratings::deviation,
    ratings::volatility,
    ratings::games,
    ratings::provisional,
    ratings::last_played,
    ratings::history_steps,
    ratings::history_digest,
);

/// Every stored current rating of the variant, both systems.
pub fn stored_ratings(conn: &mut DbConn, variant: Variant) -> QueryResult<Vec<RatingRow>> {
    ratings::table
        .filter(ratings::variant.eq(Spelled(variant)))
        .select(RATING_COLUMNS)
        .load(conn)
}

/// Every stored change of the variant, both systems, by player, system and step.
pub fn stored_changes(conn: &mut DbConn, variant: Variant) -> QueryResult<Vec<ChangeRow>> {
    rating_changes::table
        .filter(rating_changes::variant.eq(Spelled(variant)))
        .order((
            rating_changes::player_id,
            rating_changes::system,
            rating_changes::seq,
        ))
        .select(rating_changes::all_columns)
        .load(conn)
}

pub fn delete_rating(
    conn: &mut DbConn,
    player: i64,
    variant: Variant,
    system: RatingSystem,
) -> QueryResult<()> {
    diesel::delete(
        ratings::table
            .filter(ratings::player_id.eq(player))
            .filter(ratings::variant.eq(Spelled(variant)))
            .filter(ratings::system.eq(Spelled(system))),
    )
    .execute(conn)
    .map(|_| ())
}

pub fn insert_rating(conn: &mut DbConn, row: &RatingRow) -> QueryResult<()> {
    diesel::insert_into(ratings::table)
        .values(row.clone())
        .execute(conn)
        .map(|_| ())
}

/// Deletes a player's changes in one variant and system from step `from_seq` on.
pub fn delete_changes_from(
    conn: &mut DbConn,
    player: i64,
    variant: Variant,
    system: RatingSystem,
    from_seq: i32,
) -> QueryResult<()> {
    diesel::delete(
        rating_changes::table
            .filter(rating_changes::player_id.eq(player))
            .filter(rating_changes::variant.eq(Spelled(variant)))
            .filter(rating_changes::system.eq(Spelled(system)))
            .filter(rating_changes::seq.ge(from_seq)),
    )
    .execute(conn)
    .map(|_| ())
}

/// Inserts steps in statements of many rows each.
pub fn insert_changes(conn: &mut DbConn, rows: &[ChangeRow]) -> QueryResult<()> {
    // 20 columns a row: 40 rows stay far below SQLite's 32,766 bound variables.
    // (A multi-row insert does not go through the MultiConnection: each backend's own.)
    for chunk in rows.chunks(40) {
        let insert = diesel::insert_into(rating_changes::table).values(chunk.to_vec());
        match conn {
            DbConn::Pg(pg) => insert.execute(pg)?,
            DbConn::Sqlite(sqlite) => insert.execute(sqlite)?,
        };
    }
    Ok(())
}

pub fn insert_change(conn: &mut DbConn, row: &ChangeRow) -> QueryResult<()> {
    diesel::insert_into(rating_changes::table)
        .values(row.clone())
        .execute(conn)
        .map(|_| ())
}

/// A row of a rating list: the rating with the player's name, club and country.
#[derive(Debug, Clone, Queryable)]
pub struct ListedRow {
    pub rating: RatingRow,
    pub name: String,
    pub club_id: Option<i64>,
    pub club_name: Option<String>,
    pub country: String,
}

/// Whether any player has a rating of a variant in one system (a list would not be empty).
pub fn any_rated(conn: &mut DbConn, variant: Variant, system: RatingSystem) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(
        ratings::table
            .filter(ratings::variant.eq(Spelled(variant)))
            .filter(ratings::system.eq(Spelled(system)))
            .filter(ratings::rating.is_not_null()),
    ))
    .get_result(conn)
}

/// Where a rating list stands: the (stored, unrounded) rating, name and id of the last
/// player a page showed.
pub type ListKey = (f64, String, i64);

/// Which rating list, narrowed how.
#[derive(Debug, Clone, Copy)]
pub struct ListScope<'a> {
    pub variant: Variant,
    pub system: RatingSystem,
    pub club: Option<i64>,
    pub country: Option<&'a str>,
    /// The spellings of a name query's key word (`NameQuery::key_word`): a first cut that
    /// the caller completes by checking every word in Rust.
    pub name_key: Option<&'a [String]>,
}

/// The rated players of a variant in one system, best first (then by name, then by id),
/// optionally one club's, one country's or some names'; only those after `after` in that
/// order, at most `fetch` of them (all without). Archived profiles are not listed (their
/// ratings stay, on their pages).
pub fn list(
    conn: &mut DbConn,
    scope: ListScope<'_>,
    after: Option<&ListKey>,
    fetch: Option<usize>,
) -> QueryResult<Vec<ListedRow>> {
    let mut query = ratings::table
        .inner_join(players::table.left_join(clubs::table))
        .filter(ratings::variant.eq(Spelled(scope.variant)))
        .filter(ratings::system.eq(Spelled(scope.system)))
        .filter(ratings::rating.is_not_null())
        .filter(players::archived_at.is_null())
        .select((
            RATING_COLUMNS,
            players::name,
            players::club_id,
            clubs::name.nullable(),
            players::country,
        ))
        .into_boxed();
    if let Some(club) = scope.club {
        query = query.filter(players::club_id.eq(club));
    }
    if let Some(country) = scope.country {
        query = query.filter(players::country.eq(country.to_string()));
    }
    if let Some(key) = scope.name_key {
        let (one, other) = super::players::like_patterns(key);
        query = query.filter(
            players::name_folded
                .eq("")
                .or(players::name_folded.like(one))
                .or(players::name_folded.like(other)),
        );
    }
    if let Some((rating, name, id)) = after {
        query = query.filter(
            ratings::rating
                .lt(*rating)
                .or(ratings::rating.eq(*rating).and(
                    players::name
                        .gt(name.clone())
                        .or(players::name.eq(name.clone()).and(players::id.gt(*id))),
                )),
        );
    }
    if let Some(fetch) = fetch {
        query = query.limit(i64::try_from(fetch).unwrap_or(i64::MAX));
    }
    query
        .order((ratings::rating.desc(), players::name, players::id))
        .load(conn)
}

/// Every stored rating of a whole list (variant and system), best first: what a narrowed
/// list ranks its rows against. One number a player, read through the list's index;
/// archived profiles left out, as the list leaves them out.
pub fn list_ratings(
    conn: &mut DbConn,
    variant: Variant,
    system: RatingSystem,
) -> QueryResult<Vec<f64>> {
    let rows: Vec<Option<f64>> = ratings::table
        .inner_join(players::table)
        .filter(ratings::variant.eq(Spelled(variant)))
        .filter(ratings::system.eq(Spelled(system)))
        .filter(ratings::rating.is_not_null())
        .filter(players::archived_at.is_null())
        .order(ratings::rating.desc())
        .select(ratings::rating)
        .load(conn)?;
    Ok(rows.into_iter().flatten().collect())
}

/// A player's changes in one variant and system, oldest first.
pub fn history(
    conn: &mut DbConn,
    player: i64,
    variant: Variant,
    system: RatingSystem,
) -> QueryResult<Vec<ChangeRow>> {
    rating_changes::table
        .filter(rating_changes::player_id.eq(player))
        .filter(rating_changes::variant.eq(Spelled(variant)))
        .filter(rating_changes::system.eq(Spelled(system)))
        .order(rating_changes::seq)
        .select(rating_changes::all_columns)
        .load(conn)
}

/// A player's current ratings in every variant and system.
pub fn of_player(conn: &mut DbConn, player: i64) -> QueryResult<Vec<RatingRow>> {
    ratings::table
        .filter(ratings::player_id.eq(player))
        .select(RATING_COLUMNS)
        .load(conn)
}

/// Every change an event caused, both systems.
pub fn of_event(conn: &mut DbConn, event_id: i64) -> QueryResult<Vec<ChangeRow>> {
    rating_changes::table
        .filter(rating_changes::event_id.eq(event_id))
        .order((
            rating_changes::player_id,
            rating_changes::system,
            rating_changes::seq,
        ))
        .select(rating_changes::all_columns)
        .load(conn)
}

/// A player's current rating in one variant and system, if stored.
pub fn current(
    conn: &mut DbConn,
    player: i64,
    variant: Variant,
    system: RatingSystem,
) -> QueryResult<Option<RatingRow>> {
    ratings::table
        .filter(ratings::player_id.eq(player))
        .filter(ratings::variant.eq(Spelled(variant)))
        .filter(ratings::system.eq(Spelled(system)))
        .select(RATING_COLUMNS)
        .first(conn)
        .optional()
}

/// Every federation id in use, with its profile: an import's lookup.
pub fn federation_ids(conn: &mut DbConn) -> QueryResult<Vec<(String, i64)>> {
    players::table
        .filter(players::federation_id.ne(""))
        .select((players::federation_id, players::id))
        .load(conn)
}

/// The ids of existing profiles among `ids`.
pub fn existing_players(conn: &mut DbConn, ids: &[i64]) -> QueryResult<Vec<i64>> {
    let mut found = Vec::new();
    for chunk in ids.chunks(1000) {
        found.extend(
            players::table
                .filter(players::id.eq_any(chunk))
                .select(players::id)
                .load::<i64>(conn)?,
        );
    }
    Ok(found)
}

/// Whether no recompute of the variant has run yet (its lock row was never bumped).
pub fn never_computed(conn: &mut DbConn, variant: Variant) -> QueryResult<bool> {
    let revision: Option<i64> = rating_variants::table
        .find(Spelled(variant))
        .select(rating_variants::revision)
        .first(conn)
        .optional()?;
    Ok(revision.unwrap_or(0) == 0)
}

/// (player, variant, rating, games): a current rating as a profile lists it.
pub type PlayerVariantRating = (i64, Variant, Option<f64>, i32);

/// These players' current ratings in one system, rated players only.
pub fn current_for(
    conn: &mut DbConn,
    player_ids: &[i64],
    system: RatingSystem,
) -> QueryResult<Vec<PlayerVariantRating>> {
    let mut found = Vec::new();
    for chunk in player_ids.chunks(1000) {
        found.extend(
            ratings::table
                .filter(ratings::player_id.eq_any(chunk))
                .filter(ratings::system.eq(Spelled(system)))
                .filter(ratings::rating.is_not_null())
                .select((
                    ratings::player_id,
                    ratings::variant,
                    ratings::rating,
                    ratings::games,
                ))
                .load::<PlayerVariantRating>(conn)?,
        );
    }
    Ok(found)
}

/// (player id, name, club name, rating): a row of the home page's top list.
pub type TopRated = (i64, String, Option<String>, Option<f64>);

/// The best-rated players of a variant in one system, best first.
pub fn top_rated(
    conn: &mut DbConn,
    variant: Variant,
    system: RatingSystem,
    limit: i64,
) -> QueryResult<Vec<TopRated>> {
    ratings::table
        .inner_join(players::table.left_join(clubs::table))
        .filter(ratings::variant.eq(Spelled(variant)))
        .filter(ratings::system.eq(Spelled(system)))
        .filter(ratings::rating.is_not_null())
        .filter(players::archived_at.is_null())
        .order((ratings::rating.desc(), players::name))
        .limit(limit)
        .select((
            players::id,
            players::name,
            clubs::name.nullable(),
            ratings::rating,
        ))
        .load(conn)
}

/// A player's last step in one system that stands before `before` in the fold: where a
/// refold from `before` starts for them.
pub fn last_change_before(
    conn: &mut DbConn,
    player: i64,
    variant: Variant,
    system: RatingSystem,
    before: NaiveDateTime,
) -> QueryResult<Option<ChangeRow>> {
    rating_changes::table
        .filter(rating_changes::player_id.eq(player))
        .filter(rating_changes::variant.eq(Spelled(variant)))
        .filter(rating_changes::system.eq(Spelled(system)))
        .filter(rating_changes::period_at.lt(before))
        // By the index's own order (a player's steps follow `period_at`), then by step.
        .order((rating_changes::period_at.desc(), rating_changes::seq.desc()))
        .limit(1)
        .select(rating_changes::all_columns)
        .first(conn)
        .optional()
}

/// A player's last step in one system.
pub fn latest_change(
    conn: &mut DbConn,
    player: i64,
    variant: Variant,
    system: RatingSystem,
) -> QueryResult<Option<ChangeRow>> {
    rating_changes::table
        .filter(rating_changes::player_id.eq(player))
        .filter(rating_changes::variant.eq(Spelled(variant)))
        .filter(rating_changes::system.eq(Spelled(system)))
        .order(rating_changes::seq.desc())
        .limit(1)
        .select(rating_changes::all_columns)
        .first(conn)
        .optional()
}

/// The steps of one system standing in `[from, to)` of the fold (`to` `None`: no end).
pub fn changes_between(
    conn: &mut DbConn,
    variant: Variant,
    system: RatingSystem,
    from: NaiveDateTime,
    to: Option<NaiveDateTime>,
) -> QueryResult<Vec<ChangeRow>> {
    let mut query = rating_changes::table
        .filter(rating_changes::variant.eq(Spelled(variant)))
        .filter(rating_changes::system.eq(Spelled(system)))
        .filter(rating_changes::period_at.ge(from))
        .select(rating_changes::all_columns)
        .into_boxed();
    if let Some(to) = to {
        query = query.filter(rating_changes::period_at.lt(to));
    }
    query.load(conn)
}

/// Deletes one step.
pub fn delete_change(
    conn: &mut DbConn,
    player: i64,
    variant: Variant,
    system: RatingSystem,
    seq: i32,
) -> QueryResult<()> {
    diesel::delete(
        rating_changes::table
            .filter(rating_changes::player_id.eq(player))
            .filter(rating_changes::variant.eq(Spelled(variant)))
            .filter(rating_changes::system.eq(Spelled(system)))
            .filter(rating_changes::seq.eq(seq)),
    )
    .execute(conn)
    .map(|_| ())
}

/// Ids read per query when a list of players is looked up.
const CHUNK: usize = 500;

/// (player, rating, games): the Elo starts of these players.
pub fn elo_starts_of(
    conn: &mut DbConn,
    variant: Variant,
    players: &[i64],
) -> QueryResult<Vec<(i64, i32, i32)>> {
    let mut found = Vec::new();
    for chunk in players.chunks(CHUNK) {
        found.extend(
            player_ratings::table
                .filter(player_ratings::variant.eq(Spelled(variant)))
                .filter(player_ratings::player_id.eq_any(chunk))
                .select((
                    player_ratings::player_id,
                    player_ratings::rating,
                    player_ratings::games,
                ))
                .load::<(i64, i32, i32)>(conn)?,
        );
    }
    Ok(found)
}

/// The Glicko-2 starts of these players.
pub fn glicko_starts_of(
    conn: &mut DbConn,
    variant: Variant,
    players: &[i64],
) -> QueryResult<Vec<GlickoStartRow>> {
    let mut found = Vec::new();
    for chunk in players.chunks(CHUNK) {
        found.extend(
            glicko2_starts::table
                .filter(glicko2_starts::variant.eq(Spelled(variant)))
                .filter(glicko2_starts::player_id.eq_any(chunk))
                .select((
                    glicko2_starts::player_id,
                    glicko2_starts::variant,
                    glicko2_starts::rating,
                    glicko2_starts::deviation,
                    glicko2_starts::volatility,
                    glicko2_starts::games,
                ))
                .load::<GlickoStartRow>(conn)?,
        );
    }
    Ok(found)
}

/// (player, birth year) of these players whose birth year is known.
pub fn birth_years_of(conn: &mut DbConn, players: &[i64]) -> QueryResult<Vec<(i64, Option<i32>)>> {
    let mut found = Vec::new();
    for chunk in players.chunks(CHUNK) {
        found.extend(
            players::table
                .filter(players::id.eq_any(chunk))
                .filter(players::birth_year.is_not_null())
                .select((players::id, players::birth_year))
                .load::<(i64, Option<i32>)>(conn)?,
        );
    }
    Ok(found)
}

/// Where an event's Elo period stands, written on every step of it that says otherwise.
pub fn move_event_period(
    conn: &mut DbConn,
    variant: Variant,
    event_id: i64,
    end: NaiveDateTime,
) -> QueryResult<()> {
    diesel::update(
        rating_changes::table
            .filter(rating_changes::event_id.eq(event_id))
            .filter(rating_changes::variant.eq(Spelled(variant)))
            .filter(rating_changes::system.eq(Spelled(RatingSystem::Elo)))
            .filter(rating_changes::period_at.ne(end)),
    )
    .set(rating_changes::period_at.eq(end))
    .execute(conn)
    .map(|_| ())
}

/// Where a month's Elo period of standalone games stands (its steps are dated by each
/// player's last game in `[start, next)`).
pub fn move_month_period(
    conn: &mut DbConn,
    variant: Variant,
    start: NaiveDateTime,
    next: NaiveDateTime,
    end: NaiveDateTime,
) -> QueryResult<()> {
    diesel::update(
        rating_changes::table
            .filter(rating_changes::variant.eq(Spelled(variant)))
            .filter(rating_changes::system.eq(Spelled(RatingSystem::Elo)))
            .filter(rating_changes::event_id.is_null())
            .filter(rating_changes::at.ge(start))
            .filter(rating_changes::at.lt(next))
            .filter(rating_changes::period_at.ne(end)),
    )
    .set(rating_changes::period_at.eq(end))
    .execute(conn)
    .map(|_| ())
}

/// The Elo steps of an event's period.
pub fn elo_steps_of_event(
    conn: &mut DbConn,
    variant: Variant,
    event_id: i64,
) -> QueryResult<Vec<ChangeRow>> {
    rating_changes::table
        .filter(rating_changes::event_id.eq(event_id))
        .filter(rating_changes::variant.eq(Spelled(variant)))
        .filter(rating_changes::system.eq(Spelled(RatingSystem::Elo)))
        .select(rating_changes::all_columns)
        .load(conn)
}

/// The Elo steps of a month's period of standalone games (`[start, next)`).
pub fn elo_steps_of_month(
    conn: &mut DbConn,
    variant: Variant,
    start: NaiveDateTime,
    next: NaiveDateTime,
) -> QueryResult<Vec<ChangeRow>> {
    rating_changes::table
        .filter(rating_changes::variant.eq(Spelled(variant)))
        .filter(rating_changes::system.eq(Spelled(RatingSystem::Elo)))
        .filter(rating_changes::event_id.is_null())
        .filter(rating_changes::at.ge(start))
        .filter(rating_changes::at.lt(next))
        .select(rating_changes::all_columns)
        .load(conn)
}
