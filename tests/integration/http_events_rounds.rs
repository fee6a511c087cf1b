//! Events over HTTP, rounds: the Swiss round workflow with who may run it and the results'
//! audit trail, and round-robin and double round-robin schedules played to the end.
#![allow(clippy::unwrap_used)]
use crate::common;

use std::collections::HashSet;

use actix_web::http::Method;
use common::{Role, TestApp, create_event, enter_players, games, organiser_api, play_round};
use damka_domain::vocabulary::ResultCode;
use serde_json::{Value, json};

#[actix_web::test]
async fn swiss_round_workflow_with_permissions_and_audit() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let created = org
        .json(
            Method::POST,
            "/api/v1/events",
            json!({"name": "Club Swiss", "system": "swiss", "rounds": 5}),
        )
        .await;
    assert_eq!(created.status.as_u16(), 201, "{}", created.body);
    let event = created.json();
    assert_eq!(
        event["tiebreaks"], "BH/C1,BH,SB,WIN",
        "the Swiss default tie-breaks"
    );
    let id = event["id"].as_i64().unwrap();
    enter_players(&mut org, id, 9).await;

    // Round 1: four games and a pairing-allocated bye for the lowest-rated player.
    let round = org.post(&format!("/api/v1/events/{id}/rounds")).await;
    assert_eq!(round.status.as_u16(), 201, "{}", round.body);
    let round = round.json();
    assert_eq!(games(&round).len(), 4);
    let bye: Vec<&Value> = round["boards"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["bye"] == "U")
        .collect();
    assert_eq!(bye.len(), 1);
    assert_eq!(
        bye[0]["white_start_no"], 9,
        "the PAB goes to the lowest-ranked player"
    );
    // Start numbers follow ratings: board 1 is 1 v 5 (top half against bottom half).
    assert_eq!(
        games(&round)[0]["white_start_no"].as_i64().unwrap()
            + games(&round)[0]["black_start_no"].as_i64().unwrap(),
        6
    );

    // A draft is invisible to the public and to players.
    let mut public = app.client();
    assert_eq!(
        public
            .get(&format!("/api/v1/events/{id}/rounds"))
            .await
            .json()
            .as_array()
            .unwrap()
            .len(),
        0
    );

    // Who may run the round: not a player, not another organiser.
    let mut player_browser = app.user("player@t.org", Role::Player).await;
    let mut player = player_browser.api_client().await;
    player
        .post(&format!("/api/v1/events/{id}/rounds/publish"))
        .await
        .assert_problem(403, "forbidden");
    let mut rival = organiser_api(&app, "rival@t.org").await;
    rival
        .post(&format!("/api/v1/events/{id}/rounds/publish"))
        .await
        .assert_problem(403, "forbidden");
    rival
        .json(
            Method::PUT,
            &format!("/api/v1/events/{id}"),
            json!({"name": "Taken over", "system": "swiss", "rounds": 5}),
        )
        .await
        .assert_problem(403, "forbidden");
    public
        .post(&format!("/api/v1/events/{id}/rounds"))
        .await
        .assert_problem(401, "unauthenticated");

    // Results need a published round.
    let board = games(&round)[0]["pairing_id"].as_i64().unwrap();
    org.json(
        Method::PUT,
        &format!("/api/v1/events/{id}/pairings/{board}/result"),
        json!({"result": "1-0"}),
    )
    .await
    .assert_problem(409, "conflict");
    assert_eq!(
        org.post(&format!("/api/v1/events/{id}/rounds/publish"))
            .await
            .status
            .as_u16(),
        204
    );
    assert_eq!(
        public
            .get(&format!("/api/v1/events/{id}/rounds"))
            .await
            .json()
            .as_array()
            .unwrap()
            .len(),
        1
    );

    // An arbiter named by the organiser enters results; the player cannot.
    org.json(
        Method::POST,
        &format!("/api/v1/events/{id}/arbiters"),
        json!({"email": "player@t.org"}),
    )
    .await;
    let mut outsider_browser = app.user("outsider@t.org", Role::Player).await;
    let mut outsider = outsider_browser.api_client().await;
    outsider
        .json(
            Method::PUT,
            &format!("/api/v1/events/{id}/pairings/{board}/result"),
            json!({"result": "1-0"}),
        )
        .await
        .assert_problem(403, "forbidden");
    let bad = player
        .json(
            Method::PUT,
            &format!("/api/v1/events/{id}/pairings/{board}/result"),
            json!({"result": "2-0"}),
        )
        .await;
    assert_eq!(bad.assert_problem(422, "invalid")["field"], "result");

    // Pairing round 2 waits for every result.
    let results = ["1-0", "1/2-1/2", "0-1", "+/-"];
    for (b, result) in games(&round).iter().zip(results) {
        let pid = b["pairing_id"].as_i64().unwrap();
        let res = player
            .json(
                Method::PUT,
                &format!("/api/v1/events/{id}/pairings/{pid}/result"),
                json!({"result": result}),
            )
            .await;
        assert_eq!(res.status.as_u16(), 204, "{}", res.body);
        if result == "1/2-1/2" {
            let early = org.post(&format!("/api/v1/events/{id}/rounds")).await;
            early.assert_problem(409, "conflict");
        }
    }
    // A round with results can no longer be re-paired.
    org.post(&format!("/api/v1/events/{id}/rounds/repair"))
        .await
        .assert_problem(409, "conflict");

    // A correction is kept in the audit trail and the standings follow it.
    let first = games(&round)[0]["pairing_id"].as_i64().unwrap();
    org.json(
        Method::PUT,
        &format!("/api/v1/events/{id}/pairings/{first}/result"),
        json!({"result": "0-1"}),
    )
    .await;
    let changes: Vec<(Option<ResultCode>, Option<ResultCode>)> = app
        .with_db(move |conn| {
            damka::store::events::result_changes(conn, id)
                .unwrap()
                .into_iter()
                .filter(|c| c.pairing_id == first)
                .map(|c| (c.old_result, c.new_result))
                .collect()
        })
        .await;
    assert_eq!(
        changes,
        vec![
            (None, Some(ResultCode::WhiteWins)),
            (Some(ResultCode::WhiteWins), Some(ResultCode::BlackWins))
        ]
    );
    let standings = public
        .get(&format!("/api/v1/events/{id}/standings"))
        .await
        .json();
    assert_eq!(standings["after_round"], 1);
    assert_eq!(standings["tiebreaks"], json!(["BH/C1", "BH", "SB", "WIN"]));
    let rows = standings["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 9);
    let black_of_board_1 = games(&round)[0]["black_start_no"].as_u64().unwrap();
    let leader = rows
        .iter()
        .find(|r| r["start_no"] == black_of_board_1)
        .unwrap();
    assert_eq!(leader["half_points"], 2, "the corrected result counts");
    let pab = rows.iter().find(|r| r["start_no"] == 9).unwrap();
    assert_eq!(pab["half_points"], 2, "the PAB is worth a win");

    // Round 2: nobody meets an opponent again and the PAB goes to someone else.
    let round2 = org
        .post(&format!("/api/v1/events/{id}/rounds"))
        .await
        .json();
    let met: HashSet<(i64, i64)> = games(&round)
        .iter()
        .map(|b| {
            let (w, bl) = (
                b["white_start_no"].as_i64().unwrap(),
                b["black_start_no"].as_i64().unwrap(),
            );
            (w.min(bl), w.max(bl))
        })
        .collect();
    for b in games(&round2) {
        let (w, bl) = (
            b["white_start_no"].as_i64().unwrap(),
            b["black_start_no"].as_i64().unwrap(),
        );
        assert!(
            !met.contains(&(w.min(bl), w.max(bl))),
            "{w} and {bl} met twice"
        );
    }
    let bye2 = round2["boards"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["bye"] == "U")
        .unwrap();
    assert_ne!(bye2["white_start_no"], 9);
    // Re-pairing a draft gives the same pairing (the rules decide, not chance).
    let again = org
        .post(&format!("/api/v1/events/{id}/rounds/repair"))
        .await
        .json();
    let pairs = |r: &Value| {
        games(r)
            .iter()
            .map(|b| (b["white_start_no"].clone(), b["black_start_no"].clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(pairs(&again), pairs(&round2));

    // The TRF export carries the rounds and results.
    let trf = public.get(&format!("/events/{id}/export.trf")).await;
    assert_eq!(trf.status.as_u16(), 200);
    assert!(trf.body.contains("XXR 5"), "{}", trf.body);
    assert!(trf.body.lines().filter(|l| l.starts_with("001")).count() == 9);
}

#[actix_web::test]
async fn round_robin_runs_the_berger_schedule_to_the_end() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let event = org
        .json(
            Method::POST,
            "/api/v1/events",
            json!({"name": "Club RR", "system": "round_robin"}),
        )
        .await
        .json();
    let id = event["id"].as_i64().unwrap();
    assert_eq!(event["tiebreaks"], "SB,DE,WIN");
    enter_players(&mut org, id, 5).await;
    let mut met = HashSet::new();
    let mut free = Vec::new();
    for round in 1..=5 {
        let r = org.post(&format!("/api/v1/events/{id}/rounds")).await;
        assert_eq!(r.status.as_u16(), 201, "round {round}: {}", r.body);
        let r = r.json();
        org.post(&format!("/api/v1/events/{id}/rounds/publish"))
            .await;
        for b in games(&r) {
            let (w, bl) = (
                b["white_start_no"].as_i64().unwrap(),
                b["black_start_no"].as_i64().unwrap(),
            );
            assert!(met.insert((w.min(bl), w.max(bl))), "{w}-{bl} twice");
            let pid = b["pairing_id"].as_i64().unwrap();
            let result = if w < bl { "1-0" } else { "0-1" };
            org.json(
                Method::PUT,
                &format!("/api/v1/events/{id}/pairings/{pid}/result"),
                json!({"result": result}),
            )
            .await;
        }
        free.extend(
            r["boards"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|b| !b["bye"].is_null())
                .map(|b| b["white_start_no"].as_i64().unwrap()),
        );
    }
    assert_eq!(met.len(), 10, "everybody met everybody once");
    free.sort_unstable();
    assert_eq!(free, vec![1, 2, 3, 4, 5], "each player is free once");
    org.post(&format!("/api/v1/events/{id}/rounds"))
        .await
        .assert_problem(409, "conflict");
    assert_eq!(
        org.post(&format!("/api/v1/events/{id}/finish"))
            .await
            .status
            .as_u16(),
        204
    );
    let standings = app
        .client()
        .get(&format!("/api/v1/events/{id}/standings"))
        .await
        .json();
    let order: Vec<u64> = standings["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["start_no"].as_u64().unwrap())
        .collect();
    assert_eq!(
        order,
        vec![1, 2, 3, 4, 5],
        "the stronger start number won every game"
    );
    assert_eq!(standings["rows"][0]["half_points"], 8);
    // A finished event takes no more results.
    let rounds = org.get(&format!("/api/v1/events/{id}/rounds")).await.json();
    let pid = games(&rounds[0])[0]["pairing_id"].as_i64().unwrap();
    org.json(
        Method::PUT,
        &format!("/api/v1/events/{id}/pairings/{pid}/result"),
        json!({"result": "0-1"}),
    )
    .await
    .assert_problem(409, "conflict");
    // Reopened by its organiser only, it takes the correction, and the standings follow.
    let before = standings.clone();
    let mut other = organiser_api(&app, "other@t.org").await;
    other
        .post(&format!("/api/v1/events/{id}/reopen"))
        .await
        .assert_problem(403, "forbidden");
    assert_eq!(
        org.post(&format!("/api/v1/events/{id}/reopen"))
            .await
            .status
            .as_u16(),
        204
    );
    org.post(&format!("/api/v1/events/{id}/reopen"))
        .await
        .assert_problem(409, "conflict");
    let corrected = org
        .json(
            Method::PUT,
            &format!("/api/v1/events/{id}/pairings/{pid}/result"),
            json!({"result": "0-1"}),
        )
        .await;
    assert_eq!(corrected.status.as_u16(), 204, "{}", corrected.body);
    let standings = app
        .client()
        .get(&format!("/api/v1/events/{id}/standings"))
        .await
        .json();
    let points_of = |table: &Value, start_no: &Value| {
        table["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["start_no"] == *start_no)
            .unwrap()["half_points"]
            .as_i64()
            .unwrap()
    };
    let game = games(&rounds[0])[0];
    let (white, black) = (&game["white_start_no"], &game["black_start_no"]);
    assert_eq!(points_of(&standings, white), points_of(&before, white) - 2);
    assert_eq!(points_of(&standings, black), points_of(&before, black) + 2);
    let event = org.get(&format!("/api/v1/events/{id}")).await.json();
    assert_eq!(event["status"], "running");
}

/// README's double round-robin, through HTTP: four players meet twice, colours swapped in
/// the second cycle, over six rounds; a seventh cannot be paired (issue 14 item 7).
#[actix_web::test]
async fn a_double_round_robin_is_played_through_http() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let id = create_event(
        &mut org,
        json!({"name": "Double", "system": "double_round_robin"}),
    )
    .await;
    enter_players(&mut org, id, 4).await;
    let mut meetings: std::collections::HashMap<(i64, i64), Vec<i64>> = Default::default();
    for round in 1..=6 {
        let paired = play_round(&mut org, id, &["1-0", "1/2-1/2"]).await;
        assert_eq!(paired["number"], round, "{paired}");
        for board in paired["boards"].as_array().unwrap() {
            let (white, black) = (
                board["white_entry_id"].as_i64().unwrap(),
                board["black_entry_id"].as_i64().unwrap(),
            );
            meetings
                .entry((white.min(black), white.max(black)))
                .or_default()
                .push(white);
        }
    }
    assert_eq!(meetings.len(), 6, "every pair of four: {meetings:?}");
    for (pair, whites) in &meetings {
        assert_eq!(whites.len(), 2, "{pair:?} meet twice");
        assert_ne!(
            whites[0], whites[1],
            "{pair:?}: colours swapped in the second cycle"
        );
    }
    let seventh = org.post(&format!("/api/v1/events/{id}/rounds")).await;
    assert_eq!(seventh.status.as_u16(), 409, "{}", seventh.body);
    let standings = org
        .get(&format!("/api/v1/events/{id}/standings"))
        .await
        .json();
    let total: u64 = standings["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["half_points"].as_u64().unwrap())
        .sum();
    assert_eq!(
        total,
        6 * 2 * 2,
        "six rounds of two games, two half-points each"
    );
}

/// Pairing answers with the new round as the round list then shows it (read from the
/// history the round was paired from, plus the round's own rows): start numbers, boards,
/// byes and the openings drawn with the pairing, for round 1, a later round and a re-pairing.
#[actix_web::test]
async fn the_answer_to_pairing_is_the_round_as_listed() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let id = create_event(
        &mut org,
        json!({"name": "Ballot Swiss", "system": "swiss", "rounds": 3,
               "games_per_pairing": 2, "opening_ballot": "idf64"}),
    )
    .await;
    enter_players(&mut org, id, 5).await;
    let listed = |org_rounds: Value, number: i64| {
        org_rounds
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["number"] == number)
            .cloned()
            .unwrap()
    };

    let first = play_round(&mut org, id, &[]).await;
    assert!(first["boards"][0]["opening"].is_object(), "{first}");
    let rounds = org.get(&format!("/api/v1/events/{id}/rounds")).await.json();
    let mut expected = listed(rounds, 1);
    // The list is read after publishing; the answer came before it.
    assert_eq!(expected["published"], true);
    expected["published"] = json!(false);
    for board in expected["boards"].as_array_mut().unwrap() {
        board["game_id"] = Value::Null;
        for game in board["games"].as_array_mut().unwrap() {
            game["game_id"] = Value::Null;
        }
    }
    assert_eq!(first, expected);

    // Round 1 is decided (forfeits: a micro-match takes a result per game otherwise).
    let boards = first["boards"].as_array().unwrap();
    for board in boards.iter().filter(|b| !b["black_entry_id"].is_null()) {
        let pairing = board["pairing_id"].as_i64().unwrap();
        let res = org
            .json(
                Method::PUT,
                &format!("/api/v1/events/{id}/pairings/{pairing}/result"),
                json!({"result": "+/-"}),
            )
            .await;
        assert_eq!(res.status.as_u16(), 204, "{}", res.body);
    }
    let second = org.post(&format!("/api/v1/events/{id}/rounds")).await;
    assert_eq!(second.status.as_u16(), 201, "{}", second.body);
    let rounds = org.get(&format!("/api/v1/events/{id}/rounds")).await.json();
    assert_eq!(second.json(), listed(rounds, 2));

    let repaired = org
        .post(&format!("/api/v1/events/{id}/rounds/repair"))
        .await;
    assert_eq!(repaired.status.as_u16(), 200, "{}", repaired.body);
    let rounds = org.get(&format!("/api/v1/events/{id}/rounds")).await.json();
    assert_eq!(repaired.json(), listed(rounds, 2));
}
