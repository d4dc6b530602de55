//! Element-wise ops: `xla.add`, `xla.abs`, ..., `xla.compare`, `xla.select`,
//! `xla.clamp`, `xla.convert`, `xla.bitcast_convert`, `xla.is_finite`,
//! `xla.real`, `xla.imag`, `xla.complex`. Operands have one shape (scalar
//! broadcasting comes with the broadcast legalization).

use strata_diag::Result;
use strata_ir::{Context, OpId, Type, TypeKind};

use crate::broadcast::{self, Broadcast};
use crate::parse;
use crate::util::*;
use names::*;
use strata_ir::{OpDef, Registry, Traits};

/// The op names of this family (`names.rs` gathers every family's).
pub mod names {
    pub const ABS: &str = "xla.abs";
    pub const NEGATE: &str = "xla.negate";
    pub const SQRT: &str = "xla.sqrt";
    pub const RSQRT: &str = "xla.rsqrt";
    pub const CBRT: &str = "xla.cbrt";
    pub const EXP: &str = "xla.exponential";
    pub const EXPM1: &str = "xla.exponential_minus_one";
    pub const LOG: &str = "xla.log";
    pub const LOG1P: &str = "xla.log_plus_one";
    pub const LOGISTIC: &str = "xla.logistic";
    pub const SINE: &str = "xla.sine";
    pub const COSINE: &str = "xla.cosine";
    pub const TAN: &str = "xla.tan";
    pub const TANH: &str = "xla.tanh";
    pub const FLOOR: &str = "xla.floor";
    pub const CEIL: &str = "xla.ceil";
    pub const ROUND_AFZ: &str = "xla.round_nearest_afz";
    pub const ROUND_EVEN: &str = "xla.round_nearest_even";
    pub const SIGN: &str = "xla.sign";
    pub const NOT: &str = "xla.not";
    pub const POPCNT: &str = "xla.popcnt";
    pub const CLZ: &str = "xla.count_leading_zeros";
    // CHLO's element-wise ops (client-level in XLA), parsed from `chlo.*`.
    pub const SQUARE: &str = "xla.square";
    pub const ERF: &str = "xla.erf";
    pub const ERFC: &str = "xla.erfc";
    pub const ERF_INV: &str = "xla.erf_inv";
    /// exp(-|x|) I1(x), CHLO's `bessel_i1e` (`jax.scipy.special.i1e`).
    pub const BESSEL_I1E: &str = "xla.bessel_i1e";
    pub const LGAMMA: &str = "xla.lgamma";
    pub const NEXT_AFTER: &str = "xla.next_after";
    pub const ZETA: &str = "xla.zeta";
    pub const POLYGAMMA: &str = "xla.polygamma";
    pub const DIGAMMA: &str = "xla.digamma";
    pub const REDUCE_PRECISION: &str = "xla.reduce_precision";
    pub const ASIN: &str = "xla.asin";
    pub const ACOS: &str = "xla.acos";
    pub const ATAN: &str = "xla.atan";
    pub const SINH: &str = "xla.sinh";
    pub const COSH: &str = "xla.cosh";
    pub const ASINH: &str = "xla.asinh";
    pub const ACOSH: &str = "xla.acosh";
    pub const ATANH: &str = "xla.atanh";
    pub const IS_INF: &str = "xla.is_inf";
    pub const IS_POS_INF: &str = "xla.is_pos_inf";
    pub const IS_NEG_INF: &str = "xla.is_neg_inf";
    pub const ADD: &str = "xla.add";
    pub const SUBTRACT: &str = "xla.subtract";
    pub const MULTIPLY: &str = "xla.multiply";
    pub const DIVIDE: &str = "xla.divide";
    pub const REMAINDER: &str = "xla.remainder";
    pub const POWER: &str = "xla.power";
    pub const MAXIMUM: &str = "xla.maximum";
    pub const MINIMUM: &str = "xla.minimum";
    pub const AND: &str = "xla.and";
    pub const OR: &str = "xla.or";
    pub const XOR: &str = "xla.xor";
    pub const SHIFT_LEFT: &str = "xla.shift_left";
    pub const SHIFT_RIGHT_ARITHMETIC: &str = "xla.shift_right_arithmetic";
    pub const SHIFT_RIGHT_LOGICAL: &str = "xla.shift_right_logical";
    pub const ATAN2: &str = "xla.atan2";
    pub const CONVERT: &str = "xla.convert";
    pub const BITCAST_CONVERT: &str = "xla.bitcast_convert";
    pub const IS_FINITE: &str = "xla.is_finite";
    pub const REAL: &str = "xla.real";
    pub const IMAG: &str = "xla.imag";
    pub const COMPLEX: &str = "xla.complex";
    pub const SELECT: &str = "xla.select";
    pub const CLAMP: &str = "xla.clamp";
    pub const COMPARE: &str = "xla.compare";
    pub const MULHI: &str = "xla.mulhi";
    /// `chlo.broadcast_*` spellings of the binary ops.
    pub const CHLO_BROADCASTING: &[(&str, &str)] = &[
        ("chlo.broadcast_add", ADD),
        ("chlo.broadcast_subtract", SUBTRACT),
        ("chlo.broadcast_multiply", MULTIPLY),
        ("chlo.broadcast_divide", DIVIDE),
        ("chlo.broadcast_remainder", REMAINDER),
        ("chlo.broadcast_power", POWER),
        ("chlo.broadcast_maximum", MAXIMUM),
        ("chlo.broadcast_minimum", MINIMUM),
        ("chlo.broadcast_and", AND),
        ("chlo.broadcast_or", OR),
        ("chlo.broadcast_xor", XOR),
        ("chlo.broadcast_shift_left", SHIFT_LEFT),
        (
            "chlo.broadcast_shift_right_arithmetic",
            SHIFT_RIGHT_ARITHMETIC,
        ),
        ("chlo.broadcast_shift_right_logical", SHIFT_RIGHT_LOGICAL),
        ("chlo.broadcast_atan2", ATAN2),
        ("chlo.broadcast_compare", COMPARE),
        ("chlo.broadcast_complex", COMPLEX),
    ];
    pub const UNARY_ELEMENTWISE: &[&str] = &[
        ABS, NEGATE, SQRT, RSQRT, CBRT, EXP, EXPM1, LOG, LOG1P, LOGISTIC, SINE, COSINE, TAN, TANH,
        FLOOR, CEIL, ROUND_AFZ, ROUND_EVEN, SIGN, NOT, POPCNT, CLZ, SQUARE, ERF, ERFC, ERF_INV,
        LGAMMA, DIGAMMA, BESSEL_I1E, ASIN, ACOS, ATAN, SINH, COSH, ASINH, ACOSH, ATANH,
    ];
    /// Float predicates with an i1 result (like `xla.is_finite`).
    pub const FLOAT_PREDICATES: &[&str] = &[IS_INF, IS_POS_INF, IS_NEG_INF];
    pub const BINARY_ELEMENTWISE: &[&str] = &[
        NEXT_AFTER,
        ZETA,
        POLYGAMMA,
        ADD,
        SUBTRACT,
        MULTIPLY,
        DIVIDE,
        REMAINDER,
        POWER,
        MAXIMUM,
        MINIMUM,
        AND,
        OR,
        XOR,
        SHIFT_LEFT,
        SHIFT_RIGHT_ARITHMETIC,
        SHIFT_RIGHT_LOGICAL,
        ATAN2,
        MULHI,
    ];
}

/// Which element types an element-wise op accepts.
fn accepts(ctx: &Context, name: &str, elem: Type) -> bool {
    let (int, boolean, float, complex) = (
        is_int(ctx, elem),
        is_bool(ctx, elem),
        is_float(ctx, elem),
        is_complex(ctx, elem),
    );
    match name {
        NOT | AND | OR | XOR => int || boolean,
        POPCNT | CLZ | SHIFT_LEFT | SHIFT_RIGHT_ARITHMETIC | SHIFT_RIGHT_LOGICAL | MULHI => int,
        FLOOR | CEIL | ROUND_AFZ | ROUND_EVEN => float,
        ERF | ERFC | ERF_INV | LGAMMA | DIGAMMA | BESSEL_I1E => float,
        ASIN | ACOS | ATAN | SINH | COSH | ASINH | ACOSH | ATANH => float || complex,
        SQUARE => int || float || complex,
        CBRT | ATAN2 | SQRT | RSQRT | EXP | EXPM1 | LOG | LOG1P | LOGISTIC | SINE | COSINE
        | TAN | TANH => float || complex,
        ABS | SIGN => (int && !ctx.types.is_unsigned(elem)) || float || complex,
        NEGATE => int || float || complex,
        ADD | MULTIPLY | MAXIMUM | MINIMUM => int || boolean || float || complex,
        SUBTRACT | DIVIDE | POWER => int || float || complex,
        REMAINDER => int || float,
        ZETA | POLYGAMMA => float,
        // Steps by one unit of the stored type, on its own bits.
        NEXT_AFTER => matches!(
            ctx.types.kind(elem),
            TypeKind::Float(
                strata_ir::FloatKind::F16
                    | strata_ir::FloatKind::BF16
                    | strata_ir::FloatKind::F32
                    | strata_ir::FloatKind::F64
            )
        ),
        _ => true,
    }
}

fn check_elem(ctx: &Context, op: OpId, elem: Type) -> Result<()> {
    let name = ctx.op(op).name;
    if !accepts(ctx, name, computed_element(ctx, elem)) {
        return Err(ctx.error(
            op,
            format!("does not accept element type {}", ty_str(ctx, elem)),
        ));
    }
    Ok(())
}

pub fn verify_unary(ctx: &Context, op: OpId) -> Result<()> {
    let (shape, elem) = operand_tensor(ctx, op, 0)?;
    check_elem(ctx, op, elem)?;
    let result_elem = match (ctx.op(op).name, ctx.types.kind(elem)) {
        (ABS, TypeKind::Complex(part)) => *part,
        _ => elem,
    };
    expect_result_type(ctx, op, 0, &shape, result_elem)
}

/// Whether a binary op asks for any broadcasting.
pub fn has_broadcast_attrs(ctx: &Context, op: OpId) -> bool {
    ctx.attr_of(op, "broadcast_dimensions").is_some() || ctx.attr_of(op, "auto_broadcast").is_some()
}

/// The broadcast a binary op (element-wise, compare, complex) performs:
/// explicit `broadcast_dimensions`, an `auto_broadcast` mode, or XLA's
/// implicit scalar and degenerate-dimension rules.
pub fn binary_broadcast(ctx: &Context, op: OpId) -> Result<Broadcast> {
    let (lhs, le) = operand_tensor(ctx, op, 0)?;
    let (rhs, re) = operand_tensor(ctx, op, 1)?;
    if !same_element(ctx, le, re) {
        return Err(ctx.error(
            op,
            format!(
                "requires operands of the same element type, found {} and {}",
                ty_str(ctx, le),
                ty_str(ctx, re)
            ),
        ));
    }
    let dims = ctx.i64_array(op, "broadcast_dimensions");
    if ctx.attr_of(op, "broadcast_dimensions").is_some() && dims.is_none() {
        return Err(ctx.error(op, "broadcast_dimensions must be an array<i64: ...>"));
    }
    let mode = match ctx.attr_of(op, "auto_broadcast") {
        None => None,
        Some(_) => Some(
            ctx.str_attr(op, "auto_broadcast")
                .ok_or_else(|| ctx.error(op, "auto_broadcast must be a string"))?,
        ),
    };
    if dims.is_some() && mode.is_some_and(|m| m != "none") {
        return Err(ctx.error(
            op,
            "broadcast_dimensions and auto_broadcast cannot be combined",
        ));
    }
    if ctx.attr_of(op, "axis").is_some() && mode != Some("pdpd") {
        return Err(ctx.error(
            op,
            "'axis' is only meaningful with auto_broadcast = \"pdpd\"",
        ));
    }
    let r = match mode {
        Some("numpy") => broadcast::numpy(&lhs, &rhs),
        Some("pdpd") => {
            let axis = match ctx.attr_of(op, "axis") {
                None => -1,
                Some(_) => ctx
                    .int_attr(op, "axis")
                    .ok_or_else(|| ctx.error(op, "axis must be an integer"))?
                    as i64,
            };
            broadcast::pdpd(&lhs, &rhs, axis)
        }
        Some("none") if lhs != rhs => Err(format!(
            "auto_broadcast = \"none\" requires equal shapes, found {} and {}",
            broadcast::shape_str(&lhs),
            broadcast::shape_str(&rhs)
        )),
        Some("none") => broadcast::xla(&lhs, &rhs, None),
        Some(m) => Err(format!(
            "unknown auto_broadcast mode \"{m}\" (expected \"numpy\", \"pdpd\" or \"none\")"
        )),
        None => broadcast::xla(&lhs, &rhs, dims.as_deref()),
    };
    r.map_err(|m| {
        let (a, b) = (
            ctx.value_ty(ctx.op(op).operands()[0]),
            ctx.value_ty(ctx.op(op).operands()[1]),
        );
        ctx.error(
            op,
            format!(
                "{m}; operands are {} and {}",
                ty_str(ctx, a),
                ty_str(ctx, b)
            ),
        )
    })
}

pub fn verify_binary(ctx: &Context, op: OpId) -> Result<()> {
    let elem = operand_tensor(ctx, op, 0)?.1;
    let b = binary_broadcast(ctx, op)?;
    check_elem(ctx, op, elem)?;
    expect_result_type(ctx, op, 0, &b.shape, elem)
}

pub fn verify_convert(ctx: &Context, op: OpId) -> Result<()> {
    let (shape, _) = operand_tensor(ctx, op, 0)?;
    let (rshape, relem) = result_tensor(ctx, op, 0)?;
    if rshape != shape {
        return Err(ctx.error(
            op,
            format!(
                "requires the same shape for operand and result, found {} and {}",
                list(&shape),
                list(&rshape)
            ),
        ));
    }
    let _ = relem;
    Ok(())
}

pub fn verify_bitcast_convert(ctx: &Context, op: OpId) -> Result<()> {
    let (shape, elem) = operand_tensor(ctx, op, 0)?;
    let (rshape, relem) = result_tensor(ctx, op, 0)?;
    let (w_in, w_out) = (
        ctx.types.bit_width(elem) * (1 + is_complex(ctx, elem) as u32),
        ctx.types.bit_width(relem) * (1 + is_complex(ctx, relem) as u32),
    );
    if w_in == w_out {
        if rshape != shape {
            return Err(ctx.error(op, "requires the same shape when element widths are equal"));
        }
        return Ok(());
    }
    // Different widths add or drop a trailing dimension of size ratio.
    let (w_in, w_out) = (w_in as i128, w_out as i128);
    let ok = if w_in > w_out {
        rshape.len() == shape.len() + 1
            && rshape[..shape.len()] == shape[..]
            && rshape[shape.len()] as i128 * w_out == w_in
    } else {
        shape.len() == rshape.len() + 1
            && shape[..rshape.len()] == rshape[..]
            && shape[rshape.len()] as i128 * w_in == w_out
    };
    if !ok {
        return Err(ctx.error(
            op,
            format!(
                "cannot bitcast {} to {}",
                ty_str(ctx, ctx.value_ty(ctx.op(op).operands()[0])),
                ty_str(ctx, ctx.value_ty(ctx.op(op).results[0]))
            ),
        ));
    }
    Ok(())
}

pub fn verify_is_finite(ctx: &Context, op: OpId) -> Result<()> {
    let (shape, elem) = operand_tensor(ctx, op, 0)?;
    if !is_float(ctx, elem) {
        return Err(ctx.error(
            op,
            format!(
                "requires a float operand, found element type {}",
                ty_str(ctx, elem)
            ),
        ));
    }
    let (rshape, relem) = result_tensor(ctx, op, 0)?;
    if rshape != shape || !is_bool(ctx, relem) {
        return Err(ctx.error(op, "result must be a tensor of i1 with the operand's shape"));
    }
    Ok(())
}

pub fn verify_real_imag(ctx: &Context, op: OpId) -> Result<()> {
    let (shape, elem) = operand_tensor(ctx, op, 0)?;
    let part = match ctx.types.kind(elem) {
        TypeKind::Complex(p) => *p,
        TypeKind::Float(_) => elem,
        _ => {
            return Err(ctx.error(
                op,
                format!(
                    "requires a complex or float operand, found element type {}",
                    ty_str(ctx, elem)
                ),
            ));
        }
    };
    expect_result_type(ctx, op, 0, &shape, part)
}

pub fn verify_complex(ctx: &Context, op: OpId) -> Result<()> {
    let elem = operand_tensor(ctx, op, 0)?.1;
    let shape = binary_broadcast(ctx, op)?.shape;
    let (rshape, relem) = result_tensor(ctx, op, 0)?;
    let ok = matches!(ctx.types.kind(relem), TypeKind::Complex(p) if *p == elem) && rshape == shape;
    if !ok {
        return Err(ctx.error(
            op,
            format!(
                "result must be complex<{}> with the operands' shape",
                ty_str(ctx, elem)
            ),
        ));
    }
    Ok(())
}

pub fn verify_select(ctx: &Context, op: OpId) -> Result<()> {
    let (pshape, pelem) = operand_tensor(ctx, op, 0)?;
    let (shape, elem) = operand_tensor(ctx, op, 1)?;
    if operand_tensor(ctx, op, 2)? != (shape.clone(), elem) {
        return Err(ctx.error(
            op,
            "requires on_true and on_false operands of the same type",
        ));
    }
    if !is_bool(ctx, pelem) {
        return Err(ctx.error(
            op,
            format!(
                "requires an i1 predicate, found element type {}",
                ty_str(ctx, pelem)
            ),
        ));
    }
    if !pshape.is_empty() && pshape != shape {
        return Err(ctx.error(
            op,
            format!(
                "requires a scalar predicate or one of shape {}, found {}",
                list(&shape),
                list(&pshape)
            ),
        ));
    }
    expect_result_type(ctx, op, 0, &shape, elem)
}

pub fn verify_clamp(ctx: &Context, op: OpId) -> Result<()> {
    let (shape, elem) = operand_tensor(ctx, op, 1)?;
    for i in [0, 2] {
        let (s, e) = operand_tensor(ctx, op, i)?;
        if e != elem || (!s.is_empty() && s != shape) {
            return Err(ctx.error(
                op,
                format!("operand #{i} must be a scalar or match the operand's type"),
            ));
        }
    }
    expect_result_type(ctx, op, 0, &shape, elem)
}

pub fn verify_compare(ctx: &Context, op: OpId) -> Result<()> {
    use crate::attrs::{CompareType, ComparisonDirection};
    expect_counts(ctx, op, 2, 1)?;
    let elem = operand_tensor(ctx, op, 0)?.1;
    let shape = binary_broadcast(ctx, op)?.shape;
    match ctx.str_attr(op, "comparison_direction") {
        Some(d) if ComparisonDirection::parse(d).is_some() => {}
        Some(d) => return Err(ctx.error(op, format!("unknown comparison direction '{d}'"))),
        None => return Err(ctx.error(op, "requires attribute 'comparison_direction'")),
    }
    if let Some(t) = ctx.str_attr(op, "compare_type") {
        let Some(kind) = CompareType::parse(t) else {
            return Err(ctx.error(op, format!("unknown comparison type '{t}'")));
        };
        let ok = match kind {
            CompareType::Float | CompareType::TotalOrder => {
                is_float(ctx, elem) || is_complex(ctx, elem)
            }
            CompareType::Signed | CompareType::Unsigned => is_int(ctx, elem) || is_bool(ctx, elem),
            CompareType::NoType => true,
        };
        if !ok {
            return Err(ctx.error(
                op,
                format!(
                    "comparison type {t} does not apply to element type {}",
                    ty_str(ctx, elem)
                ),
            ));
        }
    }
    let (rshape, relem) = result_tensor(ctx, op, 0)?;
    if rshape != shape || !is_bool(ctx, relem) {
        return Err(ctx.error(op, "result must be a tensor of i1 with the operands' shape"));
    }
    Ok(())
}

/// `reduce_precision`: a float tensor, the result of its type, and
/// `exponent_bits` >= 1, `mantissa_bits` >= 0 (at most the type's own).
pub fn verify_reduce_precision(ctx: &Context, op: OpId) -> Result<()> {
    let (shape, elem) = operand_tensor(ctx, op, 0)?;
    let (rshape, relem) = result_tensor(ctx, op, 0)?;
    if !is_float(ctx, elem) || shape != rshape || elem != relem {
        return Err(ctx.error(op, "expects a float tensor and a result of its type"));
    }
    let e = ctx.int_attr(op, "exponent_bits");
    let m = ctx.int_attr(op, "mantissa_bits");
    match (e, m) {
        (Some(e), Some(m)) if (1..=64).contains(&e) && (0..=64).contains(&m) => Ok(()),
        _ => Err(ctx.error(
            op,
            "requires exponent_bits in [1, 64] and mantissa_bits in [0, 64]",
        )),
    }
}

/// `xla.reduce_precision`: the (exponent, mantissa) bits kept.
pub fn precision_bits(ctx: &Context, op: OpId) -> Option<(u32, u32)> {
    Some((
        u32::try_from(ctx.int_attr(op, "exponent_bits")?).ok()?,
        u32::try_from(ctx.int_attr(op, "mantissa_bits")?).ok()?,
    ))
}

/// Registers this family's ops: name, traits, counts, verifier, pretty syntax.
pub(crate) fn register(r: &mut Registry) {
    let pure = Traits::PURE;
    for &name in UNARY_ELEMENTWISE {
        r.add(
            OpDef::new(name, pure)
                .counts(1, 1)
                .verifier(verify_unary)
                .parser(parse::parse_elementwise),
        );
    }
    for &name in BINARY_ELEMENTWISE {
        r.add(
            OpDef::new(name, pure)
                .counts(2, 1)
                .verifier(verify_binary)
                .parser(parse::parse_elementwise),
        );
    }
    r.add(
        OpDef::new(CONVERT, pure)
            .counts(1, 1)
            .verifier(verify_convert)
            .parser(parse::parse_elementwise),
    );
    r.add(
        OpDef::new(BITCAST_CONVERT, pure)
            .counts(1, 1)
            .verifier(verify_bitcast_convert)
            .parser(parse::parse_elementwise),
    );
    r.add(
        OpDef::new(IS_FINITE, pure)
            .counts(1, 1)
            .verifier(verify_is_finite)
            .parser(parse::parse_elementwise),
    );
    for &name in FLOAT_PREDICATES {
        r.add(
            OpDef::new(name, pure)
                .counts(1, 1)
                .verifier(verify_is_finite)
                .parser(parse::parse_elementwise),
        );
    }
    r.add(
        OpDef::new(REAL, pure)
            .counts(1, 1)
            .verifier(verify_real_imag)
            .parser(parse::parse_elementwise),
    );
    r.add(
        OpDef::new(IMAG, pure)
            .counts(1, 1)
            .verifier(verify_real_imag)
            .parser(parse::parse_elementwise),
    );
    r.add(
        OpDef::new(COMPLEX, pure)
            .counts(2, 1)
            .verifier(verify_complex)
            .parser(parse::parse_complex),
    );
    r.add(
        OpDef::new(SELECT, pure)
            .counts(3, 1)
            .verifier(verify_select)
            .parser(parse::parse_select),
    );
    r.add(
        OpDef::new(CLAMP, pure)
            .counts(3, 1)
            .verifier(verify_clamp)
            .parser(parse::parse_elementwise),
    );
    r.add(
        OpDef::new(COMPARE, pure)
            .verifier(verify_compare)
            .parser(parse::parse_compare),
    );
    r.add(
        OpDef::new(REDUCE_PRECISION, pure)
            .counts(1, 1)
            .verifier(verify_reduce_precision)
            .parser(parse::parse_reduce_precision),
    );
}
