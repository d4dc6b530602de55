//! Linear algebra: `xla.triangular_solve`, `xla.cholesky`.

use strata_diag::Result;
use strata_ir::{Context, OpId};

use crate::attrs;
use crate::parse;
use crate::util::*;
use names::*;
use strata_ir::{OpDef, Registry, Traits};

/// The op names of this family (`names.rs` gathers every family's).
pub mod names {
    pub const TRIANGULAR_SOLVE: &str = "xla.triangular_solve";
    pub const CHOLESKY: &str = "xla.cholesky";
    /// LU factorization with partial pivoting, as LAPACK's getrf: (lu, 1-based
    /// row swaps, info). Made from JAX's `lapack_?getrf_ffi` custom calls.
    pub const LU: &str = "xla.lu";
}

/// `triangular_solve(a, b)`: a is (..., k, k), b (..., m, n) with k = m when
/// `left_side` and k = n otherwise, the same batch dimensions; the result has
/// b's type. `left_side`, `lower`, `unit_diagonal` and `transpose_a` given.
pub fn verify_triangular_solve(ctx: &Context, op: OpId) -> Result<()> {
    let (a, ae) = operand_tensor(ctx, op, 0)?;
    let (b, be) = operand_tensor(ctx, op, 1)?;
    let r = a.len();
    if r < 2 || a[r - 1] != a[r - 2] {
        return Err(ctx.error(
            op,
            format!("a must be a batch of square matrices, found {}", list(&a)),
        ));
    }
    if b.len() != r || a[..r - 2] != b[..r - 2] || ae != be {
        return Err(ctx.error(
            op,
            "b must have a's rank, batch dimensions and element type",
        ));
    }
    for name in ["left_side", "lower", "unit_diagonal"] {
        if attrs::flag(ctx, op, name).is_none() {
            return Err(ctx.error(op, format!("requires a boolean attribute '{name}'")));
        }
    }
    if attrs::transpose_a(ctx, op).is_none() {
        return Err(ctx.error(
            op,
            "requires 'transpose_a' (NO_TRANSPOSE, TRANSPOSE or ADJOINT)",
        ));
    }
    let left = attrs::flag(ctx, op, "left_side") == Some(true);
    let k = a[r - 1];
    let side = if left { b[r - 2] } else { b[r - 1] };
    if side != k {
        return Err(ctx.error(
            op,
            format!(
                "a is {k}x{k} but b has {side} {}",
                if left { "rows" } else { "columns" }
            ),
        ));
    }
    if !(is_float(ctx, ae) || is_complex(ctx, ae)) {
        return Err(ctx.error(
            op,
            format!(
                "expects float or complex elements, found {}",
                ty_str(ctx, ae)
            ),
        ));
    }
    expect_result_type(ctx, op, 0, &b, be)
}

/// `cholesky(a)`: a batch of square float or complex matrices (Hermitian);
/// the result of a's
/// type, and optionally a second result, the i32 LAPACK `info` per matrix
/// (0, or the 1-based order of the first minor that is not positive
/// definite), as JAX's `lapack_?potrf_ffi` returns it.
pub fn verify_cholesky(ctx: &Context, op: OpId) -> Result<()> {
    let o = ctx.op(op);
    if o.operands().len() != 1 || !(1..=2).contains(&o.results.len()) {
        return Err(ctx.error(op, "expects one operand and one or two results"));
    }
    let (a, ae) = operand_tensor(ctx, op, 0)?;
    let r = a.len();
    if r < 2 || a[r - 1] != a[r - 2] {
        return Err(ctx.error(
            op,
            format!("expects a batch of square matrices, found {}", list(&a)),
        ));
    }
    if !(is_float(ctx, ae) || is_complex(ctx, ae)) {
        return Err(ctx.error(
            op,
            format!(
                "supports float and complex elements, found {}",
                ty_str(ctx, ae)
            ),
        ));
    }
    expect_result_type(ctx, op, 0, &a, ae)?;
    if o.results.len() == 2 {
        let (info, ie) = result_tensor(ctx, op, 1)?;
        if info != a[..r - 2] || !is_i32(ctx, ie) {
            return Err(ctx.error(op, "the info result is i32 per matrix"));
        }
    }
    Ok(())
}

/// `lu(a) -> (lu, pivots, info)`: a batch of (m, n) float or complex matrices; lu of
/// a's type, i32 pivots (batch..., min(m, n)) and i32 info (batch...).
pub fn verify_lu(ctx: &Context, op: OpId) -> Result<()> {
    let (a, ae) = operand_tensor(ctx, op, 0)?;
    let r = a.len();
    if r < 2 || !(is_float(ctx, ae) || is_complex(ctx, ae)) {
        return Err(ctx.error(op, "expects a batch of float or complex matrices"));
    }
    expect_result_type(ctx, op, 0, &a, ae)?;
    let mut pivots = a[..r - 2].to_vec();
    pivots.push(a[r - 2].min(a[r - 1]));
    let (p, pe) = result_tensor(ctx, op, 1)?;
    let (i, ie) = result_tensor(ctx, op, 2)?;
    let i32s = |t| is_i32(ctx, t);
    if p != pivots || i != a[..r - 2] || !i32s(pe) || !i32s(ie) {
        return Err(ctx.error(
            op,
            "results must be lu, i32 pivots per row of min(m, n) and i32 info per matrix",
        ));
    }
    Ok(())
}

/// Registers this family's ops: name, traits, counts, verifier, pretty syntax.
pub(crate) fn register(r: &mut Registry) {
    let pure = Traits::PURE;
    r.add(OpDef::new(LU, pure).counts(1, 3).verifier(verify_lu));
    r.add(
        OpDef::new(CHOLESKY, pure)
            .verifier(verify_cholesky)
            .parser(parse::parse_cholesky),
    );
    r.add(
        OpDef::new(TRIANGULAR_SOLVE, pure)
            .counts(2, 1)
            .verifier(verify_triangular_solve),
    );
}
