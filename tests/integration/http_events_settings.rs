//! Events over HTTP, settings: the create and edit forms, the fixed choices and their
//! refusals, tie-breaks picked from a list, and stored values of no known kind.
#![allow(clippy::unwrap_used)]
use crate::common;

use actix_web::http::Method;
use common::{Role, TestApp, create_event, enter_players, organiser_api};
use serde_json::json;

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
