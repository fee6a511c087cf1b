//! Large Swiss positions for profiling the Dutch pairing, and a timer for one round.
//!
//! `swiss_big gen PLAYERS ROUNDS_PLAYED SEED OUT`: a nine-round event of PLAYERS players
//! (ratings random, 5 % unrated) after ROUNDS_PLAYED rounds, each paired by our own engine
//! and given random results, with requested byes, absences, withdrawals, forfeits and
//! forbidden pairs as in `tests/data/dutch/generate.py --bench`: `OUT_rK.trf` after
//! K rounds, and `OUT_rK.pairing` our pairing of round K+1 in bbpPairings' format.
//!
//! `swiss_big pair FILE.trf [OUT.pairing]`: pairs the next round of FILE, prints the time
//! taken, and writes the pairing in bbpPairings' format to OUT when given (to compare the
//! pairings of two versions of the engine).

use damka_domain::dutch::{RoundPairing, pair_next_round};
use damka_domain::tournament::{
    ByeKind, Colour, NextRoundAbsence, Outcome, RoundEntry, Tournament,
};
use damka_domain::trf;
use std::collections::HashMap;
use std::time::Instant;

/// xorshift64: reproducible without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// A TRF of `players` players and no round played.
fn opening(players: usize, rng: &mut Rng) -> String {
    let mut ratings: Vec<u32> = (0..players)
        .map(|_| {
            if rng.next().is_multiple_of(20) {
                0
            } else {
                1400 + (rng.next() % 1200) as u32
            }
        })
        .collect();
    ratings.sort_unstable_by(|a, b| b.cmp(a));
    let mut out = format!("012 big_{players}\nXXR 9\nXXC white1\n");
    for (i, r) in ratings.iter().enumerate() {
        let rating = if *r == 0 {
            String::new()
        } else {
            r.to_string()
        };
        let name = format!("Player {}", i + 1);
        let head = format!("001 {:>4}      {name:<33} {rating:>4}", i + 1);
        out.push_str(&format!("{head:<80}{:>4}{:>5}\n", "0.0", i + 1));
    }
    out
}

/// Writes `OUT_r0.trf` .. `OUT_rR.trf` (the event after each round) and `OUT_rK.pairing`
/// (the pairing of round K+1 from `OUT_rK.trf`, in bbpPairings' format).
fn generate(players: usize, rounds: usize, seed: u64, out: &str) {
    let mut rng = Rng(seed.max(1));
    let mut t = trf::parse(&opening(players, &mut rng)).expect("generated TRF is valid");
    // As tests/data/dutch/generate.py --bench: two forbidden pairs, 2 % of the players
    // withdraw after a random round, 1 % ask for a half-point bye and 1 % are absent each
    // round, 1 % of the games are forfeited, 30 % drawn, the others won by rating odds.
    for _ in 0..2 {
        let a = 1 + (rng.next() % players as u64) as u32;
        let b = 1 + (rng.next() % players as u64) as u32;
        if a != b {
            t.forbidden_pairs.push((a.min(b), a.max(b)));
        }
    }
    let withdrawn_after: Vec<Option<usize>> = (0..players)
        .map(|_| {
            rng.next()
                .is_multiple_of(50)
                .then(|| 2 + (rng.next() % 8) as usize)
        })
        .collect();
    for round in 0..rounds {
        t.next_round_absences = (0..players)
            .filter_map(|p| {
                let kind = if withdrawn_after[p].is_some_and(|w| round >= w) {
                    ByeKind::ZeroPoint
                } else {
                    match rng.next() % 100 {
                        0 => ByeKind::HalfPoint,
                        1 => ByeKind::ZeroPoint,
                        _ => return None,
                    }
                };
                Some(NextRoundAbsence {
                    player: t.players[p].start_no,
                    kind,
                })
            })
            .collect();
        std::fs::write(format!("{out}_r{round}.trf"), trf::write(&t)).expect("output written");
        let started = Instant::now();
        let pairing = pair_next_round(&t).expect("a pairing exists");
        eprintln!("round {} paired in {:.2?}", round + 1, started.elapsed());
        std::fs::write(format!("{out}_r{round}.pairing"), pairing.to_bbp_format())
            .expect("output written");
        play(&mut t, &pairing, &mut rng);
        // Round-trip through the file format, as the command line would see it.
        t = trf::parse(&trf::write(&t)).expect("written TRF is valid");
    }
    std::fs::write(format!("{out}_r{rounds}.trf"), trf::write(&t)).expect("output written");
}

/// Gives every board of `pairing` a random result and the players left out their bye.
fn play(t: &mut Tournament, pairing: &RoundPairing, rng: &mut Rng) {
    let index: HashMap<u32, usize> = t
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.start_no, i))
        .collect();
    let mut entries = vec![RoundEntry::Bye(ByeKind::ZeroPoint); t.players.len()];
    for a in &t.next_round_absences {
        entries[index[&a.player]] = RoundEntry::Bye(a.kind);
    }
    for b in &pairing.boards {
        let (w, bl) = (index[&b.white], index[&b.black]);
        if rng.next().is_multiple_of(100) {
            let won = rng.next().is_multiple_of(2);
            let forfeit = |opponent, colour, won| RoundEntry::Forfeit {
                opponent,
                colour: Some(colour),
                won,
            };
            entries[w] = forfeit(b.black, Colour::White, won);
            entries[bl] = forfeit(b.white, Colour::Black, !won);
            continue;
        }
        let rating = |i: usize| f64::from(t.players[i].rating.unwrap_or(1500));
        let expected = 1.0 / (1.0 + 10f64.powf((rating(bl) - rating(w)) / 400.0));
        let x = (rng.next() % 1_000_000) as f64 / 1_000_000.0;
        let (white, black) = if x < 0.3 {
            (Outcome::Draw, Outcome::Draw)
        } else if x < 0.3 + 0.7 * expected {
            (Outcome::Win, Outcome::Loss)
        } else {
            (Outcome::Loss, Outcome::Win)
        };
        let game = |opponent, colour, outcome| RoundEntry::Played {
            opponent,
            colour,
            outcome,
            rated: true,
        };
        entries[w] = game(b.black, Colour::White, white);
        entries[bl] = game(b.white, Colour::Black, black);
    }
    if let Some(bye) = pairing.bye {
        entries[index[&bye]] = RoundEntry::Bye(ByeKind::PairingAllocated);
    }
    for (p, e) in t.players.iter_mut().zip(entries) {
        p.rounds.push(e);
    }
    t.next_round_absences.clear();
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let num = |i: usize| -> u64 {
        args.get(i)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("argument {i} must be a number"))
    };
    match args.get(1).map(String::as_str) {
        Some("gen") => {
            generate(num(2) as usize, num(3) as usize, num(4), &args[5]);
        }
        Some("pair") => {
            let text = std::fs::read_to_string(&args[2]).expect("TRF readable");
            let t = trf::parse(&text).expect("valid TRF");
            let started = Instant::now();
            let pairing = pair_next_round(&t).expect("a pairing exists");
            eprintln!(
                "{} players paired in {:.2?}",
                t.players.len(),
                started.elapsed()
            );
            if let Some(out) = args.get(3) {
                std::fs::write(out, pairing.to_bbp_format()).expect("output written");
            }
        }
        _ => eprintln!("usage: swiss_big gen PLAYERS ROUNDS SEED OUT | pair FILE.trf [OUT]"),
    }
}
