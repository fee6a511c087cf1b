//! Right words for each reader (issue 26): "Your move" only for the player to move, the
//! side to move for everyone else (the organiser entering moves included); the arbiter's
//! result menu shows the stored result.
#![allow(clippy::unwrap_used)]
use crate::common::{TestApp, page_text};
use crate::game_in_progress::{club_swiss_board, game};

use actix_web::http::Method;
use serde_json::json;

#[actix_web::test]
async fn your_move_is_said_only_to_the_player_to_move() {
    let app = TestApp::new().await;
    let mut board = club_swiss_board(&app).await;
    let id = board.games[0];
    let path = format!("/games/{id}");

    let mover = page_text(&board.white.browser.get(&path).await.body);
    assert!(mover.contains("White to move · your move"), "{mover}");
    assert!(mover.contains("Your move"), "the move form: {mover}");

    let other = page_text(&board.black.browser.get(&path).await.body);
    assert!(other.contains("White to move"), "{other}");
    assert!(!other.to_lowercase().contains("your move"), "{other}");

    let organiser = page_text(&board.org.browser.get(&path).await.body);
    assert!(organiser.contains("White to move"), "{organiser}");
    assert!(
        organiser.contains("Move for White"),
        "the organiser enters moves for both sides: {organiser}"
    );
    assert!(
        !organiser.to_lowercase().contains("your move"),
        "{organiser}"
    );

    let spectator = page_text(&app.client().get(&path).await.body);
    assert!(spectator.contains("White to move"), "{spectator}");
    assert!(
        !spectator.to_lowercase().contains("your move"),
        "{spectator}"
    );

    // In Russian, the organiser reads the side to move, not «Ваш ход».
    let russian = board
        .org
        .browser
        .request(Method::GET, &path, None, &[("accept-language", "ru")])
        .await;
    let russian = page_text(&russian.body);
    assert!(russian.contains("Ход белых"), "{russian}");
    assert!(russian.contains("Ход за белых"), "{russian}");
    assert!(!russian.contains("Ваш ход"), "{russian}");
}

#[actix_web::test]
async fn the_arbiters_menu_shows_the_stored_result() {
    let app = TestApp::new().await;
    let mut board = club_swiss_board(&app).await;
    let id = board.games[0];
    let page = board.org.browser.get(&format!("/games/{id}")).await;
    assert!(
        page.body.contains("<option value=\"\" selected>"),
        "no result yet: {}",
        page.body
    );

    let path = board.result_path();
    board.set_result(&path, json!({"result": "0-1"})).await;
    assert_eq!(game(&mut board.org.api, id).await["result"], "0-1");
    let page = board.org.browser.get(&format!("/games/{id}")).await;
    assert!(
        page.body.contains("<option value=\"0-1\" selected>"),
        "{}",
        page.body
    );
    assert!(!page.body.contains("<option value=\"\" selected>"));
    let text = page_text(&page.body);
    assert!(text.contains("result entered by org"), "{text}");
    assert!(!text.contains("set by the arbiter"), "{text}");
}
