//! `xla.householder_qr`, `xla.householder_product`, `xla.hessenberg`,
//! `xla.tridiagonal`, `xla.tridiagonal_solve`, `xla.eigh`, `xla.svd` and
//! `xla.eig`: one call each to the runtime (`runtime/src/linalg/`), with a
//! `strata_abi::LinalgDesc` describing the batch of matrices. The runtime
//! returns a non-zero status only for a malformed descriptor (a bug); a
//! decomposition that does not converge is reported in the op's `info`.

use strata_abi::{
    ElemCode, LINALG_LEFT_VECTORS, LINALG_LOWER, LINALG_VECTORS, LinalgDesc, runtime,
};
use strata_diag::{Diagnostic, Result};
use strata_dialect_xla::attrs;
use strata_dialect_xla::names::{
    EIG, EIGH, HESSENBERG, HOUSEHOLDER_PRODUCT, HOUSEHOLDER_QR, SVD, TRIDIAGONAL, TRIDIAGONAL_SOLVE,
};
use strata_ir::{FloatKind, OpId, TypeKind, Value};

use super::FuncLowering;
use super::materialize::shape_of;
use super::pattern::{Fusion, OpLowering};
use crate::builder::Builder;

/// The lowering pattern of runtime decompositions (QR, Householder products, Hessenberg, tridiagonal, eigh, SVD, eig).
pub(super) const DECOMPOSITION: OpLowering = OpLowering {
    ops: &[&[
        strata_dialect_xla::names::HOUSEHOLDER_QR,
        strata_dialect_xla::names::HOUSEHOLDER_PRODUCT,
        strata_dialect_xla::names::HESSENBERG,
        strata_dialect_xla::names::TRIDIAGONAL,
        strata_dialect_xla::names::TRIDIAGONAL_SOLVE,
        strata_dialect_xla::names::EIGH,
        strata_dialect_xla::names::SVD,
        strata_dialect_xla::names::EIG,
    ]],
    fusion: Fusion::Never,
    library_arithmetic: false,
    lower: |cx, b, op, bufs| decomposition(cx, b, op, bufs),
};

/// Writes the results of a decomposition op into `bufs` by one runtime call.
pub(super) fn decomposition(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    op: OpId,
    bufs: &[Value],
) -> Result<()> {
    let name = b.ctx.op(op).name;
    // The matrices are operand 0's, but for a tridiagonal solve, b's
    // (its systems' right-hand sides).
    let described = if name == TRIDIAGONAL_SOLVE { 3 } else { 0 };
    let a = b.ctx.op(op).operands()[described];
    let mut desc = matrices_desc(b, a)?;
    let sig = match name {
        HOUSEHOLDER_QR => &runtime::HOUSEHOLDER_QR,
        HOUSEHOLDER_PRODUCT => {
            let tau = b.ctx.op(op).operands()[1];
            desc.reflectors = shape_of(b.ctx, tau).last().copied().unwrap_or(0);
            &runtime::HOUSEHOLDER_PRODUCT
        }
        EIGH => {
            desc.flags = flag_bits(b, op, "lower", LINALG_LOWER)
                | flag_bits(b, op, "compute_vectors", LINALG_VECTORS);
            &runtime::EIGH
        }
        SVD => {
            desc.flags = flag_bits(b, op, "compute_uv", LINALG_VECTORS);
            let u = shape_of(b.ctx, b.ctx.op(op).results[1]);
            let vt = shape_of(b.ctx, b.ctx.op(op).results[2]);
            desc.u_cols = u.last().copied().unwrap_or(0);
            desc.vt_rows = vt.get(vt.len().wrapping_sub(2)).copied().unwrap_or(0);
            &runtime::SVD
        }
        HESSENBERG => &runtime::HESSENBERG,
        TRIDIAGONAL_SOLVE => &runtime::TRIDIAGONAL_SOLVE,
        TRIDIAGONAL => {
            desc.flags = flag_bits(b, op, "lower", LINALG_LOWER);
            &runtime::TRIDIAGONAL
        }
        EIG => {
            desc.flags = flag_bits(b, op, "compute_left_eigenvectors", LINALG_LEFT_VECTORS)
                | flag_bits(b, op, "compute_right_eigenvectors", LINALG_VECTORS);
            &runtime::EIG
        }
        other => {
            return Err(Diagnostic::internal(
                b.loc,
                format!("'{other}' is not a decomposition"),
            ));
        }
    };
    call(cx, b, op, bufs, sig, &desc)
}

/// One call of the runtime function `sig` for `op`: `desc`, the buffers
/// of `op`'s operands, then its result buffers `bufs`.
pub(super) fn call(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    op: OpId,
    bufs: &[Value],
    sig: &'static runtime::Signature,
    desc: &LinalgDesc,
) -> Result<()> {
    let desc_buf = cx.descriptor_global(b, desc)?;
    let mut args = vec![desc_buf];
    for v in b.ctx.op(op).operands().to_vec() {
        args.push(cx.buffer_of(b, v)?);
    }
    args.extend_from_slice(bufs);
    cx.call_runtime(b, sig, args);
    Ok(())
}

/// `bit` when the op's boolean attribute `name` is true.
pub(super) fn flag_bits(b: &Builder<'_>, op: OpId, name: &str, bit: i64) -> i64 {
    if attrs::flag(b.ctx, op, name) == Some(true) {
        bit
    } else {
        0
    }
}

/// The descriptor's element code and shape for the matrices of `a` (the
/// last two dimensions; the others, flattened, are the batch).
pub(super) fn matrices_desc(b: &Builder<'_>, a: Value) -> Result<LinalgDesc> {
    let shape = shape_of(b.ctx, a);
    let elem = b.ctx.types.elem(b.ctx.value_ty(a));
    let code = match b.ctx.types.kind(elem) {
        TypeKind::Float(FloatKind::F32) => Some(ElemCode::F32),
        TypeKind::Float(FloatKind::F64) => Some(ElemCode::F64),
        TypeKind::Complex(p) => match b.ctx.types.kind(*p) {
            TypeKind::Float(FloatKind::F32) => Some(ElemCode::C64),
            TypeKind::Float(FloatKind::F64) => Some(ElemCode::C128),
            _ => None,
        },
        _ => None,
    };
    let (Some(code), [batch @ .., rows, cols]) = (code, shape.as_slice()) else {
        return Err(Diagnostic::internal(
            b.loc,
            "decomposition of something other than f32/f64/complex matrices",
        ));
    };
    Ok(LinalgDesc {
        elem: code as i64,
        batch: batch.iter().product(),
        rows: *rows,
        cols: *cols,
        ..LinalgDesc::default()
    })
}
