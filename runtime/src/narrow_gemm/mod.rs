//! Matrix products of narrow operands accumulated wide, on the instructions
//! made for them where the running CPU has them:
//! - `strata_rt_gemm_bf16_f32`: bf16 · bf16 → f32 with AVX512-BF16
//!   (`vdpbf16ps`: two products per f32 lane per instruction, twice the f32
//!   FMA rate);
//! - `strata_rt_gemm_s8_s32`: i8 · i8 → i32 with AVX512-VNNI (`vpdpbusd`:
//!   four per i32 lane), else AVX-VNNI (the same on 256 bits), else AVX2
//!   (`vpmaddwd` on the bytes widened to i16: two per lane). `vpdpbusd`
//!   multiplies unsigned by signed bytes, so the lhs is packed as `a + 128`
//!   and `128 · Σₖ b[k][j]` is taken off each column (exact: the sums wrap
//!   modulo 2³² as XLA's i32 sums do).
//!
//! Why a kernel of our own: the `gemm` crate (and faer above it) has no bf16
//! or integer kernels; converting to f32 first (Strata's path before this)
//! gave 0.42× XLA:CPU's speed on a bf16 dense layer with an f32 result and
//! 0.26× on an int8 one, XLA using oneDNN's native kernels on the same AMD
//! EPYC (AVX512-BF16, AVX512-VNNI).
//!
//! The blocking is the usual one (BLIS's): per block of `KC` words of k, a
//! block of B (`KC x NC`) is packed into panels of `NR` columns whose words
//! each hold `GROUP` consecutive k of one column, a block of A (`MC x KC`)
//! into strips of `MR` rows likewise, and an `MR x NR` micro-kernel runs
//! over them, adding into C after the first block. Work is split between
//! threads by columns (rows when there are few columns); each thread packs
//! into buffers of its own, kept across calls (a steady state allocates
//! nothing).
//!
//! On a CPU without them (no AVX512-BF16 for bf16, no AVX2 for i8; and on
//! other architectures so far) the operands are converted to f32 (bf16) or f64 (i8: exact) and the f32/f64
//! GEMM runs: the results are the same numbers but for the summation order
//! (and `vdpbf16ps` flushing denormals, as XLA:CPU does too).

// The packed kernels exist for x86-64 only so far (aarch64's BFDOT/SDOT
// and SVE would take the same packing); elsewhere only the converted path
// runs and the blocking is unused.
#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

mod fallback;
mod pack;
#[cfg(target_arch = "x86_64")]
mod x86;

use strata_abi::GemmDesc;

use crate::ffi_guard;
use crate::gemm::{batch_count, batch_offsets, read_desc};

/// Words (groups of k) per packed block: a B panel is `KC x NR` words
/// (48 KiB for the AVX-512 kernels, about L1) that the strips of A pass
/// over; a transformer's K = 768 is one block (measured 3% faster on a
/// bf16 dense layer than blocks of 192 words: fewer passes over C).
const KC: usize = 384;
/// Rows per packed block of A (`MC x KC` words, 96 KiB: L2), rounded down
/// to whole strips of the kernel.
const MC: usize = 64;
/// Columns per packed block of B (`KC x NC` words, 3 MiB: L3); a multiple
/// of every kernel's `NR`.
const NC: usize = 2048;
/// Threads share a product by columns in multiples of `COL_UNIT` (every
/// kernel's `NR` divides it), or by rows in multiples of `ROW_UNIT`.
const COL_UNIT: usize = 32;
const ROW_UNIT: usize = 8;

/// How a kernel reads its operands: 32-bit words of `GROUP` consecutive k
/// of one row (lhs) or column (rhs).
pub(crate) trait Encoding: 'static {
    /// The operands' element type in memory.
    type Elem: Copy + Send + Sync + 'static;
    /// Elements per word.
    const GROUP: usize;
    /// Bits per element in a word.
    const BITS: usize;
    /// The element's bits as the micro-kernel's lhs reads them.
    fn lhs_bits(x: Self::Elem) -> u32;
    /// The element's bits as the micro-kernel's rhs reads them.
    fn rhs_bits(x: Self::Elem) -> u32;
    /// What a word of lhs padding holds (beyond K the rhs is zero, so any
    /// value gives a zero product; zero in the lhs's encoding).
    const LHS_PAD: u32;
    /// Whether a word is `GROUP` elements as stored (one load reads it).
    const RAW: bool = Self::BITS == 8 * std::mem::size_of::<Self::Elem>();
}

/// bf16 pairs as stored (`vdpbf16ps`).
pub(crate) struct Bf16Pairs;

impl Encoding for Bf16Pairs {
    type Elem = u16;
    const GROUP: usize = 2;
    const BITS: usize = 16;
    fn lhs_bits(x: u16) -> u32 {
        x as u32
    }
    fn rhs_bits(x: u16) -> u32 {
        x as u32
    }
    const LHS_PAD: u32 = 0;
}

/// i8 quads (`vpdpbusd`): the lhs as `a + 128` (unsigned), the rhs as it is.
pub(crate) struct ByteQuads;

impl Encoding for ByteQuads {
    type Elem = i8;
    const GROUP: usize = 4;
    const BITS: usize = 8;
    fn lhs_bits(x: i8) -> u32 {
        (x as u8 ^ 0x80) as u32
    }
    fn rhs_bits(x: i8) -> u32 {
        x as u8 as u32
    }
    const LHS_PAD: u32 = 0x8080_8080;
}

/// i8 pairs widened to i16 (`vpmaddwd`: signed by signed, exact).
pub(crate) struct ShortPairs;

impl Encoding for ShortPairs {
    type Elem = i8;
    const GROUP: usize = 2;
    const BITS: usize = 16;
    fn lhs_bits(x: i8) -> u32 {
        x as i16 as u16 as u32
    }
    fn rhs_bits(x: i8) -> u32 {
        x as i16 as u16 as u32
    }
    const LHS_PAD: u32 = 0;
}

/// Runs one task on one kernel (with the thread's packing buffers).
pub(crate) type Runner<T> = unsafe fn(&Task<T>);

/// One product to compute on one thread: `c[rows, cols] = a[rows, :] · b[:, cols]`.
#[derive(Clone, Copy)]
pub(crate) struct Task<T> {
    pub a: *const T,
    pub b: *const T,
    /// f32 or i32 elements.
    pub c: *mut u32,
    pub k: usize,
    pub rows: (usize, usize),
    pub cols: (usize, usize),
    pub a_strides: [isize; 2],
    pub b_strides: [isize; 2],
    pub c_strides: [isize; 2],
}

// SAFETY: a task only addresses the caller's buffers, and tasks of one call
// write disjoint parts of C.
unsafe impl<T> Send for Task<T> {}
// SAFETY: as above.
unsafe impl<T> Sync for Task<T> {}

/// The fastest kernel this CPU runs for bf16 operands, if any.
fn bf16_kernel() -> Option<Runner<u16>> {
    #[cfg(target_arch = "x86_64")]
    return x86::bf16_kernels().next().map(|(_, run)| run);
    #[cfg(not(target_arch = "x86_64"))]
    None
}

/// The fastest kernel this CPU runs for i8 operands, if any.
fn s8_kernel() -> Option<Runner<i8>> {
    #[cfg(target_arch = "x86_64")]
    return x86::s8_kernels().next().map(|(_, run)| run);
    #[cfg(not(target_arch = "x86_64"))]
    None
}

/// How one product (`m x n`) is shared by `threads` threads: by columns
/// when there are enough for two panels each, else by rows; returns the
/// number of parts and the (rows, cols) of part `p`.
fn split(m: usize, n: usize, threads: usize) -> (usize, impl Fn(usize) -> Part) {
    let by_cols = threads > 1 && n >= threads * COL_UNIT * 2;
    let by_rows = !by_cols && threads > 1 && m >= threads * ROW_UNIT;
    let parts = if by_cols || by_rows { threads } else { 1 };
    let part = move |p: usize| {
        let range = |len: usize, align: usize| {
            let units = len.div_ceil(align);
            let (s, e) = (units * p / parts, units * (p + 1) / parts);
            ((s * align).min(len), (e * align).min(len))
        };
        if by_cols {
            ((0, m), range(n, COL_UNIT))
        } else if by_rows {
            (range(m, ROW_UNIT), (0, n))
        } else {
            ((0, m), (0, n))
        }
    };
    (parts, part)
}

/// Rows and columns of one part of a product.
type Part = ((usize, usize), (usize, usize));

/// Computes every batch of `desc` with `run_task`.
///
/// # Safety
/// The buffers hold what the descriptor addresses; the CPU runs the kernel.
unsafe fn native<T: Copy + Send + Sync + 'static>(
    d: &GemmDesc,
    a: *const T,
    b: *const T,
    c: *mut u32,
    run_task: Runner<T>,
) {
    let [m, k, n] = [d.m, d.k, d.n].map(|x| x.max(0) as usize);
    // Addresses, so that the closures below may cross threads.
    let (a, b, c) = (a as usize, b as usize, c as usize);
    let task = move |(oa, ob, oc): (isize, isize, isize), rows, cols| Task {
        // Inside the buffers, per the descriptor.
        a: (a as *const T).wrapping_offset(oa),
        b: (b as *const T).wrapping_offset(ob),
        c: (c as *mut u32).wrapping_offset(oc),
        k,
        rows,
        cols,
        a_strides: [d.lhs_row_stride as isize, d.lhs_col_stride as isize],
        b_strides: [d.rhs_row_stride as isize, d.rhs_col_stride as isize],
        c_strides: [d.out_row_stride as isize, d.out_col_stride as isize],
    };
    let batches = batch_count(d);
    let flops = m
        .saturating_mul(n)
        .saturating_mul(k)
        .saturating_mul(batches);
    let run = |threads: usize| {
        use rayon::iter::{IntoParallelIterator, ParallelIterator};
        if threads > 1 && batches >= threads {
            (0..batches).into_par_iter().for_each(|i| {
                let t = task(batch_offsets(d, i), (0, m), (0, n));
                // SAFETY: guaranteed by the caller; batches write disjoint results.
                unsafe { run_task(&t) }
            });
            return;
        }
        for i in 0..batches {
            let offsets = batch_offsets(d, i);
            let (parts, part) = split(m, n, threads);
            // No list of tasks is built: a call allocates nothing of its own.
            (0..parts).into_par_iter().for_each(|p| {
                let (rows, cols) = part(p);
                let t = task(offsets, rows, cols);
                // SAFETY: guaranteed by the caller; parts write disjoint results.
                unsafe { run_task(&t) }
            });
        }
    };
    if flops >= strata_abi::GEMM_PARALLEL_MIN_FLOPS as usize {
        crate::pool::install(run);
    } else {
        run(1);
    }
}

/// `void strata_rt_gemm_bf16_f32(const GemmDesc *desc, const uint16_t *a,
/// const uint16_t *b, float *c)`: `c = a · b` for every batch, bf16
/// operands (bit patterns), products summed in f32.
///
/// # Safety
/// The buffers hold the elements the descriptor addresses.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_gemm_bf16_f32(
    desc: *const GemmDesc,
    a: *const u16,
    b: *const u16,
    c: *mut f32,
) {
    ffi_guard((), || {
        // SAFETY: guaranteed by the caller (generated code).
        let Some(d) = (unsafe { read_desc(desc) }) else {
            return;
        };
        match bf16_kernel() {
            // SAFETY: guaranteed by the caller; the CPU runs the kernel.
            Some(run) => unsafe { native(d, a, b, c as *mut u32, run) },
            // SAFETY: guaranteed by the caller.
            None => unsafe { fallback::bf16(d, a, b, c) },
        }
    })
}

/// `void strata_rt_gemm_s8_s32(const GemmDesc *desc, const int8_t *a,
/// const int8_t *b, int32_t *c)`: `c = a · b` for every batch, the sums
/// wrapping modulo 2³².
///
/// # Safety
/// The buffers hold the elements the descriptor addresses.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_gemm_s8_s32(
    desc: *const GemmDesc,
    a: *const i8,
    b: *const i8,
    c: *mut i32,
) {
    ffi_guard((), || {
        // SAFETY: guaranteed by the caller (generated code).
        let Some(d) = (unsafe { read_desc(desc) }) else {
            return;
        };
        match s8_kernel() {
            // SAFETY: guaranteed by the caller; the CPU runs the kernel.
            Some(run) => unsafe { native(d, a, b, c as *mut u32, run) },
            // SAFETY: guaranteed by the caller.
            None => unsafe { fallback::s8(d, a, b, c) },
        }
    })
}

#[cfg(test)]
mod tests;
