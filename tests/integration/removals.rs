//! Archiving and deleting events, profiles and clubs: what holds nothing others rely on is
//! deleted with everything of it; anything else is archived (left out of the lists, closed
//! to changes, kept whole, restorable). Both are refused to those who do not manage the
//! subject, asked on a confirmation page first, and kept in the site's trail, which names a
//! deleted subject after it is gone.
#![allow(clippy::unwrap_used)]
use crate::common;

use actix_web::http::Method;
use common::builders::EventBuilder;
use common::{Client, Role, TestApp, organiser_api, page_text};
use serde_json::{Value, json};

async fn post(api: &mut Client<'_>, path: &str) -> common::Response {
    api.request(Method::POST, path, None, &[]).await
}

async fn delete(api: &mut Client<'_>, path: &str) -> common::Response {
    api.request(Method::DELETE, path, None, &[]).await
}

fn no_content(res: &common::Response) {
    assert_eq!(res.status.as_u16(), 204, "{}", res.body);
}

/// The ids in a page of a list (`items`).
fn ids(page: &Value) -> Vec<i64> {
    page["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_i64().unwrap())
        .collect()
}

/// The site's trail as (subject, id, name, action), newest first.
async fn trail(admin: &mut Client<'_>) -> Vec<(String, i64, String, String)> {
    let res = admin.get("/api/v1/admin/changes").await;
    assert_eq!(res.status.as_u16(), 200, "{}", res.body);
    res.json()
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            assert!(c["by"].is_string(), "who acted is named: {c}");
            (
                c["subject"].as_str().unwrap().to_string(),
                c["subject_id"].as_i64().unwrap(),
                c["subject_name"].as_str().unwrap().to_string(),
                c["action"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Rows of `table` that name the event (its games, rounds, entries).
async fn rows_of_event(app: &TestApp, event: i64) -> (i64, i64, i64) {
    app.with_db(move |conn| {
        use damka::store::schema::{entries, games, rounds};
        use diesel::prelude::*;
        (
            games::table
                .filter(games::event_id.eq(event))
                .count()
                .get_result::<i64>(conn)
                .unwrap(),
            rounds::table
                .filter(rounds::event_id.eq(event))
                .count()
                .get_result::<i64>(conn)
                .unwrap(),
            entries::table
                .filter(entries::event_id.eq(event))
                .count()
                .get_result::<i64>(conn)
                .unwrap(),
        )
    })
    .await
}

#[actix_web::test]
async fn an_event_with_rated_results_is_archived_kept_whole_and_restored() {
    let app = TestApp::new().await;
    let mut organiser = organiser_api(&app, "org@t.org").await;
    let mut other = organiser_api(&app, "other@t.org").await;
    let mut admin = app
        .user("admin@t.org", Role::Admin)
        .await
        .api_client()
        .await;
    let event = EventBuilder::swiss("Winter Rated", 3)
        .players(4)
        .played(&["1-0", "1/2-1/2"])
        .build(&mut organiser)
        .await;
    let id = event.id;
    let standings_before = organiser
        .get(&format!("/api/v1/events/{id}/standings"))
        .await
        .body;

    // Another organiser may do neither; a running event is finished first.
    post(&mut other, &format!("/api/v1/events/{id}/archive"))
        .await
        .assert_refusal(403, "only_event_organiser");
    delete(&mut other, &format!("/api/v1/events/{id}"))
        .await
        .assert_refusal(403, "only_event_organiser");
    post(&mut organiser, &format!("/api/v1/events/{id}/archive"))
        .await
        .assert_refusal(409, "event_running_finish_first");
    no_content(&post(&mut organiser, &format!("/api/v1/events/{id}/finish")).await);

    // Its results count for ratings: it cannot be deleted, only archived.
    delete(&mut organiser, &format!("/api/v1/events/{id}"))
        .await
        .assert_refusal(409, "event_has_rated_results");
    no_content(&post(&mut organiser, &format!("/api/v1/events/{id}/archive")).await);
    post(&mut organiser, &format!("/api/v1/events/{id}/archive"))
        .await
        .assert_refusal(409, "already_archived");

    // Left out of the lists, listed among the archived; its page and standings stay.
    let listed = ids(&app.client().get("/api/v1/events").await.json());
    assert!(!listed.contains(&id), "{listed:?}");
    let archived = ids(&app
        .client()
        .get("/api/v1/events?archived=true")
        .await
        .json());
    assert_eq!(archived, vec![id]);
    let shown = app
        .client()
        .get(&format!("/api/v1/events/{id}"))
        .await
        .json();
    assert!(shown["archived_at"].is_string(), "{shown}");
    let standings = app
        .client()
        .get(&format!("/api/v1/events/{id}/standings"))
        .await;
    assert_eq!(standings.status.as_u16(), 200);
    assert_eq!(standings.body, standings_before, "kept whole");
    assert_eq!(rows_of_event(&app, id).await.2, 4, "entries kept");

    // Closed to every change until it is restored.
    organiser
        .post(&format!("/api/v1/events/{id}/reopen"))
        .await
        .assert_refusal(409, "event_archived");
    organiser
        .json(
            Method::PUT,
            &format!("/api/v1/events/{id}"),
            json!({"name": "Renamed", "system": "swiss", "rounds": 3}),
        )
        .await
        .assert_refusal(409, "event_archived");

    no_content(&post(&mut organiser, &format!("/api/v1/events/{id}/restore")).await);
    post(&mut organiser, &format!("/api/v1/events/{id}/restore"))
        .await
        .assert_refusal(409, "not_archived");
    assert!(ids(&app.client().get("/api/v1/events").await.json()).contains(&id));
    no_content(&post(&mut organiser, &format!("/api/v1/events/{id}/reopen")).await);

    // Both are in the site's trail, for administrators only.
    assert_eq!(
        trail(&mut admin).await,
        vec![
            ("event".into(), id, "Winter Rated".into(), "restored".into()),
            ("event".into(), id, "Winter Rated".into(), "archived".into()),
        ]
    );
    organiser
        .get("/api/v1/admin/changes")
        .await
        .assert_refusal(403, "only_administrators");
}

#[actix_web::test]
async fn an_event_without_rated_results_is_deleted_with_its_rounds_games_and_entries() {
    let app = TestApp::new().await;
    let mut organiser = organiser_api(&app, "org@t.org").await;
    let mut admin = app
        .user("admin@t.org", Role::Admin)
        .await
        .api_client()
        .await;
    let unrated = EventBuilder::new(
        json!({"name": "Friendly Blitz", "system": "swiss", "rounds": 3, "rated": false}),
    )
    .players(4)
    .played(&["1-0", "0-1"])
    .build(&mut organiser)
    .await;
    let id = unrated.id;
    let (games, rounds, entries) = rows_of_event(&app, id).await;
    assert!(games > 0 && rounds == 1 && entries == 4);
    no_content(&post(&mut organiser, &format!("/api/v1/events/{id}/finish")).await);
    no_content(&delete(&mut organiser, &format!("/api/v1/events/{id}")).await);

    assert_eq!(rows_of_event(&app, id).await, (0, 0, 0));
    app.client()
        .get(&format!("/api/v1/events/{id}"))
        .await
        .assert_problem(404, "not-found");
    // The players' profiles stay.
    let players = app.client().get("/api/v1/players").await.json();
    assert_eq!(players["items"].as_array().unwrap().len(), 4);

    // A rated event that never got a result is deleted too.
    let empty = EventBuilder::swiss("Never Played", 3)
        .players(2)
        .build(&mut organiser)
        .await;
    no_content(&delete(&mut organiser, &format!("/api/v1/events/{}", empty.id)).await);

    // The trail names both after they are gone.
    let names: Vec<(String, String)> = trail(&mut admin)
        .await
        .into_iter()
        .map(|(_, _, name, action)| (name, action))
        .collect();
    assert_eq!(
        names,
        vec![
            ("Never Played".to_string(), "deleted".to_string()),
            ("Friendly Blitz".to_string(), "deleted".to_string()),
        ]
    );
}

#[actix_web::test]
async fn a_profile_with_records_is_archived_and_an_empty_one_is_deleted() {
    let app = TestApp::new().await;
    let mut organiser = organiser_api(&app, "org@t.org").await;
    let mut other = organiser_api(&app, "other@t.org").await;
    let event = EventBuilder::swiss("Spring", 3)
        .players(3)
        .build(&mut organiser)
        .await;
    let entries = organiser
        .get(&format!("/api/v1/events/{}/entries", event.id))
        .await
        .json();
    let entered = entries[0]["player_id"].as_i64().unwrap();
    let made = organiser
        .json(
            Method::POST,
            "/api/v1/players",
            json!({"name": "Typo Name"}),
        )
        .await;
    let empty = made.json()["id"].as_i64().unwrap();

    // Only those who manage the profile.
    delete(&mut other, &format!("/api/v1/players/{empty}"))
        .await
        .assert_refusal(403, "only_profile_managers");

    // An entered profile is kept.
    delete(&mut organiser, &format!("/api/v1/players/{entered}"))
        .await
        .assert_refusal(409, "player_has_records");
    no_content(
        &post(
            &mut organiser,
            &format!("/api/v1/players/{entered}/archive"),
        )
        .await,
    );
    let name = entries[0]["name"].as_str().unwrap().to_string();
    let found = app
        .client()
        .get(&format!("/api/v1/players?q={}", name.replace(' ', "+")))
        .await
        .json();
    assert!(
        !ids(&found).contains(&entered),
        "left out of searches: {found}"
    );
    let shown = app
        .client()
        .get(&format!("/api/v1/players/{entered}"))
        .await
        .json();
    assert!(shown["archived_at"].is_string(), "{shown}");
    // Its entry stays; it is entered in nothing new and plays no new game.
    assert_eq!(rows_of_event(&app, event.id).await.2, 3);
    let second = EventBuilder::swiss("Summer", 3).build(&mut organiser).await;
    organiser
        .json(
            Method::POST,
            &format!("/api/v1/events/{}/entries", second.id),
            json!({"player_id": entered}),
        )
        .await
        .assert_refusal(409, "player_archived");
    let opponent = entries[1]["player_id"].as_i64().unwrap();
    organiser
        .json(
            Method::POST,
            "/api/v1/games",
            json!({"variant": "russian", "white_player_id": entered, "black_player_id": opponent}),
        )
        .await
        .assert_refusal(409, "player_archived");
    no_content(
        &post(
            &mut organiser,
            &format!("/api/v1/players/{entered}/restore"),
        )
        .await,
    );
    let entered_again = organiser
        .json(
            Method::POST,
            &format!("/api/v1/events/{}/entries", second.id),
            json!({"player_id": entered}),
        )
        .await;
    assert_eq!(entered_again.status.as_u16(), 201, "{}", entered_again.body);

    // A profile with nothing is deleted.
    no_content(&delete(&mut organiser, &format!("/api/v1/players/{empty}")).await);
    app.client()
        .get(&format!("/api/v1/players/{empty}"))
        .await
        .assert_problem(404, "not-found");
}

#[actix_web::test]
async fn a_club_with_events_is_archived_and_one_without_is_deleted_keeping_its_members() {
    let app = TestApp::new().await;
    let mut organiser = organiser_api(&app, "org@t.org").await;
    let mut other = organiser_api(&app, "other@t.org").await;
    let club = |name: &str| json!({ "name": name });
    let hosting = organiser
        .json(Method::POST, "/api/v1/clubs", club("Hosting Club"))
        .await
        .json()["id"]
        .as_i64()
        .unwrap();
    let quiet = organiser
        .json(Method::POST, "/api/v1/clubs", club("Quiet Club"))
        .await
        .json()["id"]
        .as_i64()
        .unwrap();
    let made = organiser
        .json(
            Method::POST,
            "/api/v1/players",
            json!({"name": "Member One", "club_id": quiet}),
        )
        .await;
    let member = made.json()["id"].as_i64().unwrap();
    let made = organiser
        .json(
            Method::POST,
            "/api/v1/events",
            json!({"name": "Club Cup", "system": "swiss", "rounds": 3, "club_id": hosting}),
        )
        .await;
    assert_eq!(made.status.as_u16(), 201, "{}", made.body);

    post(&mut other, &format!("/api/v1/clubs/{hosting}/archive"))
        .await
        .assert_refusal(403, "only_club_organisers_edit");
    let refused = delete(&mut organiser, &format!("/api/v1/clubs/{hosting}")).await;
    let problem = refused.assert_refusal(409, "club_has_events");
    assert!(
        problem["detail"].as_str().unwrap().contains("1 events"),
        "{problem}"
    );
    no_content(&post(&mut organiser, &format!("/api/v1/clubs/{hosting}/archive")).await);
    let clubs = app.client().get("/api/v1/clubs").await.json();
    assert_eq!(ids(&clubs), vec![quiet], "left out of the list");
    // It takes no new members or events.
    organiser
        .json(
            Method::POST,
            "/api/v1/players",
            json!({"name": "Newcomer", "club_id": hosting}),
        )
        .await
        .assert_refusal(409, "club_archived");
    organiser
        .json(
            Method::POST,
            "/api/v1/events",
            json!({"name": "Another Cup", "system": "swiss", "rounds": 3, "club_id": hosting}),
        )
        .await
        .assert_refusal(409, "club_archived");

    no_content(&delete(&mut organiser, &format!("/api/v1/clubs/{quiet}")).await);
    app.client()
        .get(&format!("/api/v1/clubs/{quiet}"))
        .await
        .assert_problem(404, "not-found");
    let kept = app
        .client()
        .get(&format!("/api/v1/players/{member}"))
        .await
        .json();
    assert_eq!(kept["name"], "Member One");
    assert!(kept["club_id"].is_null(), "{kept}");
}

#[actix_web::test]
async fn the_pages_ask_first_then_archive_restore_and_delete_in_both_languages() {
    let app = TestApp::new().await;
    let mut browser = app.user("org@t.org", Role::Organiser).await;
    let mut organiser = browser.api_client().await;
    let event = EventBuilder::swiss("Autumn Open", 3)
        .players(4)
        .played(&["1-0", "1-0"])
        .build(&mut organiser)
        .await;
    let id = event.id;
    no_content(&post(&mut organiser, &format!("/api/v1/events/{id}/finish")).await);

    // The event page links to the question; the question offers archiving and says why
    // deleting is not possible.
    let page = browser.get(&format!("/events/{id}?tab=info")).await;
    assert!(page.element_text("remove-link").is_some(), "{}", page.body);
    let asked = browser.get(&format!("/events/{id}/remove")).await;
    assert_eq!(asked.status.as_u16(), 200);
    assert!(
        asked
            .body
            .contains(&format!("action=\"/events/{id}/archive\""))
    );
    assert!(
        !asked
            .body
            .contains(&format!("action=\"/events/{id}/delete\""))
    );
    let kept = asked.element_text("removal-kept").unwrap();
    assert!(kept.contains("rated results"), "{kept}");

    let done = browser
        .post_form(&format!("/events/{id}/archive"), &[])
        .await;
    assert_eq!(done.location(), format!("/events/{id}"));
    let page = browser.get(&format!("/events/{id}")).await;
    let notice = page.element_text("archived-notice").unwrap();
    assert!(notice.contains("Archived on"), "{notice}");
    assert!(
        page.body
            .contains(&format!("action=\"/events/{id}/restore\""))
    );
    // The public sees the notice, not the button.
    let public = app.client().get(&format!("/events/{id}")).await;
    assert!(public.element_text("archived-notice").is_some());
    assert!(!public.body.contains("/restore"));
    // The list leaves it out unless asked for the archived ones.
    let list = page_text(&app.client().get("/events").await.body);
    assert!(!list.contains("Autumn Open"), "{list}");
    let list = page_text(&app.client().get("/events?archived=1").await.body);
    assert!(list.contains("Autumn Open"), "{list}");

    // In Russian.
    browser
        .post_form("/lang", &[("lang", "ru"), ("next", "/")])
        .await;
    let asked = browser.get(&format!("/events/{id}/remove")).await;
    let text = page_text(&asked.body);
    assert!(text.contains("в архив или удалить"), "{text}");
    assert!(text.contains("Вернуть из архива"), "{text}");
    assert!(
        asked
            .element_text("removal-kept")
            .unwrap()
            .contains("учтены в рейтинге")
    );
    let done = browser
        .post_form(&format!("/events/{id}/restore"), &[])
        .await;
    assert_eq!(done.location(), format!("/events/{id}"));
    let page = browser.get(&format!("/events/{id}")).await;
    assert!(page.element_text("archived-notice").is_none());

    // A profile with nothing is deleted from its question page, back to the list.
    let made = organiser
        .json(
            Method::POST,
            "/api/v1/players",
            json!({"name": "Typo Name"}),
        )
        .await;
    let empty = made.json()["id"].as_i64().unwrap();
    let asked = browser.get(&format!("/players/{empty}/remove")).await;
    let text = page_text(&asked.body);
    assert!(text.contains("Удалить навсегда"), "{text}");
    let done = browser
        .post_form(&format!("/players/{empty}/delete"), &[])
        .await;
    assert_eq!(done.location(), "/players");
    let gone = browser.get(&format!("/players/{empty}")).await;
    assert_eq!(gone.status.as_u16(), 404);

    // The trail page, for administrators, in Russian and English.
    let mut admin = app.user("admin@t.org", Role::Admin).await;
    let page = page_text(&admin.get("/admin/changes").await.body);
    assert!(page.contains("Typo Name"), "{page}");
    assert!(page.contains("deleted"), "{page}");
    assert!(page.contains("Autumn Open"), "{page}");
    admin
        .post_form("/lang", &[("lang", "ru"), ("next", "/")])
        .await;
    let page = page_text(&admin.get("/admin/changes").await.body);
    assert!(page.contains("удалён"), "{page}");
    assert!(page.contains("отправлен в архив"), "{page}");
    let refused = browser.get("/admin/changes").await;
    assert_eq!(refused.status.as_u16(), 403);
}

/// (player id, rank) of a page of the rating list.
async fn rating_list(app: &TestApp, query: &str) -> Vec<(i64, i64)> {
    let list = app.client().get(&format!("/api/v1/ratings?{query}")).await;
    assert_eq!(list.status.as_u16(), 200, "{}", list.body);
    list.json()["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["player_id"].as_i64().unwrap(),
                i["rank"].as_i64().unwrap(),
            )
        })
        .collect()
}

#[actix_web::test]
async fn an_archived_profile_leaves_the_rating_list_and_the_others_rank_without_it() {
    let app = TestApp::new().await;
    let mut organiser = organiser_api(&app, "org@t.org").await;
    let event = EventBuilder::swiss("Rated Night", 3)
        .players(4)
        .played(&["1-0", "1-0"])
        .build(&mut organiser)
        .await;
    let before = rating_list(&app, "variant=russian&system=glicko2").await;
    assert_eq!(before.len(), 4, "{before:?}");
    let best = before[0].0;
    let entries = organiser
        .get(&format!("/api/v1/events/{}/entries", event.id))
        .await
        .json();
    assert!(
        entries
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["player_id"] == best)
    );
    no_content(&post(&mut organiser, &format!("/api/v1/players/{best}/archive")).await);

    let after = rating_list(&app, "variant=russian&system=glicko2").await;
    assert_eq!(after.len(), 3, "{after:?}");
    assert!(after.iter().all(|(id, _)| *id != best));
    assert_eq!(after[0].1, 1, "the next best ranks first: {after:?}");
    // A narrowed list ranks against the whole list without the archived profile either.
    let named = after[0].0;
    let name = app
        .client()
        .get(&format!("/api/v1/players/{named}"))
        .await
        .json()["name"]
        .as_str()
        .unwrap()
        .replace(' ', "+");
    let query = format!("variant=russian&system=glicko2&q={name}");
    assert_eq!(rating_list(&app, &query).await, vec![(named, 1)]);
    // Its own page keeps its ratings.
    let shown = app
        .client()
        .get(&format!("/api/v1/players/{best}"))
        .await
        .json();
    assert!(!shown["ratings"].as_array().unwrap().is_empty(), "{shown}");
}
