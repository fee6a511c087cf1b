//! Keizer events over the API: Keizer's own 1956 example reproduced, absences announced by
//! the player or recorded on the check list, late entries, the refusals of bad options, a
//! night with too few players, and the TRF of a season.
#![allow(clippy::unwrap_used)]
use crate::common;

use actix_web::http::Method;
use common::builders::player;
use common::{Client, TestApp, create_event, enter_players, games, organiser_api, play_round};
use serde_json::{Value, json};

/// The players' names of the standings rows, `Player 00` as `A` and so on.
fn letters(standings: &Value) -> String {
    standings["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| letter_of(row["name"].as_str().unwrap()))
        .collect()
}

fn letter_of(name: &str) -> char {
    let n: u8 = name.trim_start_matches("Player ").parse().unwrap();
    char::from(b'A' + n)
}

/// The pairs of a round, each as two letters in alphabetical order.
fn pairs(round: &Value, entries: &[i64]) -> Vec<String> {
    let letter = |id: &Value| {
        let at = entries
            .iter()
            .position(|e| *e == id.as_i64().unwrap())
            .unwrap();
        char::from(b'A' + at as u8)
    };
    games(round)
        .iter()
        .map(|b| {
            let mut two = [letter(&b["white_entry_id"]), letter(&b["black_entry_id"])];
            two.sort();
            two.iter().collect()
        })
        .collect()
}

async fn standings(api: &mut Client<'_>, id: i64) -> Value {
    let got = api.get(&format!("/api/v1/events/{id}/standings")).await;
    assert_eq!(got.status.as_u16(), 200, "{}", got.body);
    got.json()
}

/// KBSB vademecum (2018), pp. 129-130: Keizer's own example of 1956, ten players A..J,
/// top value 50, scored once per round. After round 1: A 99, F 91, J 83, C 71.5, D 71,
/// G 65.5, H 65, B 49, E 46, I 42; round 2 pairs A-F, J-C, D-G, H-B, E-I.
#[actix_web::test]
async fn keizers_1956_example_is_reproduced_through_the_api() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let id = create_event(
        &mut org,
        json!({"name": "Club 1956", "system": "keizer",
               "keizer": {"top_value": 50, "method": "per_round"}}),
    )
    .await;
    let event = org.get(&format!("/api/v1/events/{id}")).await.json();
    assert_eq!(event["system"], "keizer");
    assert_eq!(event["rounds"], 0, "a season left open");
    assert_eq!(event["keizer"]["top_value"], 50);
    assert_eq!(event["keizer"]["method"], "per_round");
    assert_eq!(event["keizer"]["win_sixths"], 6, "the defaults spelled out");
    assert_eq!(event["keizer"]["repeat_gap"], 3);
    // Rated 2400, 2350, ...: the start order is A..J.
    let entries = enter_players(&mut org, id, 10).await;
    let round_one = play_round(&mut org, id, &["1-0", "1/2-1/2", "0-1", "1/2-1/2", "0-1"]).await;
    assert_eq!(pairs(&round_one, &entries), ["AB", "CD", "EF", "GH", "IJ"]);
    let table = standings(&mut org, id).await;
    assert_eq!(letters(&table), "AFJCDGHBEI");
    let points: Vec<f64> = table["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["keizer_points"].as_f64().unwrap())
        .collect();
    assert_eq!(
        points,
        [99.0, 91.0, 83.0, 71.5, 71.0, 65.5, 65.0, 49.0, 46.0, 42.0]
    );
    let first = &table["rows"][0];
    assert_eq!(first["keizer_sixths"], 594);
    assert_eq!(first["value"], 50);
    assert_eq!(first["place"], "1");
    assert_eq!(first["half_points"], 2, "the real game points");
    assert_eq!(table["rows"][1]["value"], 49);
    assert_eq!(table["rows"][9]["value"], 41);
    let round_two = org.post(&format!("/api/v1/events/{id}/rounds")).await;
    assert_eq!(round_two.status.as_u16(), 201, "{}", round_two.body);
    let mut got = pairs(&round_two.json(), &entries);
    got.sort();
    assert_eq!(got, ["AF", "BH", "CJ", "DG", "EI"]);
    // The board order is the top-down order: A-F first, E-I last.
    assert_eq!(pairs(&round_two.json(), &entries)[0], "AF");
    assert_eq!(pairs(&round_two.json(), &entries)[4], "EI");
    // A's card explains the score: own value 50, the win over B (value 49).
    let card = org
        .get(&format!("/api/v1/events/{id}/players/1"))
        .await
        .json();
    assert_eq!(card["keizer"]["own_value_sixths"], 300);
    assert_eq!(card["keizer"]["rounds"][0]["outcome"], "win");
    assert_eq!(card["keizer"]["rounds"][0]["opponent_name"], "Player 01");
    assert_eq!(card["keizer"]["rounds"][0]["value"], 49);
    assert_eq!(card["keizer"]["rounds"][0]["earned_points"], 49.0);
    assert_eq!(card["keizer"]["points"], 99.0);
}

/// An absence is announced by the player for their own entry (the next round by default),
/// or by the organiser; a kind the event does not take and someone else's entry are
/// refused; the check list records who is here, keeps announced absences and marks the
/// rest absent without notice; the round pairs only the present and scores the absent.
#[actix_web::test]
async fn absences_and_the_check_list_decide_who_plays() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let id = create_event(
        &mut org,
        json!({"name": "Thursday nights", "system": "keizer", "rounds": 30}),
    )
    .await;
    let mut entries = enter_players(&mut org, id, 5).await;
    let (mut anna, anna_id) = player(&app, "anna@t.org", "Anna").await;
    let anna_entry = org
        .json(
            Method::POST,
            &format!("/api/v1/events/{id}/entries"),
            json!({ "player_id": anna_id }),
        )
        .await;
    assert_eq!(anna_entry.status.as_u16(), 201, "{}", anna_entry.body);
    let anna_entry = anna_entry.json()["id"].as_i64().unwrap();
    entries.push(anna_entry);
    let absence = |entry: i64| format!("/api/v1/events/{id}/entries/{entry}/absence");

    let own = anna
        .json(
            Method::POST,
            &absence(anna_entry),
            json!({"kind": "club_duty"}),
        )
        .await;
    assert_eq!(own.status.as_u16(), 201, "{}", own.body);
    assert_eq!(own.json(), json!({"round": 1, "kind": "club_duty"}));
    anna.json(
        Method::POST,
        &absence(entries[0]),
        json!({"kind": "excused"}),
    )
    .await
    .assert_refusal(403, "only_event_officials");
    org.json(Method::POST, &absence(entries[1]), json!({"kind": "H"}))
        .await
        .assert_refusal(422, "not_one_of");
    let excused = org
        .json(
            Method::POST,
            &absence(entries[1]),
            json!({"kind": "excused", "round": 1}),
        )
        .await;
    assert_eq!(excused.status.as_u16(), 201, "{}", excused.body);
    // Announced well ahead: round 4 of the season.
    let ahead = org
        .json(
            Method::POST,
            &absence(entries[2]),
            json!({"kind": "excused", "round": 4}),
        )
        .await;
    assert_eq!(ahead.status.as_u16(), 201, "{}", ahead.body);

    // Tonight: everyone but Player 01 (excused), Anna (club) and Player 04 is ticked.
    let present = [entries[0], entries[2], entries[3]];
    let list = org
        .json(
            Method::PUT,
            &format!("/api/v1/events/{id}/presence"),
            json!({ "present": present }),
        )
        .await;
    assert_eq!(list.status.as_u16(), 200, "{}", list.body);
    let kind_of = |list: &Value, entry: i64| {
        list["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["entry_id"] == entry)
            .map(|r| r["absence"].clone())
            .unwrap()
    };
    let list = list.json();
    assert_eq!(list["round"], 1);
    assert_eq!(kind_of(&list, entries[1]), "excused");
    assert_eq!(kind_of(&list, anna_entry), "club_duty");
    assert_eq!(kind_of(&list, entries[4]), "Z");
    assert_eq!(kind_of(&list, entries[0]), Value::Null);
    // Player 04 arrives late, before the pairing: ticked after all.
    let late = org
        .json(
            Method::PUT,
            &format!("/api/v1/events/{id}/presence"),
            json!({ "present": [entries[0], entries[2], entries[3], entries[4]] }),
        )
        .await
        .json();
    assert_eq!(kind_of(&late, entries[4]), Value::Null);
    // Players do not keep the check list.
    anna.get(&format!("/api/v1/events/{id}/presence"))
        .await
        .assert_refusal(403, "only_event_officials");

    let round = play_round(&mut org, id, &["1-0", "1-0"]).await;
    let boards = round["boards"].as_array().unwrap();
    let games = games(&round);
    assert_eq!(games.len(), 2, "four present players: two boards");
    let bye_of = |entry: i64| {
        boards
            .iter()
            .find(|b| b["white_entry_id"] == entry && b["black_entry_id"].is_null())
            .map(|b| b["bye"].clone())
    };
    assert_eq!(bye_of(entries[1]), Some(json!("excused")), "{round}");
    assert_eq!(bye_of(anna_entry), Some(json!("club_duty")));
    let table = standings(&mut org, id).await;
    let row_of = |entry: i64| {
        table["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["entry_id"] == entry)
            .unwrap()
            .clone()
    };
    // Six entries, values 6..1 by start order in round 1; iterative scoring may move
    // them, but an absence scores a share of the player's own value.
    let (excused_row, club_row) = (row_of(entries[1]), row_of(anna_entry));
    assert_eq!(excused_row["absences"], 1);
    assert_eq!(excused_row["games"], 0);
    let share = |row: &Value, sixths: u64| {
        let value = row["value"].as_u64().unwrap();
        let card_round = row["keizer_sixths"].as_u64().unwrap() - 6 * value;
        assert_eq!(card_round, value * sixths, "{row}");
    };
    share(&excused_row, 2);
    share(&club_row, 4);
    // The announced absence for round 4 is still there for the entries list.
    let listed = org
        .get(&format!("/api/v1/events/{id}/entries"))
        .await
        .json();
    let requests = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == entries[2])
        .map(|e| e["requests"].clone())
        .unwrap();
    assert_eq!(requests, json!([{"round": 4, "kind": "excused"}]));
}

/// A player who joins the season later plays from the next round on; the rounds before
/// score nothing, and the card says so.
#[actix_web::test]
async fn a_late_entry_plays_from_the_next_night() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let id = create_event(&mut org, json!({"name": "Season", "system": "keizer"})).await;
    let entries = enter_players(&mut org, id, 4).await;
    play_round(&mut org, id, &["1-0", "1-0"]).await;
    let newcomer = org
        .json(Method::POST, "/api/v1/players", json!({"name": "Newcomer"}))
        .await
        .json()["id"]
        .as_i64()
        .unwrap();
    let entry = org
        .json(
            Method::POST,
            &format!("/api/v1/events/{id}/entries"),
            json!({ "player_id": newcomer }),
        )
        .await;
    assert_eq!(entry.status.as_u16(), 201, "{}", entry.body);
    assert_eq!(entry.json()["first_round"], 2);
    let round_two = play_round(&mut org, id, &["1-0", "1-0"]).await;
    let placed = round_two["boards"].as_array().unwrap().iter().any(|b| {
        b["white_entry_id"] == entry.json()["id"] || b["black_entry_id"] == entry.json()["id"]
    });
    assert!(
        placed,
        "the newcomer is paired (or gets the bye): {round_two}"
    );
    assert_eq!(entries.len(), 4);
    let start_no = entry.json()["start_no"].as_i64().unwrap();
    let card = org
        .get(&format!("/api/v1/events/{id}/players/{start_no}"))
        .await
        .json();
    let first = &card["keizer"]["rounds"][0];
    assert_eq!(first["outcome"], "not_paired");
    assert_eq!(first["earned_sixths"], 0);
    assert_eq!(first["value"], Value::Null);
}

/// Options outside their bounds, an unknown option and too many rounds are refused with a
/// code naming the problem; a night with fewer than two present players cannot be paired.
#[actix_web::test]
async fn bad_options_and_an_empty_night_are_refused_clearly() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let share = org
        .json(
            Method::POST,
            "/api/v1/events",
            json!({"name": "K", "system": "keizer", "keizer": {"bye_sixths": 7}}),
        )
        .await;
    let problem = share.assert_refusal(422, "keizer_share_too_large");
    assert!(
        problem["detail"].as_str().unwrap().contains("bye_sixths"),
        "{problem}"
    );
    org.json(
        Method::POST,
        "/api/v1/events",
        json!({"name": "K", "system": "keizer", "keizer": {"value_step": 0}}),
    )
    .await
    .assert_refusal(422, "keizer_option_out_of_range");
    org.json(
        Method::POST,
        "/api/v1/events",
        json!({"name": "K", "system": "keizer", "rounds": 101}),
    )
    .await
    .assert_refusal(422, "keizer_rounds_out_of_range");
    let unknown = org
        .json(
            Method::POST,
            "/api/v1/events",
            json!({"name": "K", "system": "keizer", "keizer": {"win_points": 6}}),
        )
        .await;
    assert!(unknown.status.is_client_error(), "{}", unknown.body);
    assert!(unknown.body.contains("win_points"), "{}", unknown.body);

    let id = create_event(&mut org, json!({"name": "Empty night", "system": "keizer"})).await;
    let entries = enter_players(&mut org, id, 3).await;
    let list = org
        .json(
            Method::PUT,
            &format!("/api/v1/events/{id}/presence"),
            json!({ "present": [entries[2]] }),
        )
        .await;
    assert_eq!(list.status.as_u16(), 200, "{}", list.body);
    org.post(&format!("/api/v1/events/{id}/rounds"))
        .await
        .assert_refusal(409, "too_few_present");
    // Someone else's entry id on the check list is refused.
    org.json(
        Method::PUT,
        &format!("/api/v1/events/{id}/presence"),
        json!({ "present": [entries[2], 999_999] }),
    )
    .await
    .assert_refusal(422, "not_an_entry");
}

/// Other systems' JSON says nothing of Keizer; a Keizer season's TRF ranks by the Keizer
/// score and writes an absence with notice as `Z`.
#[actix_web::test]
async fn other_events_are_unchanged_and_the_trf_ranks_by_keizer() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let swiss = create_event(
        &mut org,
        json!({"name": "S", "system": "swiss", "rounds": 3}),
    )
    .await;
    enter_players(&mut org, swiss, 4).await;
    play_round(&mut org, swiss, &["1-0", "1-0"]).await;
    let event = org.get(&format!("/api/v1/events/{swiss}")).await.json();
    assert!(event.get("keizer").is_none(), "{event}");
    let table = standings(&mut org, swiss).await;
    assert!(table["rows"][0].get("keizer_points").is_none(), "{table}");
    assert!(table["rows"][0].get("value").is_none());

    let id = create_event(&mut org, json!({"name": "K", "system": "keizer"})).await;
    let entries = enter_players(&mut org, id, 5).await;
    let excused = org
        .json(
            Method::POST,
            &format!("/api/v1/events/{id}/entries/{}/absence", entries[0]),
            json!({"kind": "excused"}),
        )
        .await;
    assert_eq!(excused.status.as_u16(), 201, "{}", excused.body);
    // Black wins both boards: the start order turns over.
    play_round(&mut org, id, &["0-1", "0-1"]).await;
    let table = standings(&mut org, id).await;
    let trf = org.get(&format!("/api/v1/events/{id}/export.trf")).await;
    assert_eq!(trf.status.as_u16(), 200, "{}", trf.body);
    for row in table["rows"].as_array().unwrap() {
        let start_no = row["start_no"].as_u64().unwrap();
        let line = trf
            .body
            .lines()
            .find(|l| l.starts_with("001") && l[4..8].trim() == start_no.to_string())
            .unwrap();
        assert_eq!(
            line[85..89].trim(),
            row["place"].as_str().unwrap(),
            "{line}"
        );
    }
    let first = trf
        .body
        .lines()
        .find(|l| l.starts_with("001    1"))
        .unwrap();
    assert!(first.trim_end().ends_with("0000 - Z"), "{first}");
}

/// The usual workflow holds for a Keizer season: a forfeit counts as a win for the
/// winner's Keizer score and nothing for the loser, a corrected result changes the
/// standings, a round is paired again while it has no result, a pairing changed by hand is
/// checked by the Keizer rules (a rematch within the gap is named), and a finished season
/// reopens for one more night.
#[actix_web::test]
async fn forfeits_corrections_repairs_hand_pairings_and_reopening_work() {
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let id = create_event(
        &mut org,
        json!({"name": "Season", "system": "keizer", "keizer": {"method": "per_round"}}),
    )
    .await;
    let entries = enter_players(&mut org, id, 4).await;
    let round = play_round(&mut org, id, &["+/-", "1-0"]).await;
    let first = games(&round)[0].clone();
    let card = |start_no: u64| format!("/api/v1/events/{id}/players/{start_no}");
    let winner = org
        .get(&card(first["white_start_no"].as_u64().unwrap()))
        .await
        .json();
    assert_eq!(winner["keizer"]["rounds"][0]["outcome"], "forfeit_win");
    assert_eq!(winner["keizer"]["rounds"][0]["share_sixths"], 6);
    let loser = org
        .get(&card(first["black_start_no"].as_u64().unwrap()))
        .await
        .json();
    assert_eq!(loser["keizer"]["rounds"][0]["outcome"], "forfeit_loss");
    assert_eq!(loser["keizer"]["rounds"][0]["earned_sixths"], 0);

    // The second board's result corrected to a draw: both earn half the other's value.
    let before = standings(&mut org, id).await;
    let second = games(&round)[1].clone();
    let corrected = org
        .json(
            Method::PUT,
            &format!(
                "/api/v1/events/{id}/pairings/{}/result",
                second["pairing_id"]
            ),
            json!({"result": "1/2-1/2"}),
        )
        .await;
    assert_eq!(corrected.status.as_u16(), 204, "{}", corrected.body);
    let after = standings(&mut org, id).await;
    assert_ne!(before["rows"], after["rows"]);
    let black = org
        .get(&card(second["black_start_no"].as_u64().unwrap()))
        .await
        .json();
    assert_eq!(black["keizer"]["rounds"][0]["outcome"], "draw");
    assert_eq!(black["keizer"]["rounds"][0]["share_sixths"], 3);

    // Round 2 paired, then paired again while it has no result: the same pairing.
    let paired = org.post(&format!("/api/v1/events/{id}/rounds")).await;
    assert_eq!(paired.status.as_u16(), 201, "{}", paired.body);
    let repaired = org
        .post(&format!("/api/v1/events/{id}/rounds/repair"))
        .await;
    assert_eq!(repaired.status.as_u16(), 200, "{}", repaired.body);
    assert_eq!(
        pairs(&paired.json(), &entries),
        pairs(&repaired.json(), &entries)
    );
    // Round 1's pairs again by hand: each is a rematch within the gap.
    let rematch: Vec<Value> = games(&round)
        .iter()
        .map(|b| json!({"white": b["white_start_no"], "black": b["black_start_no"]}))
        .collect();
    let checked = org
        .json(
            Method::POST,
            &format!("/api/v1/events/{id}/rounds/2/pairing/check"),
            json!({"boards": rematch, "bye": null}),
        )
        .await;
    assert_eq!(checked.status.as_u16(), 200, "{}", checked.body);
    let codes: Vec<String> = checked.json()["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["code"].as_str().unwrap().to_string())
        .collect();
    assert!(codes.iter().any(|c| c == "already_played"), "{codes:?}");
    assert!(!codes.iter().any(|c| c.contains("colour")), "{codes:?}");

    let published = org
        .post(&format!("/api/v1/events/{id}/rounds/publish"))
        .await;
    assert_eq!(published.status.as_u16(), 204, "{}", published.body);
    for board in games(&repaired.json()) {
        let res = org
            .json(
                Method::PUT,
                &format!(
                    "/api/v1/events/{id}/pairings/{}/result",
                    board["pairing_id"]
                ),
                json!({"result": "0-1"}),
            )
            .await;
        assert_eq!(res.status.as_u16(), 204, "{}", res.body);
    }
    let finished = org.post(&format!("/api/v1/events/{id}/finish")).await;
    assert_eq!(finished.status.as_u16(), 204, "{}", finished.body);
    org.post(&format!("/api/v1/events/{id}/rounds"))
        .await
        .assert_refusal(409, "event_finished");
    let reopened = org.post(&format!("/api/v1/events/{id}/reopen")).await;
    assert_eq!(reopened.status.as_u16(), 204, "{}", reopened.body);
    let third = org.post(&format!("/api/v1/events/{id}/rounds")).await;
    assert_eq!(third.status.as_u16(), 201, "{}", third.body);
    assert_eq!(third.json()["number"], 3);
}
