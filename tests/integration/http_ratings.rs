//! Ratings over HTTP: the list and its filters and CSV, a player's history, the event's
//! rating changes, the player page's chart, the import (API and page) with bad lines
//! reported by number and nothing stored from a bad file, and the administrator's choice
//! of systems.
#![allow(clippy::unwrap_used)]
use actix_web::http::Method;
use serde_json::{Value, json};

use crate::common::{Role, TestApp, create_event, enter_players, organiser_api};

fn item_of(list: &Value, player_id: i64) -> &Value {
    list["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|item| item["player_id"] == player_id)
        .unwrap_or_else(|| panic!("player {player_id} not in {list}"))
}

/// A round-robin of four players rated 2400, 2350, 2300 and 2250 (30 games each): round 1
/// pairs 1-4 and 2-3 (Berger); both boards drawn.
async fn drawn_first_round(app: &TestApp) -> (crate::common::Client<'_>, i64, Vec<i64>) {
    let mut org = organiser_api(app, "org@t.org").await;
    let event = create_event(
        &mut org,
        json!({"name": "Club cup", "system": "round_robin"}),
    )
    .await;
    enter_players(&mut org, event, 4).await;
    let entries = org
        .get(&format!("/api/v1/events/{event}/entries"))
        .await
        .json();
    let players: Vec<i64> = entries
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["player_id"].as_i64().unwrap())
        .collect();
    crate::common::play_round(&mut org, event, &["1/2-1/2", "1/2-1/2"]).await;
    (org, event, players)
}

#[actix_web::test]
async fn the_list_and_histories_follow_the_results() {
    let app = TestApp::new().await;
    let (mut org, event, players) = drawn_first_round(&app).await;
    let mut public = app.client();

    let list = public
        .get("/api/v1/ratings?variant=russian&system=elo")
        .await;
    assert_eq!(list.status.as_u16(), 200, "{}", list.body);
    let list = list.json();
    assert_eq!(
        (&list["variant"], &list["system"]),
        (&json!("russian"), &json!("elo"))
    );
    // By the FIDE table: 2400 (K 10: it reached 2400) draws 2250, P(150) = .70:
    // 10 · −.20 = −2; 2250 (K 20): 20 · .20 = +4; 2350 draws 2300, P(50) = .57:
    // 20 · −.07 = −1.4 → −1; 2300: +1.4 → +1.
    let ratings: Vec<(i64, i64, i64)> = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["rank"].as_i64().unwrap(),
                i["player_id"].as_i64().unwrap(),
                i["rating"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        ratings,
        vec![
            (1, players[0], 2398),
            (2, players[1], 2349),
            (3, players[2], 2301),
            (4, players[3], 2254),
        ]
    );
    let first = item_of(&list, players[0]);
    assert_eq!(first["games"], 31);
    assert_eq!(first["rd"], Value::Null);
    assert_eq!(first["provisional"], false);
    assert_eq!(first["name"], "Player 00");
    assert!(first["last_played"].is_string());

    // Glicko-2: everyone started at 1500 / 350, a draw between equals moves nobody, and
    // after one game everybody is still provisional.
    let glicko = public
        .get("/api/v1/ratings?variant=russian&system=glicko2")
        .await
        .json();
    assert_eq!(glicko["items"].as_array().unwrap().len(), 4);
    for item in glicko["items"].as_array().unwrap() {
        assert_eq!(item["rating"], 1500, "{item}");
        assert_eq!(item["rank"], 1, "equal ratings share the rank");
        assert_eq!(item["provisional"], true);
        let rd = item["rd"].as_i64().unwrap();
        assert!((110..350).contains(&rd), "{item}");
    }

    // History: one Elo step for the event, one Glicko-2 step for the board's game.
    let history = public
        .get(&format!(
            "/api/v1/players/{}/rating-history?variant=russian&system=elo",
            players[3]
        ))
        .await
        .json();
    let items = history["items"].as_array().unwrap();
    assert_eq!(items.len(), 1, "{history}");
    assert_eq!(items[0]["rating"], 2254);
    assert_eq!(items[0]["event_id"], event);
    assert_eq!(items[0]["games"], 31);
    let glicko_history = public
        .get(&format!(
            "/api/v1/players/{}/rating-history?variant=russian&system=glicko2",
            players[3]
        ))
        .await
        .json();
    let step = &glicko_history["items"][0];
    assert_eq!(step["event_id"], event);
    assert!(step["game_id"].is_i64(), "the board's game: {step}");
    assert!(step["rd"].is_i64());

    // Round 2 (1-3, 4-2 in Berger's table): the event stays one Elo period, rated against
    // the ratings before it; a corrected round-1 result changes the same step.
    crate::common::play_round(&mut org, event, &["1-0", "0-1"]).await;
    let after = public
        .get(&format!(
            "/api/v1/players/{}/rating-history?variant=russian&system=elo",
            players[3]
        ))
        .await
        .json();
    assert_eq!(after["items"].as_array().unwrap().len(), 1);
    assert_eq!(after["items"][0]["games"], 32);
    let glicko_after = public
        .get(&format!(
            "/api/v1/players/{}/rating-history?variant=russian&system=glicko2",
            players[3]
        ))
        .await
        .json();
    assert_eq!(glicko_after["items"].as_array().unwrap().len(), 2);

    // Unknown player: 404; unknown system: 422 naming the choices.
    public
        .get("/api/v1/players/999999/rating-history")
        .await
        .assert_problem(404, "not-found");
    let bad = public.get("/api/v1/ratings?system=fide").await;
    let problem = bad.assert_refusal(422, "not_one_of");
    assert_eq!(problem["field"], "system");
    assert!(problem["detail"].as_str().unwrap().contains("glicko2"));
    public
        .get("/api/v1/ratings?variant=checkers")
        .await
        .assert_refusal(422, "not_one_of");
}

#[actix_web::test]
async fn filters_csv_and_pages() {
    let app = TestApp::new().await;
    let (mut org, event, players) = drawn_first_round(&app).await;
    // One player of a country, one of a club.
    let club = org
        .json(
            Method::POST,
            "/api/v1/clubs",
            json!({"name": "Kazan", "city": "Kazan"}),
        )
        .await;
    assert_eq!(club.status.as_u16(), 201, "{}", club.body);
    let club_id = club.json()["id"].as_i64().unwrap();
    // An administrator edits the profile (the organiser may not: it is in no club of theirs).
    let mut admin_browser = app.user("admin@t.org", Role::Admin).await;
    let mut admin = admin_browser.api_client().await;
    let updated = admin
        .json(
            Method::PUT,
            &format!("/api/v1/players/{}", players[2]),
            json!({"name": "Player 02", "country": "rus", "club_id": club_id}),
        )
        .await;
    assert_eq!(updated.status.as_u16(), 200, "{}", updated.body);

    let mut public = app.client();
    let by_country = public
        .get("/api/v1/ratings?variant=russian&system=elo&country=RUS")
        .await
        .json();
    let only: Vec<&Value> = by_country["items"].as_array().unwrap().iter().collect();
    assert_eq!(only.len(), 1, "{by_country}");
    assert_eq!(only[0]["player_id"], players[2]);
    assert_eq!(
        only[0]["rank"], 3,
        "a narrowed list keeps the rank in the whole list"
    );
    assert_eq!(only[0]["country"], "RUS");
    let by_club = public
        .get(&format!("/api/v1/ratings?system=elo&club_id={club_id}"))
        .await
        .json();
    assert_eq!(by_club["items"].as_array().unwrap().len(), 1);
    assert_eq!(by_club["items"][0]["club_name"], "Kazan");

    // CSV: the API's columns, one player a line, the same order.
    let csv = public.get("/ratings.csv?variant=russian&system=elo").await;
    assert_eq!(csv.status.as_u16(), 200);
    assert!(
        csv.content_type().starts_with("text/csv"),
        "{}",
        csv.content_type()
    );
    let lines: Vec<&str> = csv.body.lines().collect();
    assert_eq!(
        lines[0],
        "rank,player_id,name,club_name,country,rating,rd,games,provisional,last_played"
    );
    assert_eq!(lines.len(), 5);
    assert!(lines[1].starts_with(&format!("1,{},Player 00,,,2398,,31,false,", players[0])));

    // The list page in Russian, with the provisional mark on the Glicko-2 list.
    let page = public
        .request(
            Method::GET,
            "/ratings?variant=russian&system=glicko2",
            None,
            &[("accept-language", "ru")],
        )
        .await;
    assert_eq!(page.status.as_u16(), 200);
    assert!(page.body.contains("Рейтинг-лист"), "{}", page.body);
    assert!(page.body.contains("Глико-2") && page.body.contains("Откл."));
    assert!(page.body.contains("предварительный"));
    assert!(
        page.body
            .contains("/ratings.csv?variant=russian&#38;system=glicko2"),
        "{}",
        page.body
    );
    let elo_page = public.get("/ratings?variant=russian&system=elo").await;
    assert!(elo_page.body.contains("Player 03") && elo_page.body.contains("2254"));
    let unknown = public.get("/ratings?system=fide").await;
    assert_eq!(
        unknown.status.as_u16(),
        422,
        "an unknown system is a 422 page"
    );

    // The player page: a chart of both systems over time and the step behind each change.
    let profile = public.get(&format!("/players/{}", players[3])).await;
    assert!(
        profile.body.contains("class=\"chart rating-chart\""),
        "{}",
        profile.body
    );
    assert!(
        profile
            .body
            .contains(&format!("href=\"/events/{event}\">Club cup</a>"))
    );
    assert!(profile.body.contains("+4"), "the Elo change of the event");

    // The event page: each player's change and performance.
    let standings = public.get(&format!("/events/{event}?tab=standings")).await;
    assert!(
        standings.body.contains("id=\"rating-changes\""),
        "{}",
        standings.body
    );
    // Player 03 drew 2400: performance 2400 + dp(.50) = 2400.
    assert!(
        standings
            .body
            .contains("<td class=\"num\">2254 (+4)</td><td class=\"num\">2400</td>"),
        "{}",
        standings.body
    );
}

#[actix_web::test]
async fn import_reports_bad_lines_and_stores_nothing_from_a_bad_file() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let mut ids = Vec::new();
    for (name, federation_id) in [("Anna", "RUS-1"), ("Boris", "RUS-2"), ("Vera", "")] {
        let made = org
            .json(
                Method::POST,
                "/api/v1/players",
                json!({"name": name, "federation_id": federation_id}),
            )
            .await;
        assert_eq!(made.status.as_u16(), 201, "{}", made.body);
        ids.push(made.json()["id"].as_i64().unwrap());
    }
    let csv_import = |body: String| ("text/csv", body);

    // A file with good lines and bad ones: every bad line named, nothing stored.
    let bad = format!(
        "player_id,federation_id,variant,system,rating,rd,games\n\
         {anna},,russian,elo,2100,,40\n\
         ,RUS-2,russian,elo,21x0,,\n\
         {vera},,checkers,glicko2,1700,80,\n\
         ,RUS-9,russian,elo,1900,,\n\
         {anna},,russian,elo,2000,,\n\
         {vera},,russian,elo,1800,90,\n\
         1,2\n",
        anna = ids[0],
        vera = ids[2]
    );
    let refused = org
        .request(
            Method::POST,
            "/api/v1/ratings/import",
            Some(csv_import(bad)),
            &[],
        )
        .await;
    let problem = refused.assert_refusal(422, "ratings_csv_invalid");
    let lines: Vec<(i64, String, String)> = problem["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["line"].as_i64().unwrap(),
                l["column"].as_str().unwrap_or("").to_string(),
                l["code"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        lines,
        vec![
            (3, "rating".into(), "not_a_whole_number".into()),
            (4, "variant".into(), "not_one_of".into()),
            (
                5,
                "federation_id".into(),
                "ratings_csv_unknown_federation_id".into()
            ),
            (6, String::new(), "ratings_csv_duplicate".into()),
            (7, "rd".into(), "ratings_csv_glicko_only".into()),
            (8, String::new(), "ratings_csv_field_count".into()),
        ],
        "{problem}"
    );
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("line 3, rating")
    );
    let elo = org.get("/api/v1/ratings?system=elo").await.json();
    assert_eq!(elo["items"], json!([]), "nothing stored: {elo}");

    // A good file: by id and by federation id, both systems.
    let good = format!(
        "federation_id,player_id,variant,system,rating,rd,volatility,games\n\
         ,{anna},russian,elo,2100,,,40\n\
         RUS-2,,russian,elo,1950,,,12\n\
         ,{vera},russian,glicko2,1712.5,80,0.05,30\n",
        anna = ids[0],
        vera = ids[2]
    );
    let imported = org
        .request(
            Method::POST,
            "/api/v1/ratings/import",
            Some(csv_import(good)),
            &[],
        )
        .await;
    assert_eq!(imported.status.as_u16(), 201, "{}", imported.body);
    assert_eq!(
        imported.json(),
        json!({"stored": 3, "variants": ["russian"]})
    );
    let elo = org.get("/api/v1/ratings?system=elo").await.json();
    let rows: Vec<(i64, i64, i64)> = elo["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["player_id"].as_i64().unwrap(),
                i["rating"].as_i64().unwrap(),
                i["games"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(rows, vec![(ids[0], 2100, 40), (ids[1], 1950, 12)]);
    let glicko = org.get("/api/v1/ratings?system=glicko2").await.json();
    let vera = item_of(&glicko, ids[2]);
    assert_eq!((&vera["rating"], &vera["rd"]), (&json!(1713), &json!(80)));
    assert_eq!(vera["provisional"], false);
    // Entries take their starting rating from the seeding system (Elo by default).
    let event = create_event(
        &mut org,
        json!({"name": "Seeded", "system": "swiss", "rounds": 3}),
    )
    .await;
    let entry = org
        .json(
            Method::POST,
            &format!("/api/v1/events/{event}/entries"),
            json!({"player_id": ids[0]}),
        )
        .await;
    assert_eq!(entry.json()["rating"], 2100);

    // Who may import: not a player, not anonymous.
    let mut player_browser = app.user("p@t.org", Role::Player).await;
    let mut player = player_browser.api_client().await;
    player
        .request(
            Method::POST,
            "/api/v1/ratings/import",
            Some(csv_import(
                "player_id,variant,system,rating\n1,russian,elo,2000\n".into(),
            )),
            &[],
        )
        .await
        .assert_refusal(403, "only_organisers_import_ratings");
    app.client()
        .request(
            Method::POST,
            "/api/v1/ratings/import",
            Some(csv_import(String::new())),
            &[],
        )
        .await
        .assert_problem(401, "unauthenticated");
}

#[actix_web::test]
async fn import_page_lists_each_bad_line_in_the_readers_language() {
    let app = TestApp::new().await;
    let mut browser = app.user("org@t.org", Role::Organiser).await;
    browser
        .headers
        .push(("accept-language".into(), "ru".into()));
    let form = browser.get("/ratings/import").await;
    assert_eq!(form.status.as_u16(), 200);
    assert!(form.body.contains("Импорт рейтингов"));
    let bad = "player_id,variant,system,rating\n1,russian,elo\n2,russian,fide,1500\n";
    let page = browser.post_form("/ratings/import", &[("csv", bad)]).await;
    assert_eq!(page.status.as_u16(), 422, "{}", page.body);
    assert!(
        page.body.contains("строка 2: полей: 3, а в заголовке 4"),
        "{}",
        page.body
    );
    assert!(
        page.body
            .contains("строка 3, system: допустимо: elo, glicko2"),
        "{}",
        page.body
    );

    let made = app
        .with_db(|conn| {
            damka::store::players::insert(
                conn,
                &damka::store::models::PlayerFields {
                    name: "Анна".into(),
                    club_id: None,
                    country: String::new(),
                    federation_id: String::new(),
                    birth_year: None,
                    title: String::new(),
                },
                damka::store::now(),
            )
            .unwrap()
            .id
        })
        .await;
    let good = format!("player_id,variant,system,rating\n{made},russian,elo,1999\n");
    let done = browser
        .post_form("/ratings/import", &[("csv", &good)])
        .await;
    assert_eq!(done.status.as_u16(), 303, "{}", done.body);
    assert_eq!(done.location(), "/ratings");
    let list = browser.get("/ratings?system=elo").await;
    assert!(list.body.contains("Анна") && list.body.contains("1999"));

    // A player may not open the page.
    let mut player = app.user("p@t.org", Role::Player).await;
    assert_eq!(player.get("/ratings/import").await.status.as_u16(), 403);
}

#[actix_web::test]
async fn the_administrator_chooses_the_list_and_seeding_systems() {
    let app = TestApp::new().await;
    let (mut org, _, players) = drawn_first_round(&app).await;
    let mut public = app.client();
    assert_eq!(
        public.get("/api/v1/ratings").await.json()["system"],
        "elo",
        "Elo by default"
    );
    let mut admin = app.user("admin@t.org", Role::Admin).await;
    let page = admin.get("/admin").await;
    assert!(page.body.contains("id=\"rating-systems\""));
    let saved = admin
        .post_form(
            "/admin/ratings",
            &[("list_system", "glicko2"), ("seeding_system", "glicko2")],
        )
        .await;
    assert_eq!(saved.status.as_u16(), 303, "{}", saved.body);
    assert_eq!(
        public.get("/api/v1/ratings").await.json()["system"],
        "glicko2"
    );
    // Entries now start with the Glicko-2 rating.
    let event = create_event(
        &mut org,
        json!({"name": "Seeded by Glicko-2", "system": "swiss", "rounds": 3}),
    )
    .await;
    let entry = org
        .json(
            Method::POST,
            &format!("/api/v1/events/{event}/entries"),
            json!({"player_id": players[0]}),
        )
        .await;
    assert_eq!(entry.json()["rating"], 1500);
    // Only administrators choose; a bad value is refused.
    let mut organiser = app.user("org2@t.org", Role::Organiser).await;
    let refused = organiser
        .post_form(
            "/admin/ratings",
            &[("list_system", "elo"), ("seeding_system", "elo")],
        )
        .await;
    assert_eq!(refused.status.as_u16(), 403);
    let bad = admin
        .post_form(
            "/admin/ratings",
            &[("list_system", "fide"), ("seeding_system", "elo")],
        )
        .await;
    assert_eq!(bad.status.as_u16(), 422);
}

/// A fresh site whose players have no federation list: the first games give Glicko-2
/// ratings but no Elo one (Elo needs rated opponents), so without `system` the list shows
/// Glicko-2 and says why the Elo list is empty; asking for Elo still gets Elo.
#[actix_web::test]
async fn a_fresh_site_lists_the_system_that_has_ratings() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let event = create_event(
        &mut org,
        json!({"name": "First club night", "system": "round_robin"}),
    )
    .await;
    crate::common::enter_named(&mut org, event, &["Ivan Petrov", "Pyotr Ivanov"]).await;
    let mut public = app.client();
    let before = public.get("/api/v1/ratings").await.json();
    assert_eq!(
        before["system"], "elo",
        "nothing rated yet: the site's choice"
    );
    crate::common::play_round(&mut org, event, &["1-0"]).await;

    let list = public.get("/api/v1/ratings").await.json();
    assert_eq!(list["system"], "glicko2", "{list}");
    assert_eq!(list["items"].as_array().unwrap().len(), 2, "{list}");
    let elo = public.get("/api/v1/ratings?system=elo").await.json();
    assert_eq!(elo["system"], "elo");
    assert!(elo["items"].as_array().unwrap().is_empty(), "{elo}");

    let page = crate::common::page_text(&public.get("/ratings").await.body);
    assert!(page.contains("Glicko-2 list is shown"), "{page}");
    assert!(
        page.contains("Ivan Petrov") && page.contains("Pyotr Ivanov"),
        "{page}"
    );
    assert!(
        page.contains("Import ratings"),
        "says how to import: {page}"
    );
    public
        .headers
        .push(("accept-language".into(), "ru-RU,ru;q=0.9".into()));
    let page = crate::common::page_text(&public.get("/ratings").await.body);
    assert!(page.contains("показан список по Глико-2"), "{page}");
    assert!(page.contains("Импорт рейтингов"), "{page}");
    let elo_page = crate::common::page_text(&public.get("/ratings?system=elo").await.body);
    assert!(
        !elo_page.contains("показан список"),
        "Elo asked for: {elo_page}"
    );
    assert!(elo_page.contains("рейтинг-лист федерации"), "{elo_page}");
}

/// Issue 30 item 6: a refused file of thousands of bad lines lists the first hundred and
/// counts the rest, so the answer stays small.
#[actix_web::test]
async fn a_refused_file_lists_a_hundred_problems_and_counts_the_rest() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let mut bad = String::from("federation_id,variant,system,rating\n");
    for i in 0..5_000 {
        bad.push_str(&format!("RUS-{i},russian,elo,not-a-number\n"));
    }
    let refused = org
        .request(
            Method::POST,
            "/api/v1/ratings/import",
            Some(("text/csv", bad)),
            &[],
        )
        .await;
    assert!(
        refused.body.len() < 64 * 1024,
        "{} bytes",
        refused.body.len()
    );
    let problem = refused.assert_refusal(422, "ratings_csv_invalid");
    let lines = problem["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 101, "{problem}");
    let last = &lines[100];
    assert_eq!(last["code"], "ratings_csv_more_problems", "{last}");
    // Each bad line has two problems (no such federation id, no number): 10,000 in all.
    let listed_lines = lines[..100].iter().all(|l| l["line"].as_i64().is_some());
    assert!(listed_lines, "{problem}");
    let counted: usize = last["detail"]
        .as_str()
        .unwrap()
        .split_whitespace()
        .find_map(|w| w.parse().ok())
        .unwrap();
    assert_eq!(counted + 100, 2 * 5_000, "{last}");
}

/// Issue 30 item 6: names a spreadsheet would read as a formula are guarded in the CSV,
/// whatever the sign (full-width ones too) and whatever blanks come before it.
#[actix_web::test]
async fn the_rating_csv_guards_every_formula_start() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let event = create_event(&mut org, json!({"name": "Cup", "system": "round_robin"})).await;
    let names = ["|cmd", "＝1+1", "％macro", "＠SUM(1)"];
    crate::common::enter_named(&mut org, event, &names).await;
    crate::common::play_round(&mut org, event, &["1-0", "1-0"]).await;
    let csv = app
        .client()
        .get("/ratings.csv?variant=russian&system=glicko2")
        .await
        .body;
    for line in csv.lines().skip(1) {
        let name = line.split(',').nth(2).unwrap();
        assert!(name.starts_with('\''), "unguarded name in {line:?}");
    }
    assert_eq!(csv.lines().count(), 1 + names.len(), "{csv}");
}
