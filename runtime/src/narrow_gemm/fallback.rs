//! Without the native instructions: the operands converted to f32 (bf16,
//! exact) or f64 (i8, exact; the sum too while below 2⁵³) in buffers kept
//! per thread, and the f32/f64 GEMM.

use std::cell::RefCell;

use strata_abi::GemmDesc;

use crate::gemm::{batch_count, batch_offsets, product};

thread_local! {
    static F32: RefCell<[Vec<f32>; 2]> = const { RefCell::new([Vec::new(), Vec::new()]) };
    static F64: RefCell<[Vec<f64>; 3]> = const { RefCell::new([Vec::new(), Vec::new(), Vec::new()]) };
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

/// `c = a · b`, bf16 operands, through the f32 GEMM.
///
/// # Safety
/// The buffers hold what the descriptor addresses.
pub(super) unsafe fn bf16(d: &GemmDesc, a: *const u16, b: *const u16, c: *mut f32) {
    let ([m, k, n], [sa, sb, sc]) = dims(d);
    let (a, b, c) = (a as usize, b as usize, c as usize);
    on_pool(d, move |threads| {
        F32.with(|cell| {
            let [af, bf] = &mut *cell.borrow_mut();
            let widen = |x: u16| f32::from_bits((x as u32) << 16);
            for i in 0..batch_count(d) {
                let (oa, ob, oc) = batch_offsets(d, i);
                // SAFETY: guaranteed by the caller.
                unsafe {
                    gather((a as *const u16).offset(oa), sa, [m, k], af, widen);
                    gather((b as *const u16).offset(ob), sb, [k, n], bf, widen);
                    let c = (c as *mut f32).offset(oc);
                    if k == 0 {
                        zero(c, sc, [m, n]);
                        continue;
                    }
                    let (ka, nb) = (k as isize, n as isize);
                    product(
                        [m, k, n],
                        af.as_ptr(),
                        [ka, 1],
                        bf.as_ptr(),
                        [nb, 1],
                        c,
                        sc,
                        1.0,
                        threads,
                    );
                }
            }
        })
    });
}

/// `c = a · b`, i8 operands, through the f64 GEMM (exact), wrapped to i32.
///
/// # Safety
/// The buffers hold what the descriptor addresses.
pub(super) unsafe fn s8(d: &GemmDesc, a: *const i8, b: *const i8, c: *mut i32) {
    let ([m, k, n], [sa, sb, sc]) = dims(d);
    let (a, b, c) = (a as usize, b as usize, c as usize);
    on_pool(d, move |threads| {
        F64.with(|cell| {
            let [af, bf, cf] = &mut *cell.borrow_mut();
            for i in 0..batch_count(d) {
                let (oa, ob, oc) = batch_offsets(d, i);
                cf.clear();
                cf.resize(m * n, 0.0);
                // SAFETY: guaranteed by the caller.
                unsafe {
                    gather((a as *const i8).offset(oa), sa, [m, k], af, f64::from);
                    gather((b as *const i8).offset(ob), sb, [k, n], bf, f64::from);
                    if k > 0 {
                        let (ka, nb) = (k as isize, n as isize);
                        let cp = cf.as_mut_ptr();
                        product(
                            [m, k, n],
                            af.as_ptr(),
                            [ka, 1],
                            bf.as_ptr(),
                            [nb, 1],
                            cp,
                            [nb, 1],
                            1.0,
                            threads,
                        );
                    }
                    let c = (c as *mut i32).offset(oc);
                    for r in 0..m {
                        for q in 0..n {
                            let at = c.offset(r as isize * sc[0] + q as isize * sc[1]);
                            // Exact below 2^53; i32 sums wrap modulo 2^32.
                            *at = cf[r * n + q] as i64 as i32;
                        }
                    }
                }
            }
        })
    });
}

/// Zeroes the `rows x cols` matrix at `c` (strides `sc`).
///
/// # Safety
/// `c` addresses the matrix.
unsafe fn zero(c: *mut f32, sc: [isize; 2], [rows, cols]: [usize; 2]) {
    for r in 0..rows {
        for q in 0..cols {
            // SAFETY: guaranteed by the caller.
            unsafe { *c.offset(r as isize * sc[0] + q as isize * sc[1]) = 0.0 };
        }
    }
}
