//! Keeping `rated_results`, the fold's input, equal to what the boards and games say: a
//! write that changes what counts re-derives its scope (a board, an event, a game) and
//! stores the difference, and learns from it the first instant whose ratings it changes.
use std::collections::{BTreeMap, BTreeSet};

use chrono::{NaiveDate, NaiveDateTime};
use damka_domain::ratings::Score;
use damka_domain::ratings::ledger::{CountedResult, Month, Origin};
use damka_engine::Variant;

use super::derive::{self, instant, micros};
use crate::store::rated_results::{self as rated, RatedResultRow};
use crate::store::ratings::Scope;
use crate::store::{DbConn, QueryResult};

/// A counted result as the row that stores it.
pub fn row_of(variant: Variant, result: &CountedResult) -> RatedResultRow {
    let (standalone, source_id, event_id) = match result.origin {
        Origin::Board {
            event_id,
            pairing_id,
            ..
        } => (false, pairing_id, Some(event_id)),
        Origin::Standalone { game_id } => (true, game_id, None),
    };
    RatedResultRow {
        variant,
        standalone,
        source_id,
        game_no: result.game_no,
        at: instant(result.at),
        event_id,
        game_id: result.origin.game_id(),
        white_id: result.white,
        black_id: result.black,
        white_half_points: i32::try_from(result.white_score.half_points().0).unwrap_or(0),
    }
}

/// A stored counted result as the fold's.
pub fn result_of(row: &RatedResultRow) -> CountedResult {
    let origin = if row.standalone {
        Origin::Standalone {
            game_id: row.source_id,
        }
    } else {
        Origin::Board {
            event_id: row.event_id.unwrap_or_default(),
            pairing_id: row.source_id,
            game_id: row.game_id,
        }
    };
    CountedResult {
        at: micros(row.at),
        month: derive::month_of(row.at),
        origin,
        game_no: row.game_no,
        white: row.white_id,
        black: row.black_id,
        white_score: match row.white_half_points {
            0 => Score::Loss,
            1 => Score::Draw,
            _ => Score::Win,
        },
    }
}

/// An Elo period: an event, or a month of standalone games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum PeriodKey {
    Event(i64),
    Month(Month),
}

impl PeriodKey {
    pub fn of(row: &RatedResultRow) -> PeriodKey {
        match (row.standalone, row.event_id) {
            (false, Some(event)) => PeriodKey::Event(event),
            _ => PeriodKey::Month(derive::month_of(row.at)),
        }
    }
}

/// The first instant of a month and of the next.
pub fn month_bounds(month: Month) -> (NaiveDateTime, NaiveDateTime) {
    let start = |year: i32, month: u32| {
        NaiveDate::from_ymd_opt(year, month, 1)
            .and_then(|d| d.and_hms_opt(0, 0, 0))
            .unwrap_or_default()
    };
    let next = if month.month >= 12 {
        start(month.year + 1, 1)
    } else {
        start(month.year, month.month + 1)
    };
    (start(month.year, month.month), next)
}

/// Where a period stands in the fold now: the instant of its last counted result.
fn period_end(
    conn: &mut DbConn,
    variant: Variant,
    key: PeriodKey,
) -> QueryResult<Option<NaiveDateTime>> {
    match key {
        PeriodKey::Event(event) => rated::last_of_event(conn, variant, event),
        PeriodKey::Month(month) => {
            let (from, to) = month_bounds(month);
            rated::last_standalone_between(conn, variant, from, to)
        }
    }
}

/// What `rated_results` holds for a scope now.
fn stored_of(
    conn: &mut DbConn,
    variant: Variant,
    scope: Scope,
) -> QueryResult<Vec<RatedResultRow>> {
    match scope {
        Scope::Variant => rated::all(conn, variant),
        Scope::Event(event) => rated::of_event(conn, variant, event),
        Scope::Pairing { pairing_id, .. } => rated::of_pairing(conn, variant, pairing_id),
        Scope::Game(game) => rated::of_game(conn, variant, game),
    }
}

/// Brings `rated_results` in line with the boards and games of `scope` and returns the
/// first instant whose ratings the difference changes (`None`: nothing changed): the
/// earliest of the results removed, changed or added and of where their Elo periods stood
/// before and stand after (a period's steps are stored at its last result).
pub fn sync(
    conn: &mut DbConn,
    variant: Variant,
    scope: Scope,
) -> QueryResult<Option<NaiveDateTime>> {
    let derived: BTreeMap<(bool, i64, i32), RatedResultRow> =
        derive::counted_results(conn, variant, scope)?
            .iter()
            .map(|result| {
                let row = row_of(variant, result);
                (row.key(), row)
            })
            .collect();
    let stored: BTreeMap<(bool, i64, i32), RatedResultRow> = stored_of(conn, variant, scope)?
        .into_iter()
        .map(|row| (row.key(), row))
        .collect();
    let removed: Vec<&RatedResultRow> = stored
        .iter()
        .filter(|(key, row)| derived.get(key) != Some(row))
        .map(|(_, row)| row)
        .collect();
    let added: Vec<&RatedResultRow> = derived
        .iter()
        .filter(|(key, row)| stored.get(key) != Some(row))
        .map(|(_, row)| row)
        .collect();
    if removed.is_empty() && added.is_empty() {
        return Ok(None);
    }
    let periods: BTreeSet<PeriodKey> = removed
        .iter()
        .chain(&added)
        .map(|row| PeriodKey::of(row))
        .collect();
    let mut instants: Vec<NaiveDateTime> = removed.iter().chain(&added).map(|row| row.at).collect();
    for &key in &periods {
        instants.extend(period_end(conn, variant, key)?);
    }
    for row in &removed {
        rated::delete(conn, row)?;
    }
    for row in &added {
        rated::insert(conn, row)?;
    }
    for &key in &periods {
        instants.extend(period_end(conn, variant, key)?);
    }
    Ok(instants.into_iter().min())
}
