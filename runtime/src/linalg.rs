//! Matrix decompositions for generated code: what JAX's LAPACK custom calls
//! compute on CPU (geqrf, orgqr/ungqr, syevd/heevd, gesdd), one call per
//! batch of matrices, the matrices of a batch in parallel on the pool.
//!
//! Buffers hold the tensors' values: `batch` dense row-major matrices one
//! after the other, complex elements as (re, im) pairs — the layout of
//! `num_complex::Complex`, so they are read as `faer::c32` / `faer::c64`.
//!
//! Which code computes what, and why:
//! - QR (`strata_rt_householder_qr`, `strata_rt_householder_product`) is
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

use std::ops::{Add, Div, Mul, Neg, Sub};

use faer::{MatRef, Side, c32, c64};
use num_traits::{Float, One, Zero};
use rayon::prelude::*;

use strata_abi::{ElemCode, LINALG_LOWER, LINALG_VECTORS, LinalgDesc};

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
        }
    };
}

macro_rules! complex_scalar {
    ($t:ty, $part:ty) => {
        impl Scalar for $t {
            type Part = $part;
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
        }
    };
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
        let u = evd.U();
        let vectors = (0..n * n).map(|k| u[(k / n, k % n)]).collect();
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

/// LAPACK's geqrf (the unblocked geqr2) on one row-major m x n matrix, in
/// place: R on and above the diagonal; below it, reflector j's vector v
/// (v_j = 1 implied) in column j; `tau[j]` its scale, so that
/// H_j = I - tau_j v vᴴ and A = H_0 H_1 ... H_{k-1} R.
fn householder_qr<T: Scalar>(a: &mut [T], m: usize, n: usize, tau: &mut [T]) {
    for (j, t) in tau.iter_mut().enumerate().take(m.min(n)) {
        let (scale, beta) = make_reflector(a, m, n, j);
        *t = scale;
        if j + 1 < n {
            // Apply H_jᴴ = I - conj(tau) v vᴴ to the columns on the right.
            a[j * n + j] = T::one();
            apply_reflector(a, m, n, j, j + 1, scale.conjugate());
        }
        a[j * n + j] = beta;
    }
}

/// The reflector that maps column j's (alpha, x) (rows j..m) onto
/// (beta, 0), as LAPACK's larfg chooses it; x is overwritten by v's tail.
/// Returns (tau, beta). x = 0 with a real alpha needs none: tau = 0.
fn make_reflector<T: Scalar>(a: &mut [T], m: usize, n: usize, j: usize) -> (T, T) {
    let alpha = a[j * n + j];
    let tail_norm_squared = (j + 1..m).fold(T::Part::zero(), |s, i| s + a[i * n + j].abs_squared());
    let (re, im) = alpha.parts();
    if tail_norm_squared == T::Part::zero() && im == T::Part::zero() {
        return (T::zero(), alpha);
    }
    let norm = re.hypot(im).hypot(tail_norm_squared.sqrt());
    let beta = if re >= T::Part::zero() { -norm } else { norm };
    let tau = T::from_parts((beta - re) / beta, -im / beta);
    let inverse = T::one() / (alpha - T::from_real(beta));
    for i in j + 1..m {
        a[i * n + j] = a[i * n + j] * inverse;
    }
    (tau, T::from_real(beta))
}

/// C := C - coef · v (vᴴ C), where C is rows j..m, columns `first`..n of
/// `a` and v is column j from row j down (its first element set to 1 by
/// the caller). Row by row, so both passes walk memory in order.
fn apply_reflector<T: Scalar>(a: &mut [T], m: usize, n: usize, j: usize, first: usize, coef: T) {
    let mut w = vec![T::zero(); n - first];
    for i in j..m {
        let vi = a[i * n + j].conjugate();
        for (wc, &x) in w.iter_mut().zip(&a[i * n + first..(i + 1) * n]) {
            *wc = *wc + vi * x;
        }
    }
    for wc in w.iter_mut() {
        *wc = coef * *wc;
    }
    for i in j..m {
        let vi = a[i * n + j];
        for (x, &wc) in a[i * n + first..(i + 1) * n].iter_mut().zip(&w) {
            *x = *x - vi * wc;
        }
    }
}

/// LAPACK's orgqr / ungqr (the unblocked org2r) on one row-major m x n
/// matrix holding geqrf's k reflectors, in place: the first n columns of
/// Q = H_0 H_1 ... H_{k-1}, built from the last reflector back so each
/// step only touches the trailing block. Needs k <= n <= m (the verifier's).
fn householder_product<T: Scalar>(q: &mut [T], m: usize, n: usize, tau: &[T]) {
    let k = tau.len();
    // Columns past the reflectors start as the identity's.
    for j in k..n {
        for i in 0..m {
            q[i * n + j] = if i == j { T::one() } else { T::zero() };
        }
    }
    for j in (0..k).rev() {
        let t = tau[j];
        if j + 1 < n {
            q[j * n + j] = T::one();
            apply_reflector(q, m, n, j, j + 1, t);
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

/// A descriptor checked against what the lowering writes.
struct Shape {
    elem: ElemCode,
    batch: usize,
    rows: usize,
    cols: usize,
    reflectors: usize,
    lower: bool,
    vectors: bool,
    u_cols: usize,
    vt_rows: usize,
}

impl Shape {
    /// # Safety
    /// `desc` is null or points to a `LinalgDesc`.
    unsafe fn read(desc: *const LinalgDesc) -> Result<Shape, String> {
        // SAFETY: guaranteed by the caller.
        let d = unsafe { desc.as_ref() }.ok_or("null linalg descriptor")?;
        let count = |v: i64| usize::try_from(v).map_err(|_| format!("bad linalg descriptor {d:?}"));
        let elem = ElemCode::from_i32(d.elem as i32)
            .filter(|e| {
                matches!(
                    e,
                    ElemCode::F32 | ElemCode::F64 | ElemCode::C64 | ElemCode::C128
                )
            })
            .ok_or_else(|| format!("linalg descriptor with element code {}", d.elem))?;
        Ok(Shape {
            elem,
            batch: count(d.batch)?,
            rows: count(d.rows)?,
            cols: count(d.cols)?,
            reflectors: count(d.reflectors)?,
            lower: d.flags & LINALG_LOWER != 0,
            vectors: d.flags & LINALG_VECTORS != 0,
            u_cols: count(d.u_cols)?,
            vt_rows: count(d.vt_rows)?,
        })
    }

    fn matrix(&self) -> usize {
        self.rows * self.cols
    }
}

/// `count` elements of `T` at `p` copied out (empty when `count` is 0), so
/// an input may share its memory with an output.
///
/// # Safety
/// `p` points to `count` elements of `T` (the lowering's buffers).
unsafe fn read_all<T: Copy>(p: *const u8, count: usize) -> Vec<T> {
    if count == 0 || p.is_null() {
        return Vec::new();
    }
    // SAFETY: guaranteed by the caller.
    unsafe { std::slice::from_raw_parts(p as *const T, count) }.to_vec()
}

/// The output buffer of `count` elements of `T` at `p`.
///
/// # Safety
/// `p` points to `count` writable elements of `T`, aliased by nothing else
/// alive at the same time.
unsafe fn output<'a, T>(p: *mut u8, count: usize) -> &'a mut [T] {
    if count == 0 || p.is_null() {
        return &mut [];
    }
    // SAFETY: guaranteed by the caller.
    unsafe { std::slice::from_raw_parts_mut(p as *mut T, count) }
}

/// Runs `work` on each matrix's pieces, in parallel on the runtime's pool
/// (one matrix runs on a single pool thread).
fn for_each_matrix<I: IndexedParallelIterator>(
    pieces: impl FnOnce() -> I + Send,
    work: impl Fn(I::Item) + Send + Sync,
) {
    crate::pool::install(|_| pieces().for_each(work));
}

/// Chunks of `len` of `v` (at least 1, so empty matrices still pair up).
fn chunks<T: Send>(v: &mut [T], len: usize) -> rayon::slice::ChunksMut<'_, T> {
    v.par_chunks_mut(len.max(1))
}

/// Runs `$body` with `$t` the element type of `$shape`.
macro_rules! by_elem {
    ($shape:expr, $t:ident => $body:expr) => {
        match $shape.elem {
            ElemCode::F32 => {
                type $t = f32;
                $body
            }
            ElemCode::F64 => {
                type $t = f64;
                $body
            }
            ElemCode::C64 => {
                type $t = c32;
                $body
            }
            ElemCode::C128 => {
                type $t = c64;
                $body
            }
            other => Err(format!("linalg on {other:?} elements")),
        }
    };
}

/// Returns 0, or 1 after setting the last error to `r`'s message.
fn status(r: Result<(), String>) -> i32 {
    match r {
        Ok(()) => 0,
        Err(msg) => {
            set_error(&format!("internal runtime error: {msg}"));
            1
        }
    }
}

/// `int32_t strata_rt_householder_qr(const LinalgDesc *, const T *a,
/// T *factored, T *tau)`: geqrf per matrix.
///
/// # Safety
/// The descriptor and buffers are the lowering's: `a` and `factored` hold
/// `batch` matrices, `tau` `batch` x min(rows, cols) elements.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_householder_qr(
    desc: *const LinalgDesc,
    a: *const u8,
    factored: *mut u8,
    tau: *mut u8,
) -> i32 {
    ffi_guard(1, || {
        status((|| {
            // SAFETY: the caller's contract.
            let s = unsafe { Shape::read(desc) }?;
            let k = s.rows.min(s.cols);
            by_elem!(s, T => {
                let (mn, total) = (s.matrix(), s.batch * s.matrix());
                // SAFETY: sizes from the descriptor the lowering wrote for these buffers.
                let input: Vec<T> = unsafe { read_all(a, total) };
                let out: &mut [T] = unsafe { output(factored, total) };
                let taus: &mut [T] = unsafe { output(tau, s.batch * k) };
                out.copy_from_slice(&input);
                for_each_matrix(
                    || chunks(out, mn).zip(chunks(taus, k)),
                    |(m, t)| householder_qr(m, s.rows, s.cols, t),
                );
                Ok(())
            })
        })())
    })
}

/// `int32_t strata_rt_householder_product(const LinalgDesc *, const T *a,
/// const T *tau, T *q)`: orgqr / ungqr per matrix.
///
/// # Safety
/// As [`strata_rt_householder_qr`]; `tau` holds `batch` x `reflectors`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_householder_product(
    desc: *const LinalgDesc,
    a: *const u8,
    tau: *const u8,
    q: *mut u8,
) -> i32 {
    ffi_guard(1, || {
        status((|| {
            // SAFETY: the caller's contract.
            let s = unsafe { Shape::read(desc) }?;
            let k = s.reflectors;
            if k > s.cols || s.cols > s.rows {
                return Err(format!(
                    "householder product of {k} reflectors into {}x{} (needs k <= n <= m)",
                    s.rows, s.cols
                ));
            }
            by_elem!(s, T => {
                let (mn, total) = (s.matrix(), s.batch * s.matrix());
                // SAFETY: sizes from the descriptor the lowering wrote for these buffers.
                let input: Vec<T> = unsafe { read_all(a, total) };
                let taus: Vec<T> = unsafe { read_all(tau, s.batch * k) };
                let out: &mut [T] = unsafe { output(q, total) };
                out.copy_from_slice(&input);
                let taus = &taus;
                for_each_matrix(
                    || chunks(out, mn).enumerate(),
                    |(i, m)| householder_product(m, s.rows, s.cols, &taus[i * k..(i + 1) * k]),
                );
                Ok(())
            })
        })())
    })
}

/// `int32_t strata_rt_eigh(const LinalgDesc *, const T *a, T *vectors,
/// Real *values, int32_t *info)`: syevd / heevd per matrix. Without
/// `LINALG_VECTORS`, `vectors` gets a copy of a. A matrix faer cannot
/// diagonalize gets info 1 and NaN values and vectors (JAX masks them).
///
/// # Safety
/// As [`strata_rt_householder_qr`]; `values` holds `batch` x n parts,
/// `info` `batch` i32.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_eigh(
    desc: *const LinalgDesc,
    a: *const u8,
    vectors: *mut u8,
    values: *mut u8,
    info: *mut u8,
) -> i32 {
    ffi_guard(1, || {
        status((|| {
            // SAFETY: the caller's contract.
            let s = unsafe { Shape::read(desc) }?;
            let n = s.rows;
            if s.cols != n {
                return Err(format!("eigh of a {}x{} matrix", s.rows, s.cols));
            }
            by_elem!(s, T => {
                let (nn, total) = (s.matrix(), s.batch * s.matrix());
                // SAFETY: sizes from the descriptor the lowering wrote for these buffers.
                let input: Vec<T> = unsafe { read_all(a, total) };
                let vecs: &mut [T] = unsafe { output(vectors, total) };
                let vals: &mut [<T as Scalar>::Part] = unsafe { output(values, s.batch * n) };
                let infos: &mut [i32] = unsafe { output(info, s.batch) };
                vecs.copy_from_slice(&input);
                // Empty matrices are skipped below: their info is 0.
                infos.fill(0);
                let input = &input;
                for_each_matrix(
                    || chunks(vecs, nn).zip(chunks(vals, n)).zip(infos.par_iter_mut()).enumerate(),
                    |(i, ((vec, val), inf))| {
                        let a = MatRef::from_row_major_slice(&input[i * nn..(i + 1) * nn], n, n);
                        *inf = eigh_one(a, s.lower, s.vectors, vec, val);
                    },
                );
                Ok(())
            })
        })())
    })
}

/// One matrix of [`strata_rt_eigh`]; returns its info.
fn eigh_one<T: Scalar>(
    a: MatRef<'_, T>,
    lower: bool,
    vectors: bool,
    vec: &mut [T],
    val: &mut [T::Part],
) -> i32 {
    if val.is_empty() {
        return 0;
    }
    match T::faer_eigh(a, lower, vectors) {
        Some(e) => {
            val.copy_from_slice(&e.values);
            if let Some(v) = e.vectors {
                vec.copy_from_slice(&v);
            }
            0
        }
        None => {
            let nan = T::Part::nan();
            val.fill(nan);
            vec.fill(T::from_parts(nan, nan));
            1
        }
    }
}

/// `int32_t strata_rt_svd(const LinalgDesc *, const T *a, Real *s, T *u,
/// T *vt, int32_t *info)`: gesdd per matrix; u is rows x `u_cols`, vt
/// `vt_rows` x cols. Without `LINALG_VECTORS`, u and vt are zeros. A
/// matrix faer cannot decompose gets info 1 and NaNs.
///
/// # Safety
/// As [`strata_rt_householder_qr`]; `s` holds `batch` x min(rows, cols)
/// parts, `info` `batch` i32.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_svd(
    desc: *const LinalgDesc,
    a: *const u8,
    s_out: *mut u8,
    u: *mut u8,
    vt: *mut u8,
    info: *mut u8,
) -> i32 {
    ffi_guard(1, || {
        status((|| {
            // SAFETY: the caller's contract.
            let s = unsafe { Shape::read(desc) }?;
            let (m, n) = (s.rows, s.cols);
            let k = m.min(n);
            let full = s.u_cols == m && s.vt_rows == n;
            if !full && (s.u_cols != k || s.vt_rows != k) {
                return Err(format!(
                    "svd of {m}x{n} into u {m}x{} and vt {}x{n}",
                    s.u_cols, s.vt_rows
                ));
            }
            let shape = SvdShape {
                u_cols: s.u_cols,
                vt_rows: s.vt_rows,
            };
            by_elem!(s, T => {
                let mn = s.matrix();
                let (u_len, vt_len) = (m * shape.u_cols, shape.vt_rows * n);
                // SAFETY: sizes from the descriptor the lowering wrote for these buffers.
                let input: Vec<T> = unsafe { read_all(a, s.batch * mn) };
                let vals: &mut [<T as Scalar>::Part] = unsafe { output(s_out, s.batch * k) };
                let us: &mut [T] = unsafe { output(u, s.batch * u_len) };
                let vts: &mut [T] = unsafe { output(vt, s.batch * vt_len) };
                let infos: &mut [i32] = unsafe { output(info, s.batch) };
                us.fill(<T as Scalar>::zero());
                vts.fill(<T as Scalar>::zero());
                // Empty matrices are skipped below: their info is 0.
                infos.fill(0);
                let input = &input;
                let vectors = s.vectors.then_some(shape);
                for_each_matrix(
                    || {
                        chunks(vals, k)
                            .zip(chunks(us, u_len))
                            .zip(chunks(vts, vt_len))
                            .zip(infos.par_iter_mut())
                            .enumerate()
                    },
                    |(i, (((val, u), vt), inf))| {
                        let a = MatRef::from_row_major_slice(&input[i * mn..(i + 1) * mn], m, n);
                        *inf = svd_one(a, vectors, val, u, vt);
                    },
                );
                Ok(())
            })
        })())
    })
}

/// One matrix of [`strata_rt_svd`]; returns its info.
fn svd_one<T: Scalar>(
    a: MatRef<'_, T>,
    vectors: Option<SvdShape>,
    val: &mut [T::Part],
    u: &mut [T],
    vt: &mut [T],
) -> i32 {
    if val.is_empty() {
        return 0;
    }
    match T::faer_svd(a, vectors) {
        Some(r) => {
            val.copy_from_slice(&r.values);
            if let Some((ru, rvt)) = r.u_vt {
                u.copy_from_slice(&ru);
                vt.copy_from_slice(&rvt);
            }
            0
        }
        None => {
            let nan = T::Part::nan();
            val.fill(nan);
            u.fill(T::from_parts(nan, nan));
            vt.fill(T::from_parts(nan, nan));
            1
        }
    }
}

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
        householder_qr(&mut f, m, n, &mut tau);
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
        householder_product(&mut q, m, n, &tau);
        let qr = matmul(&q, &r, m, n, n);
        for (x, y) in qr.iter().zip(&a) {
            assert!((x - y).abs() < 1e-12, "{qr:?}");
        }
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
