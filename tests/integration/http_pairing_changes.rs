//! Manual pairing changes over HTTP: the arbiter checks and saves a hand-made pairing of
//! the last round, every broken rule is named, the change is recorded (who, when, before,
//! after, warnings) next to the result corrections, and only the event's organiser and
//! arbiters may do it, only while the round has no result.
#![allow(clippy::unwrap_used)]
use crate::common;

use actix_web::http::Method;
use common::{Client, Role, TestApp, create_event, enter_players, organiser_api, play_round};
use serde_json::{Value, json};

/// (white, black) start numbers of a round's games, and the start number of the player
/// without an opponent: the PAB (`U`) of a Swiss, the free player (`Z`) of a round-robin.
fn boards_of(round: &Value) -> (Vec<(i64, i64)>, Option<i64>) {
    with_free(round, "U")
}

fn rr_boards_of(round: &Value) -> (Vec<(i64, i64)>, Option<i64>) {
    with_free(round, "Z")
}

fn with_free(round: &Value, code: &str) -> (Vec<(i64, i64)>, Option<i64>) {
    let boards = round["boards"].as_array().unwrap();
    let games = boards
        .iter()
        .filter(|b| !b["black_entry_id"].is_null())
        .map(|b| {
            (
                b["white_start_no"].as_i64().unwrap(),
                b["black_start_no"].as_i64().unwrap(),
            )
        })
        .collect();
    let bye = boards
        .iter()
        .find(|b| b["bye"] == code)
        .map(|b| b["white_start_no"].as_i64().unwrap());
    (games, bye)
}

fn body(boards: &[(i64, i64)], bye: Option<i64>) -> Value {
    json!({
        "boards": boards.iter().map(|(w, b)| json!({"white": w, "black": b})).collect::<Vec<_>>(),
        "bye": bye,
    })
}

fn refs<'a>(fields: &'a [(&'static str, String)]) -> Vec<(&'static str, &'a str)> {
    fields.iter().map(|(k, v)| (*k, v.as_str())).collect()
}

fn codes(warnings: &Value) -> Vec<(String, Option<i64>)> {
    warnings
        .as_array()
        .unwrap()
        .iter()
        .map(|w| (w["code"].as_str().unwrap().to_string(), w["board"].as_i64()))
        .collect()
}

/// A Swiss of `players` players, round 1 played (White wins everywhere), round 2 paired
/// as a draft. Returns the event id, round 1 and round 2 as the API shows them.
async fn swiss_in_round_two(api: &mut Client<'_>, players: usize) -> (i64, Value, Value) {
    let id = create_event(
        api,
        json!({"name": "Hand pairing", "system": "swiss", "rounds": 5}),
    )
    .await;
    enter_players(api, id, players).await;
    let round1 = play_round(api, id, &["1-0"; 4]).await;
    let round2 = api.post(&format!("/api/v1/events/{id}/rounds")).await;
    assert_eq!(round2.status.as_u16(), 201, "{}", round2.body);
    (id, round1, round2.json())
}

#[actix_web::test]
async fn the_api_checks_and_saves_hand_made_pairings_naming_every_broken_rule() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let (id, round1, round2) = swiss_in_round_two(&mut org, 8).await;
    let check = format!("/api/v1/events/{id}/rounds/2/pairing/check");
    let change = format!("/api/v1/events/{id}/rounds/2/pairing");
    let (system, bye) = boards_of(&round2);
    assert_eq!(system.len(), 4);

    // The system's own pairing breaks nothing.
    let res = org.json(Method::POST, &check, body(&system, bye)).await;
    assert_eq!(res.status.as_u16(), 200, "{}", res.body);
    assert_eq!(res.json()["warnings"], json!([]));

    // Colours of board 1 reversed: only the colour allocation is broken, on board 1.
    let mut swapped = system.clone();
    swapped[0] = (system[0].1, system[0].0);
    let res = org.json(Method::POST, &check, body(&swapped, bye)).await;
    let warnings = res.json()["warnings"].clone();
    assert_eq!(
        codes(&warnings),
        vec![("colours_against_allocation".to_string(), Some(1))]
    );
    assert_eq!(
        warnings[0]["players"][2]["start_no"].as_i64(),
        Some(system[0].0),
        "the rules give White to the system's White"
    );
    assert!(
        warnings[0]["players"][2]["name"]
            .as_str()
            .unwrap()
            .starts_with("Player")
    );

    // Round 1 again: every board repeats a game played in round 1.
    let (first, _) = boards_of(&round1);
    let res = org.json(Method::POST, &check, body(&first, bye)).await;
    let warnings = res.json()["warnings"].clone();
    let repeats: Vec<_> = warnings
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["code"] == "already_played")
        .collect();
    assert_eq!(repeats.len(), 4, "{warnings}");
    assert!(repeats.iter().all(|w| w["round"] == 1));
    assert!(
        codes(&warnings)
            .iter()
            .any(|(code, _)| code == "not_in_system_pairing")
    );

    // Impossible pairings are refused with the reason, and nothing is stored.
    let res = org
        .json(Method::POST, &check, body(&system[1..], bye))
        .await;
    let problem = res.assert_problem(422, "invalid");
    let detail = problem["detail"].as_str().unwrap();
    assert!(detail.contains("is not paired"), "{detail}");
    let res = org
        .json(Method::PUT, &change, body(&[(1, 99), (2, 3)], None))
        .await;
    let problem = res.assert_problem(422, "invalid");
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("no player has start number 99")
    );
    let res = org
        .json(
            Method::PUT,
            &change,
            body(
                &[(system[0].0, system[0].0), system[1], system[2], system[3]],
                bye,
            ),
        )
        .await;
    res.assert_problem(422, "invalid");
    let unchanged = org.get(&format!("/api/v1/events/{id}/rounds")).await.json();
    assert_eq!(boards_of(&unchanged[1]).0, system);

    // Who may change it: not a player, not another organiser, not a visitor.
    let mut player_browser = app.user("player@t.org", Role::Player).await;
    let mut player = player_browser.api_client().await;
    player
        .json(Method::PUT, &change, body(&swapped, bye))
        .await
        .assert_problem(403, "forbidden");
    let mut other = organiser_api(&app, "other@t.org").await;
    other
        .json(Method::POST, &check, body(&swapped, bye))
        .await
        .assert_problem(403, "forbidden");
    app.client()
        .json(Method::PUT, &change, body(&swapped, bye))
        .await
        .assert_problem(401, "unauthenticated");

    // Only the last round, and only an existing one.
    org.json(
        Method::PUT,
        &format!("/api/v1/events/{id}/rounds/1/pairing"),
        body(&first, None),
    )
    .await
    .assert_problem(409, "conflict");
    org.json(
        Method::PUT,
        &format!("/api/v1/events/{id}/rounds/7/pairing"),
        body(&first, None),
    )
    .await
    .assert_problem(404, "not-found");

    // Saving stores the pairing and records the change with its warnings.
    let res = org.json(Method::PUT, &change, body(&swapped, bye)).await;
    assert_eq!(res.status.as_u16(), 200, "{}", res.body);
    let outcome = res.json();
    assert_eq!(boards_of(&outcome["round"]).0, swapped);
    assert_eq!(
        codes(&outcome["warnings"]),
        vec![("colours_against_allocation".to_string(), Some(1))]
    );
    let stored = org.get(&format!("/api/v1/events/{id}/rounds")).await.json();
    assert_eq!(boards_of(&stored[1]), (swapped.clone(), bye));

    // The draft's change is the arbiters' business until the round is published.
    let changes = |v: Value| -> Vec<Value> {
        v["items"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["kind"] == "pairing")
            .cloned()
            .collect()
    };
    let mine = changes(
        org.get(&format!("/api/v1/events/{id}/changes"))
            .await
            .json(),
    );
    assert_eq!(mine.len(), 1);
    assert_eq!(mine[0]["by"], "org");
    assert_eq!(mine[0]["round"], 2);
    let as_text = |boards: &[(i64, i64)]| {
        let lines: String = boards.iter().map(|(w, b)| format!("{w} {b}\n")).collect();
        format!("{}\n{lines}", boards.len())
    };
    assert_eq!(mine[0]["old"], as_text(&system));
    assert_eq!(mine[0]["new"], as_text(&swapped));
    assert_eq!(mine[0]["warnings"][0]["code"], "colours_against_allocation");
    let public = app
        .client()
        .get(&format!("/api/v1/events/{id}/changes"))
        .await
        .json();
    assert!(changes(public.clone()).is_empty());
    let results: Vec<_> = public["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["kind"] == "result")
        .collect();
    assert_eq!(results.len(), 4, "the round 1 results are public: {public}");
    assert!(
        results
            .iter()
            .all(|c| c["new"] == "1-0" && c["old"].is_null())
    );

    // Published and a result in: the pairing stands.
    org.post(&format!("/api/v1/events/{id}/rounds/publish"))
        .await;
    let public = app
        .client()
        .get(&format!("/api/v1/events/{id}/changes"))
        .await
        .json();
    assert_eq!(changes(public).len(), 1);
    let board1 = stored[1]["boards"][0]["pairing_id"].clone();
    org.json(
        Method::PUT,
        &format!("/api/v1/events/{id}/pairings/{board1}/result"),
        json!({"result": "0-1"}),
    )
    .await;
    let refused = org.json(Method::PUT, &change, body(&system, bye)).await;
    let problem = refused.assert_problem(409, "conflict");
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("already has results")
    );
}

#[actix_web::test]
async fn a_requested_bye_can_be_overridden_and_the_others_keep_theirs() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let id = create_event(
        &mut org,
        json!({"name": "Byes", "system": "swiss", "rounds": 3}),
    )
    .await;
    let entries = enter_players(&mut org, id, 6).await;
    // Start numbers follow ratings: entry 0 is no. 1, ... Players 5 and 6 ask not to play.
    for (entry, kind) in [(entries[4], "H"), (entries[5], "Z")] {
        let res = org
            .json(
                Method::PUT,
                &format!("/api/v1/events/{id}/entries/{entry}/absence"),
                json!({"round": 1, "kind": kind}),
            )
            .await;
        assert_eq!(res.status.as_u16(), 204, "{}", res.body);
    }
    let round = org
        .post(&format!("/api/v1/events/{id}/rounds"))
        .await
        .json();
    let (system, bye) = boards_of(&round);
    assert_eq!((system.len(), bye), (2, None));

    // Player 5 is paired after all, against the PAB candidate... which needs a sixth
    // player: pair 5 with 4 and give 3 the bye.
    let hand = vec![(1, 2), (4, 5)];
    let res = org
        .json(
            Method::PUT,
            &format!("/api/v1/events/{id}/rounds/1/pairing"),
            body(&hand, Some(3)),
        )
        .await;
    assert_eq!(res.status.as_u16(), 200, "{}", res.body);
    let outcome = res.json();
    let warning_codes: Vec<String> = codes(&outcome["warnings"])
        .into_iter()
        .map(|(c, _)| c)
        .collect();
    assert!(
        warning_codes.contains(&"requested_bye_ignored".to_string()),
        "{warning_codes:?}"
    );
    let ignored = outcome["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["code"] == "requested_bye_ignored")
        .unwrap();
    assert_eq!(ignored["players"][0]["start_no"], 5);
    assert_eq!(ignored["requested"], "H");
    let rows = outcome["round"]["boards"].as_array().unwrap();
    let byes: Vec<(i64, &str)> = rows
        .iter()
        .filter(|b| b["black_entry_id"].is_null())
        .map(|b| {
            (
                b["white_start_no"].as_i64().unwrap(),
                b["bye"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        byes,
        vec![(3, "U"), (6, "Z")],
        "6 keeps the absence, 5 has no H row"
    );
}

#[actix_web::test]
async fn round_robin_changes_are_held_against_the_berger_table() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let id = create_event(&mut org, json!({"name": "RR", "system": "round_robin"})).await;
    enter_players(&mut org, id, 5).await;
    let round = org
        .post(&format!("/api/v1/events/{id}/rounds"))
        .await
        .json();
    let (table, free) = rr_boards_of(&round);
    assert!(free.is_some(), "five players: one is free each round");
    let check = format!("/api/v1/events/{id}/rounds/1/pairing/check");
    assert_eq!(
        org.json(Method::POST, &check, body(&table, free))
            .await
            .json()["warnings"],
        json!([])
    );
    let mut flipped = table.clone();
    flipped[1] = (table[1].1, table[1].0);
    let warnings = org
        .json(Method::POST, &check, body(&flipped, free))
        .await
        .json()["warnings"]
        .clone();
    assert_eq!(
        codes(&warnings),
        vec![("colours_differ_from_table".to_string(), Some(2))]
    );
    // The free player paired and someone else free: the table is not followed.
    let other_free = table[0].0;
    let moved = vec![(free.unwrap(), table[0].1), table[1]];
    let warnings = org
        .json(Method::POST, &check, body(&moved, Some(other_free)))
        .await
        .json()["warnings"]
        .clone();
    let found = codes(&warnings);
    assert!(
        found.contains(&("not_in_system_pairing".to_string(), Some(1))),
        "{found:?}"
    );
    assert!(
        found.contains(&("bye_differs_from_system".to_string(), None)),
        "{found:?}"
    );
    let res = org
        .json(
            Method::PUT,
            &format!("/api/v1/events/{id}/rounds/1/pairing"),
            body(&moved, Some(other_free)),
        )
        .await;
    assert_eq!(res.status.as_u16(), 200, "{}", res.body);
    let stored = org.get(&format!("/api/v1/events/{id}/rounds")).await.json();
    assert_eq!(rr_boards_of(&stored[0]), (moved, Some(other_free)));
}

#[actix_web::test]
async fn the_arbiters_form_checks_then_saves_and_the_rounds_tab_shows_the_warnings() {
    let app = TestApp::new().await;
    let mut browser = app.user("org@t.org", Role::Organiser).await;
    let mut org = browser.api_client().await;
    let (id, _, round2) = swiss_in_round_two(&mut org, 6).await;
    let (system, bye) = boards_of(&round2);
    let form_path = format!("/events/{id}/rounds/2/pairing");

    let rounds_tab = browser.get(&format!("/events/{id}?tab=rounds")).await;
    assert!(
        rounds_tab.body.contains(&form_path),
        "the draft round links to the form"
    );
    let form = browser.get(&form_path).await;
    assert_eq!(form.status.as_u16(), 200, "{}", form.body);
    // Three boards plus two empty rows; the stored pairing is preselected.
    assert!(form.body.contains("name=\"white_5\""));
    assert!(!form.body.contains("name=\"white_6\""));
    assert!(
        form.body
            .contains(&format!("<option value=\"{}\" selected>", system[0].0))
    );

    let (w1, b1) = (system[0].1.to_string(), system[0].0.to_string());
    let (w2, b2) = (system[1].0.to_string(), system[1].1.to_string());
    let (w3, b3) = (system[2].0.to_string(), system[2].1.to_string());
    let bye_value = bye.map(|b| b.to_string()).unwrap_or_default();
    let fields = |action: &'static str| {
        vec![
            ("white_1", w1.clone()),
            ("black_1", b1.clone()),
            ("white_2", w2.clone()),
            ("black_2", b2.clone()),
            ("white_3", w3.clone()),
            ("black_3", b3.clone()),
            ("white_4", String::new()),
            ("black_4", String::new()),
            ("bye", bye_value.clone()),
            ("action", action.to_string()),
        ]
    };
    let check_fields = fields("check");
    let checked = browser.post_form(&form_path, &refs(&check_fields)).await;
    assert_eq!(checked.status.as_u16(), 200, "{}", checked.body);
    assert!(
        checked
            .body
            .contains("Board 1: the colour allocation rules (C.04.3 E) give White to Player"),
        "{}",
        checked.body
    );
    // A check changes nothing.
    let stored = org.get(&format!("/api/v1/events/{id}/rounds")).await.json();
    assert_eq!(boards_of(&stored[1]).0, system);

    // Half a board is refused with the row named.
    let mut half = fields("check");
    half[7] = ("black_4", "1".to_string());
    let refused = browser.post_form(&form_path, &refs(&half)).await;
    assert_eq!(refused.status.as_u16(), 422);
    assert!(
        refused.body.contains("row 4 needs two players"),
        "{}",
        refused.body
    );

    // Saving redirects to the rounds, which show who changed what and the warning.
    let save_fields = fields("save");
    let saved = browser.post_form(&form_path, &refs(&save_fields)).await;
    assert_eq!(saved.status.as_u16(), 303, "{}", saved.body);
    assert_eq!(saved.location(), format!("/events/{id}?tab=rounds"));
    let tab = browser.get(&saved.location()).await;
    assert!(tab.body.contains("The pairing was changed."));
    assert!(tab.body.contains("Pairing changed by hand by org"));
    assert!(tab.body.contains("give White to Player"));
    let log = browser.get(&format!("/events/{id}/changes")).await;
    assert_eq!(log.status.as_u16(), 200);
    assert!(log.body.contains("Pairing changed by hand"));
    assert!(
        log.body.contains("Board 1, Player"),
        "result corrections are listed too"
    );

    // In Russian.
    let mut ru = app.user("org2@t.org", Role::Admin).await;
    ru.headers
        .push(("accept-language".into(), "ru-RU,ru;q=0.9".into()));
    let checked = ru.post_form(&form_path, &refs(&check_fields)).await;
    assert_eq!(checked.status.as_u16(), 200, "{}", checked.body);
    assert!(
        checked
            .body
            .contains("Доска 1: по правилам распределения цвета"),
        "{}",
        checked.body
    );

    // A player may not even see the form; a form without the CSRF token is refused.
    let mut player = app.user("p@t.org", Role::Player).await;
    assert_eq!(player.get(&form_path).await.status.as_u16(), 403);
    let raw = browser
        .post_form_raw(&form_path, &refs(&check_fields))
        .await;
    assert_eq!(raw.status.as_u16(), 403);
}
