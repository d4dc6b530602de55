//! Float arithmetic on `f32` and `f64`. (`arith-expand-narrow-floats`
//! has put `f16` and `bf16` arithmetic in those terms before.)

use inkwell::values::{BasicValueEnum, FloatValue};
use strata_diag::Result;
use strata_dialect_arith as a;
use strata_ir::OpId;

use crate::ice;
use crate::state::Lowerer;

/// Operand `i` of a float op: `f32` or `f64`.
pub(crate) fn operand<'ctx>(
    lw: &Lowerer<'ctx, '_>,
    op: OpId,
    i: usize,
) -> Result<FloatValue<'ctx>> {
    let v = lw.float(op, i)?;
    if lw.ll.is_16bit(v.get_type()) {
        return Err(lw.internal(
            op,
            "has 16-bit float operands (arith-expand-narrow-floats computes those in f32)",
        ));
    }
    Ok(v)
}

pub(crate) fn float_binary<'ctx>(
    lw: &Lowerer<'ctx, '_>,
    op: OpId,
    name: &str,
) -> Result<BasicValueEnum<'ctx>> {
    let (x, y) = (operand(lw, op, 0)?, operand(lw, op, 1)?);
    let b = &lw.ll.b;
    let r = match name {
        a::ADDF => b.build_float_add(x, y, "").map_err(ice)?,
        a::SUBF => b.build_float_sub(x, y, "").map_err(ice)?,
        a::MULF => b.build_float_mul(x, y, "").map_err(ice)?,
        a::DIVF => b.build_float_div(x, y, "").map_err(ice)?,
        a::REMF => b.build_float_rem(x, y, "").map_err(ice)?,
        a::POWF => lw.ll.float_intrinsic("llvm.pow", &[x, y])?,
        a::ATAN2 => lw.ll.libm("atan2", &[x, y])?,
        a::MAXIMUMF => lw.ll.float_intrinsic("llvm.maximum", &[x, y])?,
        a::MINIMUMF => lw.ll.float_intrinsic("llvm.minimum", &[x, y])?,
        a::COPYSIGN => lw.ll.float_intrinsic("llvm.copysign", &[x, y])?,
        _ => return Err(super::unknown(lw, op, name)),
    };
    use inkwell::values::FastMathFlags as Fmf;
    let mut flags = Fmf::empty();
    if lw.ir.attr_of(op, "reassoc").is_some() {
        // A reduction step: its order is the implementation's choice,
        // so LLVM may reassociate (and vectorize) the chain.
        flags |= Fmf::AllowReassoc;
        if name == a::ADDF {
            // LLVM counts an fadd associative only with nsz too: without
            // it a row short enough to be unrolled whole (a softmax over
            // 32 keys) was summed one lane after another, never as a
            // vector (half of a small-heads attention's time). The sign
            // of a zero sum is then unspecified where every term is a
            // zero, as in XLA (whose sum over one element returns a -0.0
            // term as it is, init 0.0 notwithstanding).
            flags |= Fmf::NoSignedZeros;
        }
    }
    if lw.ir.attr_of(op, "contract").is_some() {
        // XLA:CPU compiles its own IR with LLVM's FPOpFusion::Fast, so a
        // multiply feeding an add or subtract becomes one FMA wherever
        // the target has one; results match XLA's only if Strata fuses
        // the same pairs (the lowering marks which: `contract`).
        flags |= Fmf::AllowContract;
    }
    if !flags.is_empty()
        && let Some(inst) = r.as_instruction()
    {
        let _ = inst.set_fast_math_flags(flags);
    }
    Ok(r.into())
}

pub(crate) fn float_unary<'ctx>(
    lw: &Lowerer<'ctx, '_>,
    op: OpId,
    name: &str,
) -> Result<BasicValueEnum<'ctx>> {
    let x = operand(lw, op, 0)?;
    let r = match name {
        a::NEGF => lw.ll.b.build_float_neg(x, "").map_err(ice)?,
        a::ABSF => lw.ll.float_intrinsic("llvm.fabs", &[x])?,
        a::SQRT => lw.ll.float_intrinsic("llvm.sqrt", &[x])?,
        a::RSQRT => {
            let s = lw.ll.float_intrinsic("llvm.sqrt", &[x])?;
            lw.ll
                .b
                .build_float_div(x.get_type().const_float(1.0), s, "")
                .map_err(ice)?
        }
        a::EXP if x.get_type() == lw.ll.cx.f32_type() => lw.ll.exp_f32(x)?,
        a::EXP => lw.ll.float_intrinsic("llvm.exp", &[x])?,
        a::EXPM1 if x.get_type() == lw.ll.cx.f32_type() => lw.ll.expm1_f32(x)?,
        a::EXPM1 => lw.ll.libm("expm1", &[x])?,
        a::LOG if x.get_type() == lw.ll.cx.f32_type() => lw.ll.log_f32(x)?,
        a::LOG => lw.ll.float_intrinsic("llvm.log", &[x])?,
        a::LOG1P if x.get_type() == lw.ll.cx.f32_type() => lw.ll.log1p_f32(x)?,
        a::LOG1P => lw.ll.libm("log1p", &[x])?,
        a::SIN => lw.ll.float_intrinsic("llvm.sin", &[x])?,
        a::COS => lw.ll.float_intrinsic("llvm.cos", &[x])?,
        a::TAN => lw.ll.libm("tan", &[x])?,
        a::TANH if x.get_type() == lw.ll.cx.f32_type() => lw.ll.tanh_f32(x)?,
        a::TANH => lw.ll.libm("tanh", &[x])?,
        a::FLOOR => lw.ll.float_intrinsic("llvm.floor", &[x])?,
        a::CEIL => lw.ll.float_intrinsic("llvm.ceil", &[x])?,
        a::ROUND => lw.ll.float_intrinsic("llvm.round", &[x])?,
        a::ROUNDEVEN => lw.ll.float_intrinsic("llvm.roundeven", &[x])?,
        a::CBRT => lw.ll.libm("cbrt", &[x])?,
        a::ERF => lw.ll.libm("erf", &[x])?,
        a::ERFC => lw.ll.libm("erfc", &[x])?,
        a::ASIN => lw.ll.libm("asin", &[x])?,
        a::ACOS => lw.ll.libm("acos", &[x])?,
        a::ATAN => lw.ll.libm("atan", &[x])?,
        a::SINH => lw.ll.libm("sinh", &[x])?,
        a::COSH => lw.ll.libm("cosh", &[x])?,
        a::ASINH => lw.ll.libm("asinh", &[x])?,
        a::ACOSH => lw.ll.libm("acosh", &[x])?,
        a::ATANH => lw.ll.libm("atanh", &[x])?,
        _ => return Err(super::unknown(lw, op, name)),
    };
    Ok(r.into())
}
