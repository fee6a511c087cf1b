//! Script injection: every text a user can set (display names, club, player and event fields,
//! token names, TRF names on import, CSV cells, PDN tags, move text, search queries) carries
//! `<script>alert(1)</script>` and `"><img src=x onerror=alert(1)>`, and every page that shows
//! it must show the text, escaped. Files served as text (TRF, PDN, CSV) are never HTML.
#![allow(clippy::unwrap_used)]
use actix_web::http::Method;
use serde_json::json;

use crate::common::{self, Client, Response, Role, TestApp};

const SCRIPT: &str = "<script>alert(1)</script>";
const ATTRIBUTE: &str = "\"><img src=x onerror=alert(1)>";

/// Markup that must never reach a page as written.
const RAW: [&str; 3] = [
    "<script>alert(1)",
    "<img src=x onerror",
    "<svg/onload=alert(2)>",
];

fn hostile(label: &str) -> String {
    format!("{label} {SCRIPT}{ATTRIBUTE}")
}

/// The page holds no raw markup from the payloads; when `shows` it must show the payload
/// (escaped), so that a page that dropped the field cannot pass by accident.
fn assert_escaped(res: &Response, what: &str, shows: bool) {
    assert!(
        res.status.as_u16() < 500,
        "{what}: {} {}",
        res.status,
        res.body
    );
    for raw in RAW {
        if let Some(at) = res.body.find(raw) {
            let before: String = res.body[..at].chars().rev().take(120).collect();
            let before: String = before.chars().rev().collect();
            panic!("{what}: {raw:?} unescaped after ...{before}");
        }
    }
    if shows {
        assert!(
            res.body.contains("alert(1)"),
            "{what}: the hostile text is not shown at all: {}",
            res.body.chars().take(400).collect::<String>()
        );
    }
}

async fn page(client: &mut Client<'_>, path: &str, shows: bool) {
    let res = client.get(path).await;
    assert_eq!(res.status.as_u16(), 200, "{path}: {}", res.body);
    assert!(res.content_type().starts_with("text/html"), "{path}");
    assert_escaped(&res, path, shows);
}

#[actix_web::test]
async fn hostile_text_in_every_field_is_rendered_escaped() {
    let app = TestApp::new().await;
    // An organiser whose display name is hostile (it shows as arbiter, club organiser, in
    // the administrators' list).
    let organiser_name = hostile("Org");
    app.with_db(move |conn| {
        let user = damka::service::accounts::register(
            conn,
            &damka::service::accounts::Registration {
                email: "org@x.org".into(),
                display_name: organiser_name,
                password: "password-123".into(),
                invitation: None,
            },
            None,
        )
        .unwrap();
        damka::store::accounts::set_roles(conn, user.id, false, true).unwrap();
    })
    .await;
    let mut org = app.client();
    org.sign_in("org@x.org", "password-123").await;
    let mut api = org.api_client().await;
    let mut admin = app.user("admin@x.org", Role::Admin).await;
    let mut anonymous = app.client();

    // A club through its form.
    let club_name = hostile("Club");
    let city = hostile("City");
    let description = hostile("About");
    let made = org
        .post_form(
            "/clubs",
            &[
                ("name", &club_name),
                ("city", &city),
                ("country", "RUS"),
                ("description", &description),
            ],
        )
        .await;
    assert_eq!(made.status.as_u16(), 303, "{}", made.body);
    let club_path = made.location();
    let club_id: i64 = club_path.trim_start_matches("/clubs/").parse().unwrap();

    // A refused form is shown again with what was typed: escaped too.
    let refused = org
        .post_form("/clubs", &[("name", &club_name), ("country", ATTRIBUTE)])
        .await;
    assert_escaped(&refused, "the club form shown again", true);

    // Player profiles with hostile names, titles and federation ids, in an event.
    let event = common::create_event(
        &mut api,
        json!({"name": hostile("Event"), "place": hostile("Place"), "system": "round_robin", "rounds": 3}),
    )
    .await;
    let mut players = Vec::new();
    for i in 0..4 {
        let made = api
            .json(
                Method::POST,
                "/api/v1/players",
                json!({"name": hostile(&format!("Player{i}")), "club_id": club_id, "title": "", "federation_id": ""}),
            )
            .await;
        assert_eq!(made.status.as_u16(), 201, "{}", made.body);
        let id = made.json()["id"].as_i64().unwrap();
        players.push(id);
        let entered = api
            .json(
                Method::POST,
                &format!("/api/v1/events/{event}/entries"),
                json!({"player_id": id}),
            )
            .await;
        assert_eq!(entered.status.as_u16(), 201, "{}", entered.body);
    }
    // Fields that are checked refuse hostile text with a message that shows it escaped.
    for (field, value) in [
        ("title", hostile("T")),
        ("federation_id", hostile("F")),
        ("country", SCRIPT.to_string()),
    ] {
        let refused = org
            .post_form(
                &format!("/players/{}", players[0]),
                &[("name", "Plain"), (field, &value)],
            )
            .await;
        assert_escaped(
            &refused,
            &format!("player form with a hostile {field}"),
            false,
        );
    }
    let round = common::play_round(&mut api, event, &["1-0"]).await;
    let game_id = round["boards"][1]["game_id"].as_i64();
    let arbiter = api
        .json(
            Method::POST,
            &format!("/api/v1/events/{event}/arbiters"),
            json!({"email": "org@x.org"}),
        )
        .await;
    assert!(arbiter.status.as_u16() < 500, "{}", arbiter.body);

    // A token with a hostile name.
    let token_name = hostile("T");
    let made = org
        .post_form("/account/tokens", &[("name", &token_name)])
        .await;
    assert_eq!(made.status.as_u16(), 303, "{}", made.body);

    // A TRF whose tournament and player names are hostile (33-character name columns).
    let trf = format!(
        "012 {}\nXXR 3\n\
         001    1      {:<33} 1900                             0.0    1\n\
         001    2      {:<33} 1800                             0.0    2\n",
        hostile("Imported"),
        SCRIPT,
        &ATTRIBUTE[..ATTRIBUTE.len().min(33)],
    );
    let imported = org
        .post_form("/events/import", &[("trf", &trf), ("variant", "russian")])
        .await;
    assert!(imported.status.as_u16() < 500, "{}", imported.body);
    assert_escaped(&imported, "TRF import answer", false);
    let imported_event = common::created_event_id(&imported);

    // A TRF that is refused for a hostile cell: the message quotes it, escaped.
    let bad_trf = format!("012 x\nXXR 3\n001 {SCRIPT}\n");
    let refused = org
        .post_form(
            "/events/import",
            &[("trf", &bad_trf), ("variant", "russian")],
        )
        .await;
    assert_escaped(&refused, "refused TRF import", false);

    // A ratings CSV whose cells are hostile: refused with every cell named, escaped.
    let csv = format!(
        "federation_id,variant,system,rating\n\"{}\",russian,elo,1500\n1,{SCRIPT},elo,1500\n",
        ATTRIBUTE.replace('"', "\"\"")
    );
    let refused = org.post_form("/ratings/import", &[("csv", &csv)]).await;
    assert!(refused.status.is_client_error(), "{}", refused.body);
    assert_escaped(&refused, "refused ratings CSV", true);
    let header = format!("player_id,{SCRIPT}\n1,2\n");
    let refused = org.post_form("/ratings/import", &[("csv", &header)]).await;
    assert_escaped(&refused, "ratings CSV with a hostile column", true);

    // PDN tags and comments on import: refused or taken, the answer is JSON, never HTML.
    let pdn = format!(
        "[Event \"{SCRIPT}\"]\n[White \"{}\"]\n[Black \"{SCRIPT}\"]\n[Result \"*\"]\n\n1. c3-d4 {{{SCRIPT}}} *\n",
        ATTRIBUTE.replace('"', "\\\"")
    );
    let res = api
        .request(
            Method::POST,
            &format!("/api/v1/events/{event}/rounds/1/pdn"),
            Some(("text/plain", pdn)),
            &[],
        )
        .await;
    assert!(res.status.as_u16() < 500, "{}", res.body);
    assert!(
        !res.content_type().contains("html"),
        "{}",
        res.content_type()
    );

    // Move text on the game page: refused, the message shows it escaped.
    if let Some(game) = game_id {
        let game_path = format!("/games/{game}");
        let res = org
            .post_form(
                &format!("{game_path}/moves"),
                &[("ply", "1"), ("move", &hostile("c3"))],
            )
            .await;
        assert_escaped(&res, "refused move", false);
        page(&mut anonymous, &game_path, true).await;
        page(&mut org, &game_path, true).await;
        let pdn = anonymous.get(&format!("{game_path}/pdn")).await;
        assert!(
            !pdn.content_type().contains("html"),
            "{}",
            pdn.content_type()
        );
    }

    // Every page that shows these texts.
    for path in [
        "/".to_string(),
        "/players".to_string(),
        format!("/players/{}", players[0]),
        format!("/players?q={}", urlencode(SCRIPT)),
        "/clubs".to_string(),
        club_path.clone(),
        "/events".to_string(),
        format!("/events/{event}"),
        format!("/events/{event}?tab=standings"),
        format!("/events/{event}?tab=crosstable"),
        format!("/events/{event}?tab=rounds"),
        format!("/events/{event}?tab=players"),
        format!("/events/{event}/players/1"),
        format!("/events/{event}/rounds/1/print"),
        format!("/events/{event}/standings/print"),
        format!("/events/{event}/crosstable/print"),
        format!("/events/{event}/changes"),
        format!("/events/{imported_event}"),
        format!("/events/{imported_event}?tab=players"),
        "/ratings".to_string(),
    ] {
        page(&mut anonymous, &path, true).await;
    }
    for path in [
        "/account".to_string(),
        format!("{club_path}/edit"),
        format!("/players/{}/edit", players[0]),
        format!("/events/{event}/edit"),
        format!("/events/{event}/rounds/1/pairing"),
        format!("/events/{event}/entries/1/withdraw"),
    ] {
        let res = org.get(&path).await;
        assert!(res.status.as_u16() < 500, "{path}: {}", res.body);
        assert_escaped(&res, &path, res.status.is_success());
    }
    page(&mut admin, "/admin", true).await;
    for path in [
        "/login?next=%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E",
        "/ratings?country=%3Csvg/onload=alert(2)%3E",
        "/players?club=%3Cscript%3Ealert(1)%3C/script%3E",
    ] {
        let res = anonymous.get(path).await;
        assert_escaped(&res, path, false);
    }

    // Files served as text are never HTML (nor sniffed as HTML).
    for path in [
        format!("/events/{event}/export.trf"),
        format!("/events/{event}/games.pdn"),
        "/ratings.csv".to_string(),
        format!("/api/v1/events/{event}"),
    ] {
        let res = anonymous.get(&path).await;
        assert_eq!(res.status.as_u16(), 200, "{path}: {}", res.body);
        assert!(
            !res.content_type().contains("html"),
            "{path}: {}",
            res.content_type()
        );
        assert_eq!(
            res.headers.get("x-content-type-options").unwrap(),
            "nosniff",
            "{path}"
        );
    }
}

fn urlencode(text: &str) -> String {
    serde_urlencoded::to_string([("q", text)]).unwrap()[2..].to_string()
}
