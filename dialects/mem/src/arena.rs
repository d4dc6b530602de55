//! Verifiers of the arena ops: `mem.arena`, `mem.arena_release`,
//! `mem.slice` (see `transforms/plan_arena.rs`, which makes them).

use strata_diag::Result;
use strata_ir::text::printer::type_to_string;
use strata_ir::{Context, OpId, Type, TypeKind};

use crate::buffer::{expect_memref, storage_bytes};

/// `memref<N x i8>`: an arena's type.
fn is_byte_buffer(ctx: &Context, t: Type) -> bool {
    matches!(ctx.types.kind(t), TypeKind::MemRef { .. })
        && ctx.types.shape(t).is_some_and(|s| s.len() == 1)
        && matches!(
            ctx.types.kind(ctx.types.elem(t)),
            TypeKind::Int { width: 8, .. }
        )
}

fn expect_arena(ctx: &Context, op: OpId, t: Type, what: &str) -> Result<()> {
    if !is_byte_buffer(ctx, t) {
        return Err(ctx.error(
            op,
            format!(
                "expects {what} to be an arena (memref<Nxi8>), found {}",
                type_to_string(ctx, t)
            ),
        ));
    }
    Ok(())
}

pub(crate) fn verify_arena(ctx: &Context, op: OpId) -> Result<()> {
    expect_arena(ctx, op, ctx.value_ty(ctx.op(op).results[0]), "the result")
}

pub(crate) fn verify_release(ctx: &Context, op: OpId) -> Result<()> {
    let arena = ctx.op(op).operands()[0];
    expect_arena(ctx, op, ctx.value_ty(arena), "operand #0")?;
    if ctx
        .defining_op(arena)
        .is_none_or(|d| ctx.op(d).name != crate::ARENA)
    {
        return Err(ctx.error(op, "expects operand #0 to be a 'mem.arena'"));
    }
    Ok(())
}

/// A typed buffer at a constant byte `offset` of an arena, aligned to its
/// element and inside the arena.
pub(crate) fn verify_slice(ctx: &Context, op: OpId) -> Result<()> {
    let src = ctx.value_ty(ctx.op(op).operands()[0]);
    let dst = ctx.value_ty(ctx.op(op).results[0]);
    expect_arena(ctx, op, src, "operand #0")?;
    expect_memref(ctx, op, dst, "result")?;
    let Some(offset) = ctx
        .int_attr(op, "offset")
        .and_then(|o| i64::try_from(o).ok())
    else {
        return Err(ctx.error(op, "requires an integer 'offset' attribute (bytes)"));
    };
    let arena = ctx.types.num_elements(src);
    let bytes = storage_bytes(ctx, dst);
    let align = (ctx.types.storage_bytes(ctx.types.elem(dst)) as i64).max(1);
    if offset < 0 || offset % align != 0 || offset.checked_add(bytes).is_none_or(|end| end > arena)
    {
        return Err(ctx.error(
            op,
            format!(
                "the slice of {bytes} bytes at offset {offset} is not inside the {arena}-byte arena, aligned to {align}"
            ),
        ));
    }
    Ok(())
}
