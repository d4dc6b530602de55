//! `arith` ops to LLVM instructions, intrinsics and libm calls. Integer ops
//! and compares are here; float math in `arith/float.rs`; conversions and
//! constants in `arith/cast.rs`.

mod approx;
mod cast;
mod float;

use inkwell::intrinsics::Intrinsic;
use inkwell::types::BasicTypeEnum;
use inkwell::values::{BasicMetadataValueEnum, BasicValueEnum, IntValue};
use inkwell::{FloatPredicate, IntPredicate};
use strata_diag::{Diagnostic, Result};
use strata_dialect_arith as a;
use strata_ir::OpId;

use crate::ice;
use crate::state::Lowerer;

impl<'ctx> Lowerer<'ctx, '_> {
    pub(crate) fn lower_arith(&mut self, op: OpId) -> Result<()> {
        let name = self.ir.op(op).name;
        let v = if a::INT_BINARY.contains(&name) {
            self.int_binary(op, name)?
        } else if a::FLOAT_BINARY.contains(&name) {
            self.float_binary(op, name)?
        } else if a::FLOAT_UNARY.contains(&name) {
            self.float_unary(op, name)?
        } else {
            match name {
                a::CTLZ => {
                    let x = self.int(op, 0)?;
                    let no_poison = self.cx.bool_type().const_zero();
                    self.intrinsic(
                        "llvm.ctlz",
                        &[x.get_type().into()],
                        &[x.into(), no_poison.into()],
                    )?
                }
                a::POPCOUNT => {
                    let x = self.int(op, 0)?;
                    self.intrinsic("llvm.ctpop", &[x.get_type().into()], &[x.into()])?
                }
                a::CMPI => self.cmpi(op)?,
                a::CMPF => self.cmpf(op)?,
                a::SELECT => {
                    let c = self.int(op, 0)?;
                    self.b
                        .build_select(c, self.val(op, 1)?, self.val(op, 2)?, "")
                        .map_err(ice)?
                }
                a::CONSTANT => self.constant(op)?,
                _ => self.cast(op, name)?,
            }
        };
        self.bind(op, 0, v)
    }

    /// Calls the (possibly overloaded) LLVM intrinsic `name`.
    pub(crate) fn intrinsic(
        &self,
        name: &str,
        types: &[BasicTypeEnum<'ctx>],
        args: &[BasicMetadataValueEnum<'ctx>],
    ) -> Result<BasicValueEnum<'ctx>> {
        let f = Intrinsic::find(name)
            .and_then(|i| i.get_declaration(&self.module, types))
            .ok_or_else(|| ice(format!("no LLVM intrinsic {name} for these types")))?;
        self.call(f, args)?
            .ok_or_else(|| ice(format!("{name} returns nothing")))
    }

    fn int_binary(&self, op: OpId, name: &str) -> Result<BasicValueEnum<'ctx>> {
        let (x, y) = (self.int(op, 0)?, self.int(op, 1)?);
        let b = &self.b;
        let minmax =
            |intr: &str| self.intrinsic(intr, &[x.get_type().into()], &[x.into(), y.into()]);
        let v: IntValue = match name {
            a::ADDI => b.build_int_add(x, y, ""),
            a::SUBI => b.build_int_sub(x, y, ""),
            a::MULI => b.build_int_mul(x, y, ""),
            a::DIVSI => b.build_int_signed_div(x, y, ""),
            a::DIVUI => b.build_int_unsigned_div(x, y, ""),
            a::REMSI => b.build_int_signed_rem(x, y, ""),
            a::REMUI => b.build_int_unsigned_rem(x, y, ""),
            a::ANDI => b.build_and(x, y, ""),
            a::ORI => b.build_or(x, y, ""),
            a::XORI => b.build_xor(x, y, ""),
            a::SHLI => b.build_left_shift(x, y, ""),
            a::SHRSI => b.build_right_shift(x, y, true, ""),
            a::SHRUI => b.build_right_shift(x, y, false, ""),
            a::MAXSI => return minmax("llvm.smax"),
            a::MINSI => return minmax("llvm.smin"),
            a::MAXUI => return minmax("llvm.umax"),
            a::MINUI => return minmax("llvm.umin"),
            _ => return Err(self.internal(op, "is not an integer binary op")),
        }
        .map_err(ice)?;
        Ok(v.into())
    }

    fn cmpi(&self, op: OpId) -> Result<BasicValueEnum<'ctx>> {
        use IntPredicate::*;
        let p = match a::predicate(self.ir, op) {
            Some("eq") => EQ,
            Some("ne") => NE,
            Some("slt") => SLT,
            Some("sle") => SLE,
            Some("sgt") => SGT,
            Some("sge") => SGE,
            Some("ult") => ULT,
            Some("ule") => ULE,
            Some("ugt") => UGT,
            Some("uge") => UGE,
            _ => return Err(self.internal(op, "has an invalid predicate")),
        };
        let v = self
            .b
            .build_int_compare(p, self.int(op, 0)?, self.int(op, 1)?, "")
            .map_err(ice)?;
        Ok(v.into())
    }

    fn cmpf(&self, op: OpId) -> Result<BasicValueEnum<'ctx>> {
        use FloatPredicate::*;
        let p = match a::predicate(self.ir, op) {
            Some("oeq") => OEQ,
            Some("one") => ONE,
            Some("olt") => OLT,
            Some("ole") => OLE,
            Some("ogt") => OGT,
            Some("oge") => OGE,
            Some("ueq") => UEQ,
            Some("une") => UNE,
            Some("ult") => ULT,
            Some("ule") => ULE,
            Some("ugt") => UGT,
            Some("uge") => UGE,
            Some("ord") => ORD,
            Some("uno") => UNO,
            _ => return Err(self.internal(op, "has an invalid predicate")),
        };
        let (x, y) = (self.promoted(op, 0)?, self.promoted(op, 1)?);
        let v = self.b.build_float_compare(p, x, y, "").map_err(ice)?;
        Ok(v.into())
    }
}

/// Unsupported-op error for a name no arith lowering knows.
fn unknown(l: &Lowerer<'_, '_>, op: OpId, name: &str) -> Diagnostic {
    Diagnostic::unsupported(
        l.loc(op),
        format!("'{name}' op cannot be lowered to LLVM IR"),
    )
}
