//! Ending a live game is a decision, in a real browser (issue 26 item 2): the organiser
//! types a result for a board whose game is being played, the page asks in words ("the
//! game is being played, 3 moves; end it with 1-0?"), and only the confirming button ends
//! the game with that result. JavaScript is off, as the harness has it: the question is a
//! page of its own. Once in Russian on a phone (390 px), once in English on a desktop
//! (1280 px), in one browser session.
//!
//! The event is made in-process over the API (two boards, each game three moves in); the
//! browser then talks to a `damka serve` on the same database. See `browser.rs` for what
//! happens when Chromium is missing.
#![allow(clippy::unwrap_used, clippy::expect_used)]
use crate::browser::{
    LAYOUT_PROBLEMS, WHOLE_FLOW, browser_programs, chromium_capabilities, click, expect_text,
    finish, open_session, run_session, save_evidence, start_driver, start_server, value_of,
    wait_for, wait_path,
};
use crate::browser_event_game::steps::sign_in;
use crate::common::builders::lasting_move;
use crate::common::{Client, Role, TestApp, create_event};
use crate::game_in_progress::{game, local_game};

use actix_web::http::Method;
use anyhow::{Context, Result, bail, ensure};
use fantoccini::Locator;
use serde_json::json;

/// The organiser made by `TestApp::user`, and its password there.
const ORGANISER: &str = "org@t.org";
const PASSWORD: &str = "password-123";

/// A board of round 1 with its game.
struct Board {
    pairing: i64,
    game: i64,
}

/// An event of four players (profiles the organiser made) with round 1 published and
/// each board's game three moves in (five half-moves entered by the organiser, who may
/// enter moves for both sides). Returns the event and its two boards.
async fn seed(org: &mut Client<'_>) -> (i64, Vec<Board>) {
    let event = create_event(
        org,
        json!({"name": "Riverside Swiss", "system": "swiss", "rounds": 3}),
    )
    .await;
    for name in ["Antonov", "Belov", "Chernov", "Dmitrieva"] {
        let made = org
            .json(Method::POST, "/api/v1/players", json!({ "name": name }))
            .await;
        assert_eq!(made.status.as_u16(), 201, "{}", made.body);
        let entry = org
            .json(
                Method::POST,
                &format!("/api/v1/events/{event}/entries"),
                json!({ "player_id": made.json()["id"] }),
            )
            .await;
        assert_eq!(entry.status.as_u16(), 201, "{}", entry.body);
    }
    let paired = org.post(&format!("/api/v1/events/{event}/rounds")).await;
    assert_eq!(paired.status.as_u16(), 201, "{}", paired.body);
    let published = org
        .post(&format!("/api/v1/events/{event}/rounds/publish"))
        .await;
    assert_eq!(published.status.as_u16(), 204, "{}", published.body);
    let rounds = org
        .get(&format!("/api/v1/events/{event}/rounds"))
        .await
        .json();
    let mut boards = Vec::new();
    for board in rounds[0]["boards"].as_array().unwrap() {
        let id = board["game_id"].as_i64().unwrap();
        let mut local = local_game(&game(org, id).await);
        for ply in 1..=5 {
            let mv = lasting_move(&local);
            local.play(&mv).unwrap();
            let stored = org
                .json(
                    Method::POST,
                    &format!("/api/v1/games/{id}/moves"),
                    json!({"ply": ply, "move": mv.notation()}),
                )
                .await;
            assert_eq!(stored.status.as_u16(), 201, "{}", stored.body);
        }
        boards.push(Board {
            pairing: board["pairing_id"].as_i64().unwrap(),
            game: id,
        });
    }
    assert_eq!(boards.len(), 2);
    (event, boards)
}

#[actix_web::test]
async fn the_organiser_confirms_ending_a_game_in_progress_in_both_languages() {
    let Some((chromium, chromedriver)) = browser_programs() else {
        return;
    };
    let app = TestApp::new().await;
    let mut org = app
        .user(ORGANISER, Role::Organiser)
        .await
        .api_client()
        .await;
    let (event, boards) = seed(&mut org).await;

    let dir = tempfile::tempdir().unwrap();
    let (server, server_port) = start_server(&app.db.url.target, dir.path());
    let (driver, driver_port) = start_driver(&chromedriver, dir.path());
    let base = format!("http://127.0.0.1:{server_port}");
    let capabilities = chromium_capabilities(&chromium, &dir.path().join("profile"), false);
    let browser = open_session(driver_port, capabilities).await.unwrap();

    let flow = async {
        sign_in(&browser, &base, ORGANISER, PASSWORD).await?;
        let runs = [
            (
                "ru",
                390,
                "1-0",
                "партия идёт, 3 хода; завершить её с результатом 1-0?",
            ),
            (
                "en",
                1280,
                "0-1",
                "the game is being played, 3 moves; end it with 0-1?",
            ),
        ];
        for ((lang, width, result, question), board) in runs.into_iter().zip(&boards) {
            browser.goto(&format!("{base}/")).await?;
            click(
                &browser,
                &format!(r#"form.lang-switch button[name="lang"][value="{lang}"]"#),
            )
            .await?;
            wait_for(&browser, &format!(r#"html[lang="{lang}"]"#)).await?;
            browser.set_window_size(width, 844).await?;
            let shown = browser
                .execute("return document.documentElement.clientWidth;", vec![])
                .await?
                .as_i64()
                .unwrap_or_default();
            ensure!(
                shown <= i64::from(width),
                "{lang}: the page is {shown} px wide, not {width}"
            );
            end_game_by_form(&browser, &base, event, board, result, question, dir.path()).await?;
            let over = game(&mut org, board.game).await;
            ensure!(
                (
                    &over["status"],
                    &over["result"],
                    &over["reason"],
                    &over["decided_by"]
                ) == (
                    &json!("finished"),
                    &json!(result),
                    &json!("arbiter"),
                    &json!("org")
                ),
                "{lang}: the game is not ended by the organiser's decision: {over}"
            );
        }
        anyhow::Ok(())
    };
    let outcome = run_session(&browser, dir.path(), WHOLE_FLOW, flow).await;
    finish(outcome, server, driver, dir);
}

/// On the rounds tab, types `result` for `board`, reads the question, checks the page
/// fits, confirms, and sees the result stored on the tab.
async fn end_game_by_form(
    c: &fantoccini::Client,
    base: &str,
    event: i64,
    board: &Board,
    result: &str,
    question: &str,
    shots: &std::path::Path,
) -> Result<()> {
    c.goto(&format!("{base}/events/{event}?tab=rounds&round=1"))
        .await?;
    let field = format!(
        r#"form.round-results select[name="result_{}"]"#,
        board.pairing
    );
    wait_for(c, &field)
        .await?
        .select_by_value(result)
        .await
        .context("choosing the result")?;
    click(c, r#"form.round-results button[type="submit"]"#).await?;
    expect_text(c, "p.end-game-question", question).await?;
    // Kept where `DAMKA_SCREENSHOT_DIR` says, for a look at the question on each screen.
    save_evidence(c, shots, &format!("end-game-question-{result}")).await?;
    let width: i64 = c
        .execute("return document.documentElement.clientWidth;", vec![])
        .await?
        .as_i64()
        .unwrap_or_default();
    let problems = c.execute(LAYOUT_PROBLEMS, vec![]).await?;
    ensure!(
        problems.as_array().is_some_and(Vec::is_empty),
        "the question does not fit {width} px: {problems}"
    );
    // Nothing is stored until the organiser confirms.
    if c.find(Locator::Css(".flash.ok")).await.is_ok() {
        bail!("the question came with a saved message");
    }
    click(c, ".confirm-end-game button.danger").await?;
    wait_path(c, &format!("/events/{event}")).await?;
    let shown = value_of(c, &field).await?;
    ensure!(shown == result, "the tab shows {shown:?} for the board");
    Ok(())
}
