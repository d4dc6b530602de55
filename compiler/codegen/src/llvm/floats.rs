//! Float conversions, bit casts, and float intrinsics and libm calls.

use inkwell::types::{BasicType, FloatType};
use inkwell::values::{BasicMetadataValueEnum, FloatValue};
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

    /// Converts between any two of f16, f32, f64 (round to nearest even).
    /// `bf16` conversions are integer ops by then (`arith-expand-narrow-floats`).
    pub(crate) fn convert_float(
        &self,
        v: FloatValue<'ctx>,
        to: FloatType<'ctx>,
    ) -> Result<FloatValue<'ctx>> {
        let from = v.get_type();
        let bf16 = self.cx.bf16_type();
        if from == to {
            return Ok(v);
        }
        if from == bf16 || to == bf16 {
            return Err(ice(
                "a bf16 conversion reached code generation (arith-expand-narrow-floats expands them)",
            ));
        }
        if self.float_width(from) < self.float_width(to) {
            self.b.build_float_ext(v, to, "").map_err(ice)
        } else {
            self.b.build_float_trunc(v, to, "").map_err(ice)
        }
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
