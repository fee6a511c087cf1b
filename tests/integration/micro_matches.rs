//! Micro-matches and opening ballots over HTTP: two games a pairing with colours swapped,
//! both starting after the opening drawn for the board; each game's own result, the
//! pairing's collapsed from them; game points and match points in the standings.
#![allow(clippy::unwrap_used)]
use crate::common;

use actix_web::http::Method;
use common::{Client, TestApp, create_event, enter_players, organiser_api};
use serde_json::{Value, json};

fn boards_with_games(round: &Value) -> Vec<Value> {
    round["boards"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| !b["black_entry_id"].is_null())
        .cloned()
        .collect()
}

async fn pair_and_publish(api: &mut Client<'_>, event: i64) -> Value {
    let paired = api.post(&format!("/api/v1/events/{event}/rounds")).await;
    assert_eq!(paired.status.as_u16(), 201, "{}", paired.body);
    let published = api
        .post(&format!("/api/v1/events/{event}/rounds/publish"))
        .await;
    assert_eq!(published.status.as_u16(), 204, "{}", published.body);
    let rounds = api
        .get(&format!("/api/v1/events/{event}/rounds"))
        .await
        .json();
    rounds.as_array().unwrap().last().unwrap().clone()
}

/// An entry's points in the standings, in half-points.
fn half_points(standings: &Value, entry: &Value) -> i64 {
    standings["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| &r["entry_id"] == entry)
        .unwrap()["half_points"]
        .as_i64()
        .unwrap()
}

async fn game_result(api: &mut Client<'_>, event: i64, pairing: i64, game: i32, result: &str) {
    let put = api
        .json(
            Method::PUT,
            &format!("/api/v1/events/{event}/pairings/{pairing}/games/{game}/result"),
            json!({ "result": result }),
        )
        .await;
    assert_eq!(put.status.as_u16(), 204, "{}", put.body);
}

#[actix_web::test]
async fn a_micro_match_plays_two_games_from_the_drawn_opening() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let event = create_event(
        &mut org,
        json!({"name": "Cup", "system": "swiss", "rounds": 3, "games_per_pairing": 2,
               "opening_ballot": "idf64"}),
    )
    .await;
    let settings = org.get(&format!("/api/v1/events/{event}")).await.json();
    assert_eq!(settings["games_per_pairing"], 2);
    assert_eq!(
        settings["match_scoring"], "game_points",
        "the default scoring"
    );
    assert_eq!(settings["opening_ballot"], "idf64");
    assert_eq!(
        settings["ballot_per"], "pairing",
        "drawn per pairing by default"
    );
    enter_players(&mut org, event, 4).await;

    let round = pair_and_publish(&mut org, event).await;
    let boards = boards_with_games(&round);
    assert_eq!(boards.len(), 2);
    for board in &boards {
        let opening = &board["opening"];
        assert_eq!(opening["table"], "idf64", "{board}");
        assert!(!opening["code"].as_str().unwrap().is_empty());
        let moves: Vec<&str> = opening["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        let games = board["games"].as_array().unwrap();
        assert_eq!(games.len(), 2, "{board}");
        assert_eq!(games[0]["white"], board["white_entry_id"]);
        assert_eq!(games[0]["black"], board["black_entry_id"]);
        assert_eq!(
            games[1]["white"], board["black_entry_id"],
            "colours swapped"
        );
        assert_eq!(games[1]["black"], board["white_entry_id"]);
        assert_eq!(board["game_id"], games[0]["game_id"]);
        for (n, game) in games.iter().enumerate() {
            let view = org
                .get(&format!("/api/v1/games/{}", game["game_id"]))
                .await
                .json();
            assert_eq!(view["game_no"], n as i64 + 1);
            assert_eq!(view["opening_code"], opening["code"]);
            assert_eq!(view["opening_plies"], moves.len() as i64);
            let other = &games[1 - n]["game_id"];
            assert_eq!(&view["other_game_id"], other);
            let played: Vec<&str> = view["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["move"].as_str().unwrap())
                .collect();
            assert_eq!(
                played, moves,
                "the opening's moves are the game's first plies"
            );
            if opening["moves"].as_array().unwrap().is_empty() {
                assert_eq!(view["start_fen"], opening["fen"]);
            }
            assert_eq!(
                view["fen"], opening["fen"],
                "the players take over after them"
            );
        }
    }

    // Board 1: the pairing's White wins game 1 and draws game 2: 1½-½, a won match.
    let first = &boards[0];
    let pairing = first["pairing_id"].as_i64().unwrap();
    game_result(&mut org, event, pairing, 1, "1-0").await;
    let rounds = org
        .get(&format!("/api/v1/events/{event}/rounds"))
        .await
        .json();
    let board = &rounds[0]["boards"][0];
    assert_eq!(board["games"][0]["result"], "1-0");
    assert!(board["games"][1]["result"].is_null());
    assert!(
        board["result"].is_null(),
        "no result before both games have one"
    );
    game_result(&mut org, event, pairing, 2, "1/2-1/2").await;
    let rounds = org
        .get(&format!("/api/v1/events/{event}/rounds"))
        .await
        .json();
    assert_eq!(rounds[0]["boards"][0]["result"], "1-0", "collapsed: 1½-½");
    // Board 2: each wins with White: a drawn match.
    let second = boards[1]["pairing_id"].as_i64().unwrap();
    game_result(&mut org, event, second, 1, "1-0").await;
    game_result(&mut org, event, second, 2, "1-0").await;

    let standings = org
        .get(&format!("/api/v1/events/{event}/standings"))
        .await
        .json();
    let points = |entry: &Value| half_points(&standings, entry);
    assert_eq!(points(&first["white_entry_id"]), 3, "1½ game points");
    assert_eq!(points(&first["black_entry_id"]), 1, "½");
    assert_eq!(points(&boards[1]["white_entry_id"]), 2);
    assert_eq!(points(&boards[1]["black_entry_id"]), 2);

    // The pairing as a whole takes no played result, only per game.
    let whole = org
        .json(
            Method::PUT,
            &format!("/api/v1/events/{event}/pairings/{second}/result"),
            json!({"result": "1-0"}),
        )
        .await;
    whole.assert_refusal(422, "micro_match_result_per_game");
    let third = org
        .json(
            Method::PUT,
            &format!("/api/v1/events/{event}/pairings/{second}/games/3/result"),
            json!({"result": "1-0"}),
        )
        .await;
    assert_eq!(third.status.as_u16(), 404, "{}", third.body);
}

#[actix_web::test]
async fn match_points_score_the_match_not_the_games() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let event = create_event(
        &mut org,
        json!({"name": "Match points", "system": "swiss", "rounds": 3,
               "games_per_pairing": 2, "match_scoring": "match_points"}),
    )
    .await;
    enter_players(&mut org, event, 5).await;
    let round = pair_and_publish(&mut org, event).await;
    let boards = boards_with_games(&round);
    let bye = round["boards"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["bye"] == "U")
        .unwrap()
        .clone();
    let (a, b) = (
        boards[0]["pairing_id"].as_i64().unwrap(),
        boards[1]["pairing_id"].as_i64().unwrap(),
    );
    // 1½-½ is a match won: 2 match points, not 1½.
    game_result(&mut org, event, a, 1, "1-0").await;
    game_result(&mut org, event, a, 2, "1/2-1/2").await;
    // Both games drawn: 1 each.
    game_result(&mut org, event, b, 1, "1/2-1/2").await;
    game_result(&mut org, event, b, 2, "1/2-1/2").await;
    let standings = org
        .get(&format!("/api/v1/events/{event}/standings"))
        .await
        .json();
    let points = |entry: &Value| half_points(&standings, entry);
    assert_eq!(points(&boards[0]["white_entry_id"]), 4, "2 match points");
    assert_eq!(points(&boards[0]["black_entry_id"]), 0);
    assert_eq!(points(&boards[1]["white_entry_id"]), 2);
    assert_eq!(points(&bye["white_entry_id"]), 4, "the bye is a match won");
}

#[actix_web::test]
async fn ballot_settings_are_checked_against_the_variant() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let english_on_russian = org
        .json(
            Method::POST,
            "/api/v1/events",
            json!({"name": "x", "system": "swiss", "rounds": 3, "opening_ballot": "english3"}),
        )
        .await;
    let problem = english_on_russian.assert_refusal(422, "ballot_not_for_variant");
    assert_eq!(problem["field"], "opening_ballot");
    let three_games = org
        .json(
            Method::POST,
            "/api/v1/events",
            json!({"name": "x", "system": "swiss", "rounds": 3, "games_per_pairing": 3}),
        )
        .await;
    three_games.assert_refusal(422, "not_between");
    let bad_table = org
        .json(
            Method::POST,
            "/api/v1/events",
            json!({"name": "x", "system": "swiss", "rounds": 3, "opening_ballot": "custom",
                   "custom_openings": "A: c3-d4 f6-g5\nB: c3-d4 d4-e5"}),
        )
        .await;
    let problem = bad_table.assert_refusal(422, "bad_opening_table");
    assert_eq!(problem["field"], "custom_openings");
    assert!(
        problem["detail"].as_str().unwrap().contains("B"),
        "names the entry: {problem}"
    );
    let empty_table = org
        .json(
            Method::POST,
            "/api/v1/events",
            json!({"name": "x", "system": "swiss", "rounds": 3, "opening_ballot": "custom",
                   "custom_openings": "# nothing\n"}),
        )
        .await;
    empty_table.assert_refusal(422, "empty_opening_table");
    let english = org
        .json(
            Method::POST,
            "/api/v1/events",
            json!({"name": "x", "system": "swiss", "rounds": 3, "variant": "english",
                   "opening_ballot": "english3", "games_per_pairing": 2}),
        )
        .await;
    assert_eq!(english.status.as_u16(), 201, "{}", english.body);
    // An English event's games start after the three drawn moves, in English notation.
    let english = english.json()["id"].as_i64().unwrap();
    enter_players(&mut org, english, 2).await;
    let round = pair_and_publish(&mut org, english).await;
    let board = &boards_with_games(&round)[0];
    assert_eq!(
        board["opening"]["moves"].as_array().unwrap().len(),
        3,
        "{board}"
    );
    let game = org
        .get(&format!("/api/v1/games/{}", board["games"][1]["game_id"]))
        .await
        .json();
    assert_eq!(game["variant"], "english");
    assert_eq!(game["ply"], 3);
    assert_eq!(game["moves"][0]["move"], board["opening"]["moves"][0]);
    // Once paired, the games a pairing plays are fixed.
    let mut settings = org.get(&format!("/api/v1/events/{english}")).await.json();
    settings["games_per_pairing"] = json!(1);
    let changed = org
        .json(Method::PUT, &format!("/api/v1/events/{english}"), settings)
        .await;
    let problem = changed.assert_refusal(422, "fixed_once_paired");
    assert_eq!(problem["field"], "games_per_pairing");
}

#[actix_web::test]
async fn the_ballots_lists_the_built_in_tables_with_their_sizes() {
    let app = TestApp::new().await;
    let ballots = app.client().get("/api/v1/ballots").await;
    assert_eq!(ballots.status.as_u16(), 200, "{}", ballots.body);
    let ballots = ballots.json();
    let size = |table: &str, variant: &str| {
        ballots
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["table"] == table)
            .unwrap_or_else(|| panic!("{table} in {ballots}"))["variants"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["variant"] == variant)
            .unwrap()["openings"]
            .as_u64()
            .unwrap()
    };
    assert_eq!(size("idf64", "russian"), 745);
    assert_eq!(size("fmjd64", "russian"), 736);
    assert_eq!(size("english3", "english"), 156);
    assert_eq!(size("basic150", "russian"), 150);
}

/// The player profile behind an entry.
async fn player_of(api: &mut Client<'_>, event: i64, entry: &Value) -> i64 {
    let entries = api
        .get(&format!("/api/v1/events/{event}/entries"))
        .await
        .json();
    entries
        .as_array()
        .unwrap()
        .iter()
        .find(|e| &e["id"] == entry)
        .unwrap()["player_id"]
        .as_i64()
        .unwrap()
}

#[actix_web::test]
async fn each_game_of_a_micro_match_is_rated_and_written_with_its_opening_and_its_twin() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    // A table of one relocation start (FMJD 14-I): every board draws it, and its games
    // start from that position, not after moves.
    let relocation = "W:Wd4,c3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,h6,a3";
    let event = create_event(
        &mut org,
        json!({"name": "Rated cup", "system": "swiss", "rounds": 3, "games_per_pairing": 2,
               "opening_ballot": "custom", "custom_openings": format!("14-I: {relocation}\n")}),
    )
    .await;
    enter_players(&mut org, event, 2).await;
    let round = pair_and_publish(&mut org, event).await;
    let board = &boards_with_games(&round)[0];
    assert_eq!(board["opening"]["code"], "14-I");
    assert_eq!(board["opening"]["table"], "custom");
    assert_eq!(board["opening"]["moves"], json!([]));
    let (first, second) = (
        board["games"][0]["game_id"].as_i64().unwrap(),
        board["games"][1]["game_id"].as_i64().unwrap(),
    );
    let view = org.get(&format!("/api/v1/games/{first}")).await.json();
    assert_eq!(view["start_fen"], relocation);
    assert_eq!(view["opening_plies"], 0);

    let pdn = org.get(&format!("/api/v1/games/{second}/pdn")).await;
    assert_eq!(pdn.status.as_u16(), 200, "{}", pdn.body);
    assert!(
        pdn.body.contains(&format!("[MicroMatch \"{first}\"]")),
        "{}",
        pdn.body
    );
    assert!(pdn.body.contains("[Opening \"14-I\"]"), "{}", pdn.body);
    assert!(
        pdn.body.contains(&format!("[FEN \"{relocation}\"]")),
        "{}",
        pdn.body
    );
    let event_pdn = org.get(&format!("/api/v1/events/{event}/games.pdn")).await;
    assert_eq!(
        event_pdn.body.matches("[MicroMatch ").count(),
        2,
        "{}",
        event_pdn.body
    );

    // The players' moves in game 1, then results for both games.
    game_result(
        &mut org,
        event,
        board["pairing_id"].as_i64().unwrap(),
        1,
        "1-0",
    )
    .await;
    game_result(
        &mut org,
        event,
        board["pairing_id"].as_i64().unwrap(),
        2,
        "1-0",
    )
    .await;
    let white = player_of(&mut org, event, &board["white_entry_id"]).await;
    let history = org
        .get(&format!(
            "/api/v1/players/{white}/rating-history?variant=russian&system=glicko2"
        ))
        .await
        .json();
    let games: Vec<i64> = history["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|item| item["game_id"].as_i64())
        .collect();
    assert_eq!(
        games,
        vec![first, second],
        "each game rated once: {history}"
    );
    let list = org
        .get("/api/v1/ratings?variant=russian&system=glicko2")
        .await
        .json();
    let rated = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["player_id"] == white)
        .unwrap()
        .clone();
    assert_eq!(rated["games"], 2, "{rated}");
}

#[actix_web::test]
async fn a_forfeit_of_the_pairing_goes_to_both_games_in_their_colours() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let event = create_event(
        &mut org,
        json!({"name": "Forfeits", "system": "swiss", "rounds": 3, "games_per_pairing": 2,
               "opening_ballot": "idf64"}),
    )
    .await;
    enter_players(&mut org, event, 2).await;
    let round = pair_and_publish(&mut org, event).await;
    let pairing = boards_with_games(&round)[0]["pairing_id"].as_i64().unwrap();
    // The games hold only the opening's moves: nobody has moved, so a forfeit is allowed.
    let forfeit = org
        .json(
            Method::PUT,
            &format!("/api/v1/events/{event}/pairings/{pairing}/result"),
            json!({"result": "+/-"}),
        )
        .await;
    assert_eq!(forfeit.status.as_u16(), 204, "{}", forfeit.body);
    let rounds = org
        .get(&format!("/api/v1/events/{event}/rounds"))
        .await
        .json();
    let board = &rounds[0]["boards"][0];
    assert_eq!(board["result"], "+/-");
    assert_eq!(board["games"][0]["result"], "+/-");
    assert_eq!(
        board["games"][1]["result"], "-/+",
        "game 2's White is the pairing's Black"
    );
    assert!(
        board["games"][0]["game_id"].is_null(),
        "an unplayed game goes"
    );
    let standings = org
        .get(&format!("/api/v1/events/{event}/standings"))
        .await
        .json();
    assert_eq!(
        standings["rows"][0]["half_points"], 4,
        "both games won by forfeit"
    );
}

#[actix_web::test]
async fn the_draw_is_repeated_from_the_round_seed() {
    use damka_domain::ballots::{BallotPer, BallotTable, draw};
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let event = create_event(
        &mut org,
        json!({"name": "Seeded", "system": "swiss", "rounds": 3, "opening_ballot": "idf64"}),
    )
    .await;
    enter_players(&mut org, event, 12).await;
    let paired = org.post(&format!("/api/v1/events/{event}/rounds")).await;
    assert_eq!(paired.status.as_u16(), 201, "{}", paired.body);
    let round = paired.json();
    let seed = round["ballot_seed"]
        .as_i64()
        .expect("the seed is stored with the round");
    let boards = boards_with_games(&round);
    let pairs: Vec<(i64, i64)> = boards
        .iter()
        .map(|b| {
            let (w, b) = (
                b["white_entry_id"].as_i64().unwrap(),
                b["black_entry_id"].as_i64().unwrap(),
            );
            (w.min(b), w.max(b))
        })
        .collect();
    let table = BallotTable::Idf64
        .openings_for(damka_engine::Variant::Russian)
        .unwrap();
    let again = draw(
        seed as u64,
        table.len(),
        &pairs,
        &Default::default(),
        BallotPer::Pairing,
    );
    for (board, index) in boards.iter().zip(again) {
        assert_eq!(board["opening"]["code"], table[index].code, "{board}");
        assert_eq!(board["opening"]["fen"], table[index].fen);
    }
}

#[actix_web::test]
async fn one_opening_for_the_whole_round_when_drawn_per_round() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let event = create_event(
        &mut org,
        json!({"name": "Per round", "system": "swiss", "rounds": 3, "opening_ballot": "fmjd64",
               "ballot_per": "round", "games_per_pairing": 2}),
    )
    .await;
    enter_players(&mut org, event, 10).await;
    let round = pair_and_publish(&mut org, event).await;
    let codes: std::collections::HashSet<String> = boards_with_games(&round)
        .iter()
        .map(|b| b["opening"]["code"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(codes.len(), 1, "{codes:?}");
}

#[actix_web::test]
async fn a_pair_meeting_twice_never_gets_the_same_opening_and_round_robins_play_both_games() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    // Two openings only: the second meeting of a pair must take the one it has not had.
    let event = create_event(
        &mut org,
        json!({"name": "Double", "system": "double_round_robin", "games_per_pairing": 2,
               "opening_ballot": "custom", "custom_openings": "A: c3-d4 f6-g5\nB: c3-b4 b6-a5\n"}),
    )
    .await;
    enter_players(&mut org, event, 3).await;
    let mut seen: std::collections::HashMap<(i64, i64), Vec<String>> = Default::default();
    for _ in 0..6 {
        let round = pair_and_publish(&mut org, event).await;
        for board in boards_with_games(&round) {
            assert_eq!(board["games"].as_array().unwrap().len(), 2, "{board}");
            let (w, b) = (
                board["white_entry_id"].as_i64().unwrap(),
                board["black_entry_id"].as_i64().unwrap(),
            );
            seen.entry((w.min(b), w.max(b)))
                .or_default()
                .push(board["opening"]["code"].as_str().unwrap().to_string());
            let pairing = board["pairing_id"].as_i64().unwrap();
            game_result(&mut org, event, pairing, 1, "1/2-1/2").await;
            game_result(&mut org, event, pairing, 2, "1/2-1/2").await;
        }
    }
    assert_eq!(seen.len(), 3);
    for (pair, codes) in seen {
        assert_eq!(codes.len(), 2, "{pair:?} met twice");
        assert_ne!(codes[0], codes[1], "{pair:?} drew the same opening twice");
    }
}

#[actix_web::test]
async fn the_drawn_opening_is_not_taken_back() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let event = create_event(
        &mut org,
        json!({"name": "Takeback", "system": "swiss", "rounds": 3, "opening_ballot": "custom",
               "custom_openings": "A: c3-d4 f6-g5\n"}),
    )
    .await;
    enter_players(&mut org, event, 2).await;
    let round = pair_and_publish(&mut org, event).await;
    let game = boards_with_games(&round)[0]["game_id"].as_i64().unwrap();
    let refused = org.post(&format!("/api/v1/games/{game}/takeback")).await;
    refused.assert_refusal(409, "nothing_to_take_back");
    let view = org.get(&format!("/api/v1/games/{game}")).await.json();
    assert_eq!(view["ply"], 2, "the opening stays");
}

#[actix_web::test]
async fn the_live_round_carries_each_game_of_a_micro_match() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let event = create_event(
        &mut org,
        json!({"name": "Live", "system": "swiss", "rounds": 3, "games_per_pairing": 2}),
    )
    .await;
    enter_players(&mut org, event, 2).await;
    let round = pair_and_publish(&mut org, event).await;
    let pairing = boards_with_games(&round)[0]["pairing_id"].as_i64().unwrap();
    let mut spectator = app.client();
    let (status, _, mut events) = spectator
        .stream(&format!("/api/v1/events/{event}/stream"), &[])
        .await;
    assert_eq!(status.as_u16(), 200);
    let live = events.expect("round").await.json();
    let games = live["boards"][0]["games"].as_array().unwrap().clone();
    assert_eq!(games.len(), 2, "{live}");
    assert_eq!(
        games[1]["game_id"],
        round["boards"][0]["games"][1]["game_id"]
    );
    // One game's result is news, though the pairing has no result yet.
    game_result(&mut org, event, pairing, 2, "0-1").await;
    let live = events.expect("round").await.json();
    assert!(live["boards"][0]["result"].is_null(), "{live}");
    assert_eq!(live["boards"][0]["games"][1]["result"], "0-1");
}
