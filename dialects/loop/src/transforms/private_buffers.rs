//! `loop-private-buffers`: shrinks a heap buffer that one loop uses only
//! row by row to one row on the stack of each iteration.
//!
//! After `loop-fuse-parallel`, softmax's 4096x1024 intermediates are
//! written and read again within the iteration of their row; each
//! iteration needs only its own 1024 floats. A `mem.alloc` becomes a
//! `mem.alloca` of the buffer's shape without its first m dimensions, at
//! the top of the innermost of m nested loops, when
//! - it is allocated in the function's block and freed there by one
//!   `mem.dealloc`;
//! - every other use is an element access straight on the buffer, nested
//!   in all m loops (loops over `b` then `i`, say), whose first m indices
//!   are those loops' induction variables in order (`buf[b, i, ...]`);
//! - one row takes at most [`MAX_ROW_BYTES`].
//!
//! The accesses lose their first m indices; the allocation and its
//! deallocation go. The memory traffic of the intermediate disappears and
//! the heap allocation with it.

use std::collections::HashMap;

use strata_diag::Result;
use strata_dialect_mem as mem;
use strata_ir::builtin;
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
        for func in builtin::defined_funcs(ctx, module) {
            privatize_in_function(ctx, func);
        }
        Ok(())
    }
}

fn privatize_in_function(ctx: &mut Context, func: OpId) {
    let Some(block) = ctx.entry_block(func, 0) else {
        return;
    };
    let allocs: Vec<OpId> = ctx.blocks[block]
        .ops
        .iter()
        .copied()
        .filter(|&o| ctx.op(o).name == mem::ALLOC)
        .collect();
    // The allocations and deallocations that go, and the rows that come,
    // are removed and inserted all at once at the end: one at a time, each
    // would cost the length of the function's block (quadratic in a long
    // function: a chain of 100,000 element-wise ops spent 31 s here).
    let mut gone = Vec::new();
    let mut rows: HashMap<BlockId, Vec<OpId>> = HashMap::new();
    for alloc in allocs {
        let buf = ctx.op(alloc).results[0];
        let uses = ctx.users_in_scope(func, buf);
        if let Some((loops, free)) = private_to_loops(ctx, block, buf, &uses)
            && let Some((body, row)) = privatize(ctx, alloc, &loops, free, &uses)
        {
            rows.entry(body).or_default().push(row);
            gone.extend([free, alloc]);
        }
    }
    ctx.detach_ops(&gone);
    for (body, mut new_rows) in rows {
        // Each row goes to the top of its body, the latest first.
        new_rows.reverse();
        for &row in &new_rows {
            ctx.op_mut(row).parent = Some(body);
        }
        ctx.blocks[body].ops.splice(0..0, new_rows);
    }
}

/// The loops that enclose every use of `buf` (outermost first), each
/// indexing it by its own induction variable in order (`buf[b, i, ...]`
/// inside loops over `b` then `i`), and the buffer's deallocation, when
/// `buf` qualifies (see the module comment).
fn private_to_loops(
    ctx: &Context,
    block: BlockId,
    buf: Value,
    uses: &[OpId],
) -> Option<(Vec<OpId>, OpId)> {
    let shape = ctx.types.shape(ctx.value_ty(buf))?.to_vec();
    let mut free = None;
    let mut common: Option<Vec<OpId>> = None;
    let mut accesses = Vec::new();
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
        let chain = enclosing_loops(ctx, block, user)?;
        common = Some(match common {
            None => chain,
            Some(c) => c
                .iter()
                .zip(&chain)
                .take_while(|(a, b)| a == b)
                .map(|(a, _)| *a)
                .collect(),
        });
        accesses.push(indices.to_vec());
    }
    let loops = common?;
    let ivs: Vec<Value> = loops
        .iter()
        .map(|&l| ctx.entry_block(l, 0).map(|b| ctx.blocks[b].args[0]))
        .collect::<Option<_>>()?;
    let m = ivs.len();
    if m == 0
        || m > shape.len()
        || !accesses
            .iter()
            .all(|ix| ix.len() >= m && ix[..m] == ivs[..])
    {
        return None;
    }
    let rows: i64 = shape[..m].iter().product();
    let bytes = mem::storage_bytes(ctx, ctx.value_ty(buf));
    if rows <= 0 || bytes / rows > MAX_ROW_BYTES {
        return None;
    }
    Some((loops, free?))
}

/// The `loop.for` ops around `op` up to `block`, outermost first; None
/// when `op` is not inside `block` or a non-loop op encloses it there.
/// (A chain stops at the first op that is not a `loop.for`: uses deeper
/// inside an `if` still count, through the loops above it.)
fn enclosing_loops(ctx: &Context, block: BlockId, op: OpId) -> Option<Vec<OpId>> {
    let mut chain = Vec::new();
    let mut at = op;
    loop {
        let parent_block = ctx.op(at).parent?;
        if parent_block == block {
            break;
        }
        at = ctx.block_parent_op(parent_block)?;
        chain.push(at);
    }
    chain.reverse();
    let loops = chain
        .iter()
        .take_while(|&&o| ctx.op(o).name == FOR)
        .copied()
        .collect();
    Some(loops)
}

/// Makes a `mem.alloca` of one row (the buffer's shape without its first
/// `loops.len()` dimensions) to replace `alloc`, and has the accesses use
/// it, without those leading indices. Returns the innermost loop's body,
/// where the row belongs (at the top), and the row; the caller inserts it
/// and removes `alloc` and `free`.
fn privatize(
    ctx: &mut Context,
    alloc: OpId,
    loops: &[OpId],
    free: OpId,
    uses: &[OpId],
) -> Option<(BlockId, OpId)> {
    let body = loops.last().and_then(|&l| ctx.entry_block(l, 0))?;
    let m = loops.len();
    let buf = ctx.op(alloc).results[0];
    let ty = ctx.value_ty(buf);
    let row_shape = ctx
        .types
        .shape(ty)
        .map(|s| s[m..].to_vec())
        .unwrap_or_default();
    let elem = ctx.types.elem(ty);
    let row_ty = ctx.types.memref_ty(&row_shape, elem);
    let loc = ctx.op(alloc).loc;
    let row = ctx.create_op(mem::ALLOCA, vec![], &[row_ty], vec![], loc);
    let row_buf = ctx.op(row).results[0];
    for &user in uses {
        if user == free {
            continue;
        }
        let mut operands = ctx.op(user).operands().to_vec();
        while let Some(pos) = operands.iter().position(|&v| v == buf) {
            operands[pos] = row_buf;
            // The loops' indices follow the buffer operand.
            operands.drain(pos + 1..pos + 1 + m);
        }
        ctx.set_operands(user, operands);
    }
    Some((body, row))
}
