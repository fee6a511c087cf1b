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

/// A russian game of `plies` plies chosen deterministically among the legal moves (quiet
/// moves preferred so material stays on the board), so that the benchmark always measures
/// the same position.
fn game_with_history(plies: usize) -> Game {
    for seed in 0..1000usize {
        let mut game = Game::new(Variant::Russian);
        let mut choice = seed;
        while game.history().len() < plies && !game.legal_moves().is_empty() {
            let legal = game.legal_moves();
            choice = (choice * 31 + 7) % 1009;
            let mv = legal[choice % legal.len()];
            game.play(&mv).expect("a listed move is legal");
        }
        if game.history().len() == plies && !game.legal_moves().is_empty() {
            return game;
        }
    }
    panic!("no scripted game reached {plies} plies");
}

fn submit_move(c: &mut Criterion) {
    let game = game_with_history(80);
    let text = game.legal_moves()[0].notation();
    c.bench_function("validate_and_apply_move_80_plies", |b| {
        b.iter_batched_ref(
            || game.clone(),
            |g| g.play_str(black_box(&text)).expect("legal move"),
            BatchSize::SmallInput,
        )
    });
}

criterion_group!(benches, bulk_perft, submit_move);
criterion_main!(benches);
