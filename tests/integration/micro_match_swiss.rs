//! A micro-match Swiss of 30 players over 7 rounds played through the API: before every
//! round the event's TRF export (written the PlayStrategy way: one collapsed result per
//! pairing, the difference to the real points in `XXA` lines) is what bbpPairings was
//! given, and the round the service pairs is exactly the pairing bbpPairings made of that
//! file (boards, colours, bye); `damka pair --trf` reads the same file to the same pairing.
//!
//! The exports and bbpPairings' answers are in tests/data/micro_swiss/ (`round_N.trf`,
//! `round_N.pairings`). To record them again, build bbpPairings outside the repository and
//! run `DAMKA_RECORD_BBP=/path/to/bbpPairings.exe cargo test --test integration
//! micro_match_swiss`: each round is then paired by bbpPairings on the spot (and the
//! service must agree), and the files are rewritten.
#![allow(clippy::unwrap_used)]
use crate::common;

use std::path::PathBuf;
use std::process::Command;

use actix_web::http::Method;
use common::{Client, TestApp, create_event, enter_players, organiser_api};
use damka_domain::dutch::{Board, RoundPairing};
use serde_json::{Value, json};

const PLAYERS: usize = 30;
const ROUNDS: i32 = 7;

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/micro_swiss")
}

/// A small fixed generator, so the games' results are the same on every run.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// A game's result in its own colours: White wins 4 in 10, a draw 3, Black 3.
fn a_result(lcg: &mut Lcg) -> &'static str {
    match lcg.below(10) {
        0..=3 => "1-0",
        4..=6 => "1/2-1/2",
        _ => "0-1",
    }
}

/// The round as paired by the service, in bbpPairings' terms (start numbers).
fn service_pairing(round: &Value) -> RoundPairing {
    let mut pairing = RoundPairing::default();
    for board in round["boards"].as_array().unwrap() {
        let white = board["white_start_no"].as_u64().unwrap() as u32;
        if let Some(black) = board["black_start_no"].as_u64() {
            pairing.boards.push(Board {
                white,
                black: black as u32,
            });
        } else if board["bye"] == "U" {
            pairing.bye = Some(white);
        }
    }
    pairing
}

fn bbp_pairs(bbp: &str, trf: &std::path::Path) -> String {
    let out = tempfile::NamedTempFile::new().unwrap();
    let status = Command::new(bbp)
        .args(["--dutch"])
        .arg(trf)
        .arg("-p")
        .arg(out.path())
        .status()
        .expect("bbpPairings runs");
    assert!(status.success(), "bbpPairings failed on {}", trf.display());
    std::fs::read_to_string(out.path()).unwrap()
}

async fn export(org: &mut Client<'_>, event: i64) -> String {
    let trf = org.get(&format!("/api/v1/events/{event}/export.trf")).await;
    assert_eq!(trf.status.as_u16(), 200, "{}", trf.body);
    trf.body.clone()
}

#[actix_web::test]
async fn every_round_is_paired_as_bbp_pairings_pairs_the_exported_trf() {
    let record = std::env::var("DAMKA_RECORD_BBP").ok();
    let app = TestApp::new().await;
    let mut org = organiser_api(&app, "org@t.org").await;
    let event = create_event(
        &mut org,
        json!({"name": "Micro-match Swiss", "system": "swiss", "rounds": ROUNDS,
               "games_per_pairing": 2, "opening_ballot": "idf64"}),
    )
    .await;
    let entries = enter_players(&mut org, event, PLAYERS).await;
    let mut lcg = Lcg(20261202);
    let work = tempfile::tempdir().unwrap();
    for number in 1..=ROUNDS {
        // Some players stay out: a half-point bye asked for round 3 (an odd field, so a
        // pairing-allocated bye too), an absence in round 5, a withdrawal from round 6.
        match number {
            3 => absence(&mut org, event, entries[4], 3, "H").await,
            5 => absence(&mut org, event, entries[17], 5, "Z").await,
            6 => {
                let gone = org
                    .post(&format!(
                        "/api/v1/events/{event}/entries/{}/withdraw",
                        entries[9]
                    ))
                    .await;
                assert_eq!(gone.status.as_u16(), 204, "{}", gone.body);
            }
            _ => {}
        }
        let trf = export(&mut org, event).await;
        let trf_path = data_dir().join(format!("round_{number}.trf"));
        let pairings_path = data_dir().join(format!("round_{number}.pairings"));
        let expected_text = match &record {
            Some(bbp) => {
                std::fs::write(&trf_path, &trf).unwrap();
                let text = bbp_pairs(bbp, &trf_path);
                std::fs::write(&pairings_path, &text).unwrap();
                text
            }
            None => {
                let recorded = std::fs::read_to_string(&trf_path).unwrap();
                assert_eq!(
                    trf, recorded,
                    "round {number}: the export differs from the TRF bbpPairings paired"
                );
                std::fs::read_to_string(&pairings_path).unwrap()
            }
        };
        if number > 1 {
            assert!(
                trf.contains("\nXXA "),
                "round {number}: the real points go in XXA lines"
            );
        }
        let expected = RoundPairing::from_bbp_format(&expected_text).unwrap();

        let paired = org.post(&format!("/api/v1/events/{event}/rounds")).await;
        assert_eq!(paired.status.as_u16(), 201, "{}", paired.body);
        let round = paired.json();
        assert_eq!(
            service_pairing(&round),
            expected,
            "round {number}: the service's pairing is not bbpPairings'"
        );

        // The command line reads the same file to the same pairing.
        let file = work.path().join(format!("round_{number}.trf"));
        std::fs::write(&file, &trf).unwrap();
        let cli = Command::new(env!("CARGO_BIN_EXE_damka"))
            .args(["pair", "--trf"])
            .arg(&file)
            .output()
            .unwrap();
        assert!(
            cli.status.success(),
            "{}",
            String::from_utf8_lossy(&cli.stderr)
        );
        assert_eq!(
            RoundPairing::from_bbp_format(&String::from_utf8_lossy(&cli.stdout)).unwrap(),
            expected,
            "round {number}: damka pair --trf"
        );

        let published = org
            .post(&format!("/api/v1/events/{event}/rounds/publish"))
            .await;
        assert_eq!(published.status.as_u16(), 204, "{}", published.body);
        for board in round["boards"].as_array().unwrap() {
            if board["black_entry_id"].is_null() {
                continue;
            }
            assert!(board["opening"]["code"].is_string(), "{board}");
            for game in 1..=2 {
                let put = org
                    .json(
                        Method::PUT,
                        &format!(
                            "/api/v1/events/{event}/pairings/{}/games/{game}/result",
                            board["pairing_id"]
                        ),
                        json!({"result": a_result(&mut lcg)}),
                    )
                    .await;
                assert_eq!(put.status.as_u16(), 204, "{}", put.body);
            }
        }
    }
    // The standings sum the games: every game's point is somewhere.
    let standings = org
        .get(&format!("/api/v1/events/{event}/standings"))
        .await
        .json();
    let total: i64 = standings["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["half_points"].as_i64().unwrap())
        .sum();
    let rounds = org
        .get(&format!("/api/v1/events/{event}/rounds"))
        .await
        .json();
    let (mut games, mut byes) = (0, 0);
    for round in rounds.as_array().unwrap() {
        for board in round["boards"].as_array().unwrap() {
            match board["bye"].as_str() {
                None => games += 2,
                Some("U") => byes += 4,
                Some("H") => byes += 2,
                Some(_) => {}
            }
        }
    }
    assert_eq!(total, games * 2 + byes, "half-points of every game and bye");
}

async fn absence(org: &mut Client<'_>, event: i64, entry: i64, round: i32, kind: &str) {
    let put = org
        .json(
            Method::PUT,
            &format!("/api/v1/events/{event}/entries/{entry}/absence"),
            json!({"round": round, "kind": kind}),
        )
        .await;
    assert_eq!(put.status.as_u16(), 204, "{}", put.body);
}
