//! Random tournaments paired round after round by the Dutch engine; after every round the
//! absolute criteria (C.04.1 / C.04.3 C1..C3) and the shape of the pairing are checked:
//! every present player is paired exactly once, no two players meet twice, forbidden pairs
//! never meet, the PAB goes only to an eligible player and only when the number is odd, and
//! two non-topscorers with the same absolute colour preference never meet.

use damka_domain::dutch::pair_next_round;
use damka_domain::tournament::{
    ByeKind, Colour, NextRoundAbsence, Outcome, Player, RoundEntry, StartNo, Tournament,
};
use std::collections::HashSet;

#[path = "common/lcg.rs"]
mod lcg;
use lcg::Lcg;

fn colours(p: &Player) -> Vec<Colour> {
    p.rounds
        .iter()
        .filter_map(RoundEntry::played_colour)
        .collect()
}

/// The absolute colour preference of a player, if any (difference beyond ±1, or the same
/// colour in the last two games played).
fn absolute_preference(p: &Player) -> Option<Colour> {
    let c = colours(p);
    let whites = c.iter().filter(|x| **x == Colour::White).count() as i64;
    let blacks = c.len() as i64 - whites;
    if whites - blacks > 1 {
        return Some(Colour::Black);
    }
    if blacks - whites > 1 {
        return Some(Colour::White);
    }
    if c.len() >= 2 && c[c.len() - 1] == c[c.len() - 2] {
        return Some(c[c.len() - 1].opposite());
    }
    None
}

fn bye_eligible(t: &Tournament, p: &Player) -> bool {
    p.rounds.iter().all(|e| {
        e.played_colour().is_some()
            || !(t.points.points(e) >= t.points.win
                || matches!(e, RoundEntry::Bye(ByeKind::PairingAllocated)))
    })
}

fn run(seed: u64, n: u32, rounds: u32) -> u32 {
    let mut rng = Lcg(seed);
    let mut t = Tournament {
        name: format!("random {seed}"),
        total_rounds: rounds,
        first_colour: Some(if seed.is_multiple_of(2) {
            Colour::White
        } else {
            Colour::Black
        }),
        players: (1..=n)
            .map(|i| Player {
                start_no: i,
                name: format!("P{i}"),
                rating: Some(2400 - 10 * i),
                ..Player::default()
            })
            .collect(),
        ..Tournament::default()
    };
    for _ in 0..rng.below(4) {
        let a = 1 + rng.below(u64::from(n)) as StartNo;
        let b = 1 + rng.below(u64::from(n)) as StartNo;
        if a != b {
            t.forbidden_pairs.push((a.min(b), a.max(b)));
        }
    }
    let withdrawn: HashSet<StartNo> = (1..=n).filter(|_| rng.below(20) == 0).collect();
    for r in 1..=rounds {
        t.next_round_absences = t
            .players
            .iter()
            .filter_map(|p| {
                let x = rng.below(100);
                let kind = if withdrawn.contains(&p.start_no) && r > rounds / 2 {
                    Some(ByeKind::ZeroPoint)
                } else if x < 3 {
                    Some(ByeKind::HalfPoint)
                } else if x < 5 {
                    Some(ByeKind::ZeroPoint)
                } else {
                    None
                };
                kind.map(|kind| NextRoundAbsence {
                    player: p.start_no,
                    kind,
                })
            })
            .collect();
        let Ok(pairing) = pair_next_round(&t) else {
            return r - 1;
        };
        let absent: HashSet<StartNo> = t.next_round_absences.iter().map(|a| a.player).collect();
        let present: Vec<StartNo> = t
            .players
            .iter()
            .map(|p| p.start_no)
            .filter(|s| !absent.contains(s))
            .collect();
        // Shape: everyone present exactly once; a PAB exactly when the number is odd.
        let mut seen = HashSet::new();
        for b in &pairing.boards {
            assert!(
                seen.insert(b.white) && seen.insert(b.black),
                "seed {seed} r{r}"
            );
        }
        if let Some(p) = pairing.bye {
            assert!(seen.insert(p));
        }
        assert_eq!(
            seen.len(),
            present.len(),
            "seed {seed} r{r}: not everyone paired"
        );
        assert_eq!(pairing.bye.is_some(), present.len() % 2 == 1);
        let player = |s: StartNo| &t.players[(s - 1) as usize];
        if let Some(p) = pairing.bye {
            assert!(bye_eligible(&t, player(p)), "seed {seed} r{r}: PAB to {p}");
        }
        let max_score = (r - 1) * t.points.win.0;
        for b in &pairing.boards {
            let (w, k) = (player(b.white), player(b.black));
            assert!(
                !w.rounds.iter().any(
                    |e| matches!(e, RoundEntry::Played { opponent, .. } if *opponent == k.start_no)
                ),
                "seed {seed} r{r}: {} and {} meet twice",
                w.start_no,
                k.start_no
            );
            let pair = (w.start_no.min(k.start_no), w.start_no.max(k.start_no));
            assert!(
                !t.forbidden_pairs.contains(&pair),
                "seed {seed} r{r}: forbidden {pair:?}"
            );
            let topscorer = |p: &Player| {
                r == rounds
                    && p.rounds.iter().map(|e| t.points.points(e).0).sum::<u32>() * 2 > max_score
            };
            if let (Some(a), Some(c)) = (absolute_preference(w), absolute_preference(k)) {
                assert!(
                    a != c || topscorer(w) || topscorer(k),
                    "seed {seed} r{r}: {} and {} both need {a:?}",
                    w.start_no,
                    k.start_no
                );
            }
        }
        // Play the round.
        for b in &pairing.boards {
            let x = rng.below(10);
            let (ow, ob, forfeit) = match x {
                0..=3 => (Outcome::Win, Outcome::Loss, false),
                4..=6 => (Outcome::Loss, Outcome::Win, false),
                7 | 8 => (Outcome::Draw, Outcome::Draw, false),
                _ => (Outcome::Win, Outcome::Loss, true),
            };
            let entry = |opponent, colour, outcome| {
                if forfeit {
                    RoundEntry::Forfeit {
                        opponent,
                        colour: Some(colour),
                        won: outcome == Outcome::Win,
                    }
                } else {
                    RoundEntry::Played {
                        opponent,
                        colour,
                        outcome,
                        rated: true,
                    }
                }
            };
            t.players[(b.white - 1) as usize]
                .rounds
                .push(entry(b.black, Colour::White, ow));
            t.players[(b.black - 1) as usize]
                .rounds
                .push(entry(b.white, Colour::Black, ob));
        }
        if let Some(p) = pairing.bye {
            t.players[(p - 1) as usize]
                .rounds
                .push(RoundEntry::Bye(ByeKind::PairingAllocated));
        }
        for a in &t.next_round_absences {
            t.players[(a.player - 1) as usize]
                .rounds
                .push(RoundEntry::Bye(a.kind));
        }
    }
    rounds
}

#[test]
fn absolute_criteria_hold_in_random_tournaments() {
    let mut paired_rounds = 0;
    for seed in 0..40u64 {
        let n = 7 + (seed * 7 % 54) as u32;
        let rounds = 5 + (seed % 5) as u32;
        paired_rounds += run(seed, n, rounds.min(n - 1));
    }
    assert!(
        paired_rounds > 150,
        "only {paired_rounds} rounds could be paired"
    );
}
