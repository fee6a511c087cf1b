//! Zobrist hashing of positions (pieces and side to move) for repetition detection.

use crate::position::Position;
use crate::rules::Color;
use crate::square::bits;

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// Keys for [white man, white king, black man, black king] x 64 bits, fixed at compile time
/// so hashes are stable across runs.
const KEYS: [[u64; 64]; 4] = {
    let mut keys = [[0u64; 64]; 4];
    let mut state = 0x0DA4_4A00_D4A4_4A00;
    let mut kind = 0;
    while kind < 4 {
        let mut bit = 0;
        while bit < 64 {
            let (next, value) = splitmix64(state);
            state = next;
            keys[kind][bit] = value;
            bit += 1;
        }
        kind += 1;
    }
    keys
};

const BLACK_TO_MOVE: u64 = splitmix64(0x5EED).1;

/// The Zobrist hash of a position.
pub fn hash(position: &Position) -> u64 {
    let b = position.boards();
    let sets = [
        b.white & !b.kings,
        b.white & b.kings,
        b.black & !b.kings,
        b.black & b.kings,
    ];
    let mut h = if position.side_to_move() == Color::Black {
        BLACK_TO_MOVE
    } else {
        0
    };
    for (kind, set) in sets.into_iter().enumerate() {
        for bit in bits(set) {
            h ^= KEYS[kind][bit as usize];
        }
    }
    h
}
