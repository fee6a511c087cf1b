//! Races between use cases that read, decide and write the same event. Each test fires the
//! competing calls from real threads with their own database connections, released
//! together by a barrier, and repeats the race many times. On SQLite the write lock
//! serialises them anyway; the run that matters is `DAMKA_TEST_DATABASE=postgres` (CI),
//! where, before writes locked the event row, both sides of a race could win.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::sync::Barrier;

use common::racing::{RacingCall, TRIES, race, racing_pool};
use common::{Role, TestApp};
use damka::service::events::entries::{self, EntryInput};
use damka::service::events::rounds::{self, ResultInput};
use damka::service::events::{self, EventInput, audit, settings};
use damka::service::players::{self, PlayerInput};
use damka::service::{Actor, AppError, AppResult, Refusal};
use damka::store::{self, DbConn, RetryPolicy};
use damka_domain::vocabulary::Spelling;

async fn organiser(app: &TestApp) -> Actor {
    app.user("org@example.org", Role::Organiser).await;
    app.with_db(|conn| {
        let user = store::accounts::user_by_email(conn, "org@example.org")
            .unwrap()
            .unwrap();
        Actor::signed_in(user)
    })
    .await
}

/// A Swiss event with `players` entered players; returns the event id.
fn event_with_players(conn: &mut DbConn, actor: &Actor, players: usize) -> i64 {
    let event = settings::create(
        conn,
        actor,
        &EventInput {
            name: "Race cup".into(),
            system: damka_domain::vocabulary::System::Swiss,
            rounds: 5,
            ..EventInput::default()
        },
    )
    .unwrap();
    for i in 0..players {
        let player = players::create(
            conn,
            actor,
            &PlayerInput {
                name: format!("Player {i}"),
                ..PlayerInput::default()
            },
        )
        .unwrap();
        entries::add(
            conn,
            actor,
            event.id,
            &EntryInput {
                player_id: Some(player.id),
            },
        )
        .unwrap();
    }
    event.id
}

fn winners<T>(outcomes: &[AppResult<T>]) -> usize {
    outcomes.iter().filter(|o| o.is_ok()).count()
}

/// Entering a result while the same round is re-paired: exactly one of the two wins, and
/// a result that was accepted is still there (with its audit entry) afterwards.
#[actix_web::test]
async fn result_and_repairing_the_same_round_never_both_win() {
    let app = TestApp::new().await;
    let actor = organiser(&app).await;
    let pool = racing_pool(&app, 2);
    for attempt in 0..TRIES {
        let mut conn = pool.get().unwrap();
        let event_id = event_with_players(&mut conn, &actor, 4);
        let round = rounds::pair_next(&mut conn, &actor, event_id).unwrap();
        rounds::publish_last(&mut conn, &actor, event_id).unwrap();
        let pairing_id = round.boards[0].pairing_id;
        drop(conn);
        let (a, b) = (actor.clone(), actor.clone());
        let outcomes: Vec<AppResult<()>> = race(
            &pool,
            vec![
                Box::new(move |conn| {
                    rounds::set_result(conn, &a, event_id, pairing_id, &ResultInput::typed("1-0"))
                }),
                Box::new(move |conn| rounds::repair_last(conn, &b, event_id).map(|_| ())),
            ],
        );
        assert_eq!(winners(&outcomes), 1, "try {attempt}: {outcomes:?}");
        let mut conn = pool.get().unwrap();
        let rounds_now = rounds::list(&mut conn, &actor, event_id).unwrap();
        assert_eq!(rounds_now.len(), 1);
        let first = damka::service::paging::PageRequest::first(50);
        let audit = audit::changes(&mut conn, &actor, event_id, &first)
            .unwrap()
            .items;
        if outcomes[0].is_ok() {
            let board = &rounds_now[0].boards[0];
            assert_eq!(
                board.pairing_id, pairing_id,
                "try {attempt}: board replaced"
            );
            assert_eq!(
                board.result.map(|r| r.spelling()),
                Some("1-0"),
                "try {attempt}"
            );
            assert_eq!(audit.len(), 1, "try {attempt}: {audit:?}");
            assert!(matches!(outcomes[1], Err(AppError::Conflict { .. })));
        } else {
            assert!(rounds_now[0].boards.iter().all(|b| b.result.is_none()));
            assert!(!rounds_now[0].published, "the re-paired round is a draft");
            assert!(audit.is_empty(), "try {attempt}: {audit:?}");
            assert!(
                matches!(outcomes[0], Err(AppError::NotFound { .. })),
                "try {attempt}: {:?}",
                outcomes[0]
            );
        }
    }
}

/// Four simultaneous "pair the next round" calls make one round; the others are told the
/// round is paired and not yet published.
#[actix_web::test]
async fn concurrent_pairings_make_one_round() {
    let app = TestApp::new().await;
    let actor = organiser(&app).await;
    let pool = racing_pool(&app, 4);
    for attempt in 0..TRIES {
        let event_id = event_with_players(&mut pool.get().unwrap(), &actor, 6);
        let calls = (0..4)
            .map(|_| {
                let actor = actor.clone();
                Box::new(move |conn: &mut DbConn| rounds::pair_next(conn, &actor, event_id))
                    as RacingCall<'_, _>
            })
            .collect();
        let outcomes = race(&pool, calls);
        assert_eq!(winners(&outcomes), 1, "try {attempt}: {outcomes:?}");
        for refused in outcomes.iter().filter_map(|o| o.as_ref().err()) {
            assert!(
                matches!(
                    refused,
                    AppError::Conflict {
                        reason: Refusal::RoundNotPublished { round: 1 }
                    }
                ),
                "try {attempt}: {refused:?}"
            );
        }
        let made = rounds::list(&mut pool.get().unwrap(), &actor, event_id).unwrap();
        assert_eq!(made.len(), 1, "try {attempt}");
        assert_eq!(made[0].number, 1);
        assert_eq!(made[0].boards.len(), 3);
    }
}

/// Players entered at the same moment all get in, with different start numbers (no
/// spurious 409 on the start-number key).
#[actix_web::test]
async fn concurrent_entries_all_get_distinct_start_numbers() {
    let app = TestApp::new().await;
    let actor = organiser(&app).await;
    let pool = racing_pool(&app, 6);
    for attempt in 0..TRIES {
        let mut conn = pool.get().unwrap();
        let event_id = event_with_players(&mut conn, &actor, 0);
        let profiles: Vec<i64> = (0..6)
            .map(|i| {
                players::create(
                    &mut conn,
                    &actor,
                    &PlayerInput {
                        name: format!("Late {attempt}-{i}"),
                        ..PlayerInput::default()
                    },
                )
                .unwrap()
                .id
            })
            .collect();
        drop(conn);
        let calls = profiles
            .iter()
            .map(|&player_id| {
                let actor = actor.clone();
                Box::new(move |conn: &mut DbConn| {
                    entries::add(
                        conn,
                        &actor,
                        event_id,
                        &EntryInput {
                            player_id: Some(player_id),
                        },
                    )
                }) as RacingCall<'_, _>
            })
            .collect();
        let outcomes = race(&pool, calls);
        assert_eq!(winners(&outcomes), 6, "try {attempt}: {outcomes:?}");
        let mut numbers: Vec<i32> = entries::list(&mut pool.get().unwrap(), event_id)
            .unwrap()
            .iter()
            .map(|e| e.start_no)
            .collect();
        numbers.sort();
        assert_eq!(numbers, (1..=6).collect::<Vec<_>>(), "try {attempt}");
    }
}

/// A pairing computed while the event changed is not stored over the change: the round
/// is paired again from the new state. (A player withdraws between the plan and the
/// write; the stored round must not contain them.)
#[actix_web::test]
async fn a_pairing_planned_before_a_withdrawal_is_made_again() {
    let app = TestApp::new().await;
    let actor = organiser(&app).await;
    let pool = racing_pool(&app, 2);
    let mut conn = pool.get().unwrap();
    let event_id = event_with_players(&mut conn, &actor, 6);
    rounds::pair_next(&mut conn, &actor, event_id).unwrap();
    rounds::publish_last(&mut conn, &actor, event_id).unwrap();
    let round = &rounds::list(&mut conn, &actor, event_id).unwrap()[0];
    for board in round.boards.iter().filter(|b| b.black_entry_id.is_some()) {
        let input = ResultInput::typed("1-0");
        rounds::set_result(&mut conn, &actor, event_id, board.pairing_id, &input).unwrap();
    }
    let leaving = round.boards[0].white_entry_id;
    let mut withdrawn = false;
    let mut other = pool.get().unwrap();
    let seen = events::write_planned(
        &mut conn,
        event_id,
        |_, event| {
            if !withdrawn {
                // Another user's write lands while this plan is being made.
                entries::withdraw(&mut other, &actor, event_id, leaving).unwrap();
                withdrawn = true;
            }
            Ok(event.revision)
        },
        |_, _, seen| Ok(seen),
    )
    .unwrap();
    let now = events::load(&mut conn, event_id).unwrap();
    assert_eq!(
        seen + 1,
        now.revision,
        "the plan was made again after the write"
    );
    let round2 = rounds::pair_next(&mut conn, &actor, event_id).unwrap();
    assert!(
        round2
            .boards
            .iter()
            .all(|b| b.white_entry_id != leaving && b.black_entry_id != Some(leaving))
    );
}

/// Two processes starting at once on a fresh SQLite file (`damka serve` beside `damka
/// admin create`) both migrate: the second must wait for the first and find nothing left
/// to do, not fail on "table already exists".
#[test]
fn simultaneous_start_ups_on_a_fresh_sqlite_file_migrate_once() {
    for attempt in 0..TRIES {
        let dir = tempfile::tempdir().unwrap();
        let url =
            store::DatabaseUrl::parse(&format!("sqlite://{}", dir.path().join("new.db").display()))
                .unwrap();
        let barrier = Barrier::new(3);
        let outcomes: Vec<Result<(), String>> = std::thread::scope(|scope| {
            let starting: Vec<_> = (0..3)
                .map(|_| {
                    scope.spawn(|| {
                        barrier.wait();
                        store::open(
                            &url,
                            1,
                            RetryPolicy {
                                attempts: 1,
                                delay: std::time::Duration::ZERO,
                            },
                        )
                        .map(|_| ())
                        .map_err(|e| e.to_string())
                    })
                })
                .collect();
            starting.into_iter().map(|t| t.join().unwrap()).collect()
        });
        for outcome in outcomes {
            assert_eq!(outcome, Ok(()), "try {attempt}");
        }
    }
}

/// A write that waited out SQLite's busy timeout (another process holds the write lock)
/// is a 503 with Retry-After that changed nothing, not a 500; once the lock is gone the
/// same request succeeds.
#[actix_web::test]
async fn a_busy_sqlite_database_answers_503_with_retry_after() {
    if common::uses_postgres() {
        eprintln!("skipped: SQLite's write lock only (the SQLite run covers it)");
        return;
    }
    use diesel::Connection;
    use diesel::connection::SimpleConnection;
    let app = TestApp::new().await;
    let mut org = common::organiser_api(&app, "org@example.org").await;
    let mut holder = diesel::SqliteConnection::establish(&app.db.url.target).unwrap();
    holder.batch_execute("BEGIN IMMEDIATE").unwrap();
    let body = serde_json::json!({"name": "Blocked", "system": "swiss", "rounds": 5});
    let refused = org
        .json(
            actix_web::http::Method::POST,
            "/api/v1/events",
            body.clone(),
        )
        .await;
    refused.assert_problem(503, "unavailable");
    // Exactly one Retry-After (issue 30 item 4: the error middleware used to add a second).
    assert_eq!(
        refused.headers.get_all("retry-after").count(),
        1,
        "{:?}",
        refused.headers
    );
    holder.batch_execute("COMMIT").unwrap();
    let listed = org.get("/api/v1/events").await.json();
    assert_eq!(
        listed["items"].as_array().unwrap().len(),
        0,
        "the refused write changed nothing"
    );
    let created = org
        .json(actix_web::http::Method::POST, "/api/v1/events", body)
        .await;
    assert_eq!(created.status.as_u16(), 201, "{}", created.body);
}

/// The two games of a micro-match ending at the same moment (each through its own game,
/// which locks the game and then the event): both results stand, and the pairing's result
/// is collapsed from both, never left empty by a write that did not see the other game's.
#[actix_web::test]
async fn both_games_of_a_micro_match_ending_together_give_the_pairing_its_result() {
    let app = TestApp::new().await;
    let actor = organiser(&app).await;
    let pool = racing_pool(&app, 2);
    for attempt in 0..TRIES {
        let mut conn = pool.get().unwrap();
        let event_id = event_with_players(&mut conn, &actor, 2);
        let mut input = events::load(&mut conn, event_id).unwrap().settings();
        input.games_per_pairing = 2;
        settings::update(&mut conn, &actor, event_id, &input).unwrap();
        let round = rounds::pair_next(&mut conn, &actor, event_id).unwrap();
        rounds::publish_last(&mut conn, &actor, event_id).unwrap();
        let pairing_id = round.boards[0].pairing_id;
        drop(conn);
        let calls: Vec<RacingCall<AppResult<()>>> = (1..=2)
            .map(|game_no| {
                let a = actor.clone();
                Box::new(move |conn: &mut DbConn| {
                    rounds::set_game_result(
                        conn,
                        &a,
                        event_id,
                        pairing_id,
                        game_no,
                        &ResultInput::typed("1-0"),
                    )
                }) as RacingCall<AppResult<()>>
            })
            .collect();
        let outcomes = race(&pool, calls);
        assert_eq!(winners(&outcomes), 2, "try {attempt}: {outcomes:?}");
        let mut conn = pool.get().unwrap();
        let board = rounds::list(&mut conn, &actor, event_id).unwrap()[0].boards[0].clone();
        let games: Vec<_> = board
            .games
            .iter()
            .map(|g| g.result.map(|r| r.spelling()))
            .collect();
        assert_eq!(games, vec![Some("1-0"), Some("1-0")], "try {attempt}");
        assert_eq!(
            board.result.map(|r| r.spelling()),
            Some("1/2-1/2"),
            "try {attempt}: each won with White, a drawn match"
        );
    }
}
