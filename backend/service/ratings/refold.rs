//! Bringing stored ratings up to date from the first instant a change affects, from the
//! stored states before it, in bounded windows.
//!
//! A write that changes what counts stores the change in `rated_results` and asks for a
//! refold of its variant from the first instant it affects (`counted::sync`,
//! `store::rating_catchup::request`), and commits. Right after its commit the write runs
//! one [`step`] (before it answers): a result of the running event affects the last few
//! hours of the variant, which one window covers, so whoever reads ratings after it reads
//! them current. A correction years back asks for everything after it: more than one
//! window of at most [`WINDOW_RESULTS`] results, so the write leaves it all to the worker
//! (`super::worker`), which continues window by window, each in a short write transaction
//! of its own, so no other write waits for more than one window. Meanwhile
//! `rating_variants.stale_from` says how far the refold has got, and pages say the
//! ratings are being updated.
//!
//! A window `[from, to)` rewrites exactly the steps standing in it (`period_at`): the
//! Glicko-2 games whose result became final in it and the Elo periods whose last result
//! did. Each player starts from their last step before `from` (its row keeps the whole
//! state), or their imported start. The result equals a recompute from scratch, which the
//! property test in `tests/integration/ratings_incremental.rs` asserts after every change.
use std::collections::{BTreeMap, BTreeSet, HashMap};

use chrono::NaiveDateTime;
use damka_domain::ratings::ledger::{self, LedgerInput, PlayerLedger, StatesBefore, Window};
use damka_engine::Variant;

use super::counted::{self, PeriodKey};
use super::recompute::{self, EMPTY_DIGEST, GLICKO, change_row, micros, rating_row};
use crate::service::AppResult;
use crate::store::rated_results::{self as rated, RatedResultRow};
use crate::store::rating_catchup::{self as catchup, Progress};
use crate::store::ratings::{self as stored, ChangeRow};
use crate::store::{self, DbConn, QueryResult, settings};
use damka_domain::vocabulary::{RatingSystem, Spelling};

/// About how many results one window refolds: a few tens of milliseconds of one write
/// transaction (README, "Ratings at federation scale").
pub const WINDOW_RESULTS: i64 = 500;

/// Site setting: the results a window refolds, when not [`WINDOW_RESULTS`] (a slower disk
/// wants smaller windows; the tests use tiny ones to exercise the catch-up).
pub const SETTING_WINDOW_RESULTS: &str = "ratings.window_results";

/// The window size in force.
fn window_size(conn: &mut DbConn) -> QueryResult<i64> {
    Ok(settings::get(conn, SETTING_WINDOW_RESULTS)?
        .and_then(|text| text.parse::<i64>().ok())
        .filter(|&n| n > 0)
        .unwrap_or(WINDOW_RESULTS))
}

/// Where a variant's ratings stand after a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CatchUp {
    /// Every committed change is in the stored ratings.
    Current,
    /// Refolded up to this instant; more windows to go.
    Behind(NaiveDateTime),
    /// Another instance holds the variant's catch-up right now.
    Busy,
}

/// One window of the variant's catch-up, in a write transaction of its own. With `wait`
/// it waits for another instance's window to end; without, it leaves the variant to it.
pub fn step(conn: &mut DbConn, variant: Variant, wait: bool) -> AppResult<CatchUp> {
    step_with(conn, variant, wait, Reach::AnyWindow)
}

/// What a step may refold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// The next window, whatever follows (the worker, the command line).
    AnyWindow,
    /// Only a window that brings the variant up to date; a longer catch-up is recorded
    /// and left to the worker at once (a write's answer, which must not wait for it).
    LastWindowOnly,
}

/// [`step`], refolding only what `reach` allows.
pub fn step_with(
    conn: &mut DbConn,
    variant: Variant,
    wait: bool,
    reach: Reach,
) -> AppResult<CatchUp> {
    conn.write_transaction(|conn| {
        let results = window_size(conn)?;
        let Some(progress) = catchup::claim(conn, variant, wait)? else {
            return Ok(CatchUp::Busy);
        };
        let (asked, last_request) = catchup::pending(conn, variant)?;
        if let Some(id) = last_request {
            catchup::take(conn, variant, id)?;
        }
        let Some(from) = [progress.from, asked].into_iter().flatten().min() else {
            return Ok(CatchUp::Current);
        };
        let to = window_end(conn, variant, from, results)?;
        if to.is_some() && reach == Reach::LastWindowOnly {
            let behind = Progress {
                from: Some(from),
                since: Some(progress.since.unwrap_or_else(store::now)),
            };
            catchup::set_progress(conn, variant, behind)?;
            return Ok(CatchUp::Behind(from));
        }
        refold_window(conn, variant, from, to)?;
        let next = match to {
            None => Progress {
                from: None,
                since: None,
            },
            Some(to) => Progress {
                from: Some(to),
                since: Some(progress.since.unwrap_or_else(store::now)),
            },
        };
        catchup::set_progress(conn, variant, next)?;
        Ok(next.from.map_or(CatchUp::Current, CatchUp::Behind))
    })
}

/// Steps until the variant is current (the command line, tests, start-up).
pub fn until_current(conn: &mut DbConn, variant: Variant) -> AppResult<()> {
    while step(conn, variant, true)? != CatchUp::Current {}
    Ok(())
}

/// Where the window from `from` ends: after about `results` results, at an instant
/// later than `from`; `None` when that reaches the last result.
fn window_end(
    conn: &mut DbConn,
    variant: Variant,
    from: NaiveDateTime,
    results: i64,
) -> QueryResult<Option<NaiveDateTime>> {
    match rated::instant_after(conn, variant, from, results)? {
        None => Ok(None),
        Some(at) if at > from => Ok(Some(at)),
        Some(_) => rated::next_instant(conn, variant, from),
    }
}

/// The results a window reads: those in it, and every result of an event or month whose
/// Elo period ends in it (a period is rated as a whole).
fn window_results(
    conn: &mut DbConn,
    variant: Variant,
    from: NaiveDateTime,
    to: Option<NaiveDateTime>,
) -> QueryResult<Vec<RatedResultRow>> {
    let in_window = rated::between(conn, variant, from, to)?;
    let periods: BTreeSet<PeriodKey> = in_window.iter().map(PeriodKey::of).collect();
    let mut rows: BTreeMap<(bool, i64, i32), RatedResultRow> =
        in_window.into_iter().map(|row| (row.key(), row)).collect();
    for key in periods {
        let whole = match key {
            PeriodKey::Event(event) => rated::of_event(conn, variant, event)?,
            PeriodKey::Month(month) => {
                let (start, end) = counted::month_bounds(month);
                rated::standalone_between(conn, variant, start, end)?
            }
        };
        for row in whole {
            rows.entry(row.key()).or_insert(row);
        }
    }
    Ok(rows.into_values().collect())
}

/// The last step before the window of each player and system: where they start.
type Kept = HashMap<(i64, RatingSystem), ChangeRow>;

/// Refolds the window `[from, to)` and stores what differs.
fn refold_window(
    conn: &mut DbConn,
    variant: Variant,
    from: NaiveDateTime,
    to: Option<NaiveDateTime>,
) -> AppResult<()> {
    let rows = window_results(conn, variant, from, to)?;
    let players: Vec<i64> = rows
        .iter()
        .flat_map(|row| [row.white_id, row.black_id])
        .collect::<BTreeSet<i64>>()
        .into_iter()
        .collect();
    let mut kept = Kept::new();
    let mut before = StatesBefore::default();
    for &player in &players {
        for system in RatingSystem::ALL.iter().copied() {
            let Some(row) = stored::last_change_before(conn, player, variant, system, from)? else {
                continue;
            };
            let change = recompute::change_of(&row);
            match system {
                RatingSystem::Glicko2 => {
                    before
                        .glicko
                        .insert(player, ledger::glicko_after(&change, &GLICKO));
                }
                RatingSystem::Elo => {
                    if let Some(resume) = ledger::elo_after(&change) {
                        before.elo.insert(player, resume);
                    }
                }
            }
            kept.insert((player, system), row);
        }
    }
    let input = LedgerInput {
        results: rows.iter().map(counted::result_of).collect(),
        ..starts_of(conn, variant, &players)?
    };
    let window = Window {
        from: micros(from),
        to: to.map(micros),
    };
    let ledger = ledger::refold(&input, window, &before, &GLICKO);
    let periods = periods_ending_in(&rows, window);
    for system in RatingSystem::ALL.iter().copied() {
        let lines = ledger.of(system.domain());
        let target = Target {
            variant,
            system,
            from,
            to,
        };
        let also = match system {
            RatingSystem::Elo => steps_of_periods(conn, variant, &periods)?,
            RatingSystem::Glicko2 => Vec::new(),
        };
        write_system(conn, &target, lines, &kept, also)?;
    }
    move_periods(conn, variant, &periods)?;
    Ok(())
}

/// The imported starts and birth years of these players.
fn starts_of(conn: &mut DbConn, variant: Variant, players: &[i64]) -> QueryResult<LedgerInput> {
    let elo_starts = recompute::elo_starts_of_rows(stored::elo_starts_of(conn, variant, players)?);
    let glicko_starts =
        recompute::glicko_starts_of_rows(stored::glicko_starts_of(conn, variant, players)?);
    let birth_years = stored::birth_years_of(conn, players)?
        .into_iter()
        .filter_map(|(player, year)| Some((player, year?)))
        .collect();
    Ok(LedgerInput {
        results: Vec::new(),
        elo_starts,
        glicko_starts,
        birth_years,
    })
}

/// The window being written.
struct Target {
    variant: Variant,
    system: RatingSystem,
    from: NaiveDateTime,
    to: Option<NaiveDateTime>,
}

/// Stores one system's steps of the window: each player's new steps numbered after their
/// last step before it, and the steps of the window nobody has any more deleted.
fn write_system(
    conn: &mut DbConn,
    target: &Target,
    lines: &BTreeMap<i64, PlayerLedger>,
    kept: &Kept,
    also: Vec<ChangeRow>,
) -> AppResult<()> {
    let Target {
        variant,
        system,
        from,
        to,
    } = *target;
    let mut stored_steps: BTreeMap<i64, Vec<ChangeRow>> = BTreeMap::new();
    for row in stored::changes_between(conn, variant, system, from, to)?
        .into_iter()
        .chain(also)
    {
        stored_steps.entry(row.player_id).or_default().push(row);
    }
    for steps in stored_steps.values_mut() {
        steps.sort_by_key(|row| row.seq);
        steps.dedup_by_key(|row| row.seq);
    }
    let mut inserts: Vec<ChangeRow> = Vec::new();
    for (&player, line) in lines {
        if line.changes.is_empty() {
            continue;
        }
        let base = kept.get(&(player, system));
        let mut seq = base.map_or(0, |row| row.seq);
        let mut running = base.map_or(EMPTY_DIGEST, |row| row.digest);
        let new: Vec<ChangeRow> = line
            .changes
            .iter()
            .map(|change| {
                seq += 1;
                let row = change_row(player, variant, system, seq, change, running);
                running = row.digest;
                row
            })
            .collect();
        let old = stored_steps.remove(&player).unwrap_or_default();
        // An open window holds every later step; a bounded one leaves older steps after
        // it, which are all rewritten when the refold gets there.
        let same = if to.is_none() {
            old.iter()
                .zip(&new)
                .take_while(|(a, b)| same_step(a, b))
                .count()
        } else {
            0
        };
        let first_seq = base.map_or(0, |row| row.seq) + 1 + i32::try_from(same).unwrap_or(0);
        if same < old.len().max(new.len()) || to.is_some() {
            stored::delete_changes_from(conn, player, variant, system, first_seq)?;
            inserts.extend_from_slice(&new[same..]);
        }
        if let Some(standing) = &line.standing {
            let row = rating_row(player, variant, system, standing, new.last());
            store_rating(conn, &row)?;
        }
    }
    stored::insert_changes(conn, &inserts)?;
    // Steps in the window of players who have none there any more.
    for (player, old) in stored_steps {
        for row in &old {
            stored::delete_change(conn, player, variant, system, row.seq)?;
        }
        let own = starts_of(conn, variant, &[player])?;
        refresh_rating(conn, variant, system, player, &own)?;
    }
    Ok(())
}

/// Whether a stored step is the refolded one, wherever its period stands: an Elo period
/// moves with every result of the event (`period_at`), which [`move_periods`] writes in
/// one statement per period rather than by rewriting every player's step.
fn same_step(stored: &ChangeRow, refolded: &ChangeRow) -> bool {
    *stored
        == ChangeRow {
            period_at: stored.period_at,
            ..refolded.clone()
        }
}

/// The Elo periods that end in the window, with where they end.
fn periods_ending_in(rows: &[RatedResultRow], window: Window) -> Vec<(PeriodKey, NaiveDateTime)> {
    let mut ends: BTreeMap<PeriodKey, NaiveDateTime> = BTreeMap::new();
    for row in rows {
        let end = ends.entry(PeriodKey::of(row)).or_insert(row.at);
        *end = (*end).max(row.at);
    }
    ends.into_iter()
        .filter(|(_, end)| window.holds(micros(*end)))
        .collect()
}

/// The stored Elo steps of the periods refolded: a step of such a period whose period
/// moved earlier may still say where the period stood before, after the window.
fn steps_of_periods(
    conn: &mut DbConn,
    variant: Variant,
    periods: &[(PeriodKey, NaiveDateTime)],
) -> QueryResult<Vec<ChangeRow>> {
    let mut steps = Vec::new();
    for (key, _) in periods {
        steps.extend(match *key {
            PeriodKey::Event(event) => stored::elo_steps_of_event(conn, variant, event)?,
            PeriodKey::Month(month) => {
                let (start, next) = counted::month_bounds(month);
                stored::elo_steps_of_month(conn, variant, start, next)?
            }
        });
    }
    Ok(steps)
}

/// Sets where each refolded Elo period stands on every step of it.
fn move_periods(
    conn: &mut DbConn,
    variant: Variant,
    periods: &[(PeriodKey, NaiveDateTime)],
) -> QueryResult<()> {
    for &(key, end) in periods {
        match key {
            PeriodKey::Event(event) => stored::move_event_period(conn, variant, event, end)?,
            PeriodKey::Month(month) => {
                let (start, next) = counted::month_bounds(month);
                stored::move_month_period(conn, variant, start, next, end)?;
            }
        }
    }
    Ok(())
}

/// Replaces a rating row when it differs.
fn store_rating(conn: &mut DbConn, row: &stored::RatingRow) -> QueryResult<()> {
    let current = stored::current(conn, row.player_id, row.variant, row.system)?;
    if current.as_ref() != Some(row) {
        if current.is_some() {
            stored::delete_rating(conn, row.player_id, row.variant, row.system)?;
        }
        stored::insert_rating(conn, row)?;
    }
    Ok(())
}

/// Sets a player's rating row from their last stored step, or their imported start, or
/// removes it when they have neither.
pub fn refresh_rating(
    conn: &mut DbConn,
    variant: Variant,
    system: RatingSystem,
    player: i64,
    input: &LedgerInput,
) -> QueryResult<()> {
    let last = stored::latest_change(conn, player, variant, system)?;
    let standing = match (&last, system) {
        (Some(row), RatingSystem::Glicko2) => {
            Some(ledger::glicko_after(&recompute::change_of(row), &GLICKO))
        }
        (Some(row), RatingSystem::Elo) => ledger::elo_after(&recompute::change_of(row))
            .map(|resume| ledger::elo_standing(&resume.state, resume.last_played)),
        (None, RatingSystem::Glicko2) => input
            .glicko_starts
            .get(&player)
            .map(|start| ledger::glicko_standing(start.glicko, start.games, None, &GLICKO)),
        (None, RatingSystem::Elo) => input.elo_starts.get(&player).map(|start| {
            ledger::elo_standing(
                &damka_domain::ratings::elo::EloState::rated(start.rating, start.games),
                None,
            )
        }),
    };
    match standing {
        Some(standing) => store_rating(
            conn,
            &rating_row(player, variant, system, &standing, last.as_ref()),
        ),
        None => {
            if stored::current(conn, player, variant, system)?.is_some() {
                stored::delete_rating(conn, player, variant, system)?;
            }
            Ok(())
        }
    }
}

/// Refreshes a player's rating rows in both systems from what is stored (their imported
/// start changed, their results moved away).
pub fn refresh_player(conn: &mut DbConn, variant: Variant, player: i64) -> QueryResult<()> {
    let input = starts_of(conn, variant, &[player])?;
    for system in RatingSystem::ALL.iter().copied() {
        refresh_rating(conn, variant, system, player, &input)?;
    }
    Ok(())
}
