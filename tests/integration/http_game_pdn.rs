//! Games as PDN over HTTP: one game and an event's games written with their tags and
//! moves (Russian and English numbering), the page downloads, and a round's games imported
//! from a file: moves replayed by the engine, results reaching the standings, and a file
//! with one bad game refused whole.
#![allow(clippy::unwrap_used)]
use crate::common;

use actix_web::http::{Method, header};
use actix_web::{test, web};
use common::{Client, Response, Role, TestApp, create_event, enter_players, organiser_api};
use serde_json::{Value, json};

use crate::http_games::play;

/// A published round of a new event with `players` players: (event id, the round's boards
/// that have a game, in board order).
async fn event_with_round(
    api: &mut Client<'_>,
    settings: Value,
    players: usize,
) -> (i64, Vec<Value>) {
    let id = create_event(api, settings).await;
    enter_players(api, id, players).await;
    let boards = pair_and_publish(api, id).await;
    (id, boards)
}

/// Pairs and publishes the next round; returns its boards that have a game.
async fn pair_and_publish(api: &mut Client<'_>, event_id: i64) -> Vec<Value> {
    let paired = api.post(&format!("/api/v1/events/{event_id}/rounds")).await;
    assert_eq!(paired.status.as_u16(), 201, "{}", paired.body);
    let published = api
        .post(&format!("/api/v1/events/{event_id}/rounds/publish"))
        .await;
    assert_eq!(published.status.as_u16(), 204, "{}", published.body);
    let rounds = api
        .get(&format!("/api/v1/events/{event_id}/rounds"))
        .await
        .json();
    let last = rounds.as_array().unwrap().last().unwrap().clone();
    last["boards"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| !b["game_id"].is_null())
        .cloned()
        .collect()
}

fn game_id(board: &Value) -> i64 {
    board["game_id"].as_i64().unwrap()
}

fn name(board: &Value, side: &str) -> String {
    board[format!("{side}_name")].as_str().unwrap().to_string()
}

async fn import(api: &mut Client<'_>, event_id: i64, round: i32, pdn: &str) -> Response {
    api.request(
        Method::POST,
        &format!("/api/v1/events/{event_id}/rounds/{round}/pdn"),
        Some(("text/plain", pdn.to_string())),
        &[],
    )
    .await
}

async fn game(api: &mut Client<'_>, id: i64) -> Value {
    api.get(&format!("/api/v1/games/{id}")).await.json()
}

/// The moves of a game as the API lists them.
fn moves(game: &Value) -> Vec<String> {
    game["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect()
}

async fn half_points(api: &mut Client<'_>, event_id: i64) -> Vec<(String, i64)> {
    let standings = api
        .get(&format!("/api/v1/events/{event_id}/standings"))
        .await
        .json();
    let mut rows: Vec<(String, i64)> = standings["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["name"].as_str().unwrap().to_string(),
                r["half_points"].as_i64().unwrap(),
            )
        })
        .collect();
    rows.sort();
    rows
}

#[actix_web::test]
async fn a_russian_game_and_the_events_games_are_written_as_pdn() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@pdn.org").await;
    let (id, boards) = event_with_round(
        &mut org,
        json!({"name": "Autumn cup", "place": "Kazan", "system": "swiss", "rounds": 3}),
        4,
    )
    .await;
    assert_eq!(boards.len(), 2);
    let first = game_id(&boards[0]);
    // The organiser enters the moves of both sides, in any legal spelling.
    for (ply, mv) in [(1, "c3d4"), (2, "f6-g5"), (3, "g3:f4")] {
        let res = play(&mut org, first, ply, mv).await;
        assert_eq!(res.status.as_u16(), 201, "{}", res.body);
    }
    let listed = org
        .get(&format!("/api/v1/games?event_id={id}"))
        .await
        .json();
    let created = listed["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == first)
        .unwrap()["created_at"]
        .as_str()
        .unwrap()
        .to_string();
    let date = created[..10].replace('-', ".");

    let public = &mut app.client();
    let res = public.get(&format!("/api/v1/games/{first}/pdn")).await;
    assert_eq!(res.status.as_u16(), 200, "{}", res.body);
    assert_eq!(res.content_type(), "text/plain; charset=utf-8");
    let expected = format!(
        "[Event \"Autumn cup\"]\n[Site \"Kazan\"]\n[Date \"{date}\"]\n[Round \"1\"]\n\
         [Board \"1\"]\n[White \"{}\"]\n[Black \"{}\"]\n[Result \"*\"]\n[GameType \"25\"]\n\n\
         1. c3-d4 f6-g5 2. g3-f4 *\n",
        name(&boards[0], "white"),
        name(&boards[0], "black"),
    );
    assert_eq!(res.body, expected);

    // The game page's download link: the same text, as a file.
    let page = public.get(&format!("/games/{first}/pdn")).await;
    assert_eq!(page.status.as_u16(), 200, "{}", page.body);
    assert_eq!(
        page.headers.get(header::CONTENT_DISPOSITION).unwrap(),
        &format!("attachment; filename=\"game-{first}.pdn\"")
    );
    assert_eq!(page.body, expected);

    // The event's games, in board order; the second game has no move yet.
    let all = public.get(&format!("/api/v1/events/{id}/games.pdn")).await;
    assert_eq!(all.status.as_u16(), 200, "{}", all.body);
    assert!(all.body.starts_with(&expected), "{}", all.body);
    let second = &all.body[expected.len()..];
    assert!(
        second.starts_with("\n[Event \"Autumn cup\"]"),
        "{}",
        all.body
    );
    assert!(second.contains("[Board \"2\"]"), "{second}");
    assert!(
        second.contains(&format!("[White \"{}\"]", name(&boards[1], "white"))),
        "{second}"
    );
    assert!(second.ends_with("\n\n*\n"), "{second}");
    let round = public
        .get(&format!("/api/v1/events/{id}/games.pdn?round=1"))
        .await;
    assert_eq!(round.body, all.body);
    public
        .get(&format!("/api/v1/events/{id}/games.pdn?round=2"))
        .await
        .assert_problem(404, "not-found");
    let file = public.get(&format!("/events/{id}/games.pdn?round=1")).await;
    assert_eq!(
        file.headers.get(header::CONTENT_DISPOSITION).unwrap(),
        &format!("attachment; filename=\"event-{id}-round-1.pdn\"")
    );
    assert_eq!(file.body, all.body);

    // The event page links to the round's games and to all of them.
    let event_page = public.get(&format!("/events/{id}?tab=rounds")).await;
    assert!(
        event_page
            .body
            .contains(&format!("href=\"/events/{id}/games.pdn?round=1\"")),
        "{}",
        event_page.body
    );
    assert!(
        event_page
            .body
            .contains(&format!("href=\"/events/{id}/games.pdn\"")),
        "{}",
        event_page.body
    );
}

#[actix_web::test]
async fn a_round_is_imported_and_its_results_reach_the_standings() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@pdn.org").await;
    let (id, boards) = event_with_round(
        &mut org,
        json!({"name": "Club cup", "system": "swiss", "rounds": 3}),
        4,
    )
    .await;
    let (first, second) = (game_id(&boards[0]), game_id(&boards[1]));
    // Board 1 already has its first move: the file must begin with it.
    assert_eq!(play(&mut org, first, 1, "c3-d4").await.status.as_u16(), 201);
    let before = half_points(&mut org, id).await;
    assert!(before.iter().all(|(_, points)| *points == 0), "{before:?}");

    // Game 1 matched by its players (case and spaces aside), game 2 by its board.
    let pdn = format!(
        "[Event \"Club cup\"]\n[White \" {} \"]\n[Black \"{}\"]\n[Result \"1-0\"]\n\n\
         1. c3d4 f6-g5 {{a comment}} 2. g3-f4 g7-f6 1-0\n\n\
         [Event \"Club cup\"]\n[Board \"2\"]\n[Result \"1-1\"]\n[GameType \"25\"]\n\n\
         1. e3-f4 b6-a5 2. f4-e5 d6:f4 3. g3:e5 1-1\n",
        name(&boards[0], "white").to_uppercase(),
        name(&boards[0], "black"),
    );
    let res = import(&mut org, id, 1, &pdn).await;
    assert_eq!(res.status.as_u16(), 200, "{}", res.body);
    assert_eq!(
        res.json(),
        json!({"games": [
            {"game_id": first, "board": 1, "plies_added": 3, "result": "1-0"},
            {"game_id": second, "board": 2, "plies_added": 5, "result": "1/2-1/2"},
        ]})
    );
    let one = game(&mut org, first).await;
    assert_eq!(moves(&one), ["c3-d4", "f6-g5", "g3-f4", "g7-f6"]);
    assert_eq!(one["status"], "finished");
    assert_eq!(one["reason"], "arbiter");
    let two = game(&mut org, second).await;
    assert_eq!(moves(&two), ["e3-f4", "b6-a5", "f4-e5", "d6:f4", "g3:e5"]);
    assert_eq!(two["result"], "1/2-1/2");

    // The results are on the boards, and the standings count them.
    let after = half_points(&mut org, id).await;
    let points_of = |name: &str| after.iter().find(|(n, _)| n == name).unwrap().1;
    assert_eq!(points_of(&name(&boards[0], "white")), 2);
    assert_eq!(points_of(&name(&boards[0], "black")), 0);
    assert_eq!(points_of(&name(&boards[1], "white")), 1);
    assert_eq!(points_of(&name(&boards[1], "black")), 1);

    // The same file again adds nothing and changes nothing.
    let again = import(&mut org, id, 1, &pdn).await;
    assert_eq!(again.status.as_u16(), 200, "{}", again.body);
    let report = again.json();
    assert_eq!(report["games"][0]["plies_added"], 0);
    assert_eq!(report["games"][1]["plies_added"], 0);
    assert_eq!(half_points(&mut org, id).await, after);

    // A file whose game does not begin with the stored moves is refused, naming the board.
    let other = "[Board \"1\"]\n\n1. c3-d4 f6-g5 2. g3-h4 *\n\n[Board \"2\"]\n\n1. e3-f4 b6-a5 *\n";
    let refused = import(&mut org, id, 1, other).await;
    let problem = refused.assert_refusal(409, "pdn_moves_differ");
    assert_eq!(problem["game"], 1);
    assert_eq!(problem["board"], 1);
    assert_eq!(problem["ply"], 3);
    // The second game of that file is shorter than the stored one.
    let shorter = "[Board \"2\"]\n\n1. e3-f4 b6-a5 *\n";
    let problem = import(&mut org, id, 1, shorter)
        .await
        .assert_refusal(409, "pdn_moves_differ");
    assert_eq!(problem["ply"], 3);
    assert_eq!(moves(&game(&mut org, first).await).len(), 4);
}

#[actix_web::test]
async fn a_file_with_one_bad_game_stores_nothing() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@pdn.org").await;
    let (id, boards) = event_with_round(
        &mut org,
        json!({"name": "Spring open", "system": "swiss", "rounds": 3}),
        4,
    )
    .await;
    let (first, second) = (game_id(&boards[0]), game_id(&boards[1]));
    let tags = |board: &Value| {
        format!(
            "[White \"{}\"]\n[Black \"{}\"]\n",
            name(board, "white"),
            name(board, "black")
        )
    };
    // Game 2's second move by White skips a compulsory capture.
    let pdn = format!(
        "{}\n1. c3-d4 f6-g5 2. g3-f4 1-0\n\n{}\n1. c3-d4 f6-e5 2. a3-b4 *\n",
        tags(&boards[0]),
        tags(&boards[1])
    );
    let refused = import(&mut org, id, 1, &pdn).await;
    let problem = refused.assert_refusal(422, "pdn_illegal_move");
    assert_eq!(problem["game"], 2);
    assert_eq!(problem["move_number"], 2);
    assert_eq!(problem["side"], "white");
    assert_eq!(problem["reason_code"], "move_capture_compulsory");
    let detail = problem["detail"].as_str().unwrap();
    assert!(detail.contains("a3-b4"), "{detail}");
    // Nothing of the file is stored: the first game is as it was.
    for id in [first, second] {
        let untouched = game(&mut org, id).await;
        assert_eq!(untouched["ply"], 0, "{untouched}");
        assert_eq!(untouched["status"], "ongoing");
    }
    assert!(
        half_points(&mut org, id)
            .await
            .iter()
            .all(|(_, points)| *points == 0)
    );

    // Players who have no game in the round.
    let strangers = "[White \"Nobody\"]\n[Black \"Someone\"]\n\n1. c3-d4 *\n";
    let problem = import(&mut org, id, 1, strangers)
        .await
        .assert_refusal(422, "pdn_no_matching_game");
    assert_eq!(problem["game"], 1);
    assert!(
        problem["detail"].as_str().unwrap().contains("Nobody"),
        "{problem}"
    );
    // A board that the tags name is also checked against its players.
    let wrong_board = format!("[Board \"2\"]\n{}\n1. c3-d4 *\n", tags(&boards[0]));
    import(&mut org, id, 1, &wrong_board)
        .await
        .assert_refusal(422, "pdn_no_matching_game");
    // Two games for one board.
    let twice = format!(
        "{}\n1. c3-d4 *\n\n[Board \"1\"]\n\n1. a3-b4 *\n",
        tags(&boards[0])
    );
    let problem = import(&mut org, id, 1, &twice)
        .await
        .assert_refusal(422, "pdn_board_twice");
    assert_eq!(problem["board"], 1);
    // More games than the round has.
    let three = "[Board \"1\"]\n\n*\n\n[Board \"2\"]\n\n*\n\n[Board \"3\"]\n\n*\n";
    import(&mut org, id, 1, three)
        .await
        .assert_refusal(422, "pdn_too_many_games");
    // A start that is not the game's.
    let set_up = "[Board \"1\"]\n[FEN \"W:Wc3:Bf6\"]\n\n1. c3-d4 *\n";
    import(&mut org, id, 1, set_up)
        .await
        .assert_refusal(422, "pdn_start_position_differs");
    let english = "[Board \"1\"]\n[GameType \"21\"]\n\n1. 11-15 *\n";
    import(&mut org, id, 1, english)
        .await
        .assert_refusal(422, "pdn_start_position_differs");
    // What the reader cannot read, with where it stopped.
    let problem = import(&mut org, id, 1, "[Board \"1\"]\n\n1. c3-d4 {unclosed\n")
        .await
        .assert_refusal(422, "pdn_unreadable");
    assert_eq!(problem["line"], 3);
    assert_eq!(problem["column"], 10);
    import(&mut org, id, 1, " \n")
        .await
        .assert_refusal(422, "pdn_empty");
    // A round that is not there.
    import(&mut org, id, 2, "[Board \"1\"]\n\n*\n")
        .await
        .assert_problem(404, "not-found");
    // Bytes that are not UTF-8, named by their offset.
    let service = test::init_service(damka::web::app(app.state.clone())).await;
    let token = org.headers[0].1.clone();
    let req = test::TestRequest::post()
        .uri(&format!("/api/v1/events/{id}/rounds/1/pdn"))
        .insert_header((header::AUTHORIZATION, token))
        .insert_header((header::CONTENT_TYPE, "text/plain"))
        .set_payload(web::Bytes::from_static(
            b"[Board \"1\"]\n\n1. c3-d4 \xff *\n",
        ))
        .to_request();
    let res = test::call_service(&service, req).await;
    assert_eq!(res.status().as_u16(), 422);
    let problem: Value = test::read_body_json(res).await;
    assert_eq!(problem["code"], "pdn_not_utf8");
    assert!(
        problem["detail"].as_str().unwrap().contains("22"),
        "{problem}"
    );

    // The same checks hold for a file sent as JSON.
    let res = org
        .json(
            Method::POST,
            &format!("/api/v1/events/{id}/rounds/1/pdn"),
            json!({ "pdn": pdn }),
        )
        .await;
    res.assert_refusal(422, "pdn_illegal_move");
    assert_eq!(game(&mut org, first).await["ply"], 0);
}

#[actix_web::test]
async fn only_the_events_arbiters_import_and_files_are_limited_in_size() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@pdn.org").await;
    let (id, boards) = event_with_round(
        &mut org,
        json!({"name": "Guarded", "system": "swiss", "rounds": 3}),
        4,
    )
    .await;
    let pdn = "[Board \"1\"]\n\n1. c3-d4 *\n";
    let mut stranger = app.user("p@pdn.org", Role::Player).await.api_client().await;
    import(&mut stranger, id, 1, pdn)
        .await
        .assert_refusal(403, "only_event_officials");
    import(&mut app.client(), id, 1, pdn)
        .await
        .assert_problem(401, "unauthenticated");
    // A comment makes the file just over 1 MiB: refused before it is read.
    let large = format!("[Board \"1\"]\n{{{}}}\n\n*\n", "x".repeat(1024 * 1024));
    import(&mut org, id, 1, &large)
        .await
        .assert_problem(413, "payload-too-large");
    let res = org
        .json(
            Method::POST,
            &format!("/api/v1/events/{id}/rounds/1/pdn"),
            json!({ "pdn": large }),
        )
        .await;
    res.assert_problem(413, "payload-too-large");
    assert_eq!(game(&mut org, game_id(&boards[0])).await["ply"], 0);
    // An arbiter the organiser named may import.
    let mut arbiter_browser = app.user("arb@pdn.org", Role::Player).await;
    let mut arbiter = arbiter_browser.api_client().await;
    let named = org
        .json(
            Method::POST,
            &format!("/api/v1/events/{id}/arbiters"),
            json!({"email": "arb@pdn.org"}),
        )
        .await;
    assert!(named.status.is_success(), "{}", named.body);
    let res = import(&mut arbiter, id, 1, pdn).await;
    assert_eq!(res.status.as_u16(), 200, "{}", res.body);
    assert_eq!(res.json()["games"][0]["plies_added"], 1);
}

#[actix_web::test]
async fn english_games_are_numbered_from_blacks_first_move() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@pdn.org").await;
    let (id, boards) = event_with_round(
        &mut org,
        json!({"name": "Checkers night", "system": "swiss", "rounds": 3, "variant": "english"}),
        4,
    )
    .await;
    let first = game_id(&boards[0]);
    for (ply, mv) in [(1, "11-15"), (2, "23-19"), (3, "8-11")] {
        let res = play(&mut org, first, ply, mv).await;
        assert_eq!(res.status.as_u16(), 201, "{}", res.body);
    }
    let res = org.get(&format!("/api/v1/games/{first}/pdn")).await;
    assert!(res.body.contains("[GameType \"21\"]"), "{}", res.body);
    assert!(!res.body.contains("[FEN"), "{}", res.body);
    assert!(
        res.body.ends_with("\n\n1. 11-15 23-19 2. 8-11 *\n"),
        "{}",
        res.body
    );

    // Black's second move comes from a square left empty by the first: move 2, Black.
    let pdn = "[Board \"1\"]\n\n1. 11-15 23-19 2. 8-11 22-17 *\n\n\
         [Board \"2\"]\n\n1. 11-15 23-19 2. 11-16 *\n";
    let problem = import(&mut org, id, 1, pdn)
        .await
        .assert_refusal(422, "pdn_illegal_move");
    assert_eq!(problem["game"], 2);
    assert_eq!(problem["move_number"], 2);
    assert_eq!(problem["side"], "black");
    assert_eq!(problem["reason_code"], "move_no_piece");
    assert_eq!(game(&mut org, first).await["ply"], 3);

    // Without the bad game: board 1 is extended, board 2 ends 0-1 by the file.
    let pdn = "[Board \"1\"]\n\n1. 11-15 23-19 2. 8-11 22-17 *\n\n\
         [Board \"2\"]\n[Result \"0-1\"]\n\n1. 11-15 23-19 0-1\n";
    let res = import(&mut org, id, 1, pdn).await;
    assert_eq!(res.status.as_u16(), 200, "{}", res.body);
    let one = game(&mut org, first).await;
    assert_eq!(moves(&one), ["11-15", "23-19", "8-11", "22-17"]);
    assert_eq!(one["status"], "ongoing");
    let two = game(&mut org, game_id(&boards[1])).await;
    assert_eq!(two["result"], "0-1");
    let exported = org
        .get(&format!("/api/v1/games/{}/pdn", game_id(&boards[1])))
        .await;
    assert!(
        exported.body.ends_with("\n\n1. 11-15 23-19 0-1\n"),
        "{}",
        exported.body
    );
}

#[actix_web::test]
async fn a_game_outside_events_is_written_with_placeholder_tags() {
    let app = TestApp::new().await;
    let (mut white, white_id) = crate::http_games::player(&app, "w@pdn.org", "Ivanov").await;
    let (_, black_id) = crate::http_games::player(&app, "b@pdn.org", "Petrov").await;
    let made = white
        .json(
            Method::POST,
            "/api/v1/games",
            json!({"variant": "international", "white_player_id": white_id, "black_player_id": black_id}),
        )
        .await;
    assert_eq!(made.status.as_u16(), 201, "{}", made.body);
    let id = made.json()["id"].as_i64().unwrap();
    assert_eq!(play(&mut white, id, 1, "32-28").await.status.as_u16(), 201);
    let res = app.client().get(&format!("/api/v1/games/{id}/pdn")).await;
    assert_eq!(res.status.as_u16(), 200, "{}", res.body);
    for tag in [
        "[Event \"Casual game\"]\n[Site \"\"]\n",
        "[Round \"-\"]\n[White \"Ivanov\"]\n[Black \"Petrov\"]\n[Result \"*\"]\n[GameType \"20\"]\n\n",
    ] {
        assert!(res.body.contains(tag), "{tag} in {}", res.body);
    }
    assert!(!res.body.contains("[Board"), "{}", res.body);
    assert!(res.body.ends_with("\n\n1. 32-28 *\n"), "{}", res.body);
    app.client()
        .get("/api/v1/games/999999/pdn")
        .await
        .assert_problem(404, "not-found");
}
