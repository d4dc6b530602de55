//! The kernels on 8-lane AVX2 vectors with FMA: tiles of up to 2 lhs rows
//! (of the 16 registers: row-major, 8 broadcasts and 4 accumulators;
//! transposed, 8 accumulators, 4 rhs vectors and an lhs one).

use std::arch::x86_64::*;

use super::Lanes;
use crate::skinny::Product;

pub(in crate::skinny) struct Avx2;

/// The mask of the first `n` of 8 lanes (a lane's sign bit selects it).
#[inline(always)]
unsafe fn first(n: usize) -> __m256i {
    // SAFETY: plain arithmetic on registers.
    unsafe {
        let lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        _mm256_cmpgt_epi32(_mm256_set1_epi32(n.min(8) as i32), lane)
    }
}

impl Lanes for Avx2 {
    type V = __m256;
    const L: usize = 8;
    const ROW_MAJOR_ROWS: usize = 2;
    const TRANSPOSED_ROWS: usize = 2;
    #[inline(always)]
    unsafe fn zero() -> __m256 {
        unsafe { _mm256_setzero_ps() }
    }
    #[inline(always)]
    unsafe fn splat(x: f32) -> __m256 {
        unsafe { _mm256_set1_ps(x) }
    }
    #[inline(always)]
    unsafe fn load(p: *const f32, n: usize) -> __m256 {
        // SAFETY: the caller's lanes are readable; masked ones are not read.
        unsafe {
            if n >= 8 {
                _mm256_loadu_ps(p)
            } else {
                _mm256_maskload_ps(p, first(n))
            }
        }
    }
    #[inline(always)]
    unsafe fn store(p: *mut f32, v: __m256, n: usize) {
        // SAFETY: as `load`.
        unsafe {
            if n >= 8 {
                _mm256_storeu_ps(p, v)
            } else {
                _mm256_maskstore_ps(p, first(n), v)
            }
        }
    }
    #[inline(always)]
    unsafe fn fma(a: __m256, b: __m256, c: __m256) -> __m256 {
        unsafe { _mm256_fmadd_ps(a, b, c) }
    }
    #[inline(always)]
    unsafe fn sum(v: __m256) -> f32 {
        // SAFETY: plain arithmetic on registers.
        unsafe {
            let quad = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
            let pair = _mm_add_ps(quad, _mm_movehl_ps(quad, quad));
            _mm_cvtss_f32(_mm_add_ss(pair, _mm_shuffle_ps(pair, pair, 1)))
        }
    }
    #[inline(always)]
    unsafe fn store_sums(p: *mut f32, v: &[__m256; 4]) {
        // SAFETY: p..p + 4 is writable (guaranteed by the caller).
        unsafe { _mm_storeu_ps(p, sums(v)) }
    }
}

/// The sums of the lanes of four vectors: pairs added within each 128-bit
/// half twice over (`vhaddps`) leave each half holding its part of all four
/// sums, and the halves are added.
#[inline(always)]
pub(super) unsafe fn sums(v: &[__m256; 4]) -> __m128 {
    // SAFETY: plain arithmetic on registers.
    unsafe {
        let halves = _mm256_hadd_ps(_mm256_hadd_ps(v[0], v[1]), _mm256_hadd_ps(v[2], v[3]));
        _mm_add_ps(
            _mm256_castps256_ps128(halves),
            _mm256_extractf128_ps(halves, 1),
        )
    }
}

/// # Safety
/// As `try_product`; the CPU has AVX2 and FMA.
#[target_feature(enable = "avx2,fma")]
pub(in crate::skinny) unsafe fn run(p: &Product) {
    // SAFETY: guaranteed by the caller.
    unsafe { super::run::<Avx2>(p) }
}
