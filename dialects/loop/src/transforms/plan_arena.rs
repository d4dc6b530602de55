//! `loop-plan-arena`: one memory plan per function. Every heap buffer a
//! function allocates (`mem.alloc`) becomes a slice of one arena at an
//! offset chosen by liveness, as XLA's buffer assignment packs a
//! computation's temporaries into one allocation.
//!
//! ```text
//! %a = mem.alloc : memref<4x16xf32>          %arena = mem.arena : memref<320xi8>
//! ... uses of %a ...                         %a = mem.slice %arena {offset = 0}
//! %b = mem.alloc : memref<4x4xf32>     ==>   ... uses of %a ...
//! ... uses of %b (after %a's last) ...      %b = mem.slice %arena {offset = 0}
//! mem.dealloc %a; mem.dealloc %b             ... uses of %b ...
//! func.return                                mem.arena_release %arena; func.return
//! ```
//!
//! Input: a function at the loop level (after `mem-reuse-buffers`, before
//! `loop-outline-parallel`). Output: the same function with its buffers in
//! its arena, and two attributes: `arena_bytes` (its own arena) and
//! `scratch_bytes` (its arena plus the largest of its callees' needs, since
//! a callee takes its arena on top of the caller's while it runs: what
//! `P_f_scratch_bytes()` returns).
//!
//! Liveness is counted in the function's top-level ops: a buffer lives
//! from the top-level op that contains its allocation to the one that
//! contains its last use (through views of it; its `mem.dealloc` does not
//! count). A buffer allocated inside a loop body takes its slot for the
//! whole loop and reuses it every iteration. A buffer allocated inside a
//! parallel loop stays on the heap: the loop's iterations run at once on
//! several threads and each needs its own. Placement is greedy in program
//! order: a buffer takes the best-fitting free range left by buffers whose
//! lives ended, or grows the arena; every slice is 64-byte aligned.

use std::collections::{BTreeMap, HashMap};

use strata_diag::Result;
use strata_dialect_mem as mem;
use strata_ir::builtin::{self, CALL, RETURN};
use strata_ir::{AttrKind, BlockId, Context, OpId, Value};

use super::access::callee;
use crate::{FOR, is_parallel};

pub const FLAG: &str = "loop-plan-arena";

/// Alignment of every slice (and of the arena).
const ALIGN: i64 = strata_abi::ARENA_ALIGN;

pub struct LoopPlanArenaPass;

impl strata_pass::Pass for LoopPlanArenaPass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "place every heap buffer of a function in one arena, by liveness"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        let funcs = builtin::defined_funcs(ctx, module);
        let mut totals: HashMap<String, i64> = HashMap::new();
        for f in callees_first(ctx, &funcs) {
            let own = plan_function(ctx, f);
            let callees = max_callee_total(ctx, f, &totals);
            let total = round_up(own) + callees;
            let i64t = ctx.types.int_ty(64);
            for (name, value) in [("arena_bytes", own), ("scratch_bytes", total)] {
                let a = ctx.attr(AttrKind::Int {
                    value: value as i128,
                    ty: i64t,
                });
                ctx.set_attr(f, name, a);
            }
            if let Some(name) = builtin::func_name(ctx, f) {
                tracing::info!(
                    function = name,
                    arena_bytes = own,
                    scratch_bytes = total,
                    "memory plan"
                );
                totals.insert(name.to_string(), total);
            }
        }
        Ok(())
    }
}

fn round_up(n: i64) -> i64 {
    (n + ALIGN - 1) / ALIGN * ALIGN
}

/// The defined functions, each after every function it calls (the call
/// graph is acyclic: the verifier refuses cycles).
fn callees_first(ctx: &Context, funcs: &[OpId]) -> Vec<OpId> {
    let by_name: HashMap<&str, OpId> = funcs
        .iter()
        .filter_map(|&f| Some((builtin::func_name(ctx, f)?, f)))
        .collect();
    let mut done: HashMap<OpId, bool> = HashMap::new();
    let mut order = Vec::new();
    for &root in funcs {
        // (function, its callees, next callee to visit)
        let mut stack: Vec<(OpId, Vec<OpId>, usize)> = Vec::new();
        if done.contains_key(&root) {
            continue;
        }
        done.insert(root, false);
        stack.push((root, callees(ctx, root, &by_name), 0));
        while let Some((f, calls, next)) = stack.last_mut() {
            if let Some(&g) = calls.get(*next) {
                *next += 1;
                if !done.contains_key(&g) {
                    done.insert(g, false);
                    let c = callees(ctx, g, &by_name);
                    stack.push((g, c, 0));
                }
            } else {
                let f = *f;
                done.insert(f, true);
                order.push(f);
                stack.pop();
            }
        }
    }
    order
}

fn callees(ctx: &Context, f: OpId, by_name: &HashMap<&str, OpId>) -> Vec<OpId> {
    let mut out = Vec::new();
    ctx.walk_nested(f, &mut |op| {
        if ctx.op(op).name == CALL
            && let Some(name) = callee(ctx, op)
            && let Some(&g) = by_name.get(name)
        {
            out.push(g);
        }
    });
    out
}

fn max_callee_total(ctx: &Context, f: OpId, totals: &HashMap<String, i64>) -> i64 {
    let mut most = 0;
    ctx.walk_nested(f, &mut |op| {
        if ctx.op(op).name == CALL
            && let Some(t) = callee(ctx, op).and_then(|c| totals.get(c))
        {
            most = most.max(*t);
        }
    });
    most
}

/// One buffer to place.
struct Buffer {
    alloc: OpId,
    bytes: i64,
    /// Top-level op indices of its life, inclusive.
    start: usize,
    end: usize,
}

/// Places `f`'s buffers in one arena and rewrites `f`; returns the
/// arena's size (0 when `f` allocates nothing it can place).
fn plan_function(ctx: &mut Context, f: OpId) -> i64 {
    let Some(entry) = ctx.entry_block(f, 0) else {
        return 0;
    };
    let buffers = collect(ctx, entry);
    if buffers.is_empty() {
        return 0;
    }
    let (offsets, size) = place(&buffers);
    rewrite(ctx, f, entry, &buffers, &offsets, size);
    size
}

/// The buffers of `entry`'s ops that may go into the arena, with their
/// lives, in allocation order.
fn collect(ctx: &Context, entry: BlockId) -> Vec<Buffer> {
    let mut buffers: Vec<Buffer> = Vec::new();
    // Each value that is (a view of) a placeable buffer -> its index.
    let mut owner: HashMap<Value, usize> = HashMap::new();
    for (i, &top) in ctx.blocks[entry].ops.iter().enumerate() {
        let mut visit = |op: OpId, parallel: bool, owner: &mut HashMap<Value, usize>| {
            let o = ctx.op(op);
            if o.name == mem::ALLOC && !parallel {
                owner.insert(o.results[0], buffers.len());
                buffers.push(Buffer {
                    alloc: op,
                    bytes: mem::storage_bytes(ctx, ctx.value_ty(o.results[0])).max(1),
                    start: i,
                    end: i,
                });
                return;
            }
            if o.name == mem::DEALLOC {
                return;
            }
            for v in o.operands() {
                if let Some(&b) = owner.get(v) {
                    buffers[b].end = i;
                }
            }
            if matches!(o.name, mem::VIEW | mem::OFFSET)
                && let Some(&b) = o.operands().first().and_then(|v| owner.get(v))
            {
                owner.insert(o.results[0], b);
            }
        };
        walk(ctx, top, false, &mut |op, parallel| {
            visit(op, parallel, &mut owner)
        });
    }
    buffers
}

/// Calls `f(op, inside_a_parallel_loop)` for `op` and every op nested in
/// it, in program order.
fn walk(ctx: &Context, op: OpId, parallel: bool, f: &mut dyn FnMut(OpId, bool)) {
    let mut stack = vec![(op, parallel)];
    while let Some((op, parallel)) = stack.pop() {
        f(op, parallel);
        let inner = parallel || (ctx.op(op).name == FOR && is_parallel(ctx, op));
        let mut nested = Vec::new();
        for &r in &ctx.op(op).regions {
            for &b in &ctx.regions[r].blocks {
                nested.extend(ctx.blocks[b].ops.iter().map(|&o| (o, inner)));
            }
        }
        stack.extend(nested.into_iter().rev());
    }
}

/// Offsets of `buffers` (in their order) and the arena's size: greedy in
/// program order, each buffer taking the smallest free range that holds
/// it, among those left by buffers whose lives ended.
fn place(buffers: &[Buffer]) -> (Vec<i64>, i64) {
    let mut order: Vec<usize> = (0..buffers.len()).collect();
    order.sort_by_key(|&i| (buffers[i].start, std::cmp::Reverse(buffers[i].bytes)));
    let mut offsets = vec![0i64; buffers.len()];
    // Free ranges by offset -> length; live buffers by end -> (offset, len).
    let mut free: BTreeMap<i64, i64> = BTreeMap::new();
    let mut live: BTreeMap<(usize, usize), (i64, i64)> = BTreeMap::new();
    let mut size = 0i64;
    for i in order {
        let b = &buffers[i];
        // Lives that ended before this one starts give their ranges back.
        while let Some((&(end, j), &(off, len))) = live.iter().next() {
            if end >= b.start {
                break;
            }
            live.remove(&(end, j));
            release(&mut free, off, len);
        }
        let len = round_up(b.bytes);
        let best = free
            .iter()
            .filter(|&(_, &l)| l >= len)
            .min_by_key(|&(&o, &l)| (l, o))
            .map(|(&o, &l)| (o, l));
        let off = match best {
            Some((o, l)) => {
                free.remove(&o);
                if l > len {
                    free.insert(o + len, l - len);
                }
                o
            }
            None => {
                // Grow the arena, absorbing a free range at its end.
                let mut o = size;
                if let Some((&last, &l)) = free.iter().next_back()
                    && last + l == size
                {
                    free.remove(&last);
                    o = last;
                }
                size = o + len;
                o
            }
        };
        offsets[i] = off;
        live.insert((b.end, i), (off, len));
    }
    (offsets, size)
}

/// Returns `[off, off + len)` to the free ranges, merging neighbours.
fn release(free: &mut BTreeMap<i64, i64>, mut off: i64, mut len: i64) {
    if let Some((&o, &l)) = free.range(..off).next_back()
        && o + l == off
    {
        free.remove(&o);
        off = o;
        len += l;
    }
    if let Some(&l) = free.get(&(off + len)) {
        free.remove(&(off + len));
        len += l;
    }
    free.insert(off, len);
}

/// Replaces the buffers' allocations by slices of the arena, drops their
/// deallocations, and gives the arena back before every return.
fn rewrite(
    ctx: &mut Context,
    f: OpId,
    entry: BlockId,
    buffers: &[Buffer],
    offsets: &[i64],
    size: i64,
) {
    let loc = ctx.op(f).loc;
    let i8t = ctx.types.int_ty(8);
    let arena_ty = ctx.types.memref_ty(&[size], i8t);
    let arena_op = ctx.create_op(mem::ARENA, vec![], &[arena_ty], vec![], loc);
    let arena = ctx.op(arena_op).results[0];
    // Allocation -> its slice; allocation result -> the slice's.
    let mut slices: HashMap<OpId, OpId> = HashMap::new();
    let mut placed: HashMap<Value, Value> = HashMap::new();
    let i64t = ctx.types.int_ty(64);
    for (b, &off) in buffers.iter().zip(offsets) {
        let ty = ctx.value_ty(ctx.op(b.alloc).results[0]);
        let offset = ctx.attr(AttrKind::Int {
            value: off as i128,
            ty: i64t,
        });
        let loc = ctx.op(b.alloc).loc;
        let slice = ctx.create_op(
            mem::SLICE,
            vec![arena],
            &[ty],
            vec![("offset".into(), offset)],
            loc,
        );
        slices.insert(b.alloc, slice);
        placed.insert(ctx.op(b.alloc).results[0], ctx.op(slice).results[0]);
    }
    // The placed buffers' values, their views included: their deallocations go.
    let mut owned: std::collections::HashSet<Value> = placed.keys().copied().collect();
    ctx.walk_nested(f, &mut |op| {
        let o = ctx.op(op);
        if matches!(o.name, mem::VIEW | mem::OFFSET)
            && o.operands().first().is_some_and(|v| owned.contains(v))
        {
            owned.insert(o.results[0]);
        }
    });
    // Rebuild every block that holds one of the ops to change, in one pass
    // per block (inserting one op at a time would be quadratic).
    let mut blocks: Vec<BlockId> = vec![entry];
    ctx.walk_nested(f, &mut |op| {
        for &r in &ctx.op(op).regions {
            blocks.extend(ctx.regions[r].blocks.iter().copied());
        }
    });
    blocks.sort();
    blocks.dedup();
    for block in blocks {
        let old = std::mem::take(&mut ctx.blocks[block].ops);
        let mut new = Vec::with_capacity(old.len() + 2);
        if block == entry {
            new.push(arena_op);
        }
        for op in old {
            let name = ctx.op(op).name;
            if let Some(&slice) = slices.get(&op) {
                ctx.op_mut(op).parent = None;
                new.push(slice);
                continue;
            }
            if name == mem::DEALLOC
                && ctx
                    .op(op)
                    .operands()
                    .first()
                    .is_some_and(|v| owned.contains(v))
            {
                ctx.op_mut(op).parent = None;
                continue;
            }
            if name == RETURN && builtin::enclosing_func(ctx, op) == Some(f) {
                let release = ctx.create_op(mem::ARENA_RELEASE, vec![arena], &[], vec![], loc);
                new.push(release);
            }
            new.push(op);
        }
        for &op in &new {
            ctx.op_mut(op).parent = Some(block);
        }
        ctx.blocks[block].ops = new;
    }
    // The allocations' uses read their slices.
    let mut uses: Vec<OpId> = Vec::new();
    ctx.walk_nested(f, &mut |op| uses.push(op));
    for op in uses {
        ctx.map_operands(op, &mut |v| *placed.get(&v).unwrap_or(&v));
    }
}
