//! Time to pair one Swiss round (FIDE Dutch) of 100, 500 and 1,000 players, after five
//! rounds of a nine-round event with byes, absences, withdrawals, forfeits and forbidden
//! pairs. The positions are `tests/data/dutch/bench/bench_NNNN.trf`, generated (with
//! `tests/data/dutch/generate.py BBP DIR --bench 100,500,1000`) by bbpPairings, whose
//! pairing of the next round is stored next to each file; the benchmark first checks that
//! our pairing is identical.
//!
//! Run: `CARGO_TARGET_DIR=... cargo bench -p damka-domain --bench pairing`.

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use damka_domain::dutch::{RoundPairing, pair_next_round};
use damka_domain::trf;

fn bench_pairing(c: &mut Criterion) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/dutch/bench");
    let mut group = c.benchmark_group("dutch_pair_one_round");
    group.sample_size(10);
    for n in [100, 500, 1000] {
        let Ok(text) = std::fs::read_to_string(dir.join(format!("bench_{n:04}.trf"))) else {
            eprintln!("bench_{n:04}.trf missing: skipped");
            continue;
        };
        let t = trf::parse(&text).expect("valid TRF");
        let expected = std::fs::read_to_string(dir.join(format!("bench_{n:04}.pairing")))
            .ok()
            .and_then(|s| RoundPairing::from_bbp_format(&s));
        let ours = pair_next_round(&t).expect("a pairing exists");
        if let Some(expected) = expected {
            assert_eq!(ours, expected, "{n} players: differs from bbpPairings");
        }
        group.bench_function(format!("{n}_players"), |b| {
            b.iter(|| pair_next_round(black_box(&t)).expect("a pairing exists"))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_pairing);
criterion_main!(benches);
