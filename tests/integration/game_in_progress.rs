//! Ending a live game is a decision (issue 26): a result typed for a board whose game has
//! moves and is not over is refused with 409 `game_in_progress` (with the moves played)
//! unless `end_game` confirms it; the game then ends as the arbiter's decision, and its
//! page, PDN and the event's audit name who decided. The pages ask in words first. A game
//! without moves, or one already over, takes a typed result as before, read as "result
//! entered by <name>".
#![allow(clippy::unwrap_used)]
use crate::common::builders::lasting_move;
use crate::common::{Client, Response, Role, TestApp, page_text};

use actix_web::http::{Method, StatusCode};
use damka_engine::{Color, Game, Position, Rules, Variant};
use serde_json::{Value, json};

/// One person's two clients: the browser (pages) and the API.
pub struct Person<'a> {
    pub browser: Client<'a>,
    pub api: Client<'a>,
}

/// An account signed in with an API token; a player gets a profile of their own named
/// `profile`.
pub async fn person<'a>(
    app: &'a TestApp,
    email: &str,
    role: Role,
    profile: Option<&str>,
) -> (Person<'a>, Option<i64>) {
    let mut browser = app.user(email, role).await;
    let mut api = browser.api_client().await;
    let id = match profile {
        Some(name) => {
            let made = api
                .json(Method::POST, "/api/v1/players", json!({ "name": name }))
                .await;
            assert_eq!(made.status.as_u16(), 201, "{}", made.body);
            made.json()["id"].as_i64()
        }
        None => None,
    };
    (Person { browser, api }, id)
}

/// An event with one board between two player accounts, its round published: the board's
/// game is on the site.
pub struct LiveBoard<'a> {
    /// The organiser (`org`).
    pub org: Person<'a>,
    /// The players of the board's first game, each with their own side (`ivanov` and
    /// `petrov`, whoever got White).
    pub white: Person<'a>,
    pub black: Person<'a>,
    pub event: i64,
    pub pairing: i64,
    /// The board's games (two in a micro-match).
    pub games: Vec<i64>,
}

/// Creates the event from `body` (a Swiss event unless it says otherwise), enters the two
/// players and publishes round 1.
pub async fn live_board<'a>(app: &'a TestApp, body: Value) -> LiveBoard<'a> {
    let (mut org, _) = person(app, "org@t.org", Role::Organiser, None).await;
    let (one, one_id) = person(app, "ivanov@t.org", Role::Player, Some("Ivanov")).await;
    let (two, two_id) = person(app, "petrov@t.org", Role::Player, Some("Petrov")).await;
    let event = crate::common::create_event(&mut org.api, body).await;
    for player_id in [one_id, two_id] {
        let entry = org
            .api
            .json(
                Method::POST,
                &format!("/api/v1/events/{event}/entries"),
                json!({ "player_id": player_id }),
            )
            .await;
        assert_eq!(entry.status.as_u16(), 201, "{}", entry.body);
    }
    let paired = org
        .api
        .post(&format!("/api/v1/events/{event}/rounds"))
        .await;
    assert_eq!(paired.status.as_u16(), 201, "{}", paired.body);
    let published = org
        .api
        .post(&format!("/api/v1/events/{event}/rounds/publish"))
        .await;
    assert_eq!(published.status.as_u16(), 204, "{}", published.body);
    let rounds = org
        .api
        .get(&format!("/api/v1/events/{event}/rounds"))
        .await
        .json();
    let board = rounds[0]["boards"][0].clone();
    let pairing = board["pairing_id"].as_i64().unwrap();
    let games: Vec<i64> = match board["games"].as_array() {
        Some(games) if !games.is_empty() => games
            .iter()
            .map(|g| g["game_id"].as_i64().unwrap())
            .collect(),
        _ => vec![board["game_id"].as_i64().unwrap()],
    };
    let first = game(&mut org.api, games[0]).await;
    let (white, black) = if first["white"]["player_id"] == json!(one_id) {
        (one, two)
    } else {
        (two, one)
    };
    LiveBoard {
        org,
        white,
        black,
        event,
        pairing,
        games,
    }
}

pub async fn game(api: &mut Client<'_>, id: i64) -> Value {
    let got = api.get(&format!("/api/v1/games/{id}")).await;
    assert_eq!(got.status.as_u16(), 200, "{}", got.body);
    got.json()
}

/// The game the server shows as `now` (Russian draughts), to be played on locally.
pub fn local_game(now: &Value) -> Game {
    Game::from_position(
        Position::from_fen(
            Rules::preset(Variant::Russian),
            now["fen"].as_str().unwrap(),
        )
        .unwrap(),
    )
}

/// The board of a three-round club Swiss event ("Club Swiss").
pub async fn club_swiss_board(app: &TestApp) -> LiveBoard<'_> {
    live_board(
        app,
        json!({"name": "Club Swiss", "system": "swiss", "rounds": 3}),
    )
    .await
}

/// Asserts that game `id` is over with `result` for `reason`, decided by the organiser.
async fn assert_over(api: &mut Client<'_>, id: i64, result: &str, reason: &str) {
    let over = game(api, id).await;
    assert_eq!(
        (
            &over["status"],
            &over["result"],
            &over["reason"],
            &over["decided_by"]
        ),
        (
            &json!("finished"),
            &json!(result),
            &json!(reason),
            &json!("org")
        )
    );
}

impl<'a> LiveBoard<'a> {
    /// The API path of the board's result (the whole board's, not one game's).
    pub fn result_path(&self) -> String {
        format!(
            "/api/v1/events/{}/pairings/{}/result",
            self.event, self.pairing
        )
    }

    /// The organiser puts `body` at the result `path` over the API.
    pub async fn put_result(&mut self, path: &str, body: Value) -> Response {
        self.org.api.json(Method::PUT, path, body).await
    }

    /// The organiser puts `body` at the result `path` and it is taken (204).
    pub async fn set_result(&mut self, path: &str, body: Value) {
        let put = self.put_result(path, body).await;
        assert_eq!(put.status.as_u16(), 204, "{}", put.body);
    }

    /// The player of `side` in the board's first game.
    pub fn player(&mut self, side: &str) -> &mut Person<'a> {
        match side {
            "white" => &mut self.white,
            _ => &mut self.black,
        }
    }

    /// Plays `plies` moves in game `game_id` of the board, each by the player on move (in a
    /// micro-match's second game the colours are swapped), each a move that keeps the game
    /// going; returns the game after the last.
    pub async fn play(&mut self, game_id: i64, plies: usize) -> Value {
        let mut now = game(&mut self.org.api, game_id).await;
        let swapped = now["white"]["player_id"]
            != game(&mut self.org.api, self.games[0]).await["white"]["player_id"];
        let mut local = local_game(&now);
        for _ in 0..plies {
            let mv = lasting_move(&local);
            let mover = local.side_to_move();
            local.play(&mv).unwrap();
            let side = match (mover, swapped) {
                (Color::White, false) | (Color::Black, true) => "white",
                _ => "black",
            };
            let ply = now["ply"].as_i64().unwrap() + 1;
            let stored = self
                .player(side)
                .api
                .json(
                    Method::POST,
                    &format!("/api/v1/games/{game_id}/moves"),
                    json!({"ply": ply, "move": mv.notation()}),
                )
                .await;
            assert_eq!(stored.status.as_u16(), 201, "ply {ply}: {}", stored.body);
            now = stored.json();
            assert_eq!(now["status"], "ongoing", "{now}");
        }
        now
    }
}

/// The organiser posts the results form at `path` with `fields`, ending the board's first
/// game while it is being played: the page asks `question` and nothing is stored yet.
async fn asked(
    board: &mut LiveBoard<'_>,
    path: &str,
    fields: &[(&str, &str)],
    question: &str,
) -> Response {
    let asked = board.org.browser.post_form(path, fields).await;
    assert_eq!(asked.status, StatusCode::OK, "{}", asked.body);
    let text = page_text(&asked.body);
    assert!(text.contains(question), "{text}");
    let first = board.games[0];
    assert_eq!(game(&mut board.org.api, first).await["status"], "ongoing");
    asked
}

/// The board's result as the event's rounds show it.
async fn board_result(api: &mut Client<'_>, event: i64) -> Value {
    let rounds = api
        .get(&format!("/api/v1/events/{event}/rounds"))
        .await
        .json();
    rounds[0]["boards"][0]["result"].clone()
}

/// The event's result changes, oldest first, as (old, new, by).
async fn result_audit(api: &mut Client<'_>, event: i64) -> Vec<(Value, Value, String)> {
    let changes = api.get(&format!("/api/v1/events/{event}/changes")).await;
    assert_eq!(changes.status.as_u16(), 200, "{}", changes.body);
    let mut out: Vec<(Value, Value, String)> = changes.json()["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["kind"] == "result")
        .map(|c| {
            (
                c["old"].clone(),
                c["new"].clone(),
                c["by"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    out.reverse();
    out
}

#[actix_web::test]
async fn a_result_for_a_game_in_progress_is_refused_until_the_arbiter_decides() {
    let app = TestApp::new().await;
    let mut board = club_swiss_board(&app).await;
    let (event, id) = (board.event, board.games[0]);
    board.play(id, 5).await;
    let path = board.result_path();

    // Three moves played (five half-moves): the result would end the game; refused.
    let refused = board.put_result(&path, json!({"result": "1-0"})).await;
    let problem = refused.assert_refusal(409, "game_in_progress");
    assert_eq!(problem["moves"], 3, "{problem}");
    assert!(
        problem["detail"].as_str().unwrap().contains("3 moves"),
        "{problem}"
    );
    let still = game(&mut board.org.api, id).await;
    assert_eq!(
        (&still["status"], &still["ply"]),
        (&json!("ongoing"), &json!(5))
    );
    assert_eq!(board_result(&mut board.org.api, event).await, Value::Null);
    assert!(result_audit(&mut board.org.api, event).await.is_empty());

    // Confirmed: the game ends with the result, as the arbiter's decision.
    board
        .set_result(&path, json!({"result": "1-0", "end_game": true}))
        .await;
    assert_over(&mut board.org.api, id, "1-0", "arbiter").await;
    assert_eq!(board_result(&mut board.org.api, event).await, "1-0");
    board
        .white
        .api
        .json(
            Method::POST,
            &format!("/api/v1/games/{id}/moves"),
            json!({"ply": 6, "move": "a1-b2"}),
        )
        .await;
    assert_eq!(
        game(&mut board.org.api, id).await["ply"],
        5,
        "no more moves"
    );

    // Its page, its PDN and the event's audit name who decided.
    let page = app.client().get(&format!("/games/{id}")).await;
    assert!(
        page_text(&page.body).contains("arbiter's decision (org)"),
        "{}",
        page_text(&page.body)
    );
    let pdn = app.client().get(&format!("/api/v1/games/{id}/pdn")).await;
    assert!(
        pdn.body
            .contains("[Termination \"arbiter's decision (org)\"]"),
        "{}",
        pdn.body
    );
    assert_eq!(
        result_audit(&mut board.org.api, event).await,
        vec![(Value::Null, json!("1-0"), "org".to_string())]
    );

    // The game is over now: a correction is typed as before, and reads as entered.
    board.set_result(&path, json!({"result": "0-1"})).await;
    assert_over(&mut board.org.api, id, "0-1", "entered").await;
    let page = app.client().get(&format!("/games/{id}")).await;
    assert!(
        page_text(&page.body).contains("result entered by org"),
        "{}",
        page_text(&page.body)
    );
}

#[actix_web::test]
async fn a_game_without_moves_takes_a_typed_result_entered_by_its_organiser() {
    let app = TestApp::new().await;
    let mut board = club_swiss_board(&app).await;
    let id = board.games[0];
    let path = board.result_path();
    board.set_result(&path, json!({"result": "1/2-1/2"})).await;
    assert_over(&mut board.org.api, id, "1/2-1/2", "entered").await;
    let page = app.client().get(&format!("/games/{id}")).await;
    let text = page_text(&page.body);
    assert!(text.contains("result entered by org"), "{text}");
    assert!(!text.contains("arbiter's decision"), "{text}");
    let pdn = app.client().get(&format!("/api/v1/games/{id}/pdn")).await;
    assert!(
        pdn.body.contains("[Termination \"result entered by org\"]"),
        "{}",
        pdn.body
    );
}

#[actix_web::test]
async fn a_micro_match_game_in_progress_is_ended_only_when_confirmed() {
    let app = TestApp::new().await;
    let mut board = live_board(
        &app,
        json!({"name": "Cup", "system": "swiss", "rounds": 3, "games_per_pairing": 2,
               "opening_ballot": "idf64"}),
    )
    .await;
    let (event, pairing) = (board.event, board.pairing);
    let (first, second) = (board.games[0], board.games[1]);
    // The drawn opening's plies are nobody's moves; two more are the players'.
    let before = game(&mut board.org.api, first).await;
    board.play(first, 2).await;
    let moves = (before["ply"].as_i64().unwrap() + 2 + 1) / 2;
    let path = format!("/api/v1/events/{event}/pairings/{pairing}/games/1/result");
    let refused = board.put_result(&path, json!({"result": "0-1"})).await;
    assert_eq!(
        refused.assert_refusal(409, "game_in_progress")["moves"],
        moves
    );
    assert_eq!(game(&mut board.org.api, first).await["status"], "ongoing");

    // The round's form asks about game 1 in words, and nothing is stored yet.
    let counted = if moves == 1 {
        "1 move".to_string()
    } else {
        format!("{moves} moves")
    };
    let question = format!(
        "game 1 ({} – {}): the game is being played, {counted}; end it with 0-1?",
        before["white"]["name"].as_str().unwrap(),
        before["black"]["name"].as_str().unwrap()
    );
    let form = asked(
        &mut board,
        &format!("/events/{event}/rounds/1/results"),
        &[(&format!("result_{pairing}_1"), "0-1")],
        &question,
    )
    .await;
    assert_eq!(
        form.hidden_input(&format!("end_game_{pairing}_1"))
            .as_deref(),
        Some("1")
    );

    board
        .set_result(&path, json!({"result": "0-1", "end_game": true}))
        .await;
    assert_over(&mut board.org.api, first, "0-1", "arbiter").await;
    // Game 2 has only the opening's plies: its result is typed as before.
    board
        .set_result(
            &format!("/api/v1/events/{event}/pairings/{pairing}/games/2/result"),
            json!({"result": "1-0"}),
        )
        .await;
    assert_eq!(game(&mut board.org.api, second).await["reason"], "entered");
}

#[actix_web::test]
async fn the_results_forms_ask_before_ending_a_game_in_progress() {
    let app = TestApp::new().await;
    let mut board = club_swiss_board(&app).await;
    let (event, pairing, id) = (board.event, board.pairing, board.games[0]);
    let before = board.play(id, 5).await;
    let (white, black) = (
        before["white"]["name"].as_str().unwrap().to_string(),
        before["black"]["name"].as_str().unwrap().to_string(),
    );
    let question =
        format!("Board 1 ({white} – {black}): the game is being played, 3 moves; end it with 1-0?");

    // One board's form.
    let single = format!("/events/{event}/pairings/{pairing}/result");
    let single_asked = asked(&mut board, &single, &[("result", "1-0")], &question).await;
    assert_eq!(single_asked.hidden_input("end_game").as_deref(), Some("1"));
    // Cancelling goes back to the board's own round, not the latest.
    assert!(
        single_asked
            .body
            .contains(&format!("href=\"/events/{event}?tab=rounds&#38;round=1\"")),
        "{}",
        single_asked.body
    );

    // The round's form: asked, then stored once confirmed.
    let round = format!("/events/{event}/rounds/1/results");
    let result_field = format!("result_{pairing}");
    let round_asked = asked(&mut board, &round, &[(&result_field, "1-0")], &question).await;
    let confirm_field = format!("end_game_{pairing}");
    assert_eq!(
        round_asked.hidden_input(&confirm_field).as_deref(),
        Some("1")
    );
    assert_eq!(
        round_asked.hidden_input(&result_field).as_deref(),
        Some("1-0")
    );
    let confirmed = board
        .org
        .browser
        .post_form(&round, &[(&result_field, "1-0"), (&confirm_field, "1")])
        .await;
    assert_eq!(
        confirmed.status,
        StatusCode::SEE_OTHER,
        "{}",
        confirmed.body
    );
    assert_eq!(
        confirmed.location(),
        format!("/events/{event}?tab=rounds&round=1")
    );
    assert_over(&mut board.org.api, id, "1-0", "arbiter").await;
}
