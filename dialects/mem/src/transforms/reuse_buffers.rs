//! `mem-reuse-buffers`: gives a freed heap buffer to a later allocation of
//! the same size in the same block, instead of freeing it and allocating
//! again.
//!
//! Input: blocks in which every `mem.alloc` is freed by a `mem.dealloc` in
//! the same block after its last use (what `convert-xla-to-loop` emits).
//! Output: the same program with fewer `mem.alloc`/`mem.dealloc` pairs. An
//! allocation whose size (in bytes, `storage_bytes`) matches a buffer freed
//! earlier in the block takes that buffer (through a `mem.view` when the
//! types differ); the buffer's `mem.dealloc` moves to the end of the block
//! (before its terminator). Each block is handled on its own, so a loop
//! body never reuses the enclosing code's buffers, which stay live across
//! its iterations.

use std::collections::HashMap;

use strata_diag::Result;
use strata_ir::{BlockId, Context, OpId, Value};

use crate::buffer::storage_bytes;
use crate::{ALLOC, DEALLOC, VIEW};

pub const FLAG: &str = "mem-reuse-buffers";

pub struct MemReuseBuffersPass;

impl strata_pass::Pass for MemReuseBuffersPass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "reuse a freed buffer for a later allocation of the same size in the same block"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        let mut blocks = Vec::new();
        ctx.walk_nested(module, &mut |op| {
            for &r in &ctx.op(op).regions {
                blocks.extend(ctx.regions[r].blocks.iter().copied());
            }
        });
        for block in blocks {
            reuse_in_block(ctx, block);
        }
        Ok(())
    }
}

/// Reuses buffers within one block (not its nested regions).
fn reuse_in_block(ctx: &mut Context, block: BlockId) {
    // Heap buffers allocated in this block, by the value each use sees
    // (the alloc itself or a view of it) -> the allocation they belong to.
    let mut owner: HashMap<Value, Value> = HashMap::new();
    // Allocations freed so far and not yet taken again, with their sizes.
    let mut free: Vec<(Value, i64)> = Vec::new();
    // Allocations whose `mem.dealloc` was removed and must be freed at the end.
    let mut parked: Vec<Value> = Vec::new();
    // Removed allocations -> the buffer (or view) used instead; applied to
    // the uses in one walk at the end, so the pass stays linear.
    let mut replaced: HashMap<Value, Value> = HashMap::new();
    let ops = ctx.blocks[block].ops.clone();
    let scope = ctx.regions[ctx.blocks[block].parent.expect("block in a region")]
        .parent
        .expect("region of an op");
    for op in ops {
        match ctx.op(op).name {
            ALLOC => {
                let buf = ctx.op(op).results[0];
                let ty = ctx.value_ty(buf);
                let size = storage_bytes(ctx, ty);
                match free.iter().position(|&(_, s)| s == size) {
                    Some(i) => {
                        let (taken, _) = free.remove(i);
                        let reused = take_over(ctx, block, op, taken);
                        replaced.insert(buf, reused);
                        owner.insert(reused, taken);
                        owner.insert(buf, taken);
                        ctx.detach_op(op);
                    }
                    None => {
                        owner.insert(buf, buf);
                    }
                }
            }
            DEALLOC => {
                let freed = ctx.op(op).operands[0];
                if let Some(&alloc) = owner.get(&freed) {
                    let size = storage_bytes(ctx, ctx.value_ty(alloc));
                    free.push((alloc, size));
                    if !parked.contains(&alloc) {
                        parked.push(alloc);
                    }
                    ctx.detach_op(op);
                }
            }
            _ => {}
        }
    }
    replace_uses(ctx, scope, &replaced);
    // Every parked allocation is free again by now (each taker was freed in
    // turn), so it is released once, before the terminator.
    let ops = &ctx.blocks[block].ops;
    let end = match ops.last() {
        Some(&last)
            if ctx
                .registry
                .traits(ctx.op(last).name)
                .has(strata_ir::Traits::TERMINATOR) =>
        {
            ops.len() - 1
        }
        _ => ops.len(),
    };
    for (i, alloc) in parked.into_iter().enumerate() {
        let loc = ctx.op(ctx.defining_op(alloc).expect("an alloc")).loc;
        let dealloc = ctx.create_op(DEALLOC, vec![alloc], &[], vec![], loc);
        ctx.insert_op_at(block, end + i, dealloc);
    }
}

/// Rewrites every operand of the ops nested in `scope` found in `map`.
fn replace_uses(ctx: &mut Context, scope: OpId, map: &HashMap<Value, Value>) {
    if map.is_empty() {
        return;
    }
    let mut all = Vec::new();
    ctx.walk_nested(scope, &mut |o| all.push(o));
    for o in all {
        for v in ctx.op_mut(o).operands.iter_mut() {
            if let Some(&to) = map.get(v) {
                *v = to;
            }
        }
    }
}

/// The value that replaces allocation `op`: the freed buffer `taken`
/// itself, or a `mem.view` of it (inserted in place of `op`) when the
/// types differ.
fn take_over(ctx: &mut Context, block: BlockId, op: OpId, taken: Value) -> Value {
    let want = ctx.value_ty(ctx.op(op).results[0]);
    if ctx.value_ty(taken) == want {
        return taken;
    }
    let loc = ctx.op(op).loc;
    let view = ctx.create_op(VIEW, vec![taken], &[want], vec![], loc);
    let pos = ctx.blocks[block]
        .ops
        .iter()
        .position(|&o| o == op)
        .unwrap_or(0);
    ctx.insert_op_at(block, pos, view);
    ctx.op(view).results[0]
}
