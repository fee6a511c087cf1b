//! A full recompute of a club's ratings: 100,000 games among 2,000 players, both systems,
//! through `ratings::ledger::recompute`, the function `damka ratings recompute` and every
//! result change run (target: under 1 s).
//!
//! Run: `cargo bench -p damka-domain --bench ratings`. Games are generated
//! deterministically: a fixed pseudo-random pairing and result per game, one game every ten
//! minutes; boards of 200 events of 250 games each (half of them) and standalone games (the
//! other half, Elo periods by calendar month); half the players arrive with an Elo rating.

use std::collections::HashMap;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use damka_domain::ratings::Score;
use damka_domain::ratings::elo::EloRating;
use damka_domain::ratings::glicko2::GlickoParams;
use damka_domain::ratings::ledger::{
    CountedResult, EloStart, LedgerInput, Month, Origin, recompute,
};

#[path = "../tests/common/lcg.rs"]
mod lcg;
use lcg::Lcg;

const PLAYERS: usize = 2_000;
const GAMES: usize = 100_000;
const GAMES_PER_EVENT: usize = 250;
const TEN_MINUTES: i64 = 600_000_000;
const MONTH: i64 = 30 * 86_400_000_000;

fn club() -> LedgerInput {
    let mut random = Lcg(12);
    let results = (0..GAMES)
        .map(|i| {
            let white = random.index_below(PLAYERS);
            let black = (white + 1 + random.index_below(PLAYERS - 1)) % PLAYERS;
            let white_score = [Score::Loss, Score::Draw, Score::Win][random.index_below(3)];
            let at = i as i64 * TEN_MINUTES;
            let origin = if i % 2 == 0 {
                Origin::Board {
                    event_id: (i / 2 / GAMES_PER_EVENT) as i64,
                    pairing_id: i as i64,
                    game_id: None,
                }
            } else {
                Origin::Standalone { game_id: i as i64 }
            };
            let months = at / MONTH;
            CountedResult {
                at,
                month: Month {
                    year: 2020 + (months / 12) as i32,
                    month: (months % 12) as u32 + 1,
                },
                origin,
                game_no: 0,
                white: white as i64,
                black: black as i64,
                white_score,
            }
        })
        .collect();
    let elo_starts: HashMap<i64, EloStart> = (0..PLAYERS as i64)
        .step_by(2)
        .map(|p| {
            (
                p,
                EloStart {
                    rating: EloRating(1500 + (p as u32 % 700)),
                    games: 40,
                },
            )
        })
        .collect();
    LedgerInput {
        results,
        elo_starts,
        birth_years: (0..PLAYERS as i64)
            .map(|p| (p, 1990 + (p as i32 % 30)))
            .collect(),
        ..LedgerInput::default()
    }
}

fn bench(c: &mut Criterion) {
    let input = club();
    let params = GlickoParams::LIDRAUGHTS;
    let ledger = recompute(&input, &params);
    // The run rated what it was given: everyone in Glicko-2, the whole club in Elo.
    assert_eq!(ledger.glicko2.len(), PLAYERS);
    assert!(ledger.elo.values().all(|line| line.standing.is_some()));
    let mut group = c.benchmark_group("ratings");
    group.sample_size(10);
    group.bench_function(
        "recompute 100,000 games, 2,000 players, Elo + Glicko-2",
        |b| b.iter(|| recompute(black_box(&input), &params)),
    );
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
