//! Values lowered as other names of other values' buffers (an
//! optimization barrier's results, a tuple and its elements, a while
//! loop's state passed through unchanged): which operands each result
//! names, so that liveness (`last_reads`) reads it through them and the
//! buffer lives until the last reader of any of its names.

use strata_ir::{Context, OpId};

use super::{FuncLowering, Repr};

/// The caller's buffers a loop passes through unchanged and reads with a
/// kernel (`kernel_reads`) are read in place only when they hold more than
/// this (bytes, all such slots of the loop together); below it they are
/// copied. The C interface promises only an
/// element's alignment (numpy's arrays are 16-byte aligned), and kernels
/// that read a weight off 64-byte alignment at every iteration lost more
/// than one copy per call costs while the weights fit in the caches (an
/// LSTM's 6 MB of weights in `scan`, 8-row products: 1.1x the time). Past
/// the caches each iteration is bound by reading the weights from memory,
/// alignment hardly matters, and the copy is what costs: 8 steps of 1-row
/// products with 64 MB of weights took 0.8x the time read in place (AMD
/// EPYC, Zen 5; L3 32 MB per 8 cores).
const SHARED_CALLER_MIN_BYTES: i64 = 16 << 20;

impl FuncLowering<'_> {
    /// For each result of `op`, the operands whose buffers it is lowered
    /// as another name of, instead of a buffer of its own: an optimization
    /// barrier's result i names operand i, a tuple all its elements, a
    /// tuple's element the tuple's (see `lower_op`), and a while loop's
    /// slot passed through unchanged its initial value
    /// (`shared_slots`). Such a buffer lives until the last reader of any
    /// of its names.
    pub(super) fn named_operands(
        &self,
        ctx: &Context,
        op: OpId,
    ) -> Vec<Option<std::ops::Range<usize>>> {
        let (results, operands) = (ctx.op(op).results.len(), ctx.op(op).operands().len());
        match ctx.op(op).name {
            strata_dialect_xla::OPTIMIZATION_BARRIER => (0..results)
                .map(|i| (i < operands).then_some(i..i + 1))
                .collect(),
            strata_dialect_xla::TUPLE | strata_dialect_xla::GET_TUPLE_ELEMENT => {
                vec![Some(0..operands); results]
            }
            strata_dialect_xla::WHILE => self
                .shared_slots(ctx, op)
                .into_iter()
                .enumerate()
                .map(|(i, shared)| (shared && i < operands).then_some(i..i + 1))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// For each state slot of `xla.while` `op`, whether the loop reads it in
    /// its initial value's buffer (see `lower_while`): a slot the body
    /// passes through unchanged, unless that buffer is the caller's, a
    /// kernel reads it (`kernel_reads`) and the caller's buffers it would
    /// share are small ([`SHARED_CALLER_MIN_BYTES`]). Planning
    /// (`last_reads`) and lowering ask this with the same values' buffers
    /// known: the arguments'.
    pub(super) fn shared_slots(&self, ctx: &Context, op: OpId) -> Vec<bool> {
        let passed = pass_through_slots(ctx, op);
        let inits = ctx.op(op).operands();
        // Passed-through slots of the caller's that a kernel reads.
        let copy_pays: Vec<bool> = (0..passed.len())
            .map(|i| {
                passed[i]
                    && inits.get(i).is_some_and(|v| {
                        matches!(self.repr.get(v), Some(Repr::Buffer(buf)) if ctx.defining_op(*buf).is_none())
                    })
                    && kernel_reads(ctx, op, i)
            })
            .collect();
        let caller_bytes: i64 = (0..passed.len())
            .filter(|&i| copy_pays[i])
            .map(|i| strata_dialect_mem::storage_bytes(ctx, ctx.value_ty(inits[i])))
            .fold(0, i64::saturating_add);
        let share_callers = caller_bytes > SHARED_CALLER_MIN_BYTES;
        (0..passed.len())
            .map(|i| passed[i] && (share_callers || !copy_pays[i]))
            .collect()
    }
}

/// Whether the condition or body of `xla.while` `op` reads state slot `i`
/// with a kernel (a `kernel.*` op: a GEMM or convolution, whose speed
/// depends on its operands' alignment) or hands it to an op with regions
/// of its own (which may). Element-wise loops and gathers read a slot as
/// fast wherever it lies: a search's sorted table carried through a
/// `while` is not worth a copy per call.
fn kernel_reads(ctx: &Context, op: OpId, i: usize) -> bool {
    (0..ctx.op(op).regions.len())
        .filter_map(|r| ctx.entry_block(op, r))
        .filter_map(|block| ctx.blocks[block].args.get(i).copied())
        .any(|arg| {
            ctx.users(arg).into_iter().any(|user| {
                let user = ctx.op(user);
                user.name.starts_with("kernel.") || !user.regions.is_empty()
            })
        })
}

/// For each state slot of `xla.while` `op`, whether its body returns the
/// slot's block argument unchanged. Such a slot's buffer is never written
/// by the loop: it can be its initial value's buffer, which the loop's
/// result then names too (`last_reads` reads that result through the
/// initial value, so the buffer lives as long as either is read).
fn pass_through_slots(ctx: &Context, op: OpId) -> Vec<bool> {
    let Some(body) = ctx.entry_block(op, 1) else {
        return Vec::new();
    };
    let args = &ctx.blocks[body].args;
    let Some(&term) = ctx.blocks[body].ops.last() else {
        return Vec::new();
    };
    let returned = ctx.op(term).operands();
    (0..ctx.op(op).results.len())
        .map(|i| args.get(i).is_some_and(|a| returned.get(i) == Some(a)))
        .collect()
}
