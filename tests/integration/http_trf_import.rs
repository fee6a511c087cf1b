//! TRF import over HTTP: a corpus file through the API (players, rounds, results, standings
//! against the domain's own figures, export again), round trips of events built through
//! the API, errors naming the line, permissions, and the HTML form.
#![allow(clippy::unwrap_used)]
use crate::common;

use actix_web::http::Method;
use common::{Client, Role, TestApp, enter_players, organiser_api};
use damka_domain::standings::{StandingsOptions, compute_standings};
use damka_domain::tiebreak::{EventKind, parse_tiebreak_list};
use damka_domain::tournament::{ByeKind, RoundEntry, Tournament};
use serde_json::{Value, json};

const SWISS_14: &str = include_str!("../data/dutch/dutch_014_07.trf");
const SWISS_12_HALF_PAB: &str = include_str!("../data/dutch/dutch_012_05.trf");

async fn import(api: &mut Client<'_>, trf: &str) -> common::Response {
    api.json(
        Method::POST,
        "/api/v1/events/import",
        json!({"trf": trf, "variant": "russian"}),
    )
    .await
}

async fn import_ok(api: &mut Client<'_>, trf: &str) -> Value {
    let res = import(api, trf).await;
    assert_eq!(res.status.as_u16(), 201, "{}", res.body);
    res.json()
}

/// The export through the API: with the client's token when it has one (the organiser's
/// export carries the forbidden pairs), anonymous otherwise.
async fn export(client: &mut Client<'_>, id: i64) -> String {
    let res = client.get(&format!("/api/v1/events/{id}/export.trf")).await;
    assert_eq!(res.status.as_u16(), 200, "{}", res.body);
    res.body
}

async fn get_json(client: &mut Client<'_>, path: &str) -> Value {
    let res = client.get(path).await;
    assert_eq!(res.status.as_u16(), 200, "{path}: {}", res.body);
    res.json()
}

/// What the export can carry of a player's rounds: a round without a game or bye is
/// written as `0000 - Z`, and W/D/L (games without a move) are stored as ordinary results.
fn normalised(t: &Tournament) -> Vec<(u32, String, Option<u32>, Vec<RoundEntry>)> {
    t.players
        .iter()
        .map(|p| {
            (
                p.start_no,
                p.name.clone(),
                p.rating,
                p.rounds
                    .iter()
                    .map(|e| match *e {
                        RoundEntry::NotPaired => RoundEntry::Bye(ByeKind::ZeroPoint),
                        RoundEntry::Played {
                            opponent,
                            colour,
                            outcome,
                            ..
                        } => RoundEntry::Played {
                            opponent,
                            colour,
                            outcome,
                            rated: true,
                        },
                        other => other,
                    })
                    .collect(),
            )
        })
        .collect()
}

/// The standings `damka standings --trf` prints for this file, with the event's tie-breaks.
fn domain_standings(trf: &str, tiebreaks: &str) -> Vec<(String, u32, u32, Vec<String>)> {
    let t = damka_domain::trf::parse(trf).unwrap();
    let table = compute_standings(
        &t,
        &StandingsOptions {
            tiebreaks: Some(parse_tiebreak_list(tiebreaks).unwrap()),
            kind: Some(EventKind::Swiss),
            ..StandingsOptions::default()
        },
    )
    .unwrap();
    table
        .rows
        .iter()
        .map(|r| {
            (
                r.place_label(),
                r.start_no,
                r.points.0,
                r.tiebreaks.iter().map(|v| v.to_string()).collect(),
            )
        })
        .collect()
}

fn api_standings(standings: &Value) -> Vec<(String, u32, u32, Vec<String>)> {
    standings["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["place"].as_str().unwrap().to_string(),
                r["start_no"].as_u64().unwrap() as u32,
                r["half_points"].as_u64().unwrap() as u32,
                r["tiebreaks"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_str().unwrap().to_string())
                    .collect(),
            )
        })
        .collect()
}

/// A TRF player line in the fixed columns of the format.
fn player_line(
    no: u32,
    name: &str,
    rating: &str,
    fed: &str,
    fed_id: &str,
    born: &str,
    cells: &[&str],
) -> String {
    let mut line = format!(
        "001 {no:>4}      {name:<33} {rating:>4} {fed:<3} {fed_id:>11} {born:<10} {:>4} {no:>4}",
        "0.0"
    );
    for cell in cells {
        line.push_str("  ");
        line.push_str(cell);
    }
    line.trim_end().to_string()
}

fn boards_of(round: &Value) -> &Vec<Value> {
    round["boards"].as_array().unwrap()
}

#[actix_web::test]
async fn corpus_file_imports_players_rounds_results_and_standings() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let event = import_ok(&mut org, SWISS_14).await;
    let id = event["id"].as_i64().unwrap();
    assert_eq!(event["name"], "dutch_014_07");
    assert_eq!(event["system"], "swiss");
    assert_eq!(event["rounds"], 7);
    assert_eq!(event["first_colour"], "black");
    assert_eq!(event["pab_half_points"], 2);
    assert_eq!(event["status"], "running");
    assert_eq!(event["variant"], "russian");

    // Players: the TRF's start numbers, names and ratings; a profile each, rated.
    let entries = get_json(&mut org, &format!("/api/v1/events/{id}/entries")).await;
    let entries = entries.as_array().unwrap();
    assert_eq!(entries.len(), 14);
    for (i, e) in entries.iter().enumerate() {
        assert_eq!(e["start_no"], i as i64 + 1);
        assert_eq!(e["name"], format!("Player {}", i + 1));
    }
    assert_eq!(entries[0]["rating"], 2509);
    assert_eq!(entries[13]["rating"], 1472);
    let profile = get_json(
        &mut org,
        &format!("/api/v1/players/{}", entries[0]["player_id"]),
    )
    .await;
    // The file's rating is where the player's Elo starts; the event (rated, its results
    // in) is the first period, and the profile shows the rating after it.
    assert_eq!(profile["ratings"][0]["variant"], "russian");
    let player_id = entries[0]["player_id"].as_i64().unwrap();
    let steps = app
        .with_db(move |conn| {
            damka::store::ratings::history(
                conn,
                player_id,
                damka_engine::Variant::Russian,
                damka_domain::vocabulary::RatingSystem::Elo,
            )
            .unwrap()
        })
        .await;
    assert_eq!(steps.len(), 1, "{steps:?}");
    assert_eq!(steps[0].rating_before, Some(2509.0));
    assert_eq!(steps[0].event_id, Some(id));
    assert_eq!(
        profile["ratings"][0]["rating"].as_f64(),
        steps[0].rating_after
    );

    // Rounds: all published, one board per game, byes after the games.
    let mut public = app.client();
    let rounds = get_json(&mut public, &format!("/api/v1/events/{id}/rounds")).await;
    let rounds = rounds.as_array().unwrap();
    assert_eq!(rounds.len(), 7);
    assert!(rounds.iter().all(|r| r["published"] == true));
    let round1 = boards_of(&rounds[0]);
    assert_eq!(round1.len(), 8, "6 games, player 5 absent, player 14 PAB");
    assert_eq!(round1[6]["bye"], "U");
    assert_eq!(round1[6]["white_start_no"], 14);
    assert_eq!(round1[7]["bye"], "Z");
    assert_eq!(round1[7]["white_start_no"], 5);
    // Round 1, 8 b 1 against 1 w 0 ... seen from player 1: "8 b 1" (player 1 Black, won).
    let game = round1
        .iter()
        .find(|b| b["white_start_no"] == 8)
        .expect("8 had White against 1");
    assert_eq!(game["black_start_no"], 1);
    assert_eq!(game["result"], "0-1");
    // Round 3: 9 w - / 5 b +, a forfeit won by Black.
    let forfeit = boards_of(&rounds[2])
        .iter()
        .find(|b| b["white_start_no"] == 9)
        .expect("9 had White against 5");
    assert_eq!(forfeit["black_start_no"], 5);
    assert_eq!(forfeit["result"], "-/+");
    // Round 6: player 2 has a blank cell: no board at all; player 8 has the PAB.
    let round6 = boards_of(&rounds[5]);
    assert!(
        !round6
            .iter()
            .any(|b| b["white_start_no"] == 2 || b["black_start_no"] == 2)
    );
    assert!(
        round6
            .iter()
            .any(|b| b["white_start_no"] == 8 && b["bye"] == "U")
    );
    // Boards: the leaders' game first.
    assert_eq!(boards_of(&rounds[6])[0]["board"], 1);

    // Standings: the same figures as the domain computes from the file itself.
    let standings = get_json(&mut public, &format!("/api/v1/events/{id}/standings")).await;
    assert_eq!(standings["after_round"], 7);
    assert_eq!(
        api_standings(&standings),
        domain_standings(SWISS_14, event["tiebreaks"].as_str().unwrap())
    );

    // Export again: the same history (a blank cell comes back as `0000 - Z`).
    let exported = export(&mut org, id).await;
    let original = damka_domain::trf::parse(SWISS_14).unwrap();
    let again = damka_domain::trf::parse(&exported).unwrap();
    assert_eq!(normalised(&again), normalised(&original));
    assert_eq!(again.total_rounds, 7);
    assert_eq!(again.first_colour, original.first_colour);
    assert_eq!(again.forbidden_pairs, original.forbidden_pairs);
    assert_eq!(again.points, original.points);

    // And the exported file is a fixed point: import it, export it, same text.
    let second = import_ok(&mut org, &exported).await;
    let second_id = second["id"].as_i64().unwrap();
    assert_eq!(export(&mut org, second_id).await, exported);
    // The public export is the same file without the forbidden pair.
    let public_file = export(&mut public, second_id).await;
    assert!(exported.contains("\nXXP "), "{exported}");
    assert!(!public_file.contains("XXP"), "{public_file}");
    assert_eq!(
        public_file,
        exported
            .lines()
            .filter(|l| !l.starts_with("XXP"))
            .map(|l| format!("{l}\n"))
            .collect::<String>()
    );
}

#[actix_web::test]
async fn half_point_pab_and_games_without_moves() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let event = import_ok(&mut org, SWISS_12_HALF_PAB).await;
    let id = event["id"].as_i64().unwrap();
    assert_eq!(event["pab_half_points"], 1, "162 ... P 0.5");
    assert_eq!(event["first_colour"], "white");

    // Every score as in the file (the PAB worth a draw, W/L counted as wins and losses).
    let original = damka_domain::trf::parse(SWISS_12_HALF_PAB).unwrap();
    let standings = get_json(&mut org, &format!("/api/v1/events/{id}/standings")).await;
    for row in standings["rows"].as_array().unwrap() {
        let no = row["start_no"].as_u64().unwrap() as u32;
        let player = original.players.iter().find(|p| p.start_no == no).unwrap();
        assert_eq!(
            row["half_points"].as_u64().unwrap() as u32,
            damka_domain::trf::score(&original, player).0,
            "player {no}"
        );
    }
    // Round 5: 1 v 2 played without a move (W/L): stored as 1-0 with player 1 White.
    let rounds = get_json(&mut org, &format!("/api/v1/events/{id}/rounds")).await;
    let board = boards_of(&rounds[4])
        .iter()
        .find(|b| b["white_start_no"] == 1)
        .unwrap();
    assert_eq!(
        (board["black_start_no"].as_i64(), board["result"].as_str()),
        (Some(2), Some("1-0"))
    );

    let exported = export(&mut org, id).await;
    assert!(exported.contains("P 0.5"), "{exported}");
    let again = damka_domain::trf::parse(&exported).unwrap();
    assert_eq!(normalised(&again), normalised(&original));
    assert_eq!(again.points, original.points);
    assert_eq!(
        again.forbidden_pairs.len(),
        3,
        "XXP 1 3, 10 11 and 1 7 come back"
    );
}

/// Pairs and publishes the next round, then enters `results` on its games in board order.
async fn play_round(api: &mut Client<'_>, id: i64, results: &[&str]) {
    let round = api.post(&format!("/api/v1/events/{id}/rounds")).await;
    assert_eq!(round.status.as_u16(), 201, "{}", round.body);
    let round = round.json();
    let publish = api
        .post(&format!("/api/v1/events/{id}/rounds/publish"))
        .await;
    assert!(publish.status.is_success(), "{}", publish.body);
    let games: Vec<&Value> = boards_of(&round)
        .iter()
        .filter(|b| !b["black_entry_id"].is_null())
        .collect();
    for (board, result) in games.iter().zip(results.iter().cycle()) {
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
        assert!(res.status.is_success(), "{}", res.body);
    }
}

async fn absence(api: &mut Client<'_>, id: i64, entry: i64, round: i32, kind: &str) {
    let res = api
        .json(
            Method::PUT,
            &format!("/api/v1/events/{id}/entries/{entry}/absence"),
            json!({"round": round, "kind": kind}),
        )
        .await;
    assert!(res.status.is_success(), "{}", res.body);
}

#[actix_web::test]
async fn exported_events_round_trip() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;

    // A Swiss with a PAB, every result code, a requested bye, an absence, a forbidden pair
    // and requests for the round after the last one.
    let created = org
        .json(
            Method::POST,
            "/api/v1/events",
            json!({"name": "Club Swiss", "system": "swiss", "rounds": 5, "first_colour": "black"}),
        )
        .await;
    assert_eq!(created.status.as_u16(), 201, "{}", created.body);
    let id = created.json()["id"].as_i64().unwrap();
    let entries = enter_players(&mut org, id, 9).await;
    let res = org
        .json(
            Method::POST,
            &format!("/api/v1/events/{id}/forbidden-pairs"),
            json!({"first_entry_id": entries[0], "second_entry_id": entries[4]}),
        )
        .await;
    assert!(res.status.is_success(), "{}", res.body);
    play_round(&mut org, id, &["1-0", "+/-", "1/2-1/2", "-/-"]).await;
    absence(&mut org, id, entries[2], 2, "H").await;
    absence(&mut org, id, entries[6], 2, "Z").await;
    play_round(&mut org, id, &["0-1", "-/+", "1/2-1/2"]).await;
    play_round(&mut org, id, &["1-0", "0-1"]).await;
    absence(&mut org, id, entries[1], 4, "H").await;
    absence(&mut org, id, entries[3], 4, "Z").await;

    let mut public = app.client();
    let original = export(&mut org, id).await;
    assert!(original.contains("\nXXP "), "{original}");
    for code in ["+", "- H", "- Z", "- U"] {
        assert!(original.contains(code), "{code} in {original}");
    }
    let imported = import_ok(&mut org, &original).await;
    let new_id = imported["id"].as_i64().unwrap();
    assert_eq!(imported["system"], "swiss");
    assert_eq!(imported["rounds"], 5);
    assert_eq!(imported["first_colour"], "black");
    assert_eq!(export(&mut org, new_id).await, original);
    // The standings match too, tie-breaks included.
    let before = get_json(&mut public, &format!("/api/v1/events/{id}/standings")).await;
    let after = get_json(&mut public, &format!("/api/v1/events/{new_id}/standings")).await;
    assert_eq!(api_standings(&after), api_standings(&before));
    // The imported event carries on: its next round can be paired.
    let next = org.post(&format!("/api/v1/events/{new_id}/rounds")).await;
    assert_eq!(next.status.as_u16(), 201, "{}", next.body);
    let boards = next.json();
    let requested: Vec<&Value> = boards_of(&boards)
        .iter()
        .filter(|b| b["bye"] == "H" || b["bye"] == "Z")
        .collect();
    assert_eq!(requested.len(), 2, "{boards}");

    // A round-robin with a half-point PAB setting and a free player (odd number).
    let created = org
        .json(
            Method::POST,
            "/api/v1/events",
            json!({"name": "Club Round-robin", "system": "round_robin", "pab_half_points": 1}),
        )
        .await;
    assert_eq!(created.status.as_u16(), 201, "{}", created.body);
    let rr = created.json()["id"].as_i64().unwrap();
    enter_players(&mut org, rr, 5).await;
    play_round(&mut org, rr, &["1-0", "1/2-1/2"]).await;
    play_round(&mut org, rr, &["0-1", "+/-"]).await;
    let original = export(&mut public, rr).await;
    let imported = import_ok(&mut org, &original).await;
    assert_eq!(imported["system"], "round_robin");
    assert_eq!(imported["rounds"], 5);
    assert_eq!(imported["pab_half_points"], 1);
    let new_rr = imported["id"].as_i64().unwrap();
    assert_eq!(export(&mut public, new_rr).await, original);
}

#[actix_web::test]
async fn bad_files_are_422_naming_the_line_and_nothing_is_stored() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;

    // A colour that is neither w, b nor -, on line 9 (the second player).
    let bad: String = SWISS_14
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == 8 {
                l.replacen("9 b +", "9 x +", 1)
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let res = import(&mut org, &bad).await;
    let problem = res.assert_problem(422, "invalid");
    let detail = problem["detail"].as_str().unwrap();
    assert!(detail.contains("line 9"), "{detail}");
    assert!(detail.contains("column"), "{detail}");

    // The two lines of a game disagree: both players claim the win.
    let disagree = [
        "012 Bad".to_string(),
        "XXR 3".to_string(),
        player_line(1, "Alpha", "", "", "", "", &["   2 w 1"]),
        player_line(2, "Beta", "", "", "", "", &["   1 b 1"]),
    ]
    .join("\n");
    let res = import(&mut org, &disagree).await;
    let detail = res.assert_problem(422, "invalid")["detail"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(detail.contains("line 3"), "{detail}");
    assert!(detail.contains("line 4"), "{detail}");
    assert!(detail.contains("disagree"), "{detail}");

    // A scoring the events do not have (3 - 1 - 0).
    let res = import(&mut org, include_str!("../data/dutch/dutch_010_03.trf")).await;
    let detail = res.assert_problem(422, "invalid")["detail"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(detail.contains("win 3.0"), "{detail}");

    // An unknown variant.
    let res = org
        .json(
            Method::POST,
            "/api/v1/events/import",
            json!({"trf": SWISS_14, "variant": "chess"}),
        )
        .await;
    res.assert_problem(422, "invalid");

    // Found only after the event and some profiles were written: one transaction, so
    // nothing of it stays.
    let twins = [
        "012 Twins".to_string(),
        player_line(1, "Alpha", "", "RUS", "12345", "", &[]),
        player_line(2, "Beta", "", "RUS", "12345", "", &[]),
    ]
    .join("\n");
    let res = import(&mut org, &twins).await;
    let detail = res.assert_problem(422, "invalid")["detail"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(detail.contains("same federation id"), "{detail}");
    let events = get_json(&mut org, "/api/v1/events").await;
    assert_eq!(events["items"].as_array().unwrap().len(), 0, "{events}");
    let players = get_json(&mut org, "/api/v1/players").await["items"].clone();
    assert_eq!(players.as_array().unwrap().len(), 0, "{players}");
}

#[actix_web::test]
async fn profiles_are_reused_by_federation_id() {
    let app = TestApp::new().await;
    // An administrator may edit every profile, so every match is linked.
    let mut org = app
        .user("admin@t.org", Role::Admin)
        .await
        .api_client()
        .await;
    let trf = [
        "012 Club championship".to_string(),
        "XXR 2".to_string(),
        player_line(
            1,
            "Alpha, Ann",
            "2100",
            "RUS",
            "12345",
            "1990/01/01",
            &["   2 w 1"],
        ),
        player_line(2, "Beta, Bob", "2000", "NED", "67890", "", &["   1 b 0"]),
        player_line(3, "Gamma", "", "x", "", "", &["0000 - Z"]),
    ]
    .join("\n");
    let first = import_ok(&mut org, &trf).await;
    assert_eq!(first["status"], "running");
    let players = get_json(&mut org, "/api/v1/players").await["items"].clone();
    let players = players.as_array().unwrap();
    assert_eq!(players.len(), 3);
    let ann = players.iter().find(|p| p["name"] == "Alpha, Ann").unwrap();
    assert_eq!(ann["country"], "RUS");
    assert_eq!(ann["federation_id"], "12345");
    assert_eq!(ann["birth_year"], 1990);
    let gamma = players.iter().find(|p| p["name"] == "Gamma").unwrap();
    assert_eq!(
        gamma["country"], "",
        "a one-letter federation is not a country"
    );

    let second = import_ok(&mut org, &trf).await;
    let players = get_json(&mut org, "/api/v1/players").await["items"].clone();
    assert_eq!(
        players.as_array().unwrap().len(),
        4,
        "Ann and Bob are reused, Gamma (no federation id) is created again"
    );
    let entries = get_json(
        &mut org,
        &format!("/api/v1/events/{}/entries", second["id"]),
    )
    .await;
    assert_eq!(entries[0]["player_id"], ann["id"]);

    // A file without rounds makes an event taking entries.
    let empty = "001    1      Alpha\n001    2      Beta\n";
    let event = import_ok(&mut org, empty).await;
    assert_eq!(event["status"], "registration");
    assert_eq!(event["name"], "Imported event");
}

/// (name, title, country, federation id, birth year) of the profiles of
/// `exported_profiles_come_back_and_are_reused`.
const PROFILES: [(&str, &str, &str, &str, Option<i32>); 5] = [
    ("Chizhov, Alexei", "GMI", "NED", "14100018", Some(1964)),
    ("Petrova, Anna", "MF", "UKR", "14109622", Some(1999)),
    ("Novikov, Ivan", "", "", "", None),
    // Longer than TRF-16's columns (3 for the title, 11 for the id): left blank.
    ("Sidorov, Oleg", "МСМК", "RUS", "FMJD-000000077", Some(1990)),
    ("Kuznetsova, Olga", "", "KAZ", "", Some(2008)),
];

/// The 1-based, inclusive columns `from..=to` of a TRF line, trimmed.
fn columns(line: &str, from: usize, to: usize) -> String {
    line.chars()
        .skip(from - 1)
        .take(to + 1 - from)
        .collect::<String>()
        .trim()
        .to_string()
}

#[actix_web::test]
async fn exported_profiles_come_back_and_are_reused() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    // The organiser's own club: its profiles are theirs to edit, so an import links them.
    let club = org
        .json(Method::POST, "/api/v1/clubs", json!({"name": "Home Club"}))
        .await;
    assert_eq!(club.status.as_u16(), 201, "{}", club.body);
    let club_id = club.json()["id"].as_i64().unwrap();
    let created = org
        .json(
            Method::POST,
            "/api/v1/events",
            json!({"name": "Profiles Cup", "system": "swiss", "rounds": 3}),
        )
        .await;
    assert_eq!(created.status.as_u16(), 201, "{}", created.body);
    let id = created.json()["id"].as_i64().unwrap();
    let mut profile_ids = Vec::new();
    for (name, title, country, federation_id, birth_year) in PROFILES {
        let player = org
            .json(
                Method::POST,
                "/api/v1/players",
                json!({"name": name, "title": title, "country": country, "club_id": club_id,
                       "federation_id": federation_id, "birth_year": birth_year}),
            )
            .await;
        assert_eq!(player.status.as_u16(), 201, "{}", player.body);
        let player_id = player.json()["id"].as_i64().unwrap();
        profile_ids.push(player_id);
        let entry = org
            .json(
                Method::POST,
                &format!("/api/v1/events/{id}/entries"),
                json!({"player_id": player_id}),
            )
            .await;
        assert_eq!(entry.status.as_u16(), 201, "{}", entry.body);
    }
    play_round(&mut org, id, &["1-0", "1/2-1/2"]).await;

    // The export writes each profile field in its TRF-16 columns.
    let mut public = app.client();
    let original = export(&mut public, id).await;
    let entries = get_json(&mut public, &format!("/api/v1/events/{id}/entries")).await;
    let line_of_player = |index: usize| {
        let start_no = entries
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["player_id"] == profile_ids[index])
            .unwrap()["start_no"]
            .as_u64()
            .unwrap();
        original
            .lines()
            .find(|l| l.starts_with("001") && columns(l, 5, 8) == start_no.to_string())
            .unwrap()
            .to_string()
    };
    let chizhov = line_of_player(0);
    assert_eq!(columns(&chizhov, 10, 10), "", "sex stays blank");
    assert_eq!(columns(&chizhov, 11, 13), "GMI");
    assert_eq!(columns(&chizhov, 15, 47), "Chizhov, Alexei");
    assert_eq!(columns(&chizhov, 54, 56), "NED");
    assert_eq!(columns(&chizhov, 58, 68), "14100018");
    assert_eq!(columns(&chizhov, 70, 79), "1964");
    let sidorov = line_of_player(3);
    assert_eq!(
        columns(&sidorov, 11, 13),
        "",
        "a 4-letter title does not fit"
    );
    assert_eq!(columns(&sidorov, 54, 56), "RUS");
    assert_eq!(
        columns(&sidorov, 58, 68),
        "",
        "a 14-character id does not fit"
    );
    assert_eq!(columns(&sidorov, 70, 79), "1990");
    let novikov = line_of_player(2);
    assert_eq!(columns(&novikov, 54, 79), "");

    // Imported on another site, the fields come back in new profiles.
    let elsewhere = TestApp::new().await;
    let mut other_org = organiser_api(&elsewhere, "org@elsewhere.org").await;
    let imported = import_ok(&mut other_org, &original).await;
    let players = get_json(&mut other_org, "/api/v1/players").await["items"].clone();
    let players = players.as_array().unwrap();
    assert_eq!(players.len(), 5);
    for (name, title, country, federation_id, birth_year) in PROFILES {
        let p = players.iter().find(|p| p["name"] == name).unwrap();
        let fits = title.chars().count() <= 3 && federation_id.len() <= 11;
        let (title, federation_id) = if fits {
            (title, federation_id)
        } else {
            ("", "")
        };
        assert_eq!(p["title"], title, "{name}");
        assert_eq!(p["country"], country, "{name}");
        assert_eq!(p["federation_id"], federation_id, "{name}");
        assert_eq!(p["birth_year"], json!(birth_year), "{name}");
    }
    let new_id = imported["id"].as_i64().unwrap();
    assert_eq!(export(&mut elsewhere.client(), new_id).await, original);

    // Imported here, entries with a federation id are linked to the existing profiles;
    // the others get new ones.
    let imported = import_ok(&mut org, &original).await;
    let new_id = imported["id"].as_i64().unwrap();
    let players = get_json(&mut org, "/api/v1/players").await["items"].clone();
    assert_eq!(
        players.as_array().unwrap().len(),
        PROFILES.len() + 3,
        "Chizhov and Petrova are reused; Novikov, Sidorov and Kuznetsova have no id on file"
    );
    let new_entries = get_json(&mut org, &format!("/api/v1/events/{new_id}/entries")).await;
    let player_of = |entries: &Value, start_no: &Value| {
        entries
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["start_no"] == *start_no)
            .unwrap()["player_id"]
            .clone()
    };
    for (index, reused) in [(0, true), (1, true), (2, false), (3, false), (4, false)] {
        let old = entries
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["player_id"] == profile_ids[index])
            .unwrap();
        let linked = player_of(&new_entries, &old["start_no"]);
        assert_eq!(
            linked == json!(profile_ids[index]),
            reused,
            "{}",
            PROFILES[index].0
        );
    }
    assert_eq!(export(&mut public, new_id).await, original);
}

#[actix_web::test]
async fn only_organisers_import() {
    let app = TestApp::new().await;
    let mut browser = app.user("player@t.org", Role::Player).await;
    let mut player = browser.api_client().await;
    import(&mut player, SWISS_14)
        .await
        .assert_problem(403, "forbidden");
    let mut anonymous = app.client();
    import(&mut anonymous, SWISS_14)
        .await
        .assert_problem(401, "unauthenticated");
    let page = browser.get("/events/import").await;
    assert_eq!(page.status.as_u16(), 403);
    let res = browser
        .post_form(
            "/events/import",
            &[("trf", SWISS_14), ("variant", "russian")],
        )
        .await;
    assert_eq!(res.status.as_u16(), 403);
    let list = browser.get("/events").await;
    assert!(!list.body.contains("/events/import"));
    let mut admin = app.user("admin@t.org", Role::Admin).await;
    let mut admin_api = admin.api_client().await;
    import_ok(&mut admin_api, SWISS_14).await;
}

#[actix_web::test]
async fn html_form_imports_and_shows_errors() {
    let app = TestApp::new().await;
    let mut browser = app.user("org@t.org", Role::Organiser).await;
    let list = browser.get("/events").await;
    assert!(
        list.body.contains("href=\"/events/import\""),
        "{}",
        list.body
    );
    let page = browser.get("/events/import").await;
    assert_eq!(page.status.as_u16(), 200, "{}", page.body);
    assert!(page.body.contains("<textarea name=\"trf\""));
    assert!(page.body.contains("name=\"variant\""));
    assert!(page.hidden_input("csrf_token").is_some());

    // Without the CSRF token: refused.
    let res = browser
        .post_form_raw(
            "/events/import",
            &[("trf", SWISS_14), ("variant", "russian")],
        )
        .await;
    assert_eq!(res.status.as_u16(), 403);

    // A broken file: the form again, with the line and column, and the text kept.
    let bad = SWISS_14.replacen("XXR 7", "XXR seven", 1);
    let res = browser
        .post_form(
            "/events/import",
            &[("trf", &bad), ("variant", "international")],
        )
        .await;
    assert_eq!(res.status.as_u16(), 422, "{}", res.body);
    let message = res
        .element_text("import-error")
        .expect("the error is shown");
    assert!(message.contains("line 2"), "{message}");
    assert!(message.contains("column"), "{message}");
    assert!(res.body.contains("XXR seven"));
    assert!(res.body.contains("value=\"international\" selected"));

    let res = browser
        .post_form(
            "/events/import",
            &[("trf", SWISS_14), ("variant", "international")],
        )
        .await;
    assert_eq!(res.status.as_u16(), 303, "{}", res.body);
    let location = res.location();
    assert!(location.starts_with("/events/"), "{location}");
    let event = browser.get(&location).await;
    assert_eq!(event.status.as_u16(), 200);
    assert!(event.body.contains("dutch_014_07"));
    let id: i64 = location.trim_start_matches("/events/").parse().unwrap();
    let mut public = app.client();
    let json = get_json(&mut public, &format!("/api/v1/events/{id}")).await;
    assert_eq!(json["variant"], "international");
}

/// `n` players without rounds, one short line each.
fn bare_players(n: u32) -> String {
    (1..=n)
        .map(|no| format!("001 {no:>4}      P{no}\n"))
        .collect()
}

fn detail_of(res: &common::Response) -> String {
    res.assert_problem(422, "invalid")["detail"]
        .as_str()
        .unwrap()
        .to_string()
}

#[actix_web::test]
async fn hostile_files_cost_their_length_and_are_refused_over_the_limits() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;

    // An `XXP` line of 10,000 numbers (20 KB) naming 10 players: 45 pairs, each stored
    // once. It used to list 50 million pairs and run for minutes.
    let numbers: Vec<String> = (0..10_000).map(|i| (i % 10 + 1).to_string()).collect();
    let trf = format!(
        "012 Hostile\n{}XXP {}\n",
        bare_players(10),
        numbers.join(" ")
    );
    let event = import_ok(&mut org, &trf).await;
    let pairs = get_json(
        &mut org,
        &format!("/api/v1/events/{}/forbidden-pairs", event["id"]),
    )
    .await;
    assert_eq!(pairs.as_array().unwrap().len(), 45);

    // 200 players all forbidden to meet: 19,900 pairs, over the limit of 10,000.
    let numbers: Vec<String> = (1..=200).map(|n| n.to_string()).collect();
    let trf = format!("{}XXP {}\n", bare_players(200), numbers.join(" "));
    let detail = detail_of(&import(&mut org, &trf).await);
    assert!(
        detail.contains("the file has 19900 forbidden pairs, more than the 10000 allowed"),
        "{detail}"
    );
    // 5,001 players (45 KB).
    let detail = detail_of(&import(&mut org, &bare_players(5001)).await);
    assert!(
        detail.contains("the file has 5001 players, more than the 5000 allowed"),
        "{detail}"
    );
    // 51 rounds.
    let detail = detail_of(&import(&mut org, &format!("XXR 51\n{}", bare_players(2))).await);
    assert!(
        detail.contains("the file has 51 rounds, more than the 50 allowed"),
        "{detail}"
    );
    let events = get_json(&mut org, "/api/v1/events").await;
    assert_eq!(events["items"].as_array().unwrap().len(), 1, "{events}");
}

#[actix_web::test]
async fn a_file_over_the_size_limit_is_413_on_the_api_and_the_page() {
    let app = TestApp::new().await;
    let mut browser = app.user("org@t.org", Role::Organiser).await;
    let mut org = browser.api_client().await;
    let limit = damka::service::events::import::MAX_TRF_BYTES;
    let big = format!("012 {}\n", "x".repeat(limit));
    let size = big.len();

    let res = import(&mut org, &big).await;
    let problem = res.assert_problem(413, "too-large");
    assert_eq!(
        problem["detail"],
        format!("trf: the file is {size} bytes, more than the {limit} allowed")
    );
    assert_eq!(problem["field"], "trf");

    // The page: the form again, with the refusal in the reader's language.
    browser
        .headers
        .push(("accept-language".into(), "ru".into()));
    let res = browser
        .post_form("/events/import", &[("trf", &big), ("variant", "russian")])
        .await;
    assert_eq!(res.status.as_u16(), 413);
    assert_eq!(
        res.element_text("import-error").as_deref(),
        Some(format!("размер файла в байтах: {size}, а допускается не более {limit}").as_str())
    );
    let numbers: Vec<String> = (1..=200).map(|n| n.to_string()).collect();
    let pairs = format!("{}XXP {}\n", bare_players(200), numbers.join(" "));
    let res = browser
        .post_form("/events/import", &[("trf", &pairs), ("variant", "russian")])
        .await;
    assert_eq!(res.status.as_u16(), 422);
    assert_eq!(
        res.element_text("import-error").as_deref(),
        Some("запрещённых пар в файле: 19900, а допускается не более 10000")
    );
    let events = get_json(&mut org, "/api/v1/events").await;
    assert_eq!(events["items"].as_array().unwrap().len(), 0, "{events}");
}

#[actix_web::test]
async fn a_profile_the_importer_may_not_edit_is_not_linked_and_the_match_is_reported() {
    let app = TestApp::new().await;
    let mut club_org = organiser_api(&app, "cluborg@t.org").await;
    let club = club_org
        .json(
            Method::POST,
            "/api/v1/clubs",
            json!({"name": "Chigorin Club"}),
        )
        .await;
    assert_eq!(club.status.as_u16(), 201, "{}", club.body);
    let member = club_org
        .json(
            Method::POST,
            "/api/v1/players",
            json!({"name": "Petrov, Ivan", "club_id": club.json()["id"], "federation_id": "4100018"}),
        )
        .await;
    assert_eq!(member.status.as_u16(), 201, "{}", member.body);
    let member_id = member.json()["id"].as_i64().unwrap();
    let trf = [
        "012 Open".to_string(),
        player_line(1, "Petrov, Ivan", "2100", "RUS", "4100018", "", &[]),
        player_line(2, "Sidorov, Oleg", "1900", "RUS", "", "", &[]),
    ]
    .join("\n");

    // Another organiser imports the file: the club's profile is left alone (no rating
    // written, no entry linked), a new profile is made, and the match is reported.
    let mut other_browser = app.user("org@t.org", Role::Organiser).await;
    let mut other = other_browser.api_client().await;
    let imported = import_ok(&mut other, &trf).await;
    assert_eq!(imported["name"], "Open");
    let unlinked = imported["unlinked_matches"].as_array().unwrap();
    assert_eq!(unlinked.len(), 1, "{imported}");
    assert_eq!(unlinked[0]["start_no"], 1);
    assert_eq!(unlinked[0]["federation_id"], "4100018");
    assert_eq!(unlinked[0]["existing_player_id"], member_id);
    let new_id = unlinked[0]["new_player_id"].as_i64().unwrap();
    assert_ne!(new_id, member_id);
    let profile = get_json(&mut other, &format!("/api/v1/players/{member_id}")).await;
    assert_eq!(profile["ratings"], json!([]), "{profile}");
    let entries = get_json(
        &mut other,
        &format!("/api/v1/events/{}/entries", imported["id"]),
    )
    .await;
    assert_eq!(entries[0]["player_id"], new_id);
    let created = get_json(&mut other, &format!("/api/v1/players/{new_id}")).await;
    assert_eq!(created["ratings"][0]["rating"], 2100);

    // The club's organiser imports it: linked to the club's profile, rated from the file.
    let mine = import_ok(&mut club_org, &trf).await;
    assert_eq!(mine["unlinked_matches"], json!([]));
    let entries = get_json(
        &mut club_org,
        &format!("/api/v1/events/{}/entries", mine["id"]),
    )
    .await;
    assert_eq!(entries[0]["player_id"], member_id);
    let profile = get_json(&mut club_org, &format!("/api/v1/players/{member_id}")).await;
    assert_eq!(profile["ratings"][0]["rating"], 2100);

    // The page lists the unlinked player before going on to the event.
    other_browser
        .headers
        .push(("accept-language".into(), "ru".into()));
    let page = other_browser
        .post_form("/events/import", &[("trf", &trf), ("variant", "russian")])
        .await;
    assert_eq!(page.status.as_u16(), 201, "{}", page.body);
    assert!(
        page.body.contains("id=\"unlinked-matches\""),
        "{}",
        page.body
    );
    assert!(page.body.contains("Petrov, Ivan"));
    assert!(
        page.body
            .contains(&format!("href=\"/players/{member_id}\""))
    );
    assert!(
        page.body
            .contains("найден существующий профиль, который вы не можете изменять; создан новый")
    );
}

#[actix_web::test]
async fn forbidden_pairs_are_exported_to_the_organiser_and_arbiters_only() {
    let app = TestApp::new().await;
    let mut org_browser = app.user("org@t.org", Role::Organiser).await;
    let mut org = org_browser.api_client().await;
    let id = import_ok(&mut org, SWISS_12_HALF_PAB).await["id"]
        .as_i64()
        .unwrap();
    let page_path = format!("/events/{id}/export.trf");
    let xxp = |text: &str| text.lines().filter(|l| l.starts_with("XXP")).count();
    let page_export = |res: common::Response| {
        assert_eq!(res.status.as_u16(), 200, "{}", res.body);
        res.body
    };

    // Everybody else: the file without the XXP lines, on the page and over the API.
    let mut public = app.client();
    assert_eq!(xxp(&export(&mut public, id).await), 0);
    assert_eq!(xxp(&page_export(public.get(&page_path).await)), 0);
    let mut player_browser = app.user("player@t.org", Role::Player).await;
    let mut player = player_browser.api_client().await;
    assert_eq!(xxp(&export(&mut player, id).await), 0);
    assert_eq!(xxp(&page_export(player_browser.get(&page_path).await)), 0);

    // The organiser and the event's arbiters: the whole file.
    assert_eq!(xxp(&export(&mut org, id).await), 3);
    assert_eq!(xxp(&page_export(org_browser.get(&page_path).await)), 3);
    let mut arbiter_browser = app.user("arbiter@t.org", Role::Player).await;
    let added = org
        .json(
            Method::POST,
            &format!("/api/v1/events/{id}/arbiters"),
            json!({"email": "arbiter@t.org"}),
        )
        .await;
    assert!(added.status.is_success(), "{}", added.body);
    let mut arbiter = arbiter_browser.api_client().await;
    assert_eq!(xxp(&export(&mut arbiter, id).await), 3);
    assert_eq!(xxp(&page_export(arbiter_browser.get(&page_path).await)), 3);
}
