//! Deep copies of regions, for rewrites that need a second copy of a body
//! (a reducer region shared by the ops a reduction is split into).

use std::collections::HashMap;

use crate::context::{BlockId, Context, OpId, RegionId, Value};
use crate::types::Type;

impl Context {
    /// Appends to `dst` a copy of region `src`: new blocks, block arguments,
    /// ops and results. Values defined outside `src` are used as they are.
    pub fn clone_region_into(&mut self, src: RegionId, dst: OpId) -> RegionId {
        clone_region_mapped(self, src, dst, &mut HashMap::new())
    }

    /// A copy of `op` (detached; regions deep-copied) whose operands found
    /// in `values` are replaced; its results are added to `values`, so a
    /// sequence of ops copies as a unit (inlining a block elsewhere).
    pub fn clone_op_with(&mut self, op: OpId, values: &mut HashMap<Value, Value>) -> OpId {
        clone_op_mapped(self, op, values, &HashMap::new())
    }
}

fn clone_region_mapped(
    ctx: &mut Context,
    src: RegionId,
    dst: OpId,
    values: &mut HashMap<Value, Value>,
) -> RegionId {
    let region = ctx.add_region(dst);
    let blocks = ctx.regions[src].blocks.clone();
    let mut block_map: HashMap<BlockId, BlockId> = HashMap::new();
    for &b in &blocks {
        let arg_types: Vec<Type> = ctx.blocks[b]
            .args
            .iter()
            .map(|&a| ctx.value_ty(a))
            .collect();
        let copy = ctx.add_block(region, &arg_types);
        for (&old, &new) in ctx.blocks[b].args.iter().zip(&ctx.blocks[copy].args) {
            values.insert(old, new);
        }
        block_map.insert(b, copy);
    }
    for &b in &blocks {
        for op in ctx.blocks[b].ops.clone() {
            let copy = clone_op_mapped(ctx, op, values, &block_map);
            ctx.append_op(block_map[&b], copy);
        }
    }
    region
}

fn clone_op_mapped(
    ctx: &mut Context,
    op: OpId,
    values: &mut HashMap<Value, Value>,
    blocks: &HashMap<BlockId, BlockId>,
) -> OpId {
    let original = ctx.ops[op].clone();
    let operands = original
        .operands()
        .iter()
        .map(|v| *values.get(v).unwrap_or(v))
        .collect();
    let result_types: Vec<Type> = original.results.iter().map(|&r| ctx.value_ty(r)).collect();
    let copy = ctx.create_op(
        original.name,
        operands,
        &result_types,
        original.attrs.clone(),
        original.loc,
    );
    for (&old, &new) in original.results.iter().zip(&ctx.ops[copy].results.clone()) {
        values.insert(old, new);
    }
    // A copy (an inlined call's body) comes from the same source line.
    if let Some(origin) = ctx.origins.get(&op).cloned() {
        ctx.origins.insert(copy, origin);
    }
    ctx.ops[copy].successors = original
        .successors
        .iter()
        .map(|s| *blocks.get(s).unwrap_or(s))
        .collect();
    for r in original.regions {
        clone_region_mapped(ctx, r, copy, values);
    }
    copy
}
