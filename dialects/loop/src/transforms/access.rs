//! What the loop passes need to know about values and buffer accesses:
//! constant operands, the buffer a memref value views, and how a loop
//! touches each buffer defined outside it; and moving a loop body's ops
//! into another block.

use std::collections::HashMap;

use strata_dialect_mem as mem;
use strata_ir::{AttrKind, BlockId, Context, OpId, Traits, Value};

/// The constant integer `v` holds, if it is one.
pub(crate) fn constant(ctx: &Context, v: Value) -> Option<i64> {
    let op = ctx.defining_op(v)?;
    if ctx.op(op).name != strata_dialect_arith::CONSTANT {
        return None;
    }
    match ctx.attr_kind(ctx.attr_of(op, "value")?) {
        AttrKind::Int { value, .. } => i64::try_from(*value).ok(),
        _ => None,
    }
}

/// The buffer a memref value views, through `mem.view` and `mem.offset`.
pub(crate) fn buffer_root(ctx: &Context, mut v: Value) -> Value {
    while let Some(d) = ctx.defining_op(v) {
        match ctx.op(d).name {
            mem::VIEW | mem::OFFSET => v = ctx.op(d).operands()[0],
            _ => break,
        }
    }
    v
}

/// The memref operand and the indices of an element access (`mem.load`,
/// `mem.store`, `mem.load_part`, `mem.store_part`), and whether it writes.
pub(crate) fn element_access(ctx: &Context, op: OpId) -> Option<(Value, &[Value], bool)> {
    let operands = ctx.op(op).operands();
    match ctx.op(op).name {
        mem::LOAD | mem::LOAD_PART => Some((operands[0], &operands[1..], false)),
        mem::STORE | mem::STORE_PART => Some((operands[1], &operands[2..], true)),
        _ => None,
    }
}

/// How the ops nested in one loop use one buffer defined outside it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BufferUse {
    /// Something may write it.
    pub written: bool,
    /// `Some(k)` when every use is an element access straight on the
    /// buffer with the loop's induction variable as index `k`: iteration
    /// `i` touches only elements whose index `k` is `i`.
    pub row_index: Option<usize>,
}

impl BufferUse {
    /// Whether iteration `i` of one loop and iteration `i` of another
    /// touch the same slice of the buffer and no other iteration's.
    pub fn same_rows(&self, other: &BufferUse) -> bool {
        self.row_index.is_some() && self.row_index == other.row_index
    }
}

/// The buffers (memref values defined outside `lp`) that the ops nested in
/// loop `lp` use, and how. Any use other than an element access (a copy, a
/// view, a call) counts as a write that is not by row.
pub(crate) fn buffer_uses(ctx: &Context, lp: OpId) -> HashMap<Value, BufferUse> {
    let mut inside = std::collections::HashSet::new();
    let mut ops = Vec::new();
    ctx.walk_nested(lp, &mut |o| ops.push(o));
    let iv = ctx
        .entry_block(lp, 0)
        .and_then(|b| ctx.blocks[b].args.first().copied());
    for &o in &ops {
        inside.extend(ctx.op(o).results.iter().copied());
    }
    let mut uses: HashMap<Value, BufferUse> = HashMap::new();
    for &o in &ops {
        let access = element_access(ctx, o);
        for &v in ctx.op(o).operands() {
            let is_memref = matches!(
                ctx.types.kind(ctx.value_ty(v)),
                strata_ir::TypeKind::MemRef { .. }
            );
            if !is_memref || inside.contains(&v) {
                continue;
            }
            // Views alias their buffer: uses are gathered by the root, and
            // only an access straight on the root can be by row.
            let root = buffer_root(ctx, v);
            let (row_index, written) = match access {
                Some((buf, indices, writes)) if buf == v && v == root => (
                    iv.and_then(|iv| indices.iter().position(|&x| x == iv)),
                    writes,
                ),
                _ => (None, true),
            };
            match uses.get_mut(&root) {
                None => {
                    uses.insert(root, BufferUse { written, row_index });
                }
                Some(entry) => {
                    entry.written |= written;
                    if entry.row_index != row_index {
                        entry.row_index = None;
                    }
                }
            }
        }
    }
    uses
}

/// Whether every op nested in `lp` is of the arith, mem or loop dialect
/// (no calls, nothing with effects the buffer analysis cannot see).
pub(crate) fn only_local_effects(ctx: &Context, lp: OpId) -> bool {
    only_local_effects_or(ctx, lp, |_| false)
}

/// [`only_local_effects`], also accepting the ops `allowed` says yes to.
pub(crate) fn only_local_effects_or(
    ctx: &Context,
    lp: OpId,
    allowed: impl Fn(OpId) -> bool,
) -> bool {
    let mut ok = true;
    ctx.walk_nested(lp, &mut |o| {
        let name = ctx.op(o).name;
        let dialect = name.split('.').next().unwrap_or("");
        ok &= (matches!(dialect, "arith" | "mem" | "loop")
            && name != crate::DISPATCH
            && name != crate::RUN_DEVICES)
            || allowed(o);
    });
    ok
}

/// The function a `func.call` names.
pub(crate) fn callee(ctx: &Context, call: OpId) -> Option<&str> {
    match ctx.attr_of(call, "callee").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::SymbolRef(s)) => Some(s.as_str()),
        _ => None,
    }
}

/// The result buffer of a call of one of the runtime's kernels that write
/// only their last operand (`strata_abi::runtime::KERNELS_WRITING_LAST`).
pub(crate) fn kernel_call_result(ctx: &Context, op: OpId) -> Option<Value> {
    let operation = ctx.op(op);
    if operation.name != strata_ir::builtin::CALL || !operation.results.is_empty() {
        return None;
    }
    let name = callee(ctx, op)?;
    strata_abi::runtime::KERNELS_WRITING_LAST
        .iter()
        .any(|k| k.name == name && k.params.len() == operation.operands().len())
        .then(|| operation.operands().last().copied())
        .flatten()
}

/// Moves the ops of block `from`, but its terminator, to the end of block
/// `into`, before its terminator. The whole list moves at once (one op at a
/// time, each removal would cost the length of the block).
pub(crate) fn move_body(ctx: &mut Context, from: BlockId, into: BlockId) {
    let mut moved = std::mem::take(&mut ctx.blocks[from].ops);
    if let Some(&last) = moved.last()
        && is_terminator(ctx, last)
    {
        moved.pop();
        ctx.blocks[from].ops.push(last);
    }
    for &op in &moved {
        ctx.op_mut(op).parent = Some(into);
    }
    let at = terminator_position(ctx, into);
    ctx.blocks[into].ops.splice(at..at, moved);
}

fn is_terminator(ctx: &Context, op: OpId) -> bool {
    ctx.registry.traits(ctx.op(op).name).has(Traits::TERMINATOR)
}

/// Where ops go to be appended to `block` before its terminator.
fn terminator_position(ctx: &Context, block: BlockId) -> usize {
    let ops = &ctx.blocks[block].ops;
    match ops.last() {
        Some(&last) if is_terminator(ctx, last) => ops.len() - 1,
        _ => ops.len(),
    }
}
