//! `xla-inline`: a `func.call` of a small function, or of a private function
//! called from one place, is replaced by a copy of the callee's body.
//!
//! JAX exports its helpers as private functions (`jnp.var` is `@_var`,
//! `jnp.where` is `@_where`, every `jax.jit` inside a model is a function of
//! its own). A call is a fusion barrier: its operands and results live in
//! buffers, so layer norm read its input five times through `@_var` where
//! the fused body reads it three times (and once its mean is computed
//! once, by `xla-cse`). XLA inlines every call before fusion too.
//!
//! What is inlined, so that the module grows at most linearly:
//! - a callee of at most [`SMALL_FUNCTION_OPS`] ops (counted after its own
//!   calls are inlined), at every call site;
//! - a private callee called from exactly one `func.call` and referred to
//!   nowhere else, which is then removed: its body moves, nothing is copied.
//!
//! Larger functions called from several places stay calls (a transformer
//! layer written as one function called per layer compiles once). Callees
//! are processed before their callers (the call graph is acyclic: the
//! verifier rejects cycles), so one pass inlines nested helpers too. Private
//! functions no longer referred to from a public one are removed.

use std::collections::{HashMap, HashSet};

use strata_diag::Result;
use strata_ir::attrs::AttrKind;
use strata_ir::builtin::{CALL, FUNC, RETURN, defined_funcs, func_name, is_private};
use strata_ir::call_graph::for_each_symbol;
use strata_ir::{BlockId, Context, OpId, Value};

pub const FLAG: &str = "xla-inline";

/// Callees up to this many ops (nested ops included) are copied into every
/// caller: `@_where`, `@_var`, activation helpers and the like.
pub const SMALL_FUNCTION_OPS: usize = 64;

pub struct XlaInlinePass;

impl strata_pass::Pass for XlaInlinePass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "replace calls of small functions, and of private functions called once, by their bodies"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        let funcs = defined_funcs(ctx, module);
        let index: HashMap<String, OpId> = funcs
            .iter()
            .filter_map(|&f| Some((func_name(ctx, f)?.to_string(), f)))
            .collect();
        let references = count_references(ctx, module, &index);
        let mut size: HashMap<OpId, usize> = HashMap::new();
        for f in callees_first(ctx, &funcs, &index) {
            inline_calls_in(ctx, f, &index, &references, &size);
            size.insert(f, nested_op_count(ctx, f));
        }
        remove_unreachable_private(ctx, module, &funcs, &index);
        Ok(())
    }
}

/// The function a `func.call` names, if the module defines it.
fn callee_of(ctx: &Context, call: OpId, index: &HashMap<String, OpId>) -> Option<OpId> {
    match ctx.attr_of(call, "callee").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::SymbolRef(s)) => index.get(s.as_str()).copied(),
        _ => None,
    }
}

/// For each function: (its `func.call` sites, every symbol reference to it).
fn count_references(
    ctx: &Context,
    module: OpId,
    index: &HashMap<String, OpId>,
) -> HashMap<OpId, (usize, usize)> {
    let mut counts: HashMap<OpId, (usize, usize)> = HashMap::new();
    ctx.walk_nested(module, &mut |op| {
        let is_call = ctx.op(op).name == CALL;
        for_each_reference(ctx, op, &mut |attr, s| {
            if let Some(&f) = index.get(s) {
                let c = counts.entry(f).or_default();
                c.1 += 1;
                if is_call && attr == "callee" {
                    c.0 += 1;
                }
            }
        });
    });
    counts
}

/// The `func.call`s inside `f`, as (op, callee).
fn calls_in(ctx: &Context, f: OpId, index: &HashMap<String, OpId>) -> Vec<(OpId, OpId)> {
    let mut out = Vec::new();
    ctx.walk_nested(f, &mut |op| {
        if ctx.op(op).name == CALL {
            if let Some(g) = callee_of(ctx, op, index) {
                out.push((op, g));
            }
        }
    });
    out
}

/// `funcs` ordered so that every callee comes before its callers
/// (iterative depth-first post-order; the graph is acyclic).
fn callees_first(ctx: &Context, funcs: &[OpId], index: &HashMap<String, OpId>) -> Vec<OpId> {
    let callees: HashMap<OpId, Vec<OpId>> = funcs
        .iter()
        .map(|&f| {
            (
                f,
                calls_in(ctx, f, index).into_iter().map(|c| c.1).collect(),
            )
        })
        .collect();
    let mut done: HashSet<OpId> = HashSet::new();
    let mut order = Vec::with_capacity(funcs.len());
    for &root in funcs {
        if !done.insert(root) {
            continue;
        }
        let mut path: Vec<(OpId, usize)> = vec![(root, 0)];
        while let Some(top) = path.last_mut() {
            let f = top.0;
            match callees.get(&f).and_then(|c| c.get(top.1)) {
                Some(&g) => {
                    top.1 += 1;
                    if done.insert(g) {
                        path.push((g, 0));
                    }
                }
                None => {
                    order.push(f);
                    path.pop();
                }
            }
        }
    }
    order
}

fn nested_op_count(ctx: &Context, f: OpId) -> usize {
    let mut n = 0;
    ctx.walk_nested(f, &mut |_| n += 1);
    n
}

/// Replaces the inlinable calls in `f` by their callees' bodies. Each block
/// is rebuilt once (inserting ops one by one would cost the block's length
/// per call), and uses of the calls' results are redirected in one sweep.
fn inline_calls_in(
    ctx: &mut Context,
    f: OpId,
    index: &HashMap<String, OpId>,
    references: &HashMap<OpId, (usize, usize)>,
    size: &HashMap<OpId, usize>,
) {
    let inlinable = |ctx: &Context, g: OpId| {
        let small = size.get(&g).is_some_and(|&n| n <= SMALL_FUNCTION_OPS);
        let moved_whole = is_private(ctx, g) && references.get(&g) == Some(&(1, 1));
        (small || moved_whole) && single_block_body(ctx, g).is_some()
    };
    let calls: Vec<(OpId, OpId)> = calls_in(ctx, f, index)
        .into_iter()
        .filter(|&(_, g)| g != f && inlinable(ctx, g))
        .collect();
    if calls.is_empty() {
        return;
    }
    let mut by_block: HashMap<BlockId, HashMap<OpId, OpId>> = HashMap::new();
    for &(call, g) in &calls {
        if let Some(b) = ctx.op(call).parent {
            by_block.entry(b).or_default().insert(call, g);
        }
    }
    // Call results to the callee's returned values (as copied); operands are
    // resolved through it as the copies are made, so no chains form.
    let mut replaced: HashMap<Value, Value> = HashMap::new();
    // Blocks in program order, so a call's operands that are results of an
    // earlier inlined call are already in `replaced`.
    for block in ctx.blocks_nested(f) {
        let Some(sites) = by_block.get(&block) else {
            continue;
        };
        let old = std::mem::take(&mut ctx.blocks[block].ops);
        let mut new = Vec::with_capacity(old.len());
        for op in old {
            let Some(&g) = sites.get(&op) else {
                new.push(op);
                continue;
            };
            let Some(body) = single_block_body(ctx, g) else {
                new.push(op);
                continue;
            };
            let mut values: HashMap<Value, Value> = HashMap::new();
            let params = ctx.blocks[body].args.clone();
            for (p, a) in params.iter().zip(ctx.op(op).operands().to_vec()) {
                values.insert(*p, *replaced.get(&a).unwrap_or(&a));
            }
            let body_ops = ctx.blocks[body].ops.clone();
            for &inner in &body_ops {
                if ctx.op(inner).name == RETURN {
                    let returned = ctx.op(inner).operands().to_vec();
                    for (r, v) in ctx.op(op).results.clone().into_iter().zip(returned) {
                        replaced.insert(r, *values.get(&v).unwrap_or(&v));
                    }
                    continue;
                }
                let copy = ctx.clone_op_with(inner, &mut values);
                ctx.ops[copy].parent = Some(block);
                new.push(copy);
            }
            ctx.ops[op].parent = None;
        }
        ctx.blocks[block].ops = new;
    }
    let mut all = Vec::new();
    ctx.walk_nested(f, &mut |o| all.push(o));
    for o in all {
        ctx.map_operands(o, &mut |v| *replaced.get(&v).unwrap_or(&v));
    }
}

/// The body of function `g` when it is one block ending in `func.return`.
fn single_block_body(ctx: &Context, g: OpId) -> Option<BlockId> {
    let region = *ctx.op(g).regions.first()?;
    let [block] = ctx.regions[region].blocks[..] else {
        return None;
    };
    let last = *ctx.blocks[block].ops.last()?;
    (ctx.op(last).name == RETURN).then_some(block)
}

/// Removes private functions that no public function reaches through
/// symbol references any more (the helpers just inlined).
fn remove_unreachable_private(
    ctx: &mut Context,
    module: OpId,
    funcs: &[OpId],
    index: &HashMap<String, OpId>,
) {
    let Some(body) = ctx.entry_block(module, 0) else {
        return;
    };
    // Roots: public functions and any other op at module level.
    let mut reached: HashSet<OpId> = HashSet::new();
    let mut stack: Vec<OpId> = ctx.blocks[body]
        .ops
        .iter()
        .copied()
        .filter(|&o| ctx.op(o).name != FUNC || !is_private(ctx, o))
        .collect();
    reached.extend(stack.iter().copied());
    while let Some(op) = stack.pop() {
        let mut found = Vec::new();
        let mut visit = |o: OpId| {
            for_each_reference(ctx, o, &mut |_, s| found.extend(index.get(s).copied()));
        };
        visit(op);
        ctx.walk_nested(op, &mut visit);
        for g in found {
            if reached.insert(g) {
                stack.push(g);
            }
        }
    }
    let dead: Vec<OpId> = funcs
        .iter()
        .copied()
        .filter(|f| !reached.contains(f) && is_private(ctx, *f))
        .collect();
    ctx.detach_ops(&dead);
}

/// Calls `f(attribute, symbol)` for every symbol `op`'s attributes refer to
/// (a function's own `sym_name` is its name, not a reference).
fn for_each_reference<'c>(ctx: &'c Context, op: OpId, f: &mut dyn FnMut(&str, &'c str)) {
    for (name, a) in &ctx.op(op).attrs {
        if ctx.op(op).name == FUNC && name == "sym_name" {
            continue;
        }
        for_each_symbol(ctx, *a, &mut |s| f(name, s));
    }
}
