//! A Keizer season of 30 players and 30 rounds (target: well under a second): the
//! standings after the last round (both methods, with every player's card) and the
//! pairing of the next round.
//!
//! Run: `cargo bench -p damka-domain --bench keizer`.
//! The season is generated deterministically by the Keizer pairing itself: before each
//! round a few players are absent (with notice, for the club, without notice), results
//! come from a fixed pseudo-random sequence, and two players join late.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use damka_domain::keizer::{KeizerMethod, KeizerOptions, pair_next_round, standings};
use damka_domain::tournament::{
    ByeKind, Colour, NextRoundAbsence, Outcome, Player, RoundEntry, Tournament,
};

#[path = "../tests/common/lcg.rs"]
mod lcg;
use lcg::Lcg;

const PLAYERS: u32 = 30;
const ROUNDS: usize = 30;

fn season(options: &KeizerOptions) -> Tournament {
    let mut rng = Lcg(1956);
    let mut t = Tournament {
        name: "Keizer season".into(),
        players: (1..=PLAYERS)
            .map(|s| Player {
                start_no: s,
                name: format!("Player {s}"),
                ..Player::default()
            })
            .collect(),
        ..Tournament::default()
    };
    for round in 0..ROUNDS {
        let mut absences = Vec::new();
        for p in &t.players {
            let late = p.start_no > PLAYERS - 2 && round < 5;
            let kind = match rng.below(10) {
                _ if late => Some(ByeKind::ZeroPoint),
                0 => Some(ByeKind::Excused),
                1 => Some(ByeKind::ClubDuty),
                2 if rng.below(3) == 0 => Some(ByeKind::ZeroPoint),
                _ => None,
            };
            if let Some(kind) = kind {
                absences.push((p.start_no, kind, late));
            }
        }
        t.next_round_absences = absences
            .iter()
            .map(|&(player, kind, _)| NextRoundAbsence { player, kind })
            .collect();
        let pairing = pair_next_round(&t, options).expect("the season pairs");
        let mut entries = vec![RoundEntry::NotPaired; t.players.len()];
        for &(player, kind, late) in &absences {
            if !late {
                entries[player as usize - 1] = RoundEntry::Bye(kind);
            }
        }
        if let Some(bye) = pairing.bye {
            entries[bye as usize - 1] = RoundEntry::Bye(ByeKind::PairingAllocated);
        }
        for board in &pairing.boards {
            let (white, black) = match rng.below(3) {
                0 => (Outcome::Win, Outcome::Loss),
                1 => (Outcome::Draw, Outcome::Draw),
                _ => (Outcome::Loss, Outcome::Win),
            };
            let game = |opponent, colour, outcome| RoundEntry::Played {
                opponent,
                colour,
                outcome,
                rated: true,
            };
            entries[board.white as usize - 1] = game(board.black, Colour::White, white);
            entries[board.black as usize - 1] = game(board.white, Colour::Black, black);
        }
        for (p, entry) in t.players.iter_mut().zip(entries) {
            p.rounds.push(entry);
        }
    }
    t.next_round_absences.clear();
    t
}

fn bench(c: &mut Criterion) {
    let iterative = KeizerOptions::default();
    let per_round = KeizerOptions {
        method: KeizerMethod::PerRound,
        ..iterative
    };
    let t = season(&iterative);
    let rounds = ROUNDS as u32;
    c.bench_function("keizer 30x30 standings iterative", |b| {
        b.iter(|| black_box(standings(black_box(&t), &iterative, rounds)))
    });
    c.bench_function("keizer 30x30 standings per_round", |b| {
        b.iter(|| black_box(standings(black_box(&t), &per_round, rounds)))
    });
    c.bench_function("keizer 30x30 pair round 31", |b| {
        b.iter(|| black_box(pair_next_round(black_box(&t), &iterative)))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
