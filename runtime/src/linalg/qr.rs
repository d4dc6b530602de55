//! Blocked geqrf and orgqr (what `jnp.linalg.qr` calls on CPU), as LAPACK
//! blocks them: the reflectors of a panel of [`PANEL`] columns are made
//! (and applied within the panel) by geqr2's / org2r's steps, then applied
//! to the columns right of the panel at once as the block reflector
//! I - V T Vᴴ (LAPACK's larft and larfb): two matrix products per panel
//! (faer's GEMM) instead of a rank-one update per column. A panel works on
//! a column-major copy of itself, so a reflector's products with the
//! panel's columns run over contiguous memory, eight lanes wide where the
//! CPU has AVX2. Row by row and unblocked, a 256 x 256 QR took 3.1x
//! XLA:CPU's time (AMD Zen 5).

use std::ops::Range;

use faer::linalg::matmul::matmul;
use faer::reborrow::{Reborrow, ReborrowMut};
use faer::{Accum, Mat, MatMut, MatRef, Par};

use super::panel::{copy_panel, dot, store_panel};
use super::*;
use crate::cpu::with_avx2;

/// Reflectors per panel (geqrf then orgqr of 256 and 512 squares: 32 the
/// fastest of 16, 32, 48 and 64, by 15% or more; AMD Zen 5).
const PANEL: usize = 32;

/// A block reflector's columns are split between threads down to this
/// many per task, and only when the block holds this many elements.
const MIN_SPLIT_COLS: usize = 64;
const MIN_SPLIT_WORK: usize = 128 * 128;

/// An element the blocked QR runs on: one of [`Scalar`]'s that faer's
/// products take.
pub(super) trait Field: Scalar + faer::traits::ComplexField + Default {}
impl Field for f32 {}
impl Field for f64 {}
impl Field for c32 {}
impl Field for c64 {}

/// geqrf on one row-major m x n matrix, in place: R on and above the
/// diagonal; below it, reflector j's vector v (v_j = 1 implied) in column
/// j; `tau[j]` its scale, so that H_j = I - tau_j v vᴴ and
/// A = H_0 H_1 ... H_{k-1} R (LAPACK's choice of reflector, so R's
/// diagonal signs match XLA:CPU's).
pub(super) fn geqrf<T: Field>(a: &mut [T], m: usize, n: usize, tau: &mut [T]) {
    let k = m.min(n);
    for j0 in (0..k).step_by(PANEL) {
        let columns = j0..(j0 + PANEL).min(k);
        let mut panel = copy_panel(a, (m, n), columns.clone());
        let panel_tau = &mut tau[columns.clone()];
        with_avx2(
            #[inline(always)]
            || factor_panel(&mut panel, m - j0, panel_tau),
        );
        store_panel(a, (m, n), columns.clone(), &panel);
        reflect_right_of(a, (m, n), columns, &panel, &tau[j0..], true);
    }
}

/// orgqr / ungqr on one row-major m x n matrix holding geqrf's
/// `tau.len()` = k reflectors, in place: the first n columns of
/// Q = H_0 H_1 ... H_{k-1}, built from the last panel back. Needs
/// k <= n <= m (the verifier's).
pub(super) fn orgqr<T: Field>(q: &mut [T], m: usize, n: usize, tau: &[T]) {
    let k = tau.len();
    // Columns past the reflectors start as the identity's.
    for j in k..n {
        for i in 0..m {
            q[i * n + j] = if i == j { T::one() } else { T::zero() };
        }
    }
    for j0 in (0..k).step_by(PANEL).rev() {
        let columns = j0..(j0 + PANEL).min(k);
        let mut panel = copy_panel(q, (m, n), columns.clone());
        // The columns right of the panel hold the product of the later
        // reflectors (zero above row `columns.end`): the panel's block
        // applies to their rows j0...
        reflect_right_of(q, (m, n), columns.clone(), &panel, &tau[j0..], false);
        with_avx2(
            #[inline(always)]
            || panel_product(&mut panel, m - j0, &tau[columns.clone()]),
        );
        store_panel(q, (m, n), columns.clone(), &panel);
        for row in q.chunks_exact_mut(n).take(j0) {
            row[columns.clone()].fill(T::zero());
        }
    }
}

/// The block reflector of the panel `columns` (held column-major in
/// `panel`, their taus first in `tau`) applied to rows `columns.start`..
/// of the columns right of the panel: its adjoint (geqrf's update) or
/// itself (orgqr's).
fn reflect_right_of<T: Field>(
    a: &mut [T],
    (m, n): (usize, usize),
    columns: Range<usize>,
    panel: &[T],
    tau: &[T],
    adjoint: bool,
) {
    if columns.end >= n {
        return;
    }
    let (j0, rows) = (columns.start, m - columns.start);
    let taus = &tau[..columns.len()];
    let block = with_avx2(
        #[inline(always)]
        || BlockReflector::new(panel, rows, taus),
    );
    let whole = MatMut::from_row_major_slice_mut(a, m, n);
    block.apply(
        whole.submatrix_mut(j0, columns.end, rows, n - columns.end),
        adjoint,
    );
}

/// geqr2 on a column-major panel of `rows` rows (`tau.len()` columns, no
/// more than rows): each column's reflector made, then applied to the
/// columns right of it.
#[inline(always)]
fn factor_panel<T: Field>(panel: &mut [T], rows: usize, tau: &mut [T]) {
    for (j, t) in tau.iter_mut().enumerate() {
        let (left, right) = panel.split_at_mut((j + 1) * rows);
        let Some((alpha, x)) = left[j * rows + j..].split_first_mut() else {
            break;
        };
        let Some(r) = Reflector::choose(*alpha, norm_squared(x)) else {
            // No reflection (tau = 0): the columns right of it stay.
            *t = T::zero();
            continue;
        };
        for xi in x.iter_mut() {
            *xi = *xi * r.inverse;
        }
        *t = r.tau;
        *alpha = T::one();
        let v = &left[j * rows + j..];
        for column in right.chunks_exact_mut(rows) {
            // H_jᴴ = I - conj(tau) v vᴴ.
            reflect(&mut column[j..], v, r.tau.conjugate());
        }
        left[j * rows + j] = r.beta;
    }
}

/// org2r on a column-major panel of `rows` rows holding the reflectors of
/// `tau` (the first at row 0): the panel's columns of their product.
#[inline(always)]
fn panel_product<T: Field>(panel: &mut [T], rows: usize, tau: &[T]) {
    for (j, &t) in tau.iter().enumerate().rev() {
        let (left, right) = panel.split_at_mut((j + 1) * rows);
        let column = &mut left[j * rows..];
        column[j] = T::one();
        for other in right.chunks_exact_mut(rows) {
            reflect(&mut other[j..], &column[j..], t);
        }
        for x in column[j + 1..].iter_mut() {
            *x = -(t * *x);
        }
        column[j] = T::one() - t;
        column[..j].fill(T::zero());
    }
}

/// x := x - coef · v (vᴴ x).
#[inline(always)]
fn reflect<T: Field>(x: &mut [T], v: &[T], coef: T) {
    let s = coef * dot(v, x, |a: T| a.conjugate());
    for (xi, &vi) in x.iter_mut().zip(v) {
        *xi = *xi - vi * s;
    }
}

/// Σ |x[i]|², in partial sums as [`dot`]'s.
#[inline(always)]
fn norm_squared<T: Field>(x: &[T]) -> T::Part {
    let mut acc = [T::Part::zero(); 8];
    let chunks = x.chunks_exact(8);
    let rest = chunks.remainder();
    for a in chunks {
        for l in 0..8 {
            acc[l] = acc[l] + a[l].abs_squared();
        }
    }
    for (l, &a) in rest.iter().enumerate() {
        acc[l] = acc[l] + a.abs_squared();
    }
    acc.iter().fold(T::Part::zero(), |s, &p| s + p)
}

/// H_j0 H_j0+1 ... H_j1-1 = I - V T Vᴴ for the reflectors of a panel.
struct BlockReflector<T: Field> {
    /// The reflectors' vectors as a dense column-major `rows` x b matrix:
    /// the implied unit diagonal written out, zeros above it.
    v: Vec<T>,
    rows: usize,
    /// Upper triangular b x b, column-major (larft, forward and
    /// columnwise).
    t: Vec<T>,
}

impl<T: Field> BlockReflector<T> {
    /// From the column-major panel of `rows` rows holding the reflectors
    /// of `tau` (no more than [`PANEL`]).
    #[inline(always)]
    fn new(panel: &[T], rows: usize, tau: &[T]) -> Self {
        let b = tau.len();
        let mut v = panel.to_vec();
        for (c, column) in v.chunks_exact_mut(rows).enumerate() {
            column[..c].fill(T::zero());
            column[c] = T::one();
        }
        // larft's recurrence: T[..c, c] = -tau_c T[..c, ..c] (V[:, ..c]ᴴ v_c),
        // T[c, c] = tau_c (v_c is zero above row c).
        let mut t = vec![T::zero(); b * b];
        let mut w = [T::zero(); PANEL];
        for (c, &tau_c) in tau.iter().enumerate() {
            let v_c = &v[c * rows + c..(c + 1) * rows];
            for (l, w_l) in w.iter_mut().enumerate().take(c) {
                *w_l = dot(&v[l * rows + c..(l + 1) * rows], v_c, |a: T| a.conjugate());
            }
            for r in 0..c {
                let tw = (r..c).fold(T::zero(), |s, l| s + t[l * b + r] * w[l]);
                t[c * b + r] = -(tau_c * tw);
            }
            t[c * b + c] = tau_c;
        }
        BlockReflector { v, rows, t }
    }

    fn v(&self) -> MatRef<'_, T> {
        MatRef::from_column_major_slice(&self.v, self.rows, self.v.len() / self.rows)
    }

    fn t(&self) -> MatRef<'_, T> {
        let b = self.v.len() / self.rows;
        MatRef::from_column_major_slice(&self.t, b, b)
    }

    /// c := (I - V T Vᴴ)ᴴ c when `adjoint` (geqrf's update), else
    /// (I - V T Vᴴ) c (orgqr's): c - V (T' (Vᴴ c)). Wide enough, the
    /// columns of c are shared between the pool's threads.
    fn apply(&self, c: MatMut<'_, T>, adjoint: bool) {
        let cols = c.ncols();
        if cols >= 2 * MIN_SPLIT_COLS && c.nrows() * cols >= MIN_SPLIT_WORK {
            let (left, right) = c.split_at_col_mut(cols / 2);
            rayon::join(|| self.apply(left, adjoint), || self.apply(right, adjoint));
            return;
        }
        let mut c = c;
        let (v, t) = (self.v(), self.t());
        let mut w = Mat::from_fn(t.nrows(), cols, |_, _| T::zero());
        matmul(
            w.rb_mut(),
            Accum::Replace,
            v.adjoint(),
            c.rb(),
            T::one(),
            Par::Seq,
        );
        let mut tw = Mat::from_fn(t.nrows(), cols, |_, _| T::zero());
        if adjoint {
            matmul(
                tw.rb_mut(),
                Accum::Replace,
                t.adjoint(),
                w.rb(),
                T::one(),
                Par::Seq,
            );
        } else {
            matmul(tw.rb_mut(), Accum::Replace, t, w.rb(), T::one(), Par::Seq);
        }
        matmul(c.rb_mut(), Accum::Add, v, tw.rb(), -T::one(), Par::Seq);
    }
}

#[cfg(test)]
mod tests {
    use num_traits::{NumCast, ToPrimitive};

    use super::*;

    /// A reproducible m x n matrix of entries in [-1, 1).
    fn matrix<T: Field>(m: usize, n: usize, seed: u64) -> Vec<T> {
        let mut state = seed;
        let mut next = move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        };
        (0..m * n)
            .map(|_| {
                let (re, im) = (next(), next());
                T::from_parts(NumCast::from(re).unwrap(), NumCast::from(im).unwrap())
            })
            .collect()
    }

    fn largest_difference<T: Field>(x: &[T], y: &[T]) -> f64 {
        x.iter()
            .zip(y)
            .map(|(&a, &b)| (a - b).abs_squared().sqrt().to_f64().unwrap())
            .fold(0.0, f64::max)
    }

    /// The blocked factors and Q are the unblocked ones but for rounding:
    /// tall, square, wide, a panel boundary inside the last block, and
    /// fewer reflectors than columns of Q.
    fn blocked_matches_unblocked<T: Field>(tolerance: f64) {
        for (m, n, q_cols) in [
            (70, 50, 50),
            (96, 96, 96),
            (40, 100, 40),
            (65, 33, 65),
            (9, 5, 7),
        ] {
            let a: Vec<T> = matrix(m, n, (m * n) as u64);
            let k = m.min(n);
            let (mut blocked, mut tau_blocked) = (a.clone(), vec![T::zero(); k]);
            geqrf(&mut blocked, m, n, &mut tau_blocked);
            let (mut plain, mut tau_plain) = (a.clone(), vec![T::zero(); k]);
            householder_qr(&mut plain, m, n, &mut tau_plain);
            assert!(
                largest_difference(&blocked, &plain) < tolerance,
                "{m}x{n} factors"
            );
            assert!(
                largest_difference(&tau_blocked, &tau_plain) < tolerance,
                "{m}x{n} taus"
            );

            // Q from the first q_cols columns (the rest of a complete Q
            // past them is what the lowering fills in).
            let take = |f: &[T]| -> Vec<T> {
                (0..m * q_cols)
                    .map(|e| {
                        let (i, j) = (e / q_cols, e % q_cols);
                        if j < n { f[i * n + j] } else { T::zero() }
                    })
                    .collect()
            };
            let (mut q_blocked, mut q_plain) = (take(&plain), take(&plain));
            orgqr(&mut q_blocked, m, q_cols, &tau_plain[..k.min(q_cols)]);
            householder_product(&mut q_plain, m, q_cols, &tau_plain[..k.min(q_cols)]);
            assert!(
                largest_difference(&q_blocked, &q_plain) < tolerance,
                "{m}x{q_cols} q"
            );
        }
    }

    #[test]
    fn blocked_qr_matches_unblocked_f64() {
        blocked_matches_unblocked::<f64>(1e-12);
    }

    #[test]
    fn blocked_qr_matches_unblocked_f32() {
        blocked_matches_unblocked::<f32>(2e-4);
    }

    #[test]
    fn blocked_qr_matches_unblocked_c64() {
        blocked_matches_unblocked::<c64>(1e-12);
    }
}
