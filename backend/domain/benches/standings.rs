//! Standings with every tie-break for 1,000 players after 11 rounds (target: under 50 ms).
//!
//! Run: `CARGO_TARGET_DIR=... cargo bench -p damka-domain --bench standings`.
//! The history is generated deterministically: each round pairs neighbours in the current
//! order (score, then start number), results come from a fixed pseudo-random sequence, and
//! there are half-point byes, absences, forfeits and pairing-allocated byes.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use damka_domain::standings::{StandingsOptions, compute_standings, crosstable};
use damka_domain::tiebreak::{EventKind, parse_tiebreak_list};
use damka_domain::tournament::{
    ByeKind, Colour, HalfPoints, Outcome, Player, PointSystem, RoundEntry, Tournament,
};

#[path = "../tests/common/lcg.rs"]
mod lcg;
use lcg::Lcg;

fn generate(players: u32, rounds: u32) -> Tournament {
    let mut rng = Lcg(42);
    let points = PointSystem::default();
    let mut t = Tournament {
        name: "bench".into(),
        total_rounds: rounds,
        players: (1..=players)
            .map(|s| Player {
                start_no: s,
                name: format!("Player {s}"),
                rating: Some(2400 - s % 1000),
                ..Player::default()
            })
            .collect(),
        ..Tournament::default()
    };
    for r in 0..rounds {
        let score = |p: &Player| -> HalfPoints { p.rounds.iter().map(|e| points.points(e)).sum() };
        let mut order: Vec<usize> = (0..t.players.len()).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(score(&t.players[i])), i));
        let mut entries = vec![RoundEntry::NotPaired; t.players.len()];
        let mut available = Vec::new();
        for &i in &order {
            let s = t.players[i].start_no;
            if s.is_multiple_of(97) && r == 4 {
                entries[i] = RoundEntry::Bye(ByeKind::HalfPoint);
            } else if s.is_multiple_of(101) && r >= 8 {
                entries[i] = RoundEntry::Bye(ByeKind::ZeroPoint); // withdrawn
            } else {
                available.push(i);
            }
        }
        if available.len() % 2 == 1 {
            let i = available.pop().unwrap_or_default();
            entries[i] = RoundEntry::Bye(ByeKind::PairingAllocated);
        }
        for pair in available.chunks(2) {
            let (a, b) = (pair[0], pair[1]);
            let (sa, sb) = (t.players[a].start_no, t.players[b].start_no);
            let roll = rng.next() % 100;
            if roll < 2 {
                entries[a] = RoundEntry::Forfeit {
                    opponent: sb,
                    colour: Some(Colour::White),
                    won: true,
                };
                entries[b] = RoundEntry::Forfeit {
                    opponent: sa,
                    colour: Some(Colour::Black),
                    won: false,
                };
                continue;
            }
            let (oa, ob) = match roll {
                0..=41 => (Outcome::Win, Outcome::Loss),
                42..=65 => (Outcome::Draw, Outcome::Draw),
                _ => (Outcome::Loss, Outcome::Win),
            };
            entries[a] = RoundEntry::Played {
                opponent: sb,
                colour: Colour::White,
                outcome: oa,
                rated: true,
            };
            entries[b] = RoundEntry::Played {
                opponent: sa,
                colour: Colour::Black,
                outcome: ob,
                rated: true,
            };
        }
        for (p, e) in t.players.iter_mut().zip(entries) {
            p.rounds.push(e);
        }
    }
    t
}

fn bench(c: &mut Criterion) {
    let t = generate(1000, 11);
    let all = parse_tiebreak_list("BH/C1,BH/M1,BH,SB,DE,WIN,WON,BPG,ARO,TPR").unwrap_or_default();
    let options = StandingsOptions {
        tiebreaks: Some(all),
        kind: Some(EventKind::Swiss),
        ..StandingsOptions::default()
    };
    c.bench_function("standings 1000 players x 11 rounds, all tie-breaks", |b| {
        b.iter(|| compute_standings(black_box(&t), black_box(&options)))
    });
    c.bench_function("standings + crosstable 1000 x 11, defaults", |b| {
        b.iter(|| {
            let st = compute_standings(black_box(&t), &StandingsOptions::default());
            st.map(|st| crosstable(&t, &st))
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
