//! The AVX-512 micro-kernels and the blocked loops around them, compiled
//! for the instructions they use and entered only when the running CPU has
//! them.

use std::arch::x86_64::*;
use std::cell::RefCell;

use super::pack::{column_fix, pack_a, pack_b};
use super::{KC, MC, MR, NC, NR, Narrow, Task};

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

/// A micro-kernel: `c[..mr, ..nr] (+)= a_strip · b_panel` over `kc` words.
trait Kernel {
    type T: Narrow;
    /// The accumulator (f32 or i32) as its bits' type.
    type Acc: Copy + Default;
    /// Whether the columns take a correction (`fix`) from the packing of B.
    const FIX: bool;
    /// # Safety
    /// `a` holds `kc * MR` words, `b` `kc * NR`, `fix` `NR` (if used); `c`
    /// with row stride `rsc` addresses `mr x nr` elements (column stride 1).
    #[allow(clippy::too_many_arguments)]
    unsafe fn micro(
        kc: usize,
        a: *const u32,
        b: *const u32,
        c: *mut Self::Acc,
        rsc: isize,
        mr: usize,
        nr: usize,
        accumulate: bool,
        fix: *const i32,
    );
    fn add(x: Self::Acc, y: Self::Acc) -> Self::Acc;
    /// The rhs words of `NR` columns of `GROUP` rows (see `pack_b`).
    ///
    /// # Safety
    /// Runs inside the kernel's `#[target_feature]` function.
    unsafe fn interleave(rows: &[&[Self::T; NR]; 4], out: &mut [u32]);
}

/// The lanes of a 16-lane vector holding the first `n` columns.
fn lanes(n: usize) -> u16 {
    if n >= 16 { u16::MAX } else { (1u16 << n) - 1 }
}

struct Bf16;

impl Kernel for Bf16 {
    type T = u16;
    type Acc = f32;
    const FIX: bool = false;
    #[inline(always)]
    unsafe fn micro(
        kc: usize,
        a: *const u32,
        b: *const u32,
        c: *mut f32,
        rsc: isize,
        mr: usize,
        nr: usize,
        accumulate: bool,
        _fix: *const i32,
    ) {
        // SAFETY: the caller runs this inside `run_bf16` (AVX512-BF16).
        unsafe { micro_bf16(kc, a, b, c, rsc, mr, nr, accumulate) }
    }
    fn add(x: f32, y: f32) -> f32 {
        x + y
    }
    #[inline(always)]
    unsafe fn interleave([r0, r1, ..]: &[&[u16; NR]; 4], out: &mut [u32]) {
        for h in 0..NR / 16 {
            // SAFETY: 16 elements of each row, 16 words of out (NR of each).
            unsafe {
                let lo = _mm512_cvtepu16_epi32(_mm256_loadu_si256(r0[16 * h..].as_ptr().cast()));
                let hi = _mm512_cvtepu16_epi32(_mm256_loadu_si256(r1[16 * h..].as_ptr().cast()));
                let w = _mm512_or_si512(lo, _mm512_slli_epi32::<16>(hi));
                _mm512_storeu_si512(out[16 * h..16 * h + 16].as_mut_ptr().cast(), w);
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "avx512f,avx512bw,avx512bf16")]
#[inline]
unsafe fn micro_bf16(
    kc: usize,
    a: *const u32,
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
                let av: __m512bh =
                    std::mem::transmute(_mm512_set1_epi32(*a.add(g * MR + r) as i32));
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
    type T = i8;
    type Acc = i32;
    const FIX: bool = true;
    #[inline(always)]
    unsafe fn micro(
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
        // SAFETY: the caller runs this inside `run_s8` (AVX512-VNNI).
        unsafe { micro_s8(kc, a, b, c, rsc, mr, nr, accumulate, fix) }
    }
    fn add(x: i32, y: i32) -> i32 {
        x.wrapping_add(y)
    }
    #[inline(always)]
    unsafe fn interleave(rows: &[&[i8; NR]; 4], out: &mut [u32]) {
        for h in 0..NR / 16 {
            // SAFETY: 16 elements of each row, 16 words of out (NR of each).
            unsafe {
                let byte = |t: usize| {
                    let r = _mm_loadu_si128(rows[t][16 * h..].as_ptr().cast());
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

/// A thread's packing buffers, kept across calls.
#[derive(Default)]
struct Buffers {
    a: Vec<u32>,
    b: Vec<u32>,
    fix: Vec<i32>,
}

thread_local! {
    static BUFFERS: RefCell<Buffers> = RefCell::new(Buffers::default());
}

/// Runs `task` (of `u16` bf16 or `i8` elements) on its kernel.
///
/// # Safety
/// The task addresses valid buffers; the CPU has the kernel's features
/// (`has_bf16` or `has_vnni`).
pub(super) unsafe fn run<T: Narrow>(task: &Task<T>) {
    use std::any::TypeId;
    // The buffers are taken here, outside the kernels' functions: a
    // closure passed to `with` would be compiled without their features.
    BUFFERS.with(|cell| {
        let bufs = &mut *cell.borrow_mut();
        // SAFETY: T is the task's element type, checked; guaranteed by the caller.
        unsafe {
            if TypeId::of::<T>() == TypeId::of::<u16>() {
                run_bf16(&*(task as *const Task<T> as *const Task<u16>), bufs);
            } else if TypeId::of::<T>() == TypeId::of::<i8>() {
                run_s8(&*(task as *const Task<T> as *const Task<i8>), bufs);
            }
        }
    })
}

#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512bf16")]
unsafe fn run_bf16(task: &Task<u16>, bufs: &mut Buffers) {
    // SAFETY: guaranteed by the caller.
    unsafe { drive::<Bf16>(task, bufs) }
}

#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vnni")]
unsafe fn run_s8(task: &Task<i8>, bufs: &mut Buffers) {
    // SAFETY: guaranteed by the caller.
    unsafe { drive::<S8>(task, bufs) }
}

/// The blocked loops of one task.
///
/// # Safety
/// As [`run`].
#[inline(always)]
unsafe fn drive<K: Kernel>(t: &Task<K::T>, bufs: &mut Buffers) {
    let c = t.c as *mut K::Acc;
    let [rsc, csc] = t.c_strides;
    let ((m0, m1), (n0, n1)) = (t.rows, t.cols);
    let words = t.k.div_ceil(K::T::GROUP);
    if words == 0 {
        for i in m0..m1 {
            for j in n0..n1 {
                // SAFETY: inside the task's part of C.
                unsafe { *c.offset(i as isize * rsc + j as isize * csc) = K::Acc::default() };
            }
        }
        return;
    }
    {
        let Buffers { a, b, fix } = bufs;
        a.resize(MC * KC, 0);
        b.resize(NC.min((n1 - n0).div_ceil(NR) * NR) * KC, 0);
        fix.resize(NC, 0);
        let mut tile = [K::Acc::default(); MR * NR];
        for jc in (n0..n1).step_by(NC) {
            let jend = (jc + NC).min(n1);
            let panels = (jend - jc).div_ceil(NR);
            for pc in (0..words).step_by(KC) {
                let kc = KC.min(words - pc);
                // SAFETY: the task's columns of B.
                unsafe {
                    let interleave =
                        |rows: &[&[K::T; NR]; 4], out: &mut [u32]| K::interleave(rows, out);
                    pack_b(
                        t.b,
                        t.b_strides,
                        t.k,
                        (jc, jend),
                        (pc, pc + kc),
                        b,
                        interleave,
                    )
                };
                if K::FIX {
                    column_fix(b, panels, kc, fix);
                }
                for ic in (m0..m1).step_by(MC) {
                    let iend = (ic + MC).min(m1);
                    let strips = (iend - ic).div_ceil(MR);
                    // SAFETY: the task's rows of A.
                    unsafe { pack_a(t.a, t.a_strides, t.k, (ic, iend), (pc, pc + kc), a) };
                    for p in 0..panels {
                        let j = jc + p * NR;
                        let nr = NR.min(jend - j);
                        let bp = b[p * kc * NR..].as_ptr();
                        let fp = fix[p * NR..].as_ptr();
                        for s in 0..strips {
                            let i = ic + s * MR;
                            let mr = MR.min(iend - i);
                            let ap = a[s * kc * MR..].as_ptr();
                            // SAFETY: inside the task's part of C.
                            let cp = unsafe { c.offset(i as isize * rsc + j as isize * csc) };
                            if csc == 1 {
                                // SAFETY: as `Kernel::micro` requires.
                                unsafe { K::micro(kc, ap, bp, cp, rsc, mr, nr, pc > 0, fp) };
                                continue;
                            }
                            // A strided result (columns apart): through a tile.
                            let tp = tile.as_mut_ptr();
                            // SAFETY: the tile holds MR x NR.
                            unsafe { K::micro(kc, ap, bp, tp, NR as isize, mr, nr, false, fp) };
                            for r in 0..mr {
                                for q in 0..nr {
                                    let v = tile[r * NR + q];
                                    // SAFETY: inside the task's part of C.
                                    unsafe {
                                        let at = cp.offset(r as isize * rsc + q as isize * csc);
                                        *at = if pc > 0 { K::add(*at, v) } else { v };
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
