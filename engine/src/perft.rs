//! Perft: the number of leaf positions after every legal sequence of `depth` plies.
//!
//! "Bulk" counting: at the last ply quiet moves are counted with popcounts and never built;
//! only captures are enumerated (they need de-duplication and, under the maximum rule, the
//! longest sequences).

use crate::king_rays::KingRays;
use crate::movegen::{self, Bitboards, CaptureCount, KingScan, RawMove};
use crate::position::{Move, Position};
#[cfg(target_arch = "x86_64")]
use crate::preset::Fast;
use crate::preset::{Preset, with_preset};
use crate::rules::{CaptureChoice, Color};

#[derive(Clone, Copy)]
struct Options {
    mandatory: bool,
    maximum: bool,
}

fn options(pos: &Position) -> Options {
    Options {
        mandatory: pos.rules().mandatory_capture,
        maximum: pos.rules().capture_choice == CaptureChoice::Maximum,
    }
}

/// Perft of a position.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let opts = options(pos);
    let mut lists: Vec<Vec<RawMove>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
    let mut kings = Box::<KingRays>::default();
    let white = pos.side_to_move() == Color::White;
    with_preset!(pos.variant(), P => {
        if white {
            root::<P, true>(pos.boards(), depth, opts, &mut lists, &mut kings)
        } else {
            root::<P, false>(pos.boards(), depth, opts, &mut lists, &mut kings)
        }
    })
}

/// Perft of each legal move's resulting position (`depth - 1` plies after the move).
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    pos.legal_moves()
        .into_iter()
        .map(|mv| {
            let count = perft(&pos.play_unchecked(&mv), depth.saturating_sub(1));
            (mv, count)
        })
        .collect()
}

/// Number of legal moves (the leaves one ply below `b`), counted in bulk.
#[inline(always)]
fn leaves<P: Preset, const WHITE: bool>(
    b: &Bitboards,
    opts: Options,
    scratch: &mut Vec<RawMove>,
) -> u64 {
    leaves_with::<P, WHITE>(b, movegen::king_scan::<P, WHITE>(b), opts, scratch)
}

/// [`leaves`] with the king scan of `b` already made.
#[inline(always)]
fn leaves_with<P: Preset, const WHITE: bool>(
    b: &Bitboards,
    kings: KingScan,
    opts: Options,
    scratch: &mut Vec<RawMove>,
) -> u64 {
    let men = movegen::men_capturers::<P, WHITE>(b);
    if men | kings.capturers == 0 {
        return movegen::count_men_quiets::<P, WHITE>(b) + kings.quiets;
    }
    if opts.mandatory
        && kings.capturers == 0
        && let Some(count) = movegen::count_single_jumps::<P, WHITE>(b)
    {
        return count;
    }
    scratch.clear();
    let mut sink = CaptureCount {
        long: scratch,
        maximum: opts.maximum,
        best: 0,
        count: 0,
    };
    // Without kings capturing and under compulsory capture the single jumps were tried above.
    let tried = opts.mandatory && kings.capturers == 0;
    let searched_men =
        if men != 0 && !tried && movegen::sink_single_jumps::<P, WHITE, _>(b, &mut sink) {
            0
        } else {
            men
        };
    movegen::generate_captures::<P, WHITE, _>(b, searched_men, kings.capturers, &mut sink);
    let captures = sink.count;
    if opts.mandatory {
        captures
    } else {
        captures + movegen::count_men_quiets::<P, WHITE>(b) + kings.quiets
    }
}

/// Defines a perft node function (`$node`) with the given attributes: the same code compiled
/// for any x86-64 processor and for one with the population count instruction.
macro_rules! perft_node {
    ($(#[$attribute:meta])* $node:ident) => {
        $(#[$attribute])*
        fn $node<P: Preset, const WHITE: bool>(
            b: &Bitboards,
            depth: u32,
            opts: Options,
            lists: &mut [Vec<RawMove>],
            kings: &mut KingRays,
        ) -> u64 {
            let Some((list, deeper)) = lists.split_first_mut() else {
                return 1;
            };
            if depth == 1 {
                return leaves::<P, WHITE>(b, opts, list);
            }
            movegen::legal_raw::<P, WHITE>(b, opts.mandatory, opts.maximum, list);
            let mut total = 0;
            if depth == 2 {
                // The last two plies without a call per child: the hottest loop of perft.
                let Some(scratch) = deeper.first_mut() else {
                    return list.len() as u64;
                };
                if b.side(!WHITE) & b.kings == 0 {
                    // No opposing king (the opening): nothing to remember.
                    for mv in list.iter() {
                        let next = movegen::apply(b, mv, WHITE);
                        total += if WHITE {
                            leaves::<P, false>(&next, opts, scratch)
                        } else {
                            leaves::<P, true>(&next, opts, scratch)
                        };
                    }
                    return total;
                }
                // The opponent's kings are looked along once here; after a quiet move only the rays
                // through its two squares are looked along again.
                if WHITE {
                    kings.scan::<P, false>(b);
                } else {
                    kings.scan::<P, true>(b);
                }
                for mv in list.iter() {
                    let next = movegen::apply(b, mv, WHITE);
                    let (from, to) = (u32::from(mv.from), u32::from(mv.to));
                    total += if WHITE {
                        let scan = if mv.captured == 0 {
                            kings.rescan::<P, false>(&next, from, to)
                        } else {
                            movegen::king_scan::<P, false>(&next)
                        };
                        leaves_with::<P, false>(&next, scan, opts, scratch)
                    } else {
                        let scan = if mv.captured == 0 {
                            kings.rescan::<P, true>(&next, from, to)
                        } else {
                            movegen::king_scan::<P, true>(&next)
                        };
                        leaves_with::<P, true>(&next, scan, opts, scratch)
                    };
                }
                return total;
            }
            for mv in list.iter() {
                let next = movegen::apply(b, mv, WHITE);
                total += if WHITE {
                    $node::<P, false>(&next, depth - 1, opts, deeper, kings)
                } else {
                    $node::<P, true>(&next, depth - 1, opts, deeper, kings)
                };
            }
            total
        }
    };
}

perft_node!(node);

// The bulk counts at the last ply are population counts (the men's quiet moves, the single
// jumps). Without the popcnt instruction, which the x86-64 baseline lacks, each is a dozen
// instructions; with it one. Measured (paired timing runs, README's Benchmarks): 9% of the
// international start position's time, 2-8% with kings.
perft_node!(
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    node_popcnt
);

// The capture search and the king scans, compiled without these extensions, spend much of
// their time on variable shifts (`1 << square`), bit scans and `a & !b`: with BMI1, BMI2 and
// lzcnt each is one instruction that needs no particular register. `node_fast` runs with the
// preset `Fast<P>`, whose capture search calls its own copies compiled the same way
// (`movegen::CaptureSearch`). Measured (paired timing runs, README's Benchmarks): 5-8% of the
// time of the positions with kings.
perft_node!(
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2")]
    node_fast
);

/// Perft from the root with the fastest node function the processor can run.
fn root<P: Preset, const WHITE: bool>(
    b: &Bitboards,
    depth: u32,
    opts: Options,
    lists: &mut [Vec<RawMove>],
    kings: &mut KingRays,
) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt")
        && std::arch::is_x86_feature_detected!("lzcnt")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
    {
        // SAFETY: `node_fast` is `node` compiled to use these four extensions, with the
        // preset `Fast<P>`, whose capture search runs copies compiled the same way; the
        // processor was just found to have all four. Nothing else uses `Fast`.
        #[allow(unsafe_code)]
        return unsafe { node_fast::<Fast<P>, WHITE>(b, depth, opts, lists, kings) };
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: `node_popcnt` is `node` compiled to use the popcnt instruction, and the
        // processor was just found to have it.
        #[allow(unsafe_code)]
        return unsafe { node_popcnt::<P, WHITE>(b, depth, opts, lists, kings) };
    }
    node::<P, WHITE>(b, depth, opts, lists, kings)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

    use super::*;
    use crate::rules::Variant;

    /// The node functions compiled for different processors, by name.
    #[derive(Clone, Copy, Debug)]
    enum Node {
        Plain,
        #[cfg(target_arch = "x86_64")]
        Popcnt,
        #[cfg(target_arch = "x86_64")]
        Fast,
    }

    /// Perft with one node function (the processor must have what it was compiled for).
    fn perft_with(pos: &Position, depth: u32, which: Node) -> u64 {
        let opts = options(pos);
        let mut lists: Vec<Vec<RawMove>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
        let mut kings = Box::<KingRays>::default();
        let white = pos.side_to_move() == Color::White;
        fn run<P: Preset, const WHITE: bool>(
            which: Node,
            b: &Bitboards,
            depth: u32,
            opts: Options,
            lists: &mut [Vec<RawMove>],
            kings: &mut KingRays,
        ) -> u64 {
            match which {
                Node::Plain => node::<P, WHITE>(b, depth, opts, lists, kings),
                // SAFETY: only called after the processor was found to have the extensions.
                #[cfg(target_arch = "x86_64")]
                #[allow(unsafe_code)]
                Node::Popcnt => unsafe { node_popcnt::<P, WHITE>(b, depth, opts, lists, kings) },
                // SAFETY: as above.
                #[cfg(target_arch = "x86_64")]
                #[allow(unsafe_code)]
                Node::Fast => unsafe { node_fast::<Fast<P>, WHITE>(b, depth, opts, lists, kings) },
            }
        }
        with_preset!(pos.variant(), P => {
            if white {
                run::<P, true>(which, pos.boards(), depth, opts, &mut lists, &mut kings)
            } else {
                run::<P, false>(which, pos.boards(), depth, opts, &mut lists, &mut kings)
            }
        })
    }

    /// Every node function the processor can run counts what `perft` counts, on start
    /// positions and on middle games with kings and captures (men crowned mid-capture in
    /// russian, the maximum rule in international).
    #[test]
    fn node_functions_agree() {
        let mut which = vec![Node::Plain];
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("popcnt") {
                which.push(Node::Popcnt);
            }
            if std::arch::is_x86_feature_detected!("popcnt")
                && std::arch::is_x86_feature_detected!("lzcnt")
                && std::arch::is_x86_feature_detected!("bmi1")
                && std::arch::is_x86_feature_detected!("bmi2")
            {
                which.push(Node::Fast);
            }
        }
        let positions = [
            (Variant::International, None, 6, 167_140),
            (Variant::Russian, None, 7, 190_146),
            (Variant::English, None, 7, 179_740),
            (Variant::Brazilian, None, 7, 187_302),
            (
                Variant::International,
                Some("B:WK6,K7,11,12,30,K31,34,35,40,45,46:B2,10,15,20,K26,K32,42,K48"),
                5,
                76_014,
            ),
            (
                Variant::Russian,
                Some("W:WKb8,Kd8,Kg7,Kf6,a3,b2,h2,a1,g1:Bb6,d6,Ka5,c5,d4,h4,e3,Kc1,Ke1"),
                7,
                26_436,
            ),
        ];
        for (variant, fen, depth, expected) in positions {
            let pos = match fen {
                Some(fen) => Position::from_fen(variant, fen).unwrap(),
                None => Position::start(variant),
            };
            for &node in &which {
                assert_eq!(
                    perft_with(&pos, depth, node),
                    expected,
                    "{variant:?} {fen:?} depth {depth} with {node:?}"
                );
            }
        }
    }
}
