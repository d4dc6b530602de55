//! Float arithmetic. `f16` and `bf16` are computed in `f32` and rounded
//! back; `bf16` conversions are done with integer ops (no libgcc helpers
//! are needed), `f64 → bf16` rounds to odd first so it rounds only once.

use inkwell::FloatPredicate;
use inkwell::types::{BasicType, FloatType};
use inkwell::values::{BasicMetadataValueEnum, BasicValueEnum, FloatValue, IntValue};
use strata_diag::Result;
use strata_dialect_arith as a;
use strata_ir::OpId;

use crate::ice;
use crate::state::Lowerer;

impl<'ctx> Lowerer<'ctx, '_> {
    fn is_16bit(&self, t: FloatType<'ctx>) -> bool {
        t == self.cx.f16_type() || t == self.cx.bf16_type()
    }

    fn float_width(&self, t: FloatType<'ctx>) -> u32 {
        if self.is_16bit(t) {
            16
        } else if t == self.cx.f32_type() {
            32
        } else {
            64
        }
    }

    /// Operand `i`, extended to `f32` if it is `f16` or `bf16`.
    pub(crate) fn promoted(&self, op: OpId, i: usize) -> Result<FloatValue<'ctx>> {
        let v = self.float(op, i)?;
        if self.is_16bit(v.get_type()) {
            self.convert_float(v, self.cx.f32_type())
        } else {
            Ok(v)
        }
    }

    /// Converts between any two of f16, bf16, f32, f64 (round to nearest even).
    pub(crate) fn convert_float(
        &self,
        v: FloatValue<'ctx>,
        to: FloatType<'ctx>,
    ) -> Result<FloatValue<'ctx>> {
        let from = v.get_type();
        let (f32t, bf16) = (self.cx.f32_type(), self.cx.bf16_type());
        if from == to {
            return Ok(v);
        }
        if from == bf16 {
            let wide = self.bf16_to_f32(v)?;
            return self.convert_float(wide, to);
        }
        if to == bf16 {
            let narrow = if from == self.cx.f64_type() {
                self.f64_to_f32_odd(v)?
            } else {
                self.convert_float(v, f32t)?
            };
            return self.f32_to_bf16(narrow);
        }
        if self.float_width(from) < self.float_width(to) {
            self.b.build_float_ext(v, to, "").map_err(ice)
        } else {
            self.b.build_float_trunc(v, to, "").map_err(ice)
        }
    }

    fn bits(&self, v: FloatValue<'ctx>, width: u32) -> Result<IntValue<'ctx>> {
        let t = crate::types::int_type(self.cx, width);
        Ok(self
            .b
            .build_bit_cast(v, t, "")
            .map_err(ice)?
            .into_int_value())
    }

    fn float_from_bits(&self, v: IntValue<'ctx>, t: FloatType<'ctx>) -> Result<FloatValue<'ctx>> {
        Ok(self
            .b
            .build_bit_cast(v, t, "")
            .map_err(ice)?
            .into_float_value())
    }

    fn bf16_to_f32(&self, v: FloatValue<'ctx>) -> Result<FloatValue<'ctx>> {
        let i32t = self.cx.i32_type();
        let wide = self
            .b
            .build_int_z_extend(self.bits(v, 16)?, i32t, "")
            .map_err(ice)?;
        let shifted = self
            .b
            .build_left_shift(wide, i32t.const_int(16, false), "")
            .map_err(ice)?;
        self.float_from_bits(shifted, self.cx.f32_type())
    }

    /// `f32 → bf16`, round to nearest even; NaNs stay (quiet) NaNs.
    fn f32_to_bf16(&self, v: FloatValue<'ctx>) -> Result<FloatValue<'ctx>> {
        let (b, i32t) = (&self.b, self.cx.i32_type());
        let c = |x: u64| i32t.const_int(x, false);
        let bits = self.bits(v, 32)?;
        let lsb = b
            .build_and(
                b.build_right_shift(bits, c(16), false, "").map_err(ice)?,
                c(1),
                "",
            )
            .map_err(ice)?;
        let bias = b.build_int_add(lsb, c(0x7fff), "").map_err(ice)?;
        let rounded = b
            .build_right_shift(
                b.build_int_add(bits, bias, "").map_err(ice)?,
                c(16),
                false,
                "",
            )
            .map_err(ice)?;
        let quiet = b
            .build_or(
                b.build_right_shift(bits, c(16), false, "").map_err(ice)?,
                c(0x40),
                "",
            )
            .map_err(ice)?;
        let is_nan = b
            .build_float_compare(FloatPredicate::UNO, v, v, "")
            .map_err(ice)?;
        let r = b
            .build_select(is_nan, quiet, rounded, "")
            .map_err(ice)?
            .into_int_value();
        let r16 = b
            .build_int_truncate(r, self.cx.i16_type(), "")
            .map_err(ice)?;
        self.float_from_bits(r16, self.cx.bf16_type())
    }

    /// `f64 → f32` rounding to odd, so that a second rounding to a narrower
    /// format gives the correctly rounded result.
    fn f64_to_f32_odd(&self, v: FloatValue<'ctx>) -> Result<FloatValue<'ctx>> {
        let b = &self.b;
        let (f32t, f64t, i32t) = (self.cx.f32_type(), self.cx.f64_type(), self.cx.i32_type());
        let r = b.build_float_trunc(v, f32t, "").map_err(ice)?;
        let back = b.build_float_ext(r, f64t, "").map_err(ice)?;
        let inexact = b
            .build_float_compare(FloatPredicate::ONE, back, v, "")
            .map_err(ice)?;
        let abs = |x: FloatValue<'ctx>| -> Result<FloatValue<'ctx>> {
            Ok(self
                .intrinsic("llvm.fabs", &[f64t.into()], &[x.into()])?
                .into_float_value())
        };
        let over = b
            .build_float_compare(FloatPredicate::OGT, abs(back)?, abs(v)?, "")
            .map_err(ice)?;
        let bits = self.bits(r, 32)?;
        let toward_zero = b
            .build_int_sub(bits, i32t.const_int(1, false), "")
            .map_err(ice)?;
        let bits = b
            .build_select(over, toward_zero, bits, "")
            .map_err(ice)?
            .into_int_value();
        let odd = b
            .build_or(bits, i32t.const_int(1, false), "")
            .map_err(ice)?;
        let bits = b
            .build_select(inexact, odd, bits, "")
            .map_err(ice)?
            .into_int_value();
        self.float_from_bits(bits, f32t)
    }

    /// Rounds an `f32`/`f64` result back to the operand type `to`.
    fn finish(&self, v: FloatValue<'ctx>, to: FloatType<'ctx>) -> Result<BasicValueEnum<'ctx>> {
        Ok(self.convert_float(v, to)?.into())
    }

    pub(crate) fn float_intrinsic(
        &self,
        name: &str,
        args: &[FloatValue<'ctx>],
    ) -> Result<FloatValue<'ctx>> {
        let t = args[0].get_type().as_basic_type_enum();
        let args: Vec<BasicMetadataValueEnum> = args.iter().map(|&x| x.into()).collect();
        Ok(self.intrinsic(name, &[t], &args)?.into_float_value())
    }

    /// Calls libm's `base` (`basef` for `f32`).
    fn libm(&self, base: &str, args: &[FloatValue<'ctx>]) -> Result<FloatValue<'ctx>> {
        let t = args[0].get_type();
        let name = if t == self.cx.f32_type() {
            format!("{base}f")
        } else {
            base.to_string()
        };
        let params = vec![t.into(); args.len()];
        let f = self.external(&name, t.fn_type(&params, false));
        let args: Vec<BasicMetadataValueEnum> = args.iter().map(|&x| x.into()).collect();
        let r = self
            .call(f, &args)?
            .ok_or_else(|| ice(format!("{name} returns nothing")))?;
        Ok(r.into_float_value())
    }

    pub(crate) fn float_binary(&self, op: OpId, name: &str) -> Result<BasicValueEnum<'ctx>> {
        let ty = self.float(op, 0)?.get_type();
        if name == a::COPYSIGN && self.is_16bit(ty) {
            return self.sign_bits(op, name);
        }
        let (x, y) = (self.promoted(op, 0)?, self.promoted(op, 1)?);
        let b = &self.b;
        let r = match name {
            a::ADDF => b.build_float_add(x, y, "").map_err(ice)?,
            a::SUBF => b.build_float_sub(x, y, "").map_err(ice)?,
            a::MULF => b.build_float_mul(x, y, "").map_err(ice)?,
            a::DIVF => b.build_float_div(x, y, "").map_err(ice)?,
            a::REMF => b.build_float_rem(x, y, "").map_err(ice)?,
            a::POWF => self.float_intrinsic("llvm.pow", &[x, y])?,
            a::ATAN2 => self.libm("atan2", &[x, y])?,
            a::MAXIMUMF => self.float_intrinsic("llvm.maximum", &[x, y])?,
            a::MINIMUMF => self.float_intrinsic("llvm.minimum", &[x, y])?,
            a::COPYSIGN => self.float_intrinsic("llvm.copysign", &[x, y])?,
            _ => return Err(super::unknown(self, op, name)),
        };
        use inkwell::values::FastMathFlags as Fmf;
        let mut flags = Fmf::empty();
        if self.ir.attr_of(op, "reassoc").is_some() {
            // A reduction step: its order is the implementation's choice,
            // so LLVM may reassociate (and vectorize) the chain.
            flags |= Fmf::AllowReassoc;
        }
        if self.ir.attr_of(op, "contract").is_some() && !self.is_16bit(ty) {
            // XLA:CPU compiles its own IR with LLVM's FPOpFusion::Fast, so a
            // multiply feeding an add or subtract becomes one FMA wherever
            // the target has one; results match XLA's only if Strata fuses
            // the same pairs (the lowering marks which: `contract`). f16/bf16
            // round between the two, so nothing fuses there.
            flags |= Fmf::AllowContract;
        }
        if !flags.is_empty()
            && let Some(inst) = r.as_instruction()
        {
            let _ = inst.set_fast_math_flags(flags);
        }
        self.finish(r, ty)
    }

    /// `negf`, `absf` and `copysign` on 16-bit floats as sign-bit operations.
    fn sign_bits(&self, op: OpId, name: &str) -> Result<BasicValueEnum<'ctx>> {
        let x = self.float(op, 0)?;
        let (b, i16t) = (&self.b, self.cx.i16_type());
        let bits = self.bits(x, 16)?;
        let sign = i16t.const_int(0x8000, false);
        let r = match name {
            a::NEGF => b.build_xor(bits, sign, ""),
            a::ABSF => b.build_and(bits, i16t.const_int(0x7fff, false), ""),
            _ => {
                let y = self.bits(self.float(op, 1)?, 16)?;
                let mag = b
                    .build_and(bits, i16t.const_int(0x7fff, false), "")
                    .map_err(ice)?;
                let s = b.build_and(y, sign, "").map_err(ice)?;
                b.build_or(mag, s, "")
            }
        }
        .map_err(ice)?;
        Ok(self.float_from_bits(r, x.get_type())?.into())
    }

    pub(crate) fn float_unary(&self, op: OpId, name: &str) -> Result<BasicValueEnum<'ctx>> {
        let ty = self.float(op, 0)?.get_type();
        if (name == a::NEGF || name == a::ABSF) && self.is_16bit(ty) {
            return self.sign_bits(op, name);
        }
        let x = self.promoted(op, 0)?;
        let r = match name {
            a::NEGF => self.b.build_float_neg(x, "").map_err(ice)?,
            a::ABSF => self.float_intrinsic("llvm.fabs", &[x])?,
            a::SQRT => self.float_intrinsic("llvm.sqrt", &[x])?,
            a::RSQRT => {
                let s = self.float_intrinsic("llvm.sqrt", &[x])?;
                self.b
                    .build_float_div(x.get_type().const_float(1.0), s, "")
                    .map_err(ice)?
            }
            a::EXP if x.get_type() == self.cx.f32_type() => self.exp_f32(x)?,
            a::EXP => self.float_intrinsic("llvm.exp", &[x])?,
            // f16 steps through XLA's formula in f16; XLA:CPU computes
            // bf16 element-wise ops in f32 and rounds once, like the rest.
            a::EXPM1 if ty == self.cx.f16_type() => self.expm1_narrow(x, ty)?,
            a::EXPM1 if x.get_type() == self.cx.f32_type() => self.expm1_f32(x)?,
            a::EXPM1 => self.libm("expm1", &[x])?,
            a::LOG if x.get_type() == self.cx.f32_type() => self.log_f32(x)?,
            a::LOG => self.float_intrinsic("llvm.log", &[x])?,
            a::LOG1P if x.get_type() == self.cx.f32_type() => self.log1p_f32(x)?,
            a::LOG1P => self.libm("log1p", &[x])?,
            a::SIN => self.float_intrinsic("llvm.sin", &[x])?,
            a::COS => self.float_intrinsic("llvm.cos", &[x])?,
            a::TAN => self.libm("tan", &[x])?,
            a::TANH if x.get_type() == self.cx.f32_type() => self.tanh_f32(x)?,
            a::TANH => self.libm("tanh", &[x])?,
            a::FLOOR => self.float_intrinsic("llvm.floor", &[x])?,
            a::CEIL => self.float_intrinsic("llvm.ceil", &[x])?,
            a::ROUND => self.float_intrinsic("llvm.round", &[x])?,
            a::ROUNDEVEN => self.float_intrinsic("llvm.roundeven", &[x])?,
            a::CBRT => self.libm("cbrt", &[x])?,
            a::ERF => self.libm("erf", &[x])?,
            a::ERFC => self.libm("erfc", &[x])?,
            a::ASIN => self.libm("asin", &[x])?,
            a::ACOS => self.libm("acos", &[x])?,
            a::ATAN => self.libm("atan", &[x])?,
            a::SINH => self.libm("sinh", &[x])?,
            a::COSH => self.libm("cosh", &[x])?,
            a::ASINH => self.libm("asinh", &[x])?,
            a::ACOSH => self.libm("acosh", &[x])?,
            a::ATANH => self.libm("atanh", &[x])?,
            _ => return Err(super::unknown(self, op, name)),
        };
        self.finish(r, ty)
    }
}
