//! The x86 kernels and the blocked loops around them. Each kernel's loops
//! are compiled inside a `#[target_feature]` function for its instructions
//! and entered only when the running CPU has them.

mod avx2;
mod avx512;

use std::cell::RefCell;

use super::pack::{column_fix, pack_a, pack_b};
use super::{Encoding, KC, MC, NC, Runner, Task};

/// A micro-kernel: `c[..mr, ..nr] (+)= a_strip · b_panel` over `kc` words.
pub(super) trait Kernel {
    type Enc: Encoding;
    /// The accumulator (f32 or i32).
    type Acc: Acc;
    /// Rows and columns of the tile (`MR * NR <= TILE`).
    const MR: usize;
    const NR: usize;
    /// Whether the columns take a correction (`fix`) from the packing of B.
    const FIX: bool;
    /// Whether tasks of few rows pack B a slab at a time (see `drive`).
    const B_BY_SLABS: bool = false;
    /// Whether the micro-kernel reads A in place (`lda > 0`) when its rows
    /// are words of the encoding as stored.
    const DIRECT_A: bool = false;
    /// # Safety
    /// `a` holds `kc * MR` words (a packed strip; `lda == 0`), or, with
    /// `DIRECT_A`, `MR` rows `lda` words apart of `kc` words each; `b`
    /// holds `kc * NR` words, `fix` `NR` (if used); `c`
    /// with row stride `rsc` addresses `mr x nr` elements (column stride 1);
    /// runs inside the kernel's `#[target_feature]` function.
    #[allow(clippy::too_many_arguments)]
    unsafe fn micro(
        kc: usize,
        a: *const u32,
        lda: usize,
        b: *const u32,
        c: *mut Self::Acc,
        rsc: isize,
        mr: usize,
        nr: usize,
        accumulate: bool,
        fix: *const i32,
    );
    /// The rhs words of `NR` columns of `GROUP` rows (see `pack_b`).
    ///
    /// # Safety
    /// Each of the first `GROUP` rows holds `NR` elements; runs inside the
    /// kernel's `#[target_feature]` function.
    unsafe fn interleave(rows: &[*const <Self::Enc as Encoding>::Elem; 4], out: &mut [u32]);
}

/// A kernel's accumulator: its sum of two values (i32 sums wrap, as XLA's).
pub(super) trait Acc: Copy + Default {
    fn sum(self, other: Self) -> Self;
}

impl Acc for f32 {
    fn sum(self, other: f32) -> f32 {
        self + other
    }
}

impl Acc for i32 {
    fn sum(self, other: i32) -> i32 {
        self.wrapping_add(other)
    }
}

/// The largest tile of any kernel.
const TILE: usize = 256;
/// Tasks with at most this many rows pack all of A per block of k (`KC x
/// 256` words, 384 KiB: L2) and B a slab of panels at a time.
const A_WHOLE_ROWS: usize = 256;

/// A thread's packing buffers, kept across calls.
#[derive(Default)]
pub(super) struct Buffers {
    a: Vec<u32>,
    b: Vec<u32>,
    fix: Vec<i32>,
}

thread_local! {
    static BUFFERS: RefCell<Buffers> = RefCell::new(Buffers::default());
}

/// Calls `f` with this thread's buffers. (They are taken here, outside the
/// kernels' functions: a closure passed to `with` would be compiled without
/// their features.)
pub(super) fn with_buffers(f: impl FnOnce(&mut Buffers)) {
    BUFFERS.with(|cell| f(&mut cell.borrow_mut()));
}

/// A kernel: its name (the CPU feature it needs), whether the running CPU
/// has it, and its runner.
type Entry<T> = (&'static str, fn() -> bool, Runner<T>);

const BF16_KERNELS: [Entry<u16>; 1] = [("avx512bf16", avx512::has_bf16, avx512::run_bf16)];

const S8_KERNELS: [Entry<i8>; 3] = [
    ("avx512vnni", avx512::has_vnni, avx512::run_s8),
    ("avxvnni", avx2::has_vnni, avx2::run_vnni),
    ("avx2", avx2::has_avx2, avx2::run_madd),
];

/// The bf16 kernels this CPU runs, fastest first.
pub(super) fn bf16_kernels() -> impl Iterator<Item = (&'static str, Runner<u16>)> {
    BF16_KERNELS
        .into_iter()
        .filter(|k| (k.1)())
        .map(|k| (k.0, k.2))
}

/// The i8 kernels this CPU runs, fastest first.
pub(super) fn s8_kernels() -> impl Iterator<Item = (&'static str, Runner<i8>)> {
    S8_KERNELS
        .into_iter()
        .filter(|k| (k.1)())
        .map(|k| (k.0, k.2))
}

/// The blocked loops of one task.
///
/// # Safety
/// The task addresses valid buffers; runs inside the kernel's
/// `#[target_feature]` function.
#[inline(always)]
pub(super) unsafe fn drive<K: Kernel>(t: &Task<<K::Enc as Encoding>::Elem>, bufs: &mut Buffers) {
    let (mr_max, nr_max) = (K::MR, K::NR);
    debug_assert!(mr_max * nr_max <= TILE && NC.is_multiple_of(nr_max));
    let c = t.c as *mut K::Acc;
    let [rsc, csc] = t.c_strides;
    let ((m0, m1), (n0, n1)) = (t.rows, t.cols);
    let words = t.k.div_ceil(K::Enc::GROUP);
    if words == 0 {
        for i in m0..m1 {
            for j in n0..n1 {
                // SAFETY: inside the task's part of C.
                unsafe { *c.offset(i as isize * rsc + j as isize * csc) = K::Acc::default() };
            }
        }
        return;
    }
    let mc = (MC / mr_max).max(1) * mr_max;
    let Buffers { a, b, fix } = bufs;
    a.resize(mc * KC, 0);
    b.resize(NC.min((n1 - n0).div_ceil(nr_max) * nr_max) * KC, 0);
    fix.resize(NC, 0);
    let mut tile = [K::Acc::default(); TILE];
    // A read in place where the kernel can (bf16 rows with K even: no
    // packing, which dominates when N is small, as in convolutions).
    let source = StripSource::of::<K>(t);
    if K::B_BY_SLABS && m1 - m0 <= A_WHOLE_ROWS {
        // Few rows: A packed whole per block of k (it stays in L2), B a few
        // panels at a time just before their strips use them (in L1), so
        // the packed B is never written back to memory and read again (5%
        // of a bf16 dense layer's time). A slab is at least a cache line of
        // each row of B. (Measured slower for the i8 kernels, which consume
        // B twice as fast: 1.3x on a dense layer, 2.5x on a matrix-vector
        // product, whose strided slab reads the prefetchers do not follow.)
        let elem = std::mem::size_of::<<K::Enc as Encoding>::Elem>();
        let slab = nr_max * (64 / (nr_max * elem)).max(1);
        for pc in (0..words).step_by(KC) {
            let kc = KC.min(words - pc);
            a.resize((m1 - m0).div_ceil(mr_max) * kc * mr_max, 0);
            // SAFETY: the task's rows of A.
            unsafe { source.pack::<K>(t, (m0, m1), (pc, kc), a) };
            for js in (n0..n1).step_by(slab) {
                let cols = (js, (js + slab).min(n1));
                // SAFETY: the task's columns and rows.
                unsafe {
                    pack_panels::<K>(t, cols, (pc, kc), b, fix);
                    let packed = (&source, &a[..], &b[..], &fix[..]);
                    multiply_block::<K>(t, packed, ((m0, m1), cols), (pc, kc), &mut tile);
                }
            }
        }
        return;
    }
    for jc in (n0..n1).step_by(NC) {
        let cols = (jc, (jc + NC).min(n1));
        for pc in (0..words).step_by(KC) {
            let kc = KC.min(words - pc);
            // SAFETY: the task's columns of B.
            unsafe { pack_panels::<K>(t, cols, (pc, kc), b, fix) };
            for ic in (m0..m1).step_by(mc) {
                let rows = (ic, (ic + mc).min(m1));
                // SAFETY: the task's rows and columns.
                unsafe {
                    source.pack::<K>(t, rows, (pc, kc), a);
                    let packed = (&source, &a[..], &b[..], &fix[..]);
                    multiply_block::<K>(t, packed, (rows, cols), (pc, kc), &mut tile);
                }
            }
        }
    }
}

/// Packs columns `cols` of B over words `pc..pc + kc` into panels in `b`,
/// and their corrections into `fix` when the kernel takes them.
///
/// # Safety
/// The columns are inside the task's B; runs inside the kernel's
/// `#[target_feature]` function.
#[inline(always)]
unsafe fn pack_panels<K: Kernel>(
    t: &Task<<K::Enc as Encoding>::Elem>,
    cols: (usize, usize),
    (pc, kc): (usize, usize),
    b: &mut [u32],
    fix: &mut [i32],
) {
    let interleave = |rows: &[*const <K::Enc as Encoding>::Elem; 4], out: &mut [u32]| {
        // SAFETY: pack_b passes GROUP rows of NR elements.
        unsafe { K::interleave(rows, out) }
    };
    let words = (pc, pc + kc);
    // SAFETY: guaranteed by the caller.
    unsafe { pack_b::<K::Enc>(t.b, t.b_strides, t.k, cols, words, K::NR, b, interleave) };
    if K::FIX {
        column_fix(b, (cols.1 - cols.0).div_ceil(K::NR), kc, K::NR, fix);
    }
}

/// The tiles of C at rows `rows` and columns `cols` over words `pc..pc +
/// kc`: each panel of B (packed by `pack_panels`) times each strip of A
/// (from `source`, packed by its `pack` into `a`), the panel outermost so
/// it stays in L1.
///
/// # Safety
/// The rows and columns are inside the task's part of C, packed as said.
#[inline(always)]
unsafe fn multiply_block<K: Kernel>(
    t: &Task<<K::Enc as Encoding>::Elem>,
    (source, a, b, fix): (&StripSource, &[u32], &[u32], &[i32]),
    ((r0, r1), (j0, j1)): ((usize, usize), (usize, usize)),
    (pc, kc): (usize, usize),
    tile: &mut [K::Acc; TILE],
) {
    for p in 0..(j1 - j0).div_ceil(K::NR) {
        let j = j0 + p * K::NR;
        let nr = K::NR.min(j1 - j);
        let bp = b[p * kc * K::NR..].as_ptr();
        let fp = fix[p * K::NR..].as_ptr();
        for s in 0..(r1 - r0).div_ceil(K::MR) {
            let i = r0 + s * K::MR;
            let mr = K::MR.min(r1 - i);
            let ap = source.strip::<K>(t, (s, i, mr), (pc, kc), a);
            let at = ((i, j), (mr, nr));
            // SAFETY: guaranteed by the caller.
            unsafe { tile_product::<K>(t, ap, bp, fp, kc, at, pc == 0, tile) };
        }
    }
}

/// One micro-tile of C at `(i, j)`, `mr x nr`: written (`first`) or added
/// to, through `tile` when C's columns are apart. `a` is the strip's A:
/// packed, or in place with rows `lda` words apart.
///
/// # Safety
/// As `Kernel::micro`; `(i, j)` inside the task's part of C.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
unsafe fn tile_product<K: Kernel>(
    t: &Task<<K::Enc as Encoding>::Elem>,
    (ap, lda): (*const u32, usize),
    bp: *const u32,
    fp: *const i32,
    kc: usize,
    ((i, j), (mr, nr)): ((usize, usize), (usize, usize)),
    first: bool,
    tile: &mut [K::Acc; TILE],
) {
    let [rsc, csc] = t.c_strides;
    // SAFETY: guaranteed by the caller.
    let cp = unsafe { (t.c as *mut K::Acc).offset(i as isize * rsc + j as isize * csc) };
    if csc == 1 {
        // SAFETY: as `Kernel::micro` requires.
        unsafe { K::micro(kc, ap, lda, bp, cp, rsc, mr, nr, !first, fp) };
        return;
    }
    // A strided result (columns apart): through the tile.
    // SAFETY: the tile holds MR x NR.
    unsafe {
        K::micro(
            kc,
            ap,
            lda,
            bp,
            tile.as_mut_ptr(),
            K::NR as isize,
            mr,
            nr,
            false,
            fp,
        )
    };
    for r in 0..mr {
        for q in 0..nr {
            let v = tile[r * K::NR + q];
            // SAFETY: inside the task's part of C.
            unsafe {
                let at = cp.offset(r as isize * rsc + q as isize * csc);
                *at = if first { v } else { (*at).sum(v) };
            }
        }
    }
}

/// Where a strip's A comes from: read in place (rows `lda` words apart)
/// when the kernel can and the strip is whole, else packed.
struct StripSource {
    /// Row stride of A in words, when A's rows are words as stored.
    lda: Option<usize>,
}

impl StripSource {
    fn of<K: Kernel>(t: &Task<<K::Enc as Encoding>::Elem>) -> Self {
        let elem = std::mem::size_of::<<K::Enc as Encoding>::Elem>();
        let [rs, cs] = t.a_strides;
        let bytes = rs.unsigned_abs() * elem;
        let whole_words = K::Enc::RAW && cs == 1 && rs >= 0 && bytes % 4 == 0;
        let in_place = K::DIRECT_A && whole_words && t.k % K::Enc::GROUP == 0;
        StripSource {
            lda: in_place.then_some(bytes / 4),
        }
    }

    /// Packs what the strips of rows `rows` over words `pc..pc + kc` read
    /// from `buf`: all of them, or with A in place the last one if it is
    /// partial (into the start of `buf`).
    ///
    /// # Safety
    /// The rows are inside the task's A.
    #[inline(always)]
    unsafe fn pack<K: Kernel>(
        &self,
        t: &Task<<K::Enc as Encoding>::Elem>,
        (r0, r1): (usize, usize),
        (pc, kc): (usize, usize),
        buf: &mut [u32],
    ) {
        let from = match self.lda {
            None => r0,
            Some(_) => r1 - (r1 - r0) % K::MR,
        };
        if from < r1 {
            // SAFETY: guaranteed by the caller.
            unsafe {
                pack_a::<K::Enc>(t.a, t.a_strides, t.k, (from, r1), (pc, pc + kc), K::MR, buf)
            };
        }
    }

    /// Strip `s` (rows `i..i + mr`) over words `pc..`: in place when A
    /// allows and the strip is whole, else packed in `buf` (by `pack`).
    #[inline(always)]
    fn strip<K: Kernel>(
        &self,
        t: &Task<<K::Enc as Encoding>::Elem>,
        (s, i, mr): (usize, usize, usize),
        (pc, kc): (usize, usize),
        buf: &[u32],
    ) -> (*const u32, usize) {
        match self.lda {
            // Row i's word pc, inside A (its rows are whole words).
            Some(lda) if mr == K::MR => ((t.a as *const u32).wrapping_add(i * lda + pc), lda),
            Some(_) => (buf.as_ptr(), 0),
            None => (buf[s * kc * K::MR..].as_ptr(), 0),
        }
    }
}
