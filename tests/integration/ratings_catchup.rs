//! The ratings' catch-up (issue 31): a change that reaches far back is taken in window by
//! window after the write has answered; pages and the API say so meanwhile; instances on
//! one PostgreSQL never refold the same window twice.
#![allow(clippy::unwrap_used)]
use crate::common::{self, TestApp, organiser_api};
use damka::service::ratings::{recompute, refold, worker};
use damka::store::{DbConn, rating_catchup, settings};
use damka_engine::Variant;
use serde_json::Value;

/// Runs the worker's windows until no variant is behind, as its thread would.
fn let_the_worker_finish(conn: &mut DbConn) {
    for _ in 0..10_000 {
        if rating_catchup::behind(conn).unwrap().is_empty() {
            return;
        }
        worker::run_once(conn).unwrap();
    }
    panic!("the catch-up never ends");
}

/// A rated round-robin of four with its first round's results, entered with windows of
/// one result, so the second result leaves the variant behind.
async fn behind_after_two_results(app: &TestApp) -> Vec<i64> {
    app.with_db(|conn| settings::set(conn, refold::SETTING_WINDOW_RESULTS, "1").unwrap())
        .await;
    let mut org = organiser_api(app, "org@t.org").await;
    let event = common::create_event(
        &mut org,
        serde_json::json!({"name": "Club cup", "system": "round_robin"}),
    )
    .await;
    common::enter_players(&mut org, event, 4).await;
    common::play_round(&mut org, event, &["1-0", "1/2-1/2"]).await;
    let entries = org
        .get(&format!("/api/v1/events/{event}/entries"))
        .await
        .json();
    entries
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["player_id"].as_i64().unwrap())
        .collect()
}

#[actix_web::test]
async fn pages_and_the_api_say_the_ratings_are_being_updated_until_the_worker_is_done() {
    let app = TestApp::new().await;
    let players = behind_after_two_results(&app).await;
    let mut public = app.client();

    let api = public
        .get("/api/v1/ratings?variant=russian&system=glicko2")
        .await;
    assert_eq!(api.status.as_u16(), 200, "{}", api.body);
    assert!(api.json()["updating_since"].is_string(), "{}", api.body);
    let page = public.get("/ratings?variant=russian&system=glicko2").await;
    assert!(
        page.body.contains("id=\"ratings-updating\""),
        "{}",
        page.body
    );
    assert!(page.body.contains("Ratings are being updated"));
    let profile = public.get(&format!("/players/{}", players[0])).await;
    assert!(
        profile.body.contains("id=\"ratings-updating-russian\""),
        "{}",
        profile.body
    );
    let mut russian = app.client();
    russian
        .cookies
        .insert(damka::web::cookies::LANG.to_string(), "ru".to_string());
    let page = russian.get("/ratings?variant=russian&system=glicko2").await;
    assert!(
        page.body.contains("Рейтинги пересчитываются"),
        "{}",
        page.body
    );

    app.with_db(|conn| {
        let_the_worker_finish(conn);
        assert!(recompute::check(conn, Variant::Russian).unwrap().is_empty());
    })
    .await;
    let api = public
        .get("/api/v1/ratings?variant=russian&system=glicko2")
        .await;
    assert_eq!(api.json()["updating_since"], Value::Null);
    let page = public.get("/ratings?variant=russian&system=glicko2").await;
    assert!(!page.body.contains("ratings-updating"), "{}", page.body);
    let profile = public.get(&format!("/players/{}", players[0])).await;
    assert!(!profile.body.contains("ratings-updating"));
}

/// While one instance refolds a window of a variant, another's worker skips the variant
/// (PostgreSQL `FOR UPDATE SKIP LOCKED`) instead of refolding it too or waiting; and
/// workers of two instances racing over a long catch-up leave exactly a recompute.
#[actix_web::test]
async fn two_instances_never_refold_the_same_window() {
    if !common::uses_postgres() {
        eprintln!("skipped: PostgreSQL's row locks only (the PostgreSQL run covers it)");
        return;
    }
    let app = TestApp::new().await;
    behind_after_two_results(&app).await;
    let pool = app.pool.clone();
    for attempt in 0..20 {
        let holder_pool = pool.clone();
        let (claimed_tx, claimed_rx) = std::sync::mpsc::channel();
        let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
        let holder = std::thread::spawn(move || {
            let mut conn = holder_pool.get().unwrap();
            conn.write_transaction(|conn| {
                let claimed = rating_catchup::claim(conn, Variant::Russian, false)?;
                claimed_tx.send(claimed.is_some()).unwrap();
                release_rx.recv().unwrap();
                diesel::QueryResult::Ok(())
            })
            .unwrap();
        });
        assert!(claimed_rx.recv().unwrap(), "try {attempt}: the first claim");
        let other = actix_web::rt::task::spawn_blocking({
            let pool = pool.clone();
            move || refold::step(&mut pool.get().unwrap(), Variant::Russian, false).unwrap()
        })
        .await
        .unwrap();
        assert_eq!(other, refold::CatchUp::Busy, "try {attempt}");
        release_tx.send(()).unwrap();
        holder.join().unwrap();
    }
    // Two workers race to the end: every window is taken by one of them.
    let workers: Vec<_> = (0..2)
        .map(|_| {
            let pool = pool.clone();
            std::thread::spawn(move || {
                let mut conn = pool.get().unwrap();
                for _ in 0..10_000 {
                    if rating_catchup::behind(&mut conn).unwrap().is_empty() {
                        return;
                    }
                    worker::run_once(&mut conn).unwrap();
                }
                panic!("the catch-up never ends");
            })
        })
        .collect();
    for worker in workers {
        worker.join().unwrap();
    }
    app.with_db(|conn| {
        assert!(recompute::check(conn, Variant::Russian).unwrap().is_empty());
    })
    .await;
}
