//! Householder reflectors in LAPACK's conventions (geqrf's choice of
//! reflector, so R's diagonal signs match XLA:CPU's): QR, the product of
//! the reflectors, and the Hessenberg and tridiagonal reductions built from
//! them, plus the tridiagonal solver (gtsv).

use std::ops::Range;

use super::*;

/// LAPACK's geqrf (the unblocked geqr2) on one row-major m x n matrix, in
/// place: R on and above the diagonal; below it, reflector j's vector v
/// (v_j = 1 implied) in column j; `tau[j]` its scale, so that
/// H_j = I - tau_j v vᴴ and A = H_0 H_1 ... H_{k-1} R. The reference the
/// blocked [`super::qr::geqrf`] is tested against.
#[cfg(test)]
pub(super) fn householder_qr<T: Scalar>(a: &mut [T], m: usize, n: usize, tau: &mut [T]) {
    for (j, t) in tau.iter_mut().enumerate().take(m.min(n)) {
        let (scale, beta) = make_reflector(a, m, n, (j, j));
        *t = scale;
        if j + 1 < n {
            // Apply H_jᴴ = I - conj(tau) v vᴴ to the columns on the right.
            a[j * n + j] = T::one();
            apply_reflector(a, (m, n), (j, j), j + 1..n, scale.conjugate());
        }
        a[j * n + j] = beta;
    }
}

/// The reflector that maps column `col`'s (alpha, x), alpha at row `row`
/// and x below it (to row m), onto (beta, 0), as LAPACK's larfg chooses
/// it; x is overwritten by v's tail. Returns (tau, beta). x = 0 with a
/// real alpha needs none: tau = 0.
fn make_reflector<T: Scalar>(
    a: &mut [T],
    m: usize,
    n: usize,
    (row, col): (usize, usize),
) -> (T, T) {
    let alpha = a[row * n + col];
    let tail_norm_squared =
        (row + 1..m).fold(T::Part::zero(), |s, i| s + a[i * n + col].abs_squared());
    let Some(r) = Reflector::choose(alpha, tail_norm_squared) else {
        return (T::zero(), alpha);
    };
    for i in row + 1..m {
        a[i * n + col] = a[i * n + col] * r.inverse;
    }
    (r.tau, r.beta)
}

/// larfg's choice for (alpha, x) with ‖x‖² = `tail_norm_squared`: H (alpha,
/// x) = (beta, 0) with beta real of the sign opposite to alpha's real
/// part; v = (1, x · inverse). `None` when no reflection is needed (x = 0
/// and alpha real: tau = 0).
pub(super) struct Reflector<T: Scalar> {
    pub tau: T,
    pub beta: T,
    pub inverse: T,
}

impl<T: Scalar> Reflector<T> {
    pub(super) fn choose(alpha: T, tail_norm_squared: T::Part) -> Option<Self> {
        let (re, im) = alpha.parts();
        if tail_norm_squared == T::Part::zero() && im == T::Part::zero() {
            return None;
        }
        let norm = re.hypot(im).hypot(tail_norm_squared.sqrt());
        let beta = if re >= T::Part::zero() { -norm } else { norm };
        Some(Reflector {
            tau: T::from_parts((beta - re) / beta, -im / beta),
            beta: T::from_real(beta),
            inverse: T::one() / (alpha - T::from_real(beta)),
        })
    }
}

/// C := C - coef · v (vᴴ C), where C is rows `row`..m, columns `cols` of
/// `a` and v is column `col` from row `row` down (its first element set
/// to 1 by the caller). Row by row, so both passes walk memory in order.
fn apply_reflector<T: Scalar>(
    a: &mut [T],
    (m, n): (usize, usize),
    (row, col): (usize, usize),
    cols: Range<usize>,
    coef: T,
) {
    let mut w = vec![T::zero(); cols.len()];
    for i in row..m {
        let vi = a[i * n + col].conjugate();
        for (wc, &x) in w.iter_mut().zip(&a[i * n + cols.start..i * n + cols.end]) {
            *wc = *wc + vi * x;
        }
    }
    for wc in w.iter_mut() {
        *wc = coef * *wc;
    }
    for i in row..m {
        let vi = a[i * n + col];
        for (x, &wc) in a[i * n + cols.start..i * n + cols.end].iter_mut().zip(&w) {
            *x = *x - vi * wc;
        }
    }
}

/// C := C - tau · (C v) vᴴ, where C is columns `row`..n of every row of the
/// square n x n `a`, and v is column `col` from row `row` down (first
/// element 1): a reflector applied from the right.
fn apply_reflector_right<T: Scalar>(a: &mut [T], n: usize, (row, col): (usize, usize), tau: T) {
    let v: Vec<T> = (row..n).map(|i| a[i * n + col]).collect();
    for r in 0..n {
        let line = &mut a[r * n + row..(r + 1) * n];
        let cv = line
            .iter()
            .zip(&v)
            .fold(T::zero(), |s, (&x, &vk)| s + x * vk);
        let t = tau * cv;
        for (x, &vk) in line.iter_mut().zip(&v) {
            *x = *x - t * vk.conjugate();
        }
    }
}

/// LAPACK's gehrd (the unblocked gehd2, ilo = 1, ihi = n) on one
/// row-major n x n matrix, in place: the Hessenberg matrix on and above
/// the first subdiagonal; below it, reflector i's vector (v_{i+1} = 1
/// implied) in column i; `tau[i]` its scale (n - 1 of them), so that
/// A = Q H Qᴴ with Q = H_0 H_1 ... H_{n-2}.
pub(super) fn hessenberg<T: Scalar>(a: &mut [T], n: usize, tau: &mut [T]) {
    for (i, t) in tau.iter_mut().enumerate().take(n.saturating_sub(1)) {
        let at = (i + 1, i);
        let (scale, beta) = make_reflector(a, n, n, at);
        *t = scale;
        a[at.0 * n + at.1] = T::one();
        // A := A·H_i on columns i+1.., then A := H_iᴴ·A on rows i+1...
        apply_reflector_right(a, n, at, scale);
        apply_reflector(a, (n, n), at, i + 1..n, scale.conjugate());
        a[at.0 * n + at.1] = beta;
    }
}

/// LAPACK's sytrd / hetrd with uplo 'L' (the unblocked sytd2 / hetd2) on
/// one row-major n x n self-adjoint matrix (its lower triangle read), in
/// place: T = Qᴴ A Q tridiagonal, its diagonal in `d` and subdiagonal in
/// `e` (real), reflector i's vector below the subdiagonal of column i,
/// `tau[i]` its scale; the diagonal and subdiagonal of a hold d and e, the
/// strict upper triangle keeps a.
pub(super) fn tridiagonal<T: Scalar>(
    a: &mut [T],
    n: usize,
    d: &mut [T::Part],
    e: &mut [T::Part],
    tau: &mut [T],
) {
    let half = T::from_real(T::Part::one() / (T::Part::one() + T::Part::one()));
    let real = |x: T| T::from_real(x.parts().0);
    if n > 0 {
        // hetd2 works on the diagonal's real parts.
        a[0] = real(a[0]);
    }
    for i in 0..n.saturating_sub(1) {
        let at = (i + 1, i);
        let (taui, beta) = make_reflector(a, n, n, at);
        e[i] = beta.parts().0;
        if taui.abs_squared() != T::Part::zero() {
            a[at.0 * n + at.1] = T::one();
            let v: Vec<T> = (i + 1..n).map(|r| a[r * n + i]).collect();
            // The lower triangle stands for the whole matrix (hemv: the
            // diagonal's imaginary parts taken as zero).
            let elem = |a: &[T], r: usize, c: usize| match r.cmp(&c) {
                std::cmp::Ordering::Greater => a[r * n + c],
                std::cmp::Ordering::Equal => real(a[r * n + c]),
                std::cmp::Ordering::Less => a[c * n + r].conjugate(),
            };
            // w = tau·A v, then w -= (tau/2)(wᴴ v)·v.
            let mut w: Vec<T> = (i + 1..n)
                .map(|r| {
                    let av = (i + 1..n).fold(T::zero(), |s, c| s + elem(a, r, c) * v[c - i - 1]);
                    taui * av
                })
                .collect();
            let wv = w
                .iter()
                .zip(&v)
                .fold(T::zero(), |s, (&wk, &vk)| s + wk.conjugate() * vk);
            let alpha = -(half * taui * wv);
            for (wk, &vk) in w.iter_mut().zip(&v) {
                *wk = *wk + alpha * vk;
            }
            // A -= v wᴴ + w vᴴ on the lower triangle (her2: the diagonal
            // stays real).
            for r in i + 1..n {
                for c in i + 1..=r {
                    let (x, y) = (r - i - 1, c - i - 1);
                    let update = v[x] * w[y].conjugate() + w[x] * v[y].conjugate();
                    let updated = a[r * n + c] - update;
                    a[r * n + c] = if r == c { real(updated) } else { updated };
                }
            }
        } else {
            a[(i + 1) * n + i + 1] = real(a[(i + 1) * n + i + 1]);
        }
        a[at.0 * n + at.1] = T::from_real(e[i]);
        d[i] = a[i * n + i].parts().0;
        tau[i] = taui;
    }
    if n > 0 {
        d[n - 1] = a[(n - 1) * n + n - 1].parts().0;
    }
}

/// LAPACK's gtsv on one tridiagonal system, in place: Gaussian elimination
/// with partial pivoting (a row interchange when the subdiagonal element
/// is larger, by |re| + |im| for complex numbers), then back substitution.
/// `dl`, `d`, `du` have n elements as JAX passes them (dl[0] and du[n-1]
/// unused: LAPACK's DL(k) is dl[k]); `b` is row-major n x nrhs. On return
/// they hold what gtsv leaves: U's diagonals in d, du and (fill-in) dl, the
/// solution in b. Returns info: 0, or the 1-based row of a zero pivot (the
/// elimination stops there, as LAPACK's).
pub(super) fn tridiagonal_solve<T: Scalar>(
    dl: &mut [T],
    d: &mut [T],
    du: &mut [T],
    b: &mut [T],
    n: usize,
    nrhs: usize,
) -> i32 {
    let magnitude = |x: T| {
        let (re, im) = x.parts();
        re.abs() + im.abs()
    };
    let is_zero = |x: T| x.abs_squared() == T::Part::zero();
    for k in 0..n.saturating_sub(1) {
        let sub = dl[k + 1];
        if is_zero(sub) {
            if is_zero(d[k]) {
                return k as i32 + 1;
            }
        } else if magnitude(d[k]) >= magnitude(sub) {
            let mult = sub / d[k];
            d[k + 1] = d[k + 1] - mult * du[k];
            for j in 0..nrhs {
                b[(k + 1) * nrhs + j] = b[(k + 1) * nrhs + j] - mult * b[k * nrhs + j];
            }
            if k + 2 < n {
                dl[k + 1] = T::zero();
            }
        } else {
            // Rows k and k + 1 swap.
            let mult = d[k] / sub;
            d[k] = sub;
            let next = d[k + 1];
            d[k + 1] = du[k] - mult * next;
            if k + 2 < n {
                dl[k + 1] = du[k + 1];
                du[k + 1] = -(mult * dl[k + 1]);
            }
            du[k] = next;
            for j in 0..nrhs {
                let upper = b[k * nrhs + j];
                b[k * nrhs + j] = b[(k + 1) * nrhs + j];
                b[(k + 1) * nrhs + j] = upper - mult * b[(k + 1) * nrhs + j];
            }
        }
    }
    if n == 0 {
        return 0;
    }
    if is_zero(d[n - 1]) {
        return n as i32;
    }
    for j in 0..nrhs {
        let x = |b: &[T], i: usize| b[i * nrhs + j];
        b[(n - 1) * nrhs + j] = x(b, n - 1) / d[n - 1];
        if n > 1 {
            b[(n - 2) * nrhs + j] = (x(b, n - 2) - du[n - 2] * x(b, n - 1)) / d[n - 2];
        }
        for i in (0..n.saturating_sub(2)).rev() {
            b[i * nrhs + j] = (x(b, i) - du[i] * x(b, i + 1) - dl[i + 1] * x(b, i + 2)) / d[i];
        }
    }
    0
}

/// LAPACK's orgqr / ungqr (the unblocked org2r) on one row-major m x n
/// matrix holding geqrf's k reflectors, in place: the first n columns of
/// Q = H_0 H_1 ... H_{k-1}, built from the last reflector back so each
/// step only touches the trailing block. Needs k <= n <= m. The reference
/// the blocked [`super::qr::orgqr`] is tested against.
#[cfg(test)]
pub(super) fn householder_product<T: Scalar>(q: &mut [T], m: usize, n: usize, tau: &[T]) {
    let k = tau.len();
    // Columns past the reflectors start as the identity's.
    for j in k..n {
        for i in 0..m {
            q[i * n + j] = if i == j { T::one() } else { T::zero() };
        }
    }
    for (j, &t) in tau.iter().enumerate().rev() {
        if j + 1 < n {
            q[j * n + j] = T::one();
            apply_reflector(q, (m, n), (j, j), j + 1..n, t);
        }
        for i in j + 1..m {
            q[i * n + j] = -(t * q[i * n + j]);
        }
        q[j * n + j] = T::one() - t;
        for i in 0..j {
            q[i * n + j] = T::zero();
        }
    }
}
