//! Events: the event row, arbiters, entries, absences, forbidden pairs, rounds, pairings
//! and the audit trail of results.
use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;

use damka_domain::tournament::ByeKind;

use super::columns::Spelled;
use super::models::{Entry, Event, EventSettings, NewPairing, Pairing, ResultChange, Round};
use super::schema::{
    entries, entry_absences, event_arbiters, events, forbidden_pairs, pairings, result_changes,
    rounds,
};
use super::{DbConn, QueryResult};
use damka_domain::names::NameQuery;
use damka_domain::vocabulary::{EventStatus, ResultCode};
use damka_engine::Variant;

pub fn insert(
    conn: &mut DbConn,
    settings: &EventSettings,
    organiser_id: i64,
    status: EventStatus,
    at: NaiveDateTime,
) -> QueryResult<Event> {
    diesel::insert_into(events::table)
        .values((
            settings.clone(),
            events::organiser_id.eq(organiser_id),
            events::status.eq(Spelled(status)),
            events::created_at.eq(at),
        ))
        .returning(events::all_columns)
        .get_result(conn)
}

pub fn update(conn: &mut DbConn, id: i64, settings: &EventSettings) -> QueryResult<Event> {
    diesel::update(events::table.find(id))
        .set(settings.clone())
        .returning(events::all_columns)
        .get_result(conn)
}

pub fn set_status(conn: &mut DbConn, id: i64, status: EventStatus) -> QueryResult<()> {
    diesel::update(events::table.find(id))
        .set(events::status.eq(Spelled(status)))
        .execute(conn)
        .map(|_| ())
}

/// The number of rounds, fixed for a round-robin when its schedule is made.
pub fn set_rounds(conn: &mut DbConn, id: i64, rounds: i32) -> QueryResult<()> {
    diesel::update(events::table.find(id))
        .set(events::rounds.eq(rounds))
        .execute(conn)
        .map(|_| ())
}

/// Starts a write to the event: bumps its revision and returns the new one (`None`: no
/// such event). Called first in every transaction that writes to an event. The UPDATE
/// takes the row lock on PostgreSQL, so a second writer to the same event waits here until
/// the first commits and then reads what the first wrote (READ COMMITTED takes a fresh
/// snapshot per statement); on SQLite the write transaction already holds the database's
/// write lock.
pub fn lock(conn: &mut DbConn, id: i64) -> QueryResult<Option<i64>> {
    diesel::update(events::table.find(id))
        .set(events::revision.eq(events::revision + 1))
        .returning(events::revision)
        .get_result(conn)
        .optional()
}

pub fn by_id(conn: &mut DbConn, id: i64) -> QueryResult<Option<Event>> {
    events::table
        .find(id)
        .select(Event::as_select())
        .first(conn)
        .optional()
}

/// Where a list of events stands: the start day (none for an undated event) and id of the
/// last event a page showed.
pub type ListKey = (Option<NaiveDate>, i64);

/// Which events a list shows: each field that is set narrows it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListFilter {
    pub status: Option<EventStatus>,
    /// The club's events.
    pub club_id: Option<i64>,
    /// The events a player is entered in.
    pub player_id: Option<i64>,
    pub variant: Option<Variant>,
    /// Events starting in this year (undated events have none).
    pub year: Option<i32>,
    /// Events whose name matches, in any word order, folded as player names are.
    pub name: Option<NameQuery>,
    /// Only archived events (`Some(true)`), only those not archived (`Some(false)`), or
    /// both (`None`: a player's own record).
    pub archived: Option<bool>,
}

/// Rows one query of a name-filtered list reads. Events are few beside profiles (a club
/// holds some a month), so the name is checked in Rust on the rows the other filters keep,
/// a keyset batch at a time, without a stored folded key.
const NAME_BATCH: usize = 200;

/// Up to `fetch` events of the filter, newest first: by start day descending, undated
/// events last, then by id descending; only those after `after` in that order.
pub fn page(
    conn: &mut DbConn,
    filter: ListFilter,
    after: Option<ListKey>,
    fetch: usize,
) -> QueryResult<Vec<Event>> {
    let filter = &filter;
    let Some(name) = &filter.name else {
        return page_in_sql(conn, filter, after, fetch);
    };
    let mut found = Vec::new();
    let mut scanned = after;
    loop {
        let batch = page_in_sql(conn, filter, scanned, NAME_BATCH)?;
        let table_ends = batch.len() < NAME_BATCH;
        scanned = batch.last().map(|e| (e.starts_on, e.id));
        let wanted = fetch - found.len();
        found.extend(
            batch
                .into_iter()
                .filter(|e| name.matches(&e.name))
                .take(wanted),
        );
        if found.len() >= fetch || table_ends {
            return Ok(found);
        }
    }
}

/// `page` by every filter but the name. NULLs are placed by hand because SQLite and
/// PostgreSQL sort them at opposite ends.
fn page_in_sql(
    conn: &mut DbConn,
    filter: &ListFilter,
    after: Option<ListKey>,
    fetch: usize,
) -> QueryResult<Vec<Event>> {
    let mut query = events::table.select(Event::as_select()).into_boxed();
    if let Some(status) = filter.status {
        query = query.filter(events::status.eq(Spelled(status)));
    }
    if let Some(club_id) = filter.club_id {
        query = query.filter(events::club_id.eq(club_id));
    }
    match filter.archived {
        Some(true) => query = query.filter(events::archived_at.is_not_null()),
        Some(false) => query = query.filter(events::archived_at.is_null()),
        None => {}
    }
    if let Some(variant) = filter.variant {
        query = query.filter(events::variant.eq(Spelled(variant)));
    }
    if let Some(year) = filter.year {
        let first = NaiveDate::from_ymd_opt(year, 1, 1);
        let last = NaiveDate::from_ymd_opt(year, 12, 31);
        if let (Some(first), Some(last)) = (first, last) {
            query = query.filter(events::starts_on.between(first, last));
        } else {
            // A year chrono cannot date has no events.
            return Ok(Vec::new());
        }
    }
    if let Some(player_id) = filter.player_id {
        query = query.filter(
            events::id.eq_any(
                entries::table
                    .filter(entries::player_id.eq(player_id))
                    .select(entries::event_id),
            ),
        );
    }
    match after {
        None => {}
        Some((Some(day), id)) => {
            query = query.filter(
                events::starts_on
                    .lt(day)
                    .or(events::starts_on.eq(day).and(events::id.lt(id)))
                    .or(events::starts_on.is_null()),
            )
        }
        Some((None, id)) => {
            query = query.filter(events::starts_on.is_null().and(events::id.lt(id)))
        }
    }
    query
        .order((
            events::starts_on.is_null(),
            events::starts_on.desc(),
            events::id.desc(),
        ))
        .limit(i64::try_from(fetch).unwrap_or(i64::MAX))
        .load(conn)
}

pub fn arbiters(conn: &mut DbConn, event_id: i64) -> QueryResult<Vec<i64>> {
    event_arbiters::table
        .filter(event_arbiters::event_id.eq(event_id))
        .select(event_arbiters::user_id)
        .load(conn)
}

pub fn add_arbiter(conn: &mut DbConn, event_id: i64, user_id: i64) -> QueryResult<()> {
    diesel::delete(
        event_arbiters::table
            .filter(event_arbiters::event_id.eq(event_id))
            .filter(event_arbiters::user_id.eq(user_id)),
    )
    .execute(conn)?;
    diesel::insert_into(event_arbiters::table)
        .values((
            event_arbiters::event_id.eq(event_id),
            event_arbiters::user_id.eq(user_id),
        ))
        .execute(conn)
        .map(|_| ())
}

// --- entries ------------------------------------------------------------------------------

pub fn entries(conn: &mut DbConn, event_id: i64) -> QueryResult<Vec<Entry>> {
    entries::table
        .filter(entries::event_id.eq(event_id))
        .order(entries::start_no)
        .select(Entry::as_select())
        .load(conn)
}

pub fn insert_entry(
    conn: &mut DbConn,
    event_id: i64,
    player_id: i64,
    start_no: i32,
    rating: Option<i32>,
    first_round: i32,
    at: NaiveDateTime,
) -> QueryResult<Entry> {
    diesel::insert_into(entries::table)
        .values((
            entries::event_id.eq(event_id),
            entries::player_id.eq(player_id),
            entries::start_no.eq(start_no),
            entries::rating.eq(rating),
            entries::first_round.eq(first_round),
            entries::created_at.eq(at),
        ))
        .returning(entries::all_columns)
        .get_result(conn)
}

pub fn delete_entry(conn: &mut DbConn, entry_id: i64) -> QueryResult<()> {
    diesel::delete(entries::table.find(entry_id))
        .execute(conn)
        .map(|_| ())
}

pub fn set_start_no(conn: &mut DbConn, entry_id: i64, start_no: i32) -> QueryResult<()> {
    diesel::update(entries::table.find(entry_id))
        .set(entries::start_no.eq(start_no))
        .execute(conn)
        .map(|_| ())
}

pub fn set_withdrawn(conn: &mut DbConn, entry_id: i64, from_round: Option<i32>) -> QueryResult<()> {
    diesel::update(entries::table.find(entry_id))
        .set(entries::withdrawn_from_round.eq(from_round))
        .execute(conn)
        .map(|_| ())
}

/// (entry id, round, kind) of every requested bye and absence of the event.
pub fn absences(conn: &mut DbConn, event_id: i64) -> QueryResult<Vec<(i64, i32, ByeKind)>> {
    entry_absences::table
        .inner_join(entries::table)
        .filter(entries::event_id.eq(event_id))
        .select((
            entry_absences::entry_id,
            entry_absences::round,
            entry_absences::kind,
        ))
        .load(conn)
}

pub fn set_absence(
    conn: &mut DbConn,
    entry_id: i64,
    round: i32,
    kind: Option<ByeKind>,
) -> QueryResult<()> {
    diesel::delete(
        entry_absences::table
            .filter(entry_absences::entry_id.eq(entry_id))
            .filter(entry_absences::round.eq(round)),
    )
    .execute(conn)?;
    if let Some(kind) = kind {
        diesel::insert_into(entry_absences::table)
            .values((
                entry_absences::entry_id.eq(entry_id),
                entry_absences::round.eq(round),
                entry_absences::kind.eq(Spelled(kind)),
            ))
            .execute(conn)?;
    }
    Ok(())
}

pub fn forbidden_pairs(conn: &mut DbConn, event_id: i64) -> QueryResult<Vec<(i64, i64)>> {
    forbidden_pairs::table
        .filter(forbidden_pairs::event_id.eq(event_id))
        .select((
            forbidden_pairs::first_entry_id,
            forbidden_pairs::second_entry_id,
        ))
        .load(conn)
}

pub fn add_forbidden_pair(
    conn: &mut DbConn,
    event_id: i64,
    first: i64,
    second: i64,
) -> QueryResult<()> {
    let (a, b) = if first < second {
        (first, second)
    } else {
        (second, first)
    };
    let exists = forbidden_pairs::table
        .filter(forbidden_pairs::event_id.eq(event_id))
        .filter(forbidden_pairs::first_entry_id.eq(a))
        .filter(forbidden_pairs::second_entry_id.eq(b))
        .count()
        .get_result::<i64>(conn)?;
    if exists == 0 {
        diesel::insert_into(forbidden_pairs::table)
            .values((
                forbidden_pairs::event_id.eq(event_id),
                forbidden_pairs::first_entry_id.eq(a),
                forbidden_pairs::second_entry_id.eq(b),
            ))
            .execute(conn)?;
    }
    Ok(())
}

/// Removes a forbidden pair (in either order); whether there was one.
pub fn remove_forbidden_pair(
    conn: &mut DbConn,
    event_id: i64,
    first: i64,
    second: i64,
) -> QueryResult<bool> {
    let (a, b) = (first.min(second), first.max(second));
    let removed = diesel::delete(
        forbidden_pairs::table
            .filter(forbidden_pairs::event_id.eq(event_id))
            .filter(forbidden_pairs::first_entry_id.eq(a))
            .filter(forbidden_pairs::second_entry_id.eq(b)),
    )
    .execute(conn)?;
    Ok(removed > 0)
}

// --- rounds and pairings ------------------------------------------------------------------

pub fn rounds(conn: &mut DbConn, event_id: i64) -> QueryResult<Vec<Round>> {
    rounds::table
        .filter(rounds::event_id.eq(event_id))
        .order(rounds::number)
        .select(Round::as_select())
        .load(conn)
}

pub fn insert_round(
    conn: &mut DbConn,
    event_id: i64,
    number: i32,
    at: NaiveDateTime,
) -> QueryResult<Round> {
    diesel::insert_into(rounds::table)
        .values((
            rounds::event_id.eq(event_id),
            rounds::number.eq(number),
            rounds::published.eq(false),
            rounds::paired_at.eq(at),
        ))
        .returning(rounds::all_columns)
        .get_result(conn)
}

pub fn delete_round(conn: &mut DbConn, round_id: i64) -> QueryResult<()> {
    diesel::delete(pairings::table.filter(pairings::round_id.eq(round_id))).execute(conn)?;
    diesel::delete(rounds::table.find(round_id))
        .execute(conn)
        .map(|_| ())
}

pub fn publish_round(conn: &mut DbConn, round_id: i64, at: NaiveDateTime) -> QueryResult<()> {
    diesel::update(rounds::table.find(round_id))
        .set((
            rounds::published.eq(true),
            rounds::published_at.eq(Some(at)),
        ))
        .execute(conn)
        .map(|_| ())
}

pub fn insert_pairings(conn: &mut DbConn, new: &[NewPairing]) -> QueryResult<()> {
    for pairing in new {
        insert_pairing(conn, pairing)?;
    }
    Ok(())
}

pub fn insert_pairing(conn: &mut DbConn, pairing: &NewPairing) -> QueryResult<()> {
    diesel::insert_into(pairings::table)
        .values((
            pairings::round_id.eq(pairing.round_id),
            pairings::board.eq(pairing.board),
            pairings::white_entry_id.eq(pairing.white_entry_id),
            pairings::black_entry_id.eq(pairing.black_entry_id),
            pairings::bye.eq(pairing.bye.map(Spelled)),
            pairings::result.eq(pairing.result.map(Spelled)),
        ))
        .execute(conn)
        .map(|_| ())
}

/// Every pairing of the event with its round number.
pub fn pairings(conn: &mut DbConn, event_id: i64) -> QueryResult<Vec<(i32, Pairing)>> {
    pairings::table
        .inner_join(rounds::table)
        .filter(rounds::event_id.eq(event_id))
        .order((rounds::number, pairings::board))
        .select((rounds::number, Pairing::as_select()))
        .load(conn)
}

/// The boards of one round.
pub fn pairings_of_round(conn: &mut DbConn, round_id: i64) -> QueryResult<Vec<Pairing>> {
    pairings::table
        .filter(pairings::round_id.eq(round_id))
        .order(pairings::board)
        .select(Pairing::as_select())
        .load(conn)
}

/// A pairing with the event it belongs to.
pub fn pairing_with_event(
    conn: &mut DbConn,
    pairing_id: i64,
) -> QueryResult<Option<(Pairing, Round)>> {
    pairings::table
        .inner_join(rounds::table)
        .filter(pairings::id.eq(pairing_id))
        .select((Pairing::as_select(), Round::as_select()))
        .first(conn)
        .optional()
}

pub fn set_result(
    conn: &mut DbConn,
    pairing_id: i64,
    result: Option<ResultCode>,
) -> QueryResult<()> {
    diesel::update(pairings::table.find(pairing_id))
        .set(pairings::result.eq(result.map(Spelled)))
        .execute(conn)
        .map(|_| ())
}

/// Keeps a change of a board's result in the event's audit trail; `game_no` names the game
/// of a micro-match it was made in (`None`: the board's one result).
pub fn record_result_change(
    conn: &mut DbConn,
    pairing_id: i64,
    game_no: Option<i32>,
    user_id: i64,
    at: NaiveDateTime,
    old: Option<ResultCode>,
    new: Option<ResultCode>,
) -> QueryResult<()> {
    diesel::insert_into(result_changes::table)
        .values((
            result_changes::pairing_id.eq(pairing_id),
            result_changes::user_id.eq(user_id),
            result_changes::changed_at.eq(at),
            result_changes::old_result.eq(old.map(Spelled)),
            result_changes::new_result.eq(new.map(Spelled)),
            result_changes::game_no.eq(game_no),
        ))
        .execute(conn)
        .map(|_| ())
}

pub fn result_changes(conn: &mut DbConn, event_id: i64) -> QueryResult<Vec<ResultChange>> {
    result_changes::table
        .inner_join(pairings::table.inner_join(rounds::table))
        .filter(rounds::event_id.eq(event_id))
        .order(result_changes::id)
        .select(ResultChange::as_select())
        .load(conn)
}
