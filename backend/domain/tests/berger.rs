//! Berger tables (FIDE Handbook C.05 Annex 1) and the double round-robin colour rule.
//!
//! The tables for 4, 6 and 8 players are the ones TOURNAMENTS.md quotes from the Handbook;
//! those for 10..16 were compared, board by board, with the published Annex 1 tables as
//! FIDE's reference calculator (TieBreakServer, `berger.bergertables`) prints them.
//! Odd numbers use the next even table, the dummy's opponent having the bye.

use std::collections::HashSet;

use damka_domain::berger::{
    Board, RoundPairings, berger_round, double_round_robin, round_robin_schedule, rounds_per_cycle,
    single_round_robin,
};

/// "w-b w-b | w-b ..." per even n, rounds separated by `|`.
const PUBLISHED: &[(u32, &str)] = &[
    (4, "1-4 2-3 | 4-3 1-2 | 2-4 3-1"),
    (
        6,
        "1-6 2-5 3-4 | 6-4 5-3 1-2 | 2-6 3-1 4-5 | 6-5 1-4 2-3 | 3-6 4-2 5-1",
    ),
    (
        8,
        "1-8 2-7 3-6 4-5 | 8-5 6-4 7-3 1-2 | 2-8 3-1 4-7 5-6 | 8-6 7-5 1-4 2-3 | 3-8 4-2 5-1 6-7 | 8-7 1-6 2-5 3-4 | 4-8 5-3 6-2 7-1",
    ),
    (
        10,
        "1-10 2-9 3-8 4-7 5-6 | 10-6 7-5 8-4 9-3 1-2 | 2-10 3-1 4-9 5-8 6-7 | 10-7 8-6 9-5 1-4 2-3 | 3-10 4-2 5-1 6-9 7-8 | 10-8 9-7 1-6 2-5 3-4 | 4-10 5-3 6-2 7-1 8-9 | 10-9 1-8 2-7 3-6 4-5 | 5-10 6-4 7-3 8-2 9-1",
    ),
    (
        12,
        "1-12 2-11 3-10 4-9 5-8 6-7 | 12-7 8-6 9-5 10-4 11-3 1-2 | 2-12 3-1 4-11 5-10 6-9 7-8 | 12-8 9-7 10-6 11-5 1-4 2-3 | 3-12 4-2 5-1 6-11 7-10 8-9 | 12-9 10-8 11-7 1-6 2-5 3-4 | 4-12 5-3 6-2 7-1 8-11 9-10 | 12-10 11-9 1-8 2-7 3-6 4-5 | 5-12 6-4 7-3 8-2 9-1 10-11 | 12-11 1-10 2-9 3-8 4-7 5-6 | 6-12 7-5 8-4 9-3 10-2 11-1",
    ),
    (
        14,
        "1-14 2-13 3-12 4-11 5-10 6-9 7-8 | 14-8 9-7 10-6 11-5 12-4 13-3 1-2 | 2-14 3-1 4-13 5-12 6-11 7-10 8-9 | 14-9 10-8 11-7 12-6 13-5 1-4 2-3 | 3-14 4-2 5-1 6-13 7-12 8-11 9-10 | 14-10 11-9 12-8 13-7 1-6 2-5 3-4 | 4-14 5-3 6-2 7-1 8-13 9-12 10-11 | 14-11 12-10 13-9 1-8 2-7 3-6 4-5 | 5-14 6-4 7-3 8-2 9-1 10-13 11-12 | 14-12 13-11 1-10 2-9 3-8 4-7 5-6 | 6-14 7-5 8-4 9-3 10-2 11-1 12-13 | 14-13 1-12 2-11 3-10 4-9 5-8 6-7 | 7-14 8-6 9-5 10-4 11-3 12-2 13-1",
    ),
    (
        16,
        "1-16 2-15 3-14 4-13 5-12 6-11 7-10 8-9 | 16-9 10-8 11-7 12-6 13-5 14-4 15-3 1-2 | 2-16 3-1 4-15 5-14 6-13 7-12 8-11 9-10 | 16-10 11-9 12-8 13-7 14-6 15-5 1-4 2-3 | 3-16 4-2 5-1 6-15 7-14 8-13 9-12 10-11 | 16-11 12-10 13-9 14-8 15-7 1-6 2-5 3-4 | 4-16 5-3 6-2 7-1 8-15 9-14 10-13 11-12 | 16-12 13-11 14-10 15-9 1-8 2-7 3-6 4-5 | 5-16 6-4 7-3 8-2 9-1 10-15 11-14 12-13 | 16-13 14-12 15-11 1-10 2-9 3-8 4-7 5-6 | 6-16 7-5 8-4 9-3 10-2 11-1 12-15 13-14 | 16-14 15-13 1-12 2-11 3-10 4-9 5-8 6-7 | 7-16 8-6 9-5 10-4 11-3 12-2 13-1 14-15 | 16-15 1-14 2-13 3-12 4-11 5-10 6-9 7-8 | 8-16 9-7 10-6 11-5 12-4 13-3 14-2 15-1",
    ),
];

fn parse(table: &str) -> Vec<Vec<Board>> {
    table
        .split('|')
        .map(|round| {
            round
                .split_whitespace()
                .map(|b| {
                    let (w, bl) = b.split_once('-').expect("w-b");
                    Board {
                        white: w.parse().expect("number"),
                        black: bl.parse().expect("number"),
                    }
                })
                .collect()
        })
        .collect()
}

#[test]
fn even_tables_equal_the_published_ones() {
    for &(n, table) in PUBLISHED {
        let want = parse(table);
        let got = single_round_robin(n).expect("valid n");
        assert_eq!(got.len(), want.len(), "rounds for n = {n}");
        for (r, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g.round, r as u32 + 1);
            assert_eq!(&g.boards, w, "n = {n}, round {}", r + 1);
            assert_eq!(g.bye, None);
        }
    }
}

#[test]
fn odd_tables_are_the_next_even_table_without_the_dummy() {
    for &(m, table) in PUBLISHED {
        let n = m - 1;
        let want = parse(table);
        let got = single_round_robin(n).expect("valid n");
        assert_eq!(got.len() as u32, rounds_per_cycle(n));
        assert_eq!(rounds_per_cycle(n), m - 1);
        for (g, w) in got.iter().zip(&want) {
            let dummy = w
                .iter()
                .find(|b| b.white == m || b.black == m)
                .expect("dummy board");
            let bye = if dummy.white == m {
                dummy.black
            } else {
                dummy.white
            };
            assert_eq!(g.bye, Some(bye), "n = {n}, round {}", g.round);
            let rest: Vec<Board> = w
                .iter()
                .copied()
                .filter(|b| b.white != m && b.black != m)
                .collect();
            assert_eq!(g.boards, rest, "n = {n}, round {}", g.round);
        }
    }
}

/// Every player plays once per round, every pair meets once per cycle, and colours are
/// balanced to within one game, for every n from 3 to 16.
#[test]
fn every_table_from_3_to_16_is_a_round_robin() {
    for n in 3..=16u32 {
        let s = single_round_robin(n).expect("valid n");
        let mut pairs = HashSet::new();
        let mut balance = vec![0i32; n as usize + 1];
        for r in &s {
            let mut seen = HashSet::new();
            for b in &r.boards {
                assert!((1..=n).contains(&b.white) && (1..=n).contains(&b.black));
                assert!(seen.insert(b.white) && seen.insert(b.black), "n = {n}");
                assert!(
                    pairs.insert((b.white.min(b.black), b.white.max(b.black))),
                    "n = {n}"
                );
                balance[b.white as usize] += 1;
                balance[b.black as usize] -= 1;
            }
            if let Some(bye) = r.bye {
                assert!(seen.insert(bye));
            }
            assert_eq!(seen.len() as u32, n, "n = {n}, round {}", r.round);
        }
        assert_eq!(pairs.len() as u32, n * (n - 1) / 2, "n = {n}");
        assert!(
            balance[1..].iter().all(|d| d.abs() <= 1),
            "n = {n}: {balance:?}"
        );
    }
}

/// Per player, the colour of each round: `Some(true)` White, `Some(false)` Black, `None` bye.
fn colours(schedule: &[RoundPairings], n: u32) -> Vec<Vec<Option<bool>>> {
    let mut seq = vec![Vec::new(); n as usize + 1];
    for r in schedule {
        for p in 1..=n {
            let c = r.boards.iter().find_map(|b| {
                if b.white == p {
                    Some(true)
                } else if b.black == p {
                    Some(false)
                } else {
                    None
                }
            });
            seq[p as usize].push(c);
        }
    }
    seq
}

fn three_running(seq: &[Option<bool>]) -> bool {
    seq.windows(3)
        .any(|w| w[0].is_some() && w[0] == w[1] && w[1] == w[2])
}

#[test]
fn double_round_robin_never_gives_a_colour_three_times_running() {
    for n in 3..=16u32 {
        let s = double_round_robin(n).expect("valid n");
        let cycle = rounds_per_cycle(n) as usize;
        assert_eq!(s.len(), 2 * cycle);
        for (k, r) in s.iter().enumerate() {
            assert_eq!(r.round, k as u32 + 1);
        }
        for (p, seq) in colours(&s, n).iter().enumerate().skip(1) {
            assert!(!three_running(seq), "n = {n}, player {p}: {seq:?}");
        }
    }
}

#[test]
fn second_cycle_reverses_colours_and_first_cycle_swaps_its_last_two_rounds() {
    let reverse = |r: &RoundPairings| -> Vec<Board> {
        r.boards
            .iter()
            .map(|b| Board {
                white: b.black,
                black: b.white,
            })
            .collect()
    };
    let mut plain_breaks_the_rule = false;
    for n in 3..=16u32 {
        let single = single_round_robin(n).expect("valid n");
        let double = double_round_robin(n).expect("valid n");
        let c = single.len();
        for k in 0..c - 2 {
            assert_eq!(double[k].boards, single[k].boards);
        }
        assert_eq!(double[c - 2].boards, single[c - 1].boards);
        assert_eq!(double[c - 1].boards, single[c - 2].boards);
        for k in 0..c {
            assert_eq!(double[c + k].boards, reverse(&single[k]));
            assert_eq!(double[c + k].bye, single[k].bye);
        }
        // Without the swap some player would get a colour three times running.
        let mut plain = single.clone();
        plain.extend(single.iter().map(|r| RoundPairings {
            round: r.round + c as u32,
            boards: reverse(r),
            bye: r.bye,
        }));
        plain_breaks_the_rule |= colours(&plain, n).iter().any(|s| three_running(s));
    }
    assert!(plain_breaks_the_rule, "the swap would be pointless");
}

#[test]
fn schedule_errors_are_typed() {
    assert!(round_robin_schedule(1, 1).is_err());
    assert!(round_robin_schedule(6, 0).is_err());
    assert!(berger_round(6, 6).is_err());
    assert_eq!(round_robin_schedule(6, 2).expect("valid").len(), 10);
    assert_eq!(round_robin_schedule(5, 2).expect("valid").len(), 10);
}
