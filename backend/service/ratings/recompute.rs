//! Recomputing a variant's ratings from its results, and comparing with what is stored.
//!
//! What counts: every played result (1-0, ½-½, 0-1) on a published board of a rated event
//! of the variant, whether an arbiter entered it or its game ended on the site; and every
//! finished rated standalone game of the variant with two moves by each side. Forfeits
//! (`+/-`, `-/+`, `-/-`), byes, boards without a result, unrated events and games, and
//! games still going are left out. A board's result counts from the moment it is entered:
//! the instant it became final is its last change (`result_changes`), or, for a result
//! that came with an imported TRF and so has no change, the round's publication; a
//! standalone game's is its end.
//!
//! Finishing or reopening an event changes nothing here: a result counts from the moment
//! it stands on a published board, so a finished event's ratings are those of its last
//! result, and a reopened event's correction is a result change like any other (it
//! recomputes). The standings of an unfinished event move as its results come in, and so
//! do its players' ratings.
//!
//! When: this from-scratch recompute is `damka ratings recompute` (and the demo seeder's,
//! and the first start of a database from before ratings), and the proof: `check`
//! compares the stored ratings with it. Writes do not call it. A write that changes what
//! counts (a board's result, an event's `rated` flag, a standalone game's result, an
//! import of a TRF or of starting ratings, a birth year, which the Elo K factor reads)
//! stores the changed counted results and asks for a refold from the first instant they
//! affect (`super::counted`, `super::refold`), which starts from the stored states before
//! that instant and gives exactly what this recompute gives. Only what differs from the
//! stored rows is written here too, which after a rebuild of an unchanged variant is
//! nothing; `damka ratings recompute --check` verifies the two agree.
use std::collections::{BTreeMap, HashMap};

use damka_domain::ratings::elo::{EloRating, EloState, RatedRecord, UnratedRecord};
use damka_domain::ratings::glicko2::{Glicko, GlickoParams};
use damka_domain::ratings::ledger::{
    self, Change, EloStart, GlickoStart, Ledger, LedgerInput, PlayerLedger, Standing,
};
use damka_domain::tournament::HalfPoints;
use damka_engine::Variant;

use super::counted;
use crate::service::AppResult;
use crate::store::rated_results;
use crate::store::rating_catchup as catchup;
use crate::store::ratings::{self as stored, ChangeRow, RatingRow, Scope};
use crate::store::{DbConn, QueryResult};
use damka_domain::vocabulary::{RatingSystem, Spelling};

/// The rating systems' constants: lidraughts' Glicko-2.
pub const GLICKO: GlickoParams = GlickoParams::LIDRAUGHTS;

pub use super::derive::{counted_results, instant, micros, month_of, white_score};

/// Everything a recompute of the variant reads, from the database.
pub fn gather(conn: &mut DbConn, variant: Variant) -> QueryResult<LedgerInput> {
    let mut input = starts_and_birth_years(conn, variant)?;
    input.results = counted_results(conn, variant, Scope::Variant)?;
    Ok(input)
}

/// The imported starts of the variant and every known birth year.
fn starts_and_birth_years(conn: &mut DbConn, variant: Variant) -> QueryResult<LedgerInput> {
    let elo_starts = elo_starts(conn, variant)?;
    let glicko_starts = glicko_starts(conn, variant)?;
    let birth_years = stored::birth_years(conn)?
        .into_iter()
        .filter_map(|(player, year)| year.map(|year| (player, year)))
        .collect();
    Ok(LedgerInput {
        results: Vec::new(),
        elo_starts,
        glicko_starts,
        birth_years,
    })
}

/// The imported starting Elo ratings, by player.
fn elo_starts(conn: &mut DbConn, variant: Variant) -> QueryResult<HashMap<i64, EloStart>> {
    Ok(elo_starts_of_rows(stored::elo_starts(conn, variant)?))
}

/// Stored Elo starts, (player, rating, games), by player.
pub fn elo_starts_of_rows(rows: Vec<(i64, i32, i32)>) -> HashMap<i64, EloStart> {
    rows.into_iter()
        .map(|(player, rating, games)| {
            (
                player,
                EloStart {
                    rating: EloRating(u32::try_from(rating).unwrap_or(0)),
                    games: u32::try_from(games).unwrap_or(0),
                },
            )
        })
        .collect()
}

/// The imported starting Glicko-2 ratings, by player.
fn glicko_starts(conn: &mut DbConn, variant: Variant) -> QueryResult<HashMap<i64, GlickoStart>> {
    Ok(glicko_starts_of_rows(stored::glicko_starts(conn, variant)?))
}

/// Stored Glicko-2 starts, by player.
pub fn glicko_starts_of_rows(rows: Vec<stored::GlickoStartRow>) -> HashMap<i64, GlickoStart> {
    rows.into_iter()
        .map(|row| {
            (
                row.player_id,
                GlickoStart {
                    glicko: Glicko {
                        rating: row.rating,
                        deviation: row.deviation,
                        volatility: row.volatility,
                    },
                    games: u32::try_from(row.games).unwrap_or(0),
                },
            )
        })
        .collect()
}

/// A variant's ratings as rows, the way they are stored.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Rows {
    /// By (player, system).
    pub ratings: BTreeMap<(i64, RatingSystem), RatingRow>,
    /// By (player, system), each in step order.
    pub changes: BTreeMap<(i64, RatingSystem), Vec<ChangeRow>>,
}

fn count(n: u32) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// FNV-1a, 64 bits: a digest that is the same on every machine and every run.
struct Fnv(u64);

impl Fnv {
    fn feed(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 ^= u64::from(*byte);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn option(&mut self, value: Option<[u8; 8]>) {
        match value {
            Some(bytes) => {
                self.feed(&[1]);
                self.feed(&bytes);
            }
            None => self.feed(&[0]),
        }
    }
}

/// The digest of a history: every field of every step, so that two histories with the same
/// digest and length are, for all practical purposes, the same.
pub fn digest(steps: &[ChangeRow]) -> i64 {
    steps.iter().fold(EMPTY_DIGEST, digest_after)
}

/// The digest of no step.
pub const EMPTY_DIGEST: i64 = i64::from_le_bytes(0xcbf2_9ce4_8422_2325_u64.to_le_bytes());

/// The digest of a history continued by one step from the digest of the steps before it:
/// what each stored step keeps, so that a refold continues a history without reading it.
pub fn digest_after(running: i64, step: &ChangeRow) -> i64 {
    let mut fnv = Fnv(u64::from_le_bytes(running.to_le_bytes()));
    fnv.feed(&step.seq.to_le_bytes());
    fnv.feed(&micros(step.at).to_le_bytes());
    for value in [
        step.rating_before,
        step.rating_after,
        step.deviation,
        step.volatility,
    ] {
        fnv.option(value.map(|v| v.to_bits().to_le_bytes()));
    }
    fnv.feed(&step.games.to_le_bytes());
    for id in [step.event_id, step.game_id] {
        fnv.option(id.map(i64::to_le_bytes));
    }
    fnv.option(step.performance.map(|p| i64::from(p).to_le_bytes()));
    fnv.feed(&step.step_games.to_le_bytes());
    fnv.feed(&step.step_half_points.to_le_bytes());
    i64::from_le_bytes(fnv.0.to_le_bytes())
}

/// One step as the row that stores it, numbered `seq`, continuing the digest `running`.
pub fn change_row(
    player: i64,
    variant: Variant,
    system: RatingSystem,
    seq: i32,
    change: &Change,
    running: i64,
) -> ChangeRow {
    let (reached_2400, unrated_opponents, unrated_half_points) = match change.elo {
        Some(EloState::Rated(record)) => (record.reached_2400, None, None),
        Some(EloState::Unrated(record)) => (
            false,
            Some(i64::try_from(record.opponents_rating_sum).unwrap_or(i64::MAX)),
            Some(count(record.score.0)),
        ),
        None => (false, None, None),
    };
    let mut row = ChangeRow {
        player_id: player,
        variant,
        system,
        seq,
        at: instant(change.at),
        rating_before: change.before,
        rating_after: change.after,
        deviation: change.deviation,
        volatility: change.volatility,
        games: count(change.games),
        event_id: change.event_id,
        game_id: change.game_id,
        performance: change.performance.map(count),
        step_games: count(change.step_games),
        step_half_points: count(change.step_half_points),
        period_at: instant(change.period_at),
        elo_reached_2400: reached_2400,
        elo_unrated_opponents: unrated_opponents,
        elo_unrated_half_points: unrated_half_points,
        digest: 0,
    };
    row.digest = digest_after(running, &row);
    row
}

/// A stored step as the ledger's: what a refold starts from.
pub fn change_of(row: &ChangeRow) -> Change {
    let games = u32::try_from(row.games).unwrap_or(0);
    let elo = (row.system == RatingSystem::Elo).then(|| match row.rating_after {
        Some(rating) => EloState::Rated(RatedRecord {
            rating: EloRating(rating as u32),
            games,
            reached_2400: row.elo_reached_2400,
        }),
        None => EloState::Unrated(UnratedRecord {
            games,
            opponents_rating_sum: u64::try_from(row.elo_unrated_opponents.unwrap_or(0))
                .unwrap_or(0),
            score: HalfPoints(u32::try_from(row.elo_unrated_half_points.unwrap_or(0)).unwrap_or(0)),
        }),
    });
    Change {
        at: micros(row.at),
        before: row.rating_before,
        after: row.rating_after,
        deviation: row.deviation,
        volatility: row.volatility,
        games,
        event_id: row.event_id,
        game_id: row.game_id,
        performance: row.performance.and_then(|p| u32::try_from(p).ok()),
        step_games: u32::try_from(row.step_games).unwrap_or(0),
        step_half_points: u32::try_from(row.step_half_points).unwrap_or(0),
        period_at: micros(row.period_at),
        elo,
    }
}

/// A player's rating row: where they stand, after the history whose last step is `last`.
pub fn rating_row(
    player: i64,
    variant: Variant,
    system: RatingSystem,
    standing: &Standing,
    last: Option<&ChangeRow>,
) -> RatingRow {
    RatingRow {
        player_id: player,
        variant,
        system,
        rating: standing.rating,
        deviation: standing.deviation,
        volatility: standing.volatility,
        games: count(standing.games),
        provisional: standing.provisional,
        last_played: standing.last_played.map(instant),
        history_steps: last.map_or(0, |row| row.seq),
        history_digest: last.map_or(EMPTY_DIGEST, |row| row.digest),
    }
}

/// The ledger as the rows that store it.
pub fn rows_of(variant: Variant, ledger: &Ledger) -> Rows {
    let mut rows = Rows::default();
    for system in RatingSystem::ALL.iter().copied() {
        for (&player, PlayerLedger { standing, changes }) in ledger.of(system.domain()) {
            let mut running = EMPTY_DIGEST;
            let steps: Vec<ChangeRow> = changes
                .iter()
                .zip(1..)
                .map(|(c, seq)| {
                    let row = change_row(player, variant, system, seq, c, running);
                    running = row.digest;
                    row
                })
                .collect();
            if let Some(s) = standing {
                rows.ratings.insert(
                    (player, system),
                    rating_row(player, variant, system, s, steps.last()),
                );
            }
            if !steps.is_empty() {
                rows.changes.insert((player, system), steps);
            }
        }
    }
    rows
}

/// The variant's ratings computed from the database's results, not stored.
pub fn compute(conn: &mut DbConn, variant: Variant) -> AppResult<Rows> {
    let input = gather(conn, variant)?;
    Ok(rows_of(variant, &ledger::recompute(&input, &GLICKO)))
}

/// What is stored for the variant.
pub fn stored_rows(conn: &mut DbConn, variant: Variant) -> AppResult<Rows> {
    let mut rows = Rows::default();
    for row in stored::stored_ratings(conn, variant)? {
        rows.ratings.insert((row.player_id, row.system), row);
    }
    for row in stored::stored_changes(conn, variant)? {
        rows.changes
            .entry((row.player_id, row.system))
            .or_default()
            .push(row);
    }
    Ok(rows)
}

/// One way in which the stored ratings differ from a recompute.
#[derive(Debug, Clone, PartialEq)]
pub enum Difference {
    /// A player's current rating (either side `None`: missing there).
    Rating {
        player_id: i64,
        system: RatingSystem,
        stored: Option<RatingRow>,
        computed: Option<RatingRow>,
    },
    /// A player's history, from step `from_seq` on.
    History {
        player_id: i64,
        system: RatingSystem,
        from_seq: i32,
        stored_steps: usize,
        computed_steps: usize,
    },
}

fn describe_rating(row: &Option<RatingRow>) -> String {
    match row {
        None => "nothing".into(),
        Some(r) => format!(
            "rating {} rd {} volatility {} games {} provisional {} last played {} \
             history {} steps (digest {:016x})",
            r.rating.map_or("none".into(), |v| v.to_string()),
            r.deviation.map_or("none".into(), |v| v.to_string()),
            r.volatility.map_or("none".into(), |v| v.to_string()),
            r.games,
            r.provisional,
            r.last_played.map_or("never".into(), |t| t.to_string()),
            r.history_steps,
            r.history_digest,
        ),
    }
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Difference::Rating {
                player_id,
                system,
                stored,
                computed,
            } => write!(
                f,
                "player {player_id} {system}: stored {}; computed {}",
                describe_rating(stored),
                describe_rating(computed)
            ),
            Difference::History {
                player_id,
                system,
                from_seq,
                stored_steps,
                computed_steps,
            } => write!(
                f,
                "player {player_id} {system}: history differs from step {from_seq} \
                 (stored {stored_steps} steps, computed {computed_steps})"
            ),
        }
    }
}

/// Every difference between stored and computed rows, by player and system.
pub fn differences(stored: &Rows, computed: &Rows) -> Vec<Difference> {
    let mut found = Vec::new();
    let rating_keys: std::collections::BTreeSet<_> = stored
        .ratings
        .keys()
        .chain(computed.ratings.keys())
        .copied()
        .collect();
    for key in rating_keys {
        let (old, new) = (stored.ratings.get(&key), computed.ratings.get(&key));
        if old != new {
            found.push(Difference::Rating {
                player_id: key.0,
                system: key.1,
                stored: old.cloned(),
                computed: new.cloned(),
            });
        }
    }
    let change_keys: std::collections::BTreeSet<_> = stored
        .changes
        .keys()
        .chain(computed.changes.keys())
        .copied()
        .collect();
    for key in change_keys {
        let empty = Vec::new();
        let old = stored.changes.get(&key).unwrap_or(&empty);
        let new = computed.changes.get(&key).unwrap_or(&empty);
        found.extend(history_difference(key, old, new));
    }
    found
}

/// Where a stored history stops being the computed one, if it does.
fn history_difference(
    (player_id, system): (i64, RatingSystem),
    old: &[ChangeRow],
    new: &[ChangeRow],
) -> Option<Difference> {
    let same = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    (same < old.len() || same < new.len()).then(|| Difference::History {
        player_id,
        system,
        from_seq: count(u32::try_from(same).unwrap_or(u32::MAX)) + 1,
        stored_steps: old.len(),
        computed_steps: new.len(),
    })
}

/// The differences a write must make, found by reading the stored ratings only: a history
/// whose length and digest on its rating row are unchanged is taken as unchanged, and only
/// the histories whose digest differs are read. What was written by a recompute is found
/// this way; a history edited by hand (not its digest) is found by `differences`, which
/// `check` and the command line use.
fn differences_by_digest(
    conn: &mut DbConn,
    variant: Variant,
    computed: &Rows,
) -> QueryResult<Vec<Difference>> {
    let stored_ratings: BTreeMap<(i64, RatingSystem), RatingRow> =
        stored::stored_ratings(conn, variant)?
            .into_iter()
            .map(|row| ((row.player_id, row.system), row))
            .collect();
    let keys: std::collections::BTreeSet<_> = stored_ratings
        .keys()
        .chain(computed.ratings.keys())
        .copied()
        .collect();
    let summary = |row: Option<&RatingRow>| {
        row.map_or((0, digest(&[])), |r| (r.history_steps, r.history_digest))
    };
    let mut found = Vec::new();
    for key in keys {
        let (old, new) = (stored_ratings.get(&key), computed.ratings.get(&key));
        if old != new {
            found.push(Difference::Rating {
                player_id: key.0,
                system: key.1,
                stored: old.cloned(),
                computed: new.cloned(),
            });
        }
        if summary(old) != summary(new) {
            let stored_history = stored::history(conn, key.0, variant, key.1)?;
            let empty = Vec::new();
            let computed_history = computed.changes.get(&key).unwrap_or(&empty);
            found.extend(history_difference(key, &stored_history, computed_history));
        }
    }
    Ok(found)
}

/// Writes what `differences` found, so that the stored rows become `computed`.
fn apply(
    conn: &mut DbConn,
    variant: Variant,
    computed: &Rows,
    found: &[Difference],
    progress: &mut dyn FnMut(Progress),
) -> QueryResult<()> {
    for (done, difference) in found.iter().enumerate() {
        if done % PROGRESS_EVERY == 0 && done > 0 {
            progress(Progress::Writing {
                done,
                of: found.len(),
            });
        }
        match difference {
            Difference::Rating {
                player_id,
                system,
                stored,
                computed,
            } => {
                if stored.is_some() {
                    stored::delete_rating(conn, *player_id, variant, *system)?;
                }
                if let Some(row) = computed {
                    stored::insert_rating(conn, row)?;
                }
            }
            Difference::History {
                player_id,
                system,
                from_seq,
                ..
            } => {
                stored::delete_changes_from(conn, *player_id, variant, *system, *from_seq)?;
                let new = computed
                    .changes
                    .get(&(*player_id, *system))
                    .map(Vec::as_slice)
                    .unwrap_or_default();
                for row in new.iter().filter(|row| row.seq >= *from_seq) {
                    stored::insert_change(conn, row)?;
                }
            }
        }
    }
    Ok(())
}

/// Recomputes the variant and stores the result, in a write transaction of its own (or a
/// savepoint of the caller's). Writes call it through `effects::apply`, after their
/// commit. Returns how many players' ratings or histories changed.
pub fn recompute(conn: &mut DbConn, variant: Variant) -> AppResult<usize> {
    recompute_with(conn, variant, Compare::Digests, &mut |_| {})
}

/// How far a recompute has got, for the command line's progress lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// The counted results were read.
    Read { results: usize },
    /// Ratings computed: players with a rating and steps of history, both systems.
    Computed { ratings: usize, steps: usize },
    /// Players whose stored rating or history differs, of all the differences.
    Writing { done: usize, of: usize },
}

/// Differences written between two progress reports.
const PROGRESS_EVERY: usize = 1000;

/// How a recompute finds what to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Compare {
    /// Every stored history read and compared: repairs anything (the command line).
    Everything,
    /// Rating rows read, histories only where their digest differs (every write).
    Digests,
}

/// A full rebuild for the command line: compares every stored row with the recompute, so
/// it also repairs histories edited by hand, telling `progress` how far it has got.
pub fn recompute_reporting(
    conn: &mut DbConn,
    variant: Variant,
    progress: &mut dyn FnMut(Progress),
) -> AppResult<usize> {
    recompute_with(conn, variant, Compare::Everything, progress)
}

fn recompute_with(
    conn: &mut DbConn,
    variant: Variant,
    compare: Compare,
    progress: &mut dyn FnMut(Progress),
) -> AppResult<usize> {
    conn.write_transaction(|conn| {
        // Holding the variant's catch-up: no window runs beside a recompute, and every
        // request made so far is answered by it.
        catchup::claim(conn, variant, true)?;
        let (_, last_request) = catchup::pending(conn, variant)?;
        if let Some(id) = last_request {
            catchup::take(conn, variant, id)?;
        }
        counted::sync(conn, variant, Scope::Variant)?;
        let input = gather_stored(conn, variant)?;
        progress(Progress::Read {
            results: input.results.len(),
        });
        let computed = rows_of(variant, &ledger::recompute(&input, &GLICKO));
        progress(Progress::Computed {
            ratings: computed.ratings.len(),
            steps: computed.changes.values().map(Vec::len).sum(),
        });
        let found = match compare {
            Compare::Everything => differences(&stored_rows(conn, variant)?, &computed),
            Compare::Digests => differences_by_digest(conn, variant, &computed)?,
        };
        apply(conn, variant, &computed, &found, progress)?;
        catchup::set_progress(
            conn,
            variant,
            catchup::Progress {
                from: None,
                since: None,
            },
        )?;
        Ok(found.len())
    })
}

/// The fold's input as `rated_results` holds it, with the starts and birth years.
fn gather_stored(conn: &mut DbConn, variant: Variant) -> QueryResult<LedgerInput> {
    let mut input = starts_and_birth_years(conn, variant)?;
    input.results = rated_results::all(conn, variant)?
        .iter()
        .map(counted::result_of)
        .collect();
    Ok(input)
}

/// Whether `rated_results` holds exactly the results the boards and games say count.
pub fn counted_results_differ(conn: &mut DbConn, variant: Variant) -> AppResult<usize> {
    let derived: std::collections::BTreeSet<String> =
        counted_results(conn, variant, Scope::Variant)?
            .iter()
            .map(|r| format!("{:?}", counted::row_of(variant, r)))
            .collect();
    let stored: std::collections::BTreeSet<String> = rated_results::all(conn, variant)?
        .iter()
        .map(|r| format!("{r:?}"))
        .collect();
    Ok(derived.symmetric_difference(&stored).count())
}

/// The differences between what is stored and a recompute; changes nothing.
pub fn check(conn: &mut DbConn, variant: Variant) -> AppResult<Vec<Difference>> {
    let computed = compute(conn, variant)?;
    let stored_now = stored_rows(conn, variant)?;
    Ok(differences(&stored_now, &computed))
}

/// Recomputes every variant not computed since the ratings tables were created (a
/// database from before them, whose typed-in ratings and results are now the ratings):
/// run at start-up, once.
pub fn compute_never_computed(conn: &mut DbConn) -> AppResult<Vec<Variant>> {
    let mut done = Vec::new();
    for variant in Variant::ALL {
        if stored::never_computed(conn, variant)? {
            recompute(conn, variant)?;
            done.push(variant);
        }
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;
    use damka_domain::ratings::Score;
    use damka_domain::ratings::ledger::Month;
    use damka_domain::vocabulary::ResultCode;

    #[test]
    fn instants_survive_the_trip_through_micros() {
        let at = chrono::NaiveDate::from_ymd_opt(2026, 11, 30)
            .and_then(|d| d.and_hms_micro_opt(21, 15, 3, 123_456))
            .expect("a valid instant");
        assert_eq!(instant(micros(at)), at);
        assert_eq!(
            month_of(at),
            Month {
                year: 2026,
                month: 11
            }
        );
    }

    #[test]
    fn a_history_digest_changes_with_any_field_of_any_step() {
        let step = |seq: i32, after: f64| ChangeRow {
            player_id: 1,
            variant: Variant::Russian,
            system: RatingSystem::Glicko2,
            seq,
            at: instant(1_700_000_000_000_000 + i64::from(seq)),
            rating_before: Some(1500.0),
            rating_after: Some(after),
            deviation: Some(200.0),
            volatility: Some(0.06),
            games: seq,
            event_id: Some(3),
            game_id: None,
            performance: None,
            step_games: 1,
            step_half_points: 2,
            period_at: instant(1_700_000_000_000_000 + i64::from(seq)),
            elo_reached_2400: false,
            elo_unrated_opponents: None,
            elo_unrated_half_points: None,
            digest: 0,
        };
        let history = [step(1, 1510.0), step(2, 1520.0)];
        assert_eq!(digest(&history), digest(&history.clone()));
        assert_ne!(digest(&history), digest(&history[..1]));
        assert_ne!(digest(&history), digest(&[]));
        let mut nudged = history.clone();
        nudged[1].rating_after = Some(1520.0000001);
        assert_ne!(digest(&history), digest(&nudged));
        let mut moved = history.clone();
        moved[0].game_id = Some(3);
        moved[0].event_id = None;
        assert_ne!(digest(&history), digest(&moved), "an id in another field");
    }

    #[test]
    fn only_played_results_have_a_score() {
        assert_eq!(white_score(ResultCode::WhiteWins), Some(Score::Win));
        assert_eq!(white_score(ResultCode::Draw), Some(Score::Draw));
        assert_eq!(white_score(ResultCode::BlackWins), Some(Score::Loss));
        for forfeit in [
            ResultCode::WhiteWinsByForfeit,
            ResultCode::BlackWinsByForfeit,
            ResultCode::DoubleForfeit,
        ] {
            assert_eq!(white_score(forfeit), None);
        }
    }
}
