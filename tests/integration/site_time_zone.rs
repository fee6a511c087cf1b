//! The site's time zone (issue 27 item 8): an administrator sets it on the administration
//! page or through the API; pages then show times on that clock with its offset beside
//! them, and the API keeps answering in UTC.
#![allow(clippy::unwrap_used)]
use crate::common::{GameBuilder, Role, TestApp};

use actix_web::http::Method;
use chrono::{DateTime, Duration, Offset, Utc};
use serde_json::json;

/// `HH:MM (label)` of a UTC time moved by `hours`.
fn wall_clock(at: &DateTime<Utc>, hours: i64, label: &str) -> String {
    format!(
        "{} ({label})",
        (*at + Duration::hours(hours)).format("%H:%M")
    )
}

#[actix_web::test]
async fn pages_show_times_on_the_sites_clock_with_its_offset() {
    let app = TestApp::new().await;
    let mut built = GameBuilder::russian().at_ply(2).build(&app).await;
    let game_page = format!("/games/{}", built.id);
    let moves = built
        .white
        .get(&format!("/api/v1/games/{}", built.id))
        .await
        .json();
    let first: DateTime<Utc> = moves["moves"][0]["played_at"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();

    // Until an administrator chooses, the clock is UTC.
    let page = built.white.get(&game_page).await;
    assert!(
        page.body.contains(&wall_clock(&first, 0, "UTC")),
        "{}",
        page.body
    );

    let mut admin = app.user("admin@t.org", Role::Admin).await;
    assert!(
        admin
            .get("/admin")
            .await
            .body
            .contains(r#"<option value="Europe/Moscow">"#)
    );
    let refused = admin
        .post_form("/admin/time-zone", &[("time_zone", "Europe/Atlantis")])
        .await;
    assert_eq!(refused.status.as_u16(), 422, "{}", refused.body);
    assert!(
        refused.body.contains("time zone database"),
        "{}",
        refused.body
    );
    let saved = admin
        .post_form("/admin/time-zone", &[("time_zone", "Europe/Moscow")])
        .await;
    assert_eq!(saved.status.as_u16(), 303, "{}", saved.body);
    assert!(
        admin
            .get("/admin")
            .await
            .body
            .contains(r#"<option value="Europe/Moscow" selected>"#)
    );

    // Moscow keeps UTC+3 all year.
    let page = built.white.get(&game_page).await;
    assert!(
        page.body.contains(&wall_clock(&first, 3, "UTC+3")),
        "{}",
        page.body
    );
    // The API still speaks UTC.
    let again = built
        .white
        .get(&format!("/api/v1/games/{}", built.id))
        .await
        .json();
    assert_eq!(
        again["moves"][0]["played_at"],
        moves["moves"][0]["played_at"]
    );

    // Through the API: administrators only, names checked.
    let mut api = admin.api_client().await;
    let zone = api.get("/api/v1/admin/time-zone").await;
    assert_eq!(zone.json(), json!({"time_zone": "Europe/Moscow"}));
    let bad = api
        .json(
            Method::PUT,
            "/api/v1/admin/time-zone",
            json!({"time_zone": "Moscow"}),
        )
        .await;
    assert_eq!(bad.assert_problem(422, "invalid")["field"], "time_zone");
    let set = api
        .json(
            Method::PUT,
            "/api/v1/admin/time-zone",
            json!({"time_zone": "America/St_Johns"}),
        )
        .await;
    assert_eq!(set.status.as_u16(), 200, "{}", set.body);
    let forbidden = built
        .white
        .json(
            Method::PUT,
            "/api/v1/admin/time-zone",
            json!({"time_zone": "UTC"}),
        )
        .await;
    assert_eq!(forbidden.status.as_u16(), 403);
    // Newfoundland: half an hour off the hour, and summer time in summer.
    let zone: chrono_tz::Tz = "America/St_Johns".parse().unwrap();
    let local = first.with_timezone(&zone);
    let minutes = -local.offset().fix().local_minus_utc() / 60;
    let expected = format!(
        "{} (UTC-{}:{:02})",
        local.format("%H:%M"),
        minutes / 60,
        minutes % 60
    );
    let page = built.white.get(&game_page).await;
    assert!(page.body.contains(&expected), "{expected}: {}", page.body);
}
