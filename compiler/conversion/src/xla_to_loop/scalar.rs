//! Scalar semantics of the element-wise `xla` ops, emitted as `arith` ops.
//! This is where XLA's definitions of the corner cases live: integer
//! division by zero, shifts past the width, NaN handling, rounding.

use strata_diag::{Diagnostic, Result};
use strata_dialect_xla::names::*;
use strata_ir::{Context, FloatKind, OpId, Signedness, Type, TypeKind, Value};

use super::chlo;
use super::complex as cx;
use super::element::{Scalar, from_bits, is_small_float, to_bits, total_bits};
use super::special::{bessel_i1e, erf_inv, next_after, polygamma, reduce_precision, zeta};
use crate::builder::Builder;

fn pair(c: cx::C) -> Scalar {
    Scalar::Complex(c.0, c.1)
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Class {
    Bool,
    Signed,
    Unsigned,
    Float,
    Complex,
}

fn class(ctx: &Context, t: Type) -> Class {
    match ctx.types.kind(t) {
        TypeKind::Int { width: 1, .. } => Class::Bool,
        TypeKind::Int {
            sign: Signedness::Unsigned,
            ..
        } => Class::Unsigned,
        TypeKind::Int { .. } | TypeKind::Index => Class::Signed,
        TypeKind::Complex(_) => Class::Complex,
        _ => Class::Float,
    }
}

fn unsupported(b: &Builder<'_>, what: String) -> Diagnostic {
    Diagnostic::unsupported(b.loc, what)
}

fn type_name(ctx: &Context, t: Type) -> String {
    strata_ir::text::printer::type_to_string(ctx, t)
}

/// Rejects element types the lowering cannot compute with yet.
pub fn check_lowerable(b: &Builder<'_>, t: Type) -> Result<()> {
    match b.ctx.types.kind(t) {
        TypeKind::Float(k) if !k.is_lowered() && strata_ir::minifloat::format(*k).is_none() => {
            Err(unsupported(
                b,
                format!(
                    "element type {} is not supported by the lowering yet",
                    k.name()
                ),
            ))
        }
        _ => Ok(()),
    }
}

/// Rounds a value computed in f64 to the small float format `stored` and
/// back, as every op producing an f8/f6/f4 result must (XLA rounds at each
/// step, fused or not). Values of other types pass through unchanged.
pub fn round_to_stored(b: &mut Builder<'_>, s: Scalar, stored: Type) -> Scalar {
    match s {
        Scalar::Real(v) if is_small_float(b.ctx, stored) => {
            let narrow = b.cast("arith.truncf", v, stored);
            let f64t = b.ctx.types.float_ty(FloatKind::F64);
            Scalar::Real(b.cast("arith.extf", narrow, f64t))
        }
        other => other,
    }
}

/// The type dots and convolutions producing `stored` elements accumulate
/// in: f32 for the narrow floats (f16, bf16, f8/f6/f4), rounded once when
/// the result is stored, as XLA:CPU does; else `stored`'s compute type.
pub fn accumulation_type(ctx: &mut Context, stored: Type) -> Type {
    match ctx.types.kind(stored) {
        TypeKind::Float(k) if k.width() < 32 => ctx.types.float_ty(FloatKind::F32),
        _ => compute_type(ctx, stored),
    }
}

/// The type scalar code computes in for elements of type `t`.
pub fn compute_type(ctx: &mut Context, t: Type) -> Type {
    if is_small_float(ctx, t) {
        ctx.types.float_ty(FloatKind::F64)
    } else {
        t
    }
}

/// Which element types a row of [`DIRECT`] applies to.
#[derive(Copy, Clone, Debug)]
enum Classes {
    Any,
    Float,
    Signed,
    Unsigned,
    /// Signed or unsigned integers (booleans have their own rules).
    Int,
}

impl Classes {
    fn contains(self, c: Class) -> bool {
        match self {
            Classes::Any => true,
            Classes::Float => c == Class::Float,
            Classes::Signed => c == Class::Signed,
            Classes::Unsigned => c == Class::Unsigned,
            Classes::Int => matches!(c, Class::Signed | Class::Unsigned),
        }
    }
}

/// The element-wise ops that are one `arith` op on their operands, by
/// element class: (op, classes, arith op, operands). The first row that
/// matches wins; everything else (booleans, integer division and powers,
/// shifts, comparisons, conversions, the functions built from several ops)
/// is `emit`'s own code below.
const DIRECT: &[(&str, Classes, &str, usize)] = &[
    (ADD, Classes::Float, "arith.addf", 2),
    (ADD, Classes::Int, "arith.addi", 2),
    (SUBTRACT, Classes::Float, "arith.subf", 2),
    (SUBTRACT, Classes::Any, "arith.subi", 2),
    (MULTIPLY, Classes::Float, "arith.mulf", 2),
    (MULTIPLY, Classes::Int, "arith.muli", 2),
    (DIVIDE, Classes::Float, "arith.divf", 2),
    (REMAINDER, Classes::Float, "arith.remf", 2),
    (MAXIMUM, Classes::Float, "arith.maximumf", 2),
    (MAXIMUM, Classes::Signed, "arith.maxsi", 2),
    (MAXIMUM, Classes::Unsigned, "arith.maxui", 2),
    (MINIMUM, Classes::Float, "arith.minimumf", 2),
    (MINIMUM, Classes::Signed, "arith.minsi", 2),
    (MINIMUM, Classes::Unsigned, "arith.minui", 2),
    (POWER, Classes::Float, "arith.powf", 2),
    (ATAN2, Classes::Any, "arith.atan2", 2),
    (XOR, Classes::Any, "arith.xori", 2),
    (NEGATE, Classes::Float, "arith.negf", 1),
    (ABS, Classes::Float, "arith.absf", 1),
    (SQRT, Classes::Any, "arith.sqrt", 1),
    (RSQRT, Classes::Any, "arith.rsqrt", 1),
    (CBRT, Classes::Any, "arith.cbrt", 1),
    (EXP, Classes::Any, "arith.exp", 1),
    (EXPM1, Classes::Any, "arith.expm1", 1),
    (LOG, Classes::Any, "arith.log", 1),
    (LOG1P, Classes::Any, "arith.log1p", 1),
    (SINE, Classes::Any, "arith.sin", 1),
    (COSINE, Classes::Any, "arith.cos", 1),
    (TAN, Classes::Any, "arith.tan", 1),
    (TANH, Classes::Any, "arith.tanh", 1),
    (FLOOR, Classes::Any, "arith.floor", 1),
    (CEIL, Classes::Any, "arith.ceil", 1),
    (ROUND_AFZ, Classes::Any, "arith.round", 1),
    (ROUND_EVEN, Classes::Any, "arith.roundeven", 1),
    (ASIN, Classes::Any, "arith.asin", 1),
    (ACOS, Classes::Any, "arith.acos", 1),
    (ATAN, Classes::Any, "arith.atan", 1),
    (ASINH, Classes::Any, "arith.asinh", 1),
    (ACOSH, Classes::Any, "arith.acosh", 1),
    (ATANH, Classes::Any, "arith.atanh", 1),
    (POPCNT, Classes::Any, "arith.popcount", 1),
    (CLZ, Classes::Any, "arith.ctlz", 1),
];

/// Emits the element-wise op `name` on already-computed operand elements.
/// `elem` is the operands' element type, `result` the result's.
pub fn emit(
    b: &mut Builder<'_>,
    op: OpId,
    name: &str,
    args: &[Scalar],
    elem: Type,
    result: Type,
) -> Result<Scalar> {
    check_lowerable(b, elem)?;
    check_lowerable(b, result)?;
    let c = class(b.ctx, elem);
    // A same-width bitcast to or from a complex type: through the bits
    // (real part low, imaginary part high, as in memory).
    if name == BITCAST_CONVERT
        && (c == Class::Complex || b.ctx.types.is_complex(result))
        && let Some(&x) = args.first()
    {
        if total_bits(b.ctx, elem) != total_bits(b.ctx, result) {
            return Err(unsupported(
                b,
                "bitcast_convert between element types of different widths".into(),
            ));
        }
        let bits = to_bits(b, x, elem);
        return Ok(from_bits(b, bits, result));
    }
    if c == Class::Complex {
        return emit_complex(b, op, name, args, elem, result);
    }
    let a = args.first().map(|s| s.real());
    let x = a.ok_or_else(|| Diagnostic::internal(b.loc, "element-wise op without operands"))?;
    let y = args.get(1).map(|s| s.real());
    let two = |y: Option<Value>| {
        y.ok_or_else(|| Diagnostic::internal(b.loc, "binary op with one operand"))
    };
    if let Some(&(_, _, arith, arity)) = DIRECT
        .iter()
        .find(|(op, classes, _, _)| *op == name && classes.contains(c))
    {
        let v = if arity == 2 {
            b.binary(arith, x, two(y)?)
        } else {
            b.unary(arith, x)
        };
        return Ok(Scalar::Real(v));
    }
    let v = match (name, c) {
        (ADD, Class::Bool) | (MAXIMUM, Class::Bool) | (OR, _) => b.binary("arith.ori", x, two(y)?),
        (MULTIPLY, Class::Bool) | (MINIMUM, Class::Bool) | (AND, _) => {
            b.binary("arith.andi", x, two(y)?)
        }
        (DIVIDE, _) => int_div(b, x, two(y)?, c == Class::Signed, false),
        (REMAINDER, _) => int_div(b, x, two(y)?, c == Class::Signed, true),
        (POWER, _) => int_pow(b, x, two(y)?, c == Class::Signed),
        (MULHI, _) => mulhi(b, x, two(y)?, c == Class::Signed),
        (SHIFT_LEFT, _) => shift(b, x, two(y)?, ShiftKind::Left),
        (SHIFT_RIGHT_LOGICAL, _) => shift(b, x, two(y)?, ShiftKind::Logical),
        (SHIFT_RIGHT_ARITHMETIC, _) => shift(b, x, two(y)?, ShiftKind::Arithmetic),
        (NOT, _) => {
            let ones = b.const_int(-1, elem);
            let ones = if c == Class::Bool {
                b.const_int(1, elem)
            } else {
                ones
            };
            b.binary("arith.xori", x, ones)
        }
        (NEGATE, _) => {
            let z = b.zero(elem);
            b.binary("arith.subi", z, x)
        }
        (ABS, _) => {
            let z = b.zero(elem);
            let neg = b.binary("arith.subi", z, x);
            let lt = b.cmpi("slt", x, z);
            b.select(lt, neg, x)
        }
        (SIGN, Class::Float) => {
            let one = b.const_float(1.0, elem);
            let s = b.binary("arith.copysign", one, x);
            let z = b.zero(elem);
            let keep = b.cmpf("ueq", x, z); // zero (either sign) or NaN
            b.select(keep, x, s)
        }
        (SIGN, _) => {
            let z = b.zero(elem);
            let one = b.const_int(1, elem);
            let m1 = b.const_int(-1, elem);
            let gt = b.cmpi("sgt", x, z);
            let lt = b.cmpi("slt", x, z);
            let pos = b.select(gt, one, z);
            b.select(lt, m1, pos)
        }
        (LOGISTIC, _) => {
            let n = b.unary("arith.negf", x);
            let e = b.unary("arith.exp", n);
            let one = b.const_float(1.0, elem);
            let d = b.binary("arith.addf", one, e);
            b.binary("arith.divf", one, d)
        }
        (SQUARE, Class::Float) => b.binary("arith.mulf", x, x),
        (SQUARE, _) => b.binary("arith.muli", x, x),
        (ERF, _) => chlo::erf(b, x, elem),
        (ERFC, _) => chlo::erfc(b, x, elem),
        (ERF_INV, _) => erf_inv(b, x, elem),
        (BESSEL_I1E, _) => bessel_i1e(b, x, elem),
        (NEXT_AFTER, _) => next_after(b, x, two(y)?),
        (ZETA, _) => zeta(b, x, two(y)?, elem),
        (POLYGAMMA, _) => polygamma(b, x, two(y)?, elem),
        (LGAMMA, _) => chlo::lgamma(b, x, elem),
        (DIGAMMA, _) => chlo::digamma(b, x, elem),
        (REDUCE_PRECISION, _) => {
            let (e, m) =
                strata_dialect_xla::ops::elementwise::precision_bits(b.ctx, op).unwrap_or((8, 23));
            reduce_precision(b, x, e, m)
        }
        (SINH, _) => chlo::sinh(b, x, elem),
        (COSH, _) => chlo::cosh(b, x, elem),
        (IS_INF, _) => {
            let inf = b.const_float(f64::INFINITY, elem);
            let ax = b.unary("arith.absf", x);
            b.cmpf("oeq", ax, inf)
        }
        (IS_POS_INF, _) => {
            let inf = b.const_float(f64::INFINITY, elem);
            b.cmpf("oeq", x, inf)
        }
        (IS_NEG_INF, _) => {
            let inf = b.const_float(f64::NEG_INFINITY, elem);
            b.cmpf("oeq", x, inf)
        }
        (IS_FINITE, _) => {
            let inf = b.const_float(f64::INFINITY, elem);
            let ax = b.unary("arith.absf", x);
            b.cmpf("one", ax, inf)
        }
        (REAL, _) => x,
        (IMAG, _) => b.zero(elem),
        (SELECT, _) => {
            let (t, f) = (
                two(y)?,
                args.get(2)
                    .map(|s| s.real())
                    .ok_or_else(|| Diagnostic::internal(b.loc, "select arity"))?,
            );
            b.select(x, t, f)
        }
        (CLAMP, _) => {
            // clamp(min, operand, max) = min(max(operand, min), max)
            let (lo, v, hi) = (
                x,
                two(y)?,
                args.get(2)
                    .map(|s| s.real())
                    .ok_or_else(|| Diagnostic::internal(b.loc, "clamp arity"))?,
            );
            let mx = emit(
                b,
                op,
                MAXIMUM,
                &[Scalar::Real(v), Scalar::Real(lo)],
                elem,
                elem,
            )?
            .real();
            return emit(
                b,
                op,
                MINIMUM,
                &[Scalar::Real(mx), Scalar::Real(hi)],
                elem,
                elem,
            );
        }
        (COMPARE, _) => compare(b, op, x, two(y)?, elem)?,
        (CONVERT, _) => return convert(b, Scalar::Real(x), elem, result),
        (BITCAST_CONVERT, _) => {
            if b.ctx.types.bit_width(elem) != b.ctx.types.bit_width(result) {
                return Err(unsupported(
                    b,
                    "bitcast_convert between element types of different widths".into(),
                ));
            }
            b.cast("arith.bitcast", x, result)
        }
        (COMPLEX, _) => return Ok(Scalar::Complex(x, two(y)?)),
        _ => {
            return Err(unsupported(
                b,
                format!("'{name}' on element type {}", type_name(b.ctx, elem)),
            ));
        }
    };
    Ok(Scalar::Real(v))
}

/// Integer division and remainder with XLA's definitions: `x / 0` is all
/// ones, `x % 0` is `x`, and `MIN / -1` is `MIN` (`MIN % -1` is 0).
fn int_div(b: &mut Builder<'_>, x: Value, y: Value, signed: bool, rem: bool) -> Value {
    let t = b.ty(x);
    let zero = b.zero(t);
    let one = b.const_int(1, t);
    let is_zero = b.cmpi("eq", y, zero);
    let mut unsafe_div = is_zero;
    if signed {
        let width = b.ctx.types.bit_width(t);
        let min = b.const_int(-(1i128 << (width - 1)), t);
        let m1 = b.const_int(-1, t);
        let is_min = b.cmpi("eq", x, min);
        let is_m1 = b.cmpi("eq", y, m1);
        let ovf = b.binary("arith.andi", is_min, is_m1);
        unsafe_div = b.binary("arith.ori", is_zero, ovf);
    }
    let safe = b.select(unsafe_div, one, y);
    if rem {
        let r = b.binary(if signed { "arith.remsi" } else { "arith.remui" }, x, safe);
        b.select(is_zero, x, r)
    } else {
        let q = b.binary(if signed { "arith.divsi" } else { "arith.divui" }, x, safe);
        let ones = b.const_int(-1, t);
        b.select(is_zero, ones, q)
    }
}

/// Integer power by squaring over every exponent bit. Negative exponents
/// give `1 / x^-n` truncated: 1 for x = 1, ±1 for x = -1, else 0.
fn int_pow(b: &mut Builder<'_>, x: Value, n: Value, signed: bool) -> Value {
    let t = b.ty(x);
    let width = b.ctx.types.bit_width(t);
    let one = b.const_int(1, t);
    let zero = b.zero(t);
    let mut acc = one;
    let mut base = x;
    for bit in 0..width {
        let mask = b.const_int(1i128 << bit, t);
        let has = b.binary("arith.andi", n, mask);
        let set = b.cmpi("ne", has, zero);
        let mul = b.binary("arith.muli", acc, base);
        acc = b.select(set, mul, acc);
        if bit + 1 < width {
            base = b.binary("arith.muli", base, base);
        }
    }
    if !signed {
        return acc;
    }
    let neg = b.cmpi("slt", n, zero);
    let m1 = b.const_int(-1, t);
    let is_one = b.cmpi("eq", x, one);
    let is_m1 = b.cmpi("eq", x, m1);
    let low = b.binary("arith.andi", n, one);
    let odd = b.cmpi("ne", low, zero);
    let m1_result = b.select(odd, m1, one);
    let r = b.select(is_m1, m1_result, zero);
    let r = b.select(is_one, one, r);
    b.select(neg, r, acc)
}

/// High half of the double-width product.
fn mulhi(b: &mut Builder<'_>, x: Value, y: Value, signed: bool) -> Value {
    let t = b.ty(x);
    let w = b.ctx.types.bit_width(t);
    let wide = b.ctx.types.int_ty(2 * w);
    let ext = if signed { "arith.extsi" } else { "arith.extui" };
    let (xw, yw) = (b.cast(ext, x, wide), b.cast(ext, y, wide));
    let p = b.binary("arith.muli", xw, yw);
    let sh = b.const_int(w as i128, wide);
    let hi = b.binary(if signed { "arith.shrsi" } else { "arith.shrui" }, p, sh);
    let nt = b.ctx.types.int_ty(w);
    let r = b.cast("arith.trunci", hi, nt);
    if b.ty(r) == t {
        r
    } else {
        b.cast("arith.bitcast", r, t)
    }
}

enum ShiftKind {
    Left,
    Logical,
    Arithmetic,
}

/// Shifts by an amount >= the width (as unsigned) give 0, or the sign fill
/// for arithmetic right shifts.
fn shift(b: &mut Builder<'_>, x: Value, n: Value, kind: ShiftKind) -> Value {
    let t = b.ty(x);
    let width = b.ctx.types.bit_width(t);
    let w = b.const_int(width as i128, t);
    let in_range = b.cmpi("ult", n, w);
    let zero = b.zero(t);
    let safe = b.select(in_range, n, zero);
    match kind {
        ShiftKind::Left => {
            let s = b.binary("arith.shli", x, safe);
            b.select(in_range, s, zero)
        }
        ShiftKind::Logical => {
            let s = b.binary("arith.shrui", x, safe);
            b.select(in_range, s, zero)
        }
        ShiftKind::Arithmetic => {
            let max = b.const_int(width as i128 - 1, t);
            let amount = b.select(in_range, n, max);
            b.binary("arith.shrsi", x, amount)
        }
    }
}

/// `xla.compare` with its direction and comparison type.
fn compare(b: &mut Builder<'_>, op: OpId, x: Value, y: Value, elem: Type) -> Result<Value> {
    use strata_dialect_xla::attrs::{CompareType, ComparisonDirection as Dir};
    let dir = strata_dialect_xla::attrs::comparison_direction(b.ctx, op)
        .ok_or_else(|| Diagnostic::internal(b.loc, "compare without a valid direction"))?;
    let ctype = strata_dialect_xla::attrs::compare_type(b.ctx, op);
    let c = class(b.ctx, elem);
    let (x, y, c) = if ctype == Some(CompareType::TotalOrder) && c == Class::Float {
        let (a, bb) = (total_order_key(b, x, elem), total_order_key(b, y, elem));
        (a, bb, Class::Signed)
    } else {
        (x, y, c)
    };
    let unsigned = match ctype {
        Some(CompareType::Unsigned) => true,
        Some(CompareType::Signed) => false,
        _ => matches!(c, Class::Unsigned | Class::Bool),
    };
    let v = match c {
        Class::Float => {
            let p = match dir {
                Dir::Eq => "oeq",
                Dir::Ne => "une",
                Dir::Lt => "olt",
                Dir::Le => "ole",
                Dir::Gt => "ogt",
                Dir::Ge => "oge",
            };
            b.cmpf(p, x, y)
        }
        _ => {
            let p = match (dir, unsigned) {
                (Dir::Eq, _) => "eq",
                (Dir::Ne, _) => "ne",
                (Dir::Lt, false) => "slt",
                (Dir::Le, false) => "sle",
                (Dir::Gt, false) => "sgt",
                (Dir::Ge, false) => "sge",
                (Dir::Lt, true) => "ult",
                (Dir::Le, true) => "ule",
                (Dir::Gt, true) => "ugt",
                (Dir::Ge, true) => "uge",
            };
            b.cmpi(p, x, y)
        }
    };
    Ok(v)
}

/// Maps float bits to a signed integer that orders like IEEE totalOrder:
/// negative values get their magnitude bits flipped.
fn total_order_key(b: &mut Builder<'_>, x: Value, elem: Type) -> Value {
    let width = b.ctx.types.bit_width(elem);
    let it = b.ctx.types.int_ty(width);
    let bits = b.cast("arith.bitcast", x, it);
    let sh = b.const_int(width as i128 - 1, it);
    let sign = b.binary("arith.shrsi", bits, sh);
    let one = b.const_int(1, it);
    let mask = b.binary("arith.shrui", sign, one);
    b.binary("arith.xori", bits, mask)
}

/// `xla.convert` between any two lowered element types.
pub fn convert(b: &mut Builder<'_>, x: Scalar, from: Type, to: Type) -> Result<Scalar> {
    let (cf, ct) = (class(b.ctx, from), class(b.ctx, to));
    if cf == Class::Complex || ct == Class::Complex {
        let part = |ctx: &Context, t: Type| match ctx.types.kind(t) {
            TypeKind::Complex(p) => *p,
            _ => t,
        };
        let (pf, pt) = (part(b.ctx, from), part(b.ctx, to));
        let (re, im) = match x {
            Scalar::Complex(r, i) => (r, Some(i)),
            Scalar::Real(r) => (r, None),
        };
        let re2 = convert(b, Scalar::Real(re), pf, pt)?.real();
        if ct != Class::Complex {
            return Ok(Scalar::Real(re2));
        }
        let im2 = match im {
            Some(i) => convert(b, Scalar::Real(i), pf, pt)?.real(),
            None => b.zero(pt),
        };
        return Ok(Scalar::Complex(re2, im2));
    }
    let x = x.real();
    if from == to {
        return Ok(Scalar::Real(x));
    }
    let (wf, wt) = (b.ctx.types.bit_width(from), b.ctx.types.bit_width(to));
    let v = match (cf, ct) {
        (_, Class::Bool) if cf == Class::Float => {
            let z = b.zero(from);
            b.cmpf("une", x, z)
        }
        (_, Class::Bool) => {
            let z = b.zero(from);
            b.cmpi("ne", x, z)
        }
        (Class::Float, Class::Float) => match (b.ctx.types.kind(from), b.ctx.types.kind(to)) {
            (TypeKind::Float(FloatKind::F16), TypeKind::Float(FloatKind::BF16))
            | (TypeKind::Float(FloatKind::BF16), TypeKind::Float(FloatKind::F16)) => {
                let f32t = b.ctx.types.float_ty(FloatKind::F32);
                let wide = b.cast("arith.extf", x, f32t);
                b.cast("arith.truncf", wide, to)
            }
            _ if wf < wt => b.cast("arith.extf", x, to),
            _ => b.cast("arith.truncf", x, to),
        },
        (Class::Float, Class::Signed) => b.cast("arith.fptosi", x, to),
        (Class::Float, Class::Unsigned) => b.cast("arith.fptoui", x, to),
        (Class::Signed, Class::Float) => b.cast("arith.sitofp", x, to),
        (Class::Unsigned | Class::Bool, Class::Float) => b.cast("arith.uitofp", x, to),
        (_, _) if wf == wt => b.cast("arith.bitcast", x, to),
        (_, _) if wf > wt => b.cast("arith.trunci", x, to),
        (Class::Signed, _) => b.cast("arith.extsi", x, to),
        (_, _) => b.cast("arith.extui", x, to),
    };
    Ok(Scalar::Real(v))
}

/// Complex arithmetic, split into real and imaginary parts.
fn emit_complex(
    b: &mut Builder<'_>,
    op: OpId,
    name: &str,
    args: &[Scalar],
    elem: Type,
    result: Type,
) -> Result<Scalar> {
    let parts = |s: &Scalar, b: &mut Builder<'_>, pt: Type| match *s {
        Scalar::Complex(r, i) => (r, i),
        Scalar::Real(r) => (r, b.zero(pt)),
    };
    let TypeKind::Complex(pt) = b.ctx.types.kind(elem).clone() else {
        return Err(Diagnostic::internal(
            b.loc,
            "complex emission on a real type",
        ));
    };
    let (a, c) = parts(&args[0], b, pt);
    let second = args.get(1).map(|s| parts(s, b, pt));
    let need = |x: Option<(Value, Value)>| {
        x.ok_or_else(|| Diagnostic::internal(b.loc, "binary op with one operand"))
    };
    let v = match name {
        ADD => {
            let (d, e) = need(second)?;
            Scalar::Complex(b.binary("arith.addf", a, d), b.binary("arith.addf", c, e))
        }
        SUBTRACT => pair(cx::sub(b, (a, c), need(second)?)),
        MULTIPLY => {
            let (d, e) = need(second)?;
            let (ad, ce, ae, cd) = (
                b.binary("arith.mulf", a, d),
                b.binary("arith.mulf", c, e),
                b.binary("arith.mulf", a, e),
                b.binary("arith.mulf", c, d),
            );
            Scalar::Complex(
                b.binary("arith.subf", ad, ce),
                b.binary("arith.addf", ae, cd),
            )
        }
        DIVIDE => {
            // (a + ci) / (d + ei) = ((ad + ce) + (cd - ae)i) / (d² + e²)
            let (d, e) = need(second)?;
            let (dd, ee) = (b.binary("arith.mulf", d, d), b.binary("arith.mulf", e, e));
            let den = b.binary("arith.addf", dd, ee);
            let (ad, ce, cd, ae) = (
                b.binary("arith.mulf", a, d),
                b.binary("arith.mulf", c, e),
                b.binary("arith.mulf", c, d),
                b.binary("arith.mulf", a, e),
            );
            let re = b.binary("arith.addf", ad, ce);
            let im = b.binary("arith.subf", cd, ae);
            Scalar::Complex(
                b.binary("arith.divf", re, den),
                b.binary("arith.divf", im, den),
            )
        }
        NEGATE => Scalar::Complex(b.unary("arith.negf", a), b.unary("arith.negf", c)),
        SQUARE => pair(cx::mul(b, (a, c), (a, c))),
        EXP => pair(cx::exp(b, (a, c))),
        EXPM1 => pair(cx::expm1(b, (a, c))),
        LOG => pair(cx::log(b, (a, c))),
        LOG1P => pair(cx::log1p(b, (a, c))),
        SINE => pair(cx::sin(b, (a, c))),
        COSINE => pair(cx::cos(b, (a, c))),
        TAN => pair(cx::tan(b, (a, c))),
        TANH => pair(cx::tanh(b, (a, c))),
        SINH => pair(cx::sinh(b, (a, c))),
        COSH => pair(cx::cosh(b, (a, c))),
        ASIN => pair(super::complex_inverse::asin(b, (a, c))),
        ACOS => pair(super::complex_inverse::acos(b, (a, c))),
        ATAN => pair(super::complex_inverse::atan(b, (a, c))),
        ASINH => pair(super::complex_inverse::asinh(b, (a, c))),
        ACOSH => pair(super::complex_inverse::acosh(b, (a, c))),
        ATANH => pair(super::complex_inverse::atanh(b, (a, c))),
        SQRT => pair(cx::sqrt(b, (a, c))),
        RSQRT => {
            let s = cx::sqrt(b, (a, c));
            let one = cx::one(b, a);
            pair(cx::div(b, one, s))
        }
        CBRT => {
            let l = cx::log(b, (a, c));
            let third = b.const_float(1.0 / 3.0, pt);
            let l = (
                b.binary("arith.mulf", l.0, third),
                b.binary("arith.mulf", l.1, third),
            );
            pair(cx::exp(b, l))
        }
        LOGISTIC => {
            let n = (b.unary("arith.negf", a), b.unary("arith.negf", c));
            let e = cx::exp(b, n);
            let one = cx::one(b, a);
            let d = cx::add(b, one, e);
            pair(cx::div(b, one, d))
        }
        POWER => pair(cx::pow(b, (a, c), need(second)?)),
        ATAN2 => pair(cx::atan2(b, (a, c), need(second)?)),
        SIGN => pair(cx::sign(b, (a, c))),
        MAXIMUM | MINIMUM => {
            let y = need(second)?;
            let gt = cx::greater(b, (a, c), y);
            let (x_wins_re, x_wins_im) = if name == MAXIMUM {
                (b.select(gt, a, y.0), b.select(gt, c, y.1))
            } else {
                (b.select(gt, y.0, a), b.select(gt, y.1, c))
            };
            Scalar::Complex(x_wins_re, x_wins_im)
        }
        REAL => Scalar::Real(a),
        IMAG => Scalar::Real(c),
        ABS => Scalar::Real(cx::abs(b, (a, c))),
        SELECT => {
            let p = args[0].real();
            let (t, f) = (parts(&args[1], b, pt), parts(&args[2], b, pt));
            Scalar::Complex(b.select(p, t.0, f.0), b.select(p, t.1, f.1))
        }
        COMPARE => {
            let (d, e) = need(second)?;
            use strata_dialect_xla::attrs::ComparisonDirection as Dir;
            let dir = strata_dialect_xla::attrs::comparison_direction(b.ctx, op)
                .ok_or_else(|| Diagnostic::internal(b.loc, "compare without a valid direction"))?;
            let (p, join) = match dir {
                Dir::Eq => ("oeq", "arith.andi"),
                Dir::Ne => ("une", "arith.ori"),
                Dir::Lt | Dir::Le | Dir::Gt | Dir::Ge => {
                    return Err(unsupported(
                        b,
                        format!("compare {} on complex numbers", dir.name()),
                    ));
                }
            };
            let (x, y) = (b.cmpf(p, a, d), b.cmpf(p, c, e));
            Scalar::Real(b.binary(join, x, y))
        }
        CONVERT => return convert(b, args[0], elem, result),
        _ => return Err(unsupported(b, format!("'{name}' on complex numbers"))),
    };
    Ok(v)
}
