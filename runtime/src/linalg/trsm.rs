//! `strata_rt_trsm`: LAPACK's trsm, what `jnp.linalg.solve`, `inv` and
//! `solve_triangular` call on CPU (`lapack_?trsm_ffi`), by faer's blocked
//! triangular solve: the diagonal blocks by substitution, everything else
//! as matrix products on faer's GEMM. Substitution one column at a time
//! (Strata's loop lowering before this) reached 5 GFLOP/s and made
//! `jnp.linalg.inv` of a 256 x 256 matrix 12x slower than XLA:CPU, which
//! calls a blocked LAPACK.
//!
//! The rounding is a blocked algorithm's, as LAPACK's is (neither is
//! substitution's order); XLA's own `triangular_solve` op keeps its exact
//! expansion in `triangular_solve.rs`.

use faer::linalg::triangular_solve as solve;
use faer::{Conj, MatMut, MatRef, Par};
use strata_abi::{LINALG_CONJUGATE_A, LINALG_LEFT_SIDE, LINALG_TRANSPOSE_A, LINALG_UNIT_DIAGONAL};

use super::*;

/// Columns (left side) or rows (right side) of x solved by one task at
/// least: narrower panels cost more in faer's bookkeeping than they share.
const MIN_PANEL: usize = 16;

/// What one solve is: `op(a) x = b` (left) or `x op(a) = b`, op(a) being
/// a, aᵀ or aᴴ, a's lower or upper triangle read, its diagonal or ones.
#[derive(Clone, Copy)]
struct System {
    left: bool,
    lower: bool,
    transpose: bool,
    conjugate: bool,
    unit: bool,
}

impl System {
    fn from_flags(flags: i64, lower: bool) -> Self {
        System {
            left: flags & LINALG_LEFT_SIDE != 0,
            lower,
            transpose: flags & LINALG_TRANSPOSE_A != 0,
            conjugate: flags & LINALG_CONJUGATE_A != 0,
            unit: flags & LINALG_UNIT_DIAGONAL != 0,
        }
    }
}

/// Solves `x` (rows x cols, row-major, holding b) in place against the
/// square `a` (row-major). On the right, `x op(a) = b` is solved as
/// `op(a)ᵀ xᵀ = bᵀ`.
fn solve_one<T: faer::traits::ComplexField>(s: System, a: MatRef<'_, T>, x: MatMut<'_, T>) {
    // The triangle the solve reads: op(a) on the left, op(a)ᵀ on the right.
    let flips = s.transpose != !s.left;
    let tri = if flips { a.transpose() } else { a };
    let lower = s.lower != flips;
    let conj = if s.conjugate { Conj::Yes } else { Conj::No };
    let x = if s.left { x } else { x.transpose_mut() };
    match (lower, s.unit) {
        (true, false) => solve::solve_lower_triangular_in_place_with_conj(tri, conj, x, Par::Seq),
        (true, true) => {
            solve::solve_unit_lower_triangular_in_place_with_conj(tri, conj, x, Par::Seq)
        }
        (false, false) => solve::solve_upper_triangular_in_place_with_conj(tri, conj, x, Par::Seq),
        (false, true) => {
            solve::solve_unit_upper_triangular_in_place_with_conj(tri, conj, x, Par::Seq)
        }
    }
}

/// Solves every system of the batch: x (batch x rows x cols) starts as b;
/// its independent columns (left) or rows (right) are cut into panels,
/// one task per matrix and panel, on the runtime's pool.
fn solve_all<T: faer::traits::ComplexField + Copy>(
    s: System,
    a: &[T],
    x: &mut [T],
    (batch, rows, cols): (usize, usize, usize),
) {
    let m = if s.left { rows } else { cols };
    let independent = if s.left { cols } else { rows };
    let threads = crate::pool::max_threads().max(1);
    let wanted = threads.div_ceil(batch.max(1));
    let panels = wanted.min(independent.div_ceil(MIN_PANEL)).max(1);
    let width = independent.div_ceil(panels).max(1);
    let mut tasks = Vec::new();
    for (i, xi) in x.chunks_mut((rows * cols).max(1)).enumerate().take(batch) {
        let ai = MatRef::from_row_major_slice(&a[i * m * m..][..m * m], m, m);
        let mut rest = MatMut::from_row_major_slice_mut(xi, rows, cols);
        loop {
            let left = if s.left { rest.ncols() } else { rest.nrows() };
            if left == 0 {
                break;
            }
            let (panel, more) = if s.left {
                rest.split_at_col_mut(width.min(left))
            } else {
                rest.split_at_row_mut(width.min(left))
            };
            tasks.push((ai, panel));
            rest = more;
        }
    }
    if tasks.len() == 1 {
        tasks.into_iter().for_each(|(ai, xi)| solve_one(s, ai, xi));
    } else {
        crate::pool::install(|_| {
            tasks
                .into_par_iter()
                .for_each(|(ai, xi)| solve_one(s, ai, xi))
        });
    }
}

/// `int32_t strata_rt_trsm(const LinalgDesc *d, const T *a, const T *b,
/// T *x)`: LAPACK's trsm per system of the batch, T given by `d.elem`
/// (F32, F64, C64, C128), b's shape `rows` x `cols`, the flags
/// `LINALG_LEFT_SIDE`, `LINALG_LOWER`, `LINALG_TRANSPOSE_A`,
/// `LINALG_CONJUGATE_A` (with the transpose: aᴴ) and
/// `LINALG_UNIT_DIAGONAL`.
///
/// # Safety
/// `d` is null or points to a `LinalgDesc`; the buffers hold the elements
/// it describes (x may be b).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn strata_rt_trsm(
    d: *const LinalgDesc,
    a: *const u8,
    b: *const u8,
    x: *mut u8,
) -> i32 {
    ffi_guard(1, || {
        // SAFETY: guaranteed by the caller.
        let r = unsafe { entries::Shape::read(d) }.and_then(|shape| {
            // SAFETY: as above (the descriptor was read).
            let flags = unsafe { (*d).flags };
            let s = System::from_flags(flags, shape.lower);
            let m = if s.left { shape.rows } else { shape.cols };
            let dims = (shape.batch, shape.rows, shape.cols);
            let (na, nx) = (shape.batch * m * m, shape.batch * shape.matrix());
            by_elem!(shape, T => {
                // SAFETY: the buffers hold the described elements; x
                // starts as b.
                let a = unsafe { entries::read_all::<T>(a, na) };
                let xs = unsafe { entries::moved::<T>(b, x, nx) };
                solve_all(s, &a, xs, dims);
                Ok(())
            })
        });
        entries::status(r)
    })
}
