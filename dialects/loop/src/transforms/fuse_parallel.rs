//! `loop-fuse-parallel`: fuses neighbouring `loop.for {parallel}` loops with
//! the same bounds when the second one reads (or writes) what the first one
//! wrote only row by row, so one pass over the rows does the work of both.
//!
//! Softmax lowers to five loops over the same 4096 rows (max, max with
//! -inf, exp, sum, divide) that each stream a 4096x1024 buffer through the
//! caches; fused, row `i` of every intermediate is written and read again
//! while it is still in L1, and `loop-private-buffers` can then shrink the
//! intermediates to one row.
//!
//! Two loops `A` then `B` in one block fuse when
//! - both are parallel, with the same constant (or identical) bounds;
//! - one writes a buffer the other uses (loops that share nothing gain
//!   nothing, and a body with a libm call would stop the other's
//!   vectorization);
//! - neither body has an op outside the arith, mem and loop dialects;
//! - every buffer that one of them writes and the other one uses is
//!   accessed by both only with the loop's own induction variable at one
//!   and the same index position (`buffer[iv, ...]`, or `buffer[b, iv, ...]`
//!   inside a loop over `b`): iteration `i` of either touches only elements
//!   whose index there is `i`, so iteration `i` of `B` needs only
//!   iteration `i` of `A`, and iterations stay independent;
//! - the ops between them are constants and allocations (moved before `A`)
//!   and deallocations of buffers `B` does not use (moved after `B`).
//!
//! `B`'s body is appended to `A`'s (its induction variable replaced by
//! `A`'s) and `B` is erased. The fused loop is tried against the next one,
//! up to [`MAX_FUSED_LOOPS`] loops;
//! then the loops inside each parallel loop's body are fused the same way.

use strata_diag::Result;
use strata_ir::builtin;
use strata_ir::{BlockId, Context, OpId, Traits};

use super::access::{buffer_uses, constant, only_local_effects};
use crate::{FOR, is_parallel};

pub const FLAG: &str = "loop-fuse-parallel";

/// Loops fused into one at most. Softmax and layer norm need 5 to 8; a
/// long chain of element-wise ops would otherwise become one loop whose
/// body LLVM optimises in superlinear time (a chain of 2,000 multi-use
/// ops took 39 s to compile instead of 2), and whose analysis here is
/// repeated for every loop added.
const MAX_FUSED_LOOPS: usize = 16;

pub struct LoopFuseParallelPass;

impl strata_pass::Pass for LoopFuseParallelPass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "fuse neighbouring parallel loops with the same bounds that share buffers only row by row"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        for func in builtin::defined_funcs(ctx, module) {
            if let Some(block) = ctx.entry_block(func, 0) {
                fuse_in_block(ctx, block);
            }
        }
        Ok(())
    }
}

/// Fuses the runs of fusable parallel loops among `block`'s ops, then the
/// runs inside each parallel loop's body (the rows of a batch of matrices:
/// a loop over heads whose body has loops over rows).
fn fuse_in_block(ctx: &mut Context, block: BlockId) {
    let mut i = 0;
    while i < ctx.blocks[block].ops.len() {
        let first = ctx.blocks[block].ops[i];
        if !is_parallel_for(ctx, first) {
            i += 1;
            continue;
        }
        // Constants and allocations moved before `first` shift it: it is
        // found again by identity.
        for _ in 1..MAX_FUSED_LOOPS {
            let at = position(ctx, block, first);
            let Some((between, second)) = next_fusable(ctx, block, at) else {
                break;
            };
            fuse(ctx, block, first, &between, second);
        }
        i = position(ctx, block, first) + 1;
    }
    let loops: Vec<OpId> = ctx.blocks[block]
        .ops
        .iter()
        .copied()
        .filter(|&o| is_parallel_for(ctx, o))
        .collect();
    for lp in loops {
        if let Some(body) = ctx.entry_block(lp, 0) {
            fuse_in_block(ctx, body);
        }
    }
}

fn is_parallel_for(ctx: &Context, op: OpId) -> bool {
    ctx.op(op).name == FOR && is_parallel(ctx, op)
}

/// The ops between the loop at `at` and the next parallel loop, and that
/// loop, when the two can fuse.
fn next_fusable(ctx: &Context, block: BlockId, at: usize) -> Option<(Vec<OpId>, OpId)> {
    let ops = &ctx.blocks[block].ops;
    let first = ops[at];
    let mut between = Vec::new();
    for &op in &ops[at + 1..] {
        if is_parallel_for(ctx, op) {
            return can_fuse(ctx, first, &between, op).then_some((between, op));
        }
        if !movable(ctx, op) {
            return None;
        }
        between.push(op);
    }
    None
}

/// Ops that may move across a loop: constants and allocations (no
/// operands, nothing read) and deallocations.
fn movable(ctx: &Context, op: OpId) -> bool {
    use strata_dialect_mem as mem;
    let o = ctx.op(op);
    match o.name {
        strata_dialect_arith::CONSTANT | mem::ALLOC => {
            o.operands.is_empty() && o.regions.is_empty()
        }
        mem::DEALLOC => true,
        _ => false,
    }
}

fn same_bounds(ctx: &Context, a: OpId, b: OpId) -> bool {
    let (oa, ob) = (&ctx.op(a).operands, &ctx.op(b).operands);
    oa.iter().zip(ob.iter()).all(|(&x, &y)| {
        x == y || matches!((constant(ctx, x), constant(ctx, y)), (Some(p), Some(q)) if p == q)
    })
}

fn can_fuse(ctx: &Context, first: OpId, between: &[OpId], second: OpId) -> bool {
    if !same_bounds(ctx, first, second)
        || !only_local_effects(ctx, first)
        || !only_local_effects(ctx, second)
    {
        return false;
    }
    let (a, b) = (buffer_uses(ctx, first), buffer_uses(ctx, second));
    // Buffers one loop writes and the other uses: the reason to fuse
    // (independent loops stay apart, each as the vectorizer likes it), and
    // safe only row by row.
    let mut communicating = a
        .iter()
        .filter_map(|(buf, ua)| b.get(buf).map(|ub| (ua, ub)))
        .filter(|(ua, ub)| ua.written || ub.written)
        .peekable();
    if communicating.peek().is_none() {
        return false;
    }
    let shared_ok = communicating.all(|(ua, ub)| ua.same_rows(ub));
    // A buffer freed between the loops must not be one the second uses
    // (it cannot be in valid input; checked so moving the free is safe).
    let frees_ok = between.iter().all(|&op| {
        ctx.op(op).name != strata_dialect_mem::DEALLOC
            || !b.contains_key(&super::access::buffer_root(ctx, ctx.op(op).operands[0]))
    });
    shared_ok && frees_ok
}

/// Moves `second`'s body into `first`'s and erases `second`; constants and
/// allocations in `between` go before `first`, deallocations after it.
fn fuse(ctx: &mut Context, block: BlockId, first: OpId, between: &[OpId], second: OpId) {
    let (frees, defs): (Vec<OpId>, Vec<OpId>) = between
        .iter()
        .partition(|&&op| ctx.op(op).name == strata_dialect_mem::DEALLOC);
    for op in defs {
        ctx.detach_op(op);
        let at = position(ctx, block, first);
        ctx.insert_op_at(block, at, op);
    }
    for (k, op) in frees.into_iter().enumerate() {
        ctx.detach_op(op);
        let at = position(ctx, block, first);
        ctx.insert_op_at(block, at + 1 + k, op);
    }
    let (Some(into), Some(from)) = (ctx.entry_block(first, 0), ctx.entry_block(second, 0)) else {
        return;
    };
    let (iv_into, iv_from) = (ctx.blocks[into].args[0], ctx.blocks[from].args[0]);
    ctx.replace_uses_in(second, iv_from, iv_into);
    let moved: Vec<OpId> = ctx.blocks[from]
        .ops
        .iter()
        .copied()
        .filter(|&o| !ctx.registry.traits(ctx.op(o).name).has(Traits::TERMINATOR))
        .collect();
    let mut at = terminator_position(ctx, into);
    for op in moved {
        ctx.detach_op(op);
        ctx.insert_op_at(into, at, op);
        at += 1;
    }
    ctx.detach_op(second);
}

fn position(ctx: &Context, block: BlockId, op: OpId) -> usize {
    ctx.blocks[block]
        .ops
        .iter()
        .position(|&o| o == op)
        .unwrap_or(ctx.blocks[block].ops.len())
}

/// Where ops go to be appended to `block` before its terminator.
fn terminator_position(ctx: &Context, block: BlockId) -> usize {
    let ops = &ctx.blocks[block].ops;
    match ops.last() {
        Some(&last)
            if ctx
                .registry
                .traits(ctx.op(last).name)
                .has(Traits::TERMINATOR) =>
        {
            ops.len() - 1
        }
        _ => ops.len(),
    }
}
