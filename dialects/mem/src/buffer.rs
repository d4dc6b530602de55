//! Verifiers of the buffer ops: `mem.alloc`, `mem.alloca`, `mem.dealloc`,
//! `mem.global`, `mem.get_global`, `mem.copy`, `mem.view`.

use strata_diag::Result;
use strata_ir::text::printer::type_to_string;
use strata_ir::{AttrKind, Context, OpId, Type, TypeKind};

use crate::GLOBAL;

pub(crate) fn is_memref(ctx: &Context, t: Type) -> bool {
    matches!(ctx.types.kind(t), TypeKind::MemRef { .. })
}

/// Checks that `t` (of the operand or result named `what`) is a memref with
/// static, non-negative dimensions.
pub(crate) fn expect_memref(ctx: &Context, op: OpId, t: Type, what: &str) -> Result<()> {
    if !is_memref(ctx, t) {
        return Err(ctx.error(
            op,
            format!(
                "expects {what} to be a memref, found {}",
                type_to_string(ctx, t)
            ),
        ));
    }
    if ctx.types.shape(t).is_some_and(|s| s.iter().any(|&d| d < 0)) {
        return Err(ctx.error(
            op,
            format!(
                "expects {what} to have a static shape, found {}",
                type_to_string(ctx, t)
            ),
        ));
    }
    Ok(())
}

pub(crate) fn verify_alloc(ctx: &Context, op: OpId) -> Result<()> {
    expect_memref(ctx, op, ctx.value_ty(ctx.op(op).results[0]), "result")
}

pub(crate) fn verify_dealloc(ctx: &Context, op: OpId) -> Result<()> {
    expect_memref(
        ctx,
        op,
        ctx.value_ty(ctx.op(op).operands()[0]),
        "operand #0",
    )
}

pub(crate) fn verify_global(ctx: &Context, op: OpId) -> Result<()> {
    if ctx.str_attr(op, "sym_name").is_none() {
        return Err(ctx.error(op, "requires a 'sym_name' string attribute"));
    }
    if ctx.dense_attr(op, "value").is_none() {
        return Err(ctx.error(op, "requires a 'value' dense elements attribute"));
    }
    Ok(())
}

/// The `mem.global` named `name` in the module enclosing `op`.
pub fn lookup_global(ctx: &Context, op: OpId, name: &str) -> Option<OpId> {
    let mut cur = op;
    loop {
        let b = ctx.op(cur).parent?;
        let parent = ctx.block_parent_op(b)?;
        if ctx.op(parent).name == strata_ir::builtin::MODULE {
            let body = ctx.entry_block(parent, 0)?;
            return ctx.blocks[body]
                .ops
                .iter()
                .copied()
                .find(|&o| ctx.op(o).name == GLOBAL && ctx.str_attr(o, "sym_name") == Some(name));
        }
        cur = parent;
    }
}

pub(crate) fn verify_get_global(ctx: &Context, op: OpId) -> Result<()> {
    let ty = ctx.value_ty(ctx.op(op).results[0]);
    expect_memref(ctx, op, ty, "result")?;
    let name = match ctx.attr_of(op, "name").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::SymbolRef(s)) => s.clone(),
        _ => return Err(ctx.error(op, "requires a 'name' symbol reference attribute")),
    };
    let Some(global) = lookup_global(ctx, op, &name) else {
        // Detached ops (being built) have no module to look in.
        if ctx.op(op).parent.is_none() {
            return Ok(());
        }
        return Err(ctx.error(
            op,
            format!("'@{name}' does not reference a valid 'mem.global'"),
        ));
    };
    let Some(d) = ctx.dense_attr(global, "value") else {
        return Ok(());
    };
    if ctx.types.elem(d.ty) != ctx.types.elem(ty)
        || ctx.types.num_elements(d.ty) != ctx.types.num_elements(ty)
    {
        return Err(ctx.error(
            op,
            format!(
                "result type {} does not match the type {} of global '@{name}'",
                type_to_string(ctx, ty),
                type_to_string(ctx, d.ty)
            ),
        ));
    }
    Ok(())
}

/// Same element type and element count.
fn expect_compatible(ctx: &Context, op: OpId, a: Type, b: Type) -> Result<()> {
    if ctx.types.elem(a) != ctx.types.elem(b)
        || ctx.types.num_elements(a) != ctx.types.num_elements(b)
    {
        return Err(ctx.error(
            op,
            format!(
                "expects the same element type and element count, found {} and {}",
                type_to_string(ctx, a),
                type_to_string(ctx, b)
            ),
        ));
    }
    Ok(())
}

pub(crate) fn verify_copy(ctx: &Context, op: OpId) -> Result<()> {
    let src = ctx.value_ty(ctx.op(op).operands()[0]);
    let dst = ctx.value_ty(ctx.op(op).operands()[1]);
    expect_memref(ctx, op, src, "operand #0")?;
    expect_memref(ctx, op, dst, "operand #1")?;
    expect_compatible(ctx, op, src, dst)
}

/// `mem.offset %buf, %n`: the buffer starting `n` elements into `%buf`, of
/// the result's (no larger) type and the same element type. The offset is
/// a run-time value; producers guarantee that the result stays inside.
pub(crate) fn verify_offset(ctx: &Context, op: OpId) -> Result<()> {
    let src = ctx.value_ty(ctx.op(op).operands()[0]);
    let dst = ctx.value_ty(ctx.op(op).results[0]);
    expect_memref(ctx, op, src, "operand #0")?;
    expect_memref(ctx, op, dst, "result")?;
    if !matches!(
        ctx.types.kind(ctx.value_ty(ctx.op(op).operands()[1])),
        strata_ir::TypeKind::Index
    ) {
        return Err(ctx.error(op, "expects an index offset as operand #1"));
    }
    if ctx.types.elem(src) != ctx.types.elem(dst)
        || storage_bytes(ctx, dst) > storage_bytes(ctx, src)
    {
        return Err(ctx.error(
            op,
            format!(
                "expects a result of the operand's element type and at most its size, found {} and {}",
                type_to_string(ctx, src),
                type_to_string(ctx, dst)
            ),
        ));
    }
    Ok(())
}

pub(crate) fn verify_view(ctx: &Context, op: OpId) -> Result<()> {
    let src = ctx.value_ty(ctx.op(op).operands()[0]);
    let dst = ctx.value_ty(ctx.op(op).results[0]);
    expect_memref(ctx, op, src, "operand #0")?;
    expect_memref(ctx, op, dst, "result")?;
    // A view reinterprets the same bytes: any element type of the same
    // total size (buffer reuse hands a dead f32 buffer to an i32 value).
    if storage_bytes(ctx, src) != storage_bytes(ctx, dst) {
        return Err(ctx.error(
            op,
            format!(
                "expects a view of the same byte size, found {} ({} bytes) and {} ({} bytes)",
                type_to_string(ctx, src),
                storage_bytes(ctx, src),
                type_to_string(ctx, dst),
                storage_bytes(ctx, dst)
            ),
        ));
    }
    Ok(())
}

/// Bytes a memref occupies in the contract's memory representation.
pub fn storage_bytes(ctx: &Context, t: Type) -> i64 {
    ctx.types.storage_bytes(ctx.types.elem(t)) as i64 * ctx.types.num_elements(t)
}
