//! Element-at-index emission: the value of element `idx` of a tensor,
//! either loaded from its buffer or computed from its producer (fusion).

use strata_diag::{Diagnostic, Result};
use strata_dialect_xla::names::*;
use strata_ir::{Context, OpId, Value};

use super::element::{Scalar, constant_element, from_bits, load_scalar, to_bits, total_bits};
use super::plan::{is_elementwise, is_index_only};
use super::scalar;
use super::{FuncLowering, Repr};
use crate::builder::Builder;

/// An integer index element of type `elem` as a signed `index` value.
/// Unsigned values are saturated to 2^62 first, so a ui64 index of 2^63 or
/// more stays a large positive index (clamped to `dim - size`, or out of
/// bounds) instead of wrapping negative; 2^62 plus any in-range offset
/// (dimensions stay below 2^48) cannot overflow.
fn index_value(b: &mut Builder<'_>, v: Scalar, elem: strata_ir::Type) -> Result<Value> {
    let i64t = b.ctx.types.int_ty(64);
    let mut v = scalar::convert(b, v, elem, i64t)?.real();
    if b.ctx.types.is_unsigned(elem) {
        let limit = b.const_int(1 << 62, i64t);
        v = b.binary("arith.minui", v, limit);
    }
    let it = b.ctx.types.index_ty();
    Ok(b.cast("arith.index_cast", v, it))
}

fn shape(ctx: &Context, v: Value) -> Vec<i64> {
    ctx.types
        .shape(ctx.value_ty(v))
        .map(|s| s.to_vec())
        .unwrap_or_default()
}

pub use strata_ir::row_major_strides as strides;

impl FuncLowering<'_> {
    /// `xla.bitcast_convert` between element types of different widths:
    /// a wide element is the narrow ones of the last dimension, the first
    /// in its lowest bits (little-endian).
    fn bitcast_resize(
        &mut self,
        b: &mut Builder<'_>,
        operand: Value,
        to: strata_ir::Type,
        idx: &[Value],
    ) -> Result<Scalar> {
        let from = b.ctx.types.elem(b.ctx.value_ty(operand));
        let (wf, wt) = (total_bits(b.ctx, from), total_bits(b.ctx, to));
        if wf > wt {
            // Narrowing: result[.., j] = bits [j·wt, (j+1)·wt) of operand[..].
            let (outer, j) = idx.split_at(idx.len() - 1);
            let x = self.element(b, operand, outer)?;
            let bits = to_bits(b, x, from);
            let it = b.ty(bits);
            let j = b.cast("arith.index_cast", j[0], it);
            let w = b.const_int(wt as i128, it);
            let sh = b.binary("arith.muli", j, w);
            let shifted = b.binary("arith.shrui", bits, sh);
            let nt = b.ctx.types.int_ty(wt);
            let narrow = b.cast("arith.trunci", shifted, nt);
            Ok(from_bits(b, narrow, to))
        } else {
            // Widening: the operand's last dimension holds the pieces.
            let n = b
                .ctx
                .types
                .shape(b.ctx.value_ty(operand))
                .and_then(|s| s.last().copied())
                .unwrap_or(1);
            let wide = b.ctx.types.int_ty(wt);
            let mut acc = b.const_int(0, wide);
            for j in 0..n {
                let mut full = idx.to_vec();
                full.push(b.const_index(j));
                let x = self.element(b, operand, &full)?;
                let bits = to_bits(b, x, from);
                let ext = b.cast("arith.extui", bits, wide);
                let sh = b.const_int((j as i128) * wf as i128, wide);
                let part = b.binary("arith.shli", ext, sh);
                acc = b.binary("arith.ori", acc, part);
            }
            Ok(from_bits(b, acc, to))
        }
    }

    /// One start index (from `indices` at `at`) as a signed `index` value.
    fn index_at(&mut self, b: &mut Builder<'_>, indices: Value, at: &[Value]) -> Result<Value> {
        let elem = b.ctx.types.elem(b.ctx.value_ty(indices));
        let v = self.element(b, indices, at)?;
        index_value(b, v, elem)
    }

    /// The start-index vector for batch position `batch` (the indices
    /// tensor's dimensions other than `index_vector_dim`).
    pub fn index_vector(
        &mut self,
        b: &mut Builder<'_>,
        indices: Value,
        batch: &[Value],
        vector_dim: usize,
    ) -> Result<Vec<Value>> {
        let ishape = b
            .ctx
            .types
            .shape(b.ctx.value_ty(indices))
            .map(|s| s.to_vec())
            .unwrap_or_default();
        if vector_dim >= ishape.len() {
            return Ok(vec![self.index_at(b, indices, batch)?]);
        }
        let mut out = Vec::new();
        for k in 0..ishape[vector_dim] {
            let mut at = batch.to_vec();
            let kv = b.const_index(k);
            at.insert(vector_dim, kv);
            out.push(self.index_at(b, indices, &at)?);
        }
        Ok(out)
    }

    /// Operand index of result element `idx` of `xla.gather` (StableHLO's
    /// definition: clamped start + batching + offset within the slice).
    fn gather_index(
        &mut self,
        b: &mut Builder<'_>,
        op: OpId,
        idx: &[Value],
        oshape: &[i64],
    ) -> Result<Vec<Value>> {
        let d = strata_dialect_xla::ops::gather::gather_dims(b.ctx, op)
            .ok_or_else(|| Diagnostic::internal(b.loc, "gather without dimension numbers"))?;
        let sizes = strata_dialect_xla::ops::gather::gather_slice_sizes(b.ctx, op)
            .ok_or_else(|| Diagnostic::internal(b.loc, "gather without slice_sizes"))?;
        let indices = b.ctx.op(op).operands()[1];
        let batch: Vec<Value> = (0..idx.len())
            .filter(|r| !d.offset_dims.contains(&(*r as i64)))
            .map(|r| idx[r])
            .collect();
        let offsets: Vec<Value> = d.offset_dims.iter().map(|&r| idx[r as usize]).collect();
        let ivd = d.index_vector_dim as usize;
        let starts = self.index_vector(b, indices, &batch, ivd)?;
        let zero = b.const_index(0);
        let mut out = vec![zero; oshape.len()];
        for (k, &dim) in d.start_index_map.iter().enumerate() {
            let dim = dim as usize;
            let hi = b.const_index(oshape[dim] - sizes[dim]);
            let v = b.binary("arith.minsi", starts[k], hi);
            out[dim] = b.binary("arith.maxsi", v, zero);
        }
        let layout = super::gather_scatter::IndexLayout {
            operand_batching_dims: &d.operand_batching_dims,
            indices_batching_dims: &d.start_indices_batching_dims,
            index_vector_dim: d.index_vector_dim,
            no_window_dims: &d.collapsed_slice_dims,
        };
        super::gather_scatter::add_batch_positions(b, &mut out, &layout, &batch);
        super::gather_scatter::add_window_offsets(b, &mut out, &layout, offsets);
        Ok(out)
    }

    /// Start indices clamped to `[0, dim - size]` per dimension, as
    /// `index` values (StableHLO's dynamic_slice / dynamic_update_slice).
    pub fn clamped_starts(
        &mut self,
        b: &mut Builder<'_>,
        starts: &[Value],
        dims: &[i64],
        sizes: &[i64],
    ) -> Result<Vec<Value>> {
        let mut out = Vec::new();
        for (d, &s) in starts.iter().enumerate() {
            let elem = b.ctx.types.elem(b.ctx.value_ty(s));
            let v = self.element(b, s, &[])?;
            let v = index_value(b, v, elem)?;
            let zero = b.const_index(0);
            let hi = b.const_index(dims[d] - sizes[d]);
            let v = b.binary("arith.minsi", v, hi);
            out.push(b.binary("arith.maxsi", v, zero));
        }
        Ok(out)
    }

    /// Element `idx` of original tensor value `v`.
    pub fn element(&mut self, b: &mut Builder<'_>, v: Value, idx: &[Value]) -> Result<Scalar> {
        // Only inside a nest (see `multi_output`): the key costs an
        // allocation per element emitted.
        let key = self.computed.as_ref().map(|_| (v, idx.to_vec(), b.block()));
        if let Some(s) = key.as_ref().and_then(|k| self.computed.as_ref()?.get(k)) {
            return Ok(*s);
        }
        match self.repr.get(&v).copied() {
            Some(Repr::Buffer(m)) => Ok(load_scalar(b, m, idx)),
            Some(Repr::Fused(op)) => {
                let s = self.compute(b, op, idx)?;
                if let (Some(c), Some(k)) = (self.computed.as_mut(), key) {
                    c.insert(k, s);
                }
                Ok(s)
            }
            None => Err(Diagnostic::internal(
                b.loc,
                "use of a value that was not lowered",
            )),
        }
    }

    /// Element `idx` of `op`'s (single) result, computed from its operands.
    pub fn compute(&mut self, b: &mut Builder<'_>, op: OpId, idx: &[Value]) -> Result<Scalar> {
        let name = b.ctx.op(op).name;
        let operands = b.ctx.op(op).operands().to_vec();
        let result = b.ctx.op(op).results[0];
        let rshape = shape(b.ctx, result);
        let stored = b.ctx.types.elem(b.ctx.value_ty(result));
        let relem = scalar::compute_type(b.ctx, stored);
        match name {
            CONSTANT => {
                let d = b
                    .ctx
                    .dense_attr(op, "value")
                    .cloned()
                    .ok_or_else(|| Diagnostic::internal(b.loc, "constant without value"))?;
                Ok(constant_element(b, &d, stored))
            }
            IOTA => {
                let d = strata_dialect_xla::ops::shape::iota_dimension(b.ctx, op).unwrap_or(0);
                let i64t = b.ctx.types.int_ty(64);
                let i = b.cast("arith.index_cast", idx[d], i64t);
                scalar::convert(b, Scalar::Real(i), i64t, relem)
            }
            GET_DIMENSION_SIZE => {
                let d = strata_dialect_xla::ops::misc::size_dimension(b.ctx, op).unwrap_or(0);
                let n = shape(b.ctx, operands[0]).get(d).copied().unwrap_or(0);
                Ok(Scalar::Real(b.const_int(n as i128, stored)))
            }
            MAP => {
                let mut args = Vec::new();
                for &x in &operands {
                    args.push(self.element(b, x, idx)?);
                }
                let body = b
                    .ctx
                    .entry_block(op, 0)
                    .ok_or_else(|| Diagnostic::internal(b.loc, "map without body"))?;
                super::region::emit_region(b, body, &args)?
                    .into_iter()
                    .next()
                    .ok_or_else(|| Diagnostic::internal(b.loc, "map body returns nothing"))
            }
            BITCAST_CONVERT
                if total_bits(b.ctx, b.ctx.types.elem(b.ctx.value_ty(operands[0])))
                    != total_bits(b.ctx, stored) =>
            {
                self.bitcast_resize(b, operands[0], stored, idx)
            }
            _ if is_index_only(name) => {
                let src = self.source_index(b, op, idx, &rshape)?;
                self.element(b, operands[0], &src)
            }
            _ if is_elementwise(name) => {
                let mut args = Vec::new();
                for &x in &operands {
                    // 0-d operands (select's predicate, clamp's bounds) broadcast.
                    let xi: &[Value] = if shape(b.ctx, x).is_empty() { &[] } else { idx };
                    args.push(self.element(b, x, xi)?);
                }
                let value_operand = if matches!(name, SELECT | CLAMP) {
                    operands[1]
                } else {
                    operands[0]
                };
                let elem = b.ctx.types.elem(b.ctx.value_ty(value_operand));
                let elem = scalar::compute_type(b.ctx, elem);
                let value = scalar::emit(b, op, name, &args, elem, relem)?;
                Ok(scalar::round_to_stored(b, value, stored))
            }
            _ => Err(Diagnostic::internal(
                b.loc,
                format!("'{name}' cannot be computed per element"),
            )),
        }
    }

    /// Operand index for result index `idx` of an index-remapping op.
    fn source_index(
        &mut self,
        b: &mut Builder<'_>,
        op: OpId,
        idx: &[Value],
        rshape: &[i64],
    ) -> Result<Vec<Value>> {
        let name = b.ctx.op(op).name;
        let operand = b.ctx.op(op).operands()[0];
        let oshape = shape(b.ctx, operand);
        use strata_dialect_xla::ops::shape as views;
        let missing = |what: &str| Diagnostic::internal(b.loc, format!("'{name}' without {what}"));
        Ok(match name {
            BROADCAST_IN_DIM => {
                let dims = views::broadcast_dimensions(b.ctx, op)
                    .ok_or_else(|| missing("broadcast_dimensions"))?;
                let mut out = Vec::new();
                for (i, &d) in dims.iter().enumerate() {
                    if oshape[i] == 1 && rshape[d] != 1 {
                        out.push(b.const_index(0));
                    } else {
                        out.push(idx[d]);
                    }
                }
                out
            }
            TRANSPOSE => {
                let perm = views::permutation(b.ctx, op).ok_or_else(|| missing("permutation"))?;
                let mut out =
                    vec![idx.first().copied().unwrap_or_else(|| b.const_index(0)); oshape.len()];
                for (i, &p) in perm.iter().enumerate() {
                    out[p] = idx[i];
                }
                out
            }
            SLICE => {
                let views::SliceBounds { start, strides, .. } =
                    views::slice_bounds(b.ctx, op).ok_or_else(|| missing("its bounds"))?;
                let mut out = Vec::new();
                for d in 0..oshape.len() {
                    let s = b.const_index(start[d]);
                    let st = b.const_index(strides[d]);
                    let m = b.binary("arith.muli", idx[d], st);
                    out.push(b.binary("arith.addi", m, s));
                }
                out
            }
            REVERSE => {
                let dims =
                    views::reverse_dimensions(b.ctx, op).ok_or_else(|| missing("dimensions"))?;
                let mut out = idx.to_vec();
                for d in dims {
                    let last = b.const_index(oshape[d] - 1);
                    out[d] = b.binary("arith.subi", last, idx[d]);
                }
                out
            }
            RESHAPE => reshape_index(b, idx, rshape, &oshape),
            GATHER => self.gather_index(b, op, idx, &oshape)?,
            DYNAMIC_SLICE => {
                let starts = b.ctx.op(op).operands()[1..].to_vec();
                let starts = self.clamped_starts(b, &starts, &oshape, rshape)?;
                idx.iter()
                    .zip(starts)
                    .map(|(&i, s)| b.binary("arith.addi", i, s))
                    .collect()
            }
            _ => {
                return Err(Diagnostic::internal(
                    b.loc,
                    format!("'{name}' does not remap indices"),
                ));
            }
        })
    }
}

/// The index in `to` of the element at `idx` in `from` (same elements, row
/// major). The dimensions split into the smallest groups whose sizes agree
/// (`2x56x56x96` to `2x8x7x8x7x96`: `2 | 56 -> 8x7 | 56 -> 8x7 | 96`), and
/// each group is linearized and delinearized on its own: a dimension kept
/// as it is keeps its index, and no division involves an index of another
/// group. (Dividing the index linearized over all dimensions put the
/// innermost loop's index into every division: LLVM could neither hoist
/// them nor vectorize, and a window partition ran at a tenth of a copy's
/// speed.)
pub fn reshape_index(b: &mut Builder<'_>, idx: &[Value], from: &[i64], to: &[i64]) -> Vec<Value> {
    if from == to {
        return idx.to_vec();
    }
    let zero = b.const_index(0);
    let mut out = vec![zero; to.len()];
    for (f, t) in dimension_groups(from, to) {
        if f.len() == 1 && t.len() == 1 {
            out[t[0]] = idx[f[0]];
            continue;
        }
        let fsizes: Vec<i64> = f.iter().map(|&d| from[d]).collect();
        let findex: Vec<Value> = f.iter().map(|&d| idx[d]).collect();
        let linear = linear_index(b, &findex, &fsizes);
        let tsizes: Vec<i64> = t.iter().map(|&d| to[d]).collect();
        let ts = strides(&tsizes);
        for (k, &d) in t.iter().enumerate() {
            let q = if ts[k] == 1 {
                linear
            } else {
                let s = b.const_index(ts[k]);
                b.binary("arith.divui", linear, s)
            };
            out[d] = if k == 0 {
                q
            } else {
                let n = b.const_index(to[d]);
                b.binary("arith.remui", q, n)
            };
        }
    }
    out
}

/// Row-major linear index of `idx` in `sizes`.
pub(super) fn linear_index(b: &mut Builder<'_>, idx: &[Value], sizes: &[i64]) -> Value {
    let mut acc = b.const_index(0);
    for (&i, &s) in idx.iter().zip(sizes) {
        let size = b.const_index(s);
        let scaled = b.binary("arith.muli", acc, size);
        acc = b.binary("arith.addi", scaled, i);
    }
    acc
}

/// The dimensions of `from` and `to` (row-major shapes of one size) in the
/// smallest groups of consecutive dimensions with equal sizes, size-1
/// dimensions left out (their index is 0). A shape with a zero dimension
/// makes one group of everything.
fn dimension_groups(from: &[i64], to: &[i64]) -> Vec<(Vec<usize>, Vec<usize>)> {
    let f: Vec<usize> = (0..from.len()).filter(|&d| from[d] != 1).collect();
    let t: Vec<usize> = (0..to.len()).filter(|&d| to[d] != 1).collect();
    if from.contains(&0) || to.contains(&0) {
        return vec![(f, t)];
    }
    let mut groups = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < f.len() && j < t.len() {
        let (mut fg, mut tg) = (vec![f[i]], vec![t[j]]);
        let (mut pf, mut pt) = (from[f[i]], to[t[j]]);
        i += 1;
        j += 1;
        while pf != pt {
            if pf < pt && i < f.len() {
                pf *= from[f[i]];
                fg.push(f[i]);
                i += 1;
            } else if pt < pf && j < t.len() {
                pt *= to[t[j]];
                tg.push(t[j]);
                j += 1;
            } else {
                break;
            }
        }
        groups.push((fg, tg));
    }
    // Sizes that did not close (shapes of different sizes, which the
    // verifier rejects) join the last group.
    if let Some(last) = groups.last_mut() {
        last.0.extend(&f[i..]);
        last.1.extend(&t[j..]);
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::dimension_groups;

    fn groups(from: &[i64], to: &[i64]) -> Vec<(Vec<usize>, Vec<usize>)> {
        dimension_groups(from, to)
    }

    #[test]
    fn a_window_partition_splits_only_the_split_dimensions() {
        let g = groups(&[2, 56, 56, 96], &[2, 8, 7, 8, 7, 96]);
        let want = vec![
            (vec![0], vec![0]),
            (vec![1], vec![1, 2]),
            (vec![2], vec![3, 4]),
            (vec![3], vec![5]),
        ];
        assert_eq!(g, want);
        // And back, merged: 2x8x8 -> 128, 7x7 -> 49.
        let g = groups(&[2, 8, 8, 7, 7, 96], &[128, 49, 96]);
        let want = vec![
            (vec![0, 1, 2], vec![0]),
            (vec![3, 4], vec![1]),
            (vec![5], vec![2]),
        ];
        assert_eq!(g, want);
    }

    #[test]
    fn sizes_that_cross_make_one_group() {
        assert_eq!(groups(&[6, 4], &[4, 6]), vec![(vec![0, 1], vec![0, 1])]);
        assert_eq!(
            groups(&[2, 3, 5], &[3, 10]),
            vec![(vec![0, 1, 2], vec![0, 1])]
        );
    }

    #[test]
    fn size_one_and_zero_dimensions() {
        assert_eq!(groups(&[1, 4, 1], &[4]), vec![(vec![1], vec![0])]);
        assert_eq!(groups(&[1], &[1, 1]), vec![]);
        assert_eq!(groups(&[0, 3], &[3, 0]), vec![(vec![0, 1], vec![0, 1])]);
    }
}
