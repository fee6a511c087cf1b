//! Sign-in limits and account credentials under concurrency and hostile input: attempts
//! counted atomically, forwarded headers trusted only from configured proxies, the
//! current-password check limited, API tokens revoked with the password, password length.
#![allow(clippy::unwrap_used)]
use crate::common;

use std::sync::{Arc, Barrier};

use actix_web::http::{Method, StatusCode};
use common::{Client, Response, Role, TestApp};
use damka::service::{AppError, accounts, auth, password_limits};
use damka::store::models::NewUser;
use damka::store::{self, DbPool, RetryPolicy};
use damka::web::client_address::TrustedProxies;

const SIMULTANEOUS: usize = 16;
const ROUNDS: usize = 30;
const RIGHT_PASSWORD: &str = "right-password";

/// A pool with one connection per simultaneous attempt, so that no attempt waits for
/// another to give its connection back.
fn wide_pool(db: &common::TestDatabase) -> DbPool {
    store::open(
        &db.url,
        SIMULTANEOUS as u32 + 1,
        RetryPolicy {
            attempts: 1,
            delay: std::time::Duration::ZERO,
        },
    )
    .unwrap()
}

/// Inserts an account directly with a hash made once (argon2 is slow; the loop is not).
fn insert_account(pool: &DbPool, email: &str, password_hash: &str) {
    store::accounts::insert_user(
        &mut pool.get().unwrap(),
        &NewUser {
            email,
            display_name: "Target",
            password_hash,
            is_admin: false,
            is_organiser: false,
            locale: None,
            player_id: None,
            created_at: store::now(),
        },
    )
    .unwrap();
}

/// Runs `SIMULTANEOUS` sign-ins at once from real threads, each on its own connection,
/// released together by a barrier; returns their outcomes.
fn simultaneous_sign_ins(
    pool: &DbPool,
    attempts: Vec<(String, &'static str, String)>,
) -> Vec<Result<(), AppError>> {
    let barrier = Arc::new(Barrier::new(attempts.len()));
    let threads: Vec<_> = attempts
        .into_iter()
        .map(|(email, password, client)| {
            let pool = pool.clone();
            let barrier = Arc::clone(&barrier);
            std::thread::spawn(move || {
                let mut conn = pool.get().unwrap();
                barrier.wait();
                accounts::sign_in(&mut conn, &email, password, &client).map(|_| ())
            })
        })
        .collect();
    threads.into_iter().map(|t| t.join().unwrap()).collect()
}

/// 15 wrong passwords and the right one, sent at the same moment, for a fresh account each
/// round: at most 5 (the per-account limit) wrong passwords are ever checked; the rest are
/// refused with 429 before any password comparison (the right one may be among them: a
/// burst of guesses blocks the account for everyone, as sequential guesses do).
#[test]
fn simultaneous_sign_ins_check_at_most_the_limit_of_passwords() {
    let db = common::TestDatabase::new();
    let pool = wide_pool(&db);
    let hash = auth::hash_password(RIGHT_PASSWORD).unwrap();
    let mut checked = 0;
    for round in 0..ROUNDS {
        let email = format!("target{round}@club.org");
        insert_account(&pool, &email, &hash);
        // One address per round, so that only the per-account limit is in play.
        let client = format!("10.1.{round}.1");
        let attempts = (0..SIMULTANEOUS)
            .map(|i| {
                let password = if i == SIMULTANEOUS / 2 {
                    RIGHT_PASSWORD
                } else {
                    "wrong-password"
                };
                (email.clone(), password, client.clone())
            })
            .collect();
        let outcomes = simultaneous_sign_ins(&pool, attempts);
        let wrong = outcomes
            .iter()
            .filter(|o| matches!(o, Err(AppError::BadCredentials)))
            .count();
        let refused = outcomes
            .iter()
            .filter(|o| matches!(o, Err(AppError::TooManyAttempts { .. })))
            .count();
        let signed_in = outcomes.iter().filter(|o| o.is_ok()).count();
        assert_eq!(
            wrong + refused + signed_in,
            SIMULTANEOUS,
            "round {round}: unexpected outcomes {outcomes:?}"
        );
        assert!(
            wrong as i64 <= password_limits::MAX_FAILURES_PER_ACCOUNT,
            "round {round}: {wrong} wrong passwords were checked ({signed_in} signed in, {refused} refused)"
        );
        checked += wrong + signed_in;
    }
    // A round may refuse all of its attempts (when all are recorded before any is counted),
    // but a limit that never lets a password be checked would be no sign-in at all.
    assert!(checked > 0, "no password was checked in {ROUNDS} rounds");
}

/// Signs in with a wrong password for `email`, the request saying `X-Forwarded-For: hops`.
async fn wrong_sign_in(client: &mut Client<'_>, email: &str, hops: &str) -> Response {
    client.headers.retain(|(name, _)| name != "x-forwarded-for");
    client.headers.push(("x-forwarded-for".into(), hops.into()));
    client
        .post_form("/login", &[("email", email), ("password", "wrong-guess")])
        .await
}

/// Uses up the per-address limit with wrong passwords for different accounts (so that
/// no account reaches its own limit), the forged left part of the header changing each time.
async fn exhaust_address_limit(client: &mut Client<'_>, hops_after_forged: &str) {
    for i in 0..password_limits::MAX_FAILURES_PER_ADDRESS {
        let hops = format!("192.0.2.{i}{hops_after_forged}");
        let res = wrong_sign_in(client, &format!("guess{i}@club.org"), &hops).await;
        assert_eq!(
            res.status,
            StatusCode::UNAUTHORIZED,
            "attempt {i}: {}",
            res.body
        );
    }
}

/// Without `--trusted-proxy`, `X-Forwarded-For` is anybody's text: a client that writes a
/// new address into it each time is still counted at its TCP address.
#[actix_web::test]
async fn forwarded_for_from_an_untrusted_peer_does_not_evade_the_address_limit() {
    let app = TestApp::new().await;
    let mut attacker = app.client().coming_from("203.0.113.5:40000");
    exhaust_address_limit(&mut attacker, "").await;
    let blocked = wrong_sign_in(&mut attacker, "another@club.org", "192.0.2.250").await;
    assert_eq!(
        blocked.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        blocked.body
    );
    assert!(blocked.headers.contains_key("retry-after"));
    // Another address is not affected.
    let mut neighbour = app.client().coming_from("203.0.113.6:40000");
    let res = wrong_sign_in(&mut neighbour, "another@club.org", "192.0.2.250").await;
    assert_eq!(res.status, StatusCode::UNAUTHORIZED, "{}", res.body);
}

/// Behind a trusted proxy the client is the right-most `X-Forwarded-For` address that is not
/// a trusted proxy; what the client wrote to the left of it changes nothing.
#[actix_web::test]
async fn behind_a_trusted_proxy_the_forwarded_client_is_limited() {
    let mut app = TestApp::new().await;
    app.state.trusted_proxies = TrustedProxies::parse(&["10.0.0.0/8"]).unwrap();
    let mut through_proxy = app.client().coming_from("10.0.0.1:50000");
    exhaust_address_limit(&mut through_proxy, ", 198.51.100.7, 10.0.0.2").await;
    let blocked = wrong_sign_in(&mut through_proxy, "another@club.org", "198.51.100.7").await;
    assert_eq!(
        blocked.status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        blocked.body
    );
    // Other clients of the same proxy are not blocked with it.
    let res = wrong_sign_in(&mut through_proxy, "another@club.org", "198.51.100.8").await;
    assert_eq!(res.status, StatusCode::UNAUTHORIZED, "{}", res.body);
}

fn set_cookie(res: &Response, name: &str) -> String {
    res.headers
        .get_all("set-cookie")
        .map(|v| v.to_str().unwrap().to_string())
        .find(|c| c.starts_with(&format!("{name}=")))
        .unwrap_or_else(|| panic!("no {name} cookie set"))
}

/// Cookies are marked Secure on `X-Forwarded-Proto: https` only when a trusted proxy says it.
#[actix_web::test]
async fn forwarded_proto_is_believed_only_from_a_trusted_proxy() {
    let mut app = TestApp::new().await;
    app.state.trusted_proxies = TrustedProxies::parse(&["10.0.0.1"]).unwrap();
    let https = [("x-forwarded-proto", "https")];
    let mut direct = app.client().coming_from("203.0.113.5:40000");
    let res = direct.request(Method::GET, "/login", None, &https).await;
    assert!(!set_cookie(&res, "damka_csrf").contains("Secure"));
    let mut proxied = app.client().coming_from("10.0.0.1:50000");
    let res = proxied.request(Method::GET, "/login", None, &https).await;
    assert!(set_cookie(&res, "damka_csrf").contains("Secure"));
}

async fn change_password(browser: &mut Client<'_>, current: &str, new: &str) -> Response {
    browser
        .post_form(
            "/account/password",
            &[("current_password", current), ("new_password", new)],
        )
        .await
}

/// The current password on the password form is guessed no faster than at sign-in: the
/// same per-account failures count, then 429 with Retry-After even for the right one.
#[actix_web::test]
async fn the_current_password_check_is_limited_like_sign_in() {
    let app = TestApp::new().await;
    let mut browser = app.user("lena@club.org", Role::Player).await;
    for i in 0..password_limits::MAX_FAILURES_PER_ACCOUNT {
        let res = change_password(&mut browser, &format!("guess-{i}"), "brand-new-pass").await;
        assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
        assert!(res.body.contains("is not your current password"));
    }
    let blocked = change_password(&mut browser, "password-123", "brand-new-pass").await;
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
    assert!(retry > 0 && retry <= 15 * 60, "{retry}");
    // The same account's sign-in is blocked too: one count of failures per account.
    let res = app
        .client()
        .post_form(
            "/login",
            &[("email", "lena@club.org"), ("password", "password-123")],
        )
        .await;
    assert_eq!(res.status, StatusCode::TOO_MANY_REQUESTS, "{}", res.body);
    // The password was not changed.
    let hash = app
        .with_db(|conn| {
            let user = store::accounts::user_by_email(conn, "lena@club.org")
                .unwrap()
                .unwrap();
            store::accounts::password_hash_of(conn, user.id).unwrap()
        })
        .await
        .unwrap();
    assert!(auth::verify_password("password-123", &hash));
}

/// A password change revokes the account's API tokens (they were made under the old
/// password, which may be known to someone else); the other sessions end as before.
#[actix_web::test]
async fn changing_the_password_revokes_the_api_tokens() {
    let app = TestApp::new().await;
    let mut browser = app.user("mona@club.org", Role::Player).await;
    let mut api = browser.api_client().await;
    assert_eq!(api.get("/api/v1/me").await.status, StatusCode::OK);
    let res = change_password(&mut browser, "password-123", "brand-new-pass").await;
    assert_eq!(res.status, StatusCode::SEE_OTHER, "{}", res.body);
    let refused = api.get("/api/v1/me").await;
    refused.assert_problem(401, "unauthenticated");
    let page = browser.get("/account").await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        !page.body.contains("/account/tokens/"),
        "no token is listed"
    );
    assert!(
        page.body.contains("your API tokens revoked"),
        "the flash says so: {}",
        page.body
    );
}

/// The page that shows a new API token, and the API answer that carries one, are never
/// stored by a browser or a proxy cache.
#[actix_web::test]
async fn a_new_api_token_is_never_cached() {
    let app = TestApp::new().await;
    let mut browser = app.user("nina@club.org", Role::Player).await;
    let made = browser
        .post_form("/account/tokens", &[("name", "scoreboard")])
        .await;
    assert_eq!(made.status, StatusCode::SEE_OTHER, "{}", made.body);
    let shown = browser.get("/account").await;
    assert!(shown.element_text("new-token").is_some());
    assert_eq!(shown.headers.get("cache-control").unwrap(), "no-store");
    let mut api = browser.api_client().await;
    let created = api
        .json(
            Method::POST,
            "/api/v1/tokens",
            serde_json::json!({"name": "second"}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
    assert_eq!(created.headers.get("cache-control").unwrap(), "no-store");
}

/// Too long a password is refused with the real limit named, in both languages, at
/// registration and on the password form (which said "at least 8 characters").
#[actix_web::test]
async fn too_long_a_password_is_refused_naming_the_maximum() {
    let app = TestApp::new().await;
    let long = "x".repeat(300);
    let mut browser = app.client();
    let res = browser
        .post_form(
            "/register",
            &[
                ("email", "olga@club.org"),
                ("display_name", "Olga"),
                ("password", &long),
            ],
        )
        .await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    assert!(
        res.body
            .contains("class=\"field-error\">must be at most 256 characters long"),
        "{}",
        res.body
    );
    let mut member = app.user("olga@club.org", Role::Player).await;
    let res = change_password(&mut member, "password-123", &long).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    assert!(
        res.body.contains("must be at most 256 characters long"),
        "{}",
        res.body
    );
    assert!(!res.body.contains("at least"), "{}", res.body);
    member.cookies.insert("damka_lang".into(), "ru".into());
    let res = change_password(&mut member, "password-123", &long).await;
    assert!(res.body.contains("не длиннее 256 символов"), "{}", res.body);
    // Still the old password: nothing was changed.
    app.client().sign_in("olga@club.org", "password-123").await;
}
