//! Games under concurrent clients: two submissions racing for one ply, and many games
//! played at once. As in `concurrency.rs`, the competing calls run the service from real
//! threads, each on its own database connection, released together by a barrier. On
//! SQLite one writer at a time decides the order anyway; the run that matters is
//! `DAMKA_TEST_DATABASE=postgres`, where the game row's lock and the (game, ply) key
//! must keep two moves from landing on one ply.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::sync::Barrier;

use common::TestApp;
use common::racing::{TRIES, race, racing_pool as pool};
use damka::service::events::EventInput;
use damka::service::events::entries::{self, EntryInput};
use damka::service::events::{rounds, settings};
use damka::service::games::create::{self, NewGameInput};
use damka::service::games::play::{self, MoveInput, Submitted};
use damka::service::games::{self, view::GameView};
use damka::service::players::{self, PlayerInput};
use damka::service::{Actor, AppError, AppResult, Refusal};
use damka::store::models::NewUser;
use damka::store::{self, DbConn, DbPool};
use damka_engine::Variant;

/// An account stored directly (these tests never sign in, so no password is hashed).
fn account(conn: &mut DbConn, email: &str, organiser: bool, player_id: Option<i64>) -> Actor {
    let user = store::accounts::insert_user(
        conn,
        &NewUser {
            email,
            display_name: email,
            password_hash: "!",
            is_admin: false,
            is_organiser: organiser,
            locale: None,
            player_id,
            created_at: store::now(),
        },
    )
    .unwrap();
    Actor::signed_in(user)
}

/// A player with an account of their own, as the actor who moves for them.
fn player(conn: &mut DbConn, organiser: &Actor, name: &str) -> (Actor, i64) {
    let profile = players::create(
        conn,
        organiser,
        &PlayerInput {
            name: name.to_string(),
            ..PlayerInput::default()
        },
    )
    .unwrap();
    let email = format!("{}@t.org", name.to_lowercase().replace(' ', "."));
    (account(conn, &email, false, Some(profile.id)), profile.id)
}

/// The people of a game: an organiser (the games' arbiter) and two players with accounts
/// of their own.
struct Seats {
    organiser: Actor,
    white: Actor,
    white_id: i64,
    black: Actor,
    black_id: i64,
}

fn seats(pool: &DbPool) -> Seats {
    let mut conn = pool.get().unwrap();
    let organiser = account(&mut conn, "org@t.org", true, None);
    let (white, white_id) = player(&mut conn, &organiser, "Ivanov");
    let (black, black_id) = player(&mut conn, &organiser, "Petrov");
    Seats {
        organiser,
        white,
        white_id,
        black,
        black_id,
    }
}

/// The people of a game and the game (standalone, created by the organiser).
fn seated_game(pool: &DbPool) -> (Seats, i64) {
    let seats = seats(pool);
    let game = new_game(
        &mut pool.get().unwrap(),
        &seats.organiser,
        seats.white_id,
        seats.black_id,
    );
    (seats, game)
}

/// A standalone russian game created by `organiser` (its arbiter); returns its id.
fn new_game(conn: &mut DbConn, organiser: &Actor, white: i64, black: i64) -> i64 {
    create::create(
        conn,
        organiser,
        &NewGameInput {
            variant: Variant::Russian,
            white_player_id: white,
            black_player_id: black,
            rated: false,
            draw_offer_min_moves: None,
            local_rules: None,
            clock: Default::default(),
        },
    )
    .unwrap()
    .id
}

fn submit(conn: &mut DbConn, actor: &Actor, game: i64, ply: i32, mv: &str) -> AppResult<Submitted> {
    play::submit(
        conn,
        actor,
        game,
        &MoveInput {
            ply,
            text: mv.to_string(),
            offer_draw: false,
        },
    )
}

fn stored_moves(conn: &mut DbConn, game: i64) -> Vec<(i32, String)> {
    store::games::moves(conn, game)
        .unwrap()
        .into_iter()
        .map(|m| (m.ply, m.notation))
        .collect()
}

/// The last move of a game as a submission's answer shows it.
fn last_move(view: &GameView) -> (i32, String) {
    let last = view.moves.last().expect("a stored move");
    (last.ply, last.notation.clone())
}

/// Of two racing submissions for `ply`, exactly one was stored and the other refused with
/// `ply_taken` naming the stored move; returns that move.
fn one_stored_one_refused(outcomes: &[AppResult<Submitted>], ply: i32, attempt: usize) -> String {
    let stored: Vec<(i32, String)> = outcomes
        .iter()
        .filter_map(|o| match o {
            Ok(Submitted::Stored(view)) => Some(last_move(view)),
            _ => None,
        })
        .collect();
    assert_eq!(stored.len(), 1, "try {attempt}: {outcomes:?}");
    let (stored_ply, winner) = stored[0].clone();
    assert_eq!(stored_ply, ply, "try {attempt}");
    let refused = outcomes.iter().filter(|o| {
        matches!(o, Err(AppError::Conflict {
            reason: Refusal::PlyTaken { ply: refused_ply, stored },
        }) if *stored == winner && *refused_ply == ply)
    });
    assert_eq!(refused.count(), 1, "try {attempt}: {outcomes:?}");
    winner
}

/// Two clients send different moves for the same ply at once, again and again: each time
/// exactly one is stored, and the other is refused with `ply_taken` naming the move that
/// was stored. The racers are one player from two devices, or the player and the game's
/// arbiter (who may enter moves for either side).
#[actix_web::test]
async fn two_different_moves_for_one_ply_store_exactly_one() {
    let app = TestApp::new().await;
    let pool = pool(&app, 2);
    let Seats {
        organiser,
        white,
        white_id,
        black_id,
        ..
    } = seats(&pool);
    let mut first_won = 0;
    for attempt in 0..TRIES {
        let game = new_game(&mut pool.get().unwrap(), &organiser, white_id, black_id);
        let rival = if attempt % 2 == 0 { &white } else { &organiser };
        let (a, b) = (white.clone(), rival.clone());
        let outcomes = race(
            &pool,
            vec![
                Box::new(move |conn: &mut DbConn| submit(conn, &a, game, 1, "c3-d4")),
                Box::new(move |conn: &mut DbConn| submit(conn, &b, game, 1, "a3b4")),
            ],
        );
        let winner = &one_stored_one_refused(&outcomes, 1, attempt);
        assert_eq!(
            stored_moves(&mut pool.get().unwrap(), game),
            vec![(1, winner.clone())],
            "try {attempt}"
        );
        assert_eq!(
            winner,
            if outcomes[0].is_ok() {
                "c3-d4"
            } else {
                "a3-b4"
            },
            "the stored move is the winner's, in canonical spelling"
        );
        first_won += usize::from(outcomes[0].is_ok());
    }
    eprintln!("ply race: the first client won {first_won} of {TRIES}");
}

/// The same race in the middle of a game, where both submissions are checked against the
/// state the instance kept after the last move and stored without the lock, each only if
/// the game's revision is still the one it checked against: exactly one is stored, the
/// other is refused with the stored move, and the game plays on from the winner.
#[actix_web::test]
async fn two_moves_for_one_ply_in_mid_game_store_exactly_one() {
    let app = TestApp::new().await;
    let pool = pool(&app, 2);
    let (
        Seats {
            organiser,
            white,
            black,
            ..
        },
        game,
    ) = seated_game(&pool);
    let mut line: Vec<String> = Vec::new();
    for attempt in 0..TRIES {
        // White moves (and the instance keeps the game); then Black, from two devices or
        // Black and the arbiter, send two different replies at once.
        if game_over(&pool, game) {
            break;
        }
        move_on(&pool, &white, game, &mut line, attempt);
        if game_over(&pool, game) {
            break;
        }
        let ply = line.len() as i32 + 1;
        let (first, second) = (legal_after(&line, 0), legal_after(&line, 1));
        if first == second {
            // One legal reply only (a capture): nothing to race for here.
            move_on(&pool, &black, game, &mut line, 0);
            continue;
        }
        let rival = if attempt % 2 == 0 { &black } else { &organiser };
        let (a, b) = (black.clone(), rival.clone());
        let (mv_a, mv_b) = (first.clone(), second.clone());
        let outcomes = race(
            &pool,
            vec![
                Box::new(move |conn: &mut DbConn| submit(conn, &a, game, ply, &mv_a)),
                Box::new(move |conn: &mut DbConn| submit(conn, &b, game, ply, &mv_b)),
            ],
        );
        let winner = one_stored_one_refused(&outcomes, ply, attempt);
        line.push(winner);
        let moves = stored_moves(&mut pool.get().unwrap(), game);
        assert_eq!(
            moves.into_iter().map(|(_, mv)| mv).collect::<Vec<_>>(),
            line,
            "try {attempt}"
        );
    }
    assert!(line.len() >= 10, "the game went on for a while: {line:?}");
}

fn game_over(pool: &DbPool, game: i64) -> bool {
    games::view::get(&mut pool.get().unwrap(), game)
        .unwrap()
        .legal_moves
        .is_empty()
}

/// The same move sent twice at once (a resend racing the original): one is stored, the
/// other is answered as already stored, and there is one row.
#[actix_web::test]
async fn the_same_move_sent_twice_at_once_is_stored_once() {
    let app = TestApp::new().await;
    let pool = pool(&app, 2);
    let Seats {
        organiser,
        white,
        white_id,
        black_id,
        ..
    } = seats(&pool);
    for attempt in 0..TRIES {
        let game = new_game(&mut pool.get().unwrap(), &organiser, white_id, black_id);
        let (a, b) = (white.clone(), white.clone());
        let outcomes = race(
            &pool,
            vec![
                Box::new(move |conn: &mut DbConn| submit(conn, &a, game, 1, "c3-d4")),
                Box::new(move |conn: &mut DbConn| submit(conn, &b, game, 1, "c3d4")),
            ],
        );
        let stored = outcomes
            .iter()
            .filter(|o| matches!(o, Ok(Submitted::Stored(_))))
            .count();
        let resent = outcomes
            .iter()
            .filter(|o| matches!(o, Ok(Submitted::AlreadyStored(_))))
            .count();
        assert_eq!((stored, resent), (1, 1), "try {attempt}: {outcomes:?}");
        assert_eq!(
            stored_moves(&mut pool.get().unwrap(), game),
            vec![(1, "c3-d4".to_string())],
            "try {attempt}"
        );
    }
}

/// Games played at once, each by its own client.
const GAMES: usize = 50;
/// Plies each game is played for (fewer if it ends).
const PLIES: usize = 20;

/// Fifty clients play fifty games at once through a pool of ten connections, as a
/// server's workers would: afterwards every game replays legally from its stored moves,
/// and exactly the acknowledged moves are stored.
#[actix_web::test]
async fn fifty_clients_play_fifty_games_at_once() {
    let app = TestApp::new().await;
    let pool = pool(&app, 10);
    let mut conn = pool.get().unwrap();
    let organiser = account(&mut conn, "org@t.org", true, None);
    let tables: Vec<(i64, Actor, Actor)> = (0..GAMES)
        .map(|table| {
            let (white, white_id) = player(&mut conn, &organiser, &format!("White {table}"));
            let (black, black_id) = player(&mut conn, &organiser, &format!("Black {table}"));
            let game = new_game(&mut conn, &organiser, white_id, black_id);
            (game, white, black)
        })
        .collect();
    drop(conn);

    let barrier = Barrier::new(GAMES);
    let acknowledged: Vec<(i64, Vec<(i32, String)>)> = std::thread::scope(|scope| {
        let clients: Vec<_> = tables
            .iter()
            .enumerate()
            .map(|(table, (game, white, black))| {
                let (pool, barrier) = (&pool, &barrier);
                scope.spawn(move || {
                    barrier.wait();
                    let mut acked = Vec::new();
                    let mut legal = games::view::get(&mut pool.get().unwrap(), *game)
                        .unwrap()
                        .legal_moves;
                    for ply in 1..=PLIES as i32 {
                        if legal.is_empty() {
                            break;
                        }
                        // A different game at every table: the move is picked by the
                        // table's number and the ply.
                        let mv = legal[(table * 7 + ply as usize) % legal.len()].clone();
                        let mover = if ply % 2 == 1 { white } else { black };
                        let answer = submit(&mut pool.get().unwrap(), mover, *game, ply, &mv);
                        let Ok(Submitted::Stored(view)) = answer else {
                            panic!("game {game} ply {ply} {mv}: {answer:?}");
                        };
                        acked.push(last_move(&view));
                        legal = view.legal_moves;
                    }
                    (*game, acked)
                })
            })
            .collect();
        clients.into_iter().map(|c| c.join().unwrap()).collect()
    });

    let mut conn = pool.get().unwrap();
    let mut total = 0;
    for (game, acked) in acknowledged {
        let loaded = games::load(&mut conn, game)
            .unwrap_or_else(|e| panic!("game {game} does not replay: {e:?}"));
        assert_eq!(loaded.game.history().len(), acked.len(), "game {game}");
        assert_eq!(loaded.row.ply as usize, acked.len(), "game {game}");
        assert_eq!(stored_moves(&mut conn, game), acked, "game {game}");
        if acked.len() < PLIES {
            assert!(loaded.is_over(), "game {game} stopped early but goes on");
        }
        total += acked.len();
    }
    assert!(
        total >= GAMES * PLIES * 9 / 10,
        "most games run their {PLIES} plies: {total} moves"
    );
}

/// A Swiss event of four players whose first round is published (so its two games exist);
/// returns the event and the game of board 1.
fn published_round(conn: &mut DbConn, organiser: &Actor) -> (i64, i64) {
    let event = settings::create(
        conn,
        organiser,
        &EventInput {
            name: "Race cup".into(),
            system: damka_domain::vocabulary::System::Swiss,
            rounds: 3,
            ..EventInput::default()
        },
    )
    .unwrap();
    for i in 0..4 {
        let (_, player_id) = player(conn, organiser, &format!("Player {}-{i}", event.id));
        entries::add(
            conn,
            organiser,
            event.id,
            &EntryInput {
                player_id: Some(player_id),
            },
        )
        .unwrap();
    }
    let round = rounds::pair_next(conn, organiser, event.id).unwrap();
    rounds::publish_last(conn, organiser, event.id).unwrap();
    let game = store::games::of_pairing(conn, round.boards[0].pairing_id)
        .unwrap()
        .expect("board 1 has its game")
        .id;
    (event.id, game)
}

/// The first move of an event game and a re-pairing of its round at once: either the move
/// is stored and the round stays, or the round is paired again and the move is refused.
/// Never is a move acknowledged on a game that the re-pairing then removed.
#[actix_web::test]
async fn a_first_move_and_repairing_its_round_never_both_win() {
    let app = TestApp::new().await;
    let pool = pool(&app, 2);
    let organiser = account(&mut pool.get().unwrap(), "org@t.org", true, None);
    let mut moves_won = 0;
    for attempt in 0..TRIES {
        let (event, game) = published_round(&mut pool.get().unwrap(), &organiser);
        let (a, b) = (organiser.clone(), organiser.clone());
        let (moved, repaired) = {
            let mut outcomes = race(
                &pool,
                vec![
                    Box::new(move |conn: &mut DbConn| {
                        // Re-pairing works out the pairing before it writes: the move
                        // comes a little later on some tries, so that it meets the
                        // re-pairing's write and not only its planning.
                        std::thread::sleep(std::time::Duration::from_millis(attempt as u64 % 8));
                        submit(conn, &a, game, 1, "c3-d4").map(|_| ())
                    }),
                    Box::new(move |conn: &mut DbConn| {
                        rounds::repair_last(conn, &b, event).map(|_| ())
                    }),
                ],
            );
            let repaired = outcomes.pop().unwrap();
            (outcomes.pop().unwrap(), repaired)
        };
        let mut conn = pool.get().unwrap();
        let still_there = store::games::by_id(&mut conn, game).unwrap().is_some();
        match (&moved, &repaired) {
            (Ok(()), Err(AppError::Conflict { .. })) => {
                assert!(still_there, "try {attempt}: the game with a move is gone");
                assert_eq!(
                    stored_moves(&mut conn, game),
                    vec![(1, "c3-d4".to_string())],
                    "try {attempt}"
                );
            }
            (Err(AppError::NotFound { .. }), Ok(())) => {
                assert!(!still_there, "try {attempt}: the old round's game stayed");
            }
            _ => panic!("try {attempt}: move {moved:?}, re-pairing {repaired:?}"),
        }
        moves_won += usize::from(moved.is_ok());
    }
    eprintln!("first move against re-pairing: the move won {moves_won} of {TRIES}");
}

/// The first legal move (in sorted canonical spelling) after `line`, or the second one.
fn legal_after(line: &[String], which: usize) -> String {
    let mut game = damka_engine::Game::from_position(damka_engine::Position::start(
        damka_engine::Rules::preset(Variant::Russian),
    ));
    for mv in line {
        game.play_str(mv).unwrap();
    }
    let mut legal: Vec<String> = game.legal_moves().iter().map(|m| m.notation()).collect();
    legal.sort();
    legal[which.min(legal.len() - 1)].clone()
}

/// Plays the `which`-th legal move after `line` through `pool` and adds it to `line`.
fn move_on(
    pool: &DbPool,
    actor: &Actor,
    game: i64,
    line: &mut Vec<String>,
    which: usize,
) -> GameView {
    let mv = legal_after(line, which);
    let ply = line.len() as i32 + 1;
    match submit(&mut pool.get().unwrap(), actor, game, ply, &mv) {
        Ok(Submitted::Stored(view)) => {
            line.push(mv);
            view
        }
        other => panic!("ply {ply} {mv}: {other:?}"),
    }
}

/// Two instances on one database (two pools, as two processes have), each keeping the games
/// it has replayed: a move or a takeback made through one instance is never missed by the
/// next move through the other, which plays on from the position the database holds.
#[actix_web::test]
async fn instances_play_on_from_what_the_other_stored() {
    let app = TestApp::new().await;
    let (one, other) = (pool(&app, 2), pool(&app, 2));
    let (
        Seats {
            organiser,
            white,
            black,
            ..
        },
        game,
    ) = seated_game(&one);
    let mut line: Vec<String> = Vec::new();
    // The first instance replays and keeps the game after each of its moves.
    move_on(&one, &white, game, &mut line, 0);
    move_on(&one, &black, game, &mut line, 0);
    // The other instance moves; the first must see it, not its own kept state (which
    // has White to move and would refuse Black's move as out of turn).
    move_on(&other, &white, game, &mut line, 0);
    let view = move_on(&one, &black, game, &mut line, 0);
    let stored: Vec<String> = view.moves.iter().map(|m| m.notation.clone()).collect();
    assert_eq!(stored.len(), 4);
    // The answer to a move stored without the lock names the players as any other does.
    assert_eq!(
        (view.white.name.as_str(), view.black.name.as_str()),
        ("Ivanov", "Petrov")
    );
    // An arbiter's takeback through the other instance: the first instance is asked for
    // ply 4 again, not ply 5, and takes another move there.
    games::arbiter::take_back(&mut other.get().unwrap(), &organiser, game).unwrap();
    let refused = submit(&mut one.get().unwrap(), &white, game, 5, "a1-b2");
    assert!(
        matches!(
            &refused,
            Err(AppError::Conflict {
                reason: Refusal::PlyAhead { .. }
            })
        ),
        "{refused:?}"
    );
    line.pop();
    let view = move_on(&one, &black, game, &mut line, 1);
    assert_eq!(view.ply, 4);
    assert_eq!(
        stored_moves(&mut other.get().unwrap(), game)
            .into_iter()
            .map(|(_, mv)| mv)
            .collect::<Vec<_>>(),
        line
    );
}
