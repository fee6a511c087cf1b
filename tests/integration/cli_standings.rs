//! `damka standings --trf FILE [--tiebreaks ...]` end to end, on the TRF fixtures of the
//! domain crate's tie-break tests (their figures were cross-checked with FIDE's
//! TieBreakServer).

use std::process::Command;

fn fixture(name: &str) -> String {
    format!(
        "{}/backend/domain/tests/data/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn damka(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_damka"))
        .args(args)
        .output()
        .expect("damka runs")
}

#[test]
fn swiss_defaults_to_bh_cut1_bh_sb_win() {
    let out = damka(&["standings", "--trf", &fixture("swiss_unplayed.trf")]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "\
Rank  SNo  Name          Pts  BH/C1   BH    SB  WIN
1       3  Player Three  3.0    7.5  9.0  6.25    2
2       2  Player Two    3.0    6.5  7.5  5.50    2
3       1  Player One    2.5    7.5  8.5  4.00    2
4       5  Player Five   1.5    7.0  8.5  2.25    1
5       4  Player Four   1.0    6.5  7.5  1.00    1
6       7  Player Seven  1.0    3.0  4.0  1.00    1
7       6  Player Six    0.5    5.5  6.0  1.50    0
"
    );
}

#[test]
fn round_robin_is_detected_and_tiebreaks_can_be_chosen() {
    let out = damka(&["standings", "--trf", &fixture("rr_forfeit_de.trf")]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        text.starts_with("Rank  SNo  Name   Pts    SB  DE  WIN\n"),
        "{text}"
    );
    let out = damka(&[
        "standings",
        "--trf",
        &fixture("rr_forfeit_de.trf"),
        "--tiebreaks",
        "bh/c1,won,Tpr",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(
        text.lines().next(),
        Some("Rank  SNo  Name   Pts  BH/C1  WON   TPR")
    );
    assert_eq!(text.lines().count(), 5);
}

#[test]
fn unknown_tiebreak_is_named() {
    let out = damka(&[
        "standings",
        "--trf",
        &fixture("rr_forfeit_de.trf"),
        "--tiebreaks",
        "SB,XYZ",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("XYZ"), "{err}");
}

#[test]
fn missing_file_is_an_error_not_a_panic() {
    let out = damka(&["standings", "--trf", "/nonexistent/damka.trf"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/nonexistent/damka.trf"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
