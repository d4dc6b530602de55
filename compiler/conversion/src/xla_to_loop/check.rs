//! `check.*` ops: each a call of the runtime's `strata_rt_check` with the
//! element code, the count, the tolerance and the op's location packed
//! into its id (the runtime reports failures by it).

use strata_diag::{Diagnostic, Result};
use strata_ir::{Context, OpId, Type, TypeKind};

use super::FuncLowering;
use crate::builder::Builder;

impl FuncLowering<'_> {
    pub(super) fn lower_check(&mut self, b: &mut Builder<'_>, op: OpId) -> Result<()> {
        use strata_dialect_check as check;
        let name = b.ctx.op(op).name;
        let operands = b.ctx.op(op).operands().to_vec();
        let t = b.ctx.value_ty(operands[0]);
        let actual = self.buffer_of(b, operands[0])?;
        let expected = match name {
            check::EXPECT_EQ_CONST | check::EXPECT_ALMOST_EQ_CONST => {
                let value = b
                    .ctx
                    .attr_of(op, "value")
                    .ok_or_else(|| Diagnostic::internal(b.loc, "check without value"))?;
                self.global_of_attr(b, value, t)?
            }
            _ => self.buffer_of(b, operands[1])?,
        };
        let kind = match name {
            check::EXPECT_EQ | check::EXPECT_EQ_CONST => strata_abi::CheckKind::ExpectEq,
            check::EXPECT_ALMOST_EQ | check::EXPECT_ALMOST_EQ_CONST => {
                strata_abi::CheckKind::ExpectAlmostEq
            }
            _ => strata_abi::CheckKind::ExpectClose,
        };
        let elem = b.ctx.types.elem(t);
        let code = elem_code(b.ctx, elem).ok_or_else(|| {
            Diagnostic::unsupported(
                b.loc,
                format!(
                    "checks on element type {} are not supported",
                    strata_ir::text::printer::type_to_string(b.ctx, elem)
                ),
            )
        })?;
        let tolerance = b
            .ctx
            .float_attr(op, "tolerance")
            .unwrap_or(check::DEFAULT_TOLERANCE);
        let min_ulp = b.ctx.int_attr(op, "min_ulp_difference").unwrap_or(0) as i64;
        let max_ulp = b.ctx.int_attr(op, "max_ulp_difference").unwrap_or(
            if kind == strata_abi::CheckKind::ExpectClose {
                3
            } else {
                0
            },
        ) as i64;
        let count = b.ctx.types.num_elements(t);
        let id = encode_check_id(b.loc);
        let (i32t, i64t) = (b.ctx.types.int_ty(32), b.ctx.types.int_ty(64));
        let f64t = b.ctx.types.float_ty(strata_ir::FloatKind::F64);
        let args = vec![
            b.const_int(kind as i128, i32t),
            b.const_int(code as i128, i32t),
            actual,
            expected,
            b.const_int(count as i128, i64t),
            b.const_float(tolerance, f64t),
            b.const_int(min_ulp as i128, i64t),
            b.const_int(max_ulp as i128, i64t),
            b.const_int(id as i128, i64t),
        ];
        self.call_runtime(b, &strata_abi::runtime::CHECK, args);
        Ok(())
    }
}

/// The runtime's element code for `t` (`strata_abi::ElemCode`; f8/f6/f4
/// from `strata_abi::MINIFLOAT_BASE` on).
pub fn elem_code(ctx: &Context, t: Type) -> Option<i32> {
    use strata_abi::ElemCode;
    use strata_ir::{FloatKind, Signedness};
    let code = match ctx.types.kind(t) {
        TypeKind::Int { width, sign } => ElemCode::of_int(*width, *sign != Signedness::Unsigned)?,
        TypeKind::Float(FloatKind::F16) => ElemCode::F16,
        TypeKind::Float(FloatKind::BF16) => ElemCode::BF16,
        TypeKind::Float(FloatKind::F32) => ElemCode::F32,
        TypeKind::Float(FloatKind::F64) => ElemCode::F64,
        TypeKind::Float(k) => {
            let format = strata_ir::minifloat::format(*k)?;
            return Some(strata_abi::MINIFLOAT_BASE + format.code());
        }
        TypeKind::Complex(p) if matches!(ctx.types.kind(*p), TypeKind::Float(FloatKind::F32)) => {
            ElemCode::C64
        }
        TypeKind::Complex(_) => ElemCode::C128,
        _ => return None,
    };
    Some(code as i32)
}

/// Packs a source location into the check id the runtime reports back.
pub fn encode_check_id(loc: strata_diag::Location) -> i64 {
    ((loc.file.0 as i64) << 44) | ((loc.line as i64) << 20) | (loc.col as i64 & 0xFFFFF)
}

pub fn decode_check_id(id: i64) -> strata_diag::Location {
    strata_diag::Location {
        file: strata_diag::FileId((id >> 44) as u32),
        line: ((id >> 20) & 0xFF_FFFF) as u32,
        col: (id & 0xFFFFF) as u32,
    }
}
