//! Matrix decompositions for generated code: what JAX's LAPACK custom calls
//! compute on CPU (geqrf, orgqr/ungqr, gehrd, sytrd/hetrd, syevd/heevd,
//! gesdd, geev), one call per
//! batch of matrices, the matrices of a batch in parallel on the pool.
//!
//! Buffers hold the tensors' values: `batch` dense row-major matrices one
//! after the other, complex elements as (re, im) pairs — the layout of
//! `num_complex::Complex`, so they are read as `faer::c32` / `faer::c64`.
//!
//! Which code computes what, and why:
//! - QR (`strata_rt_householder_qr`, `strata_rt_householder_product`), and
//!   the Hessenberg and tridiagonal reductions built from the same
//!   reflectors (`strata_rt_hessenberg`, `strata_rt_tridiagonal`), are
//!   written here, unblocked, in LAPACK's conventions: JAX exposes the
//!   reflectors and `tau` themselves (`lax.linalg.geqrf`), and `jnp.linalg.qr`
//!   returns R with LAPACK's diagonal signs, so the results must follow
//!   geqrf's choice of reflector (beta = -sign(Re alpha)·‖(alpha, x)‖,
//!   tau = (beta - alpha)/beta, v = x/(alpha - beta)) to match XLA:CPU. A
//!   library's QR (faer's is blocked, with its own sign and storage choices)
//!   would give another, equally valid, factorization.
//! - Eigenvalues and singular values are unique, so `strata_rt_eigh` and
//!   `strata_rt_svd` use `faer` (a maintained pure-Rust library: the `.so`
//!   stays standalone). Eigenvalues come ascending and singular values
//!   descending, as LAPACK returns them. The vectors are unique only up to
//!   sign (real) or phase (complex) per vector — up to any rotation within
//!   a repeated eigenvalue's space — so they may differ from XLA:CPU's that
//!   way; every product JAX builds from them (reconstructions, `pinv`,
//!   `lstsq`) does not depend on the choice.
//! - General eigenproblems (`strata_rt_eig`, geev) use faer's Hessenberg
//!   and Schur reduction, which follows LAPACK's. For real matrices the
//!   eigenvalues came out in LAPACK's order in every case compared with
//!   XLA:CPU; for complex ones the order can differ (faer's complex QR
//!   iteration deflates in its own order). Eigenvectors are normalized as
//!   geev normalizes them (unit norm; a complex one turned so its largest
//!   component is real), which leaves a sign per vector that follows the
//!   Schur vectors: it matched XLA:CPU's in 35 of 40 random real matrices
//!   and is the opposite in the rest.

use std::ops::{Add, Div, Mul, Neg, Sub};

use faer::linalg::evd;
use faer::{MatRef, Side, c32, c64};
use num_traits::{Float, One, Zero};
use rayon::prelude::*;

use strata_abi::{ElemCode, LINALG_LEFT_VECTORS, LINALG_LOWER, LINALG_VECTORS, LinalgDesc};

use crate::error::set_error;
use crate::ffi_guard;

/// A matrix element: f32, f64 and their complex numbers. The decompositions
/// of a library are reached through the two `faer_*` functions.
trait Scalar:
    Copy
    + Send
    + Sync
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + 'static
{
    /// The type of the real and imaginary parts.
    type Part: Float + Send + Sync + 'static;
    /// Whether this is a complex type.
    const COMPLEX: bool;
    /// `re + i·im`; real types drop `im`.
    fn from_parts(re: Self::Part, im: Self::Part) -> Self;
    fn parts(self) -> (Self::Part, Self::Part);
    fn conjugate(self) -> Self;

    fn from_real(re: Self::Part) -> Self {
        Self::from_parts(re, Self::Part::zero())
    }
    fn zero() -> Self {
        Self::from_real(Self::Part::zero())
    }
    fn one() -> Self {
        Self::from_real(Self::Part::one())
    }
    fn abs_squared(self) -> Self::Part {
        let (re, im) = self.parts();
        re * re + im * im
    }

    /// faer's eigendecomposition of the self-adjoint matrix `a` (reading the
    /// `lower` or upper triangle): the eigenvalues ascending and, if
    /// `vectors`, the eigenvectors as columns (row-major, n x n).
    fn faer_eigh(a: MatRef<'_, Self>, lower: bool, vectors: bool) -> Option<Eigh<Self>>;

    /// faer's SVD of `a` (m x n): singular values descending and, if
    /// asked, u (m x u_cols) and vᴴ (vt_rows x n), row-major.
    fn faer_svd(a: MatRef<'_, Self>, vectors: Option<SvdShape>) -> Option<SvdResult<Self>>;

    /// faer's eigendecomposition of the general matrix `a`, as complex
    /// numbers, before geev's normalization (see [`Eig`]).
    fn faer_eig(a: MatRef<'_, Self>, left: bool, right: bool) -> Option<Eig<Self::Part>>;
}

/// A general eigendecomposition: eigenvalues and, when asked, the left and
/// right eigenvectors as the columns of row-major n x n matrices, every
/// number as (re, im). For a real matrix, a complex-conjugate pair comes
/// as geev orders it: the eigenvalue with the positive imaginary part first.
struct Eig<P> {
    values: Vec<(P, P)>,
    left: Option<Vec<(P, P)>>,
    right: Option<Vec<(P, P)>>,
}

struct Eigh<T: Scalar> {
    values: Vec<T::Part>,
    vectors: Option<Vec<T>>,
}

/// The factors an SVD returns: full (`u_cols` = m, `vt_rows` = n) or
/// reduced (both min(m, n)).
#[derive(Clone, Copy)]
struct SvdShape {
    u_cols: usize,
    vt_rows: usize,
}

struct SvdResult<T: Scalar> {
    values: Vec<T::Part>,
    u_vt: Option<(Vec<T>, Vec<T>)>,
}

macro_rules! real_scalar {
    ($t:ty) => {
        impl Scalar for $t {
            type Part = $t;
            const COMPLEX: bool = false;
            fn from_parts(re: $t, _im: $t) -> $t {
                re
            }
            fn parts(self) -> ($t, $t) {
                (self, 0.0)
            }
            fn conjugate(self) -> $t {
                self
            }
            fn faer_eigh(a: MatRef<'_, $t>, lower: bool, vectors: bool) -> Option<Eigh<$t>> {
                eigh_with_faer!(a, lower, vectors)
            }
            fn faer_svd(a: MatRef<'_, $t>, vectors: Option<SvdShape>) -> Option<SvdResult<$t>> {
                svd_with_faer!(a, vectors)
            }
            fn faer_eig(a: MatRef<'_, $t>, left: bool, right: bool) -> Option<Eig<$t>> {
                let n = a.nrows();
                let (mut re, mut im) = (
                    faer::diag::Diag::<$t>::zeros(n),
                    faer::diag::Diag::<$t>::zeros(n),
                );
                let (mut ul, mut ur, mut mem) = eig_workspace::<$t>(n, left, right);
                evd::evd_real(
                    a,
                    re.as_mut(),
                    im.as_mut(),
                    left.then(|| ul.as_mut()),
                    right.then(|| ur.as_mut()),
                    faer::Par::Seq,
                    faer::dyn_stack::MemStack::new(&mut mem),
                    Default::default(),
                )
                .ok()?;
                let re: Vec<$t> = (0..n).map(|i| re[i]).collect();
                let im: Vec<$t> = (0..n).map(|i| im[i]).collect();
                Some(unpack_real_eig(
                    &re,
                    &im,
                    left.then(|| row_major(ul.as_ref())),
                    right.then(|| row_major(ur.as_ref())),
                ))
            }
        }
    };
}

macro_rules! complex_scalar {
    ($t:ty, $part:ty) => {
        impl Scalar for $t {
            type Part = $part;
            const COMPLEX: bool = true;
            fn from_parts(re: $part, im: $part) -> $t {
                <$t>::new(re, im)
            }
            fn parts(self) -> ($part, $part) {
                (self.re, self.im)
            }
            fn conjugate(self) -> $t {
                self.conj()
            }
            fn faer_eigh(a: MatRef<'_, $t>, lower: bool, vectors: bool) -> Option<Eigh<$t>> {
                eigh_with_faer!(a, lower, vectors)
            }
            fn faer_svd(a: MatRef<'_, $t>, vectors: Option<SvdShape>) -> Option<SvdResult<$t>> {
                svd_with_faer!(a, vectors)
            }
            fn faer_eig(a: MatRef<'_, $t>, left: bool, right: bool) -> Option<Eig<$part>> {
                let n = a.nrows();
                let mut values = faer::diag::Diag::<$t>::zeros(n);
                let (mut ul, mut ur, mut mem) = eig_workspace::<$t>(n, left, right);
                evd::evd_cplx(
                    a,
                    values.as_mut(),
                    left.then(|| ul.as_mut()),
                    right.then(|| ur.as_mut()),
                    faer::Par::Seq,
                    faer::dyn_stack::MemStack::new(&mut mem),
                    Default::default(),
                )
                .ok()?;
                let parts = |u: &faer::Mat<$t>| {
                    row_major(u.as_ref())
                        .into_iter()
                        .map(|x| x.parts())
                        .collect()
                };
                Some(Eig {
                    values: (0..n).map(|i| values[i].parts()).collect(),
                    left: left.then(|| parts(&ul)),
                    right: right.then(|| parts(&ur)),
                })
            }
        }
    };
}

/// The left and right eigenvector matrices (n x n when asked for, else
/// empty) and the workspace that faer's general eigensolvers write to.
fn eig_workspace<T: faer::traits::ComplexField>(
    n: usize,
    left: bool,
    right: bool,
) -> (faer::Mat<T>, faer::Mat<T>, faer::dyn_stack::MemBuffer) {
    let columns = |asked: bool| if asked { n } else { 0 };
    let scratch = evd::evd_scratch::<T>(
        n,
        compute(left),
        compute(right),
        faer::Par::Seq,
        Default::default(),
    );
    (
        faer::Mat::zeros(n, columns(left)),
        faer::Mat::zeros(n, columns(right)),
        faer::dyn_stack::MemBuffer::new(scratch),
    )
}

/// The elements of `u`, row by row.
fn row_major<T: Copy>(u: MatRef<'_, T>) -> Vec<T> {
    let cols = u.ncols();
    (0..u.nrows() * cols)
        .map(|k| u[(k / cols, k % cols)])
        .collect()
}

/// faer's flag for computing eigenvectors or not.
fn compute(yes: bool) -> evd::ComputeEigenvectors {
    if yes {
        evd::ComputeEigenvectors::Yes
    } else {
        evd::ComputeEigenvectors::No
    }
}

/// A real eigendecomposition as complex numbers. faer, like LAPACK, keeps
/// the eigenvalues as (re, im) parts and a complex pair's vectors in two
/// real columns: v_j = u_j + i·u_{j+1} for the eigenvalue re_j + i·im_j,
/// and its conjugate for the other. A pair whose first eigenvalue has the
/// negative imaginary part is swapped into geev's order.
fn unpack_real_eig<P: Float>(
    re: &[P],
    im: &[P],
    left: Option<Vec<P>>,
    right: Option<Vec<P>>,
) -> Eig<P> {
    let n = re.len();
    let zero = P::zero();
    let mut values: Vec<(P, P)> = re.iter().zip(im).map(|(&r, &i)| (r, i)).collect();
    let unpack = |u: &[P]| {
        let mut v = vec![(zero, zero); n * n];
        let mut j = 0;
        while j < n {
            if im[j] == zero || j + 1 == n {
                for i in 0..n {
                    v[i * n + j] = (u[i * n + j], zero);
                }
                j += 1;
            } else {
                let sign = if im[j] > zero { P::one() } else { -P::one() };
                for i in 0..n {
                    let (a, b) = (u[i * n + j], u[i * n + j + 1]);
                    // The first column of the pair gets the vector of the
                    // eigenvalue with the positive imaginary part.
                    v[i * n + j] = (a, sign * b);
                    v[i * n + j + 1] = (a, -(sign * b));
                }
                j += 2;
            }
        }
        v
    };
    let left = left.map(|u| unpack(&u));
    let right = right.map(|u| unpack(&u));
    let mut j = 0;
    while j < n {
        if im[j] == zero || j + 1 == n {
            j += 1;
        } else {
            let magnitude = im[j].abs();
            values[j] = (re[j], magnitude);
            values[j + 1] = (re[j], -magnitude);
            j += 2;
        }
    }
    Eig {
        values,
        left,
        right,
    }
}

/// geev's normalization of eigenvectors (the columns of the row-major
/// n x n `v`): each to Euclidean norm 1 and, when complex (any vector of a
/// complex matrix, a complex pair's of a real one), turned so that its
/// component of largest modulus (the first of equal ones) is real: positive
/// for a complex matrix (zgeev), of the sign its real part had for a real
/// one (dgeev's rotation, LAPACK 3.10's dlartg). A real matrix's real
/// eigenvectors keep their sign.
fn normalize_eigenvectors<P: Float>(v: &mut [(P, P)], n: usize, complex_matrix: bool) {
    for j in 0..n {
        let column = |i: usize| i * n + j;
        let norm = (0..n).fold(P::zero(), |acc, i| {
            let (re, im) = v[column(i)];
            acc.hypot(re.hypot(im))
        });
        if norm == P::zero() || !norm.is_finite() {
            continue;
        }
        let is_complex = complex_matrix || (0..n).any(|i| v[column(i)].1 != P::zero());
        let mut scale = (P::one() / norm, P::zero());
        let mut largest = None;
        if is_complex {
            let mut best = (0, P::neg_infinity());
            for i in 0..n {
                let (re, im) = v[column(i)];
                let m = re * re + im * im;
                if m > best.1 {
                    best = (i, m);
                }
            }
            let (re, im) = v[column(best.0)];
            let modulus = re.hypot(im);
            if modulus != P::zero() {
                // conj(v_k) / |v_k|, divided by the norm. A real matrix's
                // pair is turned by a plane rotation (dlartg), which leaves
                // v_k with the sign of its real part.
                let sign = if !complex_matrix && re < P::zero() {
                    -P::one()
                } else {
                    P::one()
                };
                let r = sign / modulus / norm;
                scale = (re * r, -im * r);
                largest = Some(best.0);
            }
        }
        for i in 0..n {
            let (re, im) = v[column(i)];
            v[column(i)] = (re * scale.0 - im * scale.1, re * scale.1 + im * scale.0);
        }
        if let Some(k) = largest {
            // Exactly real, as geev leaves it.
            v[column(k)].1 = P::zero();
        }
    }
}

/// The body of `Scalar::faer_eigh` for one concrete type (faer's entry
/// points are generic over traits of its own; concrete types avoid
/// restating their bounds).
macro_rules! eigh_with_faer {
    ($a:expr, $lower:expr, $vectors:expr) => {{
        let side = if $lower { Side::Lower } else { Side::Upper };
        let n = $a.nrows();
        if !$vectors {
            let values = $a.self_adjoint_eigenvalues(side).ok()?;
            return Some(Eigh {
                values,
                vectors: None,
            });
        }
        let evd = $a.self_adjoint_eigen(side).ok()?;
        let s = evd.S().column_vector();
        let values = (0..n).map(|i| s[i].parts().0).collect();
        let vectors = row_major(evd.U());
        Some(Eigh {
            values,
            vectors: Some(vectors),
        })
    }};
}

/// The body of `Scalar::faer_svd` for one concrete type.
macro_rules! svd_with_faer {
    ($a:expr, $vectors:expr) => {{
        let (m, n) = ($a.nrows(), $a.ncols());
        let Some(shape) = $vectors else {
            let values = $a.singular_values().ok()?;
            return Some(SvdResult { values, u_vt: None });
        };
        let full = shape.u_cols == m && shape.vt_rows == n;
        let svd = if full { $a.svd() } else { $a.thin_svd() }.ok()?;
        let s = svd.S().column_vector();
        let values = (0..m.min(n)).map(|i| s[i].parts().0).collect();
        let (u, v) = (svd.U(), svd.V());
        let uc = shape.u_cols;
        let u_rows = (0..m * uc).map(|k| u[(k / uc, k % uc)]).collect();
        // vᴴ: row i is the conjugate of v's column i.
        let vt_rows = (0..shape.vt_rows * n)
            .map(|k| v[(k % n, k / n)].conjugate())
            .collect();
        Some(SvdResult {
            values,
            u_vt: Some((u_rows, vt_rows)),
        })
    }};
}

real_scalar!(f32);
real_scalar!(f64);
complex_scalar!(c32, f32);
complex_scalar!(c64, f64);

mod cholesky;
mod entries;
mod householder;
mod jacobi_svd;
mod lu;
mod panel;
mod qr;
mod trsm;

pub use cholesky::strata_rt_potrf;
use entries::by_elem;
#[cfg(test)]
use entries::eig_one;
pub use entries::*;
use householder::*;
pub use lu::strata_rt_getrf;
use qr::*;
pub use trsm::strata_rt_trsm;

#[cfg(test)]
mod tests {
    use super::*;

    /// Row-major product of a (m x k) and b (k x n).
    fn matmul(a: &[f64], b: &[f64], m: usize, k: usize, n: usize) -> Vec<f64> {
        (0..m * n)
            .map(|x| (0..k).map(|l| a[x / n * k + l] * b[l * n + x % n]).sum())
            .collect()
    }

    #[test]
    fn qr_reconstructs_with_lapack_signs() {
        let (m, n) = (4, 3);
        let a = [2.0, -1.0, 0.5, 1.0, 3.0, 1.0, -2.0, 0.0, 4.0, 1.0, 1.0, 1.0];
        let mut f = a.to_vec();
        let mut tau = [0.0; 3];
        geqrf(&mut f, m, n, &mut tau);
        // alpha = 2 > 0, so R's first diagonal element is -‖column 0‖.
        assert!((f[0] + 10f64.sqrt()).abs() < 1e-12, "{f:?}");
        let r: Vec<f64> = (0..n * n)
            .map(|x| {
                if x / n <= x % n {
                    f[x / n * n + x % n]
                } else {
                    0.0
                }
            })
            .collect();
        let mut q = f.clone();
        orgqr(&mut q, m, n, &tau);
        let qr = matmul(&q, &r, m, n, n);
        for (x, y) in qr.iter().zip(&a) {
            assert!((x - y).abs() < 1e-12, "{qr:?}");
        }
    }

    /// A rotation by 90° about z, scaled: eigenvalues ±2i (the positive
    /// one first, as geev orders a pair) and 3, each pair vector of unit
    /// norm with its largest component real; a NaN gives info 1.
    #[test]
    fn eig_orders_pairs_and_normalizes_vectors() {
        let a = [0.0, -2.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 3.0f64];
        let (mut val, mut left, mut right) = ([0.0; 6], [0.0; 18], [0.0; 18]);
        let m = MatRef::from_row_major_slice(&a, 3, 3);
        assert_eq!(
            eig_one(m, (false, true), &mut val, &mut left, &mut right),
            0
        );
        let values: Vec<(f64, f64)> = val.chunks(2).map(|p| (p[0], p[1])).collect();
        let near = |x: f64, y: f64| (x - y).abs() < 1e-12;
        let expected = [(0.0, 2.0), (0.0, -2.0), (3.0, 0.0)];
        for (got, want) in values.iter().zip(expected) {
            assert!(near(got.0, want.0) && near(got.1, want.1), "{values:?}");
        }
        assert!(
            left.iter().all(|&x| x == 0.0),
            "left vectors were not asked for"
        );
        for j in 0..3 {
            let column: Vec<(f64, f64)> = (0..3)
                .map(|i| (right[6 * i + 2 * j], right[6 * i + 2 * j + 1]))
                .collect();
            let norm: f64 = column.iter().map(|(re, im)| re * re + im * im).sum();
            assert!(near(norm, 1.0), "column {j}: {column:?}");
            let largest = column
                .iter()
                .max_by(|x, y| (x.0.hypot(x.1)).total_cmp(&y.0.hypot(y.1)))
                .copied()
                .unwrap_or_default();
            assert_eq!(largest.1, 0.0, "column {j}: {column:?}");
        }
        let bad = [f64::NAN, 0.0, 0.0, 1.0];
        let (mut val, mut l, mut r) = ([0.0; 4], [0.0; 8], [0.0; 8]);
        let m = MatRef::from_row_major_slice(&bad, 2, 2);
        assert_eq!(eig_one(m, (true, true), &mut val, &mut l, &mut r), 1);
        assert!(val.iter().chain(&l).chain(&r).all(|x| x.is_nan()));
    }

    #[test]
    fn svd_values_descend_and_eigenvalues_ascend() {
        let a = [4.0, 1.0, 1.0, 3.0];
        let m = MatRef::from_row_major_slice(&a, 2, 2);
        let e = f64::faer_eigh(m, true, true).expect("converges");
        assert!(e.values[0] < e.values[1]);
        let s = f64::faer_svd(
            m,
            Some(SvdShape {
                u_cols: 2,
                vt_rows: 2,
            }),
        )
        .expect("converges");
        assert!(s.values[0] > s.values[1]);
        assert!((e.values[1] - s.values[0]).abs() < 1e-12);
    }
}
