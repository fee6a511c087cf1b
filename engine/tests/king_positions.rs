//! Perft of middle games with kings (2-4 a side, captures at the root), the positions of the
//! king benchmarks (`benches/perft.rs`). Every count below was produced by the bitboard
//! generator and confirmed by the independent reference generator of `common/`; the tests
//! check both, so a miscount by either fails here.

#![allow(clippy::unwrap_used)] // test helpers: a failed unwrap is a failed test

mod common;

use common::RefBoard;
use damka_engine::{Color, Position, Variant, perft};

struct KingPosition {
    name: &'static str,
    variant: Variant,
    fen: &'static str,
    /// perft(1), perft(2), ...: the last one is the depth the benchmark runs.
    counts: &'static [u64],
}

/// The same positions, in the same order, as `benches/perft.rs`.
const POSITIONS: &[KingPosition] = &[
    KingPosition {
        name: "international, 2 kings a side",
        variant: Variant::International,
        fen: "W:WK7,29,33,34,35,K37,38,39,40,43,44,50:B15,20,22,23,24,25,26,27,30,32,K41,K46",
        counts: &[
            7, 49, 212, 1954, 15507, 145414, 1214156, 11596355, 106022982,
        ],
    },
    KingPosition {
        name: "international, 3 kings a side",
        variant: Variant::International,
        fen: "B:WK6,K7,11,12,30,K31,34,35,40,45,46:B2,10,15,20,K26,K32,42,K48",
        counts: &[3, 45, 597, 6232, 76014, 770668, 9515669, 97256610],
    },
    KingPosition {
        name: "international, 4 kings a side",
        variant: Variant::International,
        fen: "B:WK2,K7,K11,K12,17,30,31,34,35,40,45:BK10,14,19,20,24,25,K26,K28,K48",
        counts: &[2, 22, 278, 2433, 29493, 282224, 3501857, 35954119],
    },
    KingPosition {
        name: "russian, 2 kings a side",
        variant: Variant::Russian,
        fen: "B:WKc7,e5,a3,Ke3,g3,h2,a1,e1:Bf8,h8,b6,h6,a5,h4,Kc1,Kg1",
        counts: &[
            5, 51, 180, 954, 5361, 29505, 204657, 1148270, 8141468, 45508374,
        ],
    },
    KingPosition {
        name: "russian, 3 kings a side",
        variant: Variant::Russian,
        fen: "B:WKb8,Kf8,Kc7,d6,b4,d4:Ba7,f6,h6,g5,Ke3,Kh2,Ke1",
        counts: &[4, 16, 31, 172, 1012, 6678, 49973, 357591, 3009699, 23335269],
    },
    KingPosition {
        name: "russian, 4 and 3 kings",
        variant: Variant::Russian,
        fen: "W:WKb8,Kd8,Kg7,Kf6,a3,b2,h2,a1,g1:Bb6,d6,Ka5,c5,d4,h4,e3,Kc1,Ke1",
        counts: &[
            3, 8, 34, 180, 900, 4907, 26436, 151125, 911615, 5472483, 35150482,
        ],
    },
];

fn position(entry: &KingPosition) -> Position {
    Position::from_fen(entry.variant, entry.fen).unwrap()
}

#[test]
fn positions_have_kings_and_captures() {
    for entry in POSITIONS {
        let pos = position(entry);
        for color in [Color::White, Color::Black] {
            let kings = pos.material(color).kings;
            assert!((2..=4).contains(&kings), "{}: {kings} kings", entry.name);
        }
        let moves = pos.legal_moves();
        assert!(moves.iter().all(|m| m.is_capture()), "{}", entry.name);
        assert!(
            pos.capturers()
                .iter()
                .any(|&sq| pos.piece_at(sq).unwrap().kind == damka_engine::PieceKind::King),
            "{}: a king must be able to capture",
            entry.name
        );
    }
}

/// Shallow depths in debug builds: the fast generator, the reference and the table agree.
#[test]
fn shallow_counts_match_the_reference() {
    for entry in POSITIONS {
        let pos = position(entry);
        let reference = RefBoard::from_position(&pos);
        let depths = if entry.variant == Variant::International {
            5
        } else {
            7
        };
        for depth in 1..=depths {
            let expected = entry.counts[depth - 1];
            assert_eq!(
                perft(&pos, depth as u32),
                expected,
                "{} perft({depth})",
                entry.name
            );
            assert_eq!(
                reference.perft(depth as u32),
                expected,
                "{} reference({depth})",
                entry.name
            );
        }
    }
}

/// Every depth of the table with the fast generator, and the reference one ply below the
/// benchmark depth (a few seconds each; the benchmark depth itself takes it up to 20 s).
#[test]
#[ignore = "deep: run in release with --ignored (about 15 s)"]
fn deep_counts_cross_checked() {
    for entry in POSITIONS {
        let pos = position(entry);
        for (index, &expected) in entry.counts.iter().enumerate() {
            let depth = index as u32 + 1;
            assert_eq!(
                perft(&pos, depth),
                expected,
                "{} perft({depth})",
                entry.name
            );
        }
        let checked = entry.counts.len() - 2;
        assert_eq!(
            RefBoard::from_position(&pos).perft(checked as u32 + 1),
            entry.counts[checked],
            "{} reference({})",
            entry.name,
            checked + 1
        );
    }
}
