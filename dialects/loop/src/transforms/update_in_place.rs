//! `loop-update-in-place`: a loop that computes a new value of a buffer `B`
//! element by element into a fresh buffer `T`, which is then copied over
//! `B`, writes into `B` directly; the copy and `T` go.
//!
//! A `while` carries its state in buffers and copies each iteration's new
//! values over them at the end of the body: an optimizer step's parameters
//! and moments (`p - lr * m / (sqrt(v) + eps)`, `b1 * m + (1 - b1) * g`) are
//! each a full pass over a copy of the model per iteration (9% of a
//! 100-step Adam loop's time, one thread). Updated in place they are not,
//! and the update loops then share their buffers row by row, so
//! `loop-fuse-parallel` makes them one pass.
//!
//! `mem.copy(T, B)` in a block is rewritten when
//! - `T` is a `mem.alloc` of the same type in the same block, used only by
//!   one earlier op `L` of the block (a `loop.for`), by the copy and by its
//!   `mem.dealloc` after the copy;
//! - inside `L` every use of `T` and of `B` is an element access in one
//!   block with one and the same index list (iteration `i` touches element
//!   `i` only), `B` is only read, and every read of `B` comes before the
//!   first write of `T`: each element of `B` is read before it is
//!   overwritten, and never again;
//! - no op of the block between `L` and the copy uses `B`, and no view of
//!   `B` exists (its uses are all visible).
//!
//! `B` must be defined before `L`. Uses of `T` in `L` become uses of `B`.

use std::collections::{HashMap, HashSet};

use strata_diag::Result;
use strata_dialect_mem as mem;
use strata_ir::{BlockId, Context, OpId, Value, builtin};

use super::access::element_access;
use crate::FOR;

pub const FLAG: &str = "loop-update-in-place";

pub struct LoopUpdateInPlacePass;

impl strata_pass::Pass for LoopUpdateInPlacePass {
    fn flag(&self) -> &'static str {
        FLAG
    }
    fn summary(&self) -> &'static str {
        "write a loop's element-wise update of a buffer into that buffer instead of a copy of it"
    }
    fn run(&self, ctx: &mut Context, module: OpId) -> Result<()> {
        for func in builtin::defined_funcs(ctx, module) {
            update_in_function(ctx, func);
        }
        Ok(())
    }
}

/// One rewrite: the loop, the fresh buffer, the buffer it is copied over,
/// and the copy and deallocation that go.
struct InPlace {
    lp: OpId,
    fresh: Value,
    target: Value,
    copy: OpId,
    alloc: OpId,
    dealloc: OpId,
}

fn update_in_function(ctx: &mut Context, func: OpId) {
    let mut copies = Vec::new();
    ctx.walk_nested(func, &mut |op| {
        if ctx.op(op).name == mem::COPY {
            copies.push(op);
        }
    });
    // Each op's position in its block (for "before" and "between").
    let index: HashMap<OpId, usize> = ctx
        .blocks_nested(func)
        .into_iter()
        .flat_map(|b| ctx.blocks[b].ops.iter().enumerate().map(|(i, &o)| (o, i)))
        .collect();
    let cx = Analysis { func, index };
    let mut rewrites = Vec::new();
    // The buffers each loop's rewrites name. A loop may feed several (a
    // `while` body's loop computing two state buffers): each rewrite's
    // conditions are about its own two buffers, which no other rewrite of
    // the loop may name.
    let mut named: HashSet<(OpId, Value)> = HashSet::new();
    for copy in copies {
        if let Some(r) = plan(ctx, &cx, copy) {
            if !named.contains(&(r.lp, r.fresh)) && !named.contains(&(r.lp, r.target)) {
                named.extend([(r.lp, r.fresh), (r.lp, r.target)]);
                rewrites.push(r);
            }
        }
    }
    let mut gone = Vec::new();
    for r in rewrites {
        ctx.replace_uses_in(r.lp, r.fresh, r.target);
        gone.extend([r.copy, r.alloc, r.dealloc]);
    }
    ctx.detach_ops(&gone);
}

/// The function and its ops' positions.
struct Analysis {
    func: OpId,
    index: HashMap<OpId, usize>,
}

/// The rewrite of `copy`, when every condition of the module docs holds.
fn plan(ctx: &Context, cx: &Analysis, copy: OpId) -> Option<InPlace> {
    let users = |v: Value| ctx.users_in_scope(cx.func, v);
    let [fresh, target] = ctx.op(copy).operands()[..] else {
        return None;
    };
    let block = ctx.op(copy).parent?;
    let alloc = ctx.defining_op(fresh)?;
    if ctx.op(alloc).name != mem::ALLOC
        || ctx.op(alloc).parent != Some(block)
        || ctx.value_ty(fresh) != ctx.value_ty(target)
        || fresh == target
    {
        return None;
    }
    let at = |op: OpId| cx.index.get(&op).copied();
    // Users of the fresh buffer, as ops of this block.
    let mut lp = None;
    let mut dealloc = None;
    let fresh_users = users(fresh);
    for &u in &fresh_users {
        let top = ancestor_in(ctx, u, block)?;
        if top == copy {
            continue;
        }
        if ctx.op(top).name == mem::DEALLOC {
            dealloc = Some(top);
        } else if ctx.op(top).name == FOR && lp.is_none_or(|l| l == top) && top != u {
            lp = Some(top);
        } else {
            return None;
        }
    }
    let (lp, dealloc) = (lp?, dealloc?);
    let (l_at, c_at, d_at) = (at(lp)?, at(copy)?, at(dealloc)?);
    if !(l_at < c_at && c_at < d_at) {
        return None;
    }
    // The target: defined before the loop, no views, unused between the
    // loop and the copy.
    if let Some(def) = ctx.defining_op(target) {
        if ctx.op(def).parent == Some(block) && at(def)? > l_at {
            return None;
        }
    }
    let mut in_loop = Vec::new();
    for &u in &users(target) {
        if matches!(ctx.op(u).name, mem::VIEW | mem::OFFSET | mem::SLICE) {
            return None;
        }
        let Some(top) = ancestor_in(ctx, u, block) else {
            // A use in another block of the function: the copy's block is
            // nested in it (before or after): outside the stretch checked.
            continue;
        };
        let t_at = at(top)?;
        if top == lp {
            in_loop.push(u);
        } else if l_at < t_at && t_at < c_at {
            return None;
        }
    }
    let fresh_uses: Vec<OpId> = fresh_users
        .iter()
        .copied()
        .filter(|&u| ancestor_in(ctx, u, block) == Some(lp))
        .collect();
    same_element_accesses(ctx, &cx.index, lp, &fresh_uses, &in_loop, fresh, target).then_some(
        InPlace {
            lp,
            fresh,
            target,
            copy,
            alloc,
            dealloc,
        },
    )
}

/// The op of `block` that `op` is (or is nested in).
fn ancestor_in(ctx: &Context, op: OpId, block: BlockId) -> Option<OpId> {
    let mut cur = op;
    loop {
        let parent = ctx.op(cur).parent?;
        if parent == block {
            return Some(cur);
        }
        cur = ctx.block_parent_op(parent)?;
    }
}

/// Whether the uses of `fresh` and of `target` in the loop are loads and
/// stores in one block with one index list, `target` only loaded, every
/// load of `target` before the first store to `fresh`.
fn same_element_accesses(
    ctx: &Context,
    order: &HashMap<OpId, usize>,
    lp: OpId,
    fresh_uses: &[OpId],
    target_uses: &[OpId],
    fresh: Value,
    target: Value,
) -> bool {
    // Whole-element loads and stores straight on `buffer` (no parts).
    let access = |op: OpId, buffer: Value| -> Option<(&[Value], bool)> {
        if !matches!(ctx.op(op).name, mem::LOAD | mem::STORE) {
            return None;
        }
        element_access(ctx, op)
            .and_then(|(b, index, writes)| (b == buffer).then_some((index, writes)))
    };
    let Some(&first) = fresh_uses.first() else {
        return false;
    };
    let block = ctx.op(first).parent;
    let Some((index, _)) = access(first, fresh) else {
        return false;
    };
    let index = index.to_vec();
    let mut accesses = Vec::new();
    for (&op, buffer) in fresh_uses
        .iter()
        .map(|o| (o, fresh))
        .chain(target_uses.iter().map(|o| (o, target)))
    {
        match access(op, buffer) {
            Some((idx, writes)) if idx == index.as_slice() && ctx.op(op).parent == block => {
                if buffer == target && writes {
                    return false;
                }
                accesses.push((op, buffer == target, writes));
            }
            _ => return false,
        }
    }
    let Some(block) = block else {
        return false;
    };
    if !indexes_each_iteration_once(ctx, block, &index, lp) {
        return false;
    }
    // In program order: no load of the target after a store to the fresh
    // buffer.
    let first_store = accesses
        .iter()
        .filter(|a| !a.1 && a.2)
        .filter_map(|a| order.get(&a.0))
        .min();
    let last_target_load = accesses
        .iter()
        .filter(|a| a.1)
        .filter_map(|a| order.get(&a.0))
        .max();
    match (first_store, last_target_load) {
        (Some(s), Some(l)) => l < s,
        (Some(_), None) => true,
        _ => false,
    }
}

/// Whether `index` is exactly the induction variables of the `loop.for`s
/// around `block`, up to and including `lp`: then every iteration
/// touches its own element, so one that reads `B[i]` never sees an earlier
/// iteration's write. Any other op around the block, or an index that is
/// computed, and the answer is no.
fn indexes_each_iteration_once(ctx: &Context, block: BlockId, index: &[Value], lp: OpId) -> bool {
    let mut ivs = Vec::new();
    let mut cur = block;
    loop {
        let Some(owner) = ctx.block_parent_op(cur) else {
            return false;
        };
        if ctx.op(owner).name != FOR {
            return false;
        }
        match ctx.blocks[cur].args.first() {
            Some(&iv) => ivs.push(iv),
            None => return false,
        }
        if owner == lp {
            break;
        }
        match ctx.op(owner).parent {
            Some(up) => cur = up,
            None => return false,
        }
    }
    ivs.len() == index.len() && ivs.iter().all(|iv| index.contains(iv))
}
