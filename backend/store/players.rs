//! Player profiles and the Elo ratings they arrived with (`player_ratings`, the starting
//! ratings of the rating computation: `service::ratings`).
use damka_domain::names::{NameQuery, fold};
use diesel::prelude::*;

use super::columns::Spelled;
use super::models::{Player, PlayerFields, PlayerRating};
use super::schema::{player_ratings, players};
use super::{DbConn, QueryResult};

/// The columns of `Player`, in its order (the search key is the store's own business): what
/// an insert or update returns (`as_returning` does not build on a MultiConnection).
const PLAYER_COLUMNS: (
    players::id,
    players::name,
    players::club_id,
    players::country,
    players::federation_id,
    players::birth_year,
    players::title,
    players::created_at,
    players::created_by,
    players::merged_into,
    players::archived_at,
) = (
    players::id,
    players::name,
    players::club_id,
    players::country,
    players::federation_id,
    players::birth_year,
    players::title,
    players::created_at,
    players::created_by,
    players::merged_into,
    players::archived_at,
);

/// A new profile that no account made (the command line, tests).
pub fn insert(
    conn: &mut DbConn,
    fields: &PlayerFields,
    at: chrono::NaiveDateTime,
) -> QueryResult<Player> {
    insert_by(conn, fields, None, at)
}

/// A new profile; `created_by` is the signed-in account that made it, if any.
pub fn insert_by(
    conn: &mut DbConn,
    fields: &PlayerFields,
    created_by: Option<i64>,
    at: chrono::NaiveDateTime,
) -> QueryResult<Player> {
    diesel::insert_into(players::table)
        .values((
            fields,
            players::name_folded.eq(fold(fields.name.trim())),
            players::created_at.eq(at),
            players::created_by.eq(created_by),
        ))
        .returning(PLAYER_COLUMNS)
        .get_result(conn)
}

/// Changes a profile; its search key follows the name.
pub fn update(conn: &mut DbConn, id: i64, fields: &PlayerFields) -> QueryResult<Player> {
    diesel::update(players::table.find(id))
        .set((fields, players::name_folded.eq(fold(fields.name.trim()))))
        .returning(PLAYER_COLUMNS)
        .get_result(conn)
}

/// Profiles whose search key one start-up pass fills per transaction: a short write, so
/// a large database's first start after the migration never holds the write lock long.
const FILL_BATCH: i64 = 1000;

/// Fills the search key (`name_folded`) of profiles that have none: those that existed
/// before the column did (the migration cannot fold in SQL, see its comment). Walks the
/// table once by id, a batch per transaction, so it ends even when a name folds to
/// nothing; returns how many keys it wrote.
pub fn fill_folded_names(conn: &mut DbConn) -> QueryResult<usize> {
    let mut after = 0_i64;
    let mut filled = 0;
    loop {
        let rows: Vec<(i64, String)> = players::table
            .filter(players::name_folded.eq(""))
            .filter(players::id.gt(after))
            .order(players::id)
            .limit(FILL_BATCH)
            .select((players::id, players::name))
            .load(conn)?;
        let Some(last) = rows.last().map(|(id, _)| *id) else {
            return Ok(filled);
        };
        filled += conn.write_transaction(|conn| -> QueryResult<usize> {
            let mut written = 0;
            for (id, name) in &rows {
                written += diesel::update(players::table.find(*id))
                    .filter(players::name_folded.eq(""))
                    .set(players::name_folded.eq(fold(name.trim())))
                    .execute(conn)?;
            }
            Ok(written)
        })?;
        after = last;
    }
}

pub fn by_id(conn: &mut DbConn, id: i64) -> QueryResult<Option<Player>> {
    players::table
        .find(id)
        .select(Player::as_select())
        .first(conn)
        .optional()
}

/// The profiles of everybody entered in an event, in one query.
pub fn entered_in(conn: &mut DbConn, event_id: i64) -> QueryResult<Vec<Player>> {
    use super::schema::entries;
    players::table
        .filter(
            players::id.eq_any(
                entries::table
                    .filter(entries::event_id.eq(event_id))
                    .select(entries::player_id),
            ),
        )
        .select(Player::as_select())
        .load(conn)
}

/// Rows one query of a name search reads: the database narrows the candidates by one word
/// of the query and Rust checks the rest, so it reads the list in keyset batches until a
/// page is full, never the whole table at once.
const SEARCH_BATCH: usize = 500;

/// A page of players by (name, id) (merged profiles left out), after the key `after`:
/// at most `fetch` of them, optionally only those of one club or whose name matches
/// `search` in any word order (`damka_domain::names::NameQuery`: case, and Cyrillic
/// through one transliteration, so `Petr Ivanov` finds «Иванов Пётр»).
/// The database keeps the rows whose folded key (`name_folded`) contains the query's
/// longest word (or that have no key yet); Rust checks every word.
pub fn page(
    conn: &mut DbConn,
    club: Option<i64>,
    search: Option<&str>,
    after: Option<&(String, i64)>,
    fetch: usize,
) -> QueryResult<Vec<Player>> {
    let Some(query) = search.and_then(NameQuery::parse) else {
        return after_key(conn, club, None, after, fetch);
    };
    let key = query.key_word();
    let mut found = Vec::new();
    let mut scanned = after.cloned();
    loop {
        let batch = after_key(conn, club, Some(&key), scanned.as_ref(), SEARCH_BATCH)?;
        let table_ends = batch.len() < SEARCH_BATCH;
        scanned = batch.last().map(|p| (p.name.clone(), p.id));
        let wanted = fetch - found.len();
        found.extend(
            batch
                .into_iter()
                .filter(|p| query.matches(&p.name))
                .take(wanted),
        );
        if found.len() >= fetch || table_ends {
            return Ok(found);
        }
    }
}

/// The LIKE patterns of a query's key word (`NameQuery::key_word`, one or two spellings):
/// a name that matches has a search key containing one of them, or an empty key (not filled
/// yet, see `fill_folded_names`). Two patterns always, the second repeating the first when
/// there is one spelling, so the SQL has one shape.
pub(crate) fn like_patterns(key: &[String]) -> (String, String) {
    let first = key.first().map(String::as_str).unwrap_or("");
    let last = key.last().map(String::as_str).unwrap_or(first);
    (format!("%{first}%"), format!("%{last}%"))
}

/// Up to `limit` profiles (not merged, of `club` if given, whose search key contains one of
/// `key`'s spellings or is not filled yet) after `after` by (name, id).
fn after_key(
    conn: &mut DbConn,
    club: Option<i64>,
    key: Option<&[String]>,
    after: Option<&(String, i64)>,
    limit: usize,
) -> QueryResult<Vec<Player>> {
    let mut query = players::table
        .filter(players::merged_into.is_null())
        .filter(players::archived_at.is_null())
        .select(Player::as_select())
        .into_boxed();
    if let Some(club) = club {
        query = query.filter(players::club_id.eq(club));
    }
    if let Some(key) = key {
        let (one, other) = like_patterns(key);
        query = query.filter(
            players::name_folded
                .eq("")
                .or(players::name_folded.like(one))
                .or(players::name_folded.like(other)),
        );
    }
    if let Some((name, id)) = after {
        // `name >= k` alone lets the name index bound the scan; the rest is the tie-break.
        query = query
            .filter(players::name.ge(name.clone()))
            .filter(players::name.gt(name.clone()).or(players::id.gt(*id)));
    }
    query
        .order((players::name, players::id))
        .limit(i64::try_from(limit).unwrap_or(i64::MAX))
        .load(conn)
}

/// How many profiles (not merged) there are, or of one club.
pub fn count_in(conn: &mut DbConn, club: Option<i64>) -> QueryResult<i64> {
    let mut query = players::table
        .filter(players::merged_into.is_null())
        .filter(players::archived_at.is_null())
        .into_boxed();
    if let Some(club) = club {
        query = query.filter(players::club_id.eq(club));
    }
    query.count().get_result(conn)
}

/// The number of player profiles and of clubs, in one round trip.
pub fn counts(conn: &mut DbConn) -> QueryResult<(i64, i64)> {
    use super::schema::clubs;
    diesel::select((
        players::table
            .filter(players::merged_into.is_null())
            .filter(players::archived_at.is_null())
            .count()
            .single_value()
            .assume_not_null(),
        clubs::table
            .filter(clubs::archived_at.is_null())
            .count()
            .single_value()
            .assume_not_null(),
    ))
    .get_result(conn)
}

pub fn count(conn: &mut DbConn) -> QueryResult<i64> {
    players::table
        .filter(players::merged_into.is_null())
        .filter(players::archived_at.is_null())
        .count()
        .get_result(conn)
}

pub fn ratings_for(conn: &mut DbConn, player_ids: &[i64]) -> QueryResult<Vec<PlayerRating>> {
    player_ratings::table
        .filter(player_ratings::player_id.eq_any(player_ids))
        .select(PlayerRating::as_select())
        .load(conn)
}

pub fn set_rating(conn: &mut DbConn, rating: &PlayerRating) -> QueryResult<()> {
    diesel::delete(
        player_ratings::table
            .filter(player_ratings::player_id.eq(rating.player_id))
            .filter(player_ratings::variant.eq(Spelled(rating.variant))),
    )
    .execute(conn)?;
    diesel::insert_into(player_ratings::table)
        .values(rating.clone())
        .execute(conn)
        .map(|_| ())
}

/// Ids per query: well under the bound-parameter limits of SQLite and PostgreSQL.
const IDS_PER_QUERY: usize = 1000;

/// The profiles carrying any of these federation ids, by id (merged ones left out).
pub fn by_federation_ids(conn: &mut DbConn, federation_ids: &[String]) -> QueryResult<Vec<Player>> {
    let mut found = Vec::new();
    for chunk in federation_ids.chunks(IDS_PER_QUERY) {
        found.extend(
            players::table
                .filter(players::federation_id.eq_any(chunk))
                .filter(players::merged_into.is_null())
                .order(players::id)
                .select(Player::as_select())
                .load(conn)?,
        );
    }
    Ok(found)
}

/// The profiles with these ids (those that still exist).
pub fn by_ids(conn: &mut DbConn, ids: &[i64]) -> QueryResult<Vec<Player>> {
    let mut found = Vec::new();
    for chunk in ids.chunks(IDS_PER_QUERY) {
        found.extend(
            players::table
                .filter(players::id.eq_any(chunk))
                .select(Player::as_select())
                .load(conn)?,
        );
    }
    Ok(found)
}

/// Profiles not merged away and linked to no account whose name is `name` once folded
/// (case, and Cyrillic through one transliteration, as the search folds it).
pub fn unclaimed_named(conn: &mut DbConn, name: &str) -> QueryResult<Vec<Player>> {
    use super::schema::users;
    let wanted = fold(name.trim());
    if wanted.is_empty() {
        return Ok(Vec::new());
    }
    let rows: Vec<Player> = players::table
        .filter(players::merged_into.is_null())
        .filter(players::archived_at.is_null())
        // The stored key narrows; the exact check below stays the judge (trimming).
        .filter(
            players::name_folded
                .eq(wanted.clone())
                .or(players::name_folded.eq("")),
        )
        .filter(diesel::dsl::not(diesel::dsl::exists(
            users::table.filter(users::player_id.eq(players::id.nullable())),
        )))
        .order((players::name, players::id))
        .select(Player::as_select())
        .load(conn)?;
    Ok(rows
        .into_iter()
        .filter(|p| fold(p.name.trim()) == wanted)
        .collect())
}

/// Profiles not merged away whose name is `name` once folded (as `unclaimed_named`), with
/// or without an account: a name typed into a form (a challenge, a list of new members).
pub fn live_named(conn: &mut DbConn, name: &str) -> QueryResult<Vec<Player>> {
    let wanted = damka_domain::names::fold(name.trim());
    if wanted.is_empty() {
        return Ok(Vec::new());
    }
    let rows: Vec<Player> = players::table
        .filter(players::merged_into.is_null())
        .filter(players::archived_at.is_null())
        // The stored key narrows; the exact check below stays the judge (trimming).
        .filter(
            players::name_folded
                .eq(wanted.clone())
                .or(players::name_folded.eq("")),
        )
        .order((players::name, players::id))
        .select(Player::as_select())
        .load(conn)?;
    Ok(rows
        .into_iter()
        .filter(|p| damka_domain::names::fold(p.name.trim()) == wanted)
        .collect())
}

/// Every live profile's id, name and club: what a list of names is matched against once,
/// instead of a query per name.
pub fn live_names(conn: &mut DbConn) -> QueryResult<Vec<(i64, String, Option<i64>)>> {
    players::table
        .filter(players::merged_into.is_null())
        .filter(players::archived_at.is_null())
        .order(players::id)
        .select((players::id, players::name, players::club_id))
        .load(conn)
}

/// Puts a profile that is in no club into `club`; 0 rows when it is in one by now (or
/// was merged away).
pub fn join_club(conn: &mut DbConn, player_id: i64, club: i64) -> QueryResult<usize> {
    diesel::update(
        players::table
            .find(player_id)
            .filter(players::club_id.is_null())
            .filter(players::merged_into.is_null())
            .filter(players::archived_at.is_null()),
    )
    .set(players::club_id.eq(Some(club)))
    .execute(conn)
}
