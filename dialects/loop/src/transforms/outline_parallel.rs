//! `loop-outline-parallel`: moves each outermost `loop.for {parallel}` of a
//! function into a private function and replaces it with a `loop.dispatch`
//! that runs that function over chunks of the loop's range on the runtime's
//! thread pool (MLIR's `async-parallel-for` outlines the same way).
//!
//! Input: loops marked `parallel` by the lowering, whose iterations write
//! disjoint elements. Output, for a loop in `@f`:
//! ```text
//! "loop.dispatch"(%lb, %ub, %step, %captures...) {callee = @f__parallel0, cost = N}
//! func.func private @f__parallel0(%begin: index, %end: index, %captures...) {
//!   "loop.for"(%begin, %end, %step) ({ ...the body... })
//!   func.return
//! }
//! ```
//! Captures are the values the body uses that are defined outside it;
//! constants are copied into the new function instead. `cost` estimates the
//! operations of one iteration (inner loops multiplied by their constant
//! trip counts). Loops whose whole work is known to be below
//! `strata_abi::PARALLEL_MIN_WORK` stay as they are, except in functions
//! with more than [`LARGE_FUNCTION_LOOPS`] parallel nests, where outlining
//! also keeps each LLVM function small.
//!
//! In a chain of perfectly nested parallel loops, the first one with at
//! least [`MIN_TRIP`] iterations is outlined, so a `1x4096x1024` nest is
//! split over its 4096 rows. A loop is left serial (and logged) when its
//! body could do something a concurrent chunk must not: call a function
//! (but the runtime's kernels that write only their result, into a view at
//! an offset of the induction variable:
//! `strata_abi::runtime::KERNELS_WRITING_LAST`), free or copy into a buffer
//! it did not allocate, or store into one at indices that do not depend on
//! the loop's induction variable (a shared accumulator).

use std::collections::{HashMap, HashSet};

use strata_diag::Result;
use strata_ir::builtin::{self, CALL, FUNC, RETURN};
use strata_ir::{AttrKind, BlockId, Context, OpId, Value, ValueDef};

use super::access::{buffer_root, constant, kernel_call_result, only_local_effects_or};
use crate::{DISPATCH, FOR, IF, WHILE, YIELD, is_parallel};

pub const FLAG: &str = "loop-outline-parallel";

/// Trip count from which a parallel loop is split rather than one nested in it.
pub const MIN_TRIP: i64 = 16;
/// Parallel loop nests in a function beyond which every one is outlined,
/// small or not: LLVM's optimisation time grows faster than linearly with
/// the size of a function (a chain of 1,000 materialized 64x64 element-wise
/// ops took 10 s as one function, 5.5 s as 1,000; 3,000 ops 212 s against
/// 21 s), and the runtime runs a small chunk on the caller anyway.
const LARGE_FUNCTION_LOOPS: usize = 32;
/// Iterations assumed for a loop or while whose trip count is not a
/// constant. Large on purpose: misjudging a big loop as small leaves a core
/// idle for its whole length (the merges of the last passes of a sort of
/// 2^20 elements ran serially at 16), misjudging a small one costs only
/// waking the pool.
const UNKNOWN_TRIP: u64 = 4096;

pub struct LoopOutlineParallelPass;

impl strata_pass::Pass for LoopOutlineParallelPass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "move parallel loops into functions run over chunks on the thread pool (loop.dispatch)"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        let Some(module_block) = ctx.entry_block(module, 0) else {
            return Ok(());
        };
        // Outlining edits block op lists in batches (one pass over each
        // block concerned, at the end) and keeps the function names in a
        // set: one loop at a time, finding a loop's place, the new
        // function's place and a free name each cost the length of a block,
        // which made the pass quadratic (a chain of 100,000 element-wise
        // ops spent 4.5 s here).
        let mut names: HashSet<String> = ctx.blocks[module_block]
            .ops
            .iter()
            .filter(|&&o| ctx.op(o).name == FUNC)
            .filter_map(|&o| builtin::func_name(ctx, o).map(str::to_string))
            .collect();
        let mut new_funcs: HashMap<OpId, Vec<OpId>> = HashMap::new();
        for func in builtin::defined_funcs(ctx, module) {
            let mut loops = Vec::new();
            collect_outermost(ctx, func, &mut loops);
            let large = loops.len() > LARGE_FUNCTION_LOOPS;
            // Each outlined loop's block -> (loop -> its dispatch).
            let mut dispatches: HashMap<BlockId, HashMap<OpId, OpId>> = HashMap::new();
            for (k, lp) in loops.into_iter().enumerate() {
                let chosen = descend(ctx, lp);
                if !large && known_small(ctx, chosen) {
                    continue;
                }
                if let Err(why) = check_independent(ctx, chosen) {
                    tracing::debug!(reason = why, "parallel loop left serial");
                    continue;
                }
                let parent = ctx.op(chosen).parent;
                let (new_func, dispatch) = outline(ctx, &mut names, func, chosen, k);
                new_funcs.entry(func).or_default().push(new_func);
                if let Some(pb) = parent {
                    dispatches.entry(pb).or_default().insert(chosen, dispatch);
                }
            }
            for (block, swaps) in dispatches {
                let ops = std::mem::take(&mut ctx.blocks[block].ops);
                let ops = ops
                    .into_iter()
                    .map(|o| swaps.get(&o).copied().unwrap_or(o))
                    .collect();
                ctx.blocks[block].ops = ops;
                for &dispatch in swaps.values() {
                    ctx.op_mut(dispatch).parent = Some(block);
                }
            }
        }
        // Each new function right after the one it came from, the latest
        // first.
        let ops = std::mem::take(&mut ctx.blocks[module_block].ops);
        let mut placed = Vec::with_capacity(ops.len());
        for op in ops {
            placed.push(op);
            if let Some(funcs) = new_funcs.remove(&op) {
                for &f in funcs.iter().rev() {
                    ctx.op_mut(f).parent = Some(module_block);
                    placed.push(f);
                }
            }
        }
        ctx.blocks[module_block].ops = placed;
        Ok(())
    }
}

/// The outermost parallel loops nested in `op`.
fn collect_outermost(ctx: &Context, op: OpId, out: &mut Vec<OpId>) {
    for &r in &ctx.op(op).regions {
        for &b in &ctx.regions[r].blocks {
            for &o in &ctx.blocks[b].ops {
                if ctx.op(o).name == FOR && is_parallel(ctx, o) {
                    out.push(o);
                } else {
                    collect_outermost(ctx, o, out);
                }
            }
        }
    }
}

/// Iterations of a `loop.for` with constant bounds.
fn trip_count(ctx: &Context, lp: OpId) -> Option<i64> {
    let o = ctx.op(lp);
    let (lb, ub, step) = (
        constant(ctx, o.operands()[0])?,
        constant(ctx, o.operands()[1])?,
        constant(ctx, o.operands()[2])?,
    );
    if step <= 0 {
        return None;
    }
    let span = ub.checked_sub(lb)?;
    Some(if span > 0 { (span - 1) / step + 1 } else { 0 })
}

/// The loop of a parallel nest to split: `lp`, or the first loop with at
/// least [`MIN_TRIP`] iterations down a chain of perfectly nested parallel
/// loops (the last one when none has that many).
fn descend(ctx: &Context, lp: OpId) -> OpId {
    let mut cur = lp;
    loop {
        if trip_count(ctx, cur).is_none_or(|t| t >= MIN_TRIP) {
            return cur;
        }
        let Some(body) = ctx.entry_block(cur, 0) else {
            return cur;
        };
        // Constants before the inner loop (its bounds) do not break the
        // chain: the outlined function gets copies of them.
        let ops: Vec<OpId> = ctx.blocks[body]
            .ops
            .iter()
            .copied()
            .filter(|&o| ctx.op(o).name != strata_dialect_arith::CONSTANT)
            .collect();
        match ops.as_slice() {
            [inner, last]
                if ctx.op(*inner).name == FOR
                    && is_parallel(ctx, *inner)
                    && ctx.op(*last).name == YIELD =>
            {
                cur = *inner
            }
            _ => return cur,
        }
    }
}

/// Whether the loop's whole work is known and too small to be worth
/// splitting (see `strata_abi::PARALLEL_MIN_WORK`).
fn known_small(ctx: &Context, lp: OpId) -> bool {
    let Some(trips) = trip_count(ctx, lp) else {
        return false;
    };
    let per_iteration = ctx.entry_block(lp, 0).map_or(1, |b| block_cost(ctx, b));
    (trips.max(0) as u64).saturating_mul(per_iteration) < strata_abi::PARALLEL_MIN_WORK
}

/// Estimated operations of one run of `block` (nested loops multiplied by
/// their trip counts).
fn block_cost(ctx: &Context, block: BlockId) -> u64 {
    ctx.blocks[block]
        .ops
        .iter()
        .map(|&o| op_cost(ctx, o))
        .fold(0u64, u64::saturating_add)
}

fn op_cost(ctx: &Context, op: OpId) -> u64 {
    let region = |i| ctx.entry_block(op, i).map_or(0, |b| block_cost(ctx, b));
    match ctx.op(op).name {
        FOR => {
            let trips = trip_count(ctx, op).map_or(UNKNOWN_TRIP, |t| t.max(0) as u64);
            trips.saturating_mul(region(0).saturating_add(1))
        }
        IF => region(0).max(region(1)).saturating_add(1),
        WHILE => UNKNOWN_TRIP.saturating_mul(region(0).saturating_add(region(1))),
        name if FUNCTIONS.contains(&name) => FUNCTION_COST,
        CALL if kernel_call_result(ctx, op).is_some() => kernel_call_cost(ctx, op),
        _ => 1,
    }
}

/// A kernel call's estimated operations: at least one per element of its
/// operands (a GEMM reads each and writes its result; it does more).
fn kernel_call_cost(ctx: &Context, call: OpId) -> u64 {
    // Element counts fit in i64 (the parser bounds them); `?` sizes count 1.
    ctx.op(call)
        .operands()
        .iter()
        .map(|&v| ctx.types.num_elements(ctx.value_ty(v)).max(1) as u64)
        .fold(0u64, u64::saturating_add)
}

/// Ops that expand to a polynomial or a library call.
const FUNCTIONS: &[&str] = &[
    "arith.exp",
    "arith.expm1",
    "arith.log",
    "arith.log1p",
    "arith.tanh",
    "arith.sin",
    "arith.cos",
    "arith.tan",
    "arith.sinh",
    "arith.cosh",
    "arith.asin",
    "arith.acos",
    "arith.atan",
    "arith.atan2",
    "arith.asinh",
    "arith.acosh",
    "arith.atanh",
    "arith.erf",
    "arith.powf",
    "arith.cbrt",
    "arith.remf",
];
/// Their estimated cost in simple operations.
const FUNCTION_COST: u64 = 16;

/// Every op nested in `op`, and every value they define (results and
/// block arguments).
fn nested_defs(ctx: &Context, op: OpId) -> (Vec<OpId>, HashSet<Value>) {
    let mut ops = Vec::new();
    ctx.walk_nested(op, &mut |o| ops.push(o));
    let mut defined: HashSet<Value> = HashSet::new();
    for &r in &ctx.op(op).regions {
        for &b in &ctx.regions[r].blocks {
            defined.extend(ctx.blocks[b].args.iter().copied());
        }
    }
    for &o in &ops {
        defined.extend(ctx.op(o).results.iter().copied());
        for &r in &ctx.op(o).regions {
            for &b in &ctx.regions[r].blocks {
                defined.extend(ctx.blocks[b].args.iter().copied());
            }
        }
    }
    (ops, defined)
}

/// Whether the iterations of parallel loop `lp` can safely run at once
/// (see the module comment); the reason when not.
fn check_independent(ctx: &Context, lp: OpId) -> std::result::Result<(), &'static str> {
    use strata_dialect_mem as mem;
    let Some(body) = ctx.entry_block(lp, 0) else {
        return Err("loop without a body");
    };
    let iv = ctx.blocks[body].args[0];
    let (ops, defined) = nested_defs(ctx, lp);
    let mut varies: HashSet<Value> = HashSet::from([iv]);
    // Ops are in pre-order, so operands are seen before their users. A
    // nested loop whose bounds vary has a varying induction variable.
    for &o in &ops {
        if ctx.op(o).operands().iter().any(|v| varies.contains(v)) {
            varies.extend(ctx.op(o).results.iter().copied());
            if ctx.op(o).name == FOR {
                if let Some(b) = ctx.entry_block(o, 0) {
                    varies.extend(ctx.blocks[b].args.iter().copied());
                }
            }
        }
    }
    // The buffer a store writes through, followed back through views, and
    // whether an offset on the way depends on the induction variable.
    let root = |mut v: Value| -> (Value, bool) {
        let mut offset_varies = false;
        while let Some(d) = ctx.defining_op(v).filter(|_| defined.contains(&v)) {
            match ctx.op(d).name {
                mem::VIEW => v = ctx.op(d).operands()[0],
                mem::OFFSET => {
                    offset_varies |= varies.contains(&ctx.op(d).operands()[1]);
                    v = ctx.op(d).operands()[0];
                }
                _ => break,
            }
        }
        (v, offset_varies)
    };
    let kernel_call = |o: OpId| kernel_call_result(ctx, o).is_some();
    if !only_local_effects_or(ctx, lp, kernel_call) {
        return Err("the body calls a function or has an op of another dialect");
    }
    for &o in &ops {
        let operation = ctx.op(o);
        let (target, indices): (Value, &[Value]) = match operation.name {
            mem::STORE | mem::STORE_PART => (operation.operands()[1], &operation.operands()[2..]),
            mem::COPY => (operation.operands()[1], &[]),
            mem::DEALLOC => (operation.operands()[0], &[]),
            _ => match kernel_call_result(ctx, o) {
                // A kernel's whole result: disjoint only where it starts
                // at an offset of the induction variable.
                Some(result) => (result, &[]),
                None => continue,
            },
        };
        let (buffer, offset_varies) = root(target);
        if defined.contains(&buffer) {
            continue;
        }
        let index_varies = operation.name != mem::DEALLOC
            && (offset_varies || indices.iter().any(|v| varies.contains(v)));
        if !index_varies {
            return Err("the body writes a buffer from outside at indices shared by iterations");
        }
    }
    Ok(())
}

/// A function name not among `names` (the module's), now taken.
fn fresh_name(ctx: &Context, names: &mut HashSet<String>, func: OpId, k: usize) -> String {
    let base = builtin::func_name(ctx, func).unwrap_or("f").to_string();
    let mut n = k;
    loop {
        let name = format!("{base}__parallel{n}");
        if names.insert(name.clone()) {
            return name;
        }
        n += 1;
    }
}

/// Moves `lp` into a new private function and makes the `loop.dispatch`
/// to put in its place. Returns both; the caller places them (the function
/// after `func`), and leaves `lp` out of the block it was in.
fn outline(
    ctx: &mut Context,
    names: &mut HashSet<String>,
    func: OpId,
    lp: OpId,
    k: usize,
) -> (OpId, OpId) {
    let (ops, defined) = nested_defs(ctx, lp);
    let step = ctx.op(lp).operands()[2];
    // Values from outside, in order of first use; the step is one of them.
    let mut captures: Vec<Value> = Vec::new();
    let mut seen: HashSet<Value> = HashSet::new();
    let uses = std::iter::once(step).chain(
        ops.iter()
            .flat_map(|&o| ctx.op(o).operands().to_vec())
            .collect::<Vec<_>>(),
    );
    for v in uses {
        if !defined.contains(&v) && seen.insert(v) {
            captures.push(v);
        }
    }
    let (constants, captures): (Vec<Value>, Vec<Value>) = captures
        .into_iter()
        .partition(|&v| constant_op(ctx, v).is_some());
    let cost = ctx
        .entry_block(lp, 0)
        .map_or(1, |b| block_cost(ctx, b))
        .clamp(1, i64::MAX as u64) as i64;

    // The new function: (begin, end, captures...).
    let name = fresh_name(ctx, names, func, k);
    let index = ctx.types.index_ty();
    let mut inputs = vec![index, index];
    inputs.extend(captures.iter().map(|&v| ctx.value_ty(v)));
    let fty = ctx.types.function_ty(inputs.clone(), vec![]);
    let loc = ctx.op(lp).loc;
    let attrs = vec![
        (
            "sym_name".to_string(),
            ctx.attr(AttrKind::String(name.clone())),
        ),
        ("function_type".to_string(), ctx.attr(AttrKind::Type(fty))),
        (
            "sym_visibility".to_string(),
            ctx.attr(AttrKind::String("private".into())),
        ),
    ];
    let new_func = ctx.create_op(FUNC, vec![], &[], attrs, loc);
    if !distinct_buffers(ctx, &captures) {
        let unit = ctx.attr(AttrKind::Unit);
        ctx.set_attr(new_func, "may_alias", unit);
    }
    let region = ctx.add_region(new_func);
    let block = ctx.add_block(region, &inputs);
    let args = ctx.blocks[block].args.clone();
    let mut map: HashMap<Value, Value> = captures
        .iter()
        .copied()
        .zip(args[2..].iter().copied())
        .collect();
    for &c in &constants {
        if let Some(def) = constant_op(ctx, c) {
            let o = ctx.op(def).clone();
            let copy = ctx.create_op(o.name, vec![], &[ctx.value_ty(c)], o.attrs, o.loc);
            ctx.append_op(block, copy);
            map.insert(c, ctx.op(copy).results[0]);
        }
    }

    // The dispatch, for where the loop was.
    let mut operands = ctx.op(lp).operands().to_vec();
    operands.extend(captures.iter().copied());
    let i64t = ctx.types.int_ty(64);
    let dispatch_attrs = vec![
        ("callee".to_string(), ctx.attr(AttrKind::SymbolRef(name))),
        (
            "cost".to_string(),
            ctx.attr(AttrKind::Int {
                value: cost as i128,
                ty: i64t,
            }),
        ),
    ];
    let dispatch = ctx.create_op(DISPATCH, operands, &[], dispatch_attrs, loc);

    // The loop, now over (begin, end) inside the new function.
    let new_step = map[&step];
    ctx.set_operands(lp, vec![args[0], args[1], new_step]);
    // Split once: the loop is an ordinary serial loop in each chunk.
    ctx.remove_attr(lp, "parallel");
    // Captures and constants to their copies, in one walk over the loop
    // (not one per capture).
    for &o in &ops {
        ctx.map_operands(o, &mut |v| *map.get(&v).unwrap_or(&v));
    }
    ctx.append_op(block, lp);
    let ret = ctx.create_op(RETURN, vec![], &[], vec![], loc);
    ctx.append_op(block, ret);
    (new_func, dispatch)
}

/// The `arith.constant` defining `v`, if any.
fn constant_op(ctx: &Context, v: Value) -> Option<OpId> {
    match ctx.values[v].def {
        ValueDef::OpResult(op, _) if ctx.op(op).name == strata_dialect_arith::CONSTANT => Some(op),
        _ => None,
    }
}

/// Whether the memref captures are views of pairwise different buffers, so
/// the new function's buffer parameters can be `noalias`.
fn distinct_buffers(ctx: &Context, captures: &[Value]) -> bool {
    let mut roots = HashSet::new();
    captures
        .iter()
        .filter(|&&v| {
            matches!(
                ctx.types.kind(ctx.value_ty(v)),
                strata_ir::TypeKind::MemRef { .. }
            )
        })
        .all(|&v| roots.insert(buffer_root(ctx, v)))
}
