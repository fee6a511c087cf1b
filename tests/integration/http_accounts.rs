//! Accounts over HTTP: registration, sign-in, throttling, CSRF, API tokens, first run,
//! invitations, password change, language.
#![allow(clippy::unwrap_used)]
use crate::common;

use actix_web::http::{Method, StatusCode};
use common::{Role, TestApp};

#[actix_web::test]
async fn register_then_sign_out_and_in_again() {
    let app = TestApp::new().await;
    let mut browser = app.client();
    let form = browser.get("/register").await;
    assert_eq!(form.status, StatusCode::OK);
    // The page's own hidden token is accepted (not only the one tests compute).
    let token = form.hidden_input("csrf_token").unwrap();
    let res = browser
        .post_form_raw(
            "/register",
            &[
                ("email", "Ann@Club.org"),
                ("display_name", "Ann"),
                ("password", "s3cret-pass"),
                ("csrf_token", &token),
            ],
        )
        .await;
    assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
    assert_eq!(res.location(), "/account");
    let account = browser.get("/account").await;
    assert_eq!(account.status, StatusCode::OK);
    assert!(
        account.body.contains("ann@club.org"),
        "e-mail is stored lower-cased"
    );

    let out = browser.post_form("/logout", &[]).await;
    assert_eq!(out.status, StatusCode::SEE_OTHER);
    assert!(!browser.cookies.contains_key("damka_session"));
    assert_eq!(
        browser.get("/account").await.status,
        StatusCode::UNAUTHORIZED
    );

    browser.sign_in("ann@club.org", "s3cret-pass").await;
    assert_eq!(browser.get("/account").await.status, StatusCode::OK);
}

#[actix_web::test]
async fn registration_errors_are_shown_next_to_the_field() {
    let app = TestApp::new().await;
    let mut browser = app.client();
    let res = browser
        .post_form(
            "/register",
            &[
                ("email", "not-an-email"),
                ("display_name", "Ann"),
                ("password", "long-enough"),
            ],
        )
        .await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        res.body
            .contains("class=\"field-error\">is not a valid e-mail address"),
        "{}",
        res.body
    );
    assert!(res.body.contains("value=\"Ann\""), "typed values are kept");

    let short = browser
        .post_form(
            "/register",
            &[
                ("email", "a@b.org"),
                ("display_name", "Ann"),
                ("password", "short"),
            ],
        )
        .await;
    assert_eq!(short.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(short.body.contains("must be at least 8 characters long"));

    app.user("taken@b.org", Role::Player).await;
    let dup = browser
        .post_form(
            "/register",
            &[
                ("email", "TAKEN@b.org"),
                ("display_name", "X"),
                ("password", "long-enough"),
            ],
        )
        .await;
    assert_eq!(dup.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        dup.body
            .contains("an account with this e-mail already exists")
    );
}

#[actix_web::test]
async fn wrong_password_is_refused_without_saying_which_part_was_wrong() {
    let app = TestApp::new().await;
    app.user("bob@club.org", Role::Player).await;
    let mut browser = app.client();
    let wrong = browser
        .post_form(
            "/login",
            &[("email", "bob@club.org"), ("password", "nope-nope")],
        )
        .await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    assert!(wrong.body.contains("Wrong e-mail or password"));
    assert!(!browser.cookies.contains_key("damka_session"));
    let unknown = browser
        .post_form(
            "/login",
            &[("email", "nobody@club.org"), ("password", "nope-nope")],
        )
        .await;
    assert_eq!(unknown.status, StatusCode::UNAUTHORIZED);
    assert!(unknown.body.contains("Wrong e-mail or password"));
}

#[actix_web::test]
async fn sign_in_is_throttled_after_repeated_failures() {
    let app = TestApp::new().await;
    app.user("carol@club.org", Role::Player).await;
    let mut browser = app.client();
    for _ in 0..5 {
        let res = browser
            .post_form(
                "/login",
                &[("email", "carol@club.org"), ("password", "bad-guess")],
            )
            .await;
        assert_eq!(res.status, StatusCode::UNAUTHORIZED);
    }
    // Even the right password is refused while the account is throttled.
    let blocked = browser
        .post_form(
            "/login",
            &[("email", "carol@club.org"), ("password", "password-123")],
        )
        .await;
    assert_eq!(
        blocked.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        blocked.body
    );
    let retry: u64 = blocked
        .headers
        .get("retry-after")
        .unwrap()
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(retry > 0 && retry <= 15 * 60);
    assert!(blocked.body.contains("Too many failed sign-in attempts"));
    // Another account is not affected by this one's failures.
    app.user("dave@club.org", Role::Player).await;
}

#[actix_web::test]
async fn forms_without_a_valid_csrf_token_are_rejected_and_change_nothing() {
    let app = TestApp::new().await;
    let mut browser = app.client();
    browser.get("/").await;
    let missing = browser
        .post_form_raw(
            "/register",
            &[
                ("email", "e@f.org"),
                ("display_name", "E"),
                ("password", "long-enough"),
            ],
        )
        .await;
    assert_eq!(missing.status, StatusCode::FORBIDDEN);
    assert!(missing.body.contains("Form expired"), "{}", missing.body);
    let forged = browser
        .post_form_raw(
            "/register",
            &[
                ("email", "e@f.org"),
                ("display_name", "E"),
                ("password", "long-enough"),
                ("csrf_token", "AAAA"),
            ],
        )
        .await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN);
    // A token made for another browser's cookie does not work either.
    let mut other = app.client();
    let others_token = other.csrf_token().await;
    let stolen = browser
        .post_form_raw(
            "/register",
            &[
                ("email", "e@f.org"),
                ("display_name", "E"),
                ("password", "long-enough"),
                ("csrf_token", &others_token),
            ],
        )
        .await;
    assert_eq!(stolen.status, StatusCode::FORBIDDEN);
    let exists = app
        .with_db(|conn| {
            damka::store::accounts::user_by_email(conn, "e@f.org")
                .unwrap()
                .is_some()
        })
        .await;
    assert!(!exists, "a rejected form must not create the account");
}

#[actix_web::test]
async fn api_tokens_authenticate_and_can_be_revoked() {
    let app = TestApp::new().await;
    let mut browser = app.user("erin@club.org", Role::Player).await;
    let mut api = browser.api_client().await;
    let me = api.get("/api/v1/me").await;
    assert_eq!(me.status, StatusCode::OK, "{}", me.body);
    assert_eq!(me.json()["email"], "erin@club.org");

    // The token is stored hashed: the secret itself is nowhere in the database.
    let token = api.headers[0].1.trim_start_matches("Bearer ").to_string();
    let stored: Vec<String> = app
        .with_db(|conn| {
            use damka::store::schema::api_tokens::dsl::*;
            use diesel::prelude::*;
            api_tokens.select(token_hash).load::<String>(conn).unwrap()
        })
        .await;
    assert_eq!(stored.len(), 1);
    assert_ne!(stored[0], token);
    assert_eq!(stored[0], damka::service::auth::token_hash(&token));

    let listed = api.get("/api/v1/tokens").await.json();
    let id = listed[0]["id"].as_i64().unwrap();
    let revoke = api
        .request(Method::DELETE, &format!("/api/v1/tokens/{id}"), None, &[])
        .await;
    assert_eq!(revoke.status, StatusCode::NO_CONTENT);
    api.get("/api/v1/me")
        .await
        .assert_problem(401, "unauthenticated");
}

#[actix_web::test]
async fn api_requests_without_or_with_a_bad_token() {
    let app = TestApp::new().await;
    let mut anonymous = app.client();
    let res = anonymous.get("/api/v1/me").await;
    res.assert_problem(401, "unauthenticated");
    assert!(res.headers.contains_key("www-authenticate"));
    let bad = anonymous
        .request(
            Method::GET,
            "/api/v1/me",
            None,
            &[("authorization", "Bearer dmk_not-a-real-token")],
        )
        .await;
    bad.assert_problem(401, "unauthenticated");
    let malformed = anonymous
        .request(
            Method::GET,
            "/api/v1/me",
            None,
            &[("authorization", "Basic abc")],
        )
        .await;
    malformed.assert_problem(400, "bad-request");
    // A browser session cookie is not an API credential.
    let mut browser = app.user("frank@club.org", Role::Admin).await;
    browser
        .get("/api/v1/me")
        .await
        .assert_problem(401, "unauthenticated");
}

#[actix_web::test]
async fn first_run_page_creates_the_first_admin_and_then_closes() {
    let app = TestApp::new().await;
    let mut browser = app.client();
    assert_eq!(browser.get("/setup").await.status, StatusCode::OK);
    let res = browser
        .post_form(
            "/setup",
            &[
                ("email", "root@club.org"),
                ("display_name", "Root"),
                ("password", "very-secret"),
            ],
        )
        .await;
    assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
    assert_eq!(browser.get("/admin").await.status, StatusCode::OK);
    let mut late = app.client();
    assert_eq!(late.get("/setup").await.status, StatusCode::FORBIDDEN);
    let again = late
        .post_form(
            "/setup",
            &[
                ("email", "evil@club.org"),
                ("display_name", "Evil"),
                ("password", "very-secret"),
            ],
        )
        .await;
    assert_eq!(again.status, StatusCode::FORBIDDEN);
}

#[actix_web::test]
async fn registration_by_invitation() {
    let app = TestApp::new().await;
    let mut admin = app.user("admin@club.org", Role::Admin).await;
    let res = admin
        .post_form("/admin/registration", &[("mode", "invitation")])
        .await;
    assert_eq!(res.status, StatusCode::SEE_OTHER);
    let page = admin
        .post_form("/admin/invitations", &[("email", "")])
        .await;
    let code = page.element_text("new-invitation").unwrap();

    let mut newcomer = app.client();
    let without = newcomer
        .post_form(
            "/register",
            &[
                ("email", "new@club.org"),
                ("display_name", "New"),
                ("password", "long-enough"),
            ],
        )
        .await;
    assert_eq!(without.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(without.body.contains("needs an invitation code"));
    let ok = newcomer
        .post_form(
            "/register",
            &[
                ("email", "new@club.org"),
                ("display_name", "New"),
                ("password", "long-enough"),
                ("invitation", &code),
            ],
        )
        .await;
    assert_eq!(ok.status, StatusCode::SEE_OTHER, "{}", ok.body);
    let mut second = app.client();
    let reused = second
        .post_form(
            "/register",
            &[
                ("email", "second@club.org"),
                ("display_name", "S"),
                ("password", "long-enough"),
                ("invitation", &code),
            ],
        )
        .await;
    assert_eq!(reused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(reused.body.contains("unknown or already used"));
}

#[actix_web::test]
async fn changing_the_password_ends_other_sessions() {
    let app = TestApp::new().await;
    let mut laptop = app.user("gina@club.org", Role::Player).await;
    let mut phone = app.client();
    phone.sign_in("gina@club.org", "password-123").await;
    let wrong = laptop
        .post_form(
            "/account/password",
            &[
                ("current_password", "nope"),
                ("new_password", "brand-new-pass"),
            ],
        )
        .await;
    assert_eq!(wrong.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(wrong.body.contains("is not your current password"));
    let ok = laptop
        .post_form(
            "/account/password",
            &[
                ("current_password", "password-123"),
                ("new_password", "brand-new-pass"),
            ],
        )
        .await;
    assert_eq!(ok.status, StatusCode::SEE_OTHER);
    assert_eq!(
        laptop.get("/account").await.status,
        StatusCode::OK,
        "this session stays"
    );
    assert_eq!(
        phone.get("/account").await.status,
        StatusCode::UNAUTHORIZED,
        "other sessions end"
    );
    let mut fresh = app.client();
    fresh.sign_in("gina@club.org", "brand-new-pass").await;
}

#[actix_web::test]
async fn language_from_accept_language_switch_and_account_setting() {
    let app = TestApp::new().await;
    let mut browser = app.client();
    let ru = browser
        .request(
            Method::GET,
            "/",
            None,
            &[("accept-language", "ru-RU,ru;q=0.9,en;q=0.5")],
        )
        .await;
    assert!(ru.body.contains("<html lang=\"ru\">"));
    assert!(ru.body.contains("Игроки"));
    let en = browser.get("/").await;
    assert!(en.body.contains("<html lang=\"en\">"));
    let switched = browser
        .post_form("/lang", &[("lang", "ru"), ("next", "/players")])
        .await;
    assert_eq!(switched.status, StatusCode::SEE_OTHER);
    assert_eq!(switched.location(), "/players");
    assert!(
        browser
            .get("/players")
            .await
            .body
            .contains("<html lang=\"ru\">")
    );
    let bad = browser.post_form("/lang", &[("lang", "xx")]).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);

    // The account setting wins over the browser's wishes.
    let mut user = app.user("hana@club.org", Role::Player).await;
    user.post_form("/account/language", &[("locale", "ru")])
        .await;
    user.cookies.remove("damka_lang");
    let page = user
        .request(Method::GET, "/account", None, &[("accept-language", "en")])
        .await;
    assert!(page.body.contains("<html lang=\"ru\">"));
    // Off-site `next` values are not followed.
    let evil = user
        .post_form(
            "/lang",
            &[("lang", "en"), ("next", "https://evil.example/")],
        )
        .await;
    assert_eq!(evil.location(), "/");
}

#[actix_web::test]
async fn language_switch_on_a_form_response_returns_to_the_form_page() {
    let app = TestApp::new().await;
    let mut user = app.user("ivy@club.org", Role::Player).await;
    let token = user.csrf_token().await;
    // A token without a name: the account page comes back with the error.
    let body = serde_urlencoded::to_string([("name", ""), ("csrf_token", token.as_str())]).unwrap();
    let page = user
        .request(
            Method::POST,
            "/account/tokens",
            Some(("application/x-www-form-urlencoded", body)),
            &[("referer", "http://localhost/account")],
        )
        .await;
    assert_eq!(
        page.hidden_input("next").as_deref(),
        Some("/account"),
        "not the POST-only /account/tokens"
    );
    // A Referer from another site is never used as the way back.
    let elsewhere = user
        .request(
            Method::POST,
            "/account/tokens",
            Some((
                "application/x-www-form-urlencoded",
                serde_urlencoded::to_string([("name", ""), ("csrf_token", token.as_str())])
                    .unwrap(),
            )),
            &[("referer", "https://evil.example/account")],
        )
        .await;
    assert_eq!(elsewhere.hidden_input("next").as_deref(), Some("/"));
}

/// Post/redirect/get: the new token is shown once, on the page the POST redirects to; a
/// reload shows it no more and makes no second token.
#[actix_web::test]
async fn a_new_api_token_is_shown_once_after_a_redirect() {
    let app = TestApp::new().await;
    let mut user = app.user("kim@club.org", Role::Player).await;
    let made = user
        .post_form("/account/tokens", &[("name", "scoreboard")])
        .await;
    assert_eq!(made.status.as_u16(), 303, "{}", made.body);
    assert_eq!(made.location(), "/account");
    assert!(
        !made.body.contains("dmk_"),
        "the POST response carries no token"
    );
    let set_cookie = made
        .headers
        .get_all("set-cookie")
        .map(|v| v.to_str().unwrap().to_string())
        .find(|c| c.starts_with("damka_new_token="))
        .expect("the token travels to the page in a cookie");
    assert!(set_cookie.contains("HttpOnly"), "{set_cookie}");
    assert!(set_cookie.contains("SameSite=Strict"), "{set_cookie}");
    assert!(set_cookie.contains("Path=/account"), "{set_cookie}");
    let shown = user.get("/account").await;
    let token = shown.element_text("new-token").expect("shown once");
    assert!(token.starts_with("dmk_"));
    // The token works.
    let me = app
        .client()
        .request(
            Method::GET,
            "/api/v1/me",
            None,
            &[("authorization", &format!("Bearer {token}"))],
        )
        .await;
    assert_eq!(me.status.as_u16(), 200, "{}", me.body);
    // A reload neither shows it again nor makes another one.
    let again = user.get("/account").await;
    assert!(again.element_text("new-token").is_none());
    assert!(!again.body.contains(&token));
    let listed = app
        .client()
        .request(
            Method::GET,
            "/api/v1/tokens",
            None,
            &[("authorization", &format!("Bearer {token}"))],
        )
        .await
        .json();
    assert_eq!(listed.as_array().unwrap().len(), 1);
    // A forged cookie naming somebody else's token id shows nothing.
    user.cookies
        .insert("damka_new_token".into(), "999.dmk_forged".into());
    let forged = user.get("/account").await;
    assert!(forged.element_text("new-token").is_none());
}
