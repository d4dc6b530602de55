//! `arith` ops → upstream `arith` and `math`, with the native backend's
//! semantics: f16/bf16 math is computed in f32 and rounded back, float →
//! int conversions saturate (`llvm.intr.fpto*i.sat`), int → f16/bf16 goes
//! through f64 (one rounding), f64 → bf16 rounds to odd in f32 first, and
//! the f8/f6/f4 formats convert through the runtime's codec. bf16 ↔ f32
//! conversions are integer ops, as in the native backend: LLVM would call
//! a libgcc helper for them, and upstream's `arith-expand` (which could
//! expand them) also rewrites `maximumf`/`minimumf` in a way that loses
//! the order of signed zeros.

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

/// A libm function of one float (`expm1f` for f32, `expm1` for f64;
/// f16/bf16 through f32).
fn libm_unary(ex: &mut Exporter<'_>, op: OpId, base: &str) -> Result<()> {
    let (x, wide) = promoted(ex, op, 0)?;
    let f = if wide == "f32" {
        format!("{base}f")
    } else {
        base.to_string()
    };
    ex.declare(&f, format!("({wide}) -> {wide}"));
    let t = ex.ty(ex.result_ty(op)?, op)?;
    let w = ex.fresh();
    ex.line(format!("{w} = func.call @{f}({x}) : ({wide}) -> {wide}"));
    let r = convert_float(ex, w, wide, &t)?;
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

/// Whether values of type text `t` are computed in f32.
fn is_promoted(t: &str) -> bool {
    t == "f16" || t == "bf16"
}

/// Operand `i` as an f32 if it is f16/bf16, else as it is.
fn promoted(ex: &mut Exporter<'_>, op: OpId, i: usize) -> Result<(String, String)> {
    let x = ex.operand(op, i)?;
    let t = ex.ty(ex.operand_ty(op, i)?, op)?;
    if is_promoted(&t) {
        let w = ex.fresh();
        ex.line(format!("{w} = arith.extf {x} : {t} to f32"));
        Ok((w, "f32".into()))
    } else {
        Ok((x, t))
    }
}

/// A float op computed in f32 for f16/bf16 and rounded back.
fn float_op(ex: &mut Exporter<'_>, op: OpId, up: &str, arity: usize) -> Result<()> {
    let mut args = Vec::new();
    let mut wide = String::new();
    for i in 0..arity {
        let (x, t) = promoted(ex, op, i)?;
        args.push(x);
        wide = t;
    }
    let t = ex.ty(ex.result_ty(op)?, op)?;
    let r = ex.define_result(op)?;
    if wide == t {
        ex.line(format!("{r} = {up} {} : {t}", args.join(", ")));
    } else {
        let w = ex.fresh();
        ex.line(format!("{w} = {up} {} : {wide}", args.join(", ")));
        ex.line(format!("{r} = arith.truncf {w} : {wide} to {t}"));
    }
    Ok(())
}

fn compare(ex: &mut Exporter<'_>, op: OpId, up: &str, float: bool) -> Result<()> {
    let p = a::predicate(ex.ir, op)
        .ok_or_else(|| ex.internal(op, "has no predicate"))?
        .to_string();
    let ((x, t), (y, _)) = if float {
        (promoted(ex, op, 0)?, promoted(ex, op, 1)?)
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
            let via = if is_promoted(&to) { "f64" } else { &to };
            let w = ex.fresh();
            ex.line(format!("{w} = {up} {x} : {from} to {via}"));
            convert_float(ex, w, via.to_string(), &to)?
        }
        a::FPTOSI | a::FPTOUI => {
            let (x, from) = promoted(ex, op, 0)?;
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
        a::EXTF | a::TRUNCF => convert_float(ex, x, from, &to)?,
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

/// Converts between f16, bf16, f32 and f64, rounding to nearest even
/// once (f16 ↔ bf16 through f32, which holds both exactly).
fn convert_float(ex: &mut Exporter<'_>, x: String, from: String, to: &str) -> Result<String> {
    if from == to {
        return Ok(x);
    }
    if from == "f64" && to == "bf16" {
        let odd = f64_to_f32_odd(ex, &x);
        return convert_float(ex, odd, "f32".into(), to);
    }
    if is_promoted(&from) && is_promoted(to) {
        let w = convert_float(ex, x, from, "f32")?;
        return convert_float(ex, w, "f32".into(), to);
    }
    if from == "bf16" {
        let wide = bf16_to_f32(ex, &x);
        return convert_float(ex, wide, "f32".into(), to);
    }
    if to == "bf16" {
        let narrow = convert_float(ex, x, from, "f32")?;
        return Ok(f32_to_bf16(ex, &narrow));
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

/// bf16 → f32: the bits, shifted into the high half.
fn bf16_to_f32(ex: &mut Exporter<'_>, x: &str) -> String {
    let bits = ex.fresh();
    ex.line(format!("{bits} = arith.bitcast {x} : bf16 to i16"));
    let wide = ex.fresh();
    ex.line(format!("{wide} = arith.extui {bits} : i16 to i32"));
    let sixteen = ex.constant(16, "i32");
    let shifted = ex.fresh();
    ex.line(format!("{shifted} = arith.shli {wide}, {sixteen} : i32"));
    let r = ex.fresh();
    ex.line(format!("{r} = arith.bitcast {shifted} : i32 to f32"));
    r
}

/// f32 → bf16, rounding to nearest even; NaN stays a (quiet) NaN.
fn f32_to_bf16(ex: &mut Exporter<'_>, x: &str) -> String {
    let bits = ex.fresh();
    ex.line(format!("{bits} = arith.bitcast {x} : f32 to i32"));
    let sixteen = ex.constant(16, "i32");
    let high = ex.fresh();
    ex.line(format!("{high} = arith.shrui {bits}, {sixteen} : i32"));
    let one = ex.constant(1, "i32");
    let lsb = ex.fresh();
    ex.line(format!("{lsb} = arith.andi {high}, {one} : i32"));
    let half = ex.constant(0x7fff, "i32");
    let bias = ex.fresh();
    ex.line(format!("{bias} = arith.addi {lsb}, {half} : i32"));
    let sum = ex.fresh();
    ex.line(format!("{sum} = arith.addi {bits}, {bias} : i32"));
    let rounded = ex.fresh();
    ex.line(format!("{rounded} = arith.shrui {sum}, {sixteen} : i32"));
    let quiet_bit = ex.constant(0x40, "i32");
    let quiet = ex.fresh();
    ex.line(format!("{quiet} = arith.ori {high}, {quiet_bit} : i32"));
    let nan = ex.fresh();
    ex.line(format!("{nan} = arith.cmpf uno, {x}, {x} : f32"));
    let chosen = ex.fresh();
    ex.line(format!(
        "{chosen} = arith.select {nan}, {quiet}, {rounded} : i32"
    ));
    let narrow = ex.fresh();
    ex.line(format!("{narrow} = arith.trunci {chosen} : i32 to i16"));
    let r = ex.fresh();
    ex.line(format!("{r} = arith.bitcast {narrow} : i16 to bf16"));
    r
}

/// f64 → f32 rounding to odd (truncate, then set the last bit if
/// inexact), so that the following f32 → bf16 rounding is the only one.
fn f64_to_f32_odd(ex: &mut Exporter<'_>, x: &str) -> String {
    let r = ex.fresh();
    ex.line(format!("{r} = arith.truncf {x} : f64 to f32"));
    let back = ex.fresh();
    ex.line(format!("{back} = arith.extf {r} : f32 to f64"));
    let inexact = ex.fresh();
    ex.line(format!("{inexact} = arith.cmpf one, {back}, {x} : f64"));
    let (ab, ax) = (ex.fresh(), ex.fresh());
    ex.line(format!("{ab} = math.absf {back} : f64"));
    ex.line(format!("{ax} = math.absf {x} : f64"));
    let over = ex.fresh();
    ex.line(format!("{over} = arith.cmpf ogt, {ab}, {ax} : f64"));
    let bits = ex.fresh();
    ex.line(format!("{bits} = arith.bitcast {r} : f32 to i32"));
    let one = ex.constant(1, "i32");
    let down = ex.fresh();
    ex.line(format!("{down} = arith.subi {bits}, {one} : i32"));
    let toward_zero = ex.fresh();
    ex.line(format!(
        "{toward_zero} = arith.select {over}, {down}, {bits} : i32"
    ));
    let odd = ex.fresh();
    ex.line(format!("{odd} = arith.ori {toward_zero}, {one} : i32"));
    let chosen = ex.fresh();
    ex.line(format!(
        "{chosen} = arith.select {inexact}, {odd}, {bits} : i32"
    ));
    let f = ex.fresh();
    ex.line(format!("{f} = arith.bitcast {chosen} : i32 to f32"));
    f
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
            convert_float(ex, d, "f64".into(), to)?
        }
    } else {
        let wide = convert_float(ex, x, from, "f64")?;
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
        "f16" | "bf16" => 16,
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
