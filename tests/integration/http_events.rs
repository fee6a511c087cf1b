//! Events over HTTP: the round workflow for Swiss and round-robin events, results with an
//! audit trail, standings, TRF export and who may do what.
#![allow(clippy::unwrap_used)]
use crate::common;

use std::collections::HashSet;

use actix_web::http::Method;
use common::{Role, TestApp, create_event, enter_players, organiser_api, play_round};
use damka_domain::vocabulary::ResultCode;
use serde_json::{Value, json};

fn games(round: &Value) -> Vec<&Value> {
    round["boards"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| !b["black_entry_id"].is_null())
        .collect()
}

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

#[actix_web::test]
async fn event_pages_for_organiser_and_visitors() {
    let app = TestApp::new().await;
    let mut org = app.user("org@t.org", Role::Organiser).await;
    let bad = org
        .post_form(
            "/events",
            &[
                ("name", "X"),
                ("system", "swiss"),
                ("rounds", "99"),
                ("variant", "russian"),
                ("time_control", "classical"),
                ("scoring_display", "1-0.5-0"),
                ("first_colour", "white"),
            ],
        )
        .await;
    assert_eq!(bad.status.as_u16(), 422);
    assert!(bad.body.contains("between 1 and 30 rounds"));
    let created = org
        .post_form(
            "/events",
            &[
                ("name", "Пятничный блиц"),
                ("system", "swiss"),
                ("rounds", "3"),
                ("variant", "russian"),
                ("time_control", "blitz"),
                ("scoring_display", "2-1-0"),
                ("first_colour", "white"),
                ("self_registration", "1"),
                ("pab_half_points", "2"),
                ("draw_offer_min_moves", "20"),
            ],
        )
        .await;
    assert_eq!(created.status.as_u16(), 303, "{}", created.body);
    let path = created.location();
    let id: i64 = path.rsplit('/').next().unwrap().parse().unwrap();
    let mut api = org.api_client().await;
    let mut players = Vec::new();
    for name in ["Анна", "Борис", "Вера"] {
        players.push(
            api.json(Method::POST, "/api/v1/players", json!({"name": name}))
                .await
                .json()["id"]
                .as_i64()
                .unwrap(),
        );
    }
    for p in &players {
        let res = org
            .post_form(&format!("{path}/entries"), &[("player_id", &p.to_string())])
            .await;
        assert_eq!(res.status.as_u16(), 303, "{}", res.body);
    }
    // A player registers themselves.
    let mut self_reg = app.user("dima@t.org", Role::Player).await;
    self_reg.post_form("/players", &[("name", "Дима")]).await;
    let entries_page = self_reg.get(&format!("{path}?tab=entries")).await;
    assert!(entries_page.body.contains("Register for this event"));
    assert_eq!(
        self_reg
            .post_form(&format!("{path}/entries"), &[])
            .await
            .status
            .as_u16(),
        303
    );
    // A player cannot pair; the organiser can, and sees the draft.
    assert_eq!(
        self_reg
            .post_form(&format!("{path}/rounds"), &[])
            .await
            .status
            .as_u16(),
        403
    );
    assert_eq!(
        org.post_form(&format!("{path}/rounds"), &[])
            .await
            .status
            .as_u16(),
        303
    );
    let rounds_page = org.get(&format!("{path}?tab=rounds")).await;
    assert!(rounds_page.body.contains("draft"));
    assert!(
        !app.client()
            .get(&format!("{path}?tab=rounds"))
            .await
            .body
            .contains("Round 1")
    );
    org.post_form(&format!("{path}/rounds/publish"), &[]).await;
    let round = api.get(&format!("/api/v1/events/{id}/rounds")).await.json();
    let pid = games(&round[0])[0]["pairing_id"].as_i64().unwrap();
    let res = org
        .post_form(
            &format!("{path}/pairings/{pid}/result"),
            &[("result", "1/2-1/2")],
        )
        .await;
    assert_eq!(res.status.as_u16(), 303);
    // Pairing the next round too early shows why, on the page.
    let early = org.post_form(&format!("{path}/rounds"), &[]).await;
    assert_eq!(early.status.as_u16(), 409);
    assert!(early.body.contains("without a result"));
    let standings = app.client().get(&format!("{path}?tab=standings")).await;
    assert!(
        standings.body.contains("Solkoff"),
        "Russian-variant events use draughts names"
    );
    // Each row's points cell: the two who drew have 1 (a draw on the 2-1-0 scale), no
    // half point is shown anywhere.
    let points: Vec<&str> = standings
        .body
        .split(r#"<td class="num"><strong>"#)
        .skip(1)
        .map(|cell| cell.split("</strong>").next().unwrap())
        .collect();
    assert_eq!(
        points.iter().filter(|p| **p == "1").count(),
        2,
        "a draw is 1 point on the 2-1-0 scale: {points:?}"
    );
    assert!(
        points.iter().all(|p| !p.contains('.') && !p.contains('½')),
        "{points:?}"
    );
    let ru = app
        .client()
        .request(
            Method::GET,
            &format!("{path}?tab=standings"),
            None,
            &[("accept-language", "ru")],
        )
        .await;
    assert!(ru.body.contains("Солкофа"));
    let list = app.client().get("/events").await;
    assert!(list.body.contains("Пятничный блиц"));
}

/// A draft round is the arbiters' business: its pairing-allocated bye counts in no
/// standings, crosstable or export until the round is published.
#[actix_web::test]
async fn a_draft_round_counts_nowhere_until_published() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let id = create_event(
        &mut org,
        json!({"name": "Drafts", "system": "swiss", "rounds": 3}),
    )
    .await;
    enter_players(&mut org, id, 5).await;
    play_round(&mut org, id, &["1/2-1/2", "1/2-1/2"]).await;
    let round2 = org
        .post(&format!("/api/v1/events/{id}/rounds"))
        .await
        .json();
    assert!(
        round2["boards"]
            .as_array()
            .unwrap()
            .iter()
            .any(|b| b["bye"] == "U")
    );

    let mut public = app.client();
    let standings = public
        .get(&format!("/api/v1/events/{id}/standings"))
        .await
        .json();
    assert_eq!(standings["after_round"], 1);
    let total: i64 = standings["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["half_points"].as_i64().unwrap())
        .sum();
    // Two draws (4 half-points) and round 1's PAB (2), nothing of the draft.
    assert_eq!(total, 6);
    let crosstable = public
        .get(&format!("/api/v1/events/{id}/crosstable"))
        .await
        .json();
    assert_eq!(crosstable["after_round"], 1);
    let trf = public.get(&format!("/events/{id}/export.trf")).await.body;
    let player_lines: Vec<&str> = trf.lines().filter(|l| l.starts_with("001")).collect();
    assert_eq!(player_lines.len(), 5);
    // One round cell (10 characters from column 92) per player, not two.
    assert!(
        player_lines.iter().all(|l| l.trim_end().len() <= 99),
        "{trf}"
    );

    org.post(&format!("/api/v1/events/{id}/rounds/publish"))
        .await;
    let standings = public
        .get(&format!("/api/v1/events/{id}/standings"))
        .await
        .json();
    assert_eq!(
        standings["after_round"], 2,
        "the published round's bye counts"
    );
}

/// A round published with none of its games played yet (no byes: 8 players) does not
/// count: the default standings, crosstable and page are those after round 1, every figure
/// included (the unplayed round used to count in the tie-breaks as unplayed games for
/// everyone while the page's selector said "after round 1"), and the print links follow.
#[actix_web::test]
async fn a_published_round_without_results_counts_nowhere_by_default() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let id = create_event(
        &mut org,
        json!({"name": "Unplayed", "system": "swiss", "rounds": 5}),
    )
    .await;
    enter_players(&mut org, id, 8).await;
    play_round(&mut org, id, &["1-0", "0-1", "1/2-1/2", "1-0"]).await;
    let round2 = org.post(&format!("/api/v1/events/{id}/rounds")).await;
    assert_eq!(round2.status.as_u16(), 201, "{}", round2.body);
    let published = org
        .post(&format!("/api/v1/events/{id}/rounds/publish"))
        .await;
    assert!(published.status.is_success(), "{}", published.body);

    let mut public = app.client();
    let by_default = public
        .get(&format!("/api/v1/events/{id}/standings"))
        .await
        .json();
    let after_one = public
        .get(&format!("/api/v1/events/{id}/standings?after=1"))
        .await
        .json();
    assert_eq!(by_default["after_round"], 1);
    assert_eq!(by_default, after_one);
    let crosstable = public
        .get(&format!("/api/v1/events/{id}/crosstable"))
        .await
        .json();
    assert_eq!(crosstable["after_round"], 1);
    let page = public
        .get(&format!("/events/{id}?tab=standings"))
        .await
        .body;
    assert!(
        page.contains(&format!("/events/{id}/standings/print?after=1")),
        "{page}"
    );
    assert!(!page.contains("print?after=2"), "{page}");
    assert!(page.contains(r#"<option value="1" selected>"#), "{page}");
    assert!(!page.contains(r#"<option value="2""#), "{page}");
}

/// Forbidden pairs are listed, added and lifted (API and entries tab, arbiters only), and
/// requested byes show with the entry until their round is paired.
#[actix_web::test]
async fn forbidden_pairs_and_requests_are_visible_and_managed() {
    let app = TestApp::new().await;
    let mut browser = app.user("org@t.org", Role::Organiser).await;
    let mut org = browser.api_client().await;
    let id = create_event(
        &mut org,
        json!({"name": "Family open", "system": "swiss", "rounds": 3}),
    )
    .await;
    let entries = enter_players(&mut org, id, 4).await;
    let forbid = org
        .json(
            Method::POST,
            &format!("/api/v1/events/{id}/forbidden-pairs"),
            json!({"first_entry_id": entries[2], "second_entry_id": entries[0]}),
        )
        .await;
    assert_eq!(forbid.status.as_u16(), 204, "{}", forbid.body);
    let list = org
        .get(&format!("/api/v1/events/{id}/forbidden-pairs"))
        .await
        .json();
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert_eq!(list[0]["first_entry_id"], entries[0]);
    assert_eq!(list[0]["second_entry_id"], entries[2]);
    assert_eq!(list[0]["first_name"], "Player 00");
    assert_eq!(list[0]["second_name"], "Player 02");
    // Only those who run the event see or change them.
    let mut player_browser = app.user("p@t.org", Role::Player).await;
    let mut player = player_browser.api_client().await;
    player
        .get(&format!("/api/v1/events/{id}/forbidden-pairs"))
        .await
        .assert_problem(403, "forbidden");
    player
        .request(
            Method::DELETE,
            &format!(
                "/api/v1/events/{id}/forbidden-pairs/{}/{}",
                entries[0], entries[2]
            ),
            None,
            &[],
        )
        .await
        .assert_problem(403, "forbidden");
    let tab = browser.get(&format!("/events/{id}?tab=entries")).await;
    assert!(tab.body.contains("Forbidden pairs"));
    assert!(tab.body.contains("Player 00 – Player 02"));
    let public = app.client().get(&format!("/events/{id}?tab=entries")).await;
    assert!(!public.body.contains("Forbidden pairs"));

    // The page form adds one; the remove button lifts it (in either order of ids).
    let added = browser
        .post_form(
            &format!("/events/{id}/forbidden-pairs"),
            &[
                ("first", &entries[1].to_string()),
                ("second", &entries[3].to_string()),
            ],
        )
        .await;
    assert_eq!(added.status.as_u16(), 303, "{}", added.body);
    let same = browser
        .post_form(
            &format!("/events/{id}/forbidden-pairs"),
            &[
                ("first", &entries[1].to_string()),
                ("second", &entries[1].to_string()),
            ],
        )
        .await;
    assert_eq!(same.status.as_u16(), 422);
    assert!(same.body.contains("a pair needs two different players"));
    let removed = browser
        .post_form(
            &format!(
                "/events/{id}/forbidden-pairs/{}/{}/delete",
                entries[2], entries[0]
            ),
            &[],
        )
        .await;
    assert_eq!(removed.status.as_u16(), 303, "{}", removed.body);
    let list = org
        .get(&format!("/api/v1/events/{id}/forbidden-pairs"))
        .await
        .json();
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert_eq!(list[0]["second_name"], "Player 03");
    org.request(
        Method::DELETE,
        &format!(
            "/api/v1/events/{id}/forbidden-pairs/{}/{}",
            entries[0], entries[2]
        ),
        None,
        &[],
    )
    .await
    .assert_problem(404, "not-found");

    // A requested bye shows with the entry and is preselected for the next round...
    org.json(
        Method::PUT,
        &format!("/api/v1/events/{id}/entries/{}/absence", entries[3]),
        json!({"round": 1, "kind": "H"}),
    )
    .await;
    let listed = org
        .get(&format!("/api/v1/events/{id}/entries"))
        .await
        .json();
    let requester = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == entries[3])
        .unwrap();
    assert_eq!(requester["requests"], json!([{"round": 1, "kind": "H"}]));
    let tab = browser.get(&format!("/events/{id}?tab=entries")).await;
    assert!(tab.body.contains("half-point bye requested for round 1"));
    assert!(tab.body.contains("<option value=\"H\" selected>"));
    // ...and is history once the round is paired.
    org.post(&format!("/api/v1/events/{id}/rounds")).await;
    let listed = org
        .get(&format!("/api/v1/events/{id}/entries"))
        .await
        .json();
    assert!(
        listed
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["requests"] == json!([]))
    );
}

/// On the 2-1-0 scale the sums of points among the tie-breaks (BH, SB) are doubled with
/// the points; counts (WIN) are not.
#[actix_web::test]
async fn two_one_zero_display_doubles_point_tiebreaks_only() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let id = create_event(
        &mut org,
        json!({"name": "Scale", "system": "swiss", "rounds": 3}),
    )
    .await;
    enter_players(&mut org, id, 6).await;
    for results in [["1-0", "1/2-1/2", "0-1"], ["1/2-1/2", "1-0", "1-0"]] {
        play_round(&mut org, id, &results).await;
    }
    let values = |standings: &Value, column: usize| -> Vec<f64> {
        standings["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["tiebreaks"][column].as_str().unwrap().parse().unwrap())
            .collect()
    };
    let before = org
        .get(&format!("/api/v1/events/{id}/standings"))
        .await
        .json();
    assert_eq!(before["tiebreaks"], json!(["BH/C1", "BH", "SB", "WIN"]));
    let changed = org
        .json(
            Method::PUT,
            &format!("/api/v1/events/{id}"),
            json!({"name": "Scale", "system": "swiss", "rounds": 3, "scoring_display": "2-1-0"}),
        )
        .await;
    assert_eq!(changed.status.as_u16(), 200, "{}", changed.body);
    let after = org
        .get(&format!("/api/v1/events/{id}/standings"))
        .await
        .json();
    for column in 0..3 {
        let doubled: Vec<f64> = values(&before, column).iter().map(|v| v * 2.0).collect();
        assert_eq!(values(&after, column), doubled, "column {column}");
    }
    assert_eq!(values(&after, 3), values(&before, 3), "WIN counts rounds");
    assert!(
        values(&before, 1).iter().any(|v| v.fract() != 0.0),
        "the example has half points in BH"
    );
    // The player's card shows points on the same scale.
    let leader = &after["rows"][0];
    let card = app
        .client()
        .get(&format!("/events/{id}/players/{}", leader["start_no"]))
        .await;
    // On 2-1-0 a player's points are their half-points on the 1-½-0 scale.
    let shown = leader["half_points"].as_i64().unwrap();
    assert!(
        shown % 2 == 1,
        "the leader has a half point on the 1-½-0 scale"
    );
    assert!(
        card.body.contains(&format!("<strong>{shown}</strong>")),
        "{}",
        card.body
    );
    // Whole points on the 2-1-0 scale are written without decimals.
    assert!(
        after["rows"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| !r["tiebreaks"][1].as_str().unwrap().contains('.'))
    );
}

/// A finished event keeps its entries and settings until it is reopened; a result of an
/// earlier round may be corrected but not cleared (clearing would turn a played game into
/// an absence in later pairings, standings and the TRF export).
#[actix_web::test]
async fn finished_events_and_earlier_results_are_protected() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let id = create_event(
        &mut org,
        json!({"name": "Guarded", "system": "swiss", "rounds": 3}),
    )
    .await;
    let entries = enter_players(&mut org, id, 4).await;
    let first = play_round(&mut org, id, &["1-0", "0-1"]).await;
    play_round(&mut org, id, &["1-0", "1/2-1/2"]).await;
    let last = play_round(&mut org, id, &["0-1", "1-0"]).await;
    let result_path = |round: &Value| {
        format!(
            "/api/v1/events/{id}/pairings/{}/result",
            games(round)[0]["pairing_id"]
        )
    };
    let cleared = org
        .json(Method::PUT, &result_path(&first), json!({"result": ""}))
        .await;
    let problem = cleared.assert_problem(422, "invalid");
    assert_eq!(problem["field"], "result");
    let corrected = org
        .json(Method::PUT, &result_path(&first), json!({"result": "0-1"}))
        .await;
    assert_eq!(corrected.status.as_u16(), 204, "{}", corrected.body);
    let rounds = org.get(&format!("/api/v1/events/{id}/rounds")).await.json();
    assert_eq!(games(&rounds[0])[0]["result"], "0-1");
    // The last round's result may still be cleared (entered by mistake).
    for result in ["", "0-1"] {
        let res = org
            .json(
                Method::PUT,
                &result_path(&last),
                json!({ "result": result }),
            )
            .await;
        assert_eq!(res.status.as_u16(), 204, "{result:?}: {}", res.body);
    }

    assert_eq!(
        org.post(&format!("/api/v1/events/{id}/finish"))
            .await
            .status
            .as_u16(),
        204
    );
    let withdraw = format!("/api/v1/events/{id}/entries/{}/withdraw", entries[0]);
    org.post(&withdraw).await.assert_problem(409, "conflict");
    let mut settings = org.get(&format!("/api/v1/events/{id}")).await.json();
    settings["rounds"] = json!(9);
    org.json(
        Method::PUT,
        &format!("/api/v1/events/{id}"),
        settings.clone(),
    )
    .await
    .assert_problem(409, "conflict");
    org.json(
        Method::PUT,
        &format!("/api/v1/events/{id}/entries/{}/absence", entries[1]),
        json!({"round": 4, "kind": "Z"}),
    )
    .await
    .assert_problem(409, "conflict");
    let event = org.get(&format!("/api/v1/events/{id}")).await.json();
    assert_eq!(event["rounds"], 3);
    assert_eq!(event["status"], "finished");
    let listed = org
        .get(&format!("/api/v1/events/{id}/entries"))
        .await
        .json();
    assert!(
        listed
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["withdrawn_from_round"].is_null())
    );

    // Reopened, the event takes both again.
    org.post(&format!("/api/v1/events/{id}/reopen")).await;
    let updated = org
        .json(Method::PUT, &format!("/api/v1/events/{id}"), settings)
        .await;
    assert_eq!(updated.status.as_u16(), 200, "{}", updated.body);
    assert_eq!(updated.json()["rounds"], 9);
    assert_eq!(org.post(&withdraw).await.status.as_u16(), 204);
}

/// The values a browser would send back for the form in `page`: every input's value,
/// every select's selected option (or its first), checked checkboxes and radios only.
fn form_fields(page: &str) -> Vec<(String, String)> {
    let attr = |tag: &str, name: &str| {
        let marker = format!("{name}=\"");
        let start = tag.find(&marker)? + marker.len();
        let end = tag[start..].find('"')?;
        Some(tag[start..start + end].to_string())
    };
    let mut fields = Vec::new();
    for tag in page.split('<').skip(1) {
        let tag = tag.split('>').next().unwrap();
        if let Some(rest) = tag.strip_prefix("input ") {
            let Some(name) = attr(rest, "name") else {
                continue;
            };
            let checkable = matches!(attr(rest, "type").as_deref(), Some("checkbox" | "radio"));
            if checkable && !rest.contains(" checked") {
                continue;
            }
            fields.push((name, attr(rest, "value").unwrap_or_default()));
        }
    }
    for select in page.split("<select ").skip(1) {
        let name = attr(select, "name").unwrap();
        let body = &select[..select.find("</select>").unwrap()];
        let options: Vec<&str> = body.split("<option ").skip(1).collect();
        let chosen = options
            .iter()
            .find(|o| o.split('>').next().unwrap().contains(" selected"))
            .or(options.first())
            .unwrap();
        fields.push((name, attr(chosen, "value").unwrap()));
    }
    fields
}

/// Saving the edit form without touching it changes nothing: the club and every local
/// rule survive (they used to be cleared because the form did not carry them).
#[actix_web::test]
async fn saving_the_edit_form_unchanged_keeps_every_setting() {
    let app = TestApp::new().await;
    let mut browser = app.user("org@t.org", Role::Organiser).await;
    let mut org = browser.api_client().await;
    let club = org
        .json(
            Method::POST,
            "/api/v1/clubs",
            json!({"name": "Chapaev club"}),
        )
        .await;
    assert_eq!(club.status.as_u16(), 201, "{}", club.body);
    let club_id = club.json()["id"].as_i64().unwrap();
    let id = create_event(
        &mut org,
        json!({
            "name": "Club cup",
            "system": "swiss",
            "rounds": 5,
            "club_id": club_id,
            "local_rules": {
                "capture_choice": "free",
                "mandatory_capture": true,
                "no_progress_limit": 30,
                "move_limit": 80,
                "lone_kings_limit": 12
            }
        }),
    )
    .await;
    let before = org.get(&format!("/api/v1/events/{id}")).await.json();
    let form = browser.get(&format!("/events/{id}/edit")).await;
    assert_eq!(form.status.as_u16(), 200, "{}", form.body);
    let fields = form_fields(&form.body);
    let pairs: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let saved = browser
        .post_form_raw(&format!("/events/{id}"), &pairs)
        .await;
    assert_eq!(saved.status.as_u16(), 303, "{}", saved.body);
    let after = org.get(&format!("/api/v1/events/{id}")).await.json();
    assert_eq!(after, before);
    assert_eq!(after["club_id"], club_id);
    assert_eq!(after["local_rules"]["move_limit"], 80);
}

/// A word the database should never hold (typed by hand into it, say, or left by a newer
/// version after a roll-back) fails the read with an internal error instead of passing for
/// a default: an unknown status, unreadable local rules, an unknown bye kind or result.
#[actix_web::test]
async fn stored_values_of_no_known_kind_are_errors_not_defaults() {
    use diesel::connection::SimpleConnection;

    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let id = create_event(
        &mut org,
        json!({"name": "Odd", "system": "swiss", "rounds": 3}),
    )
    .await;
    enter_players(&mut org, id, 3).await;
    let round = org.post(&format!("/api/v1/events/{id}/rounds")).await;
    assert_eq!(round.status.as_u16(), 201, "{}", round.body);
    let event = format!("/api/v1/events/{id}");
    let rounds = format!("/api/v1/events/{id}/rounds");
    let cases = [
        (
            "UPDATE events SET status = 'paused'",
            "UPDATE events SET status = 'running'",
            &event,
        ),
        (
            "UPDATE events SET local_rules = 'none'",
            "UPDATE events SET local_rules = '{}'",
            &event,
        ),
        (
            "UPDATE pairings SET bye = 'X' WHERE bye IS NOT NULL",
            "UPDATE pairings SET bye = 'U' WHERE bye IS NOT NULL",
            &rounds,
        ),
        (
            "UPDATE pairings SET result = '2-0' WHERE bye IS NULL",
            "UPDATE pairings SET result = NULL",
            &rounds,
        ),
    ];
    for (spoil, restore, path) in cases {
        assert_eq!(org.get(path).await.status.as_u16(), 200, "before {spoil}");
        app.with_db(move |conn| conn.batch_execute(spoil).unwrap())
            .await;
        org.get(path).await.assert_problem(500, "internal");
        app.with_db(move |conn| conn.batch_execute(restore).unwrap())
            .await;
        assert_eq!(org.get(path).await.status.as_u16(), 200, "after {restore}");
    }
}

/// The event's fixed choices (system, variant, time control, scoring, colour) are read
/// once where they come in: a form names the field and the choices, the API names the
/// value and the choices; the form lists the choices in one order, with their names.
#[actix_web::test]
async fn choices_outside_their_set_are_refused_naming_the_choices() {
    let app = TestApp::new().await;
    let mut org = app.user("org@t.org", Role::Organiser).await;
    let form = |system: &'static str, scoring: &'static str| {
        [
            ("name", "Cup"),
            ("system", system),
            ("rounds", "5"),
            ("variant", "russian"),
            ("time_control", "classical"),
            ("scoring_display", scoring),
            ("first_colour", "white"),
        ]
    };
    let bad = org.post_form("/events", &form("knockout", "1-0.5-0")).await;
    assert_eq!(bad.status.as_u16(), 422, "{}", bad.body);
    assert!(
        bad.body
            .contains("must be one of: round_robin, double_round_robin, swiss"),
        "{}",
        bad.body
    );
    let bad = org.post_form("/events", &form("swiss", "3-1-0")).await;
    assert_eq!(bad.status.as_u16(), 422, "{}", bad.body);
    assert!(
        bad.body.contains("must be one of: 1-0.5-0, 2-1-0"),
        "{}",
        bad.body
    );

    let blank = org.get("/events/new").await;
    let at = |text: &str| blank.body.find(text).unwrap_or(usize::MAX);
    assert!(
        at("value=\"russian\"") < at("value=\"international\"")
            && at("value=\"international\"") < at("value=\"english\"")
            && at("value=\"english\"") < at("value=\"brazilian\""),
        "variants in Variant::ALL's order"
    );
    assert!(
        blank
            .body
            .contains("<option value=\"1-0.5-0\" selected>1 – ½ – 0</option>")
    );
    assert!(
        blank
            .body
            .contains("<option value=\"2-1-0\">2 – 1 – 0</option>")
    );

    let mut api = org.api_client().await;
    let res = api
        .json(
            Method::POST,
            "/api/v1/events",
            json!({"name": "Cup", "system": "knockout"}),
        )
        .await;
    let detail = res.assert_problem(400, "bad-request")["detail"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(detail.contains("\"knockout\""), "{detail}");
    assert!(
        detail.contains("round_robin, double_round_robin, swiss"),
        "{detail}"
    );
    let res = api
        .json(
            Method::POST,
            "/api/v1/events",
            json!({"name": "Cup", "system": "swiss", "rounds": 5, "time_control": "bullet"}),
        )
        .await;
    res.assert_problem(400, "bad-request");
    let created = api
        .json(
            Method::POST,
            "/api/v1/events",
            json!({"name": "Cup", "system": "double_round_robin", "variant": "international",
                   "time_control": "none", "scoring_display": "2-1-0", "first_colour": "black"}),
        )
        .await;
    assert_eq!(created.status.as_u16(), 201, "{}", created.body);
    let event = created.json();
    for (field, value) in [
        ("system", "double_round_robin"),
        ("variant", "international"),
        ("time_control", "none"),
        ("scoring_display", "2-1-0"),
        ("first_colour", "black"),
        ("status", "registration"),
    ] {
        assert_eq!(event[field], value, "{event}");
    }
}

/// Before round 1 the entries show the start numbers the first pairing will give (rating
/// order), not the order of entry, and pairing round 1 keeps them (issue 13 item 4).
#[actix_web::test]
async fn start_numbers_before_the_first_round_are_the_ones_it_will_use() {
    let app = TestApp::new().await;
    let mut browser = app.user("org@t.org", Role::Organiser).await;
    let mut org = browser.api_client().await;
    let event = create_event(
        &mut org,
        json!({"name": "Club Swiss", "system": "swiss", "rounds": 3}),
    )
    .await;
    // Entered weakest first.
    for (name, rating) in [("Zaitsev", 1800), ("Morozov", 2000), ("Belov", 2200)] {
        let made = org
            .json(Method::POST, "/api/v1/players", json!({ "name": name }))
            .await;
        let player_id = made.json()["id"].as_i64().unwrap();
        app.with_db(move |conn| {
            damka::store::players::set_rating(
                conn,
                &damka::store::models::PlayerRating {
                    player_id,
                    variant: damka_engine::Variant::Russian,
                    rating,
                    games: 30,
                },
            )
            .unwrap()
        })
        .await;
        let entry = org
            .json(
                Method::POST,
                &format!("/api/v1/events/{event}/entries"),
                json!({ "player_id": player_id }),
            )
            .await;
        assert_eq!(entry.status.as_u16(), 201, "{}", entry.body);
    }
    let numbered = |entries: Value| -> Vec<(i64, String)> {
        entries
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e["start_no"].as_i64().unwrap(),
                    e["name"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    let expected = vec![
        (1, "Belov".to_string()),
        (2, "Morozov".to_string()),
        (3, "Zaitsev".to_string()),
    ];
    let before = org.get(&format!("/api/v1/events/{event}/entries")).await;
    assert_eq!(numbered(before.json()), expected);
    let page = browser
        .get(&format!("/events/{event}?tab=entries"))
        .await
        .body;
    let belov = page.find("Belov").unwrap();
    let zaitsev = page.find("Zaitsev").unwrap();
    assert!(
        belov < zaitsev,
        "the entries tab lists them by start number"
    );
    let trf = org
        .get(&format!("/api/v1/events/{event}/export.trf"))
        .await
        .body;
    assert!(
        trf.lines()
            .any(|l| l.starts_with("001    1") && l.contains("Belov")),
        "{trf}"
    );

    let paired = org.post(&format!("/api/v1/events/{event}/rounds")).await;
    assert_eq!(paired.status.as_u16(), 201, "{}", paired.body);
    let after = org.get(&format!("/api/v1/events/{event}/entries")).await;
    assert_eq!(
        numbered(after.json()),
        expected,
        "pairing keeps the numbers"
    );
}

/// The event form picks tie-breaks from a list, in order, named in the event's terms; the
/// edit form shows the ones chosen (issue 13 item 13).
#[actix_web::test]
async fn tie_breaks_are_picked_from_a_list_in_order() {
    let app = TestApp::new().await;
    let mut browser = app.user("org@t.org", Role::Organiser).await;
    let blank = browser.get("/events/new").await.body;
    assert!(blank.contains(r#"<select name="tiebreak_1">"#), "{blank}");
    assert!(
        blank.contains(r#"<option value="DE">Direct encounter (DE)</option>"#),
        "{blank}"
    );
    let made = browser
        .post_form(
            "/events",
            &[
                ("name", "Picked"),
                ("system", "swiss"),
                ("rounds", "5"),
                ("tiebreak_1", "DE"),
                ("tiebreak_2", ""),
                ("tiebreak_3", "SB"),
                ("tiebreak_4", "BH/C1"),
            ],
        )
        .await;
    let id = common::created_event_id(&made);
    let mut api = browser.api_client().await;
    let event = api.get(&format!("/api/v1/events/{id}")).await.json();
    assert_eq!(event["tiebreaks"], "DE,SB,BH/C1");
    let edit = browser.get(&format!("/events/{id}/edit")).await.body;
    let picked = |n: usize, code: &str| {
        let select = &edit[edit.find(&format!(r#"name="tiebreak_{n}""#)).unwrap()..];
        let select = &select[..select.find("</select>").unwrap()];
        select.contains(&format!(r#"<option value="{code}" selected>"#))
    };
    assert!(
        picked(1, "DE") && picked(2, "SB") && picked(3, "BH/C1"),
        "{edit}"
    );
    // A code the list does not offer is kept.
    let updated = api
        .json(
            Method::PUT,
            &format!("/api/v1/events/{id}"),
            json!({"name": "Picked", "system": "swiss", "rounds": 5, "tiebreaks": "BH/C3,WIN"}),
        )
        .await;
    assert_eq!(updated.status.as_u16(), 200, "{}", updated.body);
    let edit = browser.get(&format!("/events/{id}/edit")).await.body;
    assert!(
        edit.contains(r#"<option value="BH/C3" selected>"#),
        "{edit}"
    );
}

/// An event can belong to a club, and the club's page lists its events (issue 13 item 13).
#[actix_web::test]
async fn a_club_page_lists_the_clubs_events() {
    let app = TestApp::new().await;
    let mut browser = app.user("org@t.org", Role::Organiser).await;
    let mut org = browser.api_client().await;
    let club = common::create_club(&mut org, "Chapaev club").await;
    create_event(
        &mut org,
        json!({"name": "Club cup", "system": "swiss", "rounds": 5, "club_id": club}),
    )
    .await;
    create_event(
        &mut org,
        json!({"name": "Open of the city", "system": "swiss", "rounds": 5}),
    )
    .await;
    let page = app.client().get(&format!("/clubs/{club}")).await.body;
    let section = &page[page.find(r#"id="club-events""#).unwrap()..];
    let section = &section[..section.find("</section>").unwrap()];
    assert!(section.contains("Club cup"), "{section}");
    assert!(!section.contains("Open of the city"), "{section}");
}

/// Finishing, reopening, pairing again, withdrawing and revoking first ask on a page of
/// their own (no JavaScript needed); finishing early says how many rounds are left, and
/// asking changes nothing (issue 13 item 10).
#[actix_web::test]
async fn destructive_actions_ask_for_confirmation_first() {
    let app = TestApp::new().await;
    let mut browser = app.user("org@t.org", Role::Organiser).await;
    let mut org = browser.api_client().await;
    let id = create_event(
        &mut org,
        json!({"name": "Club Swiss", "system": "swiss", "rounds": 5}),
    )
    .await;
    let entries = enter_players(&mut org, id, 6).await;
    for _ in 0..2 {
        play_round(&mut org, id, &["1-0", "0-1", "1/2-1/2"]).await;
    }
    let info = browser.get(&format!("/events/{id}")).await.body;
    assert!(
        info.contains(&format!(r#"href="/events/{id}/finish""#)),
        "the page links to the question, it does not post: {info}"
    );
    let ask = browser.get(&format!("/events/{id}/finish")).await;
    assert_eq!(ask.status.as_u16(), 200, "{}", ask.body);
    assert!(
        ask.body
            .contains("2 of 5 rounds have been played: 3 rounds will not be played."),
        "{}",
        ask.body
    );
    assert!(
        ask.body
            .contains(&format!(r#"action="/events/{id}/finish""#))
    );
    let event = org.get(&format!("/api/v1/events/{id}")).await.json();
    assert_eq!(event["status"], "running", "asking changes nothing");
    let mut stranger = app.user("other@t.org", Role::Organiser).await;
    assert_eq!(
        stranger
            .get(&format!("/events/{id}/finish"))
            .await
            .status
            .as_u16(),
        403
    );
    let done = browser
        .post_form(&format!("/events/{id}/finish"), &[])
        .await;
    assert_eq!(done.status.as_u16(), 303, "{}", done.body);
    let reopen = browser.get(&format!("/events/{id}/reopen")).await;
    assert!(
        reopen
            .body
            .contains(&format!(r#"action="/events/{id}/reopen""#))
    );
    assert_eq!(
        browser
            .post_form(&format!("/events/{id}/reopen"), &[])
            .await
            .status
            .as_u16(),
        303
    );

    let withdraw = browser
        .get(&format!("/events/{id}/entries/{}/withdraw", entries[0]))
        .await;
    assert_eq!(withdraw.status.as_u16(), 200, "{}", withdraw.body);
    assert!(
        withdraw.body.contains("not paired from round 3 on"),
        "{}",
        withdraw.body
    );
    let round = org.post(&format!("/api/v1/events/{id}/rounds")).await;
    assert_eq!(round.status.as_u16(), 201, "{}", round.body);
    let repair = browser.get(&format!("/events/{id}/rounds/repair")).await;
    assert!(
        repair.body.contains("Pair round 3 again?"),
        "{}",
        repair.body
    );

    let created = browser
        .post_form("/account/tokens", &[("name", "results script")])
        .await;
    assert!(created.status.is_success() || created.status.is_redirection());
    let tokens = org.get("/api/v1/tokens").await.json();
    let token = tokens
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "results script")
        .unwrap()["id"]
        .as_i64()
        .unwrap();
    let revoke = browser
        .get(&format!("/account/tokens/{token}/revoke"))
        .await;
    assert!(revoke.body.contains("Revoke the token “results script”?"));
    assert_eq!(
        stranger
            .get(&format!("/account/tokens/{token}/revoke"))
            .await
            .status
            .as_u16(),
        404,
        "nobody else's tokens"
    );
}

/// The pairings tab: one results form per round with one Save, names linking to the
/// player's card with start number and points before the round, a round picker with the
/// latest round first, and "Pair round N" disabled with its reason while boards wait for a
/// result; the standings show start numbers and clubs (issue 13 items 11 and 12).
#[actix_web::test]
async fn a_round_is_entered_in_one_form_and_the_next_waits_visibly() {
    let app = TestApp::new().await;
    let mut browser = app.user("org@t.org", Role::Organiser).await;
    let mut org = browser.api_client().await;
    let club = common::create_club(&mut org, "Chapaev club").await;
    let id = create_event(
        &mut org,
        json!({"name": "Club Swiss", "system": "swiss", "rounds": 5}),
    )
    .await;
    enter_players(&mut org, id, 5).await;
    let member = org
        .json(
            Method::POST,
            "/api/v1/players",
            json!({"name": "Klubov", "club_id": club}),
        )
        .await;
    assert_eq!(member.status.as_u16(), 201, "{}", member.body);
    let entered = org
        .json(
            Method::POST,
            &format!("/api/v1/events/{id}/entries"),
            json!({"player_id": member.json()["id"]}),
        )
        .await;
    assert_eq!(entered.status.as_u16(), 201, "{}", entered.body);
    play_round(&mut org, id, &["1-0", "0-1", "1/2-1/2"]).await;
    let round = org.post(&format!("/api/v1/events/{id}/rounds")).await;
    assert_eq!(round.status.as_u16(), 201, "{}", round.body);
    let published = org
        .post(&format!("/api/v1/events/{id}/rounds/publish"))
        .await;
    assert_eq!(published.status.as_u16(), 204, "{}", published.body);
    let boards = org.get(&format!("/api/v1/events/{id}/rounds")).await.json()[1]["boards"].clone();
    let pairing = |i: usize| boards[i]["pairing_id"].as_i64().unwrap();

    let tab = browser.get(&format!("/events/{id}?tab=rounds")).await.body;
    let action = format!(r#"action="/events/{id}/rounds/2/results""#);
    assert_eq!(
        tab.matches(&action).count(),
        1,
        "one form for the round: {tab}"
    );
    assert_eq!(
        tab.matches(r#"name="result_"#).count(),
        3,
        "every board in it"
    );
    assert!(tab.contains("Save the results of round 2"), "{tab}");
    assert!(
        !tab.contains(r#"action="/events/{id}/rounds/1/results""#),
        "only the latest round is shown"
    );
    assert!(
        tab.contains(&format!(
            r#"<a href="/events/{id}?tab=rounds&amp;round=1">1</a>"#
        )),
        "a round picker: {tab}"
    );
    assert!(
        tab.contains(r#"disabled aria-describedby="pair-waits""#)
            && tab.contains("Waiting for the results of boards 1, 2, 3."),
        "{tab}"
    );
    let white = boards[0]["white_start_no"].as_i64().unwrap();
    assert!(
        tab.contains(&format!(r#"<a href="/events/{id}/players/{white}">"#)),
        "names link to the card"
    );
    // Points before round 2 beside the names: someone has 1, someone a half.
    assert!(
        tab.contains(") 1</span>") && tab.contains(") 0.5</span>"),
        "{tab}"
    );

    let saved = browser
        .post_form(
            &format!("/events/{id}/rounds/2/results"),
            &[
                (&format!("result_{}", pairing(0)), "1-0"),
                (&format!("result_{}", pairing(1)), "1/2-1/2"),
                (&format!("result_{}", pairing(2)), ""),
            ],
        )
        .await;
    assert_eq!(saved.status.as_u16(), 303, "{}", saved.body);
    let results: Vec<Value> =
        org.get(&format!("/api/v1/events/{id}/rounds")).await.json()[1]["boards"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["result"].clone())
            .collect();
    assert_eq!(results, [json!("1-0"), json!("1/2-1/2"), Value::Null]);
    let tab = browser.get(&format!("/events/{id}?tab=rounds")).await.body;
    assert!(
        tab.contains("Waiting for the results of boards 3."),
        "{tab}"
    );
    let bad = browser
        .post_form(
            &format!("/events/{id}/rounds/2/results"),
            &[(&format!("result_{}", pairing(2)), "2-0")],
        )
        .await;
    assert_eq!(bad.status.as_u16(), 422, "{}", bad.body);
    let earlier = browser
        .get(&format!("/events/{id}?tab=rounds&round=1"))
        .await
        .body;
    assert!(
        earlier.contains(&format!(r#"action="/events/{id}/rounds/1/results""#))
            && !earlier.contains(&format!(r#"action="/events/{id}/rounds/2/results""#)),
        "the picker shows round 1 alone: {earlier}"
    );

    let standings = browser
        .get(&format!("/events/{id}?tab=standings"))
        .await
        .body;
    assert!(standings.contains("<th>Club</th>"), "{standings}");
    assert!(standings.contains("<td>Chapaev club</td>"), "{standings}");
    assert!(
        standings.contains(r#"<th class="num">No.</th>"#),
        "{standings}"
    );
}

/// The home page lists the events being played and those taking entries, and the latest
/// finished games with their results (issue 13 item 13).
#[actix_web::test]
async fn the_home_page_lists_events_and_latest_results() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let running = create_event(
        &mut org,
        json!({"name": "Running Swiss", "system": "swiss", "rounds": 5}),
    )
    .await;
    create_event(
        &mut org,
        json!({"name": "Coming Open", "system": "swiss", "rounds": 5}),
    )
    .await;
    enter_players(&mut org, running, 4).await;
    play_round(&mut org, running, &[]).await;
    let game = org
        .get(&format!("/api/v1/events/{running}/rounds"))
        .await
        .json()[0]["boards"][0]["game_id"]
        .as_i64()
        .unwrap();
    let result = org
        .json(
            Method::PUT,
            &format!("/api/v1/games/{game}/result"),
            json!({"result": "1/2-1/2"}),
        )
        .await;
    assert_eq!(result.status.as_u16(), 200, "{}", result.body);
    let home = app.client().get("/").await.body;
    let events = &home[home.find(r#"id="home-events""#).unwrap()..];
    let running_at = events.find("Running Swiss").expect("running listed");
    let coming_at = events.find("Coming Open").expect("coming listed");
    assert!(running_at < coming_at, "running first");
    let results = &home[home.find(r#"id="home-results""#).unwrap()..];
    assert!(
        results.contains(&format!(r#"<a href="/games/{game}">"#)) && results.contains("½-½"),
        "{results}"
    );
}

/// A player's profile lists the events they are entered in (issue 13 item 13).
#[actix_web::test]
async fn a_profile_lists_the_players_events() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let entered = create_event(
        &mut org,
        json!({"name": "Club Swiss", "system": "swiss", "rounds": 5}),
    )
    .await;
    create_event(
        &mut org,
        json!({"name": "Other Open", "system": "swiss", "rounds": 5}),
    )
    .await;
    enter_players(&mut org, entered, 2).await;
    let player = org
        .get(&format!("/api/v1/events/{entered}/entries"))
        .await
        .json()[0]["player_id"]
        .as_i64()
        .unwrap();
    let page = app.client().get(&format!("/players/{player}")).await.body;
    let section = &page[page.find(r#"id="player-events""#).unwrap()..];
    let section = &section[..section.find("</section>").unwrap()];
    assert!(
        section.contains(&format!(r#"<a href="/events/{entered}">Club Swiss</a>"#)),
        "{section}"
    );
    assert!(!section.contains("Other Open"), "{section}");
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
