//! The exhaustive prover of `common/pairing_proof.rs`, which the random pairing tests trust
//! to tell a proven `NoValidPairing` from the engine giving up: it must accept every pairing
//! bbpPairings made in the Dutch corpus (so its statement of the absolute criteria is not
//! stricter than the reference), prove small impossible rounds, and agree with a plain
//! enumeration of every pairing on small random problems.

mod common;

#[path = "common/lcg.rs"]
mod lcg;
#[path = "common/pairing_proof.rs"]
mod pairing_proof;

use common::{before_round, corpus_files, expected_rounds};
use damka_domain::dutch::RoundPairing;
use damka_domain::tournament::{
    ByeKind, Colour, NextRoundAbsence, Outcome, Player, RoundEntry, Tournament,
};
use damka_domain::trf;
use lcg::Lcg;
use pairing_proof::{DEFAULT_BUDGET, PlayerFacts, Problem, Verdict, absolute_preference};

const W: Colour = Colour::White;
const B: Colour = Colour::Black;

fn player(id: u32) -> PlayerFacts {
    PlayerFacts {
        id,
        ..PlayerFacts::default()
    }
}

fn problem(players: Vec<PlayerFacts>) -> Problem {
    Problem {
        players,
        forbidden: Vec::new(),
        last_round: false,
        max_score: 8,
    }
}

fn is_impossible(p: &Problem) -> bool {
    match p.solve(DEFAULT_BUDGET) {
        Verdict::Impossible { .. } => true,
        Verdict::Pairing { pairs, bye } => {
            let broken = p.violations(&pairs, bye);
            assert!(broken.is_empty(), "the prover's own pairing: {broken:?}");
            false
        }
        Verdict::Undecided { nodes } => panic!("undecided after {nodes} nodes"),
    }
}

#[test]
fn absolute_preferences_follow_the_colour_difference_then_the_last_two_games() {
    assert_eq!(absolute_preference(&[]), None);
    assert_eq!(absolute_preference(&[W]), None);
    assert_eq!(absolute_preference(&[W, B]), None);
    assert_eq!(absolute_preference(&[W, W]), Some(B));
    assert_eq!(absolute_preference(&[B, B]), Some(W));
    assert_eq!(absolute_preference(&[W, B, B]), Some(W));
    assert_eq!(absolute_preference(&[B, W, W, B]), None);
    assert_eq!(absolute_preference(&[W, B, W, W, B, W]), Some(B));
}

#[test]
fn small_impossible_rounds_are_proven_and_possible_ones_paired() {
    // Everybody has had a point without playing: three players cannot be paired.
    let no_bye = |id| PlayerFacts {
        scored_without_playing: true,
        ..player(id)
    };
    let p = problem(vec![no_bye(1), no_bye(2), no_bye(3)]);
    assert!(is_impossible(&p));
    assert_eq!(
        p.obstruction().as_deref(),
        Some("3 players and none of them may have the bye")
    );
    // ... but one who may have the bye is enough.
    let p = problem(vec![no_bye(1), no_bye(2), player(3)]);
    assert!(!is_impossible(&p));
    assert_eq!(p.obstruction(), None);

    // Player 1 has met everybody else over the board.
    let met_all = PlayerFacts {
        met: vec![2, 3, 4],
        ..player(1)
    };
    let p = problem(vec![met_all, player(2), player(3), player(4)]);
    assert!(is_impossible(&p));
    assert_eq!(p.obstruction().as_deref(), Some("player 1 may meet nobody"));

    // Four players; 1 and 2 may only meet 3 (each has met 4, and they are a forbidden
    // pair): nobody is stuck alone, only the search shows it.
    let only_three = |id| PlayerFacts {
        met: vec![4],
        ..player(id)
    };
    let p = Problem {
        forbidden: vec![(1, 2)],
        ..problem(vec![only_three(1), only_three(2), player(3), player(4)])
    };
    assert!(is_impossible(&p));
    assert_eq!(p.obstruction(), None);

    // Only the pair 1-2 is left, and it is forbidden; either order of the pair counts.
    let mut p = problem(vec![player(1), player(2)]);
    assert!(!is_impossible(&p));
    p.forbidden = vec![(2, 1)];
    assert!(is_impossible(&p));
}

/// Two players who were paired in round 1: a game over the board forbids round 2, a
/// forfeit does not; a forfeit win rules out the bye, a forfeit loss does not.
#[test]
fn the_tournament_adapter_reads_games_forfeits_and_absences() {
    let two = |white: RoundEntry, black: RoundEntry| Tournament {
        total_rounds: 3,
        players: vec![
            Player {
                start_no: 1,
                rounds: vec![white],
                ..Player::default()
            },
            Player {
                start_no: 2,
                rounds: vec![black],
                ..Player::default()
            },
        ],
        ..Tournament::default()
    };
    let played = two(
        RoundEntry::Played {
            opponent: 2,
            colour: W,
            outcome: Outcome::Win,
            rated: true,
        },
        RoundEntry::Played {
            opponent: 1,
            colour: B,
            outcome: Outcome::Loss,
            rated: true,
        },
    );
    assert!(is_impossible(&Problem::of_tournament(&played)));
    let mut forfeited = two(
        RoundEntry::Forfeit {
            opponent: 2,
            colour: Some(W),
            won: true,
        },
        RoundEntry::Forfeit {
            opponent: 1,
            colour: Some(B),
            won: false,
        },
    );
    let problem = Problem::of_tournament(&forfeited);
    assert!(!is_impossible(&problem));
    assert_eq!(problem.max_score, 2);
    assert!(!problem.last_round);
    assert!(problem.players[0].scored_without_playing);
    assert!(!problem.players[1].scored_without_playing);
    // Player 2 absent: player 1 alone would need the bye, which the forfeit win rules out.
    forfeited.next_round_absences.push(NextRoundAbsence {
        player: 2,
        kind: ByeKind::HalfPoint,
    });
    assert!(is_impossible(&Problem::of_tournament(&forfeited)));
    forfeited.next_round_absences[0].player = 1;
    assert!(!is_impossible(&Problem::of_tournament(&forfeited)));
}

#[test]
fn non_topscorers_with_the_same_absolute_preference_never_meet() {
    let both_black = |id, score| PlayerFacts {
        id,
        score,
        colours: vec![B, W, B, B],
        ..PlayerFacts::default()
    };
    // Round 5 of 6: no exception.
    let mut p = problem(vec![both_black(1, 6), both_black(2, 2)]);
    assert!(is_impossible(&p));
    // The last round: a topscorer (above half of the maximum, 8 half-points) may meet them.
    p.last_round = true;
    assert!(!is_impossible(&p));
    // Exactly half is not above half.
    p.players[0].score = 4;
    assert!(is_impossible(&p));
    // Opposite absolute preferences may always meet.
    p.players[1].colours = vec![W, B, W, W];
    assert!(!is_impossible(&p));
}

#[test]
fn every_pairing_of_bbp_pairings_in_the_corpus_satisfies_the_prover() {
    let (mut rounds, mut solved) = (0, 0);
    for path in corpus_files("") {
        let full = trf::parse(&std::fs::read_to_string(&path).expect("read")).expect("trf");
        let text = std::fs::read_to_string(path.with_extension("pairings")).expect("pairings");
        for (r, expected) in expected_rounds(&text) {
            let at = format!("{} round {r}", path.display());
            let problem = Problem::of_tournament(&before_round(&full, r as usize));
            let reference = RoundPairing::from_bbp_format(&expected).expect("pairing");
            let pairs: Vec<(u32, u32)> = reference
                .boards
                .iter()
                .map(|b| (b.white, b.black))
                .collect();
            let broken = problem.violations(&pairs, reference.bye);
            assert!(
                broken.is_empty(),
                "{at}: bbpPairings' pairing breaks {broken:?}\n{}",
                problem.describe()
            );
            // The prover's masks hold 127 players; bbpPairings' pairing, valid above, shows
            // the larger rounds possible anyway.
            if problem.players.len() < 128 {
                assert!(
                    !is_impossible(&problem),
                    "{at}: the prover finds no pairing"
                );
                solved += 1;
            }
            rounds += 1;
        }
    }
    assert!(
        rounds > 100 && solved * 2 > rounds,
        "only {rounds} corpus rounds, {solved} solved"
    );
}

/// Whether a perfect matching of `0..n` over `edges` exists, plus the bye vertex when `n`
/// is odd, by plain enumeration (lowest vertex first, no memo, no ordering).
fn enumerate(edges: &[Vec<bool>], bye: &[bool], left: &mut Vec<usize>) -> bool {
    let Some(&first) = left.first() else {
        return true;
    };
    left.remove(0);
    if left.len().is_multiple_of(2) && bye[first] && enumerate(edges, bye, left) {
        left.insert(0, first);
        return true;
    }
    for k in 0..left.len() {
        let other = left[k];
        if edges[first][other] {
            left.remove(k);
            let found = enumerate(edges, bye, left);
            left.insert(k, other);
            if found {
                left.insert(0, first);
                return true;
            }
        }
    }
    left.insert(0, first);
    false
}

#[test]
fn the_prover_agrees_with_plain_enumeration_on_small_random_problems() {
    let mut rng = Lcg(0x9a1e);
    let (mut possible, mut impossible) = (0, 0);
    for case in 0..2000 {
        let n = 2 + rng.index_below(9);
        let density = 20 + rng.below(60);
        let mut players: Vec<PlayerFacts> = (1..=n as u32).map(player).collect();
        let mut edges = vec![vec![true; n]; n];
        let pairs: Vec<(usize, usize)> = (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect();
        for (i, j) in pairs {
            if rng.below(100) >= density {
                // A game over the board (the same as a forbidden pair for the search).
                edges[i][j] = false;
                edges[j][i] = false;
                players[i].met.push(j as u32 + 1);
            }
        }
        let bye: Vec<bool> = (0..n).map(|_| rng.below(3) > 0).collect();
        for (p, &may) in players.iter_mut().zip(&bye) {
            p.scored_without_playing = !may;
        }
        // The bye only exists when the number of players is odd.
        let odd_bye: Vec<bool> = bye.iter().map(|&b| b && !n.is_multiple_of(2)).collect();
        let expected = enumerate(&edges, &odd_bye, &mut (0..n).collect());
        let p = problem(players);
        assert_eq!(
            !is_impossible(&p),
            expected,
            "case {case}: {} players\n{}",
            n,
            p.describe()
        );
        if expected {
            possible += 1;
        } else {
            impossible += 1;
        }
    }
    assert!(
        possible > 200 && impossible > 200,
        "{possible} possible, {impossible} impossible"
    );
}
