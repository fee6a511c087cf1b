//! Random tournaments paired round after round by the Dutch engine. After every round the
//! pairing is checked against the absolute criteria (C.04.1 / C.04.3 C1..C3) as the
//! independent prover in `common/pairing_proof.rs` states them: every present player paired
//! exactly once, no two players meet twice over the board, forbidden pairs never meet, the
//! PAB only to an eligible player and only when the number is odd, and two non-topscorers
//! with the same absolute colour preference never meet.
//!
//! The engine may refuse a round only with `NoValidPairing`, and only when the prover's
//! exhaustive search shows that no pairing satisfies those criteria; any other error, an
//! unproven refusal or a refusal where the prover finds a pairing fails the test (with the
//! pairing found and the players' facts).

use damka_domain::dutch::{PairingError, RoundPairing, pair_next_round};
use damka_domain::tournament::{
    ByeKind, Colour, NextRoundAbsence, Outcome, Player, RoundEntry, StartNo, Tournament,
};
use std::collections::HashSet;

#[path = "common/lcg.rs"]
mod lcg;
use lcg::Lcg;

#[path = "common/pairing_proof.rs"]
mod pairing_proof;
use pairing_proof::{DEFAULT_BUDGET, Problem, Verdict};

/// How a random event is drawn.
struct Shape {
    players: u32,
    rounds: u32,
    /// Forbidden pairs drawn before round 1 (some may coincide or be dropped).
    forbidden_pairs: u64,
    /// Per cent of players absent (zero-point) and with a half-point bye, each round.
    absent_percent: u64,
    half_bye_percent: u64,
    /// Per cent of games forfeited.
    forfeit_percent: u64,
}

/// How one event went.
#[derive(Debug)]
struct Played {
    paired_rounds: u32,
    /// The round the engine refused with a proven `NoValidPairing`, if any, and why no
    /// pairing exists.
    proven_impossible: Option<(u32, String)>,
    /// Players still in the event (not withdrawn) when it ended.
    still_in: u32,
}

/// Whether the event was planned with nearly as many rounds as a round-robin of the players
/// still in it: the only kind of event where running out of valid pairings is expected.
fn near_round_robin(shape: &Shape, played: &Played) -> bool {
    shape.rounds + 2 >= played.still_in
}

/// Plays one random event to its end or to a proven `NoValidPairing`; panics on anything
/// else the engine does wrong.
fn play(seed: u64, shape: &Shape) -> Played {
    let mut rng = Lcg(seed);
    let n = shape.players;
    let mut t = Tournament {
        name: format!("random {seed}"),
        total_rounds: shape.rounds,
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
    for _ in 0..rng.below(shape.forbidden_pairs + 1) {
        let a = 1 + rng.below(u64::from(n)) as StartNo;
        let b = 1 + rng.below(u64::from(n)) as StartNo;
        if a != b {
            t.forbidden_pairs.push((a.min(b), a.max(b)));
        }
    }
    let withdrawn: HashSet<StartNo> = (1..=n).filter(|_| rng.below(20) == 0).collect();
    for r in 1..=shape.rounds {
        t.next_round_absences = t
            .players
            .iter()
            .filter_map(|p| {
                let x = rng.below(100);
                let kind = if withdrawn.contains(&p.start_no) && r > shape.rounds / 2 {
                    Some(ByeKind::ZeroPoint)
                } else if x < shape.half_bye_percent {
                    Some(ByeKind::HalfPoint)
                } else if x < shape.half_bye_percent + shape.absent_percent {
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
        let problem = Problem::of_tournament(&t);
        let pairing = match pair_next_round(&t) {
            Ok(pairing) => pairing,
            Err(PairingError::NoValidPairing) => {
                let nodes = prove_impossible(&problem, &format!("seed {seed} round {r}"));
                let why = problem
                    .obstruction()
                    .unwrap_or_else(|| format!("exhaustive search, {nodes} nodes"));
                let gone = if r > shape.rounds / 2 {
                    withdrawn.len() as u32
                } else {
                    0
                };
                return Played {
                    paired_rounds: r - 1,
                    proven_impossible: Some((r, why)),
                    still_in: n - gone,
                };
            }
            Err(e) => panic!("seed {seed} round {r}: the engine failed: {e}"),
        };
        check_pairing(&problem, &pairing, &format!("seed {seed} round {r}"));
        play_round(&mut t, &pairing, &mut rng, shape.forfeit_percent);
    }
    Played {
        paired_rounds: shape.rounds,
        proven_impossible: None,
        still_in: n - withdrawn.len() as u32,
    }
}

/// The engine said `NoValidPairing`: the prover must show that no pairing exists. Returns
/// the search nodes the proof took.
fn prove_impossible(problem: &Problem, at: &str) -> u64 {
    match problem.solve(DEFAULT_BUDGET) {
        Verdict::Impossible { nodes } => nodes,
        Verdict::Pairing { pairs, bye } => panic!(
            "{at}: the engine found no valid pairing, but this one satisfies every absolute \
             criterion: {pairs:?}, bye {bye:?}\n{}",
            problem.describe()
        ),
        Verdict::Undecided { nodes } => panic!(
            "{at}: the engine found no valid pairing and the prover could not decide in \
             {nodes} nodes\n{}",
            problem.describe()
        ),
    }
}

/// The engine's pairing breaks no absolute criterion.
fn check_pairing(problem: &Problem, pairing: &RoundPairing, at: &str) {
    let pairs: Vec<(StartNo, StartNo)> =
        pairing.boards.iter().map(|b| (b.white, b.black)).collect();
    let broken = problem.violations(&pairs, pairing.bye);
    assert!(
        broken.is_empty(),
        "{at}: the engine's pairing breaks absolute criteria: {broken:?}\npairing:\n{}{}",
        pairing.to_bbp_format(),
        problem.describe()
    );
}

/// Random results for the boards (some forfeited), the PAB and the requested byes.
fn play_round(t: &mut Tournament, pairing: &RoundPairing, rng: &mut Lcg, forfeit_percent: u64) {
    for b in &pairing.boards {
        let forfeit = rng.below(100) < forfeit_percent;
        let (ow, ob) = match rng.below(9) {
            0..=3 => (Outcome::Win, Outcome::Loss),
            4..=6 => (Outcome::Loss, Outcome::Win),
            _ => (Outcome::Draw, Outcome::Draw),
        };
        let (ow, ob) = if forfeit && ow == Outcome::Draw {
            (Outcome::Win, Outcome::Loss)
        } else {
            (ow, ob)
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

/// Forty events of 7 to 60 players and 5 to 9 rounds: every one is paired to its end except
/// where the engine's refusal is proven, and those stay rare.
#[test]
fn absolute_criteria_hold_in_random_tournaments() {
    let (mut paired, mut planned) = (0, 0);
    let (mut impossible, mut with_room) = (Vec::new(), Vec::new());
    for seed in 0..40u64 {
        let players = 7 + (seed * 7 % 54) as u32;
        let shape = Shape {
            players,
            rounds: (5 + (seed % 5) as u32).min(players - 1),
            forbidden_pairs: 3,
            absent_percent: 2,
            half_bye_percent: 3,
            forfeit_percent: 10,
        };
        let played = play(seed, &shape);
        paired += played.paired_rounds;
        planned += shape.rounds;
        if let Some((round, why)) = &played.proven_impossible {
            let line = format!(
                "seed {seed} ({players} players, {} still in) round {round} of {}: {why}",
                played.still_in, shape.rounds
            );
            if !near_round_robin(&shape, &played) {
                with_room.push(line.clone());
            }
            impossible.push(line);
        }
    }
    eprintln!(
        "{paired} of {planned} rounds paired; proven impossible: {}",
        if impossible.is_empty() {
            "none".to_string()
        } else {
            impossible.join(", ")
        }
    );
    // Measured: 278 of 280 rounds, two events of 9 and 10 players stopped in their last
    // round (8 and 9 rounds: nearly a round-robin).
    assert!(
        with_room.is_empty(),
        "events with more players than rounds + 2 must not run out of pairings: {with_room:?}"
    );
    assert!(
        impossible.len() <= 2 && paired + 4 >= planned,
        "too many events ended early ({paired} of {planned} rounds paired), even if each \
         end is proven: {impossible:?}"
    );
}

/// Small crowded events (4 to 10 players, as many rounds as a round-robin, several forbidden
/// pairs): here the engine often has to refuse a round, and each refusal must be proven.
/// Both answers must actually occur, or the test would prove nothing.
#[test]
fn refusals_are_proven_in_small_crowded_events() {
    let (mut paired, mut planned, mut finished) = (0, 0, 0);
    let mut refusals = Vec::new();
    for seed in 0..300u64 {
        let players = 4 + (seed % 7) as u32;
        let shape = Shape {
            players,
            rounds: players - 1 + players % 2,
            forbidden_pairs: u64::from(players / 2),
            absent_percent: 3,
            half_bye_percent: 3,
            forfeit_percent: 10,
        };
        let played = play(seed ^ 0x5eed_0000, &shape);
        paired += played.paired_rounds;
        planned += shape.rounds;
        match played.proven_impossible {
            Some((_, why)) => refusals.push(why),
            None => finished += 1,
        }
    }
    let searched = refusals
        .iter()
        .filter(|why| why.starts_with("exhaustive"))
        .count();
    eprintln!(
        "{paired} of {planned} rounds paired, {finished} events finished, {} refusals proven \
         ({searched} of them only by the exhaustive search)",
        refusals.len()
    );
    assert!(
        refusals.len() >= 30 && searched >= 10 && finished >= 30,
        "both outcomes must be exercised: {} proven refusals ({searched} only by the \
         search), {finished} finished events",
        refusals.len()
    );
}

/// Many more events of both kinds, optimised (`.ci/run` runs the ignored tests; by hand
/// `cargo test -p damka-domain -- --ignored`, about 11 s of CPU): every refusal proven, every other round
/// paired, at most one event in twenty of the first kind ended early and 99% of its rounds
/// paired (measured: 69 of 2,000, 13,826 of 13,928 rounds), at most one in 500 of them with
/// more players than rounds + 2 (measured: none), and the search exercised.
/// `DAMKA_DUTCH_RANDOM_COUNT` sets the number of events of each kind (default 2,000).
#[test]
#[ignore = "long: run optimised with --ignored (the domain crate is optimised in every build)"]
fn refusals_are_proven_in_many_random_events() {
    let count: u64 = std::env::var("DAMKA_DUTCH_RANDOM_COUNT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    let (mut paired, mut planned, mut ended_early) = (0, 0, 0);
    let (mut refusals, mut searched) = (0, 0);
    let mut with_room = Vec::new();
    for i in 0..count {
        // An event of the first test's kind, from another series of seeds.
        let seed = 1_000_000 + i;
        let players = 7 + (seed * 7 % 54) as u32;
        let shape = Shape {
            players,
            rounds: (5 + (seed % 5) as u32).min(players - 1),
            forbidden_pairs: 3,
            absent_percent: 2,
            half_bye_percent: 3,
            forfeit_percent: 10,
        };
        let played = play(seed, &shape);
        paired += played.paired_rounds;
        planned += shape.rounds;
        if let Some((round, why)) = &played.proven_impossible {
            ended_early += 1;
            if !near_round_robin(&shape, &played) {
                with_room.push(format!("seed {seed} round {round}: {why}"));
            }
        }
        // A small crowded one.
        let players = 4 + (i % 7) as u32;
        let crowded = Shape {
            players,
            rounds: players - 1 + players % 2,
            forbidden_pairs: u64::from(players / 2),
            absent_percent: 3,
            half_bye_percent: 3,
            forfeit_percent: 10,
        };
        if let Some((_, why)) = play(seed ^ 0x5eed_0000, &crowded).proven_impossible {
            refusals += 1;
            searched += usize::from(why.starts_with("exhaustive"));
        }
    }
    eprintln!(
        "{count} events: {paired} of {planned} rounds paired, {ended_early} ended early \
         (proven), {} of them with room to spare; {count} crowded events: {refusals} \
         refusals proven, {searched} only by the search",
        with_room.len()
    );
    assert!(
        with_room.len() * 500 <= count as usize,
        "events with more players than rounds + 2 ran out of pairings: {with_room:?}"
    );
    assert!(
        ended_early * 20 <= count as usize && paired * 100 >= planned * 99,
        "too many events ended early: {ended_early} of {count}, {paired} of {planned} rounds"
    );
    assert!(
        searched * 20 >= count as usize,
        "the crowded events must exercise the search: {searched} of {count}"
    );
}
