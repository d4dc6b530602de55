//! Updates in place: a `dynamic_update_slice` or a scatter whose operand
//! dies at it writes its result into the operand's buffer instead of
//! copying the whole operand into a fresh one. Inside a while body this
//! is what keeps a generation loop's KV cache, or a table a loop scatters
//! rows into, from being copied whole at every step (and the yield's copy
//! of the result over the state is then skipped); elsewhere it saves one
//! copy of a temporary.
//!
//! The update's other operands (its rows, its indices) may read the
//! operand's old contents: a fused value that does is computed into a
//! buffer of its own first ([`FuncLowering::snapshot_readers`]), since the
//! update loop would otherwise read elements it has already overwritten.

use std::collections::{HashMap, HashSet};

use strata_diag::Result;
use strata_ir::{Context, OpId, Value};

use super::{FuncLowering, Repr, plan};
use crate::builder::Builder;

/// An update that writes into its operand's buffer.
#[derive(Copy, Clone, Debug)]
pub(super) struct InPlace {
    /// The operand updated (it dies at the update; the result takes over
    /// its buffer).
    pub operand: Value,
    pub buffer: Value,
}

impl FuncLowering<'_> {
    /// Whether `op` may write its result into its operand's buffer: it is
    /// a `dynamic_update_slice` or a one-input scatter; the operand is a
    /// buffer that dies here (nothing reads it later, a yield included),
    /// that no other value names, and that is a state buffer of the while
    /// body being lowered or a buffer this region allocated (never the
    /// caller's arguments or a constant); the result is not written
    /// straight into an output; and no other operand is that very buffer.
    pub(super) fn in_place_update(
        &self,
        ctx: &Context,
        op: OpId,
        dying: &[Value],
        direct_out: &HashMap<Value, usize>,
    ) -> Option<InPlace> {
        let name = ctx.op(op).name;
        let operands = ctx.op(op).operands();
        let updatable = name == strata_dialect_xla::DYNAMIC_UPDATE_SLICE
            || (name == strata_dialect_xla::SCATTER && operands.len() == 3);
        let [result] = ctx.op(op).results[..] else {
            return None;
        };
        let (&x, rest) = operands.split_first()?;
        if !updatable || direct_out.contains_key(&result) || !dying.contains(&x) {
            return None;
        }
        let Some(Repr::Buffer(buffer)) = self.repr.get(&x).copied() else {
            return None;
        };
        let whole_operand = rest
            .iter()
            .any(|v| matches!(self.repr.get(v), Some(Repr::Buffer(b)) if *b == buffer));
        let ok = (self.in_place_state.contains(&buffer) || self.is_region_alloc(buffer))
            && !self.aliased_buffers.contains(&buffer)
            && !whole_operand;
        ok.then_some(InPlace { operand: x, buffer })
    }

    /// Whether `buf` is a live buffer the region being lowered allocated.
    pub(super) fn is_region_alloc(&self, buf: Value) -> bool {
        self.alloc_index.get(&buf).is_some_and(|&i| {
            i >= self.region_mark
                && self
                    .allocs
                    .get(i)
                    .is_some_and(|&(a, live)| a == buf && live)
        })
    }

    /// Computes into buffers of their own the fused operands of `op`
    /// (after its first) that read `buffer`, before `op` overwrites it;
    /// returns them (read by `op` alone, they die there).
    pub(super) fn snapshot_readers(
        &mut self,
        b: &mut Builder<'_>,
        op: OpId,
        buffer: Value,
    ) -> Result<Vec<Value>> {
        let mut snapshots = Vec::new();
        for v in b.ctx.op(op).operands()[1..].to_vec() {
            if matches!(self.repr.get(&v), Some(Repr::Fused(_)))
                && self.reads_buffer(b.ctx, v, buffer)
                && !snapshots.contains(&v)
            {
                self.buffer_of(b, v)?;
                snapshots.push(v);
            }
        }
        Ok(snapshots)
    }

    /// Whether computing `v` reads buffer `buf` (through the fused ops it
    /// is computed from).
    fn reads_buffer(&self, ctx: &Context, v: Value, buf: Value) -> bool {
        let mut stack = vec![v];
        let mut seen = HashSet::new();
        while let Some(v) = stack.pop() {
            if !seen.insert(v) {
                continue;
            }
            match self.repr.get(&v) {
                Some(Repr::Buffer(b)) if *b == buf => return true,
                Some(Repr::Buffer(_)) | None => {}
                Some(Repr::Fused(op)) => {
                    stack.extend(ctx.op(*op).operands().iter().copied());
                    stack.extend(plan::captures(ctx, *op));
                }
            }
        }
        false
    }
}
