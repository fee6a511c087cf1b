//! End-to-end tests of the engine subcommands of the `damka` binary.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use std::path::PathBuf;
use std::process::{Command, Output};

fn damka(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_damka"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// A fresh file in the system temp directory.
fn temp_file(name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("damka-cli-engine-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

#[test]
fn perft_prints_one_line_per_depth() {
    let output = damka(&["perft", "--variant", "russian", "--depth", "4"]);
    assert!(output.status.success(), "{output:?}");
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4);
    for (line, expected) in lines.iter().zip([
        "perft(1) = 7 ",
        "perft(2) = 49 ",
        "perft(3) = 302 ",
        "perft(4) = 1469 ",
    ]) {
        assert!(line.starts_with(expected), "{line}");
        assert!(line.contains(" s ") && line.ends_with("leaves/s"), "{line}");
    }
}

#[test]
fn perft_defaults_to_russian_and_takes_a_fen() {
    let output = damka(&["perft", "--depth", "2", "--fen", "W:WKc1:Bd2,e5,c5,c3"]);
    let text = stdout(&output);
    assert!(
        text.lines().nth(1).unwrap().starts_with("perft(2) = 11 "),
        "{text}"
    );
}

#[test]
fn perft_divide_lists_root_moves() {
    let output = damka(&[
        "perft",
        "--variant",
        "international",
        "--depth",
        "3",
        "--divide",
    ]);
    let text = stdout(&output);
    let divided: Vec<(&str, u64)> = text
        .lines()
        .filter(|l| !l.starts_with("perft("))
        .map(|l| {
            let (mv, n) = l.split_once(": ").unwrap();
            (mv, n.parse().unwrap())
        })
        .collect();
    assert_eq!(divided.len(), 9);
    assert_eq!(divided.iter().map(|(_, n)| n).sum::<u64>(), 658);
    assert!(divided.iter().any(|(mv, _)| *mv == "32-28"));
    assert!(text.lines().last().unwrap().starts_with("perft(3) = 658 "));
}

#[test]
fn moves_are_sorted_in_the_variant_notation() {
    let output = damka(&["moves", "--variant", "english"]);
    assert_eq!(
        stdout(&output),
        "9-13\n9-14\n10-14\n10-15\n11-15\n11-16\n12-16\n"
    );
    let output = damka(&["moves", "--fen", "W:Wc3:Bd4,f6"]);
    assert_eq!(stdout(&output), "c3:e5:g7\n");
}

#[test]
fn moves_json_has_path_and_captures() {
    let output = damka(&[
        "moves",
        "--variant",
        "russian",
        "--fen",
        "W:Wc3:Bd4,f6",
        "--json",
    ]);
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let moves = value.as_array().unwrap();
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0]["notation"], "c3:e5:g7");
    assert_eq!(moves[0]["path"], serde_json::json!(["c3", "e5", "g7"]));
    assert_eq!(moves[0]["captured"], serde_json::json!(["f6", "d4"]));
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let output = damka(&["moves", "--fen", "W:Wz9"]);
    assert!(!output.status.success());
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.contains("\"z9\" is not a square"), "{err}");
    let output = damka(&["perft", "--variant", "checkers", "--depth", "1"]);
    assert!(!output.status.success());
}

#[test]
fn check_game_accepts_legal_games() {
    let path = temp_file(
        "legal.pdn",
        "[GameType \"25\"]\n1. c3-d4 f6-e5 2. d4:f6 g7:e5 *\n\n[GameType \"20\"]\n[FEN \"W:W28:B23,13\"]\n1. 28x19x8 2-0\n",
    );
    let output = damka(&["check-game", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "game 1: legal, 4 plies, * (ongoing)");
    assert_eq!(
        lines[1],
        "game 2: legal, 1 plies, 1-0 (white wins: black has no legal move)"
    );
}

#[test]
fn check_game_reports_the_first_illegal_move() {
    let path = temp_file("illegal.pdn", "1. c3-d4 f6-e5 2. d4-c5 d6:b4 *\n");
    let output = damka(&["check-game", "--variant", "russian", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stdout(&output),
        "game 1: illegal move 2 (white) d4-c5 at line 1, column 19: a capture is compulsory: capture with the piece on d4\n"
    );
}

#[test]
fn check_game_unreadable_input_exits_2() {
    let missing = damka(&["check-game", "/nonexistent/game.pdn"]);
    assert_eq!(missing.status.code(), Some(2));
    let path = temp_file("broken.pdn", "[Event \"x\"]\n1. c3-d4 {never closed\n");
    let broken = damka(&["check-game", path.to_str().unwrap()]);
    assert_eq!(broken.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&broken.stderr).contains(":2:10: comment is not closed"));
}
