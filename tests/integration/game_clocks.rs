//! Clocks kept by the server, on a fake clock (the database's `TimeSource`): the first
//! move is not timed, Fischer increments and a fixed time per move, a late move refused
//! and the game lost on time, the sweep that ends a game nobody moves in, an arbiter's
//! start, a takeback, event games and their boards, the PDN clock comments and the event
//! form's time controls.
#![allow(clippy::unwrap_used)]
use crate::common::{self, Client, Role, TestApp};
use crate::http_games::{game_of, lasting_move, player, standalone};

use actix_web::http::Method;
use chrono::TimeDelta;
use damka::service::games::time_forfeit;
use damka_engine::{Game, Variant};
use serde_json::{Value, json};

/// Plays the next ply of `game` as `api` with a legal move chosen by the engine (one that
/// keeps the game going): the response.
async fn move_on(api: &mut Client<'_>, game: i64) -> common::Response {
    let current = game_of(api, game).await;
    let mut replay = Game::new(Variant::Russian);
    for mv in current["moves"].as_array().unwrap() {
        replay.play_str(mv["move"].as_str().unwrap()).unwrap();
    }
    let ply = current["ply"].as_i64().unwrap() + 1;
    let text = lasting_move(&replay).notation();
    api.json(
        Method::POST,
        &format!("/api/v1/games/{game}/moves"),
        json!({ "ply": ply, "move": text }),
    )
    .await
}

async fn moved(api: &mut Client<'_>, game: i64) -> Value {
    let response = move_on(api, game).await;
    assert_eq!(response.status.as_u16(), 201, "{}", response.body);
    response.json()
}

/// The clock fields that change: (white_ms, black_ms, running).
fn clock(view: &Value) -> (i64, i64, bool) {
    let clock = &view["clock"];
    (
        clock["white_ms"].as_i64().unwrap(),
        clock["black_ms"].as_i64().unwrap(),
        clock["running"].as_bool().unwrap(),
    )
}

async fn swept(app: &TestApp) -> Vec<i64> {
    app.with_db(|conn| time_forfeit::sweep(conn).unwrap()).await
}

fn seconds(s: f64) -> TimeDelta {
    TimeDelta::milliseconds((s * 1000.0) as i64)
}

/// On a fake clock set to now: two players' API clients and a standalone game between
/// them with `clock`, created by White: (White, Black, the game as created).
async fn timed_game(app: &TestApp, clock: Value) -> (Client<'_>, Client<'_>, Value) {
    app.time().set(chrono::Utc::now().naive_utc());
    let (mut white, white_id) = player(app, "w@t.org", "Ivanov").await;
    let (black, black_id) = player(app, "b@t.org", "Petrov").await;
    let game = standalone(&mut white, white_id, black_id, json!({ "clock": clock })).await;
    (white, black, game)
}

#[actix_web::test]
async fn fischer_clocks_start_with_the_first_move_and_add_the_increment() {
    let app = TestApp::new().await;
    let (mut white, mut black, created) = timed_game(
        &app,
        json!({"kind": "fischer", "base_s": 300, "increment_s": 3}),
    )
    .await;
    let time = app.time();
    let id = created["id"].as_i64().unwrap();
    assert_eq!(
        created["clock"],
        json!({"kind": "fischer", "base_s": 300, "increment_s": 3,
               "white_ms": 300_000, "black_ms": 300_000, "running": false}),
        "no clock runs before the first move"
    );
    time.advance(seconds(10.0));
    assert_eq!(
        clock(&game_of(&mut white, id).await),
        (300_000, 300_000, false)
    );

    // White's first move is not timed; Black's clock starts with it.
    let first = moved(&mut white, id).await;
    assert_eq!(clock(&first), (300_000, 300_000, true));
    assert_eq!(first["moves"][0]["clock_ms"], 300_000);
    time.advance(seconds(4.0));
    assert_eq!(
        clock(&game_of(&mut white, id).await),
        (300_000, 296_000, true),
        "Black's time runs down, White's stands"
    );

    // Black's move is timed: 4 s used, 3 s added. White's clock runs from now.
    let second = moved(&mut black, id).await;
    assert_eq!(clock(&second), (300_000, 299_000, true));
    time.advance(seconds(7.5));
    let third = moved(&mut white, id).await;
    assert_eq!(clock(&third), (295_500, 299_000, true));
    assert_eq!(third["moves"][2]["clock_ms"], 295_500);

    // The page shows both clocks; the running one is marked for the ticking script.
    let page = white.get(&format!("/games/{id}")).await.body;
    assert!(
        page.contains(r#"<time data-clock-ms="295500">4:56</time>"#),
        "{page}"
    );
    assert!(
        page.contains(r#"<time data-clock-ms="299000" data-clock-running>4:59</time>"#),
        "{page}"
    );
    assert!(page.contains("5 min + 3 s per move"), "{page}");

    // PDN carries the control and each move's clocks, the mover's letter in lower case.
    let pdn = white.get(&format!("/api/v1/games/{id}/pdn")).await.body;
    assert!(pdn.contains("[TimeControl \"300+3\"]"), "{pdn}");
    assert!(pdn.contains("{[%clock w0:05:00 B0:05:00]}"), "{pdn}");
    assert!(pdn.contains("{[%clock W0:05:00 b0:04:59]}"), "{pdn}");
    assert!(pdn.contains("{[%clock w0:04:56 B0:04:59]}"), "{pdn}");
}

#[actix_web::test]
async fn a_fixed_time_per_move_resets_and_a_late_move_loses_on_time() {
    let app = TestApp::new().await;
    let (mut white, mut black, game) =
        timed_game(&app, json!({"kind": "per_move", "base_s": 30})).await;
    let time = app.time();
    let id = game["id"].as_i64().unwrap();
    moved(&mut white, id).await;
    time.advance(seconds(20.0));
    let after_black = moved(&mut black, id).await;
    assert_eq!(
        clock(&after_black),
        (30_000, 30_000, true),
        "what is left of a move's time is not carried over"
    );
    assert_eq!(after_black["clock"]["kind"], "per_move");
    time.advance(seconds(29.9));
    assert_eq!(clock(&game_of(&mut black, id).await), (100, 30_000, true));
    time.advance(seconds(0.1));

    // At 30 s the flag has fallen: the move is refused and the game lost on time.
    move_on(&mut white, id)
        .await
        .assert_refusal(409, "flag_fallen");
    let over = game_of(&mut black, id).await;
    assert_eq!(
        (
            &over["status"],
            &over["result"],
            &over["reason"],
            over["ply"].as_i64()
        ),
        (
            &json!("finished"),
            &json!("0-1"),
            &json!("time_forfeit"),
            Some(2)
        )
    );
    assert_eq!(clock(&over), (0, 30_000, false), "the clocks stopped");
    move_on(&mut white, id)
        .await
        .assert_refusal(409, "game_over");
    time.advance(seconds(60.0));
    assert_eq!(clock(&game_of(&mut black, id).await), (0, 30_000, false));
}

#[actix_web::test]
async fn the_sweep_ends_a_game_nobody_moves_in() {
    let app = TestApp::new().await;
    let (mut white, mut black, game) = timed_game(
        &app,
        json!({"kind": "fischer", "base_s": 60, "increment_s": 0}),
    )
    .await;
    let time = app.time();
    let id = game["id"].as_i64().unwrap();
    // A game whose clocks never started is never swept.
    time.advance(seconds(3600.0));
    assert_eq!(swept(&app).await, Vec::<i64>::new());
    moved(&mut white, id).await;
    moved(&mut black, id).await;
    time.advance(seconds(59.0));
    assert_eq!(
        swept(&app).await,
        Vec::<i64>::new(),
        "White still has a second"
    );
    time.advance(seconds(1.0));
    assert_eq!(swept(&app).await, vec![id]);
    let over = game_of(&mut black, id).await;
    assert_eq!(
        (&over["result"], &over["reason"]),
        (&json!("0-1"), &json!("time_forfeit"))
    );
    assert_eq!(swept(&app).await, Vec::<i64>::new(), "a game is ended once");
}

#[actix_web::test]
async fn an_arbiter_starts_the_clock_and_a_takeback_gives_the_time_back() {
    let app = TestApp::new().await;
    let time = app.time();
    time.set(chrono::Utc::now().naive_utc());
    let mut org = common::organiser_api(&app, "org@t.org").await;
    let (mut white, white_id) = player(&app, "w@t.org", "Ivanov").await;
    let (mut black, black_id) = player(&app, "b@t.org", "Petrov").await;
    let id = standalone(
        &mut org,
        white_id,
        black_id,
        json!({"clock": {"kind": "fischer", "base_s": 600, "increment_s": 5}}),
    )
    .await["id"]
        .as_i64()
        .unwrap();
    let start = format!("/api/v1/games/{id}/clock/start");
    white
        .post(&start)
        .await
        .assert_refusal(403, "only_game_arbiters");
    let started = org.post(&start).await;
    assert_eq!(started.status.as_u16(), 200, "{}", started.body);
    assert_eq!(clock(&started.json()), (600_000, 600_000, true));
    time.advance(seconds(20.0));
    assert_eq!(
        clock(&game_of(&mut org, id).await),
        (580_000, 600_000, true)
    );
    // Over the board the first move is timed like any other.
    assert_eq!(
        clock(&moved(&mut white, id).await),
        (585_000, 600_000, true)
    );
    time.advance(seconds(2.0));
    assert_eq!(
        clock(&moved(&mut black, id).await),
        (585_000, 603_000, true)
    );
    time.advance(seconds(1.0));

    // Taking Black's move back gives Black the time it had before it, running again.
    let back = org.post(&format!("/api/v1/games/{id}/takeback")).await;
    assert_eq!(back.status.as_u16(), 200, "{}", back.body);
    assert_eq!(clock(&back.json()), (585_000, 600_000, true));
    time.advance(seconds(5.0));
    assert_eq!(
        clock(&game_of(&mut org, id).await),
        (585_000, 595_000, true)
    );

    // An untimed game has no clock to start.
    let untimed = standalone(&mut org, white_id, black_id, json!({})).await;
    assert_eq!(untimed["clock"], Value::Null);
    org.post(&format!("/api/v1/games/{}/clock/start", untimed["id"]))
        .await
        .assert_refusal(409, "not_timed");
}

#[actix_web::test]
async fn an_event_times_its_games_and_a_flag_fall_reaches_the_board() {
    let app = TestApp::new().await;
    let time = app.time();
    time.set(chrono::Utc::now().naive_utc());
    let mut org = common::organiser_api(&app, "org@t.org").await;
    let bad = org
        .json(
            Method::POST,
            "/api/v1/events",
            json!({"name": "Bad", "system": "swiss", "rounds": 3,
                   "clock": {"kind": "hourglass", "base_s": 60}}),
        )
        .await;
    assert!(
        bad.status.is_client_error() && bad.body.contains("hourglass"),
        "{} {}",
        bad.status,
        bad.body
    );
    let made = org
        .json(
            Method::POST,
            "/api/v1/events",
            json!({"name": "Rapid", "system": "swiss", "rounds": 3, "time_control": "blitz",
                   "clock": {"kind": "fischer", "base_s": 900, "increment_s": 10}}),
        )
        .await;
    assert_eq!(made.status.as_u16(), 201, "{}", made.body);
    let made = made.json();
    assert_eq!(
        made["clock"],
        json!({"kind": "fischer", "base_s": 900, "increment_s": 10})
    );
    assert_eq!(
        made["time_control"], "rapid",
        "the category follows the clock"
    );
    let event = made["id"].as_i64().unwrap();
    let (mut white, white_id) = player(&app, "w@t.org", "Ivanov").await;
    let (_black, black_id) = player(&app, "b@t.org", "Petrov").await;
    for player_id in [white_id, black_id] {
        let entry = org
            .json(
                Method::POST,
                &format!("/api/v1/events/{event}/entries"),
                json!({ "player_id": player_id }),
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
    let board = rounds[0]["boards"][0].clone();
    let game = board["game_id"].as_i64().unwrap();
    let view = game_of(&mut org, game).await;
    assert_eq!(view["clock"]["base_s"], 900);
    assert_eq!(clock(&view), (900_000, 900_000, false));

    // The arbiter starts the round's clocks: White's runs at once.
    let start = format!("/api/v1/events/{event}/rounds/1/clocks/start");
    white
        .post(&start)
        .await
        .assert_refusal(403, "only_game_arbiters");
    let started = org.post(&start).await;
    assert_eq!(started.status.as_u16(), 200, "{}", started.body);
    assert_eq!(started.json()["started"], json!([game]));
    assert_eq!(org.post(&start).await.json()["started"], json!([]));
    org.post(&format!("/api/v1/events/{event}/rounds/9/clocks/start"))
        .await
        .assert_problem(404, "not-found");

    // White's player is whoever has White on board 1; let them run out of time.
    let white_side = if view["white"]["player_id"] == white_id {
        &mut white
    } else {
        &mut org
    };
    time.advance(seconds(900.0));
    move_on(white_side, game)
        .await
        .assert_refusal(409, "flag_fallen");
    let rounds = org
        .get(&format!("/api/v1/events/{event}/rounds"))
        .await
        .json();
    assert_eq!(rounds[0]["boards"][0]["result"], "0-1", "{rounds}");
}

#[actix_web::test]
async fn the_event_form_offers_the_usual_controls_and_a_custom_one() {
    let app = TestApp::new().await;
    let mut browser = app.user("org@t.org", Role::Organiser).await;
    browser.cookies.insert("damka_lang".into(), "ru".into());
    let page = browser.get("/events/new").await;
    for label in [
        "Без часов",
        "90 мин + 30 с за ход",
        "15 мин + 10 с за ход",
        "5 мин + 3 с за ход",
        "30 с на ход",
        "60 с на ход",
        "другой…",
    ] {
        assert!(page.body.contains(label), "{label} missing");
    }
    let made = browser
        .post_form(
            "/events",
            &[
                ("name", "Blitz evening"),
                ("system", "swiss"),
                ("rounds", "5"),
                ("clock", "fischer:300+3"),
            ],
        )
        .await;
    assert_eq!(made.status.as_u16(), 303, "{}", made.body);
    let shown = browser.get(&made.location()).await;
    assert!(shown.body.contains("5 мин + 3 с за ход"), "{}", shown.body);
    assert!(shown.body.contains("блиц"));

    let custom = browser
        .post_form(
            "/events",
            &[
                ("name", "Slow evening"),
                ("system", "swiss"),
                ("rounds", "5"),
                ("clock", "custom"),
                ("clock_kind", "per_move"),
                ("clock_per_move_s", "45"),
            ],
        )
        .await;
    let id = common::created_event_id(&custom);
    let mut api = browser.api_client().await;
    let event = api.get(&format!("/api/v1/events/{id}")).await.json();
    assert_eq!(
        event["clock"],
        json!({"kind": "per_move", "base_s": 45, "increment_s": 0})
    );
    let edit = browser.get(&format!("/events/{id}/edit")).await;
    assert!(
        edit.body.contains(r#"<option value="custom" selected>"#),
        "a custom control comes back as custom"
    );

    let wrong = browser
        .post_form(
            "/events",
            &[
                ("name", "Wrong"),
                ("system", "swiss"),
                ("rounds", "5"),
                ("clock", "custom"),
                ("clock_kind", "fischer"),
                ("clock_base_min", "0"),
                ("clock_increment_s", "0"),
            ],
        )
        .await;
    assert_eq!(wrong.status.as_u16(), 422, "{}", wrong.body);
    assert!(wrong.body.contains("field-error"), "{}", wrong.body);
}
