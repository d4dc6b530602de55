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

fn result_value_type<'ctx>(lw: &Lowerer<'ctx, '_>, op: OpId) -> Result<BasicTypeEnum<'ctx>> {
    lw.value_type(lw.result_ty(op)?, op)
}

pub(crate) fn cast<'ctx>(
    lw: &Lowerer<'ctx, '_>,
    op: OpId,
    name: &str,
) -> Result<BasicValueEnum<'ctx>> {
    let to = result_value_type(lw, op)?;
    let b = &lw.ll.b;
    let v: BasicValueEnum = match name {
        a::EXTSI => b
            .build_int_s_extend(lw.int(op, 0)?, to.into_int_type(), "")
            .map_err(ice)?
            .into(),
        a::EXTUI => b
            .build_int_z_extend(lw.int(op, 0)?, to.into_int_type(), "")
            .map_err(ice)?
            .into(),
        a::TRUNCI => b
            .build_int_truncate(lw.int(op, 0)?, to.into_int_type(), "")
            .map_err(ice)?
            .into(),
        a::SITOFP | a::UITOFP => int_to_float(lw, op, name == a::SITOFP)?,
        a::FPTOSI | a::FPTOUI => {
            let x = super::float::operand(lw, op, 0)?;
            let intr = if name == a::FPTOSI {
                "llvm.fptosi.sat"
            } else {
                "llvm.fptoui.sat"
            };
            lw.ll
                .intrinsic(intr, &[to, x.get_type().into()], &[x.into()])?
        }
        a::EXTF | a::TRUNCF if small_float_cast(lw, op).is_some() => {
            minifloat_cast(lw, op, name, to)?
        }
        a::EXTF | a::TRUNCF => lw
            .ll
            .convert_float(lw.float(op, 0)?, to.into_float_type())?
            .into(),
        a::BITCAST => {
            let x = lw.val(op, 0)?;
            if x.get_type() == to {
                x
            } else {
                b.build_bit_cast(x, to, "").map_err(ice)?
            }
        }
        a::INDEX_CAST => index_cast(lw, lw.int(op, 0)?, to.into_int_type())?.into(),
        _ => return Err(super::unknown(lw, op, name)),
    };
    Ok(v)
}

/// The small-float format code when `op` converts from or to one.
fn small_float_cast<'ctx>(lw: &Lowerer<'ctx, '_>, op: OpId) -> Option<i32> {
    let from = lw.ir.value_ty(lw.ir.op(op).operands()[0]);
    let to = lw.ir.value_ty(*lw.ir.op(op).results.first()?);
    [from, to]
        .into_iter()
        .find_map(|t| match lw.ir.types.kind(t) {
            TypeKind::Float(k) => strata_ir::minifloat::format(*k).map(|f| f.code()),
            _ => None,
        })
}

/// `extf` from a small float decodes its bits with the runtime (to f64,
/// then to the target); `truncf` to one rounds from f64 with the runtime.
fn minifloat_cast<'ctx>(
    lw: &Lowerer<'ctx, '_>,
    op: OpId,
    name: &str,
    to: BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>> {
    let code = small_float_cast(lw, op).ok_or_else(|| lw.internal(op, "not a small-float cast"))?;
    let (f64t, i32t) = (lw.ll.cx.f64_type(), lw.ll.cx.i32_type());
    let fmt = i32t.const_int(code as u64, false);
    if name == a::EXTF {
        let from_small = lw.val(op, 0)?.is_int_value();
        if !from_small {
            return Err(lw.internal(op, "extf to a small float"));
        }
        let f = lw.ll.runtime_fn(&strata_abi::runtime::MINIFLOAT_DECODE);
        let v = lw
            .ll
            .call(f, &[fmt.into(), lw.int(op, 0)?.into()])?
            .ok_or_else(|| ice("decode without result"))?;
        if to.is_int_type() {
            // small float to small float: re-encode.
            let e = lw.ll.runtime_fn(&strata_abi::runtime::MINIFLOAT_ENCODE);
            let r = lw
                .ll
                .call(e, &[fmt.into(), v.into()])?
                .ok_or_else(|| ice("encode without result"))?;
            return Ok(r);
        }
        return Ok(lw
            .ll
            .convert_float(v.into_float_value(), to.into_float_type())?
            .into());
    }
    let x = lw.float(op, 0)?;
    let wide = lw.ll.convert_float(x, f64t)?;
    let e = lw.ll.runtime_fn(&strata_abi::runtime::MINIFLOAT_ENCODE);
    lw.ll
        .call(e, &[fmt.into(), wide.into()])?
        .ok_or_else(|| ice("encode without result"))
}

/// Integer to `f32`/`f64` (16-bit targets went through `f64` in
/// `arith-expand-narrow-floats`).
fn int_to_float<'ctx>(
    lw: &Lowerer<'ctx, '_>,
    op: OpId,
    signed: bool,
) -> Result<BasicValueEnum<'ctx>> {
    let x = lw.int(op, 0)?;
    let to = result_value_type(lw, op)?.into_float_type();
    if lw.ll.is_16bit(to) {
        return Err(lw.internal(
            op,
            "converts to a 16-bit float (arith-expand-narrow-floats goes through f64)",
        ));
    }
    let r = if signed {
        lw.ll.b.build_signed_int_to_float(x, to, "")
    } else {
        lw.ll.b.build_unsigned_int_to_float(x, to, "")
    }
    .map_err(ice)?;
    Ok(r.into())
}

/// Index (i64) ↔ integer; integers are sign-extended.
fn index_cast<'ctx>(
    lw: &Lowerer<'ctx, '_>,
    x: IntValue<'ctx>,
    to: inkwell::types::IntType<'ctx>,
) -> Result<IntValue<'ctx>> {
    let (from_w, to_w) = (x.get_type().get_bit_width(), to.get_bit_width());
    if from_w == to_w {
        Ok(x)
    } else if from_w < to_w {
        lw.ll.b.build_int_s_extend(x, to, "").map_err(ice)
    } else {
        lw.ll.b.build_int_truncate(x, to, "").map_err(ice)
    }
}

pub(crate) fn constant<'ctx>(lw: &Lowerer<'ctx, '_>, op: OpId) -> Result<BasicValueEnum<'ctx>> {
    let ty = lw.result_ty(op)?;
    let attr = lw
        .ir
        .attr_of(op, "value")
        .ok_or_else(|| lw.internal(op, "has no 'value'"))?;
    let width = lw.ir.types.bit_width(ty);
    let value_ty = lw.value_type(ty, op)?;
    let mask = if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    let int_bits = |bits: u64| int_type(lw.ll.cx, width).const_int(bits & mask, false);
    let float = |v: f64| -> Result<BasicValueEnum<'ctx>> {
        let TypeKind::Float(k) = lw.ir.types.kind(ty) else {
            return Err(lw.internal(op, "expects a float result"));
        };
        if value_ty.is_int_type() {
            // A small float: its bit pattern in an i8.
            return Ok(lw
                .ll
                .cx
                .i8_type()
                .const_int(dense::float_to_bits(v, *k), false)
                .into());
        }
        let bits = int_bits(dense::float_to_bits(v, *k));
        lw.ll.b.build_bit_cast(bits, value_ty, "").map_err(ice)
    };
    match (lw.ir.attr_kind(attr), lw.ir.types.kind(ty)) {
        (AttrKind::Bool(v), _) => Ok(lw
            .ll
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
            lw.loc(op),
            "'arith.constant' op has a value that does not match its type",
        )),
    }
    .map(|v| v.as_basic_value_enum())
    .and_then(|v| {
        if v.get_type() == value_ty.as_basic_type_enum() {
            Ok(v)
        } else {
            Err(lw.internal(op, "constant type mismatch"))
        }
    })
}
