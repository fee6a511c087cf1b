//! Ratings stay exactly a recompute of the results, whatever happens to them: random
//! results (forfeits among them), corrections of earlier rounds, events finished and
//! reopened to correct a result, events made unrated and rated again, standalone rated
//! games, a starting rating imported half-way. After every step the stored ratings equal
//! a recompute (`check` finds nothing), and at the end a rebuild from empty tables gives
//! the very rows that the step-by-step updates left. Runs on the database of the test run
//! (`DAMKA_TEST_DATABASE=postgres` for PostgreSQL).
#![allow(clippy::unwrap_used)]
use crate::common::{Role, TestApp};

use damka::service::Actor;
use damka::service::events::entries::EntryInput;
use damka::service::events::rounds::{self, ResultInput};
use damka::service::events::{self, EventInput};
use damka::service::games::arbiter::GameResultInput;
use damka::service::games::create::NewGameInput;
use damka::service::ratings::recompute::{self, Rows};
use damka::service::ratings::{refold, worker};
use damka::store::models::PlayerFields;
use damka::store::{DbConn, accounts, players, rating_catchup, settings};
use damka_domain::vocabulary::{EventStatus, ResultCode, System};
use damka_engine::Variant;
use diesel::prelude::*;

/// A deterministic generator (64-bit LCG), so a failure repeats.
pub struct Dice(pub u64);

impl Dice {
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

const RESULTS: [&str; 6] = ["1-0", "1/2-1/2", "0-1", "1-0", "+/-", "-/-"];

/// Player profiles, some with a birth year (the Elo K factor reads it).
pub fn make_players(conn: &mut DbConn, n: usize) -> Vec<i64> {
    (0..n)
        .map(|i| {
            players::insert(
                conn,
                &PlayerFields {
                    name: format!("Rated {i:02}"),
                    club_id: None,
                    country: if i % 3 == 0 {
                        "RUS".into()
                    } else {
                        String::new()
                    },
                    federation_id: format!("F{i}"),
                    birth_year: (i % 4 == 0).then_some(2010),
                    title: String::new(),
                },
                damka::store::now(),
            )
            .unwrap()
            .id
        })
        .collect()
}

/// An event of `players` with `rounds` rounds paired, published and given random
/// results; returns its id.
pub fn play_event(
    conn: &mut DbConn,
    organiser: &Actor,
    players: &[i64],
    system: System,
    rounds: i32,
    dice: &mut Dice,
) -> i64 {
    let event = events::settings::create(
        conn,
        organiser,
        &EventInput {
            name: format!("Event {}", dice.below(1000)),
            system,
            rounds,
            ..EventInput::default()
        },
    )
    .unwrap();
    for &player in players {
        events::entries::add(
            conn,
            organiser,
            event.id,
            &EntryInput {
                player_id: Some(player),
            },
        )
        .unwrap();
    }
    for _ in 0..rounds {
        let round = rounds::pair_next(conn, organiser, event.id).unwrap();
        rounds::publish_last(conn, organiser, event.id).unwrap();
        for board in round.boards.iter().filter(|b| b.black_entry_id.is_some()) {
            let result = dice.pick(&RESULTS).to_string();
            rounds::set_result(
                conn,
                organiser,
                event.id,
                board.pairing_id,
                &ResultInput::typed(result),
            )
            .unwrap();
        }
    }
    event.id
}

/// The stored rows of the variant, the way `check` compares them.
fn stored(conn: &mut DbConn) -> Rows {
    recompute::stored_rows(conn, Variant::Russian).unwrap()
}

fn assert_exactly_a_recompute(conn: &mut DbConn, step: &str) {
    let differences = recompute::check(conn, Variant::Russian).unwrap();
    assert!(
        differences.is_empty(),
        "after {step}: {}",
        differences
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Boards of the event with a played result or a forfeit, as (pairing id, round).
fn boards_with_results(conn: &mut DbConn, organiser: &Actor, event_id: i64) -> Vec<i64> {
    rounds::list(conn, organiser, event_id)
        .unwrap()
        .iter()
        .flat_map(|r| r.boards.iter())
        .filter(|b| b.black_entry_id.is_some() && b.result.is_some())
        .map(|b| b.pairing_id)
        .collect()
}

fn correct_a_result(conn: &mut DbConn, organiser: &Actor, event_id: i64, dice: &mut Dice) {
    let boards = boards_with_results(conn, organiser, event_id);
    let pairing_id = *dice.pick(&boards);
    // A board whose game has moves cannot become a forfeit: only games played results.
    let result = dice.pick(&["1-0", "1/2-1/2", "0-1"]).to_string();
    let outcome = rounds::set_result(
        conn,
        organiser,
        event_id,
        pairing_id,
        &ResultInput::typed(result),
    );
    assert!(outcome.is_ok(), "{outcome:?}");
}

fn run_scenario(conn: &mut DbConn, organiser: &Actor, seed: u64) {
    let mut dice = Dice(seed);
    let people = make_players(conn, 10);
    assert_exactly_a_recompute(conn, "creating players");

    // A club whose list was carried over: four players arrive with an Elo rating.
    let csv = format!(
        "player_id,variant,system,rating,games\n{},russian,elo,2210,40\n{},russian,elo,2050,12\n{},russian,elo,1980,30\n{},russian,elo,1890,50\n",
        people[0], people[1], people[2], people[3]
    );
    damka::service::ratings::import::import_csv(conn, organiser, &csv).unwrap();
    assert_exactly_a_recompute(conn, "the import");

    let round_robin = play_event(
        conn,
        organiser,
        &people[..6],
        System::RoundRobin,
        5,
        &mut dice,
    );
    assert_exactly_a_recompute(conn, "the round-robin");
    let swiss = play_event(conn, organiser, &people, System::Swiss, 3, &mut dice);
    assert_exactly_a_recompute(conn, "the Swiss");

    // Corrections of earlier rounds while the Swiss runs.
    for i in 0..4 {
        correct_a_result(conn, organiser, swiss, &mut dice);
        assert_exactly_a_recompute(conn, &format!("correction {i}"));
    }

    // The round-robin finished, reopened, corrected, finished again.
    events::settings::finish(conn, organiser, round_robin).unwrap();
    assert_exactly_a_recompute(conn, "finishing");
    events::settings::reopen(conn, organiser, round_robin).unwrap();
    correct_a_result(conn, organiser, round_robin, &mut dice);
    assert_exactly_a_recompute(conn, "a correction after reopening");
    events::settings::finish(conn, organiser, round_robin).unwrap();

    // The Swiss made unrated, then rated again.
    for rated in [false, true] {
        let event = events::load(conn, swiss).unwrap();
        let mut input = event.settings();
        input.rated = rated;
        events::settings::update(conn, organiser, swiss, &input).unwrap();
        assert_exactly_a_recompute(conn, &format!("rated = {rated}"));
    }

    // Standalone games: rated ones count once played (two moves each), unrated never.
    for (white, black, rated) in [(0, 1, true), (2, 3, false), (4, 5, true)] {
        let game = damka::service::games::create::create(
            conn,
            organiser,
            &NewGameInput {
                white_player_id: people[white],
                black_player_id: people[black],
                rated,
                variant: Variant::Russian,
                draw_offer_min_moves: None,
                local_rules: None,
                clock: Default::default(),
            },
        )
        .unwrap();
        let result = *dice.pick(&[
            ResultCode::WhiteWins,
            ResultCode::Draw,
            ResultCode::BlackWins,
        ]);
        let mut roll = || dice.below(1 << 30);
        damka::cli::demo_games::play_to_result(conn, organiser, game.id, 12, result, &mut roll)
            .unwrap();
        assert_exactly_a_recompute(conn, "a standalone game");
        // An arbiter's correction of its result.
        damka::service::games::arbiter::set_result(
            conn,
            organiser,
            game.id,
            &GameResultInput {
                result: Some("1/2-1/2".into()),
                reason: Some("agreement".into()),
            },
        )
        .unwrap();
        assert_exactly_a_recompute(conn, "a standalone game's correction");
    }

    // A birth year changes the K factor of everything after.
    let first = players::by_id(conn, people[1]).unwrap().unwrap();
    damka::service::players::update(
        conn,
        organiser,
        first.id,
        &damka::service::players::PlayerInput {
            name: first.name.clone(),
            birth_year: Some(2012),
            ..Default::default()
        },
    )
    .unwrap();
    assert_exactly_a_recompute(conn, "a birth year");

    far_back_changes(conn, organiser, round_robin, &people, &mut dice);

    // Nothing depends on the order the updates came in: a rebuild from empty tables gives
    // exactly the rows the updates left.
    let before = stored(conn);
    assert!(!before.ratings.is_empty() && !before.changes.is_empty());
    {
        use damka::store::schema::{rating_changes, ratings};
        diesel::delete(ratings::table).execute(conn).unwrap();
        diesel::delete(rating_changes::table).execute(conn).unwrap();
    }
    recompute::recompute(conn, Variant::Russian).unwrap();
    assert_eq!(stored(conn), before);
    assert_eq!(
        events::load(conn, round_robin).unwrap().status,
        EventStatus::Finished
    );
}

/// Moves an event's rounds and result changes years back (as an archive imported long
/// ago would have them), then rebuilds the ratings from scratch, the path for changes
/// made behind the use cases' back.
fn move_event_back(conn: &mut DbConn, event_id: i64, years: i64) {
    use damka::store::schema::{pairings, result_changes, rounds};
    let shift = chrono::TimeDelta::days(365 * years);
    let round_ids: Vec<i64> = rounds::table
        .filter(rounds::event_id.eq(event_id))
        .select(rounds::id)
        .load(conn)
        .unwrap();
    for round in round_ids {
        let (paired, published): (chrono::NaiveDateTime, Option<chrono::NaiveDateTime>) =
            rounds::table
                .find(round)
                .select((rounds::paired_at, rounds::published_at))
                .first(conn)
                .unwrap();
        diesel::update(rounds::table.find(round))
            .set((
                rounds::paired_at.eq(paired - shift),
                rounds::published_at.eq(published.map(|p| p - shift)),
            ))
            .execute(conn)
            .unwrap();
        let pairing_ids: Vec<i64> = pairings::table
            .filter(pairings::round_id.eq(round))
            .select(pairings::id)
            .load(conn)
            .unwrap();
        let changes: Vec<(i64, chrono::NaiveDateTime)> = result_changes::table
            .filter(result_changes::pairing_id.eq_any(&pairing_ids))
            .select((result_changes::id, result_changes::changed_at))
            .load(conn)
            .unwrap();
        for (id, at) in changes {
            diesel::update(result_changes::table.find(id))
                .set(result_changes::changed_at.eq(at - shift))
                .execute(conn)
                .unwrap();
        }
    }
    recompute::recompute(conn, Variant::Russian).unwrap();
}

/// Lets the background worker finish, as the server's thread would, checking on the way
/// that the variant is reported behind until it is done; returns the windows it took.
fn let_the_worker_finish(conn: &mut DbConn) -> usize {
    let mut windows = 0;
    while !rating_catchup::behind(conn).unwrap().is_empty() {
        worker::run_once(conn).unwrap();
        windows += 1;
        assert!(windows < 10_000, "the catch-up never ends");
    }
    windows
}

/// Changes that reach years back, brought up to date window by window by the worker: a
/// result of an old event corrected, the event made unrated and rated again, a start
/// imported for a player who played in it.
fn far_back_changes(
    conn: &mut DbConn,
    organiser: &Actor,
    old_event: i64,
    people: &[i64],
    dice: &mut Dice,
) {
    move_event_back(conn, old_event, 6);
    assert_exactly_a_recompute(conn, "moving the round-robin six years back");
    settings::set(conn, refold::SETTING_WINDOW_RESULTS, "4").unwrap();

    events::settings::reopen(conn, organiser, old_event).unwrap();
    // A played result turned round: it now counts from today, and the old one is gone.
    let _ = dice;
    let played = rounds::list(conn, organiser, old_event)
        .unwrap()
        .iter()
        .flat_map(|r| r.boards.clone())
        .find(|b| {
            b.result == Some(ResultCode::WhiteWins) || b.result == Some(ResultCode::BlackWins)
        })
        .expect("a decisive board in the old event");
    let turned = if played.result == Some(ResultCode::WhiteWins) {
        "0-1"
    } else {
        "1-0"
    };
    rounds::set_result(
        conn,
        organiser,
        old_event,
        played.pairing_id,
        &ResultInput::typed(turned.to_string()),
    )
    .unwrap();
    // The write answered without the catch-up, which takes several windows of four:
    // that is the worker's.
    assert!(
        !rating_catchup::behind(conn).unwrap().is_empty(),
        "a correction six years back is left to the worker"
    );
    let windows = let_the_worker_finish(conn);
    assert!(windows >= 1, "the worker did the rest in windows");
    assert_exactly_a_recompute(conn, "a correction six years back");

    for rated in [false, true] {
        let event = events::load(conn, old_event).unwrap();
        let mut input = event.settings();
        input.rated = rated;
        events::settings::update(conn, organiser, old_event, &input).unwrap();
        let_the_worker_finish(conn);
        assert_exactly_a_recompute(conn, &format!("the old event rated = {rated}"));
    }
    events::settings::finish(conn, organiser, old_event).unwrap();

    let csv = format!(
        "player_id,variant,system,rating,games\n{},russian,elo,2305,60\n{},russian,glicko2,1720,25\n",
        people[4], people[5]
    );
    damka::service::ratings::import::import_csv(conn, organiser, &csv).unwrap();
    let_the_worker_finish(conn);
    assert_exactly_a_recompute(conn, "a start imported for players of the old event");
    settings::remove(conn, refold::SETTING_WINDOW_RESULTS).unwrap();
}

#[actix_web::test]
async fn stored_ratings_are_exactly_a_recompute_after_results_corrections_and_reopening() {
    let app = TestApp::new().await;
    // An administrator: runs the events, creates the games and edits any profile.
    app.user("admin@t.org", Role::Admin).await;
    app.with_db(|conn| {
        let organiser = Actor::signed_in(
            accounts::user_by_email(conn, "admin@t.org")
                .unwrap()
                .unwrap(),
        );
        for seed in [1, 2, 3] {
            run_scenario(conn, &organiser, seed);
        }
    })
    .await;
}
