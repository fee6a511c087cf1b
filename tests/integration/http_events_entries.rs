//! Events over HTTP, entries: forbidden pairs, requested byes and the start numbers shown
//! before the first round.
#![allow(clippy::unwrap_used)]
use crate::common;

use actix_web::http::Method;
use common::{Role, TestApp, create_event, enter_players};
use serde_json::{Value, json};

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
