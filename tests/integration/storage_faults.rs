//! A database that cannot store (issue 30, item 4): a full disk, a read-only database, a
//! stopped PostgreSQL. Writes answer 503 with exactly one `Retry-After` (problem+json for
//! scripts, a page in the reader's language for browsers), nothing half-written stays,
//! reads go on where the storage allows, and the service recovers by itself once the
//! storage is back: no restart, no acknowledged write lost.
#![allow(clippy::unwrap_used, clippy::expect_used)]
use std::time::{Duration, Instant};

use actix_web::http::Method;
use damka::store::{DatabaseUrl, DbManager};
use diesel::connection::SimpleConnection;
use serde_json::json;

use crate::common::private_postgres::PrivatePostgres;
use crate::common::tmpfs::Tmpfs;
use crate::common::{self, Client, Response, Role, TestApp, TestDatabase};

/// How long a recovery may take before the test calls it missing.
const RECOVERY: Duration = Duration::from_secs(60);

async fn create_player(api: &mut Client<'_>, name: &str) -> Response {
    api.json(Method::POST, "/api/v1/players", json!({ "name": name }))
        .await
}

fn created_id(created: &Response) -> i64 {
    assert_eq!(created.status.as_u16(), 201, "{}", created.body);
    created.json()["id"].as_i64().unwrap()
}

fn assert_one_retry_after(res: &Response) {
    assert_eq!(
        res.headers.get_all("retry-after").count(),
        1,
        "{:?}",
        res.headers
    );
}

/// A 503 page for a browser that reads Russian: the page, its title in Russian.
fn assert_russian_503_page(page: &Response, title: &str) {
    assert_eq!(page.status.as_u16(), 503, "{}", page.body);
    assert!(
        page.content_type().starts_with("text/html"),
        "{:?}",
        page.headers
    );
    assert!(page.body.contains(title), "{}", page.body);
    assert_one_retry_after(page);
}

/// Creates the player `name` again and again until it is stored (every other answer on
/// the way must be a clean 503); returns its id.
async fn create_once_recovered(api: &mut Client<'_>, name: &str, code: &str) -> i64 {
    let deadline = Instant::now() + RECOVERY;
    loop {
        let res = create_player(api, name).await;
        if res.status.as_u16() == 201 {
            return created_id(&res);
        }
        res.assert_refusal(503, code);
        assert!(
            Instant::now() < deadline,
            "still refused after {RECOVERY:?}: {}",
            res.body
        );
        actix_web::rt::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn assert_stored(api: &mut Client<'_>, id: i64, name: &str) {
    let got = api.get(&format!("/api/v1/players/{id}")).await;
    assert_eq!(got.status.as_u16(), 200, "{}", got.body);
    assert_eq!(got.json()["name"], name, "{}", got.body);
}

async fn assert_not_stored(api: &mut Client<'_>, name: &str) {
    let listed = api.get("/api/v1/players").await;
    assert_eq!(listed.status.as_u16(), 200, "{}", listed.body);
    assert!(
        !listed.body.contains(name),
        "{name} was stored: {}",
        listed.body
    );
}

/// SQLite on a full disk: its commit fails with SQLITE_FULL (and SQLite rolls it back).
#[actix_web::test]
async fn a_full_disk_refuses_writes_with_503_and_recovers_when_space_returns() {
    if common::uses_postgres() {
        eprintln!("skipped: a full disk under SQLite (the SQLite run covers it)");
        return;
    }
    let test = "a_full_disk_refuses_writes_with_503_and_recovers_when_space_returns";
    let Some(tmpfs) = Tmpfs::mount_or_skip(test, "8m") else {
        return;
    };
    // Declared after the mount, so dropped (its files closed) before the unmount.
    let app = TestApp::on(TestDatabase::sqlite_in(tmpfs.path())).await;
    let mut api = common::organiser_api(&app, "org@example.org").await;
    let mut browser = app.user("reader@example.org", Role::Organiser).await;
    browser
        .headers
        .push(("accept-language".into(), "ru".into()));
    let before = created_id(&create_player(&mut api, "Before Full").await);
    // An empty write-ahead log, so that the next commit has to grow it.
    app.with_db(|conn| {
        conn.batch_execute("PRAGMA wal_checkpoint(TRUNCATE)")
            .unwrap()
    })
    .await;
    let filler = tmpfs.fill();

    let refused = create_player(&mut api, "During Full").await;
    refused.assert_refusal(503, "storage_unavailable");
    assert_one_retry_after(&refused);
    let page = browser.post_form("/players", &[("name", "Во время")]).await;
    assert_russian_503_page(&page, "Хранилище недоступно");
    assert!(page.body.contains("закончилось место"), "{}", page.body);
    // Reading needs no room.
    assert_stored(&mut api, before, "Before Full").await;
    let list = browser.get("/players").await;
    assert_eq!(list.status.as_u16(), 200, "{}", list.body);

    std::fs::remove_file(&filler).unwrap();
    let after = create_once_recovered(&mut api, "After Full", "storage_unavailable").await;
    assert_stored(&mut api, before, "Before Full").await;
    assert_stored(&mut api, after, "After Full").await;
    assert_not_stored(&mut api, "During Full").await;
    assert_not_stored(&mut api, "Во время").await;
    // The page form works again too.
    let saved = browser.post_form("/players", &[("name", "После")]).await;
    assert_eq!(saved.status.as_u16(), 303, "{}", saved.body);
}

/// A SQLite database opened read-only (its file or folder not writable by the service):
/// SQLITE_READONLY on every write.
#[actix_web::test]
async fn a_read_only_database_refuses_writes_with_503_storage_unavailable() {
    if common::uses_postgres() {
        eprintln!("skipped: a read-only SQLite file (the SQLite run covers it)");
        return;
    }
    let app = TestApp::new().await;
    let mut api = common::organiser_api(&app, "org@example.org").await;
    let browser = app.user("writer@example.org", Role::Organiser).await;
    let stored = created_id(&create_player(&mut api, "Stored").await);
    let read_only_url = format!("sqlite://file:{}?mode=ro", app.db.url.target);
    let pool = diesel::r2d2::Pool::builder()
        .max_size(2)
        .build(DbManager::new(DatabaseUrl::parse(&read_only_url).unwrap()))
        .unwrap();
    let read_only = TestApp::on_pool(TestDatabase::at(&read_only_url), pool).await;
    let mut ro_api = Client {
        app: &read_only,
        cookies: Default::default(),
        headers: api.headers.clone(),
    };
    let refused = create_player(&mut ro_api, "Refused").await;
    refused.assert_refusal(503, "storage_unavailable");
    assert_one_retry_after(&refused);
    // The same browser session, through the read-only way in.
    let mut ro_browser = Client {
        app: &read_only,
        cookies: browser.cookies.clone(),
        headers: vec![("accept-language".into(), "ru".into())],
    };
    let page = ro_browser
        .post_form("/players", &[("name", "Отказано")])
        .await;
    assert_russian_503_page(&page, "Хранилище недоступно");
    assert_stored(&mut ro_api, stored, "Stored").await;
    assert_not_stored(&mut api, "Refused").await;
    assert_not_stored(&mut api, "Отказано").await;
}

/// A PostgreSQL server stopped under the service (a private one: the machine's shared
/// server is never stopped), then started again.
#[actix_web::test]
async fn a_stopped_postgres_answers_503_with_one_retry_after_and_recovers() {
    if !common::uses_postgres() {
        eprintln!("a_stopped_postgres_answers_503: runs in the PostgreSQL suite");
        return;
    }
    let Some(postgres) = PrivatePostgres::start() else {
        return;
    };
    let app = TestApp::on(TestDatabase::at(&postgres.url())).await;
    let mut api = common::organiser_api(&app, "org@example.org").await;
    let mut browser = app.client();
    browser
        .headers
        .push(("accept-language".into(), "ru".into()));
    let before = created_id(&create_player(&mut api, "Before Stop").await);

    postgres.stop();
    let refused = create_player(&mut api, "During Stop").await;
    refused.assert_refusal(503, "unavailable");
    assert_one_retry_after(&refused);
    let page = browser.get("/players").await;
    assert_russian_503_page(&page, "Временно недоступно");

    postgres.pg_ctl_start();
    let after = create_once_recovered(&mut api, "After Stop", "unavailable").await;
    assert_stored(&mut api, before, "Before Stop").await;
    assert_stored(&mut api, after, "After Stop").await;
    assert_not_stored(&mut api, "During Stop").await;
}
