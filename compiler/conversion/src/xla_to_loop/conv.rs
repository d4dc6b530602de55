//! `xla.convolution`. f32/f64 convolutions without feature or batch groups
//! whose result's spatial dimensions are contiguous in memory (NCHW, NHWC
//! and the like) go through the runtime GEMM: the input windows are packed
//! into a patch matrix (im2col: one row per output position, one column per
//! (input feature, kernel position), zeros for padding and for positions
//! between dilated inputs), the kernel into a matrix of the same columns,
//! and one batched product writes the result in place. The patch matrix is
//! stored transposed (column-major), so packing streams through the input.
//! The kernel is read in place when its input-feature and spatial
//! dimensions form one run of memory (HWIO, OIHW: the patches take the
//! kernel's column order), so weights are never re-laid-out per call;
//! other layouts and reversed windows pack it. Everything else
//! (groups, other element types, scattered output layouts) is a direct loop
//! nest with any dimension numbers, padding, strides, lhs/rhs dilation and
//! window reversal; narrow floats accumulate in f32.

use strata_diag::{Diagnostic, Result};
use strata_dialect_xla::names::*;
use strata_ir::{OpId, TypeKind, Value};

use super::FuncLowering;
use super::elemental::{load_scalar, store_scalar};
use super::materialize::shape_of;
use super::scalar::{self, Scalar};
use super::window::window_position;
use crate::builder::Builder;

impl FuncLowering<'_> {
    /// Direct convolution: per result element, a stack accumulator sums
    /// lhs·rhs over the group's input features and the kernel window;
    /// window positions in the padding or between dilated lhs elements
    /// contribute zero.
    pub(super) fn convolution(&mut self, b: &mut Builder<'_>, op: OpId, out: Value) -> Result<()> {
        if let Some(plan) = gemm_plan(b.ctx, op) {
            return self.convolution_via_gemm(b, op, out, plan);
        }
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
        // Output elements are independent; each has its own accumulator.
        b.parallel_nest(&out_shape, &mut |b, oidx| {
            let acc = b.alloca(acc_ty);
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
}

/// How a convolution maps onto one batched GEMM (see the module docs).
struct GemmPlan {
    kind: strata_ir::FloatKind,
    /// Output positions per batch element (product of the output's spatial sizes).
    m: i64,
    /// Input features times kernel positions.
    k: i64,
    /// Output features.
    n: i64,
    batch: i64,
    /// Strides of the result between batch elements, between consecutive
    /// output positions (the innermost spatial dimension) and features.
    out_batch_stride: i64,
    out_position_stride: i64,
    out_feature_stride: i64,
    /// The dimensions of the kernel that make the K columns, outermost
    /// first, and where the kernel matrix already lies in the kernel's own
    /// buffer (row and column strides) when those dimensions form one run
    /// of memory in it and nothing is reversed: HWIO kernels are the
    /// matrix (H, W, I) x O as stored, OIHW kernels its transpose. The
    /// kernel is then read in place; otherwise it is packed per call.
    columns: Vec<Column>,
    kernel_in_place: Option<[i64; 2]>,
}

/// A dimension of the K columns (of the patches and of the kernel matrix).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Column {
    InputFeature,
    /// The kernel's spatial dimension `d` (in window order).
    Spatial(usize),
}

/// The GEMM form of convolution `op`, if it has one.
fn gemm_plan(ctx: &strata_ir::Context, op: OpId) -> Option<GemmPlan> {
    let (lhs, rhs) = (ctx.op(op).operands[0], ctx.op(op).operands[1]);
    let result = ctx.op(op).results[0];
    let kind = match ctx.kind(ctx.elem(ctx.value_ty(result))) {
        TypeKind::Float(k @ (strata_ir::FloatKind::F32 | strata_ir::FloatKind::F64)) => *k,
        _ => return None,
    };
    if ctx.elem(ctx.value_ty(lhs)) != ctx.elem(ctx.value_ty(result)) {
        return None;
    }
    let c = strata_dialect_xla::ops::conv::conv(ctx, op)?;
    if c.feature_groups != 1 || c.batch_groups != 1 {
        return None;
    }
    let (ls, rs, os) = (
        shape_of(ctx, lhs),
        shape_of(ctx, rhs),
        shape_of(ctx, result),
    );
    let ost = super::elemental::strides(&os);
    // The output's spatial dimensions, in window order, must form one run of
    // memory: each stride equals the next one's stride times its size.
    let spatial = &c.output_spatial;
    let contiguous = spatial
        .windows(2)
        .all(|w| ost[w[0]] == ost[w[1]] * os[w[1]]);
    if !contiguous {
        return None;
    }
    let m: i64 = spatial.iter().map(|&d| os[d]).product();
    let kpos: i64 = c.kernel_spatial.iter().map(|&d| rs[d]).product();
    let (columns, kernel_in_place) = kernel_columns(&c, &rs);
    let plan = GemmPlan {
        kind,
        m,
        k: rs[c.kernel_input_feature] * kpos,
        n: rs[c.kernel_output_feature],
        batch: ls[c.input_batch],
        out_batch_stride: ost[c.output_batch],
        out_position_stride: spatial.last().map_or(0, |&d| ost[d]),
        out_feature_stride: ost[c.output_feature],
        columns,
        kernel_in_place,
    };
    // Tiny products are left to the loop nest (no packing, no call), and so
    // are patch matrices too large to be worth materialising.
    let patch = plan.batch * plan.m * plan.k;
    (plan.m * plan.n * plan.k >= 4096 && patch <= 1 << 28).then_some(plan)
}

/// The K columns' dimensions and, when the kernel already holds its
/// matrix, its strides (see [`GemmPlan::columns`]). Without one the order is
/// (input feature, spatial dimensions), packed.
fn kernel_columns(
    c: &strata_dialect_xla::ops::conv::Conv,
    rs: &[i64],
) -> (Vec<Column>, Option<[i64; 2]>) {
    let kst = super::elemental::strides(rs);
    let dim = |col: Column| match col {
        Column::InputFeature => c.kernel_input_feature,
        Column::Spatial(d) => c.kernel_spatial[d],
    };
    let mut columns: Vec<Column> = std::iter::once(Column::InputFeature)
        .chain((0..c.kernel_spatial.len()).map(Column::Spatial))
        .collect();
    let packed = (columns.clone(), None);
    if c.reversal.iter().any(|&r| r) {
        return packed;
    }
    // Outermost first in the kernel's layout; dimensions of size 1 take no
    // part in the run.
    columns.sort_by_key(|&col| std::cmp::Reverse(kst[dim(col)]));
    let run: Vec<usize> = columns
        .iter()
        .map(|&col| dim(col))
        .filter(|&d| rs[d] != 1)
        .collect();
    let merges = run.windows(2).all(|w| kst[w[0]] == kst[w[1]] * rs[w[1]]);
    if !merges {
        return packed;
    }
    let row_stride = run.last().map_or(1, |&d| kst[d]);
    (columns, Some([row_stride, kst[c.kernel_output_feature]]))
}

impl FuncLowering<'_> {
    /// im2col + one batched GEMM (see the module docs).
    fn convolution_via_gemm(
        &mut self,
        b: &mut Builder<'_>,
        op: OpId,
        out: Value,
        plan: GemmPlan,
    ) -> Result<()> {
        let (lhs, rhs) = (b.ctx.op(op).operands[0], b.ctx.op(op).operands[1]);
        let (ls, rs) = (shape_of(b.ctx, lhs), shape_of(b.ctx, rhs));
        let result = b.ctx.op(op).results[0];
        let os = shape_of(b.ctx, result);
        let c = strata_dialect_xla::ops::conv::conv(b.ctx, op)
            .ok_or_else(|| Diagnostic::internal(b.loc, "convolution without dimension numbers"))?;
        let n = c.input_spatial.len();
        let elem = b.ctx.elem(b.ctx.value_ty(result));
        let kin = rs[c.kernel_input_feature];
        let ksizes: Vec<i64> = c.kernel_spatial.iter().map(|&d| rs[d]).collect();
        let osizes: Vec<i64> = c.output_spatial.iter().map(|&d| os[d]).collect();
        // Columns: the plan's order of (input feature, kernel position...),
        // row-major.
        let columns: Vec<i64> = plan
            .columns
            .iter()
            .map(|&col| match col {
                Column::InputFeature => kin,
                Column::Spatial(d) => ksizes[d],
            })
            .collect();
        // Patches are stored column by column (patches[column][position])
        // and filled in that order: for a fixed column the positions walk an
        // input row contiguously, so reads and writes both stream. When each
        // image's result is one block of memory (batch outermost, as in NCHW
        // and NHWC), images are packed and multiplied one at a time, so the
        // patch matrix stays one image large; otherwise all are packed first
        // and multiplied as one batched product.
        let total: i64 = os.iter().product();
        let per_image = plan.batch > 0 && plan.out_batch_stride * plan.batch == total;
        let patches_shape = if per_image {
            vec![plan.k, plan.m]
        } else {
            vec![plan.batch, plan.k, plan.m]
        };
        let patches_ty = b.ctx.memref_ty(&patches_shape, elem);
        let patches = b.alloc(patches_ty);
        let (kernel, [rhs_row_stride, rhs_col_stride]) = match plan.kernel_in_place {
            Some(strides) => (self.buffer_of(b, rhs)?, strides),
            None => {
                let kernel_ty = b.ctx.memref_ty(&[plan.k, plan.n], elem);
                let kernel = b.alloc(kernel_ty);
                self.pack_kernel(b, op, kernel, &plan.columns, &columns, plan.n)?;
                (kernel, [plan.n, 1])
            }
        };
        let zero_f = b.zero(elem);
        let mut space = columns.clone();
        space.extend(&osizes);
        let mut desc = strata_abi::GemmDesc {
            m: plan.m,
            k: plan.k,
            n: plan.n,
            lhs_row_stride: 1,
            lhs_col_stride: plan.m,
            rhs_row_stride,
            rhs_col_stride,
            out_row_stride: plan.out_position_stride,
            out_col_stride: plan.out_feature_stride,
            ..Default::default()
        };
        b.for_range(0, plan.batch, &mut |b, image| {
            // Every (column, position) writes its own element of the patch
            // matrix: the packing runs on the thread pool too.
            b.parallel_nest(&space, &mut |b, iv| {
                let (col, pos) = iv.split_at(n + 1);
                let zero = b.const_index(0);
                let mut kpos = vec![zero; n];
                let mut lidx = vec![zero; ls.len()];
                lidx[c.input_batch] = image;
                for (&which, &i) in plan.columns.iter().zip(col) {
                    match which {
                        Column::InputFeature => lidx[c.input_feature] = i,
                        Column::Spatial(d) => kpos[d] = i,
                    }
                }
                let mut valid: Option<Value> = None;
                for d in 0..n {
                    let (e, ok) = window_position(
                        b,
                        pos[d],
                        kpos[d],
                        c.strides[d],
                        c.rhs_dilation[d],
                        c.padding[d].0,
                        c.lhs_dilation[d],
                        ls[c.input_spatial[d]],
                    );
                    lidx[c.input_spatial[d]] = e;
                    valid = Some(match valid {
                        Some(v) => b.binary("arith.andi", v, ok),
                        None => ok,
                    });
                }
                let x = self.element(b, lhs, &lidx)?.real();
                let x = match valid {
                    Some(v) => b.select(v, x, zero_f),
                    None => x,
                };
                let row = linear(b, pos, &osizes);
                let column = linear(b, col, &columns);
                let at = if per_image {
                    vec![column, row]
                } else {
                    vec![image, column, row]
                };
                b.store(x, patches, &at);
                Ok(())
            })?;
            if per_image {
                // This image's block of the result.
                let image_ty = b.ctx.memref_ty(&[plan.out_batch_stride], elem);
                let stride = b.const_index(plan.out_batch_stride);
                let start = b.binary("arith.muli", image, stride);
                let image_out = b.op1("mem.offset", vec![out, start], image_ty, vec![]);
                self.call_gemm(b, plan.kind, &desc, patches, kernel, image_out)?;
            }
            Ok(())
        })?;
        if !per_image {
            desc.batch_rank = 1;
            desc.batch_sizes[0] = plan.batch;
            desc.lhs_batch_strides[0] = plan.m * plan.k;
            desc.out_batch_strides[0] = plan.out_batch_stride;
            self.call_gemm(b, plan.kind, &desc, patches, kernel, out)?;
        }
        b.insert("mem.dealloc", vec![patches], &[], vec![]);
        if plan.kernel_in_place.is_none() {
            b.insert("mem.dealloc", vec![kernel], &[], vec![]);
        }
        Ok(())
    }

    /// The kernel as a matrix: kernel[column][output feature], columns
    /// ordered as `order` says (the patches' order); `columns` are their
    /// sizes.
    fn pack_kernel(
        &mut self,
        b: &mut Builder<'_>,
        op: OpId,
        kernel: Value,
        order: &[Column],
        columns: &[i64],
        features: i64,
    ) -> Result<()> {
        let rhs = b.ctx.op(op).operands[1];
        let rs = shape_of(b.ctx, rhs);
        let c = strata_dialect_xla::ops::conv::conv(b.ctx, op)
            .ok_or_else(|| Diagnostic::internal(b.loc, "convolution without dimension numbers"))?;
        let n = c.kernel_spatial.len();
        let mut space = columns.to_vec();
        space.push(features);
        b.loop_nest(&space, &mut |b, iv| {
            let (col, of) = iv.split_at(n + 1);
            let zero = b.const_index(0);
            let mut ridx = vec![zero; rs.len()];
            ridx[c.kernel_output_feature] = of[0];
            for (&which, &i) in order.iter().zip(col) {
                match which {
                    Column::InputFeature => ridx[c.kernel_input_feature] = i,
                    Column::Spatial(d) => {
                        ridx[c.kernel_spatial[d]] = if c.reversal[d] {
                            let top = b.const_index(rs[c.kernel_spatial[d]] - 1);
                            b.binary("arith.subi", top, i)
                        } else {
                            i
                        };
                    }
                }
            }
            let w = self.element(b, rhs, &ridx)?.real();
            let column = linear(b, col, columns);
            b.store(w, kernel, &[column, of[0]]);
            Ok(())
        })
    }
}

/// Row-major linear index of `idx` in `sizes`.
fn linear(b: &mut Builder<'_>, idx: &[Value], sizes: &[i64]) -> Value {
    let mut acc = b.const_index(0);
    for (&i, &s) in idx.iter().zip(sizes) {
        let size = b.const_index(s);
        let scaled = b.binary("arith.muli", acc, size);
        acc = b.binary("arith.addi", scaled, i);
    }
    acc
}
