//! Issue 30's proof of pages: 5,000 profiles paged through `GET /api/v1/players?limit=200`
//! while another task keeps inserting profiles that sort before, among and after them:
//! every one of the 5,000 appears exactly once, no item twice, all in the list's order.
//! Also: an anonymous request without `limit` gets one page of 50 and a cursor.
#![allow(clippy::unwrap_used)]
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{Client, TestApp};
use damka::store::models::PlayerFields;

const PROFILES: usize = 5_000;

/// A profile named `name`, straight into the store (5,000 through the API would take far
/// longer than the test may).
fn fields(name: String) -> PlayerFields {
    PlayerFields {
        name,
        club_id: None,
        country: String::new(),
        federation_id: String::new(),
        birth_year: None,
        title: String::new(),
    }
}

/// Inserts profiles with these names, a few hundred rows a statement, in one transaction;
/// their ids. Batch inserts need the backend's own connection (diesel's MultiConnection
/// writes one row at a time, and 5,000 of those take seconds in a debug build).
pub(crate) async fn insert(app: &TestApp, names: Vec<String>) -> Vec<i64> {
    use damka::store::DbConn;
    use damka::store::schema::players;
    use diesel::prelude::*;
    macro_rules! batches {
        ($conn:expr) => {
            $conn.transaction::<_, diesel::result::Error, _>(|conn| {
                let now = damka::store::now();
                let mut ids = Vec::new();
                for chunk in names.chunks(500) {
                    let rows: Vec<_> = chunk
                        .iter()
                        .map(|name| (fields(name.clone()), players::created_at.eq(now)))
                        .collect();
                    ids.extend(
                        diesel::insert_into(players::table)
                            .values(rows)
                            .returning(players::id)
                            .get_results::<i64>(conn)?,
                    );
                }
                Ok(ids)
            })
        };
    }
    app.with_db(move |conn| {
        match conn {
            DbConn::Sqlite(conn) => batches!(conn),
            DbConn::Pg(conn) => batches!(conn),
        }
        .unwrap()
    })
    .await
}

/// The names sort the same under SQLite's binary order and PostgreSQL's collations:
/// letters then digits of one length, no spaces or punctuation (which a locale's order
/// skips). The originals take the even numbers; the latecomers come before them (`Aa`),
/// after them (`Zz`), between them (odd numbers) and as twins of an original (the same
/// name, a later id: only the id's tie-break orders them).
fn original(i: usize) -> String {
    format!("Pl{:05}", 2 * i)
}

fn latecomers(batch: usize) -> Vec<String> {
    // A cheap spread over the originals' range that differs from batch to batch.
    let spot = (batch * 7_919) % PROFILES;
    vec![
        format!("Aa{batch:05}"),
        format!("Zz{batch:05}"),
        format!("Pl{:05}", 2 * spot + 1),
        original((spot + PROFILES / 2) % PROFILES),
    ]
}

/// (name, id) of a listed profile: the list's order.
fn key(item: &Value) -> (String, i64) {
    (
        item["name"].as_str().unwrap().to_string(),
        item["id"].as_i64().unwrap(),
    )
}

/// Waits (with a deadline) until the inserting task has written another batch, so that
/// every page is read with new rows behind and ahead of the cursor.
async fn another_batch(written: &AtomicUsize, seen: usize) -> usize {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let now = written.load(Ordering::SeqCst);
        if now > seen {
            return now;
        }
        assert!(Instant::now() < deadline, "the inserting task stopped");
        actix_web::rt::task::yield_now().await;
    }
}

/// Follows `next_cursor` from the first page to the last; the items in the order served.
async fn page_through(api: &mut Client<'_>, written: &AtomicUsize) -> (Vec<Value>, usize) {
    let mut items = Vec::new();
    let mut cursor: Option<String> = None;
    let mut pages = 0;
    let mut seen = 0;
    loop {
        let path = match &cursor {
            None => "/api/v1/players?limit=200".to_string(),
            Some(cursor) => format!("/api/v1/players?limit=200&cursor={cursor}"),
        };
        let page = api.get(&path).await;
        assert_eq!(page.status.as_u16(), 200, "{}", page.body);
        let page = page.json();
        let got = page["items"].as_array().unwrap();
        assert!(got.len() <= 200, "a page of {}", got.len());
        items.extend(got.iter().cloned());
        pages += 1;
        match page["next_cursor"].as_str() {
            Some(next) => cursor = Some(next.to_string()),
            None => return (items, pages),
        }
        seen = another_batch(written, seen).await;
    }
}

#[actix_web::test]
async fn five_thousand_profiles_page_once_each_under_concurrent_inserts() {
    let app = TestApp::new().await;
    let started = Instant::now();
    let originals = insert(&app, (0..PROFILES).map(original).collect()).await;
    eprintln!("{PROFILES} profiles inserted in {:?}", started.elapsed());

    // Anonymous, no limit: one page of 50 and the way on.
    let first = app.client().get("/api/v1/players").await.json();
    assert_eq!(first["items"].as_array().unwrap().len(), 50);
    assert!(first["next_cursor"].as_str().is_some_and(|c| !c.is_empty()));
    assert_eq!(first["items"][0]["name"], original(0));

    let done = Arc::new(AtomicBool::new(false));
    let written = Arc::new(AtomicUsize::new(0));
    let inserter = {
        let (done, written) = (done.clone(), written.clone());
        let app = &app;
        async move {
            let mut batch = 0;
            while !done.load(Ordering::SeqCst) {
                insert(app, latecomers(batch)).await;
                batch += 1;
                written.store(batch, Ordering::SeqCst);
            }
            batch
        }
    };
    let paging = async {
        let mut api = app.client();
        let walked = page_through(&mut api, &written).await;
        done.store(true, Ordering::SeqCst);
        walked
    };
    let started = Instant::now();
    let ((items, pages), batches) = tokio::join!(paging, inserter);
    eprintln!(
        "{pages} pages, {} items, {batches} batches of latecomers, in {:?}",
        items.len(),
        started.elapsed()
    );

    let keys: Vec<(String, i64)> = items.iter().map(key).collect();
    for pair in keys.windows(2) {
        assert!(pair[0] < pair[1], "out of order or twice: {pair:?}");
    }
    let mut listed: Vec<i64> = keys.iter().map(|(_, id)| *id).collect();
    listed.sort_unstable();
    listed.dedup();
    assert_eq!(listed.len(), keys.len(), "an item was listed twice");
    for id in &originals {
        assert!(listed.binary_search(id).is_ok(), "profile {id} was skipped");
    }
    // A search that matches nothing reads the whole list, a batch at a time, and says so.
    let started = Instant::now();
    let nobody = app.client().get("/api/v1/players?q=nobody").await.json();
    eprintln!("a search through every profile in {:?}", started.elapsed());
    assert_eq!(
        nobody,
        serde_json::json!({"items": [], "next_cursor": null})
    );
    let last = app
        .client()
        .get(&format!("/api/v1/players?q={}", original(PROFILES - 1)))
        .await;
    assert_eq!(last.json()["items"][0]["id"], originals[PROFILES - 1]);
    assert!(pages > PROFILES / 200, "{pages} pages");
    assert!(batches >= pages - 1, "{batches} batches for {pages} pages");
}
