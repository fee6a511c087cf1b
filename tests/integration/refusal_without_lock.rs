//! Issue 25, cheap refusals: an illegal move, a move out of turn and a move on a finished
//! game are refused from a read, without waiting for the game's write lock. Another
//! connection holds that lock (SQLite: an open write transaction on the file; PostgreSQL:
//! the game row locked `FOR UPDATE`) while the refusals are asked for; each must be
//! answered before the lock is let go (a deadline of minutes, never a fixed sleep).
use std::sync::mpsc;
use std::time::Duration;

use actix_web::http::Method;
use diesel::Connection;
use diesel::connection::SimpleConnection;
use serde_json::json;

use crate::common::TestApp;
use crate::http_games::player;
use damka::store::Backend;

/// Long enough for the slowest machine, short enough that a request queued behind the
/// lock fails the test instead of hanging it.
const DEADLINE: Duration = Duration::from_secs(120);

/// Holds the write lock of game `game_id` from a connection of its own until told to let
/// go; returns once the lock is held.
fn hold_game_lock(app: &TestApp, game_id: i64) -> (mpsc::Sender<()>, std::thread::JoinHandle<()>) {
    let url = app.db.url.clone();
    let (held_tx, held_rx) = mpsc::channel();
    let (release_tx, release_rx) = mpsc::channel::<()>();
    let holder = std::thread::spawn(move || {
        let lock = format!("UPDATE games SET revision = revision WHERE id = {game_id}");
        match url.backend {
            Backend::Sqlite => {
                let mut conn = diesel::SqliteConnection::establish(&url.target)
                    .expect("the lock holder works");
                conn.batch_execute(&format!("BEGIN IMMEDIATE; {lock};"))
                    .expect("the lock holder works");
                held_tx.send(()).expect("the lock holder works");
                let _ = release_rx.recv();
                conn.batch_execute("ROLLBACK")
                    .expect("the lock holder works");
            }
            Backend::Postgres => {
                let mut conn =
                    diesel::PgConnection::establish(&url.target).expect("the lock holder works");
                conn.batch_execute(&format!(
                    "BEGIN; SELECT id FROM games WHERE id = {game_id} FOR UPDATE;"
                ))
                .expect("the lock holder works");
                held_tx.send(()).expect("the lock holder works");
                let _ = release_rx.recv();
                conn.batch_execute("ROLLBACK")
                    .expect("the lock holder works");
            }
        }
    });
    held_rx.recv_timeout(DEADLINE).expect("the lock is taken");
    (release_tx, holder)
}

#[actix_web::test]
async fn an_illegal_move_is_refused_while_another_request_holds_the_games_lock() {
    let app = TestApp::new().await;
    let (mut white, white_id) = player(&app, "w@t.org", "Ivanov").await;
    let (mut black, black_id) = player(&app, "b@t.org", "Petrov").await;
    let made = white
        .json(
            Method::POST,
            "/api/v1/games",
            json!({"variant": "russian", "white_player_id": white_id, "black_player_id": black_id}),
        )
        .await;
    assert_eq!(made.status.as_u16(), 201, "{}", made.body);
    let id = made.json()["id"].as_i64().unwrap();
    // Both sides have been answered once (sessions and the kept game are warm).
    let first = white
        .json(
            Method::POST,
            &format!("/api/v1/games/{id}/moves"),
            json!({"ply": 1, "move": "c3-d4"}),
        )
        .await;
    assert_eq!(first.status.as_u16(), 201, "{}", first.body);

    let (release, holder) = hold_game_lock(&app, id);
    let illegal = tokio::time::timeout(
        DEADLINE,
        black.json(
            Method::POST,
            &format!("/api/v1/games/{id}/moves"),
            json!({"ply": 2, "move": "a1-a2"}),
        ),
    )
    .await
    .expect("an illegal move is answered while the game's lock is held");
    let out_of_turn = tokio::time::timeout(
        DEADLINE,
        white.json(
            Method::POST,
            &format!("/api/v1/games/{id}/moves"),
            json!({"ply": 2, "move": "f6-g5"}),
        ),
    )
    .await
    .expect("a move out of turn is answered while the game's lock is held");
    release.send(()).unwrap();
    holder.join().unwrap();

    illegal.assert_refusal(422, "illegal_move");
    out_of_turn.assert_refusal(403, "not_your_turn");
    // Nothing was stored by the refusals; the legal move goes through once the lock is free.
    let legal = black
        .json(
            Method::POST,
            &format!("/api/v1/games/{id}/moves"),
            json!({"ply": 2, "move": "f6-g5"}),
        )
        .await;
    assert_eq!(legal.status.as_u16(), 201, "{}", legal.body);
}
