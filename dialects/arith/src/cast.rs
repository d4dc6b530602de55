//! Verifiers of the conversions: integer and float resizes, int ↔ float,
//! `arith.bitcast` and `arith.index_cast`.

use strata_diag::Result;
use strata_ir::text::printer::type_to_string;
use strata_ir::{Context, OpId, Type, TypeKind};

use crate::compute::{is_float, signature};
use crate::{EXTF, EXTSI, EXTUI};

fn is_int(ctx: &Context, t: Type) -> bool {
    matches!(ctx.types.kind(t), TypeKind::Int { .. })
}

/// Checks the one operand and the result against `from` / `to`.
fn unary_cast(
    ctx: &Context,
    op: OpId,
    from: (fn(&Context, Type) -> bool, &str),
    to: (fn(&Context, Type) -> bool, &str),
) -> Result<(Type, Type)> {
    let (ins, out) = signature(ctx, op, 1)?;
    if !from.0(ctx, ins[0]) {
        return Err(ctx.error(
            op,
            format!(
                "expects operand #0 to be {}, found {}",
                from.1,
                type_to_string(ctx, ins[0])
            ),
        ));
    }
    if !to.0(ctx, out) {
        return Err(ctx.error(
            op,
            format!(
                "expects the result to be {}, found {}",
                to.1,
                type_to_string(ctx, out)
            ),
        ));
    }
    Ok((ins[0], out))
}

/// `extsi` / `extui` widen, `trunci` narrows (strictly, by bit width).
fn check_widths(ctx: &Context, op: OpId, from: Type, to: Type, widen: bool) -> Result<()> {
    let (a, b) = (ctx.types.bit_width(from), ctx.types.bit_width(to));
    let ok = if widen { b > a } else { b < a };
    if !ok {
        let verb = if widen { "wider" } else { "narrower" };
        return Err(ctx.error(
            op,
            format!(
                "expects the result to be {verb} than the operand, found {} to {}",
                type_to_string(ctx, from),
                type_to_string(ctx, to)
            ),
        ));
    }
    Ok(())
}

pub(crate) fn verify_int_resize(ctx: &Context, op: OpId) -> Result<()> {
    let (from, to) = unary_cast(ctx, op, (is_int, "an integer"), (is_int, "an integer"))?;
    let name = ctx.op(op).name;
    check_widths(ctx, op, from, to, name == EXTSI || name == EXTUI)
}

pub(crate) fn verify_int_to_float(ctx: &Context, op: OpId) -> Result<()> {
    unary_cast(ctx, op, (is_int, "an integer"), (is_float, "a float")).map(|_| ())
}

pub(crate) fn verify_float_to_int(ctx: &Context, op: OpId) -> Result<()> {
    unary_cast(ctx, op, (is_float, "a float"), (is_int, "an integer")).map(|_| ())
}

pub(crate) fn verify_float_resize(ctx: &Context, op: OpId) -> Result<()> {
    let (from, to) = unary_cast(ctx, op, (is_float, "a float"), (is_float, "a float"))?;
    if ctx.types.bit_width(from) == ctx.types.bit_width(to) {
        // f16 <-> bf16 changes format at the same width; allowed both ways.
        return if from != to {
            Ok(())
        } else {
            Err(ctx.error(op, "expects different operand and result types"))
        };
    }
    check_widths(ctx, op, from, to, ctx.op(op).name == EXTF)
}

fn is_scalar(ctx: &Context, t: Type) -> bool {
    matches!(
        ctx.types.kind(t),
        TypeKind::Int { .. } | TypeKind::Float(_) | TypeKind::Index
    )
}

pub(crate) fn verify_bitcast(ctx: &Context, op: OpId) -> Result<()> {
    let (from, to) = unary_cast(ctx, op, (is_scalar, "a scalar"), (is_scalar, "a scalar"))?;
    if ctx.types.bit_width(from) != ctx.types.bit_width(to) {
        return Err(ctx.error(
            op,
            format!(
                "expects operand and result of the same bit width, found {} and {}",
                type_to_string(ctx, from),
                type_to_string(ctx, to)
            ),
        ));
    }
    Ok(())
}

pub(crate) fn verify_index_cast(ctx: &Context, op: OpId) -> Result<()> {
    let (ins, out) = signature(ctx, op, 1)?;
    let index = |t: Type| matches!(ctx.types.kind(t), TypeKind::Index);
    let ok = (index(ins[0]) && is_int(ctx, out)) || (is_int(ctx, ins[0]) && index(out));
    if !ok {
        return Err(ctx.error(
            op,
            format!(
                "expects a cast between index and an integer, found {} to {}",
                type_to_string(ctx, ins[0]),
                type_to_string(ctx, out)
            ),
        ));
    }
    Ok(())
}
