//! Control flow: `xla.while` becomes `loop.while` over buffers that carry
//! the loop state; `xla.if` and `xla.case` become `loop.if` chains that
//! write the taken branch's values into the result buffers.

use std::collections::HashMap;

use strata_diag::{Diagnostic, Result};
use strata_ir::{BlockId, OpId, Value};

use super::{FuncLowering, Repr};
use crate::builder::Builder;

impl FuncLowering<'_> {
    /// Lowers the ops of `block` with its arguments bound to `args`, calls
    /// `finish` with the values its terminator returns, then frees what the
    /// region allocated (so a loop body does not leak per iteration).
    /// `updatable` are the buffers the region's own ops may update in
    /// place (a while body's state; see `in_place_update`).
    fn lower_region(
        &mut self,
        b: &mut Builder<'_>,
        block: BlockId,
        args: &[Value],
        updatable: &[Value],
        finish: &mut dyn FnMut(&mut Self, &mut Builder<'_>, &[Value]) -> Result<()>,
    ) -> Result<()> {
        for (&a, &buf) in b.ctx.blocks[block].args.clone().iter().zip(args) {
            self.repr.insert(a, Repr::Buffer(buf));
        }
        let ops = b.ctx.blocks[block].ops.clone();
        let (term, body) = ops
            .split_last()
            .ok_or_else(|| Diagnostic::internal(b.loc, "empty region"))?;
        // The region frees only its own buffers, all of them by its end.
        let mark = self.allocs.len();
        let saved_mark = std::mem::replace(&mut self.region_mark, mark);
        // A region nested in a while body does not update its state: it
        // reads the state across its end.
        let saved_in_place = std::mem::replace(
            &mut self.in_place_state,
            updatable.iter().copied().collect(),
        );
        let returned = b.ctx.op(*term).operands().to_vec();
        let lowered = self.lower_ops(b, body, &HashMap::new(), &returned);
        self.in_place_state = saved_in_place;
        lowered?;
        finish(self, b, &returned)?;
        self.free_allocs_since(b, mark);
        self.region_mark = saved_mark;
        Ok(())
    }

    /// Copies `values` into `targets`; a value that lives in a target
    /// another value is copied into goes through a temporary first, so
    /// that swaps stay correct.
    fn copy_into(
        &mut self,
        b: &mut Builder<'_>,
        values: &[Value],
        targets: &[Value],
    ) -> Result<()> {
        let mut srcs = Vec::new();
        for &v in values {
            srcs.push(self.buffer_of(b, v)?);
        }
        let written: Vec<Value> = srcs
            .iter()
            .zip(targets)
            .filter(|(s, t)| s != t)
            .map(|(_, &t)| t)
            .collect();
        for i in 0..srcs.len() {
            if srcs[i] != targets[i] && written.contains(&srcs[i]) {
                let t = b.ty(srcs[i]);
                let tmp = b.alloc(t);
                self.allocs.push((tmp, true));
                b.insert("mem.copy", vec![srcs[i], tmp], &[], vec![]);
                srcs[i] = tmp;
            }
        }
        for (&s, &t) in srcs.iter().zip(targets) {
            if s != t {
                b.insert("mem.copy", vec![s, t], &[], vec![]);
            }
        }
        Ok(())
    }

    /// Fresh buffers for `op`'s results.
    fn result_buffers(&mut self, b: &mut Builder<'_>, op: OpId) -> Result<Vec<Value>> {
        let mut bufs = Vec::new();
        for r in b.ctx.op(op).results.clone() {
            let t = b.ctx.value_ty(r);
            bufs.push(self.new_buffer(b, t)?);
        }
        Ok(bufs)
    }

    /// `xla.while`: the state lives in buffers the body writes its results
    /// back into. A slot the body passes through unchanged (a weight
    /// closed over by a `fori_loop` or `scan` body is one) is read where
    /// its initial value lies, instead of copied into a buffer of its own
    /// at every call, when [`Self::shared_slots`] says so; the loop's
    /// result then names that buffer. A slot whose result the function
    /// returns (`direct_out`) lives in the caller's output buffer, so the
    /// final state is not copied there.
    pub(super) fn lower_while(
        &mut self,
        b: &mut Builder<'_>,
        op: OpId,
        direct_out: &HashMap<Value, usize>,
    ) -> Result<()> {
        let inits = b.ctx.op(op).operands().to_vec();
        let shared = self.shared_slots(b.ctx, op);
        let mut carried = Vec::new();
        for (i, r) in b.ctx.op(op).results.clone().into_iter().enumerate() {
            let buf = match (shared.get(i), inits.get(i), direct_out.get(&r)) {
                (Some(true), Some(&init), _) => self.buffer_of(b, init)?,
                (_, _, Some(&out)) => self.outputs[out],
                _ => {
                    let t = b.ctx.value_ty(r);
                    self.new_buffer(b, t)?
                }
            };
            carried.push(buf);
        }
        self.copy_into(b, &inits, &carried)?;
        let (cond, body) = match (b.ctx.entry_block(op, 0), b.ctx.entry_block(op, 1)) {
            (Some(c), Some(d)) => (c, d),
            _ => return Err(Diagnostic::internal(b.loc, "while without cond and body")),
        };
        let w = b.insert("loop.while", vec![], &[], vec![]);
        let (rc, rb) = (b.ctx.add_region(w), b.ctx.add_region(w));
        let (cb, bb) = (b.ctx.add_block(rc, &[]), b.ctx.add_block(rb, &[]));
        {
            let mut inner = b.in_block(cb);
            let mut cond_value = None;
            self.lower_region(&mut inner, cond, &carried, &[], &mut |this, b, ret| {
                cond_value = Some(this.element(b, ret[0], &[])?.real());
                Ok(())
            })?;
            let c = cond_value
                .ok_or_else(|| Diagnostic::internal(inner.loc, "while cond returns nothing"))?;
            inner.insert("loop.condition", vec![c], &[], vec![]);
        }
        {
            let mut inner = b.in_block(bb);
            self.lower_region(&mut inner, body, &carried, &carried, &mut |this, b, ret| {
                this.copy_into(b, ret, &carried)
            })?;
            inner.insert("loop.yield", vec![], &[], vec![]);
        }
        for (r, buf) in b.ctx.op(op).results.clone().into_iter().zip(carried) {
            self.repr.insert(r, Repr::Buffer(buf));
        }
        Ok(())
    }

    /// `xla.if` (pred) and `xla.case` (index; out of range takes the last
    /// branch): a chain of `loop.if`s, each arm writing its branch's values
    /// into the result buffers.
    pub(super) fn lower_branches(&mut self, b: &mut Builder<'_>, op: OpId) -> Result<()> {
        let results = self.result_buffers(b, op)?;
        let selector = b.ctx.op(op).operands()[0];
        let blocks: Vec<BlockId> = (0..b.ctx.op(op).regions.len())
            .filter_map(|i| b.ctx.entry_block(op, i))
            .collect();
        let is_if = b.ctx.op(op).name == strata_dialect_xla::IF;
        let sel = self.element(b, selector, &[])?.real();
        let conds: Vec<Value> = if is_if {
            vec![sel]
        } else {
            let t = b.ty(sel);
            (0..blocks.len().saturating_sub(1))
                .map(|k| {
                    let kv = b.const_int(k as i128, t);
                    b.cmpi("eq", sel, kv)
                })
                .collect()
        };
        self.branch_chain(b, &conds, &blocks, &results)?;
        for (r, buf) in b.ctx.op(op).results.clone().into_iter().zip(results) {
            self.repr.insert(r, Repr::Buffer(buf));
        }
        Ok(())
    }

    /// `if conds[0] { blocks[0] } else if conds[1] { ... } else { last }`.
    fn branch_chain(
        &mut self,
        b: &mut Builder<'_>,
        conds: &[Value],
        blocks: &[BlockId],
        results: &[Value],
    ) -> Result<()> {
        let Some((&block, rest)) = blocks.split_first() else {
            return Ok(());
        };
        let Some((&c, more)) = conds.split_first() else {
            return self.lower_region(b, block, &[], &[], &mut |this, b, ret| {
                this.copy_into(b, ret, results)
            });
        };
        let (then_b, else_b) = b.if_else_blocks(c);
        {
            let mut inner = b.before_terminator(then_b);
            self.lower_region(&mut inner, block, &[], &[], &mut |this, b, ret| {
                this.copy_into(b, ret, results)
            })?;
        }
        let mut inner = b.before_terminator(else_b);
        self.branch_chain(&mut inner, more, rest, results)
    }
}
