//! Scalar semantics of the element-wise `xla` ops, emitted as `arith` ops.
//! This is where XLA's definitions of the corner cases live: integer
//! division by zero, shifts past the width, NaN handling, rounding.

use strata_diag::{Diagnostic, Result};
use strata_dialect_xla::names::*;
use strata_ir::{Context, FloatKind, OpId, Signedness, Type, TypeKind, Value};

use super::chlo;
use super::complex as cx;
use crate::builder::Builder;

fn pair(c: cx::C) -> Scalar {
    Scalar::Complex(c.0, c.1)
}

/// One element: a real scalar, or a complex number as (re, im).
#[derive(Copy, Clone, Debug)]
pub enum Scalar {
    Real(Value),
    Complex(Value, Value),
}

impl Scalar {
    pub fn real(self) -> Value {
        match self {
            Scalar::Real(v) | Scalar::Complex(v, _) => v,
        }
    }

    /// The zero of a buffer's element type, as `store_scalar` takes it.
    pub fn zero(b: &mut Builder<'_>, elem: Type) -> Scalar {
        match b.ctx.kind(elem).clone() {
            TypeKind::Complex(p) => Scalar::Complex(b.zero(p), b.zero(p)),
            _ if is_small_float(b.ctx, elem) => {
                let f64t = b.ctx.float_ty(FloatKind::F64);
                Scalar::Real(b.zero(f64t))
            }
            _ => Scalar::Real(b.zero(elem)),
        }
    }
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
    match ctx.kind(t) {
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
    match b.ctx.kind(t) {
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

/// Whether `t` is one of the f8/f6/f4 formats, which are stored as bytes
/// and computed on in f64.
pub fn is_small_float(ctx: &Context, t: Type) -> bool {
    matches!(ctx.kind(t), TypeKind::Float(k) if strata_ir::minifloat::format(*k).is_some())
}

/// Rounds a value computed in f64 to the small float format `stored` and
/// back, as every op producing an f8/f6/f4 result must (XLA rounds at each
/// step, fused or not). Values of other types pass through unchanged.
pub fn round_to_stored(b: &mut Builder<'_>, s: Scalar, stored: Type) -> Scalar {
    match s {
        Scalar::Real(v) if is_small_float(b.ctx, stored) => {
            let narrow = b.cast("arith.truncf", v, stored);
            let f64t = b.ctx.float_ty(FloatKind::F64);
            Scalar::Real(b.cast("arith.extf", narrow, f64t))
        }
        other => other,
    }
}

/// The type dots and convolutions producing `stored` elements accumulate
/// in: f32 for the narrow floats (f16, bf16, f8/f6/f4), rounded once when
/// the result is stored, as XLA:CPU does; else `stored`'s compute type.
pub fn accumulation_type(ctx: &mut Context, stored: Type) -> Type {
    match ctx.kind(stored) {
        TypeKind::Float(k) if k.width() < 32 => ctx.float_ty(FloatKind::F32),
        _ => compute_type(ctx, stored),
    }
}

/// The type scalar code computes in for elements of type `t`.
pub fn compute_type(ctx: &mut Context, t: Type) -> Type {
    if is_small_float(ctx, t) {
        ctx.float_ty(FloatKind::F64)
    } else {
        t
    }
}

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
        && (c == Class::Complex || b.ctx.is_complex(result))
        && let Some(&x) = args.first()
    {
        if super::elemental::total_bits(b.ctx, elem) != super::elemental::total_bits(b.ctx, result)
        {
            return Err(unsupported(
                b,
                "bitcast_convert between element types of different widths".into(),
            ));
        }
        let bits = super::elemental::to_bits(b, x, elem);
        return Ok(super::elemental::from_bits(b, bits, result));
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
    let v = match (name, c) {
        (ADD, Class::Bool) | (MAXIMUM, Class::Bool) | (OR, _) => b.binary("arith.ori", x, two(y)?),
        (MULTIPLY, Class::Bool) | (MINIMUM, Class::Bool) | (AND, _) => {
            b.binary("arith.andi", x, two(y)?)
        }
        (XOR, _) => b.binary("arith.xori", x, two(y)?),
        (ADD, Class::Float) => b.binary("arith.addf", x, two(y)?),
        (ADD, _) => b.binary("arith.addi", x, two(y)?),
        (SUBTRACT, Class::Float) => b.binary("arith.subf", x, two(y)?),
        (SUBTRACT, _) => b.binary("arith.subi", x, two(y)?),
        (MULTIPLY, Class::Float) => b.binary("arith.mulf", x, two(y)?),
        (MULTIPLY, _) => b.binary("arith.muli", x, two(y)?),
        (DIVIDE, Class::Float) => b.binary("arith.divf", x, two(y)?),
        (DIVIDE, _) => int_div(b, x, two(y)?, c == Class::Signed, false),
        (REMAINDER, Class::Float) => b.binary("arith.remf", x, two(y)?),
        (REMAINDER, _) => int_div(b, x, two(y)?, c == Class::Signed, true),
        (MAXIMUM, Class::Float) => b.binary("arith.maximumf", x, two(y)?),
        (MAXIMUM, Class::Signed) => b.binary("arith.maxsi", x, two(y)?),
        (MAXIMUM, _) => b.binary("arith.maxui", x, two(y)?),
        (MINIMUM, Class::Float) => b.binary("arith.minimumf", x, two(y)?),
        (MINIMUM, Class::Signed) => b.binary("arith.minsi", x, two(y)?),
        (MINIMUM, _) => b.binary("arith.minui", x, two(y)?),
        (POWER, Class::Float) => b.binary("arith.powf", x, two(y)?),
        (POWER, _) => int_pow(b, x, two(y)?, c == Class::Signed),
        (ATAN2, _) => b.binary("arith.atan2", x, two(y)?),
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
        (NEGATE, Class::Float) => b.unary("arith.negf", x),
        (NEGATE, _) => {
            let z = b.zero(elem);
            b.binary("arith.subi", z, x)
        }
        (ABS, Class::Float) => b.unary("arith.absf", x),
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
        (SQRT, _) => b.unary("arith.sqrt", x),
        (RSQRT, _) => b.unary("arith.rsqrt", x),
        (CBRT, _) => b.unary("arith.cbrt", x),
        (EXP, _) => b.unary("arith.exp", x),
        (EXPM1, _) => b.unary("arith.expm1", x),
        (LOG, _) => b.unary("arith.log", x),
        (LOG1P, _) => b.unary("arith.log1p", x),
        (SINE, _) => b.unary("arith.sin", x),
        (COSINE, _) => b.unary("arith.cos", x),
        (TAN, _) => b.unary("arith.tan", x),
        (TANH, _) => b.unary("arith.tanh", x),
        (FLOOR, _) => b.unary("arith.floor", x),
        (CEIL, _) => b.unary("arith.ceil", x),
        (ROUND_AFZ, _) => b.unary("arith.round", x),
        (ROUND_EVEN, _) => b.unary("arith.roundeven", x),
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
            let e = b.ctx.int_attr(op, "exponent_bits").unwrap_or(8) as u32;
            let m = b.ctx.int_attr(op, "mantissa_bits").unwrap_or(23) as u32;
            reduce_precision(b, x, e, m)
        }
        (ASIN, _) => b.unary("arith.asin", x),
        (ACOS, _) => b.unary("arith.acos", x),
        (ATAN, _) => b.unary("arith.atan", x),
        (SINH, _) => chlo::sinh(b, x, elem),
        (COSH, _) => chlo::cosh(b, x, elem),
        (ASINH, _) => b.unary("arith.asinh", x),
        (ACOSH, _) => b.unary("arith.acosh", x),
        (ATANH, _) => b.unary("arith.atanh", x),
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
        (POPCNT, _) => b.unary("arith.popcount", x),
        (CLZ, _) => b.unary("arith.ctlz", x),
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
            if b.ctx.bit_width(elem) != b.ctx.bit_width(result) {
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
        let width = b.ctx.bit_width(t);
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
    let width = b.ctx.bit_width(t);
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
    let w = b.ctx.bit_width(t);
    let wide = b.ctx.int_ty(2 * w);
    let ext = if signed { "arith.extsi" } else { "arith.extui" };
    let (xw, yw) = (b.cast(ext, x, wide), b.cast(ext, y, wide));
    let p = b.binary("arith.muli", xw, yw);
    let sh = b.const_int(w as i128, wide);
    let hi = b.binary(if signed { "arith.shrsi" } else { "arith.shrui" }, p, sh);
    let nt = b.ctx.int_ty(w);
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
    let width = b.ctx.bit_width(t);
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
    let width = b.ctx.bit_width(elem);
    let it = b.ctx.int_ty(width);
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
        let part = |ctx: &Context, t: Type| match ctx.kind(t) {
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
    let (wf, wt) = (b.ctx.bit_width(from), b.ctx.bit_width(to));
    let v = match (cf, ct) {
        (_, Class::Bool) if cf == Class::Float => {
            let z = b.zero(from);
            b.cmpf("une", x, z)
        }
        (_, Class::Bool) => {
            let z = b.zero(from);
            b.cmpi("ne", x, z)
        }
        (Class::Float, Class::Float) => match (b.ctx.kind(from), b.ctx.kind(to)) {
            (TypeKind::Float(FloatKind::F16), TypeKind::Float(FloatKind::BF16))
            | (TypeKind::Float(FloatKind::BF16), TypeKind::Float(FloatKind::F16)) => {
                let f32t = b.ctx.float_ty(FloatKind::F32);
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
    let TypeKind::Complex(pt) = b.ctx.kind(elem).clone() else {
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

/// Giles' single-precision approximation of erf⁻¹ ("Approximating the
/// erfinv function", GPU Computing Gems, 2011), the one XLA uses for f32:
/// a polynomial in w = -log((1 - x)(1 + x)), one for w < 5 and one in
/// sqrt(w) - 3 beyond; ±1 give ±inf, |x| > 1 NaN.
const ERF_INV_CENTRAL: [f64; 9] = [
    2.81022636e-08,
    3.43273939e-07,
    -3.5233877e-06,
    -4.39150654e-06,
    0.00021858087,
    -0.00125372503,
    -0.00417768164,
    0.246640727,
    1.50140941,
];
const ERF_INV_TAIL: [f64; 9] = [
    -0.000200214257,
    0.000100950558,
    0.00134934322,
    -0.00367342844,
    0.00573950773,
    -0.0076224613,
    0.00943887047,
    1.00167406,
    2.83297682,
];

fn horner(b: &mut Builder<'_>, coeffs: &[f64], w: Value, ty: Type) -> Value {
    let mut p = b.const_float(coeffs[0], ty);
    for &c in &coeffs[1..] {
        let k = b.const_float(c, ty);
        let pw = b.binary("arith.mulf", p, w);
        p = b.binary("arith.addf", k, pw);
    }
    p
}

/// Chebyshev coefficients (Cephes, Moshier) of exp(-x) I1(x) / x on
/// [0, 8], in the variable x/2 - 2; highest order first.
const I1E_SMALL: [f64; 29] = [
    2.77791411276104639959E-18,
    -2.11142121435816608115E-17,
    1.55363195773620046921E-16,
    -1.10559694773538630805E-15,
    7.60068429473540693410E-15,
    -5.04218550472791168711E-14,
    3.22379336594557470981E-13,
    -1.98397439776494371520E-12,
    1.17361862988909016308E-11,
    -6.66348972350202774223E-11,
    3.62559028155211703701E-10,
    -1.88724975172282928790E-9,
    9.38153738649577178388E-9,
    -4.44505912879632808065E-8,
    2.00329475355213526229E-7,
    -8.56872026469545474066E-7,
    3.47025130813767847674E-6,
    -1.32731636560394358279E-5,
    4.78156510755005422638E-5,
    -1.61760815825896745588E-4,
    5.12285956168575772895E-4,
    -1.51357245063125314899E-3,
    4.15642294431288815669E-3,
    -1.05640848946261981558E-2,
    2.47264490306265168283E-2,
    -5.29459812080949914269E-2,
    1.02643658689847095384E-1,
    -1.76416518357834055153E-1,
    2.52587186443633654823E-1,
];

/// Chebyshev coefficients (Cephes) of exp(-x) sqrt(x) I1(x) on [8, inf),
/// in the variable 32/x - 2; highest order first.
const I1E_LARGE: [f64; 25] = [
    7.51729631084210481353E-18,
    4.41434832307170791151E-18,
    -4.65030536848935832153E-17,
    -3.20952592199342395980E-17,
    2.96262899764595013876E-16,
    3.30820231092092828324E-16,
    -1.88035477551078244854E-15,
    -3.81440307243700780478E-15,
    1.04202769841288027642E-14,
    4.27244001671195135429E-14,
    -2.10154184277266431302E-14,
    -4.08355111109219731823E-13,
    -7.19855177624590851209E-13,
    2.03562854414708950722E-12,
    1.41258074366137813316E-11,
    3.25260358301548823856E-11,
    -1.89749581235054123450E-11,
    -5.58974346219658380687E-10,
    -3.83538038596423702205E-9,
    -2.63146884688951950684E-8,
    -2.51223623787020892529E-7,
    -3.88256480887769039346E-6,
    -1.10588938762623716291E-4,
    -9.76109749136146840777E-3,
    7.78576235018280120474E-1,
];

/// The Chebyshev series sum' c_k T_k(w / 2) (Clenshaw's recurrence; the
/// constant term halved), coefficients highest order first.
fn chebyshev(b: &mut Builder<'_>, coeffs: &[f64], w: Value, ty: Type) -> Value {
    let mut b0 = b.const_float(coeffs[0], ty);
    let mut b1 = b.const_float(0.0, ty);
    let mut b2 = b1;
    for &c in &coeffs[1..] {
        b2 = b1;
        b1 = b0;
        let wb = b.binary("arith.mulf", w, b1);
        let d = b.binary("arith.subf", wb, b2);
        let k = b.const_float(c, ty);
        b0 = b.binary("arith.addf", d, k);
    }
    let diff = b.binary("arith.subf", b0, b2);
    let half = b.const_float(0.5, ty);
    b.binary("arith.mulf", diff, half)
}

/// exp(-|x|) I1(x) in `ty`, computed in f64 (rounded once for f32): the
/// series above for |x| <= 8, the asymptotic one beyond; odd in x.
fn bessel_i1e(b: &mut Builder<'_>, x: Value, ty: Type) -> Value {
    let f64t = b.ctx.float_ty(FloatKind::F64);
    let wide = b.ctx.bit_width(ty) < 64;
    let xd = if wide {
        b.cast("arith.extf", x, f64t)
    } else {
        x
    };
    let z = b.unary("arith.absf", xd);
    let half = b.const_float(0.5, f64t);
    let two = b.const_float(2.0, f64t);
    let zh = b.binary("arith.mulf", z, half);
    let w_small = b.binary("arith.subf", zh, two);
    let s = chebyshev(b, &I1E_SMALL, w_small, f64t);
    let small = b.binary("arith.mulf", s, z);
    let thirty_two = b.const_float(32.0, f64t);
    let q = b.binary("arith.divf", thirty_two, z);
    let w_large = b.binary("arith.subf", q, two);
    let l = chebyshev(b, &I1E_LARGE, w_large, f64t);
    let root = b.unary("arith.sqrt", z);
    let large = b.binary("arith.divf", l, root);
    let eight = b.const_float(8.0, f64t);
    let is_small = b.cmpf("ole", z, eight);
    let r = b.select(is_small, small, large);
    let r = b.binary("arith.copysign", r, xd);
    if wide {
        b.cast("arith.truncf", r, ty)
    } else {
        r
    }
}

/// erf⁻¹(x) in `ty` (f32 or f64). f64 refines the f32 approximation with
/// two Newton steps on erf (libm's), which reach double precision.
fn erf_inv(b: &mut Builder<'_>, x: Value, ty: Type) -> Value {
    let one = b.const_float(1.0, ty);
    let one_minus = b.binary("arith.subf", one, x);
    let one_plus = b.binary("arith.addf", one, x);
    let prod = b.binary("arith.mulf", one_minus, one_plus);
    let log = b.unary("arith.log", prod);
    let w = b.unary("arith.negf", log);
    let five = b.const_float(5.0, ty);
    let central = b.cmpf("olt", w, five);
    let w_c = {
        let k = b.const_float(2.5, ty);
        b.binary("arith.subf", w, k)
    };
    let w_t = {
        let r = b.unary("arith.sqrt", w);
        let k = b.const_float(3.0, ty);
        b.binary("arith.subf", r, k)
    };
    let p_c = horner(b, &ERF_INV_CENTRAL, w_c, ty);
    let p_t = horner(b, &ERF_INV_TAIL, w_t, ty);
    let p = b.select(central, p_c, p_t);
    let mut y = b.binary("arith.mulf", p, x);
    if matches!(b.ctx.kind(ty), TypeKind::Float(strata_ir::FloatKind::F64)) {
        // y -= (erf(y) - x) / (2/sqrt(pi) exp(-y^2)), twice. The residual
        // is sign(x) ((1 - |x|) - erfc(|y|)), which keeps its precision near
        // ±1, where erf(y) - x would cancel.
        let ax = b.unary("arith.absf", x);
        let one_minus_ax = b.binary("arith.subf", one, ax);
        let sign = b.binary("arith.copysign", one, x);
        for _ in 0..2 {
            let ay = b.unary("arith.absf", y);
            let c = b.unary("arith.erfc", ay);
            let r = b.binary("arith.subf", one_minus_ax, c);
            let r = b.binary("arith.mulf", r, sign);
            let yy = b.binary("arith.mulf", y, y);
            let ey = b.unary("arith.exp", yy);
            let half_sqrt_pi = b.const_float(std::f64::consts::PI.sqrt() / 2.0, ty);
            let step = b.binary("arith.mulf", r, ey);
            let step = b.binary("arith.mulf", step, half_sqrt_pi);
            y = b.binary("arith.subf", y, step);
        }
    }
    // ±1 give ±inf (the polynomials would give inf * 0 there).
    let ax = b.unary("arith.absf", x);
    let at_one = b.cmpf("oeq", ax, one);
    let inf = b.const_float(f64::INFINITY, ty);
    let signed_inf = b.binary("arith.mulf", x, inf);
    b.select(at_one, signed_inf, y)
}

/// `reduce_precision` as XLA does it: round the mantissa to `m` bits (to
/// nearest, ties to even), then send exponents beyond `e` bits' range to
/// ±inf (overflow) or ±0 (underflow, no subnormals). NaN stays NaN unless
/// no mantissa bit is left (then it becomes inf, as XLA's).
fn reduce_precision(b: &mut Builder<'_>, x: Value, e: u32, m: u32) -> Value {
    let t = b.ty(x);
    // The bit layout of the type the value is stored in: f16 and bf16 are
    // rounded on their own 16 bits (their bits do not fit an i32 bitcast).
    let (w, src_e, src_m) = match b.ctx.kind(t) {
        TypeKind::Float(strata_ir::FloatKind::F64) => (64u32, 11u32, 52u32),
        TypeKind::Float(strata_ir::FloatKind::F16) => (16, 5, 10),
        TypeKind::Float(strata_ir::FloatKind::BF16) => (16, 8, 7),
        _ => (32, 8, 23),
    };
    let it = b.ctx.int_ty(w);
    let int = |b: &mut Builder<'_>, v: u64| b.const_int(v as i64 as i128, it);
    let mut bits = b.cast("arith.bitcast", x, it);
    if m < src_m {
        let shift = src_m - m;
        let last_bit_mask = 1u64 << shift;
        let bias = (last_bit_mask >> 1) - 1;
        let mask_c = int(b, last_bit_mask);
        let last = b.binary("arith.andi", bits, mask_c);
        let sh = int(b, shift as u64);
        let last = b.binary("arith.shrui", last, sh);
        let bias_c = int(b, bias);
        let rounding = b.binary("arith.addi", last, bias_c);
        let rounded = b.binary("arith.addi", bits, rounding);
        let truncation = int(b, !(last_bit_mask - 1));
        bits = b.binary("arith.andi", rounded, truncation);
    }
    if e < src_e {
        let sign_mask = 1u64 << (w - 1);
        let exp_mask = ((1u64 << src_e) - 1) << src_m;
        let bias = (1u64 << (src_e - 1)) - 1;
        let reduced_bias = (1u64 << (e - 1)) - 1;
        let max_exp = (bias + reduced_bias) << src_m;
        let min_exp = (bias - reduced_bias) << src_m;
        let exp_c = int(b, exp_mask);
        let exponent = b.binary("arith.andi", bits, exp_c);
        let max_c = int(b, max_exp);
        let min_c = int(b, min_exp);
        let overflows = b.cmpi("ugt", exponent, max_c);
        let underflows = b.cmpi("ule", exponent, min_c);
        let sign_c = int(b, sign_mask);
        let signed_zero = b.binary("arith.andi", bits, sign_c);
        let signed_inf = b.binary("arith.ori", signed_zero, exp_c);
        let kept = b.select(underflows, signed_zero, bits);
        bits = b.select(overflows, signed_inf, kept);
    }
    let r = b.cast("arith.bitcast", bits, t);
    let nan = b.cmpf("uno", x, x);
    if m > 0 {
        return b.select(nan, x, r);
    }
    // No mantissa bit left to mark a NaN: it becomes inf of its sign.
    let inf = b.const_float(f64::INFINITY, t);
    let signed_inf = b.binary("arith.copysign", inf, x);
    b.select(nan, signed_inf, r)
}

/// nextafter(x, y): the float after x toward y (C's nextafter): NaN if
/// either is NaN, y if x == y, the smallest subnormal of y's sign from
/// zero, else x's bits one step up or down in magnitude.
fn next_after(b: &mut Builder<'_>, x: Value, y: Value) -> Value {
    let t = b.ty(x);
    let w = b.ctx.bit_width(t);
    let it = b.ctx.int_ty(w);
    let ix = b.cast("arith.bitcast", x, it);
    let zero = b.const_float(0.0, t);
    let one = b.const_int(1, it);
    let x_pos = b.cmpf("ogt", x, zero);
    let toward_up = b.cmpf("olt", x, y);
    // Magnitude grows when moving away from zero.
    let grows = b.cmpi("eq", x_pos, toward_up);
    let up = b.binary("arith.addi", ix, one);
    let down = b.binary("arith.subi", ix, one);
    let stepped = b.select(grows, up, down);
    let stepped = b.cast("arith.bitcast", stepped, t);
    // From zero: the smallest subnormal with y's sign.
    let tiny = b.cast("arith.bitcast", one, t);
    let from_zero = b.binary("arith.copysign", tiny, y);
    let x_zero = b.cmpf("oeq", x, zero);
    let r = b.select(x_zero, from_zero, stepped);
    let equal = b.cmpf("oeq", x, y);
    let r = b.select(equal, y, r);
    let unordered = b.cmpf("uno", x, y);
    let nan = b.binary("arith.addf", x, y);
    b.select(unordered, nan, r)
}

/// (2k)! / B_2k for k = 1..12: the Euler-Maclaurin correction terms of the
/// Hurwitz zeta function (Cephes' table, which XLA's zeta also uses).
const ZETA_EM: [f64; 12] = [
    12.0,
    -720.0,
    30240.0,
    -1209600.0,
    47900160.0,
    -1.8924375803183791606e9,
    7.47242496e10,
    -2.950130727918164224e12,
    1.1646782814350067249e14,
    -4.5979787224074726105e15,
    1.8152105401943546773e17,
    -7.1661652561756670113e18,
];
/// Direct terms summed before the Euler-Maclaurin tail.
const ZETA_TERMS: i64 = 10;

/// The Hurwitz zeta function ζ(x, q) = Σ_k (q + k)^-x: the terms up to
/// q + 10, then the integral and twelve Euler-Maclaurin corrections there.
/// +inf at x = 1 and at the poles q = 0, -1, ...; NaN for x < 1, and for
/// q < 0 with x not an integer.
fn zeta(b: &mut Builder<'_>, x: Value, q: Value, ty: Type) -> Value {
    let neg_x = b.unary("arith.negf", x);
    let mut s = b.const_float(0.0, ty);
    // Σ_{k=0..N} (q + k)^-x; the tail below starts at w = q + N, whose
    // term is in the sum (and is half taken back out).
    for k in 0..=ZETA_TERMS {
        let kk = b.const_float(k as f64, ty);
        let a = b.binary("arith.addf", q, kk);
        let term = b.binary("arith.powf", a, neg_x);
        s = b.binary("arith.addf", s, term);
    }
    let n = b.const_float(ZETA_TERMS as f64, ty);
    let w = b.binary("arith.addf", q, n);
    let mut bb = b.binary("arith.powf", w, neg_x);
    // + w^(1-x) / (x - 1) - w^-x / 2
    let one = b.const_float(1.0, ty);
    let xm1 = b.binary("arith.subf", x, one);
    let bw = b.binary("arith.mulf", bb, w);
    let integral = b.binary("arith.divf", bw, xm1);
    s = b.binary("arith.addf", s, integral);
    let half = b.const_float(0.5, ty);
    let hb = b.binary("arith.mulf", half, bb);
    s = b.binary("arith.subf", s, hb);
    let mut a = b.const_float(1.0, ty);
    let mut k = 0.0;
    for &c in &ZETA_EM {
        let kx = b.const_float(k, ty);
        let xk = b.binary("arith.addf", x, kx);
        a = b.binary("arith.mulf", a, xk);
        bb = b.binary("arith.divf", bb, w);
        let ab = b.binary("arith.mulf", a, bb);
        let cc = b.const_float(c, ty);
        let t = b.binary("arith.divf", ab, cc);
        s = b.binary("arith.addf", s, t);
        let kx1 = b.const_float(k + 1.0, ty);
        let xk1 = b.binary("arith.addf", x, kx1);
        a = b.binary("arith.mulf", a, xk1);
        bb = b.binary("arith.divf", bb, w);
        k += 2.0;
    }
    let inf = b.const_float(f64::INFINITY, ty);
    let nan = b.const_float(f64::NAN, ty);
    let zero = b.const_float(0.0, ty);
    let x_fl = b.unary("arith.floor", x);
    let x_int = b.cmpf("oeq", x_fl, x);
    let q_fl = b.unary("arith.floor", q);
    let q_int = b.cmpf("oeq", q_fl, q);
    let q_nonpos = b.cmpf("ole", q, zero);
    let q_pole = b.binary("arith.andi", q_nonpos, q_int);
    let t = b.ctx.int_ty(1);
    let yes = b.const_int(1, t);
    let x_frac = b.binary("arith.xori", x_int, yes);
    let q_neg = b.cmpf("olt", q, zero);
    let domain = b.binary("arith.andi", q_neg, x_frac);
    let r = b.select(domain, nan, s);
    let r = b.select(q_pole, inf, r);
    let below = b.cmpf("olt", x, one);
    let r = b.select(below, nan, r);
    let at_one = b.cmpf("oeq", x, one);
    b.select(at_one, inf, r)
}

/// polygamma(n, x) = (-1)^(n+1) n! ζ(n + 1, x) for integers n >= 1,
/// digamma(x) for n = 0, NaN for other n.
fn polygamma(b: &mut Builder<'_>, n: Value, x: Value, ty: Type) -> Value {
    let one = b.const_float(1.0, ty);
    let np1 = b.binary("arith.addf", n, one);
    let z = zeta(b, np1, x, ty);
    let lg = chlo::lgamma_in(b, np1, ty);
    let fact = b.unary("arith.exp", lg);
    // (-1)^(n+1): +1 for odd n, -1 for even n.
    let two = b.const_float(2.0, ty);
    let rem = b.binary("arith.remf", n, two);
    let zero = b.const_float(0.0, ty);
    let even = b.cmpf("oeq", rem, zero);
    let minus = b.const_float(-1.0, ty);
    let sign = b.select(even, minus, one);
    let r = b.binary("arith.mulf", fact, z);
    let r = b.binary("arith.mulf", r, sign);
    let d = chlo::digamma_in(b, x, ty);
    let n_zero = b.cmpf("oeq", n, zero);
    let r = b.select(n_zero, d, r);
    let fl = b.unary("arith.floor", n);
    let n_int = b.cmpf("oeq", fl, n);
    let n_nonneg = b.cmpf("oge", n, zero);
    let valid = b.binary("arith.andi", n_int, n_nonneg);
    let nan = b.const_float(f64::NAN, ty);
    b.select(valid, r, nan)
}
