//! Verifiers of the element accesses: `mem.load`, `mem.store`,
//! `mem.load_part`, `mem.store_part`.

use strata_diag::Result;
use strata_ir::text::printer::type_to_string;
use strata_ir::{Context, OpId, Type, TypeKind, Value};

use crate::buffer::expect_memref;

/// Checks the memref operand at `pos` and the index operands after it;
/// returns the memref's element type.
fn check_indices(ctx: &Context, op: OpId, pos: usize) -> Result<Type> {
    let operands = ctx.op(op).operands();
    let Some(&m) = operands.get(pos) else {
        return Err(ctx.error(
            op,
            format!(
                "expects a memref operand #{pos}, found {} operands",
                operands.len()
            ),
        ));
    };
    let mty = ctx.value_ty(m);
    expect_memref(ctx, op, mty, &format!("operand #{pos}"))?;
    let rank = ctx.types.shape(mty).map_or(0, |s| s.len());
    let indices: &[Value] = &operands[pos + 1..];
    if indices.len() != rank {
        return Err(ctx.error(
            op,
            format!(
                "expects {rank} indices for {}, found {}",
                type_to_string(ctx, mty),
                indices.len()
            ),
        ));
    }
    for (i, &v) in indices.iter().enumerate() {
        let t = ctx.value_ty(v);
        if !matches!(ctx.types.kind(t), TypeKind::Index) {
            return Err(ctx.error(
                op,
                format!(
                    "expects operand #{} to be index, found {}",
                    pos + 1 + i,
                    type_to_string(ctx, t)
                ),
            ));
        }
    }
    Ok(ctx.types.elem(mty))
}

fn expect_results(ctx: &Context, op: OpId, n: usize) -> Result<()> {
    let found = ctx.op(op).results.len();
    if found != n {
        return Err(ctx.error(op, format!("expects {n} results, found {found}")));
    }
    Ok(())
}

fn expect_scalar_elem(ctx: &Context, op: OpId, elem: Type) -> Result<()> {
    if ctx.types.is_complex(elem) {
        return Err(ctx.error(
            op,
            format!(
                "cannot access complex element type {} directly; use 'mem.load_part' / 'mem.store_part'",
                type_to_string(ctx, elem)
            ),
        ));
    }
    Ok(())
}

fn expect_same(ctx: &Context, op: OpId, what: &str, expected: Type, found: Type) -> Result<()> {
    if expected != found {
        return Err(ctx.error(
            op,
            format!(
                "expects {what} of type {}, found {}",
                type_to_string(ctx, expected),
                type_to_string(ctx, found)
            ),
        ));
    }
    Ok(())
}

pub(crate) fn verify_load(ctx: &Context, op: OpId) -> Result<()> {
    let elem = check_indices(ctx, op, 0)?;
    expect_results(ctx, op, 1)?;
    expect_scalar_elem(ctx, op, elem)?;
    expect_same(
        ctx,
        op,
        "a result",
        elem,
        ctx.value_ty(ctx.op(op).results[0]),
    )
}

pub(crate) fn verify_store(ctx: &Context, op: OpId) -> Result<()> {
    let elem = check_indices(ctx, op, 1)?;
    expect_results(ctx, op, 0)?;
    expect_scalar_elem(ctx, op, elem)?;
    expect_same(
        ctx,
        op,
        "a stored value",
        elem,
        ctx.value_ty(ctx.op(op).operands()[0]),
    )
}

/// Element type of one part of complex `elem`, or an error.
fn part_type(ctx: &Context, op: OpId, elem: Type) -> Result<Type> {
    let TypeKind::Complex(p) = ctx.types.kind(elem) else {
        return Err(ctx.error(
            op,
            format!(
                "expects a memref of complex elements, found element type {}",
                type_to_string(ctx, elem)
            ),
        ));
    };
    if crate::part(ctx, op).is_none() {
        return Err(ctx.error(
            op,
            "requires a 'part' integer attribute of 0 (real) or 1 (imaginary)",
        ));
    }
    Ok(*p)
}

pub(crate) fn verify_load_part(ctx: &Context, op: OpId) -> Result<()> {
    let elem = check_indices(ctx, op, 0)?;
    expect_results(ctx, op, 1)?;
    let p = part_type(ctx, op, elem)?;
    expect_same(ctx, op, "a result", p, ctx.value_ty(ctx.op(op).results[0]))
}

pub(crate) fn verify_store_part(ctx: &Context, op: OpId) -> Result<()> {
    let elem = check_indices(ctx, op, 1)?;
    expect_results(ctx, op, 0)?;
    let p = part_type(ctx, op, elem)?;
    expect_same(
        ctx,
        op,
        "a stored value",
        p,
        ctx.value_ty(ctx.op(op).operands()[0]),
    )
}
