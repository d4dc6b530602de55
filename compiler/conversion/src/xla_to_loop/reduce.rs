//! `xla.reduce`: per output element, stack accumulators start at the init
//! values and fold in the reduced elements through the reducer body; a
//! reduction over outer dimensions walks the input in memory order instead.
//! Supports any number of inputs (variadic reductions such as argmax) and any
//! reducer region made of element-wise ops.

use strata_diag::{Diagnostic, Result};
use strata_ir::{BlockId, OpId, Value};

use super::FuncLowering;
use super::elemental::{load_scalar, store_scalar};
use super::materialize::shape_of;
use super::region::{emit_reducer, fold_into, stack_accumulators, store_accs};
use super::scalar::Scalar;
use crate::builder::Builder;

impl FuncLowering<'_> {
    /// Outer loops over kept dimensions; per output element, accumulators
    /// on the stack start at the init values and fold in the reduced
    /// dimensions through the reducer body.
    pub(super) fn reduce(&mut self, b: &mut Builder<'_>, op: OpId, bufs: &[Value]) -> Result<()> {
        let operands = b.ctx.op(op).operands.clone();
        let k = operands.len() / 2;
        let (inputs, inits) = (operands[..k].to_vec(), operands[k..].to_vec());
        let in_shape = shape_of(b.ctx, inputs[0]);
        let dims = b.ctx.i64_array(op, "dimensions").unwrap_or_default();
        let kept: Vec<usize> = (0..in_shape.len())
            .filter(|d| !dims.contains(&(*d as i64)))
            .collect();
        let out_shape: Vec<i64> = kept.iter().map(|&d| in_shape[d]).collect();
        let red_shape: Vec<i64> = dims.iter().map(|&d| in_shape[d as usize]).collect();
        let body = b
            .ctx
            .entry_block(op, 0)
            .ok_or_else(|| Diagnostic::internal(b.loc, "reduce without body"))?;
        let innermost_kept =
            in_shape.last().is_some() && !dims.contains(&(in_shape.len() as i64 - 1));
        if innermost_kept {
            return self.reduce_in_memory_order(b, op, bufs, &kept, body);
        }
        // Output elements are independent; each has its own accumulators.
        b.parallel_nest(&out_shape, &mut |b, oidx| {
            let accs = stack_accumulators(b, &inits);
            for (i, &init) in inits.iter().enumerate() {
                let s = self.element(b, init, &[])?;
                store_scalar(b, s, accs[i], &[]);
            }
            b.loop_nest(&red_shape, &mut |b, ridx| {
                let mut full = vec![
                    ridx.first().copied().unwrap_or(
                        oidx.first().copied().unwrap_or_else(|| b.const_index(0))
                    );
                    in_shape.len()
                ];
                for (j, &d) in kept.iter().enumerate() {
                    full[d] = oidx[j];
                }
                for (j, &d) in dims.iter().enumerate() {
                    full[d as usize] = ridx[j];
                }
                let mut xs = Vec::new();
                for &x in &inputs {
                    xs.push(self.element(b, x, &full)?);
                }
                fold_into(b, body, &accs, xs)
            })?;
            store_accs(b, &accs, bufs, oidx);
            Ok(())
        })
    }

    /// Reduction over outer dimensions only: the results start at the init
    /// values and the input is read once in memory order, each element
    /// folded into its result. Every result still folds its inputs in
    /// increasing index order.
    pub(super) fn reduce_in_memory_order(
        &mut self,
        b: &mut Builder<'_>,
        op: OpId,
        bufs: &[Value],
        kept: &[usize],
        body: BlockId,
    ) -> Result<()> {
        let operands = b.ctx.op(op).operands.clone();
        let k = operands.len() / 2;
        let (inputs, inits) = (operands[..k].to_vec(), operands[k..].to_vec());
        let in_shape = shape_of(b.ctx, inputs[0]);
        let out_shape: Vec<i64> = kept.iter().map(|&d| in_shape[d]).collect();
        b.parallel_nest(&out_shape, &mut |b, oidx| {
            for (i, &init) in inits.iter().enumerate() {
                let s = self.element(b, init, &[])?;
                store_scalar(b, s, bufs[i], oidx);
            }
            Ok(())
        })?;
        // Folds the input elements at `rows` (values of the outermost
        // dimension, in order) and `rest` (the other indices) into the
        // results: one load and one store of each result per call, the
        // elements folded in the same order as one row at a time.
        let fold = |this: &mut Self, b: &mut Builder<'_>, rows: &[Value], rest: &[Value]| {
            let at = |row: Value| -> Vec<Value> {
                let mut idx = vec![row];
                idx.extend_from_slice(rest);
                idx
            };
            let first = at(rows[0]);
            let oidx: Vec<Value> = kept.iter().map(|&d| first[d]).collect();
            let mut acc: Vec<Scalar> = bufs.iter().map(|&o| load_scalar(b, o, &oidx)).collect();
            for &row in rows {
                let idx = at(row);
                let mut args = acc.clone();
                for &x in &inputs {
                    args.push(this.element(b, x, &idx)?);
                }
                acc = emit_reducer(b, body, &args)?;
            }
            for (i, s) in acc.into_iter().enumerate() {
                store_scalar(b, s, bufs[i], &oidx);
            }
            Ok(())
        };
        let rows = in_shape.first().copied().unwrap_or(1);
        let rest_shape = in_shape.get(1..).unwrap_or(&[]).to_vec();
        // When the outermost dimension is reduced (a column sum), four rows
        // at a time share each load and store of the results.
        const ROWS: i64 = 4;
        if kept.first() != Some(&0) && rows >= ROWS && !in_shape.is_empty() {
            let main = rows - rows % ROWS;
            b.for_step(0, main, ROWS, &mut |b, r0| {
                let rs: Vec<Value> = (0..ROWS)
                    .map(|u| {
                        let c = b.const_index(u);
                        b.binary("arith.addi", r0, c)
                    })
                    .collect();
                b.loop_nest(&rest_shape, &mut |b, rest| fold(self, b, &rs, rest))
            })?;
            if main == rows {
                return Ok(());
            }
            return b.for_range(main, rows, &mut |b, r| {
                b.loop_nest(&rest_shape, &mut |b, rest| fold(self, b, &[r], rest))
            });
        }
        // (The innermost dimension is kept, so the input has one at least.)
        // When the outermost is kept too, its rows fold into disjoint results.
        if kept.first() == Some(&0) {
            return b.parallel_for_step(0, rows, 1, &mut |b, r| {
                b.loop_nest(&rest_shape, &mut |b, rest| fold(self, b, &[r], rest))
            });
        }
        b.loop_nest(&in_shape, &mut |b, idx| fold(self, b, &idx[..1], &idx[1..]))
    }
}
