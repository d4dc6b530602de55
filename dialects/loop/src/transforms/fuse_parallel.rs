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
//! - the ops between them are constants, allocations and scalar code that
//!   does not touch what `A` writes (moved before `A`), and deallocations of
//!   buffers `B` does not use (moved after `B`).
//!
//! `B`'s body is appended to `A`'s (its induction variable replaced by
//! `A`'s) and `B` is erased. The fused loop is tried against the next one,
//! up to [`MAX_FUSED_LOOPS`] loops;
//! then the loops inside each op with regions (a parallel loop's body, a
//! `while` loop's, a conditional's arms) are fused the same way.

use strata_diag::Result;
use strata_ir::builtin;
use strata_ir::{BlockId, Context, OpId, Traits, Value};

use std::collections::HashMap;

use super::access::{BufferUse, buffer_root, buffer_uses, constant, move_body, only_local_effects};
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
///
/// The block's op list is rebuilt in one pass rather than edited in place:
/// removing or inserting an op in a block's `Vec` costs the length of the
/// block, and doing it for every fused loop made this pass quadratic (a
/// chain of 100,000 element-wise ops spent 370 s here).
fn fuse_in_block(ctx: &mut Context, block: BlockId) {
    let old = std::mem::take(&mut ctx.blocks[block].ops);
    let mut out = Vec::with_capacity(old.len());
    let mut i = 0;
    while i < old.len() {
        let first = old[i];
        i += 1;
        if !is_parallel_for(ctx, first) {
            out.push(first);
            continue;
        }
        // Constants and allocations from between the fused loops go before
        // `first` (into `out` right away), deallocations after it. The
        // deallocations moved so far stand between `first` and the next
        // candidate as far as `can_fuse` is concerned.
        let mut frees: Vec<OpId> = Vec::new();
        for _ in 1..MAX_FUSED_LOOPS {
            let Some((between, second)) = next_fusable(ctx, first, &frees, &old[i..]) else {
                break;
            };
            i += between.len() + 1;
            for op in between {
                if ctx.op(op).name == strata_dialect_mem::DEALLOC {
                    frees.push(op);
                } else {
                    out.push(op);
                }
            }
            fuse(ctx, first, second);
        }
        out.push(first);
        out.extend(frees);
    }
    ctx.blocks[block].ops = out;
    // Then inside every op with regions: a parallel loop's body, and the
    // bodies of `while` loops, conditionals and serial loops, where each
    // step of a `fori_loop` or `scan` has its own chains of loops.
    let view: &Context = ctx;
    let nested: Vec<BlockId> = view.blocks[block]
        .ops
        .iter()
        .flat_map(|&o| (0..view.op(o).regions.len()).filter_map(move |r| view.entry_block(o, r)))
        .collect();
    for body in nested {
        fuse_in_block(ctx, body);
    }
}

fn is_parallel_for(ctx: &Context, op: OpId) -> bool {
    ctx.op(op).name == FOR && is_parallel(ctx, op)
}

/// The ops between loop `first` and the next parallel loop among `rest`
/// (the ops that follow `first`), and that loop, when the two can fuse.
/// `moved_frees` are the deallocations earlier fusions moved right after
/// `first`: they stand between the two loops too.
fn next_fusable(
    ctx: &Context,
    first: OpId,
    moved_frees: &[OpId],
    rest: &[OpId],
) -> Option<(Vec<OpId>, OpId)> {
    let mut between = Vec::new();
    // How `first` uses buffers, computed when a load or store is met.
    let mut first_uses = None;
    for &op in rest {
        if is_parallel_for(ctx, op) {
            let all_between: Vec<OpId> = moved_frees.iter().chain(&between).copied().collect();
            return can_fuse(ctx, first, &all_between, op).then_some((between, op));
        }
        if !movable(ctx, op, first, &mut first_uses) {
            return None;
        }
        between.push(op);
    }
    None
}

/// Ops that may move across loop `first` (constants, allocations and
/// scalar code before it, deallocations after it):
/// - constants and allocations: no operands, nothing read;
/// - pure arith ops: their operands are defined before `first` (a loop
///   defines no values) or by ops moved with them;
/// - loads of buffers `first` does not write, stores into buffers it does
///   not use: the scalar code JAX's shape arithmetic leaves between loops
///   (layer norm's `N - ddof` stored into a 0-d buffer);
/// - deallocations.
fn movable(
    ctx: &Context,
    op: OpId,
    first: OpId,
    first_uses: &mut Option<HashMap<Value, BufferUse>>,
) -> bool {
    use strata_dialect_mem as mem;
    let o = ctx.op(op);
    if !o.regions.is_empty() {
        return false;
    }
    let mut uses_of = |buffer: Value| {
        let uses = first_uses.get_or_insert_with(|| buffer_uses(ctx, first));
        uses.get(&buffer_root(ctx, buffer)).copied()
    };
    match o.name {
        strata_dialect_arith::CONSTANT | mem::ALLOC => o.operands().is_empty(),
        mem::DEALLOC => true,
        mem::LOAD => !uses_of(o.operands()[0]).is_some_and(|u| u.written),
        mem::STORE => uses_of(o.operands()[1]).is_none(),
        name => name.starts_with("arith.") && ctx.registry.traits(name).has(Traits::PURE),
    }
}

fn same_bounds(ctx: &Context, a: OpId, b: OpId) -> bool {
    let (oa, ob) = (ctx.op(a).operands(), ctx.op(b).operands());
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
            || !b.contains_key(&super::access::buffer_root(ctx, ctx.op(op).operands()[0]))
    });
    shared_ok && frees_ok
}

/// Moves `second`'s body into `first`'s and erases `second` (the caller
/// leaves it out of the block's op list and places the ops that stood
/// between the two loops).
fn fuse(ctx: &mut Context, first: OpId, second: OpId) {
    ctx.op_mut(second).parent = None;
    let (Some(into), Some(from)) = (ctx.entry_block(first, 0), ctx.entry_block(second, 0)) else {
        return;
    };
    let (iv_into, iv_from) = (ctx.blocks[into].args[0], ctx.blocks[from].args[0]);
    ctx.replace_uses_in(second, iv_from, iv_into);
    move_body(ctx, from, into);
}
