//! Games over HTTP: moves checked by the engine, turns, draw offers, resignation, the
//! arbiters' result and takeback, event games and their results on the boards.
#![allow(clippy::unwrap_used)]
use crate::common;

use actix_web::http::Method;
use common::{Client, Role, TestApp};
use serde_json::{Value, json};

/// A player account with its own profile, as an API client; returns (client, player id).
pub async fn player<'a>(app: &'a TestApp, email: &str, name: &str) -> (Client<'a>, i64) {
    let mut browser = app.user(email, Role::Player).await;
    let mut api = browser.api_client().await;
    let made = api
        .json(Method::POST, "/api/v1/players", json!({ "name": name }))
        .await;
    assert_eq!(made.status.as_u16(), 201, "{}", made.body);
    let id = made.json()["id"].as_i64().unwrap();
    (api, id)
}

pub async fn play(api: &mut Client<'_>, game: i64, ply: i64, mv: &str) -> common::Response {
    api.json(
        Method::POST,
        &format!("/api/v1/games/{game}/moves"),
        json!({ "ply": ply, "move": mv }),
    )
    .await
}

#[actix_web::test]
async fn a_standalone_game_is_played_move_by_move() {
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
    let game: Value = made.json();
    let id = game["id"].as_i64().unwrap();
    assert_eq!(game["status"], "ongoing");
    assert_eq!(game["side_to_move"], "white");
    assert_eq!(game["legal_moves"].as_array().unwrap().len(), 7);

    let first = play(&mut white, id, 1, "c3d4").await;
    assert_eq!(first.status.as_u16(), 201, "{}", first.body);
    assert_eq!(first.json()["moves"][0]["move"], "c3-d4");
    // A resend of the same move (another spelling) changes nothing.
    let again = play(&mut white, id, 1, "c3-d4").await;
    assert_eq!(again.status.as_u16(), 200, "{}", again.body);
    assert_eq!(again.json()["ply"], 1);
    // Another move for a taken ply is refused with the stored one.
    let taken = play(&mut white, id, 1, "a3-b4").await;
    let problem = taken.assert_refusal(409, "ply_taken");
    assert_eq!(problem["stored_move"], "c3-d4");
    // White may not move for Black.
    play(&mut white, id, 2, "f6-g5")
        .await
        .assert_refusal(403, "not_your_turn");
    let illegal = play(&mut black, id, 2, "f6-f5").await;
    let problem = illegal.assert_refusal(422, "illegal_move");
    assert_eq!(problem["legal_moves"].as_array().unwrap().len(), 7);
    play(&mut black, id, 3, "f6-g5")
        .await
        .assert_refusal(409, "ply_ahead");
    let reply = play(&mut black, id, 2, "f6-g5").await;
    assert_eq!(reply.status.as_u16(), 201, "{}", reply.body);
    // Too early for a draw offer.
    let early = black.post(&format!("/api/v1/games/{id}/draw-offer")).await;
    let problem = early.assert_refusal(409, "draw_offer_too_early");
    assert_eq!(problem["moves_needed"], 19);
    let resigned = white.post(&format!("/api/v1/games/{id}/resign")).await;
    assert_eq!(resigned.status.as_u16(), 200, "{}", resigned.body);
    let over = resigned.json();
    assert_eq!(over["result"], "0-1");
    assert_eq!(over["reason"], "resignation");
    assert_eq!(over["legal_moves"].as_array().unwrap().len(), 0);
    play(&mut white, id, 3, "d4-c5")
        .await
        .assert_refusal(409, "game_over");

    let page = app.client().get(&format!("/games/{id}")).await;
    assert_eq!(page.status.as_u16(), 200, "{}", page.body);
    assert!(page.body.contains("c3-d4"), "{}", page.body);
}
