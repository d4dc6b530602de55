//! Conversions (`extsi extui trunci sitofp uitofp fptosi fptoui extf truncf
//! bitcast index_cast`) and `arith.constant`.

use inkwell::types::{BasicType, BasicTypeEnum};
use inkwell::values::{BasicValue, BasicValueEnum, IntValue};
use strata_diag::{Diagnostic, Result};
use strata_dialect_arith as a;
use strata_ir::{AttrKind, OpId, TypeKind, dense};

use crate::ice;
use crate::state::Lowerer;
use crate::types::int_type;

impl<'ctx> Lowerer<'ctx, '_> {
    fn result_value_type(&self, op: OpId) -> Result<BasicTypeEnum<'ctx>> {
        self.value_type(self.result_ty(op)?, op)
    }

    pub(crate) fn cast(&self, op: OpId, name: &str) -> Result<BasicValueEnum<'ctx>> {
        let to = self.result_value_type(op)?;
        let b = &self.b;
        let v: BasicValueEnum = match name {
            a::EXTSI => b
                .build_int_s_extend(self.int(op, 0)?, to.into_int_type(), "")
                .map_err(ice)?
                .into(),
            a::EXTUI => b
                .build_int_z_extend(self.int(op, 0)?, to.into_int_type(), "")
                .map_err(ice)?
                .into(),
            a::TRUNCI => b
                .build_int_truncate(self.int(op, 0)?, to.into_int_type(), "")
                .map_err(ice)?
                .into(),
            a::SITOFP | a::UITOFP => self.int_to_float(op, name == a::SITOFP)?,
            a::FPTOSI | a::FPTOUI => {
                let x = self.promoted(op, 0)?;
                let intr = if name == a::FPTOSI {
                    "llvm.fptosi.sat"
                } else {
                    "llvm.fptoui.sat"
                };
                self.intrinsic(intr, &[to, x.get_type().into()], &[x.into()])?
            }
            a::EXTF | a::TRUNCF if self.small_float_cast(op).is_some() => {
                self.minifloat_cast(op, name, to)?
            }
            a::EXTF | a::TRUNCF => self
                .convert_float(self.float(op, 0)?, to.into_float_type())?
                .into(),
            a::BITCAST => {
                let x = self.val(op, 0)?;
                if x.get_type() == to {
                    x
                } else {
                    b.build_bit_cast(x, to, "").map_err(ice)?
                }
            }
            a::INDEX_CAST => self
                .index_cast(self.int(op, 0)?, to.into_int_type())?
                .into(),
            _ => return Err(super::unknown(self, op, name)),
        };
        Ok(v)
    }

    /// The small-float format code when `op` converts from or to one.
    fn small_float_cast(&self, op: OpId) -> Option<i32> {
        let from = self.ir.value_ty(self.ir.op(op).operands[0]);
        let to = self.ir.value_ty(*self.ir.op(op).results.first()?);
        [from, to].into_iter().find_map(|t| match self.ir.kind(t) {
            TypeKind::Float(k) => strata_ir::minifloat::format(*k).map(|f| f.code()),
            _ => None,
        })
    }

    /// `extf` from a small float decodes its bits with the runtime (to f64,
    /// then to the target); `truncf` to one rounds from f64 with the runtime.
    fn minifloat_cast(
        &self,
        op: OpId,
        name: &str,
        to: BasicTypeEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        let code = self
            .small_float_cast(op)
            .ok_or_else(|| self.internal(op, "not a small-float cast"))?;
        let (f64t, i32t) = (self.cx.f64_type(), self.cx.i32_type());
        let fmt = i32t.const_int(code as u64, false);
        if name == a::EXTF {
            let from_small = self.val(op, 0)?.is_int_value();
            if !from_small {
                return Err(self.internal(op, "extf to a small float"));
            }
            let f = self.runtime_fn(&strata_abi::runtime::MINIFLOAT_DECODE);
            let v = self
                .call(f, &[fmt.into(), self.int(op, 0)?.into()])?
                .ok_or_else(|| ice("decode without result"))?;
            if to.is_int_type() {
                // small float to small float: re-encode.
                let e = self.runtime_fn(&strata_abi::runtime::MINIFLOAT_ENCODE);
                let r = self
                    .call(e, &[fmt.into(), v.into()])?
                    .ok_or_else(|| ice("encode without result"))?;
                return Ok(r);
            }
            return Ok(self
                .convert_float(v.into_float_value(), to.into_float_type())?
                .into());
        }
        let x = self.float(op, 0)?;
        let wide = self.convert_float(x, f64t)?;
        let e = self.runtime_fn(&strata_abi::runtime::MINIFLOAT_ENCODE);
        self.call(e, &[fmt.into(), wide.into()])?
            .ok_or_else(|| ice("encode without result"))
    }

    /// Integer to float. 16-bit targets go through `f64` (exact for
    /// integers up to 2^53) so that the value is rounded once.
    fn int_to_float(&self, op: OpId, signed: bool) -> Result<BasicValueEnum<'ctx>> {
        let x = self.int(op, 0)?;
        let to = self.result_value_type(op)?.into_float_type();
        let via = if to == self.cx.f16_type() || to == self.cx.bf16_type() {
            self.cx.f64_type()
        } else {
            to
        };
        let wide = if signed {
            self.b.build_signed_int_to_float(x, via, "")
        } else {
            self.b.build_unsigned_int_to_float(x, via, "")
        }
        .map_err(ice)?;
        Ok(self.convert_float(wide, to)?.into())
    }

    /// Index (i64) ↔ integer; integers are sign-extended.
    fn index_cast(
        &self,
        x: IntValue<'ctx>,
        to: inkwell::types::IntType<'ctx>,
    ) -> Result<IntValue<'ctx>> {
        let (from_w, to_w) = (x.get_type().get_bit_width(), to.get_bit_width());
        if from_w == to_w {
            Ok(x)
        } else if from_w < to_w {
            self.b.build_int_s_extend(x, to, "").map_err(ice)
        } else {
            self.b.build_int_truncate(x, to, "").map_err(ice)
        }
    }

    pub(crate) fn constant(&self, op: OpId) -> Result<BasicValueEnum<'ctx>> {
        let ty = self.result_ty(op)?;
        let attr = self
            .ir
            .attr_of(op, "value")
            .ok_or_else(|| self.internal(op, "has no 'value'"))?;
        let width = self.ir.bit_width(ty);
        let value_ty = self.value_type(ty, op)?;
        let mask = if width >= 64 {
            u64::MAX
        } else {
            (1u64 << width) - 1
        };
        let int_bits = |bits: u64| int_type(self.cx, width).const_int(bits & mask, false);
        let float = |v: f64| -> Result<BasicValueEnum<'ctx>> {
            let TypeKind::Float(k) = self.ir.kind(ty) else {
                return Err(self.internal(op, "expects a float result"));
            };
            if value_ty.is_int_type() {
                // A small float: its bit pattern in an i8.
                return Ok(self
                    .cx
                    .i8_type()
                    .const_int(dense::float_to_bits(v, *k), false)
                    .into());
            }
            let bits = int_bits(dense::float_to_bits(v, *k));
            self.b.build_bit_cast(bits, value_ty, "").map_err(ice)
        };
        match (self.ir.attr_kind(attr), self.ir.kind(ty)) {
            (AttrKind::Bool(v), _) => Ok(self
                .cx
                .bool_type()
                .const_int(*v as u64, false)
                .as_basic_value_enum()),
            (AttrKind::Int { value, .. }, TypeKind::Int { .. } | TypeKind::Index) => {
                Ok(int_bits(*value as u64).into())
            }
            (AttrKind::Int { value, .. }, TypeKind::Float(_)) => float(*value as f64),
            (AttrKind::Float { bits, .. }, TypeKind::Float(_)) => float(f64::from_bits(*bits)),
            _ => Err(Diagnostic::internal(
                self.loc(op),
                "'arith.constant' op has a value that does not match its type",
            )),
        }
        .map(|v| v.as_basic_value_enum())
        .and_then(|v| {
            if v.get_type() == value_ty.as_basic_type_enum() {
                Ok(v)
            } else {
                Err(self.internal(op, "constant type mismatch"))
            }
        })
    }
}
