//! `damka pair --trf FILE` end to end: bbpPairings' output format, exit codes 1 (no valid
//! pairing) and 2 (unreadable or invalid TRF, or games of a paired round without a result).

use std::io::Write as _;
use std::process::Command;

fn damka(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_damka"))
        .args(args)
        .output()
        .expect("damka runs")
}

/// A TRF file in a folder of its own (tests run in parallel), removed with the folder.
struct TempTrf {
    _dir: tempfile::TempDir,
    path: std::path::PathBuf,
}

impl TempTrf {
    fn path(&self) -> &str {
        self.path.to_str().expect("utf-8 path")
    }
}

fn temp_trf(name: &str, text: &str) -> TempTrf {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join(name);
    let mut f = std::fs::File::create(&path).expect("create");
    f.write_all(text.as_bytes()).expect("write");
    TempTrf { _dir: dir, path }
}

fn player(n: u32, cells: &[&str]) -> String {
    let head = format!("001 {n:>4}      Player {n:<26} {:>4}", 2000 - n);
    let mut line = format!("{head:<80}{:>4}{n:>5}", "0.0");
    for c in cells {
        line.push_str(&format!("  {c}"));
    }
    line
}

#[test]
fn pairs_round_one_in_bbp_format() {
    let mut trf = String::from("012 Club\nXXR 5\nXXC white1\n");
    for n in 1..=5 {
        trf.push_str(&player(n, &[]));
        trf.push('\n');
    }
    let path = temp_trf("r1.trf", &trf);
    let out = damka(&["pair", "--trf", path.path()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Top half against bottom half, colours alternating from White, PAB to the last.
    assert_eq!(String::from_utf8_lossy(&out.stdout), "3\n1 3\n4 2\n5 0\n");
}

#[test]
fn corpus_rounds_equal_bbp_pairings() {
    // Each round of a corpus tournament, written back as the TRF bbpPairings was given
    // (history before the round, requested byes and absences in the round's column).
    use damka_domain::tournament::{ByeKind, NextRoundAbsence, RoundEntry};
    let dir = format!("{}/tests/data/dutch", env!("CARGO_MANIFEST_DIR"));
    let full = damka_domain::trf::parse(
        &std::fs::read_to_string(format!("{dir}/dutch_023_16.trf")).expect("corpus file"),
    )
    .expect("valid corpus TRF");
    let expected =
        std::fs::read_to_string(format!("{dir}/dutch_023_16.pairings")).expect("pairings");
    for (r, block) in expected.split("round ").skip(1).enumerate() {
        let mut t = full.clone();
        for p in &mut t.players {
            match p.rounds[r] {
                RoundEntry::Bye(ByeKind::PairingAllocated) => {}
                RoundEntry::Bye(kind) => t.next_round_absences.push(NextRoundAbsence {
                    player: p.start_no,
                    kind,
                }),
                RoundEntry::NotPaired => t.next_round_absences.push(NextRoundAbsence {
                    player: p.start_no,
                    kind: ByeKind::ZeroPoint,
                }),
                _ => {}
            }
            p.rounds.truncate(r);
        }
        let path = temp_trf(&format!("r{}.trf", r + 1), &damka_domain::trf::write(&t));
        let out = damka(&["pair", "--trf", path.path()]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let want: String = block.lines().skip(1).map(|l| format!("{l}\n")).collect();
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            want,
            "round {}",
            r + 1
        );
    }
}

#[test]
fn exit_1_when_no_pairing_exists() {
    // Two players who already met: no second game is allowed.
    let trf = format!(
        "012 Pair\nXXR 3\nXXC white1\n{}\n{}\n",
        player(1, &["   2 w 1"]),
        player(2, &["   1 b 0"])
    );
    let path = temp_trf("none.trf", &trf);
    let out = damka(&["pair", "--trf", path.path()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no valid pairing"));
}

#[test]
fn exit_2_on_invalid_or_missing_file() {
    let path = temp_trf("bad.trf", &format!("XXR 3\n{}\n", player(1, &["   9 w 1"])));
    let out = damka(&["pair", "--trf", path.path()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line"));
    let out = damka(&["pair", "--trf", "/nonexistent/x.trf"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn refuses_to_pair_after_a_round_with_games_not_played_naming_them() {
    // Round 1: 2 beat 4; 1 and 3 are paired and have not played (a blank result, the last
    // cell of 3's line trimmed as editors do).
    let trf = format!(
        "012 Club\nXXR 3\nXXC white1\n{}\n{}\n{}\n{}\n",
        player(1, &["   3 w  "]),
        player(2, &["   4 w 1"]),
        player(3, &["   1 b"]),
        player(4, &["   2 b 0"])
    );
    let path = temp_trf("pending.trf", &trf);
    let out = damka(&["pair", "--trf", path.path()]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("without a result"), "{stderr}");
    assert!(stderr.contains("round 1: 1 – 3"), "{stderr}");
    assert!(!stderr.contains("2 – 4"), "{stderr}");
}

/// The event's own export of a round in progress keeps its unplayed games apart from
/// absences, and `damka pair` will not pair the next round from it.
#[actix_web::test]
async fn an_exported_round_in_progress_is_not_paired_on() {
    use crate::common::{self, TestApp};
    let app = TestApp::new().await;
    let mut org = common::organiser_api(&app, "org@t.org").await;
    let event = common::create_event(
        &mut org,
        serde_json::json!({"name": "Club Swiss", "system": "swiss", "rounds": 5}),
    )
    .await;
    common::enter_players(&mut org, event, 8).await;
    common::play_round(&mut org, event, &["1-0", "1/2-1/2"]).await;
    let trf = org.get(&format!("/api/v1/events/{event}/export.trf")).await;
    assert_eq!(trf.status.as_u16(), 200, "{}", trf.body);
    assert!(
        !trf.body.contains("0000 - Z"),
        "no game of the round is written as an absence: {}",
        trf.body
    );
    let parsed = damka_domain::trf::parse(&trf.body).expect("the export reads back");
    assert_eq!(parsed.pending_games.len(), 2, "{:?}", parsed.pending_games);
    assert_eq!(
        damka_domain::trf::write(&parsed),
        trf.body,
        "the unplayed games survive a round trip"
    );
    let path = temp_trf("event.trf", &trf.body);
    let out = damka(&["pair", "--trf", path.path()]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    for game in &parsed.pending_games {
        assert!(
            stderr.contains(&game.to_string()),
            "{game} not named: {stderr}"
        );
    }
}
