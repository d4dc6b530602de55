//! `kernel.gemm` and `kernel.transpose`: the runtime's GEMM and blocked
//! transpose with the descriptors the kernel selection chose
//! (`convert-xla-to-kernel`); operands are bufferized as they are,
//! row-major, and read through the descriptor's strides.

use strata_diag::{Diagnostic, Result};
use strata_ir::{OpId, Value};

use super::FuncLowering;
use super::pattern::{Fusion, OpLowering};
use crate::builder::Builder;

/// The lowering pattern of `kernel.gemm`: the runtime's GEMM, as convert-xla-to-kernel chose.
pub(super) const GEMM: OpLowering = OpLowering {
    ops: &[&[strata_dialect_kernel::GEMM]],
    fusion: Fusion::Never,
    library_arithmetic: true,
    lower: |cx, b, op, bufs| gemm(cx, b, op, bufs[0]),
};

/// The lowering pattern of `kernel.transpose`: the runtime's blocked transpose.
pub(super) const TRANSPOSE: OpLowering = OpLowering {
    ops: &[&[strata_dialect_kernel::TRANSPOSE]],
    fusion: Fusion::Never,
    library_arithmetic: false,
    lower: |cx, b, op, bufs| transpose_kernel(cx, b, op, bufs[0]),
};

pub(super) fn gemm(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    op: OpId,
    out: Value,
) -> Result<()> {
    let desc = strata_dialect_kernel::gemm::desc(b.ctx, op)
        .ok_or_else(|| Diagnostic::internal(b.loc, "kernel.gemm with a malformed descriptor"))?;
    let (lhs, rhs) = (b.ctx.op(op).operands()[0], b.ctx.op(op).operands()[1]);
    let elements = strata_dialect_kernel::gemm::elements(b.ctx, op).ok_or_else(|| {
        Diagnostic::internal(b.loc, "kernel.gemm on element types no kernel takes")
    })?;
    let (lb, rb) = (cx.buffer_of(b, lhs)?, cx.buffer_of(b, rhs)?);
    super::dot::call_gemm(cx, b, elements.signature(), &desc, lb, rb, out)
}

pub(super) fn transpose_kernel(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    op: OpId,
    out: Value,
) -> Result<()> {
    let desc = strata_dialect_kernel::transpose::desc(b.ctx, op).ok_or_else(|| {
        Diagnostic::internal(b.loc, "kernel.transpose with a malformed descriptor")
    })?;
    let x = cx.buffer_of(b, b.ctx.op(op).operands()[0])?;
    let desc_buf = cx.descriptor_global(b, &desc)?;
    cx.call_runtime(b, &strata_abi::runtime::TRANSPOSE, vec![desc_buf, x, out]);
    Ok(())
}
