//! `strata_rt_potrf`: LAPACK's potrf (what `jnp.linalg.cholesky` and
//! `cho_factor` call on CPU) on real matrices, through faer's blocked
//! left-looking LLᵀ on one thread per matrix (a batch runs its matrices
//! in parallel on the pool).
//!
//! Why faer's and not a factorization of our own: ours (48-column panels
//! factored by short dot products, then a product per panel split
//! between two threads) took 3.0 ms on a 512 x 512 f32 matrix, 16.9 ms on
//! 1024 and 109 ms on 2048 (AMD EPYC Zen 3, 2 threads); faer's takes 0.9,
//! 6-9 and 53-69 ms on one thread. Its parallel variant (the `rayon`
//! feature, which brings the `spindle` pool) was slower at 512 and 1.3x
//! faster at 1024-2048 on two threads: not taken.
//!
//! faer factors the lower triangle of a column-major matrix (its strict
//! upper triangle is scratch), so each matrix is factored on a copy, and
//! only the factor's triangle is written back: the other triangle keeps
//! a, as potrf leaves it. A row-major matrix read column-major is its
//! transpose: the copy is a itself for an upper factor (a's upper
//! triangle read column-major is the lower one, and Lᵀ = U), a's
//! transpose for a lower one. A pivot that is not positive (or NaN) stops
//! the factorization, as in LAPACK, and is reported 1-based in `info`.

use faer::MatMut;
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::cholesky::llt::factor::{
    LltError, LltRegularization, cholesky_in_place, cholesky_in_place_scratch,
};
use faer::{Par, Spec};

use super::lu::Real;
use super::*;
use crate::transpose::transpose_slice;

/// Factors the symmetric matrix whose lower triangle the column-major
/// n x n `w` holds, in place (the strict upper triangle is scratch);
/// returns potrf's info.
fn factor<T: Real>(w: &mut [T], n: usize) -> i32 {
    let params = Spec::default();
    let mut scratch = MemBuffer::new(cholesky_in_place_scratch::<T>(n, Par::Seq, params));
    let matrix = MatMut::from_column_major_slice_mut(w, n, n);
    let result = cholesky_in_place(
        matrix,
        LltRegularization::default(),
        Par::Seq,
        MemStack::new(&mut scratch),
        params,
    );
    match result {
        Ok(_) => 0,
        Err(LltError::NonPositivePivot { index }) => i32::try_from(index + 1).unwrap_or(i32::MAX),
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
fn run<T: Real + 'static>(
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
        // Column-major: a's transpose for a lower factor, a itself for an
        // upper one (see the module's comment).
        let mut w = m.to_vec();
        if lower {
            transpose_slice(m, n, n, n, &mut w, n);
        }
        *info = factor(&mut w, n);
        if lower {
            lower_triangle_transposed(&w, m, n);
        } else {
            for (r, (to, from)) in m.chunks_exact_mut(n).zip(w.chunks_exact(n)).enumerate() {
                to[r..].copy_from_slice(&from[r..]);
            }
        }
    };
    crate::pool::install(|_| {
        out.par_chunks_mut((n * n).max(1))
            .zip(infos.par_iter_mut())
            .for_each(work)
    });
}

/// `m[i][j] = w[j][i]` for `i >= j` (n x n, row-major): tiles below the
/// diagonal through the transpose kernels, diagonal tiles by element.
fn lower_triangle_transposed<T: Copy + 'static>(w: &[T], m: &mut [T], n: usize) {
    const TILE: usize = 64;
    for i0 in (0..n).step_by(TILE) {
        let rows = TILE.min(n - i0);
        for j0 in (0..i0).step_by(TILE) {
            let from = &w[j0 * n + i0..];
            transpose_slice(from, n, TILE, rows, &mut m[i0 * n + j0..], n);
        }
        for i in i0..i0 + rows {
            for j in i0..=i {
                m[i * n + j] = w[j * n + i];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An n x n symmetric positive definite matrix, row-major: g gᵀ / n + I
    /// for a pseudo-random g.
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

    /// potrf through the entry's `run`, on one matrix (row-major).
    fn potrf(a: &[f64], n: usize, lower: bool) -> (Vec<f64>, i32) {
        let mut out = vec![0.0; n * n];
        let mut info = [7];
        run::<f64>(
            a.as_ptr().cast(),
            out.as_mut_ptr().cast(),
            (1, n, lower),
            &mut info,
        );
        (out, info[0])
    }

    /// Both factors of matrices past faer's block sizes: L Lᵀ (Uᵀ U) is a
    /// to rounding, and the triangle potrf does not write keeps a.
    #[test]
    fn factors_multiply_back_and_other_triangle_keeps_a() {
        for n in [1, 5, 64, 130] {
            // The other triangle marked: potrf must neither read nor write it.
            let mark = |i: usize, j: usize| -1000.0 - (i * n + j) as f64;
            for lower in [true, false] {
                let mut a = spd(n);
                for i in 0..n {
                    for j in 0..n {
                        let other = if lower { j > i } else { j < i };
                        if other {
                            a[i * n + j] = mark(i, j);
                        }
                    }
                }
                let (f, info) = potrf(&a, n, lower);
                assert_eq!(info, 0, "n {n}");
                // l(i, k): the lower factor's entry, read from either layout.
                let l = |i: usize, k: usize| {
                    if k > i {
                        0.0
                    } else if lower {
                        f[i * n + k]
                    } else {
                        f[k * n + i]
                    }
                };
                for i in 0..n {
                    for j in 0..=i {
                        let want = if lower { a[i * n + j] } else { a[j * n + i] };
                        let got: f64 = (0..=j).map(|k| l(i, k) * l(j, k)).sum();
                        assert!((got - want).abs() <= 1e-12, "n {n} ({i}, {j})");
                        let (oi, oj) = if lower { (j, i) } else { (i, j) };
                        if oi != oj {
                            assert_eq!(f[oi * n + oj], mark(oi, oj), "n {n} other triangle");
                        }
                    }
                }
            }
        }
    }

    /// A minor that is not positive past the first block: info names its
    /// column (1-based), for either factor; a NaN pivot counts as one.
    #[test]
    fn failed_minor_is_recorded() {
        let n = 100;
        let mut a = spd(n);
        a[70 * n + 70] = -5.0;
        assert_eq!(potrf(&a, n, true).1, 71);
        assert_eq!(potrf(&a, n, false).1, 71);
        a[70 * n + 70] = f64::NAN;
        assert_eq!(potrf(&a, n, true).1, 71);
    }
}
