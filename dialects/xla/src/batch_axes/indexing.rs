//! The indexing ops' rules of the batch proof: a dynamic slice, a gather
//! or a scatter keeps the rows apart only in the forms below.

use strata_ir::{Context, OpId, Value};

use super::{Axes, expect, is_zero_constant, value_shape};
use crate::names::DYNAMIC_SLICE;

impl Axes<'_> {
    /// `dynamic_slice` / `dynamic_update_slice` along other dimensions: the
    /// batch dimension taken whole from index 0.
    pub(super) fn dynamic_slice(
        &self,
        ctx: &Context,
        op: OpId,
        ins: &[Option<usize>],
        out: Option<usize>,
    ) -> std::result::Result<(), String> {
        let o = ctx.op(op);
        let k = ins[0].ok_or("slicing an unbatched operand into a batched result")?;
        let (data, indices) = if o.name == DYNAMIC_SLICE {
            (1, &o.operands()[1..])
        } else {
            (2, &o.operands()[2..])
        };
        let full = |v: Value| value_shape(ctx, v).get(k).copied();
        let whole = if o.name == DYNAMIC_SLICE {
            crate::ops::gather::gather_slice_sizes(ctx, op).and_then(|s| s.get(k).copied())
                == full(o.operands()[0])
        } else {
            ins[1] == Some(k) && full(o.operands()[1]) == full(o.operands()[0])
        };
        let from_zero = indices.get(k).is_some_and(|&i| is_zero_constant(ctx, i));
        expect(
            out == Some(k) && whole && from_zero && ins[data..].iter().all(Option::is_none),
            &format!("a dynamic slice along {}", self.var),
        )
    }

    /// A gather keeps rows apart when each row of its result comes from
    /// the same row of its batched inputs only: a lookup of batched indices
    /// in an unbatched table, the batch a whole slice dimension of the
    /// operand that the indices do not address (`x[:, cols]`: the same
    /// indices for every row), or an operand batching dimension paired with
    /// the indices' (`take_along_axis`: each row its own indices).
    pub(super) fn gather(
        &self,
        ctx: &Context,
        op: OpId,
        ins: &[Option<usize>],
        out: Option<usize>,
    ) -> std::result::Result<(), String> {
        let g = crate::ops::gather::gather_dims(ctx, op).ok_or("unreadable dimension numbers")?;
        let o = ctx.op(op);
        let rank = value_shape(ctx, o.results[0]).len();
        let follower = |q| index_follower(rank, &g.offset_dims, g.index_vector_dim, q);
        match (ins[0], ins[1]) {
            (None, Some(q)) => {
                if !g.start_indices_batching_dims.is_empty() {
                    return Err("the batch dimension indexes the operand".into());
                }
                let Some(r) = follower(q) else {
                    return Err("the batch dimension indexes the operand".into());
                };
                expect(Some(r) == out, "the gather's result is batched elsewhere")
            }
            (Some(k), None) => {
                let sizes = crate::ops::gather::gather_slice_sizes(ctx, op).unwrap_or_default();
                let operand = value_shape(ctx, o.operands()[0]);
                if uses(&g.collapsed_slice_dims, k)
                    || uses(&g.operand_batching_dims, k)
                    || uses(&g.start_index_map, k)
                    || sizes.get(k) != Some(&operand[k])
                {
                    return Err("the gather does not take whole rows of a batched operand".into());
                }
                let skipped = [&g.collapsed_slice_dims[..], &g.operand_batching_dims];
                let j = window_position(operand.len(), k, &skipped).ok_or("no slice dimension")?;
                expect(
                    g.offset_dims.get(j).map(|&d| d as usize) == out,
                    "the gather's result is batched elsewhere",
                )
            }
            (Some(k), Some(q)) => {
                let p = g
                    .operand_batching_dims
                    .iter()
                    .position(|&d| d == k as i64)
                    .ok_or("batched indices address the batch dimension")?;
                let rows = value_shape(ctx, o.operands()[0])[k];
                expect(
                    g.start_indices_batching_dims.get(p) == Some(&(q as i64))
                        && value_shape(ctx, o.operands()[1])[q] == rows
                        && follower(q).is_some()
                        && follower(q) == out,
                    "the indices are batched otherwise than the operand",
                )
            }
            (None, None) => expect(out.is_none(), "an unbatched gather with a batched result"),
        }
    }

    /// A scatter keeps rows apart when each row of its operands is updated
    /// from the same row of its updates only: the batch dimension is a
    /// whole update window dimension the indices do not address (the same
    /// indices for every row), or an operand batching dimension paired with
    /// the indices' (each row its own indices).
    pub(super) fn scatter(
        &self,
        ctx: &Context,
        op: OpId,
        ins: &[Option<usize>],
        outs: &[Option<usize>],
    ) -> std::result::Result<(), String> {
        let s = crate::ops::gather::scatter_dims(ctx, op).ok_or("unreadable dimension numbers")?;
        let o = ctx.op(op);
        let n = o.results.len();
        if o.operands().len() != 2 * n + 1 {
            return Err("unexpected operands".into());
        }
        let (operands, indices, updates) = (&ins[..n], ins[n], &ins[n + 1..]);
        let Some(k) = operands[0] else {
            return Err("a scatter of batched updates into an unbatched operand".into());
        };
        let operand = value_shape(ctx, o.operands()[0]);
        let rows = operand[k];
        if operands.iter().chain(outs).any(|&a| a != Some(k)) {
            return Err("the scatter's operands and results are batched differently".into());
        }
        let update_axis = match indices {
            None => {
                if uses(&s.inserted_window_dims, k)
                    || uses(&s.input_batching_dims, k)
                    || uses(&s.scatter_dims_to_operand_dims, k)
                {
                    return Err("the batch dimension is indexed".into());
                }
                let skipped = [&s.inserted_window_dims[..], &s.input_batching_dims];
                let j = window_position(operand.len(), k, &skipped).ok_or("no window dimension")?;
                s.update_window_dims.get(j).map(|&d| d as usize)
            }
            Some(q) => {
                let p = s
                    .input_batching_dims
                    .iter()
                    .position(|&d| d == k as i64)
                    .ok_or("batched indices address the batch dimension")?;
                if s.scatter_indices_batching_dims.get(p) != Some(&(q as i64))
                    || s.index_vector_dim == q as i64
                    || value_shape(ctx, o.operands()[n])[q] != rows
                {
                    return Err("the indices are batched otherwise than the operand".into());
                }
                let urank = value_shape(ctx, o.operands()[n + 1]).len();
                index_follower(urank, &s.update_window_dims, s.index_vector_dim, q)
            }
        };
        let whole = o.operands()[n + 1..].iter().zip(updates).all(|(&u, &a)| {
            a.is_some()
                && a == update_axis
                && update_axis.is_some_and(|d| value_shape(ctx, u)[d] == rows)
        });
        expect(whole, "the updates are batched otherwise than the operand")
    }
}

fn uses(dims: &[i64], d: usize) -> bool {
    dims.contains(&(d as i64))
}

/// The place of operand dimension `k` among the window (slice) dimensions
/// of a gather or scatter: the operand's dimensions in none of `skipped`.
fn window_position(rank: usize, k: usize, skipped: &[&[i64]]) -> Option<usize> {
    (0..rank)
        .filter(|&d| !skipped.iter().any(|s| uses(s, d)))
        .position(|d| d == k)
}

/// The dimension of a gather's result (or a scatter's updates) that
/// follows dimension `q` of the indices: the dimensions not in
/// `window_dims`, in order, follow the indices' dimensions other than the
/// index vector dimension `ivd`; `None` for `ivd` itself.
fn index_follower(rank: usize, window_dims: &[i64], ivd: i64, q: usize) -> Option<usize> {
    if ivd == q as i64 {
        return None;
    }
    let place = q - usize::from(ivd >= 0 && (ivd as usize) < q);
    (0..rank).filter(|&d| !uses(window_dims, d)).nth(place)
}
