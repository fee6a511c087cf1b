//! Events over HTTP, results and the event's end: one form per round, protected results of
//! earlier rounds and of finished events, and destructive actions that ask first.
#![allow(clippy::unwrap_used)]
use crate::common;

use actix_web::http::Method;
use common::{Role, TestApp, create_event, enter_players, games, organiser_api, play_round};
use serde_json::{Value, json};

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
