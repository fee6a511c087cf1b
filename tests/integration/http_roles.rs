//! Permissions as a table: every protected endpoint x every role -> the expected status.
#![allow(clippy::unwrap_used)]
use crate::common;

use actix_web::http::Method;
use common::{Client, Role, TestApp};
use serde_json::json;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Who {
    Anonymous,
    Player,
    OtherPlayer,
    ClubOrganiser,
    Organiser,
    Admin,
}

const EVERYONE: [Who; 6] = [
    Who::Anonymous,
    Who::Player,
    Who::OtherPlayer,
    Who::ClubOrganiser,
    Who::Organiser,
    Who::Admin,
];

/// (method, path, JSON body or null, [(who, expected status)])
type PermissionRow<'a> = (Method, &'a str, serde_json::Value, Vec<(Who, u16)>);

/// Tables whose rows change on any authenticated request (sessions seen, tokens used,
/// sign-in throttling): left out of the comparison of what a refused request changed.
const VOLATILE_TABLES: [&str; 3] = ["sessions", "api_tokens", "sign_in_attempts"];

/// Every row of every table (except the volatile ones), each as one line of text, read
/// through the columns schema.rs declares: two equal fingerprints mean nothing was
/// written in between, on either database.
pub(crate) async fn fingerprint(app: &TestApp) -> Vec<String> {
    #[derive(diesel::QueryableByName)]
    struct Line {
        #[diesel(sql_type = diesel::sql_types::Text)]
        line: String,
    }
    let schema = crate::store_schema::declared_schema();
    app.with_db(move |conn| {
        use diesel::RunQueryDsl;
        let mut all = Vec::new();
        for (table, columns) in &schema {
            if VOLATILE_TABLES.contains(&table.as_str()) {
                continue;
            }
            let cells: Vec<String> = columns
                .keys()
                .map(|c| format!("COALESCE(CAST({c} AS TEXT), '-')"))
                .collect();
            let sql = format!(
                "SELECT '{table}:' || {} AS line FROM {table}",
                cells.join(" || '|' || ")
            );
            let mut lines: Vec<String> = diesel::sql_query(sql)
                .load::<Line>(conn)
                .unwrap()
                .into_iter()
                .map(|l| l.line)
                .collect();
            lines.sort();
            all.extend(lines);
        }
        all
    })
    .await
}

struct Fixture {
    club_id: i64,
    player_id: i64,
    admin_id: i64,
}

/// Sets up: an admin, a global organiser, a club with its own organiser, a player with a
/// profile in that club, and another player.
async fn fixture(app: &TestApp) -> (Fixture, Vec<(Who, Client<'_>)>) {
    let mut admin_browser = app.user("admin@t.org", Role::Admin).await;
    let mut admin_api = admin_browser.api_client().await;
    let club = admin_api
        .json(
            Method::POST,
            "/api/v1/clubs",
            json!({"name": "Fixture Club"}),
        )
        .await;
    assert_eq!(club.status.as_u16(), 201, "{}", club.body);
    let club_id = club.json()["id"].as_i64().unwrap();

    let mut clients = Vec::new();
    for (who, email, role) in [
        (Who::Player, "player@t.org", Role::Player),
        (Who::OtherPlayer, "other@t.org", Role::Player),
        (Who::ClubOrganiser, "cluborg@t.org", Role::Player),
        (Who::Organiser, "org@t.org", Role::Organiser),
    ] {
        let mut browser = app.user(email, role).await;
        let api = browser.api_client().await;
        let api = Client {
            app,
            cookies: api.cookies,
            headers: api.headers,
        };
        clients.push((who, api));
    }
    let added = admin_api
        .json(
            Method::POST,
            &format!("/api/v1/clubs/{club_id}/members"),
            json!({"email": "cluborg@t.org", "role": "organiser"}),
        )
        .await;
    assert_eq!(added.status.as_u16(), 204, "{}", added.body);
    // The player creates their own profile and asks to join the club; its organiser accepts.
    let player_client = &mut clients
        .iter_mut()
        .find(|(w, _)| *w == Who::Player)
        .unwrap()
        .1;
    let own = player_client
        .json(
            Method::POST,
            "/api/v1/players",
            json!({"name": "Player One"}),
        )
        .await;
    assert_eq!(own.status.as_u16(), 201, "{}", own.body);
    let player_id = own.json()["id"].as_i64().unwrap();
    let asked = player_client
        .post(&format!("/api/v1/clubs/{club_id}/requests"))
        .await;
    assert_eq!(asked.status.as_u16(), 201, "{}", asked.body);
    let club_organiser = &mut clients
        .iter_mut()
        .find(|(w, _)| *w == Who::ClubOrganiser)
        .unwrap()
        .1;
    let accepted = club_organiser
        .post(&format!(
            "/api/v1/clubs/{club_id}/requests/{}/accept",
            asked.json()["id"]
        ))
        .await;
    assert_eq!(accepted.status.as_u16(), 200, "{}", accepted.body);
    let admin_id = admin_api.get("/api/v1/me").await.json()["id"]
        .as_i64()
        .unwrap();
    let admin_api = Client {
        app,
        cookies: admin_api.cookies,
        headers: admin_api.headers,
    };
    clients.push((Who::Admin, admin_api));
    clients.push((Who::Anonymous, app.client()));
    (
        Fixture {
            club_id,
            player_id,
            admin_id,
        },
        clients,
    )
}

#[actix_web::test]
async fn api_permissions_by_role() {
    let app = TestApp::new().await;
    let (fx, mut clients) = fixture(&app).await;
    let player = format!("/api/v1/players/{}", fx.player_id);
    let club = format!("/api/v1/clubs/{}", fx.club_id);
    let members = format!("/api/v1/clubs/{}/members", fx.club_id);
    let requests = format!("/api/v1/clubs/{}/requests", fx.club_id);
    let roles_of_admin = format!("/api/v1/admin/users/{}/roles", fx.admin_id);
    use Who::*;
    // (method, path, body, [(who, expected status)])
    let table: Vec<PermissionRow> = vec![
        (
            Method::GET,
            "/api/v1/players",
            json!(null),
            EVERYONE.iter().map(|w| (*w, 200)).collect(),
        ),
        (
            Method::GET,
            &player,
            json!(null),
            EVERYONE.iter().map(|w| (*w, 200)).collect(),
        ),
        (
            Method::GET,
            "/api/v1/me",
            json!(null),
            vec![
                (Anonymous, 401),
                (Player, 200),
                (OtherPlayer, 200),
                (ClubOrganiser, 200),
                (Organiser, 200),
                (Admin, 200),
            ],
        ),
        (
            Method::PUT,
            &player,
            json!({"name": "Renamed", "club_id": fx.club_id}),
            vec![
                (Anonymous, 401),
                (Player, 200),
                (OtherPlayer, 403),
                (ClubOrganiser, 200),
                (Organiser, 403),
                (Admin, 200),
            ],
        ),
        (
            Method::POST,
            "/api/v1/clubs",
            json!({"name": "New Club"}),
            vec![
                (Anonymous, 401),
                (Player, 403),
                (OtherPlayer, 403),
                (ClubOrganiser, 403),
                (Organiser, 201),
            ],
        ),
        (
            Method::PUT,
            &club,
            json!({"name": "Fixture Club", "city": "Kazan"}),
            vec![
                (Anonymous, 401),
                (Player, 403),
                (OtherPlayer, 403),
                (ClubOrganiser, 200),
                (Organiser, 403),
                (Admin, 200),
            ],
        ),
        (
            Method::POST,
            &members,
            json!({"email": "other@t.org", "role": "member"}),
            vec![
                (Anonymous, 401),
                (Player, 403),
                (OtherPlayer, 403),
                (Organiser, 403),
                (ClubOrganiser, 204),
                (Admin, 204),
            ],
        ),
        (
            Method::GET,
            &requests,
            json!(null),
            vec![
                (Anonymous, 401),
                (Player, 403),
                (OtherPlayer, 403),
                (Organiser, 403),
                (ClubOrganiser, 200),
                (Admin, 200),
            ],
        ),
        (
            Method::POST,
            &requests,
            json!(null),
            vec![
                (Anonymous, 401),
                // Already in the club.
                (Player, 409),
                // No profile to ask for.
                (OtherPlayer, 422),
            ],
        ),
        (
            Method::GET,
            "/api/v1/admin/users",
            json!(null),
            vec![
                (Anonymous, 401),
                (Player, 403),
                (OtherPlayer, 403),
                (ClubOrganiser, 403),
                (Organiser, 403),
                (Admin, 200),
            ],
        ),
        (
            Method::GET,
            "/api/v1/admin/registration",
            json!(null),
            vec![
                (Anonymous, 401),
                (Player, 403),
                (Organiser, 403),
                (Admin, 200),
            ],
        ),
        (
            Method::PUT,
            "/api/v1/admin/registration",
            json!({"mode": "open"}),
            vec![
                (Anonymous, 401),
                (Player, 403),
                (Organiser, 403),
                (Admin, 200),
            ],
        ),
        (
            Method::POST,
            "/api/v1/admin/invitations",
            json!({}),
            vec![
                (Anonymous, 401),
                (Player, 403),
                (ClubOrganiser, 403),
                (Organiser, 403),
                (Admin, 201),
            ],
        ),
        (
            Method::PUT,
            &roles_of_admin,
            json!({"admin": false, "organiser": true}),
            vec![
                (Anonymous, 401),
                (Player, 403),
                (Organiser, 403),
                (Admin, 409),
            ],
        ),
    ];
    let mut failures = Vec::new();
    for (method, path, body, expectations) in &table {
        for (who, expected) in expectations {
            let client = &mut clients.iter_mut().find(|(w, _)| w == who).unwrap().1;
            let refused_write = *method != Method::GET && *expected >= 400;
            let before = if refused_write {
                Some(fingerprint(&app).await)
            } else {
                None
            };
            let res = if body.is_null() {
                client.request(method.clone(), path, None, &[]).await
            } else {
                client.json(method.clone(), path, body.clone()).await
            };
            if let Some(before) = before
                && res.status.as_u16() == *expected
            {
                let after = fingerprint(&app).await;
                if after != before {
                    let changed: Vec<&String> = after
                        .iter()
                        .filter(|l| !before.contains(l))
                        .chain(before.iter().filter(|l| !after.contains(l)))
                        .collect();
                    failures.push(format!(
                        "{method} {path} as {who:?} was refused ({expected}) but changed: {changed:?}"
                    ));
                }
            }
            if res.status.as_u16() != *expected {
                failures.push(format!(
                    "{method} {path} as {who:?}: expected {expected}, got {} {}",
                    res.status, res.body
                ));
            }
            if res.status.is_client_error() {
                assert_eq!(
                    res.content_type(),
                    "application/problem+json",
                    "{method} {path} as {who:?}"
                );
            }
        }
    }
    assert!(
        failures.is_empty(),
        "permission table mismatches:\n{}",
        failures.join("\n")
    );
}

#[actix_web::test]
async fn html_pages_enforce_the_same_roles() {
    let app = TestApp::new().await;
    let mut admin = app.user("admin@t.org", Role::Admin).await;
    let mut organiser = app.user("org@t.org", Role::Organiser).await;
    let mut player = app.user("player@t.org", Role::Player).await;
    let mut anonymous = app.client();

    assert_eq!(admin.get("/admin").await.status.as_u16(), 200);
    for client in [&mut organiser, &mut player] {
        let res = client.get("/admin").await;
        assert_eq!(res.status.as_u16(), 403);
        assert!(res.content_type().starts_with("text/html"));
        assert!(res.body.contains("Not allowed"));
    }
    let res = anonymous.get("/admin").await;
    assert_eq!(res.status.as_u16(), 401);
    assert!(res.body.contains("/login?next="));

    assert_eq!(player.get("/clubs/new").await.status.as_u16(), 403);
    assert_eq!(organiser.get("/clubs/new").await.status.as_u16(), 200);
    let created = organiser
        .post_form(
            "/clubs",
            &[("name", "Org Club"), ("city", "Tver"), ("country", "rus")],
        )
        .await;
    assert_eq!(created.status.as_u16(), 303, "{}", created.body);
    let club_path = created.location();
    let denied = player.post_form(&club_path, &[("name", "Hijacked")]).await;
    assert_eq!(denied.status.as_u16(), 403);
    let page = anonymous.get(&club_path).await;
    assert!(page.body.contains("Org Club") && page.body.contains("Russia"));

    // Role changes by an admin take effect; a player cannot change roles.
    let users = admin.get("/admin").await;
    assert!(users.body.contains("player@t.org"));
    let player_id = app
        .with_db(|conn| {
            damka::store::accounts::user_by_email(conn, "player@t.org")
                .unwrap()
                .unwrap()
                .id
        })
        .await;
    let path = format!("/admin/users/{player_id}/roles");
    assert_eq!(
        player
            .post_form(&path, &[("organiser", "1")])
            .await
            .status
            .as_u16(),
        403
    );
    assert_eq!(
        admin
            .post_form(&path, &[("organiser", "1")])
            .await
            .status
            .as_u16(),
        303
    );
    assert_eq!(player.get("/clubs/new").await.status.as_u16(), 200);
}
