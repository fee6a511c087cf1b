//! Hostile or unusual requests: redirect targets, dates, body sizes, methods, CSRF tokens
//! and text fields. Each is refused with a clear status, never a 500 and never obeyed.
#![allow(clippy::unwrap_used)]
use crate::common;

use std::collections::BTreeSet;

use actix_web::http::{Method, StatusCode, header};
use common::{Role, TestApp};
use serde_json::json;

// ---- redirect targets ---------------------------------------------------------------

#[actix_web::test]
async fn sign_in_follows_only_a_same_site_next_path() {
    let app = TestApp::new().await;
    app.user("ann@club.org", Role::Player).await;
    let page = app.client().get("/login?next=/%09/evil.example/").await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    for (next, expected) in [
        ("/\t/evil.example/", "/"),
        ("/\n/evil.example/", "/"),
        ("/\r\nSet-Cookie: x=1", "/"),
        ("//evil.example/", "/"),
        ("/\\evil.example/", "/"),
        ("https://evil.example/", "/"),
        ("/a b", "/"),
        ("/events?tab=entries", "/events?tab=entries"),
    ] {
        let mut browser = app.client();
        let res = browser
            .post_form(
                "/login",
                &[
                    ("email", "ann@club.org"),
                    ("password", "password-123"),
                    ("next", next),
                ],
            )
            .await;
        assert_eq!(res.status, StatusCode::SEE_OTHER, "{next:?}: {}", res.body);
        assert_eq!(res.location(), expected, "{next:?}");
    }
}

#[actix_web::test]
async fn the_language_switch_returns_only_to_a_same_site_path() {
    let app = TestApp::new().await;
    let mut browser = app.client();
    for (next, expected) in [
        ("/\r\n/evil.example/", "/"),
        ("/\t/evil.example/", "/"),
        ("//evil.example/", "/"),
        ("/players?page=2", "/players?page=2"),
    ] {
        let res = browser
            .post_form("/lang", &[("lang", "ru"), ("next", next)])
            .await;
        assert_eq!(res.status, StatusCode::SEE_OTHER, "{next:?}: {}", res.body);
        assert_eq!(res.location(), expected, "{next:?}");
    }
}

// ---- dates --------------------------------------------------------------------------

const OUT_OF_RANGE_DATES: [&str; 6] = [
    "-5000-01-01",
    "-4000-06-15",
    "0000-01-01",
    "1899-12-31",
    "2201-01-01",
    "+200000-01-01",
];

#[actix_web::test]
async fn api_refuses_event_dates_outside_1900_to_2200() {
    let app = TestApp::new().await;
    let mut api = common::organiser_api(&app, "org@club.org").await;
    for field in ["starts_on", "ends_on"] {
        for day in OUT_OF_RANGE_DATES {
            let mut body = json!({"name": "Open", "system": "swiss", "rounds": 5});
            body[field] = json!(day);
            let res = api.json(Method::POST, "/api/v1/events", body).await;
            let problem = res.assert_problem(422, "invalid");
            assert_eq!(problem["field"], field, "{day}");
            assert!(
                problem["detail"]
                    .as_str()
                    .unwrap()
                    .contains("1900 and 2200"),
                "{problem}"
            );
        }
    }
    let id = common::create_event(
        &mut api,
        json!({"name": "Open", "system": "swiss", "rounds": 5,
               "starts_on": "1900-01-01", "ends_on": "2200-12-31"}),
    )
    .await;
    let update = api
        .json(
            Method::PUT,
            &format!("/api/v1/events/{id}"),
            json!({"name": "Open", "system": "swiss", "rounds": 5, "starts_on": "-5000-01-01"}),
        )
        .await;
    assert_eq!(update.assert_problem(422, "invalid")["field"], "starts_on");
    let stored = api.get(&format!("/api/v1/events/{id}")).await.json();
    assert_eq!(stored["starts_on"], "1900-01-01");
}

#[actix_web::test]
async fn the_event_form_refuses_dates_outside_1900_to_2200() {
    let app = TestApp::new().await;
    let mut browser = app.user("org@club.org", Role::Organiser).await;
    for day in ["-5000-01-01", "0000-01-01", "2201-01-01"] {
        let res = browser
            .post_form(
                "/events",
                &[
                    ("name", "Open"),
                    ("variant", "russian"),
                    ("system", "swiss"),
                    ("rounds", "5"),
                    ("time_control", "classical"),
                    ("draw_offer_min_moves", "0"),
                    ("scoring_display", "1-0.5-0"),
                    ("pab_half_points", "2"),
                    ("first_colour", "white"),
                    ("late_entry_until_round", "0"),
                    ("starts_on", day),
                ],
            )
            .await;
        assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{day}");
        assert!(
            res.body
                .contains("must be a date between the years 1900 and 2200"),
            "{}",
            res.body
        );
    }
}

// ---- body size, HEAD, methods --------------------------------------------------------

#[actix_web::test]
async fn oversized_bodies_are_413_as_json_or_as_a_page() {
    let app = TestApp::new().await;
    let mut browser = app.user("org@club.org", Role::Organiser).await;
    let big = "x".repeat(70 * 1024);
    let form = browser.post_form("/players", &[("name", &big)]).await;
    assert_eq!(form.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", form.body);
    assert!(form.content_type().starts_with("text/html"));
    assert!(form.body.contains("Request too large"), "{}", form.body);
    let token = browser.csrf_token().await;
    let body = serde_urlencoded::to_string([("name", big.as_str()), ("csrf_token", &token)]);
    let form_from_a_script = browser
        .request(
            Method::POST,
            "/players",
            Some(("application/x-www-form-urlencoded", body.unwrap())),
            &[("accept", "application/json")],
        )
        .await;
    form_from_a_script.assert_problem(413, "payload-too-large");

    let mut api = browser.api_client().await;
    let huge = json!({"name": "Club", "description": "x".repeat(300 * 1024)});
    let res = api.json(Method::POST, "/api/v1/clubs", huge).await;
    let problem = res.assert_problem(413, "payload-too-large");
    assert!(problem["detail"].as_str().unwrap().contains("262144"));
    // Under the limit, the same request is read (and judged on its content).
    let fits = json!({"name": "Club", "description": "x".repeat(3000)});
    let res = api.json(Method::POST, "/api/v1/clubs", fits).await;
    assert_eq!(res.assert_problem(422, "invalid")["field"], "description");
}

#[actix_web::test]
async fn head_answers_every_get_route_without_a_body() {
    let app = TestApp::new().await;
    let mut api = common::organiser_api(&app, "org@club.org").await;
    let id = common::create_event(
        &mut api,
        json!({"name": "Open", "system": "swiss", "rounds": 5}),
    )
    .await;
    let mut client = app.client();
    for path in [
        "/".to_string(),
        "/login".into(),
        "/players".into(),
        format!("/events/{id}"),
        "/static/style.css".into(),
        "/static/game.js".into(),
        "/healthz".into(),
        "/api/v1/players".into(),
        format!("/api/v1/events/{id}"),
    ] {
        let get = client.get(&path).await;
        assert_eq!(get.status, StatusCode::OK, "GET {path}");
        assert!(!get.body.is_empty());
        let head = client.request(Method::HEAD, &path, None, &[]).await;
        assert_eq!(head.status, StatusCode::OK, "HEAD {path}: {}", head.body);
        assert_eq!(head.body, "", "HEAD {path}");
        assert_eq!(head.content_type(), get.content_type(), "HEAD {path}");
        assert!(head.headers.contains_key("x-request-id"));
    }
    let missing = client
        .request(Method::HEAD, "/no/such/page", None, &[])
        .await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert_eq!(missing.body, "");
}

fn allowed(res: &common::Response) -> BTreeSet<String> {
    res.headers
        .get(header::ALLOW)
        .map(|v| v.to_str().unwrap())
        .unwrap_or("")
        .split(',')
        .map(|m| m.trim().to_string())
        .filter(|m| !m.is_empty())
        .collect()
}

fn set(methods: &[&str]) -> BTreeSet<String> {
    methods.iter().map(|m| m.to_string()).collect()
}

#[actix_web::test]
async fn a_wrong_method_on_a_known_path_is_405_with_allow() {
    let app = TestApp::new().await;
    let mut browser = app.client();
    let page = browser.request(Method::DELETE, "/players", None, &[]).await;
    assert_eq!(page.status, StatusCode::METHOD_NOT_ALLOWED, "{}", page.body);
    assert_eq!(allowed(&page), set(&["GET", "HEAD", "POST"]));
    assert!(page.content_type().starts_with("text/html"));
    assert!(page.body.contains("Method not allowed"), "{}", page.body);
    let ru = browser
        .request(Method::PUT, "/login", None, &[("accept-language", "ru")])
        .await;
    assert_eq!(ru.status, StatusCode::METHOD_NOT_ALLOWED);
    assert!(ru.body.contains("Метод не поддерживается"), "{}", ru.body);

    for (method, path, methods) in [
        (Method::POST, "/players/new", &["GET", "HEAD"][..]),
        (Method::GET, "/logout", &["POST"][..]),
        (Method::HEAD, "/logout", &["POST"][..]),
        (Method::POST, "/healthz", &["GET", "HEAD"][..]),
        (Method::POST, "/static/style.css", &["GET", "HEAD"][..]),
        (Method::DELETE, "/players/1", &["GET", "HEAD", "POST"][..]),
    ] {
        let res = browser.request(method.clone(), path, None, &[]).await;
        assert_eq!(
            res.status,
            StatusCode::METHOD_NOT_ALLOWED,
            "{method} {path}"
        );
        assert_eq!(allowed(&res), set(methods), "{method} {path}");
    }

    let api = browser
        .request(Method::DELETE, "/api/v1/players", None, &[])
        .await;
    api.assert_problem(405, "method-not-allowed");
    assert_eq!(allowed(&api), set(&["GET", "HEAD", "POST"]));
    let put = browser
        .request(Method::PATCH, "/api/v1/events/1/rounds", None, &[])
        .await;
    put.assert_problem(405, "method-not-allowed");
    assert_eq!(allowed(&put), set(&["GET", "HEAD", "POST"]));
    // An unknown path is still 404 whatever the method.
    let unknown = browser
        .request(Method::DELETE, "/no/such/page", None, &[])
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
}

// ---- CSRF tokens bound to the session ----------------------------------------------

/// The browser cookies and form token a page gives this client.
async fn cookie_and_page_token(client: &mut common::Client<'_>, path: &str) -> (String, String) {
    let page = client.get(path).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    let token = page
        .hidden_input("csrf_token")
        .expect("the page has a form");
    (client.cookies["damka_csrf"].clone(), token)
}

async fn player_names(app: &TestApp) -> String {
    app.client().get("/players").await.body
}

#[actix_web::test]
async fn a_csrf_token_made_for_another_session_or_for_none_is_refused() {
    let app = TestApp::new().await;
    let mut victim = app.user("victim@club.org", Role::Organiser).await;

    // An attacker who can set cookies in the victim's browser plants its own CSRF cookie
    // with a token the site gave the attacker: first as an anonymous visitor...
    let mut anonymous = app.client();
    let planted = cookie_and_page_token(&mut anonymous, "/login").await;
    // ...then signed in with an account of its own.
    let mut attacker = app.user("attacker@club.org", Role::Player).await;
    let planted_signed_in = cookie_and_page_token(&mut attacker, "/account").await;

    for (name, (cookie, token)) in [
        ("Forged Anonymous", planted),
        ("Forged Session", planted_signed_in),
    ] {
        victim.cookies.insert("damka_csrf".into(), cookie);
        let res = victim
            .post_form_raw("/players", &[("name", name), ("csrf_token", &token)])
            .await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "{name}: {}", res.body);
        assert!(res.body.contains("Form expired"), "{}", res.body);
        assert!(
            !player_names(&app).await.contains(name),
            "{name} was created"
        );
    }

    // The victim's own pages carry a token for the cookie now in the browser and its
    // session, and that one works.
    let (_, own) = cookie_and_page_token(&mut victim, "/players/new").await;
    let res = victim
        .post_form_raw("/players", &[("name", "Genuine"), ("csrf_token", &own)])
        .await;
    assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
    assert!(player_names(&app).await.contains("Genuine"));
}

#[actix_web::test]
async fn the_page_after_sign_in_carries_a_token_that_works() {
    let app = TestApp::new().await;
    app.user("ann@club.org", Role::Organiser).await;
    let mut browser = app.client();
    let (_, anonymous_token) = cookie_and_page_token(&mut browser, "/login").await;
    let signed_in = browser
        .post_form_raw(
            "/login",
            &[
                ("email", "ann@club.org"),
                ("password", "password-123"),
                ("csrf_token", &anonymous_token),
            ],
        )
        .await;
    assert_eq!(
        signed_in.status,
        StatusCode::SEE_OTHER,
        "{}",
        signed_in.body
    );
    let (_, token) = cookie_and_page_token(&mut browser, &signed_in.location()).await;
    assert_ne!(token, anonymous_token, "signing in changes the form token");
    let stale = browser
        .post_form_raw(
            "/players",
            &[("name", "Stale"), ("csrf_token", &anonymous_token)],
        )
        .await;
    assert_eq!(stale.status, StatusCode::FORBIDDEN);
    let fresh = browser
        .post_form_raw("/players", &[("name", "Fresh"), ("csrf_token", &token)])
        .await;
    assert_eq!(fresh.status, StatusCode::SEE_OTHER, "{}", fresh.body);
    // After signing out, the browser's forms work again as an anonymous visitor's.
    let out = browser
        .post_form_raw("/logout", &[("csrf_token", &token)])
        .await;
    assert_eq!(out.status, StatusCode::SEE_OTHER, "{}", out.body);
    let (_, after) = cookie_and_page_token(&mut browser, "/").await;
    assert_eq!(after, anonymous_token);
}

// ---- text fields --------------------------------------------------------------------

#[actix_web::test]
async fn a_club_description_keeps_its_line_breaks() {
    let app = TestApp::new().await;
    let mut browser = app.user("org@club.org", Role::Organiser).await;
    let res = browser
        .post_form(
            "/clubs",
            &[
                ("name", "Chapaev"),
                (
                    "description",
                    "Founded 1990.\r\nMeets on Tuesdays:\r\n\tfrom 18:00",
                ),
            ],
        )
        .await;
    assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
    let club_page = res.location();
    let id = club_page.trim_start_matches("/clubs/");
    let club = app
        .client()
        .get(&format!("/api/v1/clubs/{id}"))
        .await
        .json();
    assert_eq!(
        club["description"],
        "Founded 1990.\nMeets on Tuesdays:\n\tfrom 18:00"
    );
    let page = app.client().get(&club_page).await;
    assert!(page.body.contains("Founded 1990.\nMeets on Tuesdays:"));

    let bell = browser
        .post_form(
            "/clubs",
            &[("name", "Other"), ("description", "ring \u{7} ring")],
        )
        .await;
    assert_eq!(bell.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        bell.body
            .contains("must not contain control characters other than line breaks and tabs"),
        "{}",
        bell.body
    );
    let one_line = browser.post_form("/clubs", &[("name", "Two\nlines")]).await;
    assert_eq!(one_line.status, StatusCode::UNPROCESSABLE_ENTITY);
}

const DIRECTION_REASON: &str = "must not contain Unicode characters that change the text direction";

#[actix_web::test]
async fn names_refuse_text_direction_controls() {
    let app = TestApp::new().await;
    let mut browser = app.user("org@club.org", Role::Organiser).await;
    let mut api = browser.api_client().await;
    for control in ['\u{202A}', '\u{202E}', '\u{2066}', '\u{2069}'] {
        let name = format!("Ann{control}nimda");
        for (path, body) in [
            ("/api/v1/players", json!({ "name": name })),
            ("/api/v1/clubs", json!({ "name": name })),
            ("/api/v1/events", json!({ "name": name, "system": "swiss" })),
        ] {
            let res = api.json(Method::POST, path, body).await;
            let problem = res.assert_problem(422, "invalid");
            assert_eq!(problem["field"], "name", "{path}");
            assert!(
                problem["detail"]
                    .as_str()
                    .unwrap()
                    .contains(DIRECTION_REASON),
                "{problem}"
            );
        }
        let mut visitor = app.client();
        let register = visitor
            .post_form(
                "/register",
                &[
                    ("email", "new@club.org"),
                    ("display_name", &name),
                    ("password", "long-enough-1"),
                ],
            )
            .await;
        assert_eq!(register.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(
            register.body.contains(DIRECTION_REASON),
            "{}",
            register.body
        );
    }
    // The Russian page says why in Russian.
    let token = browser.csrf_token().await;
    let ru = browser
        .request(
            Method::POST,
            "/players",
            Some((
                "application/x-www-form-urlencoded",
                serde_urlencoded::to_string([
                    ("name", "Ann\u{202E}"),
                    ("csrf_token", token.as_str()),
                ])
                .unwrap(),
            )),
            &[("accept-language", "ru")],
        )
        .await;
    assert_eq!(ru.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        ru.body.contains("меняющих направление текста"),
        "{}",
        ru.body
    );
    // Right-to-left names themselves are fine.
    let hebrew = api
        .json(Method::POST, "/api/v1/players", json!({"name": "דוד לוי"}))
        .await;
    assert_eq!(hebrew.status.as_u16(), 201, "{}", hebrew.body);
}
