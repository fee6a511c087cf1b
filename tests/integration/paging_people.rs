//! Pages of the lists of players, clubs, club members, requests to join and claims: with a
//! small `limit` every item comes exactly once, in the list's order, the last page says so
//! (`next_cursor` null), a bad `limit` or `cursor` is refused, and the pages' "Next page"
//! links lead on without JavaScript.
#![allow(clippy::unwrap_used)]
use actix_web::http::Method;
use serde_json::{Value, json};

use crate::common::{Client, Role, TestApp, create_club, organiser_api};

/// Every item of the list at `path` (which may carry filters), `limit` at a time.
async fn walk(api: &mut Client<'_>, path: &str, limit: usize) -> Vec<Value> {
    let join = if path.contains('?') { '&' } else { '?' };
    let mut items = Vec::new();
    let mut cursor = String::new();
    loop {
        let res = api
            .get(&format!("{path}{join}limit={limit}&cursor={cursor}"))
            .await;
        assert_eq!(res.status.as_u16(), 200, "{path}: {}", res.body);
        let page = res.json();
        let got = page["items"].as_array().unwrap();
        items.extend(got.iter().cloned());
        match page["next_cursor"].as_str() {
            Some(next) => {
                assert_eq!(got.len(), limit, "{path}: a page short of the limit");
                cursor = next.to_string();
            }
            None => {
                assert!(got.len() <= limit, "{path}: {page}");
                return items;
            }
        }
    }
}

/// `limit` 0 and 201 and a cursor not made here are refused naming the field.
async fn refuses_bad_pages(api: &mut Client<'_>, path: &str) {
    let join = if path.contains('?') { '&' } else { '?' };
    for limit in ["0", "201"] {
        let res = api.get(&format!("{path}{join}limit={limit}")).await;
        let problem = res.assert_refusal(422, "not_between");
        assert_eq!(problem["field"], "limit", "{problem}");
    }
    let res = api.get(&format!("{path}{join}cursor=not-a-cursor!")).await;
    let problem = res.assert_refusal(422, "bad_cursor");
    assert_eq!(problem["field"], "cursor", "{problem}");
}

fn field<'a>(items: &'a [Value], name: &str) -> Vec<&'a str> {
    items.iter().map(|i| i[name].as_str().unwrap()).collect()
}

/// The page's "Next page" link, if it has one.
fn next_link(page: &str) -> Option<String> {
    let marker = "rel=\"next\" href=\"";
    let start = page.find(marker)? + marker.len();
    let end = page[start..].find('"')? + start;
    Some(page[start..end].replace("&#38;", "&").replace("&amp;", "&"))
}

/// Follows the "Next page" links of an HTML list from `path`; each page's body.
async fn follow_pages(client: &mut Client<'_>, path: &str) -> Vec<String> {
    let mut bodies = Vec::new();
    let mut next = Some(path.to_string());
    while let Some(path) = next {
        let page = client.get(&path).await;
        assert_eq!(page.status.as_u16(), 200, "{path}: {}", page.body);
        next = next_link(&page.body);
        if next.is_some() {
            assert!(page.body.contains("rel=\"next\""));
        }
        bodies.push(page.body);
        assert!(bodies.len() < 50, "the links go round in circles: {next:?}");
    }
    bodies
}

#[actix_web::test]
async fn players_and_clubs_page_with_their_filters() {
    let app = TestApp::new().await;
    let mut api = organiser_api(&app, "org@t.org").await;
    let mut clubs = Vec::new();
    for name in ["Eagles", "Chigorin", "Bishops", "Dames", "Alekhine"] {
        clubs.push(create_club(&mut api, name).await);
    }
    let names = [
        "Oleg Chizhov",
        "Anna Ivanova",
        "Олег Чижов",
        "Boris Smirnov",
        "Anna Ivanova",
        "Clara Visser",
        "Chizhova Irina",
    ];
    for (i, name) in names.iter().enumerate() {
        let made = api
            .json(
                Method::POST,
                "/api/v1/players",
                json!({"name": name, "club_id": clubs[i % 2]}),
            )
            .await;
        assert_eq!(made.status.as_u16(), 201, "{}", made.body);
    }

    let all = walk(&mut api, "/api/v1/players", 2).await;
    let mut expected: Vec<(String, i64)> = all
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().into(),
                p["id"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(expected.len(), names.len());
    let served = expected.clone();
    expected.sort();
    expected.dedup();
    assert_eq!(served, expected, "by (name, id), each once");
    // The search folds as before, and pages over its matches: Chizhov, Чижов, Chizhova.
    let found = walk(&mut api, "/api/v1/players?q=chizhov", 1).await;
    assert_eq!(
        field(&found, "name"),
        ["Chizhova Irina", "Oleg Chizhov", "Олег Чижов"]
    );
    let in_club = walk(&mut api, &format!("/api/v1/players?club={}", clubs[1]), 2).await;
    assert_eq!(
        field(&in_club, "name"),
        ["Anna Ivanova", "Boris Smirnov", "Clara Visser"]
    );
    refuses_bad_pages(&mut api, "/api/v1/players?q=anna").await;

    let listed = walk(&mut api, "/api/v1/clubs", 2).await;
    assert_eq!(
        field(&listed, "name"),
        ["Alekhine", "Bishops", "Chigorin", "Dames", "Eagles"]
    );
    refuses_bad_pages(&mut api, "/api/v1/clubs").await;

    // The pages: the filters stay in the links; every player once across the pages.
    let mut browser = app.client();
    let pages = follow_pages(&mut browser, "/players?q=chizhov&limit=2").await;
    assert_eq!(pages.len(), 2);
    assert!(pages[0].contains("Chizhova Irina") && pages[0].contains("Oleg Chizhov"));
    assert!(pages[1].contains("Олег Чижов") && !pages[1].contains("Oleg Chizhov"));
    assert!(pages[1].contains("href=\"/players?q=chizhov&#38;limit=2\""));
    let pages = follow_pages(&mut browser, &format!("/players?club={}&limit=2", clubs[0])).await;
    assert_eq!(pages.len(), 2);
    assert!(
        pages[0].contains("4 players"),
        "the club's count on every page"
    );
    let pages = follow_pages(&mut browser, "/clubs?limit=3").await;
    assert_eq!(pages.len(), 2);
    assert!(pages[0].contains("Alekhine") && pages[1].contains("Eagles"));
    assert!(!pages[1].contains("Alekhine"));
    let ru = browser
        .request(
            Method::GET,
            "/clubs?limit=3",
            None,
            &[("accept-language", "ru")],
        )
        .await;
    assert!(ru.body.contains("Следующая страница"), "{}", ru.body);
    let refused = browser.get("/players?limit=500").await;
    assert_eq!(refused.status.as_u16(), 422, "{}", refused.body);
}

/// A club, its organiser's API client and browser, five members, and five accounts each
/// waiting on a request to join and five on a claim of one of the club's profiles.
struct ClubFixture<'a> {
    club: i64,
    api: Client<'a>,
    browser: Client<'a>,
}

async fn club_fixture(app: &TestApp) -> ClubFixture<'_> {
    let mut browser = app.user("cluborg@t.org", Role::Organiser).await;
    let mut api = browser.api_client().await;
    let club = create_club(&mut api, "Chigorin Club").await;
    for n in ["m3", "m1", "m5", "m2", "m4"] {
        let email = format!("{n}@t.org");
        app.user(&email, Role::Player).await;
        let added = api
            .json(
                Method::POST,
                &format!("/api/v1/clubs/{club}/members"),
                json!({"email": email, "role": "member"}),
            )
            .await;
        assert_eq!(added.status.as_u16(), 204, "{}", added.body);
    }
    for n in 1..=5 {
        let mut joiner = app
            .user(&format!("j{n}@t.org"), Role::Player)
            .await
            .api_client()
            .await;
        let made = joiner
            .json(
                Method::POST,
                "/api/v1/players",
                json!({"name": format!("J{n}")}),
            )
            .await;
        assert_eq!(made.status.as_u16(), 201, "{}", made.body);
        let asked = joiner.post(&format!("/api/v1/clubs/{club}/requests")).await;
        assert_eq!(asked.status.as_u16(), 201, "{}", asked.body);
    }
    for n in 1..=5 {
        let profile = api
            .json(
                Method::POST,
                "/api/v1/players",
                json!({"name": format!("Claimed {n}"), "club_id": club}),
            )
            .await
            .json()["id"]
            .as_i64()
            .unwrap();
        let mut claimer = app
            .user(&format!("c{n}@t.org"), Role::Player)
            .await
            .api_client()
            .await;
        let asked = claimer
            .post(&format!("/api/v1/players/{profile}/claims"))
            .await;
        assert_eq!(asked.status.as_u16(), 201, "{}", asked.body);
    }
    ClubFixture { club, api, browser }
}

#[actix_web::test]
async fn members_requests_and_claims_page_oldest_or_by_name() {
    let app = TestApp::new().await;
    let ClubFixture {
        club,
        mut api,
        mut browser,
    } = club_fixture(&app).await;

    let members = walk(&mut api, &format!("/api/v1/clubs/{club}/members"), 2).await;
    assert_eq!(
        field(&members, "display_name"),
        ["cluborg", "m1", "m2", "m3", "m4", "m5"]
    );
    refuses_bad_pages(&mut api, &format!("/api/v1/clubs/{club}/members")).await;
    let requests = walk(&mut api, &format!("/api/v1/clubs/{club}/requests"), 2).await;
    assert_eq!(
        field(&requests, "player_name"),
        ["J1", "J2", "J3", "J4", "J5"]
    );
    refuses_bad_pages(&mut api, &format!("/api/v1/clubs/{club}/requests")).await;
    let claims = walk(&mut api, "/api/v1/claims", 2).await;
    assert_eq!(
        field(&claims, "player_name"),
        [
            "Claimed 1",
            "Claimed 2",
            "Claimed 3",
            "Claimed 4",
            "Claimed 5"
        ]
    );
    refuses_bad_pages(&mut api, "/api/v1/claims").await;

    // The club page pages its members and leads to the claims' own pages.
    let pages = follow_pages(&mut browser, &format!("/clubs/{club}?limit=4")).await;
    assert_eq!(pages.len(), 2);
    let members = |page: &str| -> String {
        let start = page.find("id=\"club-members\"").unwrap();
        let end = page[start..].find("</ul>").unwrap() + start;
        crate::common::page_text(&format!("<ul {}", &page[start..end]))
    };
    assert!(members(&pages[0]).contains("m3") && !members(&pages[0]).contains("m4"));
    let last = members(&pages[1]);
    assert!(
        last.contains("m4") && last.contains("m5") && !last.contains("m1"),
        "{last}"
    );
    let pages = follow_pages(&mut browser, "/claims?limit=2").await;
    assert_eq!(pages.len(), 3);
    assert!(pages[1].contains("Claimed 3") && !pages[1].contains("Claimed 2"));
    assert!(pages[2].contains("Claimed 5"));
    let shown = browser.get(&format!("/claims?club={club}")).await;
    assert!(shown.body.contains("Claimed 5"), "{}", shown.body);
    let other = create_club(&mut api, "Elsewhere").await;
    let none = browser.get(&format!("/claims?club={other}")).await;
    assert!(none.body.contains("id=\"no-claims\""), "{}", none.body);
    let signed_out = app.client().get("/claims").await;
    assert_eq!(signed_out.status.as_u16(), 401, "for those signed in only");
}
