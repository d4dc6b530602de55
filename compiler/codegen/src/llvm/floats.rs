//! Float conversions the LLVM instructions do not give as XLA rounds them
//! (bf16 by bit manipulation, f64 -> bf16 through round-to-odd f32), bit
//! casts, and float intrinsics and libm calls.

use inkwell::FloatPredicate;
use inkwell::types::{BasicType, FloatType};
use inkwell::values::{BasicMetadataValueEnum, FloatValue, IntValue};
use strata_diag::Result;

use super::Llvm;
use crate::ice;

impl<'ctx> Llvm<'ctx> {
    pub(crate) fn is_16bit(&self, t: FloatType<'ctx>) -> bool {
        t == self.cx.f16_type() || t == self.cx.bf16_type()
    }

    pub(crate) fn float_width(&self, t: FloatType<'ctx>) -> u32 {
        if self.is_16bit(t) {
            16
        } else if t == self.cx.f32_type() {
            32
        } else {
            64
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

    pub(crate) fn bits(&self, v: FloatValue<'ctx>, width: u32) -> Result<IntValue<'ctx>> {
        let t = crate::types::int_type(self.cx, width);
        Ok(self
            .b
            .build_bit_cast(v, t, "")
            .map_err(ice)?
            .into_int_value())
    }

    pub(crate) fn float_from_bits(
        &self,
        v: IntValue<'ctx>,
        t: FloatType<'ctx>,
    ) -> Result<FloatValue<'ctx>> {
        Ok(self
            .b
            .build_bit_cast(v, t, "")
            .map_err(ice)?
            .into_float_value())
    }

    pub(crate) fn bf16_to_f32(&self, v: FloatValue<'ctx>) -> Result<FloatValue<'ctx>> {
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
    pub(crate) fn f32_to_bf16(&self, v: FloatValue<'ctx>) -> Result<FloatValue<'ctx>> {
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
    pub(crate) fn f64_to_f32_odd(&self, v: FloatValue<'ctx>) -> Result<FloatValue<'ctx>> {
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
    pub(crate) fn libm(&self, base: &str, args: &[FloatValue<'ctx>]) -> Result<FloatValue<'ctx>> {
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
}
