//! `arith` ops → upstream `arith` and `math`, with the native backend's
//! semantics: float → int conversions saturate (`llvm.intr.fpto*i.sat`),
//! and the f8/f6/f4 formats convert through the runtime's codec. f16/bf16
//! arithmetic and bf16 conversions arrive expanded into f32 and integer ops
//! (`arith-expand-narrow-floats`, which both backends share; upstream's own
//! `arith-expand` would also rewrite `maximumf`/`minimumf` in a way that
//! loses the order of signed zeros).

use strata_dialect_arith as a;
use strata_ir::{AttrKind, FloatKind, OpId, TypeKind, dense};

use super::{Exporter, unsupported};
use strata_diag::Result;

/// Upstream op of each float binary op.
fn float_binary(name: &str) -> Option<&'static str> {
    Some(match name {
        a::ADDF => "arith.addf",
        a::SUBF => "arith.subf",
        a::MULF => "arith.mulf",
        a::DIVF => "arith.divf",
        a::REMF => "arith.remf",
        a::POWF => "math.powf",
        a::ATAN2 => "math.atan2",
        a::MAXIMUMF => "arith.maximumf",
        a::MINIMUMF => "arith.minimumf",
        a::COPYSIGN => "math.copysign",
        _ => return None,
    })
}

/// Upstream op of each float unary op.
fn float_unary(name: &str) -> Option<&'static str> {
    Some(match name {
        a::NEGF => "arith.negf",
        a::ABSF => "math.absf",
        a::SQRT => "math.sqrt",
        a::RSQRT => "math.rsqrt",
        a::EXP => "math.exp",
        a::LOG => "math.log",
        a::LOG1P => "math.log1p",
        a::SIN => "math.sin",
        a::COS => "math.cos",
        a::TAN => "math.tan",
        a::TANH => "math.tanh",
        a::FLOOR => "math.floor",
        a::CEIL => "math.ceil",
        a::ROUND => "math.round",
        a::ROUNDEVEN => "math.roundeven",
        a::CBRT => "math.cbrt",
        a::ERF => "math.erf",
        a::ERFC => "math.erfc",
        a::ASIN => "math.asin",
        a::ACOS => "math.acos",
        a::ATAN => "math.atan",
        a::SINH => "math.sinh",
        a::COSH => "math.cosh",
        a::ASINH => "math.asinh",
        a::ACOSH => "math.acosh",
        a::ATANH => "math.atanh",
        _ => return None,
    })
}

/// Upstream op of each integer binary op (same names, signless types).
fn int_binary(name: &str) -> Option<&'static str> {
    a::INT_BINARY.iter().find(|&&n| n == name).copied()
}

pub(crate) fn arith(ex: &mut Exporter<'_>, op: OpId) -> Result<()> {
    let name = ex.ir.op(op).name;
    if let Some(up) = int_binary(name) {
        return same_type_op(ex, op, up, 2);
    }
    if let Some(up) = float_binary(name) {
        return float_op(ex, op, up, 2);
    }
    if name == a::EXPM1 {
        // `convert-math-to-llvm` computes exp(x) - 1, which cancels
        // near 0: libm's expm1, as the native backend calls.
        return libm_unary(ex, op, "expm1");
    }
    if let Some(up) = float_unary(name) {
        return match name {
            // Exact on any format: no promotion.
            a::NEGF | a::ABSF => same_type_op(ex, op, up, 1),
            _ => float_op(ex, op, up, 1),
        };
    }
    match name {
        a::CTLZ => same_type_op(ex, op, "math.ctlz", 1),
        a::POPCOUNT => same_type_op(ex, op, "math.ctpop", 1),
        a::CMPI => compare(ex, op, "arith.cmpi", false),
        a::CMPF => compare(ex, op, "arith.cmpf", true),
        a::SELECT => {
            let (c, x, y) = (ex.operand(op, 0)?, ex.operand(op, 1)?, ex.operand(op, 2)?);
            let t = ex.ty(ex.result_ty(op)?, op)?;
            let r = ex.define_result(op)?;
            ex.line(format!("{r} = arith.select {c}, {x}, {y} : {t}"));
            Ok(())
        }
        a::CONSTANT => arith_constant(ex, op),
        _ => cast(ex, op, name),
    }
}

/// A libm function of one float (`expm1f` for f32, `expm1` for f64).
fn libm_unary(ex: &mut Exporter<'_>, op: OpId, base: &str) -> Result<()> {
    let (x, wide) = float_operand(ex, op, 0)?;
    let f = if wide == "f32" {
        format!("{base}f")
    } else {
        base.to_string()
    };
    ex.declare(&f, format!("({wide}) -> {wide}"));
    let t = ex.ty(ex.result_ty(op)?, op)?;
    let w = ex.fresh();
    ex.line(format!("{w} = func.call @{f}({x}) : ({wide}) -> {wide}"));
    let r = convert_float(ex, op, w, wide, &t)?;
    let v = *ex
        .ir
        .op(op)
        .results
        .first()
        .ok_or_else(|| ex.internal(op, "has no result"))?;
    names_alias(ex, v, r);
    Ok(())
}

/// `r = up x (, y)` with operands and result of one type.
fn same_type_op(ex: &mut Exporter<'_>, op: OpId, up: &str, arity: usize) -> Result<()> {
    let args = (0..arity)
        .map(|i| ex.operand(op, i))
        .collect::<Result<Vec<_>>>()?;
    let t = ex.ty(ex.result_ty(op)?, op)?;
    let r = ex.define_result(op)?;
    ex.line(format!("{r} = {up} {} : {t}", args.join(", ")));
    Ok(())
}

/// Operand `i` of a float op and its type: `f32` or `f64`.
fn float_operand(ex: &mut Exporter<'_>, op: OpId, i: usize) -> Result<(String, String)> {
    let x = ex.operand(op, i)?;
    let t = ex.ty(ex.operand_ty(op, i)?, op)?;
    if t == "f16" || t == "bf16" {
        return Err(ex.internal(
            op,
            "has 16-bit float operands (arith-expand-narrow-floats computes those in f32)",
        ));
    }
    Ok((x, t))
}

/// A float op on `f32` or `f64`.
fn float_op(ex: &mut Exporter<'_>, op: OpId, up: &str, arity: usize) -> Result<()> {
    for i in 0..arity {
        float_operand(ex, op, i)?;
    }
    same_type_op(ex, op, up, arity)
}

fn compare(ex: &mut Exporter<'_>, op: OpId, up: &str, float: bool) -> Result<()> {
    let p = a::predicate(ex.ir, op)
        .ok_or_else(|| ex.internal(op, "has no predicate"))?
        .to_string();
    let ((x, t), (y, _)) = if float {
        (float_operand(ex, op, 0)?, float_operand(ex, op, 1)?)
    } else {
        let t = ex.ty(ex.operand_ty(op, 0)?, op)?;
        ((ex.operand(op, 0)?, t.clone()), (ex.operand(op, 1)?, t))
    };
    let r = ex.define_result(op)?;
    ex.line(format!("{r} = {up} {p}, {x}, {y} : {t}"));
    Ok(())
}

fn arith_constant(ex: &mut Exporter<'_>, op: OpId) -> Result<()> {
    let ty = ex.result_ty(op)?;
    let attr = ex
        .ir
        .attr_of(op, "value")
        .ok_or_else(|| ex.internal(op, "has no 'value'"))?;
    let t = ex.ty(ty, op)?;
    let width = ex.ir.types.bit_width(ty);
    let value = match (ex.ir.attr_kind(attr), ex.ir.types.kind(ty)) {
        (AttrKind::Bool(v), _) => return bool_constant(ex, op, *v),
        (AttrKind::Int { value, .. }, TypeKind::Int { .. } | TypeKind::Index) => {
            if width == 1 {
                return bool_constant(ex, op, value & 1 == 1);
            }
            signed_in_width(*value, width).to_string()
        }
        (AttrKind::Int { value, .. }, TypeKind::Float(k)) => float_literal(*value as f64, *k),
        (AttrKind::Float { bits, .. }, TypeKind::Float(k)) => {
            float_literal(f64::from_bits(*bits), *k)
        }
        _ => return Err(ex.internal(op, "has a value that does not match its type")),
    };
    let r = ex.define_result(op)?;
    ex.line(format!("{r} = arith.constant {value} : {t}"));
    Ok(())
}

/// `arith.constant true` (an `i1` literal carries no type).
fn bool_constant(ex: &mut Exporter<'_>, op: OpId, v: bool) -> Result<()> {
    let r = ex.define_result(op)?;
    ex.line(format!("{r} = arith.constant {v}"));
    Ok(())
}

fn cast(ex: &mut Exporter<'_>, op: OpId, name: &str) -> Result<()> {
    let from_ty = ex.operand_ty(op, 0)?;
    let to_ty = ex.result_ty(op)?;
    let (from, to) = (ex.ty(from_ty, op)?, ex.ty(to_ty, op)?);
    let small = |t| match ex.ir.types.kind(t) {
        TypeKind::Float(k) => strata_ir::minifloat::format(*k).map(|f| f.code()),
        _ => None,
    };
    if matches!(name, a::EXTF | a::TRUNCF)
        && let Some(code) = small(from_ty).or(small(to_ty))
    {
        return minifloat_cast(ex, op, name, code, &to);
    }
    let x = ex.operand(op, 0)?;
    let r = match name {
        a::EXTSI | a::EXTUI | a::TRUNCI | a::INDEX_CAST => {
            let up = name;
            let r = ex.define_result(op)?;
            ex.line(format!("{r} = {up} {x} : {from} to {to}"));
            return Ok(());
        }
        a::BITCAST if from == to => {
            // f8 ↔ its bits: both are the same i8 here.
            let v = *ex
                .ir
                .op(op)
                .results
                .first()
                .ok_or_else(|| ex.internal(op, "has no result"))?;
            names_alias(ex, v, x);
            return Ok(());
        }
        a::BITCAST => {
            let r = ex.define_result(op)?;
            ex.line(format!("{r} = arith.bitcast {x} : {from} to {to}"));
            return Ok(());
        }
        a::SITOFP | a::UITOFP => {
            let up = if name == a::SITOFP {
                "arith.sitofp"
            } else {
                "arith.uitofp"
            };
            let w = ex.fresh();
            ex.line(format!("{w} = {up} {x} : {from} to {to}"));
            w
        }
        a::FPTOSI | a::FPTOUI => {
            let (x, from) = float_operand(ex, op, 0)?;
            // LLVM's saturating conversions (NaN → 0): what XLA does,
            // and no poison for out-of-range values.
            let intr = if name == a::FPTOSI {
                "llvm.fptosi.sat"
            } else {
                "llvm.fptoui.sat"
            };
            let w = ex.fresh();
            ex.line(format!(
                "{w} = llvm.call_intrinsic \"{intr}.{to}.{from}\"({x}) : ({from}) -> {to}"
            ));
            w
        }
        a::EXTF | a::TRUNCF => convert_float(ex, op, x, from, &to)?,
        _ => return Err(unsupported(ex.loc(op), format!("'{name}' op"))),
    };
    let v = *ex
        .ir
        .op(op)
        .results
        .first()
        .ok_or_else(|| ex.internal(op, "has no result"))?;
    names_alias(ex, v, r);
    Ok(())
}

fn names_alias(ex: &mut Exporter<'_>, v: strata_ir::Value, name: String) {
    ex.names.insert(v, name);
}

/// Converts between f16, f32 and f64 (bf16 conversions arrive as integer
/// ops, see the module comment).
fn convert_float(
    ex: &mut Exporter<'_>,
    op: OpId,
    x: String,
    from: String,
    to: &str,
) -> Result<String> {
    if from == to {
        return Ok(x);
    }
    if from == "bf16" || to == "bf16" {
        return Err(ex.internal(
            op,
            "converts from or to bf16 (arith-expand-narrow-floats expands that)",
        ));
    }
    let widening = float_width(&from) < float_width(to);
    let up = if widening {
        "arith.extf"
    } else {
        "arith.truncf"
    };
    let r = ex.fresh();
    ex.line(format!("{r} = {up} {x} : {from} to {to}"));
    Ok(r)
}

/// `extf` from a small float decodes its bits with the runtime (to f64,
/// then to the target); `truncf` to one encodes from f64.
fn minifloat_cast(ex: &mut Exporter<'_>, op: OpId, name: &str, code: i32, to: &str) -> Result<()> {
    let (decode, encode) = (
        strata_abi::runtime::MINIFLOAT_DECODE,
        strata_abi::runtime::MINIFLOAT_ENCODE,
    );
    let (decode_ty, encode_ty) = (ex.declare_runtime(&decode), ex.declare_runtime(&encode));
    let (decode, encode) = (decode.name, encode.name);
    let fmt = ex.constant(code, "i32");
    let x = ex.operand(op, 0)?;
    let from = ex.ty(ex.operand_ty(op, 0)?, op)?;
    let r = if name == a::EXTF {
        let d = ex.fresh();
        ex.line(format!(
            "{d} = func.call @{decode}({fmt}, {x}) : {decode_ty}"
        ));
        if to == "i8" {
            let e = ex.fresh();
            ex.line(format!(
                "{e} = func.call @{encode}({fmt}, {d}) : {encode_ty}"
            ));
            e
        } else {
            convert_float(ex, op, d, "f64".into(), to)?
        }
    } else {
        let wide = convert_float(ex, op, x, from, "f64")?;
        let e = ex.fresh();
        ex.line(format!(
            "{e} = func.call @{encode}({fmt}, {wide}) : {encode_ty}"
        ));
        e
    };
    let v = *ex
        .ir
        .op(op)
        .results
        .first()
        .ok_or_else(|| ex.internal(op, "has no result"))?;
    names_alias(ex, v, r);
    Ok(())
}

fn float_width(t: &str) -> u32 {
    match t {
        "f16" => 16,
        "f32" => 32,
        _ => 64,
    }
}

/// `value` as a signed integer of `width` bits (MLIR's literal range).
fn signed_in_width(value: i128, width: u32) -> i128 {
    if width >= 128 {
        return value;
    }
    let shift = 128 - width;
    (value << shift) >> shift
}

/// A float constant as its exact bits (`0x...`), so that NaN payloads,
/// infinities and every rounding survive; a small float as its `i8` bits.
fn float_literal(v: f64, k: FloatKind) -> String {
    let bits = dense::float_to_bits(v, k);
    match k {
        FloatKind::F16 | FloatKind::BF16 => format!("0x{bits:04X}"),
        FloatKind::F32 => format!("0x{bits:08X}"),
        FloatKind::F64 => format!("0x{bits:016X}"),
        _ => (bits as u8 as i8).to_string(),
    }
}
