//! `arith` ops to LLVM instructions, intrinsics and libm calls. Integer ops
//! and compares are here; float math in `arith/float.rs`; conversions and
//! constants in `arith/cast.rs`.

mod cast;
mod float;

use inkwell::values::{BasicValueEnum, IntValue};
use inkwell::{FloatPredicate, IntPredicate};
use strata_diag::{Diagnostic, Result};
use strata_dialect_arith as a;
use strata_ir::OpId;

use crate::ice;
use crate::state::Lowerer;

pub(crate) fn lower_arith<'ctx>(lw: &mut Lowerer<'ctx, '_>, op: OpId) -> Result<()> {
    let name = lw.ir.op(op).name;
    let v = if a::INT_BINARY.contains(&name) {
        int_binary(lw, op, name)?
    } else if a::FLOAT_BINARY.contains(&name) {
        float::float_binary(lw, op, name)?
    } else if a::FLOAT_UNARY.contains(&name) {
        float::float_unary(lw, op, name)?
    } else {
        match name {
            a::CTLZ => {
                let x = lw.int(op, 0)?;
                let no_poison = lw.ll.cx.bool_type().const_zero();
                lw.ll.intrinsic(
                    "llvm.ctlz",
                    &[x.get_type().into()],
                    &[x.into(), no_poison.into()],
                )?
            }
            a::POPCOUNT => {
                let x = lw.int(op, 0)?;
                lw.ll
                    .intrinsic("llvm.ctpop", &[x.get_type().into()], &[x.into()])?
            }
            a::CMPI => cmpi(lw, op)?,
            a::CMPF => cmpf(lw, op)?,
            a::SELECT => {
                let c = lw.int(op, 0)?;
                lw.ll
                    .b
                    .build_select(c, lw.val(op, 1)?, lw.val(op, 2)?, "")
                    .map_err(ice)?
            }
            a::CONSTANT => cast::constant(lw, op)?,
            _ => cast::cast(lw, op, name)?,
        }
    };
    lw.bind(op, 0, v)
}

fn int_binary<'ctx>(lw: &Lowerer<'ctx, '_>, op: OpId, name: &str) -> Result<BasicValueEnum<'ctx>> {
    let (x, y) = (lw.int(op, 0)?, lw.int(op, 1)?);
    let b = &lw.ll.b;
    let minmax = |intr: &str| {
        lw.ll
            .intrinsic(intr, &[x.get_type().into()], &[x.into(), y.into()])
    };
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
        _ => return Err(lw.internal(op, "is not an integer binary op")),
    }
    .map_err(ice)?;
    Ok(v.into())
}

fn cmpi<'ctx>(lw: &Lowerer<'ctx, '_>, op: OpId) -> Result<BasicValueEnum<'ctx>> {
    use IntPredicate::*;
    let p = match a::predicate(lw.ir, op) {
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
        _ => return Err(lw.internal(op, "has an invalid predicate")),
    };
    let v = lw
        .ll
        .b
        .build_int_compare(p, lw.int(op, 0)?, lw.int(op, 1)?, "")
        .map_err(ice)?;
    Ok(v.into())
}

fn cmpf<'ctx>(lw: &Lowerer<'ctx, '_>, op: OpId) -> Result<BasicValueEnum<'ctx>> {
    use FloatPredicate::*;
    let p = match a::predicate(lw.ir, op) {
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
        _ => return Err(lw.internal(op, "has an invalid predicate")),
    };
    let (x, y) = (float::operand(lw, op, 0)?, float::operand(lw, op, 1)?);
    let v = lw.ll.b.build_float_compare(p, x, y, "").map_err(ice)?;
    Ok(v.into())
}

/// Unsupported-op error for a name no arith lowering knows.
fn unknown(l: &Lowerer<'_, '_>, op: OpId, name: &str) -> Diagnostic {
    Diagnostic::unsupported(
        l.loc(op),
        format!("'{name}' op cannot be lowered to LLVM IR"),
    )
}
