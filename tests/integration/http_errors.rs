//! Errors: HTML pages for browsers, problem+json for the API, never a 500 or a panic.
#![allow(clippy::unwrap_used)]
use crate::common;

use actix_web::http::Method;
use common::{Role, TestApp};

#[actix_web::test]
async fn unknown_pages_are_404_pages_in_the_users_language() {
    let app = TestApp::new().await;
    let mut browser = app.client();
    let res = browser.get("/no/such/page").await;
    assert_eq!(res.status.as_u16(), 404);
    assert!(res.content_type().starts_with("text/html"));
    assert!(res.body.contains("Not found") && res.body.contains("<nav"));
    let ru = browser
        .request(
            Method::GET,
            "/no/such/page",
            None,
            &[("accept-language", "ru")],
        )
        .await;
    assert!(ru.body.contains("Не найдено"));
    let player = browser.get("/players/999999").await;
    assert_eq!(player.status.as_u16(), 404);
    let not_a_number = browser.get("/players/abc").await;
    assert_eq!(not_a_number.status.as_u16(), 404);
}

#[actix_web::test]
async fn api_errors_are_problem_json() {
    let app = TestApp::new().await;
    let mut client = app.client();
    client
        .get("/api/v1/players/424242")
        .await
        .assert_problem(404, "not-found");
    client
        .get("/api/v1/nothing-here")
        .await
        .assert_problem(404, "not-found");
    client
        .get("/api/v1/players/abc")
        .await
        .assert_problem(404, "not-found");
    let mut browser = app.user("api@t.org", Role::Organiser).await;
    let mut api = browser.api_client().await;
    let bad_json = api
        .request(
            Method::POST,
            "/api/v1/clubs",
            Some(("application/json", "{not json".into())),
            &[],
        )
        .await;
    let problem = bad_json.assert_problem(400, "bad-request");
    assert!(problem["detail"].as_str().unwrap().contains("JSON"));
    let wrong_type = api
        .request(
            Method::POST,
            "/api/v1/clubs",
            Some(("text/plain", "hello".into())),
            &[],
        )
        .await;
    wrong_type.assert_problem(400, "bad-request");
    let invalid = api
        .json(
            Method::POST,
            "/api/v1/clubs",
            serde_json::json!({"name": "  "}),
        )
        .await;
    let problem = invalid.assert_problem(422, "invalid");
    assert_eq!(problem["field"], "name");
    assert!(problem["detail"].as_str().unwrap().contains("required"));
    let bad_country = api
        .json(
            Method::POST,
            "/api/v1/players",
            serde_json::json!({"name": "X", "country": "Russia!"}),
        )
        .await;
    assert_eq!(
        bad_country.assert_problem(422, "invalid")["field"],
        "country"
    );
    let json_404 = client
        .request(
            Method::GET,
            "/no/page",
            None,
            &[("accept", "application/json")],
        )
        .await;
    json_404.assert_problem(404, "not-found");
}

#[actix_web::test]
async fn hostile_input_never_causes_a_server_error() {
    let app = TestApp::new().await;
    let mut browser = app.user("fuzz@t.org", Role::Admin).await;
    let nasty = [
        "",
        "\u{0}",
        "'; DROP TABLE users; --",
        "<script>alert(1)</script>",
        "%ZZ",
        "999999999999999999999999999",
        &"x".repeat(10_000),
    ];
    for value in nasty {
        for (path, fields) in [
            (
                "/players",
                vec![
                    "name",
                    "club_id",
                    "country",
                    "federation_id",
                    "birth_year",
                    "title",
                ],
            ),
            ("/clubs", vec!["name", "city", "country", "description"]),
            (
                "/register",
                vec!["email", "display_name", "password", "invitation"],
            ),
            ("/login", vec!["email", "password", "next"]),
            ("/lang", vec!["lang", "next"]),
            ("/admin/invitations", vec!["email"]),
            ("/admin/registration", vec!["mode"]),
        ] {
            let pairs: Vec<(&str, &str)> = fields.iter().map(|f| (*f, value)).collect();
            let res = browser.post_form(path, &pairs).await;
            assert!(
                res.status.as_u16() < 500,
                "POST {path} with {value:?}: {} {}",
                res.status,
                res.body
            );
            assert!(
                !res.body.contains("<script>alert(1)</script>"),
                "output is escaped"
            );
        }
        let query = format!("/players?q={}&club={}", urlencode(value), urlencode(value));
        assert!(browser.get(&query).await.status.as_u16() < 500);
    }
    // Nothing stored was lost or corrupted: the admin still signs in.
    let mut again = app.client();
    again.sign_in("fuzz@t.org", "password-123").await;
}

fn urlencode(s: &str) -> String {
    serde_urlencoded::to_string([("v", s)])
        .unwrap()
        .trim_start_matches("v=")
        .to_string()
}

#[actix_web::test]
async fn responses_carry_a_request_id_and_security_headers() {
    let app = TestApp::new().await;
    let res = app.client().get("/").await;
    assert!(
        res.headers
            .get("x-request-id")
            .is_some_and(|v| v.len() >= 8)
    );
    assert_eq!(res.headers.get("x-frame-options").unwrap(), "DENY");
    assert!(res.headers.get("content-security-policy").is_some());
    let cookie = res.headers.get("set-cookie").unwrap().to_str().unwrap();
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"));
}

#[actix_web::test]
async fn session_cookie_is_secure_behind_tls() {
    let mut app = TestApp::new().await;
    // `X-Forwarded-Proto` is believed from a trusted proxy only.
    app.state.trusted_proxies =
        damka::web::client_address::TrustedProxies::parse(&["10.0.0.1"]).unwrap();
    app.user("tls@t.org", Role::Player).await;
    let mut browser = app.client().coming_from("10.0.0.1:50000");
    browser
        .headers
        .push(("x-forwarded-proto".into(), "https".into()));
    let res = browser
        .post_form(
            "/login",
            &[("email", "tls@t.org"), ("password", "password-123")],
        )
        .await;
    let session = res
        .headers
        .get_all("set-cookie")
        .map(|v| v.to_str().unwrap().to_string())
        .find(|c| c.starts_with("damka_session="))
        .unwrap();
    assert!(
        session.contains("Secure")
            && session.contains("HttpOnly")
            && session.contains("SameSite=Lax"),
        "{session}"
    );
}

#[actix_web::test]
async fn nul_bytes_in_json_are_refused_cleanly_on_every_backend() {
    let app = TestApp::new().await;
    let mut browser = app.user("nul@t.org", Role::Admin).await;
    let mut api = browser.api_client().await;
    for (path, body) in [
        ("/api/v1/clubs", serde_json::json!({"name": "Club\u{0}"})),
        (
            "/api/v1/players",
            serde_json::json!({"name": "Ann\u{0}", "federation_id": "\u{0}"}),
        ),
        (
            "/api/v1/events",
            serde_json::json!({"name": "Cup\u{0}", "system": "swiss", "rounds": 5}),
        ),
        (
            "/api/v1/events/import",
            serde_json::json!({"trf": "012 Cup\u{0}\n", "variant": "russian"}),
        ),
        ("/api/v1/tokens", serde_json::json!({"name": "\u{0}"})),
    ] {
        let res = api.json(Method::POST, path, body).await;
        if path.ends_with("/import") {
            // The TRF reader drops control characters; either outcome is fine, a 5xx is not.
            assert!(
                res.status.as_u16() < 500,
                "POST {path}: {} {}",
                res.status,
                res.body
            );
            continue;
        }
        assert!(
            matches!(res.status.as_u16(), 400 | 422),
            "POST {path}: {} {}",
            res.status,
            res.body
        );
        assert_eq!(res.content_type(), "application/problem+json");
    }
    let search = api.get("/api/v1/players?q=%00").await;
    assert_eq!(search.status.as_u16(), 200);
    let mut anonymous = app.client();
    let login = anonymous
        .post_form(
            "/login",
            &[("email", "nul@t.org\u{0}"), ("password", "password-123")],
        )
        .await;
    assert_eq!(login.status.as_u16(), 401);
}

/// The text a reader sees: tags, scripts and styles removed, character references read.
fn visible_text(html: &str) -> String {
    let mut text = String::new();
    let mut rest = html;
    while let Some(start) = rest.find('<') {
        text.push_str(&rest[..start]);
        text.push(' ');
        rest = &rest[start..];
        let skip_to = if rest.starts_with("<script") {
            "</script>"
        } else if rest.starts_with("<style") {
            "</style>"
        } else {
            ">"
        };
        rest = rest
            .find(skip_to)
            .map_or("", |end| &rest[end + skip_to.len()..]);
    }
    text.push_str(rest);
    text.replace("&#39;", "'")
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// Two or more English words in a row with only a space between them (a list of codes
/// such as `BH, SB` is not a phrase).
fn english_phrase(text: &str) -> Option<String> {
    let mut run: Vec<&str> = Vec::new();
    for word in text.split_whitespace() {
        let letters = word.trim_matches(|c: char| !c.is_alphanumeric());
        if letters.is_empty() || !letters.chars().all(|c| c.is_ascii_alphabetic()) {
            run.clear();
            continue;
        }
        run.push(word);
        if run.len() >= 2 {
            return Some(run.join(" "));
        }
        if !word.ends_with(|c: char| c.is_alphanumeric()) {
            run.clear();
        }
    }
    None
}

/// A Russian page that shows `refusal`, and no English sentence in its content (the
/// `<main>` element: the navigation around it carries the site's name and the `EN`/`RU`
/// language switch).
fn assert_russian_refusal(res: &common::Response, status: u16, refusal: &str) {
    assert_eq!(res.status.as_u16(), status, "{}", res.body);
    assert!(res.content_type().starts_with("text/html"), "{}", res.body);
    let main = res
        .body
        .split_once("<main>")
        .and_then(|(_, rest)| rest.split_once("</main>"))
        .map_or(res.body.as_str(), |(main, _)| main);
    let text = visible_text(main);
    assert!(text.contains(refusal), "`{refusal}` missing from: {text}");
    assert_eq!(
        english_phrase(&text),
        None,
        "English on a Russian page: {text}"
    );
}

/// Refusals reach a Russian reader in Russian, on error pages and inside forms, numbers
/// included: the first-run page once there is an administrator, the pairing form of a round
/// with results, an action on a finished event, a field too long, a TRF that cannot be read.
#[actix_web::test]
async fn refusals_on_russian_pages_are_russian() {
    let app = TestApp::new().await;
    let ru = ("accept-language".to_string(), "ru-RU,ru;q=0.9".to_string());

    let mut browser = app.user("org@t.org", Role::Organiser).await;
    browser.headers.push(ru.clone());
    let mut api = browser.api_client().await;
    let id = common::create_event(
        &mut api,
        serde_json::json!({"name": "Open", "system": "swiss", "rounds": 3}),
    )
    .await;
    common::enter_players(&mut api, id, 4).await;
    common::play_round(&mut api, id, &["1-0", "0-1"]).await;

    // The pairing form of a round with results: an error page.
    let pairing = browser.get(&format!("/events/{id}/rounds/1/pairing")).await;
    assert_russian_refusal(
        &pairing,
        409,
        "в туре 1 уже есть результаты, жеребьёвку больше нельзя изменить",
    );
    // The same refusal for an API client: English, with its code.
    let problem = api
        .json(
            Method::PUT,
            &format!("/api/v1/events/{id}/rounds/1/pairing"),
            serde_json::json!({"boards": [{"white": 1, "black": 2}, {"white": 3, "black": 4}]}),
        )
        .await
        .assert_problem(409, "conflict");
    assert_eq!(problem["code"], "round_has_results", "{problem}");
    assert_eq!(
        problem["detail"],
        "round 1 already has results; its pairing can no longer be changed"
    );

    // An action on a finished event: the event's page with the refusal.
    let finished = api.post(&format!("/api/v1/events/{id}/finish")).await;
    assert_eq!(finished.status.as_u16(), 204, "{}", finished.body);
    let pair = browser
        .post_form(&format!("/events/{id}/rounds"), &[])
        .await;
    assert_russian_refusal(&pair, 409, "турнир завершён");

    // A field too long, with its limit, inline in the form.
    let long_name = "Турнир".repeat(30);
    let created = browser
        .post_form(
            "/events",
            &[("name", &long_name), ("system", "swiss"), ("rounds", "5")],
        )
        .await;
    assert_russian_refusal(&created, 422, "не длиннее 120 символов");

    // A TRF that cannot be read, at its line and column.
    // Round cells start at column 92; the colour is the cell's sixth character.
    let trf = format!("012 Open\n{:<91}   2 q 1\n", "001    1");
    let imported = browser
        .post_form("/events/import", &[("trf", &trf), ("variant", "russian")])
        .await;
    assert_russian_refusal(
        &imported,
        422,
        "TRF, строка 2, столбец 97: неверный цвет 'q' (ожидается w, b или -)",
    );

    // Pages only organisers may open, and the first-run page once there is an administrator.
    let mut player = app.user("player@t.org", Role::Player).await;
    player.headers.push(ru.clone());
    assert_russian_refusal(
        &player.get("/events/new").await,
        403,
        "создавать турниры могут только организаторы и администраторы",
    );
    app.user("admin@t.org", Role::Admin).await;
    let mut visitor = app.client();
    visitor.headers.push(ru);
    assert_russian_refusal(
        &visitor.get("/setup").await,
        403,
        "у сайта уже есть администратор; страница первого запуска закрыта",
    );
}

/// problem+json names the exact refusal in `code`; `type` keeps the kind of error.
#[actix_web::test]
async fn problems_carry_the_refusal_code() {
    let app = TestApp::new().await;
    let mut browser = app.user("codes@t.org", Role::Organiser).await;
    let mut api = browser.api_client().await;
    let required = api
        .json(
            Method::POST,
            "/api/v1/clubs",
            serde_json::json!({"name": " "}),
        )
        .await
        .assert_problem(422, "invalid");
    assert_eq!(required["code"], "required");
    assert_eq!(required["detail"], "name: is required");
    let long = api
        .json(
            Method::POST,
            "/api/v1/clubs",
            serde_json::json!({"name": "x".repeat(500)}),
        )
        .await
        .assert_problem(422, "invalid");
    assert_eq!(long["code"], "too_long");
    let unreadable = api
        .request(
            Method::POST,
            "/api/v1/clubs",
            Some(("application/json", "{not json".into())),
            &[],
        )
        .await
        .assert_problem(400, "bad-request");
    assert_eq!(unreadable["code"], "unreadable_json");
    let missing = api
        .get("/api/v1/players/424242")
        .await
        .assert_problem(404, "not-found");
    assert_eq!(missing["code"], "not_found");
    let mut player = app.user("player@t.org", Role::Player).await;
    let mut player_api = player.api_client().await;
    let forbidden = player_api
        .json(
            Method::POST,
            "/api/v1/events",
            serde_json::json!({"name": "Open", "system": "swiss", "rounds": 5}),
        )
        .await
        .assert_problem(403, "forbidden");
    assert_eq!(forbidden["code"], "only_organisers_create_events");
    assert_eq!(
        forbidden["detail"],
        "forbidden: only organisers and administrators may create events"
    );
}
