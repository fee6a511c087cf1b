//! The checks of a hand-changed pairing: the system's own pairings raise nothing (over the
//! whole Dutch corpus), and each rule break is reported once, on its board.

mod common;

use common::{before_round, corpus_files, expected_rounds};
use damka_domain::dutch::{Board, RoundPairing, pair_next_round};
use damka_domain::pairing_check::{PairingSystem, PlacementError, Warning, WarningKind, check};
use damka_domain::tournament::{
    ByeKind, Colour, NextRoundAbsence, Outcome, Player, RoundEntry, StartNo, Tournament,
};
use damka_domain::{berger, trf};

fn pairing(boards: &[(StartNo, StartNo)], bye: Option<StartNo>) -> RoundPairing {
    RoundPairing {
        boards: boards
            .iter()
            .map(|&(white, black)| Board { white, black })
            .collect(),
        bye,
    }
}

/// A game between `white` and `black` in round `round` (1-based); `score` is White's
/// result: 2 win, 1 draw, 0 loss; `None` a forfeit won by White.
fn game(t: &mut Tournament, round: usize, white: StartNo, black: StartNo, score: Option<u8>) {
    let entries = match score {
        Some(s) => {
            let (w, b) = match s {
                2 => (Outcome::Win, Outcome::Loss),
                1 => (Outcome::Draw, Outcome::Draw),
                _ => (Outcome::Loss, Outcome::Win),
            };
            let played = |opponent, colour, outcome| RoundEntry::Played {
                opponent,
                colour,
                outcome,
                rated: true,
            };
            (
                played(black, Colour::White, w),
                played(white, Colour::Black, b),
            )
        }
        None => (
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
    };
    set(t, round, white, entries.0);
    set(t, round, black, entries.1);
}

fn set(t: &mut Tournament, round: usize, player: StartNo, entry: RoundEntry) {
    let p = t
        .players
        .iter_mut()
        .find(|p| p.start_no == player)
        .expect("player");
    if p.rounds.len() < round {
        p.rounds.resize(round, RoundEntry::NotPaired);
    }
    p.rounds[round - 1] = entry;
}

fn tournament(players: u32, total_rounds: u32) -> Tournament {
    Tournament {
        name: "check".into(),
        total_rounds,
        players: (1..=players)
            .map(|start_no| Player {
                start_no,
                name: format!("P{start_no}"),
                ..Player::default()
            })
            .collect(),
        ..Tournament::default()
    }
}

/// Seven players, four rounds, two played. The game 3-6 of round 1 was forfeited, so
/// colours played after round 2 are: 1 WW, 2 WB, 3 B, 4 BW, 5 BB, 6 W; player 7 had the
/// PAB in round 1 and was absent in round 2.
fn seven_after_two() -> Tournament {
    let mut t = tournament(7, 4);
    game(&mut t, 1, 1, 4, Some(2));
    game(&mut t, 1, 2, 5, Some(2));
    game(&mut t, 1, 3, 6, None);
    set(&mut t, 1, 7, RoundEntry::Bye(ByeKind::PairingAllocated));
    game(&mut t, 2, 1, 5, Some(2));
    game(&mut t, 2, 4, 3, Some(1));
    game(&mut t, 2, 6, 2, Some(0));
    set(&mut t, 2, 7, RoundEntry::Bye(ByeKind::ZeroPoint));
    t
}

fn on(board: u32, kind: WarningKind) -> Warning {
    Warning {
        board: Some(board),
        kind,
    }
}

#[test]
fn the_systems_own_pairings_raise_no_warning_over_the_whole_corpus() {
    let mut rounds = 0;
    for path in corpus_files("") {
        let full = trf::parse(&std::fs::read_to_string(&path).expect("read")).expect("trf");
        let text = std::fs::read_to_string(path.with_extension("pairings")).expect("pairings");
        for (r, expected) in expected_rounds(&text) {
            let before = before_round(&full, r as usize);
            let expected = RoundPairing::from_bbp_format(&expected).expect("pairing");
            let warnings = check(&before, PairingSystem::Swiss, &expected, Some(&expected));
            assert_eq!(
                warnings,
                Ok(vec![]),
                "{} round {r}: bbpPairings' pairing is flagged",
                path.display()
            );
            rounds += 1;
        }
    }
    assert!(rounds > 300, "the corpus has {rounds} rounds only");
}

#[test]
fn colour_rules_forbidden_pairs_and_the_allocation_are_named_per_board() {
    let mut t = seven_after_two();
    t.forbidden_pairs.push((6, 3));
    let proposal = pairing(&[(1, 2), (3, 6), (4, 5)], Some(7));
    let warnings = check(&t, PairingSystem::Swiss, &proposal, None).expect("placed");
    let expected = vec![
        on(
            1,
            WarningKind::ColourDifference {
                player: 1,
                colour: Colour::White,
                difference: 3,
            },
        ),
        on(
            1,
            WarningKind::SameColourThreeTimes {
                player: 1,
                colour: Colour::White,
            },
        ),
        on(
            1,
            WarningKind::ColoursAgainstAllocation {
                white: 1,
                black: 2,
                should_be_white: 2,
            },
        ),
        on(2, WarningKind::ForbiddenPair { white: 3, black: 6 }),
        on(
            3,
            WarningKind::ColourDifference {
                player: 5,
                colour: Colour::Black,
                difference: 3,
            },
        ),
        on(
            3,
            WarningKind::SameColourThreeTimes {
                player: 5,
                colour: Colour::Black,
            },
        ),
        on(
            3,
            WarningKind::ColoursAgainstAllocation {
                white: 4,
                black: 5,
                should_be_white: 5,
            },
        ),
        Warning {
            board: None,
            kind: WarningKind::ByeNotAllowed {
                player: 7,
                round: 1,
            },
        },
    ];
    assert_eq!(warnings, expected);
}

#[test]
fn a_game_played_over_the_board_may_not_be_repeated_a_forfeited_one_may() {
    let t = seven_after_two();
    let proposal = pairing(&[(2, 1), (6, 3), (4, 5)], Some(7));
    let warnings = check(&t, PairingSystem::Swiss, &proposal, None).expect("placed");
    let repeats: Vec<_> = warnings
        .iter()
        .filter(|w| matches!(w.kind, WarningKind::AlreadyPlayed { .. }))
        .collect();
    assert!(
        repeats.is_empty(),
        "1-2 never met, 3-6 was forfeited: {repeats:?}"
    );

    let proposal = pairing(&[(5, 1), (3, 4), (2, 6)], Some(7));
    let warnings = check(&t, PairingSystem::Swiss, &proposal, None).expect("placed");
    let repeats: Vec<_> = warnings
        .iter()
        .filter(|w| matches!(w.kind, WarningKind::AlreadyPlayed { .. }))
        .cloned()
        .collect();
    assert_eq!(
        repeats,
        vec![
            on(
                1,
                WarningKind::AlreadyPlayed {
                    white: 5,
                    black: 1,
                    round: 2
                }
            ),
            on(
                2,
                WarningKind::AlreadyPlayed {
                    white: 3,
                    black: 4,
                    round: 2
                }
            ),
            on(
                3,
                WarningKind::AlreadyPlayed {
                    white: 2,
                    black: 6,
                    round: 2
                }
            ),
        ]
    );
}

#[test]
fn a_requested_bye_may_be_overridden_with_a_warning() {
    let mut t = seven_after_two();
    t.next_round_absences.push(NextRoundAbsence {
        player: 7,
        kind: ByeKind::HalfPoint,
    });
    // Six players left: 7 is excused, so leaving them out is fine...
    let without = pairing(&[(2, 1), (3, 4), (5, 6)], None);
    assert!(check(&t, PairingSystem::Swiss, &without, None).is_ok());
    // ...and pairing them anyway is allowed, but named.
    let with = pairing(&[(2, 1), (3, 4), (5, 7)], Some(6));
    let warnings = check(&t, PairingSystem::Swiss, &with, None).expect("placed");
    assert!(warnings.contains(&on(
        3,
        WarningKind::RequestedByeIgnored {
            player: 7,
            kind: ByeKind::HalfPoint
        }
    )));
}

#[test]
fn impossible_placements_are_errors_not_warnings() {
    let t = seven_after_two();
    let errors = check(
        &t,
        PairingSystem::Swiss,
        &pairing(&[(1, 1), (2, 9), (2, 4)], None),
        None,
    )
    .expect_err("not a pairing");
    assert_eq!(
        errors,
        vec![
            PlacementError::PlacedTwice(1),
            PlacementError::UnknownPlayer(9),
            PlacementError::PlacedTwice(2),
            PlacementError::PairedWithSelf(1),
            PlacementError::NotPlaced(3),
            PlacementError::NotPlaced(5),
            PlacementError::NotPlaced(6),
            PlacementError::NotPlaced(7),
        ]
    );
}

#[test]
fn changes_against_the_dutch_pairing_are_listed_board_by_board() {
    let t = seven_after_two();
    let system = pair_next_round(&t).expect("a pairing");
    assert_eq!(
        check(&t, PairingSystem::Swiss, &system, Some(&system)),
        Ok(vec![])
    );

    // The same pairs with the colours of board 1 reversed: the allocation breaks (and
    // with it, here, the colour rules of the player with two Whites), but every pair is
    // still the system's.
    let mut reversed = system.clone();
    let b = reversed.boards[0];
    reversed.boards[0] = Board {
        white: b.black,
        black: b.white,
    };
    let warnings = check(&t, PairingSystem::Swiss, &reversed, Some(&system)).expect("placed");
    assert!(warnings.contains(&on(
        1,
        WarningKind::ColoursAgainstAllocation {
            white: b.black,
            black: b.white,
            should_be_white: b.white,
        }
    )));
    assert!(
        warnings.iter().all(
            |w| w.board == Some(1) && !matches!(w.kind, WarningKind::NotInSystemPairing { .. })
        ),
        "{warnings:?}"
    );

    // Exchanging the Black players of boards 1 and 2 makes two pairs the system did not make.
    let mut exchanged = system.clone();
    let (b1, b2) = (exchanged.boards[0].black, exchanged.boards[1].black);
    exchanged.boards[0].black = b2;
    exchanged.boards[1].black = b1;
    let warnings = check(&t, PairingSystem::Swiss, &exchanged, Some(&system)).expect("placed");
    let not_in_system: Vec<_> = warnings
        .iter()
        .filter(|w| matches!(w.kind, WarningKind::NotInSystemPairing { .. }))
        .map(|w| w.board)
        .collect();
    assert_eq!(not_in_system, vec![Some(1), Some(2)]);
}

#[test]
fn round_robin_changes_are_held_against_the_berger_table() {
    let mut t = tournament(4, 3);
    let table = berger::single_round_robin(4).expect("table");
    for b in &table[0].boards {
        game(&mut t, 1, b.white, b.black, Some(1));
    }
    let system = RoundPairing {
        boards: table[1]
            .boards
            .iter()
            .map(|b| Board {
                white: b.white,
                black: b.black,
            })
            .collect(),
        bye: None,
    };
    let rr = PairingSystem::RoundRobin {
        cycles: 1,
        rounds_per_cycle: 3,
    };
    assert_eq!(check(&t, rr, &system, Some(&system)), Ok(vec![]));

    let mut flipped = system.clone();
    let b = flipped.boards[1];
    flipped.boards[1] = Board {
        white: b.black,
        black: b.white,
    };
    assert_eq!(
        check(&t, rr, &flipped, Some(&system)),
        Ok(vec![on(
            2,
            WarningKind::ColoursDifferFromTable {
                white: b.black,
                black: b.white
            }
        )])
    );

    // Round 1 again: every board repeats a game and differs from the table.
    let again = RoundPairing {
        boards: table[0]
            .boards
            .iter()
            .map(|b| Board {
                white: b.white,
                black: b.black,
            })
            .collect(),
        bye: None,
    };
    let warnings = check(&t, rr, &again, Some(&system)).expect("placed");
    for (i, b) in again.boards.iter().enumerate() {
        let board = i as u32 + 1;
        assert!(warnings.contains(&on(
            board,
            WarningKind::AlreadyPlayed {
                white: b.white,
                black: b.black,
                round: 1
            }
        )));
        assert!(warnings.contains(&on(
            board,
            WarningKind::NotInSystemPairing {
                white: b.white,
                black: b.black
            }
        )));
    }
    // In a double round-robin the second cycle may repeat the first one's games.
    let mut t = tournament(4, 6);
    for (r, round) in table.iter().enumerate() {
        for b in &round.boards {
            game(&mut t, r + 1, b.white, b.black, Some(1));
        }
    }
    let drr = PairingSystem::RoundRobin {
        cycles: 2,
        rounds_per_cycle: 3,
    };
    let warnings = check(&t, drr, &again, None).expect("placed");
    assert_eq!(warnings, vec![]);
}
