//! The 256-bit i8 kernels for CPUs without AVX-512: i8 quads on AVX-VNNI's
//! `vpdpbusd`, else i8 pairs widened to i16 on AVX2's `vpmaddwd` (exact:
//! two products of at most 2^14 per i32 lane). 6 x 16 tiles (12
//! accumulators of 8 lanes, of the 16 registers).

use std::arch::x86_64::*;

use super::{Buffers, Kernel, drive, with_buffers};
use crate::narrow_gemm::{ByteQuads, ShortPairs, Task};

const MR: usize = 6;
const NR: usize = 16;

pub(super) fn has_avx2() -> bool {
    is_x86_feature_detected!("avx2")
}

pub(super) fn has_vnni() -> bool {
    is_x86_feature_detected!("avx2") && is_x86_feature_detected!("avxvnni")
}

/// The lanes of an 8-lane vector holding the first `n` columns (all bits
/// set in those lanes).
#[target_feature(enable = "avx2")]
#[inline]
fn lanes(n: usize) -> __m256i {
    let n = n.min(8) as i32;
    _mm256_cmpgt_epi32(
        _mm256_set1_epi32(n),
        _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
    )
}

/// Adds (`fix`, then with `accumulate` the old values) and stores the
/// accumulators of rows `..mr`, columns `..nr`: whole vectors by plain loads
/// and stores, only a partial one masked (AMD's Zen cores run a masked
/// store, `vpmaskmovd`, as a microcoded sequence: masking every vector of
/// full tiles cost a tenth of an int8 product).
///
/// # Safety
/// As `Kernel::micro`.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn store(
    acc: &[[__m256i; 2]; MR],
    c: *mut i32,
    rsc: isize,
    (mr, nr): (usize, usize),
    accumulate: bool,
    fix: Option<*const i32>,
) {
    let masks = [lanes(nr), lanes(nr.saturating_sub(8))];
    for (r, acc) in acc.iter().enumerate().take(mr) {
        for h in 0..2 {
            if nr <= 8 * h {
                continue;
            }
            let whole = nr >= 8 * (h + 1);
            // SAFETY: row r < mr, masked to the nr columns (all 8 of the
            // vector when whole); fix holds NR.
            unsafe {
                let p = c.offset(r as isize * rsc).add(8 * h);
                let mut v = acc[h];
                if let Some(f) = fix {
                    v = _mm256_add_epi32(v, _mm256_loadu_si256(f.add(8 * h).cast()));
                }
                if accumulate {
                    let old = match whole {
                        true => _mm256_loadu_si256(p.cast()),
                        false => _mm256_maskload_epi32(p, masks[h]),
                    };
                    v = _mm256_add_epi32(v, old);
                }
                match whole {
                    true => _mm256_storeu_si256(p.cast(), v),
                    false => _mm256_maskstore_epi32(p, masks[h], v),
                }
            }
        }
    }
}

/// Asks for the lines of a tile's rows of c at the start of its product,
/// `kc` steps before they are written (or read back and added to): c is
/// written a block of k at a time, so its lines were evicted since, and
/// the stores and loads waiting for them were a tenth of an int8 product
/// (a prefetch never faults: any address will do).
#[target_feature(enable = "avx2")]
#[inline]
fn prefetch_tile(c: *mut i32, rsc: isize, mr: usize) {
    for r in 0..mr {
        let row = c.wrapping_offset(r as isize * rsc) as *const i8;
        _mm_prefetch::<_MM_HINT_T0>(row);
        _mm_prefetch::<_MM_HINT_T0>(row.wrapping_add(4 * NR - 1));
    }
}

struct Madd;

impl Kernel for Madd {
    type Enc = ShortPairs;
    type Acc = i32;
    const MR: usize = MR;
    const NR: usize = NR;
    const FIX: bool = false;
    #[inline(always)]
    unsafe fn micro(
        kc: usize,
        a: *const u32,
        lda: usize,
        b: *const u32,
        c: *mut i32,
        rsc: isize,
        mr: usize,
        nr: usize,
        accumulate: bool,
        _fix: *const i32,
    ) {
        // A packed strip: the i8 kernels never read A in place (`DIRECT_A`).
        debug_assert_eq!(lda, 0);
        // SAFETY: the caller runs this inside `madd_loops` (AVX2).
        unsafe { micro_madd(kc, a, b, c, rsc, (mr, nr), accumulate) }
    }
    #[inline(always)]
    unsafe fn interleave([r0, r1, ..]: &[*const i8; 4], out: &mut [u32]) {
        // SAFETY: NR elements of each row, NR words of `out`; the caller
        // runs this inside `madd_loops` (AVX2).
        unsafe { interleave_pairs(*r0, *r1, out) }
    }
}

/// Word j of `out` = `x[j]` and `y[j]` widened to i16 (low, high half) for
/// the `NR` columns: the packing of B's rows for `vpmaddwd`. Element by
/// element it took a sixth of an int8 product (512 x 1024 x 1024).
///
/// # Safety
/// `x` and `y` hold `NR` (16) elements, `out` at least `NR` words.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn interleave_pairs(x: *const i8, y: *const i8, out: &mut [u32]) {
    debug_assert!(out.len() >= NR);
    // SAFETY: as the function's contract.
    unsafe {
        let x = _mm256_cvtepi8_epi16(_mm_loadu_si128(x.cast()));
        let y = _mm256_cvtepi8_epi16(_mm_loadu_si128(y.cast()));
        // Per 128-bit half: words 0-3 and 8-11 (lo), 4-7 and 12-15 (hi).
        let lo = _mm256_unpacklo_epi16(x, y);
        let hi = _mm256_unpackhi_epi16(x, y);
        let o = out.as_mut_ptr();
        _mm256_storeu_si256(o.cast(), _mm256_permute2x128_si256::<0x20>(lo, hi));
        _mm256_storeu_si256(o.add(8).cast(), _mm256_permute2x128_si256::<0x31>(lo, hi));
    }
}

#[target_feature(enable = "avx2")]
#[inline]
unsafe fn micro_madd(
    kc: usize,
    a: *const u32,
    b: *const u32,
    c: *mut i32,
    rsc: isize,
    tile: (usize, usize),
    accumulate: bool,
) {
    prefetch_tile(c, rsc, tile.0);
    let mut acc = [[_mm256_setzero_si256(); 2]; MR];
    for g in 0..kc {
        // SAFETY: inside the packed panel and strip (see `Kernel::micro`).
        unsafe {
            let b0 = _mm256_loadu_si256(b.add(g * NR).cast());
            let b1 = _mm256_loadu_si256(b.add(g * NR + 8).cast());
            for (r, acc) in acc.iter_mut().enumerate() {
                let av = _mm256_set1_epi32(*a.add(g * MR + r) as i32);
                acc[0] = _mm256_add_epi32(acc[0], _mm256_madd_epi16(av, b0));
                acc[1] = _mm256_add_epi32(acc[1], _mm256_madd_epi16(av, b1));
            }
        }
    }
    // SAFETY: as `Kernel::micro`.
    unsafe { store(&acc, c, rsc, tile, accumulate, None) }
}

struct Vnni;

impl Kernel for Vnni {
    type Enc = ByteQuads;
    type Acc = i32;
    const MR: usize = MR;
    const NR: usize = NR;
    const FIX: bool = true;
    #[inline(always)]
    unsafe fn micro(
        kc: usize,
        a: *const u32,
        lda: usize,
        b: *const u32,
        c: *mut i32,
        rsc: isize,
        mr: usize,
        nr: usize,
        accumulate: bool,
        fix: *const i32,
    ) {
        // A packed strip: the i8 kernels never read A in place (`DIRECT_A`).
        debug_assert_eq!(lda, 0);
        // SAFETY: the caller runs this inside `vnni_loops` (AVX-VNNI).
        unsafe { micro_vnni(kc, a, b, c, rsc, (mr, nr), accumulate, fix) }
    }
    #[inline(always)]
    unsafe fn interleave(rows: &[*const i8; 4], out: &mut [u32]) {
        for (j, o) in out.iter_mut().enumerate().take(NR) {
            // SAFETY: NR elements of each of the four rows.
            let byte = |t: usize| unsafe { (*rows[t].add(j) as u8 as u32) << (8 * t) };
            *o = byte(0) | byte(1) | byte(2) | byte(3);
        }
    }
}

#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "avx2,avxvnni")]
#[inline]
unsafe fn micro_vnni(
    kc: usize,
    a: *const u32,
    b: *const u32,
    c: *mut i32,
    rsc: isize,
    tile: (usize, usize),
    accumulate: bool,
    fix: *const i32,
) {
    prefetch_tile(c, rsc, tile.0);
    let mut acc = [[_mm256_setzero_si256(); 2]; MR];
    for g in 0..kc {
        // SAFETY: inside the packed panel and strip (see `Kernel::micro`).
        unsafe {
            let b0 = _mm256_loadu_si256(b.add(g * NR).cast());
            let b1 = _mm256_loadu_si256(b.add(g * NR + 8).cast());
            for (r, acc) in acc.iter_mut().enumerate() {
                let av = _mm256_set1_epi32(*a.add(g * MR + r) as i32);
                acc[0] = _mm256_dpbusd_avx_epi32(acc[0], av, b0);
                acc[1] = _mm256_dpbusd_avx_epi32(acc[1], av, b1);
            }
        }
    }
    // SAFETY: as `Kernel::micro`.
    unsafe { store(&acc, c, rsc, tile, accumulate, Some(fix)) }
}

/// Runs an i8 task on `vpmaddwd`.
///
/// # Safety
/// The task addresses valid buffers; the CPU has [`has_avx2`].
pub(super) unsafe fn run_madd(task: &Task<i8>) {
    // SAFETY: guaranteed by the caller.
    with_buffers(|bufs| unsafe { madd_loops(task, bufs) });
}

#[target_feature(enable = "avx2")]
unsafe fn madd_loops(task: &Task<i8>, bufs: &mut Buffers) {
    // SAFETY: guaranteed by the caller.
    unsafe { drive::<Madd>(task, bufs) }
}

/// Runs an i8 task on AVX-VNNI.
///
/// # Safety
/// The task addresses valid buffers; the CPU has [`has_vnni`].
pub(super) unsafe fn run_vnni(task: &Task<i8>) {
    // SAFETY: guaranteed by the caller.
    with_buffers(|bufs| unsafe { vnni_loops(task, bufs) });
}

#[target_feature(enable = "avx2,avxvnni")]
unsafe fn vnni_loops(task: &Task<i8>, bufs: &mut Buffers) {
    // SAFETY: guaranteed by the caller.
    unsafe { drive::<Vnni>(task, bufs) }
}
