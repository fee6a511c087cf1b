//! Joining a club: a player asks for their own profile to be in a club, and the profile's
//! club changes only when one of the club's organisers (or an administrator) accepts.
//! The club's organisers still put players in their own club directly.
#![allow(clippy::unwrap_used)]
use crate::common;

use actix_web::http::Method;
use common::{Client, Role, TestApp, organiser_api};
use serde_json::{Value, json};

/// A club founded by `cluborg@t.org` (its organiser); returns its id and that organiser's
/// API client.
async fn club<'a>(app: &'a TestApp) -> (i64, Client<'a>) {
    let mut organiser = organiser_api(app, "cluborg@t.org").await;
    let club = organiser
        .json(
            Method::POST,
            "/api/v1/clubs",
            json!({"name": "Chigorin Club"}),
        )
        .await;
    assert_eq!(club.status.as_u16(), 201, "{}", club.body);
    (club.json()["id"].as_i64().unwrap(), organiser)
}

/// A player account with its own profile (in no club); returns the browser, an API client
/// and the profile id.
async fn player<'a>(app: &'a TestApp, email: &str) -> (Client<'a>, Client<'a>, i64) {
    let mut browser = app.user(email, Role::Player).await;
    let mut api = browser.api_client().await;
    let profile = api
        .json(Method::POST, "/api/v1/players", json!({"name": email}))
        .await;
    assert_eq!(profile.status.as_u16(), 201, "{}", profile.body);
    let id = profile.json()["id"].as_i64().unwrap();
    (browser, api, id)
}

async fn club_of(api: &mut Client<'_>, player_id: i64) -> Value {
    let profile = api.get(&format!("/api/v1/players/{player_id}")).await;
    assert_eq!(profile.status.as_u16(), 200, "{}", profile.body);
    profile.json()["club_id"].clone()
}

#[actix_web::test]
async fn a_player_joins_a_club_only_when_its_organiser_accepts() {
    let app = TestApp::new().await;
    let (club_id, mut organiser) = club(&app).await;
    let (_, mut api, player_id) = player(&app, "ivan@t.org").await;

    // Putting one's own profile in the club directly is refused, on creation and on edit.
    let direct = api
        .json(
            Method::PUT,
            &format!("/api/v1/players/{player_id}"),
            json!({"name": "Ivan", "club_id": club_id}),
        )
        .await;
    direct.assert_refusal(403, "not_club_organiser");
    assert_eq!(club_of(&mut api, player_id).await, Value::Null);
    let mut newcomer = app.user("new@t.org", Role::Player).await.api_client().await;
    newcomer
        .json(
            Method::POST,
            "/api/v1/players",
            json!({"name": "Newcomer", "club_id": club_id}),
        )
        .await
        .assert_refusal(403, "not_club_organiser");

    // The request: pending, and the profile is still in no club.
    let requests = format!("/api/v1/clubs/{club_id}/requests");
    let asked = api.post(&requests).await;
    assert_eq!(asked.status.as_u16(), 201, "{}", asked.body);
    let request = asked.json();
    assert_eq!(request["status"], "pending");
    assert_eq!(request["player_id"], player_id);
    assert_eq!(request["requested_by"], "ivan");
    assert_eq!(club_of(&mut api, player_id).await, Value::Null);
    api.post(&requests).await.assert_problem(409, "conflict");

    // Only the club's organisers (and administrators) see and answer it.
    let accept = format!("{requests}/{}/accept", request["id"]);
    api.get(&requests).await.assert_problem(403, "forbidden");
    api.post(&accept).await.assert_problem(403, "forbidden");
    let mut other_organiser = organiser_api(&app, "org@t.org").await;
    other_organiser
        .get(&requests)
        .await
        .assert_problem(403, "forbidden");
    other_organiser
        .post(&accept)
        .await
        .assert_problem(403, "forbidden");
    app.client()
        .post(&accept)
        .await
        .assert_problem(401, "unauthenticated");
    assert_eq!(club_of(&mut api, player_id).await, Value::Null);

    let open = organiser.get(&requests).await;
    assert_eq!(open.status.as_u16(), 200, "{}", open.body);
    assert_eq!(open.json()["items"].as_array().unwrap().len(), 1);
    assert_eq!(open.json()["items"][0]["player_name"], "ivan@t.org");

    let accepted = organiser.post(&accept).await;
    assert_eq!(accepted.status.as_u16(), 200, "{}", accepted.body);
    assert_eq!(accepted.json()["status"], "accepted");
    assert_eq!(club_of(&mut api, player_id).await, json!(club_id));
    organiser
        .post(&accept)
        .await
        .assert_problem(409, "conflict");
    let open = organiser.get(&requests).await.json();
    assert_eq!(open["items"].as_array().unwrap().len(), 0, "{open}");
    // In the club now: asking again is a conflict, and editing the profile keeps it there.
    api.post(&requests).await.assert_problem(409, "conflict");
    let edited = api
        .json(
            Method::PUT,
            &format!("/api/v1/players/{player_id}"),
            json!({"name": "Ivan Petrov", "club_id": club_id}),
        )
        .await;
    assert_eq!(edited.status.as_u16(), 200, "{}", edited.body);

    // A request of another club's id is not this club's.
    let wrong_club = format!(
        "/api/v1/clubs/{}/requests/{}/accept",
        club_id + 1,
        request["id"]
    );
    organiser
        .post(&wrong_club)
        .await
        .assert_problem(404, "not-found");
}

#[actix_web::test]
async fn a_declined_request_leaves_the_profile_where_it_was() {
    let app = TestApp::new().await;
    let (club_id, mut organiser) = club(&app).await;
    let (_, mut api, player_id) = player(&app, "ivan@t.org").await;
    let requests = format!("/api/v1/clubs/{club_id}/requests");
    let request = api.post(&requests).await.json();
    let decline = format!("{requests}/{}/decline", request["id"]);
    api.post(&decline).await.assert_problem(403, "forbidden");

    let declined = organiser.post(&decline).await;
    assert_eq!(declined.status.as_u16(), 200, "{}", declined.body);
    assert_eq!(declined.json()["status"], "declined");
    assert_eq!(club_of(&mut api, player_id).await, Value::Null);
    // Declined is final for that request; accepting it afterwards changes nothing.
    organiser
        .post(&format!("{requests}/{}/accept", request["id"]))
        .await
        .assert_problem(409, "conflict");
    assert_eq!(club_of(&mut api, player_id).await, Value::Null);
    // The player may ask again.
    let again = api.post(&requests).await;
    assert_eq!(again.status.as_u16(), 201, "{}", again.body);

    // An account without a profile has nothing to ask for.
    let mut browser = app.user("noprofile@t.org", Role::Player).await;
    let mut bare = browser.api_client().await;
    bare.post(&requests).await.assert_problem(422, "invalid");
}

#[actix_web::test]
async fn club_organisers_still_put_players_in_their_own_club() {
    let app = TestApp::new().await;
    let (club_id, mut organiser) = club(&app).await;
    let created = organiser
        .json(
            Method::POST,
            "/api/v1/players",
            json!({"name": "Member", "club_id": club_id}),
        )
        .await;
    assert_eq!(created.status.as_u16(), 201, "{}", created.body);
    assert_eq!(created.json()["club_id"], club_id);
    // A site organiser who does not run the club may not.
    let mut other = organiser_api(&app, "org@t.org").await;
    other
        .json(
            Method::POST,
            "/api/v1/players",
            json!({"name": "Stranger", "club_id": club_id}),
        )
        .await
        .assert_refusal(403, "not_club_organiser");
    // Nor may a club organiser move their member into another club.
    let other_club = other
        .json(Method::POST, "/api/v1/clubs", json!({"name": "Other Club"}))
        .await
        .json()["id"]
        .as_i64()
        .unwrap();
    let member = created.json()["id"].as_i64().unwrap();
    organiser
        .json(
            Method::PUT,
            &format!("/api/v1/players/{member}"),
            json!({"name": "Member", "club_id": other_club}),
        )
        .await
        .assert_refusal(403, "not_club_organiser");
    assert_eq!(club_of(&mut organiser, member).await, json!(club_id));
}

#[actix_web::test]
async fn the_club_page_asks_and_answers_without_javascript() {
    let app = TestApp::new().await;
    let (club_id, _) = club(&app).await;
    let page_path = format!("/clubs/{club_id}");
    let (mut player_browser, mut api, player_id) = player(&app, "ivan@t.org").await;
    player_browser
        .headers
        .push(("accept-language".into(), "ru".into()));

    // The player's page: the request button (a plain form), no answer forms.
    let page = player_browser.get(&page_path).await;
    assert_eq!(page.status.as_u16(), 200);
    assert!(
        page.body
            .contains(&format!("action=\"/clubs/{club_id}/requests\"")),
        "{}",
        page.body
    );
    assert!(page.body.contains("Подать заявку на вступление"));
    assert!(!page.body.contains("id=\"join-requests\""));
    let asked = player_browser
        .post_form(&format!("/clubs/{club_id}/requests"), &[])
        .await;
    assert_eq!(asked.status.as_u16(), 303, "{}", asked.body);
    assert_eq!(asked.location(), page_path);
    let page = player_browser.get(&page_path).await;
    assert!(page.element_text("join-pending").is_some(), "{}", page.body);
    assert!(!page.body.contains("id=\"join-request\""));
    // Asking twice: the page again, with the refusal in Russian.
    let twice = player_browser
        .post_form(&format!("/clubs/{club_id}/requests"), &[])
        .await;
    assert_eq!(twice.status.as_u16(), 422, "{}", twice.body);
    assert_eq!(
        twice.element_text("club-error").as_deref(),
        Some("вы уже подали заявку в этот клуб; организаторы ещё не ответили")
    );
    assert_eq!(club_of(&mut api, player_id).await, Value::Null);

    // The organiser's page lists the request with accept and decline forms.
    let mut organiser_browser = app.client();
    organiser_browser
        .sign_in("cluborg@t.org", "password-123")
        .await;
    organiser_browser
        .headers
        .push(("accept-language".into(), "ru".into()));
    let page = organiser_browser.get(&page_path).await;
    assert!(page.body.contains("id=\"join-requests\""), "{}", page.body);
    assert!(page.body.contains("Заявки на вступление"));
    assert!(page.body.contains("Принять") && page.body.contains("Отклонить"));
    let request_id = organiser_browser
        .get(&format!("/api/v1/clubs/{club_id}/requests"))
        .await;
    // The API is by token only: the browser's cookie gives no access there.
    assert_eq!(request_id.status.as_u16(), 401);
    let marker = format!("action=\"/clubs/{club_id}/requests/");
    let start = page.body.find(&marker).unwrap() + marker.len();
    let accept_path = format!(
        "/clubs/{club_id}/requests/{}",
        &page.body[start..start + page.body[start..].find('"').unwrap()]
    );
    assert!(accept_path.ends_with("/accept"), "{accept_path}");

    // The player cannot use the organiser's form.
    let refused = player_browser.post_form(&accept_path, &[]).await;
    assert_eq!(refused.status.as_u16(), 403);
    assert_eq!(club_of(&mut api, player_id).await, Value::Null);

    let accepted = organiser_browser.post_form(&accept_path, &[]).await;
    assert_eq!(accepted.status.as_u16(), 303, "{}", accepted.body);
    assert_eq!(club_of(&mut api, player_id).await, json!(club_id));
    let page = organiser_browser.get(&page_path).await;
    assert!(page.body.contains("Открытых заявок нет."), "{}", page.body);
    let page = player_browser.get(&page_path).await;
    assert!(!page.body.contains("id=\"join-request\""));
    assert!(page.element_text("join-pending").is_none());
}

/// Issue 30 item 5: an event shows on its club's page, so only the club's organisers (and
/// administrators) may put one there; another organiser gets 403 `not_club_organiser` on
/// creating and on editing, and an event keeps the club it already has. The event form
/// shows the refusal beside its club field.
#[actix_web::test]
async fn only_a_clubs_organisers_put_an_event_in_it() {
    let app = TestApp::new().await;
    let (club_id, mut club_organiser) = club(&app).await;
    let mut stranger_browser = app.user("other@t.org", Role::Organiser).await;
    let mut stranger = stranger_browser.api_client().await;
    let body =
        |name: &str| json!({"name": name, "system": "swiss", "rounds": 5, "club_id": club_id});

    stranger
        .json(Method::POST, "/api/v1/events", body("Not theirs"))
        .await
        .assert_refusal(403, "not_club_organiser");
    let own = common::create_event(
        &mut stranger,
        json!({"name": "Own", "system": "swiss", "rounds": 5}),
    )
    .await;
    stranger
        .json(Method::PUT, &format!("/api/v1/events/{own}"), body("Own"))
        .await
        .assert_refusal(403, "not_club_organiser");
    let form = stranger_browser
        .post_form(
            &format!("/events/{own}"),
            &[
                ("name", "Own"),
                ("system", "swiss"),
                ("rounds", "5"),
                ("club_id", &club_id.to_string()),
            ],
        )
        .await;
    assert!(
        form.body
            .contains("only the club&#39;s organisers may put an event")
            || form
                .body
                .contains("only the club's organisers may put an event"),
        "{}",
        form.body
    );
    // The forms offer only the clubs one may put an event in: their own club, not this one.
    let own_club = common::create_club(&mut stranger, "Stranger's Club").await;
    for path in ["/events/new".to_string(), format!("/events/{own}/edit")] {
        let page = stranger_browser.get(&path).await;
        let select = page
            .body
            .split(r#"<select name="club_id">"#)
            .nth(1)
            .and_then(|rest| rest.split("</select>").next())
            .unwrap_or_default();
        assert!(
            select.contains(&format!(r#"<option value="{own_club}""#))
                && !select.contains(&format!(r#"<option value="{club_id}""#)),
            "{path}: {select}"
        );
    }
    let own_event = stranger.get(&format!("/api/v1/events/{own}")).await.json();
    assert_eq!(own_event["club_id"], Value::Null);
    let club_page = app.client().get(&format!("/clubs/{club_id}")).await;
    assert!(!club_page.body.contains("Own"), "{}", club_page.body);

    // The club's organiser may, and an event keeps its club when someone else edits it
    // (an administrator made an arbiter's edit, say).
    let theirs = club_organiser
        .json(Method::POST, "/api/v1/events", body("Club championship"))
        .await;
    assert_eq!(theirs.status.as_u16(), 201, "{}", theirs.body);
    let theirs = theirs.json()["id"].as_i64().unwrap();
    let mut admin = app
        .user("admin@t.org", Role::Admin)
        .await
        .api_client()
        .await;
    let edited = admin
        .json(
            Method::PUT,
            &format!("/api/v1/events/{theirs}"),
            body("Club championship 2026"),
        )
        .await;
    assert_eq!(edited.status.as_u16(), 200, "{}", edited.body);
    assert_eq!(edited.json()["club_id"], club_id);
    let admins = admin
        .json(Method::POST, "/api/v1/events", body("Admin's event"))
        .await;
    assert_eq!(admins.status.as_u16(), 201, "{}", admins.body);
}
