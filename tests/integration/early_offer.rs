//! Moves are never lost with an offer (issue 26): a move sent with a draw offer before the
//! rule allows one is stored (201), the answer says why no offer was made
//! (`draw_offer_refused`) and the page says when offers become possible. The offerer is
//! told when an offer is declined or lapses, on the game page and in the game's stream.
#![allow(clippy::unwrap_used)]
use crate::common::builders::lasting_move;
use crate::common::{TestApp, page_text};
use crate::game_in_progress::{LiveBoard, game, live_board, local_game};

use actix_web::http::{Method, StatusCode};
use serde_json::{Value, json};

/// The next move that keeps game `id` going, as the server has it now.
async fn next_move(board: &mut LiveBoard<'_>, id: i64) -> (i64, String) {
    let now = game(&mut board.org.api, id).await;
    let mut local = local_game(&now);
    let mv = lasting_move(&local);
    local.play(&mv).unwrap();
    (now["ply"].as_i64().unwrap() + 1, mv.notation())
}

/// Plays the next move as the player `side` over the API, with a draw offer if `offer`.
async fn move_with(board: &mut LiveBoard<'_>, side: &str, offer: bool) -> Value {
    let id = board.games[0];
    let (ply, mv) = next_move(board, id).await;
    let stored = board
        .player(side)
        .api
        .json(
            Method::POST,
            &format!("/api/v1/games/{id}/moves"),
            json!({"ply": ply, "move": mv, "offer_draw": offer}),
        )
        .await;
    assert_eq!(stored.status.as_u16(), 201, "{}", stored.body);
    stored.json()
}

#[actix_web::test]
async fn a_move_with_an_early_draw_offer_is_stored_without_the_offer() {
    let app = TestApp::new().await;
    let mut board = live_board(
        &app,
        json!({"name": "Club Swiss", "system": "swiss", "rounds": 3, "draw_offer_min_moves": 20}),
    )
    .await;
    let id = board.games[0];

    // Over the API: 201, the move stored, no offer pending, and why.
    let answer = move_with(&mut board, "white", true).await;
    assert_eq!(answer["ply"], 1);
    assert_eq!(answer["draw_offer"], Value::Null);
    let refused = &answer["draw_offer_refused"];
    assert_eq!(refused["code"], "draw_offer_too_early", "{answer}");
    assert_eq!(refused["moves_needed"], 20, "{answer}");
    assert!(
        refused["detail"]
            .as_str()
            .unwrap()
            .contains("20 moves each"),
        "{answer}"
    );
    let stored = game(&mut board.org.api, id).await;
    assert_eq!(
        (&stored["ply"], &stored["draw_offer"]),
        (&json!(1), &Value::Null)
    );
    // A move without an offer says nothing of one.
    let plain = move_with(&mut board, "black", false).await;
    assert!(plain.get("draw_offer_refused").is_none(), "{plain}");

    // Through the page's form: the move is played, the page says so and when offers
    // become possible.
    let (ply, mv) = next_move(&mut board, id).await;
    let ply = ply.to_string();
    let posted = board
        .white
        .browser
        .post_form(
            &format!("/games/{id}/moves"),
            &[("ply", &ply), ("move", &mv), ("offer_draw", "1")],
        )
        .await;
    assert_eq!(posted.status, StatusCode::SEE_OTHER, "{}", posted.body);
    let stored = game(&mut board.org.api, id).await;
    assert_eq!(
        (&stored["ply"], &stored["draw_offer"]),
        (&json!(3), &Value::Null)
    );
    let page = board.white.browser.get(&format!("/games/{id}")).await;
    let text = page_text(&page.body);
    assert!(
        text.contains("Your move is played; the draw was not offered"),
        "{text}"
    );
    assert!(
        text.contains("A draw may be offered once each side has made 20 moves."),
        "{text}"
    );
    assert!(page.body.contains(&format!(">{mv}</a>")), "{text}");

    // A plain move through the form: the board comes back as it is, with no "Saved."
    // banner over it (the move list shows the move; a banner after every move is noise).
    let (ply, mv) = next_move(&mut board, id).await;
    let posted = board
        .black
        .browser
        .post_form(
            &format!("/games/{id}/moves"),
            &[("ply", &ply.to_string()), ("move", &mv)],
        )
        .await;
    assert_eq!(posted.status, StatusCode::SEE_OTHER, "{}", posted.body);
    let page = board.black.browser.get(&format!("/games/{id}")).await;
    assert!(page.body.contains(&format!(">{mv}</a>")), "{}", page.body);
    assert!(
        !page.body.contains("class=\"flash"),
        "{}",
        page_text(&page.body)
    );
}

#[actix_web::test]
async fn the_offerer_is_told_when_an_offer_is_declined_or_lapses() {
    let app = TestApp::new().await;
    let mut board = live_board(
        &app,
        json!({"name": "Club Swiss", "system": "swiss", "rounds": 3, "draw_offer_min_moves": 1}),
    )
    .await;
    let id = board.games[0];
    move_with(&mut board, "white", false).await;
    move_with(&mut board, "black", false).await;
    let offered = move_with(&mut board, "white", true).await;
    assert_eq!(offered["draw_offer"]["by"], "white", "{offered}");
    assert_eq!(offered["draw_offer_answer"], Value::Null);

    // Declined: the game's stream and the offerer's page say so; the decliner's does not.
    let (status, _, mut events) = app
        .client()
        .stream(&format!("/api/v1/games/{id}/stream"), &[])
        .await;
    assert_eq!(status, StatusCode::OK);
    events.expect("state").await;
    let declined = board
        .black
        .api
        .post(&format!("/api/v1/games/{id}/draw-offer/decline"))
        .await;
    assert_eq!(declined.status.as_u16(), 200, "{}", declined.body);
    let state = events.expect("state").await.json();
    assert_eq!(
        state["draw_offer_answer"],
        json!({"by": "white", "ply": 3, "outcome": "declined", "answered_by": "black"}),
        "{state}"
    );
    let page = board.white.browser.get(&format!("/games/{id}")).await;
    assert!(
        page_text(&page.body).contains("Black declined your draw offer."),
        "{}",
        page_text(&page.body)
    );
    let page = board.black.browser.get(&format!("/games/{id}")).await;
    assert!(!page_text(&page.body).contains("declined your draw offer"));
    // Still said after the decliner's next move, until the offerer moves.
    move_with(&mut board, "black", false).await;
    let now = game(&mut board.org.api, id).await;
    assert_eq!(now["draw_offer_answer"]["outcome"], "declined", "{now}");

    // Lapsed: offered again, and the opponent moves on without answering.
    let offered = move_with(&mut board, "white", true).await;
    assert_eq!(offered["draw_offer"]["ply"], 5, "{offered}");
    assert_eq!(offered["draw_offer_answer"], Value::Null);
    move_with(&mut board, "black", false).await;
    let now = game(&mut board.org.api, id).await;
    assert_eq!(
        now["draw_offer_answer"],
        json!({"by": "white", "ply": 5, "outcome": "lapsed", "answered_by": "black"}),
        "{now}"
    );
    let page = board.white.browser.get(&format!("/games/{id}")).await;
    assert!(
        page_text(&page.body).contains("Your draw offer lapsed: Black moved without accepting it."),
        "{}",
        page_text(&page.body)
    );
    // Once the offerer moves again, nothing more is said.
    move_with(&mut board, "white", false).await;
    let now = game(&mut board.org.api, id).await;
    assert_eq!(now["draw_offer_answer"], Value::Null, "{now}");
}
