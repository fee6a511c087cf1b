//! `damka ratings recompute [--check] --database-url URL` against the test run's database:
//! `--check` passes on ratings kept by the service, fails listing the difference after a
//! stored rating is tampered with (and changes nothing), and a recompute repairs it.
#![allow(clippy::unwrap_used)]
use std::process::{Command, Output};

use diesel::prelude::*;

use crate::common::{Role, TestApp};
use crate::ratings_property::{Dice, make_players, play_event};
use damka::service::Actor;
use damka::store::{Backend, accounts};
use damka_domain::vocabulary::System;

fn damka(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_damka"))
        .args(args)
        .env("DAMKA_DB_RETRY_ATTEMPTS", "1")
        .output()
        .expect("damka runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[actix_web::test]
async fn check_finds_a_tampered_rating_and_recompute_repairs_it() {
    let app = TestApp::new().await;
    app.user("admin@t.org", Role::Admin).await;
    let url = match app.db.url.backend {
        Backend::Sqlite => format!("sqlite://{}", app.db.url.target),
        Backend::Postgres => app.db.url.target.clone(),
    };
    let player = app
        .with_db(|conn| {
            let admin = Actor::signed_in(
                accounts::user_by_email(conn, "admin@t.org")
                    .unwrap()
                    .unwrap(),
            );
            let people = make_players(conn, 6);
            play_event(conn, &admin, &people, System::RoundRobin, 5, &mut Dice(7));
            people[0]
        })
        .await;

    let clean = damka(&["ratings", "recompute", "--check", "--database-url", &url]);
    assert_eq!(clean.status.code(), Some(0), "{}", text(&clean.stderr));
    assert!(text(&clean.stdout).is_empty(), "{}", text(&clean.stdout));
    assert!(text(&clean.stderr).contains("russian: the stored ratings are exactly a recompute"));

    // Someone edits a stored Glicko-2 rating by hand.
    let tampered = app
        .with_db(move |conn| {
            use damka::store::schema::ratings::dsl::*;
            diesel::update(
                ratings
                    .filter(player_id.eq(player))
                    .filter(system.eq("glicko2")),
            )
            .set(rating.eq(rating + 1.0))
            .execute(conn)
            .unwrap()
        })
        .await;
    assert_eq!(tampered, 1);
    let found = damka(&["ratings", "recompute", "--check", "--database-url", &url]);
    assert_eq!(found.status.code(), Some(1), "{}", text(&found.stderr));
    let listed = text(&found.stdout);
    assert_eq!(listed.lines().count(), 1, "{listed}");
    assert!(
        listed.starts_with(&format!("russian: player {player} glicko2: stored rating ")),
        "{listed}"
    );
    // --check changed nothing: the difference is still there.
    let again = damka(&["ratings", "recompute", "--check", "--database-url", &url]);
    assert_eq!(again.status.code(), Some(1));

    let rebuilt = damka(&["ratings", "recompute", "--database-url", &url]);
    assert_eq!(rebuilt.status.code(), Some(0), "{}", text(&rebuilt.stderr));
    assert!(text(&rebuilt.stdout).contains("russian: 1 ratings or histories rewritten"));
    // Progress on standard error: what was read, what was computed.
    let progress = text(&rebuilt.stderr);
    assert!(
        progress.contains("russian: ") && progress.contains("counted results read"),
        "{progress}"
    );
    assert!(progress.contains("history steps"), "{progress}");
    let after = damka(&["ratings", "recompute", "--check", "--database-url", &url]);
    assert_eq!(after.status.code(), Some(0), "{}", text(&after.stdout));

    // A step of a history edited by hand: found by --check, repaired by a rebuild.
    let edited = app
        .with_db(move |conn| {
            use damka::store::schema::rating_changes::dsl::*;
            diesel::update(
                rating_changes
                    .filter(player_id.eq(player))
                    .filter(system.eq("glicko2"))
                    .filter(seq.eq(1)),
            )
            .set(games.eq(games + 100))
            .execute(conn)
            .unwrap()
        })
        .await;
    assert_eq!(edited, 1);
    let found = damka(&["ratings", "recompute", "--check", "--database-url", &url]);
    assert_eq!(found.status.code(), Some(1));
    assert!(
        text(&found.stdout).contains(&format!(
            "russian: player {player} glicko2: history differs from step 1"
        )),
        "{}",
        text(&found.stdout)
    );
    let rebuilt = damka(&["ratings", "recompute", "--database-url", &url]);
    assert_eq!(rebuilt.status.code(), Some(0));
    let after = damka(&["ratings", "recompute", "--check", "--database-url", &url]);
    assert_eq!(after.status.code(), Some(0), "{}", text(&after.stdout));

    // A variant that is none is refused with its name.
    let bad = damka(&[
        "ratings",
        "recompute",
        "--variant",
        "checkers",
        "--database-url",
        &url,
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("checkers"));
}
