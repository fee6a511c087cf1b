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

    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|l| *l == 0)
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

    pub fn add_assign(&mut self, o: &Self) {
        let mut carry = false;
        for i in 0..N {
            let (s1, c1) = self.0[i].overflowing_add(o.0[i]);
            let (s2, c2) = s1.overflowing_add(u64::from(carry));
            self.0[i] = s2;
            carry = c1 || c2;
        }
    }

    pub fn sub_assign(&mut self, o: &Self) {
        let mut borrow = false;
        for i in 0..N {
            let (s1, b1) = self.0[i].overflowing_sub(o.0[i]);
            let (s2, b2) = s1.overflowing_sub(u64::from(borrow));
            self.0[i] = s2;
            borrow = b1 || b2;
        }
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
    }
}
