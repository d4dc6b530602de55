//! `strata_rt_getrf`: LAPACK's getrf (LU with partial pivoting, what
//! `jnp.linalg.solve`, `inv`, `det` and `lax.linalg.lu` call on CPU) on
//! real matrices, blocked as LAPACK blocks it: a panel of [`PANEL`]
//! columns is factored column by column exactly as getf2 does (the row of
//! the first largest magnitude swapped up, the column below divided by the
//! pivot, a zero pivot recorded in `info` and skipped, a rank-one update of
//! the rest of the panel) on a column-major copy of itself, its row swaps
//! then made on the columns left and right of it (laswp), then the panel's
//! rows of the columns to its right are solved against its unit lower
//! triangle and the trailing matrix gets one matrix product (faer's GEMM).
//! The generated loop nest this replaces did the rank-one updates of the
//! whole matrix: 512 x 512 took 1.6x the time of XLA:CPU's whole `solve`;
//! the panels factored in place, row-major, took 64% of a 512 x 512 LU
//! (their pivot searches touch a cache line per element).
//!
//! Within one panel the steps, and so the pivots, are getf2's; a matrix no
//! wider than a panel factors exactly as before. Complex matrices keep the
//! loop lowering.

use faer::linalg::matmul::matmul;
use faer::linalg::triangular_solve::solve_unit_lower_triangular_in_place;
use faer::reborrow::{Reborrow, ReborrowMut};
use faer::{Accum, MatMut, MatRef, Par};

use std::ops::Range;

use super::panel::{copy_panel, store_panel};
use super::*;
use crate::cpu::with_avx2;

/// Columns per panel: wider panels do more of the work in getf2's
/// rank-one steps, narrower ones give the products a smaller k (measured
/// with column-major panels on 256, 512 and 1024 squares: 32 and 48 within
/// 10% of each other, 64 and 96 1.3-1.7x slower; AMD Zen 5).
const PANEL: usize = 48;

/// The trailing update is split between threads down to this many columns
/// per task, and only when it holds this many elements: below, a task's
/// hand-off costs more than it shares.
const MIN_SPLIT_COLS: usize = 64;
const MIN_SPLIT_WORK: usize = 128 * 128;

/// A real element the blocked LU runs on.
pub(super) trait Real: faer::traits::ComplexField + Float + Default + Send + Sync {}
impl Real for f32 {}
impl Real for f64 {}

/// Factors `a` (m x n, row-major) in place; writes getrf's 1-based pivots
/// (`min(m, n)` of them) and returns its info (the 1-based column of the
/// first zero pivot, or 0).
pub(super) fn getrf<T: Real>(a: &mut [T], m: usize, n: usize, pivots: &mut [i32]) -> i32 {
    let steps = m.min(n);
    let mut info = 0;
    for j0 in (0..steps).step_by(PANEL) {
        let columns = j0..(j0 + PANEL).min(steps);
        let j1 = columns.end;
        let mut panel = copy_panel(a, (m, n), columns.clone());
        let panel_pivots = &mut pivots[columns.clone()];
        // Compiled for AVX2 where the CPU has it: the column updates run 8
        // lanes wide.
        with_avx2(
            #[inline(always)]
            || factor_panel(&mut panel, (m - j0, j0), panel_pivots, &mut info),
        );
        store_panel(a, (m, n), columns.clone(), &panel);
        swap_rows_outside(a, n, columns, &pivots[j0..j1]);
        if j1 < n {
            let whole = MatMut::from_row_major_slice_mut(&mut *a, m, n);
            let rest = whole.get_mut(j0..m, j0..n);
            let (l11, a12, l21, a22) = rest.split_at_mut(j1 - j0, j1 - j0);
            trailing(l11.rb(), a12, l21.rb(), a22);
        }
    }
    info
}

/// Right of a factored panel: its rows solved against its unit lower
/// triangle `l11` (a12 := l11⁻¹ a12), then a22 -= l21 a12. Wide enough,
/// the columns are shared between the pool's threads (each column of the
/// result depends on the same column of a12 alone).
fn trailing<T: Real>(
    l11: MatRef<'_, T>,
    a12: MatMut<'_, T>,
    l21: MatRef<'_, T>,
    a22: MatMut<'_, T>,
) {
    let cols = a12.ncols();
    if cols >= 2 * MIN_SPLIT_COLS && (a22.nrows() + a12.nrows()) * cols >= MIN_SPLIT_WORK {
        let mid = cols / 2;
        let (a12l, a12r) = a12.split_at_col_mut(mid);
        let (a22l, a22r) = a22.split_at_col_mut(mid);
        rayon::join(
            || trailing(l11, a12l, l21, a22l),
            || trailing(l11, a12r, l21, a22r),
        );
        return;
    }
    let mut a12 = a12;
    solve_unit_lower_triangular_in_place(l11, a12.rb_mut(), Par::Seq);
    if a22.nrows() > 0 {
        matmul(a22, Accum::Add, l21, a12.rb(), -T::one(), Par::Seq);
    }
}

/// getf2 on a column-major panel of `rows` rows, the rows and columns of
/// the matrix from `j0` on (the panel's pivots are global, 1-based): each
/// column's first largest magnitude swapped up within the panel, the
/// column below divided by the pivot, a zero pivot recorded in `info` and
/// skipped, then the rank-one update of the panel's columns to its right.
/// Each element sees getf2's operations in getf2's order.
#[inline(always)]
fn factor_panel<T: Real>(
    panel: &mut [T],
    (rows, j0): (usize, usize),
    pivots: &mut [i32],
    info: &mut i32,
) {
    for (j, pivot_row) in pivots.iter_mut().enumerate() {
        let column = &panel[j * rows..(j + 1) * rows];
        let mut p = j;
        let mut best = column[j].abs();
        for (i, &x) in column.iter().enumerate().skip(j + 1) {
            if x.abs() > best {
                best = x.abs();
                p = i;
            }
        }
        *pivot_row = (j0 + p) as i32 + 1;
        let pivot = column[p];
        if pivot != T::zero() {
            if p != j {
                for col in panel.chunks_exact_mut(rows) {
                    col.swap(j, p);
                }
            }
            for x in panel[j * rows + j + 1..(j + 1) * rows].iter_mut() {
                *x = *x / pivot;
            }
        } else if *info == 0 {
            *info = (j0 + j) as i32 + 1;
        }
        // The rest of the panel: a(i, k) -= a(i, j) a(j, k).
        let (left, right) = panel.split_at_mut((j + 1) * rows);
        let l = &left[j * rows + j + 1..];
        for col in right.chunks_exact_mut(rows) {
            let u = col[j];
            for (x, &lij) in col[j + 1..].iter_mut().zip(l) {
                *x = *x - lij * u;
            }
        }
    }
}

/// The panel's row swaps on the columns left and right of it (LAPACK's
/// laswp), in the order they were made.
fn swap_rows_outside<T: Real>(a: &mut [T], n: usize, columns: Range<usize>, pivots: &[i32]) {
    for (j, &pivot_row) in columns.clone().zip(pivots) {
        let p = pivot_row as usize - 1;
        if p == j {
            continue;
        }
        // p > j: the pivot comes from below.
        let (upper, lower) = a.split_at_mut(p * n);
        let (row_j, row_p) = (&mut upper[j * n..(j + 1) * n], &mut lower[..n]);
        row_j[..columns.start].swap_with_slice(&mut row_p[..columns.start]);
        row_j[columns.end..].swap_with_slice(&mut row_p[columns.end..]);
    }
}

/// `int32_t strata_rt_getrf(const LinalgDesc *d, const T *a, T *lu,
/// int32_t *pivots, int32_t *info)`: getrf per matrix of the batch (in
/// parallel on the pool), T given by `d.elem` (F32, F64), each matrix
/// `rows` x `cols`; `pivots` holds `min(rows, cols)` per matrix, `info` one.
///
/// # Safety
/// `d` is null or points to a `LinalgDesc`; the buffers hold the elements
/// it describes (lu may be a).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_getrf(
    d: *const LinalgDesc,
    a: *const u8,
    lu: *mut u8,
    pivots: *mut u8,
    info: *mut u8,
) -> i32 {
    ffi_guard(1, || {
        // SAFETY: guaranteed by the caller.
        let r = unsafe { entries::Shape::read(d) }.and_then(|s| {
            let (m, n) = (s.rows, s.cols);
            let (len, steps) = (s.batch * m * n, m.min(n));
            // SAFETY: the buffers hold the described elements.
            let pivots = unsafe { entries::output::<i32>(pivots, s.batch * steps) };
            let infos = unsafe { entries::output::<i32>(info, s.batch) };
            match s.elem {
                ElemCode::F32 => run::<f32>(a, lu, len, (m, n), pivots, infos),
                ElemCode::F64 => run::<f64>(a, lu, len, (m, n), pivots, infos),
                other => return Err(format!("getrf on {other:?} elements")),
            }
            Ok(())
        });
        entries::status(r)
    })
}

/// Copies a into lu (a move: they may be one buffer), then factors every
/// matrix.
fn run<T: Real>(
    a: *const u8,
    lu: *mut u8,
    len: usize,
    (m, n): (usize, usize),
    pivots: &mut [i32],
    infos: &mut [i32],
) {
    // SAFETY: both hold `len` elements of T (the caller's contract).
    let lu = unsafe { entries::moved::<T>(a, lu, len) };
    infos.fill(0);
    let steps = m.min(n);
    let work = |((x, p), i): ((&mut [T], &mut [i32]), &mut i32)| *i = getrf(x, m, n, p);
    crate::pool::install(|_| {
        lu.par_chunks_mut((m * n).max(1))
            .zip(pivots.par_chunks_mut(steps.max(1)))
            .zip(infos.par_iter_mut())
            .for_each(work)
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pseudo-random entries in [-1, 1) (xorshift): no ties between
    /// pivot candidates, which rounding could break either way.
    fn matrix(m: usize, n: usize) -> Vec<f64> {
        let mut s = 0x2545_f491_4f6c_dd1du64;
        (0..m * n)
            .map(|_| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                (s >> 11) as f64 / (1u64 << 52) as f64 - 1.0
            })
            .collect()
    }

    /// LAPACK's getf2, written out: each step's rank-one update reaches
    /// every column to the right.
    fn unblocked(a: &mut [f64], m: usize, n: usize, pivots: &mut [i32]) -> i32 {
        let mut info = 0;
        for j in 0..m.min(n) {
            let mut p = j;
            for i in j + 1..m {
                if a[i * n + j].abs() > a[p * n + j].abs() {
                    p = i;
                }
            }
            pivots[j] = p as i32 + 1;
            if a[p * n + j] != 0.0 {
                for k in 0..n {
                    a.swap(j * n + k, p * n + k);
                }
                for i in j + 1..m {
                    a[i * n + j] /= a[j * n + j];
                }
            } else if info == 0 {
                info = j as i32 + 1;
            }
            for i in j + 1..m {
                for k in j + 1..n {
                    a[i * n + k] -= a[i * n + j] * a[j * n + k];
                }
            }
        }
        info
    }

    /// Blocked, the factors and pivots are getf2's (the pivots exactly,
    /// the factors up to the products' rounding), square, tall and wide.
    #[test]
    fn blocked_matches_getf2() {
        for (m, n) in [(130, 130), (150, 100), (100, 150), (49, 200)] {
            let a = matrix(m, n);
            let (mut x, mut y) = (a.clone(), a.clone());
            let (mut px, mut py) = (vec![0; m.min(n)], vec![0; m.min(n)]);
            assert_eq!(getrf(&mut x, m, n, &mut px), 0);
            assert_eq!(unblocked(&mut y, m, n, &mut py), 0);
            assert_eq!(px, py, "{m} x {n}");
            for (u, v) in x.iter().zip(&y) {
                assert!(
                    (u - v).abs() <= 1e-9 * (1.0 + v.abs()),
                    "{m} x {n}: {u} vs {v}"
                );
            }
        }
    }

    /// A zero pivot past the first panel (column 60 zero): info names it
    /// (1-based), the column below it is left as it is (LAPACK divides
    /// nothing by zero) and the factorization goes on, finite.
    #[test]
    fn zero_pivot_is_recorded_and_skipped() {
        let n = 100;
        let mut a = matrix(n, n);
        for i in 0..n {
            a[i * n + 60] = 0.0;
        }
        let mut p = vec![0; n];
        assert_eq!(getrf(&mut a, n, n, &mut p), 61);
        assert_eq!(p[60], 61, "a zero column pivots on itself");
        assert!(a.iter().all(|v| v.is_finite()));
    }
}
