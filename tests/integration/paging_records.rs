//! Pages of the lists of records: events, games, a rating list and an event's audit trail.
//! Each is read a few items at a time, over the API and on its page: every item exactly
//! once, in the whole list's order, the last page without a next cursor; a bad `limit` or
//! `cursor` is refused with its code.
#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test
use actix_web::http::Method;
use serde_json::{Value, json};

use crate::common::{self, Client, TestApp, organiser_api};

/// Reads every page of an API list at `limit` items a page (`path` has a query already);
/// returns the items in order and checks that only the last page has no next cursor.
async fn all_pages(api: &mut Client<'_>, path: &str, limit: usize) -> Vec<Value> {
    let mut items = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..1000 {
        let url = match &cursor {
            None => format!("{path}&limit={limit}"),
            Some(c) => format!("{path}&limit={limit}&cursor={c}"),
        };
        let res = api.get(&url).await;
        assert_eq!(res.status.as_u16(), 200, "{url}: {}", res.body);
        let page = res.json();
        let got = page["items"].as_array().unwrap().clone();
        assert!(got.len() <= limit, "{url}: {page}");
        match page["next_cursor"].as_str() {
            Some(next) => {
                assert_eq!(got.len(), limit, "a page before the last is full: {page}");
                cursor = Some(next.to_string());
                items.extend(got);
            }
            None => {
                assert!(page["next_cursor"].is_null(), "{page}");
                items.extend(got);
                return items;
            }
        }
    }
    panic!("{path}: no last page after 1000 pages");
}

/// The whole list in one page (it holds fewer items than the most a page may).
async fn one_page(api: &mut Client<'_>, path: &str) -> Vec<Value> {
    let page = api.get(&format!("{path}&limit=200")).await.json();
    assert!(page["next_cursor"].is_null(), "{page}");
    page["items"].as_array().unwrap().clone()
}

/// A bad `limit` and a bad `cursor` on an API list are refused, naming what was wrong.
async fn refuses_bad_paging(api: &mut Client<'_>, path: &str) {
    for limit in ["0", "201", "-3"] {
        api.get(&format!("{path}&limit={limit}"))
            .await
            .assert_refusal(422, "not_between");
    }
    // Not base64; base64 of no JSON; base64 of JSON that is no key (`{}`).
    for cursor in ["%21%21", "bm90IGpzb24", "e30"] {
        api.get(&format!("{path}&cursor={cursor}"))
            .await
            .assert_refusal(422, "bad_cursor");
    }
}

/// The link to the next page under a list, if any (HTML-unescaped).
fn next_link(body: &str) -> Option<String> {
    let start = body.find("rel=\"next\" href=\"")? + "rel=\"next\" href=\"".len();
    let end = body[start..].find('"')?;
    Some(
        body[start..start + end]
            .replace("&#38;", "&")
            .replace("&amp;", "&"),
    )
}

/// Follows the next links of a page from `first`; returns each page's body.
async fn follow_pages(client: &mut Client<'_>, first: &str) -> Vec<String> {
    let mut pages = Vec::new();
    let mut url = Some(first.to_string());
    while let Some(at) = url {
        let res = client.get(&at).await;
        assert_eq!(res.status.as_u16(), 200, "{at}: {}", res.body);
        url = next_link(&res.body);
        pages.push(res.body);
        assert!(pages.len() < 100, "{first}: no last page");
    }
    pages
}

/// The ids in the links `prefix{id}"` of a page, in order.
fn linked_ids(body: &str, prefix: &str) -> Vec<i64> {
    body.split(prefix)
        .skip(1)
        .filter_map(|rest| {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            (rest[digits.len()..].starts_with('"') && !digits.is_empty())
                .then(|| digits.parse().unwrap())
        })
        .collect()
}

fn ids(items: &[Value], field: &str) -> Vec<i64> {
    items.iter().map(|i| i[field].as_i64().unwrap()).collect()
}

fn assert_each_once(ids: &[i64]) {
    let mut sorted = ids.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), ids.len(), "an item twice: {ids:?}");
}

#[actix_web::test]
async fn events_come_a_page_at_a_time_newest_first_undated_last() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "pages-org@t.org").await;
    // Two on one day (the later created first), one undated (last).
    let days = [
        Some("2026-03-01"),
        Some("2026-05-01"),
        None,
        Some("2026-04-01"),
        Some("2026-05-01"),
        Some("2026-01-15"),
        Some("2026-06-30"),
    ];
    let mut made = Vec::new();
    for (i, day) in days.iter().enumerate() {
        let id = common::create_event(
            &mut org,
            json!({"name": format!("Open {i}"), "system": "swiss", "rounds": 3, "starts_on": day}),
        )
        .await;
        made.push((*day, id));
    }
    let mut expected = made.clone();
    expected.sort_by(|a, b| match (a.0, b.0) {
        (Some(x), Some(y)) => y.cmp(x).then(b.1.cmp(&a.1)),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => b.1.cmp(&a.1),
    });
    let expected: Vec<i64> = expected.iter().map(|(_, id)| *id).collect();

    let mut public = app.client();
    assert_eq!(
        ids(&one_page(&mut public, "/api/v1/events?").await, "id"),
        expected
    );
    for limit in [1, 2, 3, 7] {
        let paged = all_pages(&mut public, "/api/v1/events?", limit).await;
        assert_eq!(ids(&paged, "id"), expected, "limit {limit}");
    }
    let open = all_pages(&mut public, "/api/v1/events?status=registration", 3).await;
    assert_eq!(ids(&open, "id"), expected);
    assert!(
        one_page(&mut public, "/api/v1/events?status=running")
            .await
            .is_empty()
    );
    public
        .get("/api/v1/events?status=paused")
        .await
        .assert_refusal(422, "not_one_of");
    refuses_bad_paging(&mut public, "/api/v1/events?").await;

    // The page of one status, three at a time, by its next links.
    let pages = follow_pages(&mut public, "/events?status=registration&limit=3").await;
    assert_eq!(pages.len(), 3);
    let shown: Vec<i64> = pages
        .iter()
        .flat_map(|p| linked_ids(p, "href=\"/events/"))
        .collect();
    assert_eq!(shown, expected);
    // The list of every status shows them all (fewer than a section holds), no pager.
    let all = public.get("/events").await;
    assert_eq!(linked_ids(&all.body, "href=\"/events/"), expected);
    assert!(next_link(&all.body).is_none());
    assert_eq!(public.get("/events?limit=0").await.status.as_u16(), 422);
}

/// Enters eight rated players and plays `rounds` rounds of an event: four games a round.
async fn played_event(org: &mut Client<'_>, name: &str, rounds: usize) -> i64 {
    let event =
        common::create_event(org, json!({"name": name, "system": "swiss", "rounds": 5})).await;
    common::enter_players(org, event, 8).await;
    for _ in 0..rounds {
        common::play_round(org, event, &["1-0", "0-1", "1/2-1/2", "1-0"]).await;
    }
    event
}

#[actix_web::test]
async fn games_come_a_page_at_a_time_newest_first() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "games-org@t.org").await;
    let event = played_event(&mut org, "Games Open", 3).await;
    let path = format!("/api/v1/games?event_id={event}");
    let whole = ids(&one_page(&mut org, &path).await, "id");
    assert_eq!(whole.len(), 12, "{whole:?}");
    assert_each_once(&whole);
    assert!(
        whole.windows(2).all(|w| w[0] > w[1]),
        "newest first: {whole:?}"
    );
    for limit in [1, 5, 12] {
        assert_eq!(ids(&all_pages(&mut org, &path, limit).await, "id"), whole);
    }
    let finished = all_pages(&mut org, &format!("{path}&status=finished"), 5).await;
    assert_eq!(ids(&finished, "id"), whole);
    let player = finished[0]["white"]["player_id"].as_i64().unwrap();
    let of_player = all_pages(&mut org, &format!("/api/v1/games?player_id={player}"), 1).await;
    assert_eq!(of_player.len(), 3, "one game a round");
    assert!(
        of_player
            .iter()
            .all(|g| g["white"]["player_id"] == player || g["black"]["player_id"] == player)
    );
    refuses_bad_paging(&mut org, "/api/v1/games?").await;

    // The page of games, five at a time, by its next links.
    let mut public = app.client();
    let pages = follow_pages(&mut public, &format!("/games?event_id={event}&limit=5")).await;
    assert_eq!(pages.len(), 3);
    let shown: Vec<i64> = pages
        .iter()
        .flat_map(|p| linked_ids(p, "href=\"/games/"))
        .collect();
    assert_eq!(shown, whole);
    for bad in [
        "/games?player_id=x",
        "/games?status=paused",
        "/games?limit=201",
    ] {
        assert_eq!(public.get(bad).await.status.as_u16(), 422, "{bad}");
    }

    // Games played between two pages come before the cursor: the pages after it go on with
    // exactly the games that were there, none twice, none skipped.
    let first = org.get(&format!("{path}&limit=5")).await.json();
    common::play_round(&mut org, event, &["1-0", "0-1"]).await;
    let cursor = first["next_cursor"].as_str().unwrap();
    let rest = all_pages(&mut org, &format!("{path}&cursor={cursor}"), 200).await;
    let mut seen = ids(first["items"].as_array().unwrap(), "id");
    seen.extend(ids(&rest, "id"));
    assert_eq!(seen, whole);
    assert_eq!(one_page(&mut org, &path).await.len(), 16);
}

#[actix_web::test]
async fn a_rating_list_pages_with_ranks_of_the_whole_list() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "ratings-org@t.org").await;
    // Shown (rounded) ratings 2000, 1900 ×3, 1850 ×2 (1850.4 and 1849.6), 1800 ×2,
    // 1700 ×2: ties that pages of 3 and 5 cut through, one of them only after rounding.
    let ratings = [
        "1900", "1700", "2000", "1849.6", "1900", "1800", "1850.4", "1700", "1900", "1800",
    ];
    let mut csv = String::from("player_id,variant,system,rating,rd,volatility,games\n");
    for (i, rating) in ratings.iter().enumerate() {
        let made = org
            .json(
                Method::POST,
                "/api/v1/players",
                json!({"name": format!("Rated {i:02}")}),
            )
            .await;
        assert_eq!(made.status.as_u16(), 201, "{}", made.body);
        let id = made.json()["id"].as_i64().unwrap();
        csv.push_str(&format!("{id},russian,glicko2,{rating},60,0.06,20\n"));
    }
    import_ratings(&mut org, csv).await;

    let mut public = app.client();
    let path = "/api/v1/ratings?variant=russian&system=glicko2";
    let whole = one_page(&mut public, path).await;
    assert_each_once(&ids(&whole, "player_id"));
    let ranks: Vec<i64> = ids(&whole, "rank");
    assert_eq!(ranks, vec![1, 2, 2, 2, 5, 5, 7, 7, 9, 9]);
    let shown: Vec<i64> = ids(&whole, "rating");
    assert_eq!(
        shown,
        vec![2000, 1900, 1900, 1900, 1850, 1850, 1800, 1800, 1700, 1700]
    );
    for limit in [1, 2, 3, 5, 10] {
        let paged = all_pages(&mut public, path, limit).await;
        assert_eq!(paged, whole, "limit {limit}");
    }
    let page = public.get(&format!("{path}&limit=3")).await.json();
    assert_eq!(
        (&page["variant"], &page["system"]),
        (&json!("russian"), &json!("glicko2"))
    );
    refuses_bad_paging(&mut public, path).await;

    // The page, three at a time: the same players and ranks.
    let pages = follow_pages(
        &mut public,
        "/ratings?variant=russian&system=glicko2&limit=3",
    )
    .await;
    assert_eq!(pages.len(), 4);
    let players: Vec<i64> = pages
        .iter()
        .flat_map(|p| linked_ids(p, "href=\"/players/"))
        .collect();
    assert_eq!(players, ids(&whole, "player_id"));
    let page_ranks: Vec<i64> = pages.iter().flat_map(|p| ranks_of(p)).collect();
    assert_eq!(page_ranks, ranks);
    // The download stays the whole list.
    let csv = public
        .get("/ratings.csv?variant=russian&system=glicko2")
        .await;
    assert_eq!(csv.status.as_u16(), 200);
    assert_eq!(csv.body.lines().count(), 1 + ratings.len(), "{}", csv.body);
}

/// Imports starting ratings from `csv` over the API (it must succeed).
async fn import_ratings(org: &mut Client<'_>, csv: String) {
    let imported = org
        .request(
            Method::POST,
            "/api/v1/ratings/import",
            Some(("text/csv", csv)),
            &[],
        )
        .await;
    assert_eq!(imported.status.as_u16(), 201, "{}", imported.body);
}

/// The ranks in a rating list page's rows (`<tr><td class="num">7</td>`).
fn ranks_of(body: &str) -> Vec<i64> {
    body.split("<tr><td class=\"num\">")
        .skip(1)
        .filter_map(|rest| rest.split('<').next()?.trim().parse().ok())
        .collect()
}

#[actix_web::test]
async fn an_events_audit_trail_pages_newest_first() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "audit-org@t.org").await;
    let event = played_event(&mut org, "Audit Open", 2).await;
    let path = format!("/api/v1/events/{event}/changes?");
    let whole = one_page(&mut org, &path).await;
    assert_eq!(whole.len(), 8, "a result a board: {whole:?}");
    let at = |c: &Value| c["at"].as_str().unwrap().to_string();
    assert!(
        whole.windows(2).all(|w| at(&w[0]) >= at(&w[1])),
        "newest first"
    );
    for limit in [1, 3, 8] {
        assert_eq!(
            all_pages(&mut org, &path, limit).await,
            whole,
            "limit {limit}"
        );
    }
    refuses_bad_paging(&mut org, &path).await;

    let pages = follow_pages(&mut org, &format!("/events/{event}/changes?limit=3")).await;
    assert_eq!(pages.len(), 3);
    let rows: usize = pages.iter().map(|p| p.matches("<tr><td>").count()).sum();
    assert_eq!(rows, whole.len());
}

/// The CSV download holds every player of the list, however long, read and sent in batches
/// (a streamed body): 2,345 players cross two batch boundaries, and each appears
/// once with the rank the API's pages give it.
#[actix_web::test]
async fn the_rating_list_download_streams_every_player_once() {
    const PLAYERS: usize = 2_345;
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "csv-stream-org@t.org").await;
    let names = (0..PLAYERS).map(|i| format!("Csv{i:05}")).collect();
    let ids = crate::paging::insert(&app, names).await;
    let mut csv = String::from("player_id,variant,system,rating,rd,volatility,games\n");
    for (i, id) in ids.iter().enumerate() {
        // Ties every seven players, so that shared ranks straddle the batches too.
        csv.push_str(&format!(
            "{id},russian,glicko2,{},60,0.06,20\n",
            2400 - (i / 7) * 2
        ));
    }
    import_ratings(&mut org, csv).await;

    let mut public = app.client();
    let path = "/api/v1/ratings?variant=russian&system=glicko2";
    let pages = all_pages(&mut public, path, 200).await;
    let expected: Vec<(i64, i64)> = pages
        .iter()
        .map(|p| {
            (
                p["rank"].as_i64().unwrap(),
                p["player_id"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(expected.len(), PLAYERS);

    let download = public
        .get("/ratings.csv?variant=russian&system=glicko2")
        .await;
    assert_eq!(download.status.as_u16(), 200);
    let mut lines = download.body.lines();
    assert!(lines.next().unwrap().starts_with("rank,player_id,name,"));
    let rows: Vec<(i64, i64)> = lines
        .map(|line| {
            let mut cells = line.split(',');
            let rank = cells.next().unwrap().parse().unwrap();
            (rank, cells.next().unwrap().parse().unwrap())
        })
        .collect();
    assert_eq!(rows, expected);
    assert_each_once(&rows.iter().map(|(_, id)| *id).collect::<Vec<_>>());
}

/// A club's and a player's events: the API's `club_id` and `player_id` filters page them;
/// the club's and the player's pages show the latest 20 and lead to the rest on the events
/// list narrowed to them, whose sections keep the filter.
#[actix_web::test]
async fn a_clubs_and_a_players_events_page_from_their_pages() {
    const EVENTS: usize = 30;
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "scoped-org@t.org").await;
    let club = common::create_club(&mut org, "Шашечный клуб «Дебют»").await;
    let player = org
        .json(
            Method::POST,
            "/api/v1/players",
            json!({"name": "Пётр Иванов"}),
        )
        .await
        .json()["id"]
        .as_i64()
        .unwrap();
    let mut club_events = Vec::new();
    let mut player_events = Vec::new();
    for i in 0..EVENTS {
        let day = format!("2026-{:02}-{:02}", 1 + i % 12, 1 + i);
        let in_club = i % 5 != 0;
        let mut body = json!({"name": format!("Scoped {i}"), "system": "swiss", "rounds": 3,
            "starts_on": day});
        if in_club {
            body["club_id"] = json!(club);
        }
        let id = common::create_event(&mut org, body).await;
        if in_club {
            club_events.push((day.clone(), id));
        }
        if i % 7 != 3 {
            let entered = org
                .json(
                    Method::POST,
                    &format!("/api/v1/events/{id}/entries"),
                    json!({"player_id": player}),
                )
                .await;
            assert_eq!(entered.status.as_u16(), 201, "{}", entered.body);
            player_events.push((day, id));
        }
    }
    // One more event elsewhere, entered by nobody: in neither list.
    common::create_event(
        &mut org,
        json!({"name": "Elsewhere", "system": "swiss", "rounds": 3}),
    )
    .await;
    let newest_first = |mut events: Vec<(String, i64)>| {
        events.sort_by(|a, b| b.cmp(a));
        events.into_iter().map(|(_, id)| id).collect::<Vec<i64>>()
    };
    let club_events = newest_first(club_events);
    let player_events = newest_first(player_events);

    let mut public = app.client();
    for (path, expected) in [
        (format!("/api/v1/events?club_id={club}"), &club_events),
        (format!("/api/v1/events?player_id={player}"), &player_events),
    ] {
        for limit in [4, 50] {
            let paged = all_pages(&mut public, &path, limit).await;
            assert_eq!(&ids(&paged, "id"), expected, "{path} by {limit}");
        }
    }
    let both = all_pages(
        &mut public,
        &format!("/api/v1/events?club_id={club}&player_id={player}&status=registration"),
        5,
    )
    .await;
    let expected_both: Vec<i64> = club_events
        .iter()
        .copied()
        .filter(|id| player_events.contains(id))
        .collect();
    assert_eq!(ids(&both, "id"), expected_both);

    for (page, expected, all) in [
        (
            format!("/clubs/{club}"),
            &club_events,
            format!("/events?club_id={club}"),
        ),
        (
            format!("/players/{player}"),
            &player_events,
            format!("/events?player_id={player}"),
        ),
    ] {
        let body = public.get(&page).await.body;
        let shown = linked_ids(&body, "href=\"/events/");
        assert_eq!(shown, expected[..20], "{page}: the latest 20");
        assert!(
            body.contains(&format!("href=\"{all}\"")),
            "{page}: a link to all"
        );
        // The narrowed list: its heading names the club or the player, its one section's
        // "show all" keeps the filter, and its pages hold every event once.
        let list = public.get(&all).await;
        assert_eq!(list.status.as_u16(), 200, "{}", list.body);
        assert!(
            list.body.contains("«Дебют»") || list.body.contains("Пётр Иванов"),
            "{}",
            list.body
        );
        let section = format!("/events?status=registration&{}", &all["/events?".len()..]);
        assert!(
            list.body
                .replace("&#38;", "&")
                .contains(&format!("href=\"{section}\"")),
            "{all}: show all keeps the filter"
        );
        let pages = follow_pages(&mut public, &format!("{section}&limit=10")).await;
        let listed: Vec<i64> = pages
            .iter()
            .flat_map(|p| linked_ids(p, "href=\"/events/"))
            .collect();
        assert_eq!(&listed, expected, "{section}");
    }
    assert_eq!(
        public.get("/events?club_id=seven").await.status.as_u16(),
        422
    );
    assert_eq!(
        public.get("/events?club_id=999999").await.status.as_u16(),
        404
    );
}
