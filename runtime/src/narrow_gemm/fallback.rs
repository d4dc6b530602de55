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
        F32.with(|cell| f(&mut cell.borrow_mut()))
    }
}

impl Wide for f64 {
    const ONE: f64 = 1.0;
    fn with_buffers<R>(f: impl FnOnce(&mut [Vec<f64>; 3]) -> R) -> R {
        F64.with(|cell| f(&mut cell.borrow_mut()))
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

/// Copies the `rows x cols` matrix at `src` (strides `st`) into `dst`
/// row-major, converted by `f`.
///
/// # Safety
/// `src` addresses the matrix.
unsafe fn gather<S: Copy, D>(
    src: *const S,
    st: [isize; 2],
    [rows, cols]: [usize; 2],
    dst: &mut Vec<D>,
    f: impl Fn(S) -> D,
) {
    dst.clear();
    for r in 0..rows {
        for q in 0..cols {
            // SAFETY: guaranteed by the caller.
            dst.push(f(unsafe {
                *src.offset(r as isize * st[0] + q as isize * st[1])
            }));
        }
    }
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
unsafe fn widened<S: Copy, W: Wide, O>(
    d: &GemmDesc,
    (a, b, c): (*const S, *const S, *mut O),
    widen: fn(S) -> W,
    narrow: fn(W) -> O,
) {
    let ([m, k, n], [sa, sb, sc]) = dims(d);
    let (a, b, c) = (a as usize, b as usize, c as usize);
    on_pool(d, move |threads| {
        W::with_buffers(|[af, bf, cf]| {
            for i in 0..batch_count(d) {
                let (oa, ob, oc) = batch_offsets(d, i);
                cf.clear();
                cf.resize(m * n, W::default());
                // SAFETY: guaranteed by the caller.
                unsafe {
                    gather((a as *const S).offset(oa), sa, [m, k], af, widen);
                    gather((b as *const S).offset(ob), sb, [k, n], bf, widen);
                    if k > 0 {
                        let (ka, nb) = (k as isize, n as isize);
                        let (ap, bp, cp) = (af.as_ptr(), bf.as_ptr(), cf.as_mut_ptr());
                        product(
                            [m, k, n],
                            ap,
                            [ka, 1],
                            bp,
                            [nb, 1],
                            cp,
                            [nb, 1],
                            W::ONE,
                            threads,
                        );
                    }
                    let c = (c as *mut O).offset(oc);
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
