//! Large Swiss rounds identical to bbpPairings: 100, 500 and 1,000 players after five rounds
//! of a nine-round event with byes, absences, withdrawals, forfeits and forbidden pairs
//! (`tests/data/dutch/bench/bench_NNNN.trf`, generated with `tests/data/dutch/generate.py
//! BBP DIR --bench 100,500,1000`; bbpPairings' pairing of the next round is stored next to
//! each as `bench_NNNN.pairing`). The pairing benchmark (`benches/pairing.rs`) times the
//! same rounds.
//!
//! Two rounds of 2,000 players (`tests/data/dutch/own/own_2000_rK.trf`, after K rounds,
//! made by `examples/swiss_big.rs gen 2000 5 5`) keep the pairing of the engine as it was
//! before the matching was made to scale to 5,000 players (`own_2000_rK.pairing`, written by
//! that engine, which reproduced every stored bbpPairings pairing): bbpPairings was not at
//! hand, and the changes to the matching are meant to leave every pairing as it was.
//!
//! 100 players take under a second unoptimised and run with every `cargo test`; 500 and
//! 1,000 are ignored (an unoptimised build needs about 4 s of CPU for 500 and much more for
//! 1,000) and run with `cargo test -p damka-domain -- --ignored`, optimised (the domain
//! crate is optimised in every build, Cargo.toml).

use damka_domain::dutch::{RoundPairing, pair_next_round};
use damka_domain::trf;
use std::path::PathBuf;
use std::time::Instant;

/// Pairs `bench_NNNN.trf` and compares the round with bbpPairings' `bench_NNNN.pairing`;
/// both files must be there (a missing one fails rather than passing unseen).
fn matches_bbp_pairings(players: usize) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/dutch/bench");
    let read = |ext: &str| {
        let path = dir.join(format!("bench_{players:04}.{ext}"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    };
    let t = trf::parse(&read("trf")).unwrap_or_else(|e| panic!("bench_{players:04}.trf: {e}"));
    assert_eq!(
        t.players.len(),
        players,
        "players in bench_{players:04}.trf"
    );
    let expected = RoundPairing::from_bbp_format(&read("pairing"))
        .unwrap_or_else(|| panic!("bench_{players:04}.pairing is not in bbpPairings' format"));
    let started = Instant::now();
    let ours = pair_next_round(&t).unwrap_or_else(|e| panic!("{players} players: {e}"));
    eprintln!("{players} players paired in {:.2?}", started.elapsed());
    assert!(
        ours == expected,
        "{players} players: the pairing differs from bbpPairings'\nfirst differing lines \
         (ours | bbpPairings):\n{}",
        first_differences(&ours.to_bbp_format(), &expected.to_bbp_format())
    );
}

/// Pairs `own/own_2000_rK.trf` and compares the round with the earlier engine's pairing.
fn matches_earlier_engine(name: &str) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/dutch/own");
    let read = |ext: &str| {
        let path = dir.join(format!("{name}.{ext}"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    };
    let t = trf::parse(&read("trf")).unwrap_or_else(|e| panic!("{name}.trf: {e}"));
    let expected = RoundPairing::from_bbp_format(&read("pairing"))
        .unwrap_or_else(|| panic!("{name}.pairing is not in bbpPairings' format"));
    let ours = pair_next_round(&t).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(
        ours == expected,
        "{name}: the pairing differs from the earlier engine's\nfirst differing lines \
         (ours | earlier):\n{}",
        first_differences(&ours.to_bbp_format(), &expected.to_bbp_format())
    );
}

/// Up to ten lines where the two pairings in bbpPairings' format differ, side by side.
fn first_differences(ours: &str, theirs: &str) -> String {
    let (a, b): (Vec<&str>, Vec<&str>) = (ours.lines().collect(), theirs.lines().collect());
    (0..a.len().max(b.len()))
        .filter(|&i| a.get(i) != b.get(i))
        .take(10)
        .map(|i| {
            format!(
                "  line {}: {} | {}\n",
                i + 1,
                a.get(i).unwrap_or(&"-"),
                b.get(i).unwrap_or(&"-")
            )
        })
        .collect()
}

#[test]
fn one_hundred_players_match_bbp_pairings() {
    matches_bbp_pairings(100);
}

#[test]
#[ignore = "large: run optimised with --ignored (the domain crate is optimised in every build)"]
fn five_hundred_players_match_bbp_pairings() {
    matches_bbp_pairings(500);
}

#[test]
#[ignore = "large: run optimised with --ignored (the domain crate is optimised in every build)"]
fn one_thousand_players_match_bbp_pairings() {
    matches_bbp_pairings(1000);
}

#[test]
#[ignore = "large: run optimised with --ignored (the domain crate is optimised in every build)"]
fn two_thousand_players_after_one_round_keep_their_pairing() {
    matches_earlier_engine("own_2000_r1");
}

#[test]
#[ignore = "large: run optimised with --ignored (the domain crate is optimised in every build)"]
fn two_thousand_players_after_three_rounds_keep_their_pairing() {
    matches_earlier_engine("own_2000_r3");
}
