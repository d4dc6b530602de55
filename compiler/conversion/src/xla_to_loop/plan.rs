//! Buffer planning: which tensor values get a buffer and which are fused
//! into their consumers (recomputed per element inside the consumer's loop
//! nest), and when each buffer is last read, so memory can be reused.

use std::collections::HashMap;

use strata_dialect_xla::names::*;
use strata_ir::{Context, OpId, Value, builtin};

/// How a tensor value is represented after lowering.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Computed element by element where it is used.
    Fused,
    /// Written to a buffer once, read by loads.
    Buffer,
}

pub use super::pattern::{is_elementwise, is_index_only};

/// Consumers that read each operand element at most once per output element
/// they write (so fusing an arithmetic producer costs nothing extra).
fn reads_once(name: &str) -> bool {
    is_elementwise(name)
        || matches!(
            name,
            RESHAPE
                | TRANSPOSE
                | SLICE
                | REVERSE
                | REDUCE
                | CONCATENATE
                | PAD
                | DYNAMIC_SLICE
                | DYNAMIC_UPDATE_SLICE
        )
}

/// Values defined outside `op` that ops nested in its regions use (the
/// captures of `while` / `if` / `case` bodies).
pub fn captures(ctx: &Context, op: OpId) -> Vec<Value> {
    if ctx.op(op).regions.is_empty() {
        return Vec::new();
    }
    let mut nested = Vec::new();
    ctx.walk_nested(op, &mut |o| nested.push(o));
    let mut defined: std::collections::HashSet<Value> = std::collections::HashSet::new();
    for &r in &ctx.op(op).regions {
        for &b in &ctx.regions[r].blocks {
            defined.extend(ctx.blocks[b].args.iter().copied());
        }
    }
    for &o in &nested {
        defined.extend(ctx.op(o).results.iter().copied());
        for &r in &ctx.op(o).regions {
            for &b in &ctx.regions[r].blocks {
                defined.extend(ctx.blocks[b].args.iter().copied());
            }
        }
    }
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for &o in &nested {
        for &v in ctx.op(o).operands() {
            if !defined.contains(&v) && seen.insert(v) {
                out.push(v);
            }
        }
    }
    out
}

/// Uses of every value by the given ops (values captured by an op's
/// regions count as used by that op).
pub fn uses(ctx: &Context, body: &[OpId]) -> HashMap<Value, Vec<OpId>> {
    let mut m: HashMap<Value, Vec<OpId>> = HashMap::new();
    for &op in body {
        for &v in ctx.op(op).operands().iter().chain(captures(ctx, op).iter()) {
            m.entry(v).or_default().push(op);
        }
    }
    m
}

/// Most ops one fused value may stand for, counted with repetition: the
/// size of the expression a consumer's loop body evaluates per element for
/// it. A value past the limit gets a buffer instead. Without it, a chain of
/// 10,000 single-use element-wise ops became one expression whose lowering
/// recursed 10,000 deep and overflowed the stack, and index remaps, which
/// fuse into every reader, let `add(reshape(e), reshape(e))` repeated k
/// times evaluate the first `e` 2^k times (k = 18 took 2.5 s and 385 MB,
/// each further level twice that). Real fused expressions (an activation,
/// a normalisation's arithmetic) stay far below.
pub const MAX_FUSED_OPS: usize = 128;

/// Most ops a value fused into several readers may stand for, counted as
/// `MAX_FUSED_OPS` counts them (broadcasts too): each reader recomputes it,
/// so only an op or two of buffers and broadcasts qualify.
const MAX_DUPLICATED_OPS: usize = 4;

/// Element-wise ops cheap enough to compute again in every reader (no
/// transcendental, no division).
fn is_cheap(name: &str) -> bool {
    matches!(
        name,
        ADD | SUBTRACT
            | MULTIPLY
            | NEGATE
            | ABS
            | MAXIMUM
            | MINIMUM
            | SELECT
            | COMPARE
            | CONVERT
            | AND
            | OR
            | XOR
            | NOT
    )
}

/// Decides the mode of every op result in `body`.
pub fn modes(
    ctx: &Context,
    body: &[OpId],
    uses: &HashMap<Value, Vec<OpId>>,
) -> HashMap<Value, Mode> {
    let mut out = HashMap::new();
    // Ops each fused value stands for (see `MAX_FUSED_OPS`); `body` is in
    // program order, so operands are decided before their readers.
    let mut fused_size: HashMap<Value, usize> = HashMap::new();
    for &op in body {
        let name = ctx.op(op).name;
        let size = ctx.op(op).operands().iter().fold(1usize, |n, v| {
            n.saturating_add(fused_size.get(v).copied().unwrap_or(0))
        });
        for &r in &ctx.op(op).results {
            let users = uses.get(&r).map(|u| u.as_slice()).unwrap_or(&[]);
            let needs_buffer_user = users.iter().any(|&u| {
                let n = ctx.op(u).name;
                !(is_elementwise(n)
                    || is_index_only(n)
                    || matches!(
                        n,
                        REDUCE | DOT_GENERAL | CONCATENATE | PAD | DYNAMIC_UPDATE_SLICE
                    ))
                    || n == builtin::RETURN
            });
            // A transpose read by a dot or a reduce would make their inner
            // loops stride through memory; it is cheaper to write it once.
            let strided_reader = name == TRANSPOSE
                && users
                    .iter()
                    .any(|&u| matches!(ctx.op(u).name, DOT_GENERAL | REDUCE));
            let fusible = if strided_reader {
                false
            } else if name == CONSTANT {
                ctx.dense_attr(op, "value")
                    .is_some_and(|d| d.splat || ctx.types.num_elements(d.ty) == 1)
            } else if is_index_only(name) {
                true
            } else if is_elementwise(name) {
                // One use, or a cheap op of buffers and broadcasts
                // (`x - mean`, read twice by the variance's `d * d` and
                // again by the normalisation): recomputing it in each
                // reader costs less than a buffer written and read back.
                let duplicable = is_cheap(name) && size <= MAX_DUPLICATED_OPS;
                (users.len() == 1 || duplicable)
                    && !users.is_empty()
                    && users.iter().all(|&u| reads_once(ctx.op(u).name))
            } else {
                false
            };
            let mode = if fusible && !needs_buffer_user && size <= MAX_FUSED_OPS {
                fused_size.insert(r, size);
                Mode::Fused
            } else {
                Mode::Buffer
            };
            out.insert(r, mode);
        }
    }
    out
}
