//! Element-wise ops: `xla.add`, `xla.abs`, ..., `xla.compare`, `xla.select`,
//! `xla.clamp`, `xla.convert`, `xla.bitcast_convert`, `xla.is_finite`,
//! `xla.real`, `xla.imag`, `xla.complex`. Operands have one shape (scalar
//! broadcasting comes with the broadcast legalization).

use strata_diag::Result;
use strata_ir::{Context, OpId, Type, TypeKind};

use crate::names::*;
use crate::util::*;

/// Which element types an element-wise op accepts.
fn accepts(ctx: &Context, name: &str, elem: Type) -> bool {
    let (int, boolean, float, complex) = (is_int(ctx, elem), is_bool(ctx, elem), is_float(ctx, elem), is_complex(ctx, elem));
    match name {
        NOT | AND | OR | XOR => int || boolean,
        POPCNT | CLZ | SHIFT_LEFT | SHIFT_RIGHT_ARITHMETIC | SHIFT_RIGHT_LOGICAL => int,
        FLOOR | CEIL | ROUND_AFZ | ROUND_EVEN => float,
        CBRT | ATAN2 | SQRT | RSQRT | EXP | EXPM1 | LOG | LOG1P | LOGISTIC | SINE | COSINE | TAN | TANH => float || complex,
        ABS | NEGATE | SIGN => int || float || complex,
        ADD | MULTIPLY | MAXIMUM | MINIMUM => int || boolean || float || complex,
        SUBTRACT | DIVIDE | POWER => int || float || complex,
        REMAINDER => int || float,
        _ => true,
    }
}

fn check_elem(ctx: &Context, op: OpId, elem: Type) -> Result<()> {
    let name = ctx.op(op).name;
    if !accepts(ctx, name, elem) {
        return Err(ctx.error(op, format!("does not accept element type {}", ty_str(ctx, elem))));
    }
    Ok(())
}

pub fn verify_unary(ctx: &Context, op: OpId) -> Result<()> {
    expect_counts(ctx, op, 1, 1)?;
    let (shape, elem) = operand_tensor(ctx, op, 0)?;
    check_elem(ctx, op, elem)?;
    let result_elem = match (ctx.op(op).name, ctx.kind(elem)) {
        (ABS, TypeKind::Complex(part)) => *part,
        _ => elem,
    };
    expect_result_type(ctx, op, 0, &shape, result_elem)
}

/// Operands `0..n` must all have the same tensor type; returns it.
fn same_operand_types(ctx: &Context, op: OpId) -> Result<(Vec<i64>, Type)> {
    let first = operand_tensor(ctx, op, 0)?;
    for i in 1..ctx.op(op).operands.len() {
        let t = operand_tensor(ctx, op, i)?;
        if t != first {
            let a = ctx.value_ty(ctx.op(op).operands[0]);
            let b = ctx.value_ty(ctx.op(op).operands[i]);
            return Err(ctx.error(
                op,
                format!("requires operands of the same type, but operand #0 is {} and operand #{i} is {}", ty_str(ctx, a), ty_str(ctx, b)),
            ));
        }
    }
    Ok(first)
}

pub fn verify_binary(ctx: &Context, op: OpId) -> Result<()> {
    expect_counts(ctx, op, 2, 1)?;
    let (shape, elem) = same_operand_types(ctx, op)?;
    check_elem(ctx, op, elem)?;
    expect_result_type(ctx, op, 0, &shape, elem)
}

pub fn verify_convert(ctx: &Context, op: OpId) -> Result<()> {
    expect_counts(ctx, op, 1, 1)?;
    let (shape, _) = operand_tensor(ctx, op, 0)?;
    let (rshape, relem) = result_tensor(ctx, op, 0)?;
    if rshape != shape {
        return Err(ctx.error(op, format!("requires the same shape for operand and result, found {} and {}", list(&shape), list(&rshape))));
    }
    let _ = relem;
    Ok(())
}

pub fn verify_bitcast_convert(ctx: &Context, op: OpId) -> Result<()> {
    expect_counts(ctx, op, 1, 1)?;
    let (shape, elem) = operand_tensor(ctx, op, 0)?;
    let (rshape, relem) = result_tensor(ctx, op, 0)?;
    let (w_in, w_out) = (ctx.bit_width(elem) * (1 + is_complex(ctx, elem) as u32), ctx.bit_width(relem) * (1 + is_complex(ctx, relem) as u32));
    if w_in == w_out {
        if rshape != shape {
            return Err(ctx.error(op, "requires the same shape when element widths are equal"));
        }
        return Ok(());
    }
    // Different widths add or drop a trailing dimension of size ratio.
    let ok = if w_in > w_out {
        rshape.len() == shape.len() + 1 && rshape[..shape.len()] == shape[..] && rshape[shape.len()] as u32 * w_out == w_in
    } else {
        shape.len() == rshape.len() + 1 && shape[..rshape.len()] == rshape[..] && shape[rshape.len()] as u32 * w_in == w_out
    };
    if !ok {
        return Err(ctx.error(op, format!("cannot bitcast {} to {}", ty_str(ctx, ctx.value_ty(ctx.op(op).operands[0])), ty_str(ctx, ctx.value_ty(ctx.op(op).results[0])))));
    }
    Ok(())
}

pub fn verify_is_finite(ctx: &Context, op: OpId) -> Result<()> {
    expect_counts(ctx, op, 1, 1)?;
    let (shape, elem) = operand_tensor(ctx, op, 0)?;
    if !is_float(ctx, elem) {
        return Err(ctx.error(op, format!("requires a float operand, found element type {}", ty_str(ctx, elem))));
    }
    let (rshape, relem) = result_tensor(ctx, op, 0)?;
    if rshape != shape || !is_bool(ctx, relem) {
        return Err(ctx.error(op, "result must be a tensor of i1 with the operand's shape"));
    }
    Ok(())
}

pub fn verify_real_imag(ctx: &Context, op: OpId) -> Result<()> {
    expect_counts(ctx, op, 1, 1)?;
    let (shape, elem) = operand_tensor(ctx, op, 0)?;
    let part = match ctx.kind(elem) {
        TypeKind::Complex(p) => *p,
        TypeKind::Float(_) => elem,
        _ => return Err(ctx.error(op, format!("requires a complex or float operand, found element type {}", ty_str(ctx, elem)))),
    };
    expect_result_type(ctx, op, 0, &shape, part)
}

pub fn verify_complex(ctx: &Context, op: OpId) -> Result<()> {
    expect_counts(ctx, op, 2, 1)?;
    let (shape, elem) = same_operand_types(ctx, op)?;
    let (rshape, relem) = result_tensor(ctx, op, 0)?;
    let ok = matches!(ctx.kind(relem), TypeKind::Complex(p) if *p == elem) && rshape == shape;
    if !ok {
        return Err(ctx.error(op, format!("result must be complex<{}> with the operands' shape", ty_str(ctx, elem))));
    }
    Ok(())
}

pub fn verify_select(ctx: &Context, op: OpId) -> Result<()> {
    expect_counts(ctx, op, 3, 1)?;
    let (pshape, pelem) = operand_tensor(ctx, op, 0)?;
    let (shape, elem) = operand_tensor(ctx, op, 1)?;
    if operand_tensor(ctx, op, 2)? != (shape.clone(), elem) {
        return Err(ctx.error(op, "requires on_true and on_false operands of the same type"));
    }
    if !is_bool(ctx, pelem) {
        return Err(ctx.error(op, format!("requires an i1 predicate, found element type {}", ty_str(ctx, pelem))));
    }
    if !pshape.is_empty() && pshape != shape {
        return Err(ctx.error(op, format!("requires a scalar predicate or one of shape {}, found {}", list(&shape), list(&pshape))));
    }
    expect_result_type(ctx, op, 0, &shape, elem)
}

pub fn verify_clamp(ctx: &Context, op: OpId) -> Result<()> {
    expect_counts(ctx, op, 3, 1)?;
    let (shape, elem) = operand_tensor(ctx, op, 1)?;
    for i in [0, 2] {
        let (s, e) = operand_tensor(ctx, op, i)?;
        if e != elem || (!s.is_empty() && s != shape) {
            return Err(ctx.error(op, format!("operand #{i} must be a scalar or match the operand's type")));
        }
    }
    expect_result_type(ctx, op, 0, &shape, elem)
}

pub const DIRECTIONS: [&str; 6] = ["EQ", "NE", "GE", "GT", "LE", "LT"];
pub const COMPARE_TYPES: [&str; 5] = ["SIGNED", "UNSIGNED", "FLOAT", "TOTALORDER", "NOTYPE"];

pub fn verify_compare(ctx: &Context, op: OpId) -> Result<()> {
    expect_counts(ctx, op, 2, 1)?;
    let (shape, elem) = same_operand_types(ctx, op)?;
    match ctx.str_attr(op, "comparison_direction") {
        Some(d) if DIRECTIONS.contains(&d) => {}
        Some(d) => return Err(ctx.error(op, format!("unknown comparison direction '{d}'"))),
        None => return Err(ctx.error(op, "requires attribute 'comparison_direction'")),
    }
    if let Some(t) = ctx.str_attr(op, "compare_type") {
        if !COMPARE_TYPES.contains(&t) {
            return Err(ctx.error(op, format!("unknown comparison type '{t}'")));
        }
        let ok = match t {
            "FLOAT" | "TOTALORDER" => is_float(ctx, elem) || is_complex(ctx, elem),
            "SIGNED" | "UNSIGNED" => is_int(ctx, elem) || is_bool(ctx, elem),
            _ => true,
        };
        if !ok {
            return Err(ctx.error(op, format!("comparison type {t} does not apply to element type {}", ty_str(ctx, elem))));
        }
    }
    let (rshape, relem) = result_tensor(ctx, op, 0)?;
    if rshape != shape || !is_bool(ctx, relem) {
        return Err(ctx.error(op, "result must be a tensor of i1 with the operands' shape"));
    }
    Ok(())
}
