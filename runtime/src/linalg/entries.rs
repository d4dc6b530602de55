//! The C entry points: each reads its descriptor, checks the element type,
//! and runs the computation on every matrix of the batch (in parallel on
//! the pool), reporting LAPACK-style failures through `info` outputs and
//! errors through the runtime's last error.

use super::*;

/// A descriptor checked against what the lowering writes.
pub(super) struct Shape {
    pub(super) elem: ElemCode,
    pub(super) batch: usize,
    pub(super) rows: usize,
    pub(super) cols: usize,
    reflectors: usize,
    pub(super) lower: bool,
    vectors: bool,
    left_vectors: bool,
    u_cols: usize,
    vt_rows: usize,
}

impl Shape {
    /// # Safety
    /// `desc` is null or points to a `LinalgDesc`.
    pub(super) unsafe fn read(desc: *const LinalgDesc) -> Result<Shape, String> {
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
            left_vectors: d.flags & LINALG_LEFT_VECTORS != 0,
            u_cols: count(d.u_cols)?,
            vt_rows: count(d.vt_rows)?,
        })
    }

    pub(super) fn matrix(&self) -> usize {
        self.rows * self.cols
    }
}

/// `count` elements of `T` at `p` copied out (empty when `count` is 0), so
/// an input may share its memory with an output.
///
/// # Safety
/// `p` points to `count` elements of `T` (the lowering's buffers).
pub(super) unsafe fn read_all<T: Copy>(p: *const u8, count: usize) -> Vec<T> {
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
pub(super) unsafe fn output<'a, T>(p: *mut u8, count: usize) -> &'a mut [T] {
    if count == 0 || p.is_null() {
        return &mut [];
    }
    // SAFETY: guaranteed by the caller.
    unsafe { std::slice::from_raw_parts_mut(p as *mut T, count) }
}

/// The `len` elements of `T` at `src` moved to `dst` (the two may be one
/// buffer), as the output buffer at `dst`: a solve or factorization that
/// works in place on a copy of its input.
///
/// # Safety
/// `src` and `dst` point to `len` elements of `T` (the lowering's
/// buffers); nothing else alive aliases `dst`.
pub(super) unsafe fn moved<'a, T>(src: *const u8, dst: *mut u8, len: usize) -> &'a mut [T] {
    if len > 0 && !src.is_null() && !dst.is_null() {
        // SAFETY: guaranteed by the caller.
        unsafe { std::ptr::copy(src as *const T, dst as *mut T, len) };
    }
    // SAFETY: as above.
    unsafe { output(dst, len) }
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

pub(super) use by_elem;

/// Returns 0, or 1 after setting the last error to `r`'s message.
pub(super) fn status(r: Result<(), String>) -> i32 {
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
                // SAFETY: sizes from the descriptor the lowering wrote for these buffers;
                // a moves into the result buffer (they may be one), worked on in place.
                let out: &mut [T] = unsafe { moved(a, factored, total) };
                let taus: &mut [T] = unsafe { output(tau, s.batch * k) };
                for_each_matrix(
                    || chunks(out, mn).zip(chunks(taus, k)),
                    |(m, t)| geqrf(m, s.rows, s.cols, t),
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
                let taus: Vec<T> = unsafe { read_all(tau, s.batch * k) };
                // SAFETY: as above; a moves into the result buffer (they may be one).
                let out: &mut [T] = unsafe { moved(a, q, total) };
                let taus = &taus;
                for_each_matrix(
                    || chunks(out, mn).enumerate(),
                    |(i, m)| orgqr(m, s.rows, s.cols, &taus[i * k..(i + 1) * k]),
                );
                Ok(())
            })
        })())
    })
}

/// `int32_t strata_rt_hessenberg(const LinalgDesc *, const T *a,
/// T *packed, T *tau)`: gehrd per matrix (n x n; tau n - 1 per matrix).
///
/// # Safety
/// As [`strata_rt_householder_qr`]; `tau` holds `batch` x (n - 1) elements.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_hessenberg(
    desc: *const LinalgDesc,
    a: *const u8,
    packed: *mut u8,
    tau: *mut u8,
) -> i32 {
    ffi_guard(1, || {
        status((|| {
            // SAFETY: the caller's contract.
            let s = unsafe { Shape::read(desc) }?;
            let n = s.rows;
            if s.cols != n {
                return Err(format!("hessenberg of a {}x{} matrix", s.rows, s.cols));
            }
            let k = n.saturating_sub(1);
            by_elem!(s, T => {
                let (nn, total) = (s.matrix(), s.batch * s.matrix());
                // SAFETY: sizes from the descriptor the lowering wrote for these buffers;
                // a moves into the result buffer (they may be one), worked on in place.
                let out: &mut [T] = unsafe { moved(a, packed, total) };
                let taus: &mut [T] = unsafe { output(tau, s.batch * k) };
                for_each_matrix(
                    || chunks(out, nn).zip(chunks(taus, k)),
                    |(m, t)| hessenberg(m, n, t),
                );
                Ok(())
            })
        })())
    })
}

/// `int32_t strata_rt_tridiagonal(const LinalgDesc *, const T *a,
/// T *packed, Real *d, Real *e, T *tau)`: sytrd / hetrd with uplo 'L' per
/// matrix (n x n; d n, e and tau n - 1 per matrix).
///
/// # Safety
/// As [`strata_rt_householder_qr`]; `d` holds `batch` x n parts, `e`
/// `batch` x (n - 1) parts and `tau` `batch` x (n - 1) elements.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_tridiagonal(
    desc: *const LinalgDesc,
    a: *const u8,
    packed: *mut u8,
    d: *mut u8,
    e: *mut u8,
    tau: *mut u8,
) -> i32 {
    ffi_guard(1, || {
        status((|| {
            // SAFETY: the caller's contract.
            let s = unsafe { Shape::read(desc) }?;
            let n = s.rows;
            if s.cols != n || !s.lower {
                return Err(format!(
                    "tridiagonal of a {}x{} matrix (lower: {})",
                    s.rows, s.cols, s.lower
                ));
            }
            let k = n.saturating_sub(1);
            by_elem!(s, T => {
                let (nn, total) = (s.matrix(), s.batch * s.matrix());
                // SAFETY: sizes from the descriptor the lowering wrote for these buffers;
                // a moves into the result buffer (they may be one), worked on in place.
                let out: &mut [T] = unsafe { moved(a, packed, total) };
                let ds: &mut [<T as Scalar>::Part] = unsafe { output(d, s.batch * n) };
                let es: &mut [<T as Scalar>::Part] = unsafe { output(e, s.batch * k) };
                let taus: &mut [T] = unsafe { output(tau, s.batch * k) };
                for_each_matrix(
                    || chunks(out, nn).zip(chunks(ds, n)).zip(chunks(es, k)).zip(chunks(taus, k)),
                    |(((m, d), e), t)| tridiagonal(m, n, d, e, t),
                );
                Ok(())
            })
        })())
    })
}

/// `int32_t strata_rt_tridiagonal_solve(const LinalgDesc *, const T *dl,
/// const T *d, const T *du, const T *b, T *dl_out, T *d_out, T *du_out,
/// T *x, int32_t *info)`: gtsv per system; `rows` is n, `cols` the number
/// of right-hand sides.
///
/// # Safety
/// The descriptor and buffers are the lowering's: the diagonals hold
/// `batch` x n elements, b and x `batch` x n x cols, `info` `batch` i32.
// The routine's four inputs and five outputs, as the call passes them.
#[allow(clippy::too_many_arguments)]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_tridiagonal_solve(
    desc: *const LinalgDesc,
    dl: *const u8,
    d: *const u8,
    du: *const u8,
    b: *const u8,
    dl_out: *mut u8,
    d_out: *mut u8,
    du_out: *mut u8,
    x: *mut u8,
    info: *mut u8,
) -> i32 {
    ffi_guard(1, || {
        status((|| {
            // SAFETY: the caller's contract.
            let s = unsafe { Shape::read(desc) }?;
            let (n, nrhs) = (s.rows, s.cols);
            by_elem!(s, T => {
                let (diag, total) = (s.batch * n, s.batch * s.matrix());
                // SAFETY: sizes from the descriptor the lowering wrote for these buffers.
                let inputs: [Vec<T>; 3] = unsafe { [read_all(dl, diag), read_all(d, diag), read_all(du, diag)] };
                let rhs: Vec<T> = unsafe { read_all(b, total) };
                let dls: &mut [T] = unsafe { output(dl_out, diag) };
                let ds: &mut [T] = unsafe { output(d_out, diag) };
                let dus: &mut [T] = unsafe { output(du_out, diag) };
                let xs: &mut [T] = unsafe { output(x, total) };
                let infos: &mut [i32] = unsafe { output(info, s.batch) };
                for (out, input) in [(&mut *dls, &inputs[0]), (&mut *ds, &inputs[1]), (&mut *dus, &inputs[2])] {
                    out.copy_from_slice(input);
                }
                xs.copy_from_slice(&rhs);
                infos.fill(0);
                for_each_matrix(
                    || {
                        chunks(dls, n)
                            .zip(chunks(ds, n))
                            .zip(chunks(dus, n))
                            .zip(chunks(xs, n * nrhs))
                            .zip(infos.par_iter_mut())
                    },
                    |((((l, d), u), x), inf)| *inf = tridiagonal_solve(l, d, u, x, n, nrhs),
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
pub(super) fn eigh_one<T: Scalar>(
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
pub(super) fn svd_one<T: Scalar>(
    a: MatRef<'_, T>,
    vectors: Option<SvdShape>,
    val: &mut [T::Part],
    u: &mut [T],
    vt: &mut [T],
) -> i32 {
    if val.is_empty() {
        return 0;
    }
    if vectors.is_none()
        && let Some(values) = small_real_values(a)
    {
        for (v, x) in val.iter_mut().zip(values) {
            *v = <T::Part as num_traits::NumCast>::from(x).unwrap_or_else(T::Part::nan);
        }
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

/// The singular values of a small real matrix by one-sided Jacobi
/// (`jacobi_svd.rs`), when its entries are finite and their squares stay
/// normal in f64 (any f32 matrix; others go to faer).
fn small_real_values<T: Scalar>(a: MatRef<'_, T>) -> Option<Vec<f64>> {
    let (m, n) = (a.nrows(), a.ncols());
    if T::COMPLEX
        || m.min(n) > super::jacobi_svd::MAX_COLS
        || m.max(n) > super::jacobi_svd::MAX_ROWS
    {
        return None;
    }
    let mut entries = Vec::with_capacity(m * n);
    for i in 0..m {
        for j in 0..n {
            let x = num_traits::ToPrimitive::to_f64(&a[(i, j)].parts().0)?;
            if x != 0.0 && !(1e-140..=1e140).contains(&x.abs()) {
                return None;
            }
            entries.push(x);
        }
    }
    let epsilon = num_traits::ToPrimitive::to_f64(&T::Part::epsilon())?;
    super::jacobi_svd::singular_values(&entries, m, n, epsilon)
}

/// `int32_t strata_rt_eig(const LinalgDesc *, const T *a, C *values,
/// C *left, C *right, int32_t *info)`: geev per matrix, C the complex type
/// of T's precision. `LINALG_LEFT_VECTORS` and `LINALG_VECTORS` ask for
/// the left and right eigenvectors (columns; zeros when not asked for). A
/// matrix faer cannot decompose (one with a NaN or infinity, or no
/// convergence) gets info 1 and NaNs (JAX masks them).
///
/// # Safety
/// As [`strata_rt_householder_qr`]; `values` holds `batch` x n complex
/// numbers, `left` and `right` `batch` x n x n, `info` `batch` i32.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_eig(
    desc: *const LinalgDesc,
    a: *const u8,
    values: *mut u8,
    left: *mut u8,
    right: *mut u8,
    info: *mut u8,
) -> i32 {
    ffi_guard(1, || {
        status((|| {
            // SAFETY: the caller's contract.
            let s = unsafe { Shape::read(desc) }?;
            let n = s.rows;
            if s.cols != n {
                return Err(format!("eig of a {}x{} matrix", s.rows, s.cols));
            }
            by_elem!(s, T => {
                type P = <T as Scalar>::Part;
                let nn = s.matrix();
                // SAFETY: sizes from the descriptor the lowering wrote for these buffers.
                let input: Vec<T> = unsafe { read_all(a, s.batch * nn) };
                let vals: &mut [P] = unsafe { output(values, s.batch * n * 2) };
                let lefts: &mut [P] = unsafe { output(left, s.batch * nn * 2) };
                let rights: &mut [P] = unsafe { output(right, s.batch * nn * 2) };
                let infos: &mut [i32] = unsafe { output(info, s.batch) };
                lefts.fill(0.0);
                rights.fill(0.0);
                // Empty matrices are skipped below: their info is 0.
                infos.fill(0);
                let input = &input;
                let want = (s.left_vectors, s.vectors);
                for_each_matrix(
                    || {
                        chunks(vals, 2 * n)
                            .zip(chunks(lefts, 2 * nn))
                            .zip(chunks(rights, 2 * nn))
                            .zip(infos.par_iter_mut())
                            .enumerate()
                    },
                    |(i, (((val, l), r), inf))| {
                        let a = MatRef::from_row_major_slice(&input[i * nn..(i + 1) * nn], n, n);
                        *inf = eig_one(a, want, val, l, r);
                    },
                );
                Ok(())
            })
        })())
    })
}

/// One matrix of [`strata_rt_eig`] (outputs as interleaved parts); returns
/// its info.
pub(super) fn eig_one<T: Scalar>(
    a: MatRef<'_, T>,
    (want_left, want_right): (bool, bool),
    val: &mut [T::Part],
    left: &mut [T::Part],
    right: &mut [T::Part],
) -> i32 {
    let n = a.nrows();
    if n == 0 {
        return 0;
    }
    let Some(mut e) = T::faer_eig(a, want_left, want_right) else {
        let nan = T::Part::nan();
        val.fill(nan);
        left.fill(nan);
        right.fill(nan);
        return 1;
    };
    let write = |out: &mut [T::Part], numbers: &[(T::Part, T::Part)]| {
        for (pair, &(re, im)) in out.chunks_exact_mut(2).zip(numbers) {
            pair[0] = re;
            pair[1] = im;
        }
    };
    write(val, &e.values);
    for (vectors, out) in [(&mut e.left, left), (&mut e.right, right)] {
        if let Some(v) = vectors {
            normalize_eigenvectors(v, n, T::COMPLEX);
            write(out, v);
        }
    }
    0
}
