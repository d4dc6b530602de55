//! `strata_rt_potrf`: LAPACK's potrf (what `jnp.linalg.cholesky` and
//! `cho_factor` call on CPU) on real matrices, blocked: a panel of
//! [`PANEL`] columns is factored column by column as the loop lowering
//! does it (each entry its column's dot with the row of the pivot taken
//! off, the pivot the square root, the first pivot that is not positive
//! recorded in `info` and the factorization going on), then the rest of
//! the matrix gets one product with the panel (faer's GEMM, its columns
//! shared between threads). The loop nest this replaces took 8x the time
//! of XLA:CPU on a 512 x 512 matrix (AMD Zen 5).
//!
//! The factor is computed on a copy holding the lower triangle (a's
//! transpose for an upper factor), then written over a's triangle; the
//! other triangle keeps a, as potrf leaves it.

use faer::linalg::matmul::matmul;
use faer::reborrow::{Reborrow, ReborrowMut};
use faer::{Accum, MatMut, MatRef, Par};

use super::lu::Real;
use super::panel::dot;
use super::*;
use crate::cpu::with_avx2;

/// Columns per panel (the in-panel dots are at most this long).
const PANEL: usize = 48;

/// The trailing update is split (between threads, and to skip most of its
/// upper triangle) down to this many columns.
const MIN_SPLIT_COLS: usize = 64;

/// Factors the symmetric matrix whose lower triangle `w` (n x n,
/// row-major) holds, in place (the strict upper triangle is scratch);
/// returns potrf's info.
pub(super) fn factor<T: Real>(w: &mut [T], n: usize) -> i32 {
    let mut info = 0;
    for j0 in (0..n).step_by(PANEL) {
        let j1 = (j0 + PANEL).min(n);
        // Compiled for AVX2 where the CPU has it: the dots run 8 lanes wide.
        with_avx2(
            #[inline(always)]
            || panel(w, n, (j0, j1), &mut info),
        );
        if j1 < n {
            let whole = MatMut::from_row_major_slice_mut(&mut *w, n, n);
            let (_, _, l, rest) = whole.split_at_mut(j1, j1);
            let l21 = l.get(.., j0..j1);
            trailing(l21.rb(), rest);
        }
    }
    info
}

/// a22 -= l21 l21ᵀ on the lower triangle (and some of the upper, which is
/// scratch): the left half of the columns whole, the right half's lower
/// part by recursion, the two on different threads when there are some.
fn trailing<T: Real>(l21: MatRef<'_, T>, a22: MatMut<'_, T>) {
    let cols = a22.ncols();
    if cols < 2 * MIN_SPLIT_COLS {
        product(l21, l21, a22);
        return;
    }
    let mid = cols / 2;
    let (left, right) = a22.split_at_col_mut(mid);
    let (top, bottom) = l21.split_at_row(mid);
    let right = right.get_mut(mid.., ..);
    rayon::join(|| product(l21, top, left), || trailing(bottom, right));
}

/// dst -= lhs rhsᵀ.
fn product<T: Real>(lhs: MatRef<'_, T>, rhs: MatRef<'_, T>, dst: MatMut<'_, T>) {
    let mut dst = dst;
    matmul(
        dst.rb_mut(),
        Accum::Add,
        lhs,
        rhs.transpose(),
        -T::one(),
        Par::Seq,
    );
}

/// Columns `j0..j1`, left-looking within the panel: entry (i, j) minus its
/// row's dot with row j over the panel's earlier columns, the pivot its
/// square root (NaN for a negative one), below it a division by the pivot.
#[inline(always)]
fn panel<T: Real>(w: &mut [T], n: usize, (j0, j1): (usize, usize), info: &mut i32) {
    for j in j0..j1 {
        let (above, from_j) = w.split_at_mut(j * n);
        let _ = above;
        let (row_j, below) = from_j.split_at_mut(n);
        let s = row_j[j] - dot(&row_j[j0..j], &row_j[j0..j], |x| x);
        if !(s > T::zero()) && *info == 0 {
            *info = j as i32 + 1;
        }
        let pivot = s.sqrt();
        row_j[j] = pivot;
        let head = &row_j[j0..j];
        for row_i in below.chunks_exact_mut(n) {
            let s = row_i[j] - dot(&row_i[j0..j], head, |x| x);
            row_i[j] = s / pivot;
        }
    }
}

/// `int32_t strata_rt_potrf(const LinalgDesc *d, const T *a, T *out,
/// int32_t *info)`: potrf per matrix of the batch (in parallel on the
/// pool), T given by `d.elem` (F32, F64), each matrix `rows` x `rows`,
/// `LINALG_LOWER` for a lower factor (else upper).
///
/// # Safety
/// `d` is null or points to a `LinalgDesc`; the buffers hold the elements
/// it describes (out may be a).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_potrf(
    d: *const LinalgDesc,
    a: *const u8,
    out: *mut u8,
    info: *mut u8,
) -> i32 {
    ffi_guard(1, || {
        // SAFETY: guaranteed by the caller.
        let r = unsafe { entries::Shape::read(d) }.and_then(|s| {
            // SAFETY: the buffers hold the described elements.
            let infos = unsafe { entries::output::<i32>(info, s.batch) };
            let dims = (s.batch, s.rows, s.lower);
            match s.elem {
                ElemCode::F32 => run::<f32>(a, out, dims, infos),
                ElemCode::F64 => run::<f64>(a, out, dims, infos),
                other => return Err(format!("potrf on {other:?} elements")),
            }
            Ok(())
        });
        entries::status(r)
    })
}

/// Copies a into out (a move: they may be one buffer), then factors every
/// matrix and writes its factor over out's triangle.
fn run<T: Real>(
    a: *const u8,
    out: *mut u8,
    (batch, n, lower): (usize, usize, bool),
    infos: &mut [i32],
) {
    let len = batch * n * n;
    // SAFETY: both hold `len` elements of T (the caller's contract).
    let out = unsafe { entries::moved::<T>(a, out, len) };
    infos.fill(0);
    let work = |(m, info): (&mut [T], &mut i32)| {
        let mut w = vec![T::zero(); n * n];
        for i in 0..n {
            for j in 0..=i {
                w[i * n + j] = if lower { m[i * n + j] } else { m[j * n + i] };
            }
        }
        *info = factor(&mut w, n);
        for i in 0..n {
            for j in 0..=i {
                let at = if lower { i * n + j } else { j * n + i };
                m[at] = w[i * n + j];
            }
        }
    };
    crate::pool::install(|_| {
        out.par_chunks_mut((n * n).max(1))
            .zip(infos.par_iter_mut())
            .for_each(work)
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The column-by-column factorization the loop lowering does.
    fn unblocked(w: &mut [f64], n: usize) -> i32 {
        let mut info = 0;
        panel(w, n, (0, n), &mut info);
        info
    }

    fn spd(n: usize) -> Vec<f64> {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let g: Vec<f64> = (0..n * n)
            .map(|_| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                (s >> 11) as f64 / (1u64 << 52) as f64 - 1.0
            })
            .collect();
        let mut a = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..n {
                let d: f64 = (0..n).map(|k| g[i * n + k] * g[j * n + k]).sum();
                a[i * n + j] = d / n as f64 + if i == j { 1.0 } else { 0.0 };
            }
        }
        a
    }

    /// Blocked (past two panels) = column by column, up to rounding.
    #[test]
    fn blocked_matches_column_by_column() {
        let n = 130;
        let a = spd(n);
        let (mut x, mut y) = (a.clone(), a.clone());
        assert_eq!(factor(&mut x, n), 0);
        assert_eq!(unblocked(&mut y, n), 0);
        for i in 0..n {
            for j in 0..=i {
                let (u, v) = (x[i * n + j], y[i * n + j]);
                assert!(
                    (u - v).abs() <= 1e-12 * (1.0 + v.abs()),
                    "({i}, {j}): {u} vs {v}"
                );
            }
        }
    }

    /// A minor that is not positive past the first panel: info names its
    /// column (1-based).
    #[test]
    fn failed_minor_is_recorded() {
        let n = 100;
        let mut a = spd(n);
        a[70 * n + 70] = -5.0;
        assert_eq!(factor(&mut a, n), 71);
    }
}
