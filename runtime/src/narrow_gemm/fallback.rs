//! Without the native instructions: the operands converted to f32 (bf16,
//! exact) or f64 (i8, exact; the sum too while below 2⁵³) in buffers kept
//! per thread, and the f32/f64 GEMM.

use std::cell::RefCell;

use strata_abi::GemmDesc;

use crate::gemm::{batch_count, batch_offsets, product};

/// The type a fallback computes in, with its buffers per thread (lhs, rhs,
/// product), kept across calls.
trait Wide: Copy + Default + Send + Sync + 'static {
    const ONE: Self;
    fn with_buffers<R>(f: impl FnOnce(&mut [Vec<Self>; 3]) -> R) -> R;
}

thread_local! {
    static F32: RefCell<[Vec<f32>; 3]> = const { RefCell::new([Vec::new(), Vec::new(), Vec::new()]) };
    static F64: RefCell<[Vec<f64>; 3]> = const { RefCell::new([Vec::new(), Vec::new(), Vec::new()]) };
}

impl Wide for f32 {
    const ONE: f32 = 1.0;
    fn with_buffers<R>(f: impl FnOnce(&mut [Vec<f32>; 3]) -> R) -> R {
        F32.with(|cell| crate::pool::with_thread_buffers(cell, f))
    }
}

impl Wide for f64 {
    const ONE: f64 = 1.0;
    fn with_buffers<R>(f: impl FnOnce(&mut [Vec<f64>; 3]) -> R) -> R {
        F64.with(|cell| crate::pool::with_thread_buffers(cell, f))
    }
}

/// The dimensions and strides of `d` as `usize`/`isize`.
fn dims(d: &GemmDesc) -> ([usize; 3], [[isize; 2]; 3]) {
    let s = |r: i64, c: i64| [r as isize, c as isize];
    (
        [d.m, d.k, d.n].map(|x| x.max(0) as usize),
        [
            s(d.lhs_row_stride, d.lhs_col_stride),
            s(d.rhs_row_stride, d.rhs_col_stride),
            s(d.out_row_stride, d.out_col_stride),
        ],
    )
}

/// Elements of a matrix worth converting on several threads.
const PARALLEL_GATHER: usize = 1 << 16;

/// Copies the `rows x cols` matrix at `src` (strides `st`) into `dst`,
/// converted by `f`, in `src`'s memory order: row-major when its rows are
/// contiguous, column-major when its columns are (a weight stored
/// transposed, `x @ E.T`: copied row by row it read a cache line per
/// element, the logits of a bf16 GPT-2 took 2x XLA:CPU's time on AVX2),
/// lines split between `threads`. `f` is a type of its own, not a function
/// pointer, so that the conversion inlines and vectorizes (called through
/// a pointer, a fifth of a bf16 GPT-2's time). Returns the copy's strides.
///
/// # Safety
/// `src` addresses the matrix.
unsafe fn gather<S: Copy, D: Copy + Default + Send>(
    src: *const S,
    st: [isize; 2],
    [rows, cols]: [usize; 2],
    dst: &mut Vec<D>,
    f: impl Fn(S) -> D + Sync,
    threads: usize,
) -> [isize; 2] {
    let by_rows = st[1].abs() <= st[0].abs();
    let (line_stride, step, len) = match by_rows {
        true => (st[0], st[1], cols),
        false => (st[1], st[0], rows),
    };
    dst.clear();
    dst.resize(rows * cols, D::default());
    let strides = match by_rows {
        true => [cols as isize, 1],
        false => [1, rows as isize],
    };
    if len == 0 {
        return strides;
    }
    let src = src as usize;
    let fill = |(at, line): (usize, &mut [D])| {
        let first = (src as *const S).wrapping_offset(at as isize * line_stride);
        for (i, x) in line.iter_mut().enumerate() {
            // SAFETY: element (at, i) of the matrix (guaranteed by the caller).
            *x = f(unsafe { *first.offset(i as isize * step) });
        }
    };
    if threads > 1 && rows * cols >= PARALLEL_GATHER {
        use rayon::prelude::*;
        dst.par_chunks_mut(len).enumerate().for_each(fill);
    } else {
        dst.chunks_mut(len).enumerate().for_each(fill);
    }
    strides
}

/// Runs `body(threads)` on the pool when the product is large enough.
fn on_pool(d: &GemmDesc, body: impl FnOnce(usize) + Send) {
    let [m, k, n] = dims(d).0;
    let flops = m
        .saturating_mul(n)
        .saturating_mul(k)
        .saturating_mul(batch_count(d));
    if flops >= strata_abi::GEMM_PARALLEL_MIN_FLOPS as usize {
        crate::pool::install(body);
    } else {
        body(1);
    }
}

/// `c = a · b` for every batch: the operands widened to `W` by `widen`,
/// the `W` GEMM, its product stored into `c` by `narrow`.
///
/// # Safety
/// The buffers hold what the descriptor addresses.
unsafe fn widened<S: Copy, W: Wide, O: 'static>(
    d: &GemmDesc,
    (a, b, c): (*const S, *const S, *mut O),
    widen: impl Fn(S) -> W + Copy + Send + Sync,
    narrow: impl Fn(W) -> O + Send,
) {
    let ([m, k, n], [sa, sb, sc]) = dims(d);
    let (a, b, c) = (a as usize, b as usize, c as usize);
    // The product written straight into c when c holds W's (bf16 to f32).
    let in_place = std::any::TypeId::of::<O>() == std::any::TypeId::of::<W>() && k > 0;
    on_pool(d, move |threads| {
        W::with_buffers(|[af, bf, cf]| {
            for i in 0..batch_count(d) {
                let (oa, ob, oc) = batch_offsets(d, i);
                // SAFETY: guaranteed by the caller.
                unsafe {
                    let a = (a as *const S).offset(oa);
                    let b = (b as *const S).offset(ob);
                    let c = (c as *mut O).offset(oc);
                    let sa = gather(a, sa, [m, k], af, widen, threads);
                    let sb = gather(b, sb, [k, n], bf, widen, threads);
                    if in_place {
                        let (ap, bp) = (af.as_ptr(), bf.as_ptr());
                        product([m, k, n], ap, sa, bp, sb, c as *mut W, sc, W::ONE, threads);
                        continue;
                    }
                    cf.clear();
                    cf.resize(m * n, W::default());
                    if k > 0 {
                        let nb = n as isize;
                        let (ap, bp, cp) = (af.as_ptr(), bf.as_ptr(), cf.as_mut_ptr());
                        product([m, k, n], ap, sa, bp, sb, cp, [nb, 1], W::ONE, threads);
                    }
                    for r in 0..m {
                        for q in 0..n {
                            let at = c.offset(r as isize * sc[0] + q as isize * sc[1]);
                            *at = narrow(cf[r * n + q]);
                        }
                    }
                }
            }
        })
    });
}

/// `c = a · b`, bf16 operands, through the f32 GEMM.
///
/// # Safety
/// The buffers hold what the descriptor addresses.
pub(super) unsafe fn bf16(d: &GemmDesc, a: *const u16, b: *const u16, c: *mut f32) {
    // SAFETY: guaranteed by the caller.
    unsafe { widened(d, (a, b, c), crate::float::bf16_to_f32, |x| x) }
}

/// `c = a · b`, i8 operands, through the f64 GEMM (exact below 2^53), the
/// sums wrapped to i32 as XLA's wrap.
///
/// # Safety
/// The buffers hold what the descriptor addresses.
pub(super) unsafe fn s8(d: &GemmDesc, a: *const i8, b: *const i8, c: *mut i32) {
    // SAFETY: guaranteed by the caller.
    unsafe { widened(d, (a, b, c), f64::from, |x| x as i64 as i32) }
}
