//! The AVX-512 kernels: bf16 pairs on `vdpbf16ps` and i8 quads on
//! `vpdpbusd`, 8 x 32 tiles (16 accumulators of 16 lanes).

use std::arch::x86_64::*;

use super::{Buffers, Kernel, drive, with_buffers};
use crate::narrow_gemm::{Bf16Pairs, ByteQuads, Task};

const MR: usize = 8;
const NR: usize = 32;

pub(super) fn has_bf16() -> bool {
    is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("avx512bw")
        && is_x86_feature_detected!("avx512bf16")
}

pub(super) fn has_vnni() -> bool {
    is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("avx512bw")
        && is_x86_feature_detected!("avx512vnni")
}

/// The lanes of a 16-lane vector holding the first `n` columns.
fn lanes(n: usize) -> u16 {
    if n >= 16 { u16::MAX } else { (1u16 << n) - 1 }
}

struct Bf16;

impl Kernel for Bf16 {
    type Enc = Bf16Pairs;
    type Acc = f32;
    const MR: usize = MR;
    const NR: usize = NR;
    const FIX: bool = false;
    const B_BY_SLABS: bool = true;
    const DIRECT_A: bool = true;
    #[inline(always)]
    unsafe fn micro(
        kc: usize,
        a: *const u32,
        lda: usize,
        b: *const u32,
        c: *mut f32,
        rsc: isize,
        mr: usize,
        nr: usize,
        accumulate: bool,
        _fix: *const i32,
    ) {
        // SAFETY: the caller runs this inside `run_bf16` (AVX512-BF16).
        unsafe {
            match lda {
                0 => micro_bf16::<false>(kc, (a, 0), b, c, rsc, mr, nr, accumulate),
                _ => micro_bf16::<true>(kc, (a, lda), b, c, rsc, mr, nr, accumulate),
            }
        }
    }
    #[inline(always)]
    unsafe fn interleave([r0, r1, ..]: &[*const u16; 4], out: &mut [u32]) {
        for h in 0..NR / 16 {
            // SAFETY: 16 elements of each row, 16 words of out (NR of each).
            unsafe {
                let lo = _mm512_cvtepu16_epi32(_mm256_loadu_si256(r0.add(16 * h).cast()));
                let hi = _mm512_cvtepu16_epi32(_mm256_loadu_si256(r1.add(16 * h).cast()));
                let w = _mm512_or_si512(lo, _mm512_slli_epi32::<16>(hi));
                _mm512_storeu_si512(out[16 * h..16 * h + 16].as_mut_ptr().cast(), w);
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "avx512f,avx512bw,avx512bf16")]
#[inline]
unsafe fn micro_bf16<const IN_PLACE: bool>(
    kc: usize,
    (a, lda): (*const u32, usize),
    b: *const u32,
    c: *mut f32,
    rsc: isize,
    mr: usize,
    nr: usize,
    accumulate: bool,
) {
    let mut acc = [[_mm512_setzero_ps(); 2]; MR];
    for g in 0..kc {
        // SAFETY: inside the packed panel and strip (see `Kernel::micro`).
        unsafe {
            let b0: __m512bh = std::mem::transmute(_mm512_loadu_si512(b.add(g * NR).cast()));
            let b1: __m512bh = std::mem::transmute(_mm512_loadu_si512(b.add(g * NR + 16).cast()));
            for (r, acc) in acc.iter_mut().enumerate() {
                let word = if IN_PLACE { r * lda + g } else { g * MR + r };
                // In place, A is only as aligned as its elements (2 bytes).
                let bits = a.add(word).read_unaligned();
                let av: __m512bh = std::mem::transmute(_mm512_set1_epi32(bits as i32));
                acc[0] = _mm512_dpbf16_ps(acc[0], av, b0);
                acc[1] = _mm512_dpbf16_ps(acc[1], av, b1);
            }
        }
    }
    let masks = [lanes(nr), lanes(nr.saturating_sub(16))];
    for (r, acc) in acc.iter().enumerate().take(mr) {
        for h in 0..2 {
            if masks[h] == 0 {
                continue;
            }
            // SAFETY: row r < mr, masked to the nr columns.
            unsafe {
                let p = c.offset(r as isize * rsc).add(16 * h);
                let mut v = acc[h];
                if accumulate {
                    v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(masks[h], p));
                }
                _mm512_mask_storeu_ps(p, masks[h], v);
            }
        }
    }
}

struct S8;

impl Kernel for S8 {
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
        // SAFETY: the caller runs this inside `run_s8` (AVX512-VNNI).
        unsafe { micro_s8(kc, a, b, c, rsc, mr, nr, accumulate, fix) }
    }
    #[inline(always)]
    unsafe fn interleave(rows: &[*const i8; 4], out: &mut [u32]) {
        for h in 0..NR / 16 {
            // SAFETY: 16 elements of each row, 16 words of out (NR of each).
            unsafe {
                let byte = |t: usize| {
                    let r = _mm_loadu_si128(rows[t].add(16 * h).cast());
                    _mm512_sllv_epi32(_mm512_cvtepu8_epi32(r), _mm512_set1_epi32(8 * t as i32))
                };
                let w = _mm512_or_si512(
                    _mm512_or_si512(byte(0), byte(1)),
                    _mm512_or_si512(byte(2), byte(3)),
                );
                _mm512_storeu_si512(out[16 * h..16 * h + 16].as_mut_ptr().cast(), w);
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
#[inline]
unsafe fn micro_s8(
    kc: usize,
    a: *const u32,
    b: *const u32,
    c: *mut i32,
    rsc: isize,
    mr: usize,
    nr: usize,
    accumulate: bool,
    fix: *const i32,
) {
    let mut acc = [[_mm512_setzero_si512(); 2]; MR];
    for g in 0..kc {
        // SAFETY: inside the packed panel and strip (see `Kernel::micro`).
        unsafe {
            let b0 = _mm512_loadu_si512(b.add(g * NR).cast());
            let b1 = _mm512_loadu_si512(b.add(g * NR + 16).cast());
            for (r, acc) in acc.iter_mut().enumerate() {
                let av = _mm512_set1_epi32(*a.add(g * MR + r) as i32);
                acc[0] = _mm512_dpbusd_epi32(acc[0], av, b0);
                acc[1] = _mm512_dpbusd_epi32(acc[1], av, b1);
            }
        }
    }
    // SAFETY: `fix` holds NR corrections.
    let fixes = unsafe {
        [
            _mm512_loadu_si512(fix.cast()),
            _mm512_loadu_si512(fix.add(16).cast()),
        ]
    };
    let masks = [lanes(nr), lanes(nr.saturating_sub(16))];
    for (r, acc) in acc.iter().enumerate().take(mr) {
        for h in 0..2 {
            if masks[h] == 0 {
                continue;
            }
            // SAFETY: row r < mr, masked to the nr columns.
            unsafe {
                let p = c.offset(r as isize * rsc).add(16 * h);
                let mut v = _mm512_add_epi32(acc[h], fixes[h]);
                if accumulate {
                    v = _mm512_add_epi32(v, _mm512_maskz_loadu_epi32(masks[h], p.cast()));
                }
                _mm512_mask_storeu_epi32(p.cast(), masks[h], v);
            }
        }
    }
}

/// Runs a bf16 task.
///
/// # Safety
/// The task addresses valid buffers; the CPU has [`has_bf16`].
pub(super) unsafe fn run_bf16(task: &Task<u16>) {
    // SAFETY: guaranteed by the caller.
    with_buffers(|bufs| unsafe { bf16_loops(task, bufs) });
}

#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512bf16")]
unsafe fn bf16_loops(task: &Task<u16>, bufs: &mut Buffers) {
    // SAFETY: guaranteed by the caller.
    unsafe { drive::<Bf16>(task, bufs) }
}

/// Runs an i8 task.
///
/// # Safety
/// The task addresses valid buffers; the CPU has [`has_vnni`].
pub(super) unsafe fn run_s8(task: &Task<i8>) {
    // SAFETY: guaranteed by the caller.
    with_buffers(|bufs| unsafe { s8_loops(task, bufs) });
}

#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vnni")]
unsafe fn s8_loops(task: &Task<i8>, bufs: &mut Buffers) {
    // SAFETY: guaranteed by the caller.
    unsafe { drive::<S8>(task, bufs) }
}
