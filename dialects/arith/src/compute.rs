//! Verifiers of the computing ops: binary and unary arithmetic, compares,
//! `arith.select` and `arith.constant`.

use strata_diag::Result;
use strata_ir::text::printer::type_to_string;
use strata_ir::{AttrKind, Context, OpId, Type, TypeKind};

use crate::{CMPF_PREDICATES, CMPI_PREDICATES};

/// Checks operand and result counts; returns the operand and result types.
pub(crate) fn signature(ctx: &Context, op: OpId, operands: usize) -> Result<(Vec<Type>, Type)> {
    let o = ctx.op(op);
    if o.operands().len() != operands {
        return Err(ctx.error(
            op,
            format!("expects {operands} operands, found {}", o.operands().len()),
        ));
    }
    if o.results.len() != 1 {
        return Err(ctx.error(op, format!("expects 1 result, found {}", o.results.len())));
    }
    let ins = o.operands().iter().map(|&v| ctx.value_ty(v)).collect();
    Ok((ins, ctx.value_ty(o.results[0])))
}

/// Integer (any signedness) or index.
pub(crate) fn is_integer_like(ctx: &Context, t: Type) -> bool {
    matches!(ctx.types.kind(t), TypeKind::Int { .. } | TypeKind::Index)
}

pub(crate) fn is_float(ctx: &Context, t: Type) -> bool {
    matches!(ctx.types.kind(t), TypeKind::Float(_))
}

pub(crate) fn is_i1(ctx: &Context, t: Type) -> bool {
    matches!(ctx.types.kind(t), TypeKind::Int { width: 1, .. })
}

fn expect_kind(ctx: &Context, op: OpId, what: &str, t: Type, ok: bool, kind: &str) -> Result<()> {
    if !ok {
        return Err(ctx.error(
            op,
            format!(
                "expects {what} to be {kind}, found {}",
                type_to_string(ctx, t)
            ),
        ));
    }
    Ok(())
}

/// All operands have the result type, which satisfies `pred`.
fn verify_same_type(
    ctx: &Context,
    op: OpId,
    n: usize,
    pred: fn(&Context, Type) -> bool,
    kind: &str,
) -> Result<()> {
    let (ins, out) = signature(ctx, op, n)?;
    expect_kind(ctx, op, "the result", out, pred(ctx, out), kind)?;
    for (i, t) in ins.iter().enumerate() {
        if *t != out {
            return Err(ctx.error(
                op,
                format!(
                    "expects operand #{i} to have the result type {}, found {}",
                    type_to_string(ctx, out),
                    type_to_string(ctx, *t)
                ),
            ));
        }
    }
    Ok(())
}

pub(crate) fn verify_int_binary(ctx: &Context, op: OpId) -> Result<()> {
    verify_same_type(ctx, op, 2, is_integer_like, "an integer or index")
}

pub(crate) fn verify_int_unary(ctx: &Context, op: OpId) -> Result<()> {
    verify_same_type(ctx, op, 1, is_integer_like, "an integer or index")
}

pub(crate) fn verify_float_binary(ctx: &Context, op: OpId) -> Result<()> {
    verify_same_type(ctx, op, 2, is_float, "a float")
}

pub(crate) fn verify_float_unary(ctx: &Context, op: OpId) -> Result<()> {
    verify_same_type(ctx, op, 1, is_float, "a float")
}

fn verify_compare(
    ctx: &Context,
    op: OpId,
    pred: fn(&Context, Type) -> bool,
    kind: &str,
    valid: &[&str],
) -> Result<()> {
    let (ins, out) = signature(ctx, op, 2)?;
    expect_kind(ctx, op, "the result", out, is_i1(ctx, out), "i1")?;
    expect_kind(ctx, op, "operand #0", ins[0], pred(ctx, ins[0]), kind)?;
    if ins[0] != ins[1] {
        return Err(ctx.error(
            op,
            format!(
                "expects operands of the same type, found {} and {}",
                type_to_string(ctx, ins[0]),
                type_to_string(ctx, ins[1])
            ),
        ));
    }
    match crate::predicate(ctx, op) {
        Some(p) if valid.contains(&p) => Ok(()),
        Some(p) => Err(ctx.error(
            op,
            format!(
                "has invalid predicate \"{p}\"; expected one of {}",
                valid.join(", ")
            ),
        )),
        None => Err(ctx.error(op, "requires a 'predicate' string attribute")),
    }
}

pub(crate) fn verify_cmpi(ctx: &Context, op: OpId) -> Result<()> {
    verify_compare(
        ctx,
        op,
        is_integer_like,
        "an integer or index",
        &CMPI_PREDICATES,
    )
}

pub(crate) fn verify_cmpf(ctx: &Context, op: OpId) -> Result<()> {
    verify_compare(ctx, op, is_float, "a float", &CMPF_PREDICATES)
}

pub(crate) fn verify_select(ctx: &Context, op: OpId) -> Result<()> {
    let (ins, out) = signature(ctx, op, 3)?;
    expect_kind(ctx, op, "operand #0", ins[0], is_i1(ctx, ins[0]), "i1")?;
    let scalar = is_integer_like(ctx, out) || is_float(ctx, out);
    expect_kind(ctx, op, "the result", out, scalar, "a scalar")?;
    if ins[1] != out || ins[2] != out {
        return Err(ctx.error(
            op,
            format!(
                "expects operands #1 and #2 to have the result type {}, found {} and {}",
                type_to_string(ctx, out),
                type_to_string(ctx, ins[1]),
                type_to_string(ctx, ins[2])
            ),
        ));
    }
    Ok(())
}

pub(crate) fn verify_constant(ctx: &Context, op: OpId) -> Result<()> {
    let (_, out) = signature(ctx, op, 0)?;
    let Some(a) = ctx.attr_of(op, "value") else {
        return Err(ctx.error(op, "requires a 'value' attribute"));
    };
    let ok = match (ctx.attr_kind(a), ctx.types.kind(out)) {
        (AttrKind::Bool(_), TypeKind::Int { width: 1, .. }) => true,
        (AttrKind::Int { value, .. }, TypeKind::Int { .. } | TypeKind::Index) => {
            strata_ir::dense::check_int_range(ctx, *value, out).is_ok()
        }
        (AttrKind::Float { .. }, TypeKind::Float(_)) => true,
        _ => false,
    };
    if !ok {
        return Err(ctx.error(
            op,
            format!(
                "expects a 'value' attribute of the result type {}, found {}",
                type_to_string(ctx, out),
                strata_ir::text::printer::attr_to_string(ctx, a)
            ),
        ));
    }
    Ok(())
}
