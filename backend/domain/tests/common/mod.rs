//! Test helpers: a minimal reader for the TRF fixtures in `tests/data` (the same files were
//! fed to FIDE's TieBreakServer to cross-check figures), independent of the crate's TRF
//! module so that the tie-break tests do not depend on it.
#![allow(dead_code)]

use damka_domain::tournament::{
    ByeKind, Colour, NextRoundAbsence, Outcome, Player, RoundEntry, Tournament,
};

fn col(line: &str, from: usize, to: usize) -> &str {
    // 1-based inclusive columns; short lines give "".
    line.get(from - 1..to.min(line.len())).unwrap_or("").trim()
}

fn cell(line: &str, start: usize) -> RoundEntry {
    let opp: u32 = col(line, start, start + 3).parse().unwrap_or(0);
    let colour = match col(line, start + 5, start + 5) {
        "w" => Some(Colour::White),
        "b" => Some(Colour::Black),
        _ => None,
    };
    let res = col(line, start + 7, start + 7);
    let played = |outcome, rated| RoundEntry::Played {
        opponent: opp,
        colour: colour.expect("a played game has a colour"),
        outcome,
        rated,
    };
    match res {
        "1" => played(Outcome::Win, true),
        "=" => played(Outcome::Draw, true),
        "0" => played(Outcome::Loss, true),
        "W" => played(Outcome::Win, false),
        "D" => played(Outcome::Draw, false),
        "L" => played(Outcome::Loss, false),
        "+" => RoundEntry::Forfeit {
            opponent: opp,
            colour,
            won: true,
        },
        "-" if opp == 0 => RoundEntry::Bye(ByeKind::ZeroPoint),
        "-" => RoundEntry::Forfeit {
            opponent: opp,
            colour,
            won: false,
        },
        "U" => RoundEntry::Bye(ByeKind::PairingAllocated),
        "F" => RoundEntry::Bye(ByeKind::FullPoint),
        "H" => RoundEntry::Bye(ByeKind::HalfPoint),
        "Z" => RoundEntry::Bye(ByeKind::ZeroPoint),
        _ => RoundEntry::NotPaired,
    }
}

/// Reads a TRF fixture. A `-` against an opponent whose own cell also says `-` is a double
/// forfeit.
pub fn read_trf(text: &str) -> Tournament {
    let mut t = Tournament::default();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("012 ") {
            t.name = rest.trim().to_string();
        } else if let Some(rest) = line.strip_prefix("XXR ") {
            t.total_rounds = rest.trim().parse().expect("XXR n");
        } else if line.starts_with("001") {
            let mut rounds = Vec::new();
            let mut start = 92;
            while start <= line.len() {
                rounds.push(cell(line, start));
                start += 10;
            }
            t.players.push(Player {
                start_no: col(line, 5, 8).parse().expect("start number"),
                name: col(line, 15, 47).to_string(),
                rating: col(line, 49, 52).parse().ok(),
                rounds,
                ..Player::default()
            });
        }
    }
    // Double forfeits: both sides lost by forfeit against each other.
    let snapshot = t.clone();
    for p in &mut t.players {
        for (r, e) in p.rounds.iter_mut().enumerate() {
            if let RoundEntry::Forfeit {
                opponent,
                colour,
                won: false,
            } = *e
            {
                let other = snapshot
                    .players
                    .iter()
                    .find(|q| q.start_no == opponent)
                    .and_then(|q| q.rounds.get(r));
                if matches!(other, Some(RoundEntry::Forfeit { won: false, .. })) {
                    *e = RoundEntry::DoubleForfeit { opponent, colour };
                }
            }
        }
    }
    t
}

pub fn fixture(name: &str) -> Tournament {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    read_trf(&std::fs::read_to_string(&path).expect("fixture exists"))
}

// The Dutch corpus (`tests/data/dutch`): each tournament's TRF and bbpPairings' pairing of
// every round.

/// The tournament as it stood before round `r` (1-based) was paired.
pub fn before_round(full: &Tournament, r: usize) -> Tournament {
    let mut t = full.clone();
    t.next_round_absences.clear();
    for p in &mut t.players {
        let entry = p
            .rounds
            .get(r - 1)
            .copied()
            .unwrap_or(RoundEntry::NotPaired);
        let kind = match entry {
            RoundEntry::Bye(ByeKind::PairingAllocated) => None,
            RoundEntry::Bye(k) => Some(k),
            RoundEntry::NotPaired => Some(ByeKind::ZeroPoint),
            _ => None,
        };
        if let Some(kind) = kind {
            t.next_round_absences.push(NextRoundAbsence {
                player: p.start_no,
                kind,
            });
        }
        p.rounds.truncate(r - 1);
        p.round_scores.truncate(r - 1);
        // Round r is paired on the accelerations of rounds 1..=r (XXA of a finished event
        // holds all rounds).
        p.accelerations.truncate(r);
    }
    t
}

pub fn expected_rounds(text: &str) -> Vec<(u32, String)> {
    let mut out: Vec<(u32, String)> = Vec::new();
    for line in text.lines() {
        if let Some(r) = line.strip_prefix("round ") {
            out.push((r.trim().parse().expect("round number"), String::new()));
        } else if let Some(last) = out.last_mut() {
            last.1.push_str(line);
            last.1.push('\n');
        }
    }
    out
}

pub fn corpus_dir() -> std::path::PathBuf {
    corpus_dir_named("dutch")
}

/// A corpus folder of `tests/data` (`dutch`, `micro`).
pub fn corpus_dir_named(name: &str) -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data")
        .join(name)
}

/// The Dutch corpus's TRF files, sorted, whose names contain `filter`.
pub fn corpus_files(filter: &str) -> Vec<std::path::PathBuf> {
    corpus_files_in("dutch", filter)
}

/// The TRF files of corpus `name`, sorted, whose names contain `filter`.
pub fn corpus_files_in(name: &str, filter: &str) -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(corpus_dir_named(name))
        .expect("corpus directory")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "trf"))
        .filter(|p| p.to_string_lossy().contains(filter))
        .collect();
    files.sort();
    files
}
