//! `xla.scatter` (copy the operands, then fold every in-bounds update element
//! into the element its index selects through the update computation).
//! `xla.gather` is fused: its per-element source index is built in
//! `elemental.rs` from the same index-vector helpers.

use strata_diag::{Diagnostic, Result};
use strata_ir::{OpId, Value};

use super::FuncLowering;
use super::element::Scalar;
use super::element::{load_scalar, store_scalar};
use super::materialize::shape_of;
use super::pattern::{Fusion, OpLowering};
use super::region::emit_region;
use crate::builder::Builder;

/// The lowering pattern of `xla.scatter` (gathers are fused index remaps).
pub(super) const SCATTER: OpLowering = OpLowering {
    ops: &[&[strata_dialect_xla::names::SCATTER]],
    fusion: Fusion::Never,
    library_arithmetic: false,
    lower: |cx, b, op, bufs| scatter(cx, b, op, bufs),
};

/// Copies the inputs to the results, then folds every update element
/// into the result element its index selects (StableHLO's definition);
/// updates that land out of bounds are skipped.
pub(super) fn scatter(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    op: OpId,
    bufs: &[Value],
) -> Result<()> {
    let operands = b.ctx.op(op).operands().to_vec();
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
        super::shape::copy_operand_into(cx, b, x, bufs[i])?;
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
        let starts = cx.index_vector(b, indices, &scatter_pos, d.index_vector_dim as usize)?;
        let zero = b.const_index(0);
        let mut ridx = vec![zero; shape.len()];
        for (j, &dim) in d.scatter_dims_to_operand_dims.iter().enumerate() {
            ridx[dim as usize] = starts[j];
        }
        let layout = IndexLayout {
            operand_batching_dims: &d.input_batching_dims,
            indices_batching_dims: &d.scatter_indices_batching_dims,
            index_vector_dim: d.index_vector_dim,
            no_window_dims: &d.inserted_window_dims,
        };
        add_batch_positions(b, &mut ridx, &layout, &scatter_pos);
        // As XLA:CPU: an update window is applied only when all of it
        // lands in the operand (0 <= start <= dim - window size along
        // every dimension); otherwise none of it is.
        let window_sizes: Vec<i64> = d
            .update_window_dims
            .iter()
            .map(|&r| ushape[r as usize])
            .collect();
        let sizes = layout.window_sizes(shape.len(), &window_sizes);
        let inside = window_fits(b, &ridx, &shape, &sizes);
        add_window_offsets(b, &mut ridx, &layout, window);
        let mut apply = |b: &mut Builder<'_>| -> Result<()> {
            let mut args: Vec<Scalar> = bufs.iter().map(|&o| load_scalar(b, o, &ridx)).collect();
            for &u in &updates {
                args.push(cx.element(b, u, uidx)?);
            }
            for (i, s) in emit_region(b, body, &args)?.into_iter().enumerate() {
                store_scalar(b, s, bufs[i], &ridx);
            }
            Ok(())
        };
        b.if_then(inside, &mut apply)
    })
}

/// How a gather's or scatter's operand index is assembled from the indices
/// tensor (gather's and scatter's dimension numbers under common names).
pub(super) struct IndexLayout<'a> {
    /// Operand dimensions paired with `indices_batching_dims`.
    pub operand_batching_dims: &'a [i64],
    pub indices_batching_dims: &'a [i64],
    pub index_vector_dim: i64,
    /// Operand dimensions without a window offset (gather's
    /// `collapsed_slice_dims`, scatter's `inserted_window_dims`).
    pub no_window_dims: &'a [i64],
}

impl IndexLayout<'_> {
    /// The extent of the window along each of the operand's `rank`
    /// dimensions: 1 along window-less and batching dimensions, the
    /// `window` sizes in order along the others.
    fn window_sizes(&self, rank: usize, window: &[i64]) -> Vec<i64> {
        let mut next = window.iter().copied();
        (0..rank as i64)
            .map(|d| {
                if self.no_window_dims.contains(&d) || self.operand_batching_dims.contains(&d) {
                    1
                } else {
                    next.next().unwrap_or(1)
                }
            })
            .collect()
    }
}

/// Adds to each batching dimension of an operand index its position among
/// the indices' batch dimensions (`batch_pos`, the indices' dimensions
/// other than `index_vector_dim`).
pub(super) fn add_batch_positions(
    b: &mut Builder<'_>,
    index: &mut [Value],
    layout: &IndexLayout<'_>,
    batch_pos: &[Value],
) {
    for (&od, &id) in layout
        .operand_batching_dims
        .iter()
        .zip(layout.indices_batching_dims)
    {
        let pos = if id < layout.index_vector_dim {
            id
        } else {
            id - 1
        } as usize;
        index[od as usize] = b.binary("arith.addi", index[od as usize], batch_pos[pos]);
    }
}

/// Adds the `window` offsets, in order, to the dimensions of an operand
/// index that are neither window-less nor batching.
pub(super) fn add_window_offsets(
    b: &mut Builder<'_>,
    index: &mut [Value],
    layout: &IndexLayout<'_>,
    window: Vec<Value>,
) {
    let mut next = window.into_iter();
    for (dim, slot) in index.iter_mut().enumerate() {
        let d = dim as i64;
        let skipped =
            layout.no_window_dims.contains(&d) || layout.operand_batching_dims.contains(&d);
        if !skipped && let Some(w) = next.next() {
            *slot = b.binary("arith.addi", *slot, w);
        }
    }
}

/// Whether a window of `sizes` starting at `start` lies inside `shape`:
/// `0 <= start[d] <= shape[d] - sizes[d]` for every dimension.
fn window_fits(b: &mut Builder<'_>, start: &[Value], shape: &[i64], sizes: &[i64]) -> Value {
    let zero = b.const_index(0);
    let i1 = b.ctx.types.int_ty(1);
    let mut fits = b.const_int(1, i1);
    for ((&s, &n), &w) in start.iter().zip(shape).zip(sizes) {
        let last = b.const_index(n - w);
        let ge = b.cmpi("sge", s, zero);
        let le = b.cmpi("sle", s, last);
        let both = b.binary("arith.andi", ge, le);
        fits = b.binary("arith.andi", fits, both);
    }
    fits
}
