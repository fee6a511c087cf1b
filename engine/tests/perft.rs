//! Perft against PERFT.md: start positions of the four presets and the three rule probes.
//! Depths that take more than a few seconds in debug builds are `#[ignore]`d; CI runs them
//! in release mode with `--ignored`.

#![allow(clippy::unwrap_used)] // test helpers: a failed unwrap is a failed test

use damka_engine::{Position, Rules, Variant, perft};

/// PERFT.md "Start positions", depth 1 first.
const RUSSIAN: &[u64] = &[7, 49, 302, 1469, 7482, 37986, 190146, 929899, 4570586];
const ENGLISH: &[u64] = &[
    7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564,
];
const INTERNATIONAL: &[u64] = &[9, 81, 658, 4265, 27117, 167140, 1049442, 6483961];
const BRAZILIAN: &[u64] = &[7, 49, 302, 1469, 7473, 37628, 187302];

fn check_start(variant: Variant, expected: &[u64], depths: std::ops::RangeInclusive<usize>) {
    let start = Position::start(variant);
    for depth in depths {
        assert_eq!(
            perft(&start, depth as u32),
            expected[depth - 1],
            "{variant} perft({depth})"
        );
    }
}

#[test]
fn russian_start_shallow() {
    check_start(Variant::Russian, RUSSIAN, 1..=6);
}

#[test]
fn english_start_shallow() {
    check_start(Variant::English, ENGLISH, 1..=6);
}

#[test]
fn international_start_shallow() {
    check_start(Variant::International, INTERNATIONAL, 1..=5);
}

#[test]
fn brazilian_start_shallow() {
    check_start(Variant::Brazilian, BRAZILIAN, 1..=6);
}

#[test]
#[ignore = "deep: run in release with --ignored"]
fn russian_start_deep() {
    check_start(Variant::Russian, RUSSIAN, 7..=9);
}

#[test]
#[ignore = "deep: run in release with --ignored"]
fn english_start_deep() {
    check_start(Variant::English, ENGLISH, 7..=10);
}

#[test]
#[ignore = "deep: run in release with --ignored"]
fn international_start_deep() {
    check_start(Variant::International, INTERNATIONAL, 6..=8);
}

#[test]
#[ignore = "deep: run in release with --ignored"]
fn brazilian_start_deep() {
    check_start(Variant::Brazilian, BRAZILIAN, 7..=7);
}

/// PERFT.md probe: the Turkish strike stops the king's sequence.
#[test]
fn turkish_strike_probe() {
    let pos = Position::from_fen(Variant::Russian, "W:WKc1:Bd2,e5,c5,c3").unwrap();
    let expected = [4, 11, 62, 187, 1154, 5189, 33533];
    for (depth, count) in expected.iter().enumerate() {
        assert_eq!(perft(&pos, depth as u32 + 1), *count, "depth {}", depth + 1);
    }
}

/// PERFT.md probe: a russian man crowned mid-capture goes on as a king; a brazilian one does not.
#[test]
fn promotion_during_capture_probe() {
    let russian = Position::from_fen(Variant::Russian, "W:Wb6:Bc7,e7").unwrap();
    let mut moves: Vec<String> = russian.legal_moves().iter().map(|m| m.notation()).collect();
    moves.sort();
    assert_eq!(moves, ["b6:d8:f6", "b6:d8:g5", "b6:d8:h4"]);
    assert!(russian.legal_moves().iter().all(|m| m.promotes()));

    let brazilian = Position::from_fen(Variant::Brazilian, "W:Wb6:Bc7,e7").unwrap();
    let moves = brazilian.legal_moves();
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0].notation(), "b6xd8xf6");
    assert!(
        !moves[0].promotes(),
        "it passed the last row but ended on f6"
    );
}

/// PERFT.md probe: the two ways round the windmill are one move.
#[test]
fn windmill_probe() {
    let pos = Position::from_fen(Variant::International, "W:WK2:B7,8,17,18").unwrap();
    let moves = pos.legal_moves();
    assert_eq!(
        moves.len(),
        1,
        "{:?}",
        moves.iter().map(|m| m.notation()).collect::<Vec<_>>()
    );
    assert_eq!(moves[0].captured_count(), 4);
    assert_eq!(perft(&pos, 1), 1);
}

#[test]
fn perft_respects_local_rules() {
    // Without compulsory capture every quiet move is added to the captures.
    let mut rules = Rules::preset(Variant::Russian);
    let pos = Position::from_fen(rules, "W:Wc3:Bd4").unwrap();
    assert_eq!(perft(&pos, 1), 1);
    rules.mandatory_capture = false;
    let free = pos.with_rules(rules).unwrap();
    assert_eq!(perft(&free, 1), 2, "c3:e5 and c3-b4");
    assert_eq!(free.legal_moves().len(), 2);
}
