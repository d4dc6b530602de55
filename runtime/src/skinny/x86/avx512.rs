//! The kernels on 16-lane AVX-512 vectors: tiles of up to 4 lhs rows
//! (of the 32 registers: row-major, 16 broadcasts and 8 accumulators;
//! transposed, 16 accumulators and 4 rhs vectors; 6-row transposed tiles
//! spilled and ran 1.4x slower).

use std::arch::x86_64::*;

use super::Lanes;
use crate::skinny::Product;

pub(in crate::skinny) struct Avx512;

/// The mask of the first `n` of 16 lanes.
#[inline(always)]
fn first(n: usize) -> __mmask16 {
    if n >= 16 { u16::MAX } else { (1u16 << n) - 1 }
}

impl Lanes for Avx512 {
    type V = __m512;
    const L: usize = 16;
    const ROW_MAJOR_ROWS: usize = 4;
    const TRANSPOSED_ROWS: usize = 4;
    #[inline(always)]
    unsafe fn zero() -> __m512 {
        unsafe { _mm512_setzero_ps() }
    }
    #[inline(always)]
    unsafe fn splat(x: f32) -> __m512 {
        unsafe { _mm512_set1_ps(x) }
    }
    #[inline(always)]
    unsafe fn load(p: *const f32, n: usize) -> __m512 {
        // SAFETY: the caller's lanes are readable; masked ones are not read.
        unsafe {
            if n >= 16 {
                _mm512_loadu_ps(p)
            } else {
                _mm512_maskz_loadu_ps(first(n), p)
            }
        }
    }
    #[inline(always)]
    unsafe fn store(p: *mut f32, v: __m512, n: usize) {
        // SAFETY: as `load`.
        unsafe {
            if n >= 16 {
                _mm512_storeu_ps(p, v)
            } else {
                _mm512_mask_storeu_ps(p, first(n), v)
            }
        }
    }
    #[inline(always)]
    unsafe fn fma(a: __m512, b: __m512, c: __m512) -> __m512 {
        unsafe { _mm512_fmadd_ps(a, b, c) }
    }
    #[inline(always)]
    unsafe fn sum(v: __m512) -> f32 {
        unsafe { _mm512_reduce_add_ps(v) }
    }
    #[inline(always)]
    unsafe fn store_sums(p: *mut f32, v: &[__m512; 4]) {
        // Each vector's 256-bit halves added, then AVX2's tree.
        // SAFETY: p..p + 4 is writable (guaranteed by the caller).
        unsafe {
            let halves = [halves(v[0]), halves(v[1]), halves(v[2]), halves(v[3])];
            _mm_storeu_ps(p, super::avx2::sums(&halves))
        }
    }
}

/// The sum of a vector's two 256-bit halves.
#[inline(always)]
unsafe fn halves(x: __m512) -> __m256 {
    // SAFETY: plain arithmetic on registers.
    unsafe {
        let high = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(x), 1));
        _mm256_add_ps(_mm512_castps512_ps256(x), high)
    }
}

/// # Safety
/// As `try_product`; the CPU has AVX-512F.
#[target_feature(enable = "avx512f")]
pub(in crate::skinny) unsafe fn run(p: &Product) {
    // SAFETY: guaranteed by the caller.
    unsafe { super::run::<Avx512>(p) }
}
