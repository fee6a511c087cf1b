//! Each system pairs and answers exactly as the code it wraps did before the seam.

use super::*;
use crate::berger;
use crate::dutch::{self, Board, RoundPairing};
use crate::micro_match::{MatchScoring, MicroMatch, set_pairing_accelerations};
use crate::pairing_check::Rules;
use crate::tiebreak::EventKind;
use crate::tournament::{
    ByeKind, Colour, HalfPoints, NextRoundAbsence, Outcome, Player, RoundEntry, StartNo, Tournament,
};
use crate::vocabulary::{Spelling, System};

/// `n` players rated from the top, nothing played, `rounds` rounds planned.
fn field(n: u32, rounds: u32) -> Tournament {
    Tournament {
        total_rounds: rounds,
        players: (1..=n)
            .map(|start_no| Player {
                start_no,
                rating: Some(2000 - start_no * 10),
                ..Player::default()
            })
            .collect(),
        ..Tournament::default()
    }
}

/// Plays `pairing` as the next round: White wins every board, the bye gets the PAB.
fn play(t: &mut Tournament, pairing: &RoundPairing) {
    let mut entries: Vec<(StartNo, RoundEntry)> = Vec::new();
    for b in &pairing.boards {
        let game = |opponent, colour, outcome| RoundEntry::Played {
            opponent,
            colour,
            outcome,
            rated: true,
        };
        entries.push((b.white, game(b.black, Colour::White, Outcome::Win)));
        entries.push((b.black, game(b.white, Colour::Black, Outcome::Loss)));
    }
    if let Some(p) = pairing.bye {
        entries.push((p, RoundEntry::Bye(ByeKind::PairingAllocated)));
    }
    for player in &mut t.players {
        let entry = entries
            .iter()
            .find(|(no, _)| *no == player.start_no)
            .map_or(RoundEntry::NotPaired, |(_, e)| *e);
        player.rounds.push(entry);
    }
}

fn next(t: &Tournament) -> NextRound<'_> {
    let played = t.players.iter().map(|p| p.rounds.len()).max().unwrap_or(0);
    NextRound {
        number: played as u32 + 1,
        before: t,
    }
}

#[test]
fn each_system_answers_as_the_event_settings_did() {
    let systems: [(&dyn PairingSystem, &str, EventKind, ByeKind); 4] = [
        (
            &DutchSwiss,
            "dutch",
            EventKind::Swiss,
            ByeKind::PairingAllocated,
        ),
        (
            &MicroMatchSwiss,
            "micro_match_swiss",
            EventKind::Swiss,
            ByeKind::PairingAllocated,
        ),
        (
            &RoundRobin::SINGLE,
            "berger",
            EventKind::RoundRobin,
            ByeKind::ZeroPoint,
        ),
        (
            &RoundRobin::DOUBLE,
            "double_berger",
            EventKind::RoundRobin,
            ByeKind::ZeroPoint,
        ),
    ];
    for (system, name, kind, bye) in systems {
        assert_eq!(system.name(), name);
        assert_eq!(system.standings_kind(), kind, "{name}");
        assert_eq!(system.bye_kind(), bye, "{name}");
        let round_robin = kind == EventKind::RoundRobin;
        assert_eq!(system.field_is_fixed(), round_robin, "{name}");
        assert_eq!(system.fixed_rounds(6).is_some(), round_robin, "{name}");
        let half_point_bye = system.requests().contains(&ByeKind::HalfPoint);
        assert_eq!(half_point_bye, !round_robin, "{name}");
        assert!(system.requests().contains(&ByeKind::ZeroPoint), "{name}");
    }
}

#[test]
fn a_round_robin_has_as_many_rounds_as_its_table() {
    for players in 2..=13 {
        for system in [RoundRobin::SINGLE, RoundRobin::DOUBLE] {
            let table = berger::round_robin_schedule(players, system.cycles).expect("table");
            assert_eq!(
                system.fixed_rounds(players),
                Some(table.len() as u32),
                "{players} players, {} cycles",
                system.cycles
            );
        }
    }
}

#[test]
fn a_round_robin_pairs_its_table_round_by_round_then_stops() {
    for (system, cycles) in [(RoundRobin::SINGLE, 1), (RoundRobin::DOUBLE, 2)] {
        let mut t = field(5, 0);
        let table = berger::round_robin_schedule(5, cycles).expect("table");
        for expected in &table {
            let pairing = system.pair(&next(&t)).expect("a round of the table");
            let boards: Vec<Board> = expected
                .boards
                .iter()
                .map(|b| Board {
                    white: b.white,
                    black: b.black,
                })
                .collect();
            assert_eq!(pairing.boards, boards);
            assert_eq!(pairing.bye, expected.bye);
            play(&mut t, &pairing);
        }
        assert_eq!(
            system.pair(&next(&t)),
            Err(PairingSystemError::AllRoundsPaired {
                rounds: table.len() as u32
            })
        );
    }
}

#[test]
fn a_round_robin_refuses_what_the_tables_refuse() {
    let alone = field(1, 0);
    assert_eq!(
        RoundRobin::SINGLE.pair(&next(&alone)),
        Err(PairingSystemError::Table(berger::BergerError::PlayerCount(
            1
        )))
    );
    let three_cycles = RoundRobin { cycles: 3 };
    assert_eq!(
        three_cycles.pair(&next(&field(4, 0))),
        Err(PairingSystemError::Table(berger::BergerError::Cycles(3)))
    );
}

#[test]
fn the_dutch_swiss_pairs_as_the_dutch_module() {
    let mut t = field(7, 4);
    for _ in 0..4 {
        let expected = dutch::pair_next_round(&t).expect("dutch");
        let pairing = DutchSwiss.pair(&next(&t)).expect("system");
        assert_eq!(pairing, expected);
        play(&mut t, &pairing);
    }
    assert_eq!(
        DutchSwiss.pair(&next(&t)),
        Err(PairingSystemError::Dutch(
            dutch::PairingError::EventFinished(4)
        ))
    );
}

#[test]
fn the_dutch_swiss_leaves_out_who_asked_not_to_play() {
    let mut t = field(6, 3);
    t.next_round_absences.push(NextRoundAbsence {
        player: 2,
        kind: ByeKind::HalfPoint,
    });
    let pairing = DutchSwiss.pair(&next(&t)).expect("paired");
    let placed = |p: StartNo| pairing.boards.iter().any(|b| b.white == p || b.black == p);
    assert!(!placed(2));
    assert_eq!(pairing, dutch::pair_next_round(&t).expect("dutch"));
}

/// A two-game micro-match event after one round in which player 1 won 2-0 and player 2
/// only 1.5-0.5: collapsed both are wins, in real points 1 is ahead.
fn micro_event() -> Tournament {
    let mut t = field(6, 4);
    t.micro_match = Some(MicroMatch {
        games: 2,
        scoring: MatchScoring::GamePoints,
    });
    let round_one = dutch::pair_next_round(&t).expect("round 1");
    play(&mut t, &round_one);
    for p in &mut t.players {
        let won = matches!(
            p.rounds[0],
            RoundEntry::Played {
                outcome: Outcome::Win,
                ..
            }
        );
        let real = match (won, p.start_no) {
            (true, 1) => 4,
            (true, _) => 3,
            (false, 4) => 0,
            (false, _) => 1,
        };
        p.round_scores = vec![Some(HalfPoints(real))];
    }
    t
}

#[test]
fn the_micro_match_swiss_pairs_on_the_real_totals() {
    let t = micro_event();
    let mut accelerated = t.clone();
    set_pairing_accelerations(&mut accelerated).expect("accelerations");
    let expected = dutch::pair_next_round(&accelerated).expect("dutch");
    // Without accelerations (as a history read from elsewhere may come) and with them (as
    // the service builds it), the same pairing: the one the accelerations give.
    assert_eq!(MicroMatchSwiss.pair(&next(&t)), Ok(expected.clone()));
    assert_eq!(MicroMatchSwiss.pair(&next(&accelerated)), Ok(expected));
}

#[test]
fn a_micro_match_swiss_refuses_a_negative_acceleration() {
    let mut t = micro_event();
    t.points.win = HalfPoints(6);
    assert!(matches!(
        MicroMatchSwiss.pair(&next(&t)),
        Err(PairingSystemError::Accelerations(_))
    ));
}

#[test]
fn a_systems_own_pairing_passes_its_check() {
    let swiss = field(7, 5);
    let own = DutchSwiss.pair(&next(&swiss)).expect("dutch");
    assert_eq!(DutchSwiss.check(&next(&swiss), &own), Ok(Vec::new()));
    assert_eq!(MicroMatchSwiss.check(&next(&swiss), &own), Ok(Vec::new()));
    let table = field(5, 0);
    for system in [RoundRobin::SINGLE, RoundRobin::DOUBLE] {
        let own = system.pair(&next(&table)).expect("berger");
        assert_eq!(system.check(&next(&table), &own), Ok(Vec::new()));
    }
}

#[test]
fn the_checks_apply_each_systems_rules() {
    // The same hand-made round-robin pairing, checked as the service checked it: the
    // table's rules with the table's round as the reference.
    let t = field(5, 0);
    let reversed = {
        let mut own = RoundRobin::SINGLE.pair(&next(&t)).expect("berger");
        for b in &mut own.boards {
            std::mem::swap(&mut b.white, &mut b.black);
        }
        own
    };
    let table = RoundRobin::SINGLE.pair(&next(&t)).expect("berger");
    let rules = Rules::RoundRobin {
        cycles: 1,
        rounds_per_cycle: berger::rounds_per_cycle(5),
    };
    assert_eq!(
        RoundRobin::SINGLE.check(&next(&t), &reversed),
        crate::pairing_check::check(&t, rules, &reversed, Some(&table))
    );
    let swiss = field(6, 3);
    let own = dutch::pair_next_round(&swiss).expect("dutch");
    assert_eq!(
        DutchSwiss.check(&next(&swiss), &reversed),
        crate::pairing_check::check(&swiss, Rules::Swiss, &reversed, Some(&own))
    );
}

#[test]
fn every_system_value_chooses_its_implementation() {
    let chosen = |system, games| choose(settings(system, games)).name();
    assert_eq!(chosen(System::Swiss, 1), "dutch");
    assert_eq!(chosen(System::Swiss, 2), "micro_match_swiss");
    assert_eq!(chosen(System::RoundRobin, 1), "berger");
    assert_eq!(chosen(System::RoundRobin, 2), "berger");
    assert_eq!(chosen(System::DoubleRoundRobin, 1), "double_berger");
    assert_eq!(chosen(System::DoubleRoundRobin, 2), "double_berger");
    assert_eq!(chosen(System::Keizer, 1), "keizer");
}

fn settings(system: System, games_per_pairing: i32) -> PairingSettings {
    PairingSettings {
        system,
        games_per_pairing,
        keizer: Default::default(),
    }
}

/// What the service decided by matching on the system before the seam, the chosen
/// system now answers the same.
#[test]
fn the_chosen_system_answers_as_the_system_value_did() {
    // Keizer came after the seam: its answers are its own (the `keizer` tests).
    for &system in System::ALL.iter().filter(|s| **s != System::Keizer) {
        for games in [1, 2] {
            let chosen = choose(settings(system, games));
            let name = chosen.name();
            assert_eq!(chosen.standings_kind(), system.event_kind(), "{name}");
            let defaults: Vec<String> = chosen
                .standings_kind()
                .default_tiebreaks()
                .iter()
                .map(|t| t.code())
                .collect();
            assert_eq!(defaults.join(","), system.default_tiebreaks(), "{name}");
            assert_eq!(chosen.field_is_fixed(), system.is_round_robin(), "{name}");
            assert_eq!(
                chosen.fixed_rounds(10),
                system
                    .is_round_robin()
                    .then(|| system.cycles() * berger::rounds_per_cycle(10)),
                "{name}"
            );
            let bye = if system.is_round_robin() {
                ByeKind::ZeroPoint
            } else {
                ByeKind::PairingAllocated
            };
            assert_eq!(chosen.bye_kind(), bye, "{name}");
            assert_eq!(
                chosen.requests().contains(&ByeKind::HalfPoint),
                !system.is_round_robin(),
                "{name}"
            );
        }
    }
}

#[test]
fn keizer_pairs_whoever_is_present_and_warns_of_a_rematch_within_the_gap() {
    let keizer = choose(settings(System::Keizer, 1));
    assert_eq!(keizer.fixed_rounds(10), None);
    assert!(keizer.organiser_sets_rounds());
    assert!(!keizer.field_is_fixed());
    assert_eq!(
        keizer.requests(),
        [ByeKind::Excused, ByeKind::ClubDuty, ByeKind::ZeroPoint]
    );
    let mut t = field(4, 0);
    let first = keizer.pair(&next(&t)).expect("pairs");
    assert_eq!(first.boards.len(), 2);
    play(&mut t, &first);
    let second = keizer.pair(&next(&t)).expect("pairs");
    assert_eq!(keizer.check(&next(&t), &second), Ok(Vec::new()));
    // Swapping in round 1's pairs again: a rematch within the gap, and not the system's
    // pairing; colours alone are never a Keizer rule.
    let warnings = keizer.check(&next(&t), &first).expect("placeable");
    assert!(
        warnings.iter().any(|w| matches!(
            w.kind,
            crate::pairing_check::WarningKind::AlreadyPlayed { .. }
        )),
        "{warnings:?}"
    );
    let no_gap = choose(PairingSettings {
        keizer: crate::keizer::KeizerOptions {
            repeat_gap: 0,
            ..Default::default()
        },
        ..settings(System::Keizer, 1)
    });
    let warnings = no_gap.check(&next(&t), &first).expect("placeable");
    assert!(
        !warnings.iter().any(|w| matches!(
            w.kind,
            crate::pairing_check::WarningKind::AlreadyPlayed { .. }
        )),
        "{warnings:?}"
    );
    t.next_round_absences = (1..=3)
        .map(|player| NextRoundAbsence {
            player,
            kind: ByeKind::Excused,
        })
        .collect();
    assert_eq!(
        keizer.pair(&next(&t)),
        Err(PairingSystemError::TooFewPresent { present: 1 })
    );
}

#[test]
fn a_keizer_season_ends_at_its_planned_rounds_or_at_the_most_an_open_one_may_have() {
    let keizer = choose(settings(System::Keizer, 1));
    let mut planned = field(4, 2);
    for _ in 0..2 {
        let pairing = keizer.pair(&next(&planned)).expect("pairs");
        play(&mut planned, &pairing);
    }
    assert_eq!(
        keizer.pair(&next(&planned)),
        Err(PairingSystemError::AllRoundsPaired { rounds: 2 })
    );
    let mut open = field(2, 0);
    for _ in 0..crate::keizer::MAX_ROUNDS {
        let pairing = keizer.pair(&next(&open)).expect("pairs");
        play(&mut open, &pairing);
    }
    assert_eq!(
        keizer.pair(&next(&open)),
        Err(PairingSystemError::AllRoundsPaired {
            rounds: crate::keizer::MAX_ROUNDS
        })
    );
}
