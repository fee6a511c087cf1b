//! Player profiles and clubs: the pages and API a club uses to keep its roster.
#![allow(clippy::unwrap_used)]
use crate::common;

use actix_web::http::Method;
use common::{Role, TestApp};
use serde_json::{Value, json};

#[actix_web::test]
async fn a_player_creates_and_edits_their_own_profile() {
    let app = TestApp::new().await;
    let mut player = app.user("ivan@t.org", Role::Player).await;
    assert_eq!(player.get("/players/new").await.status.as_u16(), 200);
    let bad = player
        .post_form("/players", &[("name", "Ivan"), ("birth_year", "nineteen")])
        .await;
    assert_eq!(bad.status.as_u16(), 422);
    assert!(bad.body.contains("must be a whole number"));
    let created = player
        .post_form(
            "/players",
            &[
                ("name", "Иван Петров"),
                ("country", "rus"),
                ("birth_year", "1990"),
                ("title", "MF"),
            ],
        )
        .await;
    assert_eq!(created.status.as_u16(), 303, "{}", created.body);
    let path = created.location();
    let page = player.get(&path).await;
    assert!(
        page.body.contains("Иван Петров")
            && page.body.contains("Russia")
            && page.body.contains("1990")
    );
    assert!(
        page.body.contains(&format!("{path}/edit")),
        "the owner sees the edit link"
    );
    // A second own profile is refused.
    let second = player
        .post_form("/players", &[("name", "Ivan Again")])
        .await;
    assert_eq!(second.status.as_u16(), 403);
    let edited = player
        .post_form(&path, &[("name", "Иван Петров-Водкин"), ("country", "RUS")])
        .await;
    assert_eq!(edited.status.as_u16(), 303);
    assert!(player.get(&path).await.body.contains("Иван Петров-Водкин"));
    // Another player neither sees the edit link nor may post.
    let mut other = app.user("olga@t.org", Role::Player).await;
    assert!(
        !other
            .get(&path)
            .await
            .body
            .contains(&format!("{path}/edit"))
    );
    assert_eq!(
        other.get(&format!("{path}/edit")).await.status.as_u16(),
        403
    );
    assert_eq!(
        other
            .post_form(&path, &[("name", "Hacked")])
            .await
            .status
            .as_u16(),
        403
    );
    assert!(!player.get(&path).await.body.contains("Hacked"));
}

/// The form offers countries by name in the reader's language and stores the ISO code;
/// a federation's own code (`NED`, from the API or a TRF file) is shown by its country's
/// name and selects that country in the form (issue 27 item 8).
#[actix_web::test]
async fn the_country_is_chosen_by_name_and_stored_as_its_code() {
    let app = TestApp::new().await;
    // An administrator, who may edit every profile.
    let mut admin = app.user("admin@t.org", Role::Admin).await;
    admin
        .headers
        .push(("accept-language".into(), "ru-RU,ru;q=0.9".into()));
    let form = admin.get("/players/new").await;
    assert!(
        form.body.contains(r#"<option value="RUS">Россия</option>"#)
            && form
                .body
                .contains(r#"<option value="NLD">Нидерланды</option>"#),
        "the country list by Russian names: {}",
        form.body
    );
    assert!(
        !form.body.contains(r#"name="country" value"#),
        "no text field"
    );
    let created = admin
        .post_form("/players", &[("name", "Анна Лис"), ("country", "NLD")])
        .await;
    assert_eq!(created.status.as_u16(), 303, "{}", created.body);
    let path = created.location();
    let id: i64 = path.rsplit('/').next().unwrap().parse().unwrap();
    let stored = admin.get(&format!("/api/v1/players/{id}")).await.json();
    assert_eq!(stored["country"], "NLD");
    assert!(admin.get(&path).await.body.contains("Нидерланды"));

    // As the API, an import or an older form would send it.
    let federation_code = admin
        .post_form("/players", &[("name", "Jan de Vries"), ("country", "NED")])
        .await;
    assert_eq!(
        federation_code.status.as_u16(),
        303,
        "{}",
        federation_code.body
    );
    let location = federation_code.location();
    let id: i64 = location.rsplit('/').next().unwrap().parse().unwrap();
    assert!(
        admin
            .get(&format!("/players/{id}"))
            .await
            .body
            .contains("Нидерланды")
    );
    let edit = admin.get(&format!("/players/{id}/edit")).await;
    assert!(
        edit.body
            .contains(r#"<option value="NLD" selected>Нидерланды</option>"#),
        "NED selects the Netherlands: {}",
        edit.body
    );
    let list = admin.get("/players").await;
    assert!(list.body.contains("<td>Нидерланды</td>"), "{}", list.body);
}

#[actix_web::test]
async fn players_list_search_and_club_filter_with_ratings() {
    let app = TestApp::new().await;
    let mut organiser = app.user("org@t.org", Role::Organiser).await;
    let mut api = organiser.api_client().await;
    let club = api
        .json(
            Method::POST,
            "/api/v1/clubs",
            json!({"name": "Kazan", "country": "RUS"}),
        )
        .await
        .json();
    let club_id = club["id"].as_i64().unwrap();
    for (name, club) in [
        ("Anna Ivanova", Some(club_id)),
        ("Boris Smirnov", Some(club_id)),
        ("Clara Visser", None),
    ] {
        let res = api
            .json(
                Method::POST,
                "/api/v1/players",
                json!({"name": name, "club_id": club}),
            )
            .await;
        assert_eq!(res.status.as_u16(), 201, "{}", res.body);
    }
    let anna_id = api.get("/api/v1/players?q=Anna").await.json()["items"][0]["id"]
        .as_i64()
        .unwrap();
    app.with_db(move |conn| {
        damka::store::players::set_rating(
            conn,
            &damka::store::models::PlayerRating {
                player_id: anna_id,
                variant: damka_engine::Variant::Russian,
                rating: 2150,
                games: 40,
            },
        )
        .unwrap();
        // A starting rating counts once the variant is recomputed, as imports do.
        damka::service::ratings::recompute::recompute(conn, damka_engine::Variant::Russian)
            .unwrap();
    })
    .await;
    let all = api.get("/api/v1/players").await.json();
    assert_eq!(all["items"].as_array().unwrap().len(), 3);
    assert_eq!(all["next_cursor"], Value::Null);
    let in_club = api
        .get(&format!("/api/v1/players?club={club_id}"))
        .await
        .json();
    let names: Vec<&str> = in_club["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Anna Ivanova", "Boris Smirnov"]);
    let anna = api.get(&format!("/api/v1/players/{anna_id}")).await.json();
    assert_eq!(anna["ratings"][0]["rating"], 2150);
    assert_eq!(anna["club_name"], "Kazan");

    let mut browser = app.client();
    let page = browser.get(&format!("/players?q=bor&club={club_id}")).await;
    assert!(page.body.contains("Boris Smirnov") && !page.body.contains("Anna Ivanova"));
    // Case-insensitive also for Cyrillic, on both databases.
    api.json(
        Method::POST,
        "/api/v1/players",
        json!({"name": "Дарья Орлова"}),
    )
    .await;
    let cyrillic = api
        .get(&format!(
            "/api/v1/players?q={}",
            "%D0%94%D0%90%D0%A0%D0%AC%D0%AF"
        ))
        .await
        .json();
    assert_eq!(
        cyrillic["items"][0]["name"], "Дарья Орлова",
        "ДАРЬЯ finds Дарья"
    );
    let profile = browser.get(&format!("/players/{anna_id}")).await;
    // The starting rating is her rating until she plays (the chart of a rating over time
    // is tested with games: http_ratings).
    assert!(profile.body.contains("2150"), "the rating on the profile");
    let home = browser.get("/").await;
    assert!(home.body.contains("Anna Ivanova") && home.body.contains("4 players"));
    let ru_home = browser
        .request(Method::GET, "/", None, &[("accept-language", "ru")])
        .await;
    assert!(ru_home.body.contains("4 игрока"));
}

/// README's own example: `?q=Chizhov` finds «Чижов», and a Cyrillic query finds a name
/// written in Latin letters, in the API and on the players page, on both databases.
#[actix_web::test]
async fn a_latin_spelling_finds_a_cyrillic_name_and_back() {
    let app = TestApp::new().await;
    let mut browser = app.user("org@t.org", Role::Organiser).await;
    let mut api = browser.api_client().await;
    for name in ["Алексей Чижов", "Yuriy Shchukin", "Пётр Петров"] {
        let made = api
            .json(Method::POST, "/api/v1/players", json!({ "name": name }))
            .await;
        assert_eq!(made.status.as_u16(), 201, "{}", made.body);
    }
    let names = |found: serde_json::Value| -> Vec<String> {
        found["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        names(api.get("/api/v1/players?q=Chizhov").await.json()),
        ["Алексей Чижов"]
    );
    // «Щукин» typed in Cyrillic finds the Latin spelling.
    assert_eq!(
        names(
            api.get("/api/v1/players?q=%D0%A9%D1%83%D0%BA%D0%B8%D0%BD")
                .await
                .json()
        ),
        ["Yuriy Shchukin"]
    );
    assert_eq!(
        names(api.get("/api/v1/players?q=Petr%20Petrov").await.json()),
        ["Пётр Петров"]
    );
    let page = browser.get("/players?q=chizhov").await;
    assert!(page.body.contains("Алексей Чижов") && !page.body.contains("Петров"));
}

#[actix_web::test]
async fn club_pages_members_and_validation() {
    let app = TestApp::new().await;
    let mut organiser = app.user("org@t.org", Role::Organiser).await;
    app.user("member@t.org", Role::Player).await;
    let created = organiser
        .post_form(
            "/clubs",
            &[("name", "Riga 64"), ("city", "Riga"), ("country", "LAT")],
        )
        .await;
    let path = created.location();
    let dup = organiser.post_form("/clubs", &[("name", "Riga 64")]).await;
    assert_eq!(dup.status.as_u16(), 422);
    assert!(dup.body.contains("a club with this name already exists"));
    let unknown = organiser
        .post_form(
            &format!("{path}/members"),
            &[("email", "ghost@t.org"), ("role", "member")],
        )
        .await;
    assert_eq!(unknown.status.as_u16(), 422);
    assert!(unknown.body.contains("no account has this e-mail"));
    let added = organiser
        .post_form(
            &format!("{path}/members"),
            &[("email", "member@t.org"), ("role", "member")],
        )
        .await;
    assert_eq!(added.status.as_u16(), 303);
    let page = app.client().get(&path).await;
    assert!(page.body.contains("member") && page.body.contains("org"));
    let ru = app
        .client()
        .request(Method::GET, &path, None, &[("accept-language", "ru")])
        .await;
    assert!(ru.body.contains("организатор"));
}
