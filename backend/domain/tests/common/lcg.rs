//! A small deterministic generator (64-bit LCG): the same random tournaments and clubs on
//! every run, without a dependency. Shared by the tests and the benchmarks (each uses
//! what it needs of it).
#![allow(dead_code)]

pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// An index in `0..n`.
    pub fn index_below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
