//! Matrix decompositions computed by the runtime, made from JAX's LAPACK
//! custom calls by `xla-lapack-custom-calls`: `xla.householder_qr`,
//! `xla.householder_product`, `xla.hessenberg`, `xla.tridiagonal`,
//! `xla.tridiagonal_solve`, `xla.eigh`, `xla.svd`, `xla.eig`. Each works on a batch
//! of matrices (the last two dimensions) of f32, f64, complex<f32> or
//! complex<f64>; `info` results are i32 per matrix (0, or > 0 when the
//! algorithm did not converge, as LAPACK's).

use strata_diag::Result;
use strata_ir::{Context, FloatKind, OpId, Type, TypeKind};

use crate::attrs;
use crate::util::*;
use names::*;
use strata_ir::{OpDef, Registry, Traits};

/// The op names of this family (`names.rs` gathers every family's).
pub mod names {
    /// LAPACK's geqrf: (a) -> (R above the diagonal with the Householder
    /// vectors below it, tau). Made from `lapack_?geqrf_ffi`.
    pub const HOUSEHOLDER_QR: &str = "xla.householder_qr";
    /// LAPACK's orgqr / ungqr: (reflectors, tau) -> the first columns of Q.
    /// Made from `lapack_?orgqr_ffi` / `lapack_?ungqr_ffi`.
    pub const HOUSEHOLDER_PRODUCT: &str = "xla.householder_product";
    /// Self-adjoint eigendecomposition, as syevd / heevd: (a) -> (vectors,
    /// ascending eigenvalues, info). Made from `lapack_?syevd_ffi` / `?heevd`.
    pub const EIGH: &str = "xla.eigh";
    /// Singular value decomposition, as gesdd: (a) -> (descending singular
    /// values, u, vᴴ, info). Made from `lapack_?gesdd_ffi`.
    pub const SVD: &str = "xla.svd";
    pub const EIG: &str = "xla.eig";
    pub const HESSENBERG: &str = "xla.hessenberg";
    pub const TRIDIAGONAL: &str = "xla.tridiagonal";
    pub const TRIDIAGONAL_SOLVE: &str = "xla.tridiagonal_solve";
}

/// The matrices' shape (batch, m, n) and element type of operand `i`: a
/// rank >= 2 tensor of f32, f64 or their complex numbers.
fn matrices(ctx: &Context, op: OpId, i: usize) -> Result<(Vec<i64>, i64, i64, Type)> {
    let (shape, elem) = operand_tensor(ctx, op, i)?;
    let r = shape.len();
    if r < 2 {
        return Err(ctx.error(
            op,
            format!("operand #{i} must be a batch of matrices (rank >= 2), found rank {r}"),
        ));
    }
    if real_part(ctx, elem).is_none() {
        return Err(ctx.error(
            op,
            format!(
                "operand #{i} must have f32, f64, complex<f32> or complex<f64> elements, found {}",
                ty_str(ctx, elem)
            ),
        ));
    }
    Ok((shape[..r - 2].to_vec(), shape[r - 2], shape[r - 1], elem))
}

/// The real type of an f32/f64/complex element (itself for reals).
pub fn real_part(ctx: &Context, elem: Type) -> Option<Type> {
    let part = match ctx.types.kind(elem) {
        TypeKind::Complex(p) => *p,
        _ => elem,
    };
    matches!(
        ctx.types.kind(part),
        TypeKind::Float(FloatKind::F32 | FloatKind::F64)
    )
    .then_some(part)
}

/// `batch` followed by `dims`.
fn batched(batch: &[i64], dims: &[i64]) -> Vec<i64> {
    batch.iter().chain(dims).copied().collect()
}

/// Result `i` is the i32 `info` per matrix of `batch`.
fn expect_info(ctx: &Context, op: OpId, i: usize, batch: &[i64]) -> Result<()> {
    let (shape, elem) = result_tensor(ctx, op, i)?;
    let i32s = is_i32(ctx, elem);
    if shape != batch || !i32s {
        return Err(ctx.error(
            op,
            format!(
                "result #{i} (info) must be i32 of shape {}, found {} of {}",
                list(batch),
                ty_str(ctx, elem),
                list(&shape)
            ),
        ));
    }
    Ok(())
}

/// A required boolean attribute.
fn expect_flag(ctx: &Context, op: OpId, name: &str) -> Result<bool> {
    attrs::flag(ctx, op, name)
        .ok_or_else(|| ctx.error(op, format!("requires a boolean attribute '{name}'")))
}

/// `householder_qr(a) -> (factored, tau)`, LAPACK's geqrf: a (batch, m, n);
/// factored of a's type (R on and above the diagonal, the reflectors'
/// vectors below it), tau (batch, min(m, n)) of a's element type.
pub fn verify_householder_qr(ctx: &Context, op: OpId) -> Result<()> {
    let (batch, m, n, elem) = matrices(ctx, op, 0)?;
    expect_result_type(ctx, op, 0, &batched(&batch, &[m, n]), elem)?;
    expect_result_type(ctx, op, 1, &batched(&batch, &[m.min(n)]), elem)
}

/// `householder_product(a, tau) -> q`, LAPACK's orgqr / ungqr: a (batch,
/// m, n) holding k reflectors below its diagonal, tau (batch, k), with
/// k <= n <= m; q of a's type, the first n columns of H_0 ... H_{k-1}.
pub fn verify_householder_product(ctx: &Context, op: OpId) -> Result<()> {
    let (batch, m, n, elem) = matrices(ctx, op, 0)?;
    let (tau, tau_elem) = operand_tensor(ctx, op, 1)?;
    let k = tau.last().copied().unwrap_or(-1);
    if tau.len() != batch.len() + 1 || tau[..batch.len()] != batch[..] || tau_elem != elem {
        return Err(ctx.error(
            op,
            format!(
                "tau must be {} of a's element type with a's batch dimensions, found {} of {}",
                list(&batched(&batch, &[k.max(0)])),
                ty_str(ctx, tau_elem),
                list(&tau)
            ),
        ));
    }
    if k > n || n > m {
        return Err(ctx.error(
            op,
            format!("needs k <= n <= m for {k} reflectors into {m}x{n} matrices"),
        ));
    }
    expect_result_type(ctx, op, 0, &batched(&batch, &[m, n]), elem)
}

/// `eigh(a) -> (vectors, values, info)` {lower, compute_vectors}, as
/// syevd / heevd: a (batch, n, n) self-adjoint, read from its lower or
/// upper triangle; vectors of a's type (eigenvectors as columns), values
/// (batch, n) real and ascending, info i32 (batch).
pub fn verify_eigh(ctx: &Context, op: OpId) -> Result<()> {
    let (batch, m, n, elem) = matrices(ctx, op, 0)?;
    if m != n {
        return Err(ctx.error(op, format!("expects square matrices, found {m}x{n}")));
    }
    expect_flag(ctx, op, "lower")?;
    expect_flag(ctx, op, "compute_vectors")?;
    let part = real_part(ctx, elem).unwrap_or(elem);
    expect_result_type(ctx, op, 0, &batched(&batch, &[n, n]), elem)?;
    expect_result_type(ctx, op, 1, &batched(&batch, &[n]), part)?;
    expect_info(ctx, op, 2, &batch)
}

/// `svd(a) -> (s, u, vt, info)` {full_matrices, compute_uv}, as gesdd: a
/// (batch, m, n); s (batch, min(m, n)) real and descending; u (batch, m,
/// m or min(m, n)) and vt = vᴴ (batch, n or min(m, n), n) of a's element
/// type, full when `full_matrices` (zeros unless `compute_uv`); info i32.
pub fn verify_svd(ctx: &Context, op: OpId) -> Result<()> {
    let (batch, m, n, elem) = matrices(ctx, op, 0)?;
    let full = expect_flag(ctx, op, "full_matrices")?;
    expect_flag(ctx, op, "compute_uv")?;
    let k = m.min(n);
    let part = real_part(ctx, elem).unwrap_or(elem);
    let (u_cols, vt_rows) = if full { (m, n) } else { (k, k) };
    expect_result_type(ctx, op, 0, &batched(&batch, &[k]), part)?;
    expect_result_type(ctx, op, 1, &batched(&batch, &[m, u_cols]), elem)?;
    expect_result_type(ctx, op, 2, &batched(&batch, &[vt_rows, n]), elem)?;
    expect_info(ctx, op, 3, &batch)
}

/// `eig(a) -> (values, left, right, info)` {compute_left_eigenvectors,
/// compute_right_eigenvectors}, as geev: a (batch, n, n) general; values
/// (batch, n) and the eigenvectors as columns, left and right (batch, n,
/// n), complex of a's precision (zeros when not computed); info i32.
pub fn verify_eig(ctx: &Context, op: OpId) -> Result<()> {
    let (batch, m, n, elem) = matrices(ctx, op, 0)?;
    if m != n {
        return Err(ctx.error(op, format!("expects square matrices, found {m}x{n}")));
    }
    expect_flag(ctx, op, "compute_left_eigenvectors")?;
    expect_flag(ctx, op, "compute_right_eigenvectors")?;
    let part = real_part(ctx, elem).unwrap_or(elem);
    for (i, dims) in [(0, vec![n]), (1, vec![n, n]), (2, vec![n, n])] {
        let (shape, e) = result_tensor(ctx, op, i)?;
        let complex_of_part = matches!(ctx.types.kind(e), TypeKind::Complex(p) if *p == part);
        if shape != batched(&batch, &dims) || !complex_of_part {
            return Err(ctx.error(
                op,
                format!(
                    "result #{i} must be {}, found {}",
                    tensor_text(
                        &batched(&batch, &dims),
                        &format!("complex<{}>", ty_str(ctx, part))
                    ),
                    ty_str(ctx, ctx.value_ty(ctx.op(op).results[i]))
                ),
            ));
        }
    }
    expect_info(ctx, op, 3, &batch)
}

/// `hessenberg(a) -> (packed, tau)`, as gehrd: a (batch, n, n); packed of
/// a's type (H on and above the subdiagonal, the reflectors below), tau
/// (batch, n - 1) of a's element type.
pub fn verify_hessenberg(ctx: &Context, op: OpId) -> Result<()> {
    let (batch, m, n, elem) = matrices(ctx, op, 0)?;
    if m != n {
        return Err(ctx.error(op, format!("expects square matrices, found {m}x{n}")));
    }
    expect_result_type(ctx, op, 0, &batched(&batch, &[n, n]), elem)?;
    expect_result_type(ctx, op, 1, &batched(&batch, &[(n - 1).max(0)]), elem)
}

/// `tridiagonal(a) -> (packed, d, e, tau)` {lower}, as sytrd / hetrd: a
/// (batch, n, n) self-adjoint; packed of a's type, d (batch, n) and e
/// (batch, n - 1) real, tau (batch, n - 1) of a's element type.
pub fn verify_tridiagonal(ctx: &Context, op: OpId) -> Result<()> {
    let (batch, m, n, elem) = matrices(ctx, op, 0)?;
    if m != n {
        return Err(ctx.error(op, format!("expects square matrices, found {m}x{n}")));
    }
    expect_flag(ctx, op, "lower")?;
    let part = real_part(ctx, elem).unwrap_or(elem);
    let k = (n - 1).max(0);
    expect_result_type(ctx, op, 0, &batched(&batch, &[n, n]), elem)?;
    expect_result_type(ctx, op, 1, &batched(&batch, &[n]), part)?;
    expect_result_type(ctx, op, 2, &batched(&batch, &[k]), part)?;
    expect_result_type(ctx, op, 3, &batched(&batch, &[k]), elem)
}

/// `tridiagonal_solve(dl, d, du, b) -> (dl, d, du, x, info)`, as gtsv: the
/// diagonals (batch, n) (dl[0] and du[n-1] unused), b (batch, n, k); the
/// results are what gtsv leaves in the diagonals (the factors), the
/// solution x of b's type and info i32 (batch).
pub fn verify_tridiagonal_solve(ctx: &Context, op: OpId) -> Result<()> {
    let (batch, n, _, elem) = matrices(ctx, op, 3)?;
    let diagonal = batched(&batch, &[n]);
    for i in 0..3 {
        let (shape, e) = operand_tensor(ctx, op, i)?;
        if shape != diagonal || e != elem {
            return Err(ctx.error(
                op,
                format!(
                    "operand #{i} must be {} (a diagonal of b's systems), found {}",
                    tensor_text(&diagonal, &ty_str(ctx, elem)),
                    ty_str(ctx, ctx.value_ty(ctx.op(op).operands()[i]))
                ),
            ));
        }
        expect_result_type(ctx, op, i, &diagonal, elem)?;
    }
    let b = ctx
        .types
        .shape(ctx.value_ty(ctx.op(op).operands()[3]))
        .unwrap_or(&[])
        .to_vec();
    expect_result_type(ctx, op, 3, &b, elem)?;
    expect_info(ctx, op, 4, &batch)
}

/// Registers this family's ops: name, traits, counts, verifier, pretty syntax.
pub(crate) fn register(r: &mut Registry) {
    let pure = Traits::PURE;
    r.add(
        OpDef::new(HOUSEHOLDER_QR, pure)
            .counts(1, 2)
            .verifier(verify_householder_qr),
    );
    r.add(
        OpDef::new(HOUSEHOLDER_PRODUCT, pure)
            .counts(2, 1)
            .verifier(verify_householder_product),
    );
    r.add(OpDef::new(EIGH, pure).counts(1, 3).verifier(verify_eigh));
    r.add(OpDef::new(SVD, pure).counts(1, 4).verifier(verify_svd));
    r.add(OpDef::new(EIG, pure).counts(1, 4).verifier(verify_eig));
    r.add(
        OpDef::new(HESSENBERG, pure)
            .counts(1, 2)
            .verifier(verify_hessenberg),
    );
    r.add(
        OpDef::new(TRIDIAGONAL, pure)
            .counts(1, 4)
            .verifier(verify_tridiagonal),
    );
    r.add(
        OpDef::new(TRIDIAGONAL_SOLVE, pure)
            .counts(4, 5)
            .verifier(verify_tridiagonal_solve),
    );
}
