//! Writing a value into its buffer: the dispatch to each op family's file
//! (`reduce.rs`, `dot.rs`, `conv.rs`, `window.rs`, `gather_scatter.rs`,
//! `sort.rs`, `fft.rs`, `shape.rs`), and the loop nest of element-wise and
//! index-remapping ops (tiled for transposes that move the innermost
//! dimension).

use strata_diag::{Diagnostic, Result};
use strata_dialect_xla::names::*;
use strata_ir::{Context, OpId, Value};

use super::FuncLowering;
use super::elemental::store_scalar;
use super::family::{Family, family};
use crate::builder::Builder;

/// Transposes are walked in blocks of at most MAX_BLOCK x MAX_BLOCK
/// elements, made of TILE x TILE tiles. A tile touches TILE cache lines of
/// the input and of the result (rows a power of two apart share an L1 set,
/// which holds 8 lines); a block stays in L2, so each input line comes
/// from memory once. Measured on the 2048x2048 f32 transpose (AMD EPYC,
/// one thread): one level of 32x32 tiles 28 ms, 8x8 tiles 18.6 ms, blocks
/// of 64, 128, 256: 5.6, 4.5, 3.7 ms.
const TILE: i64 = 8;
const MAX_BLOCK: i64 = 256;

/// A transpose whose innermost result dimension is not the operand's.
fn swaps_innermost(ctx: &Context, op: OpId) -> bool {
    let perm = ctx.i64_array(op, "permutation").unwrap_or_default();
    perm.last().is_some_and(|&p| p as usize + 1 != perm.len())
}

/// The block edge for a transpose result of `shape`: the largest power of
/// two up to MAX_BLOCK dividing both innermost dimensions, if at least TILE.
fn transpose_block(shape: &[i64]) -> Option<i64> {
    let [.., rows, cols] = shape else {
        return None;
    };
    let mut block = MAX_BLOCK;
    while block >= TILE {
        if rows % block == 0 && cols % block == 0 {
            return Some(block);
        }
        block /= 2;
    }
    None
}

pub(super) fn shape_of(ctx: &Context, v: Value) -> Vec<i64> {
    ctx.shape(ctx.value_ty(v))
        .map(|s| s.to_vec())
        .unwrap_or_default()
}

impl FuncLowering<'_> {
    /// Whether computing `op`'s elements in order reads a transpose that
    /// moves the innermost dimension: `op` itself, or one fused into it
    /// through element-wise ops (which keep the index), as in `x.T * 2`.
    fn reads_transposed(&self, ctx: &Context, op: OpId) -> bool {
        let name = ctx.op(op).name;
        if name == TRANSPOSE {
            return swaps_innermost(ctx, op);
        }
        if family(name) != Some(Family::Elementwise) {
            return false;
        }
        ctx.op(op).operands.iter().any(|v| match self.repr.get(v) {
            Some(super::Repr::Fused(p)) => self.reads_transposed(ctx, *p),
            _ => false,
        })
    }

    /// Writes every result of `op` into `bufs`.
    pub fn materialize(&mut self, b: &mut Builder<'_>, op: OpId, bufs: &[Value]) -> Result<()> {
        let name = b.ctx.op(op).name;
        let Some(family) = family(name) else {
            return Err(Diagnostic::unsupported(
                b.loc,
                format!("'{name}' is not supported by the lowering yet"),
            ));
        };
        // XLA:CPU runs these as precompiled kernels (Eigen, its runtime),
        // built without FMA: no contraction in their arithmetic.
        let library = matches!(
            family,
            Family::Dot
                | Family::Gemm
                | Family::Convolution
                | Family::ConvGemm
                | Family::TriangularSolve
                | Family::Cholesky
                | Family::Lu
        );
        let keep = b.contract && !library;
        let saved = std::mem::replace(&mut b.contract, keep);
        let r = self.materialize_family(b, op, family, bufs);
        b.contract = saved;
        r
    }

    fn materialize_family(
        &mut self,
        b: &mut Builder<'_>,
        op: OpId,
        family: Family,
        bufs: &[Value],
    ) -> Result<()> {
        match family {
            Family::Reduce => self.reduce(b, op, bufs),
            Family::Dot => self.dot_general(b, op, bufs[0]),
            Family::Gemm => self.gemm(b, op, bufs[0]),
            Family::Transpose => self.transpose_kernel(b, op, bufs[0]),
            Family::ConvGemm => self.convolution_via_gemm(b, op, bufs[0]),
            Family::Concatenate => self.concatenate(b, op, bufs[0]),
            Family::Pad => self.pad(b, op, bufs[0]),
            Family::DynamicUpdateSlice => self.dynamic_update_slice(b, op, bufs[0]),
            Family::Scatter => self.scatter(b, op, bufs),
            Family::ReduceWindow => self.reduce_window(b, op, bufs),
            Family::Convolution => self.convolution(b, op, bufs[0]),
            Family::Sort => self.sort(b, op, bufs),
            Family::Fft => self.fft(b, op, bufs[0]),
            Family::SelectAndScatter => self.select_and_scatter(b, op, bufs[0]),
            Family::Collective => self.collective(b, op, bufs),
            Family::TopK => self.top_k(b, op, bufs),
            Family::TriangularSolve => self.triangular_solve(b, op, bufs[0]),
            Family::Rng => self.rng_bit_generator(b, op, bufs),
            Family::RngState => self.rng_get_and_update_state(b, op, bufs),
            Family::Cholesky => self.cholesky(b, op, bufs),
            Family::Lu => self.lu(b, op, bufs),
            Family::Decomposition => self.decomposition(b, op, bufs),
            Family::Elementwise | Family::IndexRemap | Family::Constant => {
                let shape = shape_of(b.ctx, b.ctx.op(op).results[0]);
                let out = bufs[0];
                let body = |this: &mut Self, b: &mut Builder<'_>, idx: &[Value]| -> Result<()> {
                    let s = this.compute(b, op, idx)?;
                    store_scalar(b, s, out, idx);
                    Ok(())
                };
                if self.reads_transposed(b.ctx, op) {
                    if let Some(block) = transpose_block(&shape) {
                        return b.tiled_nest(&shape, block, TILE, &mut |b, idx| body(self, b, idx));
                    }
                }
                // Each element is computed from the operands alone.
                b.parallel_nest(&shape, &mut |b, idx| body(self, b, idx))
            }
        }
    }
}
