//! `xla.scatter` (copy the operands, then fold every in-bounds update element
//! into the element its index selects through the update computation).
//! `xla.gather` is fused: its per-element source index is built in
//! `elemental.rs` from the same index-vector helpers.

use strata_diag::{Diagnostic, Result};
use strata_ir::{OpId, Value};

use super::FuncLowering;
use super::elemental::{load_scalar, store_scalar};
use super::materialize::shape_of;
use super::region::emit_region;
use super::scalar::Scalar;
use crate::builder::Builder;

impl FuncLowering<'_> {
    /// Copies the inputs to the results, then folds every update element
    /// into the result element its index selects (StableHLO's definition);
    /// updates that land out of bounds are skipped.
    pub(super) fn scatter(&mut self, b: &mut Builder<'_>, op: OpId, bufs: &[Value]) -> Result<()> {
        let operands = b.ctx.op(op).operands.clone();
        let k = (operands.len() - 1) / 2;
        let (inputs, indices, updates) = (
            operands[..k].to_vec(),
            operands[k],
            operands[k + 1..].to_vec(),
        );
        let d = strata_dialect_xla::ops::gather::scatter_dims(b.ctx, op)
            .ok_or_else(|| Diagnostic::internal(b.loc, "scatter without dimension numbers"))?;
        let body = b
            .ctx
            .entry_block(op, 0)
            .ok_or_else(|| Diagnostic::internal(b.loc, "scatter without body"))?;
        let shape = shape_of(b.ctx, inputs[0]);
        let ushape = shape_of(b.ctx, updates[0]);
        for (i, &x) in inputs.iter().enumerate() {
            let out = bufs[i];
            b.loop_nest(&shape, &mut |b, idx| {
                let v = self.element(b, x, idx)?;
                store_scalar(b, v, out, idx);
                Ok(())
            })?;
        }
        b.loop_nest(&ushape, &mut |b, uidx| {
            let scatter_pos: Vec<Value> = (0..uidx.len())
                .filter(|r| !d.update_window_dims.contains(&(*r as i64)))
                .map(|r| uidx[r])
                .collect();
            let window: Vec<Value> = d
                .update_window_dims
                .iter()
                .map(|&r| uidx[r as usize])
                .collect();
            let starts =
                self.index_vector(b, indices, &scatter_pos, d.index_vector_dim as usize)?;
            let zero = b.const_index(0);
            let mut ridx = vec![zero; shape.len()];
            for (j, &dim) in d.scatter_dims_to_operand_dims.iter().enumerate() {
                ridx[dim as usize] = starts[j];
            }
            for (&id, &sd) in d
                .input_batching_dims
                .iter()
                .zip(&d.scatter_indices_batching_dims)
            {
                let pos = if sd < d.index_vector_dim { sd } else { sd - 1 } as usize;
                ridx[id as usize] = b.binary("arith.addi", ridx[id as usize], scatter_pos[pos]);
            }
            let mut next = window.into_iter();
            for dim in 0..shape.len() {
                let skipped = d.inserted_window_dims.contains(&(dim as i64))
                    || d.input_batching_dims.contains(&(dim as i64));
                if !skipped && let Some(w) = next.next() {
                    ridx[dim] = b.binary("arith.addi", ridx[dim], w);
                }
            }
            let mut inside: Option<Value> = None;
            for (dim, &r) in ridx.iter().enumerate() {
                let n = b.const_index(shape[dim]);
                let ge = b.cmpi("sge", r, zero);
                let lt = b.cmpi("slt", r, n);
                let both = b.binary("arith.andi", ge, lt);
                inside = Some(match inside {
                    Some(c) => b.binary("arith.andi", c, both),
                    None => both,
                });
            }
            let mut apply = |b: &mut Builder<'_>| -> Result<()> {
                let mut args: Vec<Scalar> =
                    bufs.iter().map(|&o| load_scalar(b, o, &ridx)).collect();
                for &u in &updates {
                    args.push(self.element(b, u, uidx)?);
                }
                for (i, s) in emit_region(b, body, &args)?.into_iter().enumerate() {
                    store_scalar(b, s, bufs[i], &ridx);
                }
                Ok(())
            };
            match inside {
                Some(c) => b.if_then(c, &mut apply),
                None => apply(b),
            }
        })
    }
}
