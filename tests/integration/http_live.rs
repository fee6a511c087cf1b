//! Live streams over HTTP (Server-Sent Events), on the database the run uses: a game's
//! `move` and `state` events as moves, offers, results and takebacks happen; a reconnect
//! with `Last-Event-ID` gets exactly the plies it missed; an event's current round as its
//! boards change. On PostgreSQL every event here travels through NOTIFY and this process's
//! listener; on SQLite through the in-process signal.
#![allow(clippy::unwrap_used)]
use crate::common;

use std::time::Duration;

use actix_web::http::Method;
use common::{SseEvent, TestApp};
use serde_json::{Value, json};

use crate::http_games::{Sides, game_of, play, player, standalone};

/// A `state` event's data and the game as `GET /api/v1/games/{id}` shows it are the same
/// (but for the clock, which is "as of the answer's time").
fn assert_same_game(event: &SseEvent, got: &Value) {
    let mut streamed = event.json();
    let mut got = got.clone();
    for value in [&mut streamed, &mut got] {
        if let Some(object) = value.as_object_mut() {
            object.remove("clock");
        }
    }
    assert_eq!(streamed, got);
}

fn words(moves: &[&str]) -> Vec<String> {
    moves.iter().map(|m| m.to_string()).collect()
}

#[actix_web::test]
async fn a_game_stream_sends_each_move_then_the_state_and_the_state_alone_for_other_changes() {
    let app = TestApp::new().await;
    let mut org = common::organiser_api(&app, "org@t.org").await;
    let (white, white_id) = player(&app, "w@t.org", "Ivanov").await;
    let (black, black_id) = player(&app, "b@t.org", "Petrov").await;
    let mut sides = Sides { white, black };
    let id = standalone(&mut org, white_id, black_id, json!({})).await["id"]
        .as_i64()
        .unwrap();
    let path = format!("/api/v1/games/{id}/stream");

    // Anyone may watch, as anyone may read the game.
    let mut spectator = app.client();
    let (status, headers, mut events) = spectator.stream(&path, &[]).await;
    assert_eq!(status.as_u16(), 200);
    assert_eq!(headers.get("content-type").unwrap(), "text/event-stream");
    assert_eq!(headers.get("cache-control").unwrap(), "no-cache");
    let first = events.expect("state").await;
    assert_eq!(first.id.as_deref(), Some("0"));
    assert_same_game(&first, &game_of(&mut org, id).await);
    events.assert_quiet(Duration::from_millis(300)).await;

    // A move: its `move` event, then the state after it.
    let stored = play(&mut sides.white, id, 1, "c3-d4").await;
    assert_eq!(stored.status.as_u16(), 201, "{}", stored.body);
    let mv = events.expect("move").await;
    assert_eq!(mv.id.as_deref(), Some("1"));
    let now = game_of(&mut org, id).await;
    assert_eq!(
        mv.json(),
        json!({"ply": 1, "move": "c3-d4", "fen": now["fen"], "side_to_move": "black",
            "clock_ms": null})
    );
    let state = events.expect("state").await;
    assert_eq!(state.id.as_deref(), Some("1"));
    assert_same_game(&state, &now);

    // The move typed another way is the canonical one in the event.
    let stored = play(&mut sides.black, id, 2, "f6g5").await;
    assert_eq!(stored.status.as_u16(), 201, "{}", stored.body);
    let mv = events.expect("move").await;
    assert_eq!(
        (mv.id.as_deref(), &mv.json()["move"]),
        (Some("2"), &json!("f6-g5"))
    );
    assert_eq!(events.expect("state").await.json()["ply"], 2);
    // A resend of a stored move changes nothing and says nothing.
    assert_eq!(
        play(&mut sides.black, id, 2, "f6-g5").await.status.as_u16(),
        200
    );
    events.assert_quiet(Duration::from_millis(300)).await;

    // The arbiter takes ply 2 back: the state alone, one ply shorter.
    let back = org.post(&format!("/api/v1/games/{id}/takeback")).await;
    assert_eq!(back.status.as_u16(), 200, "{}", back.body);
    let state = events.expect("state").await;
    assert_eq!(state.id.as_deref(), Some("1"));
    assert_same_game(&state, &game_of(&mut org, id).await);
    // Black plays another ply 2: a `move` event for it again.
    let stored = play(&mut sides.black, id, 2, "b6-a5").await;
    assert_eq!(stored.status.as_u16(), 201, "{}", stored.body);
    let mv = events.expect("move").await;
    assert_eq!(
        (mv.id.as_deref(), &mv.json()["move"]),
        (Some("2"), &json!("b6-a5"))
    );
    events.expect("state").await;

    // A result: the state alone.
    let set = org
        .json(
            Method::PUT,
            &format!("/api/v1/games/{id}/result"),
            json!({"result": "0-1"}),
        )
        .await;
    assert_eq!(set.status.as_u16(), 200, "{}", set.body);
    let state = events.expect("state").await.json();
    assert_eq!(
        (&state["status"], &state["result"]),
        (&json!("finished"), &json!("0-1"))
    );
    events.assert_quiet(Duration::from_millis(300)).await;

    // A game that does not exist: a clear 404, no stream.
    let missing = spectator.get("/api/v1/games/999999/stream").await;
    missing.assert_problem(404, "not-found");
}

#[actix_web::test]
async fn a_reconnect_with_last_event_id_gets_exactly_the_plies_it_missed() {
    let app = TestApp::new().await;
    let mut org = common::organiser_api(&app, "org@t.org").await;
    let (white, white_id) = player(&app, "w@t.org", "Ivanov").await;
    let (black, black_id) = player(&app, "b@t.org", "Petrov").await;
    let mut sides = Sides { white, black };
    let id = standalone(&mut org, white_id, black_id, json!({})).await["id"]
        .as_i64()
        .unwrap();
    let line = words(&["c3-d4", "f6-g5", "g3-f4", "g7-f6", "b2-c3"]);
    let now = sides.play_line(id, &line).await;
    let path = format!("/api/v1/games/{id}/stream");
    let mut spectator = app.client();

    // Had ply 2: plies 3, 4 and 5, then the state; nothing more.
    let (_, _, mut events) = spectator.stream(&path, &[("Last-Event-ID", "2")]).await;
    let mut fens = Vec::new();
    for ply in 3..=5 {
        let mv = events.expect("move").await;
        assert_eq!(mv.id, Some(ply.to_string()));
        let data = mv.json();
        assert_eq!(
            (&data["ply"], &data["move"]),
            (&json!(ply), &json!(line[ply - 1]))
        );
        fens.push(data["fen"].clone());
    }
    assert_eq!(fens.last().unwrap(), &now["fen"]);
    let state = events.expect("state").await;
    assert_eq!(state.id.as_deref(), Some("5"));
    assert_same_game(&state, &game_of(&mut org, id).await);
    events.assert_quiet(Duration::from_millis(300)).await;

    // Had everything: the state alone.
    let (_, _, mut events) = spectator.stream(&path, &[("Last-Event-ID", "5")]).await;
    events.expect("state").await;
    events.assert_quiet(Duration::from_millis(200)).await;

    // Had plies since taken back (it saw 7, the game has 5): the state alone.
    let (_, _, mut events) = spectator.stream(&path, &[("Last-Event-ID", "7")]).await;
    assert_eq!(events.expect("state").await.json()["ply"], 5);
    events.assert_quiet(Duration::from_millis(200)).await;

    // From the start: every ply.
    let (_, _, mut events) = spectator.stream(&path, &[("Last-Event-ID", "0")]).await;
    for ply in 1..=5 {
        assert_eq!(events.expect("move").await.id, Some(ply.to_string()));
    }
    events.expect("state").await;
}

#[actix_web::test]
async fn many_watchers_of_one_game_each_get_every_move() {
    let app = TestApp::new().await;
    let mut org = common::organiser_api(&app, "org@t.org").await;
    let (white, white_id) = player(&app, "w@t.org", "Ivanov").await;
    let (black, black_id) = player(&app, "b@t.org", "Petrov").await;
    let mut sides = Sides { white, black };
    let id = standalone(&mut org, white_id, black_id, json!({})).await["id"]
        .as_i64()
        .unwrap();
    let path = format!("/api/v1/games/{id}/stream");
    let mut spectator = app.client();
    let mut watchers = Vec::new();
    for _ in 0..20 {
        let (_, _, mut events) = spectator.stream(&path, &[]).await;
        events.expect("state").await;
        watchers.push(events);
    }
    let line = words(&["c3-d4", "f6-g5", "g3-f4"]);
    for (index, mv) in line.iter().enumerate() {
        let ply = index as i64 + 1;
        let side = if ply % 2 == 1 {
            &mut sides.white
        } else {
            &mut sides.black
        };
        assert_eq!(play(side, id, ply, mv).await.status.as_u16(), 201);
    }
    // However the changes were grouped when read, each watcher gets each ply once, in
    // order, and ends on the state after the last.
    for events in &mut watchers {
        let mut seen = Vec::new();
        let mut last_state = Value::Null;
        while last_state["ply"] != 3 {
            let event = events
                .next_within(Duration::from_secs(5))
                .await
                .expect("events");
            match event.event.as_str() {
                "move" => seen.push(event.json()["move"].as_str().unwrap().to_string()),
                "state" => last_state = event.json(),
                other => panic!("unexpected event {other}"),
            }
        }
        assert_eq!(seen, line);
    }
}

#[actix_web::test]
async fn an_event_stream_sends_the_current_round_after_each_change() {
    let app = TestApp::new().await;
    let mut org = common::organiser_api(&app, "org@t.org").await;
    let event = common::create_event(
        &mut org,
        json!({"name": "Club Swiss", "system": "swiss", "rounds": 3}),
    )
    .await;
    common::enter_players(&mut org, event, 5).await;
    let path = format!("/api/v1/events/{event}/stream");
    let mut spectator = app.client();
    let (status, _, mut events) = spectator.stream(&path, &[]).await;
    assert_eq!(status.as_u16(), 200);
    let before = events.expect("round").await.json();
    assert_eq!(
        before,
        json!({"event_id": event, "round": null, "boards": []})
    );

    // A draft round is not shown; publishing it is.
    let paired = org.post(&format!("/api/v1/events/{event}/rounds")).await;
    assert_eq!(paired.status.as_u16(), 201, "{}", paired.body);
    events.assert_quiet(Duration::from_millis(500)).await;
    let published = org
        .post(&format!("/api/v1/events/{event}/rounds/publish"))
        .await;
    assert_eq!(published.status.as_u16(), 204, "{}", published.body);
    let round = events.expect("round").await.json();
    assert_eq!(round["round"], 1);
    let boards = round["boards"].as_array().unwrap();
    assert_eq!(boards.len(), 3, "two boards and a bye: {round}");
    let game = boards[0]["game_id"].as_i64().expect("board 1 has a game");
    assert_eq!(
        (
            &boards[0]["board"],
            &boards[0]["ply"],
            &boards[0]["status"],
            &boards[0]["clock"]
        ),
        (&json!(1), &json!(0), &json!("ongoing"), &Value::Null)
    );
    assert!(
        boards[2]["black"].is_null() && boards[2]["game_id"].is_null(),
        "{round}"
    );

    // The organiser (an arbiter of the event) enters a move on board 1: its count moves.
    let stored = play(&mut org, game, 1, "c3-d4").await;
    assert_eq!(stored.status.as_u16(), 201, "{}", stored.body);
    let round = events.expect("round").await.json();
    assert_eq!(round["boards"][0]["ply"], 1);
    // A result entered on board 2 (a board with a game, taken through the game).
    let pairing = org
        .get(&format!("/api/v1/events/{event}/rounds"))
        .await
        .json()[0]["boards"][1]["pairing_id"]
        .as_i64()
        .unwrap();
    let entered = org
        .json(
            Method::PUT,
            &format!("/api/v1/events/{event}/pairings/{pairing}/result"),
            json!({"result": "1/2-1/2"}),
        )
        .await;
    assert!(entered.status.is_success(), "{}", entered.body);
    let round = events.expect("round").await.json();
    assert_eq!(
        (&round["boards"][1]["result"], &round["boards"][1]["status"]),
        (&json!("1/2-1/2"), &json!("finished"))
    );

    // An event that does not exist: a clear 404.
    spectator
        .get("/api/v1/events/999999/stream")
        .await
        .assert_problem(404, "not-found");
}

/// The value of `attribute` on the element whose opening tag contains `marker`.
fn attribute_near(html: &str, marker: &str, attribute: &str) -> String {
    let at = html
        .find(marker)
        .unwrap_or_else(|| panic!("no `{marker}` in the page"));
    let tag_start = html[..at].rfind('<').unwrap();
    let tag_end = at + html[at..].find('>').unwrap();
    let tag = &html[tag_start..tag_end];
    let key = format!("{attribute}=\"");
    let start = tag
        .find(&key)
        .unwrap_or_else(|| panic!("no {attribute} in {tag}"))
        + key.len();
    tag[start..start + tag[start..].find('"').unwrap()].to_string()
}

/// The keys `static/live.js` computes from a stream event, written again here: a page
/// whose key differs from its stream's is fetched again on every event.
fn script_game_key(state: &Value) -> String {
    let offer = match &state["draw_offer"] {
        Value::Null => String::new(),
        offer => format!("{}@{}", offer["by"].as_str().unwrap(), offer["ply"]),
    };
    format!(
        "{}|{}|{}|{offer}",
        state["ply"],
        state["status"].as_str().unwrap(),
        state["result"].as_str().unwrap_or("")
    )
}

fn script_round_key(round: &Value) -> String {
    let mut parts = vec![match &round["round"] {
        Value::Null => String::new(),
        number => number.to_string(),
    }];
    for board in round["boards"].as_array().unwrap() {
        let mut results = vec![board["result"].as_str().unwrap_or("")];
        let games = board["games"].as_array().unwrap();
        if games.len() > 1 {
            results.extend(games.iter().map(|g| g["result"].as_str().unwrap_or("")));
        }
        parts.push(results.join(","));
    }
    parts.join("|")
}

/// The pages that update themselves carry their stream and the key of what they show,
/// equal to the key the script computes from the stream's first event (else the page
/// would be fetched again at once); and they load the script.
#[actix_web::test]
async fn live_pages_carry_their_stream_and_the_key_of_what_they_show() {
    let app = TestApp::new().await;
    let mut org = common::organiser_api(&app, "org@t.org").await;
    let mut white_browser = app.user("w@t.org", common::Role::Player).await;
    let mut white = white_browser.api_client().await;
    let made = white
        .json(Method::POST, "/api/v1/players", json!({ "name": "Ivanov" }))
        .await;
    let white_id = made.json()["id"].as_i64().unwrap();
    let (_, black_id) = player(&app, "b@t.org", "Petrov").await;
    let id = standalone(&mut org, white_id, black_id, json!({})).await["id"]
        .as_i64()
        .unwrap();
    let stream = format!("/api/v1/games/{id}/stream");
    let mut spectator = app.client();

    for step in ["start", "moved", "finished"] {
        match step {
            "moved" => assert_eq!(play(&mut white, id, 1, "c3-d4").await.status.as_u16(), 201),
            "finished" => {
                let set = org
                    .json(
                        Method::PUT,
                        &format!("/api/v1/games/{id}/result"),
                        json!({"result": "1-0"}),
                    )
                    .await;
                assert_eq!(set.status.as_u16(), 200, "{}", set.body);
            }
            _ => {}
        }
        let page = spectator.get(&format!("/games/{id}")).await;
        assert_eq!(page.status.as_u16(), 200);
        assert!(
            page.body
                .contains(r#"<script src="/static/live.js" defer></script>"#)
        );
        let marker = format!(r#"data-live-stream="{stream}""#);
        let (_, _, mut events) = spectator.stream(&stream, &[]).await;
        let state = events.expect("state").await.json();
        assert_eq!(
            attribute_near(&page.body, &marker, "data-live-key"),
            script_game_key(&state),
            "{step}"
        );
        assert_eq!(
            attribute_near(&page.body, &marker, "data-live-page"),
            format!("/games/{id}")
        );
    }

    // The home page of a player with a game in progress watches it.
    let other = standalone(&mut org, white_id, black_id, json!({})).await["id"]
        .as_i64()
        .unwrap();
    assert_eq!(
        play(&mut white, other, 1, "c3-d4").await.status.as_u16(),
        201
    );
    let home = white_browser.get("/").await;
    let marker = format!(r#"data-live-stream="/api/v1/games/{other}/stream""#);
    assert_eq!(
        attribute_near(&home.body, &marker, "data-live-key"),
        "1|ongoing"
    );
    assert_eq!(
        attribute_near(&home.body, &marker, "data-live-swap"),
        "my-games"
    );
    assert!(home.body.contains(r#"id="my-games""#));

    // The pairings tab of an event with a result in.
    let event = common::create_event(
        &mut org,
        json!({"name": "Club Swiss", "system": "swiss", "rounds": 3}),
    )
    .await;
    common::enter_players(&mut org, event, 4).await;
    org.post(&format!("/api/v1/events/{event}/rounds")).await;
    org.post(&format!("/api/v1/events/{event}/rounds/publish"))
        .await;
    let pairing = org
        .get(&format!("/api/v1/events/{event}/rounds"))
        .await
        .json()[0]["boards"][1]["pairing_id"]
        .as_i64()
        .unwrap();
    let entered = org
        .json(
            Method::PUT,
            &format!("/api/v1/events/{event}/pairings/{pairing}/result"),
            json!({"result": "0-1"}),
        )
        .await;
    assert!(entered.status.is_success(), "{}", entered.body);
    let page = spectator.get(&format!("/events/{event}?tab=rounds")).await;
    let marker = format!(r#"data-live-stream="/api/v1/events/{event}/stream""#);
    let (_, _, mut events) = spectator
        .stream(&format!("/api/v1/events/{event}/stream"), &[])
        .await;
    let round = events.expect("round").await.json();
    let key = attribute_near(&page.body, &marker, "data-live-key");
    assert_eq!(key, script_round_key(&round));
    assert_eq!(
        key, "1||0-1",
        "round 1: no result on board 1, 0-1 on board 2"
    );
}

/// What a pairings tab or a game page names as the page the live script fetches again is
/// what it shows: the round asked for (issue 26: a `?round=1` page became round 2 on the
/// first live update) and the side the board is shown from; a form's answer about a
/// round shows that round; the key of a micro-match round counts each game's result as the
/// script does (else every event of the stream fetches the page again).
#[actix_web::test]
async fn live_pages_are_fetched_again_at_the_round_and_side_they_show() {
    let app = TestApp::new().await;
    let mut browser = app.user("org@t.org", common::Role::Organiser).await;
    let mut org = browser.api_client().await;
    let event = common::EventBuilder::swiss("Club Swiss", 3)
        .players(4)
        .played(&["1-0", "1/2-1/2"])
        .played(&[])
        .build(&mut org)
        .await;
    let id = event.id;
    let marker = format!(r#"data-live-stream="/api/v1/events/{id}/stream""#);
    let live_page =
        |body: &str| attribute_near(body, &marker, "data-live-page").replace("&#38;", "&");
    for (asked, shown) in [("&round=1", 1), ("", 2), ("&round=2", 2), ("&round=9", 2)] {
        let page = browser
            .get(&format!("/events/{id}?tab=rounds{asked}"))
            .await;
        assert_eq!(page.status.as_u16(), 200);
        let again = live_page(&page.body);
        assert_eq!(
            again,
            format!("/events/{id}?tab=rounds&round={shown}"),
            "{asked}"
        );
        let fetched = browser.get(&again).await.body;
        assert!(
            fetched.contains(&format!(r#"action="/events/{id}/rounds/{shown}/results""#))
                && fetched.matches(r#"class="round-results""#).count() == 1,
            "{again} shows round {shown}: {fetched}"
        );
    }

    // Round 1's results form answers with round 1, saved or refused.
    let round_1 = &event.rounds[0];
    let board_1 = format!("result_{}", common::games(round_1)[0]["pairing_id"]);
    let form = format!("/events/{id}/rounds/1/results");
    let saved = browser.post_form(&form, &[(&board_1, "0-1")]).await;
    assert_eq!(saved.status.as_u16(), 303, "{}", saved.body);
    assert_eq!(saved.location(), format!("/events/{id}?tab=rounds&round=1"));
    let refused = browser.post_form(&form, &[(&board_1, "2-0")]).await;
    assert_eq!(refused.status.as_u16(), 422, "{}", refused.body);
    assert_eq!(
        live_page(&refused.body),
        format!("/events/{id}?tab=rounds&round=1")
    );
    assert!(
        refused.body.contains(&format!(r#"action="{form}""#))
            && !refused
                .body
                .contains(&format!(r#"action="/events/{id}/rounds/2/results""#)),
        "{}",
        refused.body
    );

    // A game page shown from Black's side is fetched again from Black's side.
    let rounds = org.get(&format!("/api/v1/events/{id}/rounds")).await.json();
    let game = rounds[1]["boards"][0]["game_id"].as_i64().unwrap();
    let marker = format!(r#"data-live-stream="/api/v1/games/{game}/stream""#);
    for (asked, again) in [
        ("?flip=1", format!("/games/{game}?flip=1")),
        ("?ply=0&flip=0", format!("/games/{game}?flip=0")),
        ("", format!("/games/{game}")),
    ] {
        let page = browser.get(&format!("/games/{game}{asked}")).await;
        assert_eq!(page.status.as_u16(), 200);
        let named = attribute_near(&page.body, &marker, "data-live-page").replace("&#38;", "&");
        assert_eq!(named, again, "{asked}");
        // Stepping through the moves keeps the side too: the first-ply link names it.
        let first = format!("/games/{game}?ply=0");
        let kept = match asked {
            "?flip=1" => format!("{first}&#38;flip=1#board"),
            "?ply=0&flip=0" => format!("{first}&#38;flip=0#board"),
            _ => format!("{first}#board"),
        };
        assert!(
            page.body.contains(&format!(r#"href="{kept}""#)),
            "{asked}: no step link {kept}"
        );
    }

    // A micro-match round with one game's result in: the page's key is the script's.
    let micro = common::create_event(
        &mut org,
        json!({"name": "Micro", "system": "swiss", "rounds": 3, "games_per_pairing": 2}),
    )
    .await;
    common::enter_players(&mut org, micro, 4).await;
    common::play_round(&mut org, micro, &[]).await;
    let boards = org
        .get(&format!("/api/v1/events/{micro}/rounds"))
        .await
        .json()[0]["boards"]
        .clone();
    let entered = org
        .json(
            Method::PUT,
            &format!(
                "/api/v1/events/{micro}/pairings/{}/games/1/result",
                boards[0]["pairing_id"]
            ),
            json!({"result": "1-0"}),
        )
        .await;
    assert!(entered.status.is_success(), "{}", entered.body);
    let page = browser.get(&format!("/events/{micro}?tab=rounds")).await;
    let (_, _, mut events) = browser
        .stream(&format!("/api/v1/events/{micro}/stream"), &[])
        .await;
    let round = events.expect("round").await.json();
    let marker = format!(r#"data-live-stream="/api/v1/events/{micro}/stream""#);
    let key = attribute_near(&page.body, &marker, "data-live-key");
    assert_eq!(key, script_round_key(&round));
    assert_eq!(
        key, "1|,1-0,|,,",
        "board 1: game 1 won by White; board 2: nothing in"
    );
}
