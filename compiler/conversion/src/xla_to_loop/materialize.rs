//! Loop nests that write a value into its buffer: element-wise and
//! index-remapping ops, `xla.reduce`, `xla.dot_general`,
//! `xla.concatenate`, `xla.pad`.

use std::collections::HashMap;

use strata_diag::{Diagnostic, Result};
use strata_dialect_xla::names::*;
use strata_dialect_xla::ops::dot;
use strata_ir::{BlockId, Context, OpId, TypeKind, Value};

use super::FuncLowering;
use super::elemental::{load_scalar, store_scalar, strides};
use super::plan::{is_elementwise, is_index_only};
use super::scalar::{self, Scalar};
use crate::builder::Builder;

/// Tile edge for transposes: reads and writes both stay within a few
/// cache lines per row of the tile.
const TILE: i64 = 32;

/// A transpose whose innermost result dimension is not the operand's.
fn swaps_innermost(ctx: &Context, op: OpId) -> bool {
    let perm = ctx.i64_array(op, "permutation").unwrap_or_default();
    perm.last().is_some_and(|&p| p as usize + 1 != perm.len())
}

/// The two innermost dimensions split evenly into tiles.
fn tileable(shape: &[i64]) -> bool {
    shape.len() >= 2
        && shape[shape.len() - 2..]
            .iter()
            .all(|&d| d >= TILE && d % TILE == 0)
}

fn shape_of(ctx: &Context, v: Value) -> Vec<i64> {
    ctx.shape(ctx.value_ty(v))
        .map(|s| s.to_vec())
        .unwrap_or_default()
}

impl FuncLowering<'_> {
    /// Writes every result of `op` into `bufs`.
    pub fn materialize(&mut self, b: &mut Builder<'_>, op: OpId, bufs: &[Value]) -> Result<()> {
        let name = b.ctx.op(op).name;
        match name {
            REDUCE => self.reduce(b, op, bufs),
            DOT_GENERAL => self.dot_general(b, op, bufs[0]),
            CONCATENATE => self.concatenate(b, op, bufs[0]),
            PAD => self.pad(b, op, bufs[0]),
            DYNAMIC_UPDATE_SLICE => self.dynamic_update_slice(b, op, bufs[0]),
            SCATTER => self.scatter(b, op, bufs),
            REDUCE_WINDOW => self.reduce_window(b, op, bufs),
            CONVOLUTION => self.convolution(b, op, bufs[0]),
            SORT => self.sort(b, op, bufs),
            FFT => self.fft(b, op, bufs[0]),
            SELECT_AND_SCATTER => self.select_and_scatter(b, op, bufs[0]),
            _ if is_elementwise(name) || is_index_only(name) || name == CONSTANT => {
                let shape = shape_of(b.ctx, b.ctx.op(op).results[0]);
                let out = bufs[0];
                let body = |this: &mut Self, b: &mut Builder<'_>, idx: &[Value]| -> Result<()> {
                    let s = this.compute(b, op, idx)?;
                    store_scalar(b, s, out, idx);
                    Ok(())
                };
                if name == TRANSPOSE && swaps_innermost(b.ctx, op) && tileable(&shape) {
                    return b.tiled_nest(&shape, TILE, &mut |b, idx| body(self, b, idx));
                }
                b.loop_nest(&shape, &mut |b, idx| body(self, b, idx))
            }
            _ => Err(Diagnostic::unsupported(
                b.loc,
                format!("'{name}' is not supported by the lowering yet"),
            )),
        }
    }

    /// Outer loops over kept dimensions; per output element, accumulators
    /// on the stack start at the init values and fold in the reduced
    /// dimensions through the reducer body.
    fn reduce(&mut self, b: &mut Builder<'_>, op: OpId, bufs: &[Value]) -> Result<()> {
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
        let accs = stack_accumulators(b, &inits);
        b.loop_nest(&out_shape, &mut |b, oidx| {
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
    fn reduce_in_memory_order(
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
        b.loop_nest(&out_shape, &mut |b, oidx| {
            for (i, &init) in inits.iter().enumerate() {
                let s = self.element(b, init, &[])?;
                store_scalar(b, s, bufs[i], oidx);
            }
            Ok(())
        })?;
        b.loop_nest(&in_shape, &mut |b, idx| {
            let oidx: Vec<Value> = kept.iter().map(|&d| idx[d]).collect();
            let mut args: Vec<Scalar> = bufs.iter().map(|&o| load_scalar(b, o, &oidx)).collect();
            for &x in &inputs {
                args.push(self.element(b, x, idx)?);
            }
            let new = emit_region(b, body, &args)?;
            for (i, s) in new.into_iter().enumerate() {
                store_scalar(b, s, bufs[i], &oidx);
            }
            Ok(())
        })
    }

    /// Zero-fills the result, then accumulates into it with the loops
    /// ordered batch, lhs-free, contracting, rhs-free: the innermost loop
    /// walks rows of the rhs and of the result contiguously (so it
    /// vectorizes), while each result element still sums its products in
    /// contracting-index order.
    fn dot_general(&mut self, b: &mut Builder<'_>, op: OpId, out: Value) -> Result<()> {
        let (lhs, rhs) = (b.ctx.op(op).operands[0], b.ctx.op(op).operands[1]);
        let (ls, rs) = (shape_of(b.ctx, lhs), shape_of(b.ctx, rhs));
        let d = dot::dot_dims(b.ctx, op)
            .ok_or_else(|| Diagnostic::internal(b.loc, "dot_general without dimension numbers"))?;
        let result = b.ctx.op(op).results[0];
        let out_shape = shape_of(b.ctx, result);
        let relem = b.ctx.elem(b.ctx.value_ty(result));
        let relem = scalar::compute_type(b.ctx, relem);
        let in_elem = b.ctx.elem(b.ctx.value_ty(lhs));
        let in_elem = scalar::compute_type(b.ctx, in_elem);
        let lfree = dot::free_dims(ls.len(), &d.lhs_batch, &d.lhs_contract);
        let rfree = dot::free_dims(rs.len(), &d.rhs_batch, &d.rhs_contract);
        let stored = b.ctx.elem(b.ctx.value_ty(result));
        let stored_in = b.ctx.elem(b.ctx.value_ty(lhs));
        let float_kind = match b.ctx.kind(stored) {
            TypeKind::Float(k @ (strata_ir::FloatKind::F32 | strata_ir::FloatKind::F64)) => {
                Some(*k)
            }
            _ => None,
        };
        if let Some(kind) = float_kind
            && stored_in == stored
            && d.lhs_contract.len() == 1
            && d.lhs_batch.len() <= strata_abi::GEMM_MAX_BATCH
            && lfree.len() <= 1
            && rfree.len() <= 1
        {
            return self.dot_with_runtime_gemm(b, op, out, kind, &lfree, &rfree);
        }
        // Narrow float results accumulate in an f32 scratch buffer, copied
        // (rounded once) into the result at the end.
        let acc_elem = scalar::accumulation_type(b.ctx, stored);
        let scratch = if acc_elem != relem {
            let t = b.ctx.memref_ty(&out_shape, acc_elem);
            Some(b.alloc(t))
        } else {
            None
        };
        let acc_buf = scratch.unwrap_or(out);
        b.loop_nest(&out_shape, &mut |b, oidx| {
            let zero = match b.ctx.kind(acc_elem).clone() {
                TypeKind::Complex(p) => Scalar::Complex(b.zero(p), b.zero(p)),
                _ => Scalar::Real(b.zero(acc_elem)),
            };
            store_scalar(b, zero, acc_buf, oidx);
            Ok(())
        })?;
        let (nb, nl, nc) = (d.lhs_batch.len(), lfree.len(), d.lhs_contract.len());
        let outer: Vec<i64> = d
            .lhs_batch
            .iter()
            .map(|&i| ls[i as usize])
            .chain(lfree.iter().map(|&i| ls[i]))
            .collect();
        let csizes: Vec<i64> = d.lhs_contract.iter().map(|&i| ls[i as usize]).collect();
        let rsizes: Vec<i64> = rfree.iter().map(|&i| rs[i]).collect();
        // One step: out[o] += Σ_u lhs[.., k_u, ..] * rhs[.., k_u, ..] for the
        // contracting indices `ks` in order (the sum order per element is
        // unchanged; unrolling only saves loads and stores of out).
        let step = |this: &mut Self,
                    b: &mut Builder<'_>,
                    ivs: &[Value],
                    ks: &[Vec<Value>],
                    rf: &[Value]|
         -> Result<()> {
            let (batch, lf) = ivs.split_at(nb);
            let filler = ivs
                .first()
                .or(rf.first())
                .copied()
                .unwrap_or_else(|| b.const_index(0));
            let oidx: Vec<Value> = batch.iter().chain(lf).chain(rf).copied().collect();
            let mut acc = load_scalar(b, acc_buf, &oidx);
            for con in ks {
                let mut li = vec![filler; ls.len()];
                let mut ri = vec![filler; rs.len()];
                for (j, (&lb, &rb)) in d.lhs_batch.iter().zip(&d.rhs_batch).enumerate() {
                    li[lb as usize] = batch[j];
                    ri[rb as usize] = batch[j];
                }
                for (j, &f) in lfree.iter().enumerate() {
                    li[f] = lf[j];
                }
                for (j, &f) in rfree.iter().enumerate() {
                    ri[f] = rf[j];
                }
                for (j, (&lc, &rc)) in d.lhs_contract.iter().zip(&d.rhs_contract).enumerate() {
                    li[lc as usize] = con[j];
                    ri[rc as usize] = con[j];
                }
                let x = this.element(b, lhs, &li)?;
                let y = this.element(b, rhs, &ri)?;
                let x = scalar::convert(b, x, in_elem, acc_elem)?;
                let y = scalar::convert(b, y, in_elem, acc_elem)?;
                let p = scalar::emit(b, op, MULTIPLY, &[x, y], acc_elem, acc_elem)?;
                acc = scalar::emit(b, op, ADD, &[acc, p], acc_elem, acc_elem)?;
            }
            store_scalar(b, acc, acc_buf, &oidx);
            Ok(())
        };
        const UNROLL: i64 = 4;
        if nc == 1 && !rfree.is_empty() && csizes[0] >= UNROLL {
            let k = csizes[0];
            let main = k - k % UNROLL;
            b.loop_nest(&outer, &mut |b, ivs| {
                b.for_step(0, main, UNROLL, &mut |b, k0| {
                    let ks: Vec<Vec<Value>> = (0..UNROLL)
                        .map(|u| {
                            let c = b.const_index(u);
                            vec![b.binary("arith.addi", k0, c)]
                        })
                        .collect();
                    b.loop_nest(&rsizes, &mut |b, rf| step(self, b, ivs, &ks, rf))
                })?;
                b.for_range(main, k, &mut |b, kk| {
                    b.loop_nest(&rsizes, &mut |b, rf| step(self, b, ivs, &[vec![kk]], rf))
                })
            })
        } else {
            let mut space = outer.clone();
            space.extend(&csizes);
            space.extend(&rsizes);
            b.loop_nest(&space, &mut |b, all| {
                let (ivs, rest) = all.split_at(nb + nl);
                let (con, rf) = rest.split_at(nc);
                step(self, b, ivs, &[con.to_vec()], rf)
            })
        }?;
        if let Some(scratch) = scratch {
            b.loop_nest(&out_shape, &mut |b, oidx| {
                let acc = load_scalar(b, scratch, oidx);
                let v = scalar::convert(b, acc, acc_elem, relem)?;
                store_scalar(b, v, out, oidx);
                Ok(())
            })?;
            b.insert("mem.dealloc", vec![scratch], &[], vec![]);
        }
        Ok(())
    }

    /// f32/f64 products with one contracting dimension and at most one free
    /// dimension per side (plus any batch dimensions): the runtime's blocked
    /// SIMD GEMM, given the operands' strides, so transposed layouts need no
    /// copy. The summation order within a product is the GEMM's.
    fn dot_with_runtime_gemm(
        &mut self,
        b: &mut Builder<'_>,
        op: OpId,
        out: Value,
        kind: strata_ir::FloatKind,
        lfree: &[usize],
        rfree: &[usize],
    ) -> Result<()> {
        let (lhs, rhs) = (b.ctx.op(op).operands[0], b.ctx.op(op).operands[1]);
        let (ls, rs) = (shape_of(b.ctx, lhs), shape_of(b.ctx, rhs));
        let os = shape_of(b.ctx, b.ctx.op(op).results[0]);
        let d = dot::dot_dims(b.ctx, op)
            .ok_or_else(|| Diagnostic::internal(b.loc, "dot_general without dimension numbers"))?;
        let (lst, rst, ost) = (strides(&ls), strides(&rs), strides(&os));
        let nb = d.lhs_batch.len();
        let (lc, rc) = (d.lhs_contract[0] as usize, d.rhs_contract[0] as usize);
        let mut desc = strata_abi::GemmDesc {
            batch_rank: nb as i64,
            ..Default::default()
        };
        for (j, (&lb, &rb)) in d.lhs_batch.iter().zip(&d.rhs_batch).enumerate() {
            desc.batch_sizes[j] = ls[lb as usize];
            desc.lhs_batch_strides[j] = lst[lb as usize];
            desc.rhs_batch_strides[j] = rst[rb as usize];
            desc.out_batch_strides[j] = ost[j];
        }
        (desc.m, desc.lhs_row_stride) = lfree.first().map(|&f| (ls[f], lst[f])).unwrap_or((1, 0));
        (desc.n, desc.rhs_col_stride) = rfree.first().map(|&f| (rs[f], rst[f])).unwrap_or((1, 0));
        desc.k = ls[lc];
        desc.lhs_col_stride = lst[lc];
        desc.rhs_row_stride = rst[rc];
        desc.out_row_stride = if lfree.is_empty() { 0 } else { ost[nb] };
        desc.out_col_stride = if rfree.is_empty() {
            0
        } else {
            ost[nb + lfree.len()]
        };
        let desc_buf = self.descriptor_global(b, &desc)?;
        let (lb, rb) = (self.buffer_of(b, lhs)?, self.buffer_of(b, rhs)?);
        let name = if kind == strata_ir::FloatKind::F32 {
            strata_abi::symbol::GEMM_F32
        } else {
            strata_abi::symbol::GEMM_F64
        };
        let buf = super::untyped_buffer(b.ctx);
        let fty = b.ctx.function_ty(vec![buf, buf, buf, buf], vec![]);
        self.declare_runtime(b, name, fty);
        let callee = b.ctx.attr(strata_ir::AttrKind::SymbolRef(name.into()));
        b.insert(
            strata_ir::builtin::CALL,
            vec![desc_buf, lb, rb, out],
            &[],
            vec![("callee".into(), callee)],
        );
        Ok(())
    }

    /// Copies the inputs to the results, then folds every update element
    /// into the result element its index selects (StableHLO's definition);
    /// updates that land out of bounds are skipped.
    fn scatter(&mut self, b: &mut Builder<'_>, op: OpId, bufs: &[Value]) -> Result<()> {
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

    /// For every result element, folds its window of the (padded, base-
    /// dilated) inputs through the reducer; positions that fall in the
    /// padding or between dilated elements contribute the init values.
    fn reduce_window(&mut self, b: &mut Builder<'_>, op: OpId, bufs: &[Value]) -> Result<()> {
        let operands = b.ctx.op(op).operands.clone();
        let k = operands.len() / 2;
        let (inputs, inits) = (operands[..k].to_vec(), operands[k..].to_vec());
        let shape = shape_of(b.ctx, inputs[0]);
        let w = strata_dialect_xla::ops::reduce::window(b.ctx, op, shape.len())
            .ok_or_else(|| Diagnostic::internal(b.loc, "reduce_window without a window"))?;
        let out_shape = shape_of(b.ctx, b.ctx.op(op).results[0]);
        let body = b
            .ctx
            .entry_block(op, 0)
            .ok_or_else(|| Diagnostic::internal(b.loc, "reduce_window without body"))?;
        let accs = stack_accumulators(b, &inits);
        b.loop_nest(&out_shape, &mut |b, ridx| {
            for (i, &init) in inits.iter().enumerate() {
                let s = self.element(b, init, &[])?;
                store_scalar(b, s, accs[i], &[]);
            }
            b.loop_nest(&w.dims, &mut |b, widx| {
                // Position in the input, and whether it is a real element.
                let mut pos = Vec::new();
                let mut valid: Option<Value> = None;
                for d in 0..shape.len() {
                    let (e, ok) = window_position(
                        b,
                        ridx[d],
                        widx[d],
                        w.strides[d],
                        w.window_dilations[d],
                        w.padding[d].0,
                        w.base_dilations[d],
                        shape[d],
                    );
                    pos.push(e);
                    valid = Some(match valid {
                        Some(v) => b.binary("arith.andi", v, ok),
                        None => ok,
                    });
                }
                let mut args = Vec::new();
                for (&x, &init) in inputs.iter().zip(&inits) {
                    let pad = self.element(b, init, &[])?;
                    if shape.contains(&0) {
                        // An empty input: every position is padding.
                        args.push(pad);
                        continue;
                    }
                    let v = self.element(b, x, &pos)?;
                    args.push(match (valid, v, pad) {
                        (Some(c), Scalar::Real(x), Scalar::Real(p)) => {
                            Scalar::Real(b.select(c, x, p))
                        }
                        (Some(c), Scalar::Complex(xr, xi), Scalar::Complex(pr, pi)) => {
                            Scalar::Complex(b.select(c, xr, pr), b.select(c, xi, pi))
                        }
                        (_, v, _) => v,
                    });
                }
                fold_into(b, body, &accs, args)
            })?;
            store_accs(b, &accs, bufs, ridx);
            Ok(())
        })
    }

    /// Direct convolution: per result element, a stack accumulator sums
    /// lhs·rhs over the group's input features and the kernel window;
    /// window positions in the padding or between dilated lhs elements
    /// contribute zero.
    fn convolution(&mut self, b: &mut Builder<'_>, op: OpId, out: Value) -> Result<()> {
        let (lhs, rhs) = (b.ctx.op(op).operands[0], b.ctx.op(op).operands[1]);
        let (ls, rs) = (shape_of(b.ctx, lhs), shape_of(b.ctx, rhs));
        let c = strata_dialect_xla::ops::conv::conv(b.ctx, op)
            .ok_or_else(|| Diagnostic::internal(b.loc, "convolution without dimension numbers"))?;
        let result = b.ctx.op(op).results[0];
        let out_shape = shape_of(b.ctx, result);
        let relem = b.ctx.elem(b.ctx.value_ty(result));
        let relem = scalar::compute_type(b.ctx, relem);
        let in_elem = b.ctx.elem(b.ctx.value_ty(lhs));
        let in_elem = scalar::compute_type(b.ctx, in_elem);
        let n = c.input_spatial.len();
        let kin = rs[c.kernel_input_feature];
        let kout = rs[c.kernel_output_feature];
        let per_feature_group = kout / c.feature_groups;
        let per_batch_group = kout / c.batch_groups;
        let batch_per_group = ls[c.input_batch] / c.batch_groups;
        let ksizes: Vec<i64> = c.kernel_spatial.iter().map(|&d| rs[d]).collect();
        let mut inner_space = vec![kin];
        inner_space.extend(&ksizes);
        // Narrow float results accumulate in f32 and round once (as XLA).
        let stored = b.ctx.elem(b.ctx.value_ty(result));
        let acc_elem = scalar::accumulation_type(b.ctx, stored);
        let acc_ty = b.ctx.memref_ty(&[], acc_elem);
        let acc = b.alloca(acc_ty);
        b.loop_nest(&out_shape, &mut |b, oidx| {
            let zero = match b.ctx.kind(acc_elem).clone() {
                TypeKind::Complex(p) => Scalar::Complex(b.zero(p), b.zero(p)),
                _ => Scalar::Real(b.zero(acc_elem)),
            };
            store_scalar(b, zero, acc, &[]);
            let of = oidx[c.output_feature];
            let g = {
                let d = b.const_index(per_feature_group);
                b.binary("arith.divui", of, d)
            };
            let lb = {
                let d = b.const_index(per_batch_group);
                let bg = b.binary("arith.divui", of, d);
                let m = b.const_index(batch_per_group);
                let base = b.binary("arith.muli", bg, m);
                b.binary("arith.addi", base, oidx[c.output_batch])
            };
            b.loop_nest(&inner_space, &mut |b, iv| {
                let (i, ks) = (iv[0], &iv[1..]);
                let kin_c = b.const_index(kin);
                let gbase = b.binary("arith.muli", g, kin_c);
                let cin = b.binary("arith.addi", gbase, i);
                let zero_i = b.const_index(0);
                let mut lidx = vec![zero_i; ls.len()];
                let mut ridx = vec![zero_i; rs.len()];
                lidx[c.input_batch] = lb;
                lidx[c.input_feature] = cin;
                ridx[c.kernel_input_feature] = i;
                ridx[c.kernel_output_feature] = of;
                let mut valid: Option<Value> = None;
                for d in 0..n {
                    let size = ls[c.input_spatial[d]];
                    let (e, ok) = window_position(
                        b,
                        oidx[c.output_spatial[d]],
                        ks[d],
                        c.strides[d],
                        c.rhs_dilation[d],
                        c.padding[d].0,
                        c.lhs_dilation[d],
                        size,
                    );
                    lidx[c.input_spatial[d]] = e;
                    ridx[c.kernel_spatial[d]] = if c.reversal[d] {
                        let top = b.const_index(ksizes[d] - 1);
                        b.binary("arith.subi", top, ks[d])
                    } else {
                        ks[d]
                    };
                    valid = Some(match valid {
                        Some(v) => b.binary("arith.andi", v, ok),
                        None => ok,
                    });
                }
                let x = self.element(b, lhs, &lidx)?;
                let y = self.element(b, rhs, &ridx)?;
                let x = scalar::convert(b, x, in_elem, acc_elem)?;
                let y = scalar::convert(b, y, in_elem, acc_elem)?;
                let p = scalar::emit(b, op, MULTIPLY, &[x, y], acc_elem, acc_elem)?;
                let p = match (valid, p) {
                    (Some(v), Scalar::Real(p)) => {
                        let z = b.zero(acc_elem);
                        Scalar::Real(b.select(v, p, z))
                    }
                    (Some(v), Scalar::Complex(pr, pi)) => {
                        let z = b.zero(b.ty(pr));
                        Scalar::Complex(b.select(v, pr, z), b.select(v, pi, z))
                    }
                    (None, p) => p,
                };
                let a = load_scalar(b, acc, &[]);
                let s = scalar::emit(b, op, ADD, &[a, p], acc_elem, acc_elem)?;
                store_scalar(b, s, acc, &[]);
                Ok(())
            })?;
            let s = load_scalar(b, acc, &[]);
            let s = scalar::convert(b, s, acc_elem, relem)?;
            store_scalar(b, s, out, oidx);
            Ok(())
        })
    }

    /// Stable insertion sort of every slice along the sort dimension: an
    /// element moves left while the comparator says it goes before its left
    /// neighbour (all operands move together).
    fn sort(&mut self, b: &mut Builder<'_>, op: OpId, bufs: &[Value]) -> Result<()> {
        let operands = b.ctx.op(op).operands.clone();
        let shape = shape_of(b.ctx, operands[0]);
        let rank = shape.len() as i64;
        let dim = b.ctx.int_attr(op, "dimension").unwrap_or(-1) as i64;
        let dim = if dim < 0 { dim + rank } else { dim } as usize;
        let body = b
            .ctx
            .entry_block(op, 0)
            .ok_or_else(|| Diagnostic::internal(b.loc, "sort without comparator"))?;
        for (i, &x) in operands.iter().enumerate() {
            let out = bufs[i];
            b.loop_nest(&shape, &mut |b, idx| {
                let v = self.element(b, x, idx)?;
                store_scalar(b, v, out, idx);
                Ok(())
            })?;
        }
        let n = shape[dim];
        let mut outer = shape.clone();
        outer[dim] = 1;
        let it = b.ctx.index_ty();
        let jt = b.ctx.memref_ty(&[], it);
        let j = b.alloca(jt);
        b.loop_nest(&outer, &mut |b, oidx| {
            b.for_range(1, n.max(1), &mut |b, i| {
                b.store(i, j, &[]);
                let at = |k: Value| {
                    let mut v = oidx.to_vec();
                    v[dim] = k;
                    v
                };
                b.while_loop(
                    &mut |b| {
                        let jv = b.load(j, &[]);
                        let zero = b.const_index(0);
                        let one = b.const_index(1);
                        let positive = b.cmpi("sgt", jv, zero);
                        let jm = b.binary("arith.subi", jv, one);
                        let left = b.select(positive, jm, zero);
                        let (here, there) = (at(jv), at(left));
                        let mut args = Vec::new();
                        for &buf in bufs {
                            args.push(load_scalar(b, buf, &here));
                            args.push(load_scalar(b, buf, &there));
                        }
                        let less = emit_region(b, body, &args)?;
                        let less = less
                            .first()
                            .ok_or_else(|| {
                                Diagnostic::internal(b.loc, "comparator returns nothing")
                            })?
                            .real();
                        Ok(b.binary("arith.andi", positive, less))
                    },
                    &mut |b| {
                        let jv = b.load(j, &[]);
                        let one = b.const_index(1);
                        let jm = b.binary("arith.subi", jv, one);
                        let (here, there) = (at(jv), at(jm));
                        for &buf in bufs {
                            let (x, y) = (load_scalar(b, buf, &here), load_scalar(b, buf, &there));
                            store_scalar(b, y, buf, &here);
                            store_scalar(b, x, buf, &there);
                        }
                        b.store(jm, j, &[]);
                        Ok(())
                    },
                )
            })
        })
    }

    /// The result starts at the init value; for every source element, the
    /// window's first real element is the candidate, replaced by each later
    /// one the select region does not prefer it to; the scatter region then
    /// folds the source element into the result at the chosen position.
    fn select_and_scatter(&mut self, b: &mut Builder<'_>, op: OpId, out: Value) -> Result<()> {
        let operands = b.ctx.op(op).operands.clone();
        let (x, src, init) = (operands[0], operands[1], operands[2]);
        let shape = shape_of(b.ctx, x);
        let sshape = shape_of(b.ctx, src);
        let w = strata_dialect_xla::ops::reduce::window(b.ctx, op, shape.len())
            .ok_or_else(|| Diagnostic::internal(b.loc, "select_and_scatter without a window"))?;
        let (select, scatter) = match (b.ctx.entry_block(op, 0), b.ctx.entry_block(op, 1)) {
            (Some(s), Some(t)) => (s, t),
            _ => {
                return Err(Diagnostic::internal(
                    b.loc,
                    "select_and_scatter without regions",
                ));
            }
        };
        b.loop_nest(&shape, &mut |b, idx| {
            let v = self.element(b, init, &[])?;
            store_scalar(b, v, out, idx);
            Ok(())
        })?;
        if shape.contains(&0) {
            return Ok(());
        }
        let it = b.ctx.index_ty();
        let i1 = b.i1();
        let cur_ty = b.ctx.memref_ty(&[shape.len() as i64], it);
        let flag_ty = b.ctx.memref_ty(&[], i1);
        let cur = b.alloca(cur_ty);
        let has = b.alloca(flag_ty);
        b.loop_nest(&sshape, &mut |b, sidx| {
            let no = b.const_int(0, i1);
            b.store(no, has, &[]);
            // The candidate starts in bounds so that reading it is safe
            // before the first real element is found.
            for d in 0..shape.len() {
                let (dv, zero) = (b.const_index(d as i64), b.const_index(0));
                b.store(zero, cur, &[dv]);
            }
            b.loop_nest(&w.dims, &mut |b, widx| {
                let mut pos = Vec::new();
                let mut valid: Option<Value> = None;
                for d in 0..shape.len() {
                    let (e, ok) = window_position(
                        b,
                        sidx[d],
                        widx[d],
                        w.strides[d],
                        1,
                        w.padding[d].0,
                        1,
                        shape[d],
                    );
                    pos.push(e);
                    valid = Some(match valid {
                        Some(v) => b.binary("arith.andi", v, ok),
                        None => ok,
                    });
                }
                let valid =
                    valid.ok_or_else(|| Diagnostic::internal(b.loc, "0-d select_and_scatter"))?;
                b.if_then(valid, &mut |b| {
                    // Take `pos` unless there is a candidate the select
                    // region prefers to it.
                    let had = b.load(has, &[]);
                    let mut cidx = Vec::new();
                    for d in 0..shape.len() {
                        let dv = b.const_index(d as i64);
                        cidx.push(b.load(cur, &[dv]));
                    }
                    let current = self.element(b, x, &cidx)?;
                    let candidate = self.element(b, x, &pos)?;
                    let keep = emit_region(b, select, &[current, candidate])?;
                    let keep = keep
                        .first()
                        .ok_or_else(|| Diagnostic::internal(b.loc, "select returns nothing"))?
                        .real();
                    let keep = b.binary("arith.andi", had, keep);
                    let one = b.const_int(1, i1);
                    let take = b.binary("arith.xori", keep, one);
                    b.if_then(take, &mut |b| {
                        for (d, &p) in pos.iter().enumerate() {
                            let dv = b.const_index(d as i64);
                            b.store(p, cur, &[dv]);
                        }
                        let yes = b.const_int(1, i1);
                        b.store(yes, has, &[]);
                        Ok(())
                    })
                })
            })?;
            let had = b.load(has, &[]);
            b.if_then(had, &mut |b| {
                let mut cidx = Vec::new();
                for d in 0..shape.len() {
                    let dv = b.const_index(d as i64);
                    cidx.push(b.load(cur, &[dv]));
                }
                let acc = load_scalar(b, out, &cidx);
                let s = self.element(b, src, sidx)?;
                let new = emit_region(b, scatter, &[acc, s])?;
                let new = new
                    .into_iter()
                    .next()
                    .ok_or_else(|| Diagnostic::internal(b.loc, "scatter returns nothing"))?;
                store_scalar(b, new, out, &cidx);
                Ok(())
            })
        })
    }

    /// The runtime's FFT (rustfft), described by a constant descriptor.
    fn fft(&mut self, b: &mut Builder<'_>, op: OpId, out: Value) -> Result<()> {
        let x = b.ctx.op(op).operands[0];
        let shape = shape_of(b.ctx, x);
        let elem = b.ctx.elem(b.ctx.value_ty(x));
        let bits = b.ctx.bit_width(elem) as i64;
        use strata_abi::FftKind;
        let kind = match b.ctx.str_attr(op, "fft_type").unwrap_or("FFT") {
            "FFT" => FftKind::Fft,
            "IFFT" => FftKind::Ifft,
            "RFFT" => FftKind::Rfft,
            _ => FftKind::Irfft,
        };
        let lengths = b.ctx.i64_array(op, "fft_length").unwrap_or_default();
        if shape.len() > strata_abi::FFT_MAX_RANK || lengths.len() > 3 {
            return Err(Diagnostic::unsupported(
                b.loc,
                format!(
                    "fft of a rank-{} operand over {} dimensions is not supported (at most rank {} over 3)",
                    shape.len(),
                    lengths.len(),
                    strata_abi::FFT_MAX_RANK
                ),
            ));
        }
        let mut desc = strata_abi::FftDesc {
            kind: kind as i64,
            element_bits: bits,
            rank: shape.len() as i64,
            fft_rank: lengths.len() as i64,
            ..Default::default()
        };
        desc.shape[..shape.len()].copy_from_slice(&shape);
        desc.lengths[..lengths.len()].copy_from_slice(&lengths);
        let desc_buf = self.descriptor_global(b, &desc)?;
        let input = self.buffer_of(b, x)?;
        let buf = super::untyped_buffer(b.ctx);
        let fty = b.ctx.function_ty(vec![buf, buf, buf], vec![]);
        self.declare_runtime(b, strata_abi::symbol::FFT, fty);
        let callee = b
            .ctx
            .attr(strata_ir::AttrKind::SymbolRef(strata_abi::symbol::FFT.into()));
        b.insert(
            strata_ir::builtin::CALL,
            vec![desc_buf, input, out],
            &[],
            vec![("callee".into(), callee)],
        );
        Ok(())
    }

    /// Copies the operand, then writes the update at the clamped start.
    fn dynamic_update_slice(&mut self, b: &mut Builder<'_>, op: OpId, out: Value) -> Result<()> {
        let operands = b.ctx.op(op).operands.clone();
        let (x, u) = (operands[0], operands[1]);
        let (xs, us) = (shape_of(b.ctx, x), shape_of(b.ctx, u));
        b.loop_nest(&xs, &mut |b, idx| {
            let v = self.element(b, x, idx)?;
            store_scalar(b, v, out, idx);
            Ok(())
        })?;
        let starts = self.clamped_starts(b, &operands[2..], &xs, &us)?;
        b.loop_nest(&us, &mut |b, idx| {
            let v = self.element(b, u, idx)?;
            let oidx: Vec<Value> = idx
                .iter()
                .zip(&starts)
                .map(|(&i, &s)| b.binary("arith.addi", i, s))
                .collect();
            store_scalar(b, v, out, &oidx);
            Ok(())
        })
    }

    /// Each operand is copied into its slot along the concatenation axis.
    fn concatenate(&mut self, b: &mut Builder<'_>, op: OpId, out: Value) -> Result<()> {
        let dim = b.ctx.int_attr(op, "dimension").unwrap_or(0) as usize;
        let mut offset = 0;
        for x in b.ctx.op(op).operands.clone() {
            let s = shape_of(b.ctx, x);
            let off = offset;
            b.loop_nest(&s, &mut |b, idx| {
                let v = self.element(b, x, idx)?;
                let mut oidx = idx.to_vec();
                let o = b.const_index(off);
                oidx[dim] = b.binary("arith.addi", idx[dim], o);
                store_scalar(b, v, out, &oidx);
                Ok(())
            })?;
            offset += s[dim];
        }
        Ok(())
    }

    /// Fills with the padding value, then scatters the operand to
    /// `low + i * (interior + 1)`, skipping positions cut by negative padding.
    fn pad(&mut self, b: &mut Builder<'_>, op: OpId, out: Value) -> Result<()> {
        let (x, pv) = (b.ctx.op(op).operands[0], b.ctx.op(op).operands[1]);
        let xs = shape_of(b.ctx, x);
        let os = shape_of(b.ctx, b.ctx.op(op).results[0]);
        let lo = b.ctx.i64_array(op, "edge_padding_low").unwrap_or_default();
        let interior = b.ctx.i64_array(op, "interior_padding").unwrap_or_default();
        b.loop_nest(&os, &mut |b, idx| {
            let v = self.element(b, pv, &[])?;
            store_scalar(b, v, out, idx);
            Ok(())
        })?;
        b.loop_nest(&xs, &mut |b, idx| {
            let mut oidx = Vec::new();
            let mut ok: Option<Value> = None;
            for d in 0..xs.len() {
                let step = b.const_index(interior[d] + 1);
                let l = b.const_index(lo[d]);
                let m = b.binary("arith.muli", idx[d], step);
                let p = b.binary("arith.addi", m, l);
                let zero = b.const_index(0);
                let n = b.const_index(os[d]);
                let ge = b.cmpi("sge", p, zero);
                let lt = b.cmpi("slt", p, n);
                let both = b.binary("arith.andi", ge, lt);
                ok = Some(match ok {
                    Some(o) => b.binary("arith.andi", o, both),
                    None => both,
                });
                oidx.push(p);
            }
            let v = self.element(b, x, idx)?;
            match ok {
                Some(c) => b.if_then(c, &mut |b| {
                    store_scalar(b, v, out, &oidx);
                    Ok(())
                }),
                None => {
                    store_scalar(b, v, out, &oidx);
                    Ok(())
                }
            }
        })
    }
}

/// One stack slot per init value, of its element type.
fn stack_accumulators(b: &mut Builder<'_>, inits: &[Value]) -> Vec<Value> {
    inits
        .iter()
        .map(|&init| {
            let t = b.ctx.value_ty(init);
            let mt = b.ctx.memref_ty(&[], b.ctx.elem(t));
            b.alloca(mt)
        })
        .collect()
}

/// Folds `xs` into the accumulators `accs` through the reducer `body`.
fn fold_into(b: &mut Builder<'_>, body: BlockId, accs: &[Value], xs: Vec<Scalar>) -> Result<()> {
    let mut args: Vec<Scalar> = accs.iter().map(|&a| load_scalar(b, a, &[])).collect();
    args.extend(xs);
    for (i, s) in emit_region(b, body, &args)?.into_iter().enumerate() {
        store_scalar(b, s, accs[i], &[]);
    }
    Ok(())
}

/// Copies each accumulator to its result at `idx`.
fn store_accs(b: &mut Builder<'_>, accs: &[Value], bufs: &[Value], idx: &[Value]) {
    for (i, &acc) in accs.iter().enumerate() {
        let s = load_scalar(b, acc, &[]);
        store_scalar(b, s, bufs[i], idx);
    }
}

/// Input index of output position `out` and window offset `win` along one
/// dimension of a windowed op: `q = out·stride + win·window_dilation -
/// pad_low`, a real element when `q ≥ 0`, on the base-dilation grid and
/// below `size`. Returns (the element index clamped into range, valid).
#[allow(clippy::too_many_arguments)]
fn window_position(
    b: &mut Builder<'_>,
    out: Value,
    win: Value,
    stride: i64,
    window_dilation: i64,
    pad_low: i64,
    base_dilation: i64,
    size: i64,
) -> (Value, Value) {
    let st = b.const_index(stride);
    let wd = b.const_index(window_dilation);
    let lo = b.const_index(pad_low);
    let a = b.binary("arith.muli", out, st);
    let c = b.binary("arith.muli", win, wd);
    let p = b.binary("arith.addi", a, c);
    let q = b.binary("arith.subi", p, lo);
    let zero = b.const_index(0);
    let nonneg = b.cmpi("sge", q, zero);
    let safe = b.select(nonneg, q, zero);
    let bd = b.const_index(base_dilation);
    let rem = b.binary("arith.remui", safe, bd);
    let on_grid = b.cmpi("eq", rem, zero);
    let e = b.binary("arith.divui", safe, bd);
    let n = b.const_index(size);
    let inside = b.cmpi("slt", e, n);
    let ok = b.binary("arith.andi", nonneg, on_grid);
    let ok = b.binary("arith.andi", ok, inside);
    let last = b.const_index((size - 1).max(0));
    (b.select(inside, e, last), ok)
}

/// Emits a reducer body (ops on 0-d tensors) as scalar code on `args`;
/// returns the values its `xla.return` yields.
///
/// Float ops of the body may be reassociated (so LLVM vectorizes reductions),
/// except on f16/bf16, whose per-step rounding makes the order part of the
/// result (XLA's order is reproduced, see `xla-tree-reduce`).
pub fn emit_region(b: &mut Builder<'_>, block: BlockId, args: &[Scalar]) -> Result<Vec<Scalar>> {
    let saved = b.reassoc;
    let narrow = args.iter().any(|s| {
        let t = b.ty(s.real());
        matches!(b.ctx.kind(t), strata_ir::TypeKind::Float(k) if k.width() < 32)
    });
    b.reassoc = !narrow;
    let r = emit_region_ops(b, block, args);
    b.reassoc = saved;
    r
}

fn emit_region_ops(b: &mut Builder<'_>, block: BlockId, args: &[Scalar]) -> Result<Vec<Scalar>> {
    let mut env: HashMap<Value, Scalar> = HashMap::new();
    for (a, s) in b.ctx.blocks[block].args.clone().into_iter().zip(args) {
        env.insert(a, *s);
    }
    for op in b.ctx.blocks[block].ops.clone() {
        let name = b.ctx.op(op).name;
        let operands = b.ctx.op(op).operands.clone();
        let get = |env: &HashMap<Value, Scalar>, v: &Value, b: &Builder<'_>| {
            env.get(v).copied().ok_or_else(|| {
                Diagnostic::unsupported(
                    b.loc,
                    "reducer bodies may only use their own arguments and values",
                )
            })
        };
        if name == RETURN {
            return operands.iter().map(|v| get(&env, v, b)).collect();
        }
        let result = b
            .ctx
            .op(op)
            .results
            .first()
            .copied()
            .ok_or_else(|| Diagnostic::internal(b.loc, "op without result in reducer"))?;
        let stored = b.ctx.elem(b.ctx.value_ty(result));
        let relem = scalar::compute_type(b.ctx, stored);
        let saved = b.loc;
        b.loc = b.ctx.op(op).loc;
        let s = if name == CONSTANT {
            let d = b
                .ctx
                .dense_attr(op, "value")
                .cloned()
                .ok_or_else(|| Diagnostic::internal(b.loc, "constant without value"))?;
            super::elemental::constant_element(b, &d, stored)
        } else if is_elementwise(name) {
            let vals = operands
                .iter()
                .map(|v| get(&env, v, b))
                .collect::<Result<Vec<_>>>()?;
            let value_operand = if matches!(name, SELECT | CLAMP) {
                operands[1]
            } else {
                operands[0]
            };
            let elem = b.ctx.elem(b.ctx.value_ty(value_operand));
            let elem = scalar::compute_type(b.ctx, elem);
            let value = scalar::emit(b, op, name, &vals, elem, relem)?;
            scalar::round_to_stored(b, value, stored)
        } else {
            return Err(Diagnostic::unsupported(
                b.loc,
                format!("'{name}' inside a reducer body is not supported yet"),
            ));
        };
        b.loc = saved;
        env.insert(result, s);
    }
    Err(Diagnostic::internal(
        b.loc,
        "reducer body without a terminator",
    ))
}
