//! Print sheets over HTTP: the pairing sheet of a round (boards, colours, points before the
//! round, results, byes in words, drafts only for arbiters), the standings and crosstable
//! sheets (shared places, tie-break names, clubs and countries, after which round), their
//! Russian texts, and bad input answered with the app's 404/400 pages.
#![allow(clippy::unwrap_used)]
use crate::common;

use actix_web::http::Method;
use common::{Client, Role, TestApp};
use serde_json::{Value, json};

/// Name, rating, country, whether in the club: rated so that start numbers follow the order.
const FIELD: [(&str, i32, &str, bool); 5] = [
    ("Alekseev, Artem", 2400, "RUS", true),
    ("Borisova, Bella", 2350, "UKR", true),
    ("Vasiliev, Viktor", 2300, "RUS", false),
    ("Grigoriev, Gleb", 2250, "", false),
    ("Dmitrieva, Daria", 2200, "KAZ", false),
];

/// A Swiss event "Spring Open" in Kazan with the five players of `FIELD` entered; returns
/// its id and the entry ids in start-number order.
async fn spring_open(api: &mut Client<'_>) -> (i64, Vec<i64>) {
    let club = api
        .json(
            Method::POST,
            "/api/v1/clubs",
            json!({"name": "Chigorin Club", "city": "Kazan"}),
        )
        .await;
    assert_eq!(club.status.as_u16(), 201, "{}", club.body);
    let club_id = club.json()["id"].as_i64().unwrap();
    let event = api
        .json(
            Method::POST,
            "/api/v1/events",
            json!({
                "name": "Spring Open", "place": "Kazan", "system": "swiss", "rounds": 3,
                "starts_on": "2026-05-01", "ends_on": "2026-05-03"
            }),
        )
        .await;
    assert_eq!(event.status.as_u16(), 201, "{}", event.body);
    let id = event.json()["id"].as_i64().unwrap();
    let mut entries = Vec::new();
    for (name, rating, country, in_club) in FIELD {
        let mut profile = json!({"name": name, "country": country});
        if in_club {
            profile["club_id"] = json!(club_id);
        }
        let player = api.json(Method::POST, "/api/v1/players", profile).await;
        assert_eq!(player.status.as_u16(), 201, "{}", player.body);
        let player_id = player.json()["id"].as_i64().unwrap();
        api.app
            .with_db(move |conn| {
                damka::store::players::set_rating(
                    conn,
                    &damka::store::models::PlayerRating {
                        player_id,
                        variant: damka_engine::Variant::Russian,
                        rating,
                        games: 30,
                    },
                )
                .unwrap();
                // A starting rating counts once the variant is recomputed, as imports do.
                damka::service::ratings::recompute::recompute(conn, damka_engine::Variant::Russian)
                    .unwrap();
            })
            .await;
        let entry = api
            .json(
                Method::POST,
                &format!("/api/v1/events/{id}/entries"),
                json!({"player_id": player_id}),
            )
            .await;
        assert_eq!(entry.status.as_u16(), 201, "{}", entry.body);
        entries.push(entry.json()["id"].as_i64().unwrap());
    }
    (id, entries)
}

/// Pairs the next round (a draft) and returns it as the API shows it.
async fn pair(api: &mut Client<'_>, id: i64) -> Value {
    let round = api.post(&format!("/api/v1/events/{id}/rounds")).await;
    assert_eq!(round.status.as_u16(), 201, "{}", round.body);
    round.json()
}

async fn publish(api: &mut Client<'_>, id: i64) {
    let res = api
        .post(&format!("/api/v1/events/{id}/rounds/publish"))
        .await;
    assert_eq!(res.status.as_u16(), 204, "{}", res.body);
}

async fn set_result(api: &mut Client<'_>, id: i64, board: &Value, result: &str) {
    let res = api
        .json(
            Method::PUT,
            &format!(
                "/api/v1/events/{id}/pairings/{}/result",
                board["pairing_id"]
            ),
            json!({"result": result}),
        )
        .await;
    assert_eq!(res.status.as_u16(), 204, "{}", res.body);
}

fn games(round: &Value) -> Vec<&Value> {
    round["boards"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| !b["black_entry_id"].is_null())
        .collect()
}

/// A sheet page that must be there: 200, HTML, the print layout without the site's chrome.
async fn sheet(client: &mut Client<'_>, path: &str) -> String {
    let res = client.get(path).await;
    assert_eq!(res.status.as_u16(), 200, "{path}: {}", res.body);
    assert!(res.content_type().starts_with("text/html"));
    assert!(
        res.body.contains("/static/print.css"),
        "the print stylesheet"
    );
    assert!(!res.body.contains("site-header"), "no site navigation");
    res.body
}

/// Text of an HTML fragment: tags dropped, entities of the template escaper undone,
/// whitespace collapsed.
fn text(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    let out = out
        .replace("&#39;", "'")
        .replace("&#34;", "\"")
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The cells (`td`, or `th` for `tag = "th"`) of each `<tr class="{class}">` row.
fn rows(body: &str, class: &str) -> Vec<Vec<String>> {
    cells_of(body, &format!("<tr class=\"{class}\">"), "td")
}

/// The header cells of the table with this class.
fn headers(body: &str, table_class: &str) -> Vec<String> {
    let table = &body[body
        .find(&format!("<table class=\"{table_class}\">"))
        .unwrap_or_else(|| panic!("no table {table_class}"))..];
    cells_of(table, "<thead>", "th").remove(0)
}

fn cells_of(body: &str, marker: &str, tag: &str) -> Vec<Vec<String>> {
    body.split(marker)
        .skip(1)
        .map(|chunk| {
            let row = &chunk[..chunk.find("</tr>").unwrap()];
            row.split(&format!("<{tag}"))
                .skip(1)
                .map(|cell| {
                    let start = cell.find('>').unwrap() + 1;
                    let end = cell.find(&format!("</{tag}>")).unwrap();
                    text(&cell[start..end])
                })
                .collect()
        })
        .collect()
}

/// Points as the English pages write them.
fn points(half_points: &Value) -> String {
    let half = half_points.as_u64().unwrap();
    if half.is_multiple_of(2) {
        (half / 2).to_string()
    } else {
        format!("{}.5", half / 2)
    }
}

/// "Name rating" as a sheet prints a player.
fn player(no: &Value) -> String {
    let (name, rating, _, _) = FIELD[no.as_u64().unwrap() as usize - 1];
    format!("{name} {rating}")
}

async fn standings_json(client: &mut Client<'_>, id: i64, after: u32) -> Value {
    let res = client
        .get(&format!(
            "/api/v1/events/{id}/standings?after_round={after}"
        ))
        .await;
    assert_eq!(res.status.as_u16(), 200, "{}", res.body);
    res.json()
}

#[actix_web::test]
async fn pairing_sheet_lists_boards_byes_and_points_before_the_round() {
    let app = TestApp::new().await;
    let mut org = app.user("org@t.org", Role::Organiser).await;
    let mut api = org.api_client().await;
    let (id, entries) = spring_open(&mut api).await;
    let mut public = app.client();

    let round1 = pair(&mut api, id).await;
    let path1 = format!("/events/{id}/rounds/1/print");
    assert_eq!(
        public.get(&path1).await.status.as_u16(),
        404,
        "a draft does not exist for the public"
    );
    let draft = sheet(&mut org, &path1).await;
    assert!(draft.contains("Draft: not published yet"));
    publish(&mut api, id).await;
    let round1_games = games(&round1);
    assert_eq!(round1_games.len(), 2);
    set_result(&mut api, id, round1_games[0], "1-0").await;
    set_result(&mut api, id, round1_games[1], "1/2-1/2").await;

    let page = sheet(&mut public, &path1).await;
    assert!(!page.contains("Draft"));
    for expected in [
        "Spring Open",
        "Kazan",
        "1 May 2026 – 3 May 2026",
        "Pairings of round 1",
        "Printed on ",
        "use your browser&#39;s print command",
        "id=\"print-button\" hidden",
    ] {
        assert!(page.contains(expected), "{expected} in {page}");
    }
    assert_eq!(
        headers(&page, "pairings"),
        [
            "Board", "No.", "White", "Pts", "Result", "Pts", "No.", "Black"
        ]
    );
    let expected: Vec<Vec<String>> = round1_games
        .iter()
        .zip(["1 - 0", "½ - ½"])
        .map(|(b, result)| {
            vec![
                b["board"].to_string(),
                b["white_start_no"].to_string(),
                player(&b["white_start_no"]),
                "0".into(),
                result.into(),
                "0".into(),
                b["black_start_no"].to_string(),
                player(&b["black_start_no"]),
            ]
        })
        .collect();
    assert_eq!(rows(&page, "board"), expected);
    assert_eq!(
        rows(&page, "bye"),
        [["5", "Dmitrieva, Daria 2200", "0", "bye (pairing-allocated)"]],
        "the lowest-ranked player gets the PAB"
    );

    // Round 2: player 1 asked for a half-point bye; the sheet shows each player's points
    // before the round, and the unplayed game's result cell stays empty for the pen.
    let res = api
        .json(
            Method::PUT,
            &format!("/api/v1/events/{id}/entries/{}/absence", entries[0]),
            json!({"round": 2, "kind": "H"}),
        )
        .await;
    assert!(res.status.is_success(), "{}", res.body);
    let round2 = pair(&mut api, id).await;
    let path2 = format!("/events/{id}/rounds/2/print");
    assert_eq!(public.get(&path2).await.status.as_u16(), 404);
    assert!(sheet(&mut org, &path2).await.contains("Draft"));
    publish(&mut api, id).await;
    let round2_games = games(&round2);
    set_result(&mut api, id, round2_games[0], "0-1").await;

    let page = sheet(&mut public, &path2).await;
    let after1 = standings_json(&mut public, id, 1).await;
    let points_of = |no: &Value| {
        let row = after1["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["start_no"] == *no)
            .unwrap();
        points(&row["half_points"])
    };
    let boards = rows(&page, "board");
    assert_eq!(boards.len(), 2);
    for (row, b) in boards.iter().zip(&round2_games) {
        assert_eq!(row[0], b["board"].to_string());
        assert_eq!(row[2], player(&b["white_start_no"]), "White on the left");
        assert_eq!(row[3], points_of(&b["white_start_no"]));
        assert_eq!(row[5], points_of(&b["black_start_no"]));
        assert_eq!(row[7], player(&b["black_start_no"]), "Black on the right");
    }
    assert_eq!(boards[0][4], "0 - 1");
    assert_eq!(boards[1][4], "", "no result yet: room to write it");
    assert_eq!(
        rows(&page, "bye"),
        [["1", "Alekseev, Artem 2400", "1", "half-point bye"]]
    );
    assert!(
        boards.iter().any(|r| r[3] == "0.5" || r[5] == "0.5"),
        "the drawn players bring half a point: {boards:?}"
    );

    // Arbiters see drafts too; other signed-in users do not.
    let _round3 = {
        set_result(&mut api, id, round2_games[1], "1-0").await;
        pair(&mut api, id).await
    };
    let path3 = format!("/events/{id}/rounds/3/print");
    let mut arbiter = app.user("arbiter@t.org", Role::Player).await;
    let mut stranger = app.user("stranger@t.org", Role::Player).await;
    assert_eq!(arbiter.get(&path3).await.status.as_u16(), 404);
    let res = api
        .json(
            Method::POST,
            &format!("/api/v1/events/{id}/arbiters"),
            json!({"email": "arbiter@t.org"}),
        )
        .await;
    assert!(res.status.is_success(), "{}", res.body);
    assert!(sheet(&mut arbiter, &path3).await.contains("Draft"));
    assert_eq!(stranger.get(&path3).await.status.as_u16(), 404);
}

#[actix_web::test]
async fn standings_sheet_has_shared_places_tiebreak_names_clubs_and_countries() {
    let app = TestApp::new().await;
    let mut org = app.user("org@t.org", Role::Organiser).await;
    let mut api = org.api_client().await;
    let (id, _) = spring_open(&mut api).await;
    let mut public = app.client();

    // Before any round: the starting list, everybody on 0.
    let page = sheet(&mut public, &format!("/events/{id}/standings/print")).await;
    assert!(page.contains("Starting list: no results yet"), "{page}");
    assert_eq!(rows(&page, "standing").len(), 5);

    let round1 = pair(&mut api, id).await;
    publish(&mut api, id).await;
    let round1_games = games(&round1);
    set_result(&mut api, id, round1_games[0], "1-0").await;
    set_result(&mut api, id, round1_games[1], "1/2-1/2").await;
    let round2 = pair(&mut api, id).await;
    publish(&mut api, id).await;
    set_result(&mut api, id, games(&round2)[0], "1-0").await;

    // Round 2 is not complete: the sheet defaults to the standings after round 1.
    let page = sheet(&mut public, &format!("/events/{id}/standings/print")).await;
    assert!(page.contains("Standings after round 1"), "{page}");
    let api_rows = standings_json(&mut public, id, 1).await;
    let tiebreaks: Vec<String> = api_rows["tiebreaks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect();
    assert_eq!(tiebreaks, ["BH/C1", "BH", "SB", "WIN"]);
    let mut expected_headers: Vec<String> = [
        "Place", "No.", "Name", "Rating", "Club", "Country", "Points",
    ]
    .map(String::from)
    .to_vec();
    // Short headers (the draughts names of a Russian-variant event), explained below.
    expected_headers.extend(["tr. Solk.", "Solk.", "SB", "WIN"].map(String::from));
    assert_eq!(headers(&page, "standings"), expected_headers);
    assert!(
        page.contains(
            "tr. Solk.: truncated Solkoff · Solk.: Solkoff · SB: Sonneborn-Berger · WIN: Wins"
        ),
        "the legend names each tie-break: {page}"
    );

    let printed = rows(&page, "standing");
    let api_rows = api_rows["rows"].as_array().unwrap();
    assert_eq!(printed.len(), api_rows.len());
    for (row, api_row) in printed.iter().zip(api_rows) {
        let no = api_row["start_no"].as_u64().unwrap() as usize;
        let (name, rating, country, in_club) = FIELD[no - 1];
        let mut expected = vec![
            api_row["place"].as_str().unwrap().to_string(),
            no.to_string(),
            name.to_string(),
            rating.to_string(),
            if in_club { "Chigorin Club" } else { "" }.to_string(),
            country.to_string(),
            points(&api_row["half_points"]),
        ];
        expected.extend(
            api_row["tiebreaks"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap().to_string()),
        );
        assert_eq!(*row, expected);
    }
    let shared: Vec<&Vec<String>> = printed.iter().filter(|r| r[0] == "3-4").collect();
    assert_eq!(
        shared.len(),
        2,
        "the two drawn players share places 3-4: {printed:?}"
    );
    assert!(shared.iter().all(|r| r[6] == "0.5"));

    // `?after=` (as on the tab), `?round=` and `?after_round=` (as in the API) pick the
    // round; round 2 counts one game.
    for query in ["after=2", "round=2", "after_round=2"] {
        let page = sheet(
            &mut public,
            &format!("/events/{id}/standings/print?{query}"),
        )
        .await;
        assert!(page.contains("Standings after round 2"), "{query}");
    }
    let after2 = standings_json(&mut public, id, 2).await;
    let page = sheet(
        &mut public,
        &format!("/events/{id}/standings/print?after=2"),
    )
    .await;
    let places: Vec<String> = rows(&page, "standing")
        .iter()
        .map(|r| format!("{} {}", r[0], r[2]))
        .collect();
    let expected: Vec<String> = after2["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            format!(
                "{} {}",
                r["place"].as_str().unwrap(),
                r["name"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(places, expected);

    // A draft round 3 is not a round the public can ask standings after.
    set_result(&mut api, id, games(&round2)[1], "0-1").await;
    pair(&mut api, id).await;
    assert_eq!(
        public
            .get(&format!("/events/{id}/standings/print?after=3"))
            .await
            .status
            .as_u16(),
        404
    );
    let page = sheet(&mut public, &format!("/events/{id}/standings/print")).await;
    assert!(page.contains("Standings after round 2"));
}

#[actix_web::test]
async fn russian_sheets() {
    let app = TestApp::new().await;
    let mut org = app.user("org@t.org", Role::Organiser).await;
    let mut api = org.api_client().await;
    let (id, _) = spring_open(&mut api).await;
    let round1 = pair(&mut api, id).await;
    publish(&mut api, id).await;
    set_result(&mut api, id, games(&round1)[0], "1-0").await;
    set_result(&mut api, id, games(&round1)[1], "1/2-1/2").await;

    let mut ru = app.client();
    ru.headers
        .push(("accept-language".into(), "ru-RU,ru;q=0.9".into()));
    let page = sheet(&mut ru, &format!("/events/{id}/rounds/1/print")).await;
    assert!(page.contains("<html lang=\"ru\">"));
    for expected in [
        "Пары 1-го тура",
        "Напечатано ",
        "1 мая 2026",
        "Не играют в этом туре",
        "свободный тур (по жеребьёвке)",
        "Страница подготовлена для печати",
    ] {
        assert!(page.contains(expected), "{expected} in {page}");
    }
    assert_eq!(
        headers(&page, "pairings"),
        [
            "Доска",
            "№",
            "Белые",
            "Очки",
            "Результат",
            "Очки",
            "№",
            "Чёрные"
        ]
    );

    let page = sheet(&mut ru, &format!("/events/{id}/standings/print")).await;
    assert!(page.contains("Таблица после 1-го тура"), "{page}");
    let header = headers(&page, "standings");
    assert_eq!(
        header[..7],
        ["Место", "№", "Имя", "Рейтинг", "Клуб", "Страна", "Очки"]
    );
    assert_eq!(
        header[7..],
        ["Усеч. Солк.", "К. Солк.", "К. Берг.", "Побед"]
    );
    assert!(
        page.contains("Усеч. Солк.: усечённый коэффициент Солкофа"),
        "{page}"
    );
    assert!(
        rows(&page, "standing").iter().any(|r| r[6] == "0,5"),
        "a half point is written 0,5"
    );
    let tiebreak_cells: Vec<String> = rows(&page, "standing")
        .iter()
        .flat_map(|r| r[7..].to_vec())
        .collect();
    assert!(
        tiebreak_cells.iter().all(|c| !c.contains('.'))
            && tiebreak_cells.iter().any(|c| c.contains(',')),
        "tie-break values with the Russian decimal comma: {tiebreak_cells:?}"
    );
}

#[actix_web::test]
async fn crosstable_sheet_and_the_two_one_zero_scale() {
    let app = TestApp::new().await;
    let mut org = app.user("org@t.org", Role::Organiser).await;
    let mut api = org.api_client().await;
    let event = api
        .json(
            Method::POST,
            "/api/v1/events",
            json!({"name": "Club RR", "system": "round_robin", "scoring_display": "2-1-0"}),
        )
        .await;
    assert_eq!(event.status.as_u16(), 201, "{}", event.body);
    let id = event.json()["id"].as_i64().unwrap();
    common::enter_players(&mut api, id, 4).await;
    let round1 = pair(&mut api, id).await;
    publish(&mut api, id).await;
    set_result(&mut api, id, games(&round1)[0], "1/2-1/2").await;
    set_result(&mut api, id, games(&round1)[1], "1-0").await;

    let mut public = app.client();
    let page = sheet(&mut public, &format!("/events/{id}/rounds/1/print")).await;
    let boards = rows(&page, "board");
    assert_eq!(boards[0][4], "1 - 1", "a draw on the 2-1-0 scale");
    assert_eq!(boards[1][4], "2 - 0");

    let page = sheet(&mut public, &format!("/events/{id}/crosstable/print")).await;
    assert!(page.contains("class=\"sheet wide\""), "printed landscape");
    assert!(page.contains("Crosstable after round 1"));
    for n in 0..4 {
        assert!(page.contains(&format!("Player {n:02}")));
    }
    let page = sheet(&mut public, &format!("/events/{id}/standings/print")).await;
    assert_eq!(
        headers(&page, "standings")[..5],
        ["Place", "No.", "Name", "Rating", "Points"],
        "no club or country columns when nobody has one"
    );
    let printed = rows(&page, "standing");
    assert_eq!(printed[0][4], "2", "a win is 2 points on the 2-1-0 scale");
    assert!(printed.iter().any(|r| r[0] == "2-3" && r[4] == "1"));

    // The sheets' assets are served.
    let css = public.get("/static/print.css").await;
    assert_eq!(css.status.as_u16(), 200);
    assert!(css.content_type().starts_with("text/css"));
    assert!(css.body.contains("thead { display: table-header-group; }"));
    let js = public.get("/static/print.js").await;
    assert_eq!(js.status.as_u16(), 200);
    assert!(js.body.contains("window.print()"));
}

#[actix_web::test]
async fn bad_input_gives_the_not_found_and_bad_request_pages() {
    let app = TestApp::new().await;
    let mut org = app.user("org@t.org", Role::Organiser).await;
    let mut api = org.api_client().await;
    let (id, _) = spring_open(&mut api).await;
    let round1 = pair(&mut api, id).await;
    publish(&mut api, id).await;
    set_result(&mut api, id, games(&round1)[0], "1-0").await;

    let mut browser = app.client();
    for (path, status) in [
        ("/events/999999/rounds/1/print".to_string(), 404),
        ("/events/abc/rounds/1/print".to_string(), 404),
        (format!("/events/{id}/rounds/2/print"), 404),
        (format!("/events/{id}/rounds/0/print"), 404),
        (format!("/events/{id}/rounds/-1/print"), 404),
        (format!("/events/{id}/rounds/abc/print"), 404),
        (format!("/events/{id}/rounds/99999999999/print"), 404),
        ("/events/999999/standings/print".to_string(), 404),
        (format!("/events/{id}/standings/print?after=2"), 404),
        (format!("/events/{id}/standings/print?after=0"), 404),
        (format!("/events/{id}/standings/print?after=abc"), 400),
        (format!("/events/{id}/standings/print?round=-1"), 400),
        ("/events/999999/crosstable/print".to_string(), 404),
        (format!("/events/{id}/crosstable/print?after=5"), 404),
        (format!("/events/{id}/crosstable/print?after=x"), 400),
    ] {
        let res = browser.get(&path).await;
        assert_eq!(res.status.as_u16(), status, "{path}: {}", res.body);
        assert!(
            res.content_type().starts_with("text/html"),
            "{path}: the app's error page"
        );
        assert!(res.body.contains("site-header"), "{path}: {}", res.body);
    }
    let res = browser
        .request(
            Method::GET,
            &format!("/events/{id}/rounds/7/print"),
            None,
            &[("accept", "application/json")],
        )
        .await;
    res.assert_problem(404, "not-found");
}
