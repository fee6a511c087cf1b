//! Every time the API answers with is what its OpenAPI document says: `format: date-time`,
//! RFC 3339 with its offset (the schema fuzz run, scripts/schema-fuzz.sh, found times
//! written without one).
#![allow(clippy::unwrap_used)]
use actix_web::http::Method;
use serde_json::{Value, json};

use crate::common::{self, Role, TestApp};

/// The paths, in `value`, of every string under a key ending in `at` (`created_at`,
/// `requested_at`, `at`...), with the string.
fn times(value: &Value, path: &str, found: &mut Vec<(String, String)>) {
    match value {
        Value::Object(fields) => {
            for (key, field) in fields {
                let here = format!("{path}.{key}");
                if (key == "at" || key.ends_with("_at"))
                    && let Some(text) = field.as_str()
                {
                    found.push((here.clone(), text.to_string()));
                }
                times(field, &here, found);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                times(item, &format!("{path}[{i}]"), found);
            }
        }
        _ => {}
    }
}

#[actix_web::test]
async fn every_time_in_the_api_is_rfc_3339_with_an_offset() {
    let app = TestApp::new().await;
    let mut admin = app.user("admin@times.org", Role::Admin).await;
    let mut api = admin.api_client().await;
    let club = common::create_club(&mut api, "Times Club").await;
    let mut player = app
        .user("player@times.org", Role::Player)
        .await
        .api_client()
        .await;
    let made = player
        .json(Method::POST, "/api/v1/players", json!({"name": "Asker"}))
        .await;
    assert_eq!(made.status.as_u16(), 201, "{}", made.body);
    let asked = player.post(&format!("/api/v1/clubs/{club}/requests")).await;
    assert_eq!(asked.status.as_u16(), 201, "{}", asked.body);
    let event = common::create_event(
        &mut api,
        json!({"name": "Times Open", "system": "swiss", "rounds": 3}),
    )
    .await;
    common::enter_players(&mut api, event, 4).await;
    common::play_round(&mut api, event, &["1-0", "0-1"]).await;

    let mut found = Vec::new();
    for path in [
        "/api/v1/tokens".to_string(),
        format!("/api/v1/clubs/{club}/requests"),
        format!("/api/v1/events/{event}/changes"),
        "/api/v1/games".to_string(),
        "/api/v1/admin/users".to_string(),
    ] {
        let res = api.get(&path).await;
        assert_eq!(res.status.as_u16(), 200, "{path}: {}", res.body);
        times(&res.json(), &path, &mut found);
    }
    let made = asked.json();
    times(&made, "POST /clubs/{id}/requests", &mut found);
    for required in ["/api/v1/tokens", "/requests", "/changes"] {
        assert!(
            found.iter().any(|(path, _)| path.contains(required)),
            "no time found under {required}: {found:?}"
        );
    }
    let bad: Vec<&(String, String)> = found
        .iter()
        .filter(|(_, text)| chrono::DateTime::parse_from_rfc3339(text).is_err())
        .collect();
    assert!(bad.is_empty(), "not RFC 3339 date-times: {bad:?}");
}
