//! The tables to take away: an event's standings, crosstable and pairings, and the rating
//! list, as CSV (read back with the `csv` crate) and .xlsx (read back with `calamine`),
//! compared with what the JSON API says; a name that looks like a formula stays literal
//! text in both; drafts are not exported to the public; the sheet of every round's pairings.
#![allow(clippy::unwrap_used)]
use std::io::Cursor;

use actix_web::http::Method;
use calamine::{Data, Reader, Xlsx};
use serde_json::{Value, json};

use crate::common::{self, Client, Role, TestApp};

const FORMULA: &str = "=HYPERLINK(\"x\")";
const NAMES: [&str; 5] = [FORMULA, "Иванов, Пётр", "Smith \"Bo\"", "Brown", "+Plus"];

/// A downloaded file: status 200, the content type and an attachment named `filename`.
async fn download(client: &mut Client<'_>, path: &str, kind: &str, filename: &str) -> Vec<u8> {
    let (res, bytes) = client.get_bytes(path).await;
    assert_eq!(res.status.as_u16(), 200, "{path}: {}", res.body);
    assert!(
        res.content_type().starts_with(kind),
        "{path}: {}",
        res.content_type()
    );
    let disposition = res
        .headers
        .get("content-disposition")
        .unwrap()
        .to_str()
        .unwrap();
    assert_eq!(disposition, format!("attachment; filename=\"{filename}\""));
    bytes
}

/// A CSV file's records (the header first), as a spreadsheet's CSV reader sees them.
async fn csv_file(client: &mut Client<'_>, path: &str, filename: &str) -> Vec<Vec<String>> {
    let bytes = download(client, path, "text/csv", filename).await;
    assert!(
        bytes.starts_with("\u{feff}".as_bytes()),
        "a byte order mark"
    );
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(&bytes[3..]);
    let records: Vec<Vec<String>> = reader
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect();
    let width = records[0].len();
    assert!(records.iter().all(|r| r.len() == width), "{records:?}");
    records
}

/// An .xlsx file's first sheet as rows of cells (the header first), with its name; every
/// cell is checked to hold no formula.
async fn xlsx_file(
    client: &mut Client<'_>,
    path: &str,
    filename: &str,
) -> (String, Vec<Vec<Data>>) {
    let bytes = download(client, path, "application/vnd.openxmlformats", filename).await;
    read_xlsx(path, bytes)
}

fn read_xlsx(path: &str, bytes: Vec<u8>) -> (String, Vec<Vec<Data>>) {
    let mut book: Xlsx<_> = calamine::open_workbook_from_rs(Cursor::new(bytes)).unwrap();
    let name = book.sheet_names()[0].clone();
    let formulas = book.worksheet_formula(&name).unwrap();
    assert!(
        formulas.used_cells().all(|(_, _, f)| f.is_empty()),
        "no formulas in {path}"
    );
    let range = book.worksheet_range(&name).unwrap();
    assert_eq!(range.start(), Some((0, 0)));
    (name, range.rows().map(<[Data]>::to_vec).collect())
}

fn text(cell: &Data) -> String {
    match cell {
        Data::String(s) => s.clone(),
        Data::Empty => String::new(),
        other => panic!("not text: {other:?}"),
    }
}

fn number(cell: &Data) -> f64 {
    match cell {
        Data::Float(x) => *x,
        Data::Int(n) => *n as f64,
        other => panic!("not a number: {other:?}"),
    }
}

/// What a CSV field holds once a spreadsheet has read it: the guard's leading `'` is the
/// spreadsheet's mark for "text", not part of the value.
fn unguarded(field: &str) -> &str {
    field.strip_prefix('\'').unwrap_or(field)
}

fn points(half_points: &Value) -> f64 {
    half_points.as_u64().unwrap() as f64 / 2.0
}

/// A result as the tables write it.
fn result(code: &Value) -> String {
    match code.as_str() {
        None => String::new(),
        Some("1/2-1/2") => "½-½".into(),
        Some(other) => other.into(),
    }
}

/// A Swiss event of the five `NAMES` with `rounds` rounds played and published (all
/// results in) and one more paired as a draft; returns its id.
async fn swiss(api: &mut Client<'_>, rounds: usize) -> i64 {
    let id = common::create_event(
        api,
        json!({"name": "Exports Open", "system": "swiss", "rounds": 4}),
    )
    .await;
    common::enter_named(api, id, &NAMES).await;
    for _ in 0..rounds {
        common::play_round(api, id, &["1-0", "1/2-1/2"]).await;
    }
    let draft = api.post(&format!("/api/v1/events/{id}/rounds")).await;
    assert_eq!(draft.status.as_u16(), 201, "{}", draft.body);
    id
}

async fn api_get(client: &mut Client<'_>, path: &str) -> Value {
    let res = client.get(path).await;
    assert_eq!(res.status.as_u16(), 200, "{path}: {}", res.body);
    res.json()
}

#[actix_web::test]
async fn standings_in_csv_and_xlsx_say_what_the_api_says() {
    let app = TestApp::new().await;
    let mut api = common::organiser_api(&app, "org@t.org").await;
    let id = swiss(&mut api, 2).await;
    let mut public = app.client();
    let json = api_get(
        &mut public,
        &format!("/api/v1/events/{id}/standings?after_round=2"),
    )
    .await;
    let rows = json["rows"].as_array().unwrap();
    let tiebreaks = json["tiebreaks"].as_array().unwrap().len();
    assert_eq!(rows.len(), 5);

    let path = format!("/events/{id}/standings.csv?after=2");
    let name = format!("event-{id}-standings.csv");
    let csv = csv_file(&mut public, &path, &name).await;
    assert_eq!(
        csv[0][..7],
        [
            "Place", "No.", "Name", "Rating", "Club", "Country", "Points"
        ]
    );
    assert_eq!(csv[0].len(), 7 + tiebreaks);
    let path = format!("/events/{id}/standings.xlsx?after=2");
    let (sheet, xlsx) = xlsx_file(&mut public, &path, &format!("event-{id}-standings.xlsx")).await;
    assert_eq!(sheet, "Standings");
    let titles: Vec<String> = xlsx[0].iter().map(text).collect();
    assert_eq!(titles, csv[0], "the same columns in both formats");

    for (i, row) in rows.iter().enumerate() {
        let (c, x) = (&csv[i + 1], &xlsx[i + 1]);
        let place = row["place"].as_str().unwrap();
        assert_eq!(c[0], place);
        match place.parse::<f64>() {
            Ok(n) => assert_eq!(number(&x[0]), n),
            Err(_) => assert_eq!(text(&x[0]), place),
        }
        assert_eq!(c[1], row["start_no"].to_string());
        assert_eq!(number(&x[1]), row["start_no"].as_f64().unwrap());
        let player = row["name"].as_str().unwrap();
        assert_eq!(unguarded(&c[2]), player);
        assert_eq!(text(&x[2]), player, "a name is text, as typed");
        assert_eq!(c[6].parse::<f64>().unwrap(), points(&row["half_points"]));
        assert_eq!(
            number(&x[6]),
            points(&row["half_points"]),
            "points are numbers"
        );
        for (k, value) in row["tiebreaks"].as_array().unwrap().iter().enumerate() {
            let value: f64 = value.as_str().unwrap().parse().unwrap();
            assert_eq!(c[7 + k].parse::<f64>().unwrap(), value);
            assert_eq!(number(&x[7 + k]), value);
        }
    }
    // The formula-looking name: guarded in the CSV, a plain string in the workbook.
    let formula_row = rows.iter().position(|r| r["name"] == FORMULA).unwrap() + 1;
    assert_eq!(csv[formula_row][2], format!("'{FORMULA}"));
    assert_eq!(xlsx[formula_row][2], Data::String(FORMULA.into()));
    assert!(
        csv.iter()
            .flatten()
            .all(|f| !f.starts_with(['=', '+', '-', '@']))
    );
}

#[actix_web::test]
async fn crosstable_and_pairings_in_csv_and_xlsx_say_what_the_api_says() {
    let app = TestApp::new().await;
    let mut api = common::organiser_api(&app, "org@t.org").await;
    let id = swiss(&mut api, 2).await;
    let mut public = app.client();

    let json = api_get(
        &mut public,
        &format!("/api/v1/events/{id}/crosstable?after_round=2"),
    )
    .await;
    let csv = csv_file(
        &mut public,
        &format!("/events/{id}/crosstable.csv?after=2"),
        &format!("event-{id}-crosstable.csv"),
    )
    .await;
    let (_, xlsx) = xlsx_file(
        &mut public,
        &format!("/events/{id}/crosstable.xlsx?after=2"),
        &format!("event-{id}-crosstable.xlsx"),
    )
    .await;
    assert_eq!(
        csv[0][..7],
        ["Place", "No.", "Name", "Rating", "1", "2", "Points"]
    );
    for (i, row) in json["rows"].as_array().unwrap().iter().enumerate() {
        let (c, x) = (&csv[i + 1], &xlsx[i + 1]);
        assert_eq!(unguarded(&c[2]), row["name"].as_str().unwrap());
        assert_eq!(text(&x[2]), row["name"].as_str().unwrap());
        for (round, cell) in row["cells"].as_array().unwrap().iter().enumerate() {
            let cell = cell["text"].as_str().unwrap();
            assert_eq!(
                unguarded(&c[4 + round]),
                cell,
                "row {i} round {}",
                round + 1
            );
            assert_eq!(text(&x[4 + round]), cell);
        }
        assert_eq!(c[6].parse::<f64>().unwrap(), points(&row["half_points"]));
        assert_eq!(number(&x[6]), points(&row["half_points"]));
    }

    let rounds = api_get(&mut public, &format!("/api/v1/events/{id}/rounds")).await;
    let rounds = rounds.as_array().unwrap();
    assert_eq!(rounds.len(), 2, "the draft is not the public's");
    for round in rounds {
        let n = round["number"].as_i64().unwrap();
        let csv = csv_file(
            &mut public,
            &format!("/events/{id}/rounds/{n}/pairings.csv"),
            &format!("event-{id}-round-{n}-pairings.csv"),
        )
        .await;
        let (sheet, xlsx) = xlsx_file(
            &mut public,
            &format!("/events/{id}/rounds/{n}/pairings.xlsx"),
            &format!("event-{id}-round-{n}-pairings.xlsx"),
        )
        .await;
        assert_eq!(sheet, format!("Round {n}"));
        assert_eq!(
            csv[0],
            [
                "Board", "No.", "White", "Rating", "Result", "No.", "Black", "Rating"
            ]
        );
        let boards = round["boards"].as_array().unwrap();
        let (games, byes): (Vec<&Value>, Vec<&Value>) =
            boards.iter().partition(|b| !b["black_entry_id"].is_null());
        assert_eq!(csv.len(), 1 + games.len() + byes.len());
        for (i, b) in games.iter().chain(&byes).enumerate() {
            let (c, x) = (&csv[i + 1], &xlsx[i + 1]);
            assert_eq!(unguarded(&c[2]), b["white_name"].as_str().unwrap());
            assert_eq!(text(&x[2]), b["white_name"].as_str().unwrap());
            assert_eq!(number(&x[1]), b["white_start_no"].as_f64().unwrap());
            if b["black_entry_id"].is_null() {
                assert_eq!(c[0], "");
                assert_eq!(c[4], "bye (pairing-allocated)");
                assert_eq!(text(&x[4]), "bye (pairing-allocated)");
                continue;
            }
            assert_eq!(c[0], b["board"].to_string());
            assert_eq!(number(&x[0]), b["board"].as_f64().unwrap());
            assert_eq!(c[4], result(&b["result"]));
            assert_eq!(text(&x[4]), result(&b["result"]));
            assert_eq!(unguarded(&c[6]), b["black_name"].as_str().unwrap());
            assert_eq!(text(&x[6]), b["black_name"].as_str().unwrap());
            assert_eq!(number(&x[5]), b["black_start_no"].as_f64().unwrap());
        }
    }
}

#[actix_web::test]
async fn drafts_are_not_exported_to_the_public() {
    let app = TestApp::new().await;
    let mut browser = app.user("org@t.org", Role::Organiser).await;
    let mut api = browser.api_client().await;
    let id = swiss(&mut api, 1).await;
    let mut public = app.client();
    for path in [
        format!("/events/{id}/rounds/2/pairings.csv"),
        format!("/events/{id}/rounds/2/pairings.xlsx"),
        format!("/events/{id}/standings.csv?after=2"),
        format!("/events/{id}/crosstable.xlsx?after=2"),
        format!("/events/{id}/rounds/9/pairings.csv"),
        "/events/999999/standings.csv".to_string(),
    ] {
        let res = public.get(&path).await;
        assert_eq!(res.status.as_u16(), 404, "{path}");
        assert!(res.content_type().starts_with("text/html"), "{path}");
    }
    // The event's arbiter sees the draft, as on the pairings tab.
    let csv = csv_file(
        &mut browser,
        &format!("/events/{id}/rounds/2/pairings.csv"),
        &format!("event-{id}-round-2-pairings.csv"),
    )
    .await;
    assert_eq!(csv.len(), 1 + 3, "two games and a bye");
    // The schedule shows the public the draft's number only, not its boards.
    let page = public.get(&format!("/events/{id}/schedule/print")).await;
    assert_eq!(page.status.as_u16(), 200);
    let round2 = &page.body[page.body.find("id=\"round-2\"").unwrap()..];
    assert!(round2.contains("Draft: not published yet"));
    assert!(!round2.contains("class=\"board\""));
}

#[actix_web::test]
async fn russian_readers_get_russian_titles_and_words() {
    let app = TestApp::new().await;
    let mut api = common::organiser_api(&app, "org@t.org").await;
    let id = swiss(&mut api, 1).await;
    let mut reader = app.client();
    reader.headers.push(("accept-language".into(), "ru".into()));
    let csv = csv_file(
        &mut reader,
        &format!("/events/{id}/rounds/1/pairings.csv"),
        &format!("event-{id}-round-1-pairings.csv"),
    )
    .await;
    assert_eq!(csv[0][2], "Белые");
    assert_eq!(csv[0][6], "Чёрные");
    let bye = csv.last().unwrap();
    assert_eq!(bye[4], damka::web::i18n::Lang::Ru.t("event.bye.U"));
    let (sheet, xlsx) = xlsx_file(
        &mut reader,
        &format!("/events/{id}/standings.xlsx"),
        &format!("event-{id}-standings.xlsx"),
    )
    .await;
    assert_eq!(sheet, "Положение");
    assert_eq!(text(&xlsx[0][6]), "Очки");
    // Points stay numbers whatever the language's decimal mark.
    assert!(
        xlsx[1..]
            .iter()
            .all(|r| matches!(r[6], Data::Float(_) | Data::Int(_)))
    );
}

/// The boards of each round on the schedule sheet: round number to (board, white, result,
/// black), names with their start numbers as printed (`3. Brown`).
fn schedule_boards(page: &str) -> Vec<(u32, Vec<[String; 4]>)> {
    page.split("<section class=\"schedule-round\" id=\"round-")
        .skip(1)
        .map(|section| {
            let number = section[..section.find('"').unwrap()].parse().unwrap();
            let boards = section
                .split("<tr class=\"board\">")
                .skip(1)
                .map(|row| {
                    let row = &row[..row.find("</tr>").unwrap()];
                    let cells: Vec<String> = row
                        .split("<td")
                        .skip(1)
                        .map(|cell| {
                            let inner =
                                &cell[cell.find('>').unwrap() + 1..cell.find("</td>").unwrap()];
                            common::page_text(inner)
                        })
                        .collect();
                    cells.try_into().unwrap()
                })
                .collect();
            (number, boards)
        })
        .collect()
}

#[actix_web::test]
async fn the_schedule_sheet_shows_every_round_of_a_round_robin() {
    let app = TestApp::new().await;
    let mut api = common::organiser_api(&app, "org@t.org").await;
    let id = common::create_event(
        &mut api,
        json!({"name": "Club Round Robin", "system": "round_robin"}),
    )
    .await;
    let names = ["Alekseev", "Borisov", "Vasiliev", "Grigoriev", "Dmitriev"];
    common::enter_named(&mut api, id, &names).await;
    let mut public = app.client();
    let path = format!("/events/{id}/schedule/print");
    let before = public.get(&path).await;
    assert_eq!(before.status.as_u16(), 200);
    assert!(
        before.body.contains("once round 1 is paired"),
        "{}",
        before.body
    );
    assert!(before.body.contains("/static/print.css"));

    let round1 = common::play_round(&mut api, id, &["1-0", "1/2-1/2"]).await;
    let page = public.get(&path).await;
    assert_eq!(page.status.as_u16(), 200);
    let rounds = schedule_boards(&page.body);
    assert_eq!(
        rounds.iter().map(|(n, _)| *n).collect::<Vec<_>>(),
        [1, 2, 3, 4, 5],
        "five players: five rounds, all on the sheet"
    );
    // Everybody meets everybody exactly once, two boards a round and one player free.
    let mut met = std::collections::BTreeSet::new();
    for (n, boards) in &rounds {
        assert_eq!(boards.len(), 2, "round {n}");
        for [_, white, _, black] in boards {
            let mut pair = [white.clone(), black.clone()];
            pair.sort();
            assert!(met.insert(pair.clone()), "{pair:?} twice");
        }
    }
    assert_eq!(met.len(), 10);
    assert_eq!(page.body.matches("class=\"bye\"").count(), 5);
    // Round 1 as played, with its results; the rounds to come are marked as such.
    for (board, printed) in common::games(&round1).iter().zip(&rounds[0].1) {
        assert_eq!(printed[0], board["board"].to_string());
        assert!(printed[1].ends_with(board["white_name"].as_str().unwrap()));
        assert!(printed[3].ends_with(board["black_name"].as_str().unwrap()));
    }
    assert_eq!(rounds[0].1[0][2], "1 - 0");
    assert_eq!(rounds[0].1[1][2], "½ - ½");
    assert_eq!(
        page.body
            .matches("as the round-robin table pairs it")
            .count(),
        4
    );

    // The table's round 2 is the round the event then pairs.
    let round2 = common::play_round(&mut api, id, &[]).await;
    for (board, printed) in common::games(&round2).iter().zip(&rounds[1].1) {
        assert!(printed[1].ends_with(board["white_name"].as_str().unwrap()));
        assert!(printed[3].ends_with(board["black_name"].as_str().unwrap()));
    }
}

#[actix_web::test]
async fn the_schedule_of_a_swiss_shows_the_rounds_paired_so_far() {
    let app = TestApp::new().await;
    let mut api = common::organiser_api(&app, "org@t.org").await;
    let id = swiss(&mut api, 2).await;
    let mut public = app.client();
    let page = public.get(&format!("/events/{id}/schedule/print")).await;
    assert_eq!(page.status.as_u16(), 200);
    let rounds = schedule_boards(&page.body);
    assert_eq!(
        rounds.iter().map(|(n, _)| *n).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    assert_eq!(rounds[0].1.len(), 2);
    assert_eq!(rounds[1].1.len(), 2);
    assert!(
        rounds[2].1.is_empty(),
        "the draft's boards are not the public's"
    );
    // The formula-looking name is shown as text.
    assert!(page.body.contains("=HYPERLINK(&#34;x&#34;)"));
    let event = public.get(&format!("/events/{id}?tab=rounds")).await;
    assert!(event.body.contains(&format!("/events/{id}/schedule/print")));
    assert!(
        event
            .body
            .contains(&format!("/events/{id}/rounds/2/pairings.xlsx"))
    );
}

/// Players rated in the Russian Elo list, straight into the tables (a federation's list
/// is this size; the API would take minutes to enter it).
async fn bulk_rated_players(app: &TestApp, count: u32) {
    app.with_db(move |conn| {
        use diesel::RunQueryDsl;
        let players = format!(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {count}) \
             INSERT INTO players (name, country, federation_id, title, created_at) \
             SELECT 'Bulk ' || CAST(i AS TEXT), 'RUS', '', '', CURRENT_TIMESTAMP FROM n"
        );
        diesel::sql_query(players).execute(conn).unwrap();
        let ratings = "INSERT INTO ratings (player_id, variant, system, rating, games, \
             provisional, history_steps, history_digest) \
             SELECT id, 'russian', 'elo', 1000 + (id % 1500), 12, false, 0, 0 FROM players \
             WHERE name LIKE 'Bulk %'";
        diesel::sql_query(ratings).execute(conn).unwrap();
    })
    .await;
}

#[actix_web::test]
async fn the_rating_list_as_xlsx_has_every_player_across_its_batches() {
    let app = TestApp::new().await;
    let mut api = common::organiser_api(&app, "org@t.org").await;
    let formula = api
        .json(
            Method::POST,
            "/api/v1/players",
            json!({"name": FORMULA, "country": "KAZ"}),
        )
        .await;
    assert_eq!(formula.status.as_u16(), 201, "{}", formula.body);
    let formula_id = formula.json()["id"].as_i64().unwrap();
    // Across three of the 1,000-row batches the list is read in. How fast a federation's
    // list is written is a benchmark's question, not this test's.
    const BULK: u32 = 3_456;
    bulk_rated_players(&app, BULK).await;
    app.with_db(move |conn| {
        use diesel::RunQueryDsl;
        let top = format!(
            "INSERT INTO ratings (player_id, variant, system, rating, games, provisional, \
             history_steps, history_digest) VALUES ({formula_id}, 'russian', 'elo', 2900, 40, \
             false, 0, 0)"
        );
        diesel::sql_query(top).execute(conn).unwrap();
    })
    .await;

    let mut public = app.client();
    let path = "/ratings.xlsx?variant=russian&system=elo";
    let bytes = download(
        &mut public,
        path,
        "application/vnd",
        "ratings-russian-elo.xlsx",
    )
    .await;
    let (sheet, rows) = read_xlsx(path, bytes);
    assert_eq!(sheet, "Rating list");
    assert_eq!(
        rows.len(),
        1 + 1 + BULK as usize,
        "a header and every player"
    );
    let titles: Vec<String> = rows[0].iter().map(text).collect();
    assert_eq!(
        titles,
        [
            "#",
            "Player id",
            "Name",
            "Club",
            "Country",
            "Rating",
            "RD",
            "Games",
            "Provisional",
            "Last played"
        ]
    );
    assert_eq!(
        rows[1][2],
        Data::String(FORMULA.into()),
        "the top player, as text"
    );
    assert_eq!(number(&rows[1][5]), 2900.0);
    // Ranks go on across the batches the list is read in.
    let ranks: Vec<f64> = rows[1..].iter().map(|r| number(&r[0])).collect();
    assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "ranks in order");
    let mut ids: Vec<i64> = rows[1..].iter().map(|r| number(&r[1]) as i64).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 1 + BULK as usize, "nobody twice");

    // A filtered list: the same players and figures as the CSV with the same filter.
    let csv = csv_text(
        &mut public,
        "/ratings.csv?variant=russian&system=elo&country=KAZ",
    )
    .await;
    let path = "/ratings.xlsx?variant=russian&system=elo&country=KAZ";
    let (_, rows) = xlsx_file(&mut public, path, "ratings-russian-elo.xlsx").await;
    assert_eq!(rows.len(), 2);
    assert_eq!(csv.len(), 2);
    let (x, c) = (&rows[1], &csv[1]);
    assert_eq!(c[2], format!("'{FORMULA}"), "guarded in the CSV");
    assert_eq!(text(&x[2]), unguarded(&c[2]));
    for column in [0, 1, 5, 7] {
        assert_eq!(
            number(&x[column]),
            c[column].parse::<f64>().unwrap(),
            "column {column}"
        );
    }
    assert_eq!(text(&x[4]), c[4]);
    let bad = public.get("/ratings.xlsx?variant=checkers").await;
    assert_eq!(bad.status.as_u16(), 422, "{}", bad.body);
}

/// The existing `/ratings.csv` read with a CSV reader (no byte order mark: its contract).
async fn csv_text(client: &mut Client<'_>, path: &str) -> Vec<Vec<String>> {
    let res = client.get(path).await;
    assert_eq!(res.status.as_u16(), 200);
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(res.body.as_bytes())
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect()
}
