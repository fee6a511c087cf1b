//! Random and malformed request bodies through HTTP: JSON bodies to every API write, forms to
//! every page form, CSV, TRF and PDN files to the imports, and query strings. Whatever is
//! sent, the answer is a success or a clear refusal (4xx with problem+json and a `code` in
//! the API, an HTML page on the pages), within a bounded time; never a 5xx.
//!
//! Cases come from proptest strategies drawn with a seeded runner (the requests are async,
//! so proptest's own loop cannot drive them); a failure prints the body that caused it.
#![allow(clippy::unwrap_used)]
use std::time::{Duration, Instant};

use actix_web::http::Method;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::{Value, json};

use crate::common::{self, Client, Response, Role, TestApp};

/// One request in a debug build on a loaded two-core machine: generous, yet far below what
/// a parser that blew up on its input would take.
const REQUEST_BUDGET: Duration = Duration::from_secs(5);

fn runner() -> TestRunner {
    // Seeded, so that a failure is reproduced by running the test again.
    TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]),
    )
}

fn draw<S: Strategy>(runner: &mut TestRunner, strategy: &S) -> S::Value {
    strategy.new_tree(runner).unwrap().current()
}

thread_local! {
    /// How many answers of each status the cases got: printed, so that a run shows how far
    /// into the application its bodies reached (not all stopped at 400).
    static STATUSES: std::cell::RefCell<std::collections::BTreeMap<u16, usize>> =
        Default::default();
}

fn statuses() -> String {
    STATUSES.with(|s| format!("{:?}", s.borrow()))
}

/// The answer is a success or a clear refusal of the right kind, and came in time.
fn check(res: &Response, took: Duration, api: bool, what: &str) {
    let status = res.status.as_u16();
    STATUSES.with(|s| *s.borrow_mut().entry(status).or_default() += 1);
    assert!(took < REQUEST_BUDGET, "{what}: took {took:?}");
    assert!(
        status < 500,
        "{what}: {status} {}",
        res.body.chars().take(400).collect::<String>()
    );
    if res.status.is_client_error() {
        if api {
            assert_eq!(
                res.content_type(),
                "application/problem+json",
                "{what}: {}",
                res.body
            );
            let problem = res.json();
            assert!(
                problem["code"].as_str().is_some_and(|c| !c.is_empty()),
                "{what}: no code in {problem}"
            );
            assert!(
                problem["detail"]
                    .as_str()
                    .is_some_and(|d| !d.trim().is_empty()),
                "{what}: no detail in {problem}"
            );
        } else {
            assert!(
                res.content_type().starts_with("text/html"),
                "{what}: {}",
                res.content_type()
            );
        }
    }
}

async fn timed_request(
    client: &mut Client<'_>,
    method: Method,
    path: &str,
    body: Option<(&str, String)>,
) -> (Response, Duration) {
    let started = Instant::now();
    let res = client.request(method, path, body, &[]).await;
    (res, started.elapsed())
}

/// JSON values that break assumptions: wrong types, extremes, odd text, deep nesting.
fn hostile_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        prop::sample::select(vec![
            i64::MIN,
            i64::MAX,
            -1,
            0,
            1,
            2,
            3,
            i64::from(i32::MAX),
            i64::from(i32::MAX) + 1,
            i64::from(i32::MIN) - 1,
        ])
        .prop_map(Value::from),
        prop::sample::select(vec![1e308, -1e308, 0.5, -0.0, 1e-300]).prop_map(Value::from),
        prop::sample::select(vec![
            "",
            " ",
            "russian",
            "swiss",
            "round_robin",
            "1-0",
            "elo",
            "glicko2",
            "open",
            "organiser",
            "c3-d4",
            "\u{0}",
            "\u{202e}",
            "ж",
            "<script>",
            "9999999999999999999999",
            "1e999",
            "NaN",
            "2026-02-30",
            "-1",
        ])
        .prop_map(Value::from),
        "\\PC{0,40}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map("[a-z_]{1,12}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// A value of the same JSON type as `like`, at its extremes: what passes deserialising and
/// must be refused (or taken) by validation.
fn same_kind(like: &Value, seed: u64, text: &str) -> Value {
    const NUMBERS: [i64; 8] = [0, -1, 1, i64::MAX, i64::MIN, 2_147_483_648, 100_000, 7];
    const TEXTS: [&str; 6] = ["", " ", "\u{202e}x", "x\ny", "NaN", "-/-"];
    let pick = usize::try_from(seed % 8).unwrap_or(0);
    match like {
        Value::Number(_) => Value::from(NUMBERS[pick]),
        Value::String(_) if pick < TEXTS.len() => Value::from(TEXTS[pick]),
        Value::String(_) => Value::from(text.repeat(1 + pick * 40)),
        Value::Bool(_) => Value::from(pick % 2 == 0),
        Value::Array(items) => Value::Array(items.iter().chain(items).cloned().collect()),
        other => other.clone(),
    }
}

/// A valid body with some fields replaced (by a value of the same type or of any type),
/// dropped or added.
fn mutated(valid: Value) -> impl Strategy<Value = Value> {
    let keys: Vec<String> = valid
        .as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default();
    let keys = if keys.is_empty() {
        vec!["x".to_string()]
    } else {
        keys
    };
    (
        prop::collection::vec(
            (
                prop::sample::select(keys),
                hostile_json(),
                0u8..4,
                any::<u64>(),
                "\\PC{1,8}",
            ),
            1..4,
        ),
        "[a-z_]{1,10}",
        hostile_json(),
    )
        .prop_map(move |(edits, extra_key, extra_value)| {
            let mut body = valid.clone();
            if let Some(object) = body.as_object_mut() {
                for (key, value, how, seed, text) in edits {
                    match how {
                        0 => {
                            object.remove(&key);
                        }
                        1 => {
                            object.insert(key, value);
                        }
                        _ => {
                            let like = object.get(&key).cloned().unwrap_or(Value::Null);
                            object.insert(key, same_kind(&like, seed, &text));
                        }
                    }
                }
                if extra_key.len() % 2 == 0 {
                    object.insert(extra_key, extra_value);
                }
            }
            body
        })
}

/// Bytes that are not quite JSON.
fn broken_json() -> impl Strategy<Value = String> {
    prop_oneof![
        "\\PC{0,60}",
        prop::collection::vec(any::<u8>(), 0..80)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        Just("{".repeat(5000)),
        Just("[".repeat(5000) + &"]".repeat(5000)),
        Just("{\"name\": \"a\"".to_string()),
        Just("{\"name\": \"\\ud800\"}".to_string()),
        Just("{\"name\": \"a\", \"name\": \"b\"}".to_string()),
        Just("\u{feff}{\"name\": \"a\"}".to_string()),
        Just("null".to_string()),
        Just("[]".to_string()),
        Just("1e999999".to_string()),
    ]
}

struct Fixture {
    event: i64,
    game: i64,
    club: i64,
    player: i64,
    entry: i64,
    pairing: i64,
}

async fn fixture(api: &mut Client<'_>) -> Fixture {
    let club = common::create_club(api, "Hostile Club").await;
    let event = common::create_event(
        api,
        json!({"name": "Hostile Open", "system": "swiss", "rounds": 5}),
    )
    .await;
    let entries = common::enter_players(api, event, 4).await;
    let round = api.post(&format!("/api/v1/events/{event}/rounds")).await;
    assert_eq!(round.status.as_u16(), 201, "{}", round.body);
    let pairing = round.json()["boards"][0]["pairing_id"].as_i64().unwrap();
    let players = api.get("/api/v1/players").await.json();
    let ids: Vec<i64> = players["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_i64().unwrap())
        .collect();
    let made = api
        .json(
            Method::POST,
            "/api/v1/games",
            json!({"variant": "russian", "white_player_id": ids[0], "black_player_id": ids[1]}),
        )
        .await;
    assert_eq!(made.status.as_u16(), 201, "{}", made.body);
    Fixture {
        event,
        game: made.json()["id"].as_i64().unwrap(),
        club,
        player: ids[0],
        entry: entries[0],
        pairing,
    }
}

/// Every API route that reads a JSON body, with a valid body to start from.
fn json_routes(fx: &Fixture) -> Vec<(Method, String, Value)> {
    let Fixture {
        event,
        game,
        club,
        player,
        entry,
        pairing,
    } = *fx;
    vec![
        (
            Method::POST,
            "/api/v1/players".into(),
            json!({"name": "N", "club_id": club, "country": "RUS", "federation_id": "1", "birth_year": 1990, "title": ""}),
        ),
        (
            Method::PUT,
            format!("/api/v1/players/{player}"),
            json!({"name": "N", "club_id": club, "country": "RUS", "birth_year": 1990}),
        ),
        (
            Method::POST,
            "/api/v1/clubs".into(),
            json!({"name": "C", "city": "K", "country": "RUS", "description": ""}),
        ),
        (
            Method::PUT,
            format!("/api/v1/clubs/{club}"),
            json!({"name": "C", "city": "K"}),
        ),
        (
            Method::POST,
            format!("/api/v1/clubs/{club}/members"),
            json!({"email": "x@y.org", "role": "member"}),
        ),
        (
            Method::POST,
            "/api/v1/events".into(),
            json!({"name": "E", "system": "swiss", "rounds": 3, "variant": "russian", "time_control": "rapid", "tiebreaks": ["buchholz"], "local_rules": {"capture_choice": "free"}, "clock": {"kind": "fischer", "base_seconds": 600, "increment_seconds": 5}}),
        ),
        (
            Method::POST,
            "/api/v1/events/import".into(),
            json!({"trf": "012 T\nXXR 3\n", "variant": "russian"}),
        ),
        (
            Method::PUT,
            format!("/api/v1/events/{event}"),
            json!({"name": "E", "system": "swiss", "rounds": 5}),
        ),
        (
            Method::POST,
            format!("/api/v1/events/{event}/entries"),
            json!({"player_id": player}),
        ),
        (
            Method::PUT,
            format!("/api/v1/events/{event}/entries/{entry}/absence"),
            json!({"round": 2, "kind": "half_point_bye"}),
        ),
        (
            Method::POST,
            format!("/api/v1/events/{event}/forbidden-pairs"),
            json!({"first_entry_id": entry, "second_entry_id": entry + 1}),
        ),
        (
            Method::POST,
            format!("/api/v1/events/{event}/arbiters"),
            json!({"email": "x@y.org"}),
        ),
        (
            Method::PUT,
            format!("/api/v1/events/{event}/rounds/1/pairing"),
            json!({"boards": [{"white": 1, "black": 2}], "bye": 3}),
        ),
        (
            Method::POST,
            format!("/api/v1/events/{event}/rounds/1/pairing/check"),
            json!({"boards": [{"white": 1, "black": 2}]}),
        ),
        (
            Method::PUT,
            format!("/api/v1/events/{event}/pairings/{pairing}/result"),
            json!({"result": "1-0"}),
        ),
        (
            Method::POST,
            "/api/v1/games".into(),
            json!({"variant": "russian", "white_player_id": player, "black_player_id": player + 1, "rated": true, "draw_offer_min_moves": 0, "clock": {"kind": "fischer", "base_seconds": 60, "increment_seconds": 1}}),
        ),
        (
            Method::POST,
            format!("/api/v1/games/{game}/moves"),
            json!({"ply": 1, "text": "c3-d4", "offer_draw": false}),
        ),
        (
            Method::PUT,
            format!("/api/v1/games/{game}/result"),
            json!({"result": "1-0", "reason": "arbiter"}),
        ),
        (Method::POST, "/api/v1/tokens".into(), json!({"name": "t"})),
        (
            Method::PUT,
            "/api/v1/admin/users/1/roles".into(),
            json!({"admin": true, "organiser": true}),
        ),
        (
            Method::POST,
            "/api/v1/admin/invitations".into(),
            json!({"email": "x@y.org"}),
        ),
        (
            Method::PUT,
            "/api/v1/admin/registration".into(),
            json!({"mode": "open"}),
        ),
    ]
}

#[actix_web::test]
async fn random_json_bodies_get_a_clear_answer() {
    let app = TestApp::new().await;
    let mut browser = app.user("admin@hostile.org", Role::Admin).await;
    let mut api = browser.api_client().await;
    let fx = fixture(&mut api).await;
    let mut runner = runner();
    let mut cases = 0;
    for (method, path, valid) in json_routes(&fx) {
        for round in 0..12 {
            let body = if round % 3 == 2 {
                draw(&mut runner, &broken_json())
            } else {
                draw(&mut runner, &mutated(valid.clone())).to_string()
            };
            let (res, took) = timed_request(
                &mut api,
                method.clone(),
                &path,
                Some(("application/json", body.clone())),
            )
            .await;
            check(&res, took, true, &format!("{method} {path} with {body}"));
            cases += 1;
        }
        // The wrong content type, and none.
        let (res, took) = timed_request(
            &mut api,
            method.clone(),
            &path,
            Some(("text/plain", valid.to_string())),
        )
        .await;
        check(&res, took, true, &format!("{method} {path} as text/plain"));
        let (res, took) = timed_request(&mut api, method.clone(), &path, None).await;
        check(&res, took, true, &format!("{method} {path} without a body"));
    }
    println!(
        "random JSON bodies: {cases} cases, answers by status {}",
        statuses()
    );
}

/// Form fields: the known names and random ones, values of every kind.
fn hostile_form() -> impl Strategy<Value = String> {
    let name = prop_oneof![
        prop::sample::select(vec![
            "name",
            "club_id",
            "country",
            "federation_id",
            "birth_year",
            "title",
            "city",
            "description",
            "email",
            "role",
            "system",
            "rounds",
            "variant",
            "place",
            "starts_on",
            "ends_on",
            "time_control",
            "tiebreaks",
            "tiebreak_1",
            "first_colour",
            "clock_kind",
            "clock_base_min",
            "clock_increment_s",
            "player_id",
            "round",
            "kind",
            "first",
            "second",
            "result",
            "ply",
            "move",
            "offer_draw",
            "csv",
            "trf",
            "mode",
            "locale",
            "lang",
            "next",
            "list_system",
            "seeding_system",
            "admin",
            "organiser",
            "white_1",
            "black_1",
            "bye",
            "current_password",
            "new_password",
            "display_name",
            "password",
        ])
        .prop_map(str::to_string),
        "[a-z_]{1,8}",
    ];
    let value = prop_oneof![
        "\\PC{0,30}"
            .prop_map(|v| serde_urlencoded::to_string([("v", v)]).unwrap()[2..].to_string()),
        prop::sample::select(vec![
            "",
            "%",
            "%ZZ",
            "%FF%FE",
            "%00",
            "1e999",
            "-1",
            "99999999999999999999",
            "2026-13-45",
            "%E2%80%AE",
            "a&b",
            "==",
            "+",
            "%2B%2B",
            "on",
            "0",
            "1",
            "swiss",
            "russian",
        ])
        .prop_map(str::to_string),
    ];
    prop::collection::vec((name, value), 0..8).prop_map(|fields| {
        fields
            .into_iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("&")
    })
}

#[actix_web::test]
async fn random_form_bodies_get_a_clear_answer() {
    let app = TestApp::new().await;
    let mut admin = app.user("admin@hostile.org", Role::Admin).await;
    let mut api = admin.api_client().await;
    let fx = fixture(&mut api).await;
    let Fixture {
        event,
        game,
        club,
        player,
        entry,
        pairing,
    } = fx;
    let paths: Vec<String> = vec![
        "/lang".into(),
        "/account/language".into(),
        "/account/tokens".into(),
        "/players".into(),
        format!("/players/{player}"),
        "/ratings/import".into(),
        "/clubs".into(),
        format!("/clubs/{club}"),
        format!("/clubs/{club}/members"),
        "/events".into(),
        "/events/import".into(),
        format!("/events/{event}"),
        format!("/events/{event}/entries"),
        format!("/events/{event}/entries/{entry}/absence"),
        format!("/events/{event}/arbiters"),
        format!("/events/{event}/forbidden-pairs"),
        format!("/events/{event}/rounds/1/pairing"),
        format!("/events/{event}/pairings/{pairing}/result"),
        format!("/events/{event}/rounds/1/results"),
        format!("/games/{game}/moves"),
        format!("/games/{game}/result"),
        "/admin/registration".into(),
        "/admin/ratings".into(),
        "/admin/invitations".into(),
        "/admin/users/1/roles".into(),
        "/register".into(),
        "/setup".into(),
    ];
    let mut runner = runner();
    let mut cases = 0;
    for path in &paths {
        for _ in 0..10 {
            let token = admin.csrf_token().await;
            let fields = draw(&mut runner, &hostile_form());
            let body = format!("{fields}&csrf_token={token}");
            let (res, took) = timed_request(
                &mut admin,
                Method::POST,
                path,
                Some(("application/x-www-form-urlencoded", body.clone())),
            )
            .await;
            check(&res, took, false, &format!("POST {path} with {body}"));
            cases += 1;
        }
        // No CSRF token, a broken one, and not a form at all: refused as a page.
        for (content_type, body) in [
            ("application/x-www-form-urlencoded", "name=x".to_string()),
            (
                "application/x-www-form-urlencoded",
                "csrf_token=%FF%FE&name=x".to_string(),
            ),
            (
                "multipart/form-data; boundary=x",
                "--x\r\n\r\n--x--".to_string(),
            ),
            ("application/json", "{}".to_string()),
        ] {
            let (res, took) =
                timed_request(&mut admin, Method::POST, path, Some((content_type, body))).await;
            check(&res, took, false, &format!("POST {path} as {content_type}"));
            assert!(
                res.status.is_client_error(),
                "POST {path} as {content_type}: {}",
                res.status
            );
        }
    }
    println!(
        "random form bodies: {cases} cases, answers by status {}",
        statuses()
    );
}

/// CSV lines: the right columns with wrong cells, wrong columns, broken quoting.
fn hostile_csv() -> impl Strategy<Value = String> {
    let cell = prop_oneof![
        prop::sample::select(vec![
            "1",
            "2",
            "-1",
            "0",
            "99999999999999999999",
            "russian",
            "english",
            "elo",
            "glicko2",
            "1500",
            "1e308",
            "NaN",
            "inf",
            "-0",
            "350",
            "0.06",
            "\"",
            "\"\"",
            "\"a,b\"",
            "",
            " ",
            "ж",
            "\u{feff}",
        ])
        .prop_map(str::to_string),
        "\\PC{0,12}",
    ];
    let header = prop_oneof![
        Just("player_id,variant,system,rating,rd,volatility,games".to_string()),
        Just("federation_id,variant,system,rating".to_string()),
        Just("player_id,player_id,variant".to_string()),
        "[a-z_,\"]{0,40}",
    ];
    (
        header,
        prop::collection::vec(prop::collection::vec(cell, 0..9), 0..12),
        prop::sample::select(vec!["\n", "\r\n", "\r"]),
    )
        .prop_map(|(header, rows, newline)| {
            let mut text = header;
            for row in rows {
                text.push_str(newline);
                text.push_str(&row.join(","));
            }
            text
        })
}

#[actix_web::test]
async fn random_files_to_the_imports_get_a_clear_answer() {
    let app = TestApp::new().await;
    let mut admin = app.user("admin@hostile.org", Role::Admin).await;
    let mut api = admin.api_client().await;
    let fx = fixture(&mut api).await;
    let mut runner = runner();
    let mut cases = 0;
    for _ in 0..40 {
        let csv = draw(&mut runner, &hostile_csv());
        let (res, took) = timed_request(
            &mut api,
            Method::POST,
            "/api/v1/ratings/import",
            Some(("text/csv", csv.clone())),
        )
        .await;
        check(&res, took, true, &format!("ratings CSV {csv:?}"));
        let res = admin.post_form("/ratings/import", &[("csv", &csv)]).await;
        check(
            &res,
            Duration::ZERO,
            false,
            &format!("ratings CSV page {csv:?}"),
        );
        cases += 2;
    }
    let trf_files: Vec<String> = ["drr_seven.trf", "swiss_de.trf", "swiss_unplayed.trf"]
        .iter()
        .map(|name| {
            std::fs::read_to_string(format!(
                "{}/backend/domain/tests/data/{name}",
                env!("CARGO_MANIFEST_DIR")
            ))
            .unwrap()
        })
        .collect();
    let edit = (any::<usize>(), any::<usize>(), "\\PC{0,6}");
    for i in 0..30 {
        let mut text: Vec<char> = trf_files[i % trf_files.len()].chars().collect();
        for (at, cut, insert) in draw(&mut runner, &prop::collection::vec(edit, 1..6)) {
            let at = at % (text.len() + 1);
            let end = (at + cut % 8).min(text.len());
            text.splice(at..end, insert.chars());
        }
        let trf: String = text.into_iter().collect();
        let (res, took) = timed_request(
            &mut api,
            Method::POST,
            "/api/v1/events/import",
            Some((
                "application/json",
                json!({"trf": trf, "variant": "russian"}).to_string(),
            )),
        )
        .await;
        check(&res, took, true, &format!("TRF {trf:?}"));
        cases += 1;
    }
    let pdn_path = format!("/api/v1/events/{}/rounds/1/pdn", fx.event);
    let published = api
        .post(&format!("/api/v1/events/{}/rounds/publish", fx.event))
        .await;
    assert_eq!(published.status.as_u16(), 204, "{}", published.body);
    let pdn = "[Event \"Hostile Open\"]\n[Board \"1\"]\n[Result \"1-0\"]\n\n1. c3-d4 f6-g5 {a comment} 2. g3-f4 1-0\n";
    for _ in 0..30 {
        let mut text: Vec<char> = pdn.chars().collect();
        for (at, cut, insert) in draw(&mut runner, &prop::collection::vec(edit, 1..5)) {
            let at = at % (text.len() + 1);
            let end = (at + cut % 6).min(text.len());
            text.splice(at..end, insert.chars());
        }
        let text: String = text.into_iter().collect();
        let (res, took) = timed_request(
            &mut api,
            Method::POST,
            &pdn_path,
            Some(("text/plain", text.clone())),
        )
        .await;
        check(&res, took, true, &format!("PDN {text:?}"));
        cases += 1;
    }
    println!(
        "random import files: {cases} cases, answers by status {}",
        statuses()
    );
}

#[actix_web::test]
async fn random_query_strings_get_a_clear_answer() {
    let app = TestApp::new().await;
    let mut admin = app.user("admin@hostile.org", Role::Admin).await;
    let mut api = admin.api_client().await;
    let fx = fixture(&mut api).await;
    let event = fx.event;
    let query = prop::collection::vec(
        (
            prop::sample::select(vec![
                "variant",
                "system",
                "club_id",
                "country",
                "q",
                "club",
                "player_id",
                "event_id",
                "status",
                "tab",
                "after",
                "round",
                "ply",
                "flip",
                "next",
                "invitation",
                "x",
            ]),
            prop::sample::select(vec![
                "",
                "%",
                "%FF",
                "-1",
                "0",
                "99999999999999999999",
                "russian",
                "elo",
                "1",
                "abc",
                "%3Cscript%3E",
                "2147483648",
                "standings",
                "crosstable",
            ]),
        ),
        0..5,
    );
    let paths = [
        "/api/v1/players",
        "/api/v1/ratings",
        "/api/v1/events",
        "/api/v1/games",
        "/api/v1/clubs",
        "/players",
        "/ratings",
        "/ratings.csv",
        "/events",
        "/clubs",
        "/login",
        "/register",
    ];
    let mut runner = runner();
    let mut cases = 0;
    for path in paths.iter().map(|p| p.to_string()).chain([
        format!("/events/{event}"),
        format!("/games/{}", fx.game),
        format!("/events/{event}/standings/print"),
    ]) {
        for _ in 0..8 {
            let pairs = draw(&mut runner, &query);
            let q: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
            let url = format!("{path}?{}", q.join("&"));
            let started = Instant::now();
            let res = admin.get(&url).await;
            check(
                &res,
                started.elapsed(),
                path.starts_with("/api/"),
                &format!("GET {url}"),
            );
            cases += 1;
        }
    }
    println!(
        "random query strings: {cases} cases, answers by status {}",
        statuses()
    );
}
