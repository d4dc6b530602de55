//! Eight f32 lanes in an AVX register, for the plans' `exec_lanes` on
//! CPUs with AVX2: the operations of `Pack<f32, 8>` lane by lane (IEEE
//! add, subtract, multiply, a sign flip: the same bits), written as the
//! instructions. From `Pack`'s arrays of eight floats the compiler built
//! many vectors piecewise through the stack: a fifth of a strided complex
//! pass's instructions were stack moves and lane inserts, and a
//! 16 x 256 x 256 rfft2 took 1.7x the time it takes with this type
//! (AMD EPYC Zen 3, 2 threads).
//!
//! Values of [`F32x8`] are reached only through [`as_f32x8`], which checks
//! the running CPU first: the operations' `unsafe` rests on that.

use std::arch::x86_64::{
    __m256, _mm256_add_ps, _mm256_mul_ps, _mm256_set1_ps, _mm256_setzero_ps, _mm256_sub_ps,
    _mm256_xor_ps,
};
use std::ops::{Add, Mul, Neg, Sub};

use super::{Cx, LANES, Lane, Pack};

/// Eight f32 lanes, laid out as `Pack<f32, 8>`.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub struct F32x8(__m256);

const _: () = assert!(LANES == 8);
const _: () = assert!(size_of::<F32x8>() == size_of::<Pack<f32, LANES>>());
const _: () = assert!(align_of::<F32x8>() == align_of::<Pack<f32, LANES>>());

macro_rules! lanewise {
    ($tr:ident, $f:ident, $intrinsic:ident) => {
        impl $tr for F32x8 {
            type Output = Self;
            #[inline(always)]
            fn $f(self, o: Self) -> Self {
                // SAFETY: the CPU has AVX (module comment).
                F32x8(unsafe { $intrinsic(self.0, o.0) })
            }
        }
    };
}
lanewise!(Add, add, _mm256_add_ps);
lanewise!(Sub, sub, _mm256_sub_ps);
lanewise!(Mul, mul, _mm256_mul_ps);

impl Neg for F32x8 {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        // The sign bit flipped, as a scalar negation does.
        // SAFETY: the CPU has AVX (module comment).
        F32x8(unsafe { _mm256_xor_ps(self.0, _mm256_set1_ps(-0.0)) })
    }
}

impl Default for F32x8 {
    #[inline(always)]
    fn default() -> Self {
        // SAFETY: the CPU has AVX (module comment).
        F32x8(unsafe { _mm256_setzero_ps() })
    }
}

impl Lane<f32> for F32x8 {
    #[inline(always)]
    fn splat(v: f32) -> Self {
        // SAFETY: the CPU has AVX (module comment).
        F32x8(unsafe { _mm256_set1_ps(v) })
    }
}

/// Lanes that [`as_f32x8`] can view as [`F32x8`]: packs of eight f32,
/// alone or as complex values.
///
/// # Safety
/// `Wide` has the layout of `Self` with each `Pack<f32, 8>` an `F32x8`.
pub unsafe trait AsF32x8 {
    type Wide;
}

// SAFETY: F32x8 has Pack<f32, 8>'s size and alignment (asserted above).
unsafe impl AsF32x8 for Pack<f32, LANES> {
    type Wide = F32x8;
}

// SAFETY: Cx is repr(C): two fields of the same layout.
unsafe impl AsF32x8 for Cx<Pack<f32, LANES>> {
    type Wide = Cx<F32x8>;
}

/// The two buffers as [`F32x8`] lanes, if the running CPU has AVX2 (else
/// None). Use them in code compiled for AVX2 and inlined there (not in a
/// closure: one that is not inlined is compiled without AVX, and each
/// operation becomes a call).
#[inline(always)]
pub fn as_f32x8<'a, P: AsF32x8>(
    data: &'a mut [P],
    tmp: &'a mut [P],
) -> Option<(&'a mut [P::Wide], &'a mut [P::Wide])> {
    if !std::arch::is_x86_feature_detected!("avx2") {
        return None;
    }
    let wide = |s: &'a mut [P]| {
        // SAFETY: `P::Wide` has `P`'s layout (the trait's contract); the
        // borrow of `s` is handed over.
        unsafe { std::slice::from_raw_parts_mut(s.as_mut_ptr().cast::<P::Wide>(), s.len()) }
    };
    Some((wide(data), wide(tmp)))
}

#[cfg(test)]
mod tests {
    use super::super::{CPlan, RPlan};
    use super::*;

    /// Eight pseudo-random lines of n floats, as lanes.
    fn lanes(n: usize, seed: u32) -> Vec<Pack<f32, LANES>> {
        let mut s = seed;
        (0..n)
            .map(|_| {
                Pack(std::array::from_fn(|_| {
                    s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                    (s >> 8) as f32 / (1 << 23) as f32 - 1.0
                }))
            })
            .collect()
    }

    fn bits(v: &[Pack<f32, LANES>]) -> Vec<u32> {
        v.iter().flat_map(|p| p.0.map(f32::to_bits)).collect()
    }

    /// Every complex and real plan (radices 2, 3, 4, 5, 8, the generic odd
    /// one, several passes), both directions, scaled: the same bits on
    /// `F32x8` as on `Pack`.
    #[test]
    fn f32x8_lanes_give_packs_bits() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            // The type is never reached on this CPU.
            let (mut a, mut b) = (lanes(4, 1), lanes(4, 2));
            assert!(as_f32x8(&mut a, &mut b).is_none());
            return;
        }
        for n in [1usize, 2, 3, 5, 8, 12, 30, 64, 100, 120, 256, 1000] {
            let plan = CPlan::<f32>::new(n).expect("covered length");
            for (fwd, fct) in [(true, 1.0), (false, 1.0 / n as f32)] {
                let (r, i) = (lanes(n, 1), lanes(n, 2));
                let mut packs: Vec<Cx<Pack<f32, LANES>>> =
                    r.iter().zip(&i).map(|(&r, &i)| Cx::new(r, i)).collect();
                let mut wide = packs.clone();
                let mut tmp = vec![Cx::default(); n];
                plan.exec_lanes(&mut packs, &mut tmp, fwd, fct);
                let mut tmp2 = tmp.clone();
                let (w, t) = as_f32x8(&mut wide, &mut tmp2).expect("AVX2");
                plan.exec_lanes(w, t, fwd, fct);
                let parts = |v: &[Cx<Pack<f32, LANES>>]| {
                    let (r, i): (Vec<_>, Vec<_>) = v.iter().map(|c| (c.r, c.i)).unzip();
                    (bits(&r), bits(&i))
                };
                assert!(parts(&packs) == parts(&wide), "complex n {n} fwd {fwd}");
            }
        }
        for n in [1usize, 2, 3, 4, 5, 7, 16, 33, 45, 127, 256, 1000] {
            let plan = RPlan::<f32>::new(n).expect("covered length");
            for (fwd, fct) in [(true, 1.0), (false, 1.0 / n as f32)] {
                let mut packs = lanes(n, 3);
                let mut wide = packs.clone();
                let mut tmp = vec![Pack::default(); n];
                plan.exec_lanes(&mut packs, &mut tmp, fwd, fct);
                let mut tmp2 = tmp.clone();
                let (w, t) = as_f32x8(&mut wide, &mut tmp2).expect("AVX2");
                plan.exec_lanes(w, t, fwd, fct);
                assert!(bits(&packs) == bits(&wide), "real n {n} fwd {fwd}");
            }
        }
    }
}
