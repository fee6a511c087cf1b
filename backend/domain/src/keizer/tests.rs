//! The Keizer rules on small seasons built by hand.

use super::*;
use crate::tournament::{
    ByeKind, Colour, NextRoundAbsence, Outcome, PendingGame, Player, RoundEntry, Tournament,
};

/// A season of `n` players, start numbers 1..=n, named A, B, C, ...
fn season(n: u32) -> Tournament {
    Tournament {
        players: (1..=n)
            .map(|start_no| Player {
                start_no,
                name: char::from(b'A' + (start_no - 1) as u8).to_string(),
                ..Player::default()
            })
            .collect(),
        ..Tournament::default()
    }
}

fn no(name: char) -> u32 {
    u32::from(name) - u32::from('A') + 1
}

/// Adds a round: games as "AB1" (A White beats B), "CD=" (draw), "EF0" (Black wins),
/// "GH+" (White wins by forfeit); `byes` as (player, kind). Everyone else is not paired.
fn play(t: &mut Tournament, games: &[&str], byes: &[(char, ByeKind)]) {
    let round = t.players.iter().map(|p| p.rounds.len()).max().unwrap_or(0);
    for p in &mut t.players {
        p.rounds.resize(round + 1, RoundEntry::NotPaired);
    }
    for game in games {
        let c: Vec<char> = game.chars().collect();
        let (white, black) = (no(c[0]), no(c[1]));
        let entries = |outcome| {
            (
                RoundEntry::Played {
                    opponent: black,
                    colour: Colour::White,
                    outcome,
                    rated: true,
                },
                RoundEntry::Played {
                    opponent: white,
                    colour: Colour::Black,
                    outcome: match outcome {
                        Outcome::Win => Outcome::Loss,
                        Outcome::Loss => Outcome::Win,
                        Outcome::Draw => Outcome::Draw,
                    },
                    rated: true,
                },
            )
        };
        let (w, b) = match c[2] {
            '1' => entries(Outcome::Win),
            '=' => entries(Outcome::Draw),
            '0' => entries(Outcome::Loss),
            '+' => (
                RoundEntry::Forfeit {
                    opponent: black,
                    colour: Some(Colour::White),
                    won: true,
                },
                RoundEntry::Forfeit {
                    opponent: white,
                    colour: Some(Colour::Black),
                    won: false,
                },
            ),
            other => panic!("unknown result {other}"),
        };
        t.players[white as usize - 1].rounds[round] = w;
        t.players[black as usize - 1].rounds[round] = b;
    }
    for &(player, kind) in byes {
        t.players[no(player) as usize - 1].rounds[round] = RoundEntry::Bye(kind);
    }
}

fn names(t: &Tournament, s: &KeizerStandings) -> String {
    s.rows
        .iter()
        .map(|r| t.players[r.start_no as usize - 1].name.as_str())
        .collect()
}

/// The score of `player` in sixths.
fn sixths(s: &KeizerStandings, player: char) -> u64 {
    s.row(no(player)).expect("player in the standings").sixths
}

fn pairs(t: &Tournament, p: &crate::dutch::RoundPairing) -> Vec<String> {
    let name = |s: u32| t.players[s as usize - 1].name.clone();
    p.boards
        .iter()
        .map(|b| {
            let mut two = [name(b.white), name(b.black)];
            two.sort();
            two.concat()
        })
        .collect()
}

fn keizer_1956() -> (Tournament, KeizerOptions) {
    let mut t = season(10);
    play(&mut t, &["AB1", "CD=", "EF0", "GH=", "IJ0"], &[]);
    let options = KeizerOptions {
        top_value: Some(50),
        method: KeizerMethod::PerRound,
        ..KeizerOptions::default()
    };
    (t, options)
}

#[test]
fn keizers_own_1956_example_after_round_one() {
    let (t, options) = keizer_1956();
    let s = standings(&t, &options, 1);
    assert_eq!(names(&t, &s), "AFJCDGHBEI");
    let halves: Vec<u64> = s.rows.iter().map(|r| r.sixths / 3).collect();
    assert_eq!(halves, [198, 182, 166, 143, 142, 131, 130, 98, 92, 84]);
    assert!(s.rows.iter().all(|r| r.sixths % 3 == 0));
    // A's card: own value 50, the win over B (value 49) earned 49.
    let a = s.row(no('A')).expect("A");
    assert_eq!(a.own_value_sixths, 300);
    assert_eq!(a.rounds[0].value, Some(49));
    assert_eq!(a.rounds[0].share_sixths, 6);
    assert_eq!(a.rounds[0].earned_sixths, 294);
    assert_eq!((a.rank, a.value), (1, 50));
    assert_eq!(s.row(no('F')).map(|r| r.value), Some(49));
}

#[test]
fn keizers_own_1956_example_pairs_round_two_top_down() {
    let (t, options) = keizer_1956();
    let round_two = pair_next_round(&t, &options).expect("pairs");
    assert_eq!(pairs(&t, &round_two), ["AF", "CJ", "DG", "BH", "EI"]);
    assert_eq!(round_two.bye, None);
}

#[test]
fn before_any_round_the_start_order_stands_with_the_own_values() {
    let t = season(4);
    let s = standings(&t, &KeizerOptions::default(), 0);
    assert_eq!(names(&t, &s), "ABCD");
    let values: Vec<u32> = s.rows.iter().map(|r| r.value).collect();
    assert_eq!(values, [4, 3, 2, 1]);
    assert_eq!(sixths(&s, 'A'), 24);
}

#[test]
fn iterative_scores_settle_on_a_ranking_that_ranks_itself() {
    let mut t = season(6);
    play(&mut t, &["AB0", "CD0", "EF0"], &[]);
    play(&mut t, &["BD=", "FA1", "CE1"], &[]);
    let iterative = KeizerOptions::default();
    let per_round = KeizerOptions {
        method: KeizerMethod::PerRound,
        ..iterative
    };
    let settled = standings(&t, &iterative, 2);
    let once = standings(&t, &per_round, 2);
    assert_ne!(settled, once, "the method changes the standings");
    // Every value a card used is the value of the opponent's rank in the final ranking.
    for row in &settled.rows {
        for round in &row.rounds {
            if let RoundEntry::Played { opponent, .. } = round.entry {
                assert_eq!(round.value, settled.row(opponent).map(|o| o.value));
            }
        }
        let ranked_below = settled
            .rows
            .iter()
            .filter(|o| o.sixths > row.sixths)
            .count();
        assert!(ranked_below < row.rank as usize);
    }
}

#[test]
fn a_ranking_that_does_not_settle_stops_after_twenty_rankings() {
    // Two players who beat each other in turn and nobody else: whoever is first is worth
    // more to the other, so the ranking could swap for ever; it must stop.
    let mut t = season(2);
    play(&mut t, &["AB0"], &[]);
    play(&mut t, &["AB1"], &[]);
    let s = standings(&t, &KeizerOptions::default(), 2);
    assert_eq!(s.rows.len(), 2);
}

#[test]
fn every_option_changes_what_the_rules_say() {
    let mut t = season(4);
    play(&mut t, &["AB1", "CD="], &[]);
    play(
        &mut t,
        &["AC0"],
        &[('B', ByeKind::Excused), ('D', ByeKind::ClubDuty)],
    );
    play(&mut t, &["AD+", "BC="], &[]);
    let base = KeizerOptions {
        method: KeizerMethod::PerRound,
        ..KeizerOptions::default()
    };
    let after = |options: KeizerOptions| standings(&t, &options, 3);
    let reference = after(base);
    // bye_sixths: in `absences_score_a_share_of_the_own_value_by_their_kind` (this season
    // has no bye); repeat_gap: in the pairing tests below.
    let changes: [(&str, KeizerOptions); 10] = [
        (
            "top_value",
            KeizerOptions {
                top_value: Some(40),
                ..base
            },
        ),
        (
            "value_step",
            KeizerOptions {
                value_step: 2,
                top_value: Some(40),
                ..base
            },
        ),
        (
            "own_value",
            KeizerOptions {
                own_value: false,
                ..base
            },
        ),
        (
            "win_sixths",
            KeizerOptions {
                win_sixths: 5,
                ..base
            },
        ),
        (
            "draw_sixths",
            KeizerOptions {
                draw_sixths: 2,
                ..base
            },
        ),
        (
            "loss_sixths",
            KeizerOptions {
                loss_sixths: 1,
                ..base
            },
        ),
        (
            "excused_sixths",
            KeizerOptions {
                excused_sixths: 3,
                ..base
            },
        ),
        (
            "club_duty_sixths",
            KeizerOptions {
                club_duty_sixths: 6,
                ..base
            },
        ),
        (
            "max_scored_absences",
            KeizerOptions {
                max_scored_absences: 0,
                ..base
            },
        ),
        (
            "method",
            KeizerOptions {
                method: KeizerMethod::Iterative,
                ..base
            },
        ),
    ];
    for (name, options) in &changes {
        assert_ne!(after(*options), reference, "{name} changes nothing");
    }
    // The exact arithmetic of one option each, per_round with the start order's values
    // A 4, B 3, C 2, D 1 for round 1.
    let s = standings(&t, &base, 1);
    assert_eq!(sixths(&s, 'A'), 4 * 6 + 3 * 6);
    assert_eq!(sixths(&s, 'C'), 2 * 6 + 3);
    let losses_score = standings(
        &t,
        &KeizerOptions {
            loss_sixths: 2,
            ..base
        },
        1,
    );
    assert_eq!(sixths(&losses_score, 'B'), 3 * 6 + 4 * 2);
}

#[test]
fn absences_score_a_share_of_the_own_value_by_their_kind() {
    let mut t = season(4);
    play(
        &mut t,
        &["AB1"],
        &[('C', ByeKind::ClubDuty), ('D', ByeKind::ZeroPoint)],
    );
    let options = KeizerOptions {
        method: KeizerMethod::PerRound,
        absent_sixths: 1,
        ..KeizerOptions::default()
    };
    let s = standings(&t, &options, 1);
    // Start order values: C 2, D 1.
    assert_eq!(sixths(&s, 'C'), 2 * 6 + 2 * 4);
    assert_eq!(sixths(&s, 'D'), 6 + 1);
    let bye = {
        let mut t = season(3);
        play(&mut t, &["AB1"], &[('C', ByeKind::PairingAllocated)]);
        standings(
            &t,
            &KeizerOptions {
                bye_sixths: 5,
                ..options
            },
            1,
        )
    };
    assert_eq!(sixths(&bye, 'C'), 6 + 5);
}

#[test]
fn only_the_first_absences_with_notice_score() {
    let mut t = season(2);
    for _ in 0..3 {
        play(
            &mut t,
            &[],
            &[('A', ByeKind::Excused), ('B', ByeKind::ClubDuty)],
        );
    }
    let options = KeizerOptions {
        method: KeizerMethod::PerRound,
        max_scored_absences: 2,
        ..KeizerOptions::default()
    };
    let s = standings(&t, &options, 3);
    let a = s.row(no('A')).expect("A");
    let earned: Vec<u64> = a.rounds.iter().map(|r| r.earned_sixths).collect();
    let value = a.rounds[0].value.expect("scored with the own value");
    assert_eq!(earned, [value as u64 * 2, value as u64 * 2, 0]);
    assert_eq!(a.rounds[2].value, None);
    let b = s.row(no('B')).expect("B");
    assert!(
        b.rounds.iter().all(|r| r.share_sixths == 4),
        "club duty always scores"
    );
}

#[test]
fn a_forfeit_win_counts_as_a_win_and_a_forfeit_loss_as_nothing() {
    let mut t = season(2);
    play(&mut t, &["AB+"], &[]);
    let options = KeizerOptions {
        method: KeizerMethod::PerRound,
        loss_sixths: 3,
        ..KeizerOptions::default()
    };
    let s = standings(&t, &options, 1);
    assert_eq!(sixths(&s, 'A'), 2 * 6 + 6);
    assert_eq!(sixths(&s, 'B'), 6);
    assert_eq!(s.row(no('B')).map(|b| b.rounds[0].value), Some(None));
}

#[test]
fn rounds_before_a_late_entry_score_nothing() {
    let mut t = season(5);
    play(&mut t, &["AB1", "CD1"], &[]);
    // E joins in round 2 and wins; round 1 is not paired for E and scores 0.
    play(&mut t, &["EA1", "BC="], &[('D', ByeKind::Excused)]);
    let s = standings(&t, &KeizerOptions::default(), 2);
    let e = s.row(no('E')).expect("E");
    assert_eq!(e.rounds[0].entry, RoundEntry::NotPaired);
    assert_eq!((e.rounds[0].value, e.rounds[0].earned_sixths), (None, 0));
    assert!(e.rounds[1].earned_sixths > 0);
    // Equal scores go by start number.
    let mut even = season(3);
    play(&mut even, &[], &[]);
    assert_eq!(
        names(&even, &standings(&even, &KeizerOptions::default(), 1)),
        "ABC"
    );
}

#[test]
fn the_bye_goes_to_the_lowest_ranked_present_player_without_one() {
    let mut t = season(5);
    play(&mut t, &["AB1", "CD1"], &[('E', ByeKind::PairingAllocated)]);
    t.next_round_absences = vec![NextRoundAbsence {
        player: no('A'),
        kind: ByeKind::Excused,
    }];
    let p = pair_next_round(&t, &KeizerOptions::default()).expect("pairs");
    let s = standings(&t, &KeizerOptions::default(), 1);
    let lowest = s.rows.last().map(|r| r.start_no);
    // Five minus A: four players, no bye.
    assert_eq!(p.bye, None);
    assert!(
        p.boards
            .iter()
            .all(|b| b.white != no('A') && b.black != no('A'))
    );
    t.next_round_absences.clear();
    let p = pair_next_round(&t, &KeizerOptions::default()).expect("pairs");
    assert_eq!(lowest, Some(no('E')), "E, who had the bye, is last");
    assert_ne!(p.bye, Some(no('E')));
    assert_eq!(p.bye, s.rows.iter().rev().nth(1).map(|r| r.start_no));
}

#[test]
fn no_rematch_within_the_gap_while_the_rest_can_be_paired() {
    let mut t = season(4);
    play(&mut t, &["AB1", "CD1"], &[]);
    let p = pair_next_round(&t, &KeizerOptions::default()).expect("pairs");
    // A and B (and C and D) just met: the top-down pairing takes the next one down.
    assert!(!pairs(&t, &p).contains(&"AB".to_string()));
    assert!(!pairs(&t, &p).contains(&"CD".to_string()));
    let with_no_gap = KeizerOptions {
        repeat_gap: 0,
        ..KeizerOptions::default()
    };
    let again = pair_next_round(&t, &with_no_gap).expect("pairs");
    let s = standings(&t, &with_no_gap, 1);
    let top_two = [s.rows[0].start_no, s.rows[1].start_no];
    let first = again.boards[0];
    assert!(top_two.contains(&first.white) && top_two.contains(&first.black));
}

#[test]
fn the_top_player_takes_a_lower_opponent_when_the_rest_could_not_be_paired() {
    // After A-C, B-D: with a gap of 1, A may meet B or D, but A-B leaves C-D, who may
    // meet; ranking decides. Build a history where the greedy choice strands two players.
    let mut t = season(4);
    play(&mut t, &["AD1", "BC1"], &[]);
    play(&mut t, &["CD1", "AB1"], &[]);
    // Gap 2: A met D and B, B met C and A; A may only meet C; B only D.
    let options = KeizerOptions {
        repeat_gap: 2,
        ..KeizerOptions::default()
    };
    let p = pair_next_round(&t, &options).expect("pairs");
    let mut got = pairs(&t, &p);
    got.sort();
    assert_eq!(got, ["AC", "BD"]);
}

#[test]
fn the_gap_shrinks_until_a_pairing_exists() {
    let mut t = season(2);
    play(&mut t, &["AB1"], &[]);
    play(&mut t, &["BA1"], &[]);
    let p = pair_next_round(&t, &KeizerOptions::default()).expect("two players meet again");
    assert_eq!(pairs(&t, &p), ["AB"]);
    let mut four = season(4);
    play(&mut four, &["AB1", "CD1"], &[]);
    play(&mut four, &["AC1", "BD1"], &[]);
    play(&mut four, &["AD1", "BC1"], &[]);
    // Everyone has met everyone in the last three rounds: the gap shrinks to 2, and only
    // the round-1 pairs may meet.
    let p = pair_next_round(&four, &KeizerOptions::default()).expect("pairs");
    let mut got = pairs(&four, &p);
    got.sort();
    assert_eq!(got, ["AB", "CD"]);
}

/// Whites minus blacks, and the last colour, of `player`'s games so far.
fn colour_history(t: &Tournament, player: u32) -> (i32, Option<Colour>) {
    let mut balance = 0;
    let mut last = None;
    for entry in &t.players[player as usize - 1].rounds {
        if let RoundEntry::Played { colour, .. } = *entry {
            balance += if colour == Colour::White { 1 } else { -1 };
            last = Some(colour);
        }
    }
    (balance, last)
}

/// Checks the colour rule on every board of the next round of `t`; marks which of its
/// three steps decided each board.
fn check_colours(t: &Tournament, options: &KeizerOptions, seen: &mut [bool; 3]) {
    let p = pair_next_round(t, options).expect("pairs");
    let played = t.players.iter().map(|p| p.rounds.len()).max().unwrap_or(0) as u32;
    let s = standings(t, options, played);
    for board in &p.boards {
        let (white, black) = (
            colour_history(t, board.white),
            colour_history(t, board.black),
        );
        let rank = |player| s.row(player).map(|r| r.rank);
        if white.0 != black.0 {
            assert!(white.0 < black.0, "fewer whites get White: {board:?}");
            seen[0] = true;
        } else if (white.1 == Some(Colour::Black)) != (black.1 == Some(Colour::Black)) {
            assert_eq!(
                white.1,
                Some(Colour::Black),
                "Black last time gets White: {board:?}"
            );
            seen[1] = true;
        } else {
            assert!(
                rank(board.white) < rank(board.black),
                "the higher-ranked: {board:?}"
            );
            seen[2] = true;
        }
    }
}

#[test]
fn colours_balance_then_alternate_then_favour_the_higher_ranked() {
    let options = KeizerOptions {
        repeat_gap: 0,
        ..KeizerOptions::default()
    };
    let mut seen = [false; 3];
    let mut t = season(6);
    play(&mut t, &["AB1", "CD=", "FE1"], &[]);
    play(
        &mut t,
        &["AC=", "DB1"],
        &[('E', ByeKind::Excused), ('F', ByeKind::ClubDuty)],
    );
    check_colours(&t, &options, &mut seen);
    // Everyone even; A and D had Black last, B and C White.
    let mut even = season(4);
    play(&mut even, &["AB1", "DC0"], &[]);
    play(&mut even, &["BA0", "CD1"], &[]);
    for gap in 0..=2 {
        check_colours(
            &even,
            &KeizerOptions {
                repeat_gap: gap,
                ..options
            },
            &mut seen,
        );
    }
    check_colours(&season(2), &options, &mut seen);
    assert_eq!(seen, [true; 3], "every step decided a board");
}

#[test]
fn pairing_waits_for_results_and_needs_two_present_players() {
    let mut t = season(3);
    t.pending_games = vec![PendingGame {
        round: 1,
        white: 1,
        black: 2,
    }];
    assert!(matches!(
        pair_next_round(&t, &KeizerOptions::default()),
        Err(crate::pairing_system::PairingSystemError::Dutch(_))
    ));
    t.pending_games.clear();
    t.next_round_absences = [1, 2]
        .map(|player| NextRoundAbsence {
            player,
            kind: ByeKind::ZeroPoint,
        })
        .to_vec();
    assert_eq!(
        pair_next_round(&t, &KeizerOptions::default()),
        Err(crate::pairing_system::PairingSystemError::TooFewPresent { present: 1 })
    );
}

#[test]
fn values_never_fall_below_zero() {
    let t = season(5);
    let options = KeizerOptions {
        top_value: Some(3),
        value_step: 2,
        ..KeizerOptions::default()
    };
    let values: Vec<u32> = standings(&t, &options, 0)
        .rows
        .iter()
        .map(|r| r.value)
        .collect();
    assert_eq!(values, [3, 1, 0, 0, 0]);
}
