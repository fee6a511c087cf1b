//! Finding things (issue 27, item 3): a name search that ignores word order and spelling
//! (players, events, the rating list), the filters of the events list and of the rating
//! list through the API and the pages, combined, and kept by the pager's links.
#![allow(clippy::unwrap_used)]
use std::collections::BTreeSet;

use actix_web::http::Method;
use diesel::prelude::*;
use serde_json::{Value, json};

use crate::common::{Client, Role, TestApp, create_club, create_event, organiser_api};
use damka::store;

/// A query string's pairs.
type Query<'a> = Vec<(&'a str, &'a str)>;

/// `path?pairs`, the pairs URL-encoded (Cyrillic included).
fn url(path: &str, pairs: &[(&str, &str)]) -> String {
    format!("{path}?{}", serde_urlencoded::to_string(pairs).unwrap())
}

fn ids(page: &Value, field: &str) -> Vec<i64> {
    page["items"]
        .as_array()
        .unwrap_or_else(|| panic!("no items in {page}"))
        .iter()
        .map(|item| item[field].as_i64().unwrap())
        .collect()
}

/// Creates a profile over the API; returns its id.
async fn profile(api: &mut Client<'_>, body: Value) -> i64 {
    let created = api.json(Method::POST, "/api/v1/players", body).await;
    assert_eq!(created.status.as_u16(), 201, "{}", created.body);
    created.json()["id"].as_i64().unwrap()
}

/// Every item id of an API list, following `next_cursor` with the same query.
async fn every_page(
    client: &mut Client<'_>,
    path: &str,
    pairs: &[(&str, &str)],
    field: &str,
) -> Vec<i64> {
    let mut found = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..50 {
        let mut query: Vec<(&str, &str)> = pairs.to_vec();
        if let Some(cursor) = &cursor {
            query.push(("cursor", cursor));
        }
        let page = client.get(&url(path, &query)).await;
        assert_eq!(page.status.as_u16(), 200, "{}", page.body);
        let page = page.json();
        found.extend(ids(&page, field));
        match page["next_cursor"].as_str() {
            Some(next) => cursor = Some(next.to_string()),
            None => return found,
        }
    }
    panic!("more than 50 pages of {path}");
}

#[actix_web::test]
async fn four_spellings_find_the_same_player() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let ivanov = profile(&mut org, json!({"name": "Иванов Пётр"})).await;
    let petrov = profile(&mut org, json!({"name": "Петров Иван"})).await;
    profile(&mut org, json!({"name": "Сидорова Анна"})).await;
    // A profile from before the search key existed: its key is empty until start-up
    // fills it, and the search finds it meanwhile.
    let legacy = profile(&mut org, json!({"name": "Иванова Мария"})).await;
    app.with_db(move |conn| {
        diesel::update(store::schema::players::table.find(legacy))
            .set(store::schema::players::name_folded.eq(""))
            .execute(conn)
            .unwrap();
    })
    .await;

    let mut public = app.client();
    for spelling in [
        "Пётр Иванов",
        "Иванов Пётр",
        "Petr Ivanov",
        "ivanov p",
        "Иванов П",
        "pyotr ivanov",
    ] {
        let page = public
            .get(&url("/api/v1/players", &[("q", spelling)]))
            .await
            .json();
        assert_eq!(ids(&page, "id"), vec![ivanov], "{spelling:?}: {page}");
    }
    // A word alone is found in any word of the name.
    let page = public
        .get(&url("/api/v1/players", &[("q", "ivan")]))
        .await
        .json();
    let found: BTreeSet<i64> = ids(&page, "id").into_iter().collect();
    assert_eq!(found, BTreeSet::from([ivanov, petrov, legacy]), "{page}");
    let page = public
        .get(&url("/api/v1/players", &[("q", "Мария Ivanova")]))
        .await
        .json();
    assert_eq!(ids(&page, "id"), vec![legacy], "the unfilled key: {page}");
    let none = public
        .get(&url("/api/v1/players", &[("q", "Пётр Сидоров")]))
        .await
        .json();
    assert_eq!(ids(&none, "id"), Vec::<i64>::new(), "{none}");

    // The players page uses the same search.
    let page = public.get(&url("/players", &[("q", "petr ivanov")])).await;
    assert_eq!(page.status.as_u16(), 200);
    assert!(page.body.contains("Иванов Пётр"), "{}", page.body);
    assert!(!page.body.contains("Петров Иван"), "{}", page.body);

    // Start-up fills the empty key with the same fold an insert writes.
    let (filled, key) = app
        .with_db(move |conn| {
            let filled = store::players::fill_folded_names(conn).unwrap();
            let key: String = store::schema::players::table
                .find(legacy)
                .select(store::schema::players::name_folded)
                .first(conn)
                .unwrap();
            (filled, key)
        })
        .await;
    assert_eq!((filled, key.as_str()), (1, "ivanova mariia"));
    let page = public
        .get(&url("/api/v1/players", &[("q", "mariya ivanova")]))
        .await
        .json();
    assert_eq!(ids(&page, "id"), vec![legacy], "{page}");

    // A renamed profile is found by its new name only (an administrator edits it: the
    // organiser's profiles are in no club of theirs).
    let mut admin_browser = app.user("admin@t.org", Role::Admin).await;
    let mut admin = admin_browser.api_client().await;
    let renamed = admin
        .json(
            Method::PUT,
            &format!("/api/v1/players/{petrov}"),
            json!({"name": "Смирнов Олег"}),
        )
        .await;
    assert_eq!(renamed.status.as_u16(), 200, "{}", renamed.body);
    let page = public
        .get(&url("/api/v1/players", &[("q", "oleg smirnov")]))
        .await
        .json();
    assert_eq!(ids(&page, "id"), vec![petrov], "{page}");
    let page = public
        .get(&url("/api/v1/players", &[("q", "petrov")]))
        .await
        .json();
    assert_eq!(ids(&page, "id"), Vec::<i64>::new(), "{page}");
}

/// Events of two clubs, variants and years; returns (club A, club B, events by name).
async fn events_to_filter(org: &mut Client<'_>) -> (i64, i64, Vec<(String, i64)>) {
    let club_a = create_club(org, "Казанский клуб").await;
    let club_b = create_club(org, "Club Two").await;
    let specs = [
        ("Кубок Казани", Some(club_a), "russian", "2025-05-01"),
        ("Kazan Open", Some(club_b), "brazilian", "2026-03-10"),
        ("Первенство клуба", Some(club_a), "russian", "2026-06-01"),
        ("Blitz night", None, "russian", "2026-09-01"),
    ];
    let mut events = Vec::new();
    for (name, club, variant, day) in specs {
        let id = create_event(
            org,
            json!({"name": name, "club_id": club, "variant": variant, "starts_on": day,
                   "system": "round_robin"}),
        )
        .await;
        events.push((name.to_string(), id));
    }
    (club_a, club_b, events)
}

#[actix_web::test]
async fn event_filters_narrow_and_combine() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let (club_a, club_b, events) = events_to_filter(&mut org).await;
    let id = |name: &str| events.iter().find(|(n, _)| n == name).unwrap().1;
    let finished = id("Blitz night");
    app.with_db(move |conn| {
        use store::schema::events;
        diesel::update(events::table.find(finished))
            .set(events::status.eq("finished"))
            .execute(conn)
            .unwrap();
    })
    .await;

    let mut public = app.client();
    let (a, b) = (club_a.to_string(), club_b.to_string());
    let cases: Vec<(Query, Vec<i64>)> = vec![
        (
            vec![("q", "kazan")],
            vec![id("Kazan Open"), id("Кубок Казани")],
        ),
        (vec![("q", "казани кубок")], vec![id("Кубок Казани")]),
        (vec![("q", "kubok kazani")], vec![id("Кубок Казани")]),
        (
            vec![("club_id", &a)],
            vec![id("Первенство клуба"), id("Кубок Казани")],
        ),
        (vec![("club_id", &b)], vec![id("Kazan Open")]),
        (vec![("variant", "brazilian")], vec![id("Kazan Open")]),
        (
            vec![("year", "2026")],
            vec![id("Blitz night"), id("Первенство клуба"), id("Kazan Open")],
        ),
        (vec![("year", "2024")], vec![]),
        (vec![("status", "finished")], vec![id("Blitz night")]),
        (
            vec![("status", "registration"), ("year", "2026")],
            vec![id("Первенство клуба"), id("Kazan Open")],
        ),
        (
            vec![("club_id", &a), ("year", "2026")],
            vec![id("Первенство клуба")],
        ),
        (
            vec![("q", "kazan"), ("variant", "russian")],
            vec![id("Кубок Казани")],
        ),
        (
            vec![("q", "kazan"), ("club_id", &a), ("year", "2026")],
            vec![],
        ),
        (vec![("q", "nothing like it")], vec![]),
    ];
    for (pairs, expected) in &cases {
        let page = public.get(&url("/api/v1/events", pairs)).await;
        assert_eq!(page.status.as_u16(), 200, "{pairs:?}: {}", page.body);
        assert_eq!(&ids(&page.json(), "id"), expected, "{pairs:?}");

        // The page shows the same events (and no other of the four).
        let html = public.get(&url("/events", pairs)).await;
        assert_eq!(html.status.as_u16(), 200, "{pairs:?}: {}", html.body);
        for (name, event) in &events {
            assert_eq!(
                html.body.contains(&format!("/events/{event}\"")),
                expected.contains(event),
                "{pairs:?}: {name}"
            );
        }
    }

    // Bad filters are refused by field, as problem+json and as a page.
    let bad = public.get("/api/v1/events?year=12").await;
    assert_eq!(
        bad.assert_refusal(422, "year_out_of_range")["field"],
        "year"
    );
    let bad = public.get("/api/v1/events?variant=chess").await;
    assert_eq!(bad.assert_refusal(422, "not_one_of")["field"], "variant");
    assert_eq!(public.get("/events?year=abc").await.status.as_u16(), 422);

    // The form shows what was asked, and the "show all" links keep the filters.
    let html = public.get("/events?q=kazan&variant=russian").await.body;
    assert!(html.contains("name=\"q\" value=\"kazan\""), "{html}");
    assert!(
        html.contains("<option value=\"russian\" selected>"),
        "{html}"
    );
    assert!(
        html.contains("href=\"/events\""),
        "a way back to every event"
    );
}

#[actix_web::test]
async fn event_pages_keep_the_filters() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let club = create_club(&mut org, "Клуб").await;
    let mut wanted = BTreeSet::new();
    let mut every = BTreeSet::new();
    // More than a section of the list without a status shows (10).
    for i in 0..12 {
        // Matching events of the club and of 2026, mixed with ones that are not.
        let id = create_event(
            &mut org,
            json!({"name": format!("Турнир {i}"), "club_id": club, "system": "round_robin",
                   "starts_on": format!("2026-01-{:02}", i + 1)}),
        )
        .await;
        wanted.insert(id);
        every.insert(id);
        every.insert(
            create_event(
                &mut org,
                json!({"name": format!("Турнир {i}"), "system": "round_robin",
                       "starts_on": format!("2026-02-{:02}", i + 1)}),
            )
            .await,
        );
        every.insert(
            create_event(
                &mut org,
                json!({"name": format!("Other {i}"), "club_id": club, "system": "round_robin",
                       "starts_on": "2026-03-01"}),
            )
            .await,
        );
    }
    let club = club.to_string();
    let pairs = [
        ("q", "turnir"),
        ("club_id", club.as_str()),
        ("year", "2026"),
        ("limit", "3"),
    ];
    let mut public = app.client();
    let through_api = every_page(&mut public, "/api/v1/events", &pairs, "id").await;
    assert_eq!(
        through_api.len(),
        wanted.len(),
        "each once: {through_api:?}"
    );
    assert_eq!(through_api.iter().copied().collect::<BTreeSet<_>>(), wanted);

    // The page's "Next page" link keeps every filter.
    let mut link = url(
        "/events",
        &[
            ("status", "registration"),
            ("q", "turnir"),
            ("club_id", &club),
            ("limit", "3"),
        ],
    );
    let mut seen = BTreeSet::new();
    for _ in 0..10 {
        let page = public.get(&link).await;
        assert_eq!(page.status.as_u16(), 200, "{link}: {}", page.body);
        for id in &every {
            if page.body.contains(&format!("/events/{id}\"")) {
                seen.insert(*id);
            }
        }
        let Some(start) = page.body.find("rel=\"next\" href=\"").map(|i| i + 17) else {
            break;
        };
        let end = page.body[start..].find('"').unwrap();
        link = page.body[start..start + end]
            .replace("&#38;", "&")
            .replace("&amp;", "&");
        assert!(
            link.contains("q=turnir") && link.contains(&format!("club_id={club}")),
            "{link}"
        );
    }
    assert_eq!(seen, wanted);

    // Without a status, the "Show all" link of a section keeps the filters.
    let html = public
        .get(&url("/events", &[("q", "turnir"), ("club_id", &club)]))
        .await
        .body
        .replace("&#38;", "&");
    assert!(
        html.contains(&format!(
            "/events?status=registration&q=turnir&club_id={club}"
        )),
        "{html}"
    );
}

/// Sets a starting Elo rating and recomputes the variant (as an import does).
async fn rate(app: &TestApp, player_id: i64, rating: i32) {
    app.with_db(move |conn| {
        store::players::set_rating(
            conn,
            &store::models::PlayerRating {
                player_id,
                variant: damka_engine::Variant::Russian,
                rating,
                games: 30,
            },
        )
        .unwrap();
        damka::service::ratings::recompute::recompute(conn, damka_engine::Variant::Russian)
            .unwrap();
    })
    .await;
}

#[actix_web::test]
async fn rating_filters_narrow_and_keep_the_overall_rank() {
    let app = TestApp::new().await;
    let mut admin_browser = app.user("admin@t.org", Role::Admin).await;
    let mut admin = admin_browser.api_client().await;
    let kazan = create_club(&mut admin, "Казань").await;
    // Rank in the whole list: 1 Сидоров, 2 Иванов Пётр (Kazan, RUS), 3 Petrova (RUS),
    // 4 Иванова Мария (Kazan, BLR), 5 Кузнецов (Kazan, RUS).
    let people = [
        ("Сидоров Олег", None, "", 2500),
        ("Иванов Пётр", Some(kazan), "RUS", 2400),
        ("Petrova Anna", None, "RUS", 2300),
        ("Иванова Мария", Some(kazan), "BLR", 2200),
        ("Кузнецов Иван", Some(kazan), "RUS", 2100),
    ];
    let mut ids_by_rank = Vec::new();
    for (name, club, country, rating) in people {
        let id = profile(
            &mut admin,
            json!({"name": name, "club_id": club, "country": country}),
        )
        .await;
        rate(&app, id, rating).await;
        ids_by_rank.push(id);
    }
    let rank_of = |id: i64| ids_by_rank.iter().position(|p| *p == id).unwrap() as i64 + 1;

    let mut public = app.client();
    let whole = public
        .get("/api/v1/ratings?variant=russian&system=elo")
        .await
        .json();
    assert_eq!(ids(&whole, "player_id"), ids_by_rank, "{whole}");

    let k = kazan.to_string();
    let cases: Vec<(Query, Vec<usize>)> = vec![
        (vec![("q", "Пётр Иванов")], vec![1]),
        (vec![("q", "petr ivanov")], vec![1]),
        (vec![("q", "ivanov")], vec![1, 3]),
        (vec![("q", "иван")], vec![1, 3, 4]),
        (vec![("club_id", &k)], vec![1, 3, 4]),
        (vec![("country", "rus")], vec![1, 2, 4]),
        (vec![("club_id", &k), ("country", "RUS")], vec![1, 4]),
        (vec![("q", "ivan"), ("country", "RUS")], vec![1, 4]),
        (
            vec![("q", "ivanova"), ("club_id", &k), ("country", "BLR")],
            vec![3],
        ),
        (vec![("q", "smith")], vec![]),
    ];
    for (pairs, expected) in &cases {
        let mut query = vec![("variant", "russian"), ("system", "elo")];
        query.extend(pairs.iter().copied());
        let page = public.get(&url("/api/v1/ratings", &query)).await;
        assert_eq!(page.status.as_u16(), 200, "{pairs:?}: {}", page.body);
        let page = page.json();
        let expected: Vec<i64> = expected.iter().map(|i| ids_by_rank[*i]).collect();
        assert_eq!(ids(&page, "player_id"), expected, "{pairs:?}");
        for item in page["items"].as_array().unwrap() {
            let id = item["player_id"].as_i64().unwrap();
            assert_eq!(
                item["rank"],
                rank_of(id),
                "{pairs:?}: the rank in the whole list"
            );
        }

        // The CSV takes the same filters.
        let csv = public.get(&url("/ratings.csv", &query)).await;
        assert_eq!(csv.status.as_u16(), 200, "{}", csv.body);
        let rows: Vec<(i64, i64)> = csv
            .body
            .lines()
            .skip(1)
            .map(|line| {
                let mut cells = line.split(',');
                let rank = cells.next().unwrap().parse().unwrap();
                (rank, cells.next().unwrap().parse().unwrap())
            })
            .collect();
        let expected_rows: Vec<(i64, i64)> =
            expected.iter().map(|id| (rank_of(*id), *id)).collect();
        assert_eq!(rows, expected_rows, "{pairs:?}: {}", csv.body);

        // The page shows them, says the ranks are the whole list's, and links the CSV with
        // the same filters.
        let html = public.get(&url("/ratings", &query)).await;
        assert_eq!(html.status.as_u16(), 200, "{}", html.body);
        for id in &ids_by_rank {
            assert_eq!(
                html.body.contains(&format!("href=\"/players/{id}\"")),
                expected.contains(id),
                "{pairs:?}: player {id}"
            );
        }
        if !expected.is_empty() {
            assert!(html.body.contains("id=\"rank-note\""), "{pairs:?}");
        }
        let start = html.body.find("href=\"/ratings.csv?").unwrap() + 19;
        let end = html.body[start..].find('"').unwrap();
        let link: Vec<(String, String)> = serde_urlencoded::from_str(
            &html.body[start..start + end]
                .replace("&#38;", "&")
                .replace("&amp;", "&"),
        )
        .unwrap();
        for (name, value) in pairs {
            assert!(
                link.iter()
                    .any(|(n, v)| n == name && v.eq_ignore_ascii_case(value)),
                "{pairs:?}: the CSV link {link:?} keeps {name}"
            );
        }
    }
    // The whole list has no note.
    let html = public.get("/ratings?variant=russian&system=elo").await;
    assert!(!html.body.contains("id=\"rank-note\""));

    // Pages of a name-filtered list: each match once, ranks of the whole list.
    let pairs = [
        ("variant", "russian"),
        ("system", "elo"),
        ("q", "ivan"),
        ("limit", "1"),
    ];
    let paged = every_page(&mut public, "/api/v1/ratings", &pairs, "player_id").await;
    assert_eq!(paged, vec![ids_by_rank[1], ids_by_rank[3], ids_by_rank[4]]);
    let page = public.get(&url("/ratings", &pairs)).await.body;
    assert!(page.contains("rel=\"next\" href=\"/ratings?"), "{page}");
    assert!(page.contains("q=ivan"), "the pager keeps the name: {page}");
}

/// The `value`s of the options of the entry form's player list on an event page.
fn offered(page: &str) -> Vec<i64> {
    let Some(start) = page.find("<select name=\"player_id\"") else {
        return Vec::new();
    };
    let end = start + page[start..].find("</select>").unwrap();
    page[start..end]
        .split("<option value=\"")
        .skip(1)
        .map(|option| option[..option.find('"').unwrap()].parse().unwrap())
        .collect()
}

#[actix_web::test]
async fn the_entry_form_searches_profiles_by_name() {
    let app = TestApp::new().await;
    let mut browser = app.user("org@t.org", Role::Organiser).await;
    let mut org = browser.api_client().await;
    let event = create_event(&mut org, json!({"name": "Cup", "system": "round_robin"})).await;
    let ivanov = profile(&mut org, json!({"name": "Иванов Пётр"})).await;
    let ivanova = profile(&mut org, json!({"name": "Иванова Мария"})).await;
    for i in 0..25 {
        profile(&mut org, json!({"name": format!("Aaron {i:02}")})).await;
    }
    let tab = format!("/events/{event}?tab=entries");

    // Without a search: the first few by name, not all 27.
    let page = browser.get(&tab).await;
    assert_eq!(page.status.as_u16(), 200);
    assert_eq!(offered(&page.body).len(), 20, "{}", page.body);
    assert!(page.body.contains("name=\"player_q\""));

    // A search in any spelling offers the matching profiles only.
    let search = |q: &str| {
        format!(
            "{tab}&{}",
            serde_urlencoded::to_string([("player_q", q)]).unwrap()
        )
    };
    let page = browser.get(&search("petr ivanov")).await;
    assert_eq!(offered(&page.body), vec![ivanov], "{}", page.body);
    let page = browser.get(&search("иванов")).await;
    assert_eq!(offered(&page.body), vec![ivanov, ivanova]);

    // An entered profile is no longer offered.
    let entered = org
        .json(
            Method::POST,
            &format!("/api/v1/events/{event}/entries"),
            json!({"player_id": ivanov}),
        )
        .await;
    assert_eq!(entered.status.as_u16(), 201, "{}", entered.body);
    let page = browser.get(&search("Пётр Иванов")).await;
    assert_eq!(offered(&page.body), Vec::<i64>::new());
    assert!(page.body.contains("id=\"no-candidates\""), "{}", page.body);

    // The form posts the chosen profile as before.
    let page = browser.get(&search("mariya")).await;
    assert_eq!(offered(&page.body), vec![ivanova]);
    let added = browser
        .post_form(
            &format!("/events/{event}/entries"),
            &[("player_id", &ivanova.to_string())],
        )
        .await;
    assert_eq!(added.status.as_u16(), 303, "{}", added.body);
    let entries = org
        .get(&format!("/api/v1/events/{event}/entries"))
        .await
        .json();
    assert_eq!(entries.as_array().unwrap().len(), 2, "{entries}");

    // Others see no search and no profiles.
    let page = app.client().get(&search("aaron")).await;
    assert_eq!(page.status.as_u16(), 200);
    assert!(offered(&page.body).is_empty());
    assert!(!page.body.contains("name=\"player_q\""));
}
