//! Merging two profiles of one person: the merged profile's entries, games, results,
//! claims and account move to the profile that stays, the ratings are recomputed from them
//! (and `damka ratings recompute --check` finds nothing to do), the merge is in both
//! profiles' audit, and the merged id answers 404 `player_merged` with `merged_into` (its
//! page leads to the survivor). Refused when both played in one event.
#![allow(clippy::unwrap_used)]
use crate::common;

use actix_web::http::Method;
use common::builders::EventBuilder;
use common::{Client, Role, TestApp, organiser_api, page_text};
use damka_engine::Variant;
use serde_json::{Value, json};

/// The profile ids of an event's entries, in start order.
async fn profiles_of(api: &mut Client<'_>, event: i64) -> Vec<i64> {
    let entries = api.get(&format!("/api/v1/events/{event}/entries")).await;
    assert_eq!(entries.status.as_u16(), 200, "{}", entries.body);
    entries
        .json()
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["player_id"].as_i64().unwrap())
        .collect()
}

/// The profile's rated games in the russian variant, as its current rating counts them.
async fn russian_games(api: &mut Client<'_>, player: i64) -> i64 {
    let shown = api.get(&format!("/api/v1/players/{player}")).await;
    assert_eq!(shown.status.as_u16(), 200, "{}", shown.body);
    shown.json()["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["variant"] == "russian")
        .map_or(0, |r| r["games"].as_i64().unwrap())
}

/// Every variant's stored ratings are exactly what a recompute gives (what
/// `damka ratings recompute --check` runs).
async fn ratings_hold(app: &TestApp) {
    let differences = app
        .with_db(|conn| {
            Variant::ALL
                .into_iter()
                .flat_map(|v| damka::service::ratings::recompute::check(conn, v).unwrap())
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
        })
        .await;
    assert!(differences.is_empty(), "{differences:#?}");
}

async fn merge(api: &mut Client<'_>, from: i64, into: i64) -> common::Response {
    api.json(
        Method::POST,
        &format!("/api/v1/players/{from}/merge"),
        json!({ "into": into }),
    )
    .await
}

/// The actions of a profile's audit, as stored: (action, other profile).
async fn audit_of(app: &TestApp, player: i64) -> Vec<(String, Option<i64>)> {
    app.with_db(move |conn| {
        use damka::store::schema::player_changes as pc;
        use diesel::prelude::*;
        pc::table
            .filter(pc::player_id.eq(player))
            .select((pc::action, pc::other_player_id))
            .load(conn)
            .unwrap()
    })
    .await
}

#[actix_web::test]
async fn games_results_and_ratings_follow_the_profile_that_stays() {
    let app = TestApp::new().await;
    let mut organiser_browser = app.user("org@t.org", Role::Organiser).await;
    let mut organiser = organiser_browser.api_client().await;
    let spring = EventBuilder::swiss("Spring", 1)
        .players(4)
        .played(&["1-0", "1-0"])
        .build(&mut organiser)
        .await;
    let autumn = EventBuilder::swiss("Autumn", 1)
        .players(4)
        .played(&["1-0", "0-1"])
        .build(&mut organiser)
        .await;
    let survivor = profiles_of(&mut organiser, spring.id).await[0];
    let merged = profiles_of(&mut organiser, autumn.id).await[0];
    // A standalone game of the merged profile.
    let other = profiles_of(&mut organiser, autumn.id).await[3];
    let game = organiser
        .json(
            Method::POST,
            "/api/v1/games",
            json!({"variant": "russian", "white_player_id": merged, "black_player_id": other}),
        )
        .await;
    assert_eq!(game.status.as_u16(), 201, "{}", game.body);
    let game = game.json()["id"].as_i64().unwrap();
    let before = russian_games(&mut organiser, survivor).await;
    let merged_games = russian_games(&mut organiser, merged).await;
    ratings_hold(&app).await;

    let done = merge(&mut organiser, merged, survivor).await;
    assert_eq!(done.status.as_u16(), 200, "{}", done.body);
    assert_eq!(done.json()["id"], survivor);

    // The entry (and so its result) and the game are the survivor's now.
    assert!(
        profiles_of(&mut organiser, autumn.id)
            .await
            .contains(&survivor)
    );
    let moved = organiser.get(&format!("/api/v1/games/{game}")).await.json();
    assert_eq!(moved["white"]["player_id"], survivor);
    // The ratings are recomputed: the survivor's count both histories' games once each.
    assert_eq!(
        russian_games(&mut organiser, survivor).await,
        before + 1,
        "the survivor's rating counts the merged profile's game"
    );
    assert!(merged_games > 0);
    let left: i64 = app
        .with_db(move |conn| {
            use damka::store::schema::{rating_changes, ratings};
            use diesel::prelude::*;
            ratings::table
                .filter(ratings::player_id.eq(merged))
                .count()
                .get_result::<i64>(conn)
                .unwrap()
                + rating_changes::table
                    .filter(rating_changes::player_id.eq(merged))
                    .count()
                    .get_result::<i64>(conn)
                    .unwrap()
        })
        .await;
    assert_eq!(left, 0, "the merged profile has no ratings of its own");
    ratings_hold(&app).await;

    // The merge is in both audits, and the survivor's page shows it to its manager.
    assert_eq!(
        audit_of(&app, merged).await,
        vec![("merged_into".to_string(), Some(survivor))]
    );
    assert_eq!(
        audit_of(&app, survivor).await,
        vec![("merged_from".to_string(), Some(merged))]
    );
    let page = organiser_browser.get(&format!("/players/{survivor}")).await;
    let text = page_text(&page.body);
    assert!(
        text.contains(&format!("profile #{merged} merged into this one")),
        "{text}"
    );
    let public = page_text(&app.client().get(&format!("/players/{survivor}")).await.body);
    assert!(
        !public.contains("merged into this one"),
        "the audit is for managers"
    );
}

#[actix_web::test]
async fn the_merged_id_answers_player_merged_and_its_page_leads_to_the_survivor() {
    let app = TestApp::new().await;
    let mut organiser = organiser_api(&app, "org@t.org").await;
    let made = |name: &'static str| json!({ "name": name });
    let mut ids = Vec::new();
    for name in ["Ivan Chizhov", "I. Chizhov"] {
        let res = organiser
            .json(Method::POST, "/api/v1/players", made(name))
            .await;
        ids.push(res.json()["id"].as_i64().unwrap());
    }
    let (survivor, merged) = (ids[0], ids[1]);
    let done = merge(&mut organiser, merged, survivor).await;
    assert_eq!(done.status.as_u16(), 200, "{}", done.body);

    let gone = app.client().get(&format!("/api/v1/players/{merged}")).await;
    let problem = gone.assert_refusal(404, "player_merged");
    assert_eq!(problem["merged_into"], survivor);
    organiser
        .json(
            Method::PUT,
            &format!("/api/v1/players/{merged}"),
            json!({"name": "Again"}),
        )
        .await
        .assert_refusal(404, "player_merged");
    merge(&mut organiser, survivor, merged)
        .await
        .assert_refusal(404, "player_merged");

    // Out of the lists and the search.
    let listed = app.client().get("/api/v1/players?q=Chizhov").await.json();
    let listed: Vec<i64> = listed["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_i64().unwrap())
        .collect();
    assert_eq!(listed, vec![survivor]);

    let page = app.client().get(&format!("/players/{merged}")).await;
    assert!(
        matches!(page.status.as_u16(), 303 | 308),
        "{} {}",
        page.status,
        page.body
    );
    assert_eq!(page.location(), format!("/players/{survivor}"));
}

#[actix_web::test]
async fn two_profiles_that_played_in_one_event_are_not_merged() {
    let app = TestApp::new().await;
    let mut organiser = organiser_api(&app, "org@t.org").await;
    let event = EventBuilder::swiss("Open", 1)
        .players(4)
        .played(&["1-0", "1-0"])
        .build(&mut organiser)
        .await;
    let profiles = profiles_of(&mut organiser, event.id).await;
    let refused = merge(&mut organiser, profiles[0], profiles[1]).await;
    let problem = refused.assert_refusal(409, "same_event");
    assert!(problem["detail"].as_str().unwrap().contains("Open"));
    // Nothing moved.
    assert_eq!(profiles_of(&mut organiser, event.id).await, profiles);
    assert!(audit_of(&app, profiles[0]).await.is_empty());
    merge(&mut organiser, profiles[0], profiles[0])
        .await
        .assert_refusal(422, "merge_into_itself");
}

#[actix_web::test]
async fn only_administrators_and_organisers_who_manage_both_merge() {
    let app = TestApp::new().await;
    let mut organiser = organiser_api(&app, "org@t.org").await;
    let mut other = organiser_api(&app, "other@t.org").await;
    let mut admin = app
        .user("admin@t.org", Role::Admin)
        .await
        .api_client()
        .await;
    let mut player = app.user("p@t.org", Role::Player).await.api_client().await;
    let mine = organiser
        .json(Method::POST, "/api/v1/players", json!({"name": "Mine"}))
        .await
        .json()["id"]
        .as_i64()
        .unwrap();
    let theirs = other
        .json(Method::POST, "/api/v1/players", json!({"name": "Theirs"}))
        .await
        .json()["id"]
        .as_i64()
        .unwrap();
    for client in [&mut organiser, &mut other, &mut player] {
        merge(client, mine, theirs)
            .await
            .assert_refusal(403, "only_managers_of_both_merge");
    }
    app.client()
        .json(
            Method::POST,
            &format!("/api/v1/players/{mine}/merge"),
            json!({"into": theirs}),
        )
        .await
        .assert_problem(401, "unauthenticated");
    let done = merge(&mut admin, mine, theirs).await;
    assert_eq!(done.status.as_u16(), 200, "{}", done.body);
}

#[actix_web::test]
async fn the_account_and_the_claims_move_and_two_accounts_are_refused() {
    let app = TestApp::new().await;
    let mut organiser = organiser_api(&app, "org@t.org").await;
    let mut ids = Vec::new();
    for name in ["Linked", "Claimed", "Plain"] {
        ids.push(
            organiser
                .json(Method::POST, "/api/v1/players", json!({ "name": name }))
                .await
                .json()["id"]
                .as_i64()
                .unwrap(),
        );
    }
    let (linked, claimed, plain) = (ids[0], ids[1], ids[2]);
    let mut owner = app
        .user("owner@t.org", Role::Player)
        .await
        .api_client()
        .await;
    let claim = owner
        .post(&format!("/api/v1/players/{linked}/claims"))
        .await;
    let claim = claim.json()["id"].as_i64().unwrap();
    let accepted = organiser
        .post(&format!("/api/v1/claims/{claim}/accept"))
        .await;
    assert_eq!(accepted.status.as_u16(), 200, "{}", accepted.body);
    let mut hopeful = app
        .user("hopeful@t.org", Role::Player)
        .await
        .api_client()
        .await;
    let pending = hopeful
        .post(&format!("/api/v1/players/{claimed}/claims"))
        .await;
    assert_eq!(pending.status.as_u16(), 201, "{}", pending.body);

    // The linked profile goes into the plain one: the account follows.
    let done = merge(&mut organiser, linked, plain).await;
    assert_eq!(done.status.as_u16(), 200, "{}", done.body);
    assert_eq!(owner.get("/api/v1/me").await.json()["player_id"], plain);
    // The claimed profile goes too: its open claim is on the survivor now...
    let done = merge(&mut organiser, claimed, plain).await;
    assert_eq!(done.status.as_u16(), 200, "{}", done.body);
    let listed: Value = organiser.get("/api/v1/claims").await.json()["items"].clone();
    assert_eq!(listed[0]["player_id"], plain);
    // ...which has an account, so it cannot be accepted.
    organiser
        .post(&format!("/api/v1/claims/{}/accept", listed[0]["id"]))
        .await
        .assert_refusal(409, "profile_taken");

    // Two profiles with accounts are not merged.
    let (_, second_profile) = common::builders::player(&app, "second@t.org", "Second").await;
    let mut admin = app
        .user("admin@t.org", Role::Admin)
        .await
        .api_client()
        .await;
    merge(&mut admin, second_profile, plain)
        .await
        .assert_refusal(409, "both_profiles_have_accounts");
}

#[actix_web::test]
async fn the_profile_page_merges_after_choosing_and_confirming() {
    let app = TestApp::new().await;
    let mut browser = app.user("org@t.org", Role::Organiser).await;
    let mut api = browser.api_client().await;
    let mut ids = Vec::new();
    for name in ["Olga Ivanova", "Olga Ivanova-Petrova"] {
        ids.push(
            api.json(Method::POST, "/api/v1/players", json!({ "name": name }))
                .await
                .json()["id"]
                .as_i64()
                .unwrap(),
        );
    }
    let (merged, survivor) = (ids[0], ids[1]);
    let profile = browser.get(&format!("/players/{merged}")).await;
    assert!(
        profile
            .body
            .contains(&format!("href=\"/players/{merged}/merge\""))
    );
    // Others are not offered the merge.
    let public = app.client().get(&format!("/players/{merged}")).await;
    assert!(!public.body.contains("/merge\""));

    let found = browser
        .get(&format!("/players/{merged}/merge?q=Petrova"))
        .await;
    assert_eq!(found.status.as_u16(), 200, "{}", found.body);
    let choose = format!("/players/{merged}/merge?into={survivor}");
    assert!(found.body.contains(&choose), "{}", found.body);
    // By id too.
    let by_id = browser
        .get(&format!("/players/{merged}/merge?q={survivor}"))
        .await;
    assert!(by_id.body.contains(&choose));
    let confirm = browser.get(&choose).await;
    let text = page_text(&confirm.body);
    assert!(
        text.contains(&format!(
            "Merge «Olga Ivanova» (#{merged}) into «Olga Ivanova-Petrova» (#{survivor})?"
        )),
        "{text}"
    );
    let done = browser
        .post_form(
            &format!("/players/{merged}/merge"),
            &[("into", &survivor.to_string())],
        )
        .await;
    assert_eq!(done.status.as_u16(), 303, "{}", done.body);
    assert_eq!(done.location(), format!("/players/{survivor}"));
    api.get(&format!("/api/v1/players/{merged}"))
        .await
        .assert_refusal(404, "player_merged");
    // A stranger's form is refused.
    let mut stranger = app.user("x@t.org", Role::Player).await;
    let refused = stranger.get(&format!("/players/{survivor}/merge")).await;
    assert_eq!(refused.status.as_u16(), 403);
}
