//! Benchmarks: bulk perft (one thread) from the start positions and from middle games with
//! kings, and the time to validate and apply one submitted move string in a game with 80
//! plies of history.
//!
//! Run: `CARGO_TARGET_DIR=... cargo bench -p damka-engine --bench perft`

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use damka_engine::{Game, Position, Variant, perft};
use std::hint::black_box;
use std::time::Duration;

/// Bulk perft positions: the start positions, then middle games with 2-4 kings a side and
/// captures at the root (the positions of `tests/king_positions.rs`, whose counts are checked
/// there), each at a depth of about a second.
const POSITIONS: &[(&str, Variant, Option<&str>, u32)] = &[
    ("russian_start", Variant::Russian, None, 10),
    ("international_start", Variant::International, None, 9),
    (
        "international_2_kings",
        Variant::International,
        Some("W:WK7,29,33,34,35,K37,38,39,40,43,44,50:B15,20,22,23,24,25,26,27,30,32,K41,K46"),
        9,
    ),
    (
        "international_3_kings",
        Variant::International,
        Some("B:WK6,K7,11,12,30,K31,34,35,40,45,46:B2,10,15,20,K26,K32,42,K48"),
        8,
    ),
    (
        "international_4_kings",
        Variant::International,
        Some("B:WK2,K7,K11,K12,17,30,31,34,35,40,45:BK10,14,19,20,24,25,K26,K28,K48"),
        8,
    ),
    (
        "russian_2_kings",
        Variant::Russian,
        Some("B:WKc7,e5,a3,Ke3,g3,h2,a1,e1:Bf8,h8,b6,h6,a5,h4,Kc1,Kg1"),
        10,
    ),
    (
        "russian_3_kings",
        Variant::Russian,
        Some("B:WKb8,Kf8,Kc7,d6,b4,d4:Ba7,f6,h6,g5,Ke3,Kh2,Ke1"),
        10,
    ),
    (
        "russian_4_and_3_kings",
        Variant::Russian,
        Some("W:WKb8,Kd8,Kg7,Kf6,a3,b2,h2,a1,g1:Bb6,d6,Ka5,c5,d4,h4,e3,Kc1,Ke1"),
        11,
    ),
];

fn bulk_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("bulk_perft");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(5));
    for &(name, variant, fen, depth) in POSITIONS {
        let position = match fen {
            Some(fen) => Position::from_fen(variant, fen).expect("benchmark FEN"),
            None => Position::start(variant),
        };
        let leaves = perft(&position, depth);
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(format!("{name}_depth_{depth}"), |b| {
            b.iter(|| perft(black_box(&position), black_box(depth)))
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
