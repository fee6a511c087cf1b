//! `damka-archive`: builds a federation's rated archive in a database, for the benchmark of
//! ratings at scale (`scripts/bench-ratings-scale.sh`). Everything goes through the
//! service's own code, as an arbiter's work would: player profiles, then one TRF import
//! per event (round-robins with random results and the players' federation ratings), each
//! event then dated on its days of the archive's years (as the demo seeder dates its
//! rounds), and at the end the from-scratch recompute that `damka ratings recompute` runs.
//!
//! ```text
//! damka-archive --database-url sqlite:///tmp/a.db --games 100000
//! ```
//! prints progress on standard error and, at the end, one JSON line on standard output:
//! the administrator's credentials and a board of an event about five years back (for the
//! correction the benchmark makes).
use std::fmt::Write as _;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, anyhow};
use clap::Parser;
use damka::service::Actor;
use damka::service::ratings::{recompute, refold};
use damka::store::models::PlayerFields;
use damka::store::{self, DatabaseUrl, DbConn, RetryPolicy, players, settings};
use damka_engine::Variant;

#[derive(Debug, Parser)]
#[command(about = "Builds a rated archive for the ratings benchmark")]
struct Args {
    #[arg(long, env = "DAMKA_DATABASE_URL")]
    database_url: String,
    /// Rated games in all.
    #[arg(long)]
    games: u64,
    /// Player profiles (default: one per 20 games).
    #[arg(long)]
    players: Option<u64>,
    /// Players of each round-robin (it has n(n-1)/2 games).
    #[arg(long, default_value_t = 20)]
    event_size: u64,
    /// Years the archive spans, ending today.
    #[arg(long, default_value_t = 10)]
    years: i64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// A deterministic generator (64-bit LCG).
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n.max(1)
    }
}

const ADMIN_EMAIL: &str = "archive@bench.local";
const ADMIN_PASSWORD: &str = "archive-bench-password";

fn main() -> ExitCode {
    match run(Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("damka-archive: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(args: Args) -> anyhow::Result<()> {
    let url = DatabaseUrl::parse(&args.database_url).map_err(|e| anyhow!("--database-url: {e}"))?;
    let pool = store::open(&url, 2, RetryPolicy::from_env())?;
    let mut conn = pool.get()?;
    let conn = &mut conn;
    let english = |e: damka::service::AppError| anyhow!("{}", damka::web::refusals::english(&e));
    let admin =
        damka::service::accounts::create_admin(conn, ADMIN_EMAIL, "Archive", ADMIN_PASSWORD)
            .map_err(english)?;
    let actor = Actor::signed_in(admin);
    let started = Instant::now();
    let player_count = args
        .players
        .unwrap_or((args.games / 20).max(args.event_size));
    let profiles = make_profiles(conn, player_count)?;
    eprintln!("{} profiles ({:.1?})", profiles.len(), started.elapsed());
    // Each import would refold from its players' first results: the archive is rebuilt from
    // scratch at the end instead, so the imports leave their requests to it.
    settings::set(conn, refold::SETTING_WINDOW_RESULTS, "1")?;
    let per_event = args.event_size * (args.event_size - 1) / 2;
    let events = args.games.div_ceil(per_event);
    let mut dice = Dice(args.seed);
    let today = store::now();
    let span = chrono::TimeDelta::days(365 * args.years);
    let mut five_years_back: Option<(i64, i64)> = None;
    for e in 0..events {
        let chosen = choose(&mut dice, &profiles, args.event_size);
        let text = round_robin_trf(e, &chosen, &mut dice);
        let imported = damka::service::events::import::import_trf(conn, &actor, &text, "russian")
            .map_err(english)?;
        let event_id = imported.event.id;
        // Events follow each other evenly over the years, a round a day.
        let offset =
            span * i32::try_from(e).unwrap_or(i32::MAX) / i32::try_from(events).unwrap_or(1);
        let first_day = today - span + offset;
        let rounds = i32::try_from(args.event_size - 1).unwrap_or(0);
        for round in 1..=rounds {
            let at = first_day + chrono::TimeDelta::days(i64::from(round));
            damka::cli::demo::backdate_round(conn, event_id, round, at).map_err(english)?;
        }
        if five_years_back.is_none() && first_day >= today - chrono::TimeDelta::days(5 * 365) {
            five_years_back = Some((event_id, first_board(conn, event_id)?));
        }
        if (e + 1) % 100 == 0 || e + 1 == events {
            eprintln!(
                "{} of {events} events imported ({} games, {:.1?})",
                e + 1,
                (e + 1) * per_event,
                started.elapsed()
            );
        }
    }
    settings::remove(conn, refold::SETTING_WINDOW_RESULTS)?;
    let mut report = |progress: recompute::Progress| {
        eprintln!("recompute: {progress:?} ({:.1?})", started.elapsed())
    };
    recompute::recompute_reporting(conn, Variant::Russian, &mut report).map_err(english)?;
    // The archive at rest, as a database is between its writes: PostgreSQL's statistics
    // gathered (its autovacuum would do it in its own time; SQLite's planner has none
    // unless asked, so none are made for it) and SQLite's write-ahead log checkpointed, so
    // the benchmark's first writes do not pay for the build.
    {
        use diesel::RunQueryDsl;
        match &mut **conn {
            store::DbConn::Pg(pg) => diesel::sql_query("ANALYZE").execute(pg)?,
            store::DbConn::Sqlite(sqlite) => {
                diesel::sql_query("PRAGMA wal_checkpoint(TRUNCATE)").execute(sqlite)?
            }
        };
    }
    let (event_id, pairing_id) = five_years_back.context("no event five years back")?;
    println!(
        "{{\"email\":\"{ADMIN_EMAIL}\",\"password\":\"{ADMIN_PASSWORD}\",\"old_event_id\":{event_id},\"old_pairing_id\":{pairing_id},\"player_ids\":[{}]}}",
        profiles
            .iter()
            .take(12)
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(",")
    );
    eprintln!("archive built in {:.1?}", started.elapsed());
    Ok(())
}

/// Profiles with federation ids `BENCH<n>` (the imports link to them by it).
fn make_profiles(conn: &mut DbConn, n: u64) -> anyhow::Result<Vec<i64>> {
    let now = store::now();
    let mut ids = Vec::new();
    conn.write_transaction(|conn| {
        for i in 0..n {
            let row = players::insert(
                conn,
                &PlayerFields {
                    name: format!("Archive Player {i:06}"),
                    club_id: None,
                    country: String::new(),
                    federation_id: format!("BENCH{i}"),
                    birth_year: None,
                    title: String::new(),
                },
                now,
            )?;
            ids.push(row.id);
        }
        diesel::QueryResult::Ok(())
    })?;
    Ok(ids)
}

/// `n` distinct players, as indexes into `profiles`.
fn choose(dice: &mut Dice, profiles: &[i64], n: u64) -> Vec<usize> {
    let mut chosen: Vec<usize> = Vec::new();
    while (chosen.len() as u64) < n.min(profiles.len() as u64) {
        let pick = dice.below(profiles.len() as u64) as usize;
        if !chosen.contains(&pick) {
            chosen.push(pick);
        }
    }
    chosen
}

/// A player's federation rating, from their index: a spread of 1200 to 2399.
fn rating_of(index: usize) -> u64 {
    1200 + (index as u64 * 7919) % 1200
}

/// A finished round-robin (circle method) of the chosen players as a TRF.
fn round_robin_trf(event: u64, chosen: &[usize], dice: &mut Dice) -> String {
    let n = chosen.len();
    let rounds = n - 1;
    // cells[round][player] = (opponent start number, colour, result)
    let mut cells = vec![vec![(0usize, 'w', '='); n]; rounds];
    let mut order: Vec<usize> = (0..n).collect();
    for (round, row) in cells.iter_mut().enumerate() {
        for board in 0..n / 2 {
            let (a, b) = (order[board], order[n - 1 - board]);
            let (white, black) = if (round + board) % 2 == 0 {
                (a, b)
            } else {
                (b, a)
            };
            let gap = rating_of(chosen[white]) as i64 - rating_of(chosen[black]) as i64;
            let roll = dice.below(100) as i64 + gap / 20;
            let (w, b) = if roll >= 65 {
                ('1', '0')
            } else if roll >= 35 {
                ('=', '=')
            } else {
                ('0', '1')
            };
            row[white] = (black + 1, 'w', w);
            row[black] = (white + 1, 'b', b);
        }
        let last = order.pop().unwrap_or(0);
        order.insert(1, last);
    }
    let mut text = format!("012 Archive event {event}\nXXR {rounds}\n");
    for (i, &index) in chosen.iter().enumerate() {
        let half: u32 = cells
            .iter()
            .map(|row| match row[i].2 {
                '1' => 2,
                '=' => 1,
                _ => 0,
            })
            .sum();
        let points = format!("{}.{}", half / 2, if half % 2 == 1 { 5 } else { 0 });
        let _ = write!(
            text,
            "001 {:>4}      {:<33} {:>4}     {:>11} {:>10} {:>4} {:>4}",
            i + 1,
            format!("Archive Player {index:06}"),
            rating_of(index),
            format!("BENCH{index}"),
            "",
            points,
            i + 1
        );
        for &(opponent, colour, result) in cells.iter().map(|row| &row[i]) {
            let _ = write!(text, "  {opponent:>4} {colour} {result}");
        }
        text.push('\n');
    }
    text
}

/// The first board of an event: what the benchmark corrects.
fn first_board(conn: &mut DbConn, event_id: i64) -> anyhow::Result<i64> {
    use damka::store::schema::{pairings, rounds};
    use diesel::prelude::*;
    Ok(pairings::table
        .inner_join(rounds::table)
        .filter(rounds::event_id.eq(event_id))
        .filter(rounds::number.eq(1))
        .order(pairings::board)
        .select(pairings::id)
        .first(conn)?)
}
