//! `xla.convolution`. f32/f64 convolutions without batch groups
//! whose result's spatial dimensions are contiguous in memory (NCHW, NHWC
//! and the like) go through the runtime GEMM: the input windows are packed
//! into a patch matrix (im2col: one row per output position, one column per
//! (input feature, kernel position), zeros for padding and for positions
//! between dilated inputs), the kernel into a matrix of the same columns,
//! and one batched product writes the result in place. The patch matrix is
//! laid out so packing streams through the input: row by row (one output
//! position's window a run of whole input-feature vectors) when the input
//! features are the input's innermost dimension and the columns' (NHWC with
//! HWIO), column by column otherwise (NCHW: a column's positions walk an
//! input row).
//! The kernel is read in place when its input-feature and spatial
//! dimensions form one run of memory (HWIO, OIHW: the patches take the
//! kernel's column order), so weights are never re-laid-out per call;
//! other layouts and reversed windows pack it; groups (of at least 4 input
//! features) are a batch dimension of that product. Everything else
//! (depthwise groups, other element types, scattered output layouts) is a direct loop
//! nest with any dimension numbers, padding, strides, lhs/rhs dilation and
//! window reversal; narrow floats accumulate in f32.

use strata_diag::{Diagnostic, Result};
use strata_dialect_xla::names::*;
use strata_ir::{OpId, TypeKind, Value};

use super::FuncLowering;
use super::element::Scalar;
use super::element::{load_scalar, store_scalar};
use super::elemental::linear_index;
use super::materialize::shape_of;
use super::pattern::{Fusion, OpLowering};
use super::scalar;
use super::window::window_position;
use crate::builder::Builder;
use crate::xla_to_kernel::gemm::{Dim, descriptor};
use strata_dialect_kernel::conv::{Column, GemmPlan};

/// The lowering pattern of `kernel.conv`: im2col + GEMM as the kernel selection planned it.
pub(super) const CONV_GEMM: OpLowering = OpLowering {
    ops: &[&[strata_dialect_kernel::CONV]],
    fusion: Fusion::Never,
    library_arithmetic: true,
    lower: |cx, b, op, bufs| convolution_via_gemm(cx, b, op, bufs[0]),
};

/// The lowering pattern of `xla.convolution` no kernel computes.
pub(super) const CONVOLUTION: OpLowering = OpLowering {
    ops: &[&[strata_dialect_xla::names::CONVOLUTION]],
    fusion: Fusion::Never,
    library_arithmetic: true,
    lower: |cx, b, op, bufs| convolution(cx, b, op, bufs[0]),
};

/// Direct convolution: per result element, a stack accumulator sums
/// lhs·rhs over the group's input features and the kernel window;
/// window positions in the padding or between dilated lhs elements
/// contribute zero.
pub(super) fn convolution(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    op: OpId,
    out: Value,
) -> Result<()> {
    let (lhs, rhs) = (b.ctx.op(op).operands()[0], b.ctx.op(op).operands()[1]);
    let (ls, rs) = (shape_of(b.ctx, lhs), shape_of(b.ctx, rhs));
    let c = strata_dialect_xla::ops::conv::conv(b.ctx, op)
        .ok_or_else(|| Diagnostic::internal(b.loc, "convolution without dimension numbers"))?;
    let result = b.ctx.op(op).results[0];
    let out_shape = shape_of(b.ctx, result);
    let relem = b.ctx.types.elem(b.ctx.value_ty(result));
    let relem = scalar::compute_type(b.ctx, relem);
    let in_elem = b.ctx.types.elem(b.ctx.value_ty(lhs));
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
    let stored = b.ctx.types.elem(b.ctx.value_ty(result));
    let acc_elem = scalar::accumulation_type(b.ctx, stored);
    let acc_ty = b.ctx.types.memref_ty(&[], acc_elem);
    // Output elements are independent; each has its own accumulator.
    b.parallel_nest(&out_shape, &mut |b, oidx| {
        let acc = b.alloca(acc_ty);
        let zero = match b.ctx.types.kind(acc_elem).clone() {
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
            let x = cx.element(b, lhs, &lidx)?;
            let y = cx.element(b, rhs, &ridx)?;
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

/// `kernel.conv`: im2col + GEMM (see the module docs), as the kernel
/// selection planned it: one patch matrix per image or for all images, or
/// block by block of output positions.
pub(super) fn convolution_via_gemm(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    op: OpId,
    out: Value,
) -> Result<()> {
    let plan = strata_dialect_kernel::conv::plan(b.ctx, op)
        .ok_or_else(|| Diagnostic::internal(b.loc, "kernel.conv without a GEMM plan"))?;
    let im = Im2col::of(b, op, &plan)?;
    let (kernel, [rhs_row_stride, rhs_col_stride]) = match plan.kernel_in_place {
        Some(strides) => (cx.buffer_of(b, im.rhs)?, strides),
        None => {
            let shape: &[i64] = match plan.groups > 1 {
                true => &[plan.groups, plan.k, plan.n],
                false => &[plan.k, plan.n],
            };
            let kernel_ty = b.ctx.types.memref_ty(shape, im.elem);
            let kernel = b.alloc(kernel_ty);
            pack_kernel(
                cx,
                b,
                op,
                kernel,
                &plan.columns,
                &im.columns,
                plan.groups,
                plan.n,
            )?;
            (kernel, [plan.n, 1])
        }
    };
    let weights = Weights {
        kernel,
        row_stride: rhs_row_stride,
        col_stride: rhs_col_stride,
        // Where group g's kernel columns start: its output features in
        // place, its own block when packed.
        group_stride: match plan.kernel_in_place {
            Some(_) => plan.n * rhs_col_stride,
            None => plan.k * plan.n,
        },
    };
    match plan.position_block {
        Some(rows) => by_position_blocks(cx, b, &im, &plan, &weights, out, rows)?,
        None => whole_images(cx, b, &im, &plan, &weights, out)?,
    }
    if plan.kernel_in_place.is_none() {
        b.insert("mem.dealloc", vec![kernel], &[], vec![]);
    }
    Ok(())
}

/// The GEMM's rhs: the kernel matrix (its buffer or a packed copy) and its
/// strides.
struct Weights {
    kernel: Value,
    row_stride: i64,
    col_stride: i64,
    group_stride: i64,
}

/// What packing the patches needs to know of the convolution.
struct Im2col {
    c: strata_dialect_xla::ops::conv::Conv,
    lhs: Value,
    rhs: Value,
    result: Value,
    /// The input's shape.
    ls: Vec<i64>,
    /// Input features of a group.
    kin: i64,
    /// The patches' element type (the operands').
    elem: strata_ir::Type,
    /// Sizes of the plan's K columns, outermost first.
    columns: Vec<i64>,
    /// The output's spatial sizes, in window order.
    osizes: Vec<i64>,
    /// Whether the patches are stored row by row (patches[position][column])
    /// rather than column by column.
    by_rows: bool,
    /// The patches' zero (padding, between dilated inputs).
    zero: Value,
}

impl Im2col {
    fn of(b: &mut Builder<'_>, op: OpId, plan: &GemmPlan) -> Result<Im2col> {
        let (lhs, rhs) = (b.ctx.op(op).operands()[0], b.ctx.op(op).operands()[1]);
        let (ls, rs) = (shape_of(b.ctx, lhs), shape_of(b.ctx, rhs));
        let result = b.ctx.op(op).results[0];
        let os = shape_of(b.ctx, result);
        let c = strata_dialect_xla::ops::conv::conv(b.ctx, op)
            .ok_or_else(|| Diagnostic::internal(b.loc, "convolution without dimension numbers"))?;
        let kin = rs[c.kernel_input_feature];
        let ksizes: Vec<i64> = c.kernel_spatial.iter().map(|&d| rs[d]).collect();
        let columns = plan
            .columns
            .iter()
            .map(|&col| match col {
                Column::InputFeature => kin,
                Column::Spatial(d) => ksizes[d],
            })
            .collect();
        // Patches are stored and filled so that reads and writes both
        // stream: row by row when the input features are innermost in both
        // the input and the columns, so a window is whole runs of input
        // features (NHWC: measured 20% of ResNet-50's time in the packing
        // the other way, a gather at a stride of the features); column by
        // column otherwise, where a column's positions walk an input row
        // (NCHW).
        let by_rows =
            c.input_feature + 1 == ls.len() && plan.columns.last() == Some(&Column::InputFeature);
        let elem = b.ctx.types.elem(b.ctx.value_ty(lhs));
        Ok(Im2col {
            osizes: c.output_spatial.iter().map(|&d| os[d]).collect(),
            elem,
            zero: b.zero(elem),
            c,
            lhs,
            rhs,
            result,
            ls,
            kin,
            columns,
            by_rows,
        })
    }

    /// A patch matrix of `positions` rows for `groups` groups (an outer
    /// dimension when several), laid out as [`Im2col::by_rows`] says.
    fn matrix_shape(&self, plan: &GemmPlan, positions: i64) -> Vec<i64> {
        let mut shape = group_dim(plan);
        shape.extend(match self.by_rows {
            true => [positions, plan.k],
            false => [plan.k, positions],
        });
        shape
    }

    /// The space of a patch matrix in its memory order: (groups,) then
    /// positions of `positions` sizes and columns, in the order stored.
    fn space(&self, plan: &GemmPlan, positions: &[i64]) -> Vec<i64> {
        let mut space = group_dim(plan);
        match self.by_rows {
            true => space.extend(positions.iter().chain(&self.columns)),
            false => space.extend(self.columns.iter().chain(positions)),
        }
        space
    }

    /// A point of [`Im2col::space`] split into (group, column, position).
    fn split<'v>(
        &self,
        iv: &'v [Value],
        grouped: bool,
    ) -> (Option<Value>, &'v [Value], &'v [Value]) {
        let n = self.osizes.len();
        let (group, iv) = split_group(iv, grouped);
        match self.by_rows {
            true => {
                let (pos, col) = iv.split_at(n);
                (group, col, pos)
            }
            false => {
                let (col, pos) = iv.split_at(n + 1);
                (group, col, pos)
            }
        }
    }

    /// The patch element of `image` and `group` at column `col` and output
    /// position `pos`: the input element under that kernel position, zero
    /// in the padding and between dilated inputs.
    fn element(
        &self,
        cx: &mut FuncLowering<'_>,
        b: &mut Builder<'_>,
        plan: &GemmPlan,
        image: Value,
        group: Option<Value>,
        col: &[Value],
        pos: &[Value],
    ) -> Result<Value> {
        let c = &self.c;
        let n = self.osizes.len();
        let zero = b.const_index(0);
        let mut kpos = vec![zero; n];
        let mut lidx = vec![zero; self.ls.len()];
        lidx[c.input_batch] = image;
        for (&which, &i) in plan.columns.iter().zip(col) {
            match which {
                Column::InputFeature => lidx[c.input_feature] = in_group(b, group, self.kin, i),
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
                self.ls[c.input_spatial[d]],
            );
            lidx[c.input_spatial[d]] = e;
            valid = Some(match valid {
                Some(v) => b.binary("arith.andi", v, ok),
                None => ok,
            });
        }
        let x = cx.element(b, self.lhs, &lidx)?;
        let x = as_stored(b, x, self.elem)?;
        Ok(match valid {
            Some(v) => b.select(v, x, self.zero),
            None => x,
        })
    }

    /// The product of a patch matrix of `positions` rows (stored as
    /// [`Im2col::matrix_shape`] says) with the kernel, without batches.
    fn product_dims(&self, plan: &GemmPlan, w: &Weights, positions: i64) -> [Dim; 3] {
        let [lhs_row_stride, lhs_col_stride] = match self.by_rows {
            true => [plan.k, 1],
            false => [1, positions],
        };
        let rows = Dim {
            size: positions,
            lhs: lhs_row_stride,
            rhs: 0,
            out: plan.out_position_stride,
        };
        let cols = Dim {
            size: plan.n,
            lhs: 0,
            rhs: w.col_stride,
            out: plan.out_feature_stride,
        };
        let depth = Dim {
            size: plan.k,
            lhs: lhs_col_stride,
            rhs: w.row_stride,
            out: 0,
        };
        [rows, cols, depth]
    }
}

/// The groups as an outer dimension, when there are several.
fn group_dim(plan: &GemmPlan) -> Vec<i64> {
    (plan.groups > 1)
        .then_some(plan.groups)
        .into_iter()
        .collect()
}

/// The result from `start` on as a buffer of `len` elements.
fn result_view(b: &mut Builder<'_>, im: &Im2col, out: Value, start: Value, len: i64) -> Value {
    let out_elem = b.ctx.types.elem(b.ctx.value_ty(im.result));
    let view_ty = b.ctx.types.memref_ty(&[len], out_elem);
    b.op1("mem.offset", vec![out, start], view_ty, vec![])
}

/// One patch matrix per image packed and multiplied in turn when each
/// image's result is one block of memory (the patch matrix stays one image
/// large); otherwise all images packed first and multiplied as one batched
/// product. Groups (when several) are an outer dimension of the patches
/// and of a packed kernel: group g's matrices are blocks of their own,
/// multiplied as one batched GEMM.
fn whole_images(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    im: &Im2col,
    plan: &GemmPlan,
    w: &Weights,
    out: Value,
) -> Result<()> {
    let total: i64 = shape_of(b.ctx, im.result).iter().product();
    let per_image = plan.per_image(total);
    let grouped = plan.groups > 1;
    let mut patches_shape = Vec::new();
    if !per_image {
        patches_shape.push(plan.batch);
    }
    patches_shape.extend(im.matrix_shape(plan, plan.m));
    let patches_ty = b.ctx.types.memref_ty(&patches_shape, im.elem);
    let patches = b.alloc(patches_ty);
    let space = im.space(plan, &im.osizes);
    let [rows, cols, depth] = im.product_dims(plan, w, plan.m);
    // Batches of the product: images (when packed together), then groups,
    // as the patches hold them.
    let group_dim = grouped.then_some(Dim {
        size: plan.groups,
        lhs: plan.m * plan.k,
        rhs: w.group_stride,
        out: plan.n * plan.out_feature_stride,
    });
    let image_dim = (!per_image).then_some(Dim {
        size: plan.batch,
        lhs: plan.groups * plan.m * plan.k,
        rhs: 0,
        out: plan.out_batch_stride,
    });
    let batch: Vec<Dim> = image_dim.into_iter().chain(group_dim).collect();
    let desc = descriptor(&batch, rows, cols, depth)
        .ok_or_else(|| Diagnostic::internal(b.loc, "a convolution's GEMM with too many batches"))?;
    let gemm = plan.elements.signature();
    b.for_range(0, plan.batch, &mut |b, image| {
        // Every (column, position) writes its own element of the patch
        // matrix: the packing runs on the thread pool too.
        b.parallel_nest(&space, &mut |b, iv| {
            let (group, col, pos) = im.split(iv, grouped);
            let x = im.element(cx, b, plan, image, group, col, pos)?;
            let row = linear_index(b, pos, &im.osizes);
            let column = linear_index(b, col, &im.columns);
            let mut at = if per_image { vec![] } else { vec![image] };
            at.extend(group);
            match im.by_rows {
                true => at.extend([row, column]),
                false => at.extend([column, row]),
            }
            b.store(x, patches, &at);
            Ok(())
        })?;
        if per_image {
            let stride = b.const_index(plan.out_batch_stride);
            let start = b.binary("arith.muli", image, stride);
            let image_out = result_view(b, im, out, start, plan.out_batch_stride);
            super::dot::call_gemm(cx, b, gemm, &desc, patches, w.kernel, image_out)?;
        }
        Ok(())
    })?;
    if !per_image {
        super::dot::call_gemm(cx, b, gemm, &desc, patches, w.kernel, out)?;
    }
    b.insert("mem.dealloc", vec![patches], &[], vec![]);
    Ok(())
}

/// Blocks of `rows` rows of the outermost output spatial dimension, of
/// every image, split between threads: each packs its block's patches into
/// a matrix of its own (small enough to stay in cache, see
/// `strata_dialect_kernel::conv::POSITION_BLOCK_BYTES`) and multiplies it
/// at once, so the patches never go through memory. The plan takes this
/// only for ungrouped convolutions whose images are blocks of memory.
fn by_position_blocks(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    im: &Im2col,
    plan: &GemmPlan,
    w: &Weights,
    out: Value,
    rows: i64,
) -> Result<()> {
    let mut local = im.osizes.clone();
    let blocks = local[0] / rows;
    local[0] = rows;
    let positions: i64 = local.iter().product();
    let patches_ty = b
        .ctx
        .types
        .memref_ty(&im.matrix_shape(plan, positions), im.elem);
    let space = im.space(plan, &local);
    let [rows_dim, cols, depth] = im.product_dims(plan, w, positions);
    let desc = descriptor(&[], rows_dim, cols, depth)
        .ok_or_else(|| Diagnostic::internal(b.loc, "a convolution's GEMM without a descriptor"))?;
    let gemm = plan.elements.signature();
    // The elements a block's product writes: its positions of every feature.
    let extent =
        (plan.n - 1) * plan.out_feature_stride + (positions - 1) * plan.out_position_stride + 1;
    b.parallel_nest(&[plan.batch, blocks], &mut |b, iv| {
        let (image, block) = (iv[0], iv[1]);
        let patches = b.alloc(patches_ty);
        let first_row = b.const_index(rows);
        let first_row = b.binary("arith.muli", block, first_row);
        b.loop_nest(&space, &mut |b, iv| {
            let (_, col, at) = im.split(iv, false);
            let mut pos = at.to_vec();
            pos[0] = b.binary("arith.addi", first_row, at[0]);
            let x = im.element(cx, b, plan, image, None, col, &pos)?;
            let row = linear_index(b, at, &local);
            let column = linear_index(b, col, &im.columns);
            match im.by_rows {
                true => b.store(x, patches, &[row, column]),
                false => b.store(x, patches, &[column, row]),
            }
            Ok(())
        })?;
        let image_stride = b.const_index(plan.out_batch_stride);
        let image_start = b.binary("arith.muli", image, image_stride);
        let block_stride = b.const_index(positions * plan.out_position_stride);
        let block_start = b.binary("arith.muli", block, block_stride);
        let start = b.binary("arith.addi", image_start, block_start);
        let block_out = result_view(b, im, out, start, extent);
        super::dot::call_gemm(cx, b, gemm, &desc, patches, w.kernel, block_out)?;
        b.insert("mem.dealloc", vec![patches], &[], vec![]);
        Ok(())
    })
}

/// The kernel as a matrix: kernel[column][output feature], columns
/// ordered as `order` says (the patches' order); `columns` are their
/// sizes, `features` the output features of a group. With several
/// `groups`, one matrix per group: kernel[group][column][feature].
#[allow(clippy::too_many_arguments)]
fn pack_kernel(
    cx: &mut FuncLowering<'_>,
    b: &mut Builder<'_>,
    op: OpId,
    kernel: Value,
    order: &[Column],
    columns: &[i64],
    groups: i64,
    features: i64,
) -> Result<()> {
    let rhs = b.ctx.op(op).operands()[1];
    let rs = shape_of(b.ctx, rhs);
    let c = strata_dialect_xla::ops::conv::conv(b.ctx, op)
        .ok_or_else(|| Diagnostic::internal(b.loc, "convolution without dimension numbers"))?;
    let n = c.kernel_spatial.len();
    let grouped = groups > 1;
    let mut space: Vec<i64> = if grouped { vec![groups] } else { Vec::new() };
    space.extend(columns);
    space.push(features);
    b.loop_nest(&space, &mut |b, iv| {
        let (group, iv) = split_group(iv, grouped);
        let (col, of) = iv.split_at(n + 1);
        let zero = b.const_index(0);
        let mut ridx = vec![zero; rs.len()];
        ridx[c.kernel_output_feature] = in_group(b, group, features, of[0]);
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
        let elem = b.ctx.types.elem(b.ty(kernel));
        let w = cx.element(b, rhs, &ridx)?;
        let w = as_stored(b, w, elem)?;
        let column = linear_index(b, col, columns);
        let mut at: Vec<Value> = group.into_iter().collect();
        at.extend([column, of[0]]);
        b.store(w, kernel, &at);
        Ok(())
    })
}

/// A loop nest's indices split into the group (the first index, when the
/// nest runs over groups) and the rest.
fn split_group(iv: &[Value], grouped: bool) -> (Option<Value>, &[Value]) {
    match grouped {
        true => (iv.first().copied(), &iv[1..]),
        false => (None, iv),
    }
}

/// Feature `i` of `group` (of `per_group` features) as a feature of all
/// groups; `i` itself without groups.
fn in_group(b: &mut Builder<'_>, group: Option<Value>, per_group: i64, i: Value) -> Value {
    match group {
        Some(g) => {
            let size = b.const_index(per_group);
            let base = b.binary("arith.muli", g, size);
            b.binary("arith.addi", base, i)
        }
        None => i,
    }
}

/// An operand's element as `elem` for storing: a fused producer computes
/// narrow floats in a wider type (its value already rounded to `elem`, so
/// the conversion is exact).
fn as_stored(b: &mut Builder<'_>, x: Scalar, elem: strata_ir::Type) -> Result<Value> {
    let x = x.real();
    let from = b.ty(x);
    if from == elem {
        return Ok(x);
    }
    Ok(scalar::convert(b, Scalar::Real(x), from, elem)?.real())
}
