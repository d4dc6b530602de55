//! `loop-private-buffers`: shrinks a heap buffer that one loop uses only
//! row by row to one row on the stack of each iteration.
//!
//! After `loop-fuse-parallel`, softmax's 4096x1024 intermediates are
//! written and read again within the iteration of their row; each
//! iteration needs only its own 1024 floats. A `mem.alloc` becomes a
//! `mem.alloca` of the buffer's shape without its first dimension, at the
//! top of the loop's body, when
//! - it is allocated in the same block as the loop and freed there by one
//!   `mem.dealloc` after it;
//! - every other use is an element access nested in that loop, straight on
//!   the buffer, with the loop's induction variable as the first index;
//! - one row takes at most [`MAX_ROW_BYTES`].
//!
//! The accesses lose their first index; the allocation and its
//! deallocation go. The memory traffic of the intermediate disappears and
//! the heap allocation with it.

use std::collections::HashMap;

use strata_diag::Result;
use strata_dialect_mem as mem;
use strata_ir::builtin::FUNC;
use strata_ir::{BlockId, Context, OpId, Value};

use super::access::element_access;
use crate::FOR;

pub const FLAG: &str = "loop-private-buffers";

/// Largest row kept on the stack. Loop bodies run on the thread pool's
/// workers, whose stacks are 2 MiB (the Rust default rayon keeps); allocas
/// are hoisted to the function's entry, so several rows add up.
pub const MAX_ROW_BYTES: i64 = 16 * 1024;

pub struct LoopPrivateBuffersPass;

impl strata_pass::Pass for LoopPrivateBuffersPass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "shrink a buffer one loop uses only row by row to one row per iteration on the stack"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        let Some(body) = ctx.entry_block(module, 0) else {
            return Ok(());
        };
        let funcs: Vec<OpId> = ctx.blocks[body]
            .ops
            .iter()
            .copied()
            .filter(|&o| ctx.op(o).name == FUNC)
            .collect();
        for func in funcs {
            privatize_in_function(ctx, func);
        }
        Ok(())
    }
}

/// Every op using each value, over the whole function.
fn users(ctx: &Context, func: OpId) -> HashMap<Value, Vec<OpId>> {
    let mut map: HashMap<Value, Vec<OpId>> = HashMap::new();
    ctx.walk_nested(func, &mut |o| {
        for &v in &ctx.op(o).operands {
            map.entry(v).or_default().push(o);
        }
    });
    map
}

fn privatize_in_function(ctx: &mut Context, func: OpId) {
    let Some(block) = ctx.entry_block(func, 0) else {
        return;
    };
    let users = users(ctx, func);
    let allocs: Vec<OpId> = ctx.blocks[block]
        .ops
        .iter()
        .copied()
        .filter(|&o| ctx.op(o).name == mem::ALLOC)
        .collect();
    for alloc in allocs {
        let buf = ctx.op(alloc).results[0];
        let Some(uses) = users.get(&buf) else {
            continue;
        };
        if let Some((lp, free)) = private_to_one_loop(ctx, block, buf, uses) {
            privatize(ctx, alloc, lp, free, uses);
        }
    }
}

/// The loop that alone uses `buf`, row by row, and the buffer's
/// deallocation, when `buf` qualifies (see the module comment).
fn private_to_one_loop(
    ctx: &Context,
    block: BlockId,
    buf: Value,
    uses: &[OpId],
) -> Option<(OpId, OpId)> {
    let shape = ctx.shape(ctx.value_ty(buf))?;
    let (&rows, _) = shape.split_first()?;
    let bytes = mem::storage_bytes(ctx, ctx.value_ty(buf));
    if rows <= 0 || bytes / rows > MAX_ROW_BYTES {
        return None;
    }
    let mut free = None;
    let mut the_loop = None;
    for &user in uses {
        if ctx.op(user).name == mem::DEALLOC {
            if free.is_some() || ctx.op(user).parent != Some(block) {
                return None;
            }
            free = Some(user);
            continue;
        }
        let (target, indices, _) = element_access(ctx, user)?;
        if target != buf {
            return None;
        }
        let lp = top_level_ancestor(ctx, block, user)?;
        if ctx.op(lp).name != FOR || the_loop.is_some_and(|l| l != lp) {
            return None;
        }
        let iv = ctx.entry_block(lp, 0).map(|b| ctx.blocks[b].args[0]);
        if indices.first().copied() != iv {
            return None;
        }
        the_loop = Some(lp);
    }
    Some((the_loop?, free?))
}

/// The op of `block` that (transitively) contains `op`.
fn top_level_ancestor(ctx: &Context, block: BlockId, mut op: OpId) -> Option<OpId> {
    loop {
        let parent_block = ctx.op(op).parent?;
        if parent_block == block {
            return Some(op);
        }
        op = ctx.block_parent_op(parent_block)?;
    }
}

/// Replaces `alloc` with a one-row `mem.alloca` at the top of `lp`'s body.
fn privatize(ctx: &mut Context, alloc: OpId, lp: OpId, free: OpId, uses: &[OpId]) {
    let Some(body) = ctx.entry_block(lp, 0) else {
        return;
    };
    let buf = ctx.op(alloc).results[0];
    let ty = ctx.value_ty(buf);
    let row_shape = ctx.shape(ty).map(|s| s[1..].to_vec()).unwrap_or_default();
    let elem = ctx.elem(ty);
    let row_ty = ctx.memref_ty(&row_shape, elem);
    let loc = ctx.op(alloc).loc;
    let row = ctx.create_op(mem::ALLOCA, vec![], &[row_ty], vec![], loc);
    ctx.insert_op_at(body, 0, row);
    let row_buf = ctx.op(row).results[0];
    for &user in uses {
        if user == free {
            continue;
        }
        let operands = &mut ctx.op_mut(user).operands;
        let Some(pos) = operands.iter().position(|&v| v == buf) else {
            continue;
        };
        operands[pos] = row_buf;
        // The first index follows the buffer operand.
        operands.remove(pos + 1);
    }
    ctx.detach_op(free);
    ctx.detach_op(alloc);
}
