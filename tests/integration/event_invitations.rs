//! Invitation links to an event (issue 27): the organiser makes a link and sends it; whoever
//! opens it, signed in with a profile, enters themselves even while open self-registration
//! is off, with the rules of an organiser's entry. The organiser sees who joined through
//! which link and when, and revokes a link; a revoked, unknown or other event's code is
//! "not found". Only the hash of a code is stored.
#![allow(clippy::unwrap_used)]
use crate::common::{self, Client, Role, TestApp, organiser_api, page_text};

use actix_web::http::Method;
use serde_json::{Value, json};

/// Makes a link to the event as `api`; answers the 201's body.
async fn make_link(api: &mut Client<'_>, event: i64, label: &str) -> Value {
    let made = api
        .json(
            Method::POST,
            &format!("/api/v1/events/{event}/invitations"),
            json!({ "label": label }),
        )
        .await;
    assert_eq!(made.status.as_u16(), 201, "{}", made.body);
    made.json()
}

async fn join(api: &mut Client<'_>, event: i64, code: &str) -> common::Response {
    api.json(
        Method::POST,
        &format!("/api/v1/events/{event}/join"),
        json!({ "code": code }),
    )
    .await
}

/// The event's entries' names, by start number.
async fn entered(api: &mut Client<'_>, event: i64) -> Vec<String> {
    let listed = api.get(&format!("/api/v1/events/{event}/entries")).await;
    assert_eq!(listed.status.as_u16(), 200, "{}", listed.body);
    listed
        .json()
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap().to_string())
        .collect()
}

#[actix_web::test]
async fn an_invited_player_joins_with_the_code_while_registration_is_closed() {
    let app = TestApp::new().await;
    let mut organiser = organiser_api(&app, "org@t.org").await;
    let event = common::create_event(
        &mut organiser,
        json!({"name": "Club Night", "system": "swiss", "rounds": 5}),
    )
    .await;
    let (mut anna, anna_id) = common::builders::player(&app, "anna@t.org", "Anna Petrova").await;

    // Open self-registration is off: Anna cannot enter herself without the link.
    anna.json(
        Method::POST,
        &format!("/api/v1/events/{event}/entries"),
        json!({}),
    )
    .await
    .assert_refusal(403, "self_registration_closed");

    let made = make_link(&mut organiser, event, "  club night group ").await;
    let code = made["code"].as_str().unwrap().to_string();
    assert_eq!(made["label"], "club night group");
    assert_eq!(made["link"], format!("/events/{event}/join/{code}"));
    assert!(code.len() >= 32, "{code}");

    let joined = join(&mut anna, event, &code).await;
    assert_eq!(joined.status.as_u16(), 201, "{}", joined.body);
    assert_eq!(joined.json()["player_id"], anna_id);
    assert_eq!(joined.json()["name"], "Anna Petrova");
    assert_eq!(joined.json()["first_round"], 1);
    assert_eq!(entered(&mut organiser, event).await, ["Anna Petrova"]);
    // Once in, the link does not enter her twice.
    join(&mut anna, event, &code)
        .await
        .assert_refusal(422, "already_entered");

    // The link is for a group: a second player joins with the same code.
    let (mut boris, _) = common::builders::player(&app, "boris@t.org", "Boris").await;
    assert_eq!(join(&mut boris, event, &code).await.status.as_u16(), 201);

    // An account without a profile has nothing to enter.
    let mut nobody = app
        .user("nobody@t.org", Role::Player)
        .await
        .api_client()
        .await;
    join(&mut nobody, event, &code)
        .await
        .assert_refusal(422, "no_profile_to_enter");

    // The organiser's list: who made it, who joined and when, never the code.
    let listed = organiser
        .get(&format!("/api/v1/events/{event}/invitations"))
        .await;
    assert_eq!(listed.status.as_u16(), 200, "{}", listed.body);
    assert!(!listed.body.contains(&code), "{}", listed.body);
    let links = listed.json();
    assert_eq!(links.as_array().unwrap().len(), 1, "{links}");
    let link = &links[0];
    assert_eq!(link["id"], made["id"]);
    assert!(link.get("code").is_none(), "{link}");
    assert_eq!(link["label"], "club night group");
    assert_eq!(link["created_by"], "org");
    assert_eq!(link["revoked_by"], Value::Null);
    assert_eq!(link["revoked_at"], Value::Null);
    assert_eq!(link["uses"], 2);
    let names: Vec<&str> = link["joined"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["player_name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Anna Petrova", "Boris"]);
    assert_eq!(link["joined"][0]["player_id"], anna_id);
    assert!(
        link["joined"][0]["used_at"]
            .as_str()
            .unwrap()
            .ends_with('Z'),
        "{link}"
    );
}

#[actix_web::test]
async fn a_revoked_unknown_or_other_events_code_is_not_found() {
    let app = TestApp::new().await;
    let mut organiser = organiser_api(&app, "org@t.org").await;
    let event = common::create_event(
        &mut organiser,
        json!({"name": "Club Night", "system": "swiss", "rounds": 5}),
    )
    .await;
    let other = common::create_event(
        &mut organiser,
        json!({"name": "Other Night", "system": "swiss", "rounds": 5}),
    )
    .await;
    let made = make_link(&mut organiser, event, "").await;
    let code = made["code"].as_str().unwrap().to_string();
    let link_id = made["id"].as_i64().unwrap();
    let (mut anna, _) = common::builders::player(&app, "anna@t.org", "Anna").await;

    // The code belongs to one event only.
    join(&mut anna, other, &code)
        .await
        .assert_problem(404, "not-found");
    join(&mut anna, event, "not-a-code")
        .await
        .assert_problem(404, "not-found");
    assert!(entered(&mut organiser, other).await.is_empty());

    let revoke = format!("/api/v1/events/{event}/invitations/{link_id}");
    let revoked = organiser.request(Method::DELETE, &revoke, None, &[]).await;
    assert_eq!(revoked.status.as_u16(), 204, "{}", revoked.body);
    // Revoking again is fine.
    let again = organiser.request(Method::DELETE, &revoke, None, &[]).await;
    assert_eq!(again.status.as_u16(), 204, "{}", again.body);
    // A link of another event is no link of this one.
    let elsewhere = organiser
        .request(
            Method::DELETE,
            &format!("/api/v1/events/{other}/invitations/{link_id}"),
            None,
            &[],
        )
        .await;
    assert_eq!(elsewhere.status.as_u16(), 404, "{}", elsewhere.body);

    join(&mut anna, event, &code)
        .await
        .assert_problem(404, "not-found");
    assert!(entered(&mut organiser, event).await.is_empty());
    let mut browser = app.client();
    let page = browser.get(&format!("/events/{event}/join/{code}")).await;
    assert_eq!(page.status.as_u16(), 404);
    assert!(
        !page.body.contains("Club Night"),
        "a revoked code tells nothing"
    );

    let links = organiser
        .get(&format!("/api/v1/events/{event}/invitations"))
        .await
        .json();
    assert_eq!(links[0]["revoked_by"], "org");
    assert!(links[0]["revoked_at"].is_string(), "{links}");
}

#[actix_web::test]
async fn only_the_event_managers_make_list_and_revoke_links() {
    let app = TestApp::new().await;
    let mut organiser = organiser_api(&app, "org@t.org").await;
    let event = common::create_event(
        &mut organiser,
        json!({"name": "Club Night", "system": "swiss", "rounds": 5}),
    )
    .await;
    let link_id = make_link(&mut organiser, event, "mine").await["id"]
        .as_i64()
        .unwrap();
    let other_organiser = organiser_api(&app, "other@t.org").await;
    let (player, _) = common::builders::player(&app, "anna@t.org", "Anna").await;
    let links = format!("/api/v1/events/{event}/invitations");
    let one = format!("{links}/{link_id}");
    for mut stranger in [other_organiser, player] {
        stranger
            .json(Method::POST, &links, json!({"label": "x"}))
            .await
            .assert_refusal(403, "only_event_organiser");
        stranger
            .get(&links)
            .await
            .assert_refusal(403, "only_event_organiser");
        stranger
            .request(Method::DELETE, &one, None, &[])
            .await
            .assert_refusal(403, "only_event_organiser");
    }
    let mut anonymous = app.client();
    assert_eq!(anonymous.get(&links).await.status.as_u16(), 401);
    let listed = organiser.get(&links).await.json();
    assert_eq!(listed.as_array().unwrap().len(), 1, "{listed}");
    assert_eq!(listed[0]["revoked_at"], Value::Null);

    // A note longer than the field takes is refused.
    organiser
        .json(Method::POST, &links, json!({"label": "x".repeat(101)}))
        .await
        .assert_refusal(422, "too_long");
}

#[actix_web::test]
async fn a_finished_event_makes_no_link_and_takes_no_one_through_one() {
    let app = TestApp::new().await;
    let mut organiser = organiser_api(&app, "org@t.org").await;
    let event = common::create_event(
        &mut organiser,
        json!({"name": "Club Night", "system": "swiss", "rounds": 5}),
    )
    .await;
    let code = make_link(&mut organiser, event, "").await["code"]
        .as_str()
        .unwrap()
        .to_string();
    let finished = organiser
        .post(&format!("/api/v1/events/{event}/finish"))
        .await;
    assert_eq!(finished.status.as_u16(), 204, "{}", finished.body);

    organiser
        .json(
            Method::POST,
            &format!("/api/v1/events/{event}/invitations"),
            json!({"label": "late"}),
        )
        .await
        .assert_refusal(409, "event_finished");
    let (mut anna, _) = common::builders::player(&app, "anna@t.org", "Anna").await;
    join(&mut anna, event, &code)
        .await
        .assert_refusal(409, "event_finished");
    // The link's page says why, in place of the button; a form sent anyway is refused
    // with the reason on the page.
    let mut browser = app.user("boris@t.org", Role::Player).await;
    let made = browser
        .api_client()
        .await
        .json(Method::POST, "/api/v1/players", json!({"name": "Boris"}))
        .await;
    assert_eq!(made.status.as_u16(), 201, "{}", made.body);
    let path = format!("/events/{event}/join/{code}");
    let page = browser.get(&path).await;
    assert_eq!(page.status.as_u16(), 200, "{}", page.body);
    assert!(page.body.contains("id=\"join-closed\""), "{}", page.body);
    assert!(!page.body.contains("id=\"join-event\""));
    let refused = browser.post_form(&path, &[]).await;
    assert_eq!(refused.status.as_u16(), 409, "{}", refused.body);
    assert!(
        refused.body.contains("id=\"join-refused\""),
        "{}",
        refused.body
    );
}

#[actix_web::test]
async fn a_link_follows_the_organisers_rules_for_late_entries() {
    let app = TestApp::new().await;
    let mut organiser = organiser_api(&app, "org@t.org").await;
    let (mut anna, _) = common::builders::player(&app, "anna@t.org", "Anna").await;
    for (body, expected) in [
        (
            json!({"name": "Late Swiss", "system": "swiss", "rounds": 5, "late_entry_until_round": 3}),
            None,
        ),
        (
            json!({"name": "Closed Swiss", "system": "swiss", "rounds": 5}),
            Some("late_entries_closed"),
        ),
        (
            json!({"name": "Club Round Robin", "system": "round_robin"}),
            Some("round_robin_started"),
        ),
    ] {
        let event = common::create_event(&mut organiser, body).await;
        common::enter_players(&mut organiser, event, 4).await;
        common::play_round(&mut organiser, event, &[]).await;
        let code = make_link(&mut organiser, event, "").await["code"]
            .as_str()
            .unwrap()
            .to_string();
        let joined = join(&mut anna, event, &code).await;
        match expected {
            None => {
                assert_eq!(joined.status.as_u16(), 201, "{}", joined.body);
                assert_eq!(joined.json()["first_round"], 2);
            }
            Some(code) => {
                joined.assert_refusal(409, code);
            }
        }
    }
}

#[actix_web::test]
async fn the_code_is_stored_only_as_its_hash() {
    #[derive(diesel::QueryableByName)]
    struct Row {
        #[diesel(sql_type = diesel::sql_types::Text)]
        line: String,
    }
    let app = TestApp::new().await;
    let mut organiser = organiser_api(&app, "org@t.org").await;
    let event = common::create_event(
        &mut organiser,
        json!({"name": "Club Night", "system": "swiss", "rounds": 5}),
    )
    .await;
    let code = make_link(&mut organiser, event, "group").await["code"]
        .as_str()
        .unwrap()
        .to_string();
    let (mut anna, _) = common::builders::player(&app, "anna@t.org", "Anna").await;
    assert_eq!(join(&mut anna, event, &code).await.status.as_u16(), 201);
    let rows = app
        .with_db(|conn| {
            use diesel::RunQueryDsl;
            let mut lines = Vec::new();
            for sql in [
                "SELECT id || '|' || event_id || '|' || code_hash || '|' || label || '|' || \
                 created_by || '|' || uses AS line FROM event_invitations",
                "SELECT invitation_id || '|' || player_id || '|' || user_id AS line \
                 FROM event_invitation_uses",
            ] {
                lines.extend(
                    diesel::sql_query(sql)
                        .load::<Row>(conn)
                        .unwrap()
                        .into_iter()
                        .map(|r| r.line),
                );
            }
            lines
        })
        .await;
    assert_eq!(rows.len(), 2, "{rows:?}");
    let hash = damka::service::auth::token_hash(&code);
    assert!(rows[0].contains(&hash), "{rows:?}");
    for row in &rows {
        assert!(!row.contains(&code), "the plain code is stored: {row}");
    }
}

/// The link's code as the "shown once" page shows it (`id="invitation-link"`).
fn code_of_page(page: &common::Response, event: i64) -> String {
    let url = page.element_text("invitation-link").unwrap();
    let (_, code) = url
        .rsplit_once(&format!("/events/{event}/join/"))
        .unwrap_or_else(|| panic!("not a join link: {url}"));
    assert!(url.starts_with("http"), "an absolute address: {url}");
    code.to_string()
}

#[actix_web::test]
async fn the_link_page_signs_in_and_joins_through_the_form_in_both_languages() {
    let app = TestApp::new().await;
    let mut org_browser = app.user("org@t.org", Role::Organiser).await;
    let mut organiser = org_browser.api_client().await;
    let event = common::create_event(
        &mut organiser,
        json!({"name": "Club Night", "system": "swiss", "rounds": 5}),
    )
    .await;
    let entries_tab = format!("/events/{event}?tab=entries");
    let tab = org_browser.get(&entries_tab).await;
    assert!(
        page_text(&tab.body).contains("Invitation links"),
        "{}",
        tab.body
    );
    let made = org_browser
        .post_form(
            &format!("/events/{event}/invitations"),
            &[("label", "club night group")],
        )
        .await;
    assert_eq!(made.status.as_u16(), 200, "{}", made.body);
    assert_eq!(
        made.headers.get("cache-control").unwrap().to_str().unwrap(),
        "no-store"
    );
    assert!(
        page_text(&made.body).contains("shown only now"),
        "{}",
        made.body
    );
    let code = code_of_page(&made, event);
    let path = format!("/events/{event}/join/{code}");
    // A note too long: the entries tab again, with the reason.
    let long = "x".repeat(101);
    let refused = org_browser
        .post_form(
            &format!("/events/{event}/invitations"),
            &[("label", long.as_str())],
        )
        .await;
    assert_eq!(refused.status.as_u16(), 422, "{}", refused.body);
    assert!(
        refused.body.contains("id=\"invitations\""),
        "{}",
        refused.body
    );
    assert!(refused.body.contains("role=\"alert\""), "{}", refused.body);

    // Signed out: the way to sign in or register, and back here.
    let mut stranger = app.client();
    let page = stranger.get(&path).await;
    assert_eq!(page.status.as_u16(), 200, "{}", page.body);
    let next = format!("next=/events/{event}/join/{code}");
    assert!(
        page.body.contains(&format!("/login?{next}")),
        "{}",
        page.body
    );
    assert!(page.body.contains(&format!("/register?{next}")));
    assert!(page_text(&page.body).contains("Sign in or register first"));
    assert!(!page.body.contains("id=\"join-event\""));
    let mut russian = app.client();
    russian
        .headers
        .push(("accept-language".into(), "ru-RU,ru;q=0.9".into()));
    let text = page_text(&russian.get(&path).await.body);
    assert!(text.contains("Присоединиться к турниру"), "{text}");
    assert!(
        text.contains("Сначала войдите или зарегистрируйтесь"),
        "{text}"
    );

    // Signed in without a profile: told so, no button.
    let mut newcomer = app.user("new@t.org", Role::Player).await;
    let page = newcomer.get(&path).await;
    assert!(
        page.body.contains("id=\"join-no-profile\""),
        "{}",
        page.body
    );
    assert!(!page.body.contains("id=\"join-event\""));

    // Signed in with a profile: the question and the button, in either language.
    let mut anna = app.user("anna@t.org", Role::Player).await;
    let mut anna_api = anna.api_client().await;
    let made = anna_api
        .json(
            Method::POST,
            "/api/v1/players",
            json!({"name": "Anna Petrova"}),
        )
        .await;
    assert_eq!(made.status.as_u16(), 201, "{}", made.body);
    let page = anna.get(&path).await;
    assert!(page.body.contains("id=\"join-event\""), "{}", page.body);
    assert!(
        page_text(&page.body).contains("Join «Club Night» as Anna Petrova?"),
        "{}",
        page.body
    );
    anna.headers
        .push(("accept-language".into(), "ru-RU,ru;q=0.9".into()));
    let text = page_text(&anna.get(&path).await.body);
    assert!(
        text.contains("Записаться на турнир «Club Night» под именем Anna Petrova?"),
        "{text}"
    );

    // The form needs its CSRF token; with it, Anna is entered and told so.
    let forged = anna.post_form_raw(&path, &[]).await;
    assert_eq!(forged.status.as_u16(), 403, "{}", forged.body);
    assert!(entered(&mut organiser, event).await.is_empty());
    let joined = anna.post_form(&path, &[]).await;
    assert_eq!(joined.status.as_u16(), 303, "{}", joined.body);
    assert_eq!(joined.location(), entries_tab);
    let text = page_text(&anna.get(&entries_tab).await.body);
    assert!(text.contains("Вы записались на турнир."), "{text}");
    assert_eq!(entered(&mut organiser, event).await, ["Anna Petrova"]);
    let page = anna.get(&path).await;
    assert!(page.body.contains("id=\"join-entered\""), "{}", page.body);
    // Joining again through the form: the link's page again, saying she is entered.
    let again = anna.post_form(&path, &[]).await;
    assert_eq!(again.status.as_u16(), 422, "{}", again.body);
    assert!(again.body.contains("id=\"join-entered\""), "{}", again.body);
    assert!(page_text(&again.body).contains("Вы уже записаны на этот турнир."));

    // The organiser sees who joined through the link, and revokes it after confirming.
    let tab = org_browser.get(&entries_tab).await;
    let section = crate::claims::section(&tab.body, "invitations").unwrap();
    assert!(section.contains("club night group"), "{section}");
    assert!(section.contains("Anna Petrova"), "{section}");
    assert!(section.contains("by org"), "{section}");
    let link_id = organiser
        .get(&format!("/api/v1/events/{event}/invitations"))
        .await
        .json()[0]["id"]
        .as_i64()
        .unwrap();
    let revoke = format!("/events/{event}/invitations/{link_id}/revoke");
    assert!(tab.body.contains(&revoke), "{}", tab.body);
    let confirm = org_browser.get(&revoke).await;
    assert_eq!(confirm.status.as_u16(), 200, "{}", confirm.body);
    assert!(confirm.body.contains(&format!("action=\"{revoke}\"")));
    let revoked = org_browser.post_form(&revoke, &[]).await;
    assert_eq!(revoked.status.as_u16(), 303, "{}", revoked.body);
    assert_eq!(stranger.get(&path).await.status.as_u16(), 404);
    let tab = org_browser.get(&entries_tab).await;
    let section = crate::claims::section(&tab.body, "invitations").unwrap();
    assert!(section.contains("revoked by org"), "{section}");
    assert!(!tab.body.contains(&revoke), "no second revoke link");
}

/// A merged profile's record of joining follows its entry onto the profile that stays.
#[actix_web::test]
async fn a_merge_moves_who_joined_with_the_entry() {
    let app = TestApp::new().await;
    let mut admin = app
        .user("admin@t.org", Role::Admin)
        .await
        .api_client()
        .await;
    let event = common::create_event(
        &mut admin,
        json!({"name": "Club Night", "system": "swiss", "rounds": 5}),
    )
    .await;
    let code = make_link(&mut admin, event, "").await["code"]
        .as_str()
        .unwrap()
        .to_string();
    let (mut anna, anna_id) = common::builders::player(&app, "anna@t.org", "Anna").await;
    assert_eq!(join(&mut anna, event, &code).await.status.as_u16(), 201);
    let made = admin
        .json(Method::POST, "/api/v1/players", json!({"name": "Anna P."}))
        .await;
    assert_eq!(made.status.as_u16(), 201, "{}", made.body);
    let survivor = made.json()["id"].as_i64().unwrap();

    let merged = admin
        .json(
            Method::POST,
            &format!("/api/v1/players/{anna_id}/merge"),
            json!({ "into": survivor }),
        )
        .await;
    assert!(merged.status.is_success(), "{}", merged.body);
    let links = admin
        .get(&format!("/api/v1/events/{event}/invitations"))
        .await
        .json();
    assert_eq!(links[0]["joined"][0]["player_id"], survivor, "{links}");
    assert_eq!(links[0]["joined"][0]["player_name"], "Anna P.", "{links}");
}
