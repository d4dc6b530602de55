//! The 6 x 16 micro-kernels of [`super`] on AVX2 and FMA: twelve 8-lane
//! accumulators (6 rows of two vectors), two vectors of the rhs panel and a
//! broadcast lhs element per step; 12 FMAs per 8 loads, inside what Zen 3
//! and Intel cores since Haswell issue per cycle.

use std::arch::x86_64::*;

use super::{MR, NR};

/// [`rows_tile`] prefetches nothing ahead.
pub(super) const PREFETCH_NOTHING: u8 = 0;
/// [`rows_tile`] prefetches the next six lhs rows, a line of each every 16
/// steps.
pub(super) const PREFETCH_LHS: u8 = 1;
/// [`rows_tile`] prefetches the next packed rhs panel, a line per step.
pub(super) const PREFETCH_RHS: u8 = 2;

/// One step: both rhs vectors, then each lhs element broadcast into its
/// row's two FMAs (a macro rather than a closure, which would not inherit
/// the target features). The accumulators stay in registers.
macro_rules! step {
    ($acc:ident, $b:expr, |$row:ident| $a:expr) => {{
        let b: *const f32 = $b;
        let b0 = _mm256_loadu_ps(b);
        let b1 = _mm256_loadu_ps(b.add(8));
        for $row in 0..MR {
            let x = _mm256_broadcast_ss(&*$a);
            $acc[$row][0] = _mm256_fmadd_ps(x, b0, $acc[$row][0]);
            $acc[$row][1] = _mm256_fmadd_ps(x, b1, $acc[$row][1]);
        }
    }};
}

/// `c[0..6][0..16] = a · b` (or `+=` when `accumulate`) with the lhs rows
/// where they lie: row `r`, step `p` at `a + r * rsa + p`; `b` a packed
/// panel of `k` steps of 16 elements. `next` is what `PREFETCH` names
/// (same layout as `a` or `b`), `tile` this tile and the next call's; c
/// has row stride `rsc`.
///
/// # Safety
/// The CPU has AVX2 and FMA; `a` addresses six rows of `k` floats, `b`
/// `16k` floats, `tile[0]` a 6 x 16 tile. `next` and `tile[1]` are only
/// prefetched (any address).
#[target_feature(enable = "avx2,fma")]
pub(super) unsafe fn rows_tile<const PREFETCH: u8>(
    k: usize,
    [a, next]: [*const f32; 2],
    rsa: usize,
    b: *const f32,
    tile: [*mut f32; 2],
    rsc: usize,
    accumulate: bool,
) {
    // SAFETY: the loads and stores stay inside the panels and the tile
    // (guaranteed by the caller); prefetches never fault.
    unsafe {
        prefetch_tiles(tile, rsc);
        let rows: [*const f32; MR] = std::array::from_fn(|r| a.wrapping_add(r * rsa));
        let mut acc = start(tile[0], rsc, accumulate);
        let mut p = 0;
        while p + 4 <= k {
            if PREFETCH == PREFETCH_LHS && p % 16 == 0 {
                for r in 0..MR {
                    _mm_prefetch::<_MM_HINT_T0>(next.wrapping_add(r * rsa + p) as *const i8);
                }
            }
            if PREFETCH == PREFETCH_RHS {
                for line in 0..4 {
                    _mm_prefetch::<_MM_HINT_T0>(next.wrapping_add((p + line) * NR) as *const i8);
                }
            }
            step!(acc, b.add(p * NR), |row| rows[row].add(p));
            step!(acc, b.add((p + 1) * NR), |row| rows[row].add(p + 1));
            step!(acc, b.add((p + 2) * NR), |row| rows[row].add(p + 2));
            step!(acc, b.add((p + 3) * NR), |row| rows[row].add(p + 3));
            p += 4;
        }
        while p < k {
            step!(acc, b.add(p * NR), |row| rows[row].add(p));
            p += 1;
        }
        store(acc, tile[0], rsc);
    }
}

/// As [`rows_tile`] with the lhs packed step-major: row `r`, step `p` at
/// `a + p * MR + r`.
///
/// # Safety
/// As [`rows_tile`], `a` addressing `6k` floats.
#[target_feature(enable = "avx2,fma")]
pub(super) unsafe fn packed_tile(
    k: usize,
    a: *const f32,
    b: *const f32,
    tile: [*mut f32; 2],
    rsc: usize,
    accumulate: bool,
) {
    // SAFETY: as in `rows_tile`.
    unsafe {
        prefetch_tiles(tile, rsc);
        let mut acc = start(tile[0], rsc, accumulate);
        for p in 0..k {
            step!(acc, b.add(p * NR), |row| a.add(p * MR + row));
        }
        store(acc, tile[0], rsc);
    }
}

/// Prefetches the lines of this tile and the next call's: their misses
/// otherwise cost ~20% at k = 256.
#[inline(always)]
fn prefetch_tiles(tiles: [*mut f32; 2], rsc: usize) {
    for tile in tiles {
        for row in 0..MR {
            let line = tile.wrapping_add(row * rsc) as *const i8;
            // SAFETY: prefetches never fault; SSE is part of x86-64.
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(line);
                _mm_prefetch::<_MM_HINT_T0>(line.wrapping_add(4 * NR - 4));
            }
        }
    }
}

/// The accumulators at the start of a tile: zero, or the tile itself when
/// `accumulate` (a later depth block). Continuing the sum of the earlier
/// blocks, rather than adding this block's sum to it, makes every element
/// the same chain of FMAs in the order of k whatever the blocking: 100
/// Adam steps of an MLP, whose ReLUs amplify rounding, ended 1.7e-2 away
/// from XLA:CPU with partial sums added and 5e-6 with the gemm crate's
/// (sequential) order.
///
/// # Safety
/// `c` addresses a 6 x 16 tile with row stride `rsc`; the CPU has AVX.
#[inline(always)]
unsafe fn start(c: *const f32, rsc: usize, accumulate: bool) -> [[__m256; 2]; MR] {
    // SAFETY: guaranteed by the caller.
    std::array::from_fn(|row| unsafe {
        let r = c.add(row * rsc);
        if accumulate {
            [_mm256_loadu_ps(r), _mm256_loadu_ps(r.add(8))]
        } else {
            [_mm256_setzero_ps(); 2]
        }
    })
}

/// Writes the accumulators into the tile.
///
/// # Safety
/// `c` addresses a 6 x 16 tile with row stride `rsc`; the CPU has AVX.
#[inline(always)]
unsafe fn store(acc: [[__m256; 2]; MR], c: *mut f32, rsc: usize) {
    // SAFETY: guaranteed by the caller.
    unsafe {
        for (row, [lo, hi]) in acc.into_iter().enumerate() {
            let r = c.add(row * rsc);
            _mm256_storeu_ps(r, lo);
            _mm256_storeu_ps(r.add(8), hi);
        }
    }
}
