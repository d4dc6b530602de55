//! `xla-fold-branches`: an `xla.if` or `xla.case` whose selector is a
//! constant is replaced by the branch it selects.
//!
//! A multi-platform JAX export selects each platform's lowering with a
//! `case` on the platform index (a constant once
//! `xla-jax-calling-convention` has run): folding keeps the CPU's code
//! only, so another platform's custom calls never reach the lowering, and
//! the branch's ops fuse with their neighbours. `case` selects its last
//! branch for an index out of range, as StableHLO defines.
//!
//! Linear in the function: candidates are found in one walk (outer before
//! nested, earlier before later, so a `case` whose index is the result of
//! an earlier folded one sees its constant), results are substituted
//! through a map resolved in one final walk.

use std::collections::HashMap;

use strata_diag::Result;
use strata_ir::{BlockId, Context, OpId, Value, builtin};

use crate::names::{CASE, CONSTANT, IF, RETURN};

pub const FLAG: &str = "xla-fold-branches";

pub struct XlaFoldBranchesPass;

impl strata_pass::Pass for XlaFoldBranchesPass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "replace an if or case on a constant by the branch it selects"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        for f in builtin::defined_funcs(ctx, module) {
            fold_in(ctx, f);
        }
        Ok(())
    }
}

fn fold_in(ctx: &mut Context, f: OpId) {
    let mut candidates = Vec::new();
    ctx.walk_nested(f, &mut |op| {
        if matches!(ctx.op(op).name, IF | CASE) {
            candidates.push(op);
        }
    });
    if candidates.is_empty() {
        return;
    }
    let mut replaced: HashMap<Value, Value> = HashMap::new();
    for op in candidates {
        // Ops of a branch dropped by an earlier fold are gone with it.
        if !is_inside(ctx, op, f) {
            continue;
        }
        let Some(&selector) = ctx.op(op).operands().first() else {
            continue;
        };
        let selector = resolve(&replaced, selector);
        let Some(branch) = selected_branch(ctx, op, selector) else {
            continue;
        };
        inline_branch(ctx, op, branch, &mut replaced);
    }
    let mut all = Vec::new();
    ctx.walk_nested(f, &mut |o| all.push(o));
    for o in all {
        for i in 0..ctx.op(o).operands().len() {
            let v = ctx.op(o).operands()[i];
            let to = resolve(&replaced, v);
            if to != v {
                ctx.set_operand(o, i, to);
            }
        }
    }
}

/// `v` through the substitutions made so far (chains followed).
fn resolve(replaced: &HashMap<Value, Value>, mut v: Value) -> Value {
    while let Some(&to) = replaced.get(&v) {
        v = to;
    }
    v
}

/// Whether `op` is still nested in `f` (not in a dropped branch).
fn is_inside(ctx: &Context, op: OpId, f: OpId) -> bool {
    let mut at = op;
    while let Some(block) = ctx.op(at).parent {
        let Some(parent) = ctx.block_parent_op(block) else {
            return false;
        };
        if parent == f {
            return true;
        }
        at = parent;
    }
    false
}

/// The block of the branch `op` runs when its selector is a constant.
fn selected_branch(ctx: &Context, op: OpId, selector: Value) -> Option<BlockId> {
    let def = ctx.defining_op(selector)?;
    if ctx.op(def).name != CONSTANT {
        return None;
    }
    let dense = ctx.dense_attr(def, "value")?;
    let elem = ctx.types.elem(dense.ty);
    let bits = *strata_ir::dense::element_bits(ctx, dense, 0).first()?;
    let value = strata_ir::dense::int_value(ctx, bits, elem);
    let regions = ctx.op(op).regions.len();
    let index = match ctx.op(op).name {
        // `if`: the first region when the predicate holds.
        IF => usize::from(value == 0),
        _ => usize::try_from(value)
            .ok()
            .filter(|&i| i < regions)
            .unwrap_or(regions.checked_sub(1)?),
    };
    let region = *ctx.op(op).regions.get(index)?;
    match ctx.regions[region].blocks[..] {
        [block] if ctx.blocks[block].args.is_empty() => Some(block),
        _ => None,
    }
}

/// Moves `branch`'s ops in front of `op`, maps `op`'s results to the values
/// the branch returns, and removes `op`.
fn inline_branch(
    ctx: &mut Context,
    op: OpId,
    branch: BlockId,
    replaced: &mut HashMap<Value, Value>,
) {
    let Some(parent) = ctx.op(op).parent else {
        return;
    };
    let mut body = std::mem::take(&mut ctx.blocks[branch].ops);
    let returned = match body.last() {
        Some(&last) if ctx.op(last).name == RETURN => {
            body.pop();
            ctx.op(last).operands().to_vec()
        }
        _ => Vec::new(),
    };
    for (&r, &v) in ctx.op(op).results.clone().iter().zip(&returned) {
        replaced.insert(r, v);
    }
    for &moved in &body {
        ctx.op_mut(moved).parent = Some(parent);
    }
    let ops = std::mem::take(&mut ctx.blocks[parent].ops);
    let mut rebuilt = Vec::with_capacity(ops.len() + body.len());
    for o in ops {
        if o == op {
            rebuilt.extend(body.iter().copied());
        } else {
            rebuilt.push(o);
        }
    }
    ctx.blocks[parent].ops = rebuilt;
    ctx.op_mut(op).parent = None;
}
