//! Compact storage for the matching of a large round ([`super::blossom`]): the edge weights
//! of all pairs of players, and the representative edges of the blossoms.
//!
//! Stored plainly, 5,000 players took 2 GB: a wide integer per ordered pair of vertices, and
//! a representative edge and an entry vertex for every pair of (super) vertices, blossoms
//! included, though only the blossoms' rows differ from the identity.

use super::bigint::Big;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The weights of all pairs of vertices, each stored in 8 bytes: its low 32 bits, and the
/// index of the rest (the weight with those bits cleared) in a table of the distinct values.
/// The criteria leave their lowest bits to the orderings within a bracket, so a round has
/// few distinct high parts however many players it has.
pub struct WeightTable<const N: usize> {
    stride: usize,
    /// High-part index << 32 | low 32 bits; zero is the weight zero (no edge).
    cells: Vec<u64>,
    /// Distinct high parts; index 0 is zero.
    highs: Vec<Big<N>>,
    index: HashMap<Big<N>, u32, BuildHasherDefault<LimbHasher>>,
}

const LOW_MASK: u64 = 0xffff_ffff;

impl<const N: usize> WeightTable<N> {
    /// A `size × size` table of zeros.
    pub fn new(size: usize) -> Self {
        let mut index = HashMap::default();
        index.insert(Big::ZERO, 0);
        WeightTable {
            stride: size,
            cells: vec![0; size * size],
            highs: vec![Big::ZERO],
            index,
        }
    }

    #[inline(always)]
    pub fn get(&self, a: usize, b: usize) -> Big<N> {
        let cell = self.cells[a * self.stride + b];
        let mut w = self.highs[(cell >> 32) as usize];
        w.0[0] |= cell & LOW_MASK;
        w
    }

    #[inline(always)]
    pub fn is_zero(&self, a: usize, b: usize) -> bool {
        self.cells[a * self.stride + b] == 0
    }

    /// Sets the weight of {a, b} (both orders).
    pub fn set(&mut self, a: usize, b: usize, w: &Big<N>) {
        let mut high = *w;
        high.0[0] &= !LOW_MASK;
        let next = self.highs.len() as u32;
        let idx = *self.index.entry(high).or_insert(next);
        if idx == next {
            self.highs.push(high);
        }
        let cell = (u64::from(idx) << 32) | (w.0[0] & LOW_MASK);
        self.cells[a * self.stride + b] = cell;
        self.cells[b * self.stride + a] = cell;
    }
}

/// A multiply-rotate hasher for the limbs of a weight: the standard SipHash made interning
/// the weights of a large round a good part of its time.
#[derive(Default)]
pub struct LimbHasher(u64);

impl Hasher for LimbHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }
}

/// The blossoms' representative edges and entry vertices, for vertices `1..=n` (real) and
/// blossoms `n+1..` (1-based, 0 = none). Between real vertices the representative edge is
/// the edge itself, and a real vertex is its own entry, so only rows of blossoms are kept,
/// allocated as blossoms are made. Edges are kept for one direction: the representative
/// edge from y to x is always that from x to y reversed.
pub struct BlossomEdges {
    n: usize,
    /// Blossom slots allocated.
    slots: usize,
    /// `(slot, real x)`: the vertex of the blossom on its best edge to x (x itself being
    /// the other end), 0 for none.
    to_real: Vec<u32>,
    /// `(slot, slot)`: the best edge between two blossoms, `slots × slots`.
    between: Vec<(u32, u32)>,
    /// `(slot, real x)`: the child of the blossom that contains x, 0 if none.
    entry: Vec<u32>,
}

impl BlossomEdges {
    pub fn new(n: usize) -> Self {
        BlossomEdges {
            n,
            slots: 0,
            to_real: Vec::new(),
            between: Vec::new(),
            entry: Vec::new(),
        }
    }

    fn slot(&self, b: usize) -> usize {
        b - self.n - 1
    }

    /// The representative edge from (super) vertex x to y, `(0, 0)` when none.
    #[inline(always)]
    pub fn edge(&self, x: usize, y: usize) -> (usize, usize) {
        let n = self.n;
        match (x > n, y > n) {
            (false, false) => (x, y),
            (true, false) => match self.to_real[self.slot(x) * (n + 1) + y] {
                0 => (0, 0),
                inner => (inner as usize, y),
            },
            (false, true) => match self.to_real[self.slot(y) * (n + 1) + x] {
                0 => (0, 0),
                inner => (x, inner as usize),
            },
            (true, true) => {
                let (u, v) = self.between[self.slot(x) * self.slots + self.slot(y)];
                (u as usize, v as usize)
            }
        }
    }

    /// Sets the representative edge from x to y to `e` (and from y to x to `e` reversed);
    /// at least one of them is a blossom.
    pub fn set_pair(&mut self, x: usize, y: usize, e: (usize, usize)) {
        let n = self.n;
        match (x > n, y > n) {
            (true, false) => {
                let i = self.slot(x) * (n + 1) + y;
                self.to_real[i] = e.0 as u32;
            }
            (false, true) => {
                let i = self.slot(y) * (n + 1) + x;
                self.to_real[i] = e.1 as u32;
            }
            (true, true) => {
                let (sx, sy) = (self.slot(x), self.slot(y));
                self.between[sx * self.slots + sy] = (e.0 as u32, e.1 as u32);
                self.between[sy * self.slots + sx] = (e.1 as u32, e.0 as u32);
            }
            (false, false) => debug_assert!(false, "edges between real vertices are fixed"),
        }
    }

    /// The child of (super) vertex b that contains real vertex x (0 if none).
    #[inline]
    pub fn flo_from(&self, b: usize, x: usize) -> usize {
        if b <= self.n {
            return if b == x { b } else { 0 };
        }
        self.entry[self.slot(b) * (self.n + 1) + x] as usize
    }

    /// Blossom b (with `nx` the highest vertex in use) is being made: no edges, no children.
    pub fn open_blossom(&mut self, b: usize, nx: usize) {
        let needed = nx - self.n;
        if needed > self.slots {
            self.grow(needed);
        }
        let row = self.n + 1;
        let s = self.slot(b);
        self.to_real[s * row..(s + 1) * row].fill(0);
        self.entry[s * row..(s + 1) * row].fill(0);
        for t in 0..self.slots {
            self.between[s * self.slots + t] = (0, 0);
            self.between[t * self.slots + s] = (0, 0);
        }
    }

    /// Child `child` of blossom b: b is entered through it wherever the child is.
    pub fn inherit_flo_from(&mut self, b: usize, child: usize) {
        let row = self.n + 1;
        let s = self.slot(b);
        if child <= self.n {
            self.entry[s * row + child] = child as u32;
            return;
        }
        let c = self.slot(child);
        for x in 1..=self.n {
            if self.entry[c * row + x] != 0 {
                self.entry[s * row + x] = child as u32;
            }
        }
    }

    fn grow(&mut self, needed: usize) {
        // A quarter more each time: the `between` matrix is copied on growth, and a round
        // of 5,000 players needs about 2,500 slots at once.
        let slots = needed
            .max(self.slots + self.slots / 4 + 16)
            .min(self.n.max(needed));
        let row = self.n + 1;
        self.to_real.resize(slots * row, 0);
        self.entry.resize(slots * row, 0);
        let mut between = vec![(0, 0); slots * slots];
        for a in 0..self.slots {
            for c in 0..self.slots {
                between[a * slots + c] = self.between[a * self.slots + c];
            }
        }
        self.between = between;
        self.slots = slots;
    }
}
