//! Claiming a player profile: an account without a profile asks for one, and whoever
//! manages the profile (its club's organisers, the organiser who made it, administrators)
//! accepts or declines; nobody else, and never the claimant. A one-time link from the
//! profile page links the account that opens it, once. Registration suggests the
//! unclaimed profiles of the same name.
#![allow(clippy::unwrap_used)]
use crate::common;

use actix_web::http::Method;
use common::{Client, Role, TestApp, organiser_api, page_text};
use serde_json::{Value, json};

/// A profile made by `api` (an organiser, or an administrator); its id.
async fn profile(api: &mut Client<'_>, body: Value) -> i64 {
    let made = api.json(Method::POST, "/api/v1/players", body).await;
    assert_eq!(made.status.as_u16(), 201, "{}", made.body);
    made.json()["id"].as_i64().unwrap()
}

/// A signed-in account without a profile: its browser and its API client.
async fn newcomer<'a>(app: &'a TestApp, email: &str) -> (Client<'a>, Client<'a>) {
    let mut browser = app.user(email, Role::Player).await;
    let api = browser.api_client().await;
    (browser, api)
}

async fn claim(api: &mut Client<'_>, player_id: i64) -> Value {
    let asked = api
        .post(&format!("/api/v1/players/{player_id}/claims"))
        .await;
    assert_eq!(asked.status.as_u16(), 201, "{}", asked.body);
    asked.json()
}

/// What a reader sees of the section (or other element) with this id, up to its end.
pub(crate) fn section(page: &str, id: &str) -> Option<String> {
    let start = page.find(&format!("id=\"{id}\""))?;
    let end = page[start..]
        .find("</section>")
        .map_or(page.len(), |end| start + end);
    Some(page_text(&format!("<{}", &page[start..end])))
}

async fn own_profile(api: &mut Client<'_>) -> Value {
    let me = api.get("/api/v1/me").await;
    assert_eq!(me.status.as_u16(), 200, "{}", me.body);
    me.json()["player_id"].clone()
}

#[actix_web::test]
async fn an_accepted_claim_links_the_account_to_the_profile() {
    let app = TestApp::new().await;
    let mut organiser = organiser_api(&app, "org@t.org").await;
    let player_id = profile(&mut organiser, json!({"name": "Anna Petrova"})).await;
    let (_, mut anna) = newcomer(&app, "anna@t.org").await;

    let claimed = claim(&mut anna, player_id).await;
    assert_eq!(claimed["status"], "pending");
    assert_eq!(claimed["player_id"], player_id);
    assert!(claimed["id"].as_i64().is_some());
    // Asking again answers the same open claim.
    assert_eq!(claim(&mut anna, player_id).await["id"], claimed["id"]);
    assert_eq!(own_profile(&mut anna).await, Value::Null);

    let listed = organiser.get("/api/v1/claims").await.json()["items"].clone();
    assert_eq!(listed.as_array().unwrap().len(), 1, "{listed}");
    assert_eq!(listed[0]["id"], claimed["id"]);
    assert_eq!(listed[0]["claimant"], "anna");

    let id = claimed["id"].as_i64().unwrap();
    let accepted = organiser.post(&format!("/api/v1/claims/{id}/accept")).await;
    assert_eq!(accepted.status.as_u16(), 200, "{}", accepted.body);
    assert_eq!(accepted.json()["status"], "accepted");
    assert_eq!(own_profile(&mut anna).await, player_id);
    let shown = organiser.get(&format!("/api/v1/players/{player_id}")).await;
    assert_eq!(shown.json()["account"], "anna");
    assert_eq!(
        organiser.get("/api/v1/claims").await.json(),
        json!({"items": [], "next_cursor": null})
    );

    // Decided once: a second answer is refused.
    organiser
        .post(&format!("/api/v1/claims/{id}/decline"))
        .await
        .assert_refusal(409, "claim_already_decided");
}

#[actix_web::test]
async fn a_declined_claim_links_nothing_and_the_claimant_is_told() {
    let app = TestApp::new().await;
    let mut organiser = organiser_api(&app, "org@t.org").await;
    let player_id = profile(&mut organiser, json!({"name": "Boris"})).await;
    let (mut browser, mut boris) = newcomer(&app, "boris@t.org").await;
    let id = claim(&mut boris, player_id).await["id"].as_i64().unwrap();

    let declined = organiser
        .post(&format!("/api/v1/claims/{id}/decline"))
        .await;
    assert_eq!(declined.status.as_u16(), 200, "{}", declined.body);
    assert_eq!(declined.json()["status"], "declined");
    assert_eq!(own_profile(&mut boris).await, Value::Null);
    assert_eq!(
        organiser
            .get(&format!("/api/v1/players/{player_id}"))
            .await
            .json()["account"],
        Value::Null
    );
    let account = browser.get("/account").await;
    let claims = section(&account.body, "claims").unwrap();
    assert!(claims.contains("«Boris»: declined"), "{claims}");
    let page = page_text(&browser.get(&format!("/players/{player_id}")).await.body);
    assert!(
        page.contains("Your claim on this profile was declined"),
        "{page}"
    );
}

#[actix_web::test]
async fn a_profile_of_an_account_and_an_account_with_a_profile_are_refused() {
    let app = TestApp::new().await;
    let mut organiser = organiser_api(&app, "org@t.org").await;
    let free = profile(&mut organiser, json!({"name": "Free"})).await;
    // A player with their own profile.
    let (_, mut owner) = newcomer(&app, "owner@t.org").await;
    let owned = profile(&mut owner, json!({"name": "Owner"})).await;
    let (_, mut stranger) = newcomer(&app, "stranger@t.org").await;

    stranger
        .post(&format!("/api/v1/players/{owned}/claims"))
        .await
        .assert_refusal(409, "profile_taken");
    owner
        .post(&format!("/api/v1/players/{free}/claims"))
        .await
        .assert_refusal(409, "account_has_profile");

    // A claim that waited while its profile went to another account cannot be accepted.
    let (_, mut first) = newcomer(&app, "first@t.org").await;
    let (_, mut second) = newcomer(&app, "second@t.org").await;
    let a = claim(&mut first, free).await["id"].as_i64().unwrap();
    let b = claim(&mut second, free).await["id"].as_i64().unwrap();
    let accepted = organiser.post(&format!("/api/v1/claims/{a}/accept")).await;
    assert_eq!(accepted.status.as_u16(), 200, "{}", accepted.body);
    organiser
        .post(&format!("/api/v1/claims/{b}/accept"))
        .await
        .assert_refusal(409, "claim_already_decided");
    assert_eq!(own_profile(&mut second).await, Value::Null);
}

#[actix_web::test]
async fn strangers_and_the_claimant_may_not_decide() {
    let app = TestApp::new().await;
    let mut organiser = organiser_api(&app, "org@t.org").await;
    let player_id = profile(&mut organiser, json!({"name": "Vera"})).await;
    let (_, mut vera) = newcomer(&app, "vera@t.org").await;
    let id = claim(&mut vera, player_id).await["id"].as_i64().unwrap();
    let mut other_organiser = organiser_api(&app, "other-org@t.org").await;
    let (_, mut player) = newcomer(&app, "player@t.org").await;

    for (who, client) in [
        ("claimant", &mut vera),
        ("another organiser", &mut other_organiser),
        ("a player", &mut player),
    ] {
        for action in ["accept", "decline"] {
            let res = client.post(&format!("/api/v1/claims/{id}/{action}")).await;
            assert_eq!(res.status.as_u16(), 403, "{who} {action}: {}", res.body);
            res.assert_refusal(403, "only_profile_managers");
        }
        assert_eq!(
            client.get("/api/v1/claims").await.json(),
            json!({"items": [], "next_cursor": null}),
            "{who}"
        );
    }
    app.client()
        .post(&format!("/api/v1/claims/{id}/accept"))
        .await
        .assert_problem(401, "unauthenticated");
    assert_eq!(own_profile(&mut vera).await, Value::Null);

    // A club organiser who claims a profile of their own club still does not decide it.
    let mut admin = app
        .user("admin@t.org", Role::Admin)
        .await
        .api_client()
        .await;
    let club = common::create_club(&mut organiser, "Tal Club").await;
    let mut club_organiser_browser = app.user("clubby@t.org", Role::Player).await;
    let mut club_organiser = club_organiser_browser.api_client().await;
    let added = organiser
        .json(
            Method::POST,
            &format!("/api/v1/clubs/{club}/members"),
            json!({"email": "clubby@t.org", "role": "organiser"}),
        )
        .await;
    assert!(added.status.is_success(), "{}", added.body);
    let member = profile(&mut organiser, json!({"name": "Clubby", "club_id": club})).await;
    let own = claim(&mut club_organiser, member).await["id"]
        .as_i64()
        .unwrap();
    club_organiser
        .post(&format!("/api/v1/claims/{own}/accept"))
        .await
        .assert_refusal(403, "only_profile_managers");
    let accepted = admin.post(&format!("/api/v1/claims/{own}/accept")).await;
    assert_eq!(accepted.status.as_u16(), 200, "{}", accepted.body);
    assert_eq!(own_profile(&mut club_organiser).await, member);
}

#[actix_web::test]
async fn each_decider_lists_only_the_claims_they_decide() {
    let app = TestApp::new().await;
    let mut north = organiser_api(&app, "north@t.org").await;
    let mut south = organiser_api(&app, "south@t.org").await;
    let mut admin = app
        .user("admin@t.org", Role::Admin)
        .await
        .api_client()
        .await;
    let club = common::create_club(&mut south, "South Club").await;
    let northern = profile(&mut north, json!({"name": "Northern"})).await;
    let southern = profile(&mut south, json!({"name": "Southern", "club_id": club})).await;
    // A club profile made by the administrator: the club's organiser decides it too.
    let club_member = profile(&mut admin, json!({"name": "Member", "club_id": club})).await;
    let (_, mut a) = newcomer(&app, "a@t.org").await;
    let (_, mut b) = newcomer(&app, "b@t.org").await;
    let (_, mut c) = newcomer(&app, "c@t.org").await;
    let on_north = claim(&mut a, northern).await["id"].clone();
    let on_south = claim(&mut b, southern).await["id"].clone();
    let on_member = claim(&mut c, club_member).await["id"].clone();

    let ids = |listed: Value| -> Vec<Value> {
        listed["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["id"].clone())
            .collect()
    };
    assert_eq!(
        ids(north.get("/api/v1/claims").await.json()),
        vec![on_north.clone()]
    );
    assert_eq!(
        ids(south.get("/api/v1/claims").await.json()),
        vec![on_south.clone(), on_member.clone()]
    );
    assert_eq!(
        ids(admin.get("/api/v1/claims").await.json()),
        vec![on_north, on_south, on_member]
    );
    assert_eq!(
        ids(a.get("/api/v1/claims").await.json()),
        Vec::<Value>::new()
    );
    app.client()
        .get("/api/v1/claims")
        .await
        .assert_problem(401, "unauthenticated");
}

/// The code of a one-time link the organiser's browser makes on the profile page.
async fn one_time_link(organiser: &mut Client<'_>, player_id: i64) -> String {
    let page = organiser.get(&format!("/players/{player_id}")).await;
    assert!(
        page.body
            .contains(&format!("action=\"/players/{player_id}/claim-link\"")),
        "the profile page offers a link to its manager"
    );
    let made = organiser
        .post_form(&format!("/players/{player_id}/claim-link"), &[])
        .await;
    assert_eq!(made.status.as_u16(), 200, "{}", made.body);
    let url = made.element_text("claim-link").unwrap();
    url.rsplit_once("/claim/").unwrap().1.trim().to_string()
}

#[actix_web::test]
async fn a_one_time_link_links_the_account_that_opens_it_once() {
    let app = TestApp::new().await;
    let mut organiser = app.user("org@t.org", Role::Organiser).await;
    let mut organiser_api = organiser.api_client().await;
    let player_id = profile(&mut organiser_api, json!({"name": "Grigory"})).await;
    let code = one_time_link(&mut organiser, player_id).await;
    let link = format!("/claim/{code}");
    // Only the hash is stored.
    let stored: Vec<String> = app
        .with_db(|conn| {
            use diesel::prelude::*;
            damka::store::schema::player_claim_links::table
                .select(damka::store::schema::player_claim_links::code_hash)
                .load(conn)
                .unwrap()
        })
        .await;
    assert_eq!(stored.len(), 1);
    assert!(!stored[0].contains(&code));

    // Signed out: the page asks to sign in or register, and comes back.
    let mut visitor = app.client();
    let opened = visitor.get(&link).await;
    assert_eq!(opened.status.as_u16(), 200, "{}", opened.body);
    assert!(opened.body.contains("Grigory"));
    let back = format!("next=/claim/{code}");
    assert!(
        opened.body.contains(&format!("/register?{back}")),
        "{}",
        opened.body
    );
    assert!(opened.body.contains(&format!("/login?{back}")));
    let form = visitor.get(&format!("/register?next={link}")).await;
    assert!(
        form.body.contains(&format!(
            "<input type=\"hidden\" name=\"next\" value=\"{link}\">"
        )),
        "the registration form carries the way back"
    );
    let registered = visitor
        .post_form(
            "/register",
            &[
                ("email", "grisha@t.org"),
                ("display_name", "Grisha"),
                ("password", "password-123"),
                ("next", &link),
            ],
        )
        .await;
    assert_eq!(registered.status.as_u16(), 303, "{}", registered.body);
    assert_eq!(registered.location(), link);

    // Signed in: one button links.
    let page = visitor.get(&link).await;
    assert!(page.body.contains("use-claim-link"), "{}", page.body);
    let used = visitor.post_form(&link, &[]).await;
    assert_eq!(used.status.as_u16(), 303, "{}", used.body);
    assert_eq!(used.location(), format!("/players/{player_id}"));
    let mut grisha = visitor.api_client().await;
    assert_eq!(own_profile(&mut grisha).await, player_id);

    // Once: another account is refused, and the link says so.
    let mut late = app.user("late@t.org", Role::Player).await;
    assert_eq!(late.get(&link).await.status.as_u16(), 409);
    let again = late.post_form(&link, &[]).await;
    assert_eq!(again.status.as_u16(), 409, "{}", again.body);
    assert!(page_text(&again.body).contains("already been used"));
    let mut late_api = late.api_client().await;
    assert_eq!(own_profile(&mut late_api).await, Value::Null);
    assert_eq!(
        organiser_api
            .get(&format!("/api/v1/players/{player_id}"))
            .await
            .json()["account"],
        "Grisha"
    );
    // A code of no link.
    assert_eq!(late.get("/claim/not-a-code").await.status.as_u16(), 404);
}

#[actix_web::test]
async fn registration_suggests_the_unclaimed_profiles_of_the_same_name() {
    let app = TestApp::new().await;
    let mut organiser = organiser_api(&app, "org@t.org").await;
    let same = profile(&mut organiser, json!({"name": "Dmitry Orlov"})).await;
    let other = profile(&mut organiser, json!({"name": "Dmitry Orlovsky"})).await;
    // Same name, but already somebody's.
    let (_, mut taken) = newcomer(&app, "taken@t.org").await;
    let taken_id = profile(&mut taken, json!({"name": "Dmitry Orlov"})).await;

    let mut visitor = app.client();
    let registered = visitor
        .post_form(
            "/register",
            &[
                ("email", "dima@t.org"),
                ("display_name", "dmitry orlov"),
                ("password", "password-123"),
            ],
        )
        .await;
    assert_eq!(registered.location(), "/account");
    let account = visitor.get("/account").await;
    let suggested = section(&account.body, "suggestions").unwrap();
    assert!(suggested.contains("Is one of these you?"), "{suggested}");
    assert!(
        account
            .body
            .contains(&format!("action=\"/players/{same}/claims\""))
    );
    for absent in [other, taken_id] {
        assert!(
            !account
                .body
                .contains(&format!("action=\"/players/{absent}/claims\"")),
            "{absent} is not suggested"
        );
    }
    let claimed = visitor
        .post_form(&format!("/players/{same}/claims"), &[])
        .await;
    assert_eq!(claimed.status.as_u16(), 303, "{}", claimed.body);
    let account = visitor.get("/account").await;
    assert!(section(&account.body, "suggestions").is_none());
    let notice = section(&account.body, "claims").unwrap();
    assert!(notice.contains("waiting for the organisers"), "{notice}");
    let listed = organiser.get("/api/v1/claims").await.json()["items"].clone();
    assert_eq!(listed[0]["player_id"], same);
    assert_eq!(listed[0]["claimant"], "dmitry orlov");
}
