//! Events over HTTP, pages: the event's pages for organisers and visitors, and the club,
//! home and profile pages that list events.
#![allow(clippy::unwrap_used)]
use crate::common;

use actix_web::http::Method;
use common::{Role, TestApp, create_event, enter_players, games, organiser_api, play_round};
use serde_json::json;

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
        .split(r#"<td class="num total"><strong>"#)
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
