//! Benchmarks: bulk perft (russian depth 10, international depth 9, one thread) and the
//! time to validate and apply one submitted move string in a game with 80 plies of history.
//!
//! Run: `CARGO_TARGET_DIR=... cargo bench -p damka-engine --bench perft`

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use damka_engine::{Game, Position, Variant, perft};
use std::hint::black_box;
use std::time::Duration;

fn bulk_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("bulk_perft");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(5));
    for (variant, depth) in [(Variant::Russian, 10), (Variant::International, 9)] {
        let start = Position::start(variant);
        let leaves = perft(&start, depth);
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(format!("{variant}_depth_{depth}"), |b| {
            b.iter(|| perft(black_box(&start), black_box(depth)))
        });
    }
    group.finish();
}

/// A russian game of `plies` plies chosen deterministically among the legal moves, so the
/// benchmark always measures the same position. Moves that offer the opponent no capture
/// are preferred, which keeps material on the board as in a real game.
fn game_with_history(plies: usize) -> Game {
    for seed in 0..1000usize {
        let mut game = Game::new(Variant::Russian);
        let mut choice = seed;
        while game.history().len() < plies && !game.legal_moves().is_empty() {
            let legal = game.legal_moves();
            let quiet_for_opponent: Vec<_> = legal
                .iter()
                .filter(|mv| {
                    let next = game.position().play(mv).expect("a listed move is legal");
                    !next.legal_moves().iter().any(|reply| reply.is_capture())
                })
                .copied()
                .collect();
            let pool = if quiet_for_opponent.is_empty() {
                legal.to_vec()
            } else {
                quiet_for_opponent
            };
            choice = (choice * 31 + 7) % 1009;
            let mv = pool[choice % pool.len()];
            game.play(&mv).expect("a listed move is legal");
        }
        if game.history().len() == plies && !game.legal_moves().is_empty() {
            return game;
        }
    }
    panic!("no scripted game reached {plies} plies");
}

fn submit_move(c: &mut Criterion) {
    let scripted = game_with_history(80);
    let moves = scripted.history().to_vec();
    let text = scripted.legal_moves()[0].notation();
    c.bench_function("validate_and_apply_move_80_plies", |b| {
        b.iter_batched_ref(
            // As the service does: the game is rebuilt from its stored moves (not timed).
            || {
                let mut game = Game::new(Variant::Russian);
                for mv in &moves {
                    game.play(mv).expect("replaying a legal game");
                }
                game
            },
            |game| game.play_str(black_box(&text)).expect("legal move"),
            BatchSize::SmallInput,
        )
    });
}

criterion_group!(benches, bulk_perft, submit_move);
criterion_main!(benches);
