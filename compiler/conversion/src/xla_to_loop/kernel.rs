//! `kernel.gemm` and `kernel.transpose`: the runtime's GEMM and blocked
//! transpose with the descriptors the kernel selection chose
//! (`convert-xla-to-kernel`); operands are bufferized as they are,
//! row-major, and read through the descriptor's strides.

use strata_diag::{Diagnostic, Result};
use strata_ir::{FloatKind, OpId, TypeKind, Value};

use super::FuncLowering;
use crate::builder::Builder;

impl FuncLowering<'_> {
    pub(super) fn gemm(&mut self, b: &mut Builder<'_>, op: OpId, out: Value) -> Result<()> {
        let desc = strata_dialect_kernel::gemm::desc(b.ctx, op).ok_or_else(|| {
            Diagnostic::internal(b.loc, "kernel.gemm with a malformed descriptor")
        })?;
        let (lhs, rhs) = (b.ctx.op(op).operands[0], b.ctx.op(op).operands[1]);
        let kind = match b.ctx.kind(b.ctx.elem(b.ctx.value_ty(lhs))) {
            TypeKind::Float(k @ (FloatKind::F32 | FloatKind::F64)) => *k,
            _ => {
                return Err(Diagnostic::internal(
                    b.loc,
                    "kernel.gemm on neither f32 nor f64",
                ));
            }
        };
        let (lb, rb) = (self.buffer_of(b, lhs)?, self.buffer_of(b, rhs)?);
        self.call_gemm(b, kind, &desc, lb, rb, out)
    }

    pub(super) fn transpose_kernel(
        &mut self,
        b: &mut Builder<'_>,
        op: OpId,
        out: Value,
    ) -> Result<()> {
        let desc = strata_dialect_kernel::transpose::desc(b.ctx, op).ok_or_else(|| {
            Diagnostic::internal(b.loc, "kernel.transpose with a malformed descriptor")
        })?;
        let x = self.buffer_of(b, b.ctx.op(op).operands[0])?;
        let desc_buf = self.descriptor_global(b, &desc)?;
        self.call_runtime(b, &strata_abi::runtime::TRANSPOSE, vec![desc_buf, x, out]);
        Ok(())
    }
}
