//! Fixed-width unsigned integers used as edge weights and dual variables of the matching.
//!
//! The Dutch criteria are encoded as one integer per edge whose bit fields, from the most
//! significant down, hold the criteria in priority order; a tournament of n players needs
//! a few hundred to a few thousand bits. `N` is the number of 64-bit limbs, little-endian.

use std::cmp::Ordering;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Big<const N: usize>(pub [u64; N]);

impl<const N: usize> Default for Big<N> {
    fn default() -> Self {
        Self::ZERO
    }
}

impl<const N: usize> Big<N> {
    pub const ZERO: Self = Big([0; N]);

    pub fn from_u64(v: u64) -> Self {
        let mut r = Self::ZERO;
        r.0[0] = v;
        r
    }

    /// 2^bits - 1.
    pub fn ones(bits: usize) -> Self {
        let mut r = Self::ZERO;
        for i in 0..N {
            let lo = i * 64;
            if bits >= lo + 64 {
                r.0[i] = u64::MAX;
            } else if bits > lo {
                r.0[i] = (1u64 << (bits - lo)) - 1;
            }
        }
        r
    }

    #[inline]
    pub fn is_zero(&self) -> bool {
        self.0.iter().fold(0, |acc, l| acc | l) == 0
    }

    /// Sets bit `bit` (which must be below 64·N).
    pub fn set_bit(&mut self, bit: usize) {
        self.0[bit / 64] |= 1u64 << (bit % 64);
    }

    /// 2^bit.
    pub fn pow2(bit: usize) -> Self {
        let mut r = Self::ZERO;
        r.set_bit(bit);
        r
    }

    pub fn shl(&mut self, bits: usize) {
        if bits == 0 {
            return;
        }
        let limbs = bits / 64;
        let rem = bits % 64;
        for i in (0..N).rev() {
            let mut v = 0u64;
            if i >= limbs {
                v = self.0[i - limbs] << rem;
                if rem > 0 && i > limbs {
                    v |= self.0[i - limbs - 1] >> (64 - rem);
                }
            }
            self.0[i] = v;
        }
    }

    pub fn shr1(&mut self) {
        for i in 0..N {
            let hi = if i + 1 < N { self.0[i + 1] << 63 } else { 0 };
            self.0[i] = (self.0[i] >> 1) | hi;
        }
    }

    #[inline]
    pub fn add_assign(&mut self, o: &Self) {
        // Written with u128 sums so that the compiler emits one add-with-carry chain.
        let mut carry = 0u128;
        for i in 0..N {
            let s = u128::from(self.0[i]) + u128::from(o.0[i]) + carry;
            self.0[i] = s as u64;
            carry = s >> 64;
        }
    }

    #[inline]
    pub fn sub_assign(&mut self, o: &Self) {
        let mut borrow = 0u64;
        for i in 0..N {
            let (d, b1) = self.0[i].overflowing_sub(o.0[i]);
            let (d, b2) = d.overflowing_sub(borrow);
            self.0[i] = d;
            borrow = u64::from(b1 | b2);
        }
    }

    /// `a + b - c` in one pass (the slack of an edge: two duals minus its weight).
    #[inline]
    pub fn sum_minus(a: &Self, b: &Self, c: &Self) -> Self {
        let mut r = Self::ZERO;
        let mut carry = 0u128;
        let mut borrow = 0u64;
        for i in 0..N {
            let s = u128::from(a.0[i]) + u128::from(b.0[i]) + carry;
            carry = s >> 64;
            let (d, b1) = (s as u64).overflowing_sub(c.0[i]);
            let (d, b2) = d.overflowing_sub(borrow);
            r.0[i] = d;
            borrow = u64::from(b1 | b2);
        }
        r
    }

    pub fn add_small(&mut self, v: u64) {
        self.add_assign(&Self::from_u64(v));
    }

    pub fn sub_small(&mut self, v: u64) {
        self.sub_assign(&Self::from_u64(v));
    }

    pub fn or_small(&mut self, v: u64) {
        self.0[0] |= v;
    }

    pub fn plus(mut self, o: &Self) -> Self {
        self.add_assign(o);
        self
    }

    pub fn minus(mut self, o: &Self) -> Self {
        self.sub_assign(o);
        self
    }

    /// Bits needed to represent the value.
    pub fn bit_len(&self) -> usize {
        for i in (0..N).rev() {
            if self.0[i] != 0 {
                return i * 64 + 64 - self.0[i].leading_zeros() as usize;
            }
        }
        0
    }
}

impl<const N: usize> PartialOrd for Big<N> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<const N: usize> Ord for Big<N> {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        for i in (0..N).rev() {
            match self.0[i].cmp(&other.0[i]) {
                Ordering::Equal => {}
                o => return o,
            }
        }
        Ordering::Equal
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_across_limbs() {
        let mut a = Big::<2>::from_u64(u64::MAX);
        a.add_small(1);
        assert_eq!(a.0, [0, 1]);
        a.sub_small(1);
        assert_eq!(a.0, [u64::MAX, 0]);
        let mut b = Big::<2>::from_u64(3);
        b.shl(63);
        assert_eq!(b.0, [1 << 63, 1]);
        b.shr1();
        assert_eq!(b.0, [3 << 62, 0]);
        assert_eq!(Big::<2>::ones(70).bit_len(), 70);
        assert!(Big::<2>::pow2(64) > Big::<2>::from_u64(u64::MAX));
        let (a, b) = (Big::<2>([u64::MAX, 0]), Big::<2>([1, 0]));
        assert_eq!(Big::sum_minus(&a, &b, &Big([1, 0])).0, [u64::MAX, 0]);
        assert_eq!(Big::sum_minus(&a, &a, &Big([0, 1])).0, [u64::MAX - 1, 0]);
    }
}
