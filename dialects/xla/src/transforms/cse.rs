//! `xla-cse`: a pure op that repeats an earlier op of the same block (same
//! name, operands, attributes, result types and, for ops with regions,
//! the same region body) is removed and its results replaced by the
//! earlier op's.
//!
//! After `xla-inline`, JAX's layer norm computes the mean of its input
//! twice (once in the model, once inside `@_var`): each is a full pass over
//! the activations. Duplicate constants, broadcasts and converts are common
//! in exports too.
//!
//! Only pure ops are merged (their `Traits::PURE`, and every op in their
//! regions pure or a terminator): a custom call, an RNG, a collective or a
//! check is never merged. Ops are compared within one block (an op in a
//! loop body is not merged with one outside it); blocks are walked in
//! program order and operands are rewritten as the walk goes, so chains of
//! duplicates merge in one pass, in time linear in the function.

use std::collections::{HashMap, VecDeque};

use strata_diag::Result;
use strata_ir::{Attr, BlockId, Context, OpId, Traits, Type, Value, builtin};

pub const FLAG: &str = "xla-cse";

/// Earlier ops of one key an op with regions is compared with (ops without
/// regions have one candidate per key: the first).
const MAX_REGION_CANDIDATES: usize = 8;

pub struct XlaCsePass;

impl strata_pass::Pass for XlaCsePass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "merge a pure op with an identical earlier op of its block"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        for f in builtin::defined_funcs(ctx, module) {
            cse_function(ctx, f);
        }
        Ok(())
    }
}

/// What identifies a pure op's value, regions aside.
#[derive(PartialEq, Eq, Hash)]
struct Key {
    name: &'static str,
    operands: Vec<Value>,
    attrs: Vec<(String, Attr)>,
    results: Vec<Type>,
}

fn cse_function(ctx: &mut Context, f: OpId) {
    let mut replaced: HashMap<Value, Value> = HashMap::new();
    let mut removed: Vec<OpId> = Vec::new();
    let mut blocks: Vec<BlockId> = Vec::new();
    for &r in &ctx.op(f).regions {
        blocks.extend(ctx.regions[r].blocks.iter().copied());
    }
    // A stack of blocks: an op's nested blocks are walked after the op's
    // own operands are rewritten, and before its block moves on.
    let mut work: Vec<(BlockId, usize, HashMap<Key, Vec<OpId>>)> = blocks
        .into_iter()
        .rev()
        .map(|b| (b, 0, HashMap::new()))
        .collect();
    while let Some(top) = work.len().checked_sub(1) {
        let (block, at) = (work[top].0, work[top].1);
        let Some(&op) = ctx.blocks[block].ops.get(at) else {
            work.pop();
            continue;
        };
        work[top].1 += 1;
        ctx.map_operands(op, &mut |v| *replaced.get(&v).unwrap_or(&v));
        if let Some(key) = key_of(ctx, op) {
            let candidates = work[top].2.entry(key).or_default();
            // Ops with regions are compared with a few earlier ones only:
            // many same-key ops with different bodies (an adversarial file)
            // would otherwise cost quadratic time.
            let earlier = candidates
                .iter()
                .take(MAX_REGION_CANDIDATES)
                .find(|&&e| regions_equal(ctx, e, op));
            if let Some(&earlier) = earlier {
                for (&r, &e) in ctx.ops[op].results.iter().zip(&ctx.ops[earlier].results) {
                    replaced.insert(r, e);
                }
                removed.push(op);
                continue;
            }
            if candidates.len() < MAX_REGION_CANDIDATES {
                candidates.push(op);
            }
        }
        let nested: Vec<BlockId> = ctx.ops[op]
            .regions
            .iter()
            .flat_map(|&r| ctx.regions[r].blocks.iter().copied())
            .collect();
        work.extend(nested.into_iter().rev().map(|b| (b, 0, HashMap::new())));
    }
    ctx.detach_ops(&removed);
}

/// The key of a pure op whose regions hold only pure ops; None otherwise.
fn key_of(ctx: &Context, op: OpId) -> Option<Key> {
    let o = ctx.op(op);
    if !is_pure(ctx, op) || o.results.is_empty() || !o.successors.is_empty() {
        return None;
    }
    let mut nested_pure = true;
    ctx.walk_nested(op, &mut |n| {
        let terminator = ctx
            .op_def(ctx.op(n).name)
            .is_some_and(|d| d.traits.has(Traits::TERMINATOR));
        nested_pure &= terminator || is_pure(ctx, n);
    });
    nested_pure.then(|| Key {
        name: o.name,
        operands: o.operands().to_vec(),
        attrs: o.attrs.clone(),
        results: o.results.iter().map(|&r| ctx.value_ty(r)).collect(),
    })
}

fn is_pure(ctx: &Context, op: OpId) -> bool {
    ctx.op_def(ctx.op(op).name)
        .is_some_and(|d| d.traits.has(Traits::PURE))
}

/// Whether the regions of `a` and `b` are the same computation: the same
/// blocks with the same argument types, and ops that match pairwise, their
/// operands corresponding (defined at the same place inside, or the same
/// value outside).
fn regions_equal(ctx: &Context, a: OpId, b: OpId) -> bool {
    let (ra, rb) = (&ctx.op(a).regions, &ctx.op(b).regions);
    if ra.len() != rb.len() {
        return false;
    }
    let mut same: HashMap<Value, Value> = HashMap::new();
    // (op of a, op of b) pairs still to compare, regions included.
    let mut pairs: VecDeque<(OpId, OpId)> = VecDeque::new();
    let mut regions: Vec<_> = ra.iter().copied().zip(rb.iter().copied()).collect();
    loop {
        while let Some((x, y)) = regions.pop() {
            let (bx, by) = (&ctx.regions[x].blocks, &ctx.regions[y].blocks);
            if bx.len() != by.len() {
                return false;
            }
            for (&p, &q) in bx.iter().zip(by) {
                let (ax, ay) = (&ctx.blocks[p].args, &ctx.blocks[q].args);
                let (ox, oy) = (&ctx.blocks[p].ops, &ctx.blocks[q].ops);
                if ax.len() != ay.len() || ox.len() != oy.len() {
                    return false;
                }
                for (&u, &v) in ax.iter().zip(ay) {
                    if ctx.value_ty(u) != ctx.value_ty(v) {
                        return false;
                    }
                    same.insert(u, v);
                }
                pairs.extend(ox.iter().copied().zip(oy.iter().copied()));
            }
        }
        let Some((x, y)) = pairs.pop_front() else {
            return true;
        };
        let (ox, oy) = (ctx.op(x), ctx.op(y));
        let operands_match = ox.operands().len() == oy.operands().len()
            && ox
                .operands()
                .iter()
                .zip(oy.operands())
                .all(|(u, v)| same.get(u).unwrap_or(u) == v);
        if ox.name != oy.name
            || !operands_match
            || ox.attrs != oy.attrs
            || ox.results.len() != oy.results.len()
            || ox.regions.len() != oy.regions.len()
            || !ox.successors.is_empty()
            || !oy.successors.is_empty()
        {
            return false;
        }
        for (&u, &v) in ox.results.iter().zip(&oy.results) {
            if ctx.value_ty(u) != ctx.value_ty(v) {
                return false;
            }
            same.insert(u, v);
        }
        regions.extend(ox.regions.iter().copied().zip(oy.regions.iter().copied()));
    }
}
